// Reading .tfsift.toml with toml++.
#include "tfsift/lint/settings.hpp"
#include "tfsift/providers/core_version.hpp"
#include "tfsift/providers/platform.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>
#include <vector>
#include <toml++/toml.h>

#include "tfsift/enum_names.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/directory_probe.hpp"
#include "tfsift/lint/rule_suggestion.hpp"
#include "tfsift/lint/toml_key_depth.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

std::string SettingsError::to_string() const {
    if (line == 0) return fmt::format("{}: {}: {}", file, level, message);
    return fmt::format("{}:{}:{}: {}: {}", file, line, column, level, message);
}

bool AnchoredGlob::matches(const std::string& path) const {
    std::string base = base_dir == "/" ? base_dir : base_dir + "/";
    if (path.compare(0, base.size(), base) != 0) return false;
    return glob.matches(std::string_view(path).substr(base.size()));
}

bool Settings::excluded(const std::string& absolute_path) const {
    for (const auto& g : excludes) {
        if (g.matches(absolute_path)) return true;
    }
    return false;
}

bool Settings::ignored(const std::string& rule_id, const std::string& absolute_path) const {
    for (const auto& ig : ignores) {
        bool rule_matches = ig.rule_ids.empty();
        for (const auto& id : ig.rule_ids) rule_matches = rule_matches || id == rule_id;
        if (!rule_matches) continue;
        for (const auto& g : ig.paths) {
            if (g.matches(absolute_path)) return true;
        }
    }
    return false;
}

std::string find_settings_file(const std::string& start) {
    DirectoryProbe probe;
    return probe.settings_file(start);
}

namespace {

// A rule id named somewhere in the settings; checked once every policy is known.
struct RuleReference {
    std::string id;
    std::string file;
    std::uint32_t line;
    std::uint32_t column;
};

class SettingsReader {
public:
    SettingsReader(SettingsResult& result, std::span<const Rule> catalogue)
        : s_(result.settings), errors_(result.errors), warnings_(result.warnings), catalogue_(catalogue) {}

