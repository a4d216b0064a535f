/* stop_signal.h - intr_: SIGINT and SIGTERM as requests to stop: recorded, then acted on where it is safe. */
#ifndef PTOSIM_STOP_SIGNAL_H
#define PTOSIM_STOP_SIGNAL_H

#include <signal.h>
#include <stdbool.h>

/* Installs the handlers (again after SimGrid's simgrid_init put its own on
 * SIGINT). A signal only sets a flag; a second one ends the process with the
 * signal's default action, for a run that does not stop. */
void intr_install(void);

/* The signal received (SIGINT or SIGTERM), or 0. */
int intr_signal(void);

/* The flag itself, non-zero once a signal came, for loops in model/ (which know nothing of signals). */
const volatile sig_atomic_t *intr_flag(void);

/* Holds SIGINT and SIGTERM back (true) or lets them through (false), so a
 * short critical step (renaming a run's files into place) is never cut. */
void intr_hold(bool hold);

/* Has fn run when the process aborts (SIGABRT: SimGrid ends the process with abort() on some of its own
 * failures, out of memory inside it among them), on a stack of its own (INTR_ABORT_STACK bytes in the
 * program's image): under an address-space limit (ulimit -v) the stack in use cannot grow once memory is
 * gone, and a handler run on it died of SIGSEGV (status 139) instead of ending in the abort. fn runs once;
 * the abort's default action is back when it returns. */
void intr_on_abort(void (*fn)(int));

/* Puts intr_on_abort's stack back as the alternate signal stack: simgrid_init installs a smaller one of
 * its own (for its SIGSEGV handler, which runs on this one then). */
void intr_abort_stack(void);

/* The exit status of a command stopped by signal sig: 128 + sig (130, 143). */
int intr_status(int sig);

/* "SIGINT" or "SIGTERM". */
const char *intr_name(int sig);

#endif
