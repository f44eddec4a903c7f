#!/usr/bin/env bash
# Configures and builds dicesim (Release, warnings as errors) into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
# ccache, where installed, makes a rebuild after a checkout switch cheap.
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDICESIM_WERROR=ON "${launcher[@]}" >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
