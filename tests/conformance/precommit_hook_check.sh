#!/usr/bin/env bash
# Tries tfsift's pre-commit hook as a new user would: a throw-away git
# repository whose .pre-commit-config.yaml names the hook repository and
# `id: tfsift`, then one commit per kind of file the hook covers (.tf,
# .tf.json, .tofu, .tofu.json, .tfmock.hcl, .terraform.lock.hcl,
# .tfsift.toml): a broken
# one is refused with its finding shown, the repaired one accepted. A change
# to the configuration alone shows the finding it causes in the lock file; a
# change to .tfsift.toml alone shows findings in files it did not touch.
#
# The hook repository is a fresh git repository holding tfsift's
# .pre-commit-hooks.yaml and its script, so the test reads the working
# tree's files even before they are committed. Skipped (77) when pre-commit
# is not installed.
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
mkdir -p "$hooks/scripts"
cp "$source_dir/.pre-commit-hooks.yaml" "$hooks/"
cp -p "$source_dir/scripts/pre-commit-hook" "$hooks/scripts/"
git -C "$hooks" add .pre-commit-hooks.yaml scripts/pre-commit-hook
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

# refused NAME PATTERN: the staged commit is refused and the hook's output
# matches PATTERN (an extended regular expression).
refused() {
  if git commit -q -m "$1" > "$work/out.txt" 2>&1; then
    cat "$work/out.txt"; echo "FAIL: $1: the commit was accepted"; exit 1
  fi
  grep -qE "$2" "$work/out.txt" ||
    { cat "$work/out.txt"; echo "FAIL: $1: the hook's output does not match $2"; exit 1; }
  echo "ok: $1: refused with the finding"
}
accepted() {
  git commit -q -m "$1" > "$work/out.txt" 2>&1 ||
    { cat "$work/out.txt"; echo "FAIL: $1: the commit was refused"; exit 1; }
  echo "ok: $1: accepted"
}

requirement() {  # the terraform block requiring aws with constraint $1
  printf 'terraform {\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = "%s"\n    }\n  }\n}\n' "$1"
}

# The style rules of TFLint's preset (typed and used variables,
# required_version) are not what this test is about: every settings file it
# writes turns them off.
style_off='[rules]\nunused-declaration = "off"\nvariable-type-missing = "off"\nrequired-version-missing = "off"\nunused-required-provider = "off"\n'
printf "$style_off" > .tfsift.toml

# .tf: the module of the file is linted, its finding shown.
mkdir -p modules/web
printf 'resource "aws_instance" "web" {\n  ami = "x" instance_type = "y"\n}\n' > modules/web/main.tf
printf 'variable "region" {}\n' > variables.tf
git add -A
refused ".tf with a syntax error" 'modules/web/main.tf:2:13: error\[syntax-error\]'
# The fixed module declares its provider, as the provider requirement rules ask.
requirement "~> 5.0" > modules/web/main.tf
printf '\nresource "aws_instance" "web" {\n  ami           = "x"\n  instance_type = "y"\n}\n' >> modules/web/main.tf
git add -A
accepted ".tf fixed"

# .tf.json, .tofu and .tofu.json: each a module of its own.
mkdir -p json tofu tofujson
printf '{"variable": {"region": {}},}\n' > json/main.tf.json
git add -A
refused ".tf.json with a syntax error" 'json/main.tf.json:1:[0-9]+: error\[syntax-error\]'
printf '{"variable": {"region": {}}}\n' > json/main.tf.json
git add -A
accepted ".tf.json fixed"
printf 'variable "region" {\n  default = \n}\n' > tofu/main.tofu
git add -A
refused ".tofu with a syntax error" 'tofu/main.tofu:[0-9]+:[0-9]+: error\[syntax-error\]'
printf 'variable "region" {\n  default = "x"\n}\n' > tofu/main.tofu
git add -A
accepted ".tofu fixed"
printf '{"variable": {"region": {"default": }}}\n' > tofujson/main.tofu.json
git add -A
refused ".tofu.json with a syntax error" 'tofujson/main.tofu.json:1:[0-9]+: error\[syntax-error\]'
printf '{"variable": {"region": {"default": "x"}}}\n' > tofujson/main.tofu.json
git add -A
accepted ".tofu.json fixed"

# A mock data file alone: the module whose test reads it is linted, the
# finding shown in the mock file.
mkdir -p mocked/tests/mocks
requirement "~> 5.0" > mocked/main.tf
printf 'mock_provider "aws" {\n  source = "./tests/mocks"\n}\n\nrun "plans" {\n  command = plan\n}\n' \
  > mocked/tests/basic.tftest.hcl
printf 'mock_resource "aws_instance" {}\n' > mocked/tests/mocks/aws.tfmock.hcl
git add -A
accepted "a module with a test that mocks its provider"
printf 'mock_resource "aws_instance" {}\nmock_resource "aws_instance" {}\n' > mocked/tests/mocks/aws.tfmock.hcl
git add mocked/tests/mocks/aws.tfmock.hcl
refused ".tfmock.hcl with a duplicate mock" 'mocked/tests/mocks/aws\.tfmock\.hcl:2:[0-9]+: error\[invalid-configuration\]'
printf 'mock_resource "aws_instance" {}\n\nmock_data "aws_ami" {}\n' > mocked/tests/mocks/aws.tfmock.hcl
git add -A
accepted ".tfmock.hcl fixed"

