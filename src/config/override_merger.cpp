#include "tfsift/config/override_merger.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/core.h>

#include "tfsift/config/type_constraint.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/cty/json.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::config {

namespace {

std::string at(const Origin& o) {
    return o.file ? fmt::format("{}:{}", o.file->path(), o.file->line(o.pos)) : std::string("?");
}

}  // namespace

std::string Origin::to_string() const { return at(*this); }

std::string_view merge_type_of(const NestedBlock& block) {
    if (block.type == "dynamic" && !block.labels.empty()) return block.labels.front();
    return block.type;
}

namespace {

// The body of a block written as a JSON object.
Body json_block_body(const json::Value& object, const SourceFile* file, bool in_dynamic) {
    Body body;
    body.from_json = true;
    for (const auto& m : object.members) {
        body.undecided.push_back(JsonProperty{m.name, m.name_range, &m.value, file});
    }
    std::set<std::string, std::less<>> types;
    if (in_dynamic) types.insert("content");
    resolve_json_body(body, types);
    return body;
}

// One block per object; an array of objects gives one block per element,
// all with the array's `[` as origin.
void add_json_blocks(Body& body, const JsonProperty& p, const json::Value& v, std::vector<std::string> labels,
                     std::string type, bool in_dynamic) {
    auto make = [&](const json::Value& obj, Pos origin) {
        NestedBlock b;
        b.type = type;
        b.labels = labels;
        b.origin = Origin{p.file, origin};
        b.body = json_block_body(obj, p.file, in_dynamic);
        body.blocks.push_back(std::move(b));
    };
    if (v.is_array()) {
        for (const auto& item : v.items) {
            if (item.is_object()) make(item, v.range.start);
        }
    } else if (v.is_object()) {
        make(v, v.range.start);
    }
}

}  // namespace

void resolve_json_body(Body& body, const std::set<std::string, std::less<>>& block_types) {
    const std::vector<JsonProperty> props = body.undecided.take();
    for (const auto& p : props) {
        if (p.name == "//") continue;
        const json::Value& v = *p.value;
        if (p.name == "dynamic" && v.is_object()) {
            for (const auto& m : v.members) add_json_blocks(body, p, m.value, {m.name}, "dynamic", true);
        } else if (block_types.count(p.name) != 0 && (v.is_object() || v.is_array())) {
            add_json_blocks(body, p, v, {}, p.name, false);
        } else {
            body.arguments.push_back(Argument{p.name, p.name_range, Expression{p.file, v.range, nullptr, &v}});
        }
    }
}

void merge_body(Body& base, const Body& over_in) {
    // Which JSON properties are blocks depends on the native bodies taking
    // part in this merge (the copy shares the override's lists until then).
    Body over = over_in;
    if (!base.undecided.empty() || !over.undecided.empty()) {
        std::set<std::string, std::less<>> types;
        for (const auto& b : std::as_const(base.blocks)) types.insert(b.type);
        for (const auto& b : std::as_const(over.blocks)) types.insert(b.type);
        resolve_json_body(base, types);
        resolve_json_body(over, types);
    }
    for (const auto& arg : std::as_const(over.arguments)) {
        bool replaced = false;
        for (auto& existing : base.arguments) {
            if (existing.name == arg.name) {
                existing = arg;
                replaced = true;
                break;
            }
        }
        if (!replaced) base.arguments.push_back(arg);
    }
    if (over.blocks.empty()) return;
    std::set<std::string, std::less<>> hidden;
    for (const auto& b : std::as_const(over.blocks)) hidden.insert(std::string(merge_type_of(b)));
    std::vector<NestedBlock> merged;
    merged.reserve(base.blocks.size() + over.blocks.size());
    for (const auto& b : std::as_const(base.blocks)) {
        if (hidden.count(merge_type_of(b)) == 0) merged.push_back(b);
    }
    for (const auto& b : std::as_const(over.blocks)) merged.push_back(b);
    base.blocks = std::move(merged);
}

std::string implied_provider_name(std::string_view resource_type) {
    auto underscore = resource_type.find('_');
    return std::string(resource_type.substr(0, underscore));
}

std::string default_provider_source(std::string_view local_name) {
    if (local_name == "terraform") return "terraform.io/builtin/terraform";
    return fmt::format("registry.terraform.io/hashicorp/{}", local_name);
}

