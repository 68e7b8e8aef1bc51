#include "tfsift/lint/module_roles.hpp"

#include <filesystem>
#include <vector>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/module_call_hint.hpp"
#include "tfsift/config/module_files.hpp"
#include "tfsift/config/paths.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/hcl/block_text.hpp"
#include "tfsift/lint/repository_root.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {
namespace {

// Adds the local module calls of one configuration file.
void add_calls_of_file(const fs::path& dir, const config::ConfigFileName& name, const ReadPolicy& policy,
                       RepositoryModuleCalls& out) {
    const std::string path = (dir / name.name).string();
    FileContent content = read_regular_file(path, policy);
    if (!content.ok() || !config::may_declare_module_calls(content.bytes, name.syntax)) return;
    if (name.syntax == config::FileSyntax::native) {
        // Only the module blocks' `source` and `version` are parsed, when the
        // file lets them be cut out.
        if (auto blocks = hcl::top_level_blocks_text(content.bytes, "module", {"source", "version"})) {
            if (blocks->empty()) return;
            content.bytes = std::move(*blocks);
        }
    }
    auto source = std::make_shared<const SourceFile>(path, std::move(content.bytes));
    auto parsed = config::parse_config_file(source, name.syntax);
    Diagnostics diags;
    const config::ConfigFile file =
        config::decode_config_file(*parsed, name.role == config::FileRole::override, diags, Engine::opentofu);
    ++out.files_read;
    const std::string base = absolute_normal_path(dir.string());
    for (const auto& [call, declared] : file.module_calls) {
        if (!call.source || !call.source->value || !config::is_local_module_source(*call.source->value)) continue;
        std::string target = absolute_normal_path(base + "/" + *call.source->value);
        if (target != base) out.called.insert(std::move(target));
    }
}

// A role glob names module directories; "." names the settings file's own.
bool names_dir(const AnchoredGlob& g, const std::string& dir) {
    if (dir == g.base_dir) return g.glob.pattern() == "." || g.glob.pattern() == "./";
    return g.matches(dir);
}

}  // namespace

RepositoryModuleCalls scan_repository_module_calls(const std::string& repository_root) {
    RepositoryModuleCalls out;
    out.root = absolute_normal_path(repository_root);
    const ReadPolicy policy{trusted_root_of(out.root), false, default_max_file_size};
    // An explicit stack: the depth is the repository's to choose.
    std::vector<fs::path> todo{fs::path(out.root)};
    while (!todo.empty()) {
        const fs::path dir = std::move(todo.back());
        todo.pop_back();
        std::error_code ec;
        fs::directory_iterator it(dir, ec);
        if (ec) continue;  // the lint reports what it cannot read
        std::vector<std::string> names;
        for (fs::directory_iterator end; it != end; it.increment(ec)) {
            std::error_code entry_ec;
            const fs::directory_entry& entry = *it;
            std::string name = entry.path().filename().string();
            if (name.empty() || name[0] == '.') continue;
            if (entry.is_directory(entry_ec) && !entry.is_symlink(entry_ec)) {
                todo.push_back(entry.path());
            } else if (entry.is_regular_file(entry_ec)) {
                names.push_back(std::move(name));
            }
        }
        // Both engines' file names: a `.tofu` file shadows its `.tf` twin.
        for (const auto& name : config::select_config_files(std::move(names), Engine::opentofu)) {
            add_calls_of_file(dir, name, policy, out);
        }
    }
    return out;
}

ModuleRole decide_module_role(const std::string& module_dir, const Settings& settings,
                              const RepositoryModuleCalls& calls) {
    for (const auto& g : settings.root_modules) {
        if (names_dir(g, module_dir)) return ModuleRole::root;
    }
    for (const auto& g : settings.shared_modules) {
        if (names_dir(g, module_dir)) return ModuleRole::called;
    }
    return calls.called.count(module_dir) ? ModuleRole::called : ModuleRole::root;
}

ModuleRole ModuleRoleCache::role_of(const std::string& module_dir, const Settings& settings,
                                    const std::string& fallback_root) {
    const std::string dir = absolute_normal_path(module_dir);
    const std::string root = find_repository_root(dir, fallback_root);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_root_.find(root);
    if (it == by_root_.end()) it = by_root_.emplace(root, scan_repository_module_calls(root)).first;
    return decide_module_role(dir, settings, it->second);
}

ModuleRole repository_module_role(const std::string& module_dir, const Settings& settings,
                                  const std::string& fallback_root) {
    static ModuleRoleCache cache;
    return cache.role_of(module_dir, settings, fallback_root);
}

}  // namespace tfsift::lint
