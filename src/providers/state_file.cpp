// Reading the parts of a version 4 state file that the lock rules use.
#include "tfsift/providers/state_file.hpp"

#include <fmt/format.h>

#include "tfsift/file_read.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::providers {

namespace {

bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// Skips one `[KEY]` instance key ("string" with escapes, or a number) at `i`.
bool skip_instance_key(std::string_view text, std::size_t& i) {
    if (i >= text.size() || text[i] != '[') return true;
    ++i;
    if (i < text.size() && text[i] == '"') {
        ++i;
        while (i < text.size() && text[i] != '"') {
            if (text[i] == '\\') ++i;
            ++i;
        }
        if (i >= text.size()) return false;
        ++i;
    } else {
        std::size_t start = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
        if (i == start) return false;
    }
    if (i >= text.size() || text[i] != ']') return false;
    ++i;
    return true;
}

// `module.a[KEY].module.b.` prefixes: the call names, `i` left after the last ".".
bool parse_module_prefix(std::string_view text, std::size_t& i, std::vector<std::string>& path) {
    constexpr std::string_view kModule = "module.";
    while (text.substr(i, kModule.size()) == kModule) {
        i += kModule.size();
        std::size_t start = i;
        while (i < text.size() && is_name_char(text[i])) ++i;
        if (i == start) return false;
        path.emplace_back(text.substr(start, i - start));
        if (!skip_instance_key(text, i)) return false;
        if (i >= text.size() || text[i] != '.') return false;
        ++i;
    }
    return true;
}

std::string_view as_string(const json::Value* v) {
    return v != nullptr && v->is_string() ? std::string_view(v->text) : std::string_view();
}

}  // namespace

std::string StateProviderConfig::to_string() const {
    std::string out;
    for (const auto& m : module_path) out += "module." + m + ".";
    out += fmt::format("provider[\"{}\"]", provider.to_string());
    if (alias) out += "." + *alias;
    return out;
}

std::string StateResource::address() const {
    std::string out = module_text.empty() ? "" : module_text + ".";
    if (!managed) out += "data.";
    return out + type + "." + name;
}

std::optional<StateProviderConfig> parse_state_provider_config(std::string_view text, Engine engine) {
    StateProviderConfig out;
    std::size_t i = 0;
    if (!parse_module_prefix(text, i, out.module_path)) return std::nullopt;
    constexpr std::string_view kProvider = "provider[\"";
    if (text.substr(i, kProvider.size()) != kProvider) return std::nullopt;
    i += kProvider.size();
    std::size_t close = text.find("\"]", i);
    if (close == std::string_view::npos) return std::nullopt;
    auto parsed = parse_provider_source(text.substr(i, close - i), engine);
    if (!parsed.provider) return std::nullopt;
    out.provider = *parsed.provider;
    i = close + 2;
    if (i < text.size()) {
        if (text[i] != '.' || i + 1 >= text.size()) return std::nullopt;
        std::string_view alias = text.substr(i + 1);
        for (char c : alias) {
            if (!is_name_char(c)) return std::nullopt;
        }
        out.alias = std::string(alias);
    }
    return out;
}

StateFile parse_state_file(std::shared_ptr<const SourceFile> source, Engine engine) {
    StateFile out;
    out.source = source;
    auto error = [&](std::string summary, std::string detail, std::optional<Range> subject) {
        Diagnostic d;
        d.severity = Severity::error;
        d.summary = std::move(summary);
        d.detail = std::move(detail);
        d.filename = source->path();
        d.subject = subject;
        out.diagnostics.push_back(std::move(d));
    };
    json::Document doc = json::parse(source);
    if (doc.has_errors()) {
        for (auto d : doc.diagnostics) {
            d.summary = "Invalid state file: " + d.summary;
            if (d.filename.empty()) d.filename = source->path();
            out.diagnostics.push_back(std::move(d));
        }
        return out;
    }
    if (!doc.root.is_object()) {
        error("Invalid state file", "The state must be a JSON object.", doc.root.range);
        return out;
    }
    const json::Value* version = doc.root.find("version");
    if (version == nullptr || version->kind != json::Kind::number) {
        error("Invalid state file", "The state has no format \"version\" number.", doc.root.range);
        return out;
    }
    if (version->text != "4") {
        error("Unsupported state file format",
              fmt::format("The state uses format version {}; tfsift reads version 4 (Terraform 0.12 and later "
                          "write it, and upgrade older states on their next write).",
                          version->text),
              version->range);
        return out;
    }
    const json::Value* resources = doc.root.find("resources");
    if (resources == nullptr || resources->kind == json::Kind::null) return out;
    if (!resources->is_array()) {
        error("Invalid state file", "\"resources\" must be an array.", resources->range);
        return out;
    }
    for (const json::Value& r : resources->items) {
        if (!r.is_object()) {
            error("Invalid state file", "Each item of \"resources\" must be an object.", r.range);
            continue;
        }
        StateResource res;
        res.module_text = std::string(as_string(r.find("module")));
        if (!res.module_text.empty()) {
            std::string with_dot = res.module_text + ".";
            std::size_t i = 0;
            if (!parse_module_prefix(with_dot, i, res.module_path) || i != with_dot.size()) {
                error("Invalid state file", fmt::format("\"{}\" is not a module instance address.", res.module_text),
                      r.find("module")->range);
                continue;
            }
        }
        res.managed = as_string(r.find("mode")) != "data";
        res.type = std::string(as_string(r.find("type")));
        res.name = std::string(as_string(r.find("name")));
        const json::Value* provider = r.find("provider");
        if (res.type.empty() || res.name.empty() || provider == nullptr || !provider->is_string()) {
            error("Invalid state file", "A resource needs string \"type\", \"name\" and \"provider\" values.", r.range);
            continue;
        }
        res.provider_range = provider->range;
        res.provider = parse_state_provider_config(provider->text, engine);
        if (!res.provider) {
            error("Invalid state file",
                  fmt::format("\"{}\" is not a provider configuration address such as "
                              "provider[\"registry.terraform.io/hashicorp/aws\"].",
                              provider->text),
                  provider->range);
            continue;
        }
        out.resources.push_back(std::move(res));
    }
    return out;
}

StateFile read_state_file(const std::filesystem::path& path, const std::string& display_name, Engine engine,
                          const ReadPolicy& policy) {
    FileContent content = read_regular_file(path.string(), policy);
    if (!content.ok()) {
        StateFile out;
        Diagnostic d;
        d.summary = "Cannot read the state file";
        d.detail = content.message;
        d.filename = display_name;
        out.diagnostics.push_back(std::move(d));
        return out;
    }
    return parse_state_file(std::make_shared<const SourceFile>(display_name, content.bytes), engine);
}

}  // namespace tfsift::providers
