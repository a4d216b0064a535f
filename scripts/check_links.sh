#!/bin/bash
# check_links.sh - every relative link of the user documentation names a file, and a heading where it has #.
#
#   scripts/check_links.sh [FILE.md ...]
#
# Run from the checkout's root (make check-docs does). Without FILEs: README.md, every docs/**/*.md,
# model/README.md and traces/README.md. A link is [text](PATH), [text](PATH#ANCHOR), [text](#ANCHOR) or a
# definition [label]: PATH, outside code; PATH is relative to the document and must exist inside the
# checkout; an ANCHOR into a Markdown file must be the GitHub slug of one of its headings (or an
# <a id/name> in it). Links with a scheme (https:, mailto:, ...) are not fetched. Exits 1 naming each
# FILE:LINE that does not resolve, 2 on a bad command line.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
export LC_ALL=C
case ${1:-} in
-h|--help)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0 ;;
-*)
    echo "usage: scripts/check_links.sh [FILE.md ...]" >&2
    exit 2 ;;
esac
if [ $# -eq 0 ]; then
    shopt -s globstar nullglob
    set -- README.md docs/**/*.md
    for f in model/README.md traces/README.md; do [ -f "$f" ] && set -- "$@" "$f"; done
    shopt -u globstar nullglob
fi
for f in "$@"; do
    if [ ! -f "$f" ]; then
        echo "check_links: $f: no such file" >&2
        exit 2
    fi
done
mapfile -t docs < <(printf '%s\n' "$@" | sort -u)

# Pass 1, one awk over every document: each link outside fences and code spans as
# FILE<TAB>LINE<TAB>LINK<TAB>PATH<TAB>ANCHOR, PATH resolved against the document's folder ("" for the
# document itself, "/.." when it leaves the checkout).
read -r -d '' links_awk <<'EOF'
function resolve(base, rel,    n, p, out, i, k) {
    if (rel ~ /^\//) rel = substr(rel, 2)
    else if (base != "") rel = base "/" rel
    n = split(rel, p, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (p[i] == "" || p[i] == ".") continue
        if (p[i] == "..") { if (k == 0) return "/.."; k--; continue }
        out[++k] = p[i]
    }
    rel = ""
    for (i = 1; i <= k; i++) rel = rel (i > 1 ? "/" : "") out[i]
    return rel == "" ? "." : rel
}
function emit(target,    path, anchor, h) {
    sub(/^[ \t]+/, "", target)
    if (target ~ /^</) { sub(/^</, "", target); sub(/>.*$/, "", target) }
    else sub(/[ \t].*$/, "", target)          # a title: [x](path "title")
    if (target == "" || target ~ /^[A-Za-z][A-Za-z0-9+.-]*:/) return
    h = index(target, "#")
    path = h ? substr(target, 1, h - 1) : target
    anchor = h ? substr(target, h + 1) : ""
    if (h && anchor == "") anchor = "#"
    gsub(/%20/, " ", path)
    path = path == "" ? FILENAME : resolve(dir, path)
    printf "%s\t%d\t%s\t%s\t%s\n", FILENAME, FNR, target, path, anchor
}
FNR == 1 { infence = 0; dir = FILENAME; if (!sub(/\/[^\/]*$/, "", dir)) dir = "" }
{
    line = $0
    if (!infence) {
        if (match(line, /^ *(```+|~~~+)/)) {
            fence = substr(line, RSTART, RLENGTH); gsub(/ /, "", fence)
            if (!(substr(fence, 1, 1) == "`" && index(substr(line, RSTART + RLENGTH), "`"))) {
                infence = 1; next
            }
        }
    } else {
        if (match(line, /^ *(```+|~~~+) *$/)) {
            t = line; gsub(/ /, "", t)
            if (substr(t, 1, 1) == substr(fence, 1, 1) && length(t) >= length(fence)) infence = 0
        }
        next
    }
    gsub(/``[^`]+``/, "", line)
    gsub(/`[^`]*`/, "", line)
    if (match(line, /^ ? ? ?\[[^]]+\]:[ \t]*[^ \t]/)) {
        t = line; sub(/^ ? ? ?\[[^]]+\]:[ \t]*/, "", t); emit(t)
        next
    }
    while (match(line, /\]\([^)]*\)/)) {
        emit(substr(line, RSTART + 2, RLENGTH - 3))
        line = substr(line, RSTART + RLENGTH)
    }
}
EOF

