// OpenTofu-only load-time decoding: the `language` block, ephemeral
// resources, constraints checked against the OpenTofu version tfsift
// implements, and the warnings OpenTofu adds. Also the newer blocks both
// engines read the same way (`import`), and how each engine reads provider
// references.
#include <catch2/catch.hpp>

#include "tfsift/config/decode.hpp"

using namespace tfsift;
using namespace tfsift::config;

namespace {

struct Decoded {
    std::unique_ptr<ParsedFile> parsed;
    ConfigFile file;
    Diagnostics diags;
};

Decoded decode(std::string name, std::string text, Engine engine) {
    Decoded d;
    FileSyntax syntax = name.ends_with(".json") ? FileSyntax::json : FileSyntax::native;
    d.parsed = parse_config_file(std::make_shared<SourceFile>(std::move(name), std::move(text)), syntax);
    d.file = decode_config_file(*d.parsed, false, d.diags, engine);
    return d;
}

std::vector<std::string> summaries(const Decoded& decoded, Severity severity) {
    std::vector<std::string> out;
    for (const auto& d : decoded.diags) {
        std::uint32_t line = d.subject ? decoded.parsed->source->line(d.subject->start) : 0;
        if (d.severity == severity) out.push_back(d.summary + "@" + std::to_string(line));
    }
    return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("opentofu: the language block", "[config][opentofu]") {
    auto ok = decode(
        "a.tf",
        "language {\n  edition = tofu2024\n  compatible_with {\n    opentofu = \">= 1.12\"\n    other = 1\n  }\n}\n",
        Engine::opentofu);
    CHECK(ok.diags.empty());

    auto bad = decode(
        "a.tf",
        "language {\n  edition = \"tofu2024\"\n  experiments = [nope]\n  compatible_with {\n    opentofu = \"999.9\"\n  }\n}\n",
        Engine::opentofu);
    CHECK(summaries(bad, Severity::error) ==
          Strings{"Invalid language edition@2", "Unknown experiment keyword@3", "Incompatible module@5"});

    auto future = decode("a.tf", "language {\n  edition = tofu2038\n}\n", Engine::opentofu);
    CHECK(summaries(future, Severity::error) == Strings{"Unsupported language edition@2"});

    auto old =
        decode("a.tf", "language {\n  compatible_with {\n    opentofu = \">= 1.11\"\n  }\n}\n", Engine::opentofu);
    CHECK(summaries(old, Severity::warning) == Strings{"Ineffective version constraint@3"});
    CHECK(summaries(old, Severity::error).empty());

    // Terraform does not know the block; it has had ephemeral resources since v1.10.
    auto tf = decode("a.tf", "language {}\nephemeral \"a\" \"b\" {}\n", Engine::terraform);
    CHECK(summaries(tf, Severity::error) == Strings{"Unsupported block type@1"});
}

TEST_CASE("opentofu: required_version is OpenTofu's constraint only in .tofu files", "[config][opentofu]") {
    const std::string text = "terraform {\n  required_version = \"999.9\"\n}\n";
    CHECK(summaries(decode("a.tofu", text, Engine::opentofu), Severity::error) == Strings{"Incompatible module@2"});
    CHECK(decode("a.tf", text, Engine::opentofu).diags.empty());
}

TEST_CASE("opentofu: ephemeral resources, deprecated outputs, provider instance keys", "[config][opentofu]") {
    auto eph = decode("a.tf", "ephemeral \"a\" \"b\" {\n  count = 1\n  for_each = []\n}\n", Engine::opentofu);
    CHECK(summaries(eph, Severity::error) == Strings{"Invalid combination of \"count\" and \"for_each\"@3"});

    auto dep = decode("a.tf", "output \"o\" {\n  value = 1\n  deprecated = \"\"\n}\n", Engine::opentofu);
    CHECK(summaries(dep, Severity::error) == Strings{"Invalid deprecated value@3"});

    auto keyed =
        decode("a.tf", "resource \"null_resource\" \"r\" {\n  provider = aws.blah[each.key]\n}\n", Engine::opentofu);
    CHECK(keyed.diags.empty());
    REQUIRE(keyed.file.resources.size() == 1);
}

TEST_CASE("opentofu: module version from a variable, ignored default attributes", "[config][opentofu]") {
    auto mod = decode("a.tf", "module \"m\" {\n  source = \"./m\"\n  version = var.v\n}\n", Engine::opentofu);
    CHECK(mod.diags.empty());
    auto tf = decode("a.tf", "module \"m\" {\n  source = \"./m\"\n  version = var.v\n}\n", Engine::terraform);
    CHECK_FALSE(summaries(tf, Severity::error).empty());

    auto var =
        decode("a.tf",
               "variable \"v\" {\n  type = object({ a = string, b = map(object({})) })\n  default = {\n    a = \"x\"\n"
               "    b = { k = { extra = 1 } }\n    c = 2\n  }\n}\n",
               Engine::opentofu);
    CHECK(summaries(var, Severity::warning) ==
          Strings{"Object attribute is ignored@5", "Object attribute is ignored@6"});
}

TEST_CASE("opentofu: restrictions of ephemeral resources", "[config][opentofu]") {
    auto eph = decode("a.tf",
                      "ephemeral \"a\" \"b\" {\n"
                      "  provider = x.y[each.key]\n"
                      "  connection {}\n"
                      "  provisioner \"local-exec\" {}\n"
                      "  lifecycle {\n"
                      "    prevent_destroy = true\n"
                      "    precondition {\n"
                      "      condition     = var.ok\n"
                      "      error_message = \"m\"\n"
                      "    }\n"
                      "  }\n"
                      "  locals {}\n"
                      "}\n",
                      Engine::opentofu);
    CHECK(summaries(eph, Severity::error) == Strings{"Invalid connection block in ephemeral resource@3",
                                                     "Invalid provisioner block in ephemeral resource@4",
                                                     "Invalid ephemeral resource lifecycle argument@6",
                                                     "Reserved block type name in ephemeral block@12"});
}

TEST_CASE("opentofu: a blank deprecated message on a variable", "[config][opentofu]") {
    auto blank =
        decode("a.tf", "variable \"a\" {\n  deprecated = \" \\t\"\n}\nvariable \"b\" {\n  deprecated = \"Use c.\"\n}\n",
               Engine::opentofu);
    CHECK(summaries(blank, Severity::error) == Strings{"Invalid `deprecated` value@1"});
    // Terraform has no such argument to check.
    CHECK(decode("a.tf", "variable \"a\" {\n  deprecated = \"\"\n}\n", Engine::terraform).diags.empty());
}

TEST_CASE("provider references: instance keys for OpenTofu only, keyword roots for both", "[config][opentofu]") {
    const std::string keyed = "resource \"null_resource\" \"r\" {\n  provider = null.plain[each.key]\n}\n";
    auto tofu = decode("a.tf", keyed, Engine::opentofu);
    CHECK(tofu.diags.empty());
    REQUIRE(tofu.file.resources.size() == 1);
    CHECK(tofu.file.resources[0].first.provider_ref == "null.plain");
    CHECK(tofu.file.resources[0].first.provider_keyed);

    auto constant =
        decode("a.tf", "resource \"null_resource\" \"r\" {\n  provider = aws.x[\"eu\"]\n}\n", Engine::opentofu);
    CHECK(constant.diags.empty());
    REQUIRE(constant.file.resources.size() == 1);
    CHECK(constant.file.resources[0].first.provider_ref == "aws.x");
    CHECK(constant.file.resources[0].first.provider_keyed);

    auto tf = decode("a.tf", keyed, Engine::terraform);
    CHECK(summaries(tf, Severity::error) == Strings{"Invalid provider configuration reference@2"});

    // `null`, `true` and `false` are literals in expressions, names in a reference.
    auto plain = decode("a.tf", "resource \"null_resource\" \"r\" {\n  provider = null.plain\n}\n", Engine::terraform);
    CHECK(plain.diags.empty());
    REQUIRE(plain.file.resources.size() == 1);
    CHECK(plain.file.resources[0].first.provider_ref == "null.plain");
    CHECK_FALSE(plain.file.resources[0].first.provider_keyed);

    auto passed = decode(
        "a.tf", "module \"m\" {\n  source = \"./m\"\n  providers = {\n    aws = aws.by_region[each.key]\n  }\n}\n",
        Engine::opentofu);
    CHECK(summaries(passed, Severity::error).empty());
    REQUIRE(passed.file.module_calls.size() == 1);
    REQUIRE(passed.file.module_calls[0].first.providers.size() == 1);
    CHECK(passed.file.module_calls[0].first.providers[0].parent_key == "aws.by_region");
    CHECK(passed.file.module_calls[0].first.providers[0].parent_keyed);
}

TEST_CASE("import blocks: target and provider", "[config]") {
    for (Engine engine : {Engine::terraform, Engine::opentofu}) {
        auto d = decode(
            "a.tf",
            "import {\n  provider = aws.west\n  id = \"i\"\n  to = aws_instance.web[each.key]\n  for_each = toset([\"a\"])\n}\n"
            "import {\n  provider = aws.west\n  id = \"i\"\n  to = module.m[\"a\"].aws_instance.web\n}\n"
            "import {\n  id = \"i\"\n  to = upper(\"x\")\n}\n",
            engine);
        CHECK(summaries(d, Severity::error) ==
              Strings{"Invalid import provider argument@8", "Invalid import address expression@14"});
        REQUIRE(d.file.imports.size() == 2);
        const Import& first = d.file.imports[0].first;
        CHECK(first.to_resource == "aws_instance.web");
        CHECK_FALSE(first.to_module);
        CHECK(first.provider_ref == "aws.west");
        REQUIRE(first.provider_origin);
        CHECK(first.provider_origin->file->line(first.provider_origin->pos) == 2);
        CHECK(d.file.imports[1].first.to_module);
        CHECK(d.file.imports[1].first.to_resource.empty());
    }
    auto json = decode("a.tf.json", R"({"import": [{"id": "i", "to": "module.m[0].aws_instance.web[\"k\"]"}]})",
                       Engine::terraform);
    CHECK(json.diags.empty());
    REQUIRE(json.file.imports.size() == 1);
    CHECK(json.file.imports[0].first.to_module);
}
