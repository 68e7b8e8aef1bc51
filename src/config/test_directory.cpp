#include "tfsift/config/test_directory.hpp"

#include <vector>

namespace tfsift::config {

namespace {

std::vector<std::string_view> components(std::string_view path) {
    std::vector<std::string_view> out;
    while (!path.empty()) {
        const auto slash = path.find('/');
        const std::string_view part = path.substr(0, slash);
        if (!part.empty() && part != ".") out.push_back(part);
        if (slash == std::string_view::npos) break;
        path.remove_prefix(slash + 1);
    }
    return out;
}

}  // namespace

std::optional<std::string> normal_test_directory(std::string_view written, std::string& why) {
    if (written.starts_with('/')) {
        why = "must be a path relative to the module directory, not an absolute one";
        return std::nullopt;
    }
    if (written.find('\\') != std::string_view::npos) {
        why = "must separate its directories with /";
        return std::nullopt;
    }
    std::string out;
    for (std::string_view part : components(written)) {
        if (part == "..") {
            why = "must name a directory below the module directory, without ..";
            return std::nullopt;
        }
        if (!out.empty()) out += '/';
        out += part;
    }
    if (out.empty()) {
        why =
            "must name a directory below the module directory (the module directory's own test files are always read)";
        return std::nullopt;
    }
    return out;
}

std::optional<std::string> module_dir_above_test_directory(std::string_view dir, std::string_view test_directory) {
    std::vector<std::string_view> parts = components(dir);
    const std::vector<std::string_view> tail = components(test_directory);
    if (tail.empty() || parts.size() < tail.size()) return std::nullopt;
    for (std::size_t i = 0; i < tail.size(); ++i) {
        if (parts[parts.size() - tail.size() + i] != tail[i]) return std::nullopt;
    }
    // The directory as written, up to where the test directory starts.
    std::string_view rest = dir;
    auto last = [&rest] {
        const auto slash = rest.rfind('/');
        return slash == std::string_view::npos ? rest : rest.substr(slash + 1);
    };
    auto drop_last = [&rest] {
        const auto slash = rest.rfind('/');
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(0, slash == 0 ? 1 : slash);
    };
    for (std::size_t i = 0; i < tail.size(); ++i) {
        while (!rest.empty() && rest != "/" && (last().empty() || last() == ".")) drop_last();
        drop_last();
    }
    if (rest.empty()) return std::string(".");
    return std::string(rest);
}

}  // namespace tfsift::config
