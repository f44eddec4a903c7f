#!/usr/bin/env bash
# The GPU engine's checks (issue 45), on a machine with an NVIDIA GPU, in
# at most 8 minutes (each step has a time limit):
#   bash scripts/gpu_check.sh [OUT]
# 1. the build: gpu-bundle/ where one was prepared (below), else build/
#    (scripts/build.sh; the GPU engine is built where nvcc is found);
# 2. a first GPU run of 1,000 games, then the GPU's test: every Sixers
#    config gives the same datasets on the GPU as on the CPU, so do the
#    stages of a precision target, shards merge across devices, check
#    passes on the GPU (tests/gpu_test.py, ctest's `gpu`);
# 3. the bench of Sixers with its GPU rows (`dicesim bench --device gpu
#    --case sixers`), at 1 thread and every CPU, its signature the same on
#    both devices;
# 4. a whole run of 10^9 Sixers games against its bench case, at 1 thread
#    and every CPU (issue 45 found a 1-thread run a third slower than its
#    bench case on a 16-core machine; on 2 cores they agree), and 10^11 on
#    the GPU.
# Each step's output goes to the terminal and to OUT/ (default gpu-check/).
#
# A GPU machine without dicesim's packages (TBB, HDF5, GLPK, CLI11) runs a
# bundle made here: the program built with the GPU engine and without MPI,
# beside the shared libraries it needs but glibc's and the C++ runtime's:
#   bash scripts/gpu_check.sh --bundle   # on a build machine with nvcc: gpu-bundle/
# then carry gpu-bundle/ with the checkout and run the script there.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --bundle ]; then
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DDICESIM_WERROR=ON -DDICESIM_CUDA=ON -DDICESIM_MPI=OFF \
    -DDICESIM_TESTS=OFF >/dev/null
  cmake --build build-gpu -j "$(nproc)" --target dicesim
  rm -rf gpu-bundle && mkdir -p gpu-bundle/lib
  cp build-gpu/dicesim gpu-bundle/
  ldd build-gpu/dicesim | awk '$3 ~ /^\// {print $3}' |
    grep -vE '/(libc|libm|libpthread|libdl|librt|libresolv|libnsl|libutil|libanl|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so' |
    xargs -I{} cp -L {} gpu-bundle/lib/
  du -sh gpu-bundle
  exit
fi
out=${1:-gpu-check}
mkdir -p "$out"
if [ -x gpu-bundle/dicesim ]; then
  dicesim=$PWD/gpu-bundle/dicesim
  export LD_LIBRARY_PATH=$PWD/gpu-bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
else
  bash scripts/build.sh dicesim
  dicesim=$PWD/build/dicesim
fi
python=/usr/bin/python3
python3 -c 'import h5py' 2>/dev/null && python=python3  # a GPU image's own Python, where it has h5py
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true; nproc; } | tee "$out/machine.txt"
echo "== a first GPU run (1,000 games)"
timeout 60 "$dicesim" run configs/sixers.json --games 1000 --device gpu -o "$out/first.h5" 2>&1 | tee "$out/first.txt"
echo "== the GPU's test (tests/gpu_test.py)"
DICESIM_BINARY=$dicesim timeout 150 "$python" tests/gpu_test.py gpu 2>&1 | tee "$out/gpu_test.txt"
echo "== bench --device gpu (Sixers: the games with GPU play)"
timeout 120 "$dicesim" bench --device gpu --case sixers --threads 1 --threads "$(nproc)" --skip-naive 2>&1 |
  tee "$out/bench.txt"
echo "== a whole run against its bench case, 1 thread and every CPU (issue 45: where did a third go?)"
config=$(mktemp --suffix .json)
trap 'rm -f "$config" "$out/dv22.h5"' EXIT
echo '{"game":"sixers","seed":1,"games":1,"strategies":[{"name":"dv(2,2)","family":"dice_value_threshold","per_roll":[2,2]}]}' >"$config"
{
  timeout 60 "$dicesim" bench --games 1e9 --case "dv(2,2) distribution" --threads 1 --threads "$(nproc)" --skip-naive
  for threads in 1 "$(nproc)"; do
    timeout 60 "$dicesim" run "$config" --games 1e9 --threads "$threads" -o "$out/dv22.h5" --quiet
  done
  timeout 45 "$dicesim" run "$config" --games 1e11 --device gpu -o "$out/dv22.h5" --quiet
} 2>&1 | tee "$out/whole_run.txt"
