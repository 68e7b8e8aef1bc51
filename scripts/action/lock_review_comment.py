#!/usr/bin/env python3
"""Posts the Markdown of `tfsift lock diff` as one comment on the pull request
of the running GitHub workflow, or updates the comment it posted before (the
one whose body starts with the review's marker line). A review that found no
changed lock file is posted only to update an earlier comment.

    lock_review_comment.py COMMENT.md

Reads GITHUB_EVENT_PATH (the pull request's number), GITHUB_REPOSITORY,
GITHUB_API_URL (default https://api.github.com) and TFSIFT_GITHUB_TOKEN.
Never prints the token. Exits 0 when done, 2 on failure.
"""
import json
import os
import sys
import urllib.error
import urllib.request

MARKER = "<!-- tfsift lock review -->"
NOTHING = "No lock file changed."
LIMIT = 65000  # GitHub refuses comment bodies over 65,536 characters


def call(method, url, token, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Accept": "application/vnd.github+json",
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "User-Agent": "tfsift-lock-review",
        "X-GitHub-Api-Version": "2022-11-28",
    })
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        body = f.read()
    if len(body) > LIMIT:
        body = body[:LIMIT] + "\n\n…cut short: the full review is in the workflow's log.\n"
    token = os.environ.get("TFSIFT_GITHUB_TOKEN", "")
    repository = os.environ.get("GITHUB_REPOSITORY", "")
    api = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    try:
        with open(os.environ["GITHUB_EVENT_PATH"], encoding="utf-8") as f:
            number = json.load(f)["pull_request"]["number"]
    except (KeyError, OSError, ValueError, TypeError) as e:
        print(f"lock review comment: cannot read the pull request's number from GITHUB_EVENT_PATH: {e}",
              file=sys.stderr)
        return 2
    if not token or not repository:
        print("lock review comment: needs TFSIFT_GITHUB_TOKEN and GITHUB_REPOSITORY", file=sys.stderr)
        return 2
    issue = f"{api}/repos/{repository}/issues/{number}"
    try:
        existing = None
        page = 1
        while existing is None:
            comments = call("GET", f"{issue}/comments?per_page=100&page={page}", token)
            if not comments:
                break
            existing = next((c for c in comments if (c.get("body") or "").startswith(MARKER)), None)
            page += 1
        if existing is not None:
            call("PATCH", f"{api}/repos/{repository}/issues/comments/{existing['id']}", token, {"body": body})
            print(f"lock review comment: updated comment {existing['id']} on #{number}")
        elif NOTHING in body:
            print(f"lock review comment: no lock file changed; nothing posted on #{number}")
        else:
            created = call("POST", f"{issue}/comments", token, {"body": body})
            print(f"lock review comment: posted comment {created.get('id')} on #{number}")
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "code", None) or getattr(e, "reason", None) or e
        print(f"lock review comment: the GitHub API at {api} failed for {repository}#{number}: {reason}",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
