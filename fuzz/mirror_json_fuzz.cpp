// libFuzzer target: arbitrary bytes as a network mirror's JSON documents
// (index.json and <version>.json). The checks live in format_checks.hpp,
// shared with the regression test.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "format_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const auto problems = tfsift::fuzzing::check_mirror_documents(bytes);
    for (const auto& p : problems) std::fprintf(stderr, "problem: %s\n", p.c_str());
    if (!problems.empty()) __builtin_trap();
    return 0;
}
