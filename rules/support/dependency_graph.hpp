// The dependencies between the objects of one module, as Terraform's graph
// draws them from references and depends_on: resources, data sources, local
// values and module calls, by address (`aws_instance.web`,
// `data.aws_ami.app`, `local.name`, `module.net`). Used by the rules about
// create_before_destroy, which Terraform propagates along these edges.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "tfsift/config/model.hpp"

namespace tfsift::lint {

// Each object's address to the addresses of the objects it depends on.
using DependencyGraph = std::map<std::string, std::set<std::string>>;

DependencyGraph dependency_graph(const config::Module& module);

// Everything `from` depends on, directly or through other objects (`from`
// itself excluded).
std::set<std::string> dependencies_of(const DependencyGraph& graph, const std::string& from);

// The value a resource's lifecycle writes for create_before_destroy, when it
// writes one.
std::optional<bool> written_create_before_destroy(const config::Resource& resource);

}  // namespace tfsift::lint
