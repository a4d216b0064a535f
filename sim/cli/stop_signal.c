/* stop_signal.c - intr_: SIGINT/SIGTERM handlers that only record the signal. */
/* The program stops at its next check. */
#include "stop_signal.h"

#include <pthread.h>
#include <string.h>

static volatile sig_atomic_t got; /* the signal received, 0 = none */

static void on_signal(int sig)
{
    if (got) { /* asked twice: stop now, the default way */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    got = sig;
}

void intr_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* no SA_RESTART: a waitpid or a sleep returns EINTR and sees the flag */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

#define INTR_ABORT_STACK (128 * 1024) /* workdir_abort's walk of the staging folder: 4 KiB a level */

void intr_abort_stack(void)
{
    static _Alignas(16) char stack[INTR_ABORT_STACK]; /* static: there when malloc and mmap are not */
    stack_t ss;
    memset(&ss, 0, sizeof(ss));
    ss.ss_sp = stack;
    ss.ss_size = sizeof(stack);
    sigaltstack(&ss, NULL);
}

void intr_on_abort(void (*fn)(int))
{
    intr_abort_stack();
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = fn;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGABRT, &sa, NULL);
}

int intr_signal(void)
{
    return got;
}

const volatile sig_atomic_t *intr_flag(void)
{
    return &got;
}

void intr_hold(bool hold)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    pthread_sigmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL); /* the reader thread blocks them for good */
}

int intr_status(int sig)
{
    return 128 + sig;
}

const char *intr_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}
