#!/usr/bin/env bash
# Starts (or stops) a single-node Slurm on this machine from a configuration in a temporary
# folder, for the test suite: munged, slurmctld and slurmd with their sockets, state, spool, logs
# and pid files under DIR, so that nothing of the machine's own configuration is read or changed.
#
#   local_slurm.sh start DIR   -> prints "SLURM_CONF=DIR/slurm.conf" once `sinfo` answers
#   local_slurm.sh stop DIR    -> stops the daemons it started, by the pids in DIR
#
# Needs root (slurmd runs jobs as their user) and Debian's slurmctld, slurmd, slurm-client and
# munge. Exit 77 (skip) saying why when either is missing.
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?folder}
stop() {
  # Jobs still running on this test cluster (a failed test) first: their slurmstepd outlive slurmd.
  if [ -f "$dir/slurm.conf" ] && [ -f "$dir/slurmctld.pid" ]; then
    SLURM_CONF="$dir/slurm.conf" timeout 10 scancel --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 30); do
      SLURM_CONF="$dir/slurm.conf" timeout 5 squeue -h 2>/dev/null | grep -q . || break
      sleep 0.2
    done
  fi
  for p in slurmd slurmctld munged; do
    if [ -f "$dir/$p.pid" ]; then
      pid=$(cat "$dir/$p.pid" 2>/dev/null || true)
      [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    fi
  done
  for p in slurmd slurmctld munged; do
    pid=$(cat "$dir/$p.pid" 2>/dev/null || true)
    for _ in $(seq 50); do
      [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
  done
}
if [ "$cmd" = stop ]; then stop; exit 0; fi
if [ "$(id -u)" -ne 0 ]; then echo "skip: a local Slurm needs root (slurmd starts jobs as their user)"; exit 77; fi
for b in munged mungekey slurmctld slurmd sbatch squeue scancel sinfo; do
  command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || { echo "skip: $b is missing (scripts/setup-deps installs slurmctld, slurmd, slurm-client and munge)"; exit 77; }
done
export PATH="$PATH:/usr/sbin"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 700 "$dir/munge"
mungekey -c -k "$dir/munge/munge.key" 2>/dev/null || dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"
host=$(hostname -s)
cat > "$dir/slurm.conf" <<CONF
ClusterName=trainscope-test
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$((6817 + RANDOM % 2000))
SlurmdPort=$((9817 + RANDOM % 2000))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=1
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -c -f "$dir/slurm.conf" || { tail -20 "$dir/slurmctld.log" >&2; stop; exit 1; }
slurmd -f "$dir/slurm.conf" || { tail -20 "$dir/slurmd.log" >&2; stop; exit 1; }
for _ in $(seq 150); do
  if sinfo -h -o "%t" 2>/dev/null | grep -qE "^(idle|mix|alloc)"; then echo "SLURM_CONF=$dir/slurm.conf"; exit 0; fi
  sleep 0.2
done
echo "the local Slurm did not come up in 30 s:" >&2
sinfo >&2 || true; tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2
stop; exit 1
