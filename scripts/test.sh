#!/usr/bin/env bash
# Installs what is missing, builds every target (dicesim and the tests),
# checks formatting and runs the whole test suite; with --fast, only the tests
# not labelled slow (tests/README.md), for the edit-compile-test loop.
#   bash scripts/test.sh [--fast]
set -euo pipefail
cd "$(dirname "$0")/.."
which=()
case "${1:-}" in
  "") ;;
  --fast) which=(-LE slow) ;;
  *) echo "usage: bash scripts/test.sh [--fast]" >&2; exit 2 ;;
esac
echo "test.sh: checking the Debian packages (scripts/setup.sh)" >&2
bash scripts/setup.sh
echo "test.sh: building every target into build/" >&2
bash scripts/build.sh
echo "test.sh: clang-format" >&2
git ls-files -co --exclude-standard -- '*.cpp' '*.h' '*.cu' '*.cuh' | xargs clang-format --dry-run --Werror
echo "test.sh: ctest ${which[*]}" >&2
ctest --test-dir build --output-on-failure -j "$(nproc)" "${which[@]}"
