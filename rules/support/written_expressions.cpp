#include "written_expressions.hpp"

#include <algorithm>
#include <array>
#include <new>
#include <vector>

#include "tfsift/json/value.hpp"
#include "tfsift/lint/module_memo.hpp"

namespace tfsift::lint::written {
namespace {

class IndexBuilder {
public:
    IndexBuilder(std::vector<WrittenExpression>& roots,
                 std::vector<std::shared_ptr<const JsonStringExpression>>& json_strings)
        : roots_(roots), json_strings_(json_strings) {}

    void file(const config::ModuleFile& file) {
        file_ = &file;
        const config::ParsedFile& parsed = *file.parsed;
        if (parsed.native && parsed.native->body) {
            for (const auto& b : parsed.native->body->blocks) {
                ExpressionSite site{b.type, b.labels.empty() ? std::string_view() : std::string_view(b.labels[0].value),
                                    false};
                native_body(b.body, site);
            }
            // Attributes at the top level are errors, but may still refer to things.
            for (const auto& a : parsed.native->body->attributes) {
                if (a.expr) add(*a.expr, ExpressionSite{});
            }
        } else if (parsed.json) {
            json_root(parsed.json->root);
        }
    }

private:
    void add(const hcl::Expr& e, const ExpressionSite& site) { roots_.push_back({file_, &e, site}); }

    void native_body(const hcl::Body& body, const ExpressionSite& site) {
        for (const auto& a : body.attributes) {
            if (a.expr) add(*a.expr, site);
        }
        for (const auto& b : body.blocks) native_body(b.body, site);
    }

    void json_value(const json::Value& v, const ExpressionSite& site) {
        switch (v.kind) {
            case json::Kind::string: {
                if (v.text.find("${") == std::string::npos && v.text.find("%{") == std::string::npos) return;
                auto parsed = shared_json_string(v, true);
                if (parsed->expr == nullptr) return;
                add(*parsed->expr, site);
                json_strings_.push_back(std::move(parsed));
                return;
            }
            case json::Kind::array:
                for (const auto& item : v.items) json_value(item, site);
                return;
            case json::Kind::object:
                for (const auto& m : v.members) json_value(m.value, site);
                return;
            default: return;
        }
    }

    // A JSON file's top level: {"variable": {"region": {...}}}, or an array of
    // such objects.
    void json_root(const json::Value& root) {
        if (root.is_array()) {
            for (const auto& item : root.items) json_root(item);
            return;
        }
        if (!root.is_object()) return;
        for (const auto& top : root.members) {
            ExpressionSite site{top.name, {}, true};
            if (!top.value.is_object()) {
                json_value(top.value, site);
                continue;
            }
            for (const auto& labelled : top.value.members) {
                site.block_label = labelled.name;
                json_value(labelled.value, site);
            }
        }
    }

    std::vector<WrittenExpression>& roots_;
    std::vector<std::shared_ptr<const JsonStringExpression>>& json_strings_;
    const config::ModuleFile* file_ = nullptr;
};

}  // namespace

namespace {

// Whether `e` has no children: it is counted and placed where it is met,
// without a call of its own (after its earlier siblings' nodes, as a call
// would place it).
bool childless(const hcl::Expr& e) {
    return e.kind == hcl::ExprKind::scope_traversal || e.kind == hcl::ExprKind::anon_symbol;
}

// Counts `e` and the nodes below it by kind, literals left out. The two
// walks are flattened: for_each_child and its callback inlined into them,
// where a call of each for every node cost a third of the index.
[[gnu::flatten]] void count_nodes(const hcl::Expr& e, std::array<std::uint32_t, ExpressionIndex::kinds + 1>& counts) {
    ++counts[static_cast<std::size_t>(e.kind) + 1];
    hcl::for_each_child(e, [&counts](const hcl::Expr& child) {
        if (child.kind == hcl::ExprKind::literal) return;
        if (childless(child)) {
            ++counts[static_cast<std::size_t>(child.kind) + 1];
        } else {
            count_nodes(child, counts);
        }
    });
}

// Puts `e` and the nodes below it, parents first, then children in source
// order, at the next free place of their kind (`next`, by kind), literals
// left out.
[[gnu::flatten]] void place_nodes(const hcl::Expr& e, std::uint32_t root,
                                  std::array<std::uint32_t, ExpressionIndex::kinds + 1>& next, WrittenNode* nodes) {
    nodes[next[static_cast<std::size_t>(e.kind)]++] = WrittenNode{&e, root};
    hcl::for_each_child(e, [root, &next, &nodes](const hcl::Expr& child) {
        if (child.kind == hcl::ExprKind::literal) return;
        if (childless(child)) {
            nodes[next[static_cast<std::size_t>(child.kind)]++] = WrittenNode{&child, root};
        } else {
            place_nodes(child, root, next, nodes);
        }
    });
}

}  // namespace

namespace {

// How many attributes a body holds, nested blocks' included: the roots of a
// native file.
std::size_t attributes_in(const hcl::Body& body) {
    std::size_t n = body.attributes.size();
    for (const auto& b : body.blocks) n += attributes_in(b.body);
    return n;
}

}  // namespace

ExpressionIndex::ExpressionIndex(const config::LoadedModule& module) {
    // The roots are counted first (JSON files' strings aside): a module of
    // thousands of expressions is not moved at each growth of the list.
    std::size_t native_roots = 0;
    for (const config::ModuleFile& file : module.files) {
        if (file.parsed->native && file.parsed->native->body) native_roots += attributes_in(*file.parsed->native->body);
    }
    roots_.reserve(native_roots);
    IndexBuilder builder(roots_, json_strings_);
    for (const config::ModuleFile& file : module.files) builder.file(file);
    // Two walks: one counts the nodes of each kind, the other puts each in
    // its place in one allocation of the exact size. A module's nodes are
    // never held twice (a walk into growing lists, then a copy, held a
    // module of 2.6 MB's nodes twice and its lists' slack besides).
    for (const auto& r : roots_) {
        if (r.expr->kind != hcl::ExprKind::literal) count_nodes(*r.expr, starts_);
    }
    for (std::size_t k = 0; k < kinds; ++k) starts_[k + 1] += starts_[k];
    // WrittenNode is an aggregate: the storage holds its nodes as they are
    // assigned (C++20's implicit object creation).
    nodes_.reset(
        static_cast<WrittenNode*>(::operator new(std::max<std::size_t>(starts_[kinds], 1) * sizeof(WrittenNode))));
    std::array<std::uint32_t, kinds + 1> next = starts_;
    for (std::size_t i = 0; i < roots_.size(); ++i) {
        if (roots_[i].expr->kind != hcl::ExprKind::literal)
            place_nodes(*roots_[i].expr, static_cast<std::uint32_t>(i), next, nodes_.get());
    }
}

std::shared_ptr<const ExpressionIndex> expression_index(const LintContext& ctx) {
    return memoised<ExpressionIndex>(ctx, [](const LintContext& c) { return ExpressionIndex(c.module()); });
}

}  // namespace tfsift::lint::written
