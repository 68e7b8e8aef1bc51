#include "decoder.hpp"

#include <algorithm>
#include <span>

#include <fmt/core.h>

#include "tfsift/config/override_merger.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/config/type_constraint.hpp"
#include "tfsift/config/version_constraints.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/cty/json.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::config {

// OpenTofu 1.9: a reference to a provider configuration with for_each
// names one of its instances, `aws.by_region[each.key]`. The key is an
// expression evaluated per instance; what is checked statically is the
// reference before it. Returns that part (for JSON, in `scratch`) and
// sets `keyed`; any other expression, and every expression for
// Terraform, is returned as it is.
Expression Decoder::without_instance_key(const Expression& e, json::Value& scratch, bool& keyed) const {
    if (engine_ != Engine::opentofu) return e;
    if (e.native && e.native->kind == hcl::ExprKind::index) {
        const auto& idx = hcl::as<hcl::IndexExpr>(*e.native);
        keyed = true;
        return Expression{ctx_.file, idx.collection->range, idx.collection, nullptr};
    }
    // A constant key (`aws.by_region["eu"]`) is the last step of the traversal.
    auto key_dropped = [&](std::span<const hcl::TraversalStep> steps) {
        return !steps.empty() && steps.back().kind == hcl::StepKind::index && !steps.back().legacy_index;
    };
    if (e.native && e.native->kind == hcl::ExprKind::scope_traversal) {
        const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e.native);
        if (key_dropped(t.steps)) {
            keyed = true;
            const auto* ref =
                ctx_.arena->make<hcl::ScopeTraversalExpr>(hcl::Expr{hcl::ExprKind::scope_traversal, e.range},
                                                          t.root_end, t.root, t.steps.first(t.steps.size() - 1));
            return Expression{ctx_.file, e.range, ref, nullptr};
        }
    }
    if (e.native && e.native->kind == hcl::ExprKind::relative_traversal) {
        const auto& t = hcl::as<hcl::RelativeTraversalExpr>(*e.native);
        if (key_dropped(t.steps)) {
            keyed = true;
            const auto* ref = ctx_.arena->make<hcl::RelativeTraversalExpr>(
                hcl::Expr{hcl::ExprKind::relative_traversal, e.range}, t.source, t.steps.first(t.steps.size() - 1));
            return Expression{ctx_.file, e.range, ref, nullptr};
        }
    }
    if (e.json && e.json->is_string()) {
        const std::string& text = e.json->text;
        std::size_t open = text.find('[');
        if (open != std::string::npos && open > 0 && text.ends_with("]")) {
            scratch = *e.json;
            scratch.text = text.substr(0, open);
            Expression out = e;
            out.json = &scratch;
            keyed = true;
            return out;
        }
    }
    return e;
}

void Decoder::decode_moved(const ContentBlock& b) {
    Content c = detail::body_content(ctx_, b.body, schema::moved, nullptr);
    const auto* from = c.attribute("from");
    const auto* to = c.attribute("to");
    if (!from || !to) return;
    const auto* ft = detail::traversal_for_expr(ctx_, from->expr, false, false, false);
    const auto* tt = detail::traversal_for_expr(ctx_, to->expr, false, false, false);
    if (!ft || !tt) return;
    Moved m;
    m.from = detail::make_traversal(ctx_, *ft, from->expr);
    m.to = detail::make_traversal(ctx_, *tt, to->expr);
    m.origin = origin(b.origin);
    out_.moved.emplace_back(std::move(m), Declared{b.def_range});
}

// The names along an import target address, instance keys left out:
// `module.net["a"].aws_subnet.main[each.key]` gives module, net,
// aws_subnet, main. The keys may be any expression (they are evaluated
// for each import), so only the traversal around them matters here.
// False when the expression is not an address.
bool Decoder::import_address_names(const hcl::Expr* e, std::vector<std::string>& out) {
    if (e == nullptr) return false;
    switch (e->kind) {
        case hcl::ExprKind::index: return import_address_names(hcl::as<hcl::IndexExpr>(*e).collection, out);
        case hcl::ExprKind::relative_traversal: {
            const auto& rt = hcl::as<hcl::RelativeTraversalExpr>(*e);
            if (!import_address_names(rt.source, out)) return false;
            for (const auto& step : rt.steps) {
                if (step.kind == hcl::StepKind::attr) out.emplace_back(step.name);
            }
            return true;
        }
        case hcl::ExprKind::scope_traversal: {
            const auto& t = hcl::as<hcl::ScopeTraversalExpr>(*e);
            out.emplace_back(t.root);
            for (const auto& step : t.steps) {
                if (step.kind == hcl::StepKind::attr) out.emplace_back(step.name);
            }
            return true;
        }
        default: return false;
    }
}

// The same for a JSON string: the text with its bracketed keys removed,
// split at the dots.
bool Decoder::import_address_names(std::string_view text, std::vector<std::string>& out) {
    std::string name;
    int depth = 0;
    for (char ch : text) {
        if (ch == '[') {
            ++depth;
        } else if (ch == ']') {
            if (--depth < 0) return false;
        } else if (depth == 0) {
            if (ch == '.') {
                out.push_back(std::move(name));
                name.clear();
            } else {
                name += ch;
            }
        }
    }
    out.push_back(std::move(name));
    return depth == 0;
}

