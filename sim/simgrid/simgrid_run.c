/* simgrid_run.c - sgrun_: the SimGrid engine binding; the chip runs as C state machines in one actor. */
/* How the engine runs ahead of SimGrid's clock: model/README.md §1.2. */
#include "simgrid_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../cli/stop_signal.h"
#include "simgrid_calls.h"
#include "simgrid_load.h"

/* Link bandwidths must mean what they say (model/README.md §1.2), and picosecond
 * model times must survive the conversion to seconds (model/README.md §1.3). */
static const char *const DEFAULT_CFG[] = {
    "network/crosstraffic:0",
    "network/bandwidth-factor:1",
    "network/latency-factor:1",
    "surf/precision:1e-12",
};

typedef struct actor_ctx {
    sgrun_body body;
    void *data;
    int finished;
} actor_ctx;

static void engine_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    actor_ctx *ctx = sg_actor_self_get_data();
    ctx->body(ctx->data, &ctx->finished);
}

void sgrun_chip_body(void *data, int *finished)
{
    sgrun_chip *sc = data;
    chip *c = sc->c;
    if (c->dump_on)
        collector_start(c, stderr);
    c->stop = intr_flag();
    chip_run(c);
    if (c->stopped) { /* SIGINT or SIGTERM: the collector's daemons die with this actor */
        *finished = 1;
        return;
    }
    /* the chip ran ahead in C; bring SimGrid's clock to the same instant */
    double end = sec_from_ps(c->end_time);
    if (end > simgrid_get_clock())
        sg_actor_sleep_until(end);
    if (c->dump_on)
        collector_finish(c, &sc->dump);
    *finished = 1;
}

/* The child of sgrun_check_platform: loads the platform as a run would and says what it lacks. SimGrid
 * aborts the process on an XML it cannot parse, which is why this runs in a child of its own. */
static void check_child(const char *xml_path, int fd)
{
    if (dup2(fd, STDERR_FILENO) < 0)
        _exit(3);
    char *argv[] = {"ptosim", "--cfg=network/crosstraffic:0", NULL};
    int argc = 2;
    simgrid_init(&argc, argv);
    simgrid_load_platform(xml_path);
    const char *host = !sg_host_by_name("aicpu") ? "aicpu" : !sg_host_by_name("host") ? "host" : NULL;
    if (host) {
        fprintf(stderr,
                "no host \"%s\" (a platform needs hosts \"aicpu\" and \"host\" and the link "
                "\"dfx_collector\" between them, as platforms/a2a3.xml has)\n",
                host);
        _exit(4);
    }
    /* sg_link_by_name throws for a name it does not have: look through the list instead */
    bool link = false;
    sg_link_t *links = sg_link_list();
    for (size_t i = 0, n = sg_link_count(); links && i < n && !link; i++)
        link = strcmp(sg_link_get_name(links[i]), "dfx_collector") == 0;
    free(links);
    if (!link) {
        fprintf(stderr, "no link \"dfx_collector\" (a platform needs hosts \"aicpu\" and \"host\" and the "
                        "link \"dfx_collector\" between them, as platforms/a2a3.xml has)\n");
        _exit(4);
    }
    _exit(0);
}