void OverrideMerger::error(const SourceFile* file, Range subject, std::string_view code, std::string summary,
                           std::string detail) {
    Diagnostic d;
    d.severity = Severity::error;
    d.code = code;
    d.summary = std::move(summary);
    d.detail = std::move(detail);
    if (file) d.filename = file->path();
    d.subject = subject;
    diags_.push_back(std::move(d));
}

// ---- primary files ----------------------------------------------------------------

void OverrideMerger::add_primary(const ConfigFile& file) {
    const SourceFile* src = file.source;
    auto& tf = module_.terraform;
    for (const auto& block : file.terraform) {
        if (block.required_version) tf.required_version.push_back(*block.required_version);
        for (const auto& rp : block.required_providers) {
            if (have_required_providers_block_) {
                error(src, rp.def_range, code::duplicate_required_providers_configuration,
                      "Duplicate required providers configuration",
                      fmt::format("A module may have only one required providers configuration. The required "
                                  "providers were previously configured at {}.",
                                  at(required_providers_origin_)));
                continue;
            }
            have_required_providers_block_ = true;
            required_providers_origin_ = rp.origin;
            for (const auto& entry : rp.entries) tf.required_providers[entry.name] = entry;
        }
        for (std::size_t i = 0; i < block.backends.size(); ++i) {
            const auto& b = block.backends[i];
            if (tf.backend) {
                error(src, block.backend_ranges[i], code::duplicate_backend_configuration,
                      "Duplicate backend configuration",
                      fmt::format("A module may have only one backend configuration. The backend was previously "
                                  "configured at {}.",
                                  at(tf.backend->origin)));
                continue;
            }
            tf.backend = b;
        }
        for (std::size_t i = 0; i < block.clouds.size(); ++i) {
            const auto& c = block.clouds[i];
            if (tf.cloud) {
                error(src, block.cloud_ranges[i], code::duplicate_terraform_cloud_configurations,
                      "Duplicate Terraform Cloud configurations",
                      fmt::format("A module may have only one 'cloud' block configuring Terraform Cloud. Terraform "
                                  "Cloud was previously configured at {}.",
                                  at(tf.cloud->origin)));
                continue;
            }
            tf.cloud = c;
        }
        for (std::size_t i = 0; i < block.state_stores.size(); ++i) {
            if (tf.state_store) {
                error(src, block.state_store_ranges[i], code::duplicate_state_store_configuration_block,
                      "Duplicate 'state_store' configuration block",
                      fmt::format("A module may have only one 'state_store' configuration block. The state store was "
                                  "previously configured at {}.",
                                  at(tf.state_store->origin)));
                continue;
            }
            tf.state_store = block.state_stores[i];
            tf.state_store_provider = block.state_store_providers[i];
        }
        for (const auto& pm : block.provider_metas) {
            if (tf.provider_meta.count(pm.provider) != 0) {
                error(src, Range{pm.origin.pos, pm.origin.pos}, code::duplicate_provider_meta_block,
                      "Duplicate provider_meta block",
                      fmt::format("A provider_meta block for provider \"{}\" was already declared at {}. Providers "
                                  "may only have one provider_meta block per module.",
                                  pm.provider, at(tf.provider_meta[pm.provider].origin)));
                continue;
            }
            tf.provider_meta[pm.provider] = pm;
        }
        for (const auto& e : block.experiments) tf.experiments.push_back(e);
    }
    if (tf.state_store && (tf.backend || tf.cloud)) {
        // Terraform v1.14: one way of storing state at most. (Backend and
        // cloud together keep the reference loader's message below.)
        const Origin& store = tf.state_store->origin;
        if (tf.backend && tf.cloud) {
            error(tf.backend->origin.file, Range{tf.backend->origin.pos, tf.backend->origin.pos},
                  code::only_one_of_cloud_state_store_or_backend_configuration_blocks_are_allowed,
                  "Only one of 'cloud', 'state_store', or 'backend' configuration blocks are allowed",
                  fmt::format("A module may only declare one 'cloud', 'state_store' OR 'backend' block when "
                              "configuring state storage. The 'cloud' block is configured at {}; a 'state_store' is "
                              "configured at {}; a 'backend' is configured at {}. Remove two of these blocks.",
                              at(tf.cloud->origin), at(store), at(tf.backend->origin)));
        } else if (tf.cloud) {
            error(store.file, Range{store.pos, store.pos},
                  code::conflicting_cloud_and_state_store_configuration_blocks_are_present,
                  "Conflicting 'cloud' and 'state_store' configuration blocks are present",
                  fmt::format("A module may declare either one 'cloud' block OR one 'state_store' block for "
                              "configuring state storage. A 'cloud' block is configured at {}; a 'state_store' is "
                              "configured at {}. Remove the 'state_store' block to configure HCP Terraform or "
                              "Terraform Enterprise.",
                              at(tf.cloud->origin), at(store)));
        } else {
            error(tf.backend->origin.file, Range{tf.backend->origin.pos, tf.backend->origin.pos},
                  code::conflicting_state_store_and_backend_configuration_blocks_are_present,
                  "Conflicting 'state_store' and 'backend' configuration blocks are present",
                  fmt::format("A module may declare either one 'state_store' block OR one 'backend' block when "
                              "configuring state storage. A 'state_store' block is configured at {}; a 'backend' is "
                              "configured at {}. Remove one of these blocks.",
                              at(store), at(tf.backend->origin)));
        }
    } else if (tf.backend && tf.cloud) {
        error(tf.cloud->origin.file, Range{tf.cloud->origin.pos, tf.cloud->origin.pos},
              code::both_a_backend_and_terraform_cloud_configuration_are_present,
              "Both a backend and Terraform Cloud configuration are present",
              fmt::format("A module may declare either one 'cloud' block configuring Terraform Cloud OR one "
                          "'backend' block configuring a state backend. Terraform Cloud is configured at {}; a "
                          "backend is configured at {}. Remove the backend block to configure Terraform Cloud.",
                          at(tf.cloud->origin), at(tf.backend->origin)));
    }

    for (const auto& [p, decl] : file.providers) {
        auto key = p.key();
        if (auto it = module_.providers.find(key); it != module_.providers.end()) {
            error(src, decl.def_range, code::duplicate_provider_configuration, "Duplicate provider configuration",
                  fmt::format("A default (non-aliased) provider configuration for \"{}\" was already given at {}. "
                              "If multiple configurations are required, set the \"alias\" argument for alternative "
                              "configurations.",
                              p.name, at(it->second.origin)));
            if (p.alias) {
                diags_.back().detail = fmt::format(
                    "A provider configuration for \"{}\" with alias \"{}\" was already given at {}. Each "
                    "configuration for the same provider must have a distinct alias.",
                    p.name, *p.alias, at(it->second.origin));
            }
            continue;  // the first configuration stays
        }
        module_.providers.emplace(key, p);
    }
    // One lookup per declaration: try_emplace inserts a copy, or finds the
    // earlier declaration the duplicate error names.
    for (const auto& [v, decl] : file.variables) {
        if (auto [it, inserted] = module_.variables.try_emplace(v.name, v); !inserted) {
            error(src, decl.def_range, code::duplicate_variable_declaration, "Duplicate variable declaration",
                  fmt::format("A variable named \"{}\" was already declared at {}. Variable names must be unique "
                              "within a module.",
                              v.name, at(it->second.origin)));
            it->second = v;  // the last declaration stays
        }
    }
    for (const auto& [l, decl] : file.locals) {
        if (auto [it, inserted] = module_.locals.try_emplace(l.name, l); !inserted) {
            error(src, decl.def_range, code::duplicate_local_value_definition, "Duplicate local value definition",
                  fmt::format("A local value named \"{}\" was already defined at {}. Local value names must be "
                              "unique within a module.",
                              l.name, at(it->second.expr.origin())));
            it->second = l;
        }
    }
    for (const auto& [o, decl] : file.outputs) {
        if (auto [it, inserted] = module_.outputs.try_emplace(o.name, o); !inserted) {
            error(src, decl.def_range, code::duplicate_output_definition, "Duplicate output definition",
                  fmt::format("An output named \"{}\" was already defined at {}. Output names must be unique within "
                              "a module.",
                              o.name, at(it->second.origin)));
            it->second = o;
        }
    }
    for (const auto& [mc, decl] : file.module_calls) {
        if (auto [it, inserted] = module_.module_calls.try_emplace(mc.name, mc); !inserted) {
            error(src, decl.def_range, code::duplicate_module_call, "Duplicate module call",
                  fmt::format("A module call named \"{}\" was already defined at {}. Module calls must have unique "
                              "names within a module.",
                              mc.name, at(it->second.origin)));
            it->second = mc;
        }
    }
    for (const auto& [r, decl] : file.resources) {
        auto& table = r.mode == ResourceMode::managed ? module_.resources : module_.data;
        std::string key = r.key();
        auto it = table.lower_bound(key);
        if (it != table.end() && it->first == key) {
            const char* kind = r.mode == ResourceMode::managed ? "resource" : "data";
            error(src, decl.def_range,
                  r.mode == ResourceMode::managed ? code::duplicate_resource : code::duplicate_data,
                  fmt::format("Duplicate {} \"{}\" configuration", kind, r.type),
                  fmt::format("A {} {} named \"{}\" was already declared at {}. {} names must be unique per type "
                              "in each module.",
                              r.type, r.mode == ResourceMode::managed ? "resource" : "data resource", r.name,
                              at(it->second.origin), r.mode == ResourceMode::managed ? "Resource" : "Data resource"));
            continue;  // the first declaration stays
        }
        table.emplace_hint(it, std::move(key), r);
    }
    for (const auto& [m, decl] : file.moved) module_.moved.push_back(m);
    for (const auto& [i, decl] : file.imports) module_.imports.push_back(i);
    for (const auto& [r, decl] : file.others) {
        auto& table = r.mode == ResourceMode::action ? module_.actions : module_.ephemeral;
        const char* kind = r.mode == ResourceMode::action ? "action" : "ephemeral";
        if (auto [it, inserted] = table.try_emplace(r.key(), r); !inserted) {
            error(src, decl.def_range,
                  r.mode == ResourceMode::action ? code::duplicate_action : code::duplicate_ephemeral,
                  fmt::format("Duplicate {} \"{}\" configuration", kind, r.type),
                  fmt::format("A {} {} named \"{}\" was already declared at {}. {} names must be unique per type in "
                              "each module.",
                              r.type, r.mode == ResourceMode::action ? "action" : "ephemeral resource", r.name,
                              at(it->second.origin), r.mode == ResourceMode::action ? "Action" : "Ephemeral resource"));
        }
    }
}

