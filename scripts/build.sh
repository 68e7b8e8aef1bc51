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

cmake -S "$root" -B "$build_dir" -G Ninja "$@"
if [[ -n ${TFSIFT_BUILD_TARGET:-} ]]; then
    cmake --build "$build_dir" --target "$TFSIFT_BUILD_TARGET"
else
    cmake --build "$build_dir"
fi
