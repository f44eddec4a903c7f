#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (address and undefined-behaviour
# sanitizers) into build-fuzz/ and runs each for SECONDS (default 30):
# config_fuzzer from the shipped configs and the bad-config corpus,
# results_fuzzer (the results reader on files built from the fuzzer's
# numbers), and results_file_fuzzer (the fuzzer's bytes as a results file,
# read as show, merge and resume read it) from real results files that a
# small run, check, shard and merge of tests/fuzz/results_file_corpus/ make.
# Any crash or sanitizer report fails the script; its input is left in
# build-fuzz/findings/ and belongs in tests/ as a regression test.
#   bash scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
bash scripts/setup.sh
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DDICESIM_FUZZ=ON -DDICESIM_TESTS=OFF -DDICESIM_MPI=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target config_fuzzer results_fuzzer results_file_fuzzer dicesim >/dev/null
rm -rf build-fuzz/findings build-fuzz/corpus/file
mkdir -p build-fuzz/findings build-fuzz/corpus/config build-fuzz/corpus/results build-fuzz/corpus/file
cp configs/*.json tests/bad_configs/*.json build-fuzz/corpus/config/ 2>/dev/null || true
# Real files of today's format: a run, a check (exact groups and /checks), a
# shard and its merge.
file_corpus=build-fuzz/corpus/file
for config in tests/fuzz/results_file_corpus/*.json; do
  name=$(basename "$config" .json)
  build-fuzz/dicesim run "$config" -o "$file_corpus/$name.run.h5" --quiet >/dev/null
  build-fuzz/dicesim check "$config" -o "$file_corpus/$name.check.h5" --quiet >/dev/null
  build-fuzz/dicesim run "$config" --shard 1/2 -o "$file_corpus/$name.shard.h5" --quiet >/dev/null
  build-fuzz/dicesim merge "$file_corpus/$name.shard.h5" -o "$file_corpus/$name.merge.h5" >/dev/null
done
for target in config results results_file; do
  corpus=$target
  max_len=4096
  if [ "$target" = results_file ]; then
    corpus=file
    max_len=131072  # the corpus files are 35 to 80 KB
  fi
  echo "fuzz: ${target}_fuzzer for ${seconds} s"
  log=build-fuzz/${target}_fuzzer.log
  LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/libhdf5_leaks.supp \
    build-fuzz/tests/fuzz/${target}_fuzzer build-fuzz/corpus/$corpus -max_total_time="$seconds" -max_len=$max_len \
    -timeout=30 -rss_limit_mb=4096 -artifact_prefix=build-fuzz/findings/ -print_final_stats=1 >"$log" 2>&1 || true
  grep -E "^stat::(number_of_executed_units|peak_rss_mb)|ERROR|SUMMARY" "$log" || true
  if ! grep -q "^stat::number_of_executed_units" "$log"; then
    echo "fuzz: ${target}_fuzzer did not run to the end; see $log" >&2
    exit 1
  fi
  if ls build-fuzz/findings/* >/dev/null 2>&1; then
    echo "fuzz: ${target}_fuzzer found a failing input: $(ls build-fuzz/findings)" >&2
    exit 1
  fi
done
echo "fuzz: no findings"
