#include "tfsift/hcl/references.hpp"

#include <algorithm>

#include "tfsift/cty/json.hpp"

namespace tfsift::hcl {
namespace {

// Walks an expression the way hcl's Variables() does, with an explicit work
// list rather than recursion: a chain of a million binary operators is one
// level of nesting for the parser but a million levels for a recursive walk.
// The work lists are the thread's own and kept between walks: the lint asks
// this of hundreds of thousands of small expressions.
class VariablesWalker {
public:
    // With `first_only`, the walk stops at the first reference or function
    // call, and found() says whether it met one.
    explicit VariablesWalker(std::vector<const ScopeTraversalExpr*>& out, bool first_only = false)
        : out_(out), lists_(thread_lists()), first_only_(first_only) {}

    [[nodiscard]] bool found() const { return found_; }

    void walk(const Expr& root) {
        if (root.kind == ExprKind::scope_traversal) {  // the common `var.x`: no work list
            out_.push_back(&as<ScopeTraversalExpr>(root));
            found_ = true;
            return;
        }
        if (root.kind == ExprKind::literal) return;
        top_ = 0;
        lists_.scopes.clear();
        push({&root, Step::visit});
        while (top_ > 0) {
            const Item item = lists_.todo[--top_];
            switch (item.step) {
                case Step::enter_scope: lists_.scopes.push_back(&as<ForExpr>(*item.expr)); continue;
                case Step::leave_scope: lists_.scopes.pop_back(); continue;
                case Step::visit: break;
            }
            const Expr& e = *item.expr;
            switch (e.kind) {
                case ExprKind::scope_traversal: {
                    const auto& t = as<ScopeTraversalExpr>(e);
                    if (!is_local(t.root)) {
                        out_.push_back(&t);
                        found_ = true;
                        if (first_only_) return;
                    }
                    continue;
                }
                case ExprKind::function_call:
                    if (first_only_) {
                        found_ = true;
                        return;
                    }
                    push_children(e);
                    continue;
                case ExprKind::object_key: {
                    const auto& k = as<ObjectKeyExpr>(e);
                    // A bare identifier key names the attribute; it refers to nothing.
                    if (!k.force_non_literal && k.wrapped->kind == ExprKind::scope_traversal &&
                        as<ScopeTraversalExpr>(*k.wrapped).steps.empty())
                        continue;
                    push({k.wrapped, Step::visit});
                    continue;
                }
                case ExprKind::for_: {
                    // In order: the collection outside the iterators' scope, then
                    // key, value and condition inside it.
                    const auto& f = as<ForExpr>(e);
                    push({&e, Step::leave_scope});
                    if (f.condition) push({f.condition, Step::visit});
                    push({f.value_expr, Step::visit});
                    if (f.key_expr) push({f.key_expr, Step::visit});
                    push({&e, Step::enter_scope});
                    push({f.collection, Step::visit});
                    continue;
                }
                default: push_children(e);
            }
        }
    }

private:
    // Puts the children of `e` (those for_each_child visits) on the work
    // list last first, so that they are taken in source order, without a
    // list of them in between. A literal refers to nothing: most template
    // parts and arguments are, and are not listed. Inlined into the walk's
    // loop (a call for each node cost a tenth of the lint's reference checks).
    [[gnu::always_inline]] void push_children(const Expr& e) {
        for_each_child_reversed(e, [this](const Expr& c) {
            if (c.kind != ExprKind::literal) this->push({&c, Step::visit});
        });
    }

    enum class Step : std::uint8_t { visit, enter_scope, leave_scope };
    struct Item {
        const Expr* expr;
        Step step;
    };
    struct Lists {
        std::vector<Item> todo;
        std::vector<const ForExpr*> scopes;
    };
    // A walk runs to its end without calling out, so one set per thread
    // serves every walk.
    static Lists& thread_lists() {
        thread_local Lists lists;
        return lists;
    }

