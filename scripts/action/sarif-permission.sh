#!/usr/bin/env bash
# The GitHub Action's check before the SARIF upload (action.yml): decides
# whether the workflow's token can write code scanning results. On a pull
# request from a fork, and on Dependabot's pull requests, GitHub gives the
# token read access to security events only, so the upload would fail the
# job: it is skipped with a notice instead, and the report stays in the log
# (and in the step output sarif-file). The findings still fail the job in the
# action's last step. Writes the step output upload=true|false.
# Reads TFSIFT_EVENT_NAME, TFSIFT_REPOSITORY, TFSIFT_HEAD_REPOSITORY,
# TFSIFT_ACTOR, GITHUB_OUTPUT.
set -euo pipefail
upload=true
reason=
case ${TFSIFT_EVENT_NAME:-} in
    pull_request | pull_request_review | pull_request_review_comment)
        if [[ -n ${TFSIFT_HEAD_REPOSITORY:-} && $TFSIFT_HEAD_REPOSITORY != "${TFSIFT_REPOSITORY:-}" ]]; then
            upload=false
            reason="the pull request comes from the fork $TFSIFT_HEAD_REPOSITORY"
        elif [[ ${TFSIFT_ACTOR:-} == "dependabot[bot]" ]]; then
            upload=false
            reason="the pull request is Dependabot's"
        fi
        ;;
esac
echo "upload=$upload" >> "${GITHUB_OUTPUT:?}"
if [[ $upload == false ]]; then
    echo "::notice title=tfsift::SARIF upload skipped: $reason, and its token cannot write code scanning results. The findings are in the log above; they still fail the job."
fi
