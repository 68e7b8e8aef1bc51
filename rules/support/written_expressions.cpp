#include "written_expressions.hpp"

#include "reference_names.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::lint::written {
namespace {

void native_body(const hcl::Body& body, ExpressionSite site, const ExpressionVisitor& visit) {
    for (const auto& a : body.attributes) {
        if (a.expr) visit(*a.expr, site);
    }
    for (const auto& b : body.blocks) native_body(b.body, site, visit);
}

void json_value(const json::Value& v, const ExpressionSite& site, const ExpressionVisitor& visit) {
    switch (v.kind) {
        case json::Kind::string: {
            if (v.text.find("${") == std::string::npos && v.text.find("%{") == std::string::npos) return;
            auto parsed = parse_json_string(v, true);
            if (parsed.expr) visit(*parsed.expr, site);
            return;
        }
        case json::Kind::array:
            for (const auto& item : v.items) json_value(item, site, visit);
            return;
        case json::Kind::object:
            for (const auto& m : v.members) json_value(m.value, site, visit);
            return;
        default: return;
    }
}

// A JSON file's top level: {"variable": {"region": {...}}}, or an array of
// such objects.
void json_root(const json::Value& root, const ExpressionVisitor& visit) {
    if (root.is_array()) {
        for (const auto& item : root.items) json_root(item, visit);
        return;
    }
    if (!root.is_object()) return;
    for (const auto& top : root.members) {
        ExpressionSite site{top.name, {}, true};
        if (!top.value.is_object()) {
            json_value(top.value, site, visit);
            continue;
        }
        for (const auto& labelled : top.value.members) {
            site.block_label = labelled.name;
            json_value(labelled.value, site, visit);
        }
    }
}

}  // namespace

void for_each_expression(const config::ParsedFile& file, const ExpressionVisitor& visit) {
    if (file.native && file.native->body) {
        for (const auto& b : file.native->body->blocks) {
            ExpressionSite site{b.type, b.labels.empty() ? std::string_view() : std::string_view(b.labels[0].value),
                                false};
            native_body(b.body, site, visit);
        }
        // Attributes at the top level are errors, but may still refer to things.
        for (const auto& a : file.native->body->attributes) {
            if (a.expr) visit(*a.expr, ExpressionSite{});
        }
    } else if (file.json) {
        json_root(file.json->root, visit);
    }
}

}  // namespace tfsift::lint::written
