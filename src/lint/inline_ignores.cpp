#include "tfsift/lint/inline_ignores.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "tfsift/lint/tflint_import.hpp"

namespace tfsift::lint {
namespace {

constexpr std::string_view marker = "tfsift-ignore";
constexpr std::string_view tflint_marker = "tflint-ignore";
static_assert(marker.size() == tflint_marker.size());

bool is_space(char c) { return c == ' ' || c == '\t'; }

bool is_id_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.';
}

// Where the text of a line comment starts, after its sign and spaces, or
// npos for a block comment (never an ignore comment).
std::size_t comment_text_start(std::string_view text, hcl::CommentStyle style) {
    std::size_t i = 0;
    if (style == hcl::CommentStyle::hash) {
        i = 1;
    } else if (style == hcl::CommentStyle::slashes) {
        i = 2;
    } else {
        return std::string_view::npos;
    }
    while (i < text.size() && is_space(text[i])) ++i;
    return i;
}

// Whether the comment may be an ignore comment: its text starts with
// "tfsift-ignore" or "tflint-ignore". Most comments are prose, told apart
// by this before anything is made for them.
bool may_be_ignore(const SourceFile& src, const hcl::Comment& c) {
    const std::string_view text = src.text().substr(c.range.start.byte, c.range.end.byte - c.range.start.byte);
    const std::size_t i = comment_text_start(text, c.style);
    if (i == std::string_view::npos) return false;
    const std::string_view rest = text.substr(i);
    // Both markers start "tf": a byte compared settles nearly every comment.
    if (rest.size() < marker.size() || rest[0] != 't' || rest[1] != 'f') return false;
    return rest.starts_with(marker) || rest.starts_with(tflint_marker);
}

// Parses one comment; returns false when it is not an ignore comment.
bool parse_ignore(const SourceFile& src, const hcl::Comment& c, IgnoreComment& out) {
    std::string_view text = src.text().substr(c.range.start.byte, c.range.end.byte - c.range.start.byte);
    std::size_t i = comment_text_start(text, c.style);
    if (i == std::string_view::npos) return false;  // block comments are not ignore comments
    if (text.substr(i, tflint_marker.size()) == tflint_marker) {
        out.from_tflint = true;
    } else if (text.substr(i, marker.size()) != marker) {
        return false;
    }
    i += marker.size();
    if (text.substr(i, 5) == "-file") {
        out.whole_file = true;
        i += 5;
    }
    if (i >= text.size() || text[i] != ':') return false;
    ++i;
    // The reason starts at `--`; the ids come before it. A further comment
    // marker also ends the ids, so that another tool's trailing comment
    // (`# expect: ...` in tfsift's own fixtures) is not taken for ids.
    std::size_t reason_at = text.find("--", i);
    std::size_t ids_end = reason_at == std::string_view::npos ? text.size() : reason_at;
    ids_end = std::min({ids_end, text.find('#', i), text.find("//", i)});
    if (reason_at != std::string_view::npos) {
        std::string_view reason = text.substr(reason_at + 2);
        while (!reason.empty() && is_space(reason.front())) reason.remove_prefix(1);
        while (!reason.empty() && (is_space(reason.back()) || reason.back() == '\r')) reason.remove_suffix(1);
        out.reason = std::string(reason);
    }
    while (i < ids_end) {
        while (i < ids_end && (is_space(text[i]) || text[i] == ',')) ++i;
        std::size_t start = i;
        while (i < ids_end && !is_space(text[i]) && text[i] != ',') ++i;
        if (i > start) {
            std::uint32_t base = c.range.start.byte;
            std::string_view id = text.substr(start, i - start);
            // Trailing junk such as a stray '\r' is not part of an id.
            while (!id.empty() && !is_id_char(id.back())) id.remove_suffix(1);
            if (id.empty()) continue;
            const Range range{Pos{base + static_cast<std::uint32_t>(start)},
                              Pos{base + static_cast<std::uint32_t>(start + id.size())}};
            if (out.from_tflint) {
                // TFLint's names stand for the tfsift rules of the migration
                // table; the others are TFLint's business.
                for (auto mapped : tfsift_rules_for_tflint(id))
                    out.rules.push_back({std::string(mapped), range, false});
                continue;
            }
            out.rules.push_back({std::string(id), range, false});
        }
    }
    out.comment = c.range;
    out.line = src.line(c.range.start);
    return true;
}

}  // namespace

std::vector<IgnoreComment> find_ignore_comments(const hcl::File& file) {
    std::vector<IgnoreComment> out;
    if (!file.source) return out;
    for (const hcl::Comment& c : file.comments) {
        if (!may_be_ignore(*file.source, c)) continue;
        IgnoreComment ic;
        if (parse_ignore(*file.source, c, ic)) out.push_back(std::move(ic));
    }
    return out;
}

void apply_ignore_comments(const SourceFile& file, std::vector<IgnoreComment>& ignores, Findings& findings) {
    // Indexed once, so that each finding looks only at the comments that
    // can cover it: those on its line or the line before, and the
    // file-wide ones naming its rule.
    std::unordered_map<std::uint32_t, std::vector<IgnoreComment*>> by_line;
    std::unordered_map<std::string_view, std::vector<IgnoredRule*>> file_wide;
    for (IgnoreComment& ic : ignores) {
        if (ic.whole_file) {
            for (IgnoredRule& r : ic.rules) file_wide[r.rule_id].push_back(&r);
        } else {
            by_line[ic.line].push_back(&ic);
        }
    }
    auto suppressed = [&](const Finding& f) {
        if (f.file->path() != file.path()) return false;
        bool hit = false;
        // Every covering comment counts as used, not only the first.
        if (auto it = file_wide.find(f.rule_id); it != file_wide.end()) {
            for (IgnoredRule* r : it->second) r->used = true;
            hit = true;
        }
        const std::uint32_t line = f.file->line(f.range.start);
        for (const std::uint32_t comment_line : {line, line - 1}) {
            auto it = by_line.find(comment_line);
            if (it == by_line.end()) continue;
            for (IgnoreComment* ic : it->second) {
                for (IgnoredRule& r : ic->rules) {
                    if (r.rule_id == f.rule_id) {
                        r.used = true;
                        hit = true;
                    }
                }
            }
        }
        return hit;
    };
    findings.erase(std::remove_if(findings.begin(), findings.end(), suppressed), findings.end());
}

}  // namespace tfsift::lint
