#!/bin/sh
# tests/golden/golden.sh - byte-identity guard: every shipped trace, every output on, against recorded digests.
#
# usage: sh tests/golden/golden.sh BIN check|record   (run from the repository root)
#
# Runs each traces/*.jsonl in three configurations and hashes every file it
# writes plus its stdout, stderr and exit status: DFX off; swimlane 4 + scope
# stats + dep gen + args dump level 3 + perfetto; swimlane 2 + PMU (single
# issue) + args dump level 1 + scope stats. Then args dump level 2 on three
# small traces (level 2 writes every arg's payload: gigabytes on the larger
# ones) and three programs on one worker. `check` compares the digests
# with tests/golden/outputs.sha256 and fails, listing the files that differ;
# `record` (make golden) rewrites that file: do it only when the model is
# meant to change, and say why in the commit.
#
# What is left out of the comparison, and why: ptosim_run.json's platform
# paths (absolute, they name the checkout) are rewritten to <platforms>/, and
# its "simulator" line's "events" count is dropped: it is the engine's own
# work (what speed work sets out to lower), not a simulated result. Runs use
# --no-host-timing, so no host clock reaches a file.
set -eu
BIN=$1
MODE=$2
LIST=tests/golden/outputs.sha256
case $MODE in check | record) ;; *) echo "usage: $0 BIN check|record" >&2; exit 2 ;; esac
[ -x "$BIN" ] || { echo "golden: no binary $BIN" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptosim-golden.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

# run NAME OUTDIR ARGS...: one run; stdout, stderr and exit status kept beside its folder.
run() {
	dir=$2
	shift 2
	mkdir -p "$TMP/out/$(dirname "$dir")"
	rc=0
	"$BIN" run "$@" -o "$TMP/out/$dir" --no-host-timing >"$TMP/out/$dir.stdout" 2>"$TMP/out/$dir.stderr" || rc=$?
	echo "$rc" >"$TMP/out/$dir.status"
}

for t in traces/*.jsonl; do
	n=$(basename "$t" .jsonl)
	run "$n" "off/$n" "$t"
	run "$n" "all/$n" "$t" --enable-chip-swimlane --enable-scope-stats --enable-dep-gen --dump-args=3 \
		--enable-perfetto
	run "$n" "pmu/$n" "$t" --enable-chip-swimlane=2 --enable-pmu --dump-args=1 --enable-scope-stats
done
for n in chain3 forkjoin kv_decode; do
	run "$n" "args2/$n" "traces/$n.jsonl" --dump-args=2 --enable-chip-swimlane=1
done
run multi "multi/chain3_default_fan200" traces/chain3.jsonl traces/default.jsonl traces/fan200.jsonl \
	--enable-chip-swimlane --enable-dep-gen --enable-scope-stats --enable-perfetto

# Host-dependent fields out (see above); every other byte is compared.
find "$TMP/out" -name ptosim_run.json | while read -r f; do
	sed -E -e 's#"(file|simgrid_platform)": "[^"]*/platforms/#"\1": "<platforms>/#g' \
		-e 's#("simulator": \{)"events": [0-9]+, #\1#' "$f" >"$f.norm"
	mv "$f.norm" "$f"
done
# Paths in stderr/stdout name the temporary folder: rewrite it.
find "$TMP/out" -name '*.stdout' -o -name '*.stderr' | while read -r f; do
	sed -e "s#$TMP/out/#<out>/#g" "$f" >"$f.norm"
	mv "$f.norm" "$f"
done

(cd "$TMP/out" && find . -type f | LC_ALL=C sort | xargs sha256sum) >"$TMP/now.sha256"
n=$(wc -l <"$TMP/now.sha256")
if [ "$MODE" = record ]; then
	cp "$TMP/now.sha256" "$LIST"
	echo "golden: recorded $n digests in $LIST"
	exit 0
fi
if ! cmp -s "$LIST" "$TMP/now.sha256"; then
	echo "golden: outputs differ from $LIST (run make golden only if the model is meant to change):" >&2
	diff "$LIST" "$TMP/now.sha256" | grep '^[<>]' | awk '{print $1, $3}' | sort -k2 -u | head -40 >&2
	exit 1
fi
echo "golden: $n outputs byte-identical"
