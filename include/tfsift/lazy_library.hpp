// Shared libraries that only some commands need, loaded the first time one
// of their functions is called rather than when the process starts.
//
// A lint never downloads, verifies a signature or unpacks an archive, yet
// libcurl, RNP, libarchive and libzip, with everything they load in turn
// (GnuTLS, Botan, Kerberos, ICU, SQLite, ...), are about forty libraries: a
// process that maps and relocates them all at start-up spends milliseconds
// on it and holds several megabytes of their pages. So tfsift does not link
// them; it opens each (dlopen, by the name its Debian package installs,
// found when tfsift is built) when a command first calls into it, and a
// library that cannot be opened is an error that names it and what needed
// it.
//
// Each library's functions are declared in tfsift/lazy/<library>.hpp as
// functions of the same type under a namespace of their own (libcurl::
// easy_perform for curl_easy_perform), so that a call site reads as a
// direct call and the compiler checks it against the library's own header.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "tfsift/once.hpp"

namespace tfsift {

// Thrown when a library or one of its functions cannot be loaded.
class LibraryUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class LazyLibrary {
public:
    // `soname`: the file name the dynamic linker looks for; `needed_for`:
    // what it is needed for, for the message when it cannot be opened.
    LazyLibrary(const char* soname, const char* needed_for) : soname_(soname), needed_for_(needed_for) {}

    // The address of the function `name`, opening the library first if it
    // is not open yet. Throws LibraryUnavailable, naming the library.
    void* function(const char* name);

private:
    const char* soname_;
    const char* needed_for_;
    Once opened_;
    void* handle_ = nullptr;
    std::string error_;
};

// The libraries (src/lazy_library.cpp).
LazyLibrary& libcurl_library();
LazyLibrary& librnp_library();
LazyLibrary& libarchive_library();
LazyLibrary& libzip_library();

}  // namespace tfsift

// Declares `our_name`, which calls the library function `c_name` of
// `library()` with the arguments it is given (of the type the library's
// header gives `c_name`, variadic ones included), loading it on first use.
#define TFSIFT_LAZY_FUNCTION(library, c_name, our_name)                                              \
    template <class... Args>                                                                         \
    decltype(auto) our_name(Args&&... args) {                                                        \
        static const auto call = reinterpret_cast<decltype(&::c_name)>(library().function(#c_name)); \
        return call(std::forward<Args>(args)...);                                                    \
    }
