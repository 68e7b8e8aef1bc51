// The paths reports print: relative to a directory, and the directory they
// are relative to.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "../support/scratch_dir.hpp"
#include "report/report_common.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/report/report.hpp"

namespace fs = std::filesystem;
using namespace tfsift;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;

namespace {

// The deepest directory holding every one of `dirs`, component by
// component with std::filesystem, as report_root worked it out before.
std::string common_by_components(const std::vector<std::string>& dirs) {
    fs::path common(lint::absolute_normal_path(dirs.front()));
    for (const auto& d : dirs) {
        const fs::path p(lint::absolute_normal_path(d));
        fs::path shared;
        auto a = common.begin();
        for (auto b = p.begin(); a != common.end() && b != p.end() && *a == *b; ++a, ++b) shared /= *a;
        common = shared;
    }
    return common.generic_string();
}

}  // namespace

TEST_CASE("report root: the repository, else the directory holding every target", "[report][paths]") {
    ScratchDir s("tfsift-report-root");
    write_file(s.path / "repo/.git/HEAD", "");
    write_file(s.path / "repo/a/main.tf", "");
    write_file(s.path / "loose/ab/main.tf", "");
    write_file(s.path / "loose/abc/main.tf", "");
    write_file(s.path / "loose/ab/x/main.tf", "");
    const auto at = [&](const char* rel) { return lint::absolute_normal_path((s.path / rel).string()); };
    CHECK(report::report_root({at("repo/a"), at("loose/ab")}) == at("repo"));
    // "ab" and "abc" share "loose", not "loose/ab".
    CHECK(report::report_root({at("loose/ab"), at("loose/abc")}) == at("loose"));
    CHECK(report::report_root({at("loose/ab"), at("loose/ab/x")}) == at("loose/ab"));
    CHECK(report::report_root({at("loose/ab/x"), at("loose/ab")}) == at("loose/ab"));
    CHECK(report::report_root({at("loose/ab")}) == at("loose/ab"));
}

TEST_CASE("report root: common directories as std::filesystem finds them", "[report][paths]") {
    // Paths that need not exist, below a directory that holds no `.git`.
    ScratchDir s("tfsift-report-root");
    const std::string base = lint::absolute_normal_path(s.path.string());
    const std::vector<std::string> segments = {"a", "ab", "abc", "b", "a.b", "a-b"};
    std::mt19937 random(3);
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
    for (int round = 0; round < 300; ++round) {
        std::vector<std::string> dirs;
        for (std::size_t k = 1 + pick(4); k > 0; --k) {
            std::string d = base;
            for (std::size_t depth = 1 + pick(4); depth > 0; --depth) d += "/" + segments[pick(segments.size())];
            dirs.push_back(d);
        }
        INFO(dirs.front());
        CHECK(report::report_root(dirs) == common_by_components(dirs));
    }
    CHECK(report::report_root({"/", base}) == "/");
}

TEST_CASE("relative paths: as relative_path, made once per file", "[report][paths]") {
    const std::string cwd = lint::absolute_normal_path(".");
    auto inside = std::make_shared<const SourceFile>("sub/dir/main.tf", "");
    auto absolute = std::make_shared<const SourceFile>(cwd + "/sub/other.tf", "");
    auto outside = std::make_shared<const SourceFile>("/elsewhere/x.tf", "");
    auto sibling = std::make_shared<const SourceFile>(cwd + "/sub-dir/y.tf", "");
    for (const std::string& base : {cwd + "/sub", cwd + "/sub/", std::string("/"), std::string()}) {
        report::detail::RelativePaths paths(base);
        for (const auto& file : {inside, absolute, outside, sibling}) {
            INFO(base << " " << file->path());
            CHECK(paths.of(*file) == report::relative_path(file->path(), base));
            CHECK(&paths.of(*file) == &paths.of(*file));
        }
    }
    report::detail::RelativePaths paths(cwd + "/sub");
    CHECK(paths.of(*inside) == "dir/main.tf");
    CHECK(paths.of(*sibling) == cwd + "/sub-dir/y.tf");
}
