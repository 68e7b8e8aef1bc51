// host / credentials / credentials_helper blocks, *.tfrc.json files,
// TF_TOKEN_ decoding and the order credentials are looked up in.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>

#include "support/scratch_dir.hpp"
#include "tfsift/net/network_config.hpp"

using namespace tfsift::net;
using tfsift::testing::ScratchDir;
namespace fs = std::filesystem;

namespace {

fs::path write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

}  // namespace

TEST_CASE("TF_TOKEN_ variable names decode to hosts", "[net][credentials]") {
    CHECK(host_of_token_variable("my__reg_example_test") == "my-reg.example.test");
    CHECK(host_of_token_variable("app_terraform_io") == "app.terraform.io");
    CHECK(host_of_token_variable("Registry_Example_Test") == "registry.example.test");
    CHECK_FALSE(host_of_token_variable("").has_value());
    CHECK_FALSE(host_of_token_variable("bad!host").has_value());
}

TEST_CASE("host and credentials blocks in native and JSON files", "[net][credentials]") {
    ScratchDir dir;
    const auto rc = write(dir.path / "main.tfrc", R"(
host "Registry.Example.Test" {
  services = {
    "providers.v1" = "https://127.0.0.1:4443/v1/providers/"
  }
}
credentials "localhost:4443" {
  token = "mirror-token"
}
credentials "registry.example.test:443" {
  token = "block-token"
}
credentials_helper "vault" {
  args = ["--profile", "ci"]
}
provider_installation {
  direct {}
}
)");
    const auto json = write(dir.path / "credentials.tfrc.json", R"({
  "credentials": {"app.example.test": {"token": "json-token"}, "localhost:4443": {"token": "ignored, first wins"}},
  "host": {"registry.example.test": {"services": {"providers.v1": "https://127.0.0.1:9999/later/"}}}
})");
    auto config = read_network_config({rc, json});
    CHECK(config.diagnostics.empty());
    CHECK(config.credential_blocks.at("localhost:4443") == "mirror-token");
    CHECK(config.credential_blocks.at("registry.example.test") == "block-token");
    CHECK(config.credential_blocks.at("app.example.test") == "json-token");
    // A later file wins per host for host blocks.
    CHECK(config.host_services.at("registry.example.test").at("providers.v1") == "https://127.0.0.1:9999/later/");
    REQUIRE(config.helper);
    CHECK(config.helper->name == "vault");
    CHECK(config.helper->args == std::vector<std::string>{"--profile", "ci"});
}

TEST_CASE("bad blocks get diagnostics that name the file", "[net][credentials]") {
    ScratchDir dir;
    const auto rc = write(dir.path / "bad.tfrc",
                          "credentials \"a.example\" {\n  token = [\"a\"]\n}\nhost \"b.example\" {\n"
                          "  services = \"x\"\n}\ncredentials \"not a host!\" {\n  token = \"t\"\n}\n");
    const auto json = write(dir.path / "bad.tfrc.json", "[1, 2]");
    auto config = read_network_config({rc, json});
    REQUIRE(config.diagnostics.size() == 4);
    CHECK(config.diagnostics[0].summary == "Invalid CLI configuration");
    CHECK(config.diagnostics[0].filename == rc.string());
    CHECK(config.diagnostics[1].detail == "The argument \"services\" must be an object.");
    CHECK(config.diagnostics[2].summary == "Invalid hostname");
    CHECK(config.diagnostics[3].filename == json.string());
    CHECK(config.credential_blocks.empty());
}

TEST_CASE("environment beats blocks, blocks beat the helper", "[net][credentials]") {
    ScratchDir dir;
    const auto helper = write(dir.path / "terraform-credentials-test", R"(#!/bin/sh
[ "$1" = "--flag" ] && [ "$2" = "get" ] || exit 3
echo "helper says this on stderr" >&2
case "$3" in
  helped.example) echo '{"token": "helper-token"}' ;;
  slow.example) sleep 5 ;;
  broken.example) echo 'not json' ;;
  *) echo '{}' ;;
esac
)");
    chmod(helper.c_str(), 0755);
    NetworkConfig config;
    config.credential_blocks["both.example"] = "block-token";
    config.credential_blocks["helped.example"] = "block-wins";
    config.helper = CredentialsHelper{"test", {"--flag"}};
    Credentials credentials(config, {{"both.example", "env-token"}}, {dir.path / "missing", dir.path});
    CHECK(credentials.token_for("both.example") == "env-token");
    CHECK(credentials.token_for("helped.example") == "block-wins");
    CHECK(credentials.token_for("other.example").empty());
    CHECK(credentials.warnings().empty());
    config.credential_blocks.clear();
    Credentials helped(config, {}, {dir.path});
    CHECK(helped.token_for("helped.example") == "helper-token");
    CHECK(helped.token_for("broken.example").empty());
    REQUIRE(helped.warnings().size() == 1);
    CHECK_THAT(helped.warnings()[0], Catch::Contains("not a JSON object"));
    std::string error;
    auto slow = run_credentials_helper(helper, {"--flag"}, "slow.example", std::chrono::milliseconds(300), error);
    CHECK_FALSE(slow);
    CHECK_THAT(error, Catch::Contains("did not finish"));
}