    // Reads the file at `path` and the chain of files it extends, without
    // recursion: the chain is collected first (bounded in length, cycles
    // refused), then applied from the last file extended to `path`, so that
    // an extending file's values win. `text`, when given, is the first
    // file's content; `named_by_user` says the first file came from the
    // command line (--config).
    //
    // Only that file is the user's: it may lie anywhere, extend a file
    // anywhere and set follow_external_symlinks. Every other file of the
    // chain (all of them for a .tfsift.toml found in the linted tree) may
    // be written by whoever wrote the repository, so it may not widen what
    // is read: the files it extends must resolve inside its repository root
    // and its follow_external_symlinks is refused with a warning.
    void read_chain(const std::string& path, std::optional<std::string_view> text, bool named_by_user,
                    const std::string& linted_root) {
        std::vector<Link> chain;
        std::vector<std::string> visited;  // absolute paths, in chain order
        const std::string first_root = trusted_root_of(fs::path(absolute_normal_path(path)).parent_path().string());
        // Whose keys messages may quote: files in the repository being linted.
        const std::string& quotable_root = linted_root.empty() ? first_root : linted_root;
        // The repository root the files not the user's must stay inside:
        // that of the first such file.
        std::string repository_root = named_by_user ? std::string() : first_root;
        ReadPolicy policy;
        policy.root = repository_root;
        std::string next = path;
        const toml::node* extend_node = nullptr;  // in chain.back(), naming `next`
        while (true) {
            std::string abs = absolute_normal_path(next);
            if (std::find(visited.begin(), visited.end(), abs) != visited.end()) {
                std::string cycle;
                for (auto it = std::find(visited.begin(), visited.end(), abs); it != visited.end(); ++it) {
                    cycle += *it + " -> ";
                }
                extend_error(chain, extend_node, fmt::format("`extend` forms a cycle: {}{}", cycle, abs));
                return;
            }
            if (chain.size() >= max_extend_chain) {
                extend_error(chain, extend_node,
                             fmt::format("`extend` chain longer than {} files (at {})", max_extend_chain, next));
                return;
            }
            visited.push_back(abs);
            const bool users = named_by_user && chain.empty();
            std::string bytes;
            std::string_view content;
            if (text && chain.empty()) {
                content = *text;
            } else {
                FileContent file = read_regular_file(next, policy);
                if (!file.ok()) {
                    if (chain.empty()) {
                        error_at(next, 0, 0, "cannot read the settings file: " + file.message);
                    } else if (file.failure == ReadFailure::outside_root) {
                        extend_error(chain, extend_node,
                                     fmt::format("`extend` names {}, which resolves outside the repository root {}; "
                                                 "refused: only a settings file given with --config may extend a "
                                                 "file outside the repository",
                                                 next, policy.root));
                    } else {
                        extend_error(chain, extend_node, "cannot read the settings file it names: " + file.message);
                    }
                    return;
                }
                bytes = std::move(file.bytes);
                content = bytes;
            }
            toml::table table;
            if (!parse_table(next, content, table, users || resolves_inside(next, quotable_root))) return;
            chain.push_back(Link{next, std::move(table), users});
            const toml::table& current = chain.back().table;
            extend_node = current.get("extend");
            if (extend_node == nullptr) break;
            const auto* target_text = extend_node->as_string();
            if (target_text == nullptr) break;  // reported when the file is applied
            // The user's file may extend a file anywhere; any other file
            // only one inside the repository root.
            if (users) {
                policy.root.clear();
            } else {
                if (repository_root.empty()) repository_root = trusted_root_of(fs::path(abs).parent_path().string());
                policy.root = repository_root;
            }
            policy.follow_external = false;
            policy.max_size = default_max_file_size;
            if (const auto* limit = current.get_as<std::int64_t>("max_file_size");
                limit != nullptr && limit->get() > 0 &&
                (users || static_cast<std::uint64_t>(limit->get()) < default_max_file_size)) {
                policy.max_size = static_cast<std::uint64_t>(limit->get());
            }
            fs::path target = fs::path(target_text->get());
            if (target.is_relative()) target = fs::path(abs).parent_path() / target;
            next = target.lexically_normal().string();
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            quote_keys_ = it->users || resolves_inside(it->path, quotable_root);
            apply(it->path, it->table, it->users);
        }
    }

