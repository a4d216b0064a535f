#!/usr/bin/env bash
# sweep_rings.sh - runs ptosim once per ring-size point (the cartesian product of the lists), in parallel, and
# writes one CSV row per point: configuration, outcome, makespan, ring peaks, orchestrator blocked time.
set -euo pipefail

usage() {
    cat <<'EOT'
usage: scripts/sweep_rings.sh GRAPH [--task-window LIST] [--heap LIST] [--dep-pool LIST]
                              [-j N] [-o FILE.csv] [--ptosim PATH] [-- PTOSIM_RUN_ARGS...]

LIST is comma-separated values; each value is passed to ptosim as the knob's
scalar (broadcast to the four rings), or as four per-ring values written with
'/' (16/64/0/0; 0 keeps that ring's default). A knob you do not list keeps its
default. Points run as separate processes, N at a time (default: the number of
CPUs). Rows keep the order of the points; the CSV goes to stdout or -o FILE.
A point that ends in a runtime error still gives a row (status, code).

example:
  scripts/sweep_rings.sh traces/default.jsonl --task-window 16,64,256 --heap 1048576,268435456 -j 2
EOT
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
graph=$1
shift
tw="" heap="" dp="" jobs="" out="" here=$(cd "$(dirname "$0")" && pwd)
ptosim="$here/../build/ptosim"
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    --task-window) tw=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --dep-pool) dp=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --ptosim) ptosim=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage; exit 0 ;;
    *) echo "sweep_rings.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
[ -r "$graph" ] || { echo "sweep_rings.sh: $graph: cannot read the graph" >&2; exit 2; }
[ -x "$ptosim" ] || { echo "sweep_rings.sh: $ptosim: not executable (run make, or pass --ptosim)" >&2; exit 2; }
[ -n "$jobs" ] || jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
case "$jobs" in ''|*[!0-9]*|0) echo "sweep_rings.sh: -j needs a positive integer" >&2; exit 2 ;; esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one line per point: index and the three knob values ("-" = not set)
IFS=, read -r -a tws <<<"${tw:--}"
IFS=, read -r -a heaps <<<"${heap:--}"
IFS=, read -r -a dps <<<"${dp:--}"
n=0
for a in "${tws[@]}"; do
    for b in "${heaps[@]}"; do
        for c in "${dps[@]}"; do
            printf '%d %s %s %s\n' "$n" "$a" "$b" "$c" >>"$tmp/points"
            n=$((n + 1))
        done
    done
done

run_point() { # index task_window heap dep_pool
    local i=$1 args=() extra_args=()
    [ "$2" = - ] || args+=(--ring-task-window "${2//\//,}")
    [ "$3" = - ] || args+=(--ring-heap "${3//\//,}")
    [ "$4" = - ] || args+=(--ring-dep-pool "${4//\//,}")
    eval "extra_args=($EXTRA_QUOTED)" # bash cannot export arrays: they travel %q-quoted
    # the exit status says how the run ended; the CSV row says it too
    "$PTOSIM" run "$GRAPH" "${args[@]}" --summary-csv "${extra_args[@]+"${extra_args[@]}"}" \
        >"$TMP/$i.csv" 2>"$TMP/$i.err" || true
}
export -f run_point
EXTRA_QUOTED=""
[ ${#extra[@]} -eq 0 ] || EXTRA_QUOTED=$(printf '%q ' "${extra[@]}")
export PTOSIM=$ptosim GRAPH=$graph TMP=$tmp EXTRA_QUOTED
xargs -P "$jobs" -n 4 bash -c 'run_point "$@"' _ <"$tmp/points"

{
    header_done=0
    for ((i = 0; i < n; i++)); do
        if [ ! -s "$tmp/$i.csv" ] || [ "$(wc -l <"$tmp/$i.csv")" -ne 2 ]; then
            echo "sweep_rings.sh: point $i ($(sed -n "$((i + 1))p" "$tmp/points" | cut -d' ' -f2-)) produced no row:" >&2
            cat "$tmp/$i.err" >&2
            exit 1
        fi
        if [ $header_done -eq 0 ]; then
            head -n 1 "$tmp/$i.csv"
            header_done=1
        fi
        tail -n 1 "$tmp/$i.csv"
    done
} >"$tmp/all.csv"
if [ -n "$out" ]; then cp "$tmp/all.csv" "$out"; else cat "$tmp/all.csv"; fi
