// libFuzzer target: arbitrary bytes as the provider registry's JSON documents
// (service discovery, the versions list, a download document). The checks
// live in format_checks.hpp, shared with the regression test.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "format_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const auto problems = tfsift::fuzzing::check_registry_documents(bytes);
    for (const auto& p : problems) std::fprintf(stderr, "problem: %s\n", p.c_str());
    if (!problems.empty()) __builtin_trap();
    return 0;
}
