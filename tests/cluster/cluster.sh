#!/bin/sh
# cluster.sh - a one-node Slurm cluster (munged, slurmctld, slurmd) and an sshd on 127.0.0.1, as root, all
# state under one folder, on free ports of its own; stopped by the pids it recorded.
#
#   tests/cluster/cluster.sh up DIR     start them; prints the variables to export (SLURM_CONF, PTOSIM_SSH)
#   tests/cluster/cluster.sh down DIR   stop every daemon `up` started in DIR
#
# Sourced (. tests/cluster/cluster.sh), it defines cluster_up, cluster_down and port_free for a test script.
# The daemons' own output goes to files under DIR, so `eval "$(cluster.sh up DIR)"` does not wait on them.
# It needs Debian's slurm-wlm, munge and openssh-server (scripts/install-deps.sh --cluster).

# port_free PORT: is no socket listening on TCP PORT (IPv4 or IPv6)?
port_free() {
    hex=$(printf '%04X' "$1")
    ! awk -v h="$hex" '$4 == "0A" && substr($2, length($2) - 3) == h { found = 1 } END { exit !found }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# free_port FROM: the first free port at or after FROM, not among $taken
free_port() {
    p=$1
    while ! port_free "$p" || case " $taken " in *" $p "*) true ;; *) false ;; esac; do
        p=$((p + 1))
    done
    taken="$taken $p"
    echo "$p"
}

# wait_for SECONDS WHAT COMMAND...: runs COMMAND every 0.1 s until it succeeds; fails naming WHAT after SECONDS
wait_for() {
    limit=$(($1 * 10))
    what=$2
    shift 2
    n=0
    until "$@" >/dev/null 2>&1; do
        n=$((n + 1))
        if [ "$n" -ge "$limit" ]; then
            echo "cluster.sh: $what did not come up in $((limit / 10)) s" >&2
            return 1
        fi
        sleep 0.1
    done
}

# started DIR NAME PID: records a daemon this script started, so cluster_down stops exactly those
started() {
    echo "$3 $2" >> "$1/pids"
}

