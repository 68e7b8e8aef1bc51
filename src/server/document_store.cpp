#include "tfsift/server/document_store.hpp"

#include <filesystem>
#include <system_error>

#include "tfsift/server/file_uri.hpp"
#include "tfsift/server/module_of_file.hpp"

namespace fs = std::filesystem;

namespace tfsift::server {

namespace {

// The real path of a document: its file's, or for a buffer not saved yet
// (no file there), its directory's real path and its name.
std::string canonical_of(const std::string& path) {
    std::error_code ec;
    fs::path real = fs::canonical(path, ec);
    if (!ec) return fs::is_regular_file(real, ec) ? real.string() : std::string();
    if (fs::symlink_status(path, ec).type() != fs::file_type::not_found) return {};
    const fs::path named(path);
    fs::path dir = fs::canonical(named.parent_path(), ec);
    if (ec || !fs::is_directory(dir, ec) || !named.has_filename()) return {};
    return (dir / named.filename()).string();
}

}  // namespace

bool DocumentStore::open(const std::string& uri, std::int64_t version, std::string text) {
    auto path = path_of_uri(uri);
    if (!path) return false;
    OpenDocument doc;
    doc.uri = uri;
    doc.path = fs::path(*path).lexically_normal().string();
    doc.canonical = canonical_of(doc.path);
    doc.version = version;
    doc.text = std::move(text);
    documents_[uri] = std::move(doc);
    return true;
}

bool DocumentStore::change(const std::string& uri, std::int64_t version, const std::vector<TextChange>& changes) {
    auto it = documents_.find(uri);
    if (it == documents_.end()) return false;
    for (const auto& c : changes) apply_change(it->second.text, c);
    it->second.version = version;
    // The file may have been created on disk since the document was opened.
    if (it->second.canonical.empty()) it->second.canonical = canonical_of(it->second.path);
    return true;
}

void DocumentStore::close(const std::string& uri) { documents_.erase(uri); }

const OpenDocument* DocumentStore::find(const std::string& uri) const {
    auto it = documents_.find(uri);
    return it == documents_.end() ? nullptr : &it->second;
}

const OpenDocument* DocumentStore::find_path(const std::string& path) const {
    for (const auto& [uri, doc] : documents_) {
        if (doc.path == path) return &doc;
    }
    return nullptr;
}

std::vector<const OpenDocument*> DocumentStore::in_directory(const std::string& dir) const {
    std::vector<const OpenDocument*> out;
    for (const auto& [uri, doc] : documents_) {
        if (module_dir_of(doc.path) == dir) out.push_back(&doc);
    }
    return out;
}

std::shared_ptr<const FileOverlays> DocumentStore::overlays() const {
    auto out = std::make_shared<FileOverlays>();
    for (const auto& [uri, doc] : documents_) {
        if (!doc.canonical.empty()) (*out)[doc.canonical] = doc.text;
    }
    return out;
}

}  // namespace tfsift::server