    void apply(const std::string& path, const toml::table& root, bool users) {
        file_ = path;
        base_dir_ = absolute_normal_path(fs::path(absolute_normal_path(path)).parent_path().string());
        s_.files.insert(s_.files.begin(), path);  // nearest first
        if (const toml::node* ext = root.get("extend"); ext != nullptr && !ext->is_string()) {
            error(*ext, "`extend` must be a string: the path of the settings file to inherit");
        }

        for (const auto& [key, node] : root) {
            std::string_view k = key.str();
            if (k == "extend") continue;
            if (k == "engine") {
                read_engine(node);
            } else if (k == "engine_version") {
                read_engine_version(node);
            } else if (k == "follow_external_symlinks") {
                if (const auto* b = node.as_boolean()) {
                    if (users || !b->get()) {
                        s_.follow_external_symlinks = b->get();
                    } else {
                        warning(node,
                                "`follow_external_symlinks = true` is ignored: a settings file in the repository "
                                "may not widen what is read; give it in a file named with --config");
                    }
                } else {
                    error(node, "`follow_external_symlinks` must be true or false");
                }
            } else if (k == "max_file_size") {
                const auto* n = node.as_integer();
                if (n != nullptr && n->get() > 0) {
                    s_.max_file_size = static_cast<std::uint64_t>(n->get());
                    if (!users && s_.max_file_size > default_max_file_size) {
                        // A larger file costs a multiple of its size in
                        // memory: only the user may allow that.
                        warning(node, fmt::format("`max_file_size = {}` is lowered to the default, {}: a settings "
                                                  "file in the repository may not widen what is read; give it in "
                                                  "a file named with --config",
                                                  s_.max_file_size, default_max_file_size));
                        s_.max_file_size = default_max_file_size;
                    }
                } else {
                    error(node, "`max_file_size` must be a positive number of bytes");
                }
            } else if (k == "platforms") {
                if (auto list = strings(node, "platforms")) {
                    s_.platforms = *list;
                    check_platforms(*node.as_array());
                }
            } else if (k == "remote_module_findings") {
                if (const auto* flag = node.as_boolean()) {
                    s_.remote_module_findings = flag->get();
                } else {
                    error(node, "`remote_module_findings` must be true or false");
                }
            } else if (k == "online") {
                if (const auto* flag = node.as_boolean()) {
                    s_.online = flag->get();
                } else {
                    error(node, "`online` must be true or false");
                }
            } else if (k == "exclude") {
                if (auto list = strings(node, "exclude")) {
                    for (auto& g : *list) s_.excludes.push_back({base_dir_, PathGlob(g)});
                }
            } else if (k == "preset") {
                auto name = string(node, "preset");
                if (name && !parse_preset(*name)) {
                    error(node, fmt::format("`preset` must be \"recommended\" or \"strict\", not \"{}\"", *name));
                } else if (name) {
                    s_.preset = parse_preset(*name);
                }
            } else if (k == "root") {
                if (const auto* b = node.as_boolean()) {
                    s_.repository_root = b->get();
                } else {
                    error(node, "`root` must be true or false");
                }
            } else if (k == "roots" || k == "shared") {
                if (auto list = strings(node, k)) {
                    auto& globs = k == "roots" ? s_.root_modules : s_.shared_modules;
                    for (auto& g : *list) globs.push_back({base_dir_, PathGlob(g)});
                }
            } else if (k == "test_directory") {
                read_test_directory(node);
            } else if (k == "rules") {
                read_rules(node);
            } else if (k == "ignore") {
                read_ignores(node);
            } else if (k == "policy") {
                read_policies(node);
            } else {
                error(
                    node,
                    fmt::format("unknown setting {} (expected extend, root, preset, engine, engine_version, platforms, "
                                "online, exclude, roots, shared, test_directory, rules, ignore, policy, "
                                "remote_module_findings, follow_external_symlinks or max_file_size)",
                                shown_key(k)),
                    &key);
            }
        }
    }

    void check_references() {
        if (catalogue_.empty()) return;  // no catalogue to check against
        std::set<std::string> known;
        for (const Rule& r : catalogue_) known.insert(r.id);
        for (const Policy& p : s_.policies) known.insert(p.id);
        const std::vector<std::string> ids(known.begin(), known.end());
        for (const auto& ref : references_) {
            if (!known.count(ref.id)) {
                errors_.push_back({ref.file, ref.line, ref.column,
                                   fmt::format("unknown rule `{}`{}", ref.id, did_you_mean(ref.id, ids))});
            }
        }
    }

private:
    bool in_catalogue(std::string_view id) const {
        return std::any_of(catalogue_.begin(), catalogue_.end(), [&](const Rule& r) { return r.id == id; });
    }

    // A file of an `extend` chain, parsed.
    struct Link {
        std::string path;
        toml::table table;
        bool users = false;  // named by the user (--config), so it may widen what is read
    };

    // Parses `content` into `table`; false after reporting a syntax error,
    // in toml++'s words when `quotable` (they may quote the text).
    bool parse_table(const std::string& path, std::string_view content, toml::table& table, bool quotable) {
        // toml++ recurses once per part of a key: a key too long for it is
        // refused before it parses.
        if (const TomlKeyDepth depth = deepest_toml_key(content); depth.parts > max_toml_key_parts) {
            error_at(path, depth.line, depth.column,
                     fmt::format("a key with more than {} parts (a dotted key or a table header such as [a.b.c]); "
                                 "the file is not read",
                                 max_toml_key_parts));
            return false;
        }
        try {
            table = toml::parse(content, path);
        } catch (const toml::parse_error& e) {
            error_at(path, e.source().begin.line, e.source().begin.column,
                     quotable ? std::string(e.description())
                              : std::string("not valid TOML (the details are not shown: the file lies outside the "
                                            "repository)"));
            return false;
        }
        return true;
    }