# The lock file: a root module calling modules/web, locked at 5.1.0. A
# called module sets only a minimum version.
{ requirement "~> 5.0"; printf '\nmodule "web" {\n  source = "./modules/web"\n}\n'; } > main.tf
web_module() {  # the called module, requiring aws $1
  requirement "$1" > modules/web/main.tf
  printf '\nresource "aws_instance" "web" {\n  ami           = "x"\n  instance_type = "y"\n}\n' >> modules/web/main.tf
}
web_module ">= 5.0"
lock_entry() {  # ADDRESS VERSION
  printf '\nprovider "%s" {\n  version     = "%s"\n  constraints = "~> 5.0"\n  hashes = [\n    "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",\n  ]\n}\n' "$1" "$2"
}
header='# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n'
{ printf "$header"; lock_entry registry.terraform.io/hashicorp/aws 5.1.0; } > .terraform.lock.hcl
git add -A
accepted "a root module with its lock file"
# A lock file staged alone, with an entry nothing requires.
{ printf "$header"; lock_entry registry.terraform.io/hashicorp/aws 5.1.0; lock_entry registry.terraform.io/hashicorp/null 5.1.0; } > .terraform.lock.hcl
git add .terraform.lock.hcl
refused ".terraform.lock.hcl with a stale entry" '\.terraform\.lock\.hcl:[0-9]+:[0-9]+: warning\[lock-stale-provider\]'
{ printf "$header"; lock_entry registry.terraform.io/hashicorp/aws 5.1.0; } > .terraform.lock.hcl
git add .terraform.lock.hcl
git diff --cached --quiet || { echo "FAIL: the lock file was not restored"; exit 1; }
# The root module's configuration changed alone: the lock no longer fits.
{ requirement "~> 6.0"; printf '\nmodule "web" {\n  source = "./modules/web"\n}\n'; } > main.tf
git add main.tf
refused "a configuration change the lock file no longer fits" '\.terraform\.lock\.hcl:[0-9]+:[0-9]+: error\[lock-version-mismatch\]'
git checkout -q HEAD -- main.tf
# A called module's configuration changed alone: the lock file of the root
# module above it is checked too.
web_module ">= 6.0"
git add modules/web/main.tf
refused "a called module's change the root's lock file no longer fits" '\.terraform\.lock\.hcl:[0-9]+:[0-9]+: error\[lock-version-mismatch\]'
git checkout -q HEAD -- modules/web/main.tf
# A module called by a root module that is not above it: envs/prod calls
# modules/bucket. A change to the module's constraint alone breaks the lock
# file of envs/prod, found through the repository's module calls.
mkdir -p modules/bucket envs/prod
bucket_module() {  # the called module, requiring aws $1
  requirement "$1" > modules/bucket/main.tf
  printf '\nresource "aws_instance" "bucket" {\n  ami           = "x"\n  instance_type = "y"\n}\n' >> modules/bucket/main.tf
}
bucket_module ">= 5.0"
{ requirement "~> 5.0"; printf '\nmodule "bucket" {\n  source = "../../modules/bucket"\n}\n'; } > envs/prod/main.tf
{ printf "$header"; lock_entry registry.terraform.io/hashicorp/aws 5.1.0; } > envs/prod/.terraform.lock.hcl
git add -A
accepted "envs/prod calling modules/bucket, with its lock file"
bucket_module ">= 6.0"
git add modules/bucket/main.tf
refused "a change to modules/bucket that the lock file of envs/prod, its caller, no longer fits" \
  'envs/prod/\.terraform\.lock\.hcl:[0-9]+:[0-9]+: error\[lock-version-mismatch\]'
git checkout -q HEAD -- modules/bucket/main.tf

# .tfsift.toml staged alone: a policy that the unchanged modules break.
printf '[[policy]]\nid = "aws-tags"\nkind = "required-attributes"\nresource-types = "^aws_"\nattributes = ["tags"]\n'"$style_off" > .tfsift.toml
git add .tfsift.toml
refused ".tfsift.toml with a new policy" 'modules/web/main.tf:[0-9]+:[0-9]+: warning\[aws-tags\]'
printf 'version = \n' > .tfsift.toml
git add .tfsift.toml
refused ".tfsift.toml that is not TOML" '\.tfsift\.toml'
printf '[[policy]]\nid = "aws-tags"\nkind = "required-attributes"\nresource-types = "^aws_"\nattributes = ["ami"]\n'"$style_off" > .tfsift.toml
git add .tfsift.toml
accepted ".tfsift.toml fixed"

# tfsift-lock-diff: the staged lock file against HEAD (offline here: no
# registry), the review shown with verbose: true; a lock file that cannot be
# read as one is refused.
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: tfsift-lock-diff
        verbose: true
YAML
git add .pre-commit-config.yaml
git commit -q --no-verify -m "lock review hook"
export TFSIFT_OFFLINE=1
printf 'provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.31.0"\n  hashes = ["zh:%064d"]\n}\n' 1 > .terraform.lock.hcl
git add .terraform.lock.hcl
git commit -q --no-verify -m "lock base"
printf 'provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.40.0"\n  hashes = ["zh:%064d"]\n}\n' 2 > .terraform.lock.hcl
git add .terraform.lock.hcl
accepted "lock file upgraded (offline review)"
grep -qE 'hashicorp/aws +upgraded +5\.31\.0 +5\.40\.0' "$work/out.txt" ||
  { cat "$work/out.txt"; echo "FAIL: the review does not show the upgrade"; exit 1; }
grep -q 'without verification' "$work/out.txt" ||
  { cat "$work/out.txt"; echo "FAIL: the review does not say it is offline"; exit 1; }
echo "ok: the review shows the upgrade, offline"
printf 'provider "registry.terraform.io/hashicorp/aws" {\n  version = 5.40.0\n}\n' > .terraform.lock.hcl
git add .terraform.lock.hcl
refused "lock file that does not read" 'cannot review'
unset TFSIFT_OFFLINE
