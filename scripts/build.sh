#!/usr/bin/env bash
# Configures and builds dicesim (Release, warnings as errors) into build/:
# every target, or only the one named (bash scripts/build.sh dicesim).
#   bash scripts/build.sh [TARGET]
set -euo pipefail
cd "$(dirname "$0")/.."
target=()
[ $# -gt 0 ] && target=(--target "$1")
launcher=()
# ccache, where installed, makes a rebuild after a checkout switch cheap.
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDICESIM_WERROR=ON "${launcher[@]}" >/dev/null
# The build's own progress lines show that a first build (minutes) is moving.
cmake --build build -j "$(nproc)" "${target[@]}"
