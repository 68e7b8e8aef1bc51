#!/usr/bin/env bash
# Configures and builds tfsift: the one build recipe that CI (.ci/run), the
# Dockerfile and the GitHub Action (through the Dockerfile) share.
#
#   scripts/build.sh [--install-packages] BUILD_DIR [CMAKE_ARGUMENT...]
#
# --install-packages  first install the Debian 12 packages the build needs
#                     (scripts/debian-packages-build.txt; needs root)
# TFSIFT_BUILD_TARGET build only this target (for example tfsift); default all
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

install_packages=0
if [[ ${1:-} == --install-packages ]]; then
    install_packages=1
    shift
fi
if [[ $# -lt 1 || $1 == -* ]]; then
    echo "usage: scripts/build.sh [--install-packages] BUILD_DIR [CMAKE_ARGUMENT...]" >&2
    exit 2
fi
build_dir=$1
shift

if (( install_packages )); then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    # shellcheck disable=SC2046
    apt-get install -y --no-install-recommends $(grep -v '^#' "$root/scripts/debian-packages-build.txt")
fi

# A compiler cache, when one is installed, makes a rebuild of unchanged sources
# (a second clone, a CI run after a local build) a matter of seconds. Paths are
# hashed relative to the source tree, so clones in different folders share it.
launcher=()
if command -v ccache >/dev/null; then
    export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build_dir" -G Ninja "${launcher[@]}" "$@"
if [[ -n ${TFSIFT_BUILD_TARGET:-} ]]; then
    cmake --build "$build_dir" --target "$TFSIFT_BUILD_TARGET"
else
    cmake --build "$build_dir"
fi
