// libFuzzer target: arbitrary bytes as a registry's SHA256SUMS document and
// as the JSON tfsift's OpenPGP helper exchanges with tfsift. The parsers must
// never crash, and what they accept must be well-formed: every zh: hash is
// "zh:" and 64 lower-case hex digits, a matching-checksum check either
// passes or names the problem, and a decoded request or verdict encodes
// and decodes to itself. Run it with `scripts/fuzz.sh MINUTES sums_fuzz`.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tfsift/online/openpgp_helper.hpp"
#include "tfsift/online/package_authentication.hpp"

namespace {

bool is_zh(std::string_view hash) {
    if (hash.size() != 67 || !hash.starts_with("zh:")) return false;
    for (const char c : hash.substr(3)) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);

    for (const auto& hash : tfsift::online::sums_zh_hashes(input)) {
        if (!is_zh(hash)) __builtin_trap();
    }
    // The first line's name is looked up, with a hash taken from the input
    // when it is long enough.
    const auto newline = input.find('\n');
    const auto first_line = input.substr(0, newline);
    const auto space = first_line.rfind(' ');
    const auto name = space == std::string_view::npos ? first_line : first_line.substr(space + 1);
    const std::string want = input.size() >= 64 ? std::string(input.substr(0, 64)) : std::string(64, '0');
    (void)tfsift::online::check_matching_checksum(input, name, want);

    if (auto request = tfsift::online::decode_openpgp_request(input)) {
        const auto again = tfsift::online::decode_openpgp_request(tfsift::online::encode_openpgp_request(*request));
        if (!again || again->document != request->document || again->signature != request->signature ||
            again->keys.size() != request->keys.size() || again->hostname != request->hostname) {
            __builtin_trap();
        }
    }
    if (auto verdict = tfsift::online::decode_signature_verdict(input)) {
        const auto again = tfsift::online::decode_signature_verdict(tfsift::online::encode_signature_verdict(*verdict));
        if (!again || again->ok != verdict->ok || again->tier != verdict->tier) __builtin_trap();
    }
    return 0;
}
