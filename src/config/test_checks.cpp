#include "tfsift/config/test_checks.hpp"

#include <fmt/core.h>

#include "tfsift/config/override_merger.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::config {

bool override_target_exists(const Module& m, const std::map<std::string, LoadedModule>* children,
                            const std::vector<std::string>& names) {
    const Module* module = &m;
    std::size_t i = 0;
    while (i + 1 < names.size() && names[i] == "module") {
        const std::string& call = names[i + 1];
        if (module->module_calls.count(call) == 0) return false;
        i += 2;
        if (i == names.size()) return true;  // the module call itself
        if (children == nullptr) return true;
        auto it = children->find(call);
        if (it == children->end()) return true;  // not loaded: nothing to compare with
        module = it->second.module.get();
        children = &it->second.children;
    }
    const std::size_t rest = names.size() - i;
    if (rest == 3 && names[i] == "data") return module->data.count(names[i + 1] + "." + names[i + 2]) != 0;
    if (rest == 2) return module->resources.count(names[i] + "." + names[i + 1]) != 0;
    return false;
}

namespace {

Origin origin_of(const TestFile& file, Range r) { return Origin{file.source, r.start}; }

ModuleProblem missing_target(const TestFile& file, const TestOverride& o) {
    return {Severity::warning, code::invalid_override_target, "Invalid override target",
            fmt::format("The override target {} does not exist within the configuration under test. This could "
                        "indicate a typo in the target address or an unnecessary override.",
                        o.target->text),
            origin_of(file, o.target->range)};
}

// The provider type each local name stands for in a module: its
// required_providers, else the default for the name of a provider block.
std::map<std::string, std::string> provider_types(const Module& m) {
    std::map<std::string, std::string> out;
    for (const auto& [local, req] : m.terraform.required_providers) {
        out.emplace(local, req.source.value_or(default_provider_source(local)));
    }
    for (const auto& [key, p] : m.providers) out.try_emplace(p.name, default_provider_source(p.name));
    return out;
}

std::string local_name(const std::string& key) { return key.substr(0, key.find('.')); }

// How the engine prints a provider address.
std::string shown(const std::string& fqn, Engine engine) {
    constexpr std::string_view terraform_registry = "registry.terraform.io/";
    if (engine == Engine::opentofu && fqn.starts_with(terraform_registry)) {
        return "registry.opentofu.org/" + fqn.substr(terraform_registry.size());
    }
    return fqn;
}

// The provider configurations of a test file have no required_providers:
// their types come from the runs that use them (the first run that uses a
// name decides its type, by the name a run's `providers` passes it to or by
// the same name in the configuration the run executes), else the default for
// the name. A run against the module under test must then agree with the
// module's own types ("Provider type mismatch"). Runs of other modules are
// not compared.
void check_provider_types(const TestFile& file, std::string_view name, const LoadedModule& root,
                          const std::map<std::string, std::shared_ptr<const Module>>& run_modules, Engine engine,
                          std::vector<ModuleProblem>& out) {
    std::map<std::string, std::vector<const TestProvider*>> by_name;
    for (const auto& p : file.providers) by_name[p.name].push_back(&p);
    const std::map<std::string, std::string> main = provider_types(*root.module);
    std::map<std::string, std::string> assigned;
    // The types of each passing of each run: (child, parent).
    std::vector<std::vector<std::pair<std::string, std::string>>> passed(file.runs.size());
    for (std::size_t i = 0; i < file.runs.size(); ++i) {
        const TestRun& run = file.runs[i];
        std::map<std::string, std::string> own;
        const std::map<std::string, std::string>* types = &main;
        if (run.module) {
            if (!run.module->local || !run.module->source) continue;
            auto it = run_modules.find(*run.module->source);
            if (it == run_modules.end() || it->second == nullptr) continue;
            own = provider_types(*it->second);
            types = &own;
        }
        if (!run.providers.empty()) {
            for (const auto& p : run.providers) {
                const std::string child = local_name(p.child_key);
                const std::string parent = local_name(p.parent_key);
                auto t = types->find(child);
                const std::string child_type = t != types->end() ? t->second : default_provider_source(child);
                std::string parent_type = child_type;
                if (auto a = assigned.find(parent); a != assigned.end()) {
                    parent_type = a->second;
                } else if (by_name.count(parent) != 0) {
                    assigned.emplace(parent, child_type);
                }
                passed[i].emplace_back(child_type, parent_type);
            }
            continue;
        }
        for (const auto& [local, type] : *types) {
            if (assigned.count(local) == 0 && by_name.count(local) != 0) assigned.emplace(local, type);
        }
    }
    for (const auto& [local, providers] : by_name) assigned.try_emplace(local, default_provider_source(local));

    auto find_test_provider = [&](const std::string& key) -> const TestProvider* {
        for (const auto& p : file.providers) {
            if (p.key() == key) return &p;
        }
        return nullptr;
    };
    const std::string repeated = ", or other provider definitions with the same name,";
    auto mismatch = [&](const TestProvider& p, const std::string& root_key, const std::string& root_type, bool alone) {
        const std::string& type = assigned[p.name];
        if (type == root_type) return;
        out.push_back({Severity::error, code::provider_type_mismatch, "Provider type mismatch",
                       fmt::format("The provider \"{}\" in {} represents provider \"{}\", but \"{}\" in the root "
                                   "module represents \"{}\".\n\nThis means the provider definition for \"{}\" "
                                   "within {}{} {} been referenced by multiple run blocks and assigned to different "
                                   "provider types.",
                                   p.key(), name, shown(type, engine), root_key, shown(root_type, engine), p.key(),
                                   name, alone ? "" : repeated, alone ? "has" : "have"),
                       origin_of(file, p.def_range)});
    };
    for (std::size_t i = 0; i < file.runs.size(); ++i) {
        const TestRun& run = file.runs[i];
        if (run.module) continue;
        if (!run.providers.empty()) {
            for (std::size_t j = 0; j < run.providers.size() && j < passed[i].size(); ++j) {
                const ProviderPassing& p = run.providers[j];
                const auto& [child_type, parent_type] = passed[i][j];
                if (child_type == parent_type) continue;
                const std::string parent = local_name(p.parent_key);
                out.push_back({Severity::error, code::provider_type_mismatch, "Provider type mismatch",
                               fmt::format("The local name \"{}\" in {} represents provider \"{}\", but \"{}\" in "
                                           "the root module represents \"{}\".\n\nThis means the provider "
                                           "definition for \"{}\" within {}{} have been referenced by multiple run "
                                           "blocks and assigned to different provider types.",
                                           parent, name, shown(parent_type, engine), local_name(p.child_key),
                                           shown(child_type, engine), parent, name, repeated),
                               p.parent_origin});
            }
            continue;
        }
        for (const auto& [local, req] : root.module->terraform.required_providers) {
            const std::string type = req.source.value_or(default_provider_source(local));
            if (const TestProvider* p = find_test_provider(local)) mismatch(*p, local, type, false);
            for (const auto& alias : req.configuration_aliases) {
                if (const TestProvider* p = find_test_provider(alias)) mismatch(*p, alias, type, false);
            }
        }
        for (const auto& [key, conf] : root.module->providers) {
            const TestProvider* p = find_test_provider(key);
            if (p == nullptr) continue;
            auto t = main.find(conf.name);
            mismatch(*p, key, t != main.end() ? t->second : default_provider_source(conf.name), true);
        }
    }
}

}  // namespace