    // A key as messages show it: quoted, unless the file lies outside the
    // repository, whose keys may be anything (a secret's name).
    [[nodiscard]] std::string shown_key(std::string_view key) const {
        if (!quote_keys_) return "(not shown: the file lies outside the repository)";
        return fmt::format("`{}`", key);
    }

    // An error about the `extend` of the last file of `chain`.
    void extend_error(const std::vector<Link>& chain, const toml::node* extend_node, std::string message) {
        if (chain.empty() || extend_node == nullptr) {
            error_at(chain.empty() ? std::string() : chain.back().path, 0, 0, std::move(message));
            return;
        }
        const auto& where = extend_node->source().begin;
        error_at(chain.back().path, where.line, where.column, std::move(message));
    }

    void error_at(const std::string& file, std::uint32_t line, std::uint32_t column, std::string message) {
        errors_.push_back({file, line, column, std::move(message)});
    }
    void error(const toml::node& node, std::string message, const toml::key* key = nullptr) {
        const auto& src = key != nullptr ? key->source() : node.source();
        error_at(file_, src.begin.line, src.begin.column, std::move(message));
    }
    void warning(const toml::node& node, std::string message) {
        const auto& src = node.source();
        warnings_.push_back({file_, src.begin.line, src.begin.column, std::move(message), "warning"});
    }
    void reference(const std::string& id, const toml::source_region& where) {
        references_.push_back({id, file_, where.begin.line, where.begin.column});
    }

    std::optional<std::string> string(const toml::node& node, std::string_view what) {
        if (const auto* s = node.as_string()) return s->get();
        error(node, fmt::format("`{}` must be a string", what));
        return std::nullopt;
    }

    std::optional<std::vector<std::string>> strings(const toml::node& node, std::string_view what) {
        const auto* arr = node.as_array();
        if (arr == nullptr) {
            error(node, fmt::format("`{}` must be an array of strings", what));
            return std::nullopt;
        }
        std::vector<std::string> out;
        for (const auto& item : *arr) {
            if (const auto* s = item.as_string()) {
                out.push_back(s->get());
            } else {
                error(item, fmt::format("`{}` must be an array of strings", what));
                return std::nullopt;
            }
        }
        return out;
    }

    // Each platform is OS_ARCH in Go's spelling, with an OS and an
    // architecture Go knows: a typo would otherwise pass silently.
    void check_platforms(const toml::array& arr) {
        static const std::vector<std::string> oses = {"aix",     "android", "darwin",  "dragonfly", "freebsd",
                                                      "illumos", "ios",     "js",      "linux",     "netbsd",
                                                      "openbsd", "plan9",   "solaris", "wasip1",    "windows"};
        static const std::vector<std::string> arches = {"386",     "amd64",   "arm",      "arm64",  "loong64",
                                                        "mips",    "mips64",  "mips64le", "mipsle", "ppc64",
                                                        "ppc64le", "riscv64", "s390x",    "wasm"};
        for (const auto& item : arr) {
            const std::string& text = item.as_string()->get();
            const auto parsed = providers::parse_platform(text);
            if (!parsed.platform) {
                error(item, fmt::format("platform \"{}\" {} (e.g. \"linux_amd64\")", text, parsed.error));
                continue;
            }
            const auto& p = *parsed.platform;
            if (std::find(oses.begin(), oses.end(), p.os) == oses.end()) {
                error(item, fmt::format("platform \"{}\": unknown operating system `{}`{}", text, p.os,
                                        did_you_mean(p.os, oses)));
            } else if (std::find(arches.begin(), arches.end(), p.arch) == arches.end()) {
                error(item, fmt::format("platform \"{}\": unknown architecture `{}`{}", text, p.arch,
                                        did_you_mean(p.arch, arches)));
            }
        }
    }

