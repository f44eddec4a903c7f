#!/usr/bin/env bash
# The Debian package as a user gets it: built with CPack from build/,
# installed with apt (which pulls its runtime libraries), run from another
# directory on an installed config, then removed. Needs root (apt); elsewhere
# it says so and exits 0. Refuses to touch a dicesim package installed before.
#   bash scripts/package_test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD

log() { echo "package test: $*"; }
fail() {
  echo "package test: FAILED: $*" >&2
  exit 1
}

if [ "$(id -u)" -ne 0 ]; then
  log "skipped: installing a package with apt needs root, and this is uid $(id -u)"
  exit 0
fi
if dpkg-query -W -f='${Status}' dicesim 2>/dev/null | grep -q "install ok installed"; then
  fail "a dicesim package is already installed; this test would replace and then remove it"
fi

bash scripts/build.sh
scratch=$(mktemp -d /tmp/dicesim-package.XXXXXX)
installed=""
cleanup() {
  [ -z "$installed" ] || apt-get remove -y -qq dicesim >/dev/null || echo "package test: could not remove dicesim" >&2
  rm -rf "$scratch"
}
trap cleanup EXIT

(cd build && cpack -G DEB -B "$scratch/package" >/dev/null)
deb=$(ls "$scratch"/package/dicesim_*.deb)
log "built $(basename "$deb"), depends on: $(dpkg-deb -f "$deb" Depends)"
export DEBIAN_FRONTEND=noninteractive
installed=yes
apt-get install -y -qq "$deb" >/dev/null

# From a directory that is no checkout: the installed program and configs.
mkdir "$scratch/elsewhere"
cd "$scratch/elsewhere"
[ "$(command -v dicesim)" = /usr/bin/dicesim ] || fail "dicesim on PATH is $(command -v dicesim), not /usr/bin/dicesim"
dicesim --version | grep -q "^dicesim .* (git .*MPI)$" || fail "dicesim --version: $(dicesim --version)"
dicesim run /usr/share/dicesim/configs/sixers.json --games 1e5 --quiet >/dev/null
[ -f results/sixers.h5 ] || fail "dicesim run wrote no results/sixers.h5 in $PWD"
dicesim show results/sixers.h5 | grep -q "complete" || fail "dicesim show results/sixers.h5"
configs=()
for c in /usr/share/dicesim/configs/*.json; do [ "$(basename "$c")" = schema.json ] || configs+=("$c"); done
dicesim validate "${configs[@]}" >/dev/null || fail "the installed configs do not validate"
dicesim schema | cmp -s - /usr/share/dicesim/configs/schema.json || fail "the installed schema is not dicesim's"
# The strategy library, which the installed configs use (sixers_paper.json), found where it is installed.
# (The listing whole first: grep -q stopping early would end dicesim by SIGPIPE, a failed pipeline.)
listing=$(dicesim list)
grep -q "library (/usr/share/dicesim/strategies/tenk.json" <<<"$listing" || fail "dicesim list names no installed strategy library"
for t in shards merge mpi_run; do
  [ -x "/usr/share/dicesim/slurm/$t.sbatch" ] || fail "no /usr/share/dicesim/slurm/$t.sbatch"
done
# The templates run the installed dicesim where there is no build/dicesim.
[ "$(bash /usr/share/dicesim/slurm/merge.sbatch /usr/share/dicesim/configs/sixers.json 1 --help >/dev/null 2>&1; echo $?)" = 0 ] ||
  fail "merge.sbatch does not find the installed dicesim"
# The man page, where the build had help2man to make one.
if [ -f "$checkout/build/dicesim.1" ]; then
  [ -f /usr/share/man/man1/dicesim.1 ] || fail "no man page installed"
fi
log "installed, ran sixers from $PWD, validated ${#configs[@]} configs, found the strategy library, the templates and the man page"
cd /
apt-get remove -y -qq dicesim >/dev/null
installed=""
[ ! -e /usr/bin/dicesim ] || fail "apt-get remove left /usr/bin/dicesim"
log "removed; passed"
