# Conformance tests, registered by the engineers who own them; append yours.

# ---- HCL parse dumps against the reference parser (hashicorp/hcl) ----------
# One test per suite; hcldump_conformance.py runs `tfsift debug parse` on
# batches of files and uses the shared hclcompare.py as the referee.
foreach(suite IN ITEMS handwritten corpus terraform-v1.3.10)
  add_test(NAME hcldump-${suite}
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/hcldump_conformance.py
            --tfsift $<TARGET_FILE:tfsift>
            --shared ${PROJECT_SOURCE_DIR}/../shared
            --suite ${suite}
            --excuses ${PROJECT_SOURCE_DIR}/docs/parser-differences.md
            --jobs 2)
endforeach()
# The corpus suite runs two tfsift processes at once.
set_tests_properties(hcldump-corpus PROPERTIES PROCESSORS 2 TIMEOUT 900)

# ---- reports: XML well-formedness and Microsoft's SARIF validator ------------
# The SARIF test needs Sarif.Multitool (npm @microsoft/sarif-multitool-linux):
# .ci/run installs it into the build tree; elsewhere set SARIF_MULTITOOL. The
# test is skipped when the validator is not there.
foreach(check IN ITEMS xml sarif)
  # fixtures: every rule's findings; corpus: real modules; loader-tests: the
  # upstream loaders' test data and the fuzz regressions, full of broken input.
  foreach(suite IN ITEMS fixtures corpus loader-tests)
    if(suite STREQUAL "fixtures")
      set(_tfsift_report_paths ${PROJECT_SOURCE_DIR}/fixtures/rules)
    elseif(suite STREQUAL "corpus")
      set(_tfsift_report_paths ${PROJECT_SOURCE_DIR}/../shared/corpus)
    else()
      set(_tfsift_report_paths ${PROJECT_SOURCE_DIR}/../shared/conformance ${PROJECT_SOURCE_DIR}/fixtures/fuzz-regressions)
    endif()
    add_test(NAME report-${check}-${suite}
      COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/report_formats_check.py
              --tfsift $<TARGET_FILE:tfsift> --check ${check} --build-dir ${CMAKE_BINARY_DIR}
              ${_tfsift_report_paths})
    set_tests_properties(report-${check}-${suite} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
  endforeach()
endforeach()

# ---- reports for CI systems: github, gitlab and rdjson against their formats'
# documented rules (the fixtures: every rule's findings), and the warnings for
# GitHub code scanning's limits on results (generated modules) -------------
add_test(NAME report-ci-formats
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/report_formats_check.py
          --tfsift $<TARGET_FILE:tfsift> --check ci ${PROJECT_SOURCE_DIR}/fixtures/rules)
add_test(NAME report-github-limits
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/report_formats_check.py --tfsift $<TARGET_FILE:tfsift> --check github-limits)
set_tests_properties(report-ci-formats report-github-limits PROPERTIES TIMEOUT 300)

# ---- the pre-commit hook, tried as a new user would (Debian's pre-commit) ----
add_test(NAME precommit-hook
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/precommit_hook_check.sh ${PROJECT_SOURCE_DIR} $<TARGET_FILE:tfsift>)
set_tests_properties(precommit-hook PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# ---- tfsift effective against reference effective-configuration documents ---
# effective_conformance.py runs `tfsift effective` and uses the shared
# effcompare.py as the referee. The Terraform v1.3.10 suite must match every
# case not excused in docs/effective-differences.md; the corpus suite needs
# 99 % of directories; the OpenTofu suite checks the fixtures' expectations.
foreach(suite IN ITEMS terraform-v1.3.10 corpus opentofu)
  add_test(NAME effective-${suite}
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/effective_conformance.py
            --tfsift $<TARGET_FILE:tfsift>
            --shared ${PROJECT_SOURCE_DIR}/../shared
            --suite ${suite}
            --excuses ${PROJECT_SOURCE_DIR}/docs/effective-differences.md
            --jobs 2)
endforeach()
set_tests_properties(effective-corpus PROPERTIES PROCESSORS 2 TIMEOUT 1800)

# ---- lock files: `tfsift debug lock` end to end ------------------------------
# The reader and writer are checked against every vector by the unit tests
# (providers_lock_file_test.cpp); these only check the command's plumbing.
add_test(NAME debug-lock-valid
  COMMAND tfsift debug lock ${PROJECT_SOURCE_DIR}/../shared/conformance/locks/cases/valid_spec_example.hcl)
set_tests_properties(debug-lock-valid PROPERTIES
  PASS_REGULAR_EXPRESSION "provider \"registry.terraform.io/hashicorp/aws\" {\n  version     = \"5.31.0\"\n  constraints = \">= 4.0.0, ~> 5.0\"")
add_test(NAME debug-lock-errors
  COMMAND tfsift debug lock ${PROJECT_SOURCE_DIR}/../shared/conformance/locks/cases/err_version_invalid.hcl)
set_tests_properties(debug-lock-errors PROPERTIES WILL_FAIL TRUE)

# ---- fuzz regression inputs ---------------------------------------------------
# tests/unit/fuzz_regressions_test.cpp, run on its own (its test case is hidden
# from `unit`) so that a crashing input cannot take the other unit tests down.
add_test(NAME fuzz-regressions COMMAND tfsift_unit_tests "[fuzz-regressions]")

# ---- the effective configuration's HCL form, loaded again ---------------------
# effective_roundtrip writes each module's `tfsift effective --format hcl`
# section into a fresh directory tree laid out like the original, loads it,
# and compares the effective documents with origins and file names removed,
# for every corpus directory the reference documents cover. Differences must
# be excused under "## Round trip" in docs/effective-differences.md.
add_test(NAME effective-roundtrip-corpus
  COMMAND effective_roundtrip
          --shared ${PROJECT_SOURCE_DIR}/../shared
          --excuses ${PROJECT_SOURCE_DIR}/docs/effective-differences.md
          --jobs 2)
set_tests_properties(effective-roundtrip-corpus PROPERTIES PROCESSORS 2 TIMEOUT 600)
# ---- lock file rules and `lint --fix` end to end (fixtures/lock-e2e) ---------
add_test(NAME lock-fix-end-to-end
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/lock_fix_check.sh $<TARGET_FILE:tfsift> ${PROJECT_SOURCE_DIR}/fixtures/lock-e2e)
# ---- lock integrity and the writes of --fix, as a user meets them -------------
# Corrupt packages, a read-only directory (setpriv), stale temporary files, a
# held flock, symlinked and hard-linked files, a zip bomb.
add_test(NAME lock-integrity
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/lock_integrity_check.sh $<TARGET_FILE:tfsift>)
set_tests_properties(lock-integrity PROPERTIES TIMEOUT 300)
# ---- tfsift lint against the upstream loaders' verdicts ----------------------
# lint_conformance.py lints every case of the OpenTofu and Terraform v1.3.10
# config-loader test data: annotated lines must carry a finding of that
# severity, clean cases no error, invalid ones an error. Failures are excused
# only in docs/conformance-out-of-scope.md (with the reason), or listed there
# as waiting for a catalogue rule that tfsift does not have yet.
foreach(suite IN ITEMS opentofu terraform-v1.3.10)
  add_test(NAME lint-conformance-${suite}
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/lint_conformance.py
            --tfsift $<TARGET_FILE:tfsift>
            --shared ${PROJECT_SOURCE_DIR}/../shared
            --suite ${suite}
            --excuses ${PROJECT_SOURCE_DIR}/docs/conformance-out-of-scope.md
            --jobs 2)
  set_tests_properties(lint-conformance-${suite} PROPERTIES PROCESSORS 2 TIMEOUT 300)
endforeach()

# ---- `tfsift lint --jobs N` reports exactly what --jobs 1 does ---------------
add_test(NAME lint-jobs-identical
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/lint_jobs_check.py
          --tfsift $<TARGET_FILE:tfsift> --jobs 3
          ${PROJECT_SOURCE_DIR}/fixtures/rules ${PROJECT_SOURCE_DIR}/../shared/conformance)
set_tests_properties(lint-jobs-identical PROPERTIES PROCESSORS 2 TIMEOUT 600)

# ---- `tfsift lint --fix` end to end ------------------------------------------
add_test(NAME lint-fix
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/lint_fix_check.py --tfsift $<TARGET_FILE:tfsift>)

# ---- every safe fix keeps the configuration valid and its meaning ------------
# fix_safety_check.py fixes copies of the rule fixtures and of the corpus
# directories that have something to fix, and checks that they still parse,
# gain no error, mean the same (parse dumps), match their `.fixed` files, and
# that a second --fix changes nothing. Prints files fixed, fixes applied and
# fixes withheld because of where they stand.
add_test(NAME fix-safety
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/fix_safety_check.py --tfsift $<TARGET_FILE:tfsift>
          --shared ${PROJECT_SOURCE_DIR}/../shared --fixtures ${PROJECT_SOURCE_DIR}/fixtures/rules)
set_tests_properties(fix-safety PROPERTIES TIMEOUT 600)

# ---- hostile repositories and broken output ----------------------------------
# hostile_repository_check.py builds each reproduction in a scratch directory
# and runs the binary under a time and memory bound: links to /proc/self/environ
# and /etc/passwd, module sources outside the repository, FIFOs, /dev/stdin and
# /dev/zero as every kind of input, unreadable and too-deep directories, a
# 5,000-file `extend` chain, `> /dev/full`, `debug parse` statuses, control
# characters. The permission case drops root with setpriv (util-linux).
foreach(case IN ITEMS environ-symlink repository-settings-widen passwd-symlink module-outside-root monorepo-without-git fifo dev-stdin dev-zero
                      file-too-large unreadable-directory path-too-deep extend-chain settings-directory
                      dangling-lock state-errors dev-full debug-parse-status control-characters report-injection
                      report-out-of-memory lock-write-failure exit-codes module-symlink-loop ignore-inputs
                      dense-file run-budget memory-budget repository-max-file-size)
  add_test(NAME hostile-${case}
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/hostile_repository_check.py
            --tfsift $<TARGET_FILE:tfsift> --case ${case})
  set_tests_properties(hostile-${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()

# ---- bounded work on hostile or huge input ----------------------------------
# bounded_work_check.py builds each reproduction in a temporary directory and
# checks that tfsift ends normally, within a generous time bound, with the
# promised diagnostics (invalid-byte runs collapsed, at most 100 of a kind per
# file, module cycles cut, one error per too-deep expression, ...).
if(TFSIFT_SANITIZE)
  set(_tfsift_bounded_flags --sanitized)
else()
  set(_tfsift_bounded_flags)
endif()
foreach(case IN ITEMS nul-flood module-cycle eval-stack cascade many-files many-diagnostics long-line sarif-snippet glob)
  add_test(NAME bounded-work-${case}
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/bounded_work_check.py
            --tfsift $<TARGET_FILE:tfsift> --build-dir ${CMAKE_BINARY_DIR} ${_tfsift_bounded_flags} --only ${case})
  set_tests_properties(bounded-work-${case} PROPERTIES TIMEOUT 900)
endforeach()

# ---- the online installer's fixture registry, checked on its own -------------
# fixture_registry_check.py builds the signed registry and mirror of
# tests/support/fixture_registry.py and checks it with curl, gpg and unzip;
# skipped (77) only when one of those tools is missing. When the Go oracle
# h1hash has been built (../shared/tools/oracle/README.md) one package's h1:
# is checked against it too.
add_test(NAME fixture-registry
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/fixture_registry_check.py
          ${PROJECT_SOURCE_DIR}/../shared/tools/oracle/bin/h1hash)
set_tests_properties(fixture-registry PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# ---- the online installer end to end ----------------------------------------
# installer_check.py serves the fixture registry and network mirror of
# tests/support/fixture_registry.py over HTTPS on 127.0.0.1 and runs
# `tfsift lock` and `tfsift lint --online` against it as a user would (every
# adversarial case of the online installer spec); skipped (77) without gpg or
# openssl.
add_test(NAME installer-check
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/installer_check.py --tfsift $<TARGET_FILE:tfsift>)
set_tests_properties(installer-check PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# ---- installing: manual page, completions, static binary, container, action --
# shell_docs_check.sh compares `tfsift man` / `tfsift completion SHELL` with
# the copies in share/, renders the page with groff and completes words in
# bash, zsh and fish (the latter two where installed).
add_test(NAME shell-docs
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/shell_docs_check.sh ${PROJECT_SOURCE_DIR} $<TARGET_FILE:tfsift>)
set_tests_properties(shell-docs PROPERTIES TIMEOUT 120)
# `tfsift --version`: the version and the commit recorded at build time.
add_test(NAME version
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/version_check.sh ${PROJECT_SOURCE_DIR} $<TARGET_FILE:tfsift>)
set_tests_properties(version PROPERTIES TIMEOUT 60)
# -DTFSIFT_STATIC=ON: tfsift-static's shared libraries against CONTRIBUTING.md's list,
# and its report against tfsift's.
if(TARGET tfsift-static)
  add_test(NAME static-binary
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/static_binary_check.sh ${PROJECT_SOURCE_DIR} $<TARGET_FILE:tfsift-static>
            $<TARGET_FILE:tfsift>)
endif()
# action_check.py runs action.yml's shell steps against this build, checks
# the Dockerfile's stages and the scripts they run (the image itself is built
# only where a Docker daemon has the debian:12 image) and the workflows in
# .github/workflows.
foreach(part IN ITEMS action dockerfile workflows)
  add_test(NAME ${part}-check
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/action_check.py
            --source ${PROJECT_SOURCE_DIR} --tfsift $<TARGET_FILE:tfsift> --part ${part})
  set_tests_properties(${part}-check PROPERTIES TIMEOUT 300)
endforeach()

# ---- validate-class checks against OpenTofu's own validate tests -------------
# validate_conformance.py lints every case of ../shared/conformance/validate/
# (index.json) in one run and demands the expected severity, summary and line
# of each diagnostic (valid cases: no error). Excused cases are listed with
# their reason under "## Validate cases" in docs/conformance-out-of-scope.md.
add_test(NAME validate-conformance
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/validate_conformance.py
          --tfsift $<TARGET_FILE:tfsift>
          --shared ${PROJECT_SOURCE_DIR}/../shared
          --excuses ${PROJECT_SOURCE_DIR}/docs/conformance-out-of-scope.md)
set_tests_properties(validate-conformance PROPERTIES PROCESSORS 2 TIMEOUT 300)

# ---- the whole-corpus report, against the stored one ------------------------
# corpus_report_check.py lints ../shared/corpus and compares the JSON report
# byte for byte with tests/expected/corpus-report.json.gz (its --update
# regenerates it when a change is intended). A few seconds.
add_test(NAME lint-corpus-report
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/corpus_report_check.py --tfsift $<TARGET_FILE:tfsift>
          --shared ${PROJECT_SOURCE_DIR}/../shared --expected ${PROJECT_SOURCE_DIR}/tests/expected/corpus-report.json.gz)
set_tests_properties(lint-corpus-report PROPERTIES TIMEOUT 600)

# ---- the same findings in every scope; adopting tfsift (issue 14) -----------
# scope-consistency: every module directory gets the same findings from a
# recursive run of its repository, a run of the directory, a run per file and
# a recursive run through a symbolic link to the repository's directory.
# CI checks the rule fixtures (one repository) and one corpus repository; the
# whole corpus is `scope_consistency_check.py --corpus ../shared/corpus`
# (CONTRIBUTING.md, "Proving the loader and the linter").
add_test(NAME scope-consistency
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/scope_consistency_check.py
          --tfsift $<TARGET_FILE:tfsift> --jobs 2 --sample 4
          --corpus ${PROJECT_SOURCE_DIR}/../shared/corpus --only terraform-aws-modules+terraform-aws-vpc
          ${PROJECT_SOURCE_DIR}/fixtures/rules)
set_tests_properties(scope-consistency PROPERTIES PROCESSORS 2 TIMEOUT 600)
add_test(NAME adoption
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/adoption_check.py --tfsift $<TARGET_FILE:tfsift>)
set_tests_properties(adoption PROPERTIES TIMEOUT 300)

# ---- tfsift server: an editor session scripted over the language server
# protocol (open, edit, override, code actions, hover, garbage, shutdown) ----
add_test(NAME lsp-session
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/lsp_check.py --tfsift $<TARGET_FILE:tfsift>)
set_tests_properties(lsp-session PROPERTIES TIMEOUT 120)
# The same server under a real client: Neovim headless, configured with the
# snippet of docs/editors.md as the page shows it.
add_test(NAME editor-neovim
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/editor_neovim_check.py --tfsift $<TARGET_FILE:tfsift>
          --docs ${PROJECT_SOURCE_DIR}/docs/editors.md)
set_tests_properties(editor-neovim PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# ---- the source tree's layers and the rule scaffold --------------------------
# check-layers.sh: providers/ never includes config/, lint/ never includes
# the rules, and every file directly in rules/ defines a rule; its
# --self-test plants each violation in a scratch copy and demands a failure.
add_test(NAME layer-check COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/check-layers.sh ${PROJECT_SOURCE_DIR})
add_test(NAME layer-check-self-test
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/check-layers.sh --self-test ${PROJECT_SOURCE_DIR})
# new_rule_check.sh runs scripts/new-rule.sh in a scratch copy of rules/,
# fixtures/rules/ and docs/rules/, compiles only the new rule and the
# catalogue, links them with this build's library and checks the new rule's
# fixtures and documentation with that binary: seconds, not a rebuild.
add_test(NAME new-rule-scaffold
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/new_rule_check.sh ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties(new-rule-scaffold PROPERTIES TIMEOUT 300)

# ---- `tfsift lock diff` end to end ---------------------------------------------
# lock_review_check.py serves the fixture registry (with a fork namespace and a
# version signed by another key), makes scratch git repositories (a base
# commit, a head commit) and checks the review's JSON, findings, exit status
# and the packages the registry served; it also runs the lock-review rules'
# fixtures and the Markdown golden file. Skipped (77) without gpg, openssl or git.
add_test(NAME lock-review
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/lock_review_check.py --tfsift $<TARGET_FILE:tfsift>
          --source ${PROJECT_SOURCE_DIR})
set_tests_properties(lock-review PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# ---- remote modules end to end -------------------------------------------------
# module_fetch_check.py serves the fixture registry's modules.v1, makes a git
# repository and runs `tfsift fetch`, `tfsift lint --online` and `tfsift lock`
# against them as a user would: registry version choice and locations, git
# refs, https archives and pages, credentials, the module cache (freshness,
# offline use, corruption) and every hostile case (traversal, symlink out,
# hand-off, 100,000 versions, a redirect carrying credentials, a stalled git
# server, hooks); skipped (77) without gpg, openssl or git.
add_test(NAME module-fetch-check
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/module_fetch_check.py --tfsift $<TARGET_FILE:tfsift>)
set_tests_properties(module-fetch-check PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# ---- the user documentation -----------------------------------------------------
# docs_check.py over README.md, CONTRIBUTING.md and docs/**.md: relative links
# and anchors resolve, external links go to known hosts, and no file outside
# tests/ and fixtures/ names an invented project address; the README starts
# with its two set-up commands (the second is .ci/run's test command), stays
# under 1,500 words up to its link to CONTRIBUTING.md, links every path it
# names, and its sample output is what this tfsift prints (after a change to
# the text report: docs_check.py --source . --tfsift build/tfsift --update);
# docs/rules.md is the index rules-index.py writes.
add_test(NAME docs-links
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/docs_check.py --source ${PROJECT_SOURCE_DIR}
          --tfsift $<TARGET_FILE:tfsift>)
set_tests_properties(docs-links PROPERTIES TIMEOUT 120)

# ---- the load-time diagnostics of test, mock data and query files: every row
# of docs/test-file-diagnostics.md (a check of Terraform's loader) names
# fixture lines that produce its summary ----------------------------------------
add_test(NAME test-file-diagnostics
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/test_file_diagnostics_check.py --source ${PROJECT_SOURCE_DIR}
          --tfsift $<TARGET_FILE:tfsift>)
set_tests_properties(test-file-diagnostics PROPERTIES TIMEOUT 120)

# ---- no invented links: every report format over the corpus carries no
# github.com/tfsift, and without a configured home page (TFSIFT_HOMEPAGE, empty
# by default) no link of tfsift's own --------------------------------------
add_test(NAME report-links-corpus
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/report_links_check.py --tfsift $<TARGET_FILE:tfsift>
          --shared ${PROJECT_SOURCE_DIR}/../shared "--homepage=${TFSIFT_HOMEPAGE_URL}" --version ${PROJECT_VERSION})
set_tests_properties(report-links-corpus PROPERTIES TIMEOUT 900)

# ---- the command line's own messages (docs/command-line.md): "did you mean",
# the tfsift: prefix, help for a bare tfsift, nothing to lint, the end of the
# text report, --statistics/--output/--write-baseline, rules --format json and
# TFLint rule names --------------------------------------------------------
add_test(NAME cli-messages
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/cli_messages_check.py --tfsift $<TARGET_FILE:tfsift>)
set_tests_properties(cli-messages PROPERTIES TIMEOUT 300)
