#include "tfsift/report/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "report/report_common.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/settings.hpp"

namespace fs = std::filesystem;

namespace tfsift::report {

std::optional<Format> parse_format(std::string_view name) {
    for (Format f : {Format::text, Format::json, Format::sarif, Format::checkstyle, Format::junit, Format::compact,
                     Format::github, Format::gitlab, Format::rdjson}) {
        if (to_string(f) == name) return f;
    }
    return std::nullopt;
}

std::string_view to_string(Format f) {
    switch (f) {
        case Format::text: return "text";
        case Format::json: return "json";
        case Format::sarif: return "sarif";
        case Format::checkstyle: return "checkstyle";
        case Format::junit: return "junit";
        case Format::compact: return "compact";
        case Format::github: return "github";
        case Format::gitlab: return "gitlab";
        case Format::rdjson: return "rdjson";
    }
    return "text";
}

void write_report(Format format, const ReportInput& input, std::ostream& out) {
    switch (format) {
        case Format::text: write_text(input, out); break;
        case Format::json: write_json(input, out); break;
        case Format::sarif: write_sarif(input, out); break;
        case Format::checkstyle: write_checkstyle(input, out); break;
        case Format::junit: write_junit(input, out); break;
        case Format::compact: write_compact(input, out); break;
        case Format::github: write_github(input, out); break;
        case Format::gitlab: write_gitlab(input, out); break;
        case Format::rdjson: write_rdjson(input, out); break;
    }
}

std::string render_report(Format format, const ReportInput& input) {
    // A few KiB for each finding covers every format (SARIF, the largest,
    // takes about 1.5 KiB); beyond the reservation the string grows as usual.
    constexpr std::size_t per_finding = 4096;
    constexpr std::size_t most = std::size_t{1} << 30;
    const std::size_t estimate = std::min(most, (input.findings.size() + input.rules.size()) * per_finding + 65536);
    std::string text;
    try {
        text.reserve(estimate);
    } catch (const std::bad_alloc&) {
        // Reserved address space refused (strict overcommit): the string grows.
    }
    detail::StringSink sink(text);
    std::ostream out(&sink);
    // A string that cannot grow throws out of append; the stream would only
    // set badbit and stop writing, and the report come out cut short.
    out.exceptions(std::ios::badbit);
    write_report(format, input, out);
    if (!out) throw std::bad_alloc();
    return text;
}

void write_statistics(const lint::Findings& findings, std::ostream& out) {
    struct Row {
        std::string_view id;
        std::size_t count = 0;
        std::size_t fixable = 0;
    };
    std::map<std::string_view, Row> by_id;
    for (const auto& f : findings) {
        Row& row = by_id[f.rule_id];
        row.id = f.rule_id;
        ++row.count;
        if (f.fix) ++row.fixable;
    }
    std::vector<Row> rows;
    std::size_t width = 0;
    for (const auto& [id, row] : by_id) {
        rows.push_back(row);
        width = std::max(width, id.size());
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.count > b.count; });
    for (const Row& row : rows) {
        if (row.fixable == 0) {
            out << fmt::format("{:>6}  {}\n", row.count, row.id);
        } else {
            out << fmt::format("{:>6}  {:<{}}  ({} fixable)\n", row.count, row.id, width, row.fixable);
        }
    }
}

namespace {

// The prefix a path below `base_dir` starts with: the directory normalised,
// with a final '/'; empty for no directory.
std::string base_prefix(const std::string& base_dir) {
    if (base_dir.empty()) return {};
    std::string base = lint::absolute_normal_path(base_dir);
    if (base != "/") base += '/';
    return base;
}

std::string relative_to(const std::string& file_path, const std::string& prefix) {
    std::string abs = lint::absolute_normal_path(file_path);
    if (!prefix.empty() && abs.starts_with(prefix)) abs.erase(0, prefix.size());
    return abs;
}

}  // namespace

std::string relative_path(const std::string& file_path, const std::string& base_dir) {
    return relative_to(file_path, base_prefix(base_dir));
}

std::string find_repository_root(const std::string& start) {
    std::error_code ec;
    fs::path dir(lint::absolute_normal_path(start));
    if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
    for (fs::path d = dir;; d = d.parent_path()) {
        if (fs::exists(d / ".git", ec)) return d.generic_string();
        if (d.parent_path() == d || d.empty()) break;
    }
    return dir.generic_string();
}

namespace {

// The deepest directory holding both `a` and `b` (absolute, lexically
// normal), compared segment by segment as strings.
std::string common_directory(const std::string& a, const std::string& b) {
    const std::size_t n = std::min(a.size(), b.size());
    std::size_t i = 0;
    while (i < n && a[i] == b[i]) ++i;
    if (i == a.size() && (i == b.size() || b[i] == '/')) return a;
    if (i == b.size() && a[i] == '/') return b;
    // Back to the end of the last whole segment both share.
    const std::size_t slash = i == 0 ? std::string::npos : a.rfind('/', i - 1);
    if (slash == std::string::npos) return {};
    return slash == 0 ? std::string("/") : a.substr(0, slash);
}

}  // namespace

std::string report_root(const std::vector<std::string>& dirs) {
    if (dirs.empty()) return find_repository_root(".");
    std::string root = find_repository_root(dirs.front());
    std::error_code ec;
    if (fs::exists(fs::path(root) / ".git", ec)) return root;
    std::string common = lint::absolute_normal_path(dirs.front());
    for (const auto& d : dirs) common = common_directory(common, lint::absolute_normal_path(d));
    return common.empty() ? root : common;
}

