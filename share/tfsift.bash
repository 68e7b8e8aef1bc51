# bash completion for tfsift, generated from tfsift's command table by `tfsift completion bash`; do not edit

# Succeeds when option $2 of command path $1 takes a value.
_tfsift_takes_value() {
    case "$1 $2" in
        "tfsift lint --format"|"tfsift lint -f") return 0 ;;
        "tfsift lint --output"|"tfsift lint -o") return 0 ;;
        "tfsift lint --sarif-category") return 0 ;;
        "tfsift lint --minimum-failure-severity") return 0 ;;
        "tfsift lint --enable") return 0 ;;
        "tfsift lint --disable") return 0 ;;
        "tfsift lint --only") return 0 ;;
        "tfsift lint --config") return 0 ;;
        "tfsift lint --chdir") return 0 ;;
        "tfsift lint --state") return 0 ;;
        "tfsift lint --var-file") return 0 ;;
        "tfsift lint --var") return 0 ;;
        "tfsift lint --engine") return 0 ;;
        "tfsift lint --color") return 0 ;;
        "tfsift lint --jobs"|"tfsift lint -j") return 0 ;;
        "tfsift lint --max-total-size") return 0 ;;
        "tfsift lint --max-memory") return 0 ;;
        "tfsift lint --write-baseline") return 0 ;;
        "tfsift lint --baseline") return 0 ;;
        "tfsift lint --ignore-reason") return 0 ;;
        "tfsift lint --preset") return 0 ;;
        "tfsift rules --format"|"tfsift rules -f") return 0 ;;
        "tfsift rule --all-markdown") return 0 ;;
        "tfsift effective --format") return 0 ;;
        "tfsift effective --engine") return 0 ;;
        "tfsift lock --platform") return 0 ;;
        "tfsift lock --fs-mirror") return 0 ;;
        "tfsift lock --net-mirror") return 0 ;;
        "tfsift lock --provider") return 0 ;;
        "tfsift lock --cache-dir") return 0 ;;
        "tfsift lock --jobs") return 0 ;;
        "tfsift lock --max-package-size") return 0 ;;
        "tfsift lock --engine") return 0 ;;
        "tfsift lock diff --base") return 0 ;;
        "tfsift lock diff --base-file") return 0 ;;
        "tfsift lock diff --format"|"tfsift lock diff -f") return 0 ;;
        "tfsift lock diff --output"|"tfsift lock diff -o") return 0 ;;
        "tfsift lock diff --jobs") return 0 ;;
        "tfsift lock diff --cache-dir") return 0 ;;
        "tfsift lock diff --engine") return 0 ;;
        "tfsift lock diff --color") return 0 ;;
        "tfsift fetch --cache-dir") return 0 ;;
        "tfsift fetch --engine") return 0 ;;
        "tfsift init --from-tflint") return 0 ;;
        "tfsift init --output"|"tfsift init -o") return 0 ;;
        "tfsift server --debounce") return 0 ;;
        "tfsift debug lock --engine") return 0 ;;
    esac
    return 1
}

