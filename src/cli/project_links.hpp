// Where this build of tfsift says its documentation is published: the home
// page CMake was given (TFSIFT_HOMEPAGE, empty by default) and this
// version, for the links of reports and of the language server.
#pragma once

#include "tfsift/lint/rule.hpp"

namespace tfsift::cli {

lint::ProjectLinks project_links();

}  // namespace tfsift::cli