    void read_engine(const toml::node& node) {
        auto value = string(node, "engine");
        if (!value) return;
        if (auto engine = parse_engine(*value)) {
            s_.engine = *engine;
        } else {
            error(node, fmt::format("`engine` must be \"terraform\" or \"opentofu\", not \"{}\"", *value));
        }
    }

    void read_engine_version(const toml::node& node) {
        auto value = string(node, "engine_version");
        if (!value) return;
        if (!providers::parse_core_version(*value)) {
            error(node, fmt::format("`engine_version` must be a version such as \"1.9.5\", not \"{}\"", *value));
            return;
        }
        s_.engine_version = *value;
    }

    void read_test_directory(const toml::node& node) {
        auto value = string(node, "test_directory");
        if (!value) return;
        std::string why;
        if (auto dir = config::normal_test_directory(*value, why)) {
            s_.test_directory = std::move(*dir);
        } else {
            error(node, fmt::format("`test_directory` {}", why));
        }
    }

    void read_rules(const toml::node& node) {
        const auto* table = node.as_table();
        if (table == nullptr) {
            error(node, "`rules` must be a table of rule ids");
            return;
        }
        for (const auto& [key, value] : *table) {
            std::string id(key.str());
            reference(id, key.source());
            RuleSetting setting = s_.rules[id];
            if (const auto* str = value.as_string()) {
                const std::string& v = str->get();
                if (v == "on") {
                    setting.enabled = true;
                } else if (v == "off") {
                    setting.enabled = false;
                } else if (auto sev = parse_severity(v)) {
                    setting.enabled = true;
                    setting.severity = sev;
                } else {
                    error(value, fmt::format("rule `{}`: expected \"on\", \"off\", \"error\", \"warning\" or "
                                             "\"notice\", not \"{}\"",
                                             id, v));
                }
            } else if (const auto* t = value.as_table()) {
                for (const auto& [k2, v2] : *t) {
                    if (k2.str() == "enabled") {
                        if (const auto* b = v2.as_boolean()) {
                            setting.enabled = b->get();
                        } else {
                            error(v2, "`enabled` must be true or false");
                        }
                    } else if (k2.str() == "severity") {
                        auto sev = v2.as_string() ? parse_severity(v2.as_string()->get()) : std::nullopt;
                        if (sev) {
                            setting.severity = sev;
                        } else {
                            error(v2, "`severity` must be \"error\", \"warning\" or \"notice\"");
                        }
                    } else {
                        error(v2,
                              fmt::format("unknown key {} for rule `{}` (expected enabled, severity)",
                                          shown_key(k2.str()), id),
                              &k2);
                    }
                }
            } else {
                error(value, fmt::format("rule `{}`: expected a string or a table", id));
            }
            s_.rules[id] = setting;
        }
    }

    void read_ignores(const toml::node& node) {
        const auto* arr = node.as_array();
        if (arr == nullptr || !arr->is_array_of_tables()) {
            error(node, "`ignore` must be an array of tables: [[ignore]] with `paths` and optional `rules`");
            return;
        }
        for (const auto& item : *arr) {
            const auto& t = *item.as_table();
            PathIgnore ig;
            bool has_paths = false;
            for (const auto& [k, v] : t) {
                if (k.str() == "paths") {
                    has_paths = true;
                    if (auto list = strings(v, "paths")) {
                        for (auto& g : *list) ig.paths.push_back({base_dir_, PathGlob(g)});
                    }
                } else if (k.str() == "rules") {
                    if (auto list = strings(v, "rules")) {
                        const auto& arr2 = *v.as_array();
                        for (std::size_t i = 0; i < list->size(); ++i) reference((*list)[i], arr2[i].source());
                        ig.rule_ids = *list;
                    }
                } else {
                    error(v, fmt::format("unknown key {} in [[ignore]] (expected paths, rules)", shown_key(k.str())),
                          &k);
                }
            }
            if (!has_paths) error(item, "[[ignore]] needs `paths`, a list of globs");
            s_.ignores.push_back(std::move(ig));
        }
    }

