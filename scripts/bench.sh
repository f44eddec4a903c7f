#!/usr/bin/env bash
# Games per second of the reference configs (Sixers, 10,000, Pig, Dice Battle)
# at 1 and all CPUs, the straightforward implementation for comparison, and the
# engine's signature, which must not change with the thread count.
#   bash scripts/bench.sh [--games 2e7] [--threads 1 --threads 2] [--skip-naive]
# README "Speed" has the table measured with `build/dicesim bench --games 2e7`
# (median of 3 runs on the idle 2-core machine): 10,000 ev_heuristic two-player
# games 0.65 M/s on 1 thread, 1.27 M/s on 2; Pig hold_at 20 vs hold_at 20
# 2.4 M/s (one die) and 2.5 M/s (two dice) on 1 thread, 4.4 M and 4.9 M on 2.
#
#   bash scripts/bench.sh --tenk-win
# times the two-player 10,000 win solver instead (one core, a fresh cache):
# seed 000 and seed 003 to 10,000, and seed 000 with last_turn, IV.1, IV.3,
# IV.4 and IV.5; each line gives the solve time and the process's peak memory.
#
#   bash scripts/bench.sh --exact
# times the exact odds at Pig's and Dice Battle's limits (issue 12): `solve pig
# --config` and `check` (10,000 games a table) of optimal_win, hold_at 14..34
# and optimal_turns 2..5 at two dice, goal 200, and `solve battle --max-dice 20
# --goal 1000`; each line gives the wall and CPU seconds and the peak memory.
# On this 2-core machine: solve pig 7.2 s (26.3 s before the pass by score
# sums), check 13.6 s (31.1 s; its `run` alone takes 7.3 s), solve battle 8.1 s.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
case "${1:-}" in --tenk-win | --exact) ;; *) exec build/dicesim bench "$@" ;; esac
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if [ "$1" = --exact ]; then
  strategies='{"name": "optimal_win", "family": "optimal_win"}'
  for at in 14 16 18 20 22 24 26 28 30 32 34; do strategies+=", {\"name\": \"hold_at $at\", \"family\": \"hold_at\", \"at\": $at}"; done
  for turns in 2 3 4 5; do strategies+=", {\"name\": \"optimal_turns $turns\", \"family\": \"optimal_turns\", \"turns\": $turns}"; done
  printf '{"game": "pig", "games": 10000, "rules": {"dice": 2, "goal": 200}, "strategies": [%s], "contests": {"distributions": true, "sequential": true}}' "$strategies" >"$scratch/pig.json"
  timed() { /usr/bin/time -f "%e s wall, %U s CPU, %M KB: $*" "$@" >/dev/null; }
  timed build/dicesim solve pig --config "$scratch/pig.json"
  timed build/dicesim check "$scratch/pig.json" -o "$scratch/pig.h5" --quiet
  timed build/dicesim solve battle --max-dice 20 --goal 1000
  exit
fi
for rules in '{"preset": "seed000"}' '{"preset": "seed003"}' '{"preset": "seed000", "last_turn": true}' \
  '{"preset": "seed000", "no_stop_on_hot_dice": true}' '{"preset": "seed000", "exact_target": true}' \
  '{"preset": "seed000", "partial_set_aside": true}' '{"preset": "seed000", "continue_previous": true}'; do
  printf '{"game": "tenk", "games": 1, "rules": %s, "strategies": [{"name": "ev", "family": "ev_heuristic"}, {"name": "bank", "family": "bank_at", "total": 350}], "contests": {"distributions": false, "sequential": true}}' "$rules" >"$scratch/c.json"
  rm -rf "$scratch/cache"
  line=$(DICESIM_CACHE_DIR="$scratch/cache" taskset -c 0 build/dicesim solve tenk --win --config "$scratch/c.json" |
    grep -E '^(first seat|solved in)' | tr '\n' ' ')
  echo "$rules: $line"
done
