// Whether a configuration file's text can declare a module call at all,
// decided from the bytes alone, so that a scan for module calls (the
// repository's module roles) parses only the files that may hold one.
#pragma once

#include <cstddef>
#include <string_view>

#include "tfsift/config/module_files.hpp"

namespace tfsift::config {

// False only when no `module` block can come out of decoding `text`. In the
// native syntax a block is a body item, and a body item starts a line: its
// type is the first token after a newline (or the start of the file), with
// at most a `/* */` comment before it on that line, and a label or the
// opening brace follows it on the same line. So a file declares none unless
// the word `module` stands at the start of a line (after blanks, or after
// something that closes a `/* */` comment), followed by a label, a comment
// or `{` — not by `.`, `=` or the end of the line, as in `module.vpc.id`,
// `path.module` or a word of a description. A JSON file may escape its
// keys, so it needs the bytes "module" or a `\u` escape.
bool may_declare_module_calls(std::string_view text, FileSyntax syntax);

// In native-syntax `text`, where the last `module` that the rule above lets
// start a block stands (std::string_view::npos when none does): no
// top-level module block starts after it, so a reader of module blocks can
// stop once the item that follows it is read.
std::size_t last_module_block_start(std::string_view text);

// False only when no module call in native-syntax `text` can have a local
// source (one that starts with `./` or `../`), judged by each `source =`
// in the text: as a constant such a source starts with those bytes after
// its opening quote, unless an escape sequence (a backslash) or a template
// sequence (`${`, `%{`) before its closing quote spells them; and a source
// written as an expression (`source = local.path`, worked out statically)
// may work out to one.
bool may_name_local_source(std::string_view text);

}  // namespace tfsift::config
