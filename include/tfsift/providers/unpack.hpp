// Unpacking a provider package zip into a directory the way Terraform's
// installer does (go-getter's zip decompressor, spec 4.4), so that the h1:
// of the result is the one Terraform records, and defensively: no entry
// lands outside the target and the decompressed size is bounded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "tfsift/providers/hash.hpp"

namespace tfsift::providers {

struct UnpackResult {
    std::string error;  // upstream's wording where it has one, e.g. "entry contains '..': ../x"
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Extracts every entry of `zip` below `target` (created when missing; it must
// not be a symlink). Directory entries become directories (0755), files get
// the entry's permission bits, a symlink entry becomes a regular file holding
// the link text, a repeated name overwrites the earlier one, and a leading
// "/" is dropped. Errors: no entries ("empty archive: ZIP"), a ".." path
// component ("entry contains '..': NAME"), a path through a symlink or
// non-directory, or more than kMaxEntryBytes / kMaxPackageBytes of content.
[[nodiscard]] UnpackResult unpack_zip(const std::filesystem::path& zip, const std::filesystem::path& target);

// Bounds on the bytes actually decompressed (never the sizes an archive
// claims), for packages from the network: `--max-package-size`.
struct UnpackLimits {
    std::uint64_t max_entry_bytes = kMaxEntryBytes;
    std::uint64_t max_total_bytes = kMaxPackageBytes;
};

// As above, with the given limits instead of kMaxEntryBytes / kMaxPackageBytes.
[[nodiscard]] UnpackResult unpack_zip(const std::filesystem::path& zip, const std::filesystem::path& target,
                                      const UnpackLimits& limits);

}  // namespace tfsift::providers
