#!/bin/sh
# make_pictures.sh [SIMPLER] - remakes the pictures of docs/tutorial.md and docs/howto/ (run from the root)
#
# Runs the documents' commands in a temporary folder with build/ptosim, then photographs one section of
# each report page with headless Chromium: the page is copied with a style that hides every other part,
# and the window's size crops it. SIMPLER, a checkout of hw-native-sys/simpler, adds the pictures its
# viewers draw (deps_viewer's HTML needs graphviz's dot); without it they are left as they are.
set -eu
root=$(pwd)
ptosim=$root/build/ptosim
img=$root/docs/img
simpler=${1:-}
if [ -n "$simpler" ]; then
    if [ ! -d "$simpler/simpler_setup/tools" ]; then
        echo "make_pictures.sh: $simpler has no simpler_setup/tools" >&2
        exit 2
    fi
    simpler=$(cd "$simpler" && pwd)
fi
[ -x "$ptosim" ] || { echo "make_pictures.sh: no $ptosim (run make first)" >&2; exit 2; }
command -v chromium >/dev/null || { echo "make_pictures.sh: chromium is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# shoot PAGE SECTION WIDTH HEIGHT NAME: the section of id SECTION of report page PAGE, into docs/img/NAME
shoot()
{
    sed "s|</head>|<style>body>:not(#$2){display:none}#$2>h2{margin-top:0}</style></head>|" "$1" > shot.html
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$3,$4" \
        --screenshot="$img/$5" "file://$tmp/shot.html" >/dev/null 2>&1
    echo "$5: $(wc -c < "$img/$5") bytes"
}
# page HTML WIDTH HEIGHT NAME: the top of any page
page()
{
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$2,$3" \
        --screenshot="$img/$4" "file://$tmp/$1" >/dev/null 2>&1
    echo "$4: $(wc -c < "$img/$4") bytes"
}

# docs/tutorial.md: the runtime's bgemm with 16 task slots per ring, then 64
sed '1s/^{/{"run_config": {"ring_task_window": 16}, /' "$root/traces/gen_bgemm.jsonl" > bgemm.jsonl
# run ARGS...: a run of bgemm.jsonl with the three diagnostic files the tutorial reads
run()
{
    "$ptosim" run bgemm.jsonl --enable-dep-gen --enable-chip-swimlane --enable-scope-stats "$@" > /dev/null
}
run -o out/w16
"$ptosim" run bgemm.jsonl -o out/pmu --enable-pmu > /dev/null
"$ptosim" sweep bgemm.jsonl --ring-task-window 16,32,64,128 -o out/sweep > /dev/null
run --ring-task-window 64 -o out/w64
for d in w16 pmu sweep w64; do "$ptosim" report out/$d > /dev/null; done
shoot out/w16/report.html summary 1000 520 report-summary.png
shoot out/w16/report.html swimlane 1000 700 tutorial-swimlane-16.png
shoot out/w16/report.html rings 1000 630 tutorial-rings-16.png
shoot out/pmu/report.html pipes 1000 350 tutorial-pipes.png
shoot out/sweep/report.html sweep 1000 640 tutorial-sweep.png
shoot out/w64/report.html swimlane 1000 700 tutorial-swimlane-64.png

# the runtime's viewers, from a copy of simpler_setup/tools (docs/howto/runtime-viewers.md)
if [ -n "$simpler" ]; then
    mkdir -p viewers/simpler_setup
    cp -r "$simpler/simpler_setup/tools" viewers/simpler_setup/
    : > viewers/simpler_setup/__init__.py
    "$ptosim" gen bgemm --matmul-add-task-num 2 > group.jsonl
    "$ptosim" run group.jsonl -o out/group --enable-dep-gen > /dev/null
    PYTHONPATH=$tmp/viewers python3 -m simpler_setup.tools.deps_viewer out/group/dfx_outputs/deps.json \
        --format html -o deps.html > /dev/null
    page deps.html 900 420 tutorial-graph.png
    python3 viewers/simpler_setup/tools/scope_stats_plot.py \
        out/w16/dfx_outputs/scope_stats/scope_stats.jsonl --out-dir . > /dev/null 2>&1
    sed 's|</head>|<style>.formula-panel{display:none}</style></head>|' scope_stats.html > ss_shot.html
    page ss_shot.html 1000 760 viewers-scope-stats.png
fi
