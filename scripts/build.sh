#!/usr/bin/env bash
# Configures and builds dicesim (Release, warnings as errors) into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDICESIM_WERROR=ON >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
