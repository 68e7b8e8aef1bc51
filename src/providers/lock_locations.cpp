// Finding the ranges of a lock file's entries in its syntax tree.
#include "tfsift/providers/lock_locations.hpp"

#include "tfsift/hcl/ast.hpp"

namespace tfsift::providers {

namespace {

// The text of a quoted string without interpolation, or nullopt.
std::optional<std::string> literal_string(const hcl::Expr* e) {
    if (e == nullptr || e->kind != hcl::ExprKind::template_) return std::nullopt;
    const auto* t = static_cast<const hcl::TemplateExpr*>(e);
    std::string out;
    for (const hcl::Expr* part : t->parts) {
        if (part->kind != hcl::ExprKind::literal) return std::nullopt;
        out += static_cast<const hcl::LiteralExpr*>(part)->text;
    }
    return out;
}

}  // namespace

LockLocations locate_lock_entries(const std::shared_ptr<const SourceFile>& source) {
    LockLocations out;
    if (!source) return out;
    hcl::File file = hcl::parse(source);
    for (const hcl::Block& b : file.body->blocks) {
        if (b.type != "provider" || b.labels.size() != 1) continue;
        std::string label(b.labels[0].value);
        if (out.count(label)) continue;
        LockEntryLocation loc;
        loc.definition = b.def_range();
        for (const hcl::Attribute& a : b.body.attributes) {
            if (a.name == "version") loc.version = a.range;
            if (a.name == "constraints") loc.constraints = a.range;
            if (a.name == "hashes") {
                loc.hashes = a.range;
                if (a.expr->kind == hcl::ExprKind::tuple) {
                    for (const hcl::Expr* item : hcl::as<hcl::TupleExpr>(*a.expr).items) {
                        if (auto text = literal_string(item)) loc.hash_items.emplace_back(*text, item->range);
                    }
                }
            }
        }
        out.emplace(std::move(label), std::move(loc));
    }
    return out;
}

}  // namespace tfsift::providers
