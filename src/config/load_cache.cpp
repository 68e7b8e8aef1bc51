#include "tfsift/config/load_cache.hpp"

#include <filesystem>
#include <iterator>
#include <system_error>
#include <utility>

#include "tfsift/config/decode.hpp"

namespace fs = std::filesystem;

namespace tfsift::config {

namespace {

// Variants of one file kept at once: the names a module's files get differ
// only when several roots reach it by different spellings.
constexpr std::size_t max_variants = 4;

std::string normal_path(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::absolute(fs::path(path), ec);
    if (ec) p = fs::path(path);
    std::string out = p.lexically_normal().string();
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
}

std::string canonical_path(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::path(path), ec);
    if (ec) return normal_path(path);
    std::string out = p.generic_string();
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
}

// Erases the entries of `map` whose key names a file directly inside `dir`.
template <typename Map>
void erase_directly_inside(Map& map, const std::string& dir) {
    const std::string prefix = dir == "/" ? dir : dir + "/";
    for (auto it = map.lower_bound(prefix); it != map.end() && it->first.starts_with(prefix);) {
        it = it->first.find('/', prefix.size()) == std::string::npos ? map.erase(it) : std::next(it);
    }
}

}  // namespace

std::shared_ptr<const CachedFile> LoadCache::find(const std::string& path, const std::string& variant,
                                                  std::string_view text) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = files_.find(path);
    if (it == files_.end()) return nullptr;
    auto v = it->second.find(variant);
    if (v == it->second.end() || v->second->parsed->source->text() != text) return nullptr;
    return v->second;
}

void LoadCache::store(const std::string& path, const std::string& variant, std::shared_ptr<const CachedFile> file) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& variants = files_[path];
    variants[variant] = std::move(file);
    while (variants.size() > max_variants) {
        auto other = variants.begin();
        if (other->first == variant) ++other;
        variants.erase(other);
    }
}

void LoadCache::keep_directory(const std::string& dir, const std::string& key, std::shared_ptr<const void> directory) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& kept = directories_[dir];
    kept[key] = std::move(directory);
    while (kept.size() > max_variants) {
        auto other = kept.begin();
        if (other->first == key) ++other;
        kept.erase(other);
    }
}

void LoadCache::forget_file(const std::string& path) {
    const std::string normal = normal_path(path);
    const std::string canonical = canonical_path(path);
    std::lock_guard<std::mutex> lock(mutex_);
    files_.erase(normal);
    files_.erase(canonical);
    // The directory kept whole holds the file's parse too.
    const std::string dir = fs::path(canonical).parent_path().generic_string();
    directories_.erase(dir);
}

void LoadCache::forget_directory(const std::string& dir) {
    const std::string normal = normal_path(dir);
    const std::string canonical = canonical_path(dir);
    std::lock_guard<std::mutex> lock(mutex_);
    erase_directly_inside(files_, normal);
    erase_directly_inside(files_, canonical);
    directories_.erase(canonical);
}

void LoadCache::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    files_.clear();
    directories_.clear();
}

LoadCache::Size LoadCache::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    Size out;
    for (const auto& [path, variants] : files_) out.files += variants.size();
    for (const auto& [dir, kept] : directories_) out.directories += kept.size();
    return out;
}

}  // namespace tfsift::config
