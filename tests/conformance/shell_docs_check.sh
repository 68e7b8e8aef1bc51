#!/usr/bin/env bash
# The manual page and the shell completions: the binary writes what is checked
# in under share/ (so that a changed option cannot go out with stale files),
# groff reads the page without a warning, and each completion script loads in
# its shell and completes commands, options and option values as a user
# typing them would see. zsh and fish are tried where they are installed
# (scripts/debian-packages.txt installs both).
#   shell_docs_check.sh SOURCE_DIR TFSIFT
set -uo pipefail
src=$1
tfsift=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# ---- generated files match the checked-in copies ----------------------------
if ! cmake -DTFSIFT="$tfsift" -DOUT="$work" -P "$src/cmake/generate_shell_docs.cmake"; then
    fail "could not generate the manual page and completions with $tfsift"
    exit 1
fi
for file in tfsift.1 tfsift.bash _tfsift tfsift.fish; do
    if ! diff -u "$src/share/$file" "$work/$file"; then
        fail "share/$file differs from what '$tfsift' writes; regenerate with: scripts/regenerate-shell-docs.sh $tfsift"
    fi
done

# Every subcommand and option the binary's help lists appears in the page.
for command in $("$tfsift" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }'); do
    grep -q "^\.SS \"tfsift $command\"" "$work/tfsift.1" || fail "tfsift.1 has no section for '$command'"
done
while read -r option; do
    grep -q -- "\\\\fB${option//-/\\\\-}\\\\fR" "$work/tfsift.1" || fail "tfsift.1 does not list 'lint $option'"
done < <("$tfsift" lint --help | grep -oE '^ +--[a-z-]+' | tr -d ' ')

# ---- the manual page renders without warnings -------------------------------
if command -v groff >/dev/null; then
    warnings=$(groff -man -Tutf8 -ww -z "$work/tfsift.1" 2>&1)
    [[ -z $warnings ]] || fail "groff warns about tfsift.1: $warnings"
    rendered=$(groff -man -Tutf8 -P-cbou "$work/tfsift.1" 2>/dev/null)
    grep -q -- '--minimum-failure-severity error|warning|notice' <<<"$rendered" \
        || fail "the rendered page lacks '--minimum-failure-severity error|warning|notice'"
else
    echo "note: groff not installed, the page is not rendered"
fi

