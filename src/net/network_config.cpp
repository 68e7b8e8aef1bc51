// host, credentials and credentials_helper blocks of the CLI configuration,
// TF_TOKEN_ variables, and running a credentials helper.
#include "tfsift/net/network_config.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <fstream>
#include <sstream>
#include <thread>

#include "tfsift/cty/convert.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/providers/address.hpp"

extern char** environ;

namespace tfsift::net {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> comparison_host(std::string_view given) {
    auto normalized = providers::normalize_hostname(given);
    if (!normalized.ok()) return std::nullopt;
    return normalized.value;
}

void warn(Diagnostics& diags, const std::string& file, std::string summary, std::string detail,
          std::optional<Range> where = std::nullopt) {
    diags.push_back(Diagnostic{Severity::warning, std::move(summary), std::move(detail), file, where, std::nullopt});
}

std::optional<cty::Value> constant(const hcl::Attribute& attr) {
    auto value = hcl::evaluate(*attr.expr, nullptr);
    if (has_errors(value.diagnostics) || !value.value.is_wholly_known() || value.value.is_null()) return std::nullopt;
    return value.value;
}

std::optional<std::string> string_value(const cty::Value& value) {
    auto converted = cty::convert(value, cty::Type::string());
    if (!converted.ok() || converted.value.is_null()) return std::nullopt;
    return converted.value.as_string();
}

// Native syntax: the three block types.
std::shared_ptr<const SourceFile> read_native(const fs::path& path, const std::string& bytes, NetworkConfig& config) {
    auto source = std::make_shared<const SourceFile>(path.string(), bytes);
    hcl::File file = hcl::parse(source);
    if (has_errors(file.diagnostics)) return source;  // providers::read_cli_config reports syntax errors
    const std::string name = path.string();
    for (const auto& block : file.body->blocks) {
        const std::string_view type = block.type;
        if (type != "host" && type != "credentials" && type != "credentials_helper") continue;
        if (block.labels.size() != 1) {
            config.diagnostics.push_back(Diagnostic{Severity::error, "Invalid CLI configuration",
                                                    fmt::format("A {} block needs exactly one label.", type), name,
                                                    block.def_range(), std::nullopt});
            continue;
        }
        const std::string label(block.labels[0].value);
        if (type == "credentials_helper") {
            CredentialsHelper helper{label, {}};
            for (const auto& attr : block.body.attributes) {
                if (attr.name != "args") continue;
                auto value = constant(attr);
                auto list = value ? cty::convert(*value, cty::Type::list(cty::Type::string())) : cty::Converted{};
                if (!value || !list.ok() || list.value.is_null()) {
                    config.diagnostics.push_back(Diagnostic{Severity::error, "Invalid CLI configuration",
                                                            "The argument \"args\" must be a list of strings.", name,
                                                            attr.range, std::nullopt});
                    continue;
                }
                for (const auto& element : list.value.elements()) {
                    if (!element.is_null()) helper.args.push_back(element.as_string());
                }
            }
            if (config.helper) {
                warn(config.diagnostics, name, "Duplicate credentials_helper block",
                     "Only one credentials_helper block may be specified; the first one is used.", block.def_range());
                continue;
            }
            config.helper = std::move(helper);
            continue;
        }
        auto host = comparison_host(label);
        if (!host) {
            warn(config.diagnostics, name, "Invalid hostname",
                 fmt::format("The {} block label \"{}\" is not a valid host name; the block is ignored.", type, label),
                 block.def_range());
            continue;
        }
        for (const auto& attr : block.body.attributes) {
            auto value = constant(attr);
            if (type == "credentials" && attr.name == "token") {
                auto token = value ? string_value(*value) : std::nullopt;
                if (!token) {
                    config.diagnostics.push_back(Diagnostic{Severity::error, "Invalid CLI configuration",
                                                            "The argument \"token\" must be a string.", name,
                                                            attr.range, std::nullopt});
                    continue;
                }
                config.credential_blocks.try_emplace(*host, *token);
            } else if (type == "host" && attr.name == "services") {
                if (!value || !(value->type().is_object() || value->type().is_map())) {
                    config.diagnostics.push_back(Diagnostic{Severity::error, "Invalid CLI configuration",
                                                            "The argument \"services\" must be an object.", name,
                                                            attr.range, std::nullopt});
                    continue;
                }
                std::map<std::string, std::string> services;
                for (const auto& [id, url] : value->attributes()) {
                    if (auto text = string_value(url)) services[id] = *text;
                }
                config.host_services[*host] = std::move(services);
            }
        }
    }
    return source;
}

// JSON syntax ("*.tfrc.json", e.g. credentials.tfrc.json written by
// `terraform login`): {"credentials": {"HOST": {"token": "..."}}, "host": {...}}.
void read_json(const fs::path& path, const std::string& bytes, NetworkConfig& config) {
    const std::string name = path.string();
    nlohmann::json doc = nlohmann::json::parse(bytes, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        config.diagnostics.push_back(Diagnostic{Severity::error, "Invalid CLI configuration",
                                                "The file is not a JSON object.", name, std::nullopt, std::nullopt});
        return;
    }
    auto blocks = [&](const char* key) -> const nlohmann::json* {
        auto it = doc.find(key);
        return it != doc.end() && it->is_object() ? &*it : nullptr;
    };
    if (const auto* creds = blocks("credentials")) {
        for (const auto& [label, body] : creds->items()) {
            auto host = comparison_host(label);
            if (!host || !body.is_object() || !body.contains("token") || !body["token"].is_string()) {
                warn(config.diagnostics, name, "Invalid credentials",
                     fmt::format("The credentials for \"{}\" are ignored: a valid host name and a string \"token\" "
                                 "are needed.",
                                 label));
                continue;
            }
            config.credential_blocks.try_emplace(*host, body["token"].get<std::string>());
        }
    }
    if (const auto* hosts = blocks("host")) {
        for (const auto& [label, body] : hosts->items()) {
            auto host = comparison_host(label);
            if (!host || !body.is_object() || !body.contains("services") || !body["services"].is_object()) continue;
            std::map<std::string, std::string> services;
            for (const auto& [id, url] : body["services"].items()) {
                if (url.is_string()) services[id] = url.get<std::string>();
            }
            config.host_services[*host] = std::move(services);
        }
    }
    if (const auto* helpers = blocks("credentials_helper")) {
        for (const auto& [label, body] : helpers->items()) {
            if (config.helper) break;
            CredentialsHelper helper{label, {}};
            if (body.is_object() && body.contains("args") && body["args"].is_array()) {
                for (const auto& arg : body["args"]) {
                    if (arg.is_string()) helper.args.push_back(arg.get<std::string>());
                }
            }
            config.helper = std::move(helper);
        }
    }
}

}  // namespace

