// libFuzzer target: parses arbitrary bytes as an HCL native-syntax file, then
// prints its parse dump, so that constant evaluation and reference extraction
// run on every tree the parser can produce, recovered trees included.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "../tests/support/json_syntax.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/constant.hpp"
#include "tfsift/hcl/dump.hpp"
#include "tfsift/source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto source =
        std::make_shared<const tfsift::SourceFile>("fuzz.tf", std::string(reinterpret_cast<const char*>(data), size));
    tfsift::hcl::File file = tfsift::hcl::parse(source);
    // The printer `tfsift debug parse` uses; whatever the input, its output
    // must be well-formed JSON (invalid UTF-8 in names and strings included).
    std::string text = tfsift::hcl::dump_file_text(file, false);
    if (!tfsift::testing::is_json_syntax(text)) __builtin_trap();
    // The exact-text form of constant values has its own number printer.
    for (const auto& attribute : file.body->attributes) {
        (void)tfsift::hcl::constant_value_json_text(*attribute.expr);
    }
    return 0;
}
