// The parse dump: a parsed file as the JSON document described in
// ../shared/spec/parse-dump.md, the same format HCL's reference printer emits.
#pragma once

#include <string>

#include "tfsift/hcl/ast.hpp"

namespace tfsift::hcl {

// {"errors": N, "first_error_line": L|null, "body": BODY} as JSON text, with
// constant numbers exact to the last digit. `pretty` indents by two spaces.
std::string dump_file_text(const File& file, bool pretty);

}  // namespace tfsift::hcl