    std::optional<PolicyPattern> pattern(const toml::node& node, std::string_view what) {
        auto text = string(node, what);
        if (!text) return std::nullopt;
        std::string why;
        auto p = PolicyPattern::compile(*text, why);
        if (!p) error(node, fmt::format("invalid RE2 pattern in `{}`: {}", what, why));
        return p;
    }

    void read_policies(const toml::node& node) {
        const auto* arr = node.as_array();
        if (arr == nullptr || !arr->is_array_of_tables()) {
            error(node, "`policy` must be an array of tables: [[policy]]");
            return;
        }
        for (const auto& item : *arr) read_policy(*item.as_table());
    }

    void read_policy(const toml::table& t) {
        Policy p;
        p.defined_in = file_;
        p.line = t.source().begin.line;
        std::size_t errors_before = errors_.size();
        std::set<std::string> seen;
        const toml::node* kind_node = t.get("kind");
        if (kind_node == nullptr) {
            error(t,
                  "[[policy]] needs `kind` (naming, required-attributes, forbidden-attribute, provider-source or "
                  "module-source)");
            return;
        }
        auto kind = string(*kind_node, "kind");
        if (!kind) return;
        if (*kind == "naming") {
            p.kind = PolicyKind::naming;
        } else if (*kind == "required-attributes") {
            p.kind = PolicyKind::required_attributes;
        } else if (*kind == "forbidden-attribute") {
            p.kind = PolicyKind::forbidden_attribute;
        } else if (*kind == "provider-source") {
            p.kind = PolicyKind::provider_source;
        } else if (*kind == "module-source") {
            p.kind = PolicyKind::module_source;
        } else {
            error(*kind_node, fmt::format("unknown policy kind \"{}\" (expected naming, required-attributes, "
                                          "forbidden-attribute, provider-source or module-source)",
                                          *kind));
            return;
        }
        // Which keys each kind accepts besides the common ones.
        std::set<std::string_view> allowed_keys = {"id", "kind", "severity", "message", "description"};
        switch (p.kind) {
            case PolicyKind::naming: allowed_keys.insert({"targets", "pattern", "resource-types"}); break;
            case PolicyKind::required_attributes: allowed_keys.insert({"resource-types", "attributes"}); break;
            case PolicyKind::forbidden_attribute: allowed_keys.insert({"resource-types", "attributes", "value"}); break;
            case PolicyKind::provider_source:
            case PolicyKind::module_source: allowed_keys.insert("allowed"); break;
        }
        for (const auto& [k, v] : t) {
            std::string_view key = k.str();
            if (!allowed_keys.count(key)) {
                error(v, fmt::format("key {} does not apply to a {} policy", shown_key(key), *kind), &k);
                continue;
            }
            seen.insert(std::string(key));
            if (key == "id") {
                if (auto id = string(v, "id")) {
                    p.id = *id;
                    if (!valid_id(p.id)) {
                        error(v, fmt::format("policy id \"{}\" must be kebab-case: lower-case letters, digits and '-'",
                                             p.id));
                    } else if (in_catalogue(p.id)) {
                        error(v, fmt::format("policy id \"{}\" is the id of a built-in rule", p.id));
                    }
                }
            } else if (key == "severity") {
                auto sev = v.as_string() ? parse_severity(v.as_string()->get()) : std::nullopt;
                if (sev) {
                    p.severity = *sev;
                } else {
                    error(v, "`severity` must be \"error\", \"warning\" or \"notice\"");
                }
            } else if (key == "message") {
                if (auto m = string(v, "message")) p.message = *m;
            } else if (key == "description") {
                if (auto m = string(v, "description")) p.description = *m;
            } else if (key == "targets") {
                read_targets(v, p);
            } else if (key == "pattern") {
                p.pattern = pattern(v, "pattern");
            } else if (key == "resource-types") {
                p.resource_types = pattern(v, "resource-types");
            } else if (key == "value") {
                p.value = pattern(v, "value");
            } else if (key == "attributes") {
                if (auto list = strings(v, "attributes")) {
                    p.attributes = *list;
                    if (list->empty()) error(v, "`attributes` must name at least one attribute");
                }
            } else if (key == "allowed") {
                const auto* arr = v.as_array();
                if (arr == nullptr || arr->empty()) {
                    error(v, "`allowed` must be a non-empty array of RE2 patterns");
                    continue;
                }
                for (const auto& item : *arr) {
                    if (auto pat = pattern(item, "allowed")) p.allowed.push_back(std::move(*pat));
                }
            }
        }
        auto require = [&](std::string_view key) {
            if (!seen.count(std::string(key))) error(t, fmt::format("[[policy]] of kind {} needs `{}`", *kind, key));
        };
        require("id");
        switch (p.kind) {
            case PolicyKind::naming: require("pattern"); break;
            case PolicyKind::required_attributes:
            case PolicyKind::forbidden_attribute: require("attributes"); break;
            case PolicyKind::provider_source:
            case PolicyKind::module_source: require("allowed"); break;
        }
        if (p.kind == PolicyKind::naming && !seen.count("targets")) {
            p.targets = {NameTarget::resource, NameTarget::data,   NameTarget::variable,
                         NameTarget::output,   NameTarget::module, NameTarget::local};
        }
        if (errors_.size() != errors_before) return;
        // A policy of the same id from an extending file replaces the inherited one.
        for (auto& existing : s_.policies) {
            if (existing.id == p.id) {
                if (existing.defined_in == p.defined_in) {
                    error(t, fmt::format("policy id \"{}\" is defined twice in this file", p.id));
                } else {
                    existing = std::move(p);
                }
                return;
            }
        }
        s_.policies.push_back(std::move(p));
    }

