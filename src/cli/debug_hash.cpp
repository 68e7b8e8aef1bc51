// `tfsift debug hash PATH...`: the lock-file hashes of provider packages.
#include <fmt/core.h>

#include <filesystem>
#include <system_error>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/providers/hash.hpp"

namespace tfsift::cli {

int run_debug_hash(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    int exit_code = exit_clean;
    for (const auto& path : paths) {
        std::error_code ec;
        if (!fs::exists(path, ec)) {
            fmt::print(stderr, "{}: no such file or directory\n", path);
            exit_code = exit_failure;
            continue;
        }
        const bool is_directory = fs::is_directory(path, ec);
        const auto h1 = providers::h1_of_package(path);
        if (!h1.ok()) {
            fmt::print(stderr, "{}: {}\n", path, h1.error);
            if (exit_code == exit_clean) exit_code = exit_findings;
            continue;
        }
        fmt::print("{}  {}\n", h1.value, path);
        if (!is_directory) {
            const auto zh = providers::zh_of_zip(path);
            if (!zh.ok()) {
                fmt::print(stderr, "{}: {}\n", path, zh.error);
                if (exit_code == exit_clean) exit_code = exit_findings;
                continue;
            }
            fmt::print("{}  {}\n", zh.value, path);
        }
    }
    return exit_code;
}

}  // namespace tfsift::cli
