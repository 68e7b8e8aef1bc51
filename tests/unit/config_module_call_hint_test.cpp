#include <catch2/catch.hpp>

#include "tfsift/config/module_call_hint.hpp"

using tfsift::config::FileSyntax;
using tfsift::config::may_declare_module_calls;

TEST_CASE("a module block is seen from the text", "[config][module-call-hint]") {
    CHECK(may_declare_module_calls("module \"vpc\" {\n  source = \"./vpc\"\n}\n", FileSyntax::native));
    CHECK(may_declare_module_calls("module vpc {\n}\n", FileSyntax::native));
    CHECK(may_declare_module_calls("/* x */module \"a\" {}\n", FileSyntax::native));
    CHECK(may_declare_module_calls("locals {\n  a = 1\n}\nmodule", FileSyntax::native));
    // A word in a string might be a block after a syntax error: parsed.
    CHECK(may_declare_module_calls("description = \"the module\"\n", FileSyntax::native));
    CHECK(may_declare_module_calls("{\"module\": {\"a\": {\"source\": \"./a\"}}}", FileSyntax::json));
    CHECK(may_declare_module_calls("{\"modul\\u0065\": {}}", FileSyntax::json));
}

TEST_CASE("names and traversals holding `module` are not module blocks", "[config][module-call-hint]") {
    CHECK_FALSE(may_declare_module_calls("", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("a = \"${path.module}/x\"\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("output \"id\" {\n  value = module.vpc.id\n}\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls(
        "variable \"modules\" {}\nvariable \"my_module\" {}\nvariable \"module-x\" {}\n", FileSyntax::native));
    CHECK_FALSE(may_declare_module_calls("{\"resource\": {}}", FileSyntax::json));
}
