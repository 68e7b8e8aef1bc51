// A local Terraform state file (`terraform.tfstate`, format version 4) read
// for what the lock rules need: every resource with the provider
// configuration it belongs to, e.g.
// `module.net.provider["registry.terraform.io/hashicorp/aws"].east`.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/diagnostic.hpp"
#include "tfsift/engine.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/providers/address.hpp"
#include "tfsift/source.hpp"

namespace tfsift::providers {

// The provider configuration address a state resource records
// (addrs.AbsProviderConfig): the module that holds the `provider` block,
// the provider and the alias.
struct StateProviderConfig {
    std::vector<std::string> module_path;  // module call names, instance keys dropped; empty: root
    Provider provider;
    std::optional<std::string> alias;

    // `module.a.provider["registry.terraform.io/hashicorp/aws"].east`
    [[nodiscard]] std::string to_string() const;
};

struct StateResource {
    std::vector<std::string> module_path;  // where the resource is, instance keys dropped
    std::string module_text;               // the "module" value as written, "" for the root
    bool managed = true;                   // mode "managed" (false: "data")
    std::string type;
    std::string name;
    std::optional<StateProviderConfig> provider;  // nullopt when the value did not parse
    Range provider_range;                         // the "provider" value in the file

    // `module.a["x"].aws_instance.web`
    [[nodiscard]] std::string address() const;
};

struct StateFile {
    std::shared_ptr<const SourceFile> source;  // null when the file could not be read
    std::vector<StateResource> resources;
    Diagnostics diagnostics;  // not JSON, wrong format version, malformed entries

    [[nodiscard]] bool has_errors() const { return tfsift::has_errors(diagnostics); }
};

// Parses `provider["HOST/NS/TYPE"].ALIAS` with an optional `module.NAME[KEY]...`
// prefix; nullopt when the text is not such an address.
[[nodiscard]] std::optional<StateProviderConfig> parse_state_provider_config(std::string_view text, Engine engine);

// Reads the state at `path` under `policy` (a file that cannot be read is
// one error diagnostic naming why); `display_name` names it in diagnostics and
// findings. Resources whose entries are malformed are skipped with an error.
[[nodiscard]] StateFile read_state_file(const std::filesystem::path& path, const std::string& display_name,
                                        Engine engine, const ReadPolicy& policy = {});

// The same from text already read (for tests).
[[nodiscard]] StateFile parse_state_file(std::shared_ptr<const SourceFile> source, Engine engine);

}  // namespace tfsift::providers
