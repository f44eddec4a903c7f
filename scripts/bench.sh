#!/usr/bin/env bash
# Games per second of every game's reference configs (GameEntry::bench_cases)
# at 1 and all CPUs, the straightforward implementation for comparison, and the
# engine's signature, which must not change with the thread count.
#   bash scripts/bench.sh [--games 2e7] [--threads 1 --threads 2] [--skip-naive]
# scripts/README.md "Benchmarks and speed" has the table measured with `build/dicesim bench --games 2e7`
# (median of 3 runs on the 2-core machine, quiet): Sixers dv(2,2) 62% of its
# floor on 1 thread; 10,000 ev_heuristic two-player games 18.0%, optimal_win
# vs ev_heuristic 12.5% (1.49 times the pair's time), an IV.4 pair 4.3%; Pig
# hold_at 20 17.9% (one die), optimal_win 18.2%; Dice Battle 24-25%; every
# case 1.94 to 2.00 times as fast on 2 threads. The cases marked (1/N) play
# --games / N games.
#
#   bash scripts/bench.sh --tenk-win
# times the two-player 10,000 win solver instead (a fresh cache, both cores:
# the pairs of scores of one sum are solved in parallel): seed 000 and seed
# 003 to 10,000, and seed 000 with last_turn, IV.1, IV.3, IV.4 and IV.5; each
# line gives the solve time, the peak memory the solver saw and the whole
# command's wall time and peak memory (/usr/bin/time, with the odds against
# the config's two strategies); then seed 000 on one core.
#
#   bash scripts/bench.sh --exact
# times the exact odds at Pig's and Dice Battle's limits (issue 12): `solve pig
# --config` and `check` (10,000 games a table) of optimal_win, hold_at 14..34
# and optimal_turns 2..5 at two dice, goal 200, and `solve battle --max-dice 20
# --goal 1000`; each line gives the wall and CPU seconds and the peak memory.
# On this 2-core machine: solve pig 7.2 s (26.3 s before the pass by score
# sums), check 13.6 s (31.1 s; its `run` alone takes 7.3 s), solve battle 8.1 s.
# Then `solve yahtzee` (the optimum, its exact distribution and the three
# rules of thumb's): 12.2 s wall, 20.7 s CPU, 418 MiB; with `--card yatzy`
# (2.1 M cards, 15 turns) 38.9 s wall, 60.6 s CPU, 565 MiB (measured beside a
# build: an upper bound).
#
#   bash scripts/bench.sh --table-win
# times the win-optimal table solves at three and four seats (issue 44), each
# with the deviation gains `solve` prints (one more solve per seat): Pig one
# die to 100 at three seats, two dice to 60 at three, one die to 40 at four;
# 10,000 (seed 000) to 1,000, 2,000 and 5,000 at three. Each line gives the
# wall and CPU seconds and the peak memory, then the solve's own lines (turn
# starts, whether every tuple settled or where the rounds cycled and how
# many of those mix, the gains and the verdict).
#
#   bash scripts/bench.sh --table-win-10000
# 10,000 at its real target, three seats (about two hours on two cores, the places included): the
# solve with its deviation gains and fair head starts under seed 000's
# rules, then `check` of a config whose three solved seats play with and
# without those head starts (100,000 games a table: the solve once more,
# then the games, each compared with the solve by z), then seed 003's rules
# checked the same way (its solve once, without the gains' three more).
#
#   bash scripts/bench.sh --table-win-pig-four
# Pig, one die, four seats to 100 (4 x 10^8 turn starts): the solve, about
# 17 minutes and 11.6 GiB on two cores, then its four deviation gains (one
# more solve each, without decisions: 7 GiB, about 12 minutes), about 70
# minutes and 12.4 GiB in all.
#
#   bash scripts/bench.sh --sweep
# what a sweep costs besides its games (issue 14): the setup (parse, expand,
# compile, plan) of 500 and 9,261 Sixers strategies from `run --dry-run`, and
# a 500-strategy rectangle against 3 opponents in sequence (3,000 tables) at
# 10^5 games a table, against a 6-strategy round robin (30 tables) of the same
# 3 x 10^8 games: the games/s of both and the peak memory of each; then the
# memory per table of a 9,261-strategy rectangle against 3 (55,566 tables),
# its file's size and what the Python package takes to load it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
case "${1:-}" in --tenk-win | --exact | --sweep | --table-win | --table-win-10000 | --table-win-pig-four) ;; *) exec build/dicesim bench "$@" ;; esac
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
table_solve() {
  /usr/bin/time -f "  %e s wall, %U s CPU, %M KB" -o "$scratch/time" build/dicesim solve "$@" >"$scratch/out"
  echo "solve $*:"
  cat "$scratch/time"
  grep -E 'wins\)|turn-start states|turn starts|settled|cycled|gains|equilibrium' "$scratch/out" | sed 's/^ */  /'
}
if [ "$1" = --table-win-pig-four ]; then
  table_solve pig --optimal --seats 4
  exit
