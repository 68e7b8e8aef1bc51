// Loading a root module directory and the modules it calls: each module's
// files parsed, decoded and merged (override files applied), local module
// sources followed relative to the calling module, other sources through
// the resolver the caller passes (installed modules, the module cache).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/diagnostic_limit.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/config/module_files.hpp"
#include "tfsift/config/module_source_resolver.hpp"
#include "tfsift/config/root_variables.hpp"
#include "tfsift/config/test_directory.hpp"
#include "tfsift/directory_listing.hpp"
#include "tfsift/file_read.hpp"

namespace tfsift::config {

class LoadCache;

struct TreeOptions {
    Engine engine = Engine::terraform;
    // Gives the directory of each call whose source is not a local path
    // (config/module_source_resolver.hpp): installed modules, the module
    // cache, the network. Null: such calls are not followed (the effective
    // document's reference data loads local sources only). A call it has no
    // directory for is listed in LoadedTree::unavailable_calls; when the root
    // module makes it, it also gets one "Module not loaded" diagnostic on its
    // `source` (a notice; an error when fetching failed). A called module's
    // own calls are reported when it is loaded as a root, so that every scope
    // gives the same answer.
    std::shared_ptr<ModuleSourceResolver> module_resolver;
    // The values the user gives the root module's variables (-var,
    // -var-file, TF_VAR_ variables), read with its own variable files when
    // a module call's source or version needs one
    // (config/root_variables.hpp).
    RootVariableInputs root_variables;
    // The root module's test directory (config/test_directory.hpp), a
    // normal relative path below it: its test files are read besides the
    // module directory's own.
    std::string test_directory = std::string(default_test_directory);
    // Terraform v1.3.10's loader stops this deep without a diagnostic.
    int max_depth = 16;
    // The most modules (the root included) one tree may hold; later calls
    // are not loaded, with one "Too many modules" error. A module called from
    // several places counts once per call. Module call cycles are cut where
    // they close, so this bounds trees that fan out without a cycle.
    std::size_t max_modules = 10000;
    // Prepended to the name of every source file (e.g. "env/prod/"), so
    // that diagnostics and findings name files as the user named the root
    // directory. Module directories and file lists stay relative to the root.
    std::string source_name_prefix;
    // Files (by path relative to the root directory) that are not loaded at
    // all, e.g. the excludes of a settings file.
    std::function<bool(std::string_view relative_path)> exclude_file;
    // How files are read (tfsift/file_read.hpp). With a root, local module
    // sources and .terraform/modules/modules.json entries that lead outside
    // it are not followed either (unless read_policy.follow_external).
    ReadPolicy read_policy;
    // Parses kept between loads (config/load_cache.hpp): files whose text
    // is unchanged are not parsed again. Null: every file is parsed.
    std::shared_ptr<LoadCache> cache;
    // The scan this load is part of (new_scan_id()), or 0 for none. A scan
    // holds that its files do not change while it runs: a shared module
    // directory found unchanged once in the scan is taken without examining
    // its files again. Loads outside a scan examine them every time.
    std::uint64_t scan_id = 0;
    // Directory listings taken earlier in the same scan, by absolute path
    // (lint/module_discovery.hpp): a module directory whose real path they
    // hold is not listed again. Null: every module directory is listed.
    const ScanListings* listings = nullptr;
};

// A number no earlier scan of this process was given (TreeOptions::scan_id).
std::uint64_t new_scan_id();

struct LoadedTree {
    // What every module points into, each file once; shared with the other
    // trees that load the same module directory, and keeping it alive.
    std::vector<std::shared_ptr<const ParsedFile>> files;
    std::unique_ptr<LoadedModule> root;              // null when the root directory cannot be read
    std::vector<LoadDiagnostic> diagnostics;         // in the order they arose
    ReadPolicy read_policy;                          // how the files were read; for lock and state files
    std::vector<std::string> read_failures;          // files that exist but could not be read, and why
    std::vector<UnavailableCall> unavailable_calls;  // in the order they were met
    // The root module's test files (its directory's, then its test
    // directory's), and the local modules their runs execute instead of the
    // root module, by the run module's normalized source. Test files are
    // not configuration: no rule reading the module sees them.
    std::vector<LoadedTestFile> test_files;
    std::map<std::string, std::shared_ptr<const Module>> test_modules;
    // The variables the variable files beside the tests set (terraform.tfvars,
    // *.auto.tfvars and their JSON forms, in either directory).
    std::set<std::string> test_variable_file_names;
    // The mock data files the test files' mock providers read from their
    // `source` directories (Terraform), each directory once, in name order.
    std::vector<LoadedMockDataFile> mock_data_files;
    // The root module's query files (Terraform), in name order. Like test
    // files, they are not configuration: no rule reading the module sees them.
    std::vector<LoadedQueryFile> query_files;
    // The root module's state migration files (Terraform), in name order;
    // not configuration either.
    std::vector<LoadedMigrationFile> migration_files;

    [[nodiscard]] bool has_errors() const;
    // The shared handle of a source file of the tree (the model's Origins
    // hold plain pointers); null for a file that is not part of the tree.
    [[nodiscard]] std::shared_ptr<const SourceFile> shared_source(const SourceFile* file) const;
    // Where each source of `files` sits in it, filled when loading ends so
    // that shared_source() costs the same for the 50,000th file as the first.
    std::unordered_map<const SourceFile*, std::size_t> source_index;
};

// Loads `root_dir` as the root module. File names in the result are relative
// to `root_dir`, with `/` separators.
LoadedTree load_module_tree(const std::string& root_dir, const TreeOptions& options = {});

}  // namespace tfsift::config
