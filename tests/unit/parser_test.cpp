// The HCL native-syntax parser: tree shape, ranges, diagnostics and their
// lines (as hashicorp/hcl reports them), recovery, limits.
#include <catch2/catch.hpp>

#include <string>

#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/references.hpp"

using namespace tfsift;
using namespace tfsift::hcl;

namespace {

File parse_text(std::string text) { return parse(std::make_shared<const SourceFile>("test.tf", std::move(text))); }

std::uint32_t first_error_line(const File& f) {
    for (const auto& d : f.diagnostics)
        if (d.severity == Severity::error && d.subject) return f.source->line(d.subject->start);
    return 0;
}

const Attribute* find_attr(const Body& b, std::string_view name) {
    for (const auto& a : b.attributes)
        if (a.name == name) return &a;
    return nullptr;
}

std::vector<std::string> refs_of(const std::string& expr_text) {
    File f = parse_text("a = " + expr_text + "\n");
    REQUIRE_FALSE(f.has_errors());
    const Attribute* a = find_attr(*f.body, "a");
    REQUIRE(a != nullptr);
    std::vector<std::string> out;
    for (const auto* t : referenced_traversals(*a->expr)) out.push_back(render_traversal(*t));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace

TEST_CASE("attributes and blocks keep hcl's ranges", "[parser]") {
    File f = parse_text("resource \"aws_instance\" \"web\" {\n  ami  = \"ami-123\"\n  n = 1 # note\n}\n");
    REQUIRE_FALSE(f.has_errors());
    REQUIRE(f.body->blocks.size() == 1);
    const Block& b = f.body->blocks[0];
    CHECK(b.type == "resource");
    REQUIRE(b.labels.size() == 2);
    CHECK(b.labels[1].value == "web");
    CHECK(b.def_range().start.byte == 0);
    CHECK(b.def_range().end.byte == 29);
    const Attribute* ami = find_attr(b.body, "ami");
    REQUIRE(ami != nullptr);
    CHECK(ami->range.start.byte == 34);
    CHECK(f.source->line(ami->range.start) == 2);
    CHECK(ami->range.end.byte == 50);
    const Attribute* n = find_attr(b.body, "n");
    REQUIRE(n != nullptr);
    CHECK(n->range.end.byte == n->range.start.byte + 5);  // the comment is not part of it
    REQUIRE(f.comments.size() == 1);
    CHECK(f.comments[0].style == CommentStyle::hash);
}

TEST_CASE("a heredoc attribute ends at its closing marker", "[parser]") {
    File f = parse_text("a = <<-EOT\n    x\n      y\n    EOT\nb = 1\n");
    REQUIRE_FALSE(f.has_errors());
    const Attribute* a = find_attr(*f.body, "a");
    REQUIRE(a != nullptr);
    CHECK(f.source->line(a->range.end) == 4);
    CHECK(a->range.end.byte == 32);
    REQUIRE(a->expr->kind == ExprKind::template_);
    const auto& t = as<TemplateExpr>(*a->expr);
    REQUIRE(t.parts.size() == 1);
    CHECK(as<LiteralExpr>(*t.parts[0]).text == "x\n  y\n");
}

TEST_CASE("a long indented heredoc is one literal with its indentation removed", "[parser]") {
    // Odd lines are indented two more spaces than even ones.
    std::string text = "a = <<-EOT\n";
    std::string expected;
    for (int i = 0; i < 200; ++i) {
        text += std::string(i % 2 ? 6 : 4, ' ') + "line " + std::to_string(i) + "\n";
        expected += std::string(i % 2 ? 2 : 0, ' ') + "line " + std::to_string(i) + "\n";
    }
    text += "    EOT\nb = <<-EOT\n    x ${v}\n      y\n    EOT\n";
    File f = parse_text(text);
    REQUIRE_FALSE(f.has_errors());
    const auto& a = as<TemplateExpr>(*find_attr(*f.body, "a")->expr);
    REQUIRE(a.parts.size() == 1);
    CHECK(as<LiteralExpr>(*a.parts[0]).text == expected);
    // Literal runs on both sides of an interpolation stay apart.
    const auto& b = as<TemplateExpr>(*find_attr(*f.body, "b")->expr);
    REQUIRE(b.parts.size() == 3);
    CHECK(as<LiteralExpr>(*b.parts[0]).text == "x ");
    CHECK(b.parts[1]->kind == ExprKind::scope_traversal);
    CHECK(as<LiteralExpr>(*b.parts[2]).text == "\n  y\n");
}

TEST_CASE("string escapes are decoded", "[parser]") {
    File f = parse_text("a = \"q\\\"\\n\\u00e9\\U0001F600 $${x} %%{y}\"\n");
    REQUIRE_FALSE(f.has_errors());
    const auto& t = as<TemplateExpr>(*find_attr(*f.body, "a")->expr);
    REQUIRE(t.parts.size() == 1);
    CHECK(as<LiteralExpr>(*t.parts[0]).text == "q\"\n\xC3\xA9\xF0\x9F\x98\x80 ${x} %{y}");
}

TEST_CASE("operators bind with hcl's precedence", "[parser]") {
    File f = parse_text("a = 1 + 2 * 3 == 7 || false\n");
    REQUIRE_FALSE(f.has_errors());
    const Expr* e = find_attr(*f.body, "a")->expr;
    REQUIRE(e->kind == ExprKind::binary_op);
    CHECK(as<BinaryOpExpr>(*e).op == BinaryOp::logical_or);
    const auto& eq = as<BinaryOpExpr>(*as<BinaryOpExpr>(*e).lhs);
    CHECK(eq.op == BinaryOp::equal);
    const auto& add = as<BinaryOpExpr>(*eq.lhs);
    CHECK(add.op == BinaryOp::add);
    CHECK(as<BinaryOpExpr>(*add.rhs).op == BinaryOp::multiply);
}

TEST_CASE("literal index keys stay in the traversal", "[parser]") {
    File f = parse_text("a = var.a.b[0][\"k\"].c\nb = x[var.i]\n");
    REQUIRE_FALSE(f.has_errors());
    const Expr* a = find_attr(*f.body, "a")->expr;
    REQUIRE(a->kind == ExprKind::scope_traversal);
    CHECK(as<ScopeTraversalExpr>(*a).steps.size() == 5);
    CHECK(find_attr(*f.body, "b")->expr->kind == ExprKind::index);
}

TEST_CASE("refs follow hcl's Variables()", "[parser][refs]") {
    using V = std::vector<std::string>;
    CHECK(refs_of("var.a.b[0][\"k\"].c") == V{"var.a.b[0][\"k\"].c"});
    CHECK(refs_of("x.b[var.i].c") == V{"var.i", "x.b"});
    CHECK(refs_of("x[-1]") == V{"x"});
    CHECK(refs_of("x[\"x${y}\"]") == V{"x", "y"});
    CHECK(refs_of("x.b.0.c") == V{"x.b[0].c"});
    CHECK(refs_of("x[1e2]") == V{"x[100]"});
    CHECK(refs_of("x[0.10]") == V{"x[0.1]"});
    CHECK(refs_of("aws_instance.foo[*].id") == V{"aws_instance.foo"});
    CHECK(refs_of("aws_instance.foo.*.id") == V{"aws_instance.foo"});
    CHECK(refs_of("x.a.*.b[0]") == V{"x.a"});
    CHECK(refs_of("(x).b") == V{"x"});
    CHECK(refs_of("foo(1).bar").empty());
    CHECK(refs_of("\"%{ for x in var.l }${x}%{ endfor }\"") == V{"var.l"});
    CHECK(refs_of("[for k, v in var.m : \"${k}=${v}\" if v != local.skip]") == V{"local.skip", "var.m"});
    CHECK(refs_of("[for x in x : x]") == V{"x"});
    CHECK(refs_of("[for v in x: [for w in v: w + v + z]]") == V{"x", "z"});
    CHECK(refs_of("{a = y}") == V{"y"});
    CHECK(refs_of("{(x) = 1}") == V{"x"});
    CHECK(refs_of("{x.b = 1}") == V{"x.b"});
    CHECK(refs_of("a[\"k\\n\\\"q\"]") == V{"a[\"k\\n\\\"q\"]"});
}

TEST_CASE("function names include provider namespaces", "[parser][refs]") {
    File f = parse_text("a = provider::aws::arn_parse(upper(var.x))\n");
    REQUIRE_FALSE(f.has_errors());
    auto funcs = called_functions(*find_attr(*f.body, "a")->expr);
    REQUIRE(funcs.size() == 2);
    CHECK(funcs[0] == "provider::aws::arn_parse");
    CHECK(funcs[1] == "upper");
}

TEST_CASE("refers_or_calls: a reference or a call anywhere, for iterators and key names aside", "[parser][refs]") {
    auto refers_or_calls_in = [](const std::string& expr_text) {
        File f = parse_text("a = " + expr_text + "\n");
        REQUIRE_FALSE(f.has_errors());
        const Attribute* a = find_attr(*f.body, "a");
        REQUIRE(a != nullptr);
        const bool found = refers_or_calls(*a->expr);
        // The same answer as the full lists give.
        CHECK(found == (!referenced_traversals(*a->expr).empty() || !called_functions(*a->expr).empty()));
        return found;
    };
    CHECK_FALSE(refers_or_calls_in("1"));
    CHECK_FALSE(refers_or_calls_in("\"plain ${2} text\""));
    CHECK_FALSE(refers_or_calls_in("{ name = \"x\", list = [1, 2, { deep = true }] }"));
    CHECK_FALSE(refers_or_calls_in("[for x in [1, 2] : x * 2]"));
    CHECK_FALSE(refers_or_calls_in("{ for k, v in { a = 1 } : k => v if v > 0 }"));
    CHECK(refers_or_calls_in("var.x"));
    CHECK(refers_or_calls_in("[1, { a = [2, local.y] }]"));
    CHECK(refers_or_calls_in("[for x in [1, 2] : y]"));
    CHECK(refers_or_calls_in("{ (var.k) = 1 }"));
    CHECK(refers_or_calls_in("[1, upper(\"a\")]"));
    CHECK(refers_or_calls_in("convert(1, list(string))"));
    CHECK(refers_or_calls_in("\"a ${b} c\""));
}

TEST_CASE("errors are reported at the line hcl reports them", "[parser][errors]") {
    CHECK(first_error_line(parse_text("a = 1, b = 2\n")) == 1);
    CHECK(first_error_line(parse_text("locals {\n  \"quoted\" = 1\n}\n")) == 2);
    CHECK(first_error_line(parse_text("a = 1\na = 2\nb {\n")) == 2);
    CHECK(first_error_line(parse_text("x {\n  a = 1\n")) == 1);           // unclosed block: at its brace
    CHECK(first_error_line(parse_text("a = {\n b = 1 +\n 2 }\n")) == 2);  // newlines matter in objects
    CHECK(first_error_line(parse_text("a = 1 /* x\n*/ b = 1\n")) == 2);
    CHECK(first_error_line(parse_text("a = x.b.1.5\n")) == 1);
    CHECK(first_error_line(parse_text("a = a::b\n")) == 1);
    CHECK(first_error_line(parse_text("block \"a\" b {\n}\nb3 \"${x}\" {}\n")) == 3);
    CHECK(first_error_line(parse_text("a = 1\nb = <<EOT\nx\nEOT")) == 4);  // marker needs its newline
    // scanner errors come first, as hcl checks tokens before parsing
    CHECK(first_error_line(parse_text("a = [\n\n\nb = 1 ; \n")) == 4);
}

TEST_CASE("single-line blocks allow one attribute", "[parser][errors]") {
    File ok = parse_text("a { b = 1 }\n");
    REQUIRE_FALSE(ok.has_errors());
    CHECK(ok.body->blocks[0].body.attributes.size() == 1);
    File bad = parse_text("a { b = 1, c = 2 }\n");
    REQUIRE(bad.has_errors());
    CHECK(bad.diagnostics[0].summary == "Invalid single-argument block definition");
}

TEST_CASE("a broken block does not hide the next top-level block", "[parser][recovery]") {
    File f = parse_text("a {\n  b = [1 2]\n}\nc \"x\" {\n  d = 1\n}\n");
    REQUIRE(f.has_errors());
    CHECK(first_error_line(f) == 2);
    REQUIRE(f.body->blocks.size() == 2);
    CHECK(f.body->blocks[1].type == "c");
    CHECK(find_attr(f.body->blocks[1].body, "d") != nullptr);
}

TEST_CASE("hostile nesting gives a diagnostic, not a crash", "[parser][limits]") {
    File f = parse_text("a = " + std::string(100000, '[') + "\n");
    REQUIRE(f.has_errors());
    bool too_deep = false;
    for (const auto& d : f.diagnostics) too_deep = too_deep || d.summary == "Nesting too deep";
    CHECK(too_deep);
    File g = parse_text("a = " + std::string(100000, '-') + "1\n");
    CHECK(g.has_errors());
    std::string blocks;
    for (int i = 0; i < 5000; ++i) blocks += "b {\n";
    CHECK(parse_text(blocks).has_errors());
}

TEST_CASE("template directives nested too deep give one diagnostic, not one per open directive", "[parser][limits]") {
    std::string opens, closes;
    for (int i = 0; i < 300; ++i) {
        opens += i % 2 == 0 ? "%{ if true }" : "%{ for x in [] }";
        closes = (i % 2 == 0 ? "%{ endif }" : "%{ endfor }") + closes;
    }
    for (const std::string& text :
         {"a = \"" + opens + "x" + closes + "\"\n", "a = <<EOT\n" + opens + "x" + closes + "\nEOT\n"}) {
        File f = parse_text(text);
        REQUIRE(f.diagnostics.size() == 1);
        CHECK(f.diagnostics[0].summary == "Nesting too deep");
    }
    // A template that really lacks its endif still says so.
    File g = parse_text("a = \"%{ if true }x\"\n");
    REQUIRE(g.diagnostics.size() == 1);
    CHECK(g.diagnostics[0].summary == "Unexpected end of template");
}

TEST_CASE("invalid UTF-8 is an error diagnostic", "[parser][utf8]") {
    File f = parse_text("a = 1\nb = \"\xff\"\n");
    REQUIRE(f.has_errors());
    CHECK(f.diagnostics[0].summary == "Invalid character encoding");
    CHECK(first_error_line(f) == 2);
}

TEST_CASE("unicode identifiers, BOM and CRLF", "[parser][utf8]") {
    File f = parse_text(
        "\xEF\xBB\xBF"
        "caf\xC3\xA9-x = 1\r\nb = <<EOT\r\nline\r\nEOT\r\n");
    REQUIRE_FALSE(f.has_errors());
    const Attribute* a = find_attr(*f.body, "caf\xC3\xA9-x");
    REQUIRE(a != nullptr);
    CHECK(a->range.start.byte == 3);
    CHECK(f.source->column(a->range.start) == 1);
    const Attribute* b = find_attr(*f.body, "b");
    REQUIRE(b != nullptr);
    CHECK(f.source->line(b->range.start) == 2);
    CHECK(f.source->line(b->range.end) == 4);
    const auto& t = as<TemplateExpr>(*b->expr);
    CHECK(as<LiteralExpr>(*t.parts[0]).text == "line\r\n");
}

TEST_CASE("expressions and templates parse on their own", "[parser]") {
    SourceFile src("x.json", "\"${a.b} and ${c}\"");
    Arena arena;
    Diagnostics diags;
    std::string_view inner = src.text().substr(1, src.size() - 2);
    const Expr* t = parse_template(src, inner, Pos{1}, arena, diags);
    REQUIRE(diags.empty());
    REQUIRE(t != nullptr);
    CHECK(t->range.start.byte == 1);
    std::vector<std::string> refs;
    for (const auto* r : referenced_traversals(*t)) refs.push_back(render_traversal(*r));
    CHECK(refs == std::vector<std::string>{"a.b", "c"});

    SourceFile src2("y.json", "var.x + 1");
    const Expr* e = parse_expression(src2, src2.text(), Pos{0}, arena, diags);
    REQUIRE(diags.empty());
    CHECK(e->kind == ExprKind::binary_op);
    parse_expression(src2, "var.x +", Pos{0}, arena, diags);
    CHECK_FALSE(diags.empty());
}

TEST_CASE("a 100 MB file parses", "[parser][limits]") {
    // Real-looking blocks, repeated until the file passes 100 MB.
    const std::string block =
        "resource \"aws_instance\" \"web\" {\n"
        "  ami           = var.ami_id\n"
        "  instance_type = \"t3.micro\"\n"
        "  tags = {\n"
        "    Name = \"web-${count.index}\" # a comment\n"
        "  }\n"
        "  count = length(var.zones) > 2 ? 3 : 1\n"
        "}\n";
    std::string text;
    text.reserve(std::size_t{101} * 1000 * 1000);
    std::size_t blocks = 0;
    while (text.size() < std::size_t{100} * 1000 * 1000) {
        text += block;
        ++blocks;
    }
    const std::size_t size = text.size();
    File f = parse_text(std::move(text));
    REQUIRE_FALSE(f.has_errors());
    REQUIRE(f.body->blocks.size() == blocks);
    CHECK(f.comments.size() == blocks);
    const Block& last = f.body->blocks.back();
    CHECK(last.range().end.byte == size - 1);
    CHECK(f.source->line(last.type_range().start) == 8 * (blocks - 1) + 1);
    const Attribute* count = find_attr(last.body, "count");
    REQUIRE(count != nullptr);
    CHECK(count->expr->kind == ExprKind::conditional);
}
