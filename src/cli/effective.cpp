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
#include "tfsift/lint/module_resolution.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::cli {

void add_effective_options(CLI::App& cmd, EffectiveOptions& options) {
    cmd.add_option("dir", options.dir, "Root module directory (default: .)");
    cmd.add_option("--format", options.format, "Output format")->check(CLI::IsMember({"json", "hcl"}));
    cmd.add_option("--engine", options.engine, "Loading rules: terraform or opentofu (.tofu files)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));
    // Remote modules are loaded from .terraform/modules and the module cache
    // by default now; the flag stays accepted for scripts that pass it.
    cmd.add_flag("--installed-modules", options.installed_modules,
                 "Accepted for compatibility: installed and cached remote modules are always loaded")
        ->group("");
}

int run_effective(const EffectiveOptions& options) {
    std::error_code ec;
    if (!std::filesystem::is_directory(options.dir, ec)) {
        fmt::print(stderr, "tfsift: {}: not a readable directory\n", options.dir);
        return exit_failure;
    }
    config::TreeOptions tree_options;
    tree_options.engine = parse_engine(options.engine).value_or(Engine::terraform);
    // The same modules every command sees, without the network.
    lint::ModuleFetchPolicy fetch;
    fetch.engine = tree_options.engine;
    tree_options.module_resolver = lint::default_module_resolver(fetch);
    const config::EffectiveOutput out = config::render_effective(
        options.dir, tree_options,
        options.format == "hcl" ? config::EffectiveFormat::hcl : config::EffectiveFormat::json);
    if (!out.loaded) {
        fmt::print(stderr, "tfsift: {}: cannot read the directory\n", options.dir);
        return exit_failure;
    }
    for (const auto& notice : out.notices) fmt::print(stderr, "tfsift: notice: {}\n", report::escape_control_characters(notice));
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
