// The CLI configuration (spec 8): which files, and what they say about the
// plugin cache and provider installation; plus the implied mirror
// directories of spec 7.2.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <system_error>
#include <utility>

#include "tfsift/cty/convert.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/providers/package_sources.hpp"

namespace tfsift::providers {

namespace fs = std::filesystem;

namespace {

bool directory_exists(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool file_exists(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

std::optional<std::string> non_empty(const Environment& env, std::string_view name) {
    auto value = env(name);
    if (value && value->empty()) return std::nullopt;
    return value;
}

// os.ExpandEnv: $NAME and ${NAME}; unset names expand to nothing.
std::string expand_variables(std::string_view text, const Environment& env) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '$' || i + 1 == text.size()) {
            out += text[i];
            continue;
        }
        std::string name;
        std::size_t end = i + 1;
        if (text[end] == '{') {
            const auto close = text.find('}', end);
            if (close == std::string_view::npos) {
                out += text.substr(i);
                break;
            }
            name = std::string(text.substr(end + 1, close - end - 1));
            end = close + 1;
        } else {
            while (end < text.size() &&
                   (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_')) {
                ++end;
            }
            name = std::string(text.substr(i + 1, end - i - 1));
        }
        if (name.empty()) {
            out += '$';
            continue;
        }
        out += env(name).value_or("");
        i = end - 1;
    }
    return out;
}

struct FileReader {
    const SourceFile& source;
    Diagnostics& diags;

    void error(std::string summary, std::string detail, Range where) const {
        diags.push_back(
            Diagnostic{Severity::error, std::move(summary), std::move(detail), source.path(), where, std::nullopt});
    }

    // A constant string attribute, or nullopt with a diagnostic.
    std::optional<std::string> string_of(const hcl::Attribute& attr) const {
        auto value = hcl::evaluate(*attr.expr, nullptr);
        auto converted = cty::convert(value.value, cty::Type::string());
        if (has_errors(value.diagnostics) || !converted.ok() || converted.value.is_null() ||
            !converted.value.is_known()) {
            error("Invalid CLI configuration", fmt::format("The argument \"{}\" must be a string.", attr.name),
                  attr.range);
            return std::nullopt;
        }
        return converted.value.as_string();
    }

    std::optional<bool> bool_of(const hcl::Attribute& attr) const {
        auto value = hcl::evaluate(*attr.expr, nullptr);
        auto converted = cty::convert(value.value, cty::Type::boolean());
        if (has_errors(value.diagnostics) || !converted.ok() || converted.value.is_null() ||
            !converted.value.is_known()) {
            error("Invalid CLI configuration", fmt::format("The argument \"{}\" must be a bool.", attr.name),
                  attr.range);
            return std::nullopt;
        }
        return converted.value.as_bool();
    }

    std::vector<std::string> strings_of(const hcl::Attribute& attr) const {
        std::vector<std::string> out;
        auto value = hcl::evaluate(*attr.expr, nullptr);
        auto converted = cty::convert(value.value, cty::Type::list(cty::Type::string()));
        if (has_errors(value.diagnostics) || !converted.ok() || converted.value.is_null() ||
            !converted.value.is_wholly_known()) {
            error("Invalid CLI configuration", fmt::format("The argument \"{}\" must be a list of strings.", attr.name),
                  attr.range);
            return out;
        }
        for (const auto& element : converted.value.elements()) {
            if (!element.is_null()) out.push_back(element.as_string());
        }
        return out;
    }

