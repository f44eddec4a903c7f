#!/usr/bin/env bash
# Installs what is missing, builds, and runs a config (default: configs/sixers.json),
# leaving results/<name>.h5. Extra arguments go to `dicesim run`.
#   bash scripts/run.sh [CONFIG] [--games N] [--threads T] ...
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
config=configs/sixers.json
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  config=$1
  shift
fi
exec build/dicesim run "$config" "$@"