# ---- bash -------------------------------------------------------------------
# Completes the words given (the last one being typed) and prints the
# candidates one per line, sorted.
bash_complete() {
    bash --norc --noprofile -c '
        source "$1" || exit 3
        complete -p tfsift >/dev/null || exit 4
        shift
        COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
        _tfsift
        printf "%s\n" "${COMPREPLY[@]}"' _ "$work/tfsift.bash" "$@" | sort
}
zsh_complete() {
    zsh -f -c '
        # Stand-ins for the completion system: they print the candidates that
        # match the word being typed, as compadd and _describe would offer them.
        compdef() { :; }
        compadd() {
            [[ $1 == -- ]] && shift
            local c
            for c in "$@"; do [[ $c == ${PREFIX}* ]] && print -r -- "$c"; done
        }
        _describe() { compadd -- "${(@)${(P)4}%%:*}"; }
        _files() { print -- "<files>"; }
        source "$1" || exit 3
        shift
        words=("$@"); CURRENT=${#words}; PREFIX=${words[CURRENT]}
        _tfsift' _ "$work/_tfsift" "$@" | sort
}
fish_complete() {
    local line="$*"
    fish --no-config -c 'source $argv[1]; or exit 3; complete -C $argv[2]' "$work/tfsift.fish" "$line" \
        | cut -f1 | sort
}
# expect SHELL "WORDS..." "EXPECTED CANDIDATES" (space-separated, compared sorted)
expect() {
    local shell=$1 words=$2 expected=$3 got
    # shellcheck disable=SC2086
    if [[ $shell == fish ]]; then
        got=$(fish_complete "$words")
    else
        local -a argv
        read -r -a argv <<<"$words"
        [[ $words == *" " ]] && argv+=("")
        got=$("${shell}_complete" "${argv[@]}")
    fi
    local want
    want=$(tr ' ' '\n' <<<"$expected" | sed '/^$/d' | sort)
    if [[ "$got" != "$want" ]]; then
        fail "$shell completing '$words': expected [$(echo $want)], got [$(echo $got)]"
    fi
}

shells=(bash)
for shell in zsh fish; do
    if command -v "$shell" >/dev/null; then
        shells+=("$shell")
    else
        echo "note: $shell not installed, its completion is not tried"
    fi
done
bash -n "$work/tfsift.bash" || fail "bash cannot parse tfsift.bash"
if command -v zsh >/dev/null; then zsh -n "$work/_tfsift" || fail "zsh cannot parse _tfsift"; fi
if command -v fish >/dev/null; then fish --no-execute "$work/tfsift.fish" || fail "fish cannot parse tfsift.fish"; fi

# Lists that grow with the command line are read from the binary's own help,
# so that a new subcommand or report format needs no edit here.
help_subcommands() { "$tfsift" "$@" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }' | tr '\n' ' '; }
help_choices() {  # help_choices COMMAND... -- OPTION: the {a,b,c} of OPTION
    local option=${*: -1}
    "$tfsift" "${@:1:$#-2}" --help | grep -oE -- "${option} [A-Z]+:\{[^}]*\}" | sed 's/.*{//; s/}//' | tr ',' ' '
}
subcommands=$(help_subcommands)
debug_subcommands=$(help_subcommands debug)
formats=$(help_choices lint -- --format)
[[ $subcommands == *lint* && $debug_subcommands == *parse* && $formats == *sarif* ]] \
    || fail "could not read the subcommands and formats from --help: [$subcommands] [$debug_subcommands] [$formats]"
# Rule ids, from `tfsift rules`: those starting with "lock-", and all of them.
lock_rules=$("$tfsift" rules | awk 'NR > 1 && $1 ~ /^lock-/ { print $1 }' | tr '\n' ' ')
all_rules=$("$tfsift" rules | awk 'NR > 1 { print $1 }' | tr '\n' ' ')
[[ $lock_rules == *lock-missing* ]] || fail "could not read the rule ids from tfsift rules: [$lock_rules]"

for shell in "${shells[@]}"; do
    expect "$shell" "tfsift li" "lint"
    expect "$shell" "tfsift " "$subcommands"
    expect "$shell" "tfsift lint --fo" "--format"
    expect "$shell" "tfsift lint --format " "$formats"
    expect "$shell" "tfsift lint -f sa" "sarif"
    expect "$shell" "tfsift lint --minimum-failure-severity " "$(help_choices lint -- --minimum-failure-severity)"
    expect "$shell" "tfsift lint --format json --rec" "--recursive"
    expect "$shell" "tfsift debug " "$debug_subcommands"
    expect "$shell" "tfsift debug lock --eng" "--engine"
    expect "$shell" "tfsift lock --engine " "terraform opentofu"
    expect "$shell" "tfsift completion " "bash zsh fish"
    # Rule ids, wherever a rule is named.
    expect "$shell" "tfsift rule lock-" "$lock_rules"
    expect "$shell" "tfsift rule " "$all_rules"
    expect "$shell" "tfsift lint --enable lock-" "$lock_rules"
    expect "$shell" "tfsift lint --only unused-decl" "unused-declaration"
    expect "$shell" "tfsift lint --disable unused-decl" "unused-declaration"
    # A value that happens to be a command name stays a value.
    expect "$shell" "tfsift lint --chdir debug --qu" "--quiet"
done

if (( failures > 0 )); then
    echo "$failures check(s) failed"
    exit 1
fi
echo "man page and completions: generated copies match share/, ${shells[*]} complete as expected"
