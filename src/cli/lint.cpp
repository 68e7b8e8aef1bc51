// `tfsift lint`: for now, the syntax errors of every configuration file in
// the given directories.
#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "cli/commands.hpp"
#include "tfsift/hcl/ast.hpp"

namespace fs = std::filesystem;

namespace tfsift::cli {
namespace {

bool is_native_config(const fs::path& p) {
    auto name = p.filename().string();
    if (name.empty() || name[0] == '.' || name.back() == '~') return false;
    if (name.front() == '#' && name.back() == '#') return false;
    auto ext = p.extension().string();
    return ext == ".tf" || ext == ".tofu";
}

void print_diagnostic(const SourceFile& src, const Diagnostic& d) {
    if (d.subject) {
        auto pos = src.resolve(d.subject->start);
        fmt::print("{}:{}:{}: {}: {}", src.path(), pos.line, pos.column, to_string(d.severity), d.summary);
    } else {
        fmt::print("{}: {}: {}", src.path(), to_string(d.severity), d.summary);
    }
    if (!d.detail.empty()) fmt::print(": {}", d.detail);
    fmt::print("\n");
}

}  // namespace

int run_lint(const LintOptions& options) {
    std::vector<std::string> dirs = options.paths;
    if (dirs.empty()) dirs.emplace_back(".");
    bool errors = false;
    for (const auto& dir : dirs) {
        std::error_code ec;
        std::vector<fs::path> files;
        if (fs::is_regular_file(dir, ec)) {
            files.emplace_back(dir);
        } else {
            fs::directory_iterator it(dir, ec);
            if (ec) {
                fmt::print(stderr, "tfsift: cannot read directory {}: {}\n", dir, ec.message());
                return 2;
            }
            for (const auto& entry : it) {
                if (entry.is_regular_file(ec) && is_native_config(entry.path())) files.push_back(entry.path());
            }
            std::sort(files.begin(), files.end());
        }
        for (const auto& path : files) {
            std::shared_ptr<const SourceFile> src;
            try {
                src = SourceFile::read(path.string());
            } catch (const std::system_error& e) {
                fmt::print(stderr, "tfsift: cannot read {}: {}\n", path.string(), e.code().message());
                return 2;
            }
            hcl::File file = hcl::parse(src);
            for (const auto& d : file.diagnostics) {
                print_diagnostic(*src, d);
                errors = errors || d.severity == Severity::error;
            }
        }
    }
    return errors ? 1 : 0;
}

}  // namespace tfsift::cli
