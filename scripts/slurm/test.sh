#!/usr/bin/env bash
# The Slurm templates on a real Slurm: a private single-node cluster on this
# machine (Debian's slurm-wlm and munge, state under /tmp), stopped at exit.
# Submits an array of 4 shards (one of them requeued mid-run), its merge, an
# MPI job of 2 ranks and a job of one 2-CPU task, and compares every dataset
# of their results with a local run. Needs root (slurmd starts jobs as their
# users); elsewhere it says so and exits 0.
#   bash scripts/slurm/test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
checkout=$PWD
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm test: skipped: slurmd must run as root to start jobs, and this is uid $(id -u)"
  exit 0
fi

config=configs/sixers.json
games=1e7      # each of 4 shards plays for a few seconds: long enough to requeue one mid-run
timeout_s=240  # for every job together

log() { echo "slurm test: $*"; }
fail() {
  echo "slurm test: FAILED: $*" >&2
  exit 1
}

install_missing() {
  local missing=()
  for p in slurm-wlm munge hdf5-tools python3-h5py; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# A TCP port nothing listens on (another Slurm may use the default 6817/6818).
free_port() {
  local port
  for ((port = $1; port < $1 + 100; port++)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || {
      echo "$port"
      return
    }
  done
  fail "no free port from $1"
}

write_slurm_conf() {
  local host=$1 node
  # The node as slurmd sees it (CPUs, sockets, cores, memory), minus the uptime line.
  node=$(slurmd -C | head -1)
  cat >"$state/slurm.conf" <<CONF
ClusterName=dicesimtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port 26817)
SlurmdPort=$(free_port 26917)
AuthType=auth/munge
CredType=cred/munge
# cred_expire: a requeued job waits this long (default 120 s) before it starts again.
AuthInfo=socket=$state/munge.socket,cred_expire=10
StateSaveLocation=$state/slurmctld
SlurmdSpoolDir=$state/slurmd
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
ReturnToService=2
KillWait=5
MinJobAge=600
$node State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
}

daemons=()
jobs_submitted=()
stop_cluster() {
  set +e
  [ ${#jobs_submitted[@]} -gt 0 ] && scancel "${jobs_submitted[@]}" 2>/dev/null && sleep 1
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${daemons[@]}"; do wait "$pid" 2>/dev/null; done
  [ -n "${keep_state:-}" ] || rm -rf "$state"
}

start_cluster() {
  local host
  host=$(hostname -s)
  mkdir -p "$state/slurmctld" "$state/slurmd"
  # A private munged as root, with its own key: munged refuses a key that
  # its user does not own, and Debian's belongs to the munge user.
  mungekey --create --keyfile="$state/munge.key"
  munged --foreground --socket="$state/munge.socket" --key-file="$state/munge.key" --pid-file="$state/munged.pid" \
    --log-file="$state/munged.log" --seed-file="$state/munged.seed" >>"$state/munged.out" 2>&1 &
  daemons+=($!)
  write_slurm_conf "$host"
  export SLURM_CONF=$state/slurm.conf
  for _ in $(seq 50); do [ -S "$state/munge.socket" ] && break; sleep 0.1; done
  [ -S "$state/munge.socket" ] || fail "munged did not start: $(tail -1 "$state/munged.log")"
  slurmctld -D -i -f "$SLURM_CONF" >>"$state/slurmctld.out" 2>&1 &
  daemons+=($!)
  slurmd -D -f "$SLURM_CONF" >>"$state/slurmd.out" 2>&1 &
  daemons+=($!)
  for _ in $(seq 100); do
    sinfo -h -o %T 2>/dev/null | grep -qx idle && return
    sleep 0.2
  done
  tail -n 20 "$state"/*.log >&2 || true
  fail "the node never became idle"
}

# The state of a job (PENDING, RUNNING, COMPLETED, FAILED, ...) and its exit code.
job_field() { scontrol show job -o "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }

wait_for_jobs() {
  local deadline=$((SECONDS + timeout_s)) busy ids
  ids=$(IFS=,; echo "$*")
  while busy=$(squeue -h -o %i --jobs="$ids") && [ -n "$busy" ]; do
    [ $SECONDS -lt $deadline ] || fail "jobs still queued after ${timeout_s} s: $busy"
    sleep 1
  done
}

require_completed() {
  local job=$1 what=$2 state
  while read -r line; do
    state=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$line")
    [ "$state" = COMPLETED ] || fail "$what: job $(sed -n 's/.*JobId=\([0-9]*\).*/\1/p' <<<"$line") ended $state (logs in $work/logs)"
  done < <(scontrol show job -o "$job")
}

root_attribute() { /usr/bin/python3 -c 'import h5py, sys; print(h5py.File(sys.argv[1])["/"].attrs[sys.argv[2]])' "$1" "$2"; }

# Without Slurm: an array of more tasks than shards is refused.
if SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=5 bash scripts/slurm/shards.sbatch "$config" 4 2>/dev/null; then
  fail "shards.sbatch took 5 array tasks for 4 shards"
fi

install_missing
[ -x build/dicesim ] || bash scripts/build.sh
build/dicesim --version | grep -q "with MPI" ||
  fail "build/dicesim is built without MPI ($(build/dicesim --version)): the MPI jobs need it (scripts/setup.sh installs OpenMPI)"
state=$(mktemp -d /tmp/dicesim-slurm.XXXXXX)
chmod 711 "$state" # munged wants its socket reachable by every user
trap stop_cluster EXIT
start_cluster
log "cluster up: $(sinfo -h -o '%N %c CPUs %T'), state in $state"

# The jobs run in a scratch directory laid out as a checkout: build/ and
# configs/ are the checkout's, results/ and logs/ its own.
work=$state/work
mkdir -p "$work/logs"
ln -s "$checkout/build" "$checkout/configs" "$work/"
cd "$work"
small=(--cpus-per-task=1 --time=00:10:00)

# 1. An array of 4 shards, checkpointing every second. Task 1 is requeued
# while it plays: it must resume its checkpoint and append to its log.
array=$(sbatch --parsable "${small[@]}" --array=0-3 "$checkout/scripts/slurm/shards.sbatch" "$config" 4 \
  --games "$games" --checkpoint-every 1)
jobs_submitted+=("$array")
merge=$(sbatch --parsable --dependency="afterok:$array" "$checkout/scripts/slurm/merge.sbatch" "$config" 4)
jobs_submitted+=("$merge")
shard_file=results/sixers.shard-2-of-4.h5
deadline=$((SECONDS + 60))
until [ "$(job_field "${array}_1" JobState)" = RUNNING ] && [ -f "$shard_file" ]; do
  [ $SECONDS -lt $deadline ] || fail "task 1 never checkpointed"
  case $(job_field "${array}_1" JobState) in
    PENDING | RUNNING | CONFIGURING) ;;
    *) fail "task 1 ended before its first checkpoint: $(cat "logs/dicesim-shard-${array}_1.out")" ;;
  esac
  sleep 0.2
done
scontrol requeue "${array}_1"
log "requeued task ${array}_1 after its first checkpoint"

# 2. Arrays as users write them, on fewer games: offset and throttled
# (5-9%2: shards 1-5 of 5), stepped in two halves (1-5:2 and 0-4:2: shards
# 2,4,6 and 1,3,5 of 6), and one task rerun alone (--array=3: shard 4 of 6
# again, which resumes its finished file). The stepped merge waits for all.
few=1e6
shards_sbatch=$checkout/scripts/slurm/shards.sbatch
offset=$(sbatch --parsable "${small[@]}" --array=5-9%2 "$shards_sbatch" "$config" 5 --games $few)
odd=$(sbatch --parsable "${small[@]}" --array=1-5:2 "$shards_sbatch" "$config" 6 --games $few)
even=$(sbatch --parsable "${small[@]}" --array=0-4:2 "$shards_sbatch" "$config" 6 --games $few)
rerun=$(sbatch --parsable "${small[@]}" --dependency="afterok:$odd" --array=3 "$shards_sbatch" "$config" 6 --games $few)
jobs_submitted+=("$offset" "$odd" "$even" "$rerun")
offset_merge=$(sbatch --parsable --dependency="afterok:$offset" "$checkout/scripts/slurm/merge.sbatch" "$config" 5 \
  -o results/offset.h5)
stepped_merge=$(sbatch --parsable --dependency="afterok:$odd:$even:$rerun" "$checkout/scripts/slurm/merge.sbatch" \
  "$config" 6 -o results/stepped.h5)
jobs_submitted+=("$offset_merge" "$stepped_merge")

# 3. A task that failed (cancelled here): its merge is cancelled, not left
# pending; the task rerun alone and a merge after it complete the run.
held=$(sbatch --parsable "${small[@]}" --hold --array=0-1 "$shards_sbatch" "$config" 2 --games $few)
held_merge=$(sbatch --parsable --dependency="afterok:$held" "$checkout/scripts/slurm/merge.sbatch" "$config" 2 \
  -o results/recovered.h5)
jobs_submitted+=("$held" "$held_merge")
scancel "${held}_1"
scontrol release "$held"

# 4. MPI: one job of 2 ranks, and one of a single 2-CPU rank.
mpi=$(sbatch --parsable "${small[@]}" --nodes=1 --ntasks-per-node=2 "$checkout/scripts/slurm/mpi_run.sbatch" \
  "$config" --games "$games" -o results/mpi.h5)
wide=$(sbatch --parsable --time=00:10:00 --nodes=1 --ntasks-per-node=1 --cpus-per-task=2 \
  "$checkout/scripts/slurm/mpi_run.sbatch" "$config" --games "$games" -o results/wide.h5)
jobs_submitted+=("$mpi" "$wide")
# mpirun inside the allocation, for an MPI without a Slurm PMI plugin.
mpirun_job=$(sbatch --parsable "${small[@]}" --nodes=1 --ntasks=2 --output=logs/mpirun-%j.out \
  --wrap="mpirun --allow-run-as-root build/dicesim run $config --games $games -o results/mpirun.h5")
jobs_submitted+=("$mpirun_job")

# The reference, while the jobs run.
"$checkout/build/dicesim" run "$config" --games "$games" --threads 2 --quiet -o results/local.h5 >/dev/null
"$checkout/build/dicesim" run "$config" --games $few --threads 2 --quiet -o results/local-few.h5 >/dev/null

wait_for_jobs "$array" "$merge" "$mpi" "$wide" "$mpirun_job" "$offset" "$odd" "$even" "$rerun" "$offset_merge" "$stepped_merge"
[ "$(job_field "$held_merge" JobState)" = CANCELLED ] ||
  fail "the merge after a failed task is $(job_field "$held_merge" JobState), not CANCELLED"
held_rerun=$(sbatch --parsable "${small[@]}" --array=1 "$shards_sbatch" "$config" 2 --games $few)
recovered_merge=$(sbatch --parsable --dependency="afterok:$held_rerun" "$checkout/scripts/slurm/merge.sbatch" \
  "$config" 2 -o results/recovered.h5)
jobs_submitted+=("$held_rerun" "$recovered_merge")
wait_for_jobs "$held_rerun" "$recovered_merge"
require_completed "$recovered_merge" "the merge after the failed task's rerun"
log "a failed task's merge was cancelled; its rerun and a new merge completed the run"
require_completed "$array" "shard array"
require_completed "$merge" "merge"
require_completed "$mpi" "MPI run"
require_completed "$wide" "2-CPU run"
require_completed "$mpirun_job" "mpirun in an allocation"
require_completed "$offset" "array 5-9%2"
require_completed "$odd" "array 1-5:2"
require_completed "$even" "array 0-4:2"
require_completed "$rerun" "task 3 rerun alone"
require_completed "$offset_merge" "merge of 5-9%2"
require_completed "$stepped_merge" "merge of 1-5:2, 0-4:2 and the rerun"
grep -q "task 3 .*shard 4/6 .*(resuming)" "logs/dicesim-shard-${rerun}_3.out" || fail "the rerun task 3 did not resume shard 4/6"

starts=$(grep -c "task 1 .*shard 2/4" "logs/dicesim-shard-${array}_1.out")
[ "$starts" -ge 2 ] || fail "the requeued task's log holds $starts start(s): overwritten, not appended"
grep -q "task 1 .*(resuming)" "logs/dicesim-shard-${array}_1.out" || fail "the requeued task did not resume"
log "the requeued task resumed, its log appended ($starts starts)"

[ "$(root_attribute results/mpi.h5 ranks)" = 2 ] || fail "results/mpi.h5: not 2 ranks"
[ "$(root_attribute results/mpirun.h5 ranks)" = 2 ] || fail "results/mpirun.h5: not 2 ranks"
[ "$(root_attribute results/wide.h5 threads_min)" = 2 ] || fail "results/wide.h5: its rank did not get 2 CPUs"
log "MPI: 2 ranks of $(root_attribute results/mpi.h5 threads_min)-$(root_attribute results/mpi.h5 threads_max) threads;" \
  "the 2-CPU task ran $(root_attribute results/wide.h5 threads_max) threads"

# 5. scancel --batch --signal=TERM signals the batch shell only, which the
# template replaced with dicesim (exec): dicesim stops, writes what it
# played (marked incomplete) and exits 130.
signalled=$(sbatch --parsable "${small[@]}" --array=0 "$shards_sbatch" "$config" 3 --games 1e9)
jobs_submitted+=("$signalled")
deadline=$((SECONDS + 60))
until grep -qs "shard 1/3" "logs/dicesim-shard-${signalled}_0.out"; do
  [ $SECONDS -lt $deadline ] || fail "the job to signal never started"
  sleep 0.2
done
sleep 1
scancel --batch --signal=TERM "${signalled}_0"
wait_for_jobs "$signalled"
[ "$(job_field "${signalled}_0" ExitCode)" = 130:0 ] ||
  fail "after scancel --batch --signal=TERM: exit code $(job_field "${signalled}_0" ExitCode), not 130:0"
[ "$(root_attribute results/sixers.shard-1-of-3.h5 planned_complete)" = 0 ] ||
  fail "after scancel --batch --signal=TERM: no incomplete results/sixers.shard-1-of-3.h5"
log "scancel --batch --signal=TERM reached dicesim: it wrote what it played and exited 130"

# 6. Several tasks without an MPI world: each says so and exits 2, writing nothing.
if srun --mpi=none --ntasks=2 --cpus-per-task=1 --time=00:02:00 "$checkout/build/dicesim" run "$config" \
  --games 1e5 -o results/none.h5 2>"$state/none.err"; then
  fail "srun --mpi=none -n 2: dicesim did not refuse"
fi
grep -q "not launched under MPI" "$state/none.err" || fail "srun --mpi=none -n 2: $(head -2 "$state/none.err")"
[ ! -e results/none.h5 ] || fail "srun --mpi=none -n 2: wrote results/none.h5"
log "srun --mpi=none -n 2: refused ($(head -1 "$state/none.err"))"

/usr/bin/python3 "$checkout/scripts/slurm/same_datasets.py" results/local.h5 results/sixers.h5 results/mpi.h5 \
  results/mpirun.h5 results/wide.h5 || fail "results differ from the local run"
/usr/bin/python3 "$checkout/scripts/slurm/same_datasets.py" results/local-few.h5 results/offset.h5 \
  results/stepped.h5 results/recovered.h5 || fail "results differ from the local run"
log "passed"