fi
if [ "$1" = --table-win ]; then
  table_solve pig --optimal --seats 3
  table_solve pig --optimal --seats 3 --dice 2 --goal 60
  table_solve pig --optimal --seats 4 --goal 40
  table_solve tenk --win --seats 3 --target 1000
  table_solve tenk --win --seats 3 --target 2000
  table_solve tenk --win --seats 3 --target 5000
  exit
fi
if [ "$1" = --table-win-10000 ]; then
  timed() {
    /usr/bin/time -f "  %e s wall, %U s CPU, %M KB" -o "$scratch/time" build/dicesim "$@" >"$scratch/out"
    echo "$*:"
    cat "$scratch/time"
  }
  timed solve tenk --win --seats 3 --json
  python3 -c 'import json, sys
solved = json.load(open(sys.argv[1]))
for key in ("seats", "turn_starts", "seconds", "peak_bytes", "cycled_tuples", "mixed_tuples", "unsettled_tuples",
            "deviation_gains", "equilibrium", "fair_head_starts"):
    print("  " + key, json.dumps(solved[key]))' "$scratch/out"
  # The config: three solved seats, and (seed 000) the fair head starts the solve printed.
  config='import json, sys
heads = json.load(open(sys.argv[2]))["fair_head_starts"]["points"] if len(sys.argv) > 2 else []
seat = lambda h: "opt" if h == 0 else {"strategy": "opt", "head_start": h}
tables = [["opt", "opt", "opt"]] + ([[seat(h) for h in heads]] if heads else [])
print(json.dumps({"game": "tenk", "games": 100000, "rules": {"preset": sys.argv[1]},
                  "strategies": [{"name": "opt", "family": "optimal_win", "seats": 3}],
                  "contests": {"distributions": False, "sequential_tables": tables}}))'
  cp "$scratch/out" "$scratch/solved.json"
  python3 -c "$config" game_of_dice "$scratch/solved.json" >"$scratch/game_of_dice.json"
  python3 -c "$config" ai_blog >"$scratch/ai_blog.json"
  for preset in game_of_dice ai_blog; do
    timed check "$scratch/$preset.json" -o "$scratch/$preset.h5"
    grep -E "win|tie|place/mean|largest|not compared" "$scratch/out" | sed 's/^ */  /' | head -20
  done
  exit
fi
if [ "$1" = --sweep ]; then
  timed() { /usr/bin/time -f "%e s wall, %M KB: $1" "${@:2}" >/dev/null; }
  ts() {  # $1: the highest threshold, $2: rolls; every combination of thresholds 0..$1
    local ranges=""
    for ((r = 1; r < $2; r++)); do ranges+="${ranges:+, }{\"from\": 0, \"to\": $1}"; done
    echo "{\"name\": \"ts{per_roll[0]}_{per_roll[1]}${3:-}\", \"family\": \"turn_score_threshold\", \"per_roll\": [$ranges]}"
  }
  opponents='{"name": "best", "family": "optimal_mean"}, {"name": "aware", "family": "target_aware"}, {"name": "dv12", "family": "dice_value_threshold", "per_roll": [1, 2]}'
  printf '{"game": "sixers", "games": 1e5, "strategies": [%s], "contests": {"distributions": true}}' "$(ts 21 3)" >"$scratch/setup500.json"
  printf '{"game": "sixers", "games": 1e5, "rules": {"rolls": 4}, "strategies": [%s], "contests": {"distributions": true}}' "$(ts 20 4 '_{per_roll[2]}')" >"$scratch/setup9261.json"
  printf '{"game": "sixers", "games": 1e5, "strategies": [%s, %s], "contests": {"distributions": false, "against": {"players": ["ts{per_roll[0]}_{per_roll[1]}"], "opponents": ["best", "aware", "dv12"]}}}' "$(ts 21 3)" "$opponents" >"$scratch/rectangle.json"
  printf '{"game": "sixers", "games": 1e7, "strategies": [%s, {"name": "ts55", "family": "turn_score_threshold", "per_roll": [5, 5]}, {"name": "ts46", "family": "turn_score_threshold", "per_roll": [4, 6]}, {"name": "dn32", "family": "dice_number_kept", "per_roll": [3, 2]}], "contests": {"distributions": false, "sequential": true}}' "$opponents" >"$scratch/round_robin.json"
  timed "setup of 484 strategies and their 484 tables (run --dry-run)" build/dicesim run "$scratch/setup500.json" --dry-run
  timed "setup of 9,261 strategies and their 9,261 tables (run --dry-run)" build/dicesim run "$scratch/setup9261.json" --dry-run
  timed "setup of the 484 x 3 rectangle, 2,904 tables (run --dry-run)" build/dicesim run "$scratch/rectangle.json" --dry-run
  for config in rectangle round_robin; do
    build/dicesim run "$scratch/$config.json" -o "$scratch/$config.h5" --quiet | tail -1
    timed "$config again, for its peak memory" build/dicesim run "$scratch/$config.json" -o "$scratch/$config.h5" --quiet
  done
  # Memory per table: 9,261 x 3 in both seats, 55,566 tables of 1,000 games.
  printf '{"game": "sixers", "games": 1000, "rules": {"rolls": 4}, "strategies": [%s, %s], "contests": {"distributions": false, "against": {"players": ["ts{per_roll[0]}_{per_roll[1]}_{per_roll[2]}"], "opponents": ["best", "aware", "dv12"]}}}' "$(ts 20 4 '_{per_roll[2]}')" "${opponents/\[1, 2\]/[1, 2, 2]}" >"$scratch/large.json"
  timed "setup of the 9,261 x 3 rectangle (run --dry-run)" build/dicesim run "$scratch/large.json" --dry-run
  timed "the 9,261 x 3 rectangle, 55,566 tables" build/dicesim run "$scratch/large.json" -o "$scratch/large.h5" --quiet
  ls -l "$scratch/large.h5" | awk '{print $5 " bytes: its results file"}'
  timed "dicesim_analysis.load of it" /usr/bin/python3 -c "import sys; from dicesim_analysis import load; load(sys.argv[1])" "$scratch/large.h5"
  exit