    void read_targets(const toml::node& v, Policy& p) {
        auto list = strings(v, "targets");
        if (!list) return;
        const auto& arr = *v.as_array();
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string& name = (*list)[i];
            bool found = false;
            for (NameTarget t : {NameTarget::resource, NameTarget::data, NameTarget::variable, NameTarget::output,
                                 NameTarget::module, NameTarget::local}) {
                if (name == to_string(t)) {
                    p.targets.push_back(t);
                    found = true;
                }
            }
            if (!found) {
                error(arr[i], fmt::format("unknown naming target \"{}\" (expected resource, data, variable, output, "
                                          "module or local)",
                                          name));
            }
        }
    }

    static bool valid_id(const std::string& id) {
        if (id.empty() || id.front() == '-' || id.back() == '-') return false;
        for (char c : id) {
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
        }
        return true;
    }

    Settings& s_;
    std::vector<SettingsError>& errors_;
    std::vector<SettingsError>& warnings_;
    bool quote_keys_ = true;  // of the file being applied
    std::string file_;
    std::string base_dir_;
    std::vector<RuleReference> references_;
    std::span<const Rule> catalogue_;
};

}  // namespace

SettingsResult load_settings(const std::string& path, bool named_by_user, std::span<const Rule> catalogue,
                             const std::string& linted_root) {
    SettingsResult result;
    SettingsReader reader(result, catalogue);
    reader.read_chain(path, std::nullopt, named_by_user, linted_root);
    reader.check_references();
    return result;
}

std::string test_directory_of(const std::string& dir) {
    const std::string file = find_settings_file(dir);
    if (file.empty()) return std::string(config::default_test_directory);
    SettingsResult result = load_settings(file, false, {}, trusted_root_of(dir));
    return result.ok() ? result.settings.test_directory : std::string(config::default_test_directory);
}

SettingsResult parse_settings(const std::string& path, std::string_view text, std::span<const Rule> catalogue) {
    SettingsResult result;
    SettingsReader reader(result, catalogue);
    reader.read_chain(path, text, true, {});
    reader.check_references();
    return result;
}

}  // namespace tfsift::lint
