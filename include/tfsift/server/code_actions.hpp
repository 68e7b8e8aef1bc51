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

struct CodeActionQuery {
    std::string uri;                // the document
    std::string path;               // its absolute path
    std::string_view text;          // its current text
    TextRange range;                // the range the editor asks about
    std::vector<std::string> only;  // CodeActionKinds asked for; empty: all
    std::string base_dir;           // resolves relative file names of fixes
};

// The actions for `query` from `findings` (the findings of the document's
// module). Findings computed from another text than the document's current
// one are left out: their byte ranges would no longer fit.
nlohmann::json code_actions(const CodeActionQuery& query, const lint::Findings& findings);

// The inline ignore comment that suppresses `finding` (a line of its own
// above the finding's first line, indented like it), as the edit inserting
// it; none for a JSON file, which has no comments.
std::optional<lint::TextEdit> ignore_comment_edit(const lint::Finding& finding);

}  // namespace tfsift::server
