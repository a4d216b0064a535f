#!/bin/sh
# fakecxx.sh - a stand-in C++ compiler for ptosim's Perf-Sim tests where pto-isa is not needed: it takes the
# harness's command line, writes the dep file, and "compiles" a script that answers every signature with the
# figures on the kernel's "// fake: TOTAL INSTR SYNC SCALAR MTE2 MTE1 CUBE FIXP VEC MTE3 GM_MTE2 GM_MTE3
# GM_FIXP" line; its dep file names the kernel and the trees' launch.hpp, pipe_sync.h and tensor.h, as the
# harness's includes would. A kernel holding FAKE_COMPILE_ERROR fails as a kernel error, FAKE_TREE_ERROR as an error
# inside the pto-isa tree; FAKE_COMPILE_HANG never ends compiling, FAKE_RUN_HANG compiles to a run that never
# ends (each process of a hang, a shell and its sleep, writes its pid to $FAKE_PIDS); FAKE_RUN_FDS runs list
# what their open files are to $FAKE_FDS. While $FAKE_RUN_FAIL is set, a kernel holding FAKE_RUN_SEGV compiles
# to a run killed by SIGSEGV, FAKE_RUN_EXIT to one that exits 3 with a message, FAKE_RUN_NORESULT to one that
# exits 0 writing no results. $FAKE_SPEC, when set, gets every spec a run reads. The dep file's names
# are escaped as clang writes them ('$' as '$$', '#' as '\#', a space as '\ '). $FAKECXX_LOG counts
# compiles, $FAKERUN_LOG runs.
set -eu
if [ -n "${FAKECXX_LOG:-}" ]; then echo compile >> "$FAKECXX_LOG"; fi
kernel="" dep="" out="" src="" pto="" rt=""
while [ $# -gt 0 ]; do
    case "$1" in
    -DPTOSIM_KERNEL=*) kernel=${1#-DPTOSIM_KERNEL=\"}; kernel=${kernel%\"} ;;
    -MF) dep=$2; shift ;;
    -o) out=$2; shift ;;
    -I*/include/pto/costmodel/stubs) pto=${1#-I}; pto=${pto%/include/pto/costmodel/stubs} ;;
    -I*/simpler_setup/incore) rt=${1#-I}; rt=${rt%/simpler_setup/incore} ;;
    -include) shift ;;
    -*) ;;
    *) src=$1 ;;
    esac
    shift
done
if grep -q FAKE_COMPILE_ERROR "$kernel"; then
    echo "$kernel:3:1: error: fake failure" >&2
    exit 1
fi
if grep -q FAKE_TREE_ERROR "$kernel"; then
    echo "In file included from $src:2:" >&2
    echo "$pto/include/pto/common/type.hpp:9:5: error: no member named 'kMicrosPerSecond'" >&2
    exit 1
fi
if grep -q FAKE_COMPILE_HANG "$kernel"; then
    echo $$ >> "$FAKE_PIDS"
    sleep 1000 &
    echo $! >> "$FAKE_PIDS"
    wait
fi
esc() { printf '%s' "$1" | sed -e 's/\$/$$/g' -e 's/#/\\#/g' -e 's/ /\\ /g'; }
figures=$(sed -n 's|^// fake: ||p' "$kernel")
printf '%s: %s %s \\\n %s %s %s\n' "$(esc "$out")" "$(esc "$src")" "$(esc "$kernel")" \
    "$(esc "$pto/include/pto/costmodel/perf_sim/launch.hpp")" "$(esc "$rt/simpler_setup/incore/pipe_sync.h")" \
    "$(esc "$rt/src/common/task_interface/tensor.h")" > "$dep"
if grep -q FAKE_RUN_HANG "$kernel"; then
    printf '#!/bin/sh\necho $$ >> "$FAKE_PIDS"\nsleep 1000 &\necho $! >> "$FAKE_PIDS"\nwait\n' > "$out"
    chmod +x "$out"
    exit 0
fi
fail=""
if grep -q FAKE_RUN_SEGV "$kernel"; then
    fail='if [ -n "${FAKE_RUN_FAIL:-}" ]; then kill -SEGV $$; fi'
elif grep -q FAKE_RUN_EXIT "$kernel"; then
    fail='if [ -n "${FAKE_RUN_FAIL:-}" ]; then echo "fake harness: bad tensor line" >&2; exit 3; fi'
elif grep -q FAKE_RUN_NORESULT "$kernel"; then
    fail='if [ -n "${FAKE_RUN_FAIL:-}" ]; then exit 0; fi'
fi
fds=""
if grep -q FAKE_RUN_FDS "$kernel"; then
    fds='for f in /proc/$$/fd/*; do readlink "$f"; done >> "$FAKE_FDS"'
fi
cat > "$out" <<EOS
#!/bin/sh
if [ -n "\${FAKERUN_LOG:-}" ]; then echo run >> "\$FAKERUN_LOG"; fi
$fail
$fds
if [ -n "\${FAKE_SPEC:-}" ]; then tee -a "\$FAKE_SPEC"; else cat; fi | while read -r w id rest; do
    case "\$w" in
    sig) cur=\$id ;;
    go) echo "r \$cur $figures" >> "\$1" ;;
    esac
done
EOS
chmod +x "$out"
