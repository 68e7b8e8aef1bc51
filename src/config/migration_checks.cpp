// Combines a module's state migration files as Terraform's loader does
// (internal/configs/module.go, appendStateMigrationFile; parser_config_dir.go,
// LoadConfigDir). Several of its diagnostics have no position in Terraform;
// here each points at the block it concerns.
#include "tfsift/config/migration_checks.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include <fmt/core.h>

#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::config {

namespace {

template <typename T>
struct Placed {
    const T* what = nullptr;
    const SourceFile* file = nullptr;

    [[nodiscard]] Origin at(Range r) const { return Origin{file, r.start}; }
};

}  // namespace

std::vector<ModuleProblem> check_migration_files(const std::vector<const MigrationFile*>& files) {
    std::vector<ModuleProblem> out;
    if (files.empty()) return out;
    Placed<MigrationProvider> provider;
    Placed<MigrationSource> state_store;
    Placed<MigrationSource> backend;
    // A second `state_store` or `backend` means a second `from` block.
    auto duplicate_from = [&](const MigrationFile& f, const MigrationSource& s) {
        out.push_back({Severity::error, code::duplicate_from_configuration_block,
                       "Duplicate \"from\" configuration block",
                       "A module's state migration files may have only one \"from\" block.",
                       Origin{f.source, s.from_range.start}});
    };
    for (const MigrationFile* f : files) {
        if (f->provider) {
            if (provider.what == nullptr) {
                provider = {&*f->provider, f->source};
            } else {
                out.push_back({Severity::error, code::duplicate_state_store_provider_configuration_block,
                               "Duplicate \"state_store_provider\" configuration block",
                               fmt::format("A \"state_store_provider\" block was already given at {}; a module's "
                                           "state migration files may have only one.",
                                           provider.at(provider.what->decl_range).to_string()),
                               Origin{f->source, f->provider->decl_range.start}});
            }
        }
        if (f->state_store) {
            if (state_store.what == nullptr) {
                state_store = {&*f->state_store, f->source};
            } else {
                duplicate_from(*f, *f->state_store);
            }
        }
        if (f->backend) {
            if (backend.what == nullptr) {
                backend = {&*f->backend, f->source};
            } else {
                duplicate_from(*f, *f->backend);
            }
        }
    }
    if (!out.empty()) return out;

    // What the files describe together, as one `switch` in Terraform: the
    // first case that holds is the only one reported.
    if (provider.what == nullptr && state_store.what == nullptr && backend.what == nullptr) {
        out.push_back({Severity::error, code::empty_state_migration_configuration,
                       "Empty state migration configuration",
                       "The module has .tfmigrate.hcl files, but they hold no \"from\" block nor "
                       "\"state_store_provider\" block: describe where the state is migrated from, or remove the "
                       "files.",
                       Origin{files.front()->source, Pos{}}});
    } else if (state_store.what != nullptr && backend.what != nullptr) {
        // In two files (in one, the file's own check has reported it):
        // the later `from` block is the one in excess.
        auto index_of = [&](const SourceFile* file) {
            return std::find_if(files.begin(), files.end(), [&](const MigrationFile* f) { return f->source == file; }) -
                   files.begin();
        };
        const bool store_later = index_of(state_store.file) > index_of(backend.file);
        const Placed<MigrationSource>& later = store_later ? state_store : backend;
        out.push_back({Severity::error, code::invalid_combination_of_backend_and_state_store,
                       "Invalid combination of \"backend\" and \"state_store\"",
                       "The state migration files name both a backend and a state store to migrate state from; "
                       "keep the one that describes where the state is now.",
                       later.at(later.what->from_range)});
    } else if (provider.what != nullptr && backend.what != nullptr) {
        out.push_back({Severity::error, code::invalid_combination_of_backend_and_state_store_provider,
                       "Invalid combination of \"backend\" and \"state_store_provider\"",
                       "A \"state_store_provider\" block goes with a \"state_store\" block in \"from\", not with a "
                       "\"backend\": remove the \"state_store_provider\" block, or migrate from a state store "
                       "instead.",
                       provider.at(provider.what->decl_range)});
    } else if (state_store.what != nullptr && provider.what == nullptr) {
        out.push_back({Severity::error, code::missing_state_store_provider_block_for_state_store_migration,
                       "Missing \"state_store_provider\" block for state store migration",
                       "Migrating from a state store needs a \"state_store_provider\" block naming the provider "
                       "release that implements it.",
                       state_store.at(state_store.what->def_range)});
    } else if (state_store.what == nullptr && provider.what != nullptr) {
        out.push_back({Severity::error, code::missing_state_store_block_for_state_store_migration,
                       "Missing \"state_store\" block for state store migration",
                       "A \"state_store_provider\" block needs a \"state_store\" block, in a \"from\" block, naming "
                       "the state store to migrate state from.",
                       provider.at(provider.what->decl_range)});
    } else if (state_store.what != nullptr && provider.what != nullptr &&
               state_store.what->provider_name != provider.what->type) {
        const MigrationProvider& p = *provider.what;
        out.push_back({Severity::error, code::inconsistent_provider_information_for_state_migration,
                       "Inconsistent provider information for state migration",
                       p.has_source ? fmt::format("The \"state_store_provider\" block names the provider \"{}\", but "
                                                  "the state store uses the provider \"{}\": they must agree.",
                                                  p.type, state_store.what->provider_name)
                                    : fmt::format("The \"state_store_provider\" block gives no \"source\", so it "
                                                  "names no provider type, and the state store uses the provider "
                                                  "\"{}\": give the source of that provider.",
                                                  state_store.what->provider_name),
                       provider.at(p.decl_range)});
    }
    return out;
}

}  // namespace tfsift::config
