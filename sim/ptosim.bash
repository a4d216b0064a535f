# ptosim.bash - bash completion for ptosim, installed by `make install`.
# The binary answers (`ptosim __complete`, a hidden command reading the option tables that the commands'
# parsing and --help read); a word it has no answer for completes as a file name.

# Turns the lines of `ptosim __complete` into COMPREPLY: "word W" is W, "files [GLOB]" and "folders" the
# names compgen finds for $cur.
_ptosim_answer()
{
    local line x='!' v=$cur
    [ "$v" = "=" ] && v= # the word after bash split --x=V at '='
    while IFS= read -r line; do
        case $line in
        "word "*) COMPREPLY+=("${line#word }") ;;
        files) COMPREPLY+=($(compgen -f -- "$v")) ;;
        "files "*) COMPREPLY+=($(compgen -f -X "$x${line#files }" -- "$v")) ;;
        folders) COMPREPLY+=($(compgen -d -- "$v")) ;;
        esac
    done <<< "$1"
}

_ptosim()
{
    local cur answer
    cur=${COMP_WORDS[COMP_CWORD]}
    COMPREPLY=()
    if answer=$("${COMP_WORDS[0]}" __complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null); then
        _ptosim_answer "$answer"
        # an option whose value is attached (--cfg=): no space after it
        [ ${#COMPREPLY[@]} -eq 1 ] && [[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _ptosim ptosim
