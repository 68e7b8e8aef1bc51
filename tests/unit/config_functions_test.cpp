// The function table against the signature table of the validate referee
// (../shared/conformance/validate/functions.json, read in place): the same
// names, parameters, variadic parameters and arity, and the same releases.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <string>

#include "tfsift/config/functions.hpp"

using nlohmann::json;
using tfsift::Engine;
using tfsift::config::BuiltinFunction;

namespace {

json referee() {
    std::ifstream in(std::string(TFSIFT_SHARED_DIR) + "/conformance/validate/functions.json");
    REQUIRE(in);
    return json::parse(in);
}

}  // namespace

TEST_CASE("function table: every referee function with its signature", "[functions]") {
    const json doc = referee();
    std::set<std::string> names;
    for (const json& f : doc.at("functions")) {
        const std::string name = f.at("name").get<std::string>();
        names.insert(name);
        INFO(name);
        const BuiltinFunction* fn = tfsift::config::find_builtin_function(name);
        REQUIRE(fn != nullptr);
        std::vector<std::string> params;
        for (auto p : fn->params_for(Engine::opentofu)) params.emplace_back(p);
        CHECK(params == f.at("params").get<std::vector<std::string>>());
        if (f.at("variadic_param").is_null()) {
            CHECK_FALSE(fn->is_variadic());
            CHECK(f.at("max_args").get<std::size_t>() == fn->params.size());
        } else {
            CHECK(std::string(fn->variadic) == f.at("variadic_param").get<std::string>());
            CHECK(f.at("max_args").is_null());
        }
        CHECK(f.at("min_args").get<std::size_t>() == fn->params.size());

        // Terraform: null means absent; "<=1.7.0" means present in 1.7.0;
        // otherwise the release that added it.
        const json& tf = f.at("in_terraform");
        if (tf.is_null()) {
            CHECK(fn->terraform_since == nullptr);
        } else {
            REQUIRE(fn->terraform_since != nullptr);
            const std::string since = tf.get<std::string>();
            if (since.rfind("<=", 0) == 0) {
                CHECK(tfsift::config::function_available(*fn, Engine::terraform, since.substr(2)) ==
                      (f.at("contexts") != "console only"));
            } else {
                CHECK(std::string(fn->terraform_since) == since);
            }
        }
        // OpenTofu: "1.6.0 (inherited ...)", a release, or "unreleased (main)".
        const std::string tofu = f.at("opentofu_since").get<std::string>();
        REQUIRE(fn->opentofu_since != nullptr);
        if (tofu.rfind("unreleased", 0) == 0) {
            CHECK_FALSE(tfsift::config::function_available(*fn, Engine::opentofu, "1.11.0"));
        } else {
            CHECK(std::string(fn->opentofu_since) == tofu.substr(0, tofu.find(' ')));
        }
        CHECK((fn->where == BuiltinFunction::Where::console_only) == (f.at("contexts") == "console only"));
    }
    // Nothing beyond the referee's list.
    for (const BuiltinFunction& fn : tfsift::config::builtin_functions()) {
        INFO(fn.name);
        CHECK(names.count(std::string(fn.name)) == 1);
    }
}

TEST_CASE("function table: Terraform's templatestring parameter names", "[functions]") {
    const json doc = referee();
    const auto* fn = tfsift::config::find_builtin_function("templatestring");
    REQUIRE(fn != nullptr);
    CHECK(std::string(fn->params_for(Engine::terraform)[0]) == "template");
    CHECK(doc.at("terraform_vs_opentofu").at("terraform_1_8_to_1_14_additions").at("templatestring") ==
          "1.9.0 (OpenTofu 1.7.0)");
}

TEST_CASE("function table: engine_version chooses the release", "[functions]") {
    const auto* fn = tfsift::config::find_builtin_function("ephemeralasnull");
    REQUIRE(fn != nullptr);
    CHECK(tfsift::config::function_available(*fn, Engine::terraform, std::nullopt));
    CHECK(tfsift::config::function_available(*fn, Engine::terraform, "1.10.0"));
    CHECK_FALSE(tfsift::config::function_available(*fn, Engine::terraform, "1.9.8"));
    CHECK_FALSE(tfsift::config::function_available(*fn, Engine::opentofu, "1.10.3"));
    CHECK(tfsift::config::function_available(*fn, Engine::opentofu, "1.11.0-beta1"));
    const auto* urldecode = tfsift::config::find_builtin_function("urldecode");
    REQUIRE(urldecode != nullptr);
    CHECK_FALSE(tfsift::config::function_available(*urldecode, Engine::terraform, std::nullopt));
    CHECK(tfsift::config::function_available(*urldecode, Engine::opentofu, std::nullopt));
    CHECK_FALSE(tfsift::config::function_available(*tfsift::config::find_builtin_function("type"), Engine::opentofu,
                                                   std::nullopt));
    CHECK(tfsift::config::find_builtin_function("nosuchfunction") == nullptr);
}
