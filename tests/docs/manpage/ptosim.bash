# ptosim.bash - a completion that offers every command and option of the stand-in ptosim (tests/test_docs.c)
_ptosim()
{
    local cur=${COMP_WORDS[COMP_CWORD]} opts
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "run sweep gen help --help --version" -- "$cur"))
        return
    fi
    case ${COMP_WORDS[1]} in
    help) opts="run sweep gen" ;;
    run) opts="-o --work-dir --seed --cfg= --log= -h --help" ;;
    sweep)
        opts="-j --jobs"
        [[ ${COMP_WORDS[2]} == gen:* ]] && opts="$opts $("${COMP_WORDS[0]}" gen "${COMP_WORDS[2]#gen:}" --help |
            sed -n 's/^    --\([a-z0-9-]*\) .*/--gen-\1/p')" ;;
    gen)
        [ "$COMP_CWORD" -ge 3 ] && opts=$("${COMP_WORDS[0]}" gen "${COMP_WORDS[2]}" --help |
            sed -n 's/^    \(--[a-z0-9-]*\) .*/\1/p') ;;
    esac
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -F _ptosim ptosim
