#!/bin/sh
# test_cluster.sh - ptosim sweep on a real one-node Slurm cluster (a job array through sbatch, cut short and
# resumed) and through GNU parallel over a real ssh, each sweep.csv byte for byte the local sweep's.
#
#   sh tests/cluster/test_cluster.sh [PTOSIM]     (root; make check runs it)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
P=$(realpath "${1:-$here/../../build/ptosim}")
. "$here/cluster.sh"

if [ "$(id -u)" -ne 0 ]; then
    echo "cluster tests: skipped (they start munged, slurmctld, slurmd and sshd as root; run make check as root)"
    exit 0
fi

start=$(date +%s.%N)
mark=$start
# took WHAT: prints the seconds since the last mark, so CI logs say where the time goes
took() {
    now=$(date +%s.%N)
    awk -v a="$mark" -v b="$now" -v w="$1" 'BEGIN { printf "  %-64s %5.1f s\n", w, b - a }'
    mark=$now
}
T=$(mktemp -d /tmp/ptosim-cluster-XXXXXX)
chmod 755 "$T" # munged's socket is below it
# every daemon started is stopped, by pid, however the test ends
trap 'cluster_down "$T/daemons"; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
failures=0
ok() { echo "  ok   $1"; }
fail() {
    echo "  FAIL $1" >&2
    failures=$((failures + 1))
}
# same A B WHAT: the two files are byte for byte equal
same() {
    if cmp -s "$1" "$2"; then ok "$3"; else
        fail "$3: $1 and $2 differ"
        diff "$1" "$2" >&2 || true
    fi
}
# wait_jobs SECONDS JOBID...: until Slurm lists none of the jobs as pending or running
wait_jobs() {
    limit=$(($1 * 10))
    shift
    ids=$(echo "$@" | tr ' ' ',')
    n=0
    while [ -n "$(squeue -h -j "$ids" 2>/dev/null)" ]; do
        n=$((n + 1))
        if [ "$n" -ge "$limit" ]; then
            fail "jobs $ids still queued after $((limit / 10)) s"
            squeue >&2
            return 1
        fi
        sleep 0.1
    done
}
# states JOBID: "TASK STATE" for every task of an array, by task id
states() {
    scontrol -o show job "$1" | sed -n 's/.*ArrayTaskId=\([0-9]*\) .*JobState=\([A-Z_]*\) .*/\1 \2/p' | sort -n
}
# accepted: ssh logins sshd accepted so far
accepted() {
    grep -c "Accepted publickey" "$T/daemons/ssh/sshd.log" || true
}

echo "cluster tests (ptosim: $P)"
cluster_up "$T/daemons"
took "a one-node Slurm cluster and an sshd on 127.0.0.1 up"

# Eight points of the decoder: a 64 KiB heap is too small (runtime error 2), the rest end ok, so the rows
# differ in status, code and makespan.
G=$(realpath "$here/../../traces/default.jsonl")
set -- "$G" --ring-task-window 16,64 --ring-heap 65536,268435456 --aicpu-thread-num 2,4
"$P" sweep "$@" -o "$T/local" > /dev/null
took "the local sweep (8 points)"

# -- Slurm: the array through sbatch, the merge as a dependent job --
"$P" sweep "$@" --engine slurm -o "$T/slurm" > "$T/slurm.out"
job=$(sbatch --parsable "$T/slurm/sweep.sbatch")
merge=$(sbatch --parsable --dependency=afterany:"$job" "$T/slurm/collect.sbatch")
wait_jobs 120 "$job" "$merge"
printf '%s COMPLETED\n' 0 1 2 3 4 5 6 7 > "$T/want_states"
states "$job" > "$T/states"
same "$T/states" "$T/want_states" "slurm: the array ran tasks 0-7, each COMPLETED"
if scontrol -o show job "$merge" | grep -q "JobState=COMPLETED"; then ok "slurm: collect.sbatch ran after the array"; else
    fail "slurm: collect.sbatch did not complete: $(scontrol -o show job "$merge")"
fi
same "$T/slurm/sweep.csv" "$T/local/sweep.csv" "slurm: sweep.csv is the local sweep's"
for i in 0 1 2 3 4 5 6 7; do
    [ -f "$T/slurm/slurm/${job}_$i.out" ] || fail "slurm: no log of task $i ($T/slurm/slurm/${job}_$i.out)"
done
took "slurm: the array and its merge"

