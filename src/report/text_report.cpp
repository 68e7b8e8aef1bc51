// The report for people: compiler-style locations, the source line with a
// caret underline, and a summary.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

struct Style {
    bool on;
    // Appends `text`, in the colour `code` when colours are on.
    void append(std::string& out, std::string_view code, std::string_view text) const {
        if (!on) {
            out += text;
            return;
        }
        out += "\x1b[";
        out += code;
        out += 'm';
        out += text;
        out += "\x1b[0m";
    }
};

std::string_view severity_colour(Severity s) {
    switch (s) {
        case Severity::error: return "1;31";
        case Severity::warning: return "1;33";
        case Severity::notice: return "1;36";
    }
    return "1";
}

// The part of a line a snippet shows: the whole line, or for a long line
// (a minified file is one line) a window around the start of the range, so
// that each finding prints a bounded amount whatever the line's length.
struct LineWindow {
    std::string_view text;     // the bytes shown
    std::uint32_t offset = 0;  // file offset of text[0]
    bool cut_before = false;   // "..." stands for what precedes
    bool cut_after = false;    // "..." stands for what follows
};

constexpr std::uint32_t max_snippet_line_bytes = 240;
constexpr std::uint32_t window_before_bytes = 80;

// Moves an offset into a UTF-8 text back to the start of its code point.
std::uint32_t code_point_start(std::string_view text, std::uint32_t i) {
    while (i > 0 && i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) --i;
    return i;
}

LineWindow line_window(const SourceFile& file, Range range) {
    std::string_view line = file.line_text(file.line(range.start));
    if (line.data() == nullptr) return {};
    auto line_start = static_cast<std::uint32_t>(line.data() - file.text().data());
    LineWindow w{line, line_start, false, false};
    if (line.size() <= max_snippet_line_bytes) return w;
    const std::uint32_t at =
        std::min<std::uint32_t>(range.start.byte - line_start, static_cast<std::uint32_t>(line.size()));
    std::uint32_t begin = code_point_start(line, at > window_before_bytes ? at - window_before_bytes : 0);
    std::uint32_t end = code_point_start(
        line, std::min<std::uint32_t>(begin + max_snippet_line_bytes, static_cast<std::uint32_t>(line.size())));
    if (begin + max_snippet_line_bytes >= line.size()) end = static_cast<std::uint32_t>(line.size());
    w.text = line.substr(begin, end - begin);
    w.offset = line_start + begin;
    w.cut_before = begin > 0;
    w.cut_after = end < line.size();
    return w;
}

constexpr std::string_view cut_mark = "...";

// Whether `text` is printable ASCII only, which escaping leaves as it is
// and which shows a column a byte (nearly every line and message).
bool printable_ascii(std::string_view text) {
    return byte_run(text.data(), text.data() + text.size(), detail::PrintableStops{}) == text.size();
}

// How many columns `text` takes once control characters are escaped.
std::uint32_t shown_width(std::string_view text) {
    if (printable_ascii(text)) return static_cast<std::uint32_t>(text.size());
    return count_graphemes(escape_control_characters(text));
}

// The underline below the window: spaces (tabs kept, so it lines up) up to
// the start column, then '^' and '~' to the end of the range on this line.
std::string underline(const SourceFile& file, Range range, const LineWindow& w) {
    if (w.text.data() == nullptr) return "^";
    const std::uint32_t start_line = file.line(range.start);
    const auto size = static_cast<std::uint32_t>(w.text.size());
    std::uint32_t start = range.start.byte > w.offset ? range.start.byte - w.offset : 0;
    std::uint32_t end =
        file.line(range.end) == start_line && range.end.byte >= w.offset ? range.end.byte - w.offset : size;
    start = std::min<std::uint32_t>(start, size);
    end = std::clamp<std::uint32_t>(end, start, size);
    std::string out;
    if (w.cut_before) out.append(cut_mark.size(), ' ');
    std::string_view before = w.text.substr(0, start);
    // One space per grapheme, but tabs stay tabs.
    std::size_t seg = 0;
    for (std::size_t i = 0; i <= before.size(); ++i) {
        if (i == before.size() || before[i] == '\t') {
            out.append(shown_width(before.substr(seg, i - seg)), ' ');
            if (i < before.size()) out += '\t';
            seg = i + 1;
        }
    }
    std::uint32_t width = shown_width(w.text.substr(start, end - start));
    out += '^';
    if (width > 1) out.append(width - 1, '~');
    return out;
}

