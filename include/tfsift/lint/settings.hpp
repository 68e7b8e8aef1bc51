// The project settings of .tfsift.toml: rules on/off, severity overrides,
// per-path ignores and excludes, the engine flavour, platforms and policies.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tfsift/config/paths.hpp"
#include "tfsift/config/test_directory.hpp"
#include "tfsift/diagnostic.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/glob.hpp"
#include "tfsift/lint/policy.hpp"
#include "tfsift/lint/presets.hpp"
#include "tfsift/lint/rule.hpp"

namespace tfsift::lint {

inline constexpr std::string_view settings_file_name = ".tfsift.toml";

// The longest chain of settings files `extend` may form.
inline constexpr std::size_t max_extend_chain = 64;

// An error in a settings file, with the position it concerns.
struct SettingsError {
    std::string file;
    std::uint32_t line = 0;  // 0 when the error concerns the whole file
    std::uint32_t column = 0;
    std::string message;
    std::string_view level = "error";  // or "warning"

    // "FILE:LINE:COL: LEVEL: MESSAGE"
    [[nodiscard]] std::string to_string() const;
};

// A glob together with the directory it is relative to (the directory of the
// settings file that wrote it, so inherited globs keep their meaning).
struct AnchoredGlob {
    std::string base_dir;  // absolute, lexically normal
    PathGlob glob;

    // `path` is absolute and lexically normal.
    [[nodiscard]] bool matches(const std::string& path) const;
};

struct RuleSetting {
    std::optional<bool> enabled;
    std::optional<Severity> severity;
};

// Findings of `rule_ids` (every rule when empty) in files matching one of
// `paths` are dropped.
struct PathIgnore {
    std::vector<AnchoredGlob> paths;
    std::vector<std::string> rule_ids;
};

struct Settings {
    std::vector<std::string> files;  // settings files read, nearest first; empty: defaults
    std::optional<Engine> engine;
    std::optional<std::string> engine_version;  // the Terraform/OpenTofu version in use, e.g. "1.9.5"
    std::vector<std::string> platforms;         // e.g. linux_amd64
    // `online = true`: lock rules ask the registries what they signed
    // (`tfsift lint --online`); lint opens no socket otherwise.
    std::optional<bool> online;
    // `remote_module_findings = true`: also report what is located inside
    // remote modules (installed in .terraform/modules or fetched), which are
    // someone else's code; by default only the user's own files are.
    bool remote_module_findings = false;
    std::optional<Preset> preset;  // `preset`: which rules are on before [rules]
    std::map<std::string, RuleSetting> rules;
    std::vector<PathIgnore> ignores;
    std::vector<AnchoredGlob> excludes;  // files and directories not linted at all
    std::vector<Policy> policies;
    // `root = true`: this file's directory is the repository root (as a
    // directory holding `.git` is), see tfsift/lint/repository_root.hpp.
    bool repository_root = false;
    // Declared module roles (`roots`, `shared`): directories matching these
    // globs are root modules / shared modules whoever calls them
    // (tfsift/lint/module_roles.hpp); `roots` is checked first.
    std::vector<AnchoredGlob> root_modules;
    std::vector<AnchoredGlob> shared_modules;
    // `test_directory`: the directory below each module directory whose
    // test files belong to the module besides its own, as `terraform test
    // -test-directory` names it (config/test_directory.hpp); normal, and
    // never outside the module directory.
    std::string test_directory = std::string(config::default_test_directory);
    // How files are read (tfsift/file_read.hpp): files that resolve outside
    // the repository root are read only with this set, and no file larger
    // than max_file_size bytes is read.
    bool follow_external_symlinks = false;
    std::uint64_t max_file_size = default_max_file_size;

    // How to read a file that must resolve inside `root` (empty: anywhere).
    [[nodiscard]] ReadPolicy read_policy(std::string root) const {
        return ReadPolicy{std::move(root), follow_external_symlinks, max_file_size};
    }

    [[nodiscard]] bool excluded(const std::string& absolute_path) const;
    [[nodiscard]] bool ignored(const std::string& rule_id, const std::string& absolute_path) const;
};

struct SettingsResult {
    Settings settings;
    std::vector<SettingsError> errors;
    // Settings that were read but not honoured (a repository's file asking
    // to widen what is read); they do not fail the run.
    std::vector<SettingsError> warnings;
    [[nodiscard]] bool ok() const { return errors.empty(); }
};

// The nearest .tfsift.toml looking from `start` (a file or directory) upward,
// stopping at the repository root (a directory holding `.git`). Empty when
// there is none.
std::string find_settings_file(const std::string& start);

// Reads a settings file and, through `extend = "path"`, the files it extends
// (relative to the extending file; cycles and chains longer than
// max_extend_chain are errors). Only regular files are read. The first file,
// when `named_by_user` (a --config path), is the user's: it may lie anywhere,
// extend a file anywhere and set follow_external_symlinks. Every other file
// is treated as the repository's: what it extends must resolve inside its
// repository root, and its `follow_external_symlinks = true` is a warning,
// not a setting. Messages never quote the keys or text of a file, other
// than the user's, outside `linted_root` (the repository being linted;
// empty: that of the first file). Unknown keys, bad values,
// invalid patterns and, when a catalogue is given, rule ids that are neither
// in it nor a policy's (and policy ids that are in it) are errors with their
// line.
SettingsResult load_settings(const std::string& path, bool named_by_user = false, std::span<const Rule> catalogue = {},
                             const std::string& linted_root = {});

// Parses settings from text (for tests); `path` names it in errors and
// anchors relative globs and `extend`.
SettingsResult parse_settings(const std::string& path, std::string_view text, std::span<const Rule> catalogue = {});

// The test directory of the modules in `dir`, as the nearest settings file
// gives it (the default when there is none, or it cannot be read: the
// lint reports that). For the language server, which places each file in
// its module without a lint's settings at hand.
std::string test_directory_of(const std::string& dir);

// Paths live in config/paths.hpp; the engine uses this one throughout.
using config::absolute_normal_path;

}  // namespace tfsift::lint
