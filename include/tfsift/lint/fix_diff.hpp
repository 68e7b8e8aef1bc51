// The unified diff of what `--fix` changes (`--diff` before, `--show-fixes`
// after), in the form `diff -u` and `git apply` read.
#pragma once

#include <string>
#include <string_view>

namespace tfsift::lint {

// A unified diff from `old_text` to `new_text` of the file `path`, with
// `context` unchanged lines around each change; empty when they are equal.
// Headers are `--- a/PATH` and `+++ b/PATH`. A last line without a line break
// is marked `\ No newline at end of file`.
std::string unified_diff(const std::string& path, std::string_view old_text, std::string_view new_text,
                         std::size_t context = 3);

}  // namespace tfsift::lint
