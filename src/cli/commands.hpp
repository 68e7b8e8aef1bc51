// The subcommands of the tfsift CLI. Each returns the process exit code:
// 0 success / no findings, 1 findings or input errors, 2 usage or I/O errors.
#pragma once

#include <string>
#include <vector>

namespace tfsift::cli {

struct LintOptions {
    std::vector<std::string> paths;
};

int run_lint(const LintOptions& options);
int run_debug_parse(const std::vector<std::string>& files);

}  // namespace tfsift::cli
