#!/usr/bin/env bash
# Installs what is missing, builds the dicesim binary, and runs a config
# (default: configs/sixers.json), leaving results/<name>.h5. Extra arguments
# go to `dicesim run`.
#   bash scripts/run.sh [CONFIG] [--games N] [--threads T] ...
# A second call skips the package check and the configure step while
# scripts/setup.sh, scripts/build.sh and the CMake files are unchanged (the
# stamp in build/ holds their hash); the build itself is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."

setup_hash() {
  { cat scripts/setup.sh scripts/build.sh
    git ls-files -co --exclude-standard -- 'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake' | sort | xargs cat
  } | sha256sum | cut -d' ' -f1
}

stamp=build/.run-setup-stamp
if [ -x build/dicesim ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(setup_hash)" ]; then
  echo "run.sh: setup and configure unchanged since the last run; building dicesim" >&2
  cmake --build build -j "$(nproc)" --target dicesim
else
  echo "run.sh: checking the Debian packages (scripts/setup.sh)" >&2
  bash scripts/setup.sh
  echo "run.sh: configuring and building dicesim into build/ (a first build takes minutes)" >&2
  bash scripts/build.sh dicesim
  setup_hash >"$stamp"
fi

config=configs/sixers.json
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  config=$1
  shift
fi
echo "run.sh: build/dicesim run $config $*" >&2
exec build/dicesim run "$config" "$@"
