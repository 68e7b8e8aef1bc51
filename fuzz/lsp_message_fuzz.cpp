// libFuzzer target: arbitrary bytes as what an editor writes to
// `tfsift server`: frames cut by Content-Length (with the resynchronisation
// after a wrong length), bodies refused when nested too deep, else parsed
// as JSON. The checks live in format_checks.hpp.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "format_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const auto problems = tfsift::fuzzing::check_lsp_stream(bytes);
    for (const auto& p : problems) std::fprintf(stderr, "problem: %s\n", p.c_str());
    if (!problems.empty()) __builtin_trap();
    return 0;
}
