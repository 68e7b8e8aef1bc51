// SARIF 2.1.0, as GitHub code scanning takes it.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <nlohmann/json.hpp>

#include "report/report_common.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

using json = nlohmann::ordered_json;  // keeps keys in the documented order

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

json artifact_location(const ReportInput& in, const SourceFile& file) {
    std::string rel = relative_path(file.path(), in.repository_root);
    if (!rel.empty() && rel.front() == '/') return {{"uri", "file://" + uri_encode(rel)}};
    return {{"uri", uri_encode(rel)}, {"uriBaseId", source_root}};
}

json region(const SourceFile& file, Range range) {
    std::uint32_t start_col = detail::utf16_column(file, range.start);
    std::uint32_t end_col = detail::utf16_column(file, range.end);
    std::uint32_t start_line = file.line(range.start);
    std::uint32_t end_line = file.line(range.end);
    if (end_line == start_line && end_col < start_col) end_col = start_col;
    return {{"startLine", start_line},
            {"startColumn", start_col},
            {"endLine", std::max(end_line, start_line)},
            {"endColumn", end_col}};
}

// The region with the text it covers, and the whole lines around it as the
// context region, so that viewers can show the code without the file.
json physical_location(const ReportInput& in, detail::SnippetGuard& guard, const SourceFile& file, Range range) {
    json r = region(file, range);
    if (!guard.may_quote(file)) {
        // Positions only: the file lies outside the repository.
        return {{"artifactLocation", artifact_location(in, file)}, {"region", r}};
    }
    std::string_view text = file.text();
    auto clamp = [&](std::uint32_t b) { return std::min<std::uint32_t>(b, static_cast<std::uint32_t>(text.size())); };
    std::uint32_t begin = clamp(range.start.byte);
    std::uint32_t end = std::max(begin, clamp(range.end.byte));
    // Snippets are a convenience for viewers; a long one (a minified file is
    // one line) would be copied into every result on it, so it is left out.
    if (end - begin <= max_snippet_bytes)
        r["snippet"] = {{"text", detail::valid_utf8(text.substr(begin, end - begin))}};
    std::uint32_t first_line = file.line(range.start);
    std::uint32_t last_line = std::max(file.line(range.end), first_line);
    std::string_view last = file.line_text(last_line);
    std::string_view first = file.line_text(first_line);
    json context = {{"startLine", first_line}, {"startColumn", 1}, {"endLine", last_line}};
    bool context_fits = true;
    if (first.data() != nullptr && last.data() != nullptr) {
        auto ctx_begin = static_cast<std::size_t>(first.data() - text.data());
        auto ctx_end = static_cast<std::size_t>(last.data() - text.data()) + last.size();
        context["endColumn"] = detail::utf16_column(file, Pos{static_cast<std::uint32_t>(ctx_end)});
        context_fits = ctx_end - ctx_begin <= max_snippet_bytes;
        if (context_fits)
            context["snippet"] = {{"text", detail::valid_utf8(text.substr(ctx_begin, ctx_end - ctx_begin))}};
    } else {
        context["endColumn"] = 1;
    }
    json location = {{"artifactLocation", artifact_location(in, file)}, {"region", r}};
    // The context region exists to carry its lines' text: without it (lines
    // too long to copy into every result) it is left out.
    if (!context_fits) return location;
    // SARIF wants the context region to be a proper superset of the region:
    // leave it out when the region already covers its whole lines.
    bool same = context["startLine"] == r["startLine"] && context["endLine"] == r["endLine"] && r["startColumn"] == 1 &&
                context["endColumn"] == r["endColumn"];
    if (!same) location["contextRegion"] = std::move(context);
    return location;
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

json rule_descriptor(const lint::Rule& r) {
    // The category first: code scanning shows only the first ten tags.
    json tags = json::array({lint::to_string(r.category)});
    if (r.security_severity > 0) tags.push_back("security");
    tags.push_back("terraform");
    tags.push_back("opentofu");
    json properties = {{"tags", std::move(tags)}, {"precision", lint::to_string(r.precision)}};
    if (r.security_severity > 0) {
        // A security rule is ranked by security-severity, not problem.severity.
        properties["security-severity"] = fmt::format("{:.1f}", std::clamp(r.security_severity, 0.1, 10.0));
    } else {
        properties["problem.severity"] = problem_severity(r.default_severity);
    }
    // The descriptions are shown beside every alert and are limited; the
    // whole documentation is in help, which has no limit.
    return {{"id", r.id},
            {"name", detail::fit_text(pascal_case(r.id), max_rule_name)},
            {"shortDescription", {{"text", detail::fit_text(r.doc.summary, max_description)}}},
            {"fullDescription", {{"text", detail::fit_text(r.doc.what, max_description)}}},
            {"help",
             {{"text", detail::valid_utf8(lint::rule_plain_text(r))},
              {"markdown", detail::valid_utf8(lint::rule_markdown(r))}}},
            {"helpUri", lint::rule_help_uri(r)},
            {"defaultConfiguration", {{"level", sarif_level(r.default_severity)}, {"enabled", r.enabled_by_default}}},
            {"properties", std::move(properties)}};
}

}  // namespace

