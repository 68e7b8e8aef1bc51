// The text of a native-syntax file's top-level blocks of one type, cut out
// by scanning its tokens, without building a syntax tree: a reader that
// needs only those blocks (the scan of a repository's module calls) parses
// a fraction of the file instead of all of it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfsift::hcl {

// Every top-level block of type `type` in `text`, from its type to its
// closing brace, each followed by a newline and in file order (empty when
// there is none). Parsing the result gives those blocks as parsing `text`
// gives them. Nullopt when the tokens are not plainly well formed (a
// character HCL rejects, a bracket or quote that does not match, a body item
// that does not start with a name, something after a block's closing brace
// on its line): where parsing needs error recovery, read the whole file.
// With `attributes`, each block keeps only the attributes of those names
// (nested blocks and other attributes left out). With `stop_after`, the
// scan ends at the first top-level item that starts after that byte: a
// caller that knows no wanted block starts later (see
// config::last_module_block_start) reads and judges only the text before.
std::optional<std::string> top_level_blocks_text(std::string_view text, std::string_view type,
                                                 const std::vector<std::string_view>& attributes = {},
                                                 std::size_t stop_after = std::string_view::npos);

}  // namespace tfsift::hcl
