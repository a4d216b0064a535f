#!/bin/sh
# scripts/critical_path_oracle.sh SIMPLER_REPO [REV]: prints, for each capture in tests/real/ that has a swimlane and a
# deps.json, what the runtime's critical_path tool (simpler_setup/tools/critical_path.py, run as a tool) computes
# of it, in integer ticks: the oracle tests/real/critical_path_oracle.txt holds and tests/test_ohm.c checks ptosim
# against. Run from the repository root; needs python3 and a git directory of hw-native-sys/simpler.
set -eu
repo=${1:?usage: scripts/critical_path_oracle.sh SIMPLER_REPO [REV]}
rev=${2:-6ebaf77156313aaeb5c9457c57b16c45b84ae7e8}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
git -C "$repo" archive "$rev" simpler_setup/tools | tar -x -C "$w"
: >"$w/simpler_setup/__init__.py"
echo "# critical_path (hw-native-sys/simpler $(printf %.7s "$rev"), simpler_setup/tools, tol 2) on each capture's"
echo "# own chip_swimlane_records.json and deps.json (scripts/critical_path_oracle.sh): CAPTURE tasks hb_edges"
echo "# makespan cpm cpm_tasks observed_tasks compute stall data_wait core_wait front_gap, all times in ticks"
for d in tests/real/*/; do
    n=$(basename "$d")
    [ -f "$d/chip_swimlane_records.json" ] && [ -f "$d/deps.json" ] || continue
    mkdir -p "$w/c/$n"
    cp "$d/chip_swimlane_records.json" "$d/deps.json" "$w/c/$n/"
    echo '{"callable_id_to_name": {}}' >"$w/c/$n/name_map_oracle.json"
    PYTHONPATH="$w" python3 - "$w/c/$n" "$n" <<'PY'
import sys
from pathlib import Path
from simpler_setup.tools import critical_path as cp
d, name = Path(sys.argv[1]), sys.argv[2]
try:
    g = cp.build_graph(d, d, 2)
except RuntimeError as e:  # a capture with no AICore execution: the tool has nothing to analyse
    print("#", name, "skipped:", str(e).split(" in ")[0])
    sys.exit(0)
r = cp.analyze_rank(g, 2)
k = r.stall_by_kind
print(name, r.ntasks, r.kept_edges, r.makespan, r.cpm_len, r.cpm_ntasks, len(r.segments), r.compute_total,
      r.stall_total, k.get("data-wait", 0), k.get("core-wait", 0), k.get("front-gap", 0))
PY
done
