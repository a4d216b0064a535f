#!/bin/sh
# Installs the build and test dependencies of ptosim on Debian (SimGrid, cJSON, Check, zlib, pkg-config; Chromium with
# --chromium; Slurm, munge, sshd and GNU parallel with --cluster; clang and libFuzzer with --fuzz).
#
#   scripts/install-deps.sh             what `make` needs to build
#   scripts/install-deps.sh --chromium  also headless Chromium, which `make check` renders `ptosim report` pages with
#   scripts/install-deps.sh --cluster   also slurm-wlm, munge, openssh-server and parallel, for the cluster tests
#   scripts/install-deps.sh --fuzz      also clang with libFuzzer, for `make fuzz`
#   scripts/install-deps.sh --perfsim   also clang++-19, which compiles kernels under pto-isa's Perf-Sim
set -eu
# `make -j` runs the Chromium and cluster checks side by side, and two apt-gets at once fail on apt's lock: one
# install at a time, each deciding what is missing only once it holds the lock
if [ -z "${PTOSIM_DEPS_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
    PTOSIM_DEPS_LOCKED=1 exec flock "${TMPDIR:-/tmp}/ptosim-install-deps.lock" sh "$0" "$@"
fi
want_chromium=0
want_cluster=0
want_fuzz=0
want_perfsim=0
for a in "$@"; do
    case "$a" in
    --chromium) want_chromium=1 ;;
    --cluster) want_cluster=1 ;;
    --fuzz) want_fuzz=1 ;;
    --perfsim) want_perfsim=1 ;;
    *)
        echo "usage: scripts/install-deps.sh [--chromium] [--cluster] [--fuzz] [--perfsim]" >&2
        exit 2
        ;;
    esac
done
missing=""
pkgs=""
for pc in simgrid libcjson check zlib; do
    if ! pkg-config --exists "$pc" 2>/dev/null; then missing="$missing $pc"; fi
done
if ! command -v pkg-config >/dev/null 2>&1 || [ -n "$missing" ]; then
    missing="${missing:- pkg-config}"
    pkgs=" libsimgrid-dev libcjson-dev check zlib1g-dev pkg-config"
fi
if [ "$want_chromium" -eq 1 ] && ! command -v chromium >/dev/null 2>&1; then
    missing="$missing chromium"
    # a font, so the text of a rendered page has glyphs on a machine without any
    pkgs="$pkgs chromium fonts-dejavu-core"
fi
# the daemons and clients the cluster tests run (tests/cluster/)
cluster_tools="slurmctld slurmd sbatch munged mungekey sshd parallel ps pgrep"
# cluster_missing: prints the tools not installed; true when there is one
cluster_missing() {
    gone=""
    for t in $cluster_tools; do
        command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || gone="$gone $t"
    done
    printf '%s' "$gone"
    [ -n "$gone" ]
}
if [ "$want_cluster" -eq 1 ] && gone=$(cluster_missing); then
    missing="$missing$gone"
    pkgs="$pkgs slurm-wlm munge openssh-server parallel procps"
fi
# libFuzzer ships with clang's runtime libraries: link a one-line target to see that both are there
fuzz_ok() {
    command -v clang >/dev/null 2>&1 || return 1
    t=$(mktemp -d)
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$t/f.c"
    clang -fsanitize=fuzzer,address,undefined -o "$t/f" "$t/f.c" >/dev/null 2>&1
    ok=$?
    rm -rf "$t"
    return $ok
}
if [ "$want_fuzz" -eq 1 ] && ! fuzz_ok; then
    missing="$missing clang/libFuzzer"
    pkgs="$pkgs clang libclang-rt-dev"
fi
# pto-isa's costmodel needs C++23 (shared/spec/perfsim.md: clang++-19 is what worked)
if [ "$want_perfsim" -eq 1 ] && ! command -v clang++-19 >/dev/null 2>&1; then
    missing="$missing clang++-19"
    pkgs="$pkgs clang-19"
fi
if [ -z "$pkgs" ]; then
    exit 0
fi
echo "install-deps: installing$pkgs (missing:$missing)" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# apt would start the packages' own daemons (munged, slurmd, sshd on port 22) where nothing forbids it; the
# cluster tests start their own, so none is started here
policy=/usr/sbin/policy-rc.d
if [ "$want_cluster" -eq 1 ] && [ ! -e "$policy" ]; then
    $SUDO sh -c "printf '#!/bin/sh\nexit 101\n' > $policy && chmod 755 $policy"
    policy_made=1
fi
# another apt or dpkg (unattended-upgrades, a package manager window) may hold the lock: wait for it, up to
# PTOSIM_APT_LOCK_WAIT seconds (600), polling every PTOSIM_APT_LOCK_POLL (5), rather than fail at once
wait_s=${PTOSIM_APT_LOCK_WAIT:-600}
poll_s=${PTOSIM_APT_LOCK_POLL:-5}
case "$wait_s$poll_s" in
'' | *[!0-9]*)
    echo "install-deps: PTOSIM_APT_LOCK_WAIT and PTOSIM_APT_LOCK_POLL are whole seconds, got '$wait_s' and" \
        "'$poll_s'" >&2
    exit 2
    ;;
esac
[ "$poll_s" -ge 1 ] || poll_s=1
errf=$(mktemp)
trap 'rm -f "$errf"; [ -n "${policy_made:-}" ] && $SUDO rm -f "$policy"' EXIT
apt_run() {
    waited=0
    while :; do
        if $SUDO apt-get "$@" 2>"$errf"; then
            return 0
        fi
        if ! grep -q -e 'Could not get lock' -e 'Unable to acquire' -e 'Unable to lock' "$errf"; then
            cat "$errf" >&2
            return 1
        fi
        if [ "$waited" -ge "$wait_s" ]; then
            echo "install-deps: another apt or dpkg still holds its lock after ${wait_s} s (set" \
                "PTOSIM_APT_LOCK_WAIT to wait longer): $(grep -m1 -e 'lock' "$errf")" >&2
            return 1
        fi
        if [ "$waited" -eq 0 ]; then
            echo "install-deps: another apt or dpkg holds its lock; waiting up to ${wait_s} s" >&2
        fi
        sleep "$poll_s"
        waited=$((waited + poll_s))
    done
}
apt_run update -qq
# shellcheck disable=SC2086 # the package list is meant to split
apt_run install -y -qq --no-install-recommends $pkgs >/dev/null
if [ "$want_chromium" -eq 1 ] && ! command -v chromium >/dev/null 2>&1; then
    echo "install-deps: chromium is still not on PATH after apt-get install chromium" >&2
    exit 1
fi
if [ "$want_cluster" -eq 1 ] && gone=$(cluster_missing); then
    echo "install-deps:$gone still missing after apt-get install" >&2
    exit 1
fi
if [ "$want_perfsim" -eq 1 ] && ! command -v clang++-19 >/dev/null 2>&1; then
    echo "install-deps: clang++-19 is still not on PATH after apt-get install clang-19" >&2
    exit 1
fi
if [ "$want_fuzz" -eq 1 ] && ! fuzz_ok; then
    echo "install-deps: clang cannot link a libFuzzer target after apt-get install clang libclang-rt-dev" >&2
    exit 1
fi
