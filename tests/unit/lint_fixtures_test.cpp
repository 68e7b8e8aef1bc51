// Walks fixtures/rules/<id>/ and demands exactly the findings annotated in
// the fixture files with a trailing `# expect: <rule-id>[, <rule-id>]` on the
// line where each finding starts (in JSON files: `"//": "# expect: ..."`):
// none missing, none extra. Each directory runs only its own rule (see
// fixture_selection).
//
// Every directory below fixtures/rules/<id>/ that holds configuration files is
// one module. Its settings are the nearest .tfsift.toml inside
// fixtures/rules/<id>/ (policies are fixtures of their own: policy-<kind>/).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/lint/registry.hpp"

namespace fs = std::filesystem;
using namespace tfsift;

namespace {

const fs::path fixtures_root = fs::path(TFSIFT_SOURCE_DIR) / "fixtures" / "rules";

// "file:line rule" for every expectation of a file.
std::multiset<std::string> expectations(const SourceFile& src) {
    std::multiset<std::string> out;
    std::istringstream in{std::string(src.text())};
    std::string line;
    for (std::uint32_t n = 1; std::getline(in, line); ++n) {
        auto at = line.find("# expect:");
        if (at == std::string::npos) continue;
        // In a .tf.json file the expectation sits in a "//" comment string,
        // which ends at its closing quote.
        std::string ids = line.substr(at + 9);
        ids = ids.substr(0, ids.find('"'));
        std::istringstream list(ids);
        std::string id;
        while (std::getline(list, id, ',')) {
            auto b = id.find_first_not_of(" \t\r\"");
            auto e = id.find_last_not_of(" \t\r\"");
            if (b == std::string::npos) continue;
            out.insert(src.path() + ":" + std::to_string(n) + " " + id.substr(b, e - b + 1));
        }
    }
    return out;
}

std::string nearest_settings(const fs::path& module_dir, const fs::path& rule_dir) {
    for (fs::path d = module_dir;; d = d.parent_path()) {
        if (fs::exists(d / ".tfsift.toml")) return (d / ".tfsift.toml").string();
        if (d == rule_dir || d == d.parent_path()) return {};
    }
}

struct FixtureOutcome {
    std::multiset<std::string> expected;
    std::multiset<std::string> actual;
    std::size_t files = 0;
};

// The rules a fixture directory runs: the rule it is named after, every
// policy of its settings, and the rules its settings mention (a fixture of
// `unused-ignore` needs rules whose findings the ignores suppress). Other
// rules stay off, so a fixture shows one rule's behaviour without having to
// satisfy the whole catalogue.
lint::RuleSelection fixture_selection(const fs::path& rule_dir, const lint::Settings& settings) {
    lint::RuleSelection selection;
    std::string id = rule_dir.filename().string();
    if (lint::find_builtin_rule(id) != nullptr) selection.only.push_back(id);
    for (const auto& p : settings.policies) selection.only.push_back(p.id);
    for (const auto& [rule, setting] : settings.rules) {
        if (setting.enabled.value_or(true)) selection.only.push_back(rule);
    }
    return selection;
}

// Lints every module below `rule_dir` the way `tfsift lint --recursive` does:
// a module that another fixture module calls by a local path is "called".
FixtureOutcome run_rule_fixtures(const fs::path& rule_dir) {
    FixtureOutcome outcome;
    lint::Settings none;
    struct Module {
        std::string dir;
        lint::SettingsResult settings;
        Engine engine = Engine::terraform;
        config::LoadedTree tree;
    };
    std::vector<Module> modules;
    std::set<std::string> called_dirs;
    for (const auto& dir : lint::find_module_dirs(rule_dir.string(), none)) {
        std::string settings_file = nearest_settings(dir, rule_dir);
        Module m;
        m.dir = dir;
        m.settings = settings_file.empty() ? lint::SettingsResult{} : lint::load_settings(settings_file);
        INFO(settings_file);
        REQUIRE(m.settings.ok());
        m.engine = m.settings.settings.engine.value_or(lint::detect_engine(dir));
        m.tree = lint::load_for_lint(dir, m.engine, m.settings.settings);
        REQUIRE(m.tree.root);
        for (const auto& f : m.tree.root->files) {
            outcome.expected.merge(expectations(*f.parsed->source));
            ++outcome.files;
        }
        // The lock file and the state file are not configuration files, but
        // lock rules report into them; both are named as the module's files are.
        for (const char* name : {".terraform.lock.hcl", "terraform.tfstate"}) {
            fs::path extra = fs::path(dir) / name;
            if (!fs::is_regular_file(extra)) continue;
            std::string shown = extra.string();
            auto text = SourceFile::read(extra.string());
            outcome.expected.merge(expectations(SourceFile(shown, std::string(text->text()))));
        }
        std::vector<const config::LoadedModule*> todo{m.tree.root.get()};
        while (!todo.empty()) {
            const config::LoadedModule* lm = todo.back();
            todo.pop_back();
            for (const auto& [name, child] : lm->children) {
                called_dirs.insert(lint::absolute_normal_path(dir + "/" + child.dir));
                todo.push_back(&child);
            }
        }
        modules.push_back(std::move(m));
    }
    lint::Findings all;
    for (const Module& m : modules) {
        auto rules = lint::rules_for(m.settings.settings);
        std::vector<std::string> unknown;
        auto active = lint::activate_rules(rules, m.settings.settings, fixture_selection(rule_dir, m.settings.settings), unknown);
        REQUIRE(unknown.empty());
        lint::LintContext ctx;
        ctx.module_dir = m.dir;
        ctx.tree = &m.tree;
        ctx.engine = m.engine;
        ctx.settings = &m.settings.settings;
        ctx.role = called_dirs.count(lint::absolute_normal_path(m.dir)) ? lint::ModuleRole::called : lint::ModuleRole::root;
        if (fs::exists(fs::path(m.dir) / "terraform.tfstate")) ctx.state_file = (fs::path(m.dir) / "terraform.tfstate").string();
        for (auto& f : lint::lint_module(ctx, active, m.settings.settings)) all.push_back(std::move(f));
    }
    lint::sort_findings(all);  // a called module's loader findings also come with its caller
    for (const auto& f : all) {
        outcome.actual.insert(f.file->path() + ":" + std::to_string(f.file->line(f.range.start)) + " " + f.rule_id);
    }
    return outcome;
}

std::string difference(const std::multiset<std::string>& a, const std::multiset<std::string>& b) {
    std::multiset<std::string> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.begin()));
    std::string s;
    for (const auto& x : out) s += "  " + x + "\n";
    return s;
}

}  // namespace

