#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/module_tree.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/config/type_constraint.hpp"
#include "tfsift/cty/json.hpp"

using namespace tfsift;
using namespace tfsift::config;

namespace {

struct Decoded {
    std::unique_ptr<ParsedFile> parsed;
    ConfigFile file;
    Diagnostics diags;
};

Decoded decode(std::string name, std::string text, bool is_override = false) {
    Decoded d;
    FileSyntax syntax = name.ends_with(".json") ? FileSyntax::json : FileSyntax::native;
    d.parsed = parse_config_file(std::make_shared<SourceFile>(std::move(name), std::move(text)), syntax);
    d.file = decode_config_file(*d.parsed, is_override, d.diags);
    return d;
}

bool has_summary(const Decoded& decoded, std::string_view summary, std::uint32_t line) {
    for (const auto& d : decoded.diags) {
        if (d.summary == summary && d.subject && decoded.parsed->source->line(d.subject->start) == line) return true;
    }
    return false;
}

std::string type_text(std::string expr, Diagnostics& diags, std::shared_ptr<const TypeDefaults>* defaults = nullptr) {
    auto src = std::make_shared<SourceFile>("t.tf", "x = " + expr + "\n");
    hcl::File f = hcl::parse(src);
    REQUIRE(f.body->attributes.size() == 1);
    auto tc = parse_type_constraint(*f.body->attributes[0].expr, "t.tf", diags);
    if (!tc) return "<error>";
    if (defaults) *defaults = tc->defaults;
    return type_constraint_text(tc->type);
}

}  // namespace

TEST_CASE("type constraints: canonical text and optional defaults", "[config]") {
    Diagnostics diags;
    CHECK(type_text("string", diags) == "string");
    CHECK(type_text("any", diags) == "any");
    CHECK(type_text("list(map(number))", diags) == "list(map(number))");
    CHECK(type_text("tuple([string, bool])", diags) == "tuple([string,bool])");
    std::shared_ptr<const TypeDefaults> defaults;
    CHECK(type_text("list(object({ name = string, port = optional(number, 80), a = optional(bool) }))", diags,
                    &defaults) == "list(object({a=optional(bool),name=string,port=optional(number)}))");
    REQUIRE(defaults);
    CHECK(optional_defaults_json(*defaults) == nlohmann::json{{"[*].port", 80}});
    CHECK(diags.empty());

    CHECK(type_text("list", diags) == "<error>");
    CHECK(diags.back().summary == "Invalid type specification");
    CHECK(type_text("strin", diags) == "<error>");
    CHECK(diags.back().detail == "The keyword \"strin\" is not a valid type specification.");
}

TEST_CASE("decode: variable defaults convert to the type constraint", "[config]") {
    auto d = decode("v.tf", R"(variable "n" {
  type    = number
  default = "7"
}
variable "s" {
  type    = set(string)
  default = ["b", "a", "b"]
}
variable "bad" {
  type    = number
  default = "seven"
}
variable "o" {
  type    = object({ a = optional(string, "x"), b = optional(number) })
  default = {}
}
)");
    REQUIRE(d.file.variables.size() == 4);
    CHECK(d.file.variables[0].first.default_value()->value == 7);
    CHECK(d.file.variables[1].first.default_value()->value == nlohmann::json::array({"a", "b"}));
    CHECK(d.file.variables[2].first.default_value()->value == "seven");  // unconverted on error
    CHECK(has_summary(d, "Invalid default value for variable", 11));
    CHECK(d.file.variables[3].first.default_value()->value == nlohmann::json{{"a", "x"}, {"b", nullptr}});
    CHECK(d.file.variables[3].first.type()->value == "object({a=optional(string),b=optional(number)})");
}

TEST_CASE("decode: Terraform's load-time errors", "[config]") {
    auto d = decode("e.tf", R"(resource "aws_instance" "x" {
  count    = 1
  for_each = {}
  lifecycle {
    ignore_changes = ["*"]
  }
}
provider "aws" {
  count = 2
}
variable "t" {
  type = "string"
}
module "m" {
  source = "modules/m"
}
)");
    CHECK(has_summary(d, "Invalid combination of \"count\" and \"for_each\"", 3));
    CHECK(has_summary(d, "Invalid ignore_changes wildcard", 5));
    CHECK(has_summary(d, "Reserved argument name in provider block", 9));
    CHECK(has_summary(d, "Invalid quoted type constraints", 12));
    CHECK(has_summary(d, "Invalid module source address", 15));
}

