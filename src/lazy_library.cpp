#include "tfsift/lazy_library.hpp"

#include <dlfcn.h>

#include <fmt/format.h>

namespace tfsift {

void* LazyLibrary::function(const char* name) {
    opened_.run([&] {
        handle_ = ::dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
        if (handle_ == nullptr) {
            const char* why = ::dlerror();
            error_ = fmt::format("tfsift: cannot load {} (needed for {}): {}", soname_, needed_for_,
                                 why != nullptr ? why : "unknown error");
        }
    });
    if (handle_ == nullptr) throw LibraryUnavailable(error_);
    void* found = ::dlsym(handle_, name);
    if (found == nullptr) {
        throw LibraryUnavailable(
            fmt::format("tfsift: {} has no function {} (needed for {}): an older library than the one tfsift "
                        "was built with",
                        soname_, name, needed_for_));
    }
    return found;
}

LazyLibrary& libcurl_library() {
    static LazyLibrary library(TFSIFT_LIBCURL_SONAME, "downloading from registries and mirrors");
    return library;
}

LazyLibrary& librnp_library() {
    static LazyLibrary library(TFSIFT_LIBRNP_SONAME, "checking the signatures of provider packages");
    return library;
}

LazyLibrary& libarchive_library() {
    static LazyLibrary library(TFSIFT_LIBARCHIVE_SONAME, "unpacking module packages");
    return library;
}

LazyLibrary& libzip_library() {
    static LazyLibrary library(TFSIFT_LIBZIP_SONAME, "reading and writing zip archives");
    return library;
}

}  // namespace tfsift
