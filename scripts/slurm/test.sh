#!/usr/bin/env bash
# The Slurm templates on a real Slurm of two nodes, both on this machine:
# dnode1 and dnode2, each a slurmd in its own network and UTS namespace (own
# host name, own address on a bridge of its own, 10.213.N.0/24), with one
# munged and slurmctld in the root namespace (Debian's slurm-wlm and munge,
# state under /tmp). Everything (daemons, namespaces, links, state) goes at
# exit, also on failure; leftovers of a run that died are removed first.
# It shows:
#   - an array of 4 shards spread over both nodes (one task requeued
#     mid-run), merged; more arrays (offset, throttled, stepped, one task
#     rerun, a failed task) and their merges;
#   - MPI over the network: 2 ranks on 2 nodes, one per node with a
#     node's CPUs as threads, with srun --mpi=pmix (mpi_run.sbatch) and
#     with mpirun inside an sbatch -N2 allocation; a job of one 2-CPU task;
#   - scancel --batch --signal=TERM, and srun without an MPI world refused;
#   - a node lost mid-run (every process of the node of a running task
#     killed, its slurmd too):
#     slurmctld marks it DOWN, requeues its task, which resumes its
#     checkpoint on the other node; then the node comes back;
# and every dataset of every result is identical to a local run.
# 2 min 10 s to 2 min 45 s on 2 CPUs. Needs root (slurmd starts jobs as their
# users; namespaces); elsewhere, or without `ip` and namespaces, it says why
# and exits 0.
#   bash scripts/slurm/test.sh        (keep_state=1: keep /tmp state)
set -euo pipefail
cd "$(dirname "$0")/../.."
checkout=$PWD

log() { echo "slurm test: $*"; }
fail() {
  echo "slurm test: FAILED: $*" >&2
  exit 1
}
skip() {
  log "skipped: $*"
  exit 0
}

if [ "$(id -u)" -ne 0 ]; then
  skip "slurmd must run as root to start jobs, and this is uid $(id -u)"
fi
command -v ip >/dev/null || skip "no ip command (iproute2): the two nodes live in network namespaces"
if ! command -v unshare >/dev/null || ! command -v nsenter >/dev/null; then
  skip "no unshare or nsenter (util-linux): each node has its own namespaces"
fi

config=configs/sixers.json
games=1e7      # each of 4 shards plays for a few seconds: long enough to requeue one mid-run
timeout_s=240  # for the jobs of one step together
run_id=$$      # names this run's namespaces, link and state, apart from any other run's
prefix=dicesim-slurm
nodes=(dnode1 dnode2)

