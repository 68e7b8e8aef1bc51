// SARIF 2.1.0, as GitHub code scanning takes it. Written as it is produced
// (report/json_writer.hpp), in the bytes nlohmann::json would print.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "report/json_writer.hpp"
#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

constexpr std::string_view source_root = "%SRCROOT%";

// The longest text copied into a region's or context region's snippet.
constexpr std::size_t max_snippet_bytes = 1024;

std::string_view sarif_level(Severity s) {
    switch (s) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::notice: return "note";
    }
    return "warning";
}

// Percent-encodes what may not appear in a relative URI reference.
std::string uri_encode(std::string_view path) {
    std::string out;
    for (char ch : path) {
        auto c = static_cast<unsigned char>(ch);
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                     c == '_' || c == '.' || c == '~' || c == '/';
        if (plain) {
            out += ch;
        } else {
            out += fmt::format("%{:02X}", c);
        }
    }
    return out;
}

// "ProviderVersionMissing" for "provider-version-missing": SARIF's rule name
// is an identifier-like friendly name.
std::string pascal_case(std::string_view id) {
    std::string out;
    bool upper = true;
    for (char c : id) {
        if (c == '-' || c == '_' || c == '.') {
            upper = true;
            continue;
        }
        out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
        upper = false;
    }
    return out;
}

// A stable hash of the finding's line content, so that a finding keeps its
// identity when lines above it move. FNV-1a over the rule id and the line
// without surrounding whitespace; ":N" numbers repeats of the same hash.
std::string line_hash(const lint::Finding& f, detail::SnippetGuard& guard) {
    // A file outside the repository is hashed as an empty line: a hash of a
    // short secret gives the secret away.
    std::string_view line =
        guard.may_quote(*f.file) ? f.file->line_text(f.file->line(f.range.start)) : std::string_view();
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&](std::string_view s) {
        for (char c : s) {
            h ^= static_cast<unsigned char>(c);
            h *= 1099511628211ULL;
        }
    };
    mix(f.rule_id);
    mix("\n");
    mix(line);
    return fmt::format("{:016x}", h);
}

// Link text with its brackets and backslashes escaped, as SARIF's embedded
// links require.
std::string escape_link_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '[' || c == ']' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

// A message with every "](" escaped, so that no bracketed text in it reads
// as an embedded link; other brackets are left as the user wrote them.
std::string escape_link_targets(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == ']' && i + 1 < text.size() && text[i + 1] == '(') out += '\\';
        out += text[i];
    }
    return out;
}

// The finding's message, followed by a link to each related location
// ("[text](id)", SARIF's embedded links): code scanning shows related
// locations only through such links.
std::string message_with_links(const lint::Finding& f) {
    std::string text = escape_link_targets(detail::valid_utf8(f.message));
    if (f.related.empty()) return text;
    text += " (see ";
    for (std::size_t i = 0; i < f.related.size(); ++i) {
        std::string label = detail::valid_utf8(f.related[i].message);
        if (label.empty()) label = "related location";
        text += fmt::format("{}[{}]({})", i == 0 ? "" : ", ", escape_link_text(label), i + 1);
    }
    return text + ")";
}

// GitHub code scanning's limits on a rule's texts (docs/ci.md).
constexpr std::size_t max_rule_name = 255;
constexpr std::size_t max_description = 1024;

// GitHub's problem.severity for a rule that is not a security rule.
std::string_view problem_severity(Severity s) {
    switch (s) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::notice: return "recommendation";
    }
    return "warning";
}

// A region's numbers: 1-based lines, columns in UTF-16 code units.
struct RegionNumbers {
    std::uint32_t start_line = 1;
    std::uint32_t start_column = 1;
    std::uint32_t end_line = 1;
    std::uint32_t end_column = 1;
};

RegionNumbers region_numbers(const SourceFile& file, Range range) {
    RegionNumbers r;
    r.start_column = detail::utf16_column(file, range.start);
    r.end_column = detail::utf16_column(file, range.end);
    r.start_line = file.line(range.start);
    const std::uint32_t end_line = file.line(range.end);
    if (end_line == r.start_line && r.end_column < r.start_column) r.end_column = r.start_column;
    r.end_line = std::max(end_line, r.start_line);
    return r;
}

class SarifReport {
public:
    SarifReport(const ReportInput& in, std::ostream& out) : in_(in), w_(out), guard_(in.trusted_roots) {}

