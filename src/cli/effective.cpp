// `tfsift effective [DIR] --format json|hcl`: the effective configuration
// of a module tree (see ../shared/spec/effective-config.md).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/config/effective_output.hpp"
#include "tfsift/enum_names.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::cli {

void add_effective_options(CLI::App& cmd, EffectiveOptions& options) {
    cmd.add_option("dir", options.dir, "Root module directory (default: .)");
    cmd.add_option("--format", options.format, "Output format")->check(CLI::IsMember({"json", "hcl"}));
    cmd.add_option("--engine", options.engine, "Loading rules: terraform or opentofu (.tofu files)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));
    cmd.add_flag("--installed-modules", options.installed_modules,
                 "Also load remote modules installed in .terraform/modules");
}

int run_effective(const EffectiveOptions& options) {
    std::error_code ec;
    if (!std::filesystem::is_directory(options.dir, ec)) {
        fmt::print(stderr, "tfsift: {}: not a readable directory\n", options.dir);
        return exit_failure;
    }
    config::TreeOptions tree_options;
    tree_options.engine = parse_engine(options.engine).value_or(Engine::terraform);
    tree_options.installed_modules = options.installed_modules;
    const config::EffectiveOutput out = config::render_effective(
        options.dir, tree_options,
        options.format == "hcl" ? config::EffectiveFormat::hcl : config::EffectiveFormat::json);
    if (!out.loaded) {
        fmt::print(stderr, "tfsift: {}: cannot read the directory\n", options.dir);
        return exit_failure;
    }
    const std::string& text = out.text;
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (std::fflush(stdout) != 0) return exit_failure;
    // A file that could not be read is an I/O error (exit 2), as for lint.
    for (const auto& failure : out.read_failures) {
        fmt::print(stderr, "tfsift: cannot read {}\n", report::escape_control_characters(failure));
    }
    if (!out.read_failures.empty()) return exit_failure;
    return out.has_errors ? 1 : 0;
}

}  // namespace tfsift::cli