install_missing() {
  local missing=()
  for p in slurm-wlm munge hdf5-tools python3-h5py; do
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# A TCP port nothing listens on (another Slurm may use the default 6817).
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

# --- Namespaces -------------------------------------------------------------
# Per node a namespace dicesim-slurm-PID-dnodeK; a namespace
# dicesim-slurm-PID-switch holds the bridge, so that no host firewall rule
# (br_netfilter, a FORWARD policy of DROP) sees the traffic between nodes.
# The root namespace (slurmctld, the commands) joins the bridge through a
# veth dsPID. Deleting the namespaces deletes every link.
ns_of() { echo "$prefix-$run_id-$1"; }
switch_ns=$(ns_of switch)
ctl_link=ds$run_id

# Whether this machine lets us make namespaces, a bridge and a UTS namespace.
probe_namespaces() {
  local probe=$prefix-$run_id-probe err
  if ! err=$({ ip netns add "$probe" && ip -n "$probe" link add br0 type bridge &&
    nsenter --net="/run/netns/$probe" unshare --uts true; } 2>&1); then
    ip netns delete "$probe" 2>/dev/null || true
    skip "cannot make network namespaces, a bridge or a UTS namespace here: ${err:-no reason given}"
  fi
  ip netns delete "$probe"
}

alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

# Kills what runs in a namespace (a node's slurmd, slurmstepd, jobs).
kill_namespace() {
  local pids
  for _ in $(seq 50); do
    pids=$(ip netns pids "$1" 2>/dev/null) || return 0
    [ -n "$pids" ] || return 0
    # shellcheck disable=SC2086 # one pid a word
    kill -9 $pids 2>/dev/null || true
    sleep 0.1
  done
}

# A run killed with SIGKILL had no chance to clean up: its namespaces, and
# its daemons and state under /tmp, go when the PID in their name is gone.
remove_leftovers() {
  local ns pid dir daemon
  while read -r ns _; do
    [[ $ns =~ ^$prefix-([0-9]+)- ]] || continue
    pid=${BASH_REMATCH[1]}
    alive "$pid" && continue
    kill_namespace "$ns"
    ip netns delete "$ns" 2>/dev/null && log "removed namespace $ns of a run that died"
  done < <(ip netns list)
  for dir in /tmp/"$prefix".*.*; do
    [[ $dir =~ ^/tmp/$prefix\.([0-9]+)\. ]] || continue
    alive "${BASH_REMATCH[1]}" && continue
    # Its munged and slurmctld, told by the state directory in their command line.
    for daemon in /proc/[0-9]*; do
      grep -qsF "$dir/" "$daemon/cmdline" && kill -9 "${daemon#/proc/}" 2>/dev/null
    done
    rm -rf "$dir" && log "removed $dir of a run that died"
  done
}

# A /24 of 10.213.0.0/16 that no address or route here uses.
free_subnet() {
  local k used
  used=$(ip -4 -o addr; ip -4 route)
  for ((k = 1; k < 255; k++)); do
    [[ $used == *"10.213.$k."* ]] || {
      echo "10.213.$k"
      return
    }
  done
  fail "no free subnet in 10.213.0.0/16"
}

make_network() {
  local k ns
  net=$(free_subnet)
  ctl_addr=$net.1
  ip netns add "$switch_ns"
  ip -n "$switch_ns" link add br0 type bridge
  ip -n "$switch_ns" link set br0 up
  ip link add "$ctl_link" type veth peer name ctl netns "$switch_ns"
  ip addr add "$ctl_addr/24" dev "$ctl_link"
  ip link set "$ctl_link" up
  ip -n "$switch_ns" link set ctl master br0 up
  for k in "${!nodes[@]}"; do
    ns=$(ns_of "${nodes[$k]}")
    ip netns add "$ns"
    ip -n "$switch_ns" link add "port$k" type veth peer name eth0 netns "$ns"
    ip -n "$switch_ns" link set "port$k" master br0 up
    ip -n "$ns" addr add "$(node_addr "$k")/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
  done
}
node_addr() { echo "$net.$((11 + $1))"; }

# --- Slurm ------------------------------------------------------------------
write_slurm_conf() {
  local host=$1 hardware k
  # The hardware as slurmd sees it (CPUs, sockets, cores, memory): both nodes
  # share this machine's CPUs.
  hardware=$(slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')
  cat >"$state/slurm.conf" <<CONF
ClusterName=dicesimtest
SlurmctldHost=$host($ctl_addr)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port 26817)
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
# cred_expire: a requeued job waits this long (default 120 s) before it starts again.
AuthInfo=socket=$state/munge.socket,cred_expire=10
StateSaveLocation=$state/slurmctld
# %n: each node's own, as on separate machines.
SlurmdSpoolDir=$state/%n/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/%n/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/%n/slurmd.log
# Where srun --mpi=pmix makes its directories (default /tmp, which the two
# nodes share here: the second would find the first's and fail).
TmpFS=$state/%n/tmp
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
# A node silent this long is DOWN, and its --requeue jobs are requeued
# (JobRequeue=1 makes that the default); it returns when its slurmd registers.
SlurmdTimeout=5
JobRequeue=1
ReturnToService=2
KillWait=5
MinJobAge=600
CONF
  for k in "${!nodes[@]}"; do
    echo "NodeName=${nodes[$k]} NodeAddr=$(node_addr "$k") $hardware State=UNKNOWN" >>"$state/slurm.conf"
  done
  echo "PartitionName=test Nodes=dnode[1-2] Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO" >>"$state/slurm.conf"
}

# Starts node K's slurmd in its namespaces, under its own host name.
start_slurmd() {
  local node=${nodes[$1]}
  mkdir -p "$state/$node/spool" "$state/$node/tmp"
  # nsenter, not `ip netns exec`: that remounts /sys, without the
  # /sys/fs/cgroup slurmd looks for.
  nsenter --net="/run/netns/$(ns_of "$node")" unshare --uts \
    sh -c "hostname $node && exec slurmd -D -N $node -f $SLURM_CONF" >>"$state/$node/slurmd.out" 2>&1 &
  # kill_namespace ends it, quietly (no "Killed" from bash).
  disown
}

node_state() { sinfo -h -n "$1" -o %T 2>/dev/null; }

wait_for_node_state() {
  local node=$1 wanted=$2 seconds=$3 deadline
  deadline=$((SECONDS + seconds))
  until [[ $(node_state "$node") =~ ^($wanted)$ ]]; do
    if [ $SECONDS -ge "$deadline" ]; then
      tail -n 20 "$state/slurmctld.log" "$state/$node/slurmd.log" >&2 || true
      fail "$node is $(node_state "$node"), not $wanted, after $seconds s"
    fi
    sleep 0.2
  done
}

daemons=()
jobs_submitted=()
stop_cluster() {
  set +e
  [ ${#jobs_submitted[@]} -gt 0 ] && scancel "${jobs_submitted[@]}" 2>/dev/null && sleep 1
  for node in "${nodes[@]}"; do kill_namespace "$(ns_of "$node")"; done
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  for node in "${nodes[@]}" switch; do ip netns delete "$(ns_of "$node")" 2>/dev/null; done
  ip link delete "$ctl_link" 2>/dev/null
  [ -n "${keep_state:-}" ] || rm -rf "$state"
}

start_cluster() {
  local host k
  host=$(hostname -s)
  mkdir -p "$state/slurmctld"
  # A private munged as root, with its own key: munged refuses a key that
  # its user does not own, and Debian's belongs to the munge user. Its unix
  # socket, a file, serves every namespace.
  mungekey --create --keyfile="$state/munge.key"
  munged --foreground --socket="$state/munge.socket" --key-file="$state/munge.key" --pid-file="$state/munged.pid" \
    --log-file="$state/munged.log" --seed-file="$state/munged.seed" >>"$state/munged.out" 2>&1 &
  daemons+=($!)
  # Runs at once take turns to pick a subnet and a port and start slurmctld
  # on them, so that no two take the same (fd 9: the lock, which slurmctld
  # must not inherit and hold).
  mkdir -p /run/lock
  exec 9>"/run/lock/$prefix.lock"
  flock 9
  make_network
  write_slurm_conf "$host"
  export SLURM_CONF=$state/slurm.conf
  for _ in $(seq 50); do [ -S "$state/munge.socket" ] && break; sleep 0.1; done
  [ -S "$state/munge.socket" ] || fail "munged did not start: $(tail -1 "$state/munged.log")"
  slurmctld -D -i -f "$SLURM_CONF" >>"$state/slurmctld.out" 2>&1 9>&- &
  daemons+=($!)
  for _ in $(seq 100); do sinfo >/dev/null 2>&1 && break; sleep 0.1; done
  exec 9>&-
  for k in "${!nodes[@]}"; do start_slurmd "$k"; done
  for node in "${nodes[@]}"; do wait_for_node_state "$node" idle 30; done
}

# --- Jobs -------------------------------------------------------------------
# A field of `scontrol show job` (JobState, ExitCode, BatchHost, Restarts, ...).
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

# Waits until an array task runs and has written its first checkpoint.
wait_for_checkpoint() {
  local task=$1 file=$2 deadline=$((SECONDS + 60)) state
  until state=$(job_field "$task" JobState) && [ "$state" = RUNNING ] && [ -f "$file" ]; do
    [ $SECONDS -lt $deadline ] || fail "task $task never checkpointed"
    case $state in
      PENDING | RUNNING | CONFIGURING) ;;
      *) fail "task $task ended $state before its first checkpoint" ;;
    esac
    sleep 0.2
  done
}

# The nodes named in "task T on HOST:" lines of shards.sbatch logs.
task_hosts() { cat "$@" | sed -n 's/.* task [0-9]* on \([^:]*\):.*/\1/p' | sort -u | tr '\n' ' '; }

root_attribute() { /usr/bin/python3 -c 'import h5py, sys; print(h5py.File(sys.argv[1])["/"].attrs[sys.argv[2]])' "$1" "$2"; }

# Without Slurm: an array of more tasks than shards is refused.
if SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=5 bash scripts/slurm/shards.sbatch "$config" 4 2>/dev/null; then
  fail "shards.sbatch took 5 array tasks for 4 shards"
fi

probe_namespaces
remove_leftovers
install_missing
[ -x build/dicesim ] || bash scripts/build.sh
[[ $(build/dicesim --version) == *"with MPI"* ]] ||
  fail "build/dicesim is built without MPI ($(build/dicesim --version)): the MPI jobs need it (scripts/setup.sh installs OpenMPI)"
state=$(mktemp -d "/tmp/$prefix.$run_id.XXXXXX")
chmod 711 "$state" # munged wants its socket reachable by every user
trap stop_cluster EXIT
# Interrupted (Ctrl-C, a CI timeout), the EXIT trap still cleans up.
trap 'exit 130' INT
trap 'exit 143' TERM
start_cluster
log "cluster up: $(sinfo -h -N -o '%N %c CPUs %T' | tr '\n' ' ')($net.0/24), state in $state"

# The jobs run in a scratch directory laid out as a checkout: build/ and
# configs/ are the checkout's, results/ and logs/ its own.
work=$state/work
mkdir -p "$work/logs"
ln -s "$checkout/build" "$checkout/configs" "$work/"
cd "$work"
small=(--cpus-per-task=1 --time=00:10:00)
shards_sbatch=$checkout/scripts/slurm/shards.sbatch
merge_sbatch=$checkout/scripts/slurm/merge.sbatch
mpi_sbatch=$checkout/scripts/slurm/mpi_run.sbatch

# Each MPI rank notes its node, then runs dicesim: the templates run $DICESIM.
cat >where.sh <<'SH'
#!/bin/sh
echo "rank ${PMIX_RANK:-${OMPI_COMM_WORLD_RANK:-?}} on $(hostname)" >>"logs/ranks-$SLURM_JOB_ID.txt"
exec build/dicesim "$@"
SH
chmod +x where.sh
# One rank on each node: 2 distinct "rank R on HOST" lines of 2 ranks.
require_one_rank_per_node() {
  local job=$1 what=$2 lines
  lines=$(sort -u "logs/ranks-$job.txt")
  if [ "$(cut -d' ' -f2 <<<"$lines" | sort -u | tr '\n' ' ')" != "0 1 " ] ||
    [ "$(cut -d' ' -f4 <<<"$lines" | sort -u | tr '\n' ' ')" != "dnode1 dnode2 " ]; then
    fail "$what: not one rank on each node: $(tr '\n' ';' <<<"$lines")"
  fi
}

# 1. An array of 4 shards, checkpointing every second, one CPU a task: two
# tasks on each node. Task 1 is requeued while it plays: it must resume its
# checkpoint and append to its log.
array=$(sbatch --parsable "${small[@]}" --array=0-3 "$shards_sbatch" "$config" 4 --games "$games" --checkpoint-every 1)
jobs_submitted+=("$array")
merge=$(sbatch --parsable --dependency="afterok:$array" "$merge_sbatch" "$config" 4)
jobs_submitted+=("$merge")
wait_for_checkpoint "${array}_1" results/sixers.shard-2-of-4.h5
scontrol requeue "${array}_1"
log "requeued task ${array}_1 after its first checkpoint"

# 2. Arrays as users write them, on fewer games: offset and throttled
# (5-9%2: shards 1-5 of 5), stepped in two halves (1-5:2 and 0-4:2: shards
# 2,4,6 and 1,3,5 of 6), and one task rerun alone (--array=3: shard 4 of 6
# again, which resumes its finished file). The stepped merge waits for all.
few=1e6
offset=$(sbatch --parsable "${small[@]}" --array=5-9%2 "$shards_sbatch" "$config" 5 --games $few)
odd=$(sbatch --parsable "${small[@]}" --array=1-5:2 "$shards_sbatch" "$config" 6 --games $few)
even=$(sbatch --parsable "${small[@]}" --array=0-4:2 "$shards_sbatch" "$config" 6 --games $few)
rerun=$(sbatch --parsable "${small[@]}" --dependency="afterok:$odd" --array=3 "$shards_sbatch" "$config" 6 --games $few)
jobs_submitted+=("$offset" "$odd" "$even" "$rerun")
offset_merge=$(sbatch --parsable --dependency="afterok:$offset" "$merge_sbatch" "$config" 5 -o results/offset.h5)
stepped_merge=$(sbatch --parsable --dependency="afterok:$odd:$even:$rerun" "$merge_sbatch" "$config" 6 \
  -o results/stepped.h5)
jobs_submitted+=("$offset_merge" "$stepped_merge")

# 3. A task that failed (cancelled here): its merge is cancelled, not left
# pending; the task rerun alone and a merge after it complete the run.
held=$(sbatch --parsable "${small[@]}" --hold --array=0-1 "$shards_sbatch" "$config" 2 --games $few)
held_merge=$(sbatch --parsable --dependency="afterok:$held" "$merge_sbatch" "$config" 2 -o results/recovered.h5)
jobs_submitted+=("$held" "$held_merge")
scancel "${held}_1"
scontrol release "$held"

# 4. MPI across the network: 2 ranks, one per node, each with every CPU of
# its node (so as many threads), with srun --mpi=pmix (the template as
# meant: --nodes, --ntasks-per-node=1, --cpus-per-task) and with mpirun in
# an allocation of 2 nodes; one job of a single 2-CPU task.
node_cpus=$(sinfo -h -n dnode1 -o %c)
whole_node=(--time=00:10:00 --nodes=2 --ntasks-per-node=1 --cpus-per-task="$node_cpus")
mpi=$(DICESIM=$work/where.sh sbatch --parsable "${whole_node[@]}" "$mpi_sbatch" "$config" --games "$games" \
  -o results/mpi.h5)
wide=$(sbatch --parsable --time=00:10:00 --nodes=1 --ntasks-per-node=1 --cpus-per-task=2 "$mpi_sbatch" \
  "$config" --games "$games" -o results/wide.h5)
# mpirun inside the allocation, for an MPI without a Slurm PMI plugin:
# OpenMPI starts its daemon on the other node with srun, and binds each rank
# to one core unless told PE= (CPUs per rank).
mpirun_job=$(sbatch --parsable "${whole_node[@]}" --output=logs/mpirun-%j.out \
  --wrap="mpirun --allow-run-as-root --map-by slot:PE=\$SLURM_CPUS_PER_TASK ./where.sh run $config --games $games \
-o results/mpirun.h5")
jobs_submitted+=("$mpi" "$wide" "$mpirun_job")

# The reference, while the jobs run.
"$checkout/build/dicesim" run "$config" --games "$games" --threads 2 --quiet -o results/local.h5 >/dev/null
"$checkout/build/dicesim" run "$config" --games $few --threads 2 --quiet -o results/local-few.h5 >/dev/null

wait_for_jobs "$array" "$merge" "$mpi" "$wide" "$mpirun_job" "$offset" "$odd" "$even" "$rerun" "$offset_merge" "$stepped_merge"
[ "$(job_field "$held_merge" JobState)" = CANCELLED ] ||
  fail "the merge after a failed task is $(job_field "$held_merge" JobState), not CANCELLED"
held_rerun=$(sbatch --parsable "${small[@]}" --array=1 "$shards_sbatch" "$config" 2 --games $few)
recovered_merge=$(sbatch --parsable --dependency="afterok:$held_rerun" "$merge_sbatch" "$config" 2 \
  -o results/recovered.h5)
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

hosts=$(task_hosts logs/dicesim-shard-"${array}"_*.out)
[ "$hosts" = "dnode1 dnode2 " ] || fail "the array of 4 shards ran on ${hosts:-no node}, not on dnode1 and dnode2"
log "the array of 4 shards ran on both nodes: $hosts"
starts=$(grep -c "task 1 .*shard 2/4" "logs/dicesim-shard-${array}_1.out")
[ "$starts" -ge 2 ] || fail "the requeued task's log holds $starts start(s): overwritten, not appended"
grep -q "task 1 .*(resuming)" "logs/dicesim-shard-${array}_1.out" || fail "the requeued task did not resume"
log "the requeued task resumed, its log appended ($starts starts)"

[ "$(root_attribute results/mpi.h5 ranks)" = 2 ] || fail "results/mpi.h5: not 2 ranks"
[ "$(root_attribute results/mpirun.h5 ranks)" = 2 ] || fail "results/mpirun.h5: not 2 ranks"
require_one_rank_per_node "$mpi" "srun --mpi=pmix"
require_one_rank_per_node "$mpirun_job" "mpirun in an allocation of 2 nodes"
for file in results/mpi.h5 results/mpirun.h5; do
  [ "$(root_attribute $file threads_min)" = "$node_cpus" ] || fail "$file: a rank ran fewer than $node_cpus threads"
done
[ "$(root_attribute results/wide.h5 threads_min)" = 2 ] || fail "results/wide.h5: its rank did not get 2 CPUs"
log "MPI: 2 ranks of $node_cpus threads, on dnode1 and dnode2 (srun --mpi=pmix, and mpirun);" \
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
if srun --mpi=none --nodes=2 --ntasks-per-node=1 --cpus-per-task=1 --time=00:02:00 "$checkout/build/dicesim" run \
  "$config" --games 1e5 -o results/none.h5 2>"$state/none.err"; then
  fail "srun --mpi=none -N 2 -n 2: dicesim did not refuse"
fi
grep -q "not launched under MPI" "$state/none.err" || fail "srun --mpi=none -N 2 -n 2: $(head -2 "$state/none.err")"
[ ! -e results/none.h5 ] || fail "srun --mpi=none -N 2 -n 2: wrote results/none.h5"
log "srun --mpi=none -N 2 -n 2: refused ($(head -1 "$state/none.err"))"

# 7. A node lost mid-run: 2 shards of a whole node each, so one task per node.
# Once task 1 has checkpointed, every process of its node dies (slurmd,
# slurmstepd, dicesim), as in a crash. slurmctld marks the node DOWN after
# SlurmdTimeout and requeues the task, which resumes its checkpoint on the
# other node once task 0 has left it.
mkdir -p lost/logs
ln -s "$checkout/build" "$checkout/configs" lost/
cd lost
lost=$(sbatch --parsable --time=00:10:00 --cpus-per-task="$node_cpus" --array=0-1 "$shards_sbatch" "$config" 2 \
  --games "$games" --checkpoint-every 1)
lost_merge=$(sbatch --parsable --dependency="afterok:$lost" "$merge_sbatch" "$config" 2)
jobs_submitted+=("$lost" "$lost_merge")
wait_for_checkpoint "${lost}_1" results/sixers.shard-2-of-2.h5
victim=$(job_field "${lost}_1" BatchHost)
[[ " ${nodes[*]} " == *" $victim "* ]] || fail "task ${lost}_1 runs on \"$victim\", not on a node of the test"
kill_namespace "$(ns_of "$victim")"
lost_at=$SECONDS
log "$victim lost (all its processes killed) while task ${lost}_1 ran there"
# SlurmdTimeout is 5 s, but slurmctld takes about 20 s here to give up on
# the node.
wait_for_node_state "$victim" 'down\*?' 90
log "slurmctld marked $victim $(node_state "$victim") ($(sinfo -h -n "$victim" -o %E)) after $((SECONDS - lost_at)) s"
wait_for_jobs "$lost" "$lost_merge"
require_completed "$lost" "the array that lost a node"
require_completed "$lost_merge" "the merge after a lost node"
[ "$(job_field "${lost}_1" Restarts)" -ge 1 ] || fail "task ${lost}_1 was not requeued after its node was lost"
resumed=$(grep "task 1 on .*(resuming)" "logs/dicesim-shard-${lost}_1.out") ||
  fail "task ${lost}_1 did not resume after its node was lost: $(cat "logs/dicesim-shard-${lost}_1.out")"
[[ $resumed != *" on $victim:"* ]] || fail "task ${lost}_1 resumed on $victim, the lost node"
log "task ${lost}_1 requeued and resumed on $(task_hosts <<<"$resumed")from its checkpoint"
cd ..
for k in "${!nodes[@]}"; do [ "${nodes[$k]}" = "$victim" ] && start_slurmd "$k"; done
wait_for_node_state "$victim" idle 30
log "$victim back: its slurmd registered again and the node is idle"

/usr/bin/python3 "$checkout/scripts/slurm/same_datasets.py" results/local.h5 results/sixers.h5 results/mpi.h5 \
  results/mpirun.h5 results/wide.h5 lost/results/sixers.h5 || fail "results differ from the local run"
/usr/bin/python3 "$checkout/scripts/slurm/same_datasets.py" results/local-few.h5 results/offset.h5 \
  results/stepped.h5 results/recovered.h5 || fail "results differ from the local run"
log "passed"
