#!/usr/bin/env bash
# The GPU engine's checks (issue 45), on a machine with an NVIDIA GPU, in a
# few minutes:
#   bash scripts/gpu_check.sh [OUT]
# 1. the build: gpu-bundle/ where one was prepared (below), else build/
#    (scripts/build.sh; the GPU engine is built where nvcc is found);
# 2. the GPU's test: every Sixers config gives the same datasets on the GPU
#    as on the CPU, shards merge across devices, check passes on the GPU
#    (tests/gpu_test.py, ctest's `gpu`);
# 3. the bench with its GPU rows (`dicesim bench --device gpu`), at 1 thread
#    and every CPU, its signature the same on both devices.
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
    grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so' |
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
echo "== the GPU's test (tests/gpu_test.py)"
DICESIM_BINARY=$dicesim timeout 240 "$python" tests/gpu_test.py gpu 2>&1 | tee "$out/gpu_test.txt"
echo "== bench --device gpu"
timeout 400 "$dicesim" bench --device gpu --skip-naive 2>&1 | tee "$out/bench.txt"