TEST_CASE("decode: traversals, quoted references and JSON", "[config]") {
    auto d = decode("r.tf", R"(resource "null_resource" "a" {
  provider   = "null.foo"
  depends_on = [aws_instance.x, module.m["k"]]
  lifecycle {
    ignore_changes = [tags["Name"]]
  }
}
)");
    REQUIRE(d.file.resources.size() == 1);
    const Resource& r = d.file.resources[0].first;
    CHECK(r.provider_ref == "null.foo");
    CHECK(has_summary(d, "Quoted references are deprecated", 2));
    REQUIRE(r.depends_on.size() == 2);
    CHECK(r.depends_on[1].text == "module.m[\"k\"]");
    CHECK(r.lifecycle->ignore_changes->at(0).text == "tags[\"Name\"]");

    auto j = decode("j.tf.json", R"({"resource": {"aws_instance": {"web": {
  "depends_on": ["null_resource.a"],
  "ami": "${var.ami}",
  "lifecycle": {"ignore_changes": ["tags"]}
}}}})");
    CHECK_FALSE(has_errors(j.diags));
    REQUIRE(j.file.resources.size() == 1);
    const Resource& jr = j.file.resources[0].first;
    CHECK(jr.depends_on.at(0).text == "null_resource.a");
    CHECK(jr.lifecycle->ignore_changes->at(0).text == "tags");
    CHECK(jr.origin.file->line(jr.origin.pos) == 1);
}

TEST_CASE("sources: provider and module addresses", "[config]") {
    CHECK(parse_provider_source("hashicorp/AWS").fqn == "registry.terraform.io/hashicorp/aws");
    CHECK(parse_provider_source("example.com/acme/bar").fqn == "example.com/acme/bar");
    CHECK(parse_provider_source("foo/terraform-provider-foo").summary == "Invalid provider type");
    CHECK(parse_module_source("./a/../b", false).normalized == "./b");
    CHECK(parse_module_source("../", false).normalized == "./..");
    CHECK(parse_module_source("terraform-aws-modules/vpc/aws//modules/x", false).normalized ==
          "registry.terraform.io/terraform-aws-modules/vpc/aws//modules/x");
    CHECK(parse_module_source("github.com/org/repo?ref=v1", false).normalized ==
          "git::https://github.com/org/repo.git?ref=v1");
    CHECK(parse_module_source("git::https://x.com/r.git//sub?ref=1", false).normalized ==
          "git::https://x.com/r.git?ref=1//sub");
    CHECK(parse_module_source("ns", false).maybe_relative);
    CHECK_FALSE(parse_module_source("./local", true).error.empty());
}

TEST_CASE("module tree: local children, unreadable directories", "[config]") {
    namespace fs = std::filesystem;
    fs::path root = fs::temp_directory_path() / "tfsift_config_tree_test";
    fs::remove_all(root);
    fs::create_directories(root / "mod");
    std::ofstream(root / "main.tf")
        << "module \"a\" {\n  source = \"./mod\"\n}\nmodule \"b\" {\n  source = \"./missing\"\n}\n";
    std::ofstream(root / "mod" / "main.tf") << "variable \"x\" {}\n";
    LoadedTree tree = load_module_tree(root.string());
    REQUIRE(tree.root);
    REQUIRE(tree.root->children.count("a") == 1);
    CHECK(tree.root->children.at("a").address == "module.a");
    CHECK(tree.root->children.at("a").primary_files == std::vector<std::string>{"mod/main.tf"});
    CHECK(tree.root->children.at("a").module->variables.count("x") == 1);
    bool unreadable = false;
    for (const auto& d : tree.diagnostics) {
        if (d.phase == LoadPhase::tree && d.diagnostic.summary == "Failed to read module directory" && d.source &&
            d.source->line(d.diagnostic.subject->start) == 4) {
            unreadable = true;
        }
    }
    CHECK(unreadable);
    CHECK(tree.has_errors());
    fs::remove_all(root);
}
