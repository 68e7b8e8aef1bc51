// Findings as the Language Server Protocol's Diagnostic objects: positions
// in UTF-16 units, the severity mapped, the rule id as `code` with a link to
// its documentation, related locations as `relatedInformation`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tfsift/lint/finding.hpp"
#include "tfsift/lint/rule.hpp"
#include "tfsift/server/text_position.hpp"

namespace tfsift::server {

// The protocol range of `range` in `file`.
TextRange text_range(const SourceFile& file, Range range);
nlohmann::json range_json(const TextRange& range);
TextPosition position_from_json(const nlohmann::json& position);
TextRange range_from_json(const nlohmann::json& range);

// The absolute path of a file as a finding names it: absolute names are
// kept, relative ones are taken from `base_dir` (absolute); normalized.
std::string absolute_file_path(const std::string& named, const std::string& base_dir);

// DiagnosticSeverity: 1 error, 2 warning, 3 information.
int lsp_severity(Severity severity);

// One Diagnostic, its codeDescription the rule's page under `links` (none
// when `rule` is null or `links` has no home page); relative file names of
// related locations are resolved against `base_dir`.
nlohmann::json lsp_diagnostic(const lint::Finding& finding, const lint::Rule* rule, const std::string& base_dir,
                              const lint::ProjectLinks& links = {});

}  // namespace tfsift::server
