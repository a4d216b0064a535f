/* progress.c - a progress line on stderr for long runs and long work (compiles), as stderr allows. */
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../model/engine/chip_engine.h"

static double host_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(progress *p, const char *graph_path)
{
    p->on = isatty(STDERR_FILENO);
    p->shown = false;
    p->start = p->last = host_now();
    const char *env = getenv("PTOSIM_PROGRESS_AFTER_MS");
    p->after = (env && *env ? atof(env) : PROGRESS_AFTER_MS) / 1e3;
    struct stat st;
    p->graph_bytes = stat(graph_path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

void progress_tick(const chip *c, void *arg)
{
    progress *p = arg;
    if (!p->on)
        return;
    double now = host_now(), spent = now - p->start;
    if (spent < p->after || (p->shown && now - p->last < PROGRESS_EVERY_MS / 1e3))
        return;
    p->last = now;
    p->shown = true;
    /* the graph is streamed: how far the orchestrator has read it is the best
     * measure of how much is left */
    double read = p->graph_bytes && c->orch.op ? (double)c->orch.op->byte_end / (double)p->graph_bytes : 0;
    fprintf(stderr, "\r\033[K  tasks %llu/%llu completed, simulated %.3f ms, %.0f tasks/s",
            (unsigned long long)c->tasks_completed, (unsigned long long)c->tasks_submitted,
            (double)c->now / 1e9, (double)c->tasks_completed / spent);
    if (read > 0.001 && read <= 1)
        fprintf(stderr, ", graph %.0f%% read, ETA %.0f s", read * 100, spent * (1 - read) / read);
    fflush(stderr);
}

void progress_end(progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = false;
}

progress_mode progress_mode_of(bool quiet)
{
    return quiet ? PROGRESS_QUIET : isatty(STDERR_FILENO) ? PROGRESS_TERMINAL : PROGRESS_LINES;
}

double progress_now(void)
{
    return host_now();
}

void progress_redraw(const char *fmt, ...)
{
    fputs("\r\033[K", stderr);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fflush(stderr);
}
