#include "tfsift/lint/gitignore.hpp"

#include <filesystem>

#include "tfsift/file_read.hpp"
#include "tfsift/lint/glob.hpp"
#include "tfsift/lint/settings.hpp"

namespace fs = std::filesystem;

namespace tfsift::lint {

GitignoreFile::GitignoreFile(std::string_view text) {
    std::size_t begin = 0;
    while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(begin, end - begin));
        begin = end + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        // Trailing blanks are dropped unless escaped.
        while (!line.empty() && line.back() == ' ' && (line.size() < 2 || line[line.size() - 2] != '\\'))
            line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        Pattern p;
        if (line[0] == '!') {
            p.negated = true;
            line.erase(0, 1);
        } else if (line[0] == '\\') {
            line.erase(0, 1);
        }
        // Only directories are asked about, so a trailing '/' changes nothing.
        while (!line.empty() && line.back() == '/') line.pop_back();
        if (line.empty()) continue;
        if (line[0] == '/') {
            p.anchored = true;
            line.erase(0, 1);
        } else if (line.find('/') != std::string::npos) {
            p.anchored = true;  // a slash inside anchors it too
        }
        if (line.rfind("**/", 0) == 0) {
            p.anchored = false;
            line.erase(0, 3);
        }
        p.glob = std::move(line);
        patterns_.push_back(std::move(p));
    }
}

int GitignoreFile::verdict(std::string_view relative) const {
    int out = 0;
    const std::size_t slash = relative.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? relative : relative.substr(slash + 1);
    for (const Pattern& p : patterns_) {
        bool hit = false;
        if (p.anchored) {
            hit = glob_match(p.glob, relative);
        } else if (p.glob.find('/') == std::string::npos) {
            hit = glob_match(p.glob, name);
        } else {
            // `**/a/b`: the pattern at any depth.
            for (std::size_t at = 0;;) {
                if (glob_match(p.glob, relative.substr(at))) {
                    hit = true;
                    break;
                }
                at = relative.find('/', at);
                if (at == std::string_view::npos) break;
                ++at;
            }
        }
        if (hit) out = p.negated ? -1 : 1;
    }
    return out;
}

GitignoreFilter::GitignoreFilter(std::string repository_root, const ScanListings* listings)
    : root_(absolute_normal_path(repository_root)), listings_(listings) {}

const GitignoreFile* GitignoreFilter::file_in(const std::string& dir) {
    auto it = has_file_.find(dir);
    if (it == has_file_.end()) {
        if (ScanListings::Entries listed = listings_ != nullptr ? listings_->find(dir) : nullptr) {
            if (!lists_entry(*listed, ".gitignore")) {
                has_file_.emplace(dir, false);
                return nullptr;
            }
        }
        // Read as any file (up to the default max_file_size): a large
        // .gitignore is still the user's, and one that cannot be read is said.
        const FileContent content = read_regular_file(dir + "/.gitignore", ReadPolicy{root_});
        it = has_file_.emplace(dir, content.ok()).first;
        if (content.ok()) {
            files_.emplace(dir, GitignoreFile(content.bytes));
        } else if (content.failure != ReadFailure::missing) {
            unreadable_.push_back(content.message);
        }
    }
    return it->second ? &files_.at(dir) : nullptr;
}

bool GitignoreFilter::ignored(const std::string& dir) {
    const std::string prefix = root_ == "/" ? root_ : root_ + "/";
    if (dir.compare(0, prefix.size(), prefix) != 0) return false;
    // Each directory from the top: ignored when the nearest .gitignore above
    // it with a verdict says so; below an ignored directory, everything is.
    std::string current = root_;
    std::vector<std::string> ancestors{root_};
    std::size_t at = prefix.size();
    while (at <= dir.size()) {
        std::size_t end = dir.find('/', at);
        if (end == std::string::npos) end = dir.size();
        current = dir.substr(0, end);
        int verdict = 0;
        for (auto a = ancestors.rbegin(); a != ancestors.rend() && verdict == 0; ++a) {
            if (const GitignoreFile* f = file_in(*a)) {
                const std::string base = *a == "/" ? *a : *a + "/";
                verdict = f->verdict(std::string_view(current).substr(base.size()));
            }
        }
        if (verdict == 1) return true;
        ancestors.push_back(current);
        at = end + 1;
    }
    return false;
}

std::vector<std::string> drop_gitignored(const std::vector<std::string>& dirs, const std::string& repository_root,
                                         const ScanListings* listings, std::vector<std::string>* unreadable) {
    GitignoreFilter filter(repository_root, listings);
    std::vector<std::string> out;
    for (const auto& d : dirs) {
        if (!filter.ignored(absolute_normal_path(d))) out.push_back(d);
    }
    if (unreadable != nullptr) *unreadable = filter.unreadable();
    return out;
}

}  // namespace tfsift::lint
