// What the fuzz targets of the input formats other than HCL native syntax
// demand of tfsift's readers, shared by the libFuzzer programs (fuzz/*.cpp)
// and by the regression test that replays every input they once failed on
// (tests/unit/fuzz_regressions_test.cpp, fixtures/fuzz-regressions/<format>/).
//
// Each check reads the bytes as a user's file of that format would be read
// and returns the problems it finds: a position outside the file, an error
// without a message, a lock file that tfsift writes but cannot read back or
// that changes when written again. An exception or a sanitizer report is a
// finding too (the fuzzer catches those itself).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/config/decode.hpp"
#include "tfsift/diagnostic.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/net/json_body.hpp"
#include "tfsift/net/mirror_client.hpp"
#include "tfsift/net/registry_client.hpp"
#include "tfsift/net/service_discovery.hpp"
#include "tfsift/net/url.hpp"
#include "tfsift/providers/lock_file.hpp"
#include "tfsift/providers/package_sources.hpp"
#include "tfsift/providers/state_file.hpp"
#include "tfsift/rules/catalogue.hpp"
#include "tfsift/server/message_framing.hpp"
#include "tfsift/source.hpp"

namespace tfsift::fuzzing {

using Problems = std::vector<std::string>;

inline void check_range(const Range& r, std::size_t size, const char* what, Problems& out) {
    if (r.start.byte > size || r.end.byte > size) out.push_back(std::string(what) + " lies beyond the end of the file");
    if (r.start.byte > r.end.byte) out.push_back(std::string(what) + " starts after it ends");
}

inline void check_diagnostics(const Diagnostics& diags, std::size_t size, Problems& out) {
    for (const auto& d : diags) {
        if (d.summary.empty()) out.emplace_back("a diagnostic without a summary");
        if (d.subject) check_range(*d.subject, size, "a diagnostic subject", out);
        if (d.context) check_range(*d.context, size, "a diagnostic context", out);
    }
}

inline std::shared_ptr<const SourceFile> source_of(const char* name, std::string_view bytes) {
    return std::make_shared<const SourceFile>(name, std::string(bytes));
}

// `.tf.json`: parsed, then decoded as a primary file for Terraform and as an
// override file for OpenTofu (each from its own parse: decoding adds to it).
inline Problems check_tf_json(std::string_view bytes) {
    Problems out;
    const bool override_flags[] = {false, true};
    for (bool is_override : override_flags) {
        auto source = source_of(is_override ? "main_override.tf.json" : "main.tf.json", bytes);
        auto parsed = config::parse_config_file(source, config::FileSyntax::json);
        check_diagnostics(parsed->parse_diagnostics, bytes.size(), out);
        if (parsed->has_parse_errors()) return out;
        Diagnostics diags;
        (void)config::decode_config_file(*parsed, is_override, diags,
                                         is_override ? Engine::opentofu : Engine::terraform);
        check_diagnostics(diags, bytes.size(), out);
    }
    return out;
}

// `.terraform.lock.hcl`: read; when it reads without errors, what tfsift
// writes from it must read back without errors to the same entries and be
// written again byte for byte.
inline Problems check_lock_file(std::string_view bytes) {
    Problems out;
    for (Engine engine : {Engine::terraform, Engine::opentofu}) {
        providers::LockReadOptions options;
        options.engine = engine;
        auto read = providers::read_lock_file(source_of(".terraform.lock.hcl", bytes), options);
        check_diagnostics(read.diagnostics, bytes.size(), out);
        if (read.has_errors()) continue;
        const std::string written = providers::write_lock_file(read.locks, engine);
        auto again = providers::read_lock_file(source_of(".terraform.lock.hcl", written), options);
        if (again.has_errors()) {
            out.push_back("the lock file tfsift writes does not read back: " + again.diagnostics.front().summary);
            continue;
        }
        if (again.locks.providers.size() != read.locks.providers.size()) {
            out.emplace_back("the lock file tfsift writes reads back to another number of entries");
        }
        if (providers::write_lock_file(again.locks, engine) != written) {
            out.emplace_back("writing the lock file again changes it");
        }
    }
    return out;
}

// `.tfsift.toml`. `extend` names another file to read, which would make the
// fuzzer read the machine's files (and is the reading layer's business):
// inputs that could name it are skipped. Settings that load must also give
// a rule list and answer the exclude and ignore questions.
inline Problems check_settings(std::string_view bytes) {
    Problems out;
    if (bytes.find("extend") != std::string_view::npos || bytes.find("\\u") != std::string_view::npos ||
        bytes.find("\\U") != std::string_view::npos) {
        return out;
    }
    auto result = lint::parse_settings("/nonexistent-fuzz-dir/.tfsift.toml", bytes, lint::builtin_rules());
    for (const auto& e : result.errors) {
        if (e.message.empty()) out.emplace_back("a settings error without a message");
    }
    if (!result.ok()) return out;
    (void)result.settings.excluded("/nonexistent-fuzz-dir/main.tf");
    (void)result.settings.ignored("lock-missing", "/nonexistent-fuzz-dir/sub/x.tf");
    auto rules = lint::rules_for(result.settings, lint::builtin_rules());
    std::vector<std::string> unknown;
    (void)lint::activate_rules(rules, result.settings, lint::RuleSelection{}, unknown);
    return out;
}

// A settings file built around a long key: the fuzzer's bytes give the
// layout (byte 0), the number of parts (bytes 1-2, up to 200,000) and one
// part (the rest, at most 24 bytes: a bare, quoted or broken key), which is
// repeated, joined by dots, as a table header, an array-of-tables header, a
// dotted key, a key in an inline table or a rule id. Whatever the part, the
// reader must answer with a value or errors, never run off its stack.
inline std::string deep_key_settings(std::string_view bytes) {
    if (bytes.size() < 4) return std::string(bytes);
    const auto layout = static_cast<unsigned char>(bytes[0]) % 5;
    const std::size_t parts = 1 + (static_cast<std::size_t>(static_cast<unsigned char>(bytes[1])) << 8 |
                                   static_cast<unsigned char>(bytes[2])) *
                                      3;
    const std::string_view part = bytes.substr(3, 24);
    std::string key(part);
    key.reserve(parts * (part.size() + 1));
    for (std::size_t i = 1; i < parts; ++i) {
        key += '.';
        key.append(part);
    }
    switch (layout) {
        case 0: return "[" + key + "]\n";
        case 1: return "[[" + key + "]]\nx = 1\n";
        case 2: return "preset = \"strict\"\n" + key + " = 1\n";
        case 3: return "t = { " + key + " = 1 }\n";
        default: return "[rules]\n" + key + " = \"off\"\n";
    }
}

inline Problems check_deep_key_settings(std::string_view bytes) { return check_settings(deep_key_settings(bytes)); }

// A language server's input stream: frames are cut as the server cuts them
// and each body is refused or parsed as the server does. The reader must
// end (at most one frame per byte, plus the end), never hand out a body
// larger than the limit, and never crash on a deep body.
inline Problems check_lsp_stream(std::string_view bytes) {
    Problems out;
    std::istringstream in{std::string(bytes)};
    server::FrameReader reader(in);
    std::size_t frames = 0;
    for (;;) {
        server::Frame frame = reader.next();
        if (frame.kind == server::Frame::Kind::end) break;
        if (++frames > bytes.size() + 1) {
            out.emplace_back("the frame reader does not end");
            break;
        }
        if (frame.kind == server::Frame::Kind::malformed) {
            if (frame.error.empty()) out.emplace_back("a malformed frame without a message");
            continue;
        }
        if (frame.body.size() > server::max_message_bytes) out.emplace_back("a body over the limit");
        if (server::json_nesting_depth(frame.body, server::max_message_nesting) > server::max_message_nesting) {
            continue;
        }
        const auto message = nlohmann::json::parse(frame.body, nullptr, false);
        if (!message.is_discarded()) {
            const nlohmann::json copy = message;  // the server copies parameters around
            (void)copy.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
    }
    return out;
}

// `terraform.tfstate`, for both engines.
inline Problems check_state_file(std::string_view bytes) {
    Problems out;
    for (Engine engine : {Engine::terraform, Engine::opentofu}) {
        auto state = providers::parse_state_file(source_of("terraform.tfstate", bytes), engine);
        check_diagnostics(state.diagnostics, bytes.size(), out);
        for (const auto& r : state.resources) (void)r.address();
    }
    return out;
}

// The CLI configuration (`.terraformrc`, `*.tfrc`), read from a file as
// tfsift reads it, with an environment that names a home directory.
inline Problems check_cli_config(std::string_view bytes) {
    Problems out;
    static const std::filesystem::path file = [] {
        auto dir = std::filesystem::temp_directory_path() / ("tfsift-fuzz-tfrc-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        return dir / "fuzz.tfrc";
    }();
    {
        std::ofstream(file, std::ios::binary | std::ios::trunc)
            .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    providers::Environment env = [](std::string_view name) -> std::optional<std::string> {
        if (name == "HOME") return std::string("/home/fuzz");
        if (name == "TF_PLUGIN_CACHE_DIR") return std::nullopt;
        return std::nullopt;
    };
    auto config = providers::read_cli_config({file}, env);
    check_diagnostics(config.diagnostics, bytes.size(), out);
    if (config.provider_installation) {
        auto provider = providers::parse_provider_source("hashicorp/aws", Engine::terraform).provider;
        for (const auto& method : *config.provider_installation) {
            if (provider) (void)providers::method_handles(method, *provider, Engine::terraform);
        }
    }
    return out;
}

// ---- registry and network-mirror JSON documents ---------------------------

// Whether `url` is an absolute http(s) URL tfsift could request.
inline bool is_request_url(const std::string& url) {
    const auto parsed = net::parse_absolute_url(url);
    return parsed && (parsed->scheme == "https" || parsed->scheme == "http") && !parsed->host.empty();
}

// Versions in ascending precedence, as the version choice expects them.
inline void check_version_order(const std::vector<providers::Version>& versions, const char* what, Problems& out) {
    for (std::size_t i = 1; i < versions.size(); ++i) {
        if (providers::compare_precedence(versions[i - 1], versions[i]) > 0) {
            out.push_back(std::string(what) + ": versions out of order");
        }
        if (versions[i - 1] == versions[i]) out.push_back(std::string(what) + ": a version listed twice");
    }
}

// The bytes as each document of the provider registry protocol: the service
// discovery document, a versions list and a download document. What a
// decoder accepts must be usable as it is (absolute http(s) URLs, a 64-digit
// lower-case shasum, the requested platform); what it refuses has a message.
inline Problems check_registry_documents(std::string_view bytes) {
    Problems out;
    const std::string body(bytes);
    const std::string host = "registry.example.test";
    const std::string discovery_url = "https://" + host + "/.well-known/terraform.json";
    std::string error;
    if (auto document = net::decode_json_body(body, error)) {
        const auto service = net::providers_service_of(host, *document, discovery_url);
        if (service.ok() && !is_request_url(service.url)) {
            out.push_back("discovery: accepted a providers.v1 URL that cannot be requested: " + service.url);
        }
        if (!service.ok() && service.error.find(host) == std::string::npos &&
            service.error.find(discovery_url) == std::string::npos) {
            out.push_back("discovery: an error that names neither the host nor the URL: " + service.error);
        }
    } else if (error.empty()) {
        out.emplace_back("discovery: invalid JSON without a message");
    }

    const std::string versions_url = "https://" + host + "/v1/providers/example/demo/versions";
    const auto versions = net::decode_version_list(body, versions_url);
    if (versions.status == net::LookupStatus::ok) {
        check_version_order(versions.versions, "versions list", out);
        for (const auto& [version, platforms] : versions.platforms) {
            for (const auto& p : platforms) {
                if (p.os.empty() || p.arch.empty()) out.push_back("versions list: an empty platform of " + version);
            }
        }
    } else if (versions.error.find(versions_url) == std::string::npos) {
        out.push_back("versions list: an error that does not name the URL: " + versions.error);
    }

    const std::string download_url = "https://" + host + "/v1/providers/example/demo/1.0.0/download/linux_amd64";
    const auto version = providers::parse_version("1.0.0").version;
    const providers::Platform platform{"linux", "amd64"};
    if (version) {
        const auto lookup =
            net::decode_download_document(body, download_url, host + "/example/demo", *version, platform);
        if (lookup.status == net::LookupStatus::ok) {
            if (!lookup.document) {
                out.emplace_back("download document: accepted without a document");
            } else {
                const auto& d = *lookup.document;
                if (d.os != platform.os || d.arch != platform.arch) {
                    out.emplace_back("download document: accepted for another platform");
                }
                for (const auto* url : {&d.download_url, &d.shasums_url, &d.shasums_signature_url}) {
                    if (!is_request_url(*url))
                        out.push_back("download document: a URL that cannot be requested: " + *url);
                }
                const bool hex = d.shasum.size() == 64 && std::all_of(d.shasum.begin(), d.shasum.end(), [](char c) {
                                     return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                                 });
                if (!hex) out.push_back("download document: shasum is not 64 lower-case hex digits: " + d.shasum);
                for (const auto& [name, facts] : d.packages) {
                    if (!providers::parse_platform(name).platform) {
                        out.push_back("download document: a packages entry that is no platform: " + name);
                    }
                }
            }
        } else if (lookup.error.empty() || lookup.document) {
            out.emplace_back("download document: refused without a message, or with a document");
        }
    }
    return out;
}

// The bytes as a network mirror's index.json and <version>.json.
inline Problems check_mirror_documents(std::string_view bytes) {
    Problems out;
    const std::string body(bytes);
    const std::string base = "https://mirror.example.test/providers/registry.example.test/example/demo/";
    const auto index = net::decode_mirror_index(body, base + "index.json");
    if (index.status == net::LookupStatus::ok) {
        check_version_order(index.versions, "mirror index", out);
    } else if (index.error.find(base + "index.json") == std::string::npos) {
        out.push_back("mirror index: an error that does not name the URL: " + index.error);
    }
    const auto version = net::decode_mirror_version(body, base + "1.0.0.json");
    if (version.status == net::LookupStatus::ok) {
        for (const auto& [name, archive] : version.archives) {
            if (!providers::parse_platform(name).platform)
                out.push_back("mirror version: an archive for no platform: " + name);
            if (!is_request_url(archive.url))
                out.push_back("mirror version: a URL that cannot be requested: " + archive.url);
            if (archive.filename.find('/') != std::string::npos) {
                out.push_back("mirror version: a file name with a slash: " + archive.filename);
            }
        }
    } else if (version.error.find(base + "1.0.0.json") == std::string::npos) {
        out.push_back("mirror version: an error that does not name the URL: " + version.error);
    }
    return out;
}

}  // namespace tfsift::fuzzing
