// libcurl's functions that tfsift calls, loaded on first use (tfsift/lazy_library.hpp).
#pragma once

#include <curl/curl.h>

#include "tfsift/lazy_library.hpp"

namespace tfsift::libcurl {

TFSIFT_LAZY_FUNCTION(libcurl_library, curl_easy_cleanup, easy_cleanup)
TFSIFT_LAZY_FUNCTION(libcurl_library, curl_easy_getinfo, easy_getinfo)
TFSIFT_LAZY_FUNCTION(libcurl_library, curl_easy_init, easy_init)
TFSIFT_LAZY_FUNCTION(libcurl_library, curl_easy_perform, easy_perform)
TFSIFT_LAZY_FUNCTION(libcurl_library, curl_easy_reset, easy_reset)
TFSIFT_LAZY_FUNCTION(libcurl_library, curl_easy_setopt, easy_setopt)
TFSIFT_LAZY_FUNCTION(libcurl_library, curl_easy_strerror, easy_strerror)
TFSIFT_LAZY_FUNCTION(libcurl_library, curl_global_init, global_init)
TFSIFT_LAZY_FUNCTION(libcurl_library, curl_slist_append, slist_append)
TFSIFT_LAZY_FUNCTION(libcurl_library, curl_slist_free_all, slist_free_all)

}  // namespace tfsift::libcurl
