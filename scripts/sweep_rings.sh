#!/usr/bin/env bash
# sweep_rings.sh - the ring sweep's old command line, kept for existing batch scripts: a thin wrapper over
# `ptosim sweep` that writes only the CSV (to stdout or -o FILE.csv) and keeps no per-point folders.
set -euo pipefail

usage() {
    cat <<'EOT'
usage: scripts/sweep_rings.sh GRAPH [--task-window LIST] [--heap LIST] [--dep-pool LIST]
                              [-j N] [-o FILE.csv] [--ptosim PATH] [-- PTOSIM_RUN_ARGS...]

Runs `ptosim sweep GRAPH --ring-task-window LIST --ring-heap LIST --ring-dep-pool LIST`
in a temporary folder and prints its sweep.csv (or copies it to -o FILE). LIST is
comma-separated values; a per-ring value is written a/b/c/d (0 keeps that ring's
default). A knob you do not list keeps its default. Arguments after -- go to every
`ptosim run`. Use `ptosim sweep` itself to keep each point's outputs, or to run the
points on Slurm or GNU parallel (ptosim sweep --help).

example:
  scripts/sweep_rings.sh traces/default.jsonl --task-window 16,64,256 --heap 1048576,268435456 -j 2
EOT
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
graph=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
ptosim="$here/../build/ptosim" out=""
args=()
while [ $# -gt 0 ]; do
    case "$1" in
    --task-window) args+=(--ring-task-window "$2"); shift 2 ;;
    --heap) args+=(--ring-heap "$2"); shift 2 ;;
    --dep-pool) args+=(--ring-dep-pool "$2"); shift 2 ;;
    -j) args+=(-j "$2"); shift 2 ;;
    -o) out=$2; shift 2 ;;
    --ptosim) ptosim=$2; shift 2 ;;
    --) shift; args+=("$@"); break ;;
    -h|--help) usage; exit 0 ;;
    *) echo "sweep_rings.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
[ -x "$ptosim" ] || { echo "sweep_rings.sh: $ptosim: not executable (run make, or pass --ptosim)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# ptosim sweep checks the lists, names any point without a row, and exits non-zero then
"$ptosim" sweep "$graph" "${args[@]+"${args[@]}"}" -o "$tmp" >/dev/null
if [ -n "$out" ]; then cp "$tmp/sweep.csv" "$out"; else cat "$tmp/sweep.csv"; fi
