#!/bin/bash
# check_docs.sh - runs the ```console examples of the user documentation and checks what they print.
#
#   scripts/check_docs.sh [FILE.md ...]
#
# Run from the checkout's root (make check-docs does). Without FILEs: README.md, every docs/**/*.md and
# traces/README.md, in sorted order. The block syntax is docs/contributing-docs.md's: a fence whose info
# string starts with `console` (words requires=PATH, timeout=SECONDS), `$ ` commands (a trailing ` \`
# continues one), then the lines the command must print, in order, `...` matching any text, and
# `[exit N]`. Each document runs in a fresh temporary folder holding links to the checkout's build,
# traces, platforms, scripts, tests, docs, sim and model, with the checkout's ptosim (PTOSIM_BIN, default
# build/ptosim) first on PATH; each command runs in bash, stdout and stderr together, under timeout(1),
# and whatever it started is killed with it. Prints a line per document and a summary; a failure is
# FILE:LINE: what, then the output the command gave; exits 1 on any failure, 2 on a bad command line.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
export LC_ALL=C
root=$PWD
bin=${PTOSIM_BIN:-$root/build/ptosim}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
case ${1:-} in
-h|--help)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0 ;;
-*)
    echo "usage: scripts/check_docs.sh [FILE.md ...]" >&2
    exit 2 ;;
esac
if [ ! -x "$bin" ]; then
    echo "check_docs: $bin: no such program (run make first)" >&2
    exit 2