# Pass 2: the anchors. Reads the links into Markdown files that have an ANCHOR (pass 1's form) and each such
# file's headings once, as GitHub names them: the heading's text as the page shows it (no markup, no HTML
# tags), lower case, without punctuation but - and _, spaces as -; a repeated one gets -1, -2, ...
read -r -d '' anchors_awk <<'EOF'
function slug(t,    n, seg, i, s) {
    # outside code spans (the odd pieces between backticks) links keep their text, and HTML tags and
    # entities go, as on the rendered page; inside them every character is text
    n = split(t, seg, /`+/)
    t = ""
    for (i = 1; i <= n; i++) {
        s = seg[i]
        if (i % 2) {
            gsub(/!?\[/, "", s); gsub(/\]\([^)]*\)/, "", s); gsub(/\]/, "", s)
            gsub(/<[^>]*>/, "", s); gsub(/&[A-Za-z0-9#]+;/, "", s)
        }
        t = t s
    }
    t = tolower(t)
    gsub(/[]!"#$%&'()*+,.\/:;<=>?@[\\^`{|}~]/, "", t)
    gsub(/—|–|→|←|↔|⇒|×|·|…|“|”|‘|’|«|»|§|°|≤|≥|≈|±|÷|•|©|®|™/, "", t)
    gsub(/\t/, "", t)
    gsub(/ /, "-", t)
    return t
}
function heading(path, text,    s) {
    sub(/^[ \t]+/, "", text); sub(/[ \t]+#+[ \t]*$/, "", text); sub(/[ \t]+$/, "", text)
    s = slug(text)
    if ((path, s) in seen) have[path, s "-" (++seen[path, s])] = 1
    else { seen[path, s] = 0; have[path, s] = 1 }
}
function load(path,    line, infence, fence, t, prev, m) {
    loaded[path] = 1
    infence = 0; prev = ""
    while ((getline line < path) > 0) {
        sub(/\r$/, "", line)
        if (!infence && match(line, /^ *(```+|~~~+)/)) {
            fence = substr(line, RSTART, RLENGTH); gsub(/ /, "", fence)
            if (!(substr(fence, 1, 1) == "`" && index(substr(line, RSTART + RLENGTH), "`"))) {
                infence = 1; prev = ""; continue
            }
        } else if (infence) {
            if (match(line, /^ *(```+|~~~+) *$/)) {
                t = line; gsub(/ /, "", t)
                if (substr(t, 1, 1) == substr(fence, 1, 1) && length(t) >= length(fence)) infence = 0
            }
            continue
        }
        # <a id="x"> or <a name="x">
        t = line
        while (match(t, /<a[ \t]+[^>]*(id|name)="[^"]+"/)) {
            m = substr(t, RSTART, RLENGTH); sub(/^.*(id|name)="/, "", m); sub(/"$/, "", m)
            have[path, m] = 1
            t = substr(t, RSTART + RLENGTH)
        }
        # an ATX heading: 1-6 #, then a blank or the end (mawk has no {m,n})
        if (match(line, /^ ? ? ?#+([ \t]|$)/) && match(line, /#+/) && RLENGTH <= 6) {
            heading(path, substr(line, RSTART + RLENGTH)); prev = ""; continue
        }
        # a setext heading: a paragraph's line underlined with = or -
        if (prev != "" && line ~ /^ ? ? ?(=+|-+)[ \t]*$/) { heading(path, prev); prev = ""; continue }
        if (line ~ /^[ \t]*$/ || line ~ /^ ? ? ?([-*+>|]|[0-9]+[.)])/ || line ~ /^    /) prev = ""
        else prev = line
    }
    close(path)
}
BEGIN { FS = "\t" }
{
    if (!($4 in loaded)) load($4)
    if ($5 == "#") next
    if (!(($4, $5) in have)) printf "%s:%d: link %s: no heading #%s in %s\n", $1, $2, $3, $5, $4
}
EOF

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptosim-links.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
awk "$links_awk" "${docs[@]}" > "$tmp/links" || exit 1
nlinks=0
: > "$tmp/anchored"
: > "$tmp/bad"
while IFS=$'\t' read -r file line link path anchor; do
    nlinks=$((nlinks + 1))
    if [ "$path" = /.. ]; then
        echo "$file:$line: link $link: outside the checkout"
    elif [ ! -e "$path" ]; then
        echo "$file:$line: link $link: no such file"
    elif [ -n "$anchor" ] && [ -f "$path" ] && [[ $path == *.md ]]; then
        printf '%s\t%s\t%s\t%s\t%s\n' "$file" "$line" "$link" "$path" "$anchor" >> "$tmp/anchored"
    fi
done < "$tmp/links" > "$tmp/bad"
if [ -s "$tmp/anchored" ]; then
    awk "$anchors_awk" "$tmp/anchored" >> "$tmp/bad" || exit 1
fi
bad=0
if [ -s "$tmp/bad" ]; then
    # in the order of the documents and their lines
    sort -t: -k1,1 -k2,2n "$tmp/bad" >&2
    while read -r _; do bad=$((bad + 1)); done < "$tmp/bad"
fi
n=${#docs[@]}
[ "$n" -eq 1 ] && n="1 document" || n="$n documents"
if [ "$bad" -gt 0 ]; then
    echo "links: $bad of $nlinks relative links in $n do not resolve"
    exit 1
fi
echo "links: $nlinks relative links in $n resolve"
exit 0
