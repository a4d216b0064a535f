#!/bin/bash
# check_manpage.sh - the man page and bash completion know every command and option the binary's --help lists.
#
#   scripts/check_manpage.sh [PTOSIM [MANPAGE [COMPLETION]]]   (build/ptosim sim/ptosim.1 sim/ptosim.bash)
#
# The commands are the words of `PTOSIM --help`'s "commands:" list; a command's options are those of its
# option table, as the hidden `PTOSIM __options COMMAND` lists them, or for a command without a table the -x
# and --long words of the option column (the lines indented by 2 or 4 that start with -) of
# `PTOSIM COMMAND --help` (help's are ptosim --help's own). Each command must have a `.B COMMAND` line in MANPAGE and each option
# must be written somewhere in it (\-\- as --); COMPLETION, sourced in bash, must offer each command after
# `ptosim ` and `ptosim help ` and each option of a command after `ptosim COMMAND -`, also with an argument
# before it: a kind of `ptosim gen --help`'s "kinds:" list, as itself and as gen:KIND (sweep's --gen-PARAM
# stands for any --gen- word). Exits 1 naming each one missing, 2 when PTOSIM --help cannot be run.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
export LC_ALL=C
case ${1:-} in
-h|--help)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0 ;;
-*)
    echo "usage: scripts/check_manpage.sh [PTOSIM [MANPAGE [COMPLETION]]]" >&2
    exit 2 ;;
esac
bin=${1:-build/ptosim}
man=${2:-sim/ptosim.1}
comp=${3:-sim/ptosim.bash}
case $bin in */*) ;; *) bin=./$bin ;; esac
for f in "$man" "$comp"; do
    if [ ! -f "$f" ]; then
        echo "check_manpage: $f: no such file" >&2
        exit 2
    fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptosim-manpage.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# gethelp NAME ARGS...: PTOSIM ARGS --help into $tmp/help.NAME, or exit 2 saying why
gethelp()
{
    local name=$1
    shift
    if ! "$bin" "$@" --help > "$tmp/help.$name" 2> "$tmp/err"; then
        echo "check_manpage: $bin ${*:+$* }--help failed:" >&2
        cat "$tmp/err" >&2
        exit 2
    fi
}
gethelp top
# listed: the first words of the lines indented by 2 below "LABEL:", up to a blank line
listed()
{
    awk -v label="$1:" '$0 == label { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }' "$2"
}
mapfile -t commands < <(listed commands "$tmp/help.top")
if [ ${#commands[@]} -eq 0 ]; then
    echo "check_manpage: $bin --help lists no commands" >&2
    exit 2
fi
for c in "${commands[@]}"; do
    [ "$c" = help ] || gethelp "$c" "$c"
done
kinds=()
if [ -f "$tmp/help.gen" ]; then
    mapfile -t kinds < <(listed kinds "$tmp/help.gen")
fi

# every option as COMMAND<TAB>OPTION ("" for ptosim --help's own), in the order the helps list them
read -r -d '' options_awk <<'EOF'
FNR == 1 { cmd = FILENAME; sub(/^.*\/help\./, "", cmd); if (cmd == "top") cmd = "" }
/^(  |    )-/ {
    col = $0
    sub(/^ +/, "", col)
    p = index(col, "  ")
    if (p) col = substr(col, 1, p - 1)
    n = split(col, w, /[ ,]+/)
    for (i = 1; i <= n; i++) {
        o = w[i]
        if (o !~ /^-/) continue
        sub(/[=[].*$/, "", o)
        if (o ~ /^--?[A-Za-z0-9][A-Za-z0-9-]*$/ && !((cmd, o) in seen)) { seen[cmd, o] = 1; print cmd "\t" o }
    }
}
EOF
# a command with an option table: its names from the table (--cfg= as --cfg), in the table's order
helps=("$tmp/help.top") tabled=()
for c in "${commands[@]}"; do
    [ "$c" = help ] && continue
    if "$bin" __options "$c" > "$tmp/table.$c" 2> /dev/null; then
        tabled+=("$c")
    else
        helps+=("$tmp/help.$c")
    fi
done
awk "$options_awk" "${helps[@]}" > "$tmp/options"
for c in "${tabled[@]}"; do
    awk -v cmd="$c" '{ sub(/=$/, ""); if (!seen[$0]++) print cmd "\t" $0 }' "$tmp/table.$c" >> "$tmp/options"
done
printf '%s\n' "${commands[@]}" > "$tmp/commands"

# The man page: every -x/--long word of its text (roff's \- read as -, font changes dropped) and every
# command of a `.B [ptosim ]COMMAND` line. Prints what it lacks, an option once with the commands listing it.
read -r -d '' man_awk <<'EOF'
FILENAME == ARGV[1] {
    if ($0 ~ /^\.\\"/) next
    s = $0
    gsub(/\\-/, "-", s)
    gsub(/\\f(\(..|\[[^]]*\]|.)/, "", s)
    if (s ~ /^\.B /) { split(s, w, / +/); cmds[w[2] == "ptosim" ? w[3] : w[2]] = 1 }
    s = " " s
    while (match(s, /[^A-Za-z0-9-]--?[A-Za-z0-9][A-Za-z0-9-]*/)) {
        have[substr(s, RSTART + 1, RLENGTH - 1)] = 1
        s = substr(s, RSTART + RLENGTH)
    }
    next
}
FILENAME == ARGV[2] {
    if (!($0 in cmds)) printf "%s: command %s of ptosim --help is not in the man page\n", man, $0
    next
}
{
    split($0, f, "\t")
    if (f[2] in have) next
    # (mawk makes who[x] before it reads the right-hand side of who[x] = ...)
    if (f[2] in who) w1 = who[f[2]] ", " f[1]
    else { order[++n] = f[2]; w1 = f[1] }
    who[f[2]] = w1
}
END {
    for (i = 1; i <= n; i++) {
        o = order[i]
        printf "%s: option %s of ptosim%s is not in the man page\n", man, o, who[o] == "" ? "" : " " who[o]
    }
}
EOF
awk -v man="$man" "$man_awk" "$man" "$tmp/commands" "$tmp/options" > "$tmp/bad"

