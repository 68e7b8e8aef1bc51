// Helpers shared by the report writers (internal to src/report/).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tfsift/byte_run.hpp"
#include "tfsift/source.hpp"

namespace tfsift::report::detail {

// Printable ASCII, which escaping leaves as it is, as a class of
// tfsift::byte_run: any other byte ends the run, but tabs and newlines too
// may stay in it (`layout`) where the text may keep its lines. Bytes from
// 0x80 compare as negative, below the space.
struct PrintableStops {
    bool layout = false;
    bool stops(unsigned char b) const { return !((b >= 0x20 && b < 0x7F) || (layout && (b == '\n' || b == '\t'))); }
#if defined(__SSE2__)
    unsigned stop_bits(__m128i v) const {
        __m128i stop = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
        if (layout) {
            stop = _mm_andnot_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))), stop);
        }
        return static_cast<unsigned>(_mm_movemask_epi8(stop));
    }
#endif
};

// Replaces invalid UTF-8 sequences with U+FFFD (XML and JSON must be valid).
std::string valid_utf8(std::string_view s);

// `text` cut to at most `max_bytes` bytes of UTF-8 (GitHub counts its limits
// in characters, never fewer than bytes): at the end of the last whole
// sentence that fits, else at a word with "…" appended. Unchanged when it fits.
std::string fit_text(std::string_view text, std::size_t max_bytes);

// Escapes text for an XML attribute or element; drops characters XML 1.0
// cannot carry.
std::string xml_escape(std::string_view s);

// Column of `pos` counted in UTF-16 code units (SARIF's default column kind).
std::uint32_t utf16_column(const SourceFile& file, Pos pos);

// Paths of files relative to one directory, as relative_path() gives them:
// the directory is normalised once, and each file's path once per report
// (many findings share a file).
class RelativePaths {
public:
    explicit RelativePaths(const std::string& base_dir);
    [[nodiscard]] const std::string& of(const SourceFile& file);

private:
    std::string prefix_;  // the base directory, normalised, with a final '/'; empty: none
    std::unordered_map<const SourceFile*, std::string> paths_;
};

// Whether a report may show text of `file`: its path resolves inside one of
// the input's trusted roots (or there are none). Remembers each file's answer.
class SnippetGuard {
public:
    explicit SnippetGuard(const std::vector<std::string>& trusted_roots) : roots_(trusted_roots) {}
    [[nodiscard]] bool may_quote(const SourceFile& file);

private:
    const std::vector<std::string>& roots_;
    std::map<const SourceFile*, bool> verdicts_;
};

// How many findings one run holds when a report is put together by the
// lint's jobs (render_in_runs, for_each_run, write_items_in_runs): enough
// for a run to outweigh handing it to a job, few enough that every job gets
// runs of a report of a few thousand findings.
inline constexpr std::size_t findings_per_run = 512;

// Puts `count` items together in runs of `run_size`, `jobs` runs at once,
// each into a text of its own (`render(begin, end, text)` appends items
// [begin, end) to `text`), and hands the texts to `write(text, begin, end)`
// in order, a few runs per job at a time: a report of thousands of findings
// is otherwise the one part of a lint that a single thread does after all
// the others are done.
void render_in_runs(std::size_t count, unsigned jobs, std::size_t run_size,
                    const std::function<void(std::size_t begin, std::size_t end, std::string& text)>& render,
                    const std::function<void(std::string_view text, std::size_t begin, std::size_t end)>& write);

// The same, each text written to `out`.
void render_in_runs(std::size_t count, unsigned jobs, std::size_t run_size,
                    const std::function<void(std::size_t begin, std::size_t end, std::string& text)>& render,
                    std::ostream& out);

// Calls `each(begin, end)` for the runs of `run_size` items of `count`,
// `jobs` runs at once, in no particular order: work on each item that needs
// nothing of the others (a line's hash before the repeats are counted).
void for_each_run(std::size_t count, unsigned jobs, std::size_t run_size,
                  const std::function<void(std::size_t begin, std::size_t end)>& each);

// An output stream's bytes appended to a string.
class StringSink : public std::streambuf {
public:
    explicit StringSink(std::string& out) : out_(out) {}

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        out_.push_back(traits_type::to_char_type(c));
        return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        out_.append(s, static_cast<std::size_t>(n));
        return n;
    }

private:
    std::string& out_;
};

}  // namespace tfsift::report::detail