NetworkConfig read_network_config(const std::vector<fs::path>& files) {
    NetworkConfig config;
    for (const auto& path : files) {
        // Named by the environment, so it may lie anywhere; still only a
        // regular file, and bounded. A file that cannot be read is reported
        // by providers::read_cli_config.
        FileContent content = read_regular_file(path.string(), ReadPolicy{});
        if (!content.ok()) continue;
        const std::size_t first = config.diagnostics.size();
        std::shared_ptr<const SourceFile> source;
        if (path.extension() == ".json") {
            read_json(path, content.bytes, config);
        } else {
            source = read_native(path, content.bytes, config);
        }
        for (std::size_t i = first; i < config.diagnostics.size(); ++i) {
            const auto& d = config.diagnostics[i];
            std::string where = d.filename;
            if (source && d.subject) {
                where += fmt::format(":{}:{}", source->line(d.subject->start), source->column(d.subject->start));
            }
            config.messages.push_back(fmt::format("{}: {}: {}: {}", where, to_string(d.severity), d.summary, d.detail));
        }
    }
    return config;
}

std::optional<std::string> host_of_token_variable(std::string_view suffix) {
    std::string host;
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        if (suffix[i] == '_' && i + 1 < suffix.size() && suffix[i + 1] == '_') {
            host += '-';
            ++i;
        } else if (suffix[i] == '_') {
            host += '.';
        } else {
            host += suffix[i];
        }
    }
    if (host.empty()) return std::nullopt;
    return comparison_host(host);
}

