// The lock file repair as an ordinary fix: one whole-file edit, shared by
// the module's lock findings, creating the file when there is none, unsafe
// when it changes a locked version, and byte for byte what `tfsift lock`
// writes.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "support/scoped_env.hpp"
#include "support/scratch_dir.hpp"
#include "tfsift/lint/apply_fixes.hpp"
#include "tfsift/lint/lock_command.hpp"
#include "tfsift/lint/session.hpp"
#include "tfsift/rules/catalogue.hpp"

using namespace tfsift;
using namespace tfsift::lint;
using tfsift::testing::read_file;
using tfsift::testing::ScopedEnv;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;
namespace fs = std::filesystem;

namespace {

constexpr const char* kHeader =
    "# This file is maintained automatically by \"terraform init\".\n"
    "# Manual edits may be lost in future updates.\n";

std::string entry(const std::string& type, const std::string& version, const std::string& constraints) {
    return "\nprovider \"registry.terraform.io/hashicorp/" + type + "\" {\n  version     = \"" + version +
           "\"\n  constraints = \"" + constraints +
           "\"\n  hashes = [\n    \"h1:zT1ZbegaAYHwQa+QwIFugArWikRJI9dqohj8xb0GY88=\",\n  ]\n}\n";
}

// A root module requiring hashicorp/null with `constraint`, with the
// package of null `installed` unpacked in .terraform/providers for
// linux_amd64 (the only platform of its settings), and a home of its own so
// that no package of the machine is seen.
struct RootModule {
    ScratchDir dir{"tfsift-lock-fix"};
    ScopedEnv home{"HOME", nullptr};
    ScopedEnv cli_config{"TF_CLI_CONFIG_FILE", nullptr};
    ScopedEnv plugin_cache{"TF_PLUGIN_CACHE_DIR", nullptr};
    ScopedEnv data_dir{"TF_DATA_DIR", nullptr};

    RootModule(const std::string& constraint, const std::string& installed) {
        ::setenv("HOME", (dir.path / "home").string().c_str(), 1);
        write_file(dir.path / "home" / ".terraformrc", "");
        ::setenv("TF_CLI_CONFIG_FILE", (dir.path / "home" / ".terraformrc").string().c_str(), 1);
        write_file(module() / ".tfsift.toml", "platforms = [\"linux_amd64\"]\n");
        write_file(module() / "main.tf",
                   "terraform {\n  required_providers {\n    null = {\n      source  = "
                   "\"hashicorp/null\"\n      version = \"" +
                       constraint + "\"\n    }\n  }\n}\n\nprovider \"null\" {}\n");
        if (!installed.empty()) {
            write_file(module() / ".terraform" / "providers" / "registry.terraform.io" / "hashicorp" / "null" /
                           installed / "linux_amd64" / ("terraform-provider-null_v" + installed),
                       "not really a provider " + installed + "\n");
        }
    }
    [[nodiscard]] fs::path module() const { return dir.path / "root"; }
    [[nodiscard]] fs::path lock() const { return module() / ".terraform.lock.hcl"; }

    [[nodiscard]] LintResult lint(std::optional<FixMode> fix = std::nullopt) const {
        LintRequest request;
        request.catalogue = builtin_rules();
        request.paths = {module().string()};
        request.offline = true;
        request.fix = fix;
        return run_session(request);
    }
};

std::vector<const Finding*> with_rule(const LintResult& result, const std::string& rule) {
    std::vector<const Finding*> out;
    for (const auto& f : result.findings) {
        if (f.rule_id == rule) out.push_back(&f);
    }
    return out;
}

}  // namespace

TEST_CASE("lock fix: a whole-file fix creates a missing file, once for several findings", "[lint][fix][lock]") {
    ScratchDir dir;
    const std::string path = (dir.path / ".terraform.lock.hcl").string();
    auto absent = std::make_shared<const SourceFile>(path, std::string());
    Fix fix;
    fix.description = "Create it";
    fix.edits.push_back({absent, Range{Pos{0}, Pos{0}}, "# new\n"});
    Findings findings(3);
    for (auto& f : findings) {
        f.rule_id = "some-rule";
        f.file = absent;
        f.fix = fix;
    }
    const FixPlan plan = plan_fixes(findings, FixMode::safe_only);
    CHECK(plan.findings_fixed == 3);
    CHECK(plan.conflicts_skipped == 0);
    CHECK(plan.applied.size() == 1);
    REQUIRE(plan.new_text.count(path) == 1);
    CHECK(plan.new_text.at(path) == "# new\n");
    CHECK(plan.old_text.at(path).empty());

    const FixWriteResult written = write_fixes(plan);
    CHECK(written.errors.empty());
    CHECK(written.written == std::vector<std::string>{path});
    CHECK(read_file(path) == "# new\n");
    for (const auto& e : fs::directory_iterator(dir.path)) CHECK(e.path().filename() == ".terraform.lock.hcl");

    // A file that appeared since the lint is somebody else's: left alone.
    write_file(path, "written meanwhile\n");
    const FixWriteResult again = write_fixes(plan);
    CHECK(again.written.empty());
    CHECK(again.errors.size() == 1);
    CHECK(read_file(path) == "written meanwhile\n");
}