# -- Slurm, cut short: the array held, tasks 0-2 released and run, the rest cancelled (as a wall-clock
# limit or a lost allocation would leave it); --resume submits only tasks 3-7 --
"$P" sweep "$@" --engine slurm -o "$T/cut" > /dev/null
job=$(sbatch --parsable --hold "$T/cut/sweep.sbatch")
scontrol release "${job}_[0-2]"
wait_jobs 120 "${job}_0" "${job}_1" "${job}_2"
scancel "$job"
wait_jobs 60 "$job"
rows=$(ls "$T"/cut/points/*/row.csv 2>/dev/null | wc -l)
[ "$rows" -eq 3 ] && ok "slurm: the cut array left 3 rows" || fail "slurm: the cut array left $rows rows, not 3"
"$P" sweep "$@" --engine slurm --resume "$T/cut" > "$T/resume.out"
grep -q "^#SBATCH --array=3-7$" "$T/cut/sweep.sbatch" && ok "slurm: the resumed array is tasks 3-7" ||
    fail "slurm: the resumed array is $(grep -- --array "$T/cut/sweep.sbatch")"
job=$(sbatch --parsable "$T/cut/sweep.sbatch")
merge=$(sbatch --parsable --dependency=afterany:"$job" "$T/cut/collect.sbatch")
wait_jobs 120 "$job" "$merge"
printf '%s COMPLETED\n' 3 4 5 6 7 > "$T/want_states"
states "$job" > "$T/states"
same "$T/states" "$T/want_states" "slurm: the resumed array ran tasks 3-7 only"
same "$T/cut/sweep.csv" "$T/local/sweep.csv" "slurm: the resumed sweep.csv is the local sweep's"
took "slurm: an array cut short, resumed"

# -- GNU parallel, every point over ssh to 127.0.0.1 --
before=$(accepted)
"$P" sweep "$@" --engine parallel -S "$PTOSIM_SSH" -o "$T/par" > /dev/null
after=$(accepted)
[ $((after - before)) -ge 8 ] && ok "parallel: $((after - before)) ssh logins for 8 points" ||
    fail "parallel: $((after - before)) ssh logins for 8 points"
same "$T/par/sweep.csv" "$T/local/sweep.csv" "parallel -S: sweep.csv is the local sweep's"
took "parallel -S: 8 points over ssh"
rm "$T/par/points/0001/row.csv" "$T/par/points/0006/row.csv"
before=$(accepted)
"$P" sweep "$@" --engine parallel -S "$PTOSIM_SSH" --resume "$T/par" > /dev/null
after=$(accepted)
[ "$(cat "$T/par/points.txt")" = "$(printf '1\n6')" ] && ok "parallel: --resume hands over points 1 and 6" ||
    fail "parallel: --resume handed over $(tr '\n' ' ' < "$T/par/points.txt")"
[ $((after - before)) -ge 2 ] && ok "parallel: $((after - before)) ssh logins for 2 points" ||
    fail "parallel: $((after - before)) ssh logins for 2 points"
same "$T/par/sweep.csv" "$T/local/sweep.csv" "parallel -S --resume: sweep.csv is the local sweep's"
took "parallel -S: 2 points resumed over ssh"

# -- the change-one-thing knobs: generated graphs (a --gen-* list), a platform parameter (--set) and a
# kernel's flag (--kernel-set), 8 points, through sbatch and over ssh, each sweep.csv the local one's --
set -- gen:granularity --gen-k 24,48 --gen-total-us 2400 --set orch_submit_ns=874,400 \
    --kernel-set silu.early_resolve=false,true
"$P" sweep "$@" -o "$T/klocal" > /dev/null
"$P" sweep "$@" --engine slurm -o "$T/kslurm" > /dev/null
job=$(sbatch --parsable "$T/kslurm/sweep.sbatch")
merge=$(sbatch --parsable --dependency=afterany:"$job" "$T/kslurm/collect.sbatch")
wait_jobs 120 "$job" "$merge"
same "$T/kslurm/sweep.csv" "$T/klocal/sweep.csv" "slurm: a sweep of --gen-k, --set and --kernel-set lists"
"$P" sweep "$@" --engine parallel -S "$PTOSIM_SSH" -o "$T/kpar" > /dev/null
same "$T/kpar/sweep.csv" "$T/klocal/sweep.csv" "parallel -S: a sweep of --gen-k, --set and --kernel-set lists"
head -1 "$T/klocal/points.csv" > "$T/kcols"
echo "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num,gen.k,gen.total-us,orch_submit_ns,silu.early_resolve" > "$T/want_kcols"
same "$T/kcols" "$T/want_kcols" "the knobs' columns, named by their keys"
took "8 points of knob lists through slurm and parallel -S"

cluster_down "$T/daemons"
took "every daemon stopped"
for name in munged slurmctld slurmd sshd; do
    if pgrep -f "$name.*$T" > /dev/null; then fail "$name of this test is still running"; fi
done
awk -v a="$start" -v b="$(date +%s.%N)" -v f="$failures" 'BEGIN { printf "cluster tests: %d failed, %.1f s\n", f, b - a }'
[ "$failures" -eq 0 ]
