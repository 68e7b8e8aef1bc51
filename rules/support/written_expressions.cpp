#include "written_expressions.hpp"

#include <array>
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

// The nodes met by the walk, by kind: the thread's own lists, kept between
// modules so that they seldom grow.
using NodeLists = std::array<std::vector<WrittenNode>, ExpressionIndex::kinds>;

// `e` and the nodes below it, parents first, then children in source order.
void collect(const hcl::Expr& e, std::uint32_t root, NodeLists& out) {
    out[static_cast<std::size_t>(e.kind)].push_back({&e, root});
    hcl::for_each_child(e, [root, &out](const hcl::Expr& child) { collect(child, root, out); });
}

}  // namespace

ExpressionIndex::ExpressionIndex(const config::LoadedModule& module) {
    IndexBuilder builder(roots_, json_strings_);
    for (const config::ModuleFile& file : module.files) builder.file(file);
    // The walk fills the thread's lists; the index copies them, kind after
    // kind, into one allocation of the exact size.
    thread_local NodeLists lists;
    for (auto& list : lists) list.clear();
    for (std::size_t i = 0; i < roots_.size(); ++i) collect(*roots_[i].expr, static_cast<std::uint32_t>(i), lists);
    for (std::size_t k = 0; k < kinds; ++k) starts_[k + 1] = starts_[k] + static_cast<std::uint32_t>(lists[k].size());
    nodes_.reserve(starts_[kinds]);
    for (auto& list : lists) {
        nodes_.insert(nodes_.end(), list.begin(), list.end());
        // A module of millions of nodes does not leave the thread its lists' memory.
        constexpr std::size_t kept = std::size_t{1} << 18;
        if (list.capacity() > kept) std::vector<WrittenNode>().swap(list);
    }
}

std::shared_ptr<const ExpressionIndex> expression_index(const LintContext& ctx) {
    return memoised<ExpressionIndex>(ctx, [](const LintContext& c) { return ExpressionIndex(c.module()); });
}

}  // namespace tfsift::lint::written