# The completion, sourced into one bash: what it offers for each query, as QUERY<TAB>WORD
read -r -d '' comp_sh <<'EOF'
comp=$1 bin=$2
shift 2
. "$comp" || exit 1
# q KEY WORDS...: complete the last word of `ptosim WORDS...`
q()
{
    local key=$1 w
    shift
    COMP_WORDS=("$bin" "$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _ptosim
    for w in "${COMPREPLY[@]}"; do printf '%s\t%s\n' "$key" "$w"; done
}
commands=() kinds=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do commands+=("$1"); shift; done
shift
kinds=("$@")
q top ""
q help help ""
for c in "${commands[@]}"; do
    [ "$c" = help ] && continue
    q "$c" "$c" -
    for k in "${kinds[@]}"; do
        q "$c" "$c" "$k" -
        q "$c" "$c" "gen:$k" -
    done
done
EOF
if ! bash -c "$comp_sh" check_manpage "$comp" "$bin" "${commands[@]}" -- "${kinds[@]}" > "$tmp/offers" \
    2> "$tmp/err" < /dev/null; then
    echo "check_manpage: sourcing $comp failed:" >&2
    cat "$tmp/err" >&2
    exit 2
fi

# What the completion lacks: each command after `ptosim ` and `ptosim help `, each option after
# `ptosim COMMAND -` (ptosim --help's own after `ptosim `); an option with capitals stands for any word
# beginning with what comes before them.
read -r -d '' comp_awk <<'EOF'
FILENAME == ARGV[1] {
    split($0, f, "\t")
    sub(/=$/, "", f[2])   # --cfg=: a value attached
    offer[f[1], f[2]] = 1
    if (f[2] ~ /^-/) pre[f[1]] = pre[f[1]] " " f[2]
    next
}
FILENAME == ARGV[2] {
    if (!(("top", $0) in offer)) printf "%s: ptosim <TAB> does not offer %s\n", comp, $0
    if ($0 != "help" && !(("help", $0) in offer)) printf "%s: ptosim help <TAB> does not offer %s\n", comp, $0
    next
}
{
    split($0, f, "\t")
    key = f[1] == "" ? "top" : f[1]
    o = f[2]
    if ((key, o) in offer) next
    if (match(o, /[A-Z]/)) {
        p = substr(o, 1, RSTART - 1)
        if (index(pre[key] " ", " " p) && p != "") next
    }
    printf "%s: ptosim %s%s does not offer %s\n", comp, f[1] == "" ? "" : f[1] " ", \
        f[1] == "" ? "<TAB>" : "-<TAB>", o
}
EOF
awk -v comp="$comp" "$comp_awk" "$tmp/offers" "$tmp/commands" "$tmp/options" >> "$tmp/bad"

nopts=0
while read -r _; do nopts=$((nopts + 1)); done < "$tmp/options"
if [ -s "$tmp/bad" ]; then
    cat "$tmp/bad" >&2
    nbad=0
    while read -r _; do nbad=$((nbad + 1)); done < "$tmp/bad"
    echo "manpage: $nbad missing from $man or $comp"
    exit 1
fi
echo "manpage: ${#commands[@]} commands and $nopts options of $bin in $man and $comp"
exit 0