    std::vector<InstallationMethod> methods_of(const hcl::Block& block) const {
        std::vector<InstallationMethod> methods;
        bool first_block = true;
        for (const auto& method_block : block.body.blocks) {
            const bool is_first = std::exchange(first_block, false);
            InstallationMethod method{};
            const std::string_view type = method_block.type;
            std::string_view required;
            if (type == "direct") {
                method.kind = InstallationMethod::Kind::direct;
            } else if (type == "filesystem_mirror") {
                method.kind = InstallationMethod::Kind::filesystem_mirror;
                required = "path";
            } else if (type == "network_mirror") {
                method.kind = InstallationMethod::Kind::network_mirror;
                required = "url";
            } else if (type == "dev_overrides") {
                method.kind = InstallationMethod::Kind::dev_overrides;
                if (!is_first) {
                    error("Invalid provider_installation block",
                          "The dev_overrides block must appear before all other installation methods, because "
                          "development overrides always have the highest priority.",
                          method_block.type_range());
                }
                methods.push_back(std::move(method));
                continue;
            } else {
                error("Invalid provider_installation block",
                      fmt::format("Unknown provider installation method \"{}\".", type), method_block.type_range());
                continue;
            }
            bool has_required = required.empty();
            for (const auto& attr : method_block.body.attributes) {
                if (!required.empty() && attr.name == required) {
                    if (auto s = string_of(attr)) method.location = *s;
                    has_required = true;
                } else if (attr.name == "include") {
                    method.include = strings_of(attr);
                } else if (attr.name == "exclude") {
                    method.exclude = strings_of(attr);
                }
            }
            if (!has_required) {
                error("Invalid provider_installation block",
                      fmt::format("The \"{}\" argument is required for {}.", required, type),
                      method_block.type_range());
                continue;
            }
            methods.push_back(std::move(method));
        }
        return methods;
    }
};

}  // namespace

Environment process_environment() {
    return [](std::string_view name) -> std::optional<std::string> {
        const char* value = std::getenv(std::string(name).c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
    };
}

std::vector<fs::path> cli_config_files(const Environment& env, Engine engine) {
    if (auto file = non_empty(env, "TF_CLI_CONFIG_FILE")) return {fs::path(*file)};
    if (auto file = non_empty(env, "TERRAFORM_CONFIG")) return {fs::path(*file)};
    std::vector<fs::path> files;
    const auto home = non_empty(env, "HOME");
    const auto xdg_config = non_empty(env, "XDG_CONFIG_HOME");
    if (home) {
        const fs::path terraformrc = fs::path(*home) / ".terraformrc";
        if (engine == Engine::opentofu) {
            const fs::path tofurc = fs::path(*home) / ".tofurc";
            if (file_exists(tofurc)) {
                files.push_back(tofurc);
            } else if (file_exists(terraformrc)) {
                files.push_back(terraformrc);
            } else if (xdg_config && file_exists(fs::path(*xdg_config) / "opentofu" / "tofurc")) {
                files.push_back(fs::path(*xdg_config) / "opentofu" / "tofurc");
            }
        } else if (file_exists(terraformrc)) {
            files.push_back(terraformrc);
        }
    }
    // Every *.tfrc and *.tfrc.json (credentials.tfrc.json) of the configuration
    // directory, in name order.
    std::optional<fs::path> config_dir;
    if (home) config_dir = fs::path(*home) / ".terraform.d";
    if (engine == Engine::opentofu && xdg_config && (!config_dir || !directory_exists(*config_dir))) {
        config_dir = fs::path(*xdg_config) / "opentofu";
    }
    if (config_dir && directory_exists(*config_dir)) {
        std::vector<fs::path> extra;
        std::error_code ec;
        for (fs::directory_iterator it(*config_dir, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            const bool tfrc = it->path().extension() == ".tfrc" ||
                              (name.size() > 10 && name.compare(name.size() - 10, 10, ".tfrc.json") == 0);
            if (tfrc && file_exists(it->path())) extra.push_back(it->path());
        }
        std::sort(extra.begin(), extra.end());
        files.insert(files.end(), extra.begin(), extra.end());
    }
    return files;
}

CliConfig read_cli_config(const std::vector<fs::path>& files, const Environment& env) {
    CliConfig config;
    config.files = files;
    for (const auto& path : files) {
        // JSON files (credentials.tfrc.json) hold credentials and hosts, read by net::read_network_config.
        if (path.extension() == ".json") continue;
        // Named by the environment, so it may lie anywhere; still only a
        // regular file, and bounded.
        FileContent content = read_regular_file(path.string(), ReadPolicy{});
        if (content.failure == ReadFailure::missing) {
            config.diagnostics.push_back(
                Diagnostic{Severity::warning, "Unable to open CLI configuration file",
                           fmt::format("The CLI configuration file at \"{}\" does not exist.", path.string()),
                           path.string(), std::nullopt, std::nullopt});
            continue;
        }
        if (!content.ok()) {
            config.diagnostics.push_back(Diagnostic{Severity::warning, "Unable to read CLI configuration file",
                                                    content.message, path.string(), std::nullopt, std::nullopt});
            continue;
        }
        auto source = std::make_shared<const SourceFile>(path.string(), content.bytes);
        hcl::File file = hcl::parse(source);
        config.diagnostics.insert(config.diagnostics.end(), file.diagnostics.begin(), file.diagnostics.end());
        const FileReader reader{*source, config.diagnostics};
        for (const auto& attr : file.body->attributes) {
            if (attr.name == "plugin_cache_dir") {
                if (auto dir = reader.string_of(attr); dir && !dir->empty() && !config.plugin_cache_dir) {
                    config.plugin_cache_dir = fs::path(expand_variables(*dir, env));
                }
            } else if (attr.name == "plugin_cache_may_break_dependency_lock_file") {
                if (auto flag = reader.bool_of(attr); flag && *flag) {
                    config.plugin_cache_may_break_dependency_lock_file = true;
                }
            }
        }
        for (const auto& block : file.body->blocks) {
            if (block.type != "provider_installation") continue;
            if (config.provider_installation) {
                reader.error("Multiple provider_installation blocks",
                             "No more than one provider_installation block may be specified.", block.type_range());
                continue;
            }
            config.provider_installation = reader.methods_of(block);
        }
    }
    // The environment beats the files.
    if (auto dir = non_empty(env, "TF_PLUGIN_CACHE_DIR")) config.plugin_cache_dir = fs::path(*dir);
    if (auto flag = env("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE"); flag && !flag->empty() && *flag != "0") {
        config.plugin_cache_may_break_dependency_lock_file = true;
    }
    return config;
}

std::vector<fs::path> user_mirror_directories(const Environment& env, Engine engine) {
    std::vector<fs::path> candidates;
    const auto home = non_empty(env, "HOME");
    if (home) candidates.push_back(fs::path(*home) / ".terraform.d" / "plugins");
    const auto xdg_data = non_empty(env, "XDG_DATA_HOME");
    // Relative XDG values are ignored, as the XDG specification asks.
    const bool xdg_data_usable = xdg_data && fs::path(*xdg_data).is_absolute();
    if (engine == Engine::opentofu && xdg_data_usable) {
        candidates.push_back(fs::path(*xdg_data) / "opentofu" / "plugins");
    }
    if (xdg_data_usable) {
        candidates.push_back(fs::path(*xdg_data) / "terraform" / "plugins");
    } else if (home) {
        candidates.push_back(fs::path(*home) / ".local" / "share" / "terraform" / "plugins");
    }
    std::string data_dirs = non_empty(env, "XDG_DATA_DIRS").value_or("/usr/local/share/:/usr/share/");
    for (std::size_t start = 0;;) {
        const auto colon = data_dirs.find(':', start);
        const std::string dir = data_dirs.substr(start, colon == std::string::npos ? colon : colon - start);
        if (!dir.empty() && fs::path(dir).is_absolute()) candidates.push_back(fs::path(dir) / "terraform" / "plugins");
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    std::vector<fs::path> existing;
    for (auto& dir : candidates) {
        if (directory_exists(dir)) existing.push_back(std::move(dir));
    }
    return existing;
}

std::optional<fs::path> working_mirror_directory(const fs::path& cwd) {
    fs::path own = cwd / "terraform.d" / "plugins";
    if (!directory_exists(own)) return std::nullopt;
    return own;
}

std::vector<fs::path> implied_mirror_directories(const Environment& env, Engine engine, const fs::path& cwd) {
    std::vector<fs::path> existing;
    if (auto own = working_mirror_directory(cwd)) existing.push_back(std::move(*own));
    for (auto& dir : user_mirror_directories(env, engine)) existing.push_back(std::move(dir));
    return existing;
}

}  // namespace tfsift::providers
