/* sgrun.c - SimGrid engine binding: the chip runs as C state machines inside one actor
 * (model/README.md §1.2). */
#include "sgrun.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xbt/log.h>

#include "intr.h"

XBT_LOG_NEW_DEFAULT_CATEGORY(ptosim, "ptosim chip engine");

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
    /* quiet unless something is wrong; the user's --log= still wins */
    xbt_log_control_set("root.thres:warning");
    /* simgrid_init installs a SIGINT handler that aborts with a backtrace;
     * ours goes back on before a signal can reach SimGrid's */
    intr_hold(true);
    simgrid_init(&argc, argv);
    intr_install();
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
