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
    case "$prev" in
    -p|--platform)
        COMPREPLY=($(compgen -W "a2a3 a2a3_2606 a2a3sim" -- "$cur") $(compgen -f -X '!*.json' -- "$cur"))
        return ;;
    -o|--work-dir|--resume|--collect|--best)
        COMPREPLY=($(compgen -d -- "$cur"))
        return ;;
    --perfetto)
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    --engine)
        COMPREPLY=($(compgen -W "local slurm parallel" -- "$cur"))
        return ;;
    --costs)
        COMPREPLY=($(compgen -W "model swimlane" -- "$cur") $(compgen -f -- "$cur"))
        return ;;
    esac
    case "$cmd" in
    sweep)
        if [ "$COMP_CWORD" -eq 2 ] && [[ "$cur" == g* ]]; then
            # a generated graph: gen:KIND
            COMPREPLY=($(compgen -W "gen:chain gen:fan gen:forkjoin gen:granularity gen:bgemm gen:paged_attention
                gen:decode_layer gen:random" -- "$cur") $(compgen -f -- "$cur"))
            return
        fi
        if [[ "$cur" == -* ]]; then
            local more="--resume -j --jobs --engine --parallel-args -S --sshlogin --point --collect --best"
            # with GRAPH gen:KIND, the generator's parameters as --gen-PARAM
            if [[ "${COMP_WORDS[2]}" == gen:* ]]; then
                more="$more $("${COMP_WORDS[0]}" gen "${COMP_WORDS[2]#gen:}" --help 2>/dev/null |
                    sed -n 's/^    --\([a-z0-9-]*\) .*/--gen-\1/p')"
            fi
            # the run options a sweep passes on, as the binary completes them for run
            _ptosim_answer "$("${COMP_WORDS[0]}" __complete "$COMP_CWORD" "${COMP_WORDS[0]}" run \
                "${COMP_WORDS[@]:2}" 2>/dev/null)"
            COMPREPLY+=($(compgen -W "$more" -- "$cur"))
            [ ${#COMPREPLY[@]} -eq 1 ] && [[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
            return
        fi ;;
    import)
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "--costs --kernels --kernel --values --pto-isa --runtime-include --cache
                --shared-cache --time-limit -j --fallback -h --help" -- "$cur"))
            return
        fi
        case "$prev" in
        --costs) COMPREPLY=($(compgen -W "swimlane model perf-sim" -f -- "$cur")); return ;;
        --fallback) COMPREPLY=($(compgen -W "model" -- "$cur")); return ;;
        --kernels|--values) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        esac
        COMPREPLY=($(compgen -d -- "$cur"))
        return ;;
    conform)
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "-h --help -o --work-dir -p --platform" -- "$cur"))
            return
        fi
        COMPREPLY=($(compgen -d -- "$cur"))
        return ;;
    esac
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _ptosim ptosim
