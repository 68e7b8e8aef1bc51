#!/usr/bin/env bash
# Checks the layering of the source tree (CONTRIBUTING.md, "How tfsift is built"):
#   - providers/ (include/tfsift/providers, src/providers) never includes
#     config/: provider facts know nothing of the configuration model;
#   - lint/ (include/tfsift/lint, src/lint) never includes the rules: the
#     engine gets the catalogue from its caller;
#   - rules/ holds rules and nothing else: every file directly in it is a
#     .cpp that defines one rule (a `Rule NAME()` factory setting `r.id`, or
#     for `tfsift lock diff` a `ReviewRule NAME()` one);
#     helpers live in rules/support/.
# Prints every violation with its file and line and exits 1 when there is
# one. `--self-test` plants one violation of each kind in a scratch copy of
# the relevant folders and demands that each is caught.
#
# usage: scripts/check-layers.sh [SOURCE_DIR]
#        scripts/check-layers.sh --self-test [SOURCE_DIR]
set -euo pipefail

check() {
    local root=$1 bad=0 f
    # Includes of a forbidden folder, by path or (inside rules/) relatively.
    local hits
    hits=$(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+[<"]tfsift/config/' \
        "$root"/include/tfsift/providers/* "$root"/src/providers/* 2>/dev/null || true)
    if [[ -n $hits ]]; then
        printf '%s\n' "$hits" | sed 's/$/  <- providers\/ must not include config\//'
        bad=1
    fi
    hits=$(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+[<"](tfsift/rules/|(\.\./)*rules/)' \
        "$root"/include/tfsift/lint/* "$root"/src/lint/* 2>/dev/null || true)
    if [[ -n $hits ]]; then
        printf '%s\n' "$hits" | sed 's/$/  <- lint\/ must not include the rules/'
        bad=1
    fi
    # Every file directly in rules/ defines a rule.
    for f in "$root"/rules/*; do
        [[ -d $f ]] && continue
        case $f in
            *.cpp) ;;
            *)
                echo "$f: not a rule (helpers belong in rules/support/)"
                bad=1
                continue
                ;;
        esac
        if ! grep -qE '^(Review)?Rule [a-z0-9_]+\(\)[[:space:]]*\{' "$f" || ! grep -qE '\br\.id[[:space:]]*=' "$f"; then
            echo "$f: defines no rule (a \`Rule NAME()\` factory setting r.id); helpers belong in rules/support/"
            bad=1
        fi
    done
    return $bad
}

self_test() {
    local root=$1 scratch failed=0
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' RETURN
    local dirs=(include/tfsift/providers src/providers include/tfsift/lint src/lint rules)
    fresh() {
        rm -rf "${scratch:?}"/*
        local d
        for d in "${dirs[@]}"; do
            mkdir -p "$scratch/$d"
            cp -R "$root/$d/." "$scratch/$d/"
        done
    }
    expect_failure() {
        local what=$1
        if check "$scratch" >/dev/null; then
            echo "self-test: not caught: $what"
            failed=1
        fi
    }
    fresh
    if ! check "$scratch"; then
        echo "self-test: the unmodified tree does not pass"
        return 1
    fi
    fresh
    echo '#include "tfsift/config/model.hpp"' >>"$scratch/src/providers/address.cpp"
    expect_failure "src/providers including config/"
    fresh
    echo '#include "tfsift/config/loaded_tree.hpp"' >>"$scratch/include/tfsift/providers/address.hpp"
    expect_failure "include/tfsift/providers including config/"
    fresh
    echo '#include "tfsift/rules/catalogue.hpp"' >>"$scratch/src/lint/linter.cpp"
    expect_failure "src/lint including the rule catalogue"
    fresh
    echo '#include "../rules/support/factories.hpp"' >>"$scratch/src/lint/settings.cpp"
    expect_failure "src/lint including rules/ relatively"
    fresh
    printf 'namespace tfsift::lint::rules {\nint helper() { return 1; }\n}\n' >"$scratch/rules/helper.cpp"
    expect_failure "a .cpp in rules/ that defines no rule"
    fresh
    echo '#pragma once' >"$scratch/rules/helper.hpp"
    expect_failure "a header in rules/"
    [[ $failed == 0 ]] && echo "self-test: every planted violation was caught"
    return $failed
}

if [[ ${1:-} == --self-test ]]; then
    self_test "$(cd "${2:-$(dirname "$0")/..}" && pwd)"
else
    check "$(cd "${1:-$(dirname "$0")/..}" && pwd)"
fi
