#include "tfsift/lint/apply_fixes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>
#include <tuple>

#include "tfsift/atomic_write.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/settings.hpp"

namespace tfsift::lint {

namespace {

struct ByteEdit {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    std::string replacement;
    auto key() const { return std::tie(begin, end, replacement); }
    bool operator==(const ByteEdit& o) const { return key() == o.key(); }
    bool operator<(const ByteEdit& o) const { return key() < o.key(); }
};

// One fix, its edits grouped by file and sorted.
using EditsByFile = std::map<std::string, std::vector<ByteEdit>>;

bool overlaps(const ByteEdit& a, const ByteEdit& b) {
    if (a.begin == b.begin) return true;
    return std::max(a.begin, b.begin) < std::min(a.end, b.end);
}

std::string apply_sorted(std::string_view text, const std::vector<ByteEdit>& edits) {
    std::string out;
    out.reserve(text.size());
    std::uint32_t at = 0;
    for (const ByteEdit& e : edits) {
        out.append(text.substr(at, e.begin - at));
        out.append(e.replacement);
        at = e.end;
    }
    out.append(text.substr(at));
    return out;
}

// The directory a symlinked file may lead into: the repository holding the
// link (the nearest directory upward with `.git`), else the link's own
// directory.
std::filesystem::path link_boundary(const std::filesystem::path& link) {
    const std::filesystem::path dir = std::filesystem::path(absolute_normal_path(link.string())).parent_path();
    std::error_code ec;
    for (std::filesystem::path d = dir;; d = d.parent_path()) {
        if (std::filesystem::exists(d / ".git", ec)) return std::filesystem::canonical(d, ec);
        if (d.parent_path() == d || d.empty()) break;
    }
    return std::filesystem::canonical(dir, ec);
}

bool lies_within(const std::filesystem::path& root, const std::filesystem::path& target) {
    auto t = target.begin();
    for (const auto& part : root) {
        if (t == target.end() || *t != part) return false;
        ++t;
    }
    return true;
}

// Why a fix must not be written through `path` when it is a symlink: one
// leading outside the repository (its target is not the project's to edit).
std::string link_refusal(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_symlink(path, ec)) return {};
    const auto target = write_target(path);
    if (!target) return fmt::format("{}: a symlink whose target does not exist; not fixed", path);
    const std::filesystem::path boundary = link_boundary(path);
    if (boundary.empty() || !lies_within(boundary, *target)) {
        return fmt::format("{}: a symlink to {}, outside {}; not fixed", path, target->string(),
                           boundary.empty() ? std::string("its directory") : boundary.string());
    }
    return {};
}

// Creates `path` with `text` atomically, unless a file appeared there
// meanwhile: empty when done, else why not.
std::string create_file(const std::string& path, const std::string& text) {
    AtomicWriteOptions options;
    options.before_replace = [&path]() -> std::string {
        std::error_code ec;
        if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return {};
        return fmt::format("{}: the file was created while it was linted; not fixed", path);
    };
    auto written = atomic_write_file(path, text, options);
    if (!written.ok()) return fmt::format("{}: {}", path, written.error);
    return {};
}

}  // namespace

