// Replacing a file so that readers see either the old or the new content,
// never a mixture, and a crash or full disk leaves the old file intact.
//
// Links: a symlink at the path is written through (its target is replaced,
// the link stays); a file with several hard links is refused, because the
// rename would silently split it into a changed and an unchanged copy. The
// replaced file keeps its mode and, where the process may set it (as root),
// its owner and group.
//
// Temporary files are named `.<name>.tfsift-<pid>-<random>.tmp` beside the
// file; ones left behind by a killed process are removed by the next write
// into that directory (the first of a run lists it), or by
// `remove_stale_temp_files`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tfsift {

// Why a write did not happen. `refused` is tfsift's own choice (the file has
// several hard links, changed meanwhile, is not a regular file); `io` is a
// failure of the system (no space, read-only file system, no permission),
// which the CLI reports with exit status 2.
enum class WriteFailure : std::uint8_t { none, refused, io };

struct AtomicWriteResult {
    std::string error;  // empty on success; otherwise what failed and why
    WriteFailure failure = WriteFailure::none;
    [[nodiscard]] bool ok() const { return error.empty(); }
};

struct AtomicWriteOptions {
    std::optional<unsigned> mode;  // for a new file (0644 when not given, before the umask)
    // Called once the new content is safely on disk, just before it replaces
    // the file. A non-empty answer cancels the write (the temporary file is
    // removed) and becomes the error, as a refusal. Callers use it to check
    // that the file did not change since they read it.
    std::function<std::string()> before_replace;
};

// Writes `bytes` to a new temporary file beside the file `path` names (its
// symlink target when `path` is a symlink), flushes it, renames it over the
// file and flushes the directory. On any failure the temporary file is
// removed and the file is left as it was.
[[nodiscard]] AtomicWriteResult atomic_write_file(const std::filesystem::path& path, std::string_view bytes,
                                                  const AtomicWriteOptions& options);
[[nodiscard]] AtomicWriteResult atomic_write_file(const std::filesystem::path& path, std::string_view bytes,
                                                  std::optional<unsigned> mode = std::nullopt);

// The file a write to `path` replaces: `path` itself, or the file its
// symlinks lead to; nullopt when a symlink leads nowhere.
[[nodiscard]] std::optional<std::filesystem::path> write_target(const std::filesystem::path& path);

// Whether `name` is a temporary file name of `atomic_write_file` for the file
// named `target_name` (current names, and the `.<name>.tmp<digits>` names of
// earlier versions).
[[nodiscard]] bool is_temp_file_name(std::string_view name, std::string_view target_name);

// Removes the temporary files of `path` (see is_temp_file_name) that a
// killed process left behind: those of a process that no longer runs, and
// any older than an hour (a minute for the earlier names, which carry no
// process id). Returns how many were removed.
std::size_t remove_stale_temp_files(const std::filesystem::path& path);

}  // namespace tfsift
