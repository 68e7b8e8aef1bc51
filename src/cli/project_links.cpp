// The links of this build (project_links.hpp).
#include "cli/project_links.hpp"

#include "cli/project_links_config.hpp"

namespace tfsift::cli {

lint::ProjectLinks project_links() { return {std::string(configured::homepage), TFSIFT_VERSION}; }

}  // namespace tfsift::cli
