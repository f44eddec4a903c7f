#!/usr/bin/env bash
# Installs every Debian package that dicesim's build and tests need.
# Idempotent and quiet when everything is already there.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libtbb-dev libpcg-cpp-dev libhdf5-dev nlohmann-json3-dev
  libgtest-dev googletest libcli11-dev
  hdf5-tools clang-format time
  python3-numpy python3-h5py python3-pandas python3-matplotlib
  jupyter-nbconvert python3-nbconvert python3-nbformat python3-ipykernel
  python3-xarray python3-h5netcdf python3-pip python3-venv python3-setuptools python3-jsonschema
  libopenmpi-dev openmpi-bin clang libclang-rt-14-dev libfuzzer-14-dev
  libglpk-dev help2man dpkg-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The analysis package is not installed system-wide: the tests and notebooks
# import this checkout's copy (PYTHONPATH, set by ctest), and a user installs
# it into a virtual environment (scripts/README.md, "The analysis package").
