#!/usr/bin/env bash
# The GitHub Action's first step (action.yml): makes a `tfsift` command
# available to the next steps. With the `tfsift` input, that binary (checked
# with --version); otherwise the Debian 12 image of the action's Dockerfile,
# built once (the build runs scripts/build.sh, as CI does) and run by a small
# wrapper that mounts the workspace at the same path, so that the report
# names files as they are in the repository.
# Reads TFSIFT_INPUT, GITHUB_ACTION_PATH, GITHUB_PATH, RUNNER_TEMP, GITHUB_WORKSPACE.
set -euo pipefail
bin_dir="${RUNNER_TEMP:?}/tfsift-bin"
mkdir -p "$bin_dir"

if [[ -n ${TFSIFT_INPUT:-} ]]; then
    binary=$(command -v "$TFSIFT_INPUT" || true)
    if [[ -z $binary || ! -x $binary ]]; then
        echo "::error::the tfsift input '$TFSIFT_INPUT' is not an executable file"
        exit 2
    fi
    ln -sf "$(realpath "$binary")" "$bin_dir/tfsift"
else
    image=tfsift-action:local
    if ! command -v docker >/dev/null; then
        echo "::error::building tfsift's container needs Docker on the runner; or give the action an installed tfsift with the 'tfsift' input"
        exit 2
    fi
    docker build --quiet --tag "$image" "${GITHUB_ACTION_PATH:?}" >/dev/null
    workspace=${GITHUB_WORKSPACE:-$PWD}
    cat > "$bin_dir/tfsift" <<WRAPPER
#!/usr/bin/env bash
exec docker run --rm --user "\$(id -u):\$(id -g)" -v "$workspace:$workspace" -w "\$PWD" $image "\$@"
WRAPPER
    chmod +x "$bin_dir/tfsift"
fi
echo "$bin_dir" >> "${GITHUB_PATH:?}"
"$bin_dir/tfsift" --version
