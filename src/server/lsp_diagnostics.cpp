#include "tfsift/server/lsp_diagnostics.hpp"

#include <filesystem>

#include "tfsift/server/file_uri.hpp"

namespace fs = std::filesystem;

namespace tfsift::server {

namespace {

TextPosition text_position_of(const SourceFile& file, Pos pos) {
    const std::uint32_t line = file.line(pos);
    const std::uint32_t column = file.utf16_column(pos);
    return TextPosition{line > 0 ? line - 1 : 0, column > 0 ? column - 1 : 0};
}

std::uint32_t json_uint(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) return 0;
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return 0;
    const auto v = it->get<std::int64_t>();
    return v < 0 ? 0 : static_cast<std::uint32_t>(std::min<std::int64_t>(v, 0xFFFFFFFF));
}

}  // namespace

TextRange text_range(const SourceFile& file, Range range) {
    return TextRange{text_position_of(file, range.start), text_position_of(file, range.end)};
}

nlohmann::json range_json(const TextRange& range) {
    return {{"start", {{"line", range.start.line}, {"character", range.start.character}}},
            {"end", {{"line", range.end.line}, {"character", range.end.character}}}};
}

TextPosition position_from_json(const nlohmann::json& position) {
    return TextPosition{json_uint(position, "line"), json_uint(position, "character")};
}

TextRange range_from_json(const nlohmann::json& range) {
    if (!range.is_object()) return {};
    return TextRange{position_from_json(range.value("start", nlohmann::json::object())),
                     position_from_json(range.value("end", nlohmann::json::object()))};
}

std::string absolute_file_path(const std::string& named, const std::string& base_dir) {
    fs::path p(named);
    if (!p.is_absolute()) p = fs::path(base_dir) / p;
    return p.lexically_normal().string();
}

int lsp_severity(Severity severity) {
    switch (severity) {
        case Severity::error: return 1;
        case Severity::warning: return 2;
        case Severity::notice: return 3;
    }
    return 3;
}

nlohmann::json lsp_diagnostic(const lint::Finding& finding, const lint::Rule* rule, const std::string& base_dir,
                              const lint::ProjectLinks& links) {
    nlohmann::json d{{"range", range_json(text_range(*finding.file, finding.range))},
                     {"severity", lsp_severity(finding.severity)},
                     {"code", finding.rule_id},
                     {"source", "tfsift"},
                     {"message", finding.message}};
    if (const std::string uri = rule != nullptr ? lint::rule_help_uri(*rule, links) : std::string(); !uri.empty()) {
        d["codeDescription"] = {{"href", uri}};
    }
    if (!finding.related.empty()) {
        nlohmann::json related = nlohmann::json::array();
        for (const auto& r : finding.related) {
            if (!r.file) continue;
            related.push_back({{"location",
                                {{"uri", uri_of_path(absolute_file_path(r.file->path(), base_dir))},
                                 {"range", range_json(text_range(*r.file, r.range))}}},
                               {"message", r.message}});
        }
        d["relatedInformation"] = std::move(related);
    }
    return d;
}

}  // namespace tfsift::server
