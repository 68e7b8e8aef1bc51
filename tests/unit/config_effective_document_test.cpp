#include <catch2/catch.hpp>

#include <fstream>

#include "tfsift/config/effective_document.hpp"
#include "tfsift/config/override_merger.hpp"

using namespace tfsift;
using namespace tfsift::config;

namespace {
nlohmann::json read_expected(const std::string& name) {
    std::ifstream in(std::string(TFSIFT_SHARED_DIR) + "/conformance/terraform-v1.3.10/expected/" + name);
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
}
}  // namespace

TEST_CASE("effective document: an empty module is byte-for-byte the reference", "[config][document]") {
    LoadedModule root;
    root.dir = ".";
    auto doc = effective_document(&root, {});
    CHECK(doc == read_expected("valid-modules__empty.json"));
    std::string text = dump_document(doc);
    CHECK(text.back() == '\n');
    CHECK(text.find("\n  \"diagnostics\": [],\n  \"format_version\": \"1\",") != std::string::npos);
}

TEST_CASE("effective document: a merged resource with origins", "[config][document]") {
    auto src =
        std::make_shared<const SourceFile>("example.tf", "resource \"aws_instance\" \"web\" {\n  ami =   \"a\"\n}\n");
    auto over =
        std::make_shared<const SourceFile>("override.tf", "resource \"aws_instance\" \"web\" {\n  ami = \"foo\"\n}\n");
    ConfigFile base;
    base.source = src.get();
    Resource r;
    r.type = "aws_instance";
    r.name = "web";
    r.origin = Origin{src.get(), Pos{0}};
    r.config.arguments.push_back(Argument{"ami", {}, Expression{src.get(), Range{Pos{42}, Pos{45}}}});
    r.lifecycle.edit().create_before_destroy = DecodedValue{true, std::nullopt};
    base.resources.push_back({r, {}});
    ConfigFile o;
    o.source = over.get();
    o.is_override = true;
    Resource ro = r;
    ro.origin = Origin{over.get(), Pos{0}};
    ro.lifecycle = Lifecycle{};
    ro.config.arguments = {Argument{"ami", {}, Expression{over.get(), Range{Pos{40}, Pos{45}}}}};
    o.resources.push_back({ro, {}});

    OverrideMerger m;
    m.add_primary(base);
    m.apply_override(o);
    LoadedModule root;
    root.dir = ".";
    root.primary_files = {"example.tf"};
    root.override_files = {"override.tf"};
    root.module = std::make_shared<const Module>(m.finish());

    Diagnostic warn{Severity::warning, "W", "", "example.tf", Range{Pos{9}, Pos{23}}, std::nullopt};
    Diagnostic err{Severity::error, "E", "d", "example.tf", Range{Pos{9}, Pos{23}}, std::nullopt};
    Diagnostic nowhere{Severity::error, "N", "", "", std::nullopt, std::nullopt};
    auto doc = effective_document(
        &root, {{warn, LoadPhase::tree, src}, {err, LoadPhase::load, src}, {nowhere, LoadPhase::load, nullptr}});

    const auto& res = doc["root"]["resources"]["aws_instance.web"];
    CHECK(res["config"]["arguments"]["ami"] == nlohmann::json{{"expr", "\"foo\""}, {"origin", "override.tf:2"}});
    CHECK(res["origin"] == "example.tf:1");
    CHECK(res["overridden_by"] == nlohmann::json::array({"override.tf:1"}));
    CHECK(res["provider"] ==
          nlohmann::json{{"value", "aws"}, {"explicit", false}, {"source", "registry.terraform.io/hashicorp/aws"}});
    CHECK(res["lifecycle"]["create_before_destroy"] == nlohmann::json{{"value", true}});
    CHECK(res["provisioners"] == nlohmann::json::array());
    CHECK_FALSE(res.contains("count"));
    CHECK_FALSE(res.contains("connection"));

    const auto& diags = doc["diagnostics"];
    REQUIRE(diags.size() == 3);
    CHECK(diags[0]["summary"] == "N");  // no file sorts first
    CHECK(diags[0]["line"].is_null());
    CHECK(diags[1]["summary"] == "E");  // errors before warnings at one place
    CHECK(diags[1]["phase"] == "load");
    CHECK(diags[1]["column"] == 10);
    CHECK(diags[1]["end_column"] == 24);
    CHECK(diags[2]["severity"] == "warning");
    CHECK(diags[2]["phase"] == "tree");
}