// The line of `range` with an underline; control characters escaped (and
// the underline measured on the escaped text), so that a file cannot drive
// the terminal.
void write_snippet(const SourceFile& file, Range range, const Style& style, std::string& out) {
    const std::uint32_t start_line = file.line(range.start);
    LineWindow w = line_window(file, range);
    const auto number = fmt::format_int(start_line);
    out += ' ';
    out.append(number.data(), number.size());
    out += " | ";
    if (w.cut_before) out += cut_mark;
    if (printable_ascii(w.text)) {
        out += w.text;
    } else {
        out += escape_control_characters(w.text);
    }
    if (w.cut_after) out += cut_mark;
    out += "\n ";
    out.append(number.size(), ' ');
    out += " | ";
    style.append(out, "1;32", underline(file, range, w));
    out += '\n';
}

// Whether one_line would give `message` back as it is: printable ASCII, no
// space at either end, no two spaces together (99% of the corpus's
// findings). The x86-64 builds look at sixteen bytes at once (SSE2, always
// there); other targets, and the last bytes, one at a time.
bool already_one_line(std::string_view message) {
    const std::size_t n = message.size();
    if (n == 0) return true;
    if (message.front() == ' ' || message.back() == ' ') return false;
    const char* p = message.data();
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' ');
    const __m128i del = _mm_set1_epi8(0x7F);
    // Bytes from 0x80 compare as negative, below the space.
    for (; i + 17 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 1));
        const __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)),
                                         _mm_and_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(next, space)));
        if (_mm_movemask_epi8(bad) != 0) return false;
    }
#endif
    for (; i < n; ++i) {
        const auto c = static_cast<unsigned char>(p[i]);
        if (c - 0x20U >= 0x5FU) return false;
        if (c == ' ' && i + 1 < n && p[i + 1] == ' ') return false;
    }
    return true;
}

// Messages may carry a multi-line detail (HCL's diagnostics do); a location
// line stays one line, and control characters are escaped.
std::string one_line(std::string_view message) {
    if (already_one_line(message)) return std::string(message);
    // What each byte is to the loop below: white space, printable ASCII, or
    // anything else (which the escaping pass looks at).
    enum : std::uint8_t { other = 0, printable = 1, white = 2 };
    static constexpr auto classes = [] {
        std::array<std::uint8_t, 256> t{};
        for (int c = 0x20; c < 0x7F; ++c) t[static_cast<std::size_t>(c)] = printable;
        for (const char c : {'\n', '\r', '\t', ' '}) t[static_cast<unsigned char>(c)] = white;
        return t;
    }();
    std::string out;
    out.reserve(message.size());
    bool space = false;
    // Printable ASCII throughout needs no escaping (nearly every message).
    bool all_printable = true;
    for (std::size_t i = 0; i < message.size();) {
        if (classes[static_cast<unsigned char>(message[i])] == white) {
            space = true;
            ++i;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        // The run of characters up to the next white space, at once.
        std::size_t end = i;
        std::uint8_t seen = printable;
        while (end < message.size()) {
            const std::uint8_t c = classes[static_cast<unsigned char>(message[end])];
            if (c == white) break;
            seen &= c;
            ++end;
        }
        all_printable = all_printable && seen == printable;
        out.append(message.substr(i, end - i));
        i = end;
    }
    if (all_printable) return out;
    return escape_control_characters(out);
}

// A finding's or note's location: `PATH:LINE:COLUMN:`.
void append_location(std::string& out, const std::string& path, const ResolvedPos& pos) {
    out += path;
    out += ':';
    const auto line = fmt::format_int(pos.line);
    out.append(line.data(), line.size());
    out += ':';
    const auto column = fmt::format_int(pos.column);
    out.append(column.data(), column.size());
    out += ':';
}

// Files' names as the report shows them, each made once.
class ShownPaths {
public:
    explicit ShownPaths(const std::string& working_dir) : relative_(working_dir) {}
    const std::string& of(const SourceFile& file) {
        auto [it, added] = shown_.try_emplace(&file);
        if (added) it->second = escape_line(relative_.of(file));
        return it->second;
    }

private:
    detail::RelativePaths relative_;
    std::unordered_map<const SourceFile*, std::string> shown_;
};

// Puts `findings` together in `text`, as the text report shows them.
void render_findings(std::span<const lint::Finding> findings, const ReportInput& input, std::string& text) {
    Style style{input.color};
    detail::SnippetGuard guard(input.trusted_roots);
    ShownPaths shown(input.working_dir);
    std::string part;
    for (const lint::Finding& f : findings) {
        part.clear();
        append_location(part, shown.of(*f.file), f.file->resolve(f.range.start));
        style.append(text, "1", part);
        text += ' ';
        part.clear();
        part += to_string(f.severity);
        part += '[';
        part += f.rule_id;
        part += ']';
        style.append(text, severity_colour(f.severity), part);
        text += ' ';
        text += one_line(f.message);
        text += '\n';
        if (guard.may_quote(*f.file)) write_snippet(*f.file, f.range, style, text);
        for (const auto& rel : f.related) {
            part.clear();
            append_location(part, shown.of(*rel.file), rel.file->resolve(rel.range.start));
            style.append(text, "1", part);
            text += ' ';
            style.append(text, "1;34", "note:");
            text += ' ';
            text += one_line(rel.message);
            text += '\n';
            if (guard.may_quote(*rel.file)) write_snippet(*rel.file, rel.range, style, text);
        }
        if (f.fix) {
            text += "  ";
            style.append(text, "1;32", "fix:");
            text += ' ';
            text += one_line(f.fix->description);
            text += " (";
            text += lint::to_string(f.fix->applicability);
            text += ")\n";
        }
    }
}

}  // namespace