// ---- override files -----------------------------------------------------------------

void OverrideMerger::apply_override(const ConfigFile& file) {
    const SourceFile* src = file.source;
    auto& tf = module_.terraform;

    // Terraform merges an override file kind by kind: version constraints,
    // backends, cloud, providers, required_providers, variables, locals,
    // outputs, module calls, managed then data resources, moved.
    std::vector<RequiredVersion> versions;
    std::vector<std::pair<const Backend*, Range>> backends;
    std::vector<std::pair<const Backend*, Range>> clouds;
    std::vector<std::pair<std::size_t, const TerraformBlock*>> stores;
    for (const auto& block : file.terraform) {
        for (std::size_t i = 0; i < block.state_stores.size(); ++i) stores.emplace_back(i, &block);
        if (block.required_version) versions.push_back(*block.required_version);
        for (std::size_t i = 0; i < block.backends.size(); ++i)
            backends.emplace_back(&block.backends[i], block.backend_ranges[i]);
        for (std::size_t i = 0; i < block.clouds.size(); ++i)
            clouds.emplace_back(&block.clouds[i], block.cloud_ranges[i]);
    }
    if (!versions.empty()) tf.required_version = std::move(versions);
    if (backends.size() == 1) {
        tf.cloud.reset();
        tf.state_store.reset();
        tf.backend = *backends.front().first;
    } else if (backends.size() > 1) {
        error(src, backends[1].second, code::duplicate_backend_configuration, "Duplicate backend configuration",
              fmt::format("Each override file may have only one backend configuration. A backend was previously "
                          "configured at {}.",
                          at(backends[0].first->origin)));
    }
    // Backend, state_store and cloud exclude one another: whichever an
    // override file sets replaces the other two (in this order, when it
    // sets several).
    if (stores.size() == 1) {
        tf.backend.reset();
        tf.cloud.reset();
        tf.state_store = stores.front().second->state_stores[stores.front().first];
        tf.state_store_provider = stores.front().second->state_store_providers[stores.front().first];
    } else if (stores.size() > 1) {
        const auto& [i, block] = stores[1];
        error(src, block->state_store_ranges[i], code::duplicate_state_storage_configuration,
              "Duplicate state storage configuration",
              fmt::format("Each override file may have only one state storage configuration. A state storage was "
                          "previously configured at {}.",
                          at(stores[0].second->state_stores[stores[0].first].origin)));
    }
    if (clouds.size() == 1) {
        tf.backend.reset();
        tf.state_store.reset();
        tf.cloud = *clouds.front().first;
    } else if (clouds.size() > 1) {
        error(src, clouds[1].second, code::duplicate_terraform_cloud_configurations,
              "Duplicate Terraform Cloud configurations",
              fmt::format("Each override file may have only one 'cloud' block configuring Terraform Cloud. "
                          "Terraform Cloud was previously configured at {}.",
                          at(clouds[0].first->origin)));
    }

    for (const auto& [p, decl] : file.providers) {
        auto it = module_.providers.find(p.key());
        if (it == module_.providers.end()) {
            if (!p.alias) {
                // An absent default configuration is an implied empty one,
                // so an override may introduce it.
                module_.providers.emplace(p.key(), p);
                continue;
            }
            error(src, decl.def_range, code::missing_base_provider_configuration_for_override,
                  "Missing base provider configuration for override",
                  fmt::format("There is no {} provider configuration with the alias \"{}\". An override file can "
                              "only override an aliased provider configuration that was already defined in a "
                              "primary configuration file.",
                              p.name, *p.alias));
            continue;
        }
        Provider& base = it->second;
        if (p.version_constraints) base.version_constraints = p.version_constraints;
        if (p.for_each) base.for_each = p.for_each;
        merge_body(base.config, p.config);
        base.overridden_by.push_back(p.origin);
    }

    // required_providers entries replace whole base entries; provider_meta
    // in an override file is ignored, as Terraform does.
    for (const auto& block : file.terraform) {
        for (const auto& rp : block.required_providers) {
            for (const auto& entry : rp.entries) tf.required_providers[entry.name] = entry;
        }
    }

    for (const auto& [v, decl] : file.variables) {
        auto it = module_.variables.find(v.name);
        if (it == module_.variables.end()) {
            error(src, decl.def_range, code::missing_base_variable_declaration_to_override,
                  "Missing base variable declaration to override",
                  fmt::format("There is no variable named \"{}\". An override file can only override a variable "
                              "that was already declared in a primary configuration file.",
                              v.name));
            continue;
        }
        Variable& base = it->second;
        if (v.description) base.description = v.description;
        if (v.sensitive.origin) base.sensitive = v.sensitive;
        if (v.default_expr) {
            base.default_expr = v.default_expr;
            base.default_cty = v.default_cty;
        }
        if (v.type_expr) {
            // The type changes, but optional() defaults stay the base's, as
            // in Terraform.
            base.type_expr = v.type_expr;
            base.constraint_type = v.constraint_type;
        }
        if (v.nullable.origin) base.nullable = v.nullable;
        if (v.const_written) {
            base.is_const = v.is_const;
            base.const_written = true;
        }
        base.overridden_by.push_back(v.origin);
        // The override may have made the default invalid for the type:
        // convert again (without the optional() defaults).
        if (base.default_cty) {
            auto conv = cty::convert(*base.default_cty, base.constraint_type);
            if (!conv.ok()) {
                std::string detail;
                std::string_view code = code::merged_default_type_mismatch;
                if (v.type_expr && !v.default_expr) {
                    code = code::override_type_invalidates_default;
                    detail = fmt::format(
                        "Overriding this variable's type constraint has made its default value invalid: {}.",
                        conv.error);
                } else if (!v.type_expr && v.default_expr) {
                    code = code::override_default_type_mismatch;
                    detail = fmt::format(
                        "The overridden default value for this variable is not compatible with the variable's type constraint: {}.",
                        conv.error);
                } else {
                    detail = fmt::format(
                        "This variable's default value is not compatible with its type constraint: {}.", conv.error);
                }
                error(src, decl.def_range, code, "Invalid default value for variable", detail);
            } else {
                base.default_cty = conv.value;
            }
            if (base.default_cty->is_null() && base.nullable.value == false) {
                error(src, decl.def_range, code::merged_default_not_nullable, "Invalid default value for variable",
                      "A null default value is not valid when nullable=false.");
            }
        }
    }

    for (const auto& [l, decl] : file.locals) {
        auto it = module_.locals.find(l.name);
        if (it == module_.locals.end()) {
            error(src, decl.def_range, code::missing_base_local_value_definition_to_override,
                  "Missing base local value definition to override",
                  fmt::format("There is no local value named \"{}\". An override file can only override a local "
                              "value that was already defined in a primary configuration file.",
                              l.name));
            continue;
        }
        it->second.expr = l.expr;
    }

    for (const auto& [o, decl] : file.outputs) {
        auto it = module_.outputs.find(o.name);
        if (it == module_.outputs.end()) {
            error(src, decl.def_range, code::missing_base_output_definition_to_override,
                  "Missing base output definition to override",
                  fmt::format("There is no output named \"{}\". An override file can only override an output that "
                              "was already defined in a primary configuration file.",
                              o.name));
            continue;
        }
        Output& base = it->second;
        if (o.value) base.value = o.value;
        // Unlike a variable's, an empty output description does not override.
        if (o.description && o.description->value.is_string() && !o.description->value.get<std::string>().empty()) {
            base.description = o.description;
        }
        if (o.sensitive.origin) base.sensitive = o.sensitive;
        if (!o.depends_on.empty()) {
            error(o.depends_on.front().file, o.depends_on.front().range, code::depends_on_override,
                  "Unsupported override", "The depends_on argument may not be overridden.");
        }
        base.overridden_by.push_back(o.origin);
    }

    for (const auto& [mc, decl] : file.module_calls) {
        auto it = module_.module_calls.find(mc.name);
        if (it == module_.module_calls.end()) {
            error(src, decl.def_range, code::missing_module_call_to_override, "Missing module call to override",
                  fmt::format("There is no module call named \"{}\". An override file can only override a module "
                              "call that was defined in a primary configuration file.",
                              mc.name));
            continue;
        }
        ModuleCall& base = it->second;
        if (mc.source) base.source = mc.source;
        if (mc.count) base.count = mc.count;
        if (mc.for_each) base.for_each = mc.for_each;
        if (mc.version_constraints && !mc.version_constraints->value.empty()) {
            base.version_constraints = mc.version_constraints;
        }
        merge_body(base.config, mc.config);
        if (!mc.providers.empty()) base.providers = mc.providers;  // the whole map
        if (!mc.depends_on.empty()) {
            error(mc.depends_on.front().file, mc.depends_on.front().range, code::depends_on_override,
                  "Unsupported override", "The depends_on argument may not be overridden.");
        }
        base.overridden_by.push_back(mc.origin);
    }

    // Managed resources before data resources, each in source order.
    for (ResourceMode mode : {ResourceMode::managed, ResourceMode::data}) {
        for (const auto& [r, decl] : file.resources) {
            if (r.mode != mode) continue;
            auto& table = mode == ResourceMode::managed ? module_.resources : module_.data;
            auto it = table.find(r.key());
            if (it == table.end()) {
                if (mode == ResourceMode::managed) {
                    error(src, decl.def_range, code::missing_resource_to_override, "Missing resource to override",
                          fmt::format("There is no {} resource named \"{}\". An override file can only override a "
                                      "resource block defined in a primary configuration file.",
                                      r.type, r.name));
                } else {
                    error(src, decl.def_range, code::missing_data_resource_to_override,
                          "Missing data resource to override",
                          fmt::format("There is no {} data resource named \"{}\". An override file can only "
                                      "override a data block defined in a primary configuration file.",
                                      r.type, r.name));
                }
                continue;
            }
            Resource& base = it->second;
            if (r.count) base.count = r.count;
            if (r.for_each) base.for_each = r.for_each;
            if (r.provider_ref) {
                base.provider_ref = r.provider_ref;
                base.provider_origin = r.provider_origin;
                base.provider_keyed = r.provider_keyed;
            }
            merge_body(base.config, r.config);
            if (mode == ResourceMode::managed) {
                Lifecycle& lc = base.lifecycle.edit();
                const Lifecycle& olc = *r.lifecycle;
                if (olc.create_before_destroy) lc.create_before_destroy = olc.create_before_destroy;
                if (olc.prevent_destroy) lc.prevent_destroy = olc.prevent_destroy;
                // An empty list changes nothing; `all` once set stays set.
                if (olc.ignore_changes && !olc.ignore_changes->empty()) lc.ignore_changes = olc.ignore_changes;
                if (olc.ignore_all_changes) lc.ignore_all_changes = olc.ignore_all_changes;
                // replace_triggered_by in an override is ignored by Terraform.
                if (!r.provisioners.empty()) base.provisioners = r.provisioners;
                if (r.connection) base.connection = r.connection;
            }
            if (!r.depends_on.empty()) {
                error(r.depends_on.front().file, r.depends_on.front().range, code::depends_on_override,
                      "Unsupported override", "The depends_on argument may not be overridden.");
            }
            base.overridden_by.push_back(r.origin);
        }
    }

    for (const auto& [m, decl] : file.moved) {
        error(src, decl.def_range, code::cannot_override_moved_blocks, "Cannot override 'moved' blocks",
              "Records of moved objects can appear only in normal files, not in override files.");
    }
    for (const auto& [i, decl] : file.imports) {
        error(src, decl.def_range, code::cannot_override_import_blocks, "Cannot override 'import' blocks",
              "Import blocks can appear only in normal files, not in override files.");
    }
    // Terraform v1.14 merges an override file's actions into the primary
    // ones as it merges resources; it leaves ephemeral resources of override
    // files out altogether.
    for (const auto& [a, decl] : file.others) {
        if (a.mode != ResourceMode::action) continue;
        auto it = module_.actions.find(a.key());
        if (it == module_.actions.end()) {
            error(src, decl.def_range, code::missing_resource_to_override, "Missing resource to override",
                  fmt::format("There is no action named \"{}\". An override file can only override a resource block "
                              "defined in a primary configuration file.",
                              a.name));
            continue;
        }
        Resource& base = it->second;
        if (a.count) base.count = a.count;
        if (a.for_each) base.for_each = a.for_each;
        if (a.provider_ref) {
            base.provider_ref = a.provider_ref;
            base.provider_origin = a.provider_origin;
        }
        if (!a.config.arguments.empty() || !a.config.blocks.empty() || !a.config.undecided.empty()) {
            base.config = a.config;  // the override's one `config` block replaces the base's
        }
        base.overridden_by.push_back(a.origin);
    }
}

