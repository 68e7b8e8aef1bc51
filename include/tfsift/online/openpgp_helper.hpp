// The OpenPGP check behind verify_sums_signature (signature.hpp), split in
// two halves:
//
//  * check_signature_in_this_process() does the work with RNP. Debian's
//    librnp logs to stderr and cannot be told not to, and it parses input a
//    hostile registry chose, so tfsift never calls it in its own process.
//  * verify_sums_signature() starts the running executable again
//    (/proc/self/exe) as `tfsift debug openpgp-verify`, an internal
//    subcommand that reads one JSON request on stdin, writes one JSON
//    verdict on stdout and has its stderr on /dev/null. run_openpgp_helper()
//    is that subcommand's body; any program that links tfsift_core and calls
//    verify_sums_signature must answer `debug openpgp-verify` with it.
//
// The request and verdict formats are internal to one tfsift binary talking
// to itself and may change between versions.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/online/signature.hpp"

namespace tfsift::online {

// Everything the check needs, environment already read.
struct OpenPgpRequest {
    std::string document;   // the SHA256SUMS bytes
    std::string signature;  // the detached signature as downloaded
    std::vector<SigningKey> keys;
    Engine engine = Engine::terraform;
    std::string hostname;
    bool enforce_gpg_validation = false;  // OPENTOFU_ENFORCE_GPG_VALIDATION=true
    bool enforce_gpg_expiration = false;  // OPENTOFU_ENFORCE_GPG_EXPIRATION=true
};

// The environment half of a request: OpenTofu's two GPG variables.
[[nodiscard]] OpenPgpRequest make_openpgp_request(std::string_view document, std::string_view signature,
                                                  std::span<const SigningKey> keys, const SignatureContext& context);

// The RNP work, in the calling process (RNP may write to stderr).
[[nodiscard]] SignatureVerdict check_signature_in_this_process(const OpenPgpRequest& request);

// The wire formats between tfsift and its helper process.
[[nodiscard]] std::string encode_openpgp_request(const OpenPgpRequest& request);
[[nodiscard]] std::optional<OpenPgpRequest> decode_openpgp_request(std::string_view json);
[[nodiscard]] std::string encode_signature_verdict(const SignatureVerdict& verdict);
[[nodiscard]] std::optional<SignatureVerdict> decode_signature_verdict(std::string_view json);

// `tfsift debug openpgp-verify`: one request from `in`, one verdict to
// `out`. Returns the process exit code (0 when a verdict was written, even a
// failing one; 2 for a request it could not read).
int run_openpgp_helper(std::FILE* in, std::FILE* out);

// The argument vector that starts the helper (after the program name).
inline constexpr std::string_view kOpenPgpHelperCommand[] = {"debug", "openpgp-verify"};

// True when argv asks for the helper: `PROGRAM debug openpgp-verify`.
[[nodiscard]] bool is_openpgp_helper_invocation(int argc, const char* const* argv);

}  // namespace tfsift::online
