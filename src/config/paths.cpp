#include "tfsift/config/paths.hpp"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <mutex>
#include <system_error>

namespace tfsift::config {

std::string clean_path(std::string_view path) {
    if (path.empty()) return ".";
    // Built in place, element by element: `..` takes the last element off
    // again. The `..` elements that stay (a relative path climbing above its
    // start) can only lead the result, up to `climbed`.
    const bool rooted = path.front() == '/';
    std::string out;
    out.reserve(path.size() + 1);
    if (rooted) out.push_back('/');
    const std::size_t first = out.size();  // where the first element starts
    std::size_t climbed = first;
    std::size_t i = 0;
    while (i <= path.size()) {
        std::size_t j = path.find('/', i);
        if (j == std::string_view::npos) j = path.size();
        const std::string_view part = path.substr(i, j - i);
        i = j + 1;
        if (part.empty() || part == ".") continue;
        if (part == "..") {
            if (out.size() > climbed) {
                const std::size_t slash = out.rfind('/');
                out.resize(slash == std::string::npos || slash < first ? first : slash);
            } else if (!rooted) {
                if (out.size() > first) out += '/';
                out += "..";
                climbed = out.size();
            }
            continue;
        }
        if (out.size() > first) out += '/';
        out += part;
    }
    if (out.empty()) out = ".";
    return out;
}

std::string join_path(std::string_view dir, std::string_view relative) {
    if (dir.empty() || dir == ".") return clean_path(relative);
    std::string joined(dir);
    joined += '/';
    joined += relative;
    return clean_path(joined);
}

bool is_local_module_source(std::string_view source) { return source.starts_with("./") || source.starts_with("../"); }

std::string normalize_local_module_source(std::string_view source) {
    std::string clean = clean_path(source);
    if (!clean.starts_with("../")) clean.insert(0, "./");
    return clean;
}

namespace {

std::mutex working_directory_mutex;
std::string working_directory_seen;    // empty: not asked yet, or not absolute
std::string working_directory_normal;  // working_directory_seen normalized ("" for the root)

// Appends the components of `s` to `out`, an absolute path being built ("",
// the root, or "/a/b"), the way lexically_normal does: empty components and
// `.` are dropped, and `..` takes the last component off (above the root is
// the root).
void append_normal(std::string& out, std::string_view s) {
    for (std::size_t at = 0; at < s.size();) {
        std::size_t end = s.find('/', at);
        if (end == std::string_view::npos) end = s.size();
        const std::string_view part = s.substr(at, end - at);
        if (part == "..") {
            const std::size_t last = out.rfind('/');
            out.resize(last == std::string::npos ? 0 : last);
        } else if (!part.empty() && part != ".") {
            out += '/';
            out += part;
        }
        at = end + 1;
    }
}

// Asks for the working directory when it is not known yet; the caller holds
// working_directory_mutex.
void remember_working_directory() {
    if (!working_directory_seen.empty()) return;
    std::array<char, 4096> cwd{};
    if (::getcwd(cwd.data(), cwd.size()) == nullptr || cwd[0] != '/') return;
    working_directory_seen = cwd.data();
    working_directory_normal.clear();
    append_normal(working_directory_normal, working_directory_seen);
}

}  // namespace

std::string working_directory() {
    const std::lock_guard<std::mutex> lock(working_directory_mutex);
    remember_working_directory();
    return working_directory_seen;
}

void working_directory_changed() {
    const std::lock_guard<std::mutex> lock(working_directory_mutex);
    working_directory_seen.clear();
    working_directory_normal.clear();
}

namespace {

// Appends the working directory, normalized, to `out` (the directory is
// asked for and normalized once); false when it is not known as an
// absolute path.
bool append_working_directory(std::string& out, std::size_t more) {
    const std::lock_guard<std::mutex> lock(working_directory_mutex);
    remember_working_directory();
    if (working_directory_seen.empty()) return false;
    out.reserve(working_directory_normal.size() + 1 + more);
    out += working_directory_normal;
    return true;
}

}  // namespace

std::string absolute_normal_path(const std::string& path) {
    // The lint asks this for every file and finding: the common case (a
    // path that is, or joined to the working directory becomes, absolute)
    // is normalized by hand, the way lexically_normal does, component by
    // component into the result, with no path object, joined copy or list
    // of components in between.
    std::string out;
    bool absolute = false;
    if (!path.empty() && path.front() == '/') {
        out.reserve(path.size());
        absolute = true;
    } else if (!path.empty()) {
        absolute = append_working_directory(out, path.size());
    }
    if (!absolute) {
        std::error_code ec;
        std::filesystem::path p = std::filesystem::absolute(std::filesystem::path(path), ec);
        if (ec) p = std::filesystem::path(path);
        out = p.lexically_normal().generic_string();
        while (out.size() > 1 && out.back() == '/') out.pop_back();
        return out;
    }
    append_normal(out, path);
    return out.empty() ? std::string("/") : out;
}

}  // namespace tfsift::config
