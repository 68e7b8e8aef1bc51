#include "tfsift/config/paths.hpp"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <vector>

namespace tfsift::config {

std::string clean_path(std::string_view path) {
    if (path.empty()) return ".";
    const bool rooted = path.front() == '/';
    std::vector<std::string_view> parts;
    std::size_t i = 0;
    while (i <= path.size()) {
        std::size_t j = path.find('/', i);
        if (j == std::string_view::npos) j = path.size();
        std::string_view part = path.substr(i, j - i);
        i = j + 1;
        if (part.empty() || part == ".") continue;
        if (part == "..") {
            if (!parts.empty() && parts.back() != "..") {
                parts.pop_back();
            } else if (!rooted) {
                parts.push_back(part);  // a relative path may climb above its start
            }
            continue;
        }
        parts.push_back(part);
    }
    std::string out = rooted ? "/" : "";
    for (std::size_t k = 0; k < parts.size(); ++k) {
        if (k > 0) out += '/';
        out += parts[k];
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
std::string working_directory_seen;  // empty: not asked yet, or not absolute

}  // namespace

std::string working_directory() {
    const std::lock_guard<std::mutex> lock(working_directory_mutex);
    if (working_directory_seen.empty()) {
        std::array<char, 4096> cwd{};
        if (::getcwd(cwd.data(), cwd.size()) != nullptr && cwd[0] == '/') working_directory_seen = cwd.data();
    }
    return working_directory_seen;
}

void working_directory_changed() {
    const std::lock_guard<std::mutex> lock(working_directory_mutex);
    working_directory_seen.clear();
}

std::string absolute_normal_path(const std::string& path) {
    // The lint asks this for every file and finding: the common case (a
    // path that is, or joined to the working directory becomes, absolute)
    // is normalized by hand, the way lexically_normal does, without building
    // a path object per component.
    std::error_code ec;
    std::string joined;
    if (!path.empty() && path.front() == '/') {
        joined = path;
    } else if (!path.empty()) {
        // The lint calls this for every relative file name it meets: the
        // working directory is asked for once (std::filesystem::current_path
        // would also build a path object each time).
        const std::string cwd = working_directory();
        if (!cwd.empty()) {
            joined.reserve(cwd.size() + 1 + path.size());
            joined.append(cwd).append("/").append(path);
        }
    }
    if (joined.empty()) {
        std::filesystem::path p = std::filesystem::absolute(std::filesystem::path(path), ec);
        if (ec) p = std::filesystem::path(path);
        std::string out = p.lexically_normal().generic_string();
        while (out.size() > 1 && out.back() == '/') out.pop_back();
        return out;
    }
    std::vector<std::string_view> parts;
    const std::string_view all(joined);
    for (std::size_t at = 0; at < all.size();) {
        std::size_t end = all.find('/', at);
        if (end == std::string_view::npos) end = all.size();
        const std::string_view part = all.substr(at, end - at);
        if (part == "..") {
            if (!parts.empty()) parts.pop_back();  // above the root is the root
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        at = end + 1;
    }
    std::string out;
    out.reserve(joined.size());
    for (const auto& part : parts) {
        out += '/';
        out += part;
    }
    return out.empty() ? std::string("/") : out;
}

}  // namespace tfsift::config