Module OverrideMerger::finish() {
    // Bodies that took part in no merge: only their own native blocks count.
    auto settle = [](Body& body) {
        if (body.undecided.empty()) return;
        std::set<std::string, std::less<>> types;
        for (const auto& b : std::as_const(body.blocks)) types.insert(b.type);
        resolve_json_body(body, types);
    };
    for (auto& [k, p] : module_.providers) settle(p.config);
    for (auto& [k, c] : module_.module_calls) settle(c.config);
    for (auto& [k, r] : module_.resources) settle(r.config);
    for (auto& [k, r] : module_.data) settle(r.config);
    auto source_of = [this](ProviderAssignment& pa) {
        std::string local = pa.value.substr(0, pa.value.find('.'));
        if (auto it = module_.terraform.required_providers.find(local);
            it != module_.terraform.required_providers.end()) {
            pa.source = it->second.source;
        } else {
            pa.source = default_provider_source(local);
        }
    };
    // The resources that imply the same provider share one assignment.
    std::map<std::string, RarelySet<ProviderAssignment>, std::less<>> implied;
    auto assign = [&](Resource& r) {
        ProviderAssignment pa;
        if (r.provider_ref) {
            pa.value = *r.provider_ref;
            pa.explicit_ = true;
            pa.origin = r.provider_origin;
            source_of(pa);
            r.provider = std::move(pa);
            return;
        }
        std::string name = implied_provider_name(r.type);
        auto it = implied.find(name);
        if (it == implied.end()) {
            pa.value = name;
            source_of(pa);
            it = implied.emplace(std::move(name), std::move(pa)).first;
        }
        r.provider = it->second;
    };
    for (auto& [key, r] : module_.resources) assign(r);
    for (auto& [key, r] : module_.data) assign(r);
    for (auto& [key, r] : module_.ephemeral) assign(r);
    for (auto& [key, r] : module_.actions) assign(r);
    auto& exps = module_.terraform.experiments;
    std::sort(exps.begin(), exps.end());
    exps.erase(std::unique(exps.begin(), exps.end()), exps.end());
    return std::move(module_);
}

}  // namespace tfsift::config
