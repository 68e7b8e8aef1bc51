// `tfsift effective [DIR] --format json|hcl`: the effective configuration
// of a module tree (see ../shared/spec/effective-config.md).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/enum_names.hpp"
#include "tfsift/config/effective_document.hpp"
#include "tfsift/config/effective_hcl.hpp"
#include "tfsift/config/module_tree.hpp"

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
    config::LoadedTree tree = config::load_module_tree(options.dir, tree_options);
    if (!tree.root) {
        fmt::print(stderr, "tfsift: {}: cannot read the directory\n", options.dir);
        return exit_failure;
    }
    std::string text;
    if (options.format == "hcl") {
        text = config::effective_hcl(*tree.root, tree.diagnostics);
    } else {
        text = config::dump_document(config::effective_document(tree.root.get(), tree.diagnostics));
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (std::fflush(stdout) != 0) return exit_failure;
    return tree.has_errors() ? 1 : 0;
}

}  // namespace tfsift::cli
