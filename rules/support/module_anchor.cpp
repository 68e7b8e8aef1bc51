#include "module_anchor.hpp"

namespace tfsift::lint::rules {

ModuleAnchor module_anchor(const LintContext& ctx) {
    for (const auto& file : ctx.files()) {
        if (file.decoded->terraform.empty()) continue;
        const Pos at = file.decoded->terraform.front().origin.pos;
        if (file.parsed->native) {
            for (const auto& b : file.parsed->native->body->blocks) {
                if (b.type_range().start.byte == at.byte) return {file.parsed->source, b.type_range()};
            }
        }
        // JSON: the position of the "terraform" property.
        return {file.parsed->source, Range{at, at}};
    }
    if (ctx.files().empty()) return {};
    return {ctx.files().front().parsed->source, Range{}};
}

}  // namespace tfsift::lint::rules
