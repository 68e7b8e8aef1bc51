// deprecated-interpolation: a string that holds nothing but one
// interpolation, "${var.name}", the form Terraform 0.11 needed.
//
// The fix writes the expression without the quotes. That is a proof
// obligation: the expression must mean the same where the string stood.
// hcl's TemplateWrapExpr yields the wrapped value unchanged, so the value
// is the same; what can change is how the bare text parses in its position:
//   - an object key: a bare `var.env` is either a literal name or, with more
//     than one step, Terraform's "Ambiguous attribute key"; the key is
//     written `(var.env)`, which always evaluates the expression;
//   - an operand of an operator, a traversal, an index, a splat or a `for`
//     header: `"${a ? b : c}"[0]` must stay grouped, `(a ? b : c)[0]`;
//   - an interpolation spread over lines: newlines inside `${ }` are
//     insignificant, outside brackets they end an argument, so it is
//     parenthesised;
//   - a key of the object written as a module's `providers`: Terraform reads
//     those keys statically, where a parenthesised key is not a provider
//     address, so the quotes stay (the finding carries no fix);
//   - nested strings, `"${"${x}"}"`: the outer fix rewrites the inner ones
//     too, so one `--fix` leaves nothing to fix.
// Heredocs and `.tf.json` strings are not reported at all.
#include <optional>
#include <vector>

#include "support/factories.hpp"
#include "support/written_expressions.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

std::string_view text_of(const SourceFile& file, Range r) {
    return file.text().substr(r.start.byte, r.end.byte - r.start.byte);
}

bool is_quoted_wrap(const SourceFile& file, const hcl::Expr& e) {
    return e.kind == hcl::ExprKind::template_wrap && text_of(file, e.range).substr(0, 1) == "\"";
}

bool kind_in(hcl::ExprKind k, std::initializer_list<hcl::ExprKind> kinds) {
    for (hcl::ExprKind x : kinds) {
        if (x == k) return true;
    }
    return false;
}

// Whether `inner`, written bare where a quoted string stood under
// `holder` (the expression that will hold it once the quotes are gone, null
// at the top of an argument), needs parentheses to parse the same way.
bool needs_parentheses(const hcl::Expr& inner, const hcl::Expr* holder, std::string_view inner_text) {
    using K = hcl::ExprKind;
    if (inner.kind == K::parentheses) return false;
    if (holder != nullptr && holder->kind == K::object_key) return true;
    const bool operation = kind_in(inner.kind, {K::binary_op, K::unary_op, K::conditional});
    if (holder != nullptr) {
        if (operation && kind_in(holder->kind, {K::binary_op, K::unary_op, K::conditional, K::relative_traversal,
                                                K::index, K::splat, K::for_})) {
            return true;
        }
        // `1.x` or `"a"[0]` after a literal reads differently; a literal
        // followed by a traversal step only makes sense grouped.
        if (inner.kind == K::literal && kind_in(holder->kind, {K::relative_traversal, K::index, K::splat})) {
            return true;
        }
    }
    // Newlines are insignificant inside brackets only.
    const bool bracketed = kind_in(inner.kind, {K::function_call, K::tuple, K::object, K::for_, K::template_});
    return !bracketed && inner_text.find('\n') != std::string_view::npos;
}

class Unwrapper {
public:
    explicit Unwrapper(const SourceFile& file) : file_(file) {}

    // The text that replaces the quoted string `wrap` standing under `holder`.
    std::string rewrite(const hcl::Expr& wrap, const hcl::Expr* holder) const {
        const hcl::Expr& inner = *hcl::as<hcl::TemplateWrapExpr>(wrap).wrapped;
        if (is_quoted_wrap(file_, inner)) return rewrite(inner, holder);
        std::string text = render(inner);
        if (needs_parentheses(inner, holder, text)) return "(" + text + ")";
        return text;
    }

private:
    // The source of `e` with every quoted string below it rewritten.
    std::string render(const hcl::Expr& e) const {
        struct Edit {
            Range range;
            std::string text;
        };
        std::vector<Edit> edits;
        collect(e, edits);
        std::string out;
        std::uint32_t at = e.range.start.byte;
        for (const Edit& edit : edits) {
            out.append(file_.text().substr(at, edit.range.start.byte - at));
            out.append(edit.text);
            at = edit.range.end.byte;
        }
        out.append(file_.text().substr(at, e.range.end.byte - at));
        return out;
    }

    template <class Edits>
    void collect(const hcl::Expr& e, Edits& edits) const {
        hcl::for_each_child(e, [&](const hcl::Expr& child) {
            if (is_quoted_wrap(file_, child)) {
                edits.push_back({child.range, rewrite(child, &e)});
            } else {
                collect(child, edits);
            }
        });
    }

    const SourceFile& file_;
};

