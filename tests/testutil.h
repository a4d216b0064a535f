/* testutil.h - helpers shared by the test suites: temp files, running the ptosim binary, reading JSON. */
#ifndef PTOSIM_TESTUTIL_H
#define PTOSIM_TESTUTIL_H

#include <cJSON.h>
#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef PTOSIM_SRCDIR
#define PTOSIM_SRCDIR "."
#endif
#ifndef PTOSIM_BIN /* the Makefile names the binary of the build being tested */
#define PTOSIM_BIN PTOSIM_SRCDIR "/build/ptosim"
#endif
#define TRACE(name) PTOSIM_SRCDIR "/traces/" name

/* Output of one ptosim process. */
typedef struct run_out {
    int status; /* exit status, or 128 + signal */
    char *out;  /* stdout (malloc'd) */
    char *err;  /* stderr (malloc'd) */
} run_out;

/* Makes a fresh temporary directory; returns a static-lifetime copy of its path. */
const char *tu_tmpdir(void);

/* Writes text to dir/name and returns the path (malloc'd). */
char *tu_write(const char *dir, const char *name, const char *text);

/* Copies the file src to dir/name and returns the new path (malloc'd). */
char *tu_copy(const char *dir, const char *name, const char *src);

/* Reads a whole file (malloc'd, NUL-terminated), NULL if missing. */
char *tu_read(const char *path);

/* Runs the ptosim binary with a shell-free argv (NULL-terminated, argv[0] is
 * not needed). */
run_out tu_run(const char *const *args);

/* Runs ptosim as tu_run does, bound by file modes as a user is: as root, without the capabilities that
 * ignore them (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, dropped with setpriv), so a folder of mode 0300 can
 * be written into but not opened for reading. */
run_out tu_run_bound_by_modes(const char *const *args);

/* Runs ptosim as tu_run does with the shared library lib preloaded (LD_PRELOAD), into the processes it
 * starts too; asan_extra (or NULL) is added to ASAN_OPTIONS for that run. */
run_out tu_run_preloaded(const char *const *args, const char *lib, const char *asan_extra);

#ifndef PTOSIM_NOLOCK /* the Makefile names the flock-failing library (tests/oom/nolock.c) of the build */
#define PTOSIM_NOLOCK PTOSIM_SRCDIR "/build/nolock.so"
#endif

#ifndef PTOSIM_LOCKPROBE /* the Makefile names the lock-probing library (tests/oom/lockprobe.c) of the build */
#define PTOSIM_LOCKPROBE PTOSIM_SRCDIR "/build/lockprobe.so"
#endif

/* Runs the program args[0] with argv args (NULL-terminated), no shell. */
run_out tu_run_prog(const char *const *args);

/* Frees a run_out. */
void tu_run_free(run_out *r);

/* Parses a JSON file (caller deletes), failing the test if unreadable. */
cJSON *tu_json_file(const char *path);

/* Does file path exist? */
int tu_exists(const char *path);

/* The runtime's first host line for a latched orchestrator or scheduler code. */
#define TU_ORCH_FAILED(n)                                                                                    \
    "PTO2 runtime failed: orch_error_code=" #n " sched_error_code=0 runtime_status=-" #n "\n"
#define TU_SCHED_FAILED(n)                                                                                   \
    "PTO2 runtime failed: orch_error_code=0 sched_error_code=" #n " runtime_status=-" #n "\n"

/* The usage line a command's usage error (status 2) ends with (main.c's table). */
#define TU_USAGE_RUN "usage: ptosim run GRAPH [GRAPH...] [options] (ptosim run --help)\n"
#define TU_USAGE_TUNE "usage: ptosim tune GRAPH [--max-trials N] [run options] (ptosim tune --help)\n"
#define TU_USAGE_SWEEP                                                                                       \
    "usage: ptosim sweep GRAPH [KNOB LIST ...] [run options] -o DIR | --resume DIR | --collect DIR | --best "  \
    "DIR (ptosim sweep --help)\n"
#define TU_USAGE_CONFORM "usage: ptosim conform CAPTURE_DIR [-o WORKDIR] [-p PLATFORM] (ptosim conform --help)\n"
#define TU_USAGE_REPORT "usage: ptosim report DIR [-o OUT] (ptosim report --help)\n"
#define TU_USAGE_OVERHEAD                                                                                    \
    "usage: ptosim overhead DIR|SWIMLANE.json [--deps-json DEPS.json] (ptosim overhead --help)\n"

/* Does s start with prefix? */
bool tu_starts(const char *s, const char *prefix);

/* Checks that obj's keys are exactly keys[] (NULL-terminated), in order. */
void tu_assert_keys(const cJSON *obj, const char *const *keys, const char *where);

struct chip;
struct chip_config;

/* Validates graph text, builds a chip with a2a3 defaults plus `sets`
 * (KEY=VALUE, NULL-terminated), lets tweak adjust the run configuration, and
 * runs it to its end without SimGrid. */
struct chip *tu_chip(const char *text, const char *const *sets, int swimlane_level,
                     void (*tweak)(struct chip_config *cfg));

/* The first AICore execution of task id (failing the test if none), and its core. */
const struct sl_exec *tu_exec(const struct chip *c, uint64_t id, int *core_out);

/* Frees a chip from tu_chip. */
void tu_chip_free(struct chip *c);

/* The suites. */
Suite *suite_basics(void);
Suite *suite_perfetto(void);
Suite *suite_graph(void);
Suite *suite_platform(void);
Suite *suite_chip(void);
Suite *suite_alone(void);
Suite *suite_e2e(void);
Suite *suite_runcfg(void);
Suite *suite_rings(void);
Suite *suite_deps(void);
Suite *suite_sched(void);
Suite *suite_calib(void);
Suite *suite_ohm(void);
Suite *suite_vary(void);
Suite *suite_perfsim(void);
Suite *suite_pipe(void);
Suite *suite_roofline(void);
Suite *suite_pmu(void);
Suite *suite_hbm(void);
Suite *suite_dump(void);
Suite *suite_import(void);
Suite *suite_install(void);
Suite *suite_kcost(void);
Suite *suite_conform(void);
Suite *suite_jstream(void);
Suite *suite_gen(void);
Suite *suite_worker(void);
Suite *suite_tune(void);
Suite *suite_sweep(void);
Suite *suite_report(void);
Suite *suite_errors(void);
Suite *suite_faults(void);
Suite *suite_cli(void);
Suite *suite_opts(void);
Suite *suite_links(void);
Suite *suite_diff(void);
Suite *suite_mkp(void);
Suite *suite_oom(void);
Suite *suite_docs(void);
Suite *suite_whatif(void);

#endif
