#!/usr/bin/env bash
# The GitHub Action's lock-review step (action.yml, input `lock-review`): on a
# pull request, `tfsift lock diff` of the checked-out merge result against the
# base branch, printed as text in the log and posted as one Markdown comment
# on the pull request, updated in place on every later run
# (lock_review_comment.py). Outside a pull request it does nothing. Records
# the exit status as the step output `lock-review-exit-code`; exits 1 when an
# added hash is not signed (after posting), 2 when the review or the comment
# failed.
# Reads GITHUB_EVENT_NAME, GITHUB_BASE_REF, GITHUB_OUTPUT, RUNNER_TEMP and,
# for the comment, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL and
# TFSIFT_GITHUB_TOKEN.
set -uo pipefail
case ${GITHUB_EVENT_NAME:-} in
    pull_request | pull_request_target) ;;
    *)
        echo "tfsift lock diff: not a pull request (${GITHUB_EVENT_NAME:-no event}); nothing to review"
        echo "lock-review-exit-code=0" >> "${GITHUB_OUTPUT:?}"
        exit 0
        ;;
esac
base=${GITHUB_BASE_REF:?the pull request has no base branch}
# actions/checkout fetches the merge commit alone: fetch the base branch's tip.
if ! git rev-parse --verify --quiet "refs/remotes/origin/$base" >/dev/null; then
    git fetch --no-tags --depth=1 origin "+refs/heads/$base:refs/remotes/origin/$base" || {
        echo "::error::cannot fetch the base branch $base"
        exit 2
    }
fi
comment="${RUNNER_TEMP:?}/tfsift-lock-review.md"
status=0
tfsift lock diff --base "origin/$base" --format text --output "markdown:$comment" || status=$?
echo "lock-review-exit-code=$status" >> "$GITHUB_OUTPUT"
if [[ -f $comment ]]; then
    python3 "$(dirname "${BASH_SOURCE[0]}")/lock_review_comment.py" "$comment" || exit 2
fi
if (( status == 1 )); then
    echo "::error::tfsift lock diff: a lock-file change adds a hash its registry did not sign"
fi
exit "$status"