void write_sarif(const ReportInput& in, std::ostream& out) {
    json rules = json::array();
    std::map<std::string, std::size_t> rule_index;
    for (const lint::Rule& r : in.rules) {
        rule_index[r.id] = rules.size();
        rules.push_back(rule_descriptor(r));
    }

    json results = json::array();
    detail::SnippetGuard guard(in.trusted_roots);
    std::map<std::string, int> hash_repeats;  // file + hash -> occurrences so far
    std::map<std::tuple<const SourceFile*, std::uint32_t, std::string>, std::string> line_hashes;
    for (const lint::Finding& f : in.findings) {
        json result = {
            {"ruleId", f.rule_id},
            {"level", sarif_level(f.severity)},
            {"message", {{"text", message_with_links(f)}}},
            {"locations", json::array({{{"physicalLocation", physical_location(in, guard, *f.file, f.range)}}})}};
        if (auto it = rule_index.find(f.rule_id); it != rule_index.end()) result["ruleIndex"] = it->second;
        // Many findings may share one long line: hash it once per rule.
        auto key = std::make_tuple(f.file.get(), f.file->line(f.range.start), f.rule_id);
        auto cached = line_hashes.find(key);
        if (cached == line_hashes.end()) cached = line_hashes.emplace(std::move(key), line_hash(f, guard)).first;
        const std::string& hash = cached->second;
        int n = ++hash_repeats[f.file->path() + '\0' + hash];
        result["partialFingerprints"] = {{"primaryLocationLineHash", fmt::format("{}:{}", hash, n)}};
        if (!f.related.empty()) {
            json related = json::array();
            int id = 1;
            for (const auto& r : f.related) {
                related.push_back({{"id", id++},
                                   {"physicalLocation", physical_location(in, guard, *r.file, r.range)},
                                   {"message", {{"text", detail::valid_utf8(r.message)}}}});
            }
            result["relatedLocations"] = std::move(related);
        }
        if (f.fix) {
            // One artifactChange per file, in the order the files first appear.
            json changes = json::array();
            std::map<std::string, std::size_t> change_of;
            for (const auto& e : f.fix->edits) {
                auto [it, added] = change_of.emplace(e.file->path(), changes.size());
                if (added)
                    changes.push_back(
                        {{"artifactLocation", artifact_location(in, *e.file)}, {"replacements", json::array()}});
                changes[it->second]["replacements"].push_back(
                    {{"deletedRegion", region(*e.file, e.range)}, {"insertedContent", {{"text", e.replacement}}}});
            }
            result["fixes"] = json::array(
                {{{"description", {{"text", f.fix->description}}}, {"artifactChanges", std::move(changes)}}});
        }
        results.push_back(std::move(result));
    }

    std::string root_uri = "file://" + uri_encode(in.repository_root);
    if (root_uri.back() != '/') root_uri += '/';
    json invocation = {{"executionSuccessful", in.exit_code != 2}, {"exitCode", in.exit_code}};
    if (!in.command_line.empty()) {
        std::string cmd;
        for (const auto& a : in.command_line) cmd += (cmd.empty() ? "" : " ") + a;
        invocation["commandLine"] = detail::valid_utf8(cmd);
    }
    json doc = {
        {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
        {"version", "2.1.0"},
        {"runs", json::array({{
                     {"tool",
                      {{"driver",
                        {{"name", "tfsift"},
                         {"version", TFSIFT_VERSION},
                         {"semanticVersion", TFSIFT_VERSION},
                         {"informationUri", lint::project_url},
                         {"rules", std::move(rules)}}}}},
                     {"originalUriBaseIds", {{source_root, {{"uri", root_uri}}}}},
                     {"invocations", json::array({std::move(invocation)})},
                     {"columnKind", "utf16CodeUnits"},
                     {"results", std::move(results)},
                 }})},
    };
    if (!in.sarif_category.empty()) {
        // "CATEGORY/": code scanning reads the part before the last slash as
        // the category and the rest as a run id, here none.
        std::string id = in.sarif_category;
        if (id.back() != '/') id += '/';
        doc["runs"][0]["automationDetails"] = {{"id", detail::valid_utf8(id)}};
    }
    out << doc.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

}  // namespace tfsift::report
