#!/bin/sh
# check_layers.sh - model/'s layers as model/README.md §0's table has them: every file of model/ sits in
# a layer folder the table lists, under a name the table lists, and includes only its own layer's files
# and those of the layers its row allows (never sim/); no two modules of model/ or sim/ include each
# other, even through others. Run by `make lint`.
set -eu
cd "$(dirname "$0")/.."
map=model/README.md
tab=$(mktemp)
inc=$(mktemp)
trap 'rm -f "$tab" "$inc"' EXIT

# The table: "LAYER<TAB>FILES<TAB>MAY-USE" per row, backticks and slashes dropped.
awk '/<!-- layers:/ { on = 1; next } /<!-- \/layers -->/ { on = 0 } on && /^\| `/ {
        n = split($0, f, "|"); if (n < 6) { print "bad row: " $0 > "/dev/stderr"; exit 1 }
        for (i = 2; i <= 5; i++) { gsub(/[`\/]/, "", f[i]); gsub(/^ +| +$/, "", f[i]); gsub(/ +/, " ", f[i]) }
        if (f[5] == "—") f[5] = ""
        printf "%s\t%s\t%s\n", f[2], f[4], f[5] }' "$map" > "$tab"
[ -s "$tab" ] || { echo "$map: no layer table between <!-- layers: --> and <!-- /layers -->" >&2; exit 1; }

# Every quoted include of model/ and sim/, as "FILE<TAB>TARGET", TARGET resolved against FILE's folder.
for f in model/*.c model/*.h model/*/*.c model/*/*.h sim/*.c sim/*.h; do
    [ -e "$f" ] && sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | sed "s|^|$f	|"
done | awk -F '\t' '{
    d = $1; sub(/\/[^\/]*$/, "", d); n = split(d "/" $2, p, "/"); k = 0
    for (i = 1; i <= n; i++) { if (p[i] == "..") { if (k) k--; } else if (p[i] != "." && p[i] != "") q[++k] = p[i] }
    s = q[1]; for (i = 2; i <= k; i++) s = s "/" q[i]
    printf "%s\t%s\n", $1, s }' > "$inc"

ls model | awk -v tab="$tab" -v inc="$inc" -v map="$map" '
BEGIN {
    FS = "\t"
    while ((getline l < tab) > 0) {
        split(l, r, "\t"); layer[r[1]] = 1; order[++nl] = r[1]
        n = split(r[2], fs, " "); for (i = 1; i <= n; i++) {
            if (fs[i] in home) { printf "%s: %s is in two layers\n", map, fs[i]; bad = 1 }
            home[fs[i]] = r[1]; listed[r[1] "/" fs[i]] = 1; lorder[++nlo] = r[1] "/" fs[i] }
        n = split(r[3], us, " "); for (i = 1; i <= n; i++) {
            if (!(us[i] in layer)) { printf "%s: layer %s may use %s, which is not a layer above it in the table\n", map, r[1], us[i]; bad = 1 }
            may[r[1] SUBSEP us[i]] = 1 }
    }
}
$0 != "README.md" && !($0 in layer) { printf "model/%s: not a layer of %s §0\n", $0, map; bad = 1 }
END {
    cmd = "cd model && ls */*.c */*.h 2>/dev/null"
    while ((cmd | getline p) > 0) {
        m = p; sub(/\.[ch]$/, "", m); if (!(m in have)) horder[++nh] = "model/" m; have[m] = 1
        if (!(m in listed)) { printf "model/%s: not in the table of %s §0\n", p, map; bad = 1 }
    }
    for (i = 1; i <= nlo; i++) if (!((m = lorder[i]) in have)) { printf "%s §0 lists model/%s, which has no .c or .h\n", map, m; bad = 1 }
    while ((getline l < inc) > 0) {
        split(l, r, "\t"); f = r[1]; t = r[2]
        if (f ~ /^model\// && t ~ /^sim\//) { printf "%s: includes %s: model/ never uses sim/\n", f, t; bad = 1; continue }
        if (t !~ /^(model|sim)\//) continue
        fm = module(f); tm = module(t)
        if (f ~ /^model\//) {
            split(f, a, "/"); split(t, b, "/")
            if (a[2] != b[2] && !((a[2] SUBSEP b[2]) in may)) {
                printf "%s: includes %s, but layer %s may not use %s (%s §0)\n", f, t, a[2], b[2], map; bad = 1 }
        } else if (!(f in seen)) { seen[f] = 1; horder[++nh] = fm }
        if (fm != tm && !((fm SUBSEP tm) in edge)) { edge[fm SUBSEP tm] = 1; out[fm] = out[fm] " " tm }
    }
    # a module including itself through others is a circle
    for (i = 1; i <= nh; i++) if (!(horder[i] in done)) visit(horder[i], "")
    exit bad
}
function module(p) { sub(/\.[ch]$/, "", p); return p }
function visit(m, path,    n, i, s, c) {
    if (m in active) {
        c = substr(" " path, index(" " path, " " m " -> ") + 1)
        printf "modules include each other in a circle: %s%s\n", c, m; bad = 1; return }
    if (m in done) return
    active[m] = 1
    n = split(out[m], s, " ")
    for (i = 1; i <= n; i++) visit(s[i], path m " -> ")
    delete active[m]; done[m] = 1
}' >&2