_tfsift() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="tfsift" word i skip=0
    (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
    for (( i = 1; i < COMP_CWORD; i++ )); do
        word="${COMP_WORDS[i]}"
        if (( skip )); then skip=0; continue; fi
        if _tfsift_takes_value "$path" "$word"; then skip=1; continue; fi
        case "$path $word" in
            "tfsift lint"|"tfsift rules"|"tfsift rule"|"tfsift effective"|"tfsift lock"|"tfsift fetch"|"tfsift init"|"tfsift server"|"tfsift debug"|"tfsift completion"|"tfsift man") path="$path $word" ;;
            "tfsift lock diff") path="$path $word" ;;
            "tfsift debug parse"|"tfsift debug hash"|"tfsift debug lock") path="$path $word" ;;
        esac
    done
    COMPREPLY=()
    if (( skip )); then
        case "$path $prev" in
            "tfsift lint --format"|"tfsift lint -f") mapfile -t COMPREPLY < <(compgen -W 'text json sarif checkstyle junit compact github gitlab rdjson' -- "$cur") ;;
            "tfsift lint --output"|"tfsift lint -o") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --sarif-category") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --minimum-failure-severity") mapfile -t COMPREPLY < <(compgen -W 'error warning notice' -- "$cur") ;;
            "tfsift lint --enable") mapfile -t COMPREPLY < <(compgen -W 'syntax-error invalid-configuration unused-ignore duplicate-block override-missing-base override-depends-on override-variable-type override-invalid-result override-undocumented module-provider-config module-provider-config-meta provider-alias-undeclared module-alias-not-passed module-not-loaded module-providers-unknown module-providers-incomplete lifecycle-non-literal lifecycle-unknown-argument ignore-changes-meta-argument ignore-changes-wildcard replace-triggered-by-invalid create-before-destroy-conflict create-before-destroy-provisioner condition-constant module-required-providers required-providers-placement provider-local-name-duplicate provider-source-invalid provider-source-missing provider-version-missing provider-version-invalid provider-local-name resource-provider-unresolved shared-module-max-version root-module-unbounded-version provider-legacy-terraform provider-config-removed lock-syntax lock-missing lock-missing-provider lock-stale-provider lock-version-mismatch lock-constraints-drift lock-hash-mismatch lock-platforms-incomplete lock-missing-hashes lock-in-shared-module lock-hash-unsigned lock-signing-key-changed lock-version-downgraded lock-platforms-lost lock-source-moved module-version-unpinned required-version-conflict reference-undeclared reference-invalid terraform-workspace-remote function-call-invalid module-arguments-invalid count-for-each-invalid expression-invalid connection-host-missing unused-declaration unused-required-provider deprecated-interpolation deprecated-index deprecated-lookup duplicate-map-key module-source-unpinned required-version-missing variable-type-missing test-reference-invalid' -- "$cur") ;;
            "tfsift lint --disable") mapfile -t COMPREPLY < <(compgen -W 'syntax-error invalid-configuration unused-ignore duplicate-block override-missing-base override-depends-on override-variable-type override-invalid-result override-undocumented module-provider-config module-provider-config-meta provider-alias-undeclared module-alias-not-passed module-not-loaded module-providers-unknown module-providers-incomplete lifecycle-non-literal lifecycle-unknown-argument ignore-changes-meta-argument ignore-changes-wildcard replace-triggered-by-invalid create-before-destroy-conflict create-before-destroy-provisioner condition-constant module-required-providers required-providers-placement provider-local-name-duplicate provider-source-invalid provider-source-missing provider-version-missing provider-version-invalid provider-local-name resource-provider-unresolved shared-module-max-version root-module-unbounded-version provider-legacy-terraform provider-config-removed lock-syntax lock-missing lock-missing-provider lock-stale-provider lock-version-mismatch lock-constraints-drift lock-hash-mismatch lock-platforms-incomplete lock-missing-hashes lock-in-shared-module lock-hash-unsigned lock-signing-key-changed lock-version-downgraded lock-platforms-lost lock-source-moved module-version-unpinned required-version-conflict reference-undeclared reference-invalid terraform-workspace-remote function-call-invalid module-arguments-invalid count-for-each-invalid expression-invalid connection-host-missing unused-declaration unused-required-provider deprecated-interpolation deprecated-index deprecated-lookup duplicate-map-key module-source-unpinned required-version-missing variable-type-missing test-reference-invalid' -- "$cur") ;;
            "tfsift lint --only") mapfile -t COMPREPLY < <(compgen -W 'syntax-error invalid-configuration unused-ignore duplicate-block override-missing-base override-depends-on override-variable-type override-invalid-result override-undocumented module-provider-config module-provider-config-meta provider-alias-undeclared module-alias-not-passed module-not-loaded module-providers-unknown module-providers-incomplete lifecycle-non-literal lifecycle-unknown-argument ignore-changes-meta-argument ignore-changes-wildcard replace-triggered-by-invalid create-before-destroy-conflict create-before-destroy-provisioner condition-constant module-required-providers required-providers-placement provider-local-name-duplicate provider-source-invalid provider-source-missing provider-version-missing provider-version-invalid provider-local-name resource-provider-unresolved shared-module-max-version root-module-unbounded-version provider-legacy-terraform provider-config-removed lock-syntax lock-missing lock-missing-provider lock-stale-provider lock-version-mismatch lock-constraints-drift lock-hash-mismatch lock-platforms-incomplete lock-missing-hashes lock-in-shared-module lock-hash-unsigned lock-signing-key-changed lock-version-downgraded lock-platforms-lost lock-source-moved module-version-unpinned required-version-conflict reference-undeclared reference-invalid terraform-workspace-remote function-call-invalid module-arguments-invalid count-for-each-invalid expression-invalid connection-host-missing unused-declaration unused-required-provider deprecated-interpolation deprecated-index deprecated-lookup duplicate-map-key module-source-unpinned required-version-missing variable-type-missing test-reference-invalid' -- "$cur") ;;
            "tfsift lint --config") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --chdir") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --state") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --var-file") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --var") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --engine") mapfile -t COMPREPLY < <(compgen -W 'terraform opentofu' -- "$cur") ;;
            "tfsift lint --color") mapfile -t COMPREPLY < <(compgen -W 'auto always never' -- "$cur") ;;
            "tfsift lint --max-total-size") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --max-memory") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --write-baseline") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --baseline") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --ignore-reason") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lint --preset") mapfile -t COMPREPLY < <(compgen -W 'recommended strict' -- "$cur") ;;
            "tfsift rules --format"|"tfsift rules -f") mapfile -t COMPREPLY < <(compgen -W 'text json' -- "$cur") ;;
            "tfsift rule --all-markdown") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift effective --format") mapfile -t COMPREPLY < <(compgen -W 'json hcl' -- "$cur") ;;
            "tfsift effective --engine") mapfile -t COMPREPLY < <(compgen -W 'terraform opentofu' -- "$cur") ;;
            "tfsift lock --platform") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock --fs-mirror") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock --net-mirror") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock --provider") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock --cache-dir") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock --max-package-size") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock --engine") mapfile -t COMPREPLY < <(compgen -W 'terraform opentofu' -- "$cur") ;;
            "tfsift lock diff --base") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock diff --base-file") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock diff --format"|"tfsift lock diff -f") mapfile -t COMPREPLY < <(compgen -W 'text markdown json sarif github' -- "$cur") ;;
            "tfsift lock diff --output"|"tfsift lock diff -o") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock diff --cache-dir") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift lock diff --engine") mapfile -t COMPREPLY < <(compgen -W 'terraform opentofu' -- "$cur") ;;
            "tfsift lock diff --color") mapfile -t COMPREPLY < <(compgen -W 'auto always never' -- "$cur") ;;
            "tfsift fetch --cache-dir") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift fetch --engine") mapfile -t COMPREPLY < <(compgen -W 'terraform opentofu' -- "$cur") ;;
            "tfsift init --from-tflint") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift init --output"|"tfsift init -o") mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            "tfsift debug lock --engine") mapfile -t COMPREPLY < <(compgen -W 'terraform opentofu' -- "$cur") ;;
        esac
        return 0
    fi
    local options="" subcommands="" values=""
    case "$path" in
        "tfsift") options='--help -h --version'; subcommands='lint rules rule effective lock fetch init server debug completion man'; values='' ;;
        "tfsift lint") options='--help -h --recursive -r --format -f --output -o --sarif-category --minimum-failure-severity --enable --disable --only --config --chdir --state --var-file --var --engine --color --quiet -q --statistics --timings --fix --online --offline --unsafe-fixes --jobs -j --max-total-size --max-memory --exit-zero --write-baseline --baseline --add-ignore --ignore-reason --diff --show-fixes --preset --no-gitignore --callers'; subcommands=''; values='' ;;
        "tfsift rules") options='--help -h --format -f'; subcommands=''; values='' ;;
        "tfsift rule") options='--help -h --all-markdown'; subcommands=''; values='syntax-error invalid-configuration unused-ignore duplicate-block override-missing-base override-depends-on override-variable-type override-invalid-result override-undocumented module-provider-config module-provider-config-meta provider-alias-undeclared module-alias-not-passed module-not-loaded module-providers-unknown module-providers-incomplete lifecycle-non-literal lifecycle-unknown-argument ignore-changes-meta-argument ignore-changes-wildcard replace-triggered-by-invalid create-before-destroy-conflict create-before-destroy-provisioner condition-constant module-required-providers required-providers-placement provider-local-name-duplicate provider-source-invalid provider-source-missing provider-version-missing provider-version-invalid provider-local-name resource-provider-unresolved shared-module-max-version root-module-unbounded-version provider-legacy-terraform provider-config-removed lock-syntax lock-missing lock-missing-provider lock-stale-provider lock-version-mismatch lock-constraints-drift lock-hash-mismatch lock-platforms-incomplete lock-missing-hashes lock-in-shared-module lock-hash-unsigned lock-signing-key-changed lock-version-downgraded lock-platforms-lost lock-source-moved module-version-unpinned required-version-conflict reference-undeclared reference-invalid terraform-workspace-remote function-call-invalid module-arguments-invalid count-for-each-invalid expression-invalid connection-host-missing unused-declaration unused-required-provider deprecated-interpolation deprecated-index deprecated-lookup duplicate-map-key module-source-unpinned required-version-missing variable-type-missing test-reference-invalid' ;;
        "tfsift effective") options='--help -h --format --engine'; subcommands=''; values='' ;;
        "tfsift lock") options='--help -h --platform --fs-mirror --net-mirror --provider --offline --cache-dir --jobs --max-package-size --quiet --enable-plugin-cache --engine'; subcommands='diff'; values='' ;;
        "tfsift lock diff") options='--help -h --base --base-file --offline --format -f --output -o --jobs --cache-dir --engine --color'; subcommands=''; values='' ;;
        "tfsift fetch") options='--help -h --cache-dir --offline --quiet --engine'; subcommands=''; values='' ;;
        "tfsift init") options='--help -h --from-tflint --output -o --force'; subcommands=''; values='' ;;
        "tfsift server") options='--help -h --stdio --debounce'; subcommands=''; values='' ;;
        "tfsift debug") options='--help -h'; subcommands='parse hash lock'; values='' ;;
        "tfsift debug parse") options='--help -h'; subcommands=''; values='' ;;
        "tfsift debug hash") options='--help -h'; subcommands=''; values='' ;;
        "tfsift debug lock") options='--help -h --engine'; subcommands=''; values='' ;;
        "tfsift completion") options='--help -h'; subcommands=''; values='bash zsh fish' ;;
        "tfsift man") options='--help -h'; subcommands=''; values='' ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    elif [[ -n $subcommands ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$subcommands" -- "$cur")
    elif [[ -n $values ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    return 0
}

complete -o filenames -F _tfsift tfsift
