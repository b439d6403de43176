#!/bin/bash
# A one-node Slurm on this machine, to try tessera's cluster scripts without a cluster
# (guide: docs/cluster.md). Uses Debian's packages, no systemd and no cgroups:
#   apt-get install -y slurm-wlm munge
#   eval "$(scripts/slurm-local.sh start)"    # starts munged, slurmctld and slurmd; sets SLURM_CONF
#   sinfo; sbatch ...; squeue
#   scripts/slurm-local.sh stop               # stops what start started
# Everything (configuration, munge key and socket, state, logs, pid files) lives in one
# scratch directory, SLURM_LOCAL_DIR [/tmp/tessera-slurm]; /etc is not touched. `start`
# prints the `export SLURM_CONF=...` line that points sbatch, squeue and sinfo at it (and
# does nothing else when that Slurm already runs); `stop` cancels its jobs, kills the daemons
# by their pid files and is harmless when nothing runs. The node has SLURM_LOCAL_CPUS CPUs [all of this
# machine's] and SLURM_LOCAL_MEM MiB [9/10 of its memory: jobs' --mem is checked against it]; SLURM_LOCAL_PORT [6817] and the next port are Slurm's. Run as root (slurmd
# starts jobs as their user). Errors: one line on stderr, exit status 2.
set -euo pipefail

DIR=${SLURM_LOCAL_DIR:-/tmp/tessera-slurm}
CPUS=${SLURM_LOCAL_CPUS:-$(nproc)}
# The node's memory in MiB, which jobs' --mem is checked against (9/10 of this machine's).
MEM=${SLURM_LOCAL_MEM:-$(awk '/^MemTotal:/ {print int($2 / 1024 * 9 / 10)}' /proc/meminfo)}
PORT=${SLURM_LOCAL_PORT:-6817}
HOST=$(hostname -s)
CONF=$DIR/slurm.conf

fail() { echo "error: slurm-local.sh: $*" >&2; exit 2; }
say() { echo "slurm-local.sh: $*" >&2; }

# The pid in FILE when that process is alive.
alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() {
    local name file pid
    # Jobs of this Slurm first, so no job step outlives its daemons.
    if alive "$DIR/slurmctld.pid" && [[ -f $CONF ]]; then
        SLURM_CONF=$CONF scancel --quiet --user="$(id -un)" 2>/dev/null || true
        for _ in $(seq 50); do
            [[ -z $(SLURM_CONF=$CONF squeue -h 2>/dev/null) ]] && break
            sleep 0.1
        done
    fi
    for name in slurmd slurmctld munged; do
        file=$DIR/$name.pid
        if alive "$file"; then
            pid=$(cat "$file")
            kill "$pid"
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
            say "stopped $name ($pid)"
        fi
        rm -f "$file"
    done
}

start() {
    [[ $(id -u) -eq 0 ]] || fail "run as root (slurmd starts jobs as their user)"
    local p
    for p in munged mungekey slurmctld slurmd sbatch; do
        command -v "$p" >/dev/null 2>&1 || [[ -x /usr/sbin/$p ]] \
            || fail "$p not found: apt-get install -y slurm-wlm munge"
    done
    [[ $CPUS =~ ^[1-9][0-9]*$ ]] || fail "SLURM_LOCAL_CPUS='$CPUS' is not a CPU count"
    [[ $PORT =~ ^[1-9][0-9]*$ ]] || fail "SLURM_LOCAL_PORT='$PORT' is not a port"
    if alive "$DIR/slurmctld.pid" && alive "$DIR/slurmd.pid" && alive "$DIR/munged.pid"; then
        say "already running in $DIR"
        echo "export SLURM_CONF=$CONF"
        return
    fi
    stop
    mkdir -p "$DIR/state" "$DIR/spool" "$DIR/munge"
    chmod 0700 "$DIR/munge"
    [[ -f $DIR/munge/munge.key ]] || /usr/sbin/mungekey --create --keyfile="$DIR/munge/munge.key" \
        || fail "mungekey could not create $DIR/munge/munge.key"
    /usr/sbin/munged --force --key-file="$DIR/munge/munge.key" --socket="$DIR/munge/munge.socket" \
        --pid-file="$DIR/munged.pid" --log-file="$DIR/munged.log" --seed-file="$DIR/munge/seed" \
        || fail "munged did not start: see $DIR/munged.log"
    cat >"$CONF" <<CONF
# One-node Slurm written by scripts/slurm-local.sh (no systemd, no cgroups).
ClusterName=tessera-local
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MaxArraySize=10001
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=local Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$CONF
    /usr/sbin/slurmctld -f "$CONF" || fail "slurmctld did not start: see $DIR/slurmctld.log"
    /usr/sbin/slurmd -f "$CONF" || fail "slurmd did not start: see $DIR/slurmd.log"
    for _ in $(seq 150); do
        if sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'; then
            say "one node ($HOST, $CPUS CPUs) up in $DIR"
            echo "export SLURM_CONF=$CONF"
            return
        fi
        sleep 0.2
    done
    fail "the node did not come up within 30 s: see $DIR/slurmctld.log and $DIR/slurmd.log"
}

case ${1:-} in
start) start ;;
stop) stop ;;
*) fail "usage: scripts/slurm-local.sh start|stop (scratch directory: SLURM_LOCAL_DIR, default /tmp/tessera-slurm)" ;;
esac
