// Whether a configuration file's text can declare a module call at all,
// decided from the bytes alone, so that a scan for module calls (the
// repository's module roles) parses only the files that may hold one.
#pragma once

#include <string_view>

#include "tfsift/config/module_files.hpp"

namespace tfsift::config {

// False only when no `module` block can come out of decoding `text`: in the
// native syntax a block type is an identifier, written as is, so a file
// without the word `module` standing alone (not part of a longer name such
// as `modules`, nor of a traversal such as `path.module` or `module.vpc`)
// declares none; a JSON file may escape its keys, so it needs the bytes
// "module" or a `\u` escape.
bool may_declare_module_calls(std::string_view text, FileSyntax syntax);

}  // namespace tfsift::config
