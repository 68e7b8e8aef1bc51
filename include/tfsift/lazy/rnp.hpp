// librnp's functions that tfsift calls, loaded on first use (tfsift/lazy_library.hpp).
#pragma once

#include <rnp/rnp.h>

#include "tfsift/lazy_library.hpp"

namespace tfsift::librnp {

TFSIFT_LAZY_FUNCTION(librnp_library, rnp_buffer_destroy, buffer_destroy)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_dearmor, dearmor)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_ffi_create, ffi_create)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_ffi_destroy, ffi_destroy)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_get_public_key_count, get_public_key_count)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_import_keys, import_keys)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_input_destroy, input_destroy)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_input_from_memory, input_from_memory)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_key_get_keyid, key_get_keyid)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_key_get_primary_grip, key_get_primary_grip)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_key_handle_destroy, key_handle_destroy)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_key_is_primary, key_is_primary)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_key_valid_till64, key_valid_till64)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_locate_key, locate_key)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_op_verify_destroy, op_verify_destroy)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_op_verify_detached_create, op_verify_detached_create)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_op_verify_execute, op_verify_execute)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_op_verify_get_signature_at, op_verify_get_signature_at)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_op_verify_get_signature_count, op_verify_get_signature_count)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_op_verify_signature_get_key, op_verify_signature_get_key)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_op_verify_signature_get_status, op_verify_signature_get_status)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_output_destroy, output_destroy)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_output_memory_get_buf, output_memory_get_buf)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_output_to_memory, output_to_memory)
TFSIFT_LAZY_FUNCTION(librnp_library, rnp_result_to_string, result_to_string)

}  // namespace tfsift::librnp
