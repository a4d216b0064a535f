#!/bin/sh
# run.sh - `make bench`: ptosim's own speed and memory on four workloads, each against a bare C
# binary-heap event loop popping as many events (bench/heap_baseline.c), measured in the same run.
# Figures are end to end: graph reading (two passes: validation, then the run) included.
set -eu
BUILD=${BUILD:-build}
P=$BUILD/ptosim
D=$BUILD/bench
mkdir -p "$D"

# graph NAME GEN-ARGS...: writes $D/NAME.jsonl once (kept between runs)
graph() {
    name=$1
    shift
    if [ ! -s "$D/$name.jsonl" ]; then
        "$P" gen "$@" > "$D/$name.jsonl.tmp"
        mv "$D/$name.jsonl.tmp" "$D/$name.jsonl"
    fi
}

# field FILE KEY: the first number after "KEY": in FILE
field() {
    sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" "$1" | head -n 1
}

printf '%-28s %10s %9s %12s %12s %14s %9s %10s %7s\n' case tasks host_s tasks/s events events/s rss_MiB heap_s ratio
# case NAME GRAPH RUN-OPTIONS...
case_() {
    name=$1
    g=$2
    shift 2
    out=$D/out_$name
    rm -rf "$out"
    m=$("$BUILD/measure" "$P" run "$g" -o "$out" --quiet "$@" || true)
    secs=${m% *}
    rss=${m#* }
    tasks=$(field "$out/ptosim_run.json" completed)
    events=$(field "$out/ptosim_run.json" events)
    base=$("$BUILD/heap_baseline" "$events")
    base=${base% *}
    awk -v n="$name" -v t="$tasks" -v s="$secs" -v e="$events" -v r="$rss" -v b="$base" 'BEGIN {
        printf "%-28s %10d %9.3f %12.0f %12d %14.0f %9.1f %10.3f %7.1f\n", n, t, s, t / s, e, e / s, r / 1024, b, s / b }'
    echo "$secs" > "$D/secs_$name"
}

graph fan_1e6 fan --n 1000000
graph chain_1e6 chain --n 1000000
graph pa_case1 paged_attention --batch 256 --heads 16 --head-dim 128 --block-size 128 --context 8192
graph fan_1e7 fan --n 10000000

case_ fan_1e6_dfx_off "$D/fan_1e6.jsonl"
case_ chain_1e6_dfx_off "$D/chain_1e6.jsonl"
case_ paged_attention_dfx_off "$D/pa_case1.jsonl"
case_ paged_attention_all_dfx "$D/pa_case1.jsonl" --enable-chip-swimlane 4 --enable-pmu --enable-scope-stats --enable-dep-gen
case_ fan_1e7_streamed "$D/fan_1e7.jsonl"
awk -v a="$(cat "$D/secs_paged_attention_all_dfx")" -v o="$(cat "$D/secs_paged_attention_dfx_off")" \
    'BEGIN { printf "all DFX on / DFX off (paged_attention): %.2fx\n", a / o }'
