// OpenTofu-only load-time decoding: the `language` block, ephemeral
// resources, constraints checked against the OpenTofu version tfsift
// implements, and the warnings OpenTofu adds.
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

std::vector<std::string> summaries(const Diagnostics& diags, Severity severity) {
    std::vector<std::string> out;
    for (const auto& d : diags) {
        if (d.severity == severity) out.push_back(d.summary + "@" + std::to_string(d.subject ? d.subject->start.line : 0));
    }
    return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("opentofu: the language block", "[config][opentofu]") {
    auto ok = decode("a.tf", "language {\n  edition = tofu2024\n  compatible_with {\n    opentofu = \">= 1.12\"\n    other = 1\n  }\n}\n",
                     Engine::opentofu);
    CHECK(ok.diags.empty());

    auto bad = decode("a.tf",
                      "language {\n  edition = \"tofu2024\"\n  experiments = [nope]\n  compatible_with {\n    opentofu = \"999.9\"\n  }\n}\n",
                      Engine::opentofu);
    CHECK(summaries(bad.diags, Severity::error) ==
          Strings{"Invalid language edition@2", "Unknown experiment keyword@3", "Incompatible module@5"});

    auto future = decode("a.tf", "language {\n  edition = tofu2038\n}\n", Engine::opentofu);
    CHECK(summaries(future.diags, Severity::error) == Strings{"Unsupported language edition@2"});

    auto old = decode("a.tf", "language {\n  compatible_with {\n    opentofu = \">= 1.11\"\n  }\n}\n", Engine::opentofu);
    CHECK(summaries(old.diags, Severity::warning) == Strings{"Ineffective version constraint@3"});
    CHECK(summaries(old.diags, Severity::error).empty());

    // Terraform knows neither the block nor ephemeral resources.
    auto tf = decode("a.tf", "language {}\nephemeral \"a\" \"b\" {}\n", Engine::terraform);
    CHECK(summaries(tf.diags, Severity::error) == Strings{"Unsupported block type@1", "Unsupported block type@2"});
}

TEST_CASE("opentofu: required_version is OpenTofu's constraint only in .tofu files", "[config][opentofu]") {
    const std::string text = "terraform {\n  required_version = \"999.9\"\n}\n";
    CHECK(summaries(decode("a.tofu", text, Engine::opentofu).diags, Severity::error) == Strings{"Incompatible module@2"});
    CHECK(decode("a.tf", text, Engine::opentofu).diags.empty());
}

TEST_CASE("opentofu: ephemeral resources, deprecated outputs, provider instance keys", "[config][opentofu]") {
    auto eph = decode("a.tf", "ephemeral \"a\" \"b\" {\n  count = 1\n  for_each = []\n}\n", Engine::opentofu);
    CHECK(summaries(eph.diags, Severity::error) == Strings{"Invalid combination of \"count\" and \"for_each\"@3"});

    auto dep = decode("a.tf", "output \"o\" {\n  value = 1\n  deprecated = \"\"\n}\n", Engine::opentofu);
    CHECK(summaries(dep.diags, Severity::error) == Strings{"Invalid deprecated value@3"});

    auto keyed = decode("a.tf", "resource \"null_resource\" \"r\" {\n  provider = aws.blah[each.key]\n}\n", Engine::opentofu);
    CHECK(keyed.diags.empty());
    REQUIRE(keyed.file.resources.size() == 1);
}

TEST_CASE("opentofu: module version from a variable, ignored default attributes", "[config][opentofu]") {
    auto mod = decode("a.tf", "module \"m\" {\n  source = \"./m\"\n  version = var.v\n}\n", Engine::opentofu);
    CHECK(mod.diags.empty());
    auto tf = decode("a.tf", "module \"m\" {\n  source = \"./m\"\n  version = var.v\n}\n", Engine::terraform);
    CHECK_FALSE(summaries(tf.diags, Severity::error).empty());

    auto var = decode("a.tf",
                      "variable \"v\" {\n  type = object({ a = string, b = map(object({})) })\n  default = {\n    a = \"x\"\n"
                      "    b = { k = { extra = 1 } }\n    c = 2\n  }\n}\n",
                      Engine::opentofu);
    CHECK(summaries(var.diags, Severity::warning) == Strings{"Object attribute is ignored@5", "Object attribute is ignored@6"});
}
