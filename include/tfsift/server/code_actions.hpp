// The code actions the server offers on a document: each safe fix of a
// finding as a quick fix, an inline ignore comment for a finding ("ignore
// this finding here"), and every safe fix of the file at once
// (`source.fixAll.tfsift`). Each is a WorkspaceEdit for the editor to apply;
// the server itself never writes a file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tfsift/lint/finding.hpp"
#include "tfsift/server/text_position.hpp"

namespace tfsift::server {

inline constexpr std::string_view fix_all_kind = "source.fixAll.tfsift";

// The command a client without file-create support runs to have the server
// apply a fix that creates a file (`workspace/executeCommand`).
inline constexpr std::string_view apply_fix_command = "tfsift.applyFix";

// A diagnostic the editor names in a code action request's context.
struct DiagnosticRef {
    TextRange range;
    std::string code;  // the rule id; empty when the client sent none
};

struct CodeActionQuery {
    std::string uri;                // the document
    std::string path;               // its absolute path
    std::string_view text;          // its current text
    TextRange range;                // the range the editor asks about
    std::vector<std::string> only;  // CodeActionKinds asked for; empty: all
    // The diagnostics the request is about (CodeActionContext.diagnostics):
    // their findings get actions wherever the range is.
    std::vector<DiagnosticRef> diagnostics;
    std::string base_dir;           // resolves relative file names of fixes
    // Whether the client applies edits that create files; when it does not,
    // a fix that creates one is offered as the apply_fix_command instead.
    bool creates_files = false;
};

// The actions for `query` from `findings` (the findings of the document's
// module): those of the findings whose range overlaps the query's range or
// that the context's diagnostics name. Findings computed from another text
// than the document's current one are left out: their byte ranges would no
// longer fit.
nlohmann::json code_actions(const CodeActionQuery& query, const lint::Findings& findings);

// The inline ignore comment that suppresses `finding` (a line of its own
// above the finding's first line, indented like it), as the edit inserting
// it; none for a JSON file, which has no comments.
std::optional<lint::TextEdit> ignore_comment_edit(const lint::Finding& finding);

}  // namespace tfsift::server
