#!/usr/bin/env bash
# The checked build (sim/engine/table.h bounds checks on every counter index, and
# _GLIBCXX_ASSERTIONS), optimised like Release, in build-checked/, and the C++
# test suite run in it: a wrong bin aborts with a message instead of counting
# in the next seat's histogram.
#   bash scripts/test_checked.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-checked -DCMAKE_BUILD_TYPE=Release -DDICESIM_CHECKED=ON -DDICESIM_WERROR=ON >/dev/null
cmake --build build-checked -j "$(nproc)" >/dev/null
ctest --test-dir build-checked --output-on-failure -j "$(nproc)" -E '^python\.'