TEST_CASE("lock fix: dropping entries is one safe fix shared by the module's lock findings", "[lint][fix][lock]") {
    RootModule m("~> 3.0", "");
    const std::string before = std::string(kHeader) + entry("null", "3.2.2", "~> 3.0") +
                               entry("random", "3.6.0", ">= 3.0.0") + entry("tls", "4.0.5", "~> 4.0");
    write_file(m.lock(), before);

    const LintResult linted = m.lint();
    REQUIRE(linted.completed);
    const auto stale = with_rule(linted, "lock-stale-provider");
    REQUIRE(stale.size() == 2);
    for (const Finding* f : stale) {
        REQUIRE(f->fix.has_value());
        CHECK(f->fix->applicability == Applicability::safe);
        REQUIRE(f->fix->edits.size() == 1);
        const TextEdit& edit = f->fix->edits.front();
        CHECK(fs::path(edit.file->path()).filename() == ".terraform.lock.hcl");
        CHECK(edit.file->text() == before);
        CHECK(edit.range.start.byte == 0);
        CHECK(edit.range.end.byte == before.size());
        CHECK(edit.replacement == std::string(kHeader) + entry("null", "3.2.2", "~> 3.0"));
    }
    CHECK(stale[0]->fix->edits.front().replacement == stale[1]->fix->edits.front().replacement);
    // Linting changed nothing.
    CHECK(read_file(m.lock()) == before);

    const FixPlan plan = plan_fixes(linted.findings, FixMode::safe_only);
    CHECK(plan.findings_fixed >= 2);
    CHECK(plan.conflicts_skipped == 0);
    CHECK(plan.new_text.size() == 1);

    const LintResult fixed = m.lint(FixMode::safe_only);
    REQUIRE(fixed.completed);
    CHECK(read_file(m.lock()) == std::string(kHeader) + entry("null", "3.2.2", "~> 3.0"));
    CHECK(with_rule(fixed, "lock-stale-provider").empty());
    CHECK(fixed.files_fixed == 1);
}

TEST_CASE("lock fix: a repair that changes a locked version is unsafe", "[lint][fix][lock]") {
    RootModule m("~> 3.2", "3.2.2");
    const std::string before = std::string(kHeader) + entry("null", "3.1.0", "~> 3.1");
    write_file(m.lock(), before);

    const LintResult linted = m.lint();
    REQUIRE(linted.completed);
    const auto mismatch = with_rule(linted, "lock-version-mismatch");
    REQUIRE(mismatch.size() == 1);
    REQUIRE(mismatch[0]->fix.has_value());
    CHECK(mismatch[0]->fix->applicability == Applicability::unsafe);
    CHECK(mismatch[0]->fix->edits.front().replacement.find("version     = \"3.2.2\"") != std::string::npos);

    CHECK(plan_fixes(linted.findings, FixMode::safe_only).new_text.empty());
    CHECK(plan_fixes(linted.findings, FixMode::include_unsafe).new_text.size() == 1);

    // --fix leaves it; --unsafe-fixes writes it.
    (void)m.lint(FixMode::safe_only);
    CHECK(read_file(m.lock()) == before);
    const LintResult fixed = m.lint(FixMode::include_unsafe);
    CHECK(fixed.files_fixed == 1);
    CHECK(read_file(m.lock()).find("version     = \"3.2.2\"") != std::string::npos);
    CHECK(with_rule(fixed, "lock-version-mismatch").empty());
}

TEST_CASE("lock fix: a missing lock file is created with the bytes `tfsift lock` writes", "[lint][fix][lock]") {
    RootModule m("~> 3.2", "3.2.2");
    const LintResult linted = m.lint();
    REQUIRE(linted.completed);
    const auto missing = with_rule(linted, "lock-missing");
    REQUIRE(missing.size() == 1);
    REQUIRE(missing[0]->fix.has_value());
    CHECK(missing[0]->fix->applicability == Applicability::safe);
    CHECK(!fs::exists(m.lock()));

    const LintResult fixed = m.lint(FixMode::safe_only);
    REQUIRE(fs::exists(m.lock()));
    CHECK(with_rule(fixed, "lock-missing").empty());
    const std::string by_fix = read_file(m.lock());
    CHECK(by_fix == missing[0]->fix->edits.front().replacement);

    fs::remove(m.lock());
    LockCommandRequest lock;
    lock.catalogue = builtin_rules();
    lock.dir = m.module().string();
    lock.platforms = {"linux_amd64"};
    lock.offline = true;
    REQUIRE(run_lock_command(lock).outcome == LockCommandOutcome::done);
    CHECK(read_file(m.lock()) == by_fix);
}