    // Continues `whole`'s document at its results, `items_before` of them
    // written: a run of results put together on a thread of its own.
    SarifReport(const SarifReport& whole, std::ostream& out, std::size_t items_before)
        : in_(whole.in_),
          w_(out, whole.w_.depth(), items_before),
          guard_(whole.in_.trusted_roots),
          rule_index_(whole.rule_index_) {}

    void write() {
        // Every rule's index, the last one of an id winning.
        for (std::size_t i = 0; i < in_.rules.size(); ++i) rule_index_[in_.rules[i].id] = i;
        w_.begin_object();
        w_.member("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
        w_.member("version", "2.1.0");
        w_.key("runs");
        w_.begin_array();
        w_.begin_object();
        w_.key("tool");
        w_.begin_object();
        w_.key("driver");
        w_.begin_object();
        w_.member("name", "tfsift");
        w_.member("version", TFSIFT_VERSION);
        w_.member("semanticVersion", TFSIFT_VERSION);
        if (!in_.links.homepage.empty()) w_.member("informationUri", in_.links.homepage);
        w_.key("rules");
        w_.begin_array();
        for (const lint::Rule& r : in_.rules) rule_descriptor(r);
        w_.end_array();
        w_.end_object();
        w_.end_object();
        std::string root_uri = "file://" + uri_encode(in_.repository_root);
        if (root_uri.back() != '/') root_uri += '/';
        w_.key("originalUriBaseIds");
        w_.begin_object();
        w_.key(source_root);
        w_.begin_object();
        w_.member("uri", root_uri);
        w_.end_object();
        w_.end_object();
        w_.key("invocations");
        w_.begin_array();
        invocation();
        w_.end_array();
        w_.member("columnKind", "utf16CodeUnits");
        w_.key("results");
        w_.begin_array();
        results();
        w_.end_array();
        if (!in_.sarif_category.empty()) {
            // "CATEGORY/": code scanning reads the part before the last slash as
            // the category and the rest as a run id, here none.
            std::string id = in_.sarif_category;
            if (id.back() != '/') id += '/';
            w_.key("automationDetails");
            w_.begin_object();
            w_.member("id", detail::valid_utf8(id));
            w_.end_object();
        }
        w_.end_object();
        w_.end_array();
        w_.end_object();
        w_.finish();
    }

private:
    // {"text": text}
    void text_object(std::string_view name, std::string_view text) {
        w_.key(name);
        w_.begin_object();
        w_.member("text", text);
        w_.end_object();
    }

    void rule_descriptor(const lint::Rule& r) {
        // The descriptions are shown beside every alert and are limited; the
        // whole documentation is in help, which has no limit.
        w_.begin_object();
        w_.member("id", r.id);
        w_.member("name", detail::fit_text(pascal_case(r.id), max_rule_name));
        text_object("shortDescription", detail::fit_text(r.doc.summary, max_description));
        text_object("fullDescription", detail::fit_text(r.doc.what, max_description));
        w_.key("help");
        w_.begin_object();
        w_.member("text", detail::valid_utf8(lint::rule_plain_text(r)));
        w_.member("markdown", detail::valid_utf8(lint::rule_markdown(r)));
        w_.end_object();
        // The help above is the documentation; a link only to where it is published.
        if (const std::string uri = lint::rule_help_uri(r, in_.links); !uri.empty()) w_.member("helpUri", uri);
        w_.key("defaultConfiguration");
        w_.begin_object();
        w_.member("level", sarif_level(r.default_severity));
        w_.key("enabled");
        w_.boolean(r.enabled_by_default);
        w_.end_object();
        w_.key("properties");
        w_.begin_object();
        // The category first: code scanning shows only the first ten tags.
        w_.key("tags");
        w_.begin_array();
        w_.string(lint::to_string(r.category));
        if (r.security_severity > 0) w_.string("security");
        w_.string("terraform");
        w_.string("opentofu");
        w_.end_array();
        w_.member("precision", lint::to_string(r.precision));
        if (r.security_severity > 0) {
            // A security rule is ranked by security-severity, not problem.severity.
            w_.member("security-severity", fmt::format("{:.1f}", std::clamp(r.security_severity, 0.1, 10.0)));
        } else {
            w_.member("problem.severity", problem_severity(r.default_severity));
        }
        w_.end_object();
        w_.end_object();
    }

    void invocation() {
        w_.begin_object();
        w_.key("executionSuccessful");
        w_.boolean(in_.exit_code != 2);
        w_.member("exitCode", in_.exit_code);
        if (!in_.command_line.empty()) {
            std::string cmd;
            for (const auto& a : in_.command_line) cmd += (cmd.empty() ? "" : " ") + a;
            w_.member("commandLine", detail::valid_utf8(cmd));
        }
        w_.end_object();
    }

    // Every finding's result, in order, in runs of neighbouring findings put
    // together `jobs` at once, each by a report of its own continuing this
    // one's document (detail::write_items_in_runs). Each result's
    // fingerprint counts the repeats of its hash before it: the hashes come
    // first (by the runs), then their numbers (in order), then the results.
    void results() {
        const lint::Findings& all = in_.findings;
        constexpr std::size_t run_size = 256;
        std::vector<Fingerprint> prints(all.size());
        detail::for_each_run(all.size(), in_.jobs, run_size, [&](std::size_t begin, std::size_t end) {
            // Many findings may share one long line: hash it once per rule.
            detail::SnippetGuard guard(in_.trusted_roots);
            std::map<std::tuple<const SourceFile*, std::uint32_t, std::string_view>, std::string> hashes;
            for (std::size_t i = begin; i < end; ++i) {
                const lint::Finding& f = all[i];
                auto key = std::make_tuple(f.file.get(), f.file->line(f.range.start), std::string_view(f.rule_id));
                auto cached = hashes.find(key);
                if (cached == hashes.end()) cached = hashes.emplace(key, line_hash(f, guard)).first;
                prints[i].hash = cached->second;
            }
        });
        std::map<std::string, int> repeats;  // file + hash -> occurrences so far
        for (std::size_t i = 0; i < all.size(); ++i) {
            prints[i].n = ++repeats[all[i].file->path() + '\0' + prints[i].hash];
        }
        detail::write_items_in_runs(
            w_, all.size(), in_.jobs, run_size,
            [&](std::ostream& out, std::size_t items_before, std::size_t begin, std::size_t end) {
                SarifReport part(*this, out, items_before);
                for (std::size_t i = begin; i < end; ++i) part.result(all[i], prints[i]);
                part.w_.flush();
            });
    }

    // A result's partialFingerprints: its line's hash, and how many results
    // in its file had that hash up to it.
    struct Fingerprint {
        std::string hash;
        int n = 0;
    };

    void result(const lint::Finding& f, const Fingerprint& print) {
        const std::string& hash = print.hash;
        const int n = print.n;
        w_.begin_object();
        w_.member("ruleId", f.rule_id);
        w_.member("level", sarif_level(f.severity));
        text_object("message", message_with_links(f));
        w_.key("locations");
        w_.begin_array();
        w_.begin_object();
        w_.key("physicalLocation");
        physical_location(*f.file, f.range);
        w_.end_object();
        w_.end_array();
        if (auto it = rule_index_.find(f.rule_id); it != rule_index_.end()) w_.member("ruleIndex", it->second);
        w_.key("partialFingerprints");
        w_.begin_object();
        w_.member("primaryLocationLineHash", fmt::format("{}:{}", hash, n));
        w_.end_object();
        if (!f.related.empty()) {
            w_.key("relatedLocations");
            w_.begin_array();
            int id = 1;
            for (const auto& r : f.related) {
                w_.begin_object();
                w_.member("id", id++);
                w_.key("physicalLocation");
                physical_location(*r.file, r.range);
                text_object("message", detail::valid_utf8(r.message));
                w_.end_object();
            }
            w_.end_array();
        }
        if (f.fix) fixes(*f.fix);
        w_.end_object();
    }

    void fixes(const lint::Fix& fix) {
        // One artifactChange per file, in the order the files first appear.
        std::vector<std::vector<const lint::TextEdit*>> changes;
        std::map<std::string, std::size_t> change_of;
        for (const auto& e : fix.edits) {
            auto [it, added] = change_of.emplace(e.file->path(), changes.size());
            if (added) changes.emplace_back();
            changes[it->second].push_back(&e);
        }
        w_.key("fixes");
        w_.begin_array();
        w_.begin_object();
        text_object("description", fix.description);
        w_.key("artifactChanges");
        w_.begin_array();
        for (const auto& edits : changes) {
            w_.begin_object();
            w_.key("artifactLocation");
            artifact_location(*edits.front()->file);
            w_.key("replacements");
            w_.begin_array();
            for (const lint::TextEdit* e : edits) {
                w_.begin_object();
                w_.key("deletedRegion");
                region(region_numbers(*e->file, e->range), {});
                text_object("insertedContent", e->replacement);
                w_.end_object();
            }
            w_.end_array();
            w_.end_object();
        }
        w_.end_array();
        w_.end_object();
        w_.end_array();
    }

    void artifact_location(const SourceFile& file) {
        auto [it, added] = artifacts_.try_emplace(&file);
        if (added) {
            const std::string rel = relative_path(file.path(), in_.repository_root);
            it->second.outside = !rel.empty() && rel.front() == '/';
            it->second.uri = it->second.outside ? "file://" + uri_encode(rel) : uri_encode(rel);
        }
        w_.begin_object();
        w_.member("uri", it->second.uri);
        if (!it->second.outside) w_.member("uriBaseId", source_root);
        w_.end_object();
    }

    // The region, with the text it covers when given.
    void region(const RegionNumbers& r, std::optional<std::string_view> snippet) {
        w_.begin_object();
        w_.member("startLine", r.start_line);
        w_.member("startColumn", r.start_column);
        w_.member("endLine", r.end_line);
        w_.member("endColumn", r.end_column);
        if (snippet) snippet_text(*snippet);
        w_.end_object();
    }

    void snippet_text(std::string_view text) {
        w_.key("snippet");
        w_.begin_object();
        w_.member("text", detail::valid_utf8(text));
        w_.end_object();
    }

    // The region with the text it covers, and the whole lines around it as
    // the context region, so that viewers can show the code without the file.
    void physical_location(const SourceFile& file, Range range) {
        const RegionNumbers r = region_numbers(file, range);
        w_.begin_object();
        w_.key("artifactLocation");
        artifact_location(file);
        if (!guard_.may_quote(file)) {
            // Positions only: the file lies outside the repository.
            w_.key("region");
            region(r, {});
            w_.end_object();
            return;
        }
        std::string_view text = file.text();
        auto clamp = [&](std::uint32_t b) {
            return std::min<std::uint32_t>(b, static_cast<std::uint32_t>(text.size()));
        };
        std::uint32_t begin = clamp(range.start.byte);
        std::uint32_t end = std::max(begin, clamp(range.end.byte));
        // Snippets are a convenience for viewers; a long one (a minified file
        // is one line) would be copied into every result on it, so it is left
        // out.
        std::optional<std::string_view> snippet;
        if (end - begin <= max_snippet_bytes) snippet = text.substr(begin, end - begin);
        w_.key("region");
        region(r, snippet);
        std::uint32_t first_line = file.line(range.start);
        std::uint32_t last_line = std::max(file.line(range.end), first_line);
        std::string_view last = file.line_text(last_line);
        std::string_view first = file.line_text(first_line);
        RegionNumbers context{first_line, 1, last_line, 1};
        std::optional<std::string_view> context_snippet;
        if (first.data() != nullptr && last.data() != nullptr) {
            auto ctx_begin = static_cast<std::size_t>(first.data() - text.data());
            auto ctx_end = static_cast<std::size_t>(last.data() - text.data()) + last.size();
            context.end_column = detail::utf16_column(file, Pos{static_cast<std::uint32_t>(ctx_end)});
            // The context region exists to carry its lines' text: without it
            // (lines too long to copy into every result) it is left out.
            if (ctx_end - ctx_begin > max_snippet_bytes) {
                w_.end_object();
                return;
            }
            context_snippet = text.substr(ctx_begin, ctx_end - ctx_begin);
        }
        // SARIF wants the context region to be a proper superset of the
        // region: leave it out when the region already covers its whole lines.
        const bool same = context.start_line == r.start_line && context.end_line == r.end_line && r.start_column == 1 &&
                          context.end_column == r.end_column;
        if (!same) {
            w_.key("contextRegion");
            region(context, context_snippet);
        }
        w_.end_object();
    }

    struct Artifact {
        std::string uri;
        bool outside = false;  // an absolute file: URI, no uriBaseId
    };

    const ReportInput& in_;
    detail::JsonWriter w_;
    detail::SnippetGuard guard_;
    std::map<std::string, std::size_t> rule_index_;
    std::unordered_map<const SourceFile*, Artifact> artifacts_;
};

}  // namespace

void write_sarif(const ReportInput& in, std::ostream& out) { SarifReport(in, out).write(); }

}  // namespace tfsift::report