TEST_CASE("every rule fixture gives exactly the annotated findings", "[lint][fixtures]") {
    REQUIRE(fs::is_directory(fixtures_root));
    std::size_t rule_dirs = 0;
    for (const auto& entry : fs::directory_iterator(fixtures_root)) {
        if (!entry.is_directory()) continue;
        ++rule_dirs;
        std::string id = entry.path().filename().string();
        SECTION(id) {
            INFO("fixtures/rules/" << id);
            bool known = lint::find_builtin_rule(id) != nullptr || id.rfind("policy-", 0) == 0;
            CHECK(known);
            FixtureOutcome outcome = run_rule_fixtures(entry.path());
            CHECK(outcome.files > 0);
            CHECK(!outcome.expected.empty());  // at least one failing case
            INFO("missing findings:\n" << difference(outcome.expected, outcome.actual)
                                       << "unexpected findings:\n" << difference(outcome.actual, outcome.expected));
            CHECK(outcome.expected == outcome.actual);
        }
    }
    CHECK(rule_dirs > 0);
}

TEST_CASE("every built-in rule has failing and passing fixtures", "[lint][fixtures]") {
    for (const auto& rule : lint::builtin_rules()) {
        INFO(rule.id);
        CHECK(fs::is_directory(fixtures_root / rule.id / "failing"));
        CHECK(fs::is_directory(fixtures_root / rule.id / "passing"));
    }
}