    bool is_local(std::string_view name) const {
        for (const ForExpr* f : lists_.scopes)
            if ((!f->key_var.empty() && f->key_var == name) || f->value_var == name) return true;
        return false;
    }

    // The work list is used as a stack of `top_` items: growing it is the
    // rare case, kept out of the way of the common one.
    void push(Item item) {
        if (top_ == lists_.todo.size()) lists_.todo.resize(lists_.todo.size() * 2 + 64);
        lists_.todo[top_++] = item;
    }

    std::vector<const ScopeTraversalExpr*>& out_;
    Lists& lists_;
    std::size_t top_ = 0;
    bool first_only_ = false;
    bool found_ = false;
};

}  // namespace

void append_referenced_traversals(const Expr& expr, std::vector<const ScopeTraversalExpr*>& out) {
    VariablesWalker(out).walk(expr);
}

std::vector<const ScopeTraversalExpr*> referenced_traversals(const Expr& expr) {
    std::vector<const ScopeTraversalExpr*> out;
    append_referenced_traversals(expr, out);
    return out;
}

bool refers_or_calls(const Expr& expr) {
    // The walk stops at the first reference: one list per thread holds it.
    thread_local std::vector<const ScopeTraversalExpr*> out;
    out.clear();
    VariablesWalker walker(out, true);
    walker.walk(expr);
    return walker.found();
}

std::vector<std::string_view> called_functions(const Expr& expr) {
    std::vector<std::string_view> out;
    std::vector<const Expr*> todo{&expr};
    std::vector<const Expr*> children;
    while (!todo.empty()) {
        const Expr* e = todo.back();
        todo.pop_back();
        if (e->kind == ExprKind::function_call) out.push_back(as<FunctionCallExpr>(*e).name);
        children.clear();
        for_each_child(*e, [&children](const Expr& c) { children.push_back(&c); });
        for (auto it = children.rbegin(); it != children.rend(); ++it) todo.push_back(*it);
    }
    return out;
}

std::string render_number(std::string_view s) {
    std::string digits;
    long long exp10 = 0;
    std::size_t i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') digits.push_back(s[i++]);
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            digits.push_back(s[i++]);
            --exp10;
        }
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool neg = false;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
        long long e = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            e = std::min<long long>(e * 10 + (s[i++] - '0'), 1'000'000'000LL);
        }
        exp10 += neg ? -e : e;
    }
    std::size_t lead = digits.find_first_not_of('0');
    if (lead == std::string::npos) return negative ? "-0" : "0";
    digits.erase(0, lead);
    while (digits.back() == '0') {
        digits.pop_back();
        ++exp10;
    }
    std::string out = negative ? "-" : "";
    // Absurd exponents stay in exponent form rather than printing millions of zeros.
    if (exp10 > 100000 || exp10 < -100000) return out + digits + "e" + std::to_string(exp10);
    if (exp10 >= 0) {
        out += digits;
        out.append(static_cast<std::size_t>(exp10), '0');
        return out;
    }
    auto frac = static_cast<std::size_t>(-exp10);
    if (digits.size() > frac) {
        out += digits.substr(0, digits.size() - frac);
        out += '.';
        out += digits.substr(digits.size() - frac);
    } else {
        out += "0.";
        out.append(frac - digits.size(), '0');
        out += digits;
    }
    return out;
}

std::string render_json_string(std::string_view s) {
    std::string out;
    cty::append_json_string(out, s);
    return out;
}

std::string render_traversal(const ScopeTraversalExpr& t) {
    std::string out(t.root);
    for (const TraversalStep& s : t.steps) {
        if (s.kind == StepKind::attr) {
            out += '.';
            out += s.name;
            continue;
        }
        out += '[';
        if (const LiteralExpr* key = s.key()) {
            switch (key->literal) {
                case LiteralKind::number: out += render_number(key->text); break;
                case LiteralKind::string: out += render_json_string(key->text); break;
                case LiteralKind::boolean:
                case LiteralKind::null: out += key->text; break;
            }
        }
        out += ']';
    }
    return out;
}

}  // namespace tfsift::hcl
