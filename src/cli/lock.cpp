// `tfsift lock` and the lock file part of `tfsift lint --fix`: offline
// repair of the root module's dependency lock file.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <filesystem>

#include "cli/commands.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/providers/lock_repair.hpp"
#include "tfsift/providers/package_audit.hpp"
#include "tfsift/providers/state_file.hpp"

namespace fs = std::filesystem;

namespace tfsift::cli {

namespace {

void print_update(const providers::LockUpdate& update) {
    if (!update.changes.empty()) {
        fmt::print(stderr, "{}: {}\n", update.path.string(),
                   update.written ? "updated the provider dependency selections" : "would change");
        for (const auto& c : update.changes) fmt::print(stderr, "{}\n", c);
    }
    for (const auto& p : update.problems) fmt::print(stderr, "{}: not repaired: {}\n", update.path.string(), p);
    if (!update.error.empty()) fmt::print(stderr, "tfsift: {}\n", update.error);
}

std::vector<providers::Platform> platforms_of(const std::vector<std::string>& names, bool& ok) {
    std::vector<providers::Platform> out;
    ok = true;
    for (const auto& name : names) {
        auto parsed = providers::parse_platform(name);
        if (!parsed.platform) {
            fmt::print(stderr, "tfsift: invalid target platform \"{}\": {}\n", name, parsed.error);
            ok = false;
            continue;
        }
        out.push_back(*parsed.platform);
    }
    if (out.empty() && ok) out.push_back(providers::current_platform());
    return out;
}

}  // namespace

int fix_module_lock_file(const std::string& dir, const config::LoadedTree& tree, Engine engine,
                         const lint::Settings& settings, const std::string& state_file) {
    if (!tree.root) return 0;
    auto requirements = providers::collect_tree_requirements(*tree.root, engine);
    providers::RepairOptions options;
    options.engine = engine;
    options.installed_dir = fs::path(dir) / ".terraform" / "providers";
    options.requirements_partial = !providers::unloaded_module_calls(*tree.root).empty();
    bool ok = true;
    options.platforms = platforms_of(settings.platforms, ok);
    if (!ok) return 1;
    if (!state_file.empty()) {
        auto state = providers::read_state_file(state_file, state_file, engine);
        if (state.has_errors()) {
            options.keep_unrequired = true;  // cannot tell what the state still needs
        } else {
            providers::add_state_requirements(requirements, state);
        }
    }
    auto local = providers::find_local_packages(dir, providers::process_environment(), engine);
    auto update = providers::update_lock_file(dir, requirements, providers::all_packages(local), options);
    print_update(update);
    if (update.write_failed()) return 2;
    return update.error.empty() ? 0 : 1;
}

void add_lock_options(CLI::App& cmd, LockOptions& o) {
    cmd.add_option("dir", o.dir, "The root module directory (default: .)");
    cmd.add_option("--platform", o.platforms, "Record hashes for this OS_ARCH platform (repeatable; default: this one)")
        ->allow_extra_args(false);
    cmd.add_option("--fs-mirror", o.fs_mirror, "Take packages only from this filesystem mirror directory");
    cmd.add_option("--engine", o.engine, "terraform or opentofu (default: settings, else detected)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));
}

int run_lock(const LockOptions& o) {
    std::error_code ec;
    if (!fs::is_directory(o.dir, ec)) {
        fmt::print(stderr, "tfsift: {}: no such directory\n", o.dir);
        return 2;
    }
    if (!o.fs_mirror.empty() && !fs::is_directory(o.fs_mirror, ec)) {
        fmt::print(stderr, "tfsift: --fs-mirror {}: no such directory\n", o.fs_mirror);
        return 2;
    }
    std::string settings_file = lint::find_settings_file(o.dir);
    lint::SettingsResult settings = settings_file.empty() ? lint::SettingsResult{} : lint::load_settings(settings_file);
    for (const auto& e : settings.errors) fmt::print(stderr, "{}\n", e.to_string());
    if (!settings.ok()) return 2;
    Engine engine = !o.engine.empty()            ? (o.engine == "opentofu" ? Engine::opentofu : Engine::terraform)
                    : settings.settings.engine ? *settings.settings.engine
                                               : lint::detect_engine(o.dir);
    auto tree = lint::load_for_lint(o.dir, engine, settings.settings);
    if (!tree.root) {
        fmt::print(stderr, "tfsift: cannot read {}\n", o.dir);
        return 2;
    }
    if (tree.has_errors()) {
        fmt::print(stderr, "tfsift: the configuration in {} has errors; run `tfsift lint` first\n", o.dir);
        return 1;
    }
    bool ok = true;
    providers::RepairOptions options;
    options.engine = engine;
    options.platforms = platforms_of(o.platforms, ok);
    if (!ok) return 2;
    options.keep_unrequired = true;  // like `providers lock`: other entries stay
    options.all_or_nothing = true;   // and any failure leaves the file alone
    options.installed_dir = fs::path(o.dir) / ".terraform" / "providers";
    options.requirements_partial = !providers::unloaded_module_calls(*tree.root).empty();
    std::vector<providers::LocalPackage> packages;
    if (!o.fs_mirror.empty()) {
        packages = providers::scan_filesystem_mirror(o.fs_mirror, engine);
    } else {
        packages = providers::all_packages(providers::find_local_packages(o.dir, providers::process_environment(), engine));
    }
    auto requirements = providers::collect_tree_requirements(*tree.root, engine);
    auto update = providers::update_lock_file(o.dir, requirements, packages, options, /*always_write=*/true);
    print_update(update);
    if (update.write_failed()) return 2;
    if (!update.error.empty()) return 1;  // a lock file with errors: see lock-syntax
    // Nothing was written (all or nothing), so the write asked for failed.
    return update.problems.empty() ? 0 : 2;
}

}  // namespace tfsift::cli
