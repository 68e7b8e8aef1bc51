// What the CLI configuration says about registry hosts and credentials
// (spec online-installer 1.7): `host "H" { services = {...} }` blocks that
// replace service discovery, `credentials "H" { token = "..." }` blocks,
// one `credentials_helper "NAME" { args = [...] }`, from the same files
// as the rest of the CLI configuration, `*.tfrc.json` included; and the
// TF_TOKEN_<host> variables. Tokens are kept here and handed to the HTTP
// client only; no message ever includes one.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/diagnostic.hpp"
#include "tfsift/providers/package_sources.hpp"

namespace tfsift::net {

struct CredentialsHelper {
    std::string name;               // runs terraform-credentials-NAME
    std::vector<std::string> args;  // before "get HOST"
};

struct NetworkConfig {
    // host (comparison form) -> service id -> URL, later files winning per host.
    std::map<std::string, std::map<std::string, std::string>> host_services;
    // host (comparison form) -> token, from credentials blocks (first file wins per host).
    std::map<std::string, std::string> credential_blocks;
    std::optional<CredentialsHelper> helper;
    Diagnostics diagnostics;
    // The same, printable: "FILE:LINE:COLUMN: error: SUMMARY: DETAIL".
    std::vector<std::string> messages;
};

// Reads `host`, `credentials` and `credentials_helper` blocks of the given
// CLI configuration files (native syntax, or JSON for names ending in
// ".json"). Other blocks are left to providers::read_cli_config.
[[nodiscard]] NetworkConfig read_network_config(const std::vector<std::filesystem::path>& files);

// The host a TF_TOKEN_ variable's suffix names: "__" means "-", then "_"
// means "." (TF_TOKEN_my__reg_example_test -> my-reg.example.test),
// normalized for comparison; nullopt when it is not a valid host name.
[[nodiscard]] std::optional<std::string> host_of_token_variable(std::string_view suffix);

// Where tokens come from, in Terraform's order: TF_TOKEN_<host>, then a
// credentials block, then the credentials helper.
class Credentials {
public:
    // `env_tokens`: host -> token from the TF_TOKEN_ variables (token_variables()).
    // `helper_dirs`: where terraform-credentials-NAME is looked for.
    Credentials(const NetworkConfig& config, std::map<std::string, std::string> env_tokens,
                std::vector<std::filesystem::path> helper_dirs);

    // The token for `host` (comparison form, with a port when not 443), or
    // empty. A failing helper gives empty and a warning in `warnings()`
    // (without its output).
    [[nodiscard]] std::string token_for(const std::string& host);
    [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }

private:
    std::map<std::string, std::string> env_tokens_;
    std::map<std::string, std::string> block_tokens_;
    std::optional<CredentialsHelper> helper_;
    std::vector<std::filesystem::path> helper_dirs_;
    std::map<std::string, std::string> helper_cache_;
    std::vector<std::string> warnings_;
};

// Every TF_TOKEN_* variable of this process's environment, decoded.
[[nodiscard]] std::map<std::string, std::string> token_variables();

// Runs `program args... get HOST` and returns the "token" of its JSON
// output; nullopt with `error` set on failure or after `timeout`. The
// program's stderr goes nowhere and its output is never shown.
[[nodiscard]] std::optional<std::string> run_credentials_helper(const std::filesystem::path& program,
                                                                const std::vector<std::string>& args,
                                                                const std::string& host,
                                                                std::chrono::milliseconds timeout, std::string& error);

}  // namespace tfsift::net
