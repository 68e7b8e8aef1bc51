#include "tfsift/config/query_checks.hpp"

#include <map>
#include <string>

#include <fmt/core.h>

#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::config {

std::vector<ModuleProblem> check_query_files(const std::vector<const QueryFile*>& files, const Module& m) {
    std::vector<ModuleProblem> out;
    // What the module declares so far, by name: where each was written, and
    // for providers their alias.
    std::map<std::string, std::pair<Origin, const Provider*>> providers;
    for (const auto& [key, p] : m.providers) providers.emplace(key, std::make_pair(p.origin, &p));
    std::map<std::string, Origin> variables;
    for (const auto& [name, v] : m.variables) variables.emplace(name, v.origin);
    std::map<std::string, Origin> locals;
    for (const auto& [name, l] : m.locals) locals.emplace(name, l.expr.origin());
    std::map<std::string, std::pair<Origin, const QueryList*>> lists;
    for (const QueryFile* f : files) {
        const ConfigFile& d = f->declarations;
        for (const auto& [p, decl] : d.providers) {
            auto [it, added] = providers.try_emplace(p.key(), std::make_pair(p.origin, &p));
            if (added) continue;
            const Provider& existing = *it->second.second;
            std::string detail =
                existing.alias ? fmt::format(
                                     "A provider configuration for \"{}\" with alias \"{}\" was already given at {}. "
                                     "Each configuration for the same provider must have a distinct alias.",
                                     existing.name, *existing.alias, it->second.first.to_string())
                               : fmt::format(
                                     "A default (non-aliased) provider configuration for \"{}\" was already given at "
                                     "{}. If multiple configurations are required, set the \"alias\" argument for "
                                     "alternative configurations.",
                                     existing.name, it->second.first.to_string());
            out.push_back({Severity::error, code::duplicate_provider_configuration, "Duplicate provider configuration",
                           std::move(detail), Origin{f->source, decl.def_range.start}});
        }
        // A later variable or local of the same name replaces the earlier
        // one, as in Terraform, so a third one names the second.
        for (const auto& [v, decl] : d.variables) {
            const Origin here{f->source, decl.def_range.start};
            if (auto it = variables.find(v.name); it != variables.end()) {
                out.push_back({Severity::error, code::duplicate_variable_declaration, "Duplicate variable declaration",
                               fmt::format("A variable named \"{}\" was already declared at {}. Variable names must "
                                           "be unique within a module.",
                                           v.name, it->second.to_string()),
                               here});
            }
            variables.insert_or_assign(v.name, here);
        }
        for (const auto& [l, decl] : d.locals) {
            const Origin here{f->source, decl.def_range.start};
            if (auto it = locals.find(l.name); it != locals.end()) {
                out.push_back({Severity::error, code::duplicate_local_value_definition,
                               "Duplicate local value definition",
                               fmt::format("A local value named \"{}\" was already defined at {}. Local value names "
                                           "must be unique within a module.",
                                           l.name, it->second.to_string()),
                               here});
            }
            locals.insert_or_assign(l.name, here);
        }
        for (const QueryList& l : f->lists) {
            if (!l.valid) continue;
            const Origin here{f->source, l.def_range.start};
            auto [it, added] = lists.try_emplace(l.key(), std::make_pair(here, &l));
            if (added) continue;
            out.push_back({Severity::error, code::duplicate_list_configuration,
                           fmt::format("Duplicate list \"{}\" configuration", l.type),
                           fmt::format("A {} list named \"{}\" was already declared at {}. List names must be unique "
                                       "per type in each module.",
                                       l.type, l.name, it->second.first.to_string()),
                           here});
        }
    }
    return out;
}

std::optional<ModuleProblem> list_in_called_module(const std::vector<const QueryFile*>& files) {
    for (const QueryFile* f : files) {
        for (const QueryList& l : f->lists) {
            if (!l.valid) continue;
            return ModuleProblem{
                Severity::error, code::invalid_list_configuration, "Invalid list configuration",
                "A list block was detected in this module, which other modules call as a child module. List blocks "
                "are only allowed in the root module.",
                Origin{f->source, l.def_range.start}};
        }
    }
    return std::nullopt;
}

}  // namespace tfsift::config