// Whether `root` is the `providers` argument of a module block.
bool is_module_providers(const written::WrittenExpression& root) {
    if (root.site.block_type != "module" || !root.file->parsed->native) return false;
    for (const auto& b : root.file->parsed->native->body->blocks) {
        if (std::string_view(b.type) != "module") continue;
        for (const auto& a : b.body.attributes) {
            if (a.expr && &*a.expr == root.expr) return std::string_view(a.name) == "providers";
        }
    }
    return false;
}

class Checker {
public:
    Checker(const written::WrittenExpression& root, FindingSink& sink)
        : root_(root),
          source_(root.file->parsed->source),
          unwrapper_(*source_),
          sink_(sink),
          static_keys_(is_module_providers(root)) {}

    void run() { walk(*root_.expr, nullptr, nullptr, false); }

private:
    // `holder`: what will hold `e` once the quoted strings around it are
    // gone; `object`: the object constructor whose key `e` is part of;
    // `fixed_above`: an enclosing string's fix rewrites `e` already.
    void walk(const hcl::Expr& e, const hcl::Expr* holder, const hcl::Expr* object, bool fixed_above) {
        if (is_quoted_wrap(*source_, e)) {
            const bool refused = holder != nullptr && holder->kind == hcl::ExprKind::object_key &&
                                 object == root_.expr && static_keys_;
            report(e, holder, fixed_above || refused);
            const hcl::Expr& inner = *hcl::as<hcl::TemplateWrapExpr>(e).wrapped;
            // Once unwrapped, the inner expression stands where the string did.
            walk(inner, refused ? &e : holder, object, fixed_above || !refused);
            return;
        }
        hcl::for_each_child(e, [&](const hcl::Expr& child) {
            walk(child, &e, e.kind == hcl::ExprKind::object ? &e : (e.kind == hcl::ExprKind::object_key ? object : nullptr),
                 fixed_above);
        });
    }

    void report(const hcl::Expr& e, const hcl::Expr* holder, bool without_fix) {
        Finding f;
        f.rule_id = "deprecated-interpolation";
        f.severity = Severity::warning;
        f.file = source_;
        f.range = e.range;
        f.message = "interpolation-only expressions are deprecated: write the expression without \"${ }\"";
        if (!without_fix) {
            Fix fix;
            fix.description = "Remove the quotes and the interpolation markers";
            fix.edits.push_back({source_, e.range, unwrapper_.rewrite(e, holder)});
            f.fix = std::move(fix);
        }
        sink_.report(std::move(f));
    }

    const written::WrittenExpression& root_;
    std::shared_ptr<const SourceFile> source_;
    Unwrapper unwrapper_;
    FindingSink& sink_;
    bool static_keys_;  // the keys of the top object are provider addresses
};

void check(const LintContext& ctx, FindingSink& sink) {
    const auto index = written::expression_index(ctx);
    // Only the expressions that hold such a string are walked, with their
    // structure, to know where each one sits.
    std::optional<std::uint32_t> last;
    for (const written::WrittenNode& node : index->nodes(hcl::ExprKind::template_wrap)) {
        if (last == node.root) continue;
        last = node.root;
        const written::WrittenExpression& root = index->root_of(node);
        if (root.site.from_json) continue;
        Checker(root, sink).run();
    }
}

}  // namespace

Rule deprecated_interpolation() {
    Rule r;
    r.id = "deprecated-interpolation";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = true;
    r.doc.summary = "A quoted string holds nothing but one interpolation: `\"${var.name}\"`.";
    r.doc.what =
        "Reports each quoted string in a native-syntax file whose whole content is one `${ ... }` "
        "interpolation, anywhere in an expression. Strings with other text around the interpolation, heredocs "
        "and `.tf.json` files (where every expression is written as a string) are not reported. TFLint calls "
        "this `terraform_deprecated_interpolation`.";
    r.doc.why =
        "Terraform 0.11 and earlier needed the quotes; since 0.12 an expression is written as it is. HCL "
        "evaluates a string that is one interpolation and nothing else to the interpolated value itself, "
        "unconverted (a number stays a number, a list a list), so the quotes add nothing but noise, and they "
        "suggest a string where there may be none.";
    r.doc.failing_example = R"hcl(resource "aws_instance" "web" {
  ami = "${var.ami}"
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_instance" "web" {
  ami = var.ami
}
)hcl";
    r.doc.fix_safety =
        "Safe: `--fix` replaces the string with the expression inside it, which has the same value. Where the "
        "bare expression would parse differently it is parenthesised: an object key becomes `(var.env)` (a "
        "bare `var.env` key is an error, a bare `env` key a literal name), and so does an operation that is an "
        "operand, `(a ? b : c)[0]`, or one written over several lines. A key of a module's `providers` object "
        "keeps its quotes (no fix): Terraform reads those keys as provider addresses, which a parenthesised key "
        "is not.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
