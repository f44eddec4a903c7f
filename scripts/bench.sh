#!/usr/bin/env bash
# Games per second of the reference configs at 1 and all CPUs, the
# straightforward implementation for comparison, and the engine's signature.
# The Pig cases play hold_at 20 against hold_at 20 (one die, two dice).
#   bash scripts/bench.sh [--games 1e8] [--threads 1 --threads 2]
# 10,000 (case "tenk ev_heuristic vs ev_heuristic"): 0.56 M two-player games/s on 1 thread,
# 0.87 M on 2, measured with `build/dicesim bench --games 1e6 --skip-naive` on the shared 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec build/dicesim bench "$@"
