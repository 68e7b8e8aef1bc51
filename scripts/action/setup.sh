#!/usr/bin/env bash
# The GitHub Action's first step (action.yml): makes a `tfsift` command
# available to the next steps, in the first of these ways that applies:
#   - the `tfsift` input: that installed binary (checked with --version);
#   - `build: true`: the Debian 12 image of the action's Dockerfile, built
#     once (scripts/build.sh, as CI builds) and run by a small wrapper that
#     mounts the workspace at the same path, so that the report names files
#     as they are in the repository;
#   - otherwise the release tarball of the `version` input (default: the
#     release tag the action is pinned to), downloaded from `release-url`
#     (default: the releases of the repository the action comes from),
#     checked against the release's SHA256SUMS and unpacked.
# Reads TFSIFT_INPUT, TFSIFT_BUILD, TFSIFT_VERSION, TFSIFT_RELEASE_URL,
# TFSIFT_SERVER_URL, TFSIFT_ACTION_REPOSITORY, TFSIFT_ACTION_REF,
# GITHUB_ACTION_PATH, GITHUB_PATH, RUNNER_TEMP, GITHUB_WORKSPACE.
set -euo pipefail
bin_dir="${RUNNER_TEMP:?}/tfsift-bin"
mkdir -p "$bin_dir"

download_release() {
    local version=${TFSIFT_VERSION:-}
    if [[ -z $version ]]; then
        if [[ ${TFSIFT_ACTION_REF:-} =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
            version=$TFSIFT_ACTION_REF
        else
            echo "::error::which tfsift release to download is not known: the action is used at '${TFSIFT_ACTION_REF:-}', not at a release tag. Set the version input (for example 0.1.0), or build: true to build tfsift from the action's source"
            exit 2
        fi
    fi
    version=${version#v}
    if [[ ! $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]]; then
        echo "::error::the version input '$version' is not a release version such as 0.1.0"
        exit 2
    fi
    local arch
    case $(uname -m) in
        x86_64) arch=x86_64 ;;
        *) echo "::error::tfsift publishes no release tarball for $(uname -m); use build: true"; exit 2 ;;
    esac
    local base=${TFSIFT_RELEASE_URL:-}
    if [[ -z $base ]]; then
        if [[ -z ${TFSIFT_SERVER_URL:-} || -z ${TFSIFT_ACTION_REPOSITORY:-} ]]; then
            echo "::error::the repository this action comes from is not known; set the release-url input"
            exit 2
        fi
        base="$TFSIFT_SERVER_URL/$TFSIFT_ACTION_REPOSITORY/releases/download"
    fi
    base="${base%/}/v$version"
    local tarball="tfsift-$version-linux-$arch.tar.gz"
    local dir="$RUNNER_TEMP/tfsift-release"
    rm -rf "$dir"
    mkdir -p "$dir"
    local file
    for file in SHA256SUMS "$tarball"; do
        if ! curl --fail --silent --show-error --location --retry 3 --output "$dir/$file" "$base/$file"; then
            echo "::error::cannot download $base/$file"
            exit 2
        fi
    done
    local expected actual
    expected=$(awk -v f="$tarball" '$2 == f || $2 == "*" f { print $1; exit }' "$dir/SHA256SUMS")
    if [[ -z $expected ]]; then
        echo "::error::the SHA256SUMS of release $version does not list $tarball"
        exit 2
    fi
    actual=$(sha256sum "$dir/$tarball" | cut -d ' ' -f 1)
    if [[ $actual != "$expected" ]]; then
        echo "::error::$tarball does not match the SHA256SUMS of release $version (expected $expected, downloaded $actual)"
        exit 2
    fi
    tar -xzf "$dir/$tarball" -C "$dir"
    ln -sf "$dir/tfsift-$version-linux-$arch/bin/tfsift" "$bin_dir/tfsift"
    echo "tfsift $version from $base ($tarball, sha256 $actual)"
}

if [[ -n ${TFSIFT_INPUT:-} ]]; then
    binary=$(command -v "$TFSIFT_INPUT" || true)
    if [[ -z $binary || ! -x $binary ]]; then
        echo "::error::the tfsift input '$TFSIFT_INPUT' is not an executable file"
        exit 2
    fi
    ln -sf "$(realpath "$binary")" "$bin_dir/tfsift"
elif [[ ${TFSIFT_BUILD:-false} == true ]]; then
    image=tfsift-action:local
    if ! command -v docker >/dev/null; then
        echo "::error::building tfsift's container needs Docker on the runner; or use a release (the version input) or an installed tfsift (the tfsift input)"
        exit 2
    fi
    docker build --quiet --tag "$image" "${GITHUB_ACTION_PATH:?}" >/dev/null
    workspace=${GITHUB_WORKSPACE:-$PWD}
    cat > "$bin_dir/tfsift" <<WRAPPER
#!/usr/bin/env bash
exec docker run --rm --user "\$(id -u):\$(id -g)" -v "$workspace:$workspace" -w "\$PWD" $image "\$@"
WRAPPER
    chmod +x "$bin_dir/tfsift"
else
    download_release
fi
echo "$bin_dir" >> "${GITHUB_PATH:?}"
"$bin_dir/tfsift" --version
