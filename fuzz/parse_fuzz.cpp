// libFuzzer target: parses arbitrary bytes as an HCL native-syntax file, then
// prints its parse dump, so that constant evaluation and reference extraction
// run on every tree the parser can produce, recovered trees included.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/constant.hpp"
#include "tfsift/hcl/dump.hpp"
#include "tfsift/source.hpp"

namespace {

// nlohmann's parser rejects numbers beyond a double's range (error 406),
// while the dump prints such constants exactly (1e400 is 401 digits). For a
// well-formedness check, long digit runs are shortened to one digit first.
std::string shorten_digit_runs(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t run = 0;
    for (char c : text) {
        run = (c >= '0' && c <= '9') ? run + 1 : 0;
        if (run <= 1) out.push_back(c);
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto source = std::make_shared<const tfsift::SourceFile>(
        "fuzz.tf", std::string(reinterpret_cast<const char*>(data), size));
    tfsift::hcl::File file = tfsift::hcl::parse(source);
    // The printer `tfsift debug parse` uses; whatever the input, its output
    // must be well-formed JSON (invalid UTF-8 in names and strings included).
    std::string text = tfsift::hcl::dump_file_text(file, false);
    if (!nlohmann::json::accept(shorten_digit_runs(text))) __builtin_trap();
    // The DOM form, which tests and tools read.
    (void)tfsift::hcl::dump_file(file);
    // The exact-text form of constant values has its own number printer.
    for (const auto& attribute : file.body->attributes) {
        (void)tfsift::hcl::constant_value_json_text(*attribute.expr);
    }
    return 0;
}
