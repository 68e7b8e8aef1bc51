// The loaded module tree: each module's files as read, its merged
// configuration and its children, plus the diagnostics loading produced.
// This is the model every later stage reads (rules, the effective document,
// provider requirements); it knows nothing of how it is printed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/config/config_file.hpp"
#include "tfsift/config/model.hpp"
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
};

}  // namespace tfsift::config
