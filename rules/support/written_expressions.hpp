// Every expression written in a module's own files, whatever block holds it:
// the rules about how expressions are written (deprecated forms, duplicate
// keys) and about what is referenced at all (unused declarations) look at
// the files as written rather than at the decoded model, which keeps only
// the blocks and arguments the loader knows (not `check`, `removed`,
// `import` arguments, actions' `config`, ...).
//
// Six rules look at every node of every such expression. The module's files
// are walked once, into an index that lists the nodes by kind, and the rules
// that check one module share it (lint/module_memo.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "reference_names.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::written {

// Where an expression sits: the top-level block's type and first label
// (`variable` and `"region"`), empty for neither.
struct ExpressionSite {
    std::string_view block_type;
    std::string_view block_label;
    bool from_json = false;  // a JSON string parsed as a template: its ranges are not the file's
};

// The whole expression of an attribute (of any block, nested blocks
// included) of a native-syntax file, or a string of a JSON file that holds a
// template (`${` or `%{`), parsed as one. Parsing errors leave an expression
// out.
struct WrittenExpression {
    const config::ModuleFile* file = nullptr;
    const hcl::Expr* expr = nullptr;
    ExpressionSite site;
};

// A node of a written expression, and which expression holds it.
struct WrittenNode {
    const hcl::Expr* expr = nullptr;
    std::uint32_t root = 0;  // an index into ExpressionIndex::roots()
};

class ExpressionIndex {
public:
    // Walks the module's files in load order, each in source order.
    explicit ExpressionIndex(const config::LoadedModule& module);

    // Every written expression, in file load order and source order.
    [[nodiscard]] const std::vector<WrittenExpression>& roots() const { return roots_; }
    [[nodiscard]] const WrittenExpression& root_of(const WrittenNode& n) const { return roots_[n.root]; }
    // The nodes of one kind, of every expression: in the order of their
    // expressions, and within one, parents first, then source order.
    // Literals, the most numerous nodes and of no interest to the rules, are
    // not listed.
    [[nodiscard]] std::span<const WrittenNode> nodes(hcl::ExprKind kind) const {
        if (kind == hcl::ExprKind::literal) throw std::logic_error("literals are not in the expression index");
        const auto k = static_cast<std::size_t>(kind);
        return std::span<const WrittenNode>(nodes_.get() + starts_[k], starts_[k + 1] - starts_[k]);
    }

    static constexpr std::size_t kinds = static_cast<std::size_t>(hcl::ExprKind::parentheses) + 1;

private:
    std::vector<WrittenExpression> roots_;
    // Every node, those of one kind together: storage each node is written
    // into once, where a vector would set every node to null first.
    struct FreeNodes {
        void operator()(WrittenNode* p) const { ::operator delete(p); }
    };
    std::unique_ptr<WrittenNode[], FreeNodes> nodes_;
    std::array<std::uint32_t, kinds + 1> starts_{};                          // where each kind's nodes start in nodes_
    std::vector<std::shared_ptr<const JsonStringExpression>> json_strings_;  // what the JSON roots point into
};

// The index of the context's module, shared by the rules that check it.
[[nodiscard]] std::shared_ptr<const ExpressionIndex> expression_index(const LintContext& ctx);

}  // namespace tfsift::lint::written