void write_text(const ReportInput& input, std::ostream& out) {
    // The findings are put together by the lint's jobs, in runs of
    // neighbouring findings written in order.
    const lint::Findings& all = input.findings;
    detail::render_in_runs(
        all.size(), input.jobs, detail::findings_per_run,
        [&](std::size_t begin, std::size_t end, std::string& text) {
            render_findings(std::span<const lint::Finding>(all).subspan(begin, end - begin), input, text);
        },
        out);
    if (input.quiet) return;
    // A long listing ends with what it adds up to, rule by rule.
    if (input.rule_table && input.findings.size() > rule_table_threshold) {
        out << "\nFindings per rule:\n";
        write_statistics(input.findings, out);
    }
    out << summary_line(input) << '\n';
    // Where the rules are explained: once, not under every finding.
    if (const std::string line = rules_explained_line(input); !line.empty()) out << line << '\n';
}

std::string summary_line(const ReportInput& input) {
    const std::size_t total = input.findings.size();
    const std::size_t scanned = input.files_scanned;
    if (total == 0) return fmt::format("No findings in {} file{}.", scanned, scanned == 1 ? "" : "s");
    std::size_t counts[3] = {0, 0, 0};
    // The files by path (one path may be read more than once, as more than
    // one SourceFile), each SourceFile's path looked at once.
    std::unordered_set<const SourceFile*> seen;
    std::unordered_set<std::string_view> files;
    std::size_t safe = 0;
    std::size_t unsafe = 0;
    for (const lint::Finding& f : input.findings) {
        ++counts[static_cast<int>(f.severity)];
        if (seen.insert(f.file.get()).second) files.insert(f.file->path());
        if (f.fix) ++(f.fix->applicability == lint::Applicability::safe ? safe : unsafe);
    }
    std::string line =
        fmt::format("{} finding{} ({} error{}, {} warning{}, {} notice{}) in {} of {} file{}.", total,
                    total == 1 ? "" : "s", counts[0], counts[0] == 1 ? "" : "s", counts[1], counts[1] == 1 ? "" : "s",
                    counts[2], counts[2] == 1 ? "" : "s", files.size(), scanned, scanned == 1 ? "" : "s");
    if (safe > 0) line += fmt::format(" {} fixable with `tfsift lint --fix`", safe);
    if (unsafe > 0 && safe > 0) line += fmt::format(" ({} more with `tfsift lint --unsafe-fixes`)", unsafe);
    if (unsafe > 0 && safe == 0) line += fmt::format(" {} fixable with `tfsift lint --unsafe-fixes`", unsafe);
    if (safe + unsafe > 0) line += '.';
    return line;
}

std::string rules_explained_line(const ReportInput& input) {
    // A few dozen rules among thousands of findings: hashed, then sorted.
    std::unordered_set<std::string_view> ids;
    for (const lint::Finding& f : input.findings) ids.insert(f.rule_id);
    if (ids.empty()) return {};
    std::vector<std::string_view> seen(ids.begin(), ids.end());
    std::sort(seen.begin(), seen.end());
    std::string line = "`tfsift rule ID` explains ";
    bool first = true;
    for (std::string_view id : seen) {
        if (!first) line += ", ";
        first = false;
        line += escape_line(id);
    }
    const std::string pages = lint::documentation_uri(input.links, "docs/rules/");
    if (!pages.empty()) line += " (also at " + pages + ")";
    return line + '.';
}

void write_compact(const ReportInput& input, std::ostream& out) {
    ShownPaths shown(input.working_dir);
    for (const lint::Finding& f : input.findings) {
        auto pos = f.file->resolve(f.range.start);
        out << fmt::format("{}:{}:{}: {}[{}] {}\n", shown.of(*f.file), pos.line, pos.column, to_string(f.severity),
                           f.rule_id, one_line(f.message));
    }
}

}  // namespace tfsift::report
