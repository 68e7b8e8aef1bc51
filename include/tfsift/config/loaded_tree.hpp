// The loaded module tree: each module's files as read, its merged
// configuration and its children, plus the diagnostics loading produced.
// This is the model every later stage reads (rules, the effective document,
// provider requirements); it knows nothing of how it is printed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/config/config_file.hpp"
#include "tfsift/config/model.hpp"
#include "tfsift/config/module_source_resolver.hpp"
#include "tfsift/diagnostic.hpp"

namespace tfsift::config {

enum class LoadPhase : std::uint8_t { parse, load, tree };

std::string_view to_string(LoadPhase phase);

// A diagnostic of loading, with the phase it belongs to and the file it
// points into (null when it points nowhere), so columns can be resolved.
struct LoadDiagnostic {
    Diagnostic diagnostic;
    LoadPhase phase = LoadPhase::load;
    std::shared_ptr<const SourceFile> source;
};

struct ParsedFile;

// One file of a module as it was read: its syntax tree and its blocks
// decoded on their own, before any merging. The decoded file is shared by
// every tree and caller that loads the same module directory: immutable.
struct ModuleFile {
    const ParsedFile* parsed = nullptr;
    std::shared_ptr<const ConfigFile> decoded;
    bool is_override = false;
};

// The merged module of a LoadedModule that has none yet: empty.
const std::shared_ptr<const Module>& empty_module();

// One module of the tree, merged.
struct LoadedModule {
    std::string address;                     // "" for the root, "module.a.module.b"
    std::string dir;                         // "." or a path relative to the root directory
    std::vector<std::string> primary_files;  // paths relative to the root directory, load order
    std::vector<std::string> override_files;
    std::vector<ModuleFile> files;  // load order: primaries, then overrides
    // Shared, like the decoded files, by every caller of the directory; never null.
    std::shared_ptr<const Module> module = empty_module();
    std::map<std::string, LoadedModule> children;
    // Set on a module that a registry or remote source names, and on the
    // local modules inside its package: where it came from (`dir` is this
    // module's own directory). Such a module is someone else's code: lint
    // reports nothing located in it unless asked to. Unset for the root
    // module and the local modules it calls.
    std::optional<ResolvedModule> remote;
};

struct TestFile;

// A test file of the root module as it was read and decoded.
struct LoadedTestFile {
    std::shared_ptr<const ParsedFile> parsed;
    std::shared_ptr<const TestFile> decoded;
    std::string name;  // relative to the module directory: "main.tftest.hcl", "tests/web.tftest.hcl"
};

struct MockDataFile;

// A mock data file that a mock provider of a root module's test file reads,
// as it was read and decoded.
struct LoadedMockDataFile {
    std::shared_ptr<const ParsedFile> parsed;
    std::shared_ptr<const MockDataFile> decoded;
    std::string name;  // relative to the module directory: "testing/aws/data.tfmock.hcl"
};

struct QueryFile;

// A query file of the root module as it was read and decoded.
struct LoadedQueryFile {
    std::shared_ptr<const ParsedFile> parsed;
    std::shared_ptr<const QueryFile> decoded;
    std::string name;  // the file name: "main.tfquery.hcl"
};

struct MigrationFile;

// A state migration file of the root module as it was read and decoded.
struct LoadedMigrationFile {
    std::shared_ptr<const ParsedFile> parsed;
    std::shared_ptr<const MigrationFile> decoded;
    std::string name;  // the file name: "from.tfmigrate.hcl"
};

// A module call the tree's resolver had no directory for.
struct UnavailableCall {
    std::string address;  // "module.a.module.b"
    std::string source;   // as written
    ModuleUnavailable why;
    Origin at;                      // the call's `source`
    bool in_remote_module = false;  // the call is written inside a remote module
};

}  // namespace tfsift::config
