// `tfsift fetch`: load each root's module tree with a resolver that may use
// the network, and say what every remote call resolved to.
#include "tfsift/lint/fetch_command.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "tfsift/config/module_tree.hpp"
#include "tfsift/lint/module_resolution.hpp"
#include "tfsift/source.hpp"

namespace tfsift::lint {

namespace {

void walk(const config::LoadedModule& module, const FetchCommandRequest& request, FetchCommandResult& result,
          const std::string& root) {
    for (const auto& [name, child] : module.children) {
        // A local module inside a package shares its package's directory: it
        // is part of that package, not a call of its own to fetch.
        const bool own_package =
            child.remote && (!module.remote || child.remote->package_dir != module.remote->package_dir);
        if (own_package) {
            const auto& r = *child.remote;
            ++result.modules;
            if (r.provenance == config::ModuleProvenance::network) ++result.fetched;
            if (!request.quiet) {
                std::string what = r.version.empty() ? std::string() : " " + r.version;
                if (!r.revision.empty() && r.version.empty()) what = " " + r.revision.substr(0, 19);
                request.say(fmt::format("{}: {}{}: {}", root, child.address, what, config::to_string(r.provenance)));
            }
        }
        walk(child, request, result, root);
    }
}

}  // namespace

FetchCommandResult run_fetch_command(const FetchCommandRequest& request) {
    FetchCommandResult result;
    result.ok = true;
    std::vector<std::string> dirs = request.dirs;
    if (dirs.empty()) dirs.emplace_back(".");
    ModuleFetchPolicy policy;
    policy.network = !request.offline;
    policy.cache_dir = request.cache_dir;
    // One resolver for every root: a package several roots call is fetched once.
    auto resolver = default_module_resolver(policy);
    for (const auto& dir : dirs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) {
            request.say(fmt::format("tfsift: {}: not a readable directory", dir));
            result.ok = false;
            continue;
        }
        config::TreeOptions options;
        options.engine = request.engine.value_or(Engine::terraform);
        options.module_resolver = resolver;
        const std::string prefix = dir == "." ? std::string() : (std::filesystem::path(dir) / "").generic_string();
        options.source_name_prefix = prefix;
        const auto tree = config::load_module_tree(dir, options);
        if (!tree.root) {
            request.say(fmt::format("tfsift: {}: cannot read the directory", dir));
            result.ok = false;
            continue;
        }
        walk(*tree.root, request, result, dir);
        for (const auto& call : tree.unavailable_calls) {
            const bool failed = call.why.kind == config::ModuleUnavailableKind::failed ||
                                call.why.kind == config::ModuleUnavailableKind::not_fetched;
            if (failed) {
                ++result.failed;
                result.ok = false;
            } else if (call.why.kind == config::ModuleUnavailableKind::unsupported) {
                ++result.unsupported;
            }
            std::string reason = call.why.reason;
            if (reason.empty()) {
                reason = call.why.kind == config::ModuleUnavailableKind::not_fetched
                             ? "it is not in the module cache and this run may not use the network"
                             : std::string(config::to_string(call.why.kind));
            }
            const std::string where =
                call.at.file != nullptr ? fmt::format("{}:{}:{}", call.at.file->path(), call.at.file->line(call.at.pos),
                                                      call.at.file->column(call.at.pos))
                                        : dir;
            request.say(fmt::format("{}: {}: {} (\"{}\") was not fetched: {}", where,
                                    failed ? "error" : "notice", call.address, call.source, reason));
        }
    }
    request.say(fmt::format("tfsift: {} remote module{} ready ({} fetched now){}{}", result.modules,
                            result.modules == 1 ? "" : "s", result.fetched,
                            result.unsupported > 0 ? fmt::format(", {} not fetchable by tfsift", result.unsupported)
                                                   : std::string(),
                            result.failed > 0 ? fmt::format(", {} failed", result.failed) : std::string()));
    return result;
}

}  // namespace tfsift::lint