// The instance key at the end of an import target address.
Import::Key Decoder::import_to_key(const hcl::Expr* e) {
    if (e == nullptr) return Import::Key::none;
    auto last_step = [](std::span<const hcl::TraversalStep> steps) {
        if (steps.empty() || steps.back().kind != hcl::StepKind::index) return Import::Key::none;
        const hcl::LiteralExpr* key = steps.back().key();
        if (key == nullptr) return Import::Key::expression;
        if (key->literal == hcl::LiteralKind::string) return Import::Key::string;
        if (key->literal == hcl::LiteralKind::number) return Import::Key::number;
        return Import::Key::expression;
    };
    switch (e->kind) {
        case hcl::ExprKind::index: return Import::Key::expression;
        case hcl::ExprKind::relative_traversal: return last_step(hcl::as<hcl::RelativeTraversalExpr>(*e).steps);
        case hcl::ExprKind::scope_traversal: return last_step(hcl::as<hcl::ScopeTraversalExpr>(*e).steps);
        default: return Import::Key::none;
    }
}

Import::Key Decoder::import_to_key(std::string_view text) {
    if (text.empty() || text.back() != ']') return Import::Key::none;
    const auto open = text.rfind('[');
    if (open == std::string_view::npos) return Import::Key::expression;
    std::string_view key = text.substr(open + 1, text.size() - open - 2);
    if (key.size() >= 2 && key.front() == '"' && key.back() == '"' && key.find("${") == std::string_view::npos) {
        return Import::Key::string;
    }
    if (!key.empty() && key.find_first_not_of("0123456789") == std::string_view::npos) return Import::Key::number;
    return Import::Key::expression;
}

void Decoder::decode_import(const ContentBlock& b) {
    // Terraform v1.12 imports by `identity` as well as by `id`.
    const bool terraform = engine_ == Engine::terraform;
    Content c = detail::body_content(ctx_, b.body, terraform ? schema::terraform_import : schema::import, nullptr);
    Import imp;
    imp.origin = origin(b.origin);
    if (const auto* a = c.attribute("id")) imp.id = a->expr;
    if (const auto* a = c.attribute("for_each")) imp.for_each = a->expr;
    if (terraform) {
        const bool identity = c.attribute("identity") != nullptr;
        if (!imp.id && !identity) {
            ctx_.error(code::invalid_import_block, "Invalid import block",
                       "At least one of 'id' or 'identity' must be specified.", b.def_range);
        } else if (imp.id && identity) {
            ctx_.error(code::invalid_import_block, "Invalid import block",
                       "Only one of 'id' or 'identity' can be specified.", b.def_range);
        }
    }
    if (const auto* a = c.attribute("to")) {
        imp.to = a->expr;
        imp.to_key = a->expr.json ? (a->expr.json->is_string() ? import_to_key(a->expr.json->text) : Import::Key::none)
                                  : import_to_key(a->expr.native);
        imp.to_text = std::string(a->expr.source_text());
        std::vector<std::string> names;
        bool ok = a->expr.json ? a->expr.json->is_string() && import_address_names(a->expr.json->text, names)
                               : import_address_names(a->expr.native, names);
        if (!ok) {
            ctx_.error(code::invalid_import_address_expression, "Invalid import address expression",
                       "An import address must be the address of a resource, optionally inside modules, with "
                       "instance keys that may be any expression: module.network[\"eu\"].aws_subnet.main[each.key].",
                       a->expr.range);
            return;
        }
        std::size_t i = 0;
        while (i + 1 < names.size() && names[i] == "module") {
            imp.to_module = true;
            i += 2;
        }
        if (!imp.to_module && i + 1 < names.size() && names[i] != "data") {
            imp.to_resource = names[i] + "." + names[i + 1];
        }
        // What remains after the module path must name a managed resource
        // (addrs.ParseAbsResourceInstance, then the import's own check),
        // with or without for_each: `to = invalid[each.value]` is no address.
        const bool data = i < names.size() && names[i] == "data";
        const std::size_t resource_names = names.size() - i - (data ? 1 : 0);
        if (resource_names < 2) {
            ctx_.error(code::invalid_address, "Invalid address",
                       "Resource specification must include a resource type and name.", a->expr.range);
        } else if (resource_names > 2) {
            ctx_.error(code::invalid_address, "Invalid address", "Unexpected extra operators after address.",
                       a->expr.range);
        }
        if (data || resource_names < 2) {
            ctx_.error(code::invalid_import_address, "Invalid import address",
                       "Only managed resources can be imported.", Range{a->name_range.start, a->expr.range.end});
        }
    }
    if (const auto* a = c.attribute("provider")) {
        if (imp.to_module) {
            ctx_.error(code::invalid_import_provider_argument, "Invalid import provider argument",
                       "Only an import block that generates configuration may name a provider. An import into a "
                       "module uses the provider configurations the module block passes to that module (its "
                       "providers argument).",
                       a->name_range);
        }
        if (auto ref = decode_provider_ref(a->expr, "provider")) {
            imp.provider_ref = *ref;
            imp.provider_origin = origin(a->name_range.start);
        }
    }
    out_.imports.emplace_back(std::move(imp), Declared{b.def_range});
}

}  // namespace tfsift::config