# cluster_up DIR: starts munged, slurmctld, slurmd and sshd with their state under DIR (made if missing) and
# exports SLURM_CONF (for sbatch, squeue, scontrol) and PTOSIM_SSH (an ssh command line for GNU parallel's -S).
cluster_up() {
    d=$1
    mkdir -p "$d"
    d=$(cd "$d" && pwd)
    # munged refuses a socket others cannot reach (every folder on its path must let anyone in) and a key
    # anyone but root can read
    chmod 755 "$d"
    mkdir -p "$d/munge" "$d/munge-key" "$d/slurm/state" "$d/slurm/spool" "$d/slurm/log" "$d/ssh"
    chmod 755 "$d/munge"
    chmod 700 "$d/munge-key" "$d/ssh"
    : > "$d/pids"
    taken=""
    base=$((20000 + $$ % 20000))
    ctld_port=$(free_port "$base")
    slurmd_port=$(free_port $((ctld_port + 1)))
    ssh_port=$(free_port $((slurmd_port + 1)))
    host=$(hostname -s)

    mungekey --create --keyfile="$d/munge-key/munge.key"
    munged -F --socket="$d/munge/munge.socket" --key-file="$d/munge-key/munge.key" \
        --pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" --seed-file="$d/munge/munged.seed" \
        < /dev/null > "$d/munge/munged.out" 2>&1 &
    started "$d" munged $!
    wait_for 10 munged test -S "$d/munge/munge.socket" || { tail "$d/munge/munged.out" >&2; return 1; }

    cat > "$d/slurm/slurm.conf" <<EOF
# slurm.conf - a one-node cluster on 127.0.0.1 for ptosim's tests (tests/cluster/cluster.sh)
ClusterName=ptosimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
StateSaveLocation=$d/slurm/state
SlurmdSpoolDir=$d/slurm/spool
SlurmctldPidFile=$d/slurm/slurmctld.pid
SlurmdPidFile=$d/slurm/slurmd.pid
SlurmctldLogFile=$d/slurm/log/slurmctld.log
SlurmdLogFile=$d/slurm/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
# start batch jobs as soon as they are submitted (the default waits up to 3 s between them)
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=ptosim Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    SLURM_CONF="$d/slurm/slurm.conf"
    export SLURM_CONF
    slurmctld -D -f "$SLURM_CONF" < /dev/null > "$d/slurm/log/slurmctld.out" 2>&1 &
    started "$d" slurmctld $!
    slurmd -D -f "$SLURM_CONF" -N "$host" < /dev/null > "$d/slurm/log/slurmd.out" 2>&1 &
    started "$d" slurmd $!
    if ! wait_for 30 "the Slurm node" sh -c 'sinfo -h -o %T | grep -qx idle'; then
        tail "$d/slurm/log/slurmctld.out" "$d/slurm/log/slurmd.out" >&2
        return 1
    fi

    ssh-keygen -q -t ed25519 -N '' -f "$d/ssh/host_key"
    ssh-keygen -q -t ed25519 -N '' -f "$d/ssh/id"
    cp "$d/ssh/id.pub" "$d/ssh/authorized_keys"
    cat > "$d/ssh/sshd_config" <<EOF
Port $ssh_port
ListenAddress 127.0.0.1
HostKey $d/ssh/host_key
PidFile $d/ssh/sshd.pid
AuthorizedKeysFile $d/ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
# the key files sit under /tmp, which anyone may write to: a throwaway key for a test
StrictModes no
EOF
    cat > "$d/ssh/config" <<EOF
Host ptosim-test
  HostName 127.0.0.1
  Port $ssh_port
  User $(id -un)
  IdentityFile $d/ssh/id
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking no
  UserKnownHostsFile $d/ssh/known_hosts
  LogLevel ERROR
EOF
    mkdir -p /run/sshd # sshd's privilege separation folder (Debian makes it at boot)
    /usr/sbin/sshd -D -f "$d/ssh/sshd_config" -E "$d/ssh/sshd.log" < /dev/null > "$d/ssh/sshd.out" 2>&1 &
    started "$d" sshd $!
    PTOSIM_SSH="ssh -F $d/ssh/config ptosim-test"
    export PTOSIM_SSH
    wait_for 10 sshd $PTOSIM_SSH true || { tail "$d/ssh/sshd.log" >&2; return 1; }
}

# alive PID: is PID a process that has not ended (a zombie waiting to be reaped has)?
alive() {
    st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${st#Z}" = "$st" ]
}

# cluster_down DIR: cancels what is left in the queue, then stops every daemon cluster_up recorded in DIR (by
# pid: TERM, then KILL after 10 s) and waits for each to be gone.
cluster_down() {
    d=$1
    [ -f "$d/pids" ] || return 0
    if [ -f "$d/slurm/slurm.conf" ]; then
        SLURM_CONF="$d/slurm/slurm.conf" scancel --quiet --full --user="$(id -un)" 2>/dev/null || true
    fi
    # the last started first: sshd, slurmd, slurmctld, munged (not a pipeline: wait must reap our children)
    for entry in $(tac "$d/pids" | tr ' ' ':'); do
        pid=${entry%%:*}
        name=${entry#*:}
        kill "$pid" 2>/dev/null || continue
        n=0
        while alive "$pid" && [ "$n" -lt 100 ]; do
            sleep 0.1
            n=$((n + 1))
        done
        if alive "$pid"; then
            echo "cluster.sh: $name (pid $pid) ignored TERM for 10 s; killing it" >&2
            kill -9 "$pid" 2>/dev/null || true
        fi
        wait "$pid" 2>/dev/null || true
    done
    rm -f "$d/pids"
}

case "${0##*/}" in
cluster.sh)
    set -eu
    case "${1:-}" in
    up)
        [ $# -eq 2 ] || { echo "usage: tests/cluster/cluster.sh up DIR" >&2; exit 2; }
        cluster_up "$2"
        echo "export SLURM_CONF='$SLURM_CONF' PTOSIM_SSH='$PTOSIM_SSH'"
        ;;
    down)
        [ $# -eq 2 ] || { echo "usage: tests/cluster/cluster.sh down DIR" >&2; exit 2; }
        cluster_down "$2"
        ;;
    *)
        echo "usage: tests/cluster/cluster.sh up|down DIR" >&2
        exit 2
        ;;
    esac
    ;;
esac