std::vector<ModuleProblem> check_test_file(const TestFile& file, std::string_view name, const LoadedModule& root,
                                           const std::map<std::string, std::shared_ptr<const Module>>& run_modules,
                                           Engine engine) {
    std::vector<ModuleProblem> out;
    check_provider_types(file, name, root, run_modules, engine, out);
    // The configuration a run executes: its own module when it names one
    // (null when that cannot be read), else the module under test.
    auto config_of = [&](const TestRun& run, const std::map<std::string, LoadedModule>*& children) -> const Module* {
        children = nullptr;
        if (run.module) {
            if (!run.module->source || !run.module->local) return nullptr;
            auto it = run_modules.find(*run.module->source);
            return it == run_modules.end() ? nullptr : it->second.get();
        }
        children = &root.children;
        return root.module.get();
    };
    // Overrides of the whole file may target the module under test or any
    // module a run executes.
    auto anywhere = [&](const TestOverride& o) {
        if (override_target_exists(*root.module, &root.children, o.target_names)) return true;
        for (const auto& run : file.runs) {
            if (!run.module) continue;
            if (!run.module->local || !run.module->source) return true;  // not known here
            auto it = run_modules.find(*run.module->source);
            if (it == run_modules.end() || it->second == nullptr) return true;
            if (override_target_exists(*it->second, nullptr, o.target_names)) return true;
        }
        return false;
    };
    for (const auto& p : file.providers) {
        if (!p.mock) continue;
        for (const auto& o : p.overrides) {
            if (!anywhere(o)) out.push_back(missing_target(file, o));
        }
    }
    for (const auto& o : file.overrides) {
        if (!anywhere(o)) out.push_back(missing_target(file, o));
    }
    for (const auto& run : file.runs) {
        const std::map<std::string, LoadedModule>* children = nullptr;
        const Module* config = config_of(run, children);
        if (config != nullptr) {
            for (const auto& o : run.overrides) {
                if (!override_target_exists(*config, children, o.target_names)) out.push_back(missing_target(file, o));
            }
        }
        if (engine != Engine::terraform) continue;
        for (const auto& passed : run.providers) {
            bool defined = false;
            for (const auto& p : file.providers) defined = defined || p.key() == passed.parent_key;
            if (defined) continue;
            out.push_back({Severity::error, code::missing_provider_definition,
                           fmt::format("Missing provider definition for {}", passed.parent_key),
                           "This provider block references a provider definition that does not exist.",
                           passed.parent_origin});
        }
    }
    return out;
}

}  // namespace tfsift::config
