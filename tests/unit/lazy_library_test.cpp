#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "tfsift/lazy/zip.hpp"
#include "tfsift/lazy_library.hpp"

namespace {

std::string failure_of(tfsift::LazyLibrary& library, const char* function) {
    try {
        (void)library.function(function);
    } catch (const tfsift::LibraryUnavailable& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST_CASE("a library is opened on first use and its functions found", "[lazy-library]") {
    tfsift::LazyLibrary libm("libm.so.6", "a test");
    auto* cbrt = reinterpret_cast<double (*)(double)>(libm.function("cbrt"));
    REQUIRE(cbrt != nullptr);
    CHECK(cbrt(27.0) == Approx(3.0));
}

TEST_CASE("a library that cannot be opened is named, with what needed it", "[lazy-library]") {
    tfsift::LazyLibrary missing("libtfsift-no-such-library.so.9", "checking a test");
    const std::string first = failure_of(missing, "anything");
    CHECK(first.find("cannot load libtfsift-no-such-library.so.9 (needed for checking a test)") != std::string::npos);
    // Every later call gives the same answer, without trying again.
    CHECK(failure_of(missing, "other") == first);
}

TEST_CASE("a function the library lacks is named", "[lazy-library]") {
    tfsift::LazyLibrary libm("libm.so.6", "a test");
    CHECK(failure_of(libm, "tfsift_no_such_function") ==
          "tfsift: libm.so.6 has no function tfsift_no_such_function (needed for a test): an older library than the "
          "one tfsift was built with");
}

TEST_CASE("libzip's functions are called through the library tfsift opens", "[lazy-library]") {
    // The library the build found, called with the header's own types.
    zip_error_t error;
    tfsift::libzip::error_init_with_code(&error, ZIP_ER_NOENT);
    const std::string text = tfsift::libzip::error_strerror(&error);
    tfsift::libzip::error_fini(&error);
    CHECK(text.find("No such file") != std::string::npos);
}
