// libFuzzer target: .tfsift.toml files built around one long key (a dotted
// key or a table header of up to 200,000 parts, see deep_key_settings in
// format_checks.hpp): the key-depth bound must hold whatever the part is.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "format_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const auto problems = tfsift::fuzzing::check_deep_key_settings(bytes);
    for (const auto& p : problems) std::fprintf(stderr, "problem: %s\n", p.c_str());
    if (!problems.empty()) __builtin_trap();
    return 0;
}
