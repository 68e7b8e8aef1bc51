// Parsed and decoded configuration files kept between the loads of a
// long-lived process (the language server lints a module on every edit).
//
// A load that meets a file whose text is exactly the text it was cached
// with takes its syntax tree, decoded blocks and diagnostics instead of
// parsing and decoding it again; only the files whose text changed are
// parsed. The merge and the module's own checks still run for a directory
// that was read again. A module directory read from disk is also kept
// whole while its files are unchanged (the loader shares a directory while
// anything holds it, see module_tree.cpp), so an edit in one module does
// not even merge the modules it calls again.
//
// Every entry is checked against the text read now, so an entry can be
// stale only in memory, never in what a load gets from it; forgetting
// (a file saved or changed on disk, a document closed) frees what is no
// longer needed. Each file keeps at most a few variants (names, engines),
// so the cache holds one parse per file however many edits it sees.
// Thread-safe.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "tfsift/config/diagnostic_limit.hpp"
#include "tfsift/diagnostic.hpp"

namespace tfsift::config {

struct ParsedFile;  // config/decode.hpp
struct ConfigFile;  // config/config_file.hpp

// One file as the loader made it: its parse, its decoded blocks and the
// diagnostics of decoding (those of parsing are in `parsed`).
struct CachedFile {
    std::shared_ptr<const ParsedFile> parsed;
    std::shared_ptr<const ConfigFile> decoded;
    Diagnostics decode_diagnostics;                   // at most max_diagnostics_per_kind of a kind
    std::vector<LeftOutDiagnostics> decode_left_out;  // what decoding left out of each kind
};

class LoadCache {
public:
    // The entry of the file at `path` (absolute, lexically normal) made
    // under `variant` (how it was named, parsed and decoded) from exactly
    // `text`; null when there is none.
    [[nodiscard]] std::shared_ptr<const CachedFile> find(const std::string& path, const std::string& variant,
                                                         std::string_view text) const;
    // Keeps `file` as the entry of `path` under `variant`, replacing the one
    // before.
    void store(const std::string& path, const std::string& variant, std::shared_ptr<const CachedFile> file);

    // Keeps a loaded module directory (canonical path `dir`) alive under
    // the loader's `key`, replacing what was kept under that key.
    void keep_directory(const std::string& dir, const std::string& key, std::shared_ptr<const void> directory);

    // Forgets the entries of the file `path` (absolute).
    void forget_file(const std::string& path);
    // Forgets the entries of the files directly inside `dir` (absolute) and
    // the module directory kept for it.
    void forget_directory(const std::string& dir);
    void clear();

    struct Size {
        std::size_t files = 0;        // file entries, variants counted
        std::size_t directories = 0;  // module directories kept
    };
    [[nodiscard]] Size size() const;

private:
    mutable std::mutex mutex_;
    // path -> variant -> entry
    std::map<std::string, std::map<std::string, std::shared_ptr<const CachedFile>>, std::less<>> files_;
    // canonical directory -> loader key -> directory
    std::map<std::string, std::map<std::string, std::shared_ptr<const void>>, std::less<>> directories_;
};

}  // namespace tfsift::config
