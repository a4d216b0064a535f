#!/bin/sh
# check_layers.sh - model/'s layers and sim/'s rooms as their maps' tables have them. Run by `make lint`.
# Every file of model/ sits in a layer folder model/README.md §0's table lists, under a name the table lists,
# and includes only its own layer's files and those of the layers its row allows (never sim/); every file of
# sim/ sits in a room sim/README.md's table lists (main.c at the top, as its `./` row), uses model/ freely
# and other rooms only as its row allows; no two modules of model/ or sim/ include each other, even through
# others.
set -eu
cd "$(dirname "$0")/.."
tab=$(mktemp)
inc=$(mktemp)
trap 'rm -f "$tab" "$inc"' EXIT

# Every quoted include of model/ and sim/, as "FILE<TAB>TARGET", TARGET resolved against FILE's folder.
for f in model/*.c model/*.h model/*/*.c model/*/*.h sim/*.c sim/*.h sim/*/*.c sim/*/*.h; do
    [ -e "$f" ] && sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | sed "s|^|$f	|"
done | awk -F '\t' '{
    d = $1; sub(/\/[^\/]*$/, "", d); n = split(d "/" $2, p, "/"); k = 0
    for (i = 1; i <= n; i++) { if (p[i] == "..") { if (k) k--; } else if (p[i] != "." && p[i] != "") q[++k] = p[i] }
    s = q[1]; for (i = 2; i <= k; i++) s = s "/" q[i]
    printf "%s\t%s\n", $1, s }' > "$inc"

# check ROOT MAP REF: ROOT's folders against MAP's table ("LAYER<TAB>FILES<TAB>MAY-USE" per row, backticks
# and slashes dropped; a row "./" holds the files at ROOT's top), REF naming the table in messages.
check() {
    root=$1 map=$2 ref=$3
    if [ ! -f "$map" ]; then
        echo "$map: missing: $root/ has no map of its folders" >&2
        return 1
    fi
    awk '/<!-- layers:/ { on = 1; next } /<!-- \/layers -->/ { on = 0 } on && /^\| `/ {
            n = split($0, f, "|"); if (n < 6) { print "bad row: " $0 > "/dev/stderr"; exit 1 }
            for (i = 2; i <= 5; i++) { gsub(/[`\/]/, "", f[i]); gsub(/^ +| +$/, "", f[i]); gsub(/ +/, " ", f[i]) }
            if (f[5] == "—") f[5] = ""
            printf "%s\t%s\t%s\n", f[2], f[4], f[5] }' "$map" > "$tab"
    [ -s "$tab" ] || { echo "$map: no layer table between <!-- layers: --> and <!-- /layers -->" >&2; return 1; }
    ls "$root" | awk -v tab="$tab" -v inc="$inc" -v map="$map" -v ref="$ref" -v root="$root" '
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
    {   # an entry of ROOT: a layer folder, the map, or (with a "./" row) a file at the top
        p = root "/" $0
        if ($0 == "README.md" || $0 in layer) next
        if (("." in layer) && system("test -d \"" p "\"") != 0) {
            if ($0 !~ /\.[ch]$/) next
            m = $0; sub(/\.[ch]$/, "", m)
            if (("./" m) in listed) next
        }
        printf "%s/%s: not a layer of %s\n", root, $0, ref; bad = 1
    }
    END {
        cmd = "cd " root " && ls */*.c */*.h 2>/dev/null"
        while ((cmd | getline p) > 0) {
            m = p; sub(/\.[ch]$/, "", m); have[m] = 1
            if (!(m in listed)) { printf "%s/%s: not in the table of %s\n", root, p, ref; bad = 1 }
        }
        if ("." in layer) {
            cmd = "cd " root " && ls *.c *.h 2>/dev/null"
            while ((cmd | getline p) > 0) { m = p; sub(/\.[ch]$/, "", m); have["./" m] = 1 }
        }
        for (i = 1; i <= nlo; i++) if (!((m = lorder[i]) in have)) { printf "%s lists %s/%s, which has no .c or .h\n", ref, root, m; bad = 1 }
        while ((getline l < inc) > 0) {
            split(l, r, "\t"); f = r[1]; t = r[2]
            if (f ~ /^model\// && t ~ /^sim\//) {
                if (root == "model") { printf "%s: includes %s: model/ never uses sim/\n", f, t; bad = 1 }
                continue }
            if (t !~ /^(model|sim)\//) continue
            if (index(f, root "/") == 1 && index(t, root "/") == 1) {
                a = lay(f); b = lay(t)
                if (a != b && !((a SUBSEP b) in may)) {
                    printf "%s: includes %s, but layer %s may not use %s (%s)\n", f, t, a, b, ref; bad = 1 }
            }
        }
        exit bad
    }
    function lay(p,    n, s) { n = split(p, s, "/"); return n == 2 ? "." : s[2] }' >&2
}

# A module (a .c/.h pair of model/ or sim/) that includes itself through others is a circle.
circles() {
    awk -F '\t' '{
        f = $1; t = $2
        if (t !~ /^(model|sim)\// || (f ~ /^model\// && t ~ /^sim\//)) next
        fm = module(f); tm = module(t)
        if (fm != tm && !((fm SUBSEP tm) in edge)) {
            if (!(fm in seen)) { seen[fm] = 1; horder[++nh] = fm }
            edge[fm SUBSEP tm] = 1; out[fm] = out[fm] " " tm }
    }
    END { for (i = 1; i <= nh; i++) if (!(horder[i] in done)) visit(horder[i], ""); exit bad }
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
    }' "$inc" >&2
}

rc=0
check model model/README.md "model/README.md §0" || rc=1
check sim sim/README.md sim/README.md || rc=1
circles || rc=1
exit $rc
