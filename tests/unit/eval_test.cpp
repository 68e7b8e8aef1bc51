// Expression evaluation: every example of the parse-dump spec's "Constant"
// section, plus contexts, functions and a hand-built tree.
#include <catch2/catch.hpp>

#include "tfsift/cty/json.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/constant.hpp"
#include "tfsift/hcl/eval.hpp"

using namespace tfsift;
using namespace tfsift::hcl;

namespace {

// Parses `x = <expr>` and returns the constant JSON text, or "NONCONST".
std::string constant(const std::string& expr) {
    auto file = parse(std::make_shared<SourceFile>("t.tf", "x = " + expr + "\n"));
    REQUIRE_FALSE(file.has_errors());
    REQUIRE(file.body->attributes.size() == 1);
    return constant_value_json_text(*file.body->attributes[0].expr).value_or("NONCONST");
}

struct Evaluated {
    File file;  // keeps the tree alive
    EvalResult result;
};

Evaluated eval_in(const std::string& expr, const EvalContext* ctx) {
    Evaluated e{parse(std::make_shared<SourceFile>("t.tf", "x = " + expr + "\n")), {}};
    REQUIRE_FALSE(e.file.has_errors());
    e.result = evaluate(*e.file.body->attributes[0].expr, ctx);
    return e;
}

}  // namespace

TEST_CASE("spec: arithmetic on big floats", "[eval]") {
    CHECK(constant("2 / 3") == "0." + std::string(153, '6') + "7");
    CHECK(constant("0.1 + 0.2") == "0.3");
    CHECK(constant("-7 % 3") == "-1");
    CHECK(constant("7 % -3") == "1");
    CHECK(constant("1e3") == "1000");
    CHECK(constant("1.10") == "1.1");
    CHECK(constant("1e-6") == "0.000001");
    CHECK(constant("1e400") == "1" + std::string(400, '0'));
    CHECK(constant("-0") == "-0");
}

TEST_CASE("spec: automatic conversions and equality", "[eval]") {
    CHECK(constant("\"1\" + 1") == "2");
    CHECK(constant("true && \"true\"") == "true");
    CHECK(constant("1 == \"1\"") == "false");
    CHECK(constant("true ? 1 : \"a\"") == "\"1\"");
    CHECK(constant("false ? [1] : [\"x\", 2]") == "[\"x\",\"2\"]");
    CHECK(constant("true ? {a=1} : {a=\"x\", b=2}") == "{\"a\":\"1\"}");
    CHECK(constant("1 < 2 && !false || null == 1") == "true");
    CHECK(constant("(1 + 2) * 3") == "9");
}

TEST_CASE("spec: index, attribute and splat on literals", "[eval]") {
    CHECK(constant("[1,2][0]") == "1");
    CHECK(constant("{a=1}.a") == "1");
    CHECK(constant("{a=1}[\"a\"]") == "1");
    CHECK(constant("[{a=1}][*].a") == "[1]");
    CHECK(constant("[{a=1}].*.a") == "[1]");
    CHECK(constant("{a=1}.*.a") == "[1]");
    CHECK(constant("null[*]") == "[]");
    CHECK(constant("[1,2,3][\"1\"]") == "2");
}

TEST_CASE("spec: for expressions", "[eval]") {
    CHECK(constant("[for x in [3,1,2]: x if x > 1]") == "[3,2]");
    CHECK(constant("[for k, v in {b=1, a=2}: k]") == "[\"a\",\"b\"]");
    CHECK(constant("{for k, v in {b=1, a=2}: v => k}") == "{\"1\":\"b\",\"2\":\"a\"}");
    CHECK(constant("{for k in [\"a\",\"a\"]: k => 1...}") == "{\"a\":[1,1]}");
    CHECK(constant("{for k in [\"a\",\"a\"]: k => 1}") == "NONCONST");  // duplicate key
    CHECK(constant("[for i, v in [\"a\",\"b\"]: i]") == "[0,1]");
}

TEST_CASE("spec: templates", "[eval]") {
    CHECK(constant("\"${1.50}\"") == "1.5");  // a lone interpolation keeps its type
    CHECK(constant("\"v${1.50}\"") == "\"v1.5\"");
    CHECK(constant("\"${true}x\"") == "\"truex\"");
    CHECK(constant("\"${1}\"") == "1");
    CHECK(constant("\"${null}\"") == "null");
    CHECK(constant("\"${\"a\"}\"") == "\"a\"");
    CHECK(constant("\"a${null}\"") == "NONCONST");
    CHECK(constant("\"$${x} %%{y}\"") == "\"${x} %{y}\"");
    CHECK(constant("\"%{for x in [1,2]}${x},%{endfor}\"") == "\"1,2,\"");
    CHECK(constant("\"%{if false}y%{else}n%{endif}\"") == "\"n\"");
    CHECK(constant("\"a ${~ \"b\" ~} c\"") == "\"abc\"");
}