fi
if [ "$1" = --exact ]; then
  strategies='{"name": "optimal_win", "family": "optimal_win"}'
  for at in 14 16 18 20 22 24 26 28 30 32 34; do strategies+=", {\"name\": \"hold_at $at\", \"family\": \"hold_at\", \"at\": $at}"; done
  for turns in 2 3 4 5; do strategies+=", {\"name\": \"optimal_turns $turns\", \"family\": \"optimal_turns\", \"turns\": $turns}"; done
  printf '{"game": "pig", "games": 10000, "rules": {"dice": 2, "goal": 200}, "strategies": [%s], "contests": {"distributions": true, "sequential": true}}' "$strategies" >"$scratch/pig.json"
  timed() { /usr/bin/time -f "%e s wall, %U s CPU, %M KB: $*" "$@" >/dev/null; }
  timed build/dicesim solve pig --config "$scratch/pig.json"
  timed build/dicesim check "$scratch/pig.json" -o "$scratch/pig.h5" --quiet
  timed build/dicesim solve battle --max-dice 20 --goal 1000
  # Yahtzee's solitaire optimum with every family's exact distribution (issue 42's target: 60 s, 4 GiB).
  timed build/dicesim solve yahtzee
  timed build/dicesim solve yahtzee --card yatzy
  exit
fi
for rules in '{"preset": "seed000"}' '{"preset": "seed003"}' '{"preset": "seed000", "last_turn": true}' \
  '{"preset": "seed000", "no_stop_on_hot_dice": true}' '{"preset": "seed000", "exact_target": true}' \
  '{"preset": "seed000", "partial_set_aside": true}' '{"preset": "seed000", "continue_previous": true}'; do
  printf '{"game": "tenk", "games": 1, "rules": %s, "strategies": [{"name": "ev", "family": "ev_heuristic"}, {"name": "bank", "family": "bank_at", "total": 350}], "contests": {"distributions": false, "sequential": true}}' "$rules" >"$scratch/c.json"
  rm -rf "$scratch/cache"
  line=$(DICESIM_CACHE_DIR="$scratch/cache" /usr/bin/time -f "command %e s, %M KB" -o "$scratch/time" \
    build/dicesim solve tenk --win --config "$scratch/c.json" | grep -E '^(first seat|solved in)' | tr '\n' ' ')
  echo "$rules: $line$(cat "$scratch/time")"
  if [ "$rules" = '{"preset": "seed000"}' ]; then cp "$scratch/c.json" "$scratch/seed000.json"; fi
done
rm -rf "$scratch/cache"
echo "one core: $(DICESIM_CACHE_DIR="$scratch/cache" taskset -c 0 build/dicesim solve tenk --win \
  --config "$scratch/seed000.json" | grep -E '^solved in')"
