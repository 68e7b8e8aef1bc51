// variable-type-missing: a variable declared without a type constraint.
#include <fmt/core.h>

#include <unordered_map>

#include "support/byte_index.hpp"
#include "support/factories.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

// Where each variable of the module's files is declared, by its file and
// the byte its block starts at: made once, at the first variable without a
// type, rather than searched through its file for each (a module of many
// untyped variables took time quadratic in their number).
class DeclaredRanges {
public:
    explicit DeclaredRanges(const LintContext& ctx) : ctx_(ctx) {}

    Range of(const config::Variable& v) {
        if (!built_) build();
        if (auto it = by_file_.find(v.origin.file); it != by_file_.end()) {
            if (const Range* r = it->second.find(v.origin.pos.byte)) return *r;
        }
        return Range{v.origin.pos, v.origin.pos};
    }

private:
    void build() {
        built_ = true;
        for (const auto& file : ctx_.files()) {
            // A file met again keeps its first listing, as a search in
            // file order finds it.
            auto [it, added] = by_file_.try_emplace(file.parsed->source.get());
            if (!added) continue;
            for (const auto& [written, decl] : file.decoded->variables) {
                it->second.add(written.origin.pos.byte, decl.def_range);
            }
            it->second.sort();
        }
    }

    const LintContext& ctx_;
    bool built_ = false;
    std::unordered_map<const SourceFile*, ByteIndex<Range>> by_file_;
};

void check(const LintContext& ctx, FindingSink& sink) {
    DeclaredRanges declared(ctx);
    for (const auto& [name, v] : ctx.module().module->variables) {
        if (v.type_expr) continue;
        Finding f;
        f.rule_id = "variable-type-missing";
        f.severity = Severity::warning;
        f.file = ctx.shared_source(v.origin.file);
        if (!f.file) continue;
        f.range = declared.of(v);
        f.message = fmt::format("variable \"{}\" has no type, so any value is accepted", name);
        sink.report(std::move(f));
    }
}

}  // namespace

Rule variable_type_missing() {
    Rule r;
    r.id = "variable-type-missing";
    r.default_severity = Severity::warning;
    r.enabled_by_default = true;
    r.fixable = false;
    r.doc.summary = "A `variable` block has no `type`.";
    r.doc.what =
        "Reports each input variable of a module (override files applied) that declares no `type` constraint. "
        "TFLint calls this `terraform_typed_variables`.";
    r.doc.why =
        "Without a type a variable accepts any value, even when its default is a string: a caller's mistake "
        "(a list where a string was meant) surfaces later, far from the call, as an error inside the module "
        "or not at all. The type is also the variable's most useful documentation, and attribute access on it "
        "can only be checked when it is declared.";
    r.doc.failing_example = R"hcl(variable "region" {
  default = "eu-west-1"
}
)hcl";
    r.doc.passing_example = R"hcl(variable "region" {
  type    = string
  default = "eu-west-1"
}
)hcl";
    r.doc.fix_safety = "Not fixable: the type is a decision about what callers may pass.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
