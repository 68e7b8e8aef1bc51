// The documents an editor has open, with the text it holds for each (which
// may differ from the file on disk until it is saved). Not thread-safe: the
// server guards it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tfsift/file_read.hpp"
#include "tfsift/server/text_position.hpp"

namespace tfsift::server {

struct OpenDocument {
    std::string uri;
    std::string path;       // absolute, as the URI names it
    std::string canonical;  // symlinks resolved; empty while no such file exists on disk
    std::int64_t version = 0;
    std::string text;
};

class DocumentStore {
public:
    // Opens (or reopens) a document; false when `uri` is not a `file:` URI.
    bool open(const std::string& uri, std::int64_t version, std::string text);
    // Applies `changes` in order; false when the document is not open.
    bool change(const std::string& uri, std::int64_t version, const std::vector<TextChange>& changes);
    void close(const std::string& uri);
    [[nodiscard]] const OpenDocument* find(const std::string& uri) const;
    // The open document whose absolute path is `path`, if any.
    [[nodiscard]] const OpenDocument* find_path(const std::string& path) const;
    // The open documents of the module in `dir` (absolute): those
    // module_dir_of places in it.
    [[nodiscard]] std::vector<const OpenDocument*> in_directory(const std::string& dir) const;
    // Every open document that exists on disk, by canonical path: the texts
    // a lint reads instead of the files (LintRequest::overlays).
    [[nodiscard]] std::shared_ptr<const FileOverlays> overlays() const;
    [[nodiscard]] std::size_t size() const { return documents_.size(); }

private:
    std::map<std::string, OpenDocument> documents_;  // by URI
};

}  // namespace tfsift::server
