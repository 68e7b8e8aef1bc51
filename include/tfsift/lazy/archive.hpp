// libarchive's functions that tfsift calls, loaded on first use (tfsift/lazy_library.hpp).
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include "tfsift/lazy_library.hpp"

namespace tfsift::libarchive {

TFSIFT_LAZY_FUNCTION(libarchive_library, archive_entry_filetype, entry_filetype)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_entry_hardlink, entry_hardlink)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_entry_pathname, entry_pathname)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_entry_perm, entry_perm)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_entry_symlink, entry_symlink)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_error_string, error_string)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_data, read_data)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_free, read_free)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_new, read_new)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_next_header, read_next_header)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_open_filename, read_open_filename)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_support_filter_bzip2, read_support_filter_bzip2)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_support_filter_gzip, read_support_filter_gzip)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_support_filter_xz, read_support_filter_xz)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_support_format_tar, read_support_format_tar)
TFSIFT_LAZY_FUNCTION(libarchive_library, archive_read_support_format_zip_seekable, read_support_format_zip_seekable)

}  // namespace tfsift::libarchive
