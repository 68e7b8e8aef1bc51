// The test directory setting: its normal form, what it refuses, and the
// module a test file in it belongs to.
#include <catch2/catch.hpp>

#include <string>

#include "tfsift/config/test_directory.hpp"

using namespace tfsift::config;

TEST_CASE("test directory: written forms and their normal form", "[config][test-directory]") {
    std::string why;
    CHECK(normal_test_directory("tests", why) == "tests");
    CHECK(normal_test_directory("./spec//unit/", why) == "spec/unit");
    CHECK(normal_test_directory("spec/./unit", why) == "spec/unit");
    for (const char* refused : {"/abs/tests", "../tests", "spec/../../x", "spec/..", ".", "", "./", "a\\b"}) {
        INFO(refused);
        why.clear();
        CHECK_FALSE(normal_test_directory(refused, why).has_value());
        CHECK_FALSE(why.empty());
    }
}

TEST_CASE("test directory: the module of a test file", "[config][test-directory]") {
    CHECK(module_dir_above_test_directory("mod/tests", "tests") == "mod");
    CHECK(module_dir_above_test_directory("tests", "tests") == ".");
    CHECK(module_dir_above_test_directory("./tests", "tests") == ".");
    CHECK(module_dir_above_test_directory("/repo/mod/tests/", "tests") == "/repo/mod");
    CHECK(module_dir_above_test_directory("/tests", "tests") == "/");
    CHECK(module_dir_above_test_directory("env/prod/spec/unit", "spec/unit") == "env/prod");
    CHECK(module_dir_above_test_directory("env/prod/spec/./unit", "spec/unit") == "env/prod");
    CHECK(module_dir_above_test_directory("spec/unit", "spec/unit") == ".");
    CHECK_FALSE(module_dir_above_test_directory("mod/unit", "spec/unit").has_value());
    CHECK_FALSE(module_dir_above_test_directory("mod/tests", "spec/unit").has_value());
    CHECK_FALSE(module_dir_above_test_directory("unit", "spec/unit").has_value());
    CHECK_FALSE(module_dir_above_test_directory("mod/mytests", "tests").has_value());
}
