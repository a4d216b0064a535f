#!/bin/sh
# perfsim-trees.sh SHARED DIR - unpacks pto-isa and the runtime's kernels from SHARED (the project's
# ../shared/, which CI has) into DIR/pto-isa and DIR/simpler for the Perf-Sim tests, once per tarball, and
# installs clang++-19 when missing (as root). Without them it says in one line that those tests are skipped.
set -eu
shared=$1
dir=$2
pto=$(ls "$shared"/pto-isa/pto-isa-*.tar.gz 2>/dev/null | head -n 1 || true)
sim=$(ls "$shared"/simpler/simpler-*-kernels.tar.gz 2>/dev/null | head -n 1 || true)
if [ -z "$pto" ] || [ -z "$sim" ]; then
    rm -rf "$dir/pto-isa" "$dir/simpler"
    echo "perf-sim: the tests that compile kernels under pto-isa are skipped: $shared/pto-isa and $shared/simpler are not here"
    exit 0
fi
if ! command -v clang++-19 >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    sh ./scripts/install-deps.sh --perfsim
fi
mkdir -p "$dir"
for pair in "pto-isa:$pto" "simpler:$sim"; do
    name=${pair%%:*}
    tarball=${pair#*:}
    stamp="$dir/$name.stamp"
    want=$(cksum < "$tarball")
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$dir/$name" ]; then
        continue
    fi
    rm -rf "$dir/$name" "$dir/$name.tmp"
    mkdir -p "$dir/$name.tmp"
    tar -xzf "$tarball" -C "$dir/$name.tmp"
    # the tarball holds one top folder (pto-isa/, simpler/)
    top=$(ls "$dir/$name.tmp")
    mv "$dir/$name.tmp/$top" "$dir/$name"
    rmdir "$dir/$name.tmp"
    printf '%s\n' "$want" > "$stamp"
done
