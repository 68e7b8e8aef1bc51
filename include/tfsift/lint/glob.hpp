// Path globs of .tfsift.toml (`ignore` and `exclude`).
#pragma once

#include <string>
#include <string_view>

namespace tfsift::lint {

// A glob over '/'-separated relative paths: `*` matches within one path
// segment, `**` matches any number of whole segments (also none), `?` one
// character other than '/', `[abc]` / `[a-z]` / `[!a]` one character of a set.
// A pattern without '/' matches a path whose last segment (file or directory
// name) matches it, as .gitignore does; a pattern that names a directory
// matches everything below it.
class PathGlob {
public:
    explicit PathGlob(std::string pattern);

    [[nodiscard]] const std::string& pattern() const { return pattern_; }
    [[nodiscard]] bool matches(std::string_view relative_path) const;

private:
    std::string pattern_;
};

// True when `pattern` (the whole string) matches `text` by the rules above,
// without the directory and basename conveniences.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace tfsift::lint
