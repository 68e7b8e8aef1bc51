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

const std::shared_ptr<const Module>& empty_module() {
    static const std::shared_ptr<const Module> empty = std::make_shared<const Module>();
    return empty;
}

}  // namespace tfsift::config
