#!/usr/bin/env bash
# Installs what is missing, builds, checks formatting and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
git ls-files -co --exclude-standard -- '*.cpp' '*.h' | xargs clang-format --dry-run --Werror
ctest --test-dir build --output-on-failure -j "$(nproc)"
