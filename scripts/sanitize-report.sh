#!/bin/sh
# sanitize-report.sh DIR - `make check-sanitize`'s verdict: prints every ASan/UBSan/LSan report left in
# DIR/asan.* and fails if there is one, apart from SimGrid's known warning about its context switches.
set -eu
dir=$1
bad=0
for f in "$dir"/asan.*; do
    [ -e "$f" ] || continue
    # the one report that is not a finding: ASan cannot follow SimGrid's ucontext switches
    if grep -v -e "ASan doesn't fully support makecontext/swapcontext" \
        -e 'False positive error reports may follow' \
        -e 'For details see https://github.com/google/sanitizers/issues/189' \
        -e '^==[0-9]*==WARNING: ASan is ignoring requested __asan_handle_no_return' \
        -e '^==[0-9]*==WARNING: ASan doesn' \
        -e '^[[:space:]]*$' "$f" >/dev/null; then
        echo "sanitize: $f:" >&2
        cat "$f" >&2
        bad=1
    fi
done
if [ "$bad" -ne 0 ]; then
    echo "sanitize: findings above (make check-sanitize)" >&2
    exit 1
fi
echo "sanitize: no findings"
