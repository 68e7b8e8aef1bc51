#!/usr/bin/env bash
# scripts/new-rule.sh end to end, without rebuilding the project: copies the
# parts of the source tree the script writes to (rules/, fixtures/rules/,
# docs/rules/) into a scratch directory, scaffolds a rule there, compiles
# only the two files that change (the new rule and the catalogue) with the
# build's own flags, links them ahead of the build's libtfsift_core.a (whose
# catalogue they replace) into a scratch tfsift, and checks with it that
#   - the new rule is in the catalogue and its documentation is generated,
#     the other rules' documents unchanged;
#   - its failing fixture gives exactly the annotated findings and its
#     passing fixture none;
#   - a second run for the same id refuses to overwrite anything.
#
# usage: new_rule_check.sh SOURCE_DIR BUILD_DIR
set -euo pipefail

src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
id=scaffold-check-example
fn=${id//-/_}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

if [[ ! -f $build/compile_commands.json ]]; then
    echo "new_rule_check: $build/compile_commands.json is missing (configure with CMake's compile commands)" >&2
    exit 1
fi

mkdir -p "$scratch/src/scripts" "$scratch/src/fixtures" "$scratch/src/docs" "$scratch/obj"
cp -R "$src/rules" "$scratch/src/rules"
cp -R "$src/fixtures/rules" "$scratch/src/fixtures/rules"
cp -R "$src/docs/rules" "$scratch/src/docs/rules"
cp "$src/scripts/new-rule.sh" "$scratch/src/scripts/"

"$scratch/src/scripts/new-rule.sh" "$id"
for f in "rules/$fn.cpp" "fixtures/rules/$id/failing/main.tf" "fixtures/rules/$id/passing/main.tf"; do
    [[ -f $scratch/src/$f ]] || { echo "new_rule_check: $f was not written" >&2; exit 1; }
done
if "$scratch/src/scripts/new-rule.sh" "$id" 2>/dev/null; then
    echo "new_rule_check: a second scaffold of $id was not refused" >&2
    exit 1
fi

# Compile the new rule and the catalogue as the build compiles the catalogue.
python3 - "$build" "$src" "$scratch" "$fn" <<'EOF'
import json, shlex, subprocess, sys
build, src, scratch, fn = sys.argv[1:]
entries = json.load(open(build + "/compile_commands.json"))
catalogue = src + "/rules/support/catalogue.cpp"
entry = next(e for e in entries if e["file"] == catalogue)
args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
for name, source in (("catalogue", scratch + "/src/rules/support/catalogue.cpp"),
                     ("rule", scratch + "/src/rules/" + fn + ".cpp")):
    cmd = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT"):
            skip = True
            continue
        if a in ("-c", "-MD") or a == catalogue:
            continue
        cmd.append(a)
    # The scratch rules/ first, so that its factories.hpp is the one seen.
    cmd += ["-I" + scratch + "/src/rules", "-c", source, "-o", scratch + "/obj/" + name + ".o"]
    subprocess.run(cmd, cwd=entry["directory"], check=True)
EOF

# Link: the build's own command for tfsift, with the two objects ahead of
# the library, so the library's catalogue member is never pulled in.
link=$(ninja -C "$build" -t commands tfsift | tail -n 1)
link=${link#: && }
link=${link% && :}
[[ $link == *libtfsift_core.a* ]] || { echo "new_rule_check: unexpected link command: $link" >&2; exit 1; }
link=${link/libtfsift_core.a/$scratch/obj/rule.o $scratch/obj/catalogue.o libtfsift_core.a}
link=${link/-o tfsift /-o $scratch/tfsift }
(cd "$build" && eval "$link")
tfsift=$scratch/tfsift
[[ -x $tfsift ]] || { echo "new_rule_check: the scratch tfsift was not linked" >&2; exit 1; }

"$tfsift" rules | grep -q "^$id\b" || { echo "new_rule_check: $id is not in the catalogue" >&2; exit 1; }
"$tfsift" rule --all-markdown "$scratch/src/docs/rules" >/dev/null
[[ -s $scratch/src/docs/rules/$id.md ]] || { echo "new_rule_check: docs/rules/$id.md not generated" >&2; exit 1; }
changed=$(diff -rq "$src/docs/rules" "$scratch/src/docs/rules" | grep -v "Only in $scratch/src/docs/rules: $id.md" || true)
[[ -z $changed ]] || { echo "new_rule_check: other rule documents changed: $changed" >&2; exit 1; }

python3 - "$tfsift" "$scratch/src/fixtures/rules/$id" "$id" <<'EOF'
import json, os, subprocess, sys
tfsift, fixtures, rule = sys.argv[1:]
for case in ("failing", "passing"):
    d = os.path.join(fixtures, case)
    expected = set()
    for name in os.listdir(d):
        for n, line in enumerate(open(os.path.join(d, name)), 1):
            if "# expect:" in line:
                ids = [x.strip() for x in line.split("# expect:")[1].split(",")]
                expected |= {(name, n, x) for x in ids if x}
    out = subprocess.run([tfsift, "lint", "--only", rule, "--format", "json", d],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"new_rule_check: tfsift lint failed on {case}: {out.stderr}")
    findings = json.loads(out.stdout)["findings"]
    actual = {(os.path.basename(f["location"]["path"]), f["location"]["start"]["line"], f["rule"]) for f in findings}
    if actual != expected:
        sys.exit(f"new_rule_check: {case}: expected {sorted(expected)}, got {sorted(actual)}")
    print(f"new_rule_check: {case}: {len(actual)} finding(s) as annotated")
EOF
echo "new_rule_check: scripts/new-rule.sh scaffolds a working rule"