fi
if [ $# -eq 0 ]; then
    shopt -s globstar nullglob
    set -- README.md docs/**/*.md
    [ -f traces/README.md ] && set -- "$@" traces/README.md
    shopt -u globstar nullglob
fi
# documents in sorted order, each once
mapfile -t docs < <(printf '%s\n' "$@" | sort -u)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptosim-docs.XXXXXX") || exit 1
child=
cleanup()
{
    if [ -n "$child" ]; then
        kill -TERM -- "-$child" 2>/dev/null
        wait "$child" 2>/dev/null
        kill -KILL -- "-$child" 2>/dev/null
        child=
    fi
    # a document may leave a folder it made read-only; chmod -R does not follow the links into the checkout
    rm -rf "$tmp" 2>/dev/null || { chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"; }
}
on_signal()
{
    trap - INT TERM HUP
    echo "check_docs: stopped by a signal" >&2
    cleanup
    exit "$1"
}
trap cleanup EXIT
trap 'on_signal 129' HUP
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
mkdir "$tmp/bin" "$tmp/plan" && ln -s "$bin" "$tmp/bin/ptosim" || exit 1
export PATH="$tmp/bin:$PATH"

# The parser: one pass over a document. Writes plan/index (B LINE TIMEOUT: a block; R LINE PATH: one of its
# requires; C ID LINE EXIT EXITLINE: a command, its text in plan/cID, its expected lines in plan/eID as
# LINE<TAB>TEXT), prints FILE:LINE errors on stderr and exits 1 on any. Fences of any kind are tracked, so a
# console block shown inside a longer fence (````markdown) is not run.
read -r -d '' parse_awk <<'EOF'
function err(line, msg) { printf "%s:%d: %s\n", file, line, msg > "/dev/stderr"; bad = 1 }
function endcmd() {
    if (!cid) return
    close(plan "/c" cid); close(plan "/e" cid)
    printf "C\t%d\t%d\t%d\t%d\n", cid, cline, cexit, cexitline > (plan "/index")
    cid_open = 0
}
function newcmd(line, text) {
    endcmd()
    cid = ++ncmd; cid_open = 1; cline = line; cexit = 0; cexitline = line
    printf "%s\n", text > (plan "/c" cid)
    printf "" > (plan "/e" cid)
    cont = (text ~ / \\$/ || text == "\\")
}
BEGIN { infence = 0; ncmd = 0; nblock = 0; bad = 0; printf "" > (plan "/index") }
{
    line = $0
    sub(/\r$/, "", line)
    if (!infence) {
        if (!match(line, /^ *(```+|~~~+)/)) next
        ind = 0
        while (substr(line, ind + 1, 1) == " ") ind++
        fch = substr(line, ind + 1, 1)
        flen = RLENGTH - ind
        info = substr(line, RSTART + RLENGTH)
        if (fch == "`" && index(info, "`")) next
        infence = 1; console = 0
        nw = split(info, w, /[ \t]+/)
        first = (w[1] == "" ? w[2] : w[1])
        if (first != "console") next
        console = 1; fenceline = NR; nblock++; cid = 0; cid_open = 0; cont = 0
        tmo = 60; nreq = 0
        seen = 0
        for (i = 1; i <= nw; i++) {
            if (w[i] == "") continue
            if (!seen && w[i] == "console") { seen = 1; continue }
            if (w[i] ~ /^requires=./) req[++nreq] = substr(w[i], 10)
            else if (w[i] ~ /^timeout=/) {
                tmo = substr(w[i], 9)
                if (tmo !~ /^[0-9]+$/ || tmo + 0 < 1)
                    err(NR, "console block: timeout=" tmo ": not a whole number of seconds >= 1")
            } else err(NR, "console block: unknown word " w[i] " (requires=PATH, timeout=SECONDS)")
        }
        printf "B\t%d\t%d\n", NR, tmo > (plan "/index")
        for (i = 1; i <= nreq; i++) printf "R\t%d\t%s\n", NR, req[i] > (plan "/index")
        next
    }
    # a closing fence: the opening's character, at least as many, nothing after
    if (match(line, /^ *(```+|~~~+) *$/)) {
        t = line
        gsub(/ /, "", t)
        if (substr(t, 1, 1) == fch && length(t) >= flen) {
            infence = 0
            if (console) {
                if (cont) err(cline, "console block: the command continues (\\) past the end of the block")
                endcmd()
            }
            next
        }
    }
    if (!console) next
    # the fence's own indentation is not part of the text
    for (i = 0; i < ind && substr(line, 1, 1) == " "; i++) line = substr(line, 2)
    if (cont) {
        printf "%s\n", line > (plan "/c" cid)
        cont = (line ~ / \\$/ || line == "\\")
        next
    }
    if (line ~ /^\$ / || line == "$") { newcmd(NR, substr(line, 3)); next }
    t = line
    sub(/[ \t]+$/, "", t)
    if (t == "") next
    if (!cid_open) { err(NR, "console block: a line before the first command ($ ...)"); next }
    if (t ~ /^[ \t]*\[exit [0-9]+\]$/) {
        if (cexitline != cline) err(NR, "console block: a second [exit N] for one command")
        sub(/^[ \t]*\[exit /, "", t)
        sub(/\]$/, "", t)
        cexit = t + 0; cexitline = NR
        if (cexit > 255) err(NR, "console block: [exit " t "]: an exit status is 0-255")
        next
    }
    printf "%d\t%s\n", NR, t > (plan "/e" cid)
}
END {
    if (infence && console) err(fenceline, "console block: not closed")
    if (infence && console) endcmd()
    close(plan "/index")
    exit bad
}
EOF

# The comparison: the expected lines (plan/eID) each a whole line of the output, in order, other lines
# between; `...` matches any text; trailing blanks are ignored on both sides. Prints LINE<TAB>TEXT of each
# expected line not found.
read -r -d '' match_awk <<'EOF'
function wmatch(pat, s,    n, p, i, pos, k, last) {
    if (!index(pat, "...")) return pat == s
    n = split(pat, p, /\.\.\./)
    if (substr(s, 1, length(p[1])) != p[1]) return 0
    pos = length(p[1]) + 1
    for (i = 2; i < n; i++) {
        if (p[i] == "") continue
        k = index(substr(s, pos), p[i])
        if (!k) return 0
        pos += k - 1 + length(p[i])
    }
    last = p[n]
    return length(s) - pos + 1 >= length(last) && substr(s, length(s) - length(last) + 1) == last
}
FILENAME == ARGV[1] {
    t = index($0, "\t")
    eline[++ne] = substr($0, 1, t - 1)
    etext[ne] = substr($0, t + 1)
    next
}
{
    sub(/\r$/, "")
    sub(/[ \t]+$/, "")
    out[++no] = $0
}
END {
    pos = 1
    for (i = 1; i <= ne; i++) {
        for (j = pos; j <= no; j++)
            if (wmatch(etext[i], out[j])) break
        if (j <= no) pos = j + 1
        else printf "%s\t%s\n", eline[i], etext[i]
    }
}
EOF

# plural N WORD: "1 WORD" or "N WORDs"
plural() { if [ "$1" -eq 1 ]; then echo "1 $2"; else echo "$1 $2s"; fi; }

# show FILE: the output a failed command gave, indented, at most 200 lines
show()
{
    awk 'NR <= 200 { print "    " $0 }
        END { if (NR > 200) print "    ... (" NR - 200 " more lines)"
              if (NR == 0) print "    (no output)" }' "$1" >&2
}

ndocs=0 nfailed=0 tblocks=0 tskipped=0 tcmds=0
for f in "${docs[@]}"; do
    ndocs=$((ndocs + 1))
    if [ ! -f "$f" ]; then
        echo "$f: no such file" >&2
        echo "docs: $f: FAILED"
        nfailed=$((nfailed + 1))
        continue
    fi
    plan=$tmp/plan
    rm -rf "$plan" && mkdir "$plan" || exit 1
    if ! awk -v file="$f" -v plan="$plan" "$parse_awk" "$f"; then
        echo "docs: $f: FAILED (the document's console blocks are malformed; nothing run)"
        nfailed=$((nfailed + 1))
        continue
    fi
    nblocks=0 nskipped=0 ncmds=0 failed=0 skip=0 tmo=60 dir=
    while IFS=$'\t' read -r kind a b c d; do
        case $kind in
        B)
            nblocks=$((nblocks + 1)) skip=0 tmo=$b
            if [ -z "$dir" ]; then
                # the document's own folder, made at its first block
                dir=$tmp/doc
                mkdir "$dir" && ln -s "$root/build" "$root/traces" "$root/platforms" "$root/scripts" \
                    "$root/tests" "$root/docs" "$root/sim" "$root/model" "$dir/" || exit 1
            fi ;;
        R)
            req=$b
            case $req in /*) ;; *) req=$root/$req ;; esac
            if [ "$skip" -eq 0 ] && [ ! -e "$req" ]; then
                skip=1 nskipped=$((nskipped + 1))
                echo "docs: $f:$a: block skipped: requires $b, which is not there"
            fi ;;
        C)
            [ "$skip" -eq 0 ] || continue
            read -r -d '' cmd < "$plan/c$a"
            out=$tmp/out
            # timeout makes its own process group and signals all of it; the group's stragglers are killed
            # after. A background job of a script starts with SIGINT ignored: env gives the command it back.
            (cd "$dir" && exec env --default-signal=INT,QUIT timeout --verbose -k 5 "$tmo" \
                bash -c "exec 2>&1; $cmd") > "$out" 2> "$tmp/timeout" < /dev/null &
            child=$!
            wait "$child"
            rc=$?
            kill -KILL -- "-$child" 2>/dev/null
            child=
            bad=0
            said=
            [ -s "$tmp/timeout" ] && said=$(< "$tmp/timeout")
            if [[ $said == "timeout: sending signal"* ]]; then
                echo "$f:$b: timed out after $tmo s (killed)" >&2
                bad=1
            else
                # what bash said before its stderr was joined to stdout (a syntax error on the first line)
                cat "$tmp/timeout" >> "$out"
                if [ -s "$plan/e$a" ]; then
                    awk "$match_awk" "$plan/e$a" "$out" > "$tmp/missing"
                    while IFS=$'\t' read -r mline mtext; do
                        echo "$f:$mline: not printed: $mtext" >&2
                        bad=1
                    done < "$tmp/missing"
                fi
                if [ "$rc" -ne "$c" ]; then
                    echo "$f:$d: exit status $rc, expected $c" >&2
                    bad=1
                fi
            fi
            if [ "$bad" -ne 0 ]; then
                echo "$f:$b: the output of \$ ${cmd%%$'\n'*} (exit $rc):" >&2
                show "$out"
                failed=1
                break
            fi
            ncmds=$((ncmds + 1)) ;;
        esac
    done < "$plan/index"
    if [ -n "$dir" ]; then
        rm -rf "$dir" 2>/dev/null || { chmod -R u+rwx "$dir" 2>/dev/null; rm -rf "$dir"; }
    fi
    tblocks=$((tblocks + nblocks)) tskipped=$((tskipped + nskipped)) tcmds=$((tcmds + ncmds))
    sk=
    [ "$nskipped" -gt 0 ] && sk=" ($nskipped skipped)"
    if [ "$failed" -ne 0 ]; then
        echo "docs: $f: FAILED after $(plural "$ncmds" command) ok (the rest of the document not run)"
        nfailed=$((nfailed + 1))
    else
        echo "docs: $f: $(plural "$nblocks" block)$sk, $(plural "$ncmds" command) ok"
    fi
done
sk=
[ "$tskipped" -gt 0 ] && sk=" ($tskipped skipped)"
if [ "$nfailed" -gt 0 ]; then
    echo "docs: $nfailed of $(plural "$ndocs" document) FAILED"
    exit 1
fi
echo "docs: $(plural "$ndocs" document), $(plural "$tblocks" block)$sk, $(plural "$tcmds" command) ok"
exit 0
