// Reading required_providers entries from the syntax of this module's files.
#include "written_provider_requirements.hpp"

#include <functional>
#include <unordered_map>
#include <utility>

#include "tfsift/config/decode.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/json/value.hpp"
#include "tfsift/lint/module_memo.hpp"

namespace tfsift::lint::rules {

namespace {

bool is_settings_block(std::string_view type) { return type == "terraform" || type == "tofu"; }

std::optional<std::string> object_key_text(const hcl::Expr* key) {
    if (key == nullptr) return std::nullopt;
    if (key->kind == hcl::ExprKind::object_key) {
        const auto& k = hcl::as<hcl::ObjectKeyExpr>(*key);
        if (!k.force_non_literal && k.wrapped->kind == hcl::ExprKind::scope_traversal) {
            const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*k.wrapped);
            if (t.steps.empty()) return std::string(t.root);
        }
        return literal_string(k.wrapped);
    }
    return literal_string(key);
}

void read_native_entry(const hcl::Attribute& a, WrittenRequirement& w) {
    w.name = std::string(a.name);
    w.name_range = a.name_range();
    w.value_range = a.expr->range;
    if (a.expr->kind != hcl::ExprKind::object) {
        w.legacy_string = true;
        w.has_version = true;
        if (auto text = literal_string(a.expr)) w.version = WrittenString{*text, a.expr->range};
        return;
    }
    for (const hcl::ObjectItem& item : hcl::as<hcl::ObjectExpr>(*a.expr).items) {
        auto key = object_key_text(item.key);
        if (!key) continue;
        auto text = literal_string(item.value);
        if (*key == "source") {
            w.has_source = true;
            if (text) w.source = WrittenString{*text, item.value->range};
        } else if (*key == "version") {
            w.has_version = true;
            if (text) w.version = WrittenString{*text, item.value->range};
        }
    }
}

void read_json_entry(const json::Member& m, WrittenRequirement& w) {
    w.name = m.name;
    w.name_range = m.name_range;
    w.value_range = m.value.range;
    if (!m.value.is_object()) {
        w.legacy_string = true;
        w.has_version = true;
        if (m.value.is_string()) w.version = WrittenString{m.value.text, m.value.range};
        return;
    }
    for (const json::Member& kv : m.value.members) {
        if (kv.name == "source") {
            w.has_source = true;
            if (kv.value.is_string()) w.source = WrittenString{kv.value.text, kv.value.range};
        } else if (kv.name == "version") {
            w.has_version = true;
            if (kv.value.is_string()) w.version = WrittenString{kv.value.text, kv.value.range};
        }
    }
}

// JSON allows a block type's value to be one object or an array of objects.
template <class F>
void for_each_json_block(const json::Value& v, F&& f) {
    if (v.is_object()) {
        f(v);
    } else if (v.is_array()) {
        for (const json::Value& item : v.items) {
            if (item.is_object()) f(item);
        }
    }
}

bool contains(const Range& outer, const Range& inner) {
    return outer.start.byte <= inner.start.byte && inner.end.byte <= outer.end.byte;
}

}  // namespace

std::optional<std::string> literal_string(const hcl::Expr* expr) {
    if (expr == nullptr) return std::nullopt;
    switch (expr->kind) {
        case hcl::ExprKind::literal: {
            const auto& lit = hcl::as<hcl::LiteralExpr>(*expr);
            if (lit.literal != hcl::LiteralKind::string) return std::nullopt;
            return std::string(lit.text);
        }
        case hcl::ExprKind::template_: {
            std::string out;
            for (const hcl::Expr* part : hcl::as<hcl::TemplateExpr>(*expr).parts) {
                if (part->kind != hcl::ExprKind::literal) return std::nullopt;
                out += hcl::as<hcl::LiteralExpr>(*part).text;
            }
            return out;
        }
        default: return std::nullopt;
    }
}

