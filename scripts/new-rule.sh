#!/usr/bin/env bash
# Scaffolds a new rule: the rule file, its failing and passing fixtures, its
# factory declaration and catalogue entry, and (with --build) its generated
# documentation. The rule it writes works as it stands (it reports a
# `variable` block without a `description`), so the fixtures pass from the
# start; replace its check, documentation and fixtures with the real ones.
#
# usage: scripts/new-rule.sh [--build BUILD_DIR] RULE-ID
#   RULE-ID      kebab-case, e.g. output-description-missing
#   --build DIR  then build tfsift in DIR and regenerate docs/rules/ with it
#
# Files written (relative to the source tree):
#   rules/<rule_id>.cpp                       the rule: id, severity, documentation, check
#   rules/support/factories.hpp               + its factory's declaration
#   rules/support/catalogue.cpp               + its entry in the list of built-in rules
#   fixtures/rules/<rule-id>/failing/main.tf  a case with `# expect: <rule-id>` where the finding starts
#   fixtures/rules/<rule-id>/passing/main.tf  a case without findings
#   docs/rules/<rule-id>.md                   generated from the rule (with --build)
#   docs/rules.md                             the index of the rule pages (with --build)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=
while [[ $# -gt 0 ]]; do
    case $1 in
        --build)
            build=$2
            shift 2
            ;;
        -h | --help)
            sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        -*)
            echo "new-rule: unknown option $1" >&2
            exit 2
            ;;
        *) break ;;
    esac
done
if [[ $# -ne 1 ]]; then
    echo "usage: scripts/new-rule.sh [--build BUILD_DIR] RULE-ID" >&2
    exit 2
fi
id=$1
if ! [[ $id =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)+$ ]]; then
    echo "new-rule: \"$id\" is not a kebab-case id of at least two words (e.g. output-description-missing)" >&2
    exit 2
fi
fn=${id//-/_}
rule_file=$src/rules/$fn.cpp
fixture_dir=$src/fixtures/rules/$id
factories=$src/rules/support/factories.hpp
catalogue=$src/rules/support/catalogue.cpp
for f in "$rule_file" "$fixture_dir"; do
    if [[ -e $f ]]; then
        echo "new-rule: ${f#"$src"/} already exists" >&2
        exit 1
    fi
done
if grep -q "^Rule $fn();" "$factories"; then
    echo "new-rule: rules/support/factories.hpp already declares $fn()" >&2
    exit 1
fi

cat >"$rule_file" <<EOF
// $id: a variable declared without a description (scaffolded by
// scripts/new-rule.sh: replace this check and its documentation).
#include <fmt/core.h>

#include "support/factories.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "$id";

void check(const LintContext& ctx, FindingSink& sink) {
    for (const config::ModuleFile& file : ctx.files()) {
        for (const auto& [variable, declaration] : file.decoded->variables) {
            if (variable.description) continue;
            Finding f;
            f.rule_id = std::string(rule_id);
            f.severity = Severity::warning;
            f.file = ctx.shared_source(variable.origin.file);
            if (!f.file) continue;
            f.range = declaration.def_range;
            f.message = fmt::format("variable \"{}\" has no description", variable.name);
            sink.report(std::move(f));
        }
    }
}

}  // namespace

Rule $fn() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::warning;
    r.enabled_by_default = false;
    r.fixable = false;
    r.doc.summary = "A \`variable\` block has no \`description\`.";
    r.doc.what = "Reports each \`variable\` block of a module's files that has no \`description\` argument.";
    r.doc.why = "A module's variables are its interface; the description is what callers read.";
    r.doc.failing_example = R"hcl(variable "region" {
  type = string
}
)hcl";
    r.doc.passing_example = R"hcl(variable "region" {
  type        = string
  description = "The region to deploy into."
}
)hcl";
    r.doc.fix_safety = "Not fixable: only the author knows what the variable is for.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
EOF

mkdir -p "$fixture_dir/failing" "$fixture_dir/passing"
cat >"$fixture_dir/failing/main.tf" <<EOF
variable "region" { # expect: $id
  type = string
}
EOF
cat >"$fixture_dir/passing/main.tf" <<EOF
variable "region" {
  type        = string
  description = "The region to deploy into."
}
EOF

# The factory, before the closing namespace of factories.hpp; the entry, at
# the end of the catalogue's list.
python3 - "$factories" "$catalogue" "$fn" <<'EOF'
import sys
factories, catalogue, fn = sys.argv[1:]
text = open(factories).read()
end = text.rindex("\n}  // namespace tfsift::lint::rules")
text = text[:end].rstrip("\n") + "\nRule %s();\n" % fn + text[end:]
open(factories, "w").write(text)
text = open(catalogue).read()
start = text.index("builtin_rules() {")
end = text.index("\n    };", start)
text = text[:end] + "\n        rules::%s()," % fn + text[end:]
open(catalogue, "w").write(text)
EOF

echo "new-rule: wrote rules/$fn.cpp, fixtures/rules/$id/{failing,passing}/main.tf and the catalogue entry"
if [[ -n $build ]]; then
    cmake --build "$build" -j2 --target tfsift
    "$build/tfsift" rule --all-markdown "$src/docs/rules"
    python3 "$src/scripts/rules-index.py"
    echo "new-rule: wrote docs/rules/$id.md and the index docs/rules.md"
else
    echo "new-rule: build, then run \`BUILD/tfsift rule --all-markdown docs/rules\` and scripts/rules-index.py" \
        "to generate docs/rules/$id.md and the index docs/rules.md"
fi