std::map<std::string, std::string> token_variables() {
    std::map<std::string, std::string> tokens;
    constexpr std::string_view prefix = "TF_TOKEN_";
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        if (text.substr(0, prefix.size()) != prefix) continue;
        const auto equals = text.find('=');
        if (equals == std::string_view::npos) continue;
        auto host = host_of_token_variable(text.substr(prefix.size(), equals - prefix.size()));
        if (host) tokens[*host] = std::string(text.substr(equals + 1));
    }
    return tokens;
}

Credentials::Credentials(const NetworkConfig& config, std::map<std::string, std::string> env_tokens,
                         std::vector<fs::path> helper_dirs)
    : env_tokens_(std::move(env_tokens)),
      block_tokens_(config.credential_blocks),
      helper_(config.helper),
      helper_dirs_(std::move(helper_dirs)) {}

std::string Credentials::token_for(const std::string& host) {
    if (auto it = env_tokens_.find(host); it != env_tokens_.end()) return it->second;
    if (auto it = block_tokens_.find(host); it != block_tokens_.end()) return it->second;
    if (!helper_) return {};
    if (auto it = helper_cache_.find(host); it != helper_cache_.end()) return it->second;
    std::string token;
    const std::string program = "terraform-credentials-" + helper_->name;
    std::optional<fs::path> found;
    for (const auto& dir : helper_dirs_) {
        std::error_code ec;
        if (fs::is_regular_file(dir / program, ec)) {
            found = dir / program;
            break;
        }
    }
    if (!found) {
        warnings_.push_back(fmt::format("credentials helper \"{}\" not found: no {} in the plugin directories",
                                        helper_->name, program));
    } else {
        std::string error;
        auto result = run_credentials_helper(*found, helper_->args, host, std::chrono::seconds(30), error);
        if (result) {
            token = *result;
        } else {
            warnings_.push_back(
                fmt::format("credentials helper \"{}\" gave no credentials for {}: {}", helper_->name, host, error));
        }
    }
    helper_cache_[host] = token;
    return token;
}

std::optional<std::string> run_credentials_helper(const fs::path& program, const std::vector<std::string>& args,
                                                  const std::string& host, std::chrono::milliseconds timeout,
                                                  std::string& error) {
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        error = "cannot create a pipe";
        return std::nullopt;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<std::string> words{program.string()};
    words.insert(words.end(), args.begin(), args.end());
    words.emplace_back("get");
    words.push_back(host);
    std::vector<char*> argv;
    argv.reserve(words.size() + 1);
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (rc != 0) {
        close(out[0]);
        error = "cannot run it";
        return std::nullopt;
    }
    std::string output;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    bool timed_out = false;
    while (true) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out = true;
            break;
        }
        pollfd p{out[0], POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
        std::array<char, 4096> chunk{};
        const auto n = read(out[0], chunk.data(), chunk.size());
        if (n <= 0) break;
        output.append(chunk.data(), static_cast<std::size_t>(n));
        if (output.size() > (1U << 20)) break;
    }
    close(out[0]);
    if (timed_out) kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (timed_out) {
        error = fmt::format("it did not finish within {} seconds", timeout.count() / 1000);
        return std::nullopt;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        error = "it failed";
        return std::nullopt;
    }
    auto doc = nlohmann::json::parse(output, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        error = "its output is not a JSON object";
        return std::nullopt;
    }
    auto token = doc.find("token");
    if (token == doc.end() || !token->is_string()) return std::string();  // no credentials for this host
    return token->get<std::string>();
}

}  // namespace tfsift::net
