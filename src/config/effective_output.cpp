#include "tfsift/config/effective_output.hpp"

#include "tfsift/config/effective_document.hpp"
#include "tfsift/config/effective_hcl.hpp"

namespace tfsift::config {

EffectiveOutput render_effective(const std::string& dir, const TreeOptions& options, EffectiveFormat format) {
    EffectiveOutput out;
    const LoadedTree tree = load_module_tree(dir, options);
    if (!tree.root) return out;
    out.loaded = true;
    out.has_errors = tree.has_errors();
    out.read_failures = tree.read_failures;
    if (format == EffectiveFormat::hcl) {
        out.text = effective_hcl(*tree.root, tree.diagnostics);
    } else {
        out.text = dump_document(effective_document(tree.root.get(), tree.diagnostics));
    }
    return out;
}

}  // namespace tfsift::config
