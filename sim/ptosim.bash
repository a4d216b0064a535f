# ptosim.bash - bash completion for ptosim, installed by `make install`.
# The binary answers for the commands with an option table (`ptosim __complete`, a hidden command reading
# the same tables as their parsing and --help); the others are completed here until they have one.

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
    local cur prev cmd answer
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    COMPREPLY=()
    if answer=$("${COMP_WORDS[0]}" __complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null); then
        _ptosim_answer "$answer"
        # an option whose value is attached (--cfg=): no space after it
        [ ${#COMPREPLY[@]} -eq 1 ] && [[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return
    fi
    case "$cmd" in
    gen)
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "chain fan forkjoin granularity bgemm paged_attention decode_layer random" -- "$cur"))
            return
        fi
        if [[ "$cur" == -* ]]; then
            # the generator's own parameters, as its --help lists them
            local params
            params=$("${COMP_WORDS[0]}" gen "${COMP_WORDS[2]}" --help 2>/dev/null |
                sed -n 's/^    \(--[a-z0-9-]*\) .*/\1/p')
            COMPREPLY=($(compgen -W "$params -h --help" -- "$cur"))
            return
        fi ;;
    report|overhead)
        if [[ "$cur" == -* ]]; then
            local opts="-h --help"
            [ "$cmd" = overhead ] && opts="$opts --deps-json"
            COMPREPLY=($(compgen -W "$opts" -- "$cur"))
            return
        fi
        COMPREPLY=($(compgen -d -- "$cur"))
        return ;;
    esac
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _ptosim ptosim
