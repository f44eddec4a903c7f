#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (address and undefined-behaviour
# sanitizers) into build-fuzz/ and runs each for SECONDS (default 30),
# starting from the shipped configs and the bad-config corpus. Any crash or
# sanitizer report fails the script; its input is left in build-fuzz/findings/
# and belongs in tests/ as a regression test.
#   bash scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
bash scripts/setup.sh
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DDICESIM_FUZZ=ON -DDICESIM_TESTS=OFF -DDICESIM_MPI=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target config_fuzzer results_fuzzer >/dev/null
rm -rf build-fuzz/findings
mkdir -p build-fuzz/findings build-fuzz/corpus/config build-fuzz/corpus/results
cp configs/*.json tests/bad_configs/*.json build-fuzz/corpus/config/ 2>/dev/null || true
for target in config results; do
  echo "fuzz: ${target}_fuzzer for ${seconds} s"
  log=build-fuzz/${target}_fuzzer.log
  build-fuzz/tests/fuzz/${target}_fuzzer build-fuzz/corpus/$target -max_total_time="$seconds" -max_len=4096 \
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
