#!/bin/sh
# fuzz.sh SECONDS TARGET... - `make fuzz`: runs build-fuzz/fuzz_TARGET for SECONDS each, from the seeds in
# tests/fuzz/seeds/TARGET (and, for graph and graph_diff, graph's seeds and the small shipped traces), with a
# JSON dictionary. A finding (crash, sanitizer report, leak, timeout) stops it: the input is kept as
# build-fuzz/TARGET-crash-* and the script fails. Prints each target's executions. The growing corpus lives
# in build-fuzz/corpus/TARGET.
set -eu
secs=$1
shift
cd "$(dirname "$0")/.."
status=0
for t in "$@"; do
    corpus=build-fuzz/corpus/$t
    mkdir -p "$corpus"
    seeds=tests/fuzz/seeds/$t
    extra=""
    [ "$t" = graph_diff ] && seeds=tests/fuzz/seeds/graph # the same files, read by both readers
    if [ "$t" = graph ] || [ "$t" = graph_diff ]; then
        # the shipped graphs up to 16 KB are seeds too
        extra=build-fuzz/seeds-traces
        mkdir -p "$extra"
        find traces -name '*.jsonl' -size -16k -exec cp {} "$extra/" \;
    fi
    log=build-fuzz/$t.log
    echo "fuzz: $t for ${secs} s (log: $log)"
    # -close_fd_mask=2: the targets' own messages (import's notes) stay out of the log
    if ./build-fuzz/fuzz_"$t" -max_total_time="$secs" -print_final_stats=1 -dict=tests/fuzz/json.dict \
        -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 -artifact_prefix="build-fuzz/$t-" \
        "$corpus" "$seeds" $extra >"$log" 2>&1; then
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz: $t: no finding in ${secs} s, $execs executions, corpus $(ls "$corpus" | wc -l) inputs"
    else
        echo "fuzz: $t: FINDING (see $log and build-fuzz/$t-*)" >&2
        tail -n 40 "$log" >&2
        status=1
    fi
done
exit $status
