#!/bin/sh
# check_citations.sh - every "FILE.md §N" citation in the tree names a file of the repository and a
# section that file has: a numbered heading "N" ("## 4. ..." or "### 4.2 ...") or a quoted heading
# title (the § followed by the heading's words in double quotes). Run by `make check`; exits 1 naming
# each citation that does not resolve.
set -u
cd "$(dirname "$0")/.."
files=$(git ls-files 2>/dev/null || find . -type f -not -path './build/*' -not -path './.git/*' | sed 's|^\./||')
bad=0
# every citation: path, file:line and the section as written
for f in $files; do
    case "$f" in tests/real/*|build/*) continue ;; esac
    [ -f "$f" ] || continue
    grep -noE '[A-Za-z0-9_./-]+\.md §("[^"]+"|[0-9]+(\.[0-9]+)*)' "$f" 2>/dev/null | while IFS= read -r hit; do
        line=${hit%%:*}
        cite=${hit#*:}
        doc=${cite% §*}
        sec=${cite#* §}
        # a bare name is the file of that name at the top or in model/ or traces/
        path=$doc
        [ -f "$path" ] || path=$(dirname "$f")/$doc
        if [ ! -f "$path" ]; then
            echo "$f:$line: $cite: no file $doc in the repository"
            continue
        fi
        case "$sec" in
        \"*\")
            title=${sec#\"}
            title=${title%\"}
            grep -qE "^#+ (.*[^A-Za-z])?$(printf '%s' "$title" | sed 's/[][\.*^$/]/\\&/g')" "$path" ||
                echo "$f:$line: $cite: $path has no section titled \"$title\""
            ;;
        *)
            grep -qE "^#+ $(printf '%s' "$sec" | sed 's/\./\\./g')(\.| )" "$path" ||
                echo "$f:$line: $cite: $path has no section $sec"
            ;;
        esac
    done
done > /tmp/ptosim-citations.$$
if [ -s /tmp/ptosim-citations.$$ ]; then
    cat /tmp/ptosim-citations.$$ >&2
    echo "$(wc -l < /tmp/ptosim-citations.$$) citations do not resolve" >&2
    bad=1
fi
rm -f /tmp/ptosim-citations.$$
exit $bad