TEST_CASE("spec: objects keep the last duplicate key", "[eval]") {
    CHECK(constant("{a=1, a=2}") == "{\"a\":2}");
    CHECK(constant("{(1) = 2, \"x\" = null}") == "{\"1\":2,\"x\":null}");
}

TEST_CASE("spec: errors make an expression non-constant", "[eval]") {
    for (const char* e :
         {"var.x", "upper(\"x\")", "tomap({})", "\"${upper(\"x\")}\"", "[1,2][1.5]", "1/0", "0/0", "{a=1}.b",
          "\"abc\" > 1", "1 + null", "[1][-1]", "[1][5]", "true ? {} : []", "[for x in 5: x]", "null ? 1 : 2"}) {
        CAPTURE(e);
        CHECK(constant(e) == "NONCONST");
    }
    // The unselected branch's errors do not count.
    CHECK(constant("true ? [1] : tolist([])") == "[1]");
    // x % 0 is x, and a division by zero only fails when serialised.
    CHECK(constant("1 % 0") == "1");
    CHECK(constant("1/0 > 5 ? \"a\" : \"b\"") == "\"a\"");
}

TEST_CASE("diagnostics carry the file and position", "[eval]") {
    EvalContext ctx;
    ctx.filename = "t.tf";
    const auto e = eval_in("[1, 2][5]", &ctx);
    REQUIRE(e.result.diagnostics.size() == 1);
    const Diagnostic& d = e.result.diagnostics.front();
    CHECK(d.summary == "Invalid index");
    CHECK(d.filename == "t.tf");
    REQUIRE(d.subject.has_value());
    CHECK(d.subject->start.byte == 10);
}

TEST_CASE("variables and functions from a context", "[eval]") {
    EvalContext ctx;
    ctx.variables.emplace();
    ctx.variables->emplace("var", cty::Value::object({{"n", cty::Value::number(*cty::Number::parse("2"))}}));
    ctx.functions.emplace();
    ctx.functions->emplace(
        "twice", Function{[](std::span<const cty::Value> args) {
            return Function::Result{cty::Value::number(*args[0].as_number().multiply(*cty::Number::parse("2"))), {}};
        }});
    const auto ok = eval_in("twice(var.n) + 1", &ctx);
    CHECK(ok.result.diagnostics.empty());
    CHECK(cty::to_json_text(ok.result.value) == "5");

    const auto unknown_var = eval_in("local.x", &ctx);
    REQUIRE(unknown_var.result.diagnostics.size() == 1);
    CHECK(unknown_var.result.diagnostics[0].summary == "Unknown variable");
    const auto unknown_fn = eval_in("nope(1)", &ctx);
    REQUIRE(unknown_fn.result.diagnostics.size() == 1);
    CHECK(unknown_fn.result.diagnostics[0].summary == "Call to unknown function");

    const auto no_ctx = eval_in("var.n", nullptr);
    REQUIRE(no_ctx.result.diagnostics.size() == 1);
    CHECK(no_ctx.result.diagnostics[0].summary == "Variables not allowed");
    CHECK_FALSE(no_ctx.result.value.is_known());
}

TEST_CASE("a hand-built tree evaluates without the parser", "[eval]") {
    Arena arena;
    const Range r{};
    // A node's text lives in the tree space, like the nodes themselves.
    const std::string_view digit = arena.copy(std::string_view("1"));
    auto* one = arena.make<LiteralExpr>(LiteralExpr{{ExprKind::literal, r}, LiteralKind::number, digit});
    auto* text = arena.make<LiteralExpr>(LiteralExpr{{ExprKind::literal, r}, LiteralKind::string, digit});
    auto* sum = arena.make<BinaryOpExpr>(BinaryOpExpr{{ExprKind::binary_op, r}, BinaryOp::add, one, text});
    const EvalResult res = evaluate(*sum, nullptr);
    CHECK(res.diagnostics.empty());
    CHECK(cty::to_json_text(res.value) == "2");
}
