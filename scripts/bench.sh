#!/usr/bin/env bash
# Games per second of the reference configs (Sixers, 10,000, Pig, Dice Battle)
# at 1 and all CPUs, the straightforward implementation for comparison, and the
# engine's signature, which must not change with the thread count.
#   bash scripts/bench.sh [--games 2e7] [--threads 1 --threads 2] [--skip-naive]
# README "Speed" has the table measured with `build/dicesim bench --games 2e7`
# (median of 3 runs on the idle 2-core machine): 10,000 ev_heuristic two-player
# games 0.65 M/s on 1 thread, 1.27 M/s on 2; Pig hold_at 20 vs hold_at 20
# 2.4 M/s (one die) and 2.5 M/s (two dice) on 1 thread, 4.4 M and 4.9 M on 2.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec build/dicesim bench "$@"