FixPlan plan_fixes(const Findings& findings, FixMode mode) {
    struct Candidate {
        EditsByFile edits;
        std::tuple<std::string, std::uint32_t, std::uint32_t> first;  // file, begin, end of the first edit
        const Finding* finding = nullptr;
    };
    FixPlan plan;
    // Edits are grouped by the file's absolute path: a module loaded both on
    // its own and as another module's child may name one file two ways.
    std::map<std::string, std::string_view> texts;  // by absolute path
    std::map<std::string, std::string> named;       // absolute path -> path as first named
    std::vector<Candidate> candidates;
    for (const Finding& f : findings) {
        if (!f.fix || f.fix->edits.empty()) continue;
        if (f.fix->applicability == Applicability::unsafe && mode != FixMode::include_unsafe) continue;
        Candidate c;
        c.finding = &f;
        bool valid = true;
        for (const TextEdit& e : f.fix->edits) {
            const auto& src = e.file ? e.file : f.file;
            std::string_view text = src->text();
            if (e.range.start.byte > e.range.end.byte || e.range.end.byte > text.size()) {
                valid = false;
                break;
            }
            std::string key = absolute_normal_path(src->path());
            texts.emplace(key, text);
            named.emplace(key, src->path());
            c.edits[key].push_back({e.range.start.byte, e.range.end.byte, e.replacement});
        }
        if (!valid) continue;
        for (auto& [path, edits] : c.edits) std::sort(edits.begin(), edits.end());
        const auto& [path, edits] = *c.edits.begin();
        c.first = {path, edits.front().begin, edits.front().end};
        candidates.push_back(std::move(c));
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.first < b.first; });

    std::vector<EditsByFile> taken;
    EditsByFile accepted;
    for (const Candidate& c : candidates) {
        if (std::find(taken.begin(), taken.end(), c.edits) != taken.end()) {
            ++plan.findings_fixed;
            continue;
        }
        bool conflict = false;
        for (const auto& [path, edits] : c.edits) {
            // The fix's own edits must not overlap each other either.
            for (std::size_t i = 0; i + 1 < edits.size() && !conflict; ++i) conflict = overlaps(edits[i], edits[i + 1]);
            auto it = accepted.find(path);
            if (it == accepted.end()) continue;
            for (const ByteEdit& e : edits) {
                for (const ByteEdit& a : it->second) conflict = conflict || overlaps(e, a);
            }
        }
        if (conflict) {
            ++plan.conflicts_skipped;
            continue;
        }
        for (const auto& [path, edits] : c.edits) {
            auto& into = accepted[path];
            into.insert(into.end(), edits.begin(), edits.end());
        }
        taken.push_back(c.edits);
        ++plan.findings_fixed;
        const Finding& f = *c.finding;
        const ResolvedPos at = f.file->resolve(f.range.start);
        plan.applied.push_back(
            fmt::format("{}:{}:{}: {}: {}", f.file->path(), at.line, at.column, f.rule_id, f.fix->description));
    }
    for (auto& [path, edits] : accepted) {
        std::sort(edits.begin(), edits.end());
        std::string_view text = texts.at(path);
        plan.old_text[named.at(path)] = std::string(text);
        plan.new_text[named.at(path)] = apply_sorted(text, edits);
    }
    return plan;
}

FixWriteResult write_fixes(const FixPlan& plan) {
    FixWriteResult result;
    for (const auto& [path, text] : plan.new_text) {
        // Read only up to the size the file had when it was linted: a larger
        // file has changed.
        const std::string& linted = plan.old_text.at(path);
        FileContent on_disk = read_regular_file(path, ReadPolicy{std::string(), true, linted.size()});
        if (on_disk.failure == ReadFailure::missing && linted.empty()) {
            // A file the fixes were computed against as empty that does not
            // exist is one they create (a root module's missing lock file).
            if (auto created = create_file(path, text); !created.empty()) {
                result.errors.push_back(created);
            } else {
                result.written.push_back(path);
            }
            continue;
        }
        if (on_disk.failure == ReadFailure::too_large || (on_disk.ok() && on_disk.bytes != linted)) {
            result.errors.push_back(fmt::format("{}: the file changed while it was linted; not fixed", path));
            continue;
        }
        if (!on_disk.ok()) {
            result.errors.push_back(fmt::format("cannot read the file to fix it: {}", on_disk.message));
            continue;
        }
        if (text == on_disk.bytes) continue;
        if (auto refusal = link_refusal(path); !refusal.empty()) {
            result.errors.push_back(refusal);
            continue;
        }
        AtomicWriteOptions options;
        // Checked again once the new text is on disk, just before it replaces
        // the file. (A named reference: clang 14 cannot capture a structured binding.)
        const std::string& file = path;
        options.before_replace = [&file, &linted]() -> std::string {
            FileContent now = read_regular_file(file, ReadPolicy{std::string(), true, linted.size()});
            if (now.ok() && now.bytes == linted) return {};
            return fmt::format("{}: the file changed while it was linted; not fixed", file);
        };
        auto written = atomic_write_file(path, text, options);
        if (!written.ok()) {
            result.errors.push_back(fmt::format("{}: {}", path, written.error));
            continue;
        }
        result.written.push_back(path);
    }
    return result;
}

}  // namespace tfsift::lint
