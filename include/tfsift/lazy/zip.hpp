// libzip's functions that tfsift calls, loaded on first use (tfsift/lazy_library.hpp).
#pragma once

#include <zip.h>

#include "tfsift/lazy_library.hpp"

namespace tfsift::libzip {

TFSIFT_LAZY_FUNCTION(libzip_library, zip_close, close)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_discard, discard)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_error_fini, error_fini)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_error_init, error_init)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_error_init_with_code, error_init_with_code)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_error_strerror, error_strerror)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_fclose, fclose)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_file_add, file_add)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_file_get_external_attributes, file_get_external_attributes)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_file_strerror, file_strerror)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_fopen_index, fopen_index)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_fread, fread)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_get_name, get_name)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_get_num_entries, get_num_entries)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_open, open)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_open_from_source, open_from_source)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_set_file_compression, set_file_compression)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_source_buffer, source_buffer)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_source_buffer_create, source_buffer_create)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_source_free, source_free)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_source_keep, source_keep)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_source_stat, source_stat)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_stat_index, stat_index)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_stat_init, stat_init)
TFSIFT_LAZY_FUNCTION(libzip_library, zip_strerror, strerror)

}  // namespace tfsift::libzip
