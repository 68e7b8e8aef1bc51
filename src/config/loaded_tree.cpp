#include "tfsift/config/loaded_tree.hpp"

namespace tfsift::config {

std::string_view to_string(LoadPhase phase) {
    switch (phase) {
        case LoadPhase::parse: return "parse";
        case LoadPhase::load: return "load";
        case LoadPhase::tree: return "tree";
    }
    return "load";
}

}  // namespace tfsift::config