int sgrun_check_platform(const char *xml_path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(xml_path, &st) != 0 || !S_ISREG(st.st_mode) || access(xml_path, R_OK) != 0) {
        snprintf(err, errlen, "%s: cannot read the SimGrid platform file (a regular file is needed)",
                 xml_path);
        return -1;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "%s: cannot check the SimGrid platform: %s", xml_path, strerror(errno));
        return -1;
    }
    if (sgload_open(err, errlen) != 0) { /* the machine's state, not the file's fault */
        close(fds[0]);
        close(fds[1]);
        return SGRUN_OOM;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(err, errlen, "%s: cannot check the SimGrid platform: %s", xml_path, strerror(errno));
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        check_child(xml_path, fds[1]);
    }
    close(fds[1]);
    char buf[4096];
    size_t n = 0;
    ssize_t r;
    char sink[512];
    while ((r = read(fds[0], n + 1 < sizeof(buf) ? buf + n : sink,
                     n + 1 < sizeof(buf) ? sizeof(buf) - 1 - n : sizeof(sink))) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        if (n + 1 < sizeof(buf))
            n += (size_t)r; /* what does not fit is read and dropped, so the child never blocks */
    }
    buf[n] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* the file was there and readable a moment ago: SimGrid failing to allocate is the machine's state, not
     * the file's fault. Its signs, looked for on every line before the lines are split below: an uncaught
     * std::bad_alloc, xbt's own allocators' messages (xbt_malloc, xbt_realloc and calloc's), and its XML
     * lexer's (flex: "out of dynamic memory in ...", "out of memory expanding start-condition stack") */
    bool oom = strstr(buf, "bad_alloc") || strstr(buf, "memory allocation error") ||
               strstr(buf, "Memory allocation of ") || strstr(buf, "Memory callocation of ") ||
               strstr(buf, "Memory reallocation of ") || strstr(buf, "out of dynamic memory") ||
               strstr(buf, "out of memory");
    /* what to say: SimGrid's first error line (its text after "/ERROR] "), else the child's own line */
    const char *why = NULL, *own = NULL;
    bool verdict = false; /* a line of SimGrid's ERROR or CRITICAL */
    for (char *line = buf; *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        const char *tag = strstr(line, "/ERROR] "), *crit = strstr(line, "/CRITICAL] ");
        if (!why && tag && !strstr(line, "Exiting now"))
            why = tag + 8;
        if (!why && crit && !strstr(line, "backtrace"))
            why = crit + 11;
        verdict = verdict || tag || crit;
        if (!own && line[0] && line[0] != '[' && line[0] != ' ')
            own = line;
        line = end ? end + 1 : line + strlen(line);
    }
    if (!why)
        why = own;
    /* (or then to open it, which is memory too) */
    if (oom || (why && strstr(why, "Unable to open"))) {
        snprintf(err, errlen, "%s: SimGrid could not load it: out of memory", xml_path);
        return SGRUN_OOM;
    }
    /* SimGrid says what is wrong with a file on an ERROR or CRITICAL line (then aborts), check_child on a
     * line of its own with status 4. A child that ended without either (a segmentation fault, an assertion
     * of its XML lexer: what an allocation it did not check leads to; under ASan, its report and status 1)
     * gave no verdict on the file: the simulator failed, not the input */
    if (!verdict && !(WIFEXITED(status) && WEXITSTATUS(status) == 4)) {
        char how[64];
        if (WIFSIGNALED(status))
            snprintf(how, sizeof(how), "%s", strsignal(WTERMSIG(status)));
        else
            snprintf(how, sizeof(how), "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        snprintf(err, errlen, "%s: SimGrid crashed loading it (%s; out of memory?)", xml_path, how);
        return SGRUN_OOM;
    }
    size_t whylen = why ? strlen(why) : 0;
    if (!why) {
        why = "SimGrid could not load it";
        whylen = strlen(why);
    }
    snprintf(err, errlen, "%s: not a platform SimGrid can run: %.*s", xml_path,
             (int)(whylen > 600 ? 600 : whylen), why);
    return -1;
}

int sgrun_run(const char *xml_path, double collector_bw, const char *const *user_args, sgrun_body body,
              void *data, sgrun_cfg *cfg_used, sgrun_result *res, char *err, size_t errlen)
{
    static char cfgbuf[SGRUN_MAX_CFG][256];
    char *argv[2 * SGRUN_MAX_CFG + 2];
    int argc = 0;
    argv[argc++] = "ptosim";
    cfg_used->n = 0;
    for (size_t i = 0; i < sizeof(DEFAULT_CFG) / sizeof(DEFAULT_CFG[0]); i++) {
        snprintf(cfgbuf[i], sizeof(cfgbuf[i]), "--cfg=%s", DEFAULT_CFG[i]);
        argv[argc++] = cfgbuf[i];
        cfg_used->items[cfg_used->n++] = DEFAULT_CFG[i];
    }
    for (int i = 0; user_args && user_args[i] && argc < SGRUN_MAX_CFG; i++) {
        argv[argc++] = (char *)user_args[i];
        if (strncmp(user_args[i], "--cfg=", 6) == 0 && cfg_used->n < SGRUN_MAX_CFG)
            cfg_used->items[cfg_used->n++] = user_args[i] + 6;
    }
    argv[argc] = NULL;
    if (access(xml_path, R_OK) != 0) {
        snprintf(err, errlen, "%s: cannot read the SimGrid platform file", xml_path);
        return -1;
    }
    if (sgload_open(err, errlen) != 0)
        return -1;
    /* quiet unless something is wrong; the user's --log= still wins */
    xbt_log_control_set("root.thres:warning");
    /* simgrid_init installs a SIGINT handler that aborts with a backtrace;
     * ours goes back on before a signal can reach SimGrid's */
    intr_hold(true);
    simgrid_init(&argc, argv);
    intr_install();
    intr_abort_stack(); /* SimGrid's own is too small for run.c's abort handler */
    intr_hold(false);
    simgrid_load_platform(xml_path);
    sg_host_t aicpu = sg_host_by_name("aicpu");
    sg_host_t host = sg_host_by_name("host");
    if (!aicpu || !host) {
        snprintf(err, errlen, "%s: the platform needs hosts \"aicpu\" and \"host\"", xml_path);
        return -1;
    }
    sg_link_t link = sg_link_by_name("dfx_collector");
    if (!link) {
        snprintf(err, errlen, "%s: the platform needs the link \"dfx_collector\"", xml_path);
        return -1;
    }
    sg_link_set_bandwidth(link, collector_bw);
    actor_ctx ctx = {.body = body, .data = data, .finished = 0};
    sg_actor_t a = sg_actor_init("chip-engine", aicpu);
    sg_actor_set_data(a, &ctx);
    sg_actor_start(a, engine_actor, 0, NULL);
    simgrid_run();
    res->clock = simgrid_get_clock();
    res->finished = ctx.finished;
    if (!ctx.finished) {
        snprintf(err, errlen,
                 "simulation deadlock: SimGrid stopped at %.9f s with the chip engine still waiting "
                 "(no actor could make progress)",
                 res->clock);
        return -1;
    }
    return 0;
}
