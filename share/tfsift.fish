# fish completion for tfsift, generated from tfsift's command table by `tfsift completion fish`; do not edit

# The command path ("tfsift debug parse") of the words before the cursor.
function __tfsift_path
    set -l words (commandline -opc)
    set -e words[1]
    set -l path tfsift
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch "$path $word"
            case 'tfsift lint --format' 'tfsift lint -f' 'tfsift lint --output' 'tfsift lint -o' 'tfsift lint --sarif-category' 'tfsift lint --minimum-failure-severity' 'tfsift lint --enable' 'tfsift lint --disable' 'tfsift lint --only' 'tfsift lint --config' 'tfsift lint --chdir' 'tfsift lint --state' 'tfsift lint --var-file' 'tfsift lint --var' 'tfsift lint --engine' 'tfsift lint --color' 'tfsift lint --jobs' 'tfsift lint -j' 'tfsift lint --max-total-size' 'tfsift lint --max-memory' 'tfsift lint --write-baseline' 'tfsift lint --baseline' 'tfsift lint --ignore-reason' 'tfsift lint --preset' 'tfsift rules --format' 'tfsift rules -f' 'tfsift rule --all-markdown' 'tfsift effective --format' 'tfsift effective --engine' 'tfsift lock --platform' 'tfsift lock --fs-mirror' 'tfsift lock --net-mirror' 'tfsift lock --provider' 'tfsift lock --cache-dir' 'tfsift lock --jobs' 'tfsift lock --max-package-size' 'tfsift lock --engine' 'tfsift lock diff --base' 'tfsift lock diff --base-file' 'tfsift lock diff --format' 'tfsift lock diff -f' 'tfsift lock diff --output' 'tfsift lock diff -o' 'tfsift lock diff --jobs' 'tfsift lock diff --cache-dir' 'tfsift lock diff --engine' 'tfsift lock diff --color' 'tfsift fetch --cache-dir' 'tfsift fetch --engine' 'tfsift init --from-tflint' 'tfsift init --output' 'tfsift init -o' 'tfsift server --debounce' 'tfsift debug lock --engine'
                set skip 1
            case 'tfsift lint' 'tfsift rules' 'tfsift rule' 'tfsift effective' 'tfsift lock' 'tfsift fetch' 'tfsift init' 'tfsift server' 'tfsift debug' 'tfsift completion' 'tfsift man' 'tfsift lock diff' 'tfsift debug parse' 'tfsift debug hash' 'tfsift debug lock'
                set path "$path $word"
        end
    end
    echo $path
end

