#include "tfsift/server/code_actions.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "tfsift/lint/apply_fixes.hpp"
#include "tfsift/server/file_uri.hpp"
#include "tfsift/server/lsp_diagnostics.hpp"

namespace tfsift::server {

namespace {

bool before(const TextPosition& a, const TextPosition& b) {
    return a.line < b.line || (a.line == b.line && a.character < b.character);
}

bool overlaps(const TextRange& a, const TextRange& b) { return !before(a.end, b.start) && !before(b.end, a.start); }

bool kind_wanted(const std::vector<std::string>& only, std::string_view kind) {
    if (only.empty()) return true;
    for (const auto& o : only) {
        if (kind == o || (kind.starts_with(o) && kind.size() > o.size() && kind[o.size()] == '.')) return true;
    }
    return false;
}

nlohmann::json text_edit_json(const lint::TextEdit& edit) {
    return {{"range", range_json(text_range(*edit.file, edit.range))}, {"newText", edit.replacement}};
}

// The edits by document; the queried document keeps the URI the editor
// named it by. A fix that writes a file that does not exist yet (a lock file
// the lock repair creates) becomes a create operation, then its edits.
// Whether one of `edits` writes a file that does not exist yet.
bool creates_file(const std::vector<lint::TextEdit>& edits, const CodeActionQuery& query) {
    for (const auto& e : edits) {
        const std::string path = absolute_file_path(e.file->path(), query.base_dir);
        std::error_code ec;
        if (path != query.path && !std::filesystem::exists(path, ec)) return true;
    }
    return false;
}

nlohmann::json workspace_edit(const std::vector<lint::TextEdit>& edits, const CodeActionQuery& query) {
    nlohmann::json changes = nlohmann::json::object();
    std::vector<std::string> created;
    for (const auto& e : edits) {
        const std::string path = absolute_file_path(e.file->path(), query.base_dir);
        const std::string uri = path == query.path ? query.uri : uri_of_path(path);
        std::error_code ec;
        if (path != query.path && !changes.contains(uri) && !std::filesystem::exists(path, ec)) created.push_back(uri);
        changes[uri].push_back(text_edit_json(e));
    }
    if (created.empty()) return {{"changes", std::move(changes)}};
    nlohmann::json document_changes = nlohmann::json::array();
    for (const auto& uri : created) {
        document_changes.push_back({{"kind", "create"}, {"uri", uri}, {"options", {{"ignoreIfExists", false}}}});
    }
    for (auto& [uri, list] : changes.items()) {
        document_changes.push_back(
            {{"textDocument", {{"uri", uri}, {"version", nullptr}}}, {"edits", std::move(list)}});
    }
    return {{"documentChanges", std::move(document_changes)}};
}

nlohmann::json diagnostic_ref(const lint::Finding& f) {
    return {{"range", range_json(text_range(*f.file, f.range))},
            {"code", f.rule_id},
            {"source", "tfsift"},
            {"message", f.message}};
}

bool json_file(const std::string& path) { return path.ends_with(".json"); }

}  // namespace

std::optional<lint::TextEdit> ignore_comment_edit(const lint::Finding& finding) {
    if (!finding.file || json_file(finding.file->path())) return std::nullopt;
    const SourceFile& file = *finding.file;
    const std::uint32_t line = file.line(finding.range.start);
    const std::string_view text = file.line_text(line);
    const std::size_t indent_end = text.find_first_not_of(" \t");
    const std::string_view indent = text.substr(0, indent_end == std::string_view::npos ? text.size() : indent_end);
    const std::size_t line_start = static_cast<std::size_t>(text.data() - file.text().data());
    const bool crlf = file.text().find("\r\n") != std::string_view::npos;
    lint::TextEdit edit;
    edit.file = finding.file;
    edit.range = Range{Pos{static_cast<std::uint32_t>(line_start)}, Pos{static_cast<std::uint32_t>(line_start)}};
    edit.replacement = fmt::format("{}# tfsift-ignore: {} -- reason{}", indent, finding.rule_id, crlf ? "\r\n" : "\n");
    return edit;
}

nlohmann::json code_actions(const CodeActionQuery& query, const lint::Findings& findings) {
    nlohmann::json out = nlohmann::json::array();
    lint::Findings own;
    for (const auto& f : findings) {
        if (!f.file || absolute_file_path(f.file->path(), query.base_dir) != query.path) continue;
        if (f.file->text() != query.text) return out;  // computed from another text: stale
        own.push_back(f);
    }
    auto only_this_file = [&query](const lint::Fix& fix) {
        for (const auto& e : fix.edits) {
            if (!e.file || absolute_file_path(e.file->path(), query.base_dir) != query.path) return false;
        }
        return !fix.edits.empty();
    };
    auto named = [&query](const lint::Finding& f, const TextRange& range) {
        return std::any_of(query.diagnostics.begin(), query.diagnostics.end(), [&](const DiagnosticRef& d) {
            return d.range == range && (d.code.empty() || d.code == f.rule_id);
        });
    };
    for (const auto& f : own) {
        const TextRange range = text_range(*f.file, f.range);
        if (!overlaps(range, query.range) && !named(f, range)) continue;
        if (f.fix && f.fix->applicability == lint::Applicability::safe && kind_wanted(query.only, "quickfix")) {
            nlohmann::json action = {{"title", f.fix->description},
                                     {"kind", "quickfix"},
                                     {"isPreferred", true},
                                     {"diagnostics", nlohmann::json::array({diagnostic_ref(f)})}};
            if (query.creates_files || !creates_file(f.fix->edits, query)) {
                action["edit"] = workspace_edit(f.fix->edits, query);
            } else {
                // The client cannot create the file: the server writes it.
                action["command"] = {{"title", f.fix->description},
                                     {"command", std::string(apply_fix_command)},
                                     {"arguments", nlohmann::json::array({{{"uri", query.uri},
                                                                           {"rule", f.rule_id},
                                                                           {"range", range_json(range)}}})}};
            }
            out.push_back(std::move(action));
        }
        if (auto edit = ignore_comment_edit(f); edit && kind_wanted(query.only, "quickfix")) {
            out.push_back({{"title", fmt::format("Ignore {} here", f.rule_id)},
                           {"kind", "quickfix"},
                           {"diagnostics", nlohmann::json::array({diagnostic_ref(f)})},
                           {"edit", workspace_edit({*edit}, query)}});
        }
    }
    if (kind_wanted(query.only, fix_all_kind)) {
        lint::Findings fixable;
        for (const auto& f : own) {
            if (f.fix && only_this_file(*f.fix)) fixable.push_back(f);
        }
        const lint::FixPlan plan = lint::plan_fixes(fixable, lint::FixMode::safe_only);
        if (plan.findings_fixed > 0 && plan.new_text.size() == 1) {
            const SourceFile& file = *own.front().file;
            const TextRange whole{TextPosition{}, text_position(file.text(), file.text().size())};
            nlohmann::json edit = {{"range", range_json(whole)}, {"newText", plan.new_text.begin()->second}};
            out.push_back(
                {{"title", fmt::format("Fix all safe tfsift findings in this file ({})", plan.findings_fixed)},
                 {"kind", fix_all_kind},
                 {"edit", {{"changes", {{query.uri, nlohmann::json::array({edit})}}}}}});
        }
    }
    return out;
}

}  // namespace tfsift::server
