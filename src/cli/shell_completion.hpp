// Shell completion scripts for bash, zsh and fish, written from the command
// table (command_table.hpp): `tfsift completion SHELL` prints them, and the
// build installs them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cli/command_table.hpp"

namespace tfsift::cli {

// The shells a script can be written for, as `tfsift completion` names them.
inline constexpr std::string_view completion_shells[] = {"bash", "zsh", "fish"};

// The completion script of `root` for `shell`; nullopt for an unknown shell.
std::optional<std::string> completion_script(const CommandEntry& root, std::string_view shell);

}  // namespace tfsift::cli