complete -c tfsift -f
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'lint' -d 'Check the modules in the given directories (default: .)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'rules' -d 'List every rule: id, severity, on by default, fixable'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'rule' -d 'Print a rule\'s documentation as Markdown'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'effective' -d 'Print the effective configuration of a module tree, override files applied'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'lock' -d 'Record the required providers\' versions and hashes in .terraform.lock.hcl (from the registries, or offline)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'fetch' -d 'Fetch the remote modules (registry, git, archives) the roots call into tfsift\'s module cache'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'init' -d 'Write a .tfsift.toml, from an existing .tflint.hcl with --from-tflint'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'server' -d 'Run the language server on standard input and output (diagnostics, fixes and rule docs in editors)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'debug' -d 'Inspect tfsift\'s internal models'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'completion' -d 'Print the shell completion script for bash, zsh or fish (e.g. source <(tfsift completion bash))'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -a 'man' -d 'Print the tfsift(1) manual page (roff; view it with man -l -)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift"' -l version -d 'Display program version information and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l recursive -s r -d 'Lint every module below the given directories'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l format -s f -x -a 'text json sarif checkstyle junit compact github gitlab rdjson' -d 'Report on stdout: text, json, sarif, checkstyle, junit, compact, github, gitlab, rdjson'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l output -s o -r -F -d 'Also write a report to a file, as FORMAT:PATH (repeatable)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l sarif-category -r -F -d 'The code scanning category of the SARIF report\'s run (default: none, the upload\'s own)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l minimum-failure-severity -x -a 'error warning notice' -d 'Exit 1 when a finding is at least this severe (default: warning)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l enable -x -a 'syntax-error invalid-configuration unused-ignore duplicate-block override-missing-base override-depends-on override-variable-type override-invalid-result override-undocumented module-provider-config module-provider-config-meta provider-alias-undeclared module-alias-not-passed module-not-loaded module-providers-unknown module-providers-incomplete lifecycle-non-literal lifecycle-unknown-argument ignore-changes-meta-argument ignore-changes-wildcard replace-triggered-by-invalid create-before-destroy-conflict create-before-destroy-provisioner condition-constant module-required-providers required-providers-placement provider-local-name-duplicate provider-source-invalid provider-source-missing provider-version-missing provider-version-invalid provider-local-name resource-provider-unresolved shared-module-max-version root-module-unbounded-version provider-legacy-terraform provider-config-removed lock-syntax lock-missing lock-missing-provider lock-stale-provider lock-version-mismatch lock-constraints-drift lock-hash-mismatch lock-platforms-incomplete lock-missing-hashes lock-in-shared-module lock-hash-unsigned lock-signing-key-changed lock-version-downgraded lock-platforms-lost lock-source-moved module-version-unpinned required-version-conflict reference-undeclared reference-invalid terraform-workspace-remote function-call-invalid module-arguments-invalid count-for-each-invalid expression-invalid connection-host-missing unused-declaration unused-required-provider deprecated-interpolation deprecated-index deprecated-lookup duplicate-map-key module-source-unpinned required-version-missing variable-type-missing test-reference-invalid' -d 'Enable rules (repeatable, or a comma list)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l disable -x -a 'syntax-error invalid-configuration unused-ignore duplicate-block override-missing-base override-depends-on override-variable-type override-invalid-result override-undocumented module-provider-config module-provider-config-meta provider-alias-undeclared module-alias-not-passed module-not-loaded module-providers-unknown module-providers-incomplete lifecycle-non-literal lifecycle-unknown-argument ignore-changes-meta-argument ignore-changes-wildcard replace-triggered-by-invalid create-before-destroy-conflict create-before-destroy-provisioner condition-constant module-required-providers required-providers-placement provider-local-name-duplicate provider-source-invalid provider-source-missing provider-version-missing provider-version-invalid provider-local-name resource-provider-unresolved shared-module-max-version root-module-unbounded-version provider-legacy-terraform provider-config-removed lock-syntax lock-missing lock-missing-provider lock-stale-provider lock-version-mismatch lock-constraints-drift lock-hash-mismatch lock-platforms-incomplete lock-missing-hashes lock-in-shared-module lock-hash-unsigned lock-signing-key-changed lock-version-downgraded lock-platforms-lost lock-source-moved module-version-unpinned required-version-conflict reference-undeclared reference-invalid terraform-workspace-remote function-call-invalid module-arguments-invalid count-for-each-invalid expression-invalid connection-host-missing unused-declaration unused-required-provider deprecated-interpolation deprecated-index deprecated-lookup duplicate-map-key module-source-unpinned required-version-missing variable-type-missing test-reference-invalid' -d 'Disable rules (repeatable, or a comma list)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l only -x -a 'syntax-error invalid-configuration unused-ignore duplicate-block override-missing-base override-depends-on override-variable-type override-invalid-result override-undocumented module-provider-config module-provider-config-meta provider-alias-undeclared module-alias-not-passed module-not-loaded module-providers-unknown module-providers-incomplete lifecycle-non-literal lifecycle-unknown-argument ignore-changes-meta-argument ignore-changes-wildcard replace-triggered-by-invalid create-before-destroy-conflict create-before-destroy-provisioner condition-constant module-required-providers required-providers-placement provider-local-name-duplicate provider-source-invalid provider-source-missing provider-version-missing provider-version-invalid provider-local-name resource-provider-unresolved shared-module-max-version root-module-unbounded-version provider-legacy-terraform provider-config-removed lock-syntax lock-missing lock-missing-provider lock-stale-provider lock-version-mismatch lock-constraints-drift lock-hash-mismatch lock-platforms-incomplete lock-missing-hashes lock-in-shared-module lock-hash-unsigned lock-signing-key-changed lock-version-downgraded lock-platforms-lost lock-source-moved module-version-unpinned required-version-conflict reference-undeclared reference-invalid terraform-workspace-remote function-call-invalid module-arguments-invalid count-for-each-invalid expression-invalid connection-host-missing unused-declaration unused-required-provider deprecated-interpolation deprecated-index deprecated-lookup duplicate-map-key module-source-unpinned required-version-missing variable-type-missing test-reference-invalid' -d 'Run only these rules (repeatable, or a comma list)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l config -r -F -d 'Use this settings file instead of the nearest .tfsift.toml'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l chdir -r -F -d 'Change to this directory first'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l state -r -F -d 'A local state file to compare the configuration with (default: terraform.tfstate in the module directory, when present)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l var-file -r -F -d 'A variable file for the root modules\' variables, read after terraform.tfvars and *.auto.tfvars, where a module source or version uses them (repeatable)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l var -r -F -d 'A value for a root module variable, where a module source or version uses it (repeatable)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l engine -x -a 'terraform opentofu' -d 'terraform or opentofu (default: settings, else detected)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l color -x -a 'auto always never' -d 'Colour the text report: auto, always, never (auto honours NO_COLOR)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l quiet -s q -d 'No summary line'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l statistics -d 'Print the number of findings per rule'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l timings -d 'After the report, print where the time went (stages, files read, peak memory) to stderr'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l fix -d 'Apply the safe fixes of the findings, then report what remains'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l online -d 'Check lock file hashes against what the registries signed (needs the network)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l offline -d 'Open no network connection, not even to repair the lock file with --fix'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l unsafe-fixes -d 'Apply unsafe fixes too, which may change the plan (implies --fix)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l jobs -s j -x -d 'Lint this many modules at once (default: the number of processors)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l max-total-size -r -F -d 'Read at most this many bytes of configuration files in all (bytes, or with KiB/MiB/GiB; default 256MiB)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l max-memory -r -F -d 'Read no further configuration file once the process\'s peak memory passes this (bytes, or with KiB/MiB/GiB; default 1GiB; 0: no limit)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l exit-zero -d 'Exit 0 even when there are findings (2 still means an error)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l write-baseline -r -F -d 'Record the current findings in FILE (with --baseline later, only new findings are reported)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l baseline -r -F -d 'Report only findings that the baseline FILE does not record'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l add-ignore -d 'Add `# tfsift-ignore: RULE -- REASON` above every current finding, then report what remains'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l ignore-reason -r -F -d 'The REASON --add-ignore writes'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l diff -d 'Print the unified diff of what --fix would change, and change nothing'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l show-fixes -d 'With --fix, print the unified diff of what was changed'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l preset -x -a 'recommended strict' -d 'recommended (the default) or strict (also the opinionated rules)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l no-gitignore -d 'With --recursive, also lint directories that .gitignore names'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -l callers -d 'Also check the lock files of the root modules that call the linted modules (through any depth)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lint"' -F
complete -c tfsift -n 'test (__tfsift_path) = "tfsift rules"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift rules"' -l format -s f -x -a 'text json' -d 'text (a table) or json'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift rule"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift rule"' -l all-markdown -r -F -d 'Write every rule\'s documentation to DIR/<id>.md'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift rule"' -a 'syntax-error invalid-configuration unused-ignore duplicate-block override-missing-base override-depends-on override-variable-type override-invalid-result override-undocumented module-provider-config module-provider-config-meta provider-alias-undeclared module-alias-not-passed module-not-loaded module-providers-unknown module-providers-incomplete lifecycle-non-literal lifecycle-unknown-argument ignore-changes-meta-argument ignore-changes-wildcard replace-triggered-by-invalid create-before-destroy-conflict create-before-destroy-provisioner condition-constant module-required-providers required-providers-placement provider-local-name-duplicate provider-source-invalid provider-source-missing provider-version-missing provider-version-invalid provider-local-name resource-provider-unresolved shared-module-max-version root-module-unbounded-version provider-legacy-terraform provider-config-removed lock-syntax lock-missing lock-missing-provider lock-stale-provider lock-version-mismatch lock-constraints-drift lock-hash-mismatch lock-platforms-incomplete lock-missing-hashes lock-in-shared-module lock-hash-unsigned lock-signing-key-changed lock-version-downgraded lock-platforms-lost lock-source-moved module-version-unpinned required-version-conflict reference-undeclared reference-invalid terraform-workspace-remote function-call-invalid module-arguments-invalid count-for-each-invalid expression-invalid connection-host-missing unused-declaration unused-required-provider deprecated-interpolation deprecated-index deprecated-lookup duplicate-map-key module-source-unpinned required-version-missing variable-type-missing test-reference-invalid'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift effective"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift effective"' -l format -x -a 'json hcl' -d 'Output format'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift effective"' -l engine -x -a 'terraform opentofu' -d 'Loading rules: terraform or opentofu (.tofu files)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift effective"' -F
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -a 'diff' -d 'Review a lock-file change against a git revision: what changed, and whether every new hash is signed'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l platform -r -F -d 'Record hashes for this OS_ARCH platform (repeatable; default: this one)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l fs-mirror -r -F -d 'Take packages only from this filesystem mirror directory'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l net-mirror -r -F -d 'Take packages only from this network mirror (an https URL)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l provider -r -F -d 'Lock only this provider (repeatable; default: all required)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l offline -d 'Use only packages already on disk; open no network connection'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l cache-dir -r -F -d 'Download cache (default: TFSIFT_CACHE_DIR, else $XDG_CACHE_HOME/tfsift/providers)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l jobs -x -d 'Packages fetched at once (default: 8)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l max-package-size -r -F -d 'Largest package accepted, downloaded and unpacked (bytes, or with KiB/MiB/GiB; default 2GiB)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l quiet -d 'Print no progress lines'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l enable-plugin-cache -d 'Also unpack the fetched packages into the plugin cache (TF_PLUGIN_CACHE_DIR or plugin_cache_dir)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock"' -l engine -x -a 'terraform opentofu' -d 'terraform or opentofu (default: settings, else detected)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l base -r -F -d 'The git revision to compare with (read with git show)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l base-file -r -F -d 'Compare one lock file with this older copy (no git)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l offline -d 'Show the changes without verifying any hash; open no network connection'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l format -s f -x -a 'text markdown json sarif github' -d 'Output format: text, markdown, json, sarif or github'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l output -s o -r -F -d 'Also write the review to a file, as FORMAT:PATH (repeatable)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l jobs -x -d 'Provider versions verified at once (default: 8)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l cache-dir -r -F -d 'Download cache (default: TFSIFT_CACHE_DIR, else $XDG_CACHE_HOME/tfsift/providers)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l engine -x -a 'terraform opentofu' -d 'terraform or opentofu (default: from the lock file\'s header)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -l color -x -a 'auto always never' -d 'Colour the text output: auto, always or never'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift lock diff"' -F
complete -c tfsift -n 'test (__tfsift_path) = "tfsift fetch"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift fetch"' -l cache-dir -r -F -d 'Cache directory; modules go in its .tfsift-modules (default: TFSIFT_CACHE_DIR, else $XDG_CACHE_HOME/tfsift/modules)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift fetch"' -l offline -d 'Only report what the module cache holds; open no network connection'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift fetch"' -l quiet -d 'Print only problems and the summary line'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift fetch"' -l engine -x -a 'terraform opentofu' -d 'terraform or opentofu (default: terraform)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift fetch"' -F
complete -c tfsift -n 'test (__tfsift_path) = "tfsift init"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift init"' -l from-tflint -r -F -d 'Import rule choices from this TFLint file (e.g. .tflint.hcl)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift init"' -l output -s o -r -F -d 'The settings file to write'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift init"' -l force -d 'Replace the settings file when it exists'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift server"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift server"' -l stdio -d 'Talk over standard input and output (the default and only transport)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift server"' -l debounce -x -d 'Milliseconds to wait after a change before linting its module (default 150)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug"' -a 'parse' -d 'Print the parse dump of HCL native-syntax files (format: docs/parse-dump.md)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug"' -a 'hash' -d 'Print the h1: (and for a zip the zh:) hash of provider packages'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug"' -a 'lock' -d 'Check a .terraform.lock.hcl file and print it as tfsift would write it'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug parse"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug parse"' -F
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug hash"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug hash"' -F
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug lock"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug lock"' -l engine -x -a 'terraform opentofu' -d 'terraform or opentofu (default: from the file\'s header)'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift debug lock"' -F
complete -c tfsift -n 'test (__tfsift_path) = "tfsift completion"' -l help -s h -d 'Print this help message and exit'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift completion"' -a 'bash zsh fish'
complete -c tfsift -n 'test (__tfsift_path) = "tfsift man"' -l help -s h -d 'Print this help message and exit'
