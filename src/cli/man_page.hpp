// The manual page tfsift(1), in roff, written from the command table
// (command_table.hpp): `tfsift man` prints it, and the build installs it.
#pragma once

#include <string>
#include <string_view>

#include "cli/command_table.hpp"

namespace tfsift::cli {

std::string man_page(const CommandEntry& root, std::string_view version);

}  // namespace tfsift::cli
