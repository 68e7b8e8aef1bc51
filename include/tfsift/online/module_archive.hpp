// Unpacking a module package archive (zip, tar.gz, tar.bz2, tar.xz) with
// libarchive, under the rules provider packages follow: no entry lands
// outside the target, no link leads out of it, and the bytes actually
// written, the size of one file and the number of entries are capped, so a
// bomb or a hostile archive is refused with a message naming the entry.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace tfsift::online {

struct ModuleArchiveLimits {
    std::uint64_t max_total_bytes = std::uint64_t{512} << 20;  // content written, all entries together
    std::uint64_t max_entry_bytes = std::uint64_t{256} << 20;  // one file
    std::uint64_t max_entries = 100'000;
};

struct ModuleArchiveResult {
    std::string error;  // e.g. "entry contains '..': ../evil.tf"
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Extracts `archive` into `target` (created when missing; an existing one must
// be an empty real directory). Directories get 0755, files 0644 or 0755 when
// the entry is executable; a leading "/" or "./" is dropped. Refused, with the
// extraction stopped: a ".." path component, a symbolic link that is absolute
// or resolves outside the package, a hard link, device, FIFO or socket
// entry, a path through a link, an archive with no entries and any cap
// above. On failure the caller removes `target`.
[[nodiscard]] ModuleArchiveResult unpack_module_archive(const std::filesystem::path& archive,
                                                        const std::filesystem::path& target,
                                                        const ModuleArchiveLimits& limits = {});

}  // namespace tfsift::online
