// Walks fixtures/rules/<id>/ and demands exactly the findings annotated in
// the fixture files with a trailing `# expect: <rule-id>[, <rule-id>]` on the
// line where each finding starts: none missing, none extra.
//
// Every directory below fixtures/rules/<id>/ that holds configuration files is
// one module. Its settings are the nearest .tfsift.toml inside
// fixtures/rules/<id>/ (policies are fixtures of their own: policy-<kind>/).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "tfsift/hcl/ast.hpp"
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
        std::string ids = line.substr(at + 9);
        std::istringstream list(ids);
        std::string id;
        while (std::getline(list, id, ',')) {
            auto b = id.find_first_not_of(" \t\r");
            auto e = id.find_last_not_of(" \t\r");
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

FixtureOutcome run_rule_fixtures(const fs::path& rule_dir) {
    FixtureOutcome outcome;
    lint::Settings none;
    for (const auto& dir : lint::find_module_dirs(rule_dir.string(), none)) {
        std::string settings_file = nearest_settings(dir, rule_dir);
        lint::SettingsResult settings = settings_file.empty() ? lint::SettingsResult{} : lint::load_settings(settings_file);
        INFO(settings_file);
        REQUIRE(settings.ok());
        auto engine = lint::detect_engine(dir);
        std::vector<hcl::File> files;
        for (const auto& path : lint::module_config_files(dir, engine, settings.settings)) {
            files.push_back(hcl::parse(SourceFile::read(path)));
            outcome.expected.merge(expectations(*files.back().source));
            ++outcome.files;
        }
        auto rules = lint::rules_for(settings.settings);
        std::vector<std::string> unknown;
        auto active = lint::activate_rules(rules, settings.settings, {}, unknown);
        lint::LintContext ctx;
        ctx.module_dir = dir;
        ctx.files = files;
        ctx.engine = engine;
        for (const auto& f : lint::lint_module(ctx, active, settings.settings)) {
            outcome.actual.insert(f.file->path() + ":" + std::to_string(f.range.start.line) + " " + f.rule_id);
        }
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
