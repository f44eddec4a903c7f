#!/usr/bin/env bash
# The size of a results file with many histograms: 30 bank_at strategies of
# 10,000 (totals 250, 350, ..., 3150), every pair head to head and in
# sequence, 2,000 games each (1,305 contests). Prints the file's size in bytes
# (ls -l), then the time and peak memory of the analysis package's load() of
# it, and of load() and the long form of every histogram (results.measures).
#   bash scripts/file_sizes.sh [DICESIM]     (default: build/dicesim)
set -euo pipefail
dicesim=${1:-build/dicesim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strategies=""
for total in $(seq 250 100 3150); do
  strategies+="${strategies:+, }{\"name\": \"bank$total\", \"family\": \"bank_at\", \"total\": $total}"
done
cat >"$work/tenk_bank_sweep.json" <<JSON
{"game": "tenk", "seed": 1, "games": 2000, "strategies": [$strategies],
 "contests": {"distributions": false, "headtohead": true, "sequential": true}}
JSON
"$dicesim" run "$work/tenk_bank_sweep.json" -o "$work/tenk_bank_sweep.h5" --quiet >/dev/null
ls -l "$work/tenk_bank_sweep.h5"
for part in "" ".measures"; do
  /usr/bin/time -f "load()$part: %e s, peak %M KB" /usr/bin/python3 -c \
    "from dicesim_analysis import load; load('$work/tenk_bank_sweep.h5')$part" 2>&1
done
