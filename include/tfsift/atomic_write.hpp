// Replacing a file so that readers see either the old or the new content,
// never a mixture, and a crash or full disk leaves the old file intact.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tfsift {

struct AtomicWriteResult {
    std::string error;  // empty on success; otherwise what failed and why
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Writes `bytes` to a new temporary file beside `path` (same directory, so
// the rename cannot cross file systems), flushes it to disk, renames it over
// `path` and flushes the directory. On any failure the temporary file is
// removed and `path` is left as it was. The new file gets `mode` (0644 when
// not given, before the umask); an existing file keeps its own mode. A
// symlink at `path` is replaced by the new file, as os.Rename does.
[[nodiscard]] AtomicWriteResult atomic_write_file(const std::filesystem::path& path, std::string_view bytes,
                                                  std::optional<unsigned> mode = std::nullopt);

}  // namespace tfsift
