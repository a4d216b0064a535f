/* simgrid_run.h - sgrun_: the SimGrid side (set-up, platform, the chip engine actor, deadlock detection). */
#ifndef PTOSIM_SIMGRID_RUN_H
#define PTOSIM_SIMGRID_RUN_H

#include <stddef.h>

#include "../../model/engine/chip_engine.h"
#include "collector.h"
#define SGRUN_MAX_CFG 64

/* SimGrid settings the run used (ours first, then the user's). */
typedef struct sgrun_cfg {
    const char *items[SGRUN_MAX_CFG]; /* "key:value" */
    int n;
} sgrun_cfg;

/* Outcome of the SimGrid part of a run. */
typedef struct sgrun_result {
    double clock; /* SimGrid's clock when simgrid_run returned, seconds */
    int finished; /* the engine actor reached its end */
} sgrun_result;

/* Body of the engine actor: runs the simulation, sets *finished. */
typedef void (*sgrun_body)(void *data, int *finished);

/* Starts SimGrid with our defaults plus the user's --cfg=/--log= arguments
 * (user_args, NULL-terminated), loads the platform XML, runs body in an actor
 * on the host "aicpu" and returns when SimGrid has nothing left to do.
 * Returns 0, or -1 with a message in err (platform problems, or a SimGrid
 * deadlock: simgrid_run returned before the actor finished). One call per
 * process (SimGrid allows one engine). */
/* Loads the platform XML the way a run would, in a child process (SimGrid aborts on an XML it cannot
 * parse), and checks it has the hosts "aicpu" and "host" and the link "dfx_collector". Returns 0, or -1
 * with err naming the file and what is wrong. */
int sgrun_check_platform(const char *xml_path, char *err, size_t errlen);

/* sgrun_check_platform's return when SimGrid ran out of memory loading a readable file, or crashed loading it
 * without a word on the file (what an allocation it did not check leads to), or could not itself be loaded:
 * not the file's fault. */
#define SGRUN_OOM (-2)

int sgrun_run(const char *xml_path, double collector_bw, const char *const *user_args, sgrun_body body,
              void *data, sgrun_cfg *cfg_used, sgrun_result *res, char *err, size_t errlen);

/* What the engine actor runs: a chip, and (args dump on) the host collector. */
typedef struct sgrun_chip {
    chip *c;              /* the chip */
    collector_stats dump; /* host-side args dump figures */
} sgrun_chip;

/* Body that runs a chip to its end (with the args-dump collector actors
 * when the dump is on) and syncs SimGrid's clock. data is a sgrun_chip *. */
void sgrun_chip_body(void *data, int *finished);

#endif
