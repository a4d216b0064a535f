# ptosim.bash - bash completion for ptosim, installed by `make install`.
_ptosim()
{
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "run tune sweep validate import conform gen params report overhead help --help --version" -- "$cur"))
        return
    fi
    if [ "$cmd" = help ]; then
        [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "run tune sweep validate import conform gen params report overhead" -- "$cur"))
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
    run|tune|sweep)
        if [ "$cmd" = sweep ] && [ "$COMP_CWORD" -eq 2 ] && [[ "$cur" == g* ]]; then
            # a generated graph: gen:KIND
            COMPREPLY=($(compgen -W "gen:chain gen:fan gen:forkjoin gen:granularity gen:bgemm gen:paged_attention
                gen:decode_layer gen:random" -- "$cur") $(compgen -f -- "$cur"))
            return
        fi
        if [[ "$cur" == -* ]]; then
            local more=""
            [ "$cmd" = sweep ] && more="--resume -j --jobs --engine --parallel-args -S --sshlogin --point
                --collect --best"
            # with GRAPH gen:KIND, the generator's parameters as --gen-PARAM
            if [ "$cmd" = sweep ] && [[ "${COMP_WORDS[2]}" == gen:* ]]; then
                more="$more $("${COMP_WORDS[0]}" gen "${COMP_WORDS[2]#gen:}" --help 2>/dev/null |
                    sed -n 's/^    --\([a-z0-9-]*\) .*/--gen-\1/p')"
            fi
            [ "$cmd" = tune ] && more="--max-trials"
            COMPREPLY=($(compgen -W "-o --work-dir -p --platform --enable-chip-swimlane --enable-dep-gen
                --enable-scope-stats --enable-pmu --dump-args --ring-task-window --ring-heap --ring-dep-pool
                --aicpu-thread-num --op-execute-timeout-us --stream-sync-timeout-ms --scheduler-timeout-ms
                --set --kernel-set --seed --repeat --quiet --summary-csv --no-host-timing --perfetto --enable-perfetto -h --help
                --cfg= --log= $more" -- "$cur"))
            # SimGrid's --cfg= and --log= take their value attached
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
    conform|report|overhead|validate|params)
        if [[ "$cur" == -* ]]; then
            local opts="-h --help"
            [ "$cmd" = conform ] && opts="$opts -o --work-dir -p --platform"
            [ "$cmd" = overhead ] && opts="$opts --deps-json"
            [ "$cmd" = params ] && opts="$opts -p --platform"
            COMPREPLY=($(compgen -W "$opts" -- "$cur"))
            return
        fi
        [ "$cmd" = validate ] && { COMPREPLY=($(compgen -f -- "$cur")); return; }
        COMPREPLY=($(compgen -d -- "$cur"))
        return ;;
    esac
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _ptosim ptosim