namespace {

std::vector<WrittenRequirement> read_provider_requirements(const LintContext& ctx) {
    std::vector<WrittenRequirement> out;
    for (const config::ModuleFile& file : ctx.files()) {
        std::size_t block_index = 0;
        if (const hcl::File* native = LintContext::native(file)) {
            for (const hcl::Block& settings : native->body->blocks) {
                if (!is_settings_block(settings.type)) continue;
                for (const hcl::Block& rp : settings.body.blocks) {
                    if (rp.type != "required_providers") continue;
                    for (const hcl::Attribute& a : rp.body.attributes) {
                        WrittenRequirement w;
                        w.file = &file;
                        w.block_index = block_index;
                        read_native_entry(a, w);
                        out.push_back(std::move(w));
                    }
                    ++block_index;
                }
            }
        } else if (file.parsed->json && file.parsed->json->root.is_object()) {
            for (const json::Member& top : file.parsed->json->root.members) {
                if (!is_settings_block(top.name)) continue;
                for_each_json_block(top.value, [&](const json::Value& settings) {
                    for (const json::Member& inner : settings.members) {
                        if (inner.name != "required_providers") continue;
                        for_each_json_block(inner.value, [&](const json::Value& rp) {
                            for (const json::Member& m : rp.members) {
                                if (m.name == "//") continue;
                                WrittenRequirement w;
                                w.file = &file;
                                w.block_index = block_index;
                                read_json_entry(m, w);
                                out.push_back(std::move(w));
                            }
                            ++block_index;
                        });
                    }
                });
            }
        }
    }
    return out;
}

}  // namespace

namespace {

struct ValueStartHash {
    std::size_t operator()(const std::pair<const SourceFile*, std::size_t>& k) const noexcept {
        return std::hash<const void*>()(k.first) ^ (std::hash<std::size_t>()(k.second) * 0x9e3779b97f4a7c15ULL);
    }
};

}  // namespace

struct WrittenRequirements::Data {
    std::vector<WrittenRequirement> entries;
    // (source file, byte where the value starts) -> entries there, in order
    std::unordered_multimap<std::pair<const SourceFile*, std::size_t>, std::size_t, ValueStartHash> by_value;
};

WrittenRequirements::WrittenRequirements(std::vector<WrittenRequirement> entries) {
    auto d = std::make_shared<Data>();
    d->entries = std::move(entries);
    d->by_value.reserve(d->entries.size());
    for (std::size_t i = 0; i < d->entries.size(); ++i) {
        const WrittenRequirement& w = d->entries[i];
        d->by_value.emplace(std::pair(w.file->parsed->source.get(), w.value_range.start.byte), i);
    }
    entries_ = &d->entries;
    data_ = std::move(d);
}

const WrittenRequirement* WrittenRequirements::entry_for(const config::RequiredProvider& requirement) const {
    if (!data_) return nullptr;
    const WrittenRequirement* found = nullptr;
    auto [first, last] = data_->by_value.equal_range(std::pair(requirement.origin.file, requirement.origin.pos.byte));
    for (auto it = first; it != last; ++it) {
        const WrittenRequirement& w = data_->entries[it->second];
        // The first in source order, as a scan would find it.
        if (w.name == requirement.name && (found == nullptr || &w < found)) found = &w;
    }
    return found;
}

WrittenRequirements written_provider_requirements(const LintContext& ctx) {
    // Ten rules ask for the same module's entries; most modules have few.
    return *memoised<WrittenRequirements>(
        ctx, [](const LintContext& c) { return WrittenRequirements(read_provider_requirements(c)); });
}

const WrittenRequirement* written_entry_for(const WrittenRequirements& written,
                                            const config::RequiredProvider& requirement) {
    return written.entry_for(requirement);
}

bool subject_in_required_providers(const ClaimedDiagnostic& diagnostic) {
    if (!diagnostic.source || !diagnostic.subject) return false;
    const Range subject = *diagnostic.subject;
    const std::string& path = diagnostic.source->path();
    const bool json_syntax = path.ends_with(".json");
    auto parsed = config::parse_config_file(diagnostic.source,
                                            json_syntax ? config::FileSyntax::json : config::FileSyntax::native);
    if (parsed->native) {
        for (const hcl::Block& settings : parsed->native->body->blocks) {
            if (!is_settings_block(settings.type)) continue;
            for (const hcl::Block& rp : settings.body.blocks) {
                if (rp.type == "required_providers" && contains(rp.range(), subject)) return true;
            }
        }
    } else if (parsed->json && parsed->json->root.is_object()) {
        bool found = false;
        for (const json::Member& top : parsed->json->root.members) {
            if (!is_settings_block(top.name)) continue;
            for_each_json_block(top.value, [&](const json::Value& settings) {
                for (const json::Member& inner : settings.members) {
                    if (inner.name == "required_providers" && contains(inner.value.range, subject)) found = true;
                }
            });
        }
        return found;
    }
    return false;
}

}  // namespace tfsift::lint::rules
