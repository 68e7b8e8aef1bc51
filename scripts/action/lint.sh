#!/usr/bin/env bash
# The GitHub Action's lint step (action.yml): runs `tfsift lint` with the
# user's arguments, writing the SARIF report beside the usual text report,
# and records the exit status and the report's path as step outputs. Exits 0
# on findings (status 1), so that the report is uploaded before a later step
# fails the job; any other status fails here.
# Runs offline unless TFSIFT_ACTION_OFFLINE is "false": the repository is
# the pull request's, and the registries its configuration names are too.
# Reads TFSIFT_ARGS, TFSIFT_SARIF_FILE, TFSIFT_ACTION_OFFLINE, GITHUB_OUTPUT.
set -uo pipefail
sarif=${TFSIFT_SARIF_FILE:-tfsift.sarif}
# The arguments are split on white space, as a workflow's `args:` line reads.
read -r -a args <<<"${TFSIFT_ARGS:-}"
# The findings go to the log as text too, unless the arguments choose a format.
format=(--format text)
for arg in "${args[@]}"; do
    case $arg in -f | --format | --format=*) format=() ;; esac
done
offline=(--offline)
if [[ ${TFSIFT_ACTION_OFFLINE:-true} == false ]]; then
    offline=()
fi
status=0
tfsift lint "${offline[@]}" --output "sarif:$sarif" "${format[@]}" "${args[@]}" || status=$?
echo "exit-code=$status" >> "${GITHUB_OUTPUT:?}"
if [[ -f $sarif ]]; then
    echo "sarif-file=$(realpath "$sarif")" >> "$GITHUB_OUTPUT"
fi
if (( status > 1 )); then
    echo "::error::tfsift lint failed with exit status $status"
    exit "$status"
fi
exit 0
