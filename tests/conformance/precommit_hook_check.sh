#!/usr/bin/env bash
# Tries tfsift's pre-commit hook as a new user would: a throw-away git
# repository whose .pre-commit-config.yaml names the hook repository and
# `id: tfsift`, a commit with a broken .tf file (refused, the finding shown),
# then the fixed file (accepted).
#
# The hook repository is a fresh git repository holding tfsift's
# .pre-commit-hooks.yaml, so the test reads the working tree's file even
# before it is committed. Skipped (77) when pre-commit is not installed.
# Usage: precommit_hook_check.sh SOURCE_DIR TFSIFT_BINARY
set -euo pipefail
source_dir=$1
tfsift=$2
command -v pre-commit >/dev/null || { echo "pre-commit not installed: skipped"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache" HOME="$work/home"
mkdir -p "$HOME" "$work/bin"
ln -s "$(realpath "$tfsift")" "$work/bin/tfsift"
export PATH="$work/bin:$PATH"
git config --global user.email tester@example.com
git config --global user.name tester
git config --global init.defaultBranch main

hooks="$work/hooks"
git init -q "$hooks"
cp "$source_dir/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" add .pre-commit-hooks.yaml
git -C "$hooks" commit -q -m hooks
rev=$(git -C "$hooks" rev-parse HEAD)

project="$work/project"
git init -q "$project"
cd "$project"
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: tfsift
YAML
pre-commit install >/dev/null
mkdir -p modules/web
printf 'resource "aws_instance" "web" {\n  ami = "x" instance_type = "y"\n}\n' > modules/web/main.tf
printf 'variable "region" {}\n' > variables.tf
git add -A
if git commit -q -m broken > "$work/out.txt" 2>&1; then
  cat "$work/out.txt"; echo "FAIL: the commit with a syntax error was accepted"; exit 1
fi
grep -q 'modules/web/main.tf:2:13: error\[syntax-error\]' "$work/out.txt" ||
  { cat "$work/out.txt"; echo "FAIL: the finding is not in the hook's output"; exit 1; }
echo "broken commit refused with the finding"
# The fixed module declares its provider, as the provider requirement rules ask.
printf 'terraform {\n  required_version = ">= 1.5"\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = "~> 5.0"\n    }\n  }\n}\n\n' > modules/web/main.tf
printf 'resource "aws_instance" "web" {\n  ami           = "x"\n  instance_type = "y"\n}\n' >> modules/web/main.tf
# The root module too: a version requirement, and a typed variable it uses.
printf 'terraform {\n  required_version = ">= 1.5"\n}\n\nvariable "region" {\n  type = string\n}\n\noutput "region" {\n  value = var.region\n}\n' > variables.tf
git add -A
git commit -q -m fixed > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; echo "FAIL: the fixed commit was refused"; exit 1; }
echo "fixed commit accepted"