namespace {

// The code point of a valid UTF-8 sequence of 2 to 4 bytes.
char32_t code_point(std::string_view seq) {
    auto byte = [&](std::size_t i) { return static_cast<char32_t>(static_cast<unsigned char>(seq[i])); };
    switch (seq.size()) {
        case 2: return ((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F);
        case 3: return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
        default:
            return ((byte(0) & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) | (byte(3) & 0x3F);
    }
}

// Characters that change how the text around them is shown without being
// seen themselves: C1 controls, the bidirectional embeddings, overrides and
// isolates (a reviewer would read `x.tf` where the file is `ft.x`),
// zero-width characters, Unicode's own line and paragraph separators and
// the byte order mark.
bool invisible_format_character(char32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || (cp >= 0x200B && cp <= 0x200F) ||
           (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF;
}

std::string escape(std::string_view text, bool one_line) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        // A run of printable ASCII (and of tabs and newlines where they may
        // stay) is copied at once: it is nearly all of any text.
        const std::size_t plain =
            i + byte_run(text.data() + i, text.data() + text.size(), detail::PrintableStops{!one_line});
        if (plain > i) {
            out.append(text.substr(i, plain - i));
            i = plain;
            continue;
        }
        auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (one_line && c == '\n') {
                out += "\\n";
            } else if (one_line && c == '\t') {
                out += "\\t";
            } else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
                out += fmt::format("\\x{:02X}", c);
            } else {
                out += static_cast<char>(c);
            }
            ++i;
            continue;
        }
        // Copy a valid UTF-8 sequence (detail::valid_utf8 decides), except
        // the invisible format characters above; escape a stray byte.
        std::size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
        std::string_view seq = text.substr(i, n);
        if (n > 1 && seq.size() == n && detail::valid_utf8(seq) == seq) {
            if (const char32_t cp = code_point(seq); invisible_format_character(cp)) {
                out += fmt::format("\\u{:04X}", static_cast<std::uint32_t>(cp));
            } else {
                out.append(seq);
            }
            i += n;
            continue;
        }
        out += fmt::format("\\x{:02X}", c);
        ++i;
    }
    return out;
}

}  // namespace

std::string escape_control_characters(std::string_view text) { return escape(text, false); }

std::string escape_line(std::string_view text) { return escape(text, true); }

namespace detail {

RelativePaths::RelativePaths(const std::string& base_dir) : prefix_(base_prefix(base_dir)) {}

const std::string& RelativePaths::of(const SourceFile& file) {
    auto [it, added] = paths_.try_emplace(&file);
    if (added) it->second = relative_to(file.path(), prefix_);
    return it->second;
}

bool SnippetGuard::may_quote(const SourceFile& file) {
    if (roots_.empty()) return true;
    auto [it, added] = verdicts_.try_emplace(&file, false);
    if (added) {
        // A text read relative to its directory, no link followed, lies
        // where that directory does.
        const std::string& dir = file.real_directory();
        for (const auto& root : roots_) {
            if (dir.empty() ? resolves_inside(file.path(), root) : real_path_inside(dir, root)) {
                it->second = true;
                break;
            }
        }
    }
    return it->second;
}

std::string valid_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        if ((c & 0xE0) == 0xC0) {
            n = 2;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 3;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 4;
            cp = c & 0x07;
        }
        bool ok = n != 0 && i + n <= s.size();
        for (std::size_t k = 1; ok && k < n; ++k) {
            auto cc = static_cast<unsigned char>(s[i + k]);
            if ((cc & 0xC0) != 0x80) ok = false;
            cp = (cp << 6) | (cc & 0x3F);
        }
        // Reject overlong forms, surrogates and values past U+10FFFF.
        if (ok) {
            static constexpr std::uint32_t min_for[] = {0, 0, 0x80, 0x800, 0x10000};
            ok = cp >= min_for[n] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        }
        if (ok) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            out += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return out;
}

std::string fit_text(std::string_view raw, std::size_t max_bytes) {
    std::string text = valid_utf8(raw);
    if (text.size() <= max_bytes) return text;
    static constexpr std::string_view ellipsis = "\u2026";
    // Never split a UTF-8 sequence: back up to the first byte of one.
    auto boundary = [&](std::size_t n) {
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
        return n;
    };
    std::string_view window(text.data(), boundary(max_bytes));
    // A sentence ends with ". " or ".\n"; keep the longest run of whole
    // sentences, unless that would drop most of the text.
    std::size_t best = std::string_view::npos;
    for (std::size_t i = 0; i + 1 < window.size(); ++i) {
        if (window[i] == '.' && (window[i + 1] == ' ' || window[i + 1] == '\n')) best = i + 1;
    }
    if (window.size() < text.size() && text[window.size()] == ' ' && window.back() == '.') best = window.size();
    if (best != std::string_view::npos && best >= max_bytes / 4) return std::string(window.substr(0, best));
    std::string_view cut = std::string_view(text).substr(0, boundary(max_bytes - ellipsis.size()));
    if (auto space = cut.rfind(' '); space != std::string_view::npos && space >= max_bytes / 4)
        cut = cut.substr(0, space);
    return std::string(cut) + std::string(ellipsis);
}

std::string xml_escape(std::string_view raw) {
    std::string s = valid_utf8(raw);
    std::string out;
    out.reserve(s.size());
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            case '\n': out += "&#10;"; break;
            case '\r': out += "&#13;"; break;
            case '\t': out += "&#9;"; break;
            default:
                if (c < 0x20) break;  // not allowed in XML 1.0
                out += ch;
        }
    }
    return out;
}

std::uint32_t utf16_column(const SourceFile& file, Pos pos) { return file.utf16_column(pos); }

}  // namespace detail
}  // namespace tfsift::report
