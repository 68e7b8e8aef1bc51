// Temporary directories for tests that build files on disk.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

namespace tfsift::testing {

// A fresh directory under the system's temporary directory, removed with
// everything in it when the test ends.
struct ScratchDir {
    std::filesystem::path path;

    explicit ScratchDir(const std::string& prefix = "tfsift-test") {
        std::random_device rd;
        path = std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(rd()));
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
};

// Writes `content` to `path`, making the directories above it.
inline void write_file(const std::filesystem::path& path, const std::string& content) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
}

// The whole content of `path` (empty when it cannot be read).
inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Creates the files, directories and symlinks a reference vector describes:
// an array of {"path", and one of "content" | "dir" | "symlink"}.
inline void build_tree(const std::filesystem::path& root, const nlohmann::json& tree) {
    std::filesystem::create_directories(root);
    for (const auto& node : tree) {
        const std::filesystem::path target = root / node["path"].get<std::string>();
        std::filesystem::create_directories(target.parent_path());
        if (node.contains("symlink")) {
            std::filesystem::create_symlink(node["symlink"].get<std::string>(), target);
        } else if (node.contains("dir")) {
            std::filesystem::create_directories(target);
        } else {
            std::ofstream(target, std::ios::binary) << node["content"].get<std::string>();
        }
    }
}

}  // namespace tfsift::testing
