#include "tfsift/config/effective_output.hpp"

#include "tfsift/config/effective_document.hpp"
#include "tfsift/config/effective_hcl.hpp"

#include <fmt/core.h>

#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::config {

EffectiveOutput render_effective(const std::string& dir, const TreeOptions& options, EffectiveFormat format) {
    EffectiveOutput out;
    LoadedTree tree = load_module_tree(dir, options);
    if (!tree.root) return out;
    out.loaded = true;
    out.has_errors = tree.has_errors();
    out.read_failures = tree.read_failures;
    std::erase_if(tree.diagnostics, [&](const LoadDiagnostic& d) {
        if (d.diagnostic.code != code::module_not_loaded || d.diagnostic.severity == Severity::error) return false;
        std::string at = d.diagnostic.filename;
        if (d.source && d.diagnostic.subject) {
            const ResolvedPos pos = d.source->resolve(d.diagnostic.subject->start);
            at = fmt::format("{}:{}:{}", d.source->path(), pos.line, pos.column);
        }
        out.notices.push_back(fmt::format("{}: {}", at, d.diagnostic.detail));
        return true;
    });
    if (format == EffectiveFormat::hcl) {
        out.text = effective_hcl(*tree.root, tree.diagnostics);
    } else {
        out.text = dump_document(effective_document(tree.root.get(), tree.diagnostics));
    }
    return out;
}

}  // namespace tfsift::config
