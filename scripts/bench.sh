#!/usr/bin/env bash
# Games per second of the reference configs at 1 and all CPUs, the
# straightforward implementation for comparison, and the engine's signature.
#   bash scripts/bench.sh [--games 1e8] [--threads 1 --threads 2]
# 10,000 (case "tenk ev_heuristic vs ev_heuristic"): 0.66 M two-player games/s on 1 thread,
# 1.25 M on 2 with both cores free, measured with `build/dicesim bench --games 1e6 --skip-naive`
# on the shared 2-core machine (median of 3).
# Pig (cases "pig hold_at 20 vs hold_at 20", one die and two dice): 1.9-2.4 M two-player games/s on
# 1 thread, up to 4.4 M (one die) and 4.6 M (two dice) on 2; `build/dicesim bench --games 2e7 --skip-naive`,
# three runs on the shared 2-core machine (2 threads fall to ~2 M when the other core is busy).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec build/dicesim bench "$@"
