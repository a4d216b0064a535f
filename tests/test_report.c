/* test_report.c - `ptosim report`: critical path, ring series and sweep curves worked by hand. */
/* Every error message, the size bound of big swimlanes, and the page as headless Chromium renders it. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../model/base/outfile.h"
#include "../sim/report/report_data.h"
#include "../sim/report/report_html.h"
#include "../sim/report/report_html_draw.h"
#include "testutil.h"

/* ------------------------------------------------------------------ */
/* A hand-made run                                                     */
/* ------------------------------------------------------------------ */

/* Four tasks at 50 MHz (50 ticks a microsecond) from the origin 1000000:
 *   t0 mm   on AIC_0   2-12 us  \
 *   t1 vadd on AIV_2  14-24 us   > a chain: t0 -> t1 -> t2 (deps.json)
 *   t2 mm   on AIC_1  26-36 us  /
 *   t3 vadd on AIV_3   2-30 us    a side task with no edges
 * The makespan is 36 us; AIC busy 20 of 2 x 36 us = 27.8 %, AIV 38 of 72 = 52.8 %.
 * Its overhead, as a run dispatching t0 and t3 at 1.5 us, t1 at 13.5 and t2 at 25.5 would write it: the
 * window is 2-36 = 34 us; t1 waits ready [12, 13.5) with AIV_2 idle (AIV 1.5 us), t2 [24, 25.5) with both AIC
 * cores idle (AIC 1.5 us), never both at once: AIC 4.412 %, AIV 4.412 %, all 0, has 8.824 % (partially
 * scheduler- limited). Critical path t0 -> t1 -> t2 (t2 finishing at 36): compute 30 us, scheduler 4.5 us (t1
 * and t2 each start 2 us after their producer ends, t0 0.5 us after its dispatch), span 36 - 2 = 34 us. */
static const char RUN_JSON[] =
    "{\"ptosim_version\": \"test\", \"graph\": {\"file\": \"g.jsonl\", \"name\": \"chain3side\"},\n"
    " \"platform\": {\"name\": \"a2a3\", \"params\": {\"sys_cnt_origin_ticks\": 1000000}},\n"
    " \"config\": {\"enable_chip_swimlane\": 1, \"enable_dep_gen\": true, \"enable_scope_stats\": true},\n"
    " \"outcome\": {\"status\": \"ok\", \"exit_code\": 0, \"runtime_error\": null, \"device_error\": null, "
    "\"message\": null},\n"
    " \"makespan_us\": 36.000000, \"orchestrator_end_us\": 4.000000,\n"
    " \"tasks\": {\"submitted\": 4, \"completed\": 4, \"kernel_tasks\": 4, \"aicore_executions\": 4},\n"
    " \"busy_fraction\": {\"aic\": 0.277778, \"aiv\": 0.527778},\n"
    " \"kernels\": [\n"
    "  {\"func_id\": 0, \"name\": \"mm\", \"core\": \"aic\", \"cost_model\": \"pipes\", \"executions\": 2, "
    "\"core_time_us\": 20.0, \"contention_stretch\": 1.0, \"pipe_busy_fraction\": {\"scalar\": 0.1, "
    "\"mte1\": "
    "0.2, \"mte2\": 0.9, \"cube\": 0.5, \"fixpipe\": 0.3}, \"busiest_pipe\": \"mte2\", "
    "\"busiest_pipe_busy_fraction\": 0.9},\n"
    "  {\"func_id\": 1, \"name\": \"vadd\", \"core\": \"aiv\", \"cost_model\": \"flat\", \"executions\": 2, "
    "\"core_time_us\": 38.0, \"contention_stretch\": 1.0, \"pipe_busy_fraction\": null, \"busiest_pipe\": "
    "null, "
    "\"busiest_pipe_busy_fraction\": null}],\n"
    " \"bottleneck\": {\"pipe\": \"mte2\", \"func_id\": 0, \"kernel\": \"mm\", \"busy_fraction\": 0.9},\n"
    " \"rings\": [\n"
    "  {\"ring\": 0, \"tasks\": 4, \"task_window\": 16, \"task_window_peak\": 1, \"heap\": 1048576, "
    "\"heap_peak\": 0, "
    "\"dep_pool\": 64, \"dep_pool_peak\": 0, \"fanin_spill_peak\": 0, \"orchestrator_blocked_us\": 0.0},\n"
    "  {\"ring\": 1, \"tasks\": 0, \"task_window\": 16, \"task_window_peak\": 4, \"heap\": 1048576, "
    "\"heap_peak\": "
    "524288, \"dep_pool\": 64, \"dep_pool_peak\": 2, \"fanin_spill_peak\": 0, \"orchestrator_blocked_us\": "
    "1.5},\n"
    "  {\"ring\": 2, \"tasks\": 0, \"task_window\": 16, \"task_window_peak\": 0, \"heap\": 1048576, "
    "\"heap_peak\": 0, "
    "\"dep_pool\": 64, \"dep_pool_peak\": 0, \"fanin_spill_peak\": 0, \"orchestrator_blocked_us\": 0.0},\n"
    "  {\"ring\": 3, \"tasks\": 0, \"task_window\": 16, \"task_window_peak\": 1, \"heap\": 1048576, "
    "\"heap_peak\": "
    "1024, \"dep_pool\": 64, \"dep_pool_peak\": 0, \"fanin_spill_peak\": 0, \"orchestrator_blocked_us\": "
    "0.0}],\n"
    " \"tensormap\": {\"capacity\": 1024, \"peak\": 0},\n"
    " \"ring_occupancy\": {\"bucket_us\": 12.0, \"buckets\": 3, \"rings\": [\n"
    "  {\"task_window\": {\"low\": [0, 0, 0], \"high\": [1, 1, 0]}, \"heap\": {\"low\": [0, 0, 0], \"high\": "
    "[0, 0, "
    "0]}, \"dep_pool\": {\"low\": [0, 0, 0], \"high\": [0, 0, 0]}},\n"
    "  {\"task_window\": {\"low\": [0, 2, 0], \"high\": [4, 4, 3]}, \"heap\": {\"low\": [0, 0, 0], \"high\": "
    "[524288, 524288, 262144]}, \"dep_pool\": {\"low\": [0, 1, 0], \"high\": [2, 2, 1]}},\n"
    "  null,\n"
    "  {\"task_window\": {\"low\": [0, 0, 0], \"high\": [1, 0, 0]}, \"heap\": {\"low\": [0, 0, 0], \"high\": "
    "[1024, 0, 0]}, \"dep_pool\": {\"low\": [0, 0, 0], \"high\": [0, 0, 0]}}]},\n"
    " \"profiling\": {\"perturbed\": false, \"pmu_single_issue\": true},\n"
    " \"hbm\": {\"saturated_us\": 0.0},\n"
    " \"roofline\": {\"ceilings\": {\"cube_peak_flop_per_s\": 3.538944e+14, \"vector_peak_op_per_s\": "
    "1.10592e+13, \"hbm_bytes_per_s\": 1.6e+12}, \"kernels\": [\n"
    "  {\"func_id\": 0, \"name\": \"mm\", \"core\": \"aic\", \"status\": \"ok\", \"note\": \"ok\", "
    "\"arithmetic_intensity\": 16, \"achieved_op_per_s\": 2e+13, \"peak_op_per_s\": 3.538944e+14, "
    "\"roof_op_per_s\": 2.56e+13, \"bound\": \"memory\", \"roof_fraction\": 0.78125, \"busiest_pipe\": "
    "\"mte2\", \"critical_path_share\": 0.5},\n"
    "  {\"func_id\": 1, \"name\": \"vadd\", \"core\": \"aiv\", \"status\": \"no_pipe_profile\", \"note\": "
    "\"no pipe profile\", \"arithmetic_intensity\": null, \"achieved_op_per_s\": null, \"busiest_pipe\": "
    "null, \"critical_path_share\": 0.25}]},\n"
    " \"overhead\": {\"computed\": true, \"executions\": 4, \"tasks\": 4, \"window_us\": 34.000,\n"
    "  \"overhead_pct\": {\"aic\": 4.412, \"aiv\": 4.412, \"all\": 0.000, \"has\": 8.824},\n"
    "  \"verdict\": \"partially scheduler-limited\",\n"
    "  \"aicore_switch\": {\"aic\": {\"cores\": 2, \"min_us_per_core\": 0.000, \"mean_us_per_core\": 0.000, "
    "\"max_us_per_core\": 0.000, \"events\": 0, \"us_per_event\": 0.000, \"during_overhead_us\": 0.000, "
    "\"independent_us\": 0.000}, \"aiv\": {\"cores\": 2, \"min_us_per_core\": 0.000, \"mean_us_per_core\": "
    "0.000, \"max_us_per_core\": 0.000, \"events\": 0, \"us_per_event\": 0.000, \"during_overhead_us\": "
    "0.000, "
    "\"independent_us\": 0.000}, \"makespan_bound_us\": [0.000, 0.000]},\n"
    "  \"head_us\": {\"n\": 4, \"p10\": 0.5, \"p25\": 0.5, \"p50\": 0.5, \"p75\": 0.5, \"p90\": 0.5, "
    "\"p95\": "
    "0.5, \"p99\": 0.5, \"max\": 0.5, \"mean\": 0.5, \"total\": 2.0},\n"
    "  \"tail_us\": {\"n\": 4, \"p10\": 1.0, \"p25\": 1.0, \"p50\": 1.0, \"p75\": 1.0, \"p90\": 1.0, "
    "\"p95\": "
    "1.0, \"p99\": 1.0, \"max\": 1.0, \"mean\": 1.0, \"total\": 4.0},\n"
    "  \"gaps\": {\"steady_switch_us\": {\"n\": 0, \"p10\": 0, \"p25\": 0, \"p50\": 0, \"p75\": 0, \"p90\": "
    "0, "
    "\"p95\": 0, \"p99\": 0, \"max\": 0, \"mean\": 0, \"total\": 0}, \"prev_tail_us\": {\"n\": 0, \"p10\": "
    "0, "
    "\"p25\": 0, \"p50\": 0, \"p75\": 0, \"p90\": 0, \"p95\": 0, \"p99\": 0, \"max\": 0, \"mean\": 0, "
    "\"total\": 0}, \"setup_us\": {\"n\": 0, \"p10\": 0, \"p25\": 0, \"p50\": 0, \"p75\": 0, \"p90\": 0, "
    "\"p95\": 0, \"p99\": 0, \"max\": 0, \"mean\": 0, \"total\": 0}, \"first_switch_us\": {\"n\": 0, "
    "\"p10\": "
    "0, \"p25\": 0, \"p50\": 0, \"p75\": 0, \"p90\": 0, \"p95\": 0, \"p99\": 0, \"max\": 0, \"mean\": 0, "
    "\"total\": 0}, \"wait_us\": {\"n\": 0, \"p10\": 0, \"p25\": 0, \"p50\": 0, \"p75\": 0, \"p90\": 0, "
    "\"p95\": 0, \"p99\": 0, \"max\": 0, \"mean\": 0, \"total\": 0}, \"per_core\": []},\n"
    "  \"critical_path\": {\"hops\": 2, \"span_us\": 34.000, \"compute_us\": 30.000, \"scheduler_us\": "
    "4.500, "
    "\"other_us\": 0.000}}\n"
    "}\n";

static const char SWIMLANE_JSON[] = "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": "
                                    "50000000, \"num_cores\": 4, \"core_types\": "
                                    "[\"aic\", \"aic\", \"aiv\", \"aiv\"]},\n"
                                    " \"aicore_tasks\": [\n"
                                    "  [0, 0, 1, 1000100, 1000600, 5],\n"
                                    "  [1, 2, 1, 1001300, 1001800, 5],\n"
                                    "  [2, 1, 1, 1000700, 1001200, 5],\n"
                                    "  [3, 3, 1, 1000100, 1001500, 5]\n"
                                    " ],\n"
                                    " \"aicpu_tasks\": []\n"
                                    "}\n";

/* t0 -> t1 twice (two tensormap slices), t1 -> t2; t3 has no edges. */
static const char DEPS_JSON[] =
    "{\"tasks\":[{\"task_id\":\"0\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[0,-1,-1],"
    "\"block_num\":1,\"args\":[]},"
    "{\"task_id\":\"1\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,1,-1],\"block_num\":1,"
    "\"args\":[]},"
    "{\"task_id\":\"2\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[0,-1,-1],\"block_num\":1,"
    "\"args\":[]},"
    "{\"task_id\":\"3\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,1,-1],\"block_num\":1,"
    "\"args\":[]}],\"tensors\":[],"
    "\"edges\":[{\"pred\":\"0\",\"succ\":\"1\",\"arg\":0,\"source\":\"tensormap\",\"flags\":[\"wait\"]},"
    "{\"pred\":\"0\",\"succ\":\"1\",\"arg\":1,\"source\":\"tensormap\",\"flags\":[\"wait\"]},"
    "{\"pred\":\"1\",\"succ\":\"2\",\"arg\":0,\"source\":\"creator\",\"flags\":[\"wait\",\"retain\"]}]}\n";

/* Samples on rings 0, 1 and 3 (none on ring 2): ring 1 ends its scope with 4 live slots (25 % of 16). */
static const char SCOPES_JSONL[] =
    "{\"version\": 6, \"fatal\": false, \"dropped\": 0, \"total\": 6, \"task_window_max\": [16, 16, 16, 16], "
    "\"heap_max\": [1048576, 1048576, 1048576, 1048576], \"dep_pool_max\": [64, 64, 64, 64], "
    "\"tensormap_max\": "
    "1024}\n"
    "{\"site\": \"(unknown):0\", \"phase\": \"begin\", \"depth\": 0, \"ring\": 0, \"task_window_start\": 0, "
    "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 0, \"dep_pool_end\": 0, "
    "\"tensormap\": 0}\n"
    "{\"site\": \"g.py:1\", \"phase\": \"begin\", \"depth\": 1, \"ring\": 1, \"task_window_start\": 0, "
    "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 0, \"dep_pool_end\": 0, "
    "\"tensormap\": 0}\n"
    "{\"site\": \"g.py:1\", \"phase\": \"end\", \"depth\": 1, \"ring\": 1, \"task_window_start\": 0, "
    "\"task_window_end\": 4, \"heap_start\": 0, \"heap_end\": 524288, \"dep_pool_start\": 0, "
    "\"dep_pool_end\": 2, "
    "\"tensormap\": 0}\n"
    "\n"
    "{\"site\": \"g.py:2\", \"phase\": \"begin\", \"depth\": 3, \"ring\": 3, \"task_window_start\": 0, "
    "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 0, \"dep_pool_end\": 0, "
    "\"tensormap\": 0}\n"
    "{\"site\": \"g.py:2\", \"phase\": \"end\", \"depth\": 3, \"ring\": 3, \"task_window_start\": 0, "
    "\"task_window_end\": 1, \"heap_start\": 0, \"heap_end\": 1024, \"dep_pool_start\": 0, \"dep_pool_end\": "
    "0, "
    "\"tensormap\": 0}\n"
    "{\"site\": \"(unknown):0\", \"phase\": \"end\", \"depth\": 0, \"ring\": 0, \"task_window_start\": 0, "
    "\"task_window_end\": 1, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 0, \"dep_pool_end\": 0, "
    "\"tensormap\": 0}\n";

/* mm: mte2 32400 of 36000 cycles = 90.0 %, cube 18000 = 50.0 %. */
static const char PMU_CSV[] =
    "thread_id,core_id,task_id,func_id,core_type,pmu_total_cycles,vec_busy_cycles,cube_busy_cycles,"
    "scalar_busy_cycles,mte1_busy_cycles,mte2_busy_cycles,mte3_busy_cycles,icache_miss,icache_req,event_"
    "type\n"
    "0,0,0x0000000000000000,0,0,18000,0,9000,1800,3600,16200,0,0,0,2\n"
    "1,1,0x0000000000000002,0,0,18000,0,9000,1800,3600,16200,0,0,0,2\n"
    "2,2,0x0000000000000001,1,1,18000,0,0,0,0,0,0,0,0,2\n"
    "0,3,0x0000000000000003,1,1,50400,0,0,0,0,0,0,0,0,2\n";

#define SWEEP_HEADER                                                                                         \
    "graph,platform,ring_task_window,ring_heap,ring_dep_pool,status,code,exit,makespan_us,tasks_completed,"  \
    "task_window_peak,heap_peak,dep_pool_peak,tensormap_peak,blocked_us,blocked_task_window_us,"             \
    "blocked_heap_us,blocked_dep_pool_us,blocked_tensormap_us\n"
#define SWEEP_TAIL ",4,1/1/0/0,0/0/0/0,0/0/0/0,0,0.000/1.500/0.000/0.000,1.500,0.000,0.000,0.000\n"
/* the same without the line break, for a column after them */
#define SWEEP_HEADER_NL                                                                                      \
    "graph,platform,ring_task_window,ring_heap,ring_dep_pool,status,code,exit,makespan_us,tasks_completed,"  \
    "task_window_peak,heap_peak,dep_pool_peak,tensormap_peak,blocked_us,blocked_task_window_us,"             \
    "blocked_heap_us,blocked_dep_pool_us,blocked_tensormap_us"
#define SWEEP_TAIL_NL ",4,1/1/0/0,0/0/0/0,0/0/0/0,0,0.000/1.500/0.000/0.000,1.500,0.000,0.000,0.000"

/* Two swept knobs: the task window of every ring (4, 16, 64) and ring 1's heap (1024, 2048 bytes).
 * Least ok makespan per task window: 4 -> 900 (the other row failed), 16 -> 450, 64 -> 300;
 * per ring-1 heap: 1024 -> min(500, 300) = 300, 2048 -> min(900, 450, 320) = 320. */
static const char SWEEP_CSV[] = SWEEP_HEADER
    "g,a2a3,4/4/4/4,268435456/1024/268435456/268435456,16384/16384/16384/16384,runtime_error,3,4,"
    "5.000000" SWEEP_TAIL
    "g,a2a3,4/4/4/4,268435456/2048/268435456/268435456,16384/16384/16384/16384,ok,0,0,900.000000" SWEEP_TAIL
    "g,a2a3,16/16/16/16,268435456/1024/268435456/268435456,16384/16384/16384/16384,ok,0,0,"
    "500.000000" SWEEP_TAIL
    "g,a2a3,16/16/16/16,268435456/2048/268435456/268435456,16384/16384/16384/16384,ok,0,0,"
    "450.000000" SWEEP_TAIL
    "g,a2a3,64/64/64/64,268435456/1024/268435456/268435456,16384/16384/16384/16384,ok,0,0,"
    "300.000000" SWEEP_TAIL
    "g,a2a3,64/64/64/64,268435456/2048/268435456/268435456,16384/16384/16384/16384,ok,0,0,"
    "320.000000" SWEEP_TAIL;

enum { F_RUN = 1, F_SWIMLANE = 2, F_DEPS = 4, F_SCOPES = 8, F_PMU = 16, F_SWEEP = 32, F_ALL = 63 };

static void put(const char *dir, const char *name, const char *text)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/scope_stats", dir);
    char err[4400];
    ck_assert(outfile_mkdirs(p, err, sizeof(err)) == 0);
    free(tu_write(dir, name, text));
}

/* A fresh directory with the chosen inputs of the hand-made run. */
static const char *fixture(int which)
{
    const char *dir = tu_tmpdir();
    if (which & F_RUN)
        put(dir, "ptosim_run.json", RUN_JSON);
    if (which & F_SWIMLANE)
        put(dir, "dfx_outputs/chip_swimlane_records.json", SWIMLANE_JSON);
    if (which & F_DEPS)
        put(dir, "dfx_outputs/deps.json", DEPS_JSON);
    if (which & F_SCOPES)
        put(dir, "dfx_outputs/scope_stats/scope_stats.jsonl", SCOPES_JSONL);
    if (which & F_PMU)
        put(dir, "dfx_outputs/pmu.csv", PMU_CSV);
    if (which & F_SWEEP)
        put(dir, "sweep.csv", SWEEP_CSV);
    return dir;
}

/* Writes DIR/report.html in process; returns the page (caller frees). */
static char *report_of(const char *dir)
{
    char err[8192];
    int st = htmlrep_write(dir, dir, err, sizeof(err));
    ck_assert_msg(st == 0, "htmlrep_write: %d %s", st, err);
    char p[4200];
    snprintf(p, sizeof(p), "%s/report.html", dir);
    char *page = tu_read(p);
    ck_assert_ptr_nonnull(page);
    return page;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* The text between the first `from` and the next `to` after it (malloc'd). */
static char *between(const char *hay, const char *from, const char *to)
{
    const char *a = strstr(hay, from);
    ck_assert_msg(a != NULL, "missing %s", from);
    const char *b = strstr(a, to);
    ck_assert_msg(b != NULL, "missing %s after %s", to, from);
    return strndup(a, (size_t)(b - a));
}

#define ASSERT_HAS(hay, needle) ck_assert_msg(strstr((hay), (needle)) != NULL, "page lacks: %s", (needle))

/* ------------------------------------------------------------------ */
/* Critical path                                                       */
/* ------------------------------------------------------------------ */

/* Records of the sort test: a two-word key and a tag that tells equal keys apart. */
typedef struct sort_rec {
    uint64_t hi, lo;
    int tag;
} sort_rec;

static void sort_rec_key(const void *a, uint64_t k[2])
{
    const sort_rec *r = a;
    k[0] = r->hi;
    k[1] = r->lo;
}

START_TEST(the_report_sorts_by_a_two_word_key_as_a_stable_sort_would)
{
    /* the high word decides, then the low; equal keys keep their order (tags 1, 4, 6); keys differing only
     * in their top byte (1 << 56) and in their lowest (tags 2, 3) */
    sort_rec v[] = {
        {5, 7, 1}, {1ULL << 56, 0, 2}, {0, 1, 3}, {5, 7, 4}, {5, 6, 5}, {5, 7, 6}, {0, 0, 7},
    };
    ck_assert_int_eq(rd_sort_by_key(v, 7, sizeof(*v), sort_rec_key), 0);
    const int want[] = {7, 3, 5, 1, 4, 6, 2};
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(v[i].tag, want[i]);
    /* keys all alike: nothing moves */
    sort_rec w[] = {{3, 3, 1}, {3, 3, 2}, {3, 3, 3}};
    ck_assert_int_eq(rd_sort_by_key(w, 3, sizeof(*w), sort_rec_key), 0);
    ck_assert(w[0].tag == 1 && w[1].tag == 2 && w[2].tag == 3);
    /* fewer than two records */
    ck_assert_int_eq(rd_sort_by_key(w, 1, sizeof(*w), sort_rec_key), 0);
    ck_assert_int_eq(rd_sort_by_key(NULL, 0, sizeof(*w), sort_rec_key), 0);
}
END_TEST

START_TEST(a_name_is_cut_to_its_buffer_as_snprintf_cuts_it)
{
    /* rh_put_cut appends as snprintf(b + m, m < n ? n - m : 0, "%s", s) does */
    char b[8] = "zzzzzzz";
    size_t m = 0;
    rh_put_cut(b, sizeof(b), &m, "abc", 3);
    ck_assert_str_eq(b, "abc");
    ck_assert_uint_eq(m, 3);
    rh_put_cut(b, sizeof(b), &m, "defgh", 5); /* 7 bytes and the NUL fit */
    ck_assert_str_eq(b, "abcdefg");
    ck_assert_uint_eq(m, 8);
    rh_put_cut(b, sizeof(b), &m, "x", 1); /* past the end: nothing written, the length still counted */
    ck_assert_str_eq(b, "abcdefg");
    ck_assert_uint_eq(m, 9);
    char z[1] = {'q'};
    m = 0;
    rh_put_cut(z, 0, &m, "abc", 3); /* no room at all: not even the NUL */
    ck_assert_int_eq(z[0], 'q');
    ck_assert_uint_eq(m, 3);
    /* the task names the page writes, cut like that */
    char t[6];
    rh_task_name(t, sizeof(t), (2ULL << 32) | 12345u);
    ck_assert_str_eq(t, "r2t12"); /* r2t12345 cut to 5 */
    rh_task_name(t, sizeof(t), 42);
    ck_assert_str_eq(t, "t42");
}
END_TEST

/* Replaces every dir in page by "DIR" (in place). */
static void strip_dir(char *page, const char *dir)
{
    size_t n = strlen(dir);
    char *w = page;
    for (const char *r = page; *r;)
        if (strncmp(r, dir, n) == 0) {
            memcpy(w, "DIR", 3);
            w += 3;
            r += n;
        } else {
            *w++ = *r++;
        }
    *w = '\0';
}

START_TEST(a_capture_reads_the_same_whatever_json_form_its_rows_take)
{
    /* the fixture's swimlane and deps.json with their rows in forms the readers' fast paths leave to the
     * scanner (escaped keys and ids, quoted ids, fractions, non-ASCII text and nesting in values read past,
     * odd white space): the same page as the plain files give */
    static const char SWIMLANE_ODD[] =
        "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock\\u005ffreq_hz\": 50000000, \"num_cores\": 4, "
        "\"core_types\": [\"aic\", \"aic\", \"aiv\", \"aiv\"], \"x\": {\"a\": [1.5e3, -0.25, "
        "\"\\u00e9t\xc3\xa9\"]}},"
        "\r\n \"aicore_tasks\": [\n"
        "  [0, \"0\", 1, 1000100, 1000600, 5],\n"
        "  [ 1 ,2\t,1,1001300,1001800,5 ],\n"
        "  [2, 1, 1, 1000700, 1001200, 5],\n"
        "  [3, 3, 1, 1000100, 1001500, 5]\n"
        " ],\n"
        " \"aicpu_tasks\": []\n"
        "}\n";
    static const char DEPS_ODD[] = "{\"tasks\":[{\"task_id\":\"\\u0030\",\"scope\":\"auto\",\"early_"
                                   "dispatch\":false,\"kernel_ids\":[0,-1,-1],"
                                   "\"block_num\":1,\"args\":[{\"shape\":[1e2,2.5],\"name\":\"\xc3\xa9\","
                                   "\"deep\":[[[[{\"k\":null}]]]]}]},"
                                   "{\"task_id\":1,\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_"
                                   "ids\":[ -1 , 1 , -1 ],\"block_num\":1,"
                                   "\"args\":[]},"
                                   "{\"task_id\":\"2\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_"
                                   "ids\":[0,-1,-1],\"block_num\":1,"
                                   "\"args\":[]},"
                                   "{\"task_id\":\"3\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_"
                                   "ids\":[-1,1,-1],\"block_num\":1,"
                                   "\"args\":[]}],\"tensors\":[],"
                                   "\"edges\":[{\"pre\\u0064\":\"0\",\"succ\":1,\"arg\":0,\"source\":"
                                   "\"tensormap\",\"flags\":[\"wait\"]},"
                                   "{\"pred\":\"0\",\"succ\":\"1\",\"arg\":12345678901234567,\"source\":"
                                   "\"tensor\\nmap\",\"flags\":[\"wait\"]},"
                                   "{\"pred\":\"1\",\"succ\":\"2\",\"arg\":0,\"source\":\"creator\","
                                   "\"flags\":[\"wait\",\"retain\"]}]}\n";
    /* and the scope samples: keys in another order, a fraction, white space, an escape in the site */
    static const char SCOPES_ODD[] =
        "{\"version\": 6, \"fatal\": false, \"dropped\": 0, \"total\": 6, \"task_window_max\": [16, 16, 16, "
        "16], "
        "\"heap_max\": [1048576, 1048576, 1048576, 1048576], \"dep_pool_max\": [64, 64, 64, 64], "
        "\"tensormap_max\": 1024}\n"
        "{\"phase\": \"begin\", \"site\": \"(unknown):0\", \"depth\": 0, \"ring\": 0, \"task_window_start\": "
        "0, "
        "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 0, "
        "\"dep_pool_end\": 0, "
        "\"tensormap\": 0}\n"
        "{\"site\": \"g.py:1\", \"phase\": \"begin\", \"depth\": 1, \"ring\": 1.0, \"task_window_start\": 0, "
        "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 0, "
        "\"dep_pool_end\": 0, "
        "\"tensormap\": 0}\n"
        "{\"site\": \"g.py:1\", \"phase\": \"end\", \"depth\": 1, \"ring\": 1, \"task_window_start\": 0, "
        "\"task_window_end\": 4, \"heap_start\": 0, \"heap_end\": 5.24288e5, \"dep_pool_start\": 0, "
        "\"dep_pool_end\": 2, \"tensormap\": 0} \n"
        "\n"
        "{ \"site\": \"g.py:2\", \"phase\": \"begin\", \"depth\": 3, \"ring\": 3, \"task_window_start\": 0, "
        "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 0, "
        "\"dep_pool_end\": 0, "
        "\"tensormap\": 0}\n"
        "{\"site\": \"g.py:\\u0032\", \"phase\": \"end\", \"depth\": 3, \"ring\": 3, \"task_window_start\": "
        "0, "
        "\"task_window_end\": 1, \"heap_start\": 0, \"heap_end\": 1024, \"dep_pool_start\": 0, "
        "\"dep_pool_end\": "
        "0, \"tensormap\": 0}\r\n"
        "{\"site\": \"(unknown):0\", \"phase\": \"end\", \"depth\": 0, \"ring\": 0, \"task_window_start\": "
        "0, "
        "\"task_window_end\": 1, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 0, "
        "\"dep_pool_end\": 0, "
        "\"tensormap\": 0, \"extra\": [1]}\n";
    const char *a = fixture(F_ALL & ~F_SWEEP), *b = fixture(F_ALL & ~F_SWEEP);
    put(b, "dfx_outputs/chip_swimlane_records.json", SWIMLANE_ODD);
    put(b, "dfx_outputs/deps.json", DEPS_ODD);
    put(b, "dfx_outputs/scope_stats/scope_stats.jsonl", SCOPES_ODD);
    char *pa = report_of(a), *pb = report_of(b);
    strip_dir(pa, a);
    strip_dir(pb, b);
    ck_assert_str_eq(pb, pa);
    free(pa);
    free(pb);
}
END_TEST

START_TEST(a_bad_byte_anywhere_in_a_long_string_gets_the_scanners_message)
{
    /* strings are read eight bytes a step: a byte the scanner refuses, at every place in and after the
     * steps, still gets its message at its column, and the bytes it takes (DEL, UTF-8, escapes) still read */
    static const char PRE[] = "{\"tasks\":[{\"task_id\":\"0\",\"n\":\"";
    static const struct {
        const char *bytes, *msg; /* msg NULL: the page is written */
        size_t col;              /* the column's offset from the first of the bytes */
    } CASES[] = {
        {"\x01", "not valid JSON", 0},        {"\x1f", "not valid JSON", 0},
        {"\x80", "invalid UTF-8 in a string", 0}, {"\xff", "invalid UTF-8 in a string", 0},
        {"\\x", "not valid JSON", 1},         {"\x7f", NULL, 0},
        {" ", NULL, 0},                       {"\xc3\xa9", NULL, 0},
        {"\\u0041", NULL, 0},                 {"\\\"", NULL, 0},
    };
    const char *dir = fixture(F_RUN);
    for (size_t c = 0; c < sizeof(CASES) / sizeof(CASES[0]); c++)
        for (size_t k = 0; k < 20; k++) {
            char text[256], err[8192], want[256];
            snprintf(text, sizeof(text), "%s%.*s%sAAA\"}],\"edges\":[]}", PRE, (int)k, "AAAAAAAAAAAAAAAAAAAA",
                     CASES[c].bytes);
            put(dir, "dfx_outputs/deps.json", text);
            int st = htmlrep_write(dir, dir, err, sizeof(err));
            if (!CASES[c].msg) {
                ck_assert_msg(st == 0, "case %zu at %zu: status %d, %s", c, k, st, err);
                continue;
            }
            snprintf(want, sizeof(want), "deps.json:1:%zu: json: %s", sizeof(PRE) - 1 + k + CASES[c].col + 1,
                     CASES[c].msg);
            ck_assert_msg(st == 3 && strstr(err, want), "case %zu at %zu: status %d, got \"%s\", expected \"%s\"",
                          c, k, st, err, want);
        }
}
END_TEST

START_TEST(critical_path_of_a_chain_and_a_side_task_is_the_chain)
{
    const char *dir = fixture(F_SWIMLANE | F_DEPS);
    char p[4200], err[4096];
    rd_swimlane sl;
    rd_deps d;
    snprintf(p, sizeof(p), "%s/dfx_outputs/chip_swimlane_records.json", dir);
    ck_assert_int_eq(rd_load_swimlane(p, &sl, err, sizeof(err)), RD_OK);
    snprintf(p, sizeof(p), "%s/dfx_outputs/deps.json", dir);
    ck_assert_int_eq(rd_load_deps(p, &d, err, sizeof(err)), RD_OK);
    ck_assert_int_eq(d.nedges, 2); /* the repeated t0 -> t1 slice counts once */
    rd_path cp;
    ck_assert_int_eq(rd_critical_path(&sl, &d, &cp), 0);
    /* t2 ends last (36 us); its predecessor t1, then t0; t3 (ends at 30 us) is no predecessor */
    ck_assert_int_eq(cp.n, 3);
    static const uint64_t id[3] = {0, 1, 2}, start[3] = {1000100, 1000700, 1001300},
                          end[3] = {1000600, 1001200, 1001800};
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(cp.v[i].task, id[i]);
        ck_assert(cp.v[i].executed);
        ck_assert_uint_eq(cp.v[i].start, start[i]);
        ck_assert_uint_eq(cp.v[i].end, end[i]);
    }
    rd_path_free(&cp);
    rd_swimlane_free(&sl);
    rd_deps_free(&d);
}
END_TEST

START_TEST(critical_path_takes_the_predecessor_that_finished_last)
{
    /* t0 ends at 10, t1 and t2 both at 20; the dummy t3 waits on all three, t4 on t3.
     * The walk from t4 goes through t3 (finishing with its last predecessor, 20) to t1
     * (t1 and t2 tie; the lower id wins). */
    rd_exec ex[] = {{.task = 0, .start = 0, .end = 10, .core = 0},
                    {.task = 1, .start = 0, .end = 20, .core = 1},
                    {.task = 2, .start = 5, .end = 20, .core = 2},
                    {.task = 4, .start = 25, .end = 30, .core = 0}};
    bool aic[3] = {true, true, true};
    rd_swimlane sl = {.level = 1, .clock_hz = 50000000, .ncores = 3, .aic = aic, .ex = ex, .nex = 4};
    rd_task tasks[] = {
        {0, {0, -1, -1}}, {1, {0, -1, -1}}, {2, {0, -1, -1}}, {3, {-1, -1, -1}}, {4, {0, -1, -1}}};
    rd_edge edges[] = {{0, 3}, {1, 3}, {2, 3}, {3, 4}}; /* sorted by successor */
    rd_deps d = {.tasks = tasks, .ntasks = 5, .edges = edges, .nedges = 4};
    rd_path cp;
    ck_assert_int_eq(rd_critical_path(&sl, &d, &cp), 0);
    ck_assert_int_eq(cp.n, 3);
    ck_assert_uint_eq(cp.v[0].task, 1);
    ck_assert_uint_eq(cp.v[1].task, 3);
    ck_assert(!cp.v[1].executed);
    ck_assert_uint_eq(cp.v[2].task, 4);
    rd_path_free(&cp);

    /* a cycle in a malformed deps.json ends the walk instead of looping: t4 <- t1 <- t4 */
    rd_edge cyc[] = {{4, 1}, {1, 4}};
    rd_deps dc = {.tasks = tasks, .ntasks = 5, .edges = cyc, .nedges = 2};
    ck_assert_int_eq(rd_critical_path(&sl, &dc, &cp), 0);
    ck_assert_int_eq(cp.n, 2);
    ck_assert_uint_eq(cp.v[0].task, 1);
    ck_assert_uint_eq(cp.v[1].task, 4);
    rd_path_free(&cp);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The page, read as text                                              */
/* ------------------------------------------------------------------ */

/* A run written before ptosim had the overhead model has no "overhead"; one past the model's limit says
 * "computed": false. Either way the section says why it shows no figures. */
START_TEST(the_overhead_section_explains_a_missing_or_uncomputed_model)
{
    const char *dir = tu_tmpdir();
    char *run = strdup(RUN_JSON);
    char *cut = strstr(run, ",\n \"overhead\"");
    ck_assert_ptr_nonnull(cut);
    strcpy(cut, "\n}\n");
    put(dir, "ptosim_run.json", run);
    char *page = report_of(dir);
    ASSERT_HAS(page,
               "has no <code>overhead</code>: it was written before ptosim computed the scheduler-overhead "
               "model; run the graph again.");
    free(page);
    strcpy(cut, ",\n \"overhead\": {\"computed\": false, \"limit_executions\": 65536}\n}\n");
    put(dir, "ptosim_run.json", run);
    page = report_of(dir);
    ASSERT_HAS(page,
               "Not computed: the model keeps every execution and edge, and stops past 65536 executions or "
               "tasks.");
    free(page);
    free(run);
}
END_TEST

/* The makespan-determining path's scheduler-injected time adds the first task's dispatch-to-start wait,
 * which comes before the span it is divided by. A run whose path is one task of 1.5 us, finishing 0.5 us
 * after its end (span 2 us), that waited 3 us from its dispatch to its start: 150.0 % scheduler, and the card
 * says what that means (the page escapes its apostrophe). The hand-made run's 13.2 % says nothing more. */
START_TEST(the_critical_path_card_says_what_a_share_above_100_percent_means)
{
    const char *dir = tu_tmpdir();
    char *run = strdup(RUN_JSON);
    char *cp = strstr(run, "\"critical_path\": {");
    ck_assert_ptr_nonnull(cp);
    strcpy(cp, "\"critical_path\": {\"hops\": 0, \"span_us\": 2.000, \"compute_us\": 1.500, \"scheduler_us\": "
               "3.000, \"other_us\": 0.000}}\n}\n");
    put(dir, "ptosim_run.json", run);
    char *page = report_of(dir);
    char *oh = between(page, "<section id=\"overhead\">", "</section>");
    ASSERT_HAS(oh, "150.0% scheduler</div><div class=\"d\">of the 2.000 µs critical path (0 hops); compute "
                   "75.0%; scheduler-injected above 100%: it includes the first task&#39;s wait from its "
                   "dispatch to its start, which comes before the path&#39;s span, and that wait is longer than "
                   "the whole path</div>");
    free(oh);
    free(page);
    free(run);
    page = report_of(fixture(F_ALL & ~F_SWEEP));
    ck_assert_ptr_null(strstr(page, "above 100%"));
    free(page);
}
END_TEST

START_TEST(report_of_a_run_draws_the_critical_path_and_the_numbers)
{
    const char *dir = fixture(F_ALL & ~F_SWEEP);
    char *page = report_of(dir);
    ASSERT_HAS(page, "<title>ptosim report: chain3side</title>");
    ASSERT_HAS(page, "36.000 µs");
    ASSERT_HAS(page, "27.8%");
    ASSERT_HAS(page, "52.8%");
    ASSERT_HAS(page, "mte2 pipe");
    ASSERT_HAS(page, "last submit done (11.1% of the makespan); blocked on rings 1.500 µs");
    /* bar mode: 4 bars, the chain's 3 in red on top, 2 connectors between them */
    ASSERT_HAS(page, "data-mode=\"bars\"");
    char *cp = between(page, "<g class=\"cp\">", "</g>");
    ck_assert_int_eq(count(cp, "<rect"), 3);
    ASSERT_HAS(cp, "t0 mm on AIC_0: 2.000–12.000 µs (10.000 µs), on the critical path");
    ASSERT_HAS(cp, "t1 vadd on AIV_2: 14.000–24.000 µs (10.000 µs), on the critical path");
    ASSERT_HAS(cp, "t2 mm on AIC_1: 26.000–36.000 µs (10.000 µs), on the critical path");
    free(cp);
    /* the path's own lane (y 34-52, centre 43) above the cores: a bar per critical task, and the two waits
     * as connectors along it: t0 ends at 12 us (x 84 + 12/36 x 1000 = 417.3), t1 starts at 14 (472.9), ends
     * at 24 (750.7), t2 starts at 26 (806.2) */
    char *lane = between(page, "<g class=\"cp\" id=\"cp-lane\">", "</g>");
    ck_assert_int_eq(count(lane, "<rect"), 3);
    ASSERT_HAS(lane, "t1 vadd: 14.000–24.000 µs (10.000 µs), last block on AIV_2</title>");
    free(lane);
    char *links = between(page, "<g class=\"cpl\">", "</g>");
    ck_assert_int_eq(count(links, "<path"), 2);
    ASSERT_HAS(links, "<path d=\"M417.3 43.0H472.9\"/>\n<path d=\"M750.7 43.0H806.2\"/>");
    free(links);
    /* every lane is labelled: the path's and the 4 cores' */
    char *svg = between(page, "<svg id=\"swimlane-chart\"", "</svg>");
    ck_assert_int_eq(count(svg, "<text class=\"lane\""), 5);
    ASSERT_HAS(svg, "text-anchor=\"end\">critical path</text>");
    free(svg);
    /* the side task is drawn, not red */
    char *aiv = between(page, "<g class=\"aiv\">", "</g>");
    ASSERT_HAS(aiv, "t3 vadd on AIV_3: 2.000–30.000 µs");
    free(aiv);
    /* from 2 us to 36 us the chain's tasks ran 30 us */
    ASSERT_HAS(page, "<b>3 tasks</b>, t0 to t2");
    ASSERT_HAS(
        page,
        "It starts at 2.000 µs; in the 34.000 µs from there to its end its tasks ran 30.000 µs (88.2%)");
    /* pipes: mm's busiest pipe outlined; vadd listed as flat; PMU shares */
    ASSERT_HAS(page, "class=\"cell busiest\"");
    ASSERT_HAS(page, "Kernels with a flat cost (no pipe model): vadd.");
    ASSERT_HAS(page, ">90.0%</td>");
    ASSERT_HAS(page, ">50.0%</td>");
    /* the overhead section: the shares as cards and bars, the verdict, the critical path's split */
    char *oh = between(page, "<section id=\"overhead\">", "</section>");
    ASSERT_HAS(oh, "AIC overhead</div><div class=\"v\">4.4%");
    ASSERT_HAS(oh, "has</div><div class=\"v\">8.8%</div><div class=\"d\">partially scheduler-limited");
    ASSERT_HAS(
        oh, "13.2% scheduler</div><div class=\"d\">of the 34.000 µs critical path (2 hops); compute 88.2%");
    ASSERT_HAS(oh, "<svg id=\"overhead-chart\"");
    ck_assert_int_eq(count(oh, "<rect"), 8); /* AIC, AIV, all, has: a track and a bar each */
    ASSERT_HAS(oh, "<td>–</td>");            /* no switch, no split */
    free(oh);
    /* nothing outside the page: no script, stylesheet link, or URL */
    ck_assert_int_eq(count(page, "<script"), 0);
    ck_assert_int_eq(count(page, "<link"), 0);
    ck_assert_int_eq(count(page, "http:"), 0);
    ck_assert_int_eq(count(page, "https:"), 0);
    ck_assert_int_eq(count(page, "url("), 0);
    free(page);
}
END_TEST

/* The polylines of one ring chart, as their data-ring values. */
static void series_of(const char *page, const char *chart, char *out, size_t n)
{
    char from[64];
    snprintf(from, sizeof(from), "<figure id=\"ring-%s\">", chart);
    char *fig = between(page, from, "</figure>");
    out[0] = '\0';
    for (const char *p = fig; (p = strstr(p, "<polyline class=\"series\" data-ring=\"")) != NULL; p++) {
        size_t k = strlen(out);
        snprintf(out + k, n - k, "%c", p[strlen("<polyline class=\"series\" data-ring=\"")]);
    }
    free(fig);
}

/* Ring occupancy against simulated time: three buckets of 12 us over the 36 us run (x 72, 222, 372, 522
 * px); the task window's scale runs to 20 (16 slots x 1.05 rounded up to the 5-slot step), so ring 1's
 * highs 4, 4, 3 sit at y 174, 174, 183.5 and its lows 0, 2, 0 at 212, 193, 212. */
START_TEST(ring_occupancy_is_drawn_against_simulated_time)
{
    const char *dir = fixture(F_RUN | F_SCOPES);
    char *page = report_of(dir);
    char s[16];
    static const char *const charts[3] = {"task_window", "heap", "dep_pool"};
    for (int i = 0; i < 3; i++) {
        series_of(page, charts[i], s, sizeof(s));
        ck_assert_str_eq(s, "013"); /* rings 0, 1 and 3; ring 2 never used */
    }
    char *fig = between(page, "<figure id=\"ring-task_window\">", "</figure>");
    ASSERT_HAS(fig,
               "data-ring=\"1\" stroke=\"#8e5cc2\" points=\"72.0,174.0 222.0,174.0 372.0,174.0 372.0,183.5 "
               "522.0,183.5\"");
    ASSERT_HAS(fig,
               "<polygon class=\"band\" data-ring=\"1\" fill=\"#8e5cc2\" points=\"72.0,174.0 222.0,174.0 "
               "222.0,174.0 372.0,174.0 372.0,183.5 522.0,183.5 522.0,212.0 372.0,212.0 372.0,193.0 "
               "222.0,193.0 222.0,212.0 72.0,212.0\"");
    ASSERT_HAS(fig, "simulated time since launch (µs)</text>");
    /* a ring at 25 % of its capacity: the common capacity line is drawn */
    ck_assert_int_eq(count(fig, "class=\"cap\""), 1);
    ASSERT_HAS(fig, "ring 1: highest 4 of 16 (25.0%)");
    ASSERT_HAS(fig, "ring 2: never used");
    free(fig);
    fig = between(page, "<figure id=\"ring-heap\">", "</figure>");
    ASSERT_HAS(fig, "ring 1: highest 512 KiB of 1 MiB (50.0%)");
    free(fig);
    ASSERT_HAS(page, "in 3 buckets of 12.000 µs");
    /* scope stats are counted, not drawn: their samples have no time */
    ASSERT_HAS(page, "<tr><td>1</td><td>2</td><td>4</td><td>512 KiB</td><td>2</td></tr>");
    ASSERT_HAS(page, "<tr><td>2</td><td>0</td><td>-</td><td>-</td><td>-</td></tr>");
    /* peaks against capacity from ptosim_run.json; the ring the orchestrator waited on is shaded */
    ASSERT_HAS(page, "<td style=\"background:rgba(214,39,40,0.25)\">1.500</td>");
    ASSERT_HAS(page, "<td style=\"background:rgba(214,39,40,0.12)\">4 / 16 (25.0%)</td>");
    free(page);
    /* a run written before ptosim kept the series says so */
    char *run = strdup(RUN_JSON), *cut = strstr(run, " \"ring_occupancy\""), *end = strstr(cut, "]},\n");
    memmove(cut, end + 4, strlen(end + 4) + 1);
    put(dir, "ptosim_run.json", run);
    page = report_of(dir);
    ASSERT_HAS(page,
               "has no <code>ring_occupancy</code>: it was written before ptosim recorded ring occupancy "
               "over time; run the graph again.");
    free(page);
    free(run);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Sweeps                                                              */
/* ------------------------------------------------------------------ */

START_TEST(sweep_with_two_swept_knobs_gives_two_curves)
{
    const char *dir = fixture(F_SWEEP);
    char p[4200], err[4096];
    snprintf(p, sizeof(p), "%s/sweep.csv", dir);
    rd_sweep sw;
    ck_assert_int_eq(rd_load_sweep(p, &sw, err, sizeof(err)), RD_OK);
    ck_assert_int_eq(sw.nrows, 6);
    ck_assert_int_eq(sw.ngroups, 1);
    rd_knob k[8];
    ck_assert_int_eq(rd_sweep_knobs(&sw, k, 8), 2);
    ck_assert_str_eq(k[0].label, "ring_task_window (all rings)");
    ck_assert_str_eq(k[1].label, "ring_heap (ring 1)");
    rd_point *pt;
    ck_assert_int_eq(rd_sweep_curve(&sw, &k[0], 0, &pt), 3);
    ck_assert_uint_eq(pt[0].x, 4);
    ck_assert_int_eq(pt[0].nok, 1);
    ck_assert_int_eq(pt[0].nrows, 2);
    ck_assert_double_eq(pt[0].makespan_us, 900);
    ck_assert_int_eq(pt[0].fail->line, 2);
    ck_assert_uint_eq(pt[1].x, 16);
    ck_assert_double_eq(pt[1].makespan_us, 450);
    ck_assert_uint_eq(pt[2].x, 64);
    ck_assert_double_eq(pt[2].makespan_us, 300);
    free(pt);
    ck_assert_int_eq(rd_sweep_curve(&sw, &k[1], 0, &pt), 2);
    ck_assert_uint_eq(pt[0].x, 1024);
    ck_assert_double_eq(pt[0].makespan_us, 300);
    ck_assert_uint_eq(pt[1].x, 2048);
    ck_assert_double_eq(pt[1].makespan_us, 320);
    free(pt);
    rd_sweep_free(&sw);

    /* the page: no run sections, a curve per knob with those points */
    char *page = report_of(dir);
    ASSERT_HAS(page, "<h1>ptosim report: sweep of g on a2a3</h1>");
    ASSERT_HAS(page, "the run sections (summary, swimlane, rings, pipes) are absent");
    ck_assert_int_eq(count(page, "<section id=\"summary\""), 0);
    ck_assert_int_eq(count(page, "<polyline class=\"curve\""), 2);
    ASSERT_HAS(page, "data-points=\"4:900.000 16:450.000 64:300.000\"");
    ASSERT_HAS(page, "data-points=\"1024:300.000 2048:320.000\"");
    ASSERT_HAS(page, "ring_task_window (all rings) (log2 scale)</text>"); /* 4..64 spans 16x */
    ASSERT_HAS(page, "ring_heap (ring 1)</text>");                        /* 1024..2048, under 4x: linear */
    free(page);
}
END_TEST

/* The thread count is a knob like the rings, and each point's blocked time per ring is its row's. By hand:
 * the task window at 16 has rows of 800 (2 threads) and 750 us (4): its point is the 750 row, blocked 610 us
 * on ring 1; at 64, 750 and 180 us; at 256, 750 and 5 us. At 2 threads the least makespan is 790 (window
 * 256, never blocked); at 4 threads every row takes 750 us, so the tie goes to the least blocked: window
 * 256's row (line 7, 5 us). */
START_TEST(every_swept_knob_gets_a_curve_and_blocked_time_per_ring)
{
    const char *dir = tu_tmpdir();
#define TH_HEADER                                                                                            \
    "graph,platform,ring_task_window,ring_heap,ring_dep_pool,status,code,exit,makespan_us,tasks_completed,"  \
    "task_window_peak,heap_peak,dep_pool_peak,tensormap_peak,blocked_us,blocked_task_window_us,"             \
    "blocked_heap_us,blocked_dep_pool_us,blocked_tensormap_us,aicpu_thread_num\n"
#define TH_ROW(tw, ms, b1, th)                                                                               \
    "g,a2a3," tw ",1024,64,ok,0,0," ms ",4,1/1/0/0,0/0/0/0,0/0/0/0,0,0.000/" b1 "/0.000/0.000," b1           \
    ",0.000,0.000,0.000," th "\n"
    free(tu_write(dir, "sweep.csv",
                  TH_HEADER TH_ROW("16", "800", "600.000", "2") TH_ROW("16", "750", "610.000", "4")
                      TH_ROW("64", "800", "200.000", "2") TH_ROW("64", "750", "180.000", "4")
                          TH_ROW("256", "790", "0.000", "2") TH_ROW("256", "750", "5.000", "4")));
    char p[4200], err[4096];
    snprintf(p, sizeof(p), "%s/sweep.csv", dir);
    rd_sweep sw;
    ck_assert_int_eq(rd_load_sweep(p, &sw, err, sizeof(err)), RD_OK);
    ck_assert(sw.has_threads && sw.has_blocked && sw.has_blocked_res);
    rd_knob k[8];
    ck_assert_int_eq(rd_sweep_knobs(&sw, k, 8), 2);
    ck_assert_str_eq(k[0].label, "ring_task_window (all rings)");
    ck_assert_str_eq(k[1].label, "aicpu_thread_num");
    rd_point *pt;
    ck_assert_int_eq(rd_sweep_curve(&sw, &k[1], 0, &pt), 2);
    ck_assert_uint_eq(pt[0].x, 2);
    ck_assert_double_eq(pt[0].makespan_us, 790);
    ck_assert_int_eq(pt[0].best->line, 6);
    ck_assert_uint_eq(pt[1].x, 4);
    ck_assert_double_eq(pt[1].makespan_us, 750);
    ck_assert_int_eq(pt[1].best->line, 7);
    ck_assert_double_eq(pt[1].best->blocked[1], 5);
    ck_assert_double_eq(pt[1].best->blocked_res[RD_RES_TASK_WINDOW], 5);
    free(pt);
    rd_sweep_free(&sw);
    char *page = report_of(dir);
    ASSERT_HAS(page, "2 swept knobs");
    ck_assert_int_eq(count(page, "<polyline class=\"curve\""), 2);
    ASSERT_HAS(page, "data-points=\"16:750.000 64:750.000 256:750.000\"");
    ASSERT_HAS(page, "data-points=\"2:790.000 4:750.000\"");
    /* ring 1 is the only ring that waited: one blocked line per chart */
    ck_assert_int_eq(count(page, "<polyline class=\"blocked\""), 2);
    ASSERT_HAS(page, "data-ring=\"1\" stroke=\"#8e5cc2\" data-points=\"16:610.000 64:180.000 256:5.000\"");
    ASSERT_HAS(page, "data-ring=\"1\" stroke=\"#8e5cc2\" data-points=\"2:0.000 4:5.000\"");
    ASSERT_HAS(page, "<td>4</td><td>750.000</td><td>3 / 3</td><td>0.000 / 5.000 / 0.000 / 0.000</td><td "
                     "class=\"l\">task window 5.000</td><td>7</td>");
    ASSERT_HAS(page, "<th>aicpu_thread_num</th>");
    free(page);
#undef TH_ROW
#undef TH_HEADER
}
END_TEST

START_TEST(rings_that_move_apart_are_separate_knobs)
{
    const char *dir = tu_tmpdir();
    /* ring 0's window and ring 1's window vary independently; rings 1 and 2 of the dep pool move together */
    free(tu_write(dir, "sweep.csv",
                  SWEEP_HEADER "g,a2a3,4/16/16/16,1024,64/8/8/64,ok,0,0,10" SWEEP_TAIL
                               "g,a2a3,16/4/16/16,1024,64/16/16/64,ok,0,0,20" SWEEP_TAIL
                               "g,a2a3,16/16/16/16,1024,64/16/16/64,runtime_error,3,4,1" SWEEP_TAIL));
    char p[4200], err[4096];
    snprintf(p, sizeof(p), "%s/sweep.csv", dir);
    rd_sweep sw;
    ck_assert_int_eq(rd_load_sweep(p, &sw, err, sizeof(err)), RD_OK);
    rd_knob k[8];
    ck_assert_int_eq(rd_sweep_knobs(&sw, k, 8), 3);
    ck_assert_str_eq(k[0].label, "ring_task_window (ring 0)");
    ck_assert_str_eq(k[1].label, "ring_task_window (ring 1)");
    ck_assert_str_eq(k[2].label, "ring_dep_pool (rings 1, 2)");
    /* ring 0 at 16: one ok row (20) and one failed; at 4: 10 */
    rd_point *pt;
    ck_assert_int_eq(rd_sweep_curve(&sw, &k[0], 0, &pt), 2);
    ck_assert_double_eq(pt[0].makespan_us, 10);
    ck_assert_double_eq(pt[1].makespan_us, 20);
    ck_assert_int_eq(pt[1].nrows, 2);
    free(pt);
    rd_sweep_free(&sw);
    /* every row at a value failed: a cross instead of a point, named in the table */
    free(tu_write(dir, "sweep.csv",
                  SWEEP_HEADER "g,a2a3,4,1024,64,runtime_error,3,4,1" SWEEP_TAIL
                               "g,a2a3,16,1024,64,ok,0,0,20" SWEEP_TAIL));
    char *page = report_of(dir);
    ck_assert_int_eq(count(page, "<path class=\"fail\""), 1);
    ASSERT_HAS(
        page,
        "<td>4</td><td>-</td><td>0 / 1</td><td>-</td><td class=\"l\">-</td><td>2</td><td class=\"l\">runtime "
        "error 3 FLOW_CONTROL_DEADLOCK</td>");
    ASSERT_HAS(page, "data-points=\"16:20.000\"");
    free(page);
    /* a point a sweep marked missing (it gave no row) is left out, its empty cells unread */
    free(tu_write(dir, "sweep.csv",
                  SWEEP_HEADER "g,a2a3,4,1024,64,ok,0,0,10" SWEEP_TAIL ",,,,,missing,,137,,,,,,,,,,,\n"
                               "g,a2a3,16,1024,64,ok,0,0,20" SWEEP_TAIL));
    ck_assert_int_eq(rd_load_sweep(p, &sw, err, sizeof(err)), RD_OK);
    ck_assert_int_eq(sw.nrows, 2);
    ck_assert_int_eq(sw.rows[1].line, 4);
    ck_assert_double_eq(sw.rows[1].makespan_us, 20);
    rd_sweep_free(&sw);
    /* nothing swept: a note */
    free(tu_write(dir, "sweep.csv", SWEEP_HEADER "g,a2a3,4,1024,64,ok,0,0,20" SWEEP_TAIL));
    page = report_of(dir);
    ASSERT_HAS(page, "No knob takes more than one value");
    free(page);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Missing and malformed inputs                                        */
/* ------------------------------------------------------------------ */

/* A sweep with --repeat over two columns past the run's own (--set hbm_bw, --kernel-set mm.sync_start):
 *   line 2  1.6e12 false  mean 1002 sigma 4      line 5  1.6e12 true  failed
 *   line 3  3.2e12 false  mean  985 sigma 3      line 6  3.2e12 true  mean 1011 sigma 2
 *   line 4  800e9  false  mean  996 sigma 5
 * hbm_bw in numeric order 800e9, 1.6e12, 3.2e12 at x 86, 297, 508 (ranks, evenly spaced); its points with
 * their noise span 982 .. 1006 us, 2.4 % of 1006, so the axis is zoomed: pad 15 % of 24 = 3.6, step
 * nice(31.2 / 5) = 10, from floor(978.4) = 970 to ceil(1009.6) = 1010 (y = 212 - 4.75 (v - 970)); the band
 * at 3.2e12 is 988 .. 982 = y 126.5 .. 155.0. The best point is 3.2e12 at 985 (line 3); for mm.sync_start,
 * false at 985 too. */
#define REP_HEADER                                                                                           \
    "graph,platform,ring_task_window,ring_heap,ring_dep_pool,status,code,exit,makespan_us,tasks_completed,"  \
    "task_window_peak,heap_peak,dep_pool_peak,tensormap_peak,blocked_us,blocked_task_window_us,"             \
    "blocked_heap_us,blocked_dep_pool_us,blocked_tensormap_us,aicpu_thread_num,repeat_runs,"                 \
    "makespan_mean_us,makespan_sigma_us,makespan_min_us,makespan_p50_us,makespan_max_us"
#define REP_MID ",4,1,0,0,0,0,0,0,0,0,4,"
static const char REPEAT_CSV[] =
    REP_HEADER ",hbm_bw,mm.sync_start\n"
    "g,a2a3,16,1048576,64,ok,0,0,1000" REP_MID "3,1002,4,998,1002,1006,1.6e12,false\n"
    "g,a2a3,16,1048576,64,ok,0,0,990" REP_MID "3,985,3,982,985,988,3.2e12,false\n"
    "g,a2a3,16,1048576,64,ok,0,0,995" REP_MID "3,996,5,991,996,1001,800e9,false\n"
    "g,a2a3,16,1048576,64,runtime_error,3,4,5" REP_MID "0,0,0,0,0,0,1.6e12,true\n"
    "g,a2a3,16,1048576,64,ok,0,0,1010" REP_MID "3,1011,2,1009,1011,1013,3.2e12,true\n";

START_TEST(sweep_charts_zoom_to_the_spread_mark_the_best_and_draw_the_noise)
{
    const char *dir = tu_tmpdir();
    free(tu_write(dir, "sweep.csv", REPEAT_CSV));
    char p[4200], err[4096];
    snprintf(p, sizeof(p), "%s/sweep.csv", dir);
    rd_sweep sw;
    ck_assert_int_eq(rd_load_sweep(p, &sw, err, sizeof(err)), RD_OK);
    ck_assert(sw.has_repeat);
    ck_assert_int_eq(sw.nextra, 2);
    ck_assert_str_eq(sw.extra_name[0], "hbm_bw");
    ck_assert_str_eq(sw.extra_val[0][0], "800e9");
    ck_assert_str_eq(sw.extra_val[0][2], "3.2e12");
    ck_assert_str_eq(sw.extra_val[1][0], "false");
    rd_knob k[8];
    ck_assert_int_eq(rd_sweep_knobs(&sw, k, 8), 2);
    ck_assert_str_eq(k[0].label, "hbm_bw");
    ck_assert_str_eq(k[1].label, "mm.sync_start");
    rd_point *pt;
    ck_assert_int_eq(rd_sweep_curve(&sw, &k[0], 0, &pt), 3);
    ck_assert_double_eq(pt[0].makespan_us, 996); /* 800e9: the mean, not the first seed's 995 */
    ck_assert_double_eq(pt[1].makespan_us, 1002);
    ck_assert_int_eq(pt[1].nrows, 2);
    ck_assert_double_eq(pt[2].makespan_us, 985);
    free(pt);
    rd_sweep_free(&sw);

    char *page = report_of(dir);
    ck_assert_int_eq(count(page, "<figure class=\"sweep-fig\""), 2);
    ASSERT_HAS(page, "<figcaption>makespan (mean over seeds) and orchestrator blocked time against "
                     "hbm_bw</figcaption>");
    ASSERT_HAS(page, "against mm.sync_start</figcaption>");
    char *fig = between(page, "id=\"sweep-knob-0\"", "</figure>");
    ASSERT_HAS(fig, "data-y-range=\"970 1010\"");
    ASSERT_HAS(fig, "<text class=\"baseline-note\" x=\"76\" y=\"208\" fill=\"#555\">y axis from 970 µs, not 0: "
                    "the points lie within 2.4% of each other</text>");
    ASSERT_HAS(fig, "<text class=\"tick\" x=\"67\" y=\"215.5\" text-anchor=\"end\">970</text>");
    const char *a = strstr(fig, ">800e9</text>"), *b = strstr(fig, ">1.6e12</text>"),
               *c = strstr(fig, ">3.2e12</text>");
    ck_assert_msg(a && b && c && a < b && b < c, "hbm_bw's ticks are not in numeric order");
    ck_assert_int_eq(count(fig, "<polygon class=\"noise\""), 1);
    ASSERT_HAS(fig, "points=\"86.0,64.8 297.0,41.0 508.0,126.5 508.0,155.0 297.0,79.0 86.0,112.2\"");
    ck_assert_int_eq(count(fig, "<circle class=\"best\""), 1);
    ASSERT_HAS(fig, "cx=\"508.0\" cy=\"140.8\" r=\"8\" fill=\"none\" stroke=\"#111\" stroke-width=\"2\"><title>best: "
                    "3.2e12, 985.000 µs (line 3)</title>");
    ASSERT_HAS(fig, "<td>3.2e12</td><td>985.000</td><td>3.000</td><td>3</td><td>2 / 2</td>");
    ASSERT_HAS(fig, "shaded: the noise, the mean &#xB1; one standard deviation");
    free(fig);
    fig = between(page, "id=\"sweep-knob-1\"", "</figure>");
    ASSERT_HAS(fig, "<title>best: false, 985.000 µs (line 3)</title>");
    free(fig);
    ASSERT_HAS(page, "<th>aicpu_thread_num</th><th>hbm_bw</th><th>mm.sync_start</th><th class=\"l\">status</th>"
                     "<th>makespan (µs)</th><th>mean (µs)</th><th>sigma (µs)</th><th>runs</th>");
    char *again = report_of(dir);
    ck_assert_msg(strcmp(page, again) == 0, "a second report of the same sweep differs");
    free(again);
    free(page);

    /* a spread wider than a quarter keeps the axis at 0; a value where every row failed is a red cross;
     * no --repeat, no band: gen.k 24 -> 100, 48 -> 300, 96 failed (y to ceil(315 / 100) x 100 = 400) */
    free(tu_write(dir, "sweep.csv",
                  SWEEP_HEADER_NL ",gen.k\n"
                  "g,a2a3,4,1024,64,ok,0,0,300" SWEEP_TAIL_NL ",48\n"
                  "g,a2a3,4,1024,64,ok,0,0,100" SWEEP_TAIL_NL ",24\n"
                  "g,a2a3,4,1024,64,runtime_error,3,4,1" SWEEP_TAIL_NL ",96\n"));
    page = report_of(dir);
    ck_assert_int_eq(count(page, "<figure class=\"sweep-fig\""), 1);
    ASSERT_HAS(page, "data-y-range=\"0 400\"");
    ck_assert_ptr_null(strstr(page, "class=\"baseline-note\""));
    ck_assert_ptr_null(strstr(page, "<polygon class=\"noise\""));
    ck_assert_int_eq(count(page, "<path class=\"fail\""), 1);
    ASSERT_HAS(page, "<title>96: every row failed, first: line 4, runtime error 3 FLOW_CONTROL_DEADLOCK</title>");
    ASSERT_HAS(page, "<title>best: 24, 100.000 µs (line 3)</title>");
    ASSERT_HAS(page, "data-points=\"0:100.000 1:300.000\"");
    free(page);
}
END_TEST

START_TEST(missing_optional_inputs_give_notes)
{
    char *page = report_of(fixture(F_RUN));
    ASSERT_HAS(page, "No swimlane: <code>dfx_outputs/chip_swimlane_records.json</code> is absent (run with "
                     "<code>--enable-chip-swimlane</code>).");
    ASSERT_HAS(page, "No scope stats: <code>dfx_outputs/scope_stats/scope_stats.jsonl</code> is absent");
    ASSERT_HAS(page, "No <code>dfx_outputs/pmu.csv</code> (run with <code>--enable-pmu</code>)");
    ASSERT_HAS(page, "<section id=\"pipes\">");
    ck_assert_int_eq(count(page, "<section id=\"sweep\""), 0);
    free(page);
    page = report_of(fixture(F_RUN | F_SWIMLANE));
    ASSERT_HAS(page,
               "No <code>dfx_outputs/deps.json</code> (run with <code>--enable-dep-gen</code>): the critical "
               "path is not highlighted.");
    ck_assert_int_eq(count(page, "<g class=\"cp\">\n</g>"), 1); /* no red bar */
    free(page);
}
END_TEST

/* One malformed input: the file (relative to the run directory), its text, the message after "DIR/". */
typedef struct bad_case {
    const char *file, *text, *msg;
} bad_case;

#define SL_HEAD                                                                                              \
    "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 50000000, \"core_types\": [\"aic\"]}, "
#define PMU_HEAD "thread_id,core_id,task_id,func_id,core_type,pmu_total_cycles,vec_busy_cycles,event_type\n"
#define PMU_ROW(task, func, type, total, vec, ev) "0,0," task "," func "," type "," total "," vec "," ev "\n"
#define SC_HEAD                                                                                              \
    "{\"task_window_max\": [16, 16, 16, 16], \"heap_max\": [1024, 1024, 1024, 1024], \"dep_pool_max\": [4, " \
    "4, 4, "                                                                                                 \
    "4]}\n"
#define SC_REST                                                                                              \
    "\"task_window_start\": 0, \"task_window_end\": 1, \"heap_start\": 0, \"heap_end\": 0, "                 \
    "\"dep_pool_start\": 0, \"dep_pool_end\": 0}\n"
#define SW_ROW(tw, status, code, exit, ms) "g,a2a3," tw ",1024,64," status "," code "," exit "," ms SWEEP_TAIL

/* A run's required members, then the member under test. */
#define RUN_HEAD                                                                                             \
    "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "  \
    "1, "                                                                                                    \
    "\"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "     \
    "\"aiv\": "                                                                                              \
    "0}, "
#define RINGS4 "\"rings\": [" RING0 ", " RING0 ", " RING0 ", " RING0 "], "
#define RING0                                                                                                \
    "{\"task_window\": 16, \"task_window_peak\": 0, \"heap\": 1024, \"heap_peak\": 0, \"dep_pool\": 4, "     \
    "\"dep_pool_peak\": 0}"
#define DUMP_COUNTS                                                                                          \
    "\"tasks\": 1, \"records\": 1, \"payload_bytes\": 1, \"written_bytes_at_device_end\": 1, "               \
    "\"drain_deficit_bytes\": 0, \"written_bytes\": 1, \"arena_bytes_per_thread\": 1, \"truncated_args\": "  \
    "0, "                                                                                                    \
    "\"dropped_records\": 0"

static const bad_case BAD[] = {
    /* whatif.json (ptosim whatif -o): a JSON error at its line and column, then a field */
    {"whatif.json", "{\"graph\": \"g\",\n \"levers\": [}", "whatif.json:2:13: json: not valid JSON"},
    {"whatif.json",
     "{\"graph\": \"g\", \"platform\": \"p\", \"baseline_makespan_us\": 1, \"levers\": [{\"lever\": "
     "\"x\", \"flags\": [1]}]}",
     "whatif.json: levers[0].flags[0]: not a string"},
    {"whatif.json", "{\"graph\": \"g\", \"platform\": \"p\", \"baseline_makespan_us\": 0, \"levers\": []}",
     "whatif.json: baseline_makespan_us: missing or not a positive number"},
    /* ptosim_run.json */
    {"ptosim_run.json", "{\"makespan_us\": ", "ptosim_run.json:1:17: json: not valid JSON"},
    /* what a lenient reading took silently: a key given twice, a string that is not UTF-8 */
    {"ptosim_run.json", "{\"makespan_us\": 1, \"makespan_us\": 2}",
     "ptosim_run.json:1:20: makespan_us: duplicate key"},
    {"ptosim_run.json", "{\"graph\": {\"name\": \"\xff\"}}",
     "ptosim_run.json:1:21: graph.name: invalid UTF-8 in a string"},
    {"ptosim_run.json", "[1]", "ptosim_run.json: not a JSON object"},
    {"ptosim_run.json", "{}", "ptosim_run.json: outcome: missing or not an object"},
    {"ptosim_run.json", "{\"outcome\": {}}", "ptosim_run.json: outcome.status: missing or not a string"},
    {"ptosim_run.json", "{\"outcome\": {\"status\": \"ok\"}}",
     "ptosim_run.json: outcome.exit_code: missing or not a number"},
    {"ptosim_run.json", "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}}",
     "ptosim_run.json: makespan_us: missing or not a number"},
    /* numbers no int or uint64_t holds: refused, not cast (found by make fuzz) */
    {"ptosim_run.json", "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 1e30}}",
     "ptosim_run.json: outcome.exit_code: out of range"},
    {"ptosim_run.json", "{\"config\": {\"enable_chip_swimlane\": -3e9}}",
     "ptosim_run.json: config.enable_chip_swimlane: out of range"},
    {"ptosim_run.json", "{\"platform\": {\"params\": {\"sys_cnt_origin_ticks\": 1.00901e22}}}",
     "ptosim_run.json: platform.params.sys_cnt_origin_ticks: out of range"},
    {"ptosim_run.json", "{\"graph\": {\"name\": 1}}", "ptosim_run.json: graph.name: not a string"},
    {"ptosim_run.json", "{\"graph\": 7}", "ptosim_run.json: graph: not an object or null"},
    {"ptosim_run.json", "{\"config\": {\"enable_dep_gen\": 1}}",
     "ptosim_run.json: config.enable_dep_gen: not true or false"},
    {"ptosim_run.json", "{\"config\": {\"enable_chip_swimlane\": \"4\"}}",
     "ptosim_run.json: config.enable_chip_swimlane: not a number"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"runtime_error\", \"exit_code\": 4, \"runtime_error\": {\"name\": \"X\"}}}",
     "ptosim_run.json: outcome.runtime_error.code: missing or not a number"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {}}",
     "ptosim_run.json: tasks.submitted: missing or not a number"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "-1}}",
     "ptosim_run.json: tasks.submitted: not a non-negative integer"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "1, "
     "\"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "
     "\"aiv\": "
     "0}, \"kernels\": {}}",
     "ptosim_run.json: kernels: not an array"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "1, "
     "\"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "
     "\"aiv\": "
     "0}, \"kernels\": [3]}",
     "ptosim_run.json: kernels[0]: not an object"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "1, "
     "\"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "
     "\"aiv\": "
     "0}, \"kernels\": [{\"func_id\": 0, \"core\": \"cpu\"}]}",
     "ptosim_run.json: kernels[0].core: not \"aic\" or \"aiv\""},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "1, "
     "\"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "
     "\"aiv\": "
     "0}, \"kernels\": [{\"func_id\": 0, \"executions\": 1, \"core_time_us\": 1, \"pipe_busy_fraction\": "
     "{\"warp\": 0.5}}]}",
     "ptosim_run.json: kernels[0].pipe_busy_fraction.warp: not a pipe (scalar, mte1, mte2, mte3, cube, "
     "vector, "
     "fixpipe)"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "1, "
     "\"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "
     "\"aiv\": "
     "0}, \"kernels\": [{\"func_id\": 0, \"executions\": 1, \"core_time_us\": 1, \"pipe_busy_fraction\": "
     "{\"mte2\": \"high\"}}]}",
     "ptosim_run.json: kernels[0].pipe_busy_fraction.mte2: not a non-negative number"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "1, "
     "\"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "
     "\"aiv\": "
     "0}, \"rings\": [{}]}",
     "ptosim_run.json: rings: missing or not an array of 4 rings"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "1, "
     "\"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "
     "\"aiv\": "
     "0}, \"rings\": [{}, {}, {}, {}]}",
     "ptosim_run.json: rings[0].task_window: missing or not a number"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "1, \"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "
     "\"aiv\": 0}, \"overhead\": 3}",
     "ptosim_run.json: overhead: not an object or null"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"ok\", \"exit_code\": 0}, \"makespan_us\": 1, \"tasks\": {\"submitted\": "
     "1, \"completed\": 1, \"kernel_tasks\": 1, \"aicore_executions\": 1}, \"busy_fraction\": {\"aic\": 0, "
     "\"aiv\": 0}, \"overhead\": {\"computed\": true, \"window_us\": 1, \"overhead_pct\": {\"all\": 0, "
     "\"has\": 0}, \"aicore_switch\": {}, \"head_us\": {\"n\": 1}}}",
     "ptosim_run.json: overhead.head_us.p50: missing or not a number"},
    {"ptosim_run.json",
     "{\"outcome\": {\"status\": \"device_error\", \"exit_code\": 5, \"device_error\": {\"code\": 507018, "
     "\"stars_credits\": \"11\"}}}",
     "ptosim_run.json: outcome.device_error.stars_credits: not a number"},
    {"ptosim_run.json", RUN_HEAD "\"args_dump\": []}", "ptosim_run.json: args_dump: not an object or null"},
    {"ptosim_run.json", RUN_HEAD "\"args_dump\": {\"level\": 2}}",
     "ptosim_run.json: args_dump.tasks: missing or not a number"},
    {"ptosim_run.json", RUN_HEAD "\"args_dump\": {" DUMP_COUNTS "}}",
     "ptosim_run.json: args_dump.level: missing or not a number"},
    {"ptosim_run.json",
     RUN_HEAD "\"args_dump\": {" DUMP_COUNTS
              ", \"level\": 2, \"drain_bytes_per_s\": 42e6, \"frozen_us\": 0}}",
     "ptosim_run.json: args_dump.threads: missing or not an array"},
    {"ptosim_run.json",
     RUN_HEAD "\"args_dump\": {" DUMP_COUNTS ", \"level\": 2, \"drain_bytes_per_s\": 42e6, \"frozen_us\": 0, "
              "\"threads\": [7]}}",
     "ptosim_run.json: args_dump.threads[0]: not an object"},
    {"ptosim_run.json",
     RUN_HEAD "\"args_dump\": {" DUMP_COUNTS ", \"level\": 2, \"drain_bytes_per_s\": 42e6, \"frozen_us\": 0, "
              "\"threads\": [{\"payload_bytes\": 1, \"parks\": -1}]}}",
     "ptosim_run.json: args_dump.threads[0].parks: not a non-negative integer"},
    {"ptosim_run.json",
     RUN_HEAD "\"args_dump\": {" DUMP_COUNTS ", \"level\": 2, \"drain_bytes_per_s\": 42e6, \"frozen_us\": 0, "
              "\"threads\": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}]}}",
     "ptosim_run.json: args_dump.threads: more than 16 threads"},
    {"ptosim_run.json", RUN_HEAD RINGS4 "\"ring_occupancy\": {\"bucket_us\": 0, \"buckets\": 1}}",
     "ptosim_run.json: ring_occupancy.bucket_us: not a positive number"},
    {"ptosim_run.json", RUN_HEAD RINGS4 "\"ring_occupancy\": {\"bucket_us\": 1, \"buckets\": 1.5}}",
     "ptosim_run.json: ring_occupancy.buckets: not a count of buckets"},
    {"ptosim_run.json",
     RUN_HEAD RINGS4 "\"ring_occupancy\": {\"bucket_us\": 1, \"buckets\": 1, \"rings\": []}}",
     "ptosim_run.json: ring_occupancy.rings: missing or not an array of 4 rings"},
    {"ptosim_run.json",
     RUN_HEAD RINGS4
     "\"ring_occupancy\": {\"bucket_us\": 1, \"buckets\": 1, \"rings\": [null, 3, null, null]}}",
     "ptosim_run.json: ring_occupancy.rings[1]: not an object or null"},
    {"ptosim_run.json",
     RUN_HEAD RINGS4
     "\"ring_occupancy\": {\"bucket_us\": 1, \"buckets\": 1, \"rings\": [{}, null, null, null]}}",
     "ptosim_run.json: ring_occupancy.rings[0].task_window: missing or not an object"},
    {"ptosim_run.json",
     RUN_HEAD RINGS4 "\"ring_occupancy\": {\"bucket_us\": 1, \"buckets\": 2, \"rings\": [{\"task_window\": "
                     "{\"low\": [0, -1]}}, null, null, null]}}",
     "ptosim_run.json: ring_occupancy.rings[0].task_window.low: missing or not an array of 2 non-negative "
     "integers"},
    /* chip_swimlane_records.json */
    {"dfx_outputs/chip_swimlane_records.json", "{\"chip_swimlane_level\": 1, \"x\": [1, 2",
     "chip_swimlane_records.json:1:38: json: not valid JSON"},
    {"dfx_outputs/chip_swimlane_records.json", "{\"chip_swimlane_level\": 1, \"x\": \"\xff\"}",
     "chip_swimlane_records.json:1:34: json: invalid UTF-8 in a string"},
    {"dfx_outputs/chip_swimlane_records.json", "[]", "chip_swimlane_records.json: not a JSON object"},
    {"dfx_outputs/chip_swimlane_records.json", "{\"chip_swimlane_level\": 5}",
     "chip_swimlane_level: not a level 1-4"},
    {"dfx_outputs/chip_swimlane_records.json", "{\"aicore_tasks\": []}", "chip_swimlane_level: missing"},
    {"dfx_outputs/chip_swimlane_records.json", "{\"chip_swimlane_level\": 1, \"metadata\": []}",
     "metadata: not an object"},
    {"dfx_outputs/chip_swimlane_records.json",
     "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 0}}",
     "metadata.clock_freq_hz: not a positive integer"},
    {"dfx_outputs/chip_swimlane_records.json",
     "{\"chip_swimlane_level\": 1, \"metadata\": {\"num_cores\": -1}}",
     "metadata.num_cores: not a non-negative integer"},
    {"dfx_outputs/chip_swimlane_records.json",
     "{\"chip_swimlane_level\": 1, \"metadata\": {\"core_types\": 2}}", "metadata.core_types: not an array"},
    {"dfx_outputs/chip_swimlane_records.json",
     "{\"chip_swimlane_level\": 1, \"metadata\": {\"core_types\": [\"gpu\"]}}",
     "metadata.core_types[0]: not \"aic\" or \"aiv\""},
    {"dfx_outputs/chip_swimlane_records.json", "{\"chip_swimlane_level\": 1, \"metadata\": {}}",
     "metadata.clock_freq_hz: missing"},
    {"dfx_outputs/chip_swimlane_records.json",
     "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 1}}",
     "metadata.core_types: missing or empty"},
    {"dfx_outputs/chip_swimlane_records.json",
     "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 1, \"num_cores\": 2, \"core_types\": "
     "[\"aic\"]}}",
     "metadata.num_cores: 2, but core_types lists 1 cores"},
    {"dfx_outputs/chip_swimlane_records.json", SL_HEAD "\"x\": 1}", "aicore_tasks: missing"},
    {"dfx_outputs/chip_swimlane_records.json", SL_HEAD "\"aicore_tasks\": {}}", "aicore_tasks: not an array"},
    {"dfx_outputs/chip_swimlane_records.json", SL_HEAD "\"aicore_tasks\": [[0, 1, 1, 5]]}",
     "aicore_tasks[0]: not [core_id, task_id, reg_task_id, start, end, receive_to_start] integers"},
    {"dfx_outputs/chip_swimlane_records.json", SL_HEAD "\"aicore_tasks\": [[-1, 1, 1, 5, 6, 0]]}",
     "aicore_tasks[0]: core_id -1 is negative"},
    {"dfx_outputs/chip_swimlane_records.json", SL_HEAD "\"aicore_tasks\": [[0, -1, 1, 5, 6, 0]]}",
     "aicore_tasks[0]: not [core_id, task_id, reg_task_id, start, end, receive_to_start] integers"},
    {"dfx_outputs/chip_swimlane_records.json", SL_HEAD "\"aicore_tasks\": [[0, 1, 1, 5, 6, 0, 7]]}",
     "aicore_tasks[0]: not [core_id, task_id, reg_task_id, start, end, receive_to_start] integers"},
    {"dfx_outputs/chip_swimlane_records.json", SL_HEAD "\"aicore_tasks\": [[0, 1, 1, 6, 5, 0]]}",
     "aicore_tasks[0]: end 5 before start 6"},
    {"dfx_outputs/chip_swimlane_records.json",
     SL_HEAD "\"aicore_tasks\": [[0, 1, 1, 5, 6, 0], [1, 1, 1, 5, 6, 0]]}",
     "aicore_tasks[1]: core_id 1, but there are 1 cores"},
    {"dfx_outputs/chip_swimlane_records.json",
     SL_HEAD "\"aicore_tasks\": [[0, 1, 1, 5, 6, 0]], \"aicore_tasks\": [[0, 2, 2, 7, 8, 0]]}",
     "chip_swimlane_records.json:1:130: aicore_tasks: duplicate key"},
    /* deps.json */
    {"dfx_outputs/deps.json", "{\"tasks\": [], \"edges\": [", "deps.json:1:25: json: not valid JSON"},
    {"dfx_outputs/deps.json", "{\"tasks\": [], \"edges\": [], \"x\": 1e999}",
     "deps.json:1:33: json: number out of range"},
    {"dfx_outputs/deps.json", "7", "deps.json: not a JSON object"},
    {"dfx_outputs/deps.json", "{\"edges\": []}", "deps.json: tasks: missing"},
    {"dfx_outputs/deps.json", "{\"tasks\": []}", "deps.json: edges: missing"},
    {"dfx_outputs/deps.json", "{\"tasks\": {}}", "deps.json: tasks: not an array"},
    {"dfx_outputs/deps.json", "{\"tasks\": [1]}", "deps.json: tasks[0]: not an object"},
    {"dfx_outputs/deps.json", "{\"tasks\": [{\"task_id\": \"0x10\"}]}",
     "deps.json: tasks[0].task_id: not a decimal task id"},
    {"dfx_outputs/deps.json", "{\"tasks\": [{\"scope\": \"auto\"}]}", "deps.json: tasks[0].task_id: missing"},
    {"dfx_outputs/deps.json", "{\"tasks\": [{\"task_id\": \"1\", \"kernel_ids\": [0, 1]}]}",
     "deps.json: tasks[0].kernel_ids: not 3 integers"},
    {"dfx_outputs/deps.json", "{\"tasks\": [], \"edges\": 0}", "deps.json: edges: not an array"},
    {"dfx_outputs/deps.json", "{\"tasks\": [{\"task_id\": \"1\"}], \"tasks\": [{\"task_id\": \"2\"}]}",
     "deps.json:1:31: tasks: duplicate key"},
    {"dfx_outputs/deps.json", "{\"tasks\": [{\"task_id\": \"1\", \"scope\": \"auto\", \"task_id\": \"2\"}]}",
     "deps.json:1:46: task_id: duplicate key"},
    {"dfx_outputs/deps.json", "{\"tasks\": [], \"edges\": [[1, 2]]}", "deps.json: edges[0]: not an object"},
    {"dfx_outputs/deps.json", "{\"tasks\": [], \"edges\": [{\"pred\": \"-1\", \"succ\": \"2\"}]}",
     "deps.json: edges[0].pred: not a decimal task id"},
    {"dfx_outputs/deps.json", "{\"tasks\": [], \"edges\": [{\"pred\": \"1\"}]}",
     "deps.json: edges[0].succ: missing"},
    /* compact rows, as ptosim writes them: a member without its ',', a ',' before '}', a ',' first */
    {"dfx_outputs/deps.json",
     "{\"tasks\":[{\"task_id\":\"1\",\"scope\":\"auto\"}],\"edges\":[{\"pred\":\"1\"\"succ\":\"2\"}]}",
     "deps.json:1:63: json: not valid JSON"},
    {"dfx_outputs/deps.json", "{\"tasks\":[{\"task_id\":\"1\",}],\"edges\":[]}",
     "deps.json:1:26: json: not valid JSON"},
    {"dfx_outputs/deps.json", "{\"tasks\":[{,\"task_id\":\"1\"}],\"edges\":[]}",
     "deps.json:1:12: json: not valid JSON"},
    /* scope_stats.jsonl */
    {"dfx_outputs/scope_stats/scope_stats.jsonl", "",
     "scope_stats.jsonl:1: no metadata line (the file is empty)"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl", "{\"version\": 6",
     "scope_stats.jsonl:1:14: json: not valid JSON"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl", SC_HEAD "{\"ring\": 1, \"ring\": 1}\n",
     "scope_stats.jsonl:2:13: ring: duplicate key"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl", "[]", "scope_stats.jsonl:1: not a JSON object"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl", "{\"task_window_max\": [16, 16]}",
     "scope_stats.jsonl:1: task_window_max: missing or not an array of 4 numbers"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl", "{\"task_window_max\": [16, 16, -1, 16]}",
     "scope_stats.jsonl:1: task_window_max[2]: not a non-negative number"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl", "{\"task_window_max\": [16, 1e70, 16, 16]}",
     "scope_stats.jsonl:1: task_window_max[1]: not a non-negative number"}, /* past 2^64: no cast */
    {"dfx_outputs/scope_stats/scope_stats.jsonl",
     SC_HEAD "{\"ring\": 1, \"phase\": \"end\", \"task_window_start\": 0, \"task_window_end\": 3e19}\n",
     "scope_stats.jsonl:2: task_window_end: missing or not a non-negative number"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl", SC_HEAD "7\n", "scope_stats.jsonl:2: not a JSON object"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl", SC_HEAD "{\"ring\": 4, \"phase\": \"begin\", " SC_REST,
     "scope_stats.jsonl:2: ring: missing or not a ring 0-3"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl", SC_HEAD "\n{\"ring\": 1, \"phase\": \"middle\", " SC_REST,
     "scope_stats.jsonl:3: phase: missing or not \"begin\" or \"end\""},
    {"dfx_outputs/scope_stats/scope_stats.jsonl",
     SC_HEAD "{\"ring\": 1, \"phase\": \"end\", \"task_window_end\": 1}\n",
     "scope_stats.jsonl:2: task_window_start: missing or not a non-negative number"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl",
     SC_HEAD "{\"ring\": 1, \"phase\": \"end\", \"task_window_start\": 0, \"task_window_end\": 1, "
             "\"heap_start\": 0}\n",
     "scope_stats.jsonl:2: heap_end: missing or not a non-negative number"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl",
     SC_HEAD "{\"ring\": 1, \"phase\": \"end\", \"task_window_start\": 5, \"task_window_end\": 1}\n",
     "scope_stats.jsonl:2: task_window_end: 1 is below task_window_start 5"},
    /* lines of the form ptosim writes, whose values are wrong: the same messages */
    {"dfx_outputs/scope_stats/scope_stats.jsonl",
     SC_HEAD
     "{\"site\": \"g.py:1\", \"phase\": \"begin\", \"depth\": 4, \"ring\": 4, \"task_window_start\": 0, "
     "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 0, "
     "\"dep_pool_end\": 0, \"tensormap\": 0}\n",
     "scope_stats.jsonl:2: ring: missing or not a ring 0-3"},
    {"dfx_outputs/scope_stats/scope_stats.jsonl",
     SC_HEAD
     "{\"site\": \"g.py:1\", \"phase\": \"end\", \"depth\": 1, \"ring\": 1, \"task_window_start\": 0, "
     "\"task_window_end\": 0, \"heap_start\": 5, \"heap_end\": 0, \"dep_pool_start\": 0, "
     "\"dep_pool_end\": 0, \"tensormap\": 0}\n",
     "scope_stats.jsonl:2: heap_end: 0 is below heap_start 5"},
    /* pmu.csv */
    {"dfx_outputs/pmu.csv", "", "pmu.csv:1: no header line (the file is empty)"},
    {"dfx_outputs/pmu.csv",
     "thread_id,core_id,task_id,func_id,core_type,pmu_total_cycles,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,event_"
     "type\n",
     "pmu.csv:1: header: more than 16 counter columns"},
    {"dfx_outputs/pmu.csv", "thread_id,core,task_id\n",
     "pmu.csv:1: header: column 2 is \"core\", expected core_id"},
    {"dfx_outputs/pmu.csv", "thread_id,core_id,task_id,func_id,core_type,pmu_total_cycles,vec_busy_cycles\n",
     "pmu.csv:1: header: the last column is not event_type"},
    {"dfx_outputs/pmu.csv", PMU_HEAD "0,0,0x0000000000000000,0,0,10,5\n",
     "pmu.csv:2: 7 fields, the header has 8"},
    {"dfx_outputs/pmu.csv", PMU_HEAD PMU_ROW("0x10", "0", "0", "10", "5", "2"),
     "pmu.csv:2: task_id: \"0x10\" is not 0x and 16 hex digits"},
    {"dfx_outputs/pmu.csv", PMU_HEAD PMU_ROW("0x0000000000000000", "-1", "0", "10", "5", "2"),
     "pmu.csv:2: func_id: \"-1\" is not an unsigned integer"},
    {"dfx_outputs/pmu.csv", PMU_HEAD PMU_ROW("0x0000000000000000", "0", "2", "10", "5", "2"),
     "pmu.csv:2: core_type: \"2\" is not 0 (AIC) or 1 (AIV)"},
    {"dfx_outputs/pmu.csv", PMU_HEAD PMU_ROW("0x0000000000000000", "0", "0", "ten", "5", "2"),
     "pmu.csv:2: pmu_total_cycles: \"ten\" is not an unsigned integer"},
    {"dfx_outputs/pmu.csv", PMU_HEAD PMU_ROW("0x0000000000000000", "0", "0", "10", "5.5", "2"),
     "pmu.csv:2: vec_busy_cycles: \"5.5\" is not an unsigned integer"},
    {"dfx_outputs/pmu.csv", PMU_HEAD PMU_ROW("0x0000000000000000", "0", "0", "10", "5", "0"),
     "pmu.csv:2: event_type: \"0\" is not an event group"},
    {"dfx_outputs/pmu.csv",
     PMU_HEAD PMU_ROW("0x0000000000000000", "0", "0", "10", "5", "2")
         PMU_ROW("0x0000000000000001", "0", "0", "10", "5", "4"),
     "pmu.csv:3: event_type: 4, but earlier rows have 2"},
    /* sweep.csv */
    {"sweep.csv", "", "sweep.csv:1: no header line (the file is empty)"},
    {"sweep.csv",
     "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,"
     "z,a,b,c,d,"
     "e,f,g,h,i,j,k,l,m\n",
     "sweep.csv:1: header: more than 64 columns"},
    {"sweep.csv", "graph,platform,ring_task_window,ring_heap,ring_dep_pool,status,code,exit\n",
     "sweep.csv:1: header: no makespan_us column (expected the columns of ptosim run --summary-csv)"},
    {"sweep.csv", SWEEP_HEADER "g,a2a3,4,1024\n", "sweep.csv:2: 4 fields, the header has 19"},
    {"sweep.csv", SWEEP_HEADER SW_ROW("4", "ok", "0", "0", "1") SW_ROW("4/4", "ok", "0", "0", "1"),
     "sweep.csv:3: ring_task_window: \"4/4\" is not N or N/N/N/N"},
    {"sweep.csv", SWEEP_HEADER SW_ROW("4", "", "0", "0", "1"), "sweep.csv:2: status: empty"},
    {"sweep.csv", SWEEP_HEADER SW_ROW("4", "ok", "x", "0", "1"),
     "sweep.csv:2: code: \"x\" is not an integer"},
    {"sweep.csv", SWEEP_HEADER SW_ROW("4", "ok", "0", "", "1"), "sweep.csv:2: exit: \"\" is not an integer"},
    {"sweep.csv", SWEEP_HEADER SW_ROW("4", "ok", "0", "0", "-3"),
     "sweep.csv:2: makespan_us: \"-3\" is not a non-negative number"},
    {"sweep.csv",
     "ring_task_window,ring_heap,ring_dep_pool,graph,platform,status,code,exit,makespan_us,blocked_us\n"
     "4,1024,64,g,a2a3,ok,0,0,1,1/2\n",
     "sweep.csv:2: blocked_us: \"1/2\" is not N or N/N/N/N microseconds"},
    {"sweep.csv",
     "ring_task_window,ring_heap,ring_dep_pool,graph,platform,status,code,exit,makespan_us,"
     "aicpu_thread_num\n4,1024,64,g,a2a3,ok,0,0,1,x\n",
     "sweep.csv:2: aicpu_thread_num: \"x\" is not an unsigned integer"},
    {"sweep.csv", SWEEP_HEADER "g,a2a3,4,1024,64,ok,0,0,1,4,1/1/0/0,0/0/0/0,0/0/0/0,0,0,0,-1,0,0\n",
     "sweep.csv:2: blocked_heap_us: \"-1\" is not a non-negative number"},
    /* RFC 4180 quoting: a quoted line break is part of its field, so the next row starts on line 4 */
    {"sweep.csv",
     SWEEP_HEADER "\"g\nh\",\"a,2\"\"a3\",4,1024,64,ok,0,0,1" SWEEP_TAIL SW_ROW("4", "ok", "0", "0", "-3"),
     "sweep.csv:4: makespan_us: \"-3\" is not a non-negative number"},
    {"sweep.csv", REP_HEADER "\ng,a2a3,4,1024,64,ok,0,0,1" REP_MID "x,1,1,1,1,1\n",
     "sweep.csv:2: repeat_runs: \"x\" is not a non-negative integer"},
    {"sweep.csv", REP_HEADER "\ng,a2a3,4,1024,64,ok,0,0,1" REP_MID "3,-1,1,1,1,1\n",
     "sweep.csv:2: makespan_mean_us: \"-1\" is not a non-negative number"},
    {"sweep.csv", REP_HEADER "\ng,a2a3,4,1024,64,ok,0,0,1" REP_MID "3,1,y,1,1,1\n",
     "sweep.csv:2: makespan_sigma_us: \"y\" is not a non-negative number"},
    {"sweep.csv", SWEEP_HEADER_NL ",a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y\n",
     "sweep.csv:1: header: more than 24 swept columns past the run's own"},
    {"sweep.csv", SWEEP_HEADER_NL ",0123456789012345678901234567890123456789012345678901234567890123\n",
     "sweep.csv:1: header: column 20: a name longer than 63 characters"},
    {"sweep.csv",
     SWEEP_HEADER_NL ",hbm_bw\ng,a2a3,4,1024,64,ok,0,0,1" SWEEP_TAIL_NL
                     ",0123456789012345678901234567890123456789012345678901234567890123\n",
     "sweep.csv:2: hbm_bw: a value longer than 63 characters"},
    {"sweep.csv", SWEEP_HEADER "g,\"a2a3,4,1024\n",
     "sweep.csv:2: a quoted field is not closed, or text follows its closing quote (RFC 4180 quoting)"},
    {"sweep.csv", "\"graph\"x,platform\n",
     "sweep.csv:1: a quoted field is not closed, or text follows its closing quote (RFC 4180 quoting)"},
    {"dfx_outputs/pmu.csv", "\"thread_id,core_id\n",
     "pmu.csv:1: a quoted field is not closed, or text follows its closing quote (RFC 4180 quoting)"},
    {"dfx_outputs/pmu.csv", PMU_HEAD "\"0\"0,0,0x0000000000000000,0,0,10,5,2\n",
     "pmu.csv:2: a quoted field is not closed, or text follows its closing quote (RFC 4180 quoting)"},
};

START_TEST(malformed_inputs_name_file_and_field_and_write_nothing)
{
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
        const bad_case *b = &BAD[i];
        /* a good run, then the one bad file (a sweep case needs no run) */
        const char *dir = fixture(strcmp(b->file, "sweep.csv") == 0 ? 0 : F_RUN);
        put(dir, b->file, b->text);
        char err[8192], want[4400];
        int st = htmlrep_write(dir, dir, err, sizeof(err));
        ck_assert_msg(st == 3, "case %zu (%s): status %d, %s", i, b->file, st, err);
        snprintf(want, sizeof(want), "%s/", dir);
        ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "case %zu: message does not start with DIR: %s",
                      i, err);
        ck_assert_msg(strstr(err, b->msg) != NULL, "case %zu: got \"%s\", expected \"%s\"", i, err, b->msg);
        snprintf(want, sizeof(want), "%s/report.html", dir);
        ck_assert_msg(!tu_exists(want), "case %zu: a report.html was written", i);
        snprintf(want, sizeof(want), "%s/report.html.tmp", dir);
        ck_assert_msg(!tu_exists(want), "case %zu: a temporary file was left", i);
    }
}
END_TEST

START_TEST(report_command_errors_and_help)
{
    /* neither input */
    const char *dir = tu_tmpdir();
    const char *args[] = {"report", dir, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 2);
    char want[4400];
    snprintf(want, sizeof(want),
             "ptosim report: %s: no ptosim_run.json, sweep.csv or runtime capture (chip_swimlane_records.json, "
             "deps.json, scope_stats/, pmu.csv, name_map_*.json or args_dump/, in DIR or DIR/dfx_outputs); run "
             "ptosim run -o %s first\n" TU_USAGE_REPORT,
             dir,
             dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* not there, not a directory */
    char missing[4200];
    snprintf(missing, sizeof(missing), "%s/nope", dir);
    const char *a2[] = {"report", missing, NULL};
    r = tu_run(a2);
    ck_assert_int_eq(r.status, 2);
    snprintf(want, sizeof(want),
             "ptosim report: %s: cannot open directory: No such file or directory\n" TU_USAGE_REPORT, missing);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    char *file = tu_write(dir, "plain", "x");
    const char *a3[] = {"report", file, NULL};
    r = tu_run(a3);
    ck_assert_int_eq(r.status, 2);
    snprintf(want, sizeof(want), "ptosim report: %s: not a directory\n" TU_USAGE_REPORT, file);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(file);
    /* an input that is a directory */
    snprintf(missing, sizeof(missing), "%s/ptosim_run.json", dir);
    ck_assert_int_eq(mkdir(missing, 0755), 0);
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want), "ptosim report: %s/ptosim_run.json: cannot read: not a regular file\n", dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* malformed input through the program: status 3, the message on stderr */
    const char *bad = fixture(F_RUN);
    put(bad, "dfx_outputs/pmu.csv", "thread_id\n");
    const char *a4[] = {"report", bad, NULL};
    r = tu_run(a4);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim report: %s/dfx_outputs/pmu.csv:1: header: column 2 is \"\", expected core_id\n", bad);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* usage */
    const char *none[] = {"report", NULL};
    r = tu_run(none);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "usage: ptosim report DIR"));
    tu_run_free(&r);
    const char *two[] = {"report", dir, dir, NULL};
    r = tu_run(two);
    ck_assert_int_eq(r.status, 2);
    tu_run_free(&r);
    const char *help[] = {"report", "--help", NULL};
    r = tu_run(help);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "usage: ptosim report DIR"));
    ck_assert_ptr_nonnull(strstr(r.out, "Above 10000 executions"));
    tu_run_free(&r);
    const char *top[] = {"--help", NULL};
    r = tu_run(top);
    ck_assert_ptr_nonnull(strstr(r.out, "  report DIR "));
    tu_run_free(&r);
    /* success says where the page went; a trailing slash is dropped */
    const char *ok = fixture(F_RUN);
    char slash[4200];
    snprintf(slash, sizeof(slash), "%s/", ok);
    const char *a5[] = {"report", slash, NULL};
    r = tu_run(a5);
    ck_assert_int_eq(r.status, 0);
    snprintf(want, sizeof(want), "ptosim report: wrote %s/report.html\n", ok);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
}
END_TEST

/* Entries in folder dir (. and .. left out). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* Without -o the page goes only into a folder ptosim wrote: a capture someone sent, or a sweep.csv alone, is
 * refused with status 2 and nothing written there; -o OUT writes the same page into OUT (made). */
START_TEST(report_writes_into_no_folder_ptosim_did_not_write)
{
    const char *cap = fixture(F_SWIMLANE | F_DEPS); /* the runtime's files in DIR/dfx_outputs */
    const char *args[] = {"report", cap, NULL};
    char want[8800];
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 2);
    snprintf(
        want, sizeof(want),
        "ptosim report: %s holds a capture of the runtime, not a folder ptosim wrote (no ptosim_run.json, "
        "nor a sweep's points.csv and sweep.cmd), and the report writes into no other: give -o OUT to "
        "write OUT/report.html\n" TU_USAGE_REPORT,
        cap);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    ck_assert_int_eq(entries(cap), 1); /* dfx_outputs alone: no page, no temporary file */
    /* -o OUT: OUT and its parents made, the page there, DIR as it was; the page is DIR's page byte for byte
     */
    char out[4300], page_at[4400];
    snprintf(out, sizeof(out), "%s/made/here/", tu_tmpdir());
    const char *args_o[] = {"report", cap, "-o", out, NULL};
    r = tu_run(args_o);
    ck_assert_msg(r.status == 0, "%s", r.err);
    out[strlen(out) - 1] = '\0'; /* the trailing slash is dropped, as DIR's is */
    snprintf(want, sizeof(want), "ptosim report: wrote %s/report.html\n", out);
    ck_assert_str_eq(r.out, want);
    ck_assert_str_eq(r.err, "");
    tu_run_free(&r);
    ck_assert_int_eq(entries(cap), 1);
    snprintf(page_at, sizeof(page_at), "%s/report.html", out);
    char *page = tu_read(page_at), *same = report_of(fixture(F_SWIMLANE | F_DEPS));
    ck_assert_ptr_nonnull(page);
    ck_assert_str_eq(page, same);
    free(page);
    free(same);
    /* a sweep.csv alone is no sweep ptosim wrote; beside a sweep's points.csv and sweep.cmd it is */
    const char *sw = fixture(F_SWEEP);
    const char *args_s[] = {"report", sw, NULL};
    r = tu_run(args_s);
    ck_assert_int_eq(r.status, 2);
    snprintf(
        want, sizeof(want),
        "ptosim report: %s holds a sweep.csv alone, not a folder ptosim wrote (no ptosim_run.json, nor a "
        "sweep's points.csv and sweep.cmd), and the report writes into no other: give -o OUT to write "
        "OUT/report.html\n" TU_USAGE_REPORT,
        sw);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    ck_assert_int_eq(entries(sw), 2); /* sweep.csv and the fixture's empty dfx_outputs */
    put(sw, "points.csv",
        "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num\n0,points/0000,16,,,\n");
    r = tu_run(args_s);
    ck_assert_int_eq(r.status, 2); /* points.csv without sweep.cmd: still not a sweep's folder */
    tu_run_free(&r);
    put(sw, "sweep.cmd", "'g.jsonl' --ring-task-window '16'\n# the graph: 10 bytes hashing to 0\n");
    r = tu_run(args_s);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof(want), "ptosim report: wrote %s/report.html\n", sw);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
}
END_TEST

START_TEST(write_failures_are_named_and_leave_no_partial_page)
{
    /* the temporary file cannot be created: a directory holds its name */
    const char *dir = fixture(F_RUN);
    char p[4200], err[8192], want[4400];
    snprintf(p, sizeof(p), "%s/report.html.tmp", dir);
    ck_assert_int_eq(mkdir(p, 0755), 0);
    ck_assert_int_eq(htmlrep_write(dir, dir, err, sizeof(err)), 1);
    snprintf(want, sizeof(want), "%s/report.html: cannot write: Is a directory", dir);
    ck_assert_str_eq(err, want);
    snprintf(p, sizeof(p), "%s/report.html", dir);
    ck_assert(!tu_exists(p));
    /* the page cannot be renamed into place: report.html is a directory with a file in it */
    dir = fixture(F_RUN);
    snprintf(p, sizeof(p), "%s/report.html", dir);
    ck_assert_int_eq(mkdir(p, 0755), 0);
    free(tu_write(p, "keep", "x"));
    ck_assert_int_eq(htmlrep_write(dir, dir, err, sizeof(err)), 1);
    snprintf(want, sizeof(want), "%s/report.html: write failed: Is a directory", dir);
    ck_assert_str_eq(err, want);
    snprintf(p, sizeof(p), "%s/report.html.tmp", dir);
    ck_assert(!tu_exists(p));
}
END_TEST

/* ------------------------------------------------------------------ */
/* Real runs, determinism, size                                        */
/* ------------------------------------------------------------------ */

START_TEST(a_real_run_reports_its_own_numbers_byte_identically)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run",
                          TRACE("default.jsonl"),
                          "-o",
                          dir,
                          "--enable-chip-swimlane",
                          "--enable-dep-gen",
                          "--enable-scope-stats",
                          "--enable-pmu",
                          "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    cJSON *j = tu_json_file(p);
    char want[256];
    snprintf(want, sizeof(want), "<div class=\"v\">%.3f µs</div>",
             cJSON_GetObjectItem(j, "makespan_us")->valuedouble);
    /* the bottleneck card is the run's bound, as the summary words it: what, then the evidence */
    const cJSON *bound = cJSON_GetObjectItem(j, "bound");
    const char *text = cJSON_GetObjectItem(bound, "text")->valuestring;
    char bnw[1024], bnt[1024], esc[700] = "";
    for (const char *c = text; *c && strlen(esc) + 6 < sizeof(esc); c++) /* the page writes ' as &#39; */
        if (*c == '\'')
            strcat(esc, "&#39;");
        else
            strncat(esc, c, 1);
    snprintf(bnw, sizeof(bnw), "<div class=\"k\">bottleneck</div><div class=\"v\">%s</div><div class=\"d\">%s",
             cJSON_GetObjectItem(bound, "what")->valuestring, strchr(esc, ':') + 2);
    snprintf(bnt, sizeof(bnt), "What bounds this run: %s.", esc);
    double tool_makespan = cJSON_GetObjectItem(
                               cJSON_GetObjectItem(cJSON_GetObjectItem(j, "overhead"), "critical_path_tool"),
                               "makespan_us")
                               ->valuedouble;
    cJSON_Delete(j);
    char *page = report_of(dir);
    ASSERT_HAS(page, want);
    ASSERT_HAS(page, bnw);
    ASSERT_HAS(page, bnt);
    ASSERT_HAS(page, "data-mode=\"bars\"");
    ck_assert_int_eq(count(page, "<svg class=\"ring-chart\""), 3);
    ASSERT_HAS(page, "<svg id=\"pipes-chart\"");
    ASSERT_HAS(page, "<table id=\"pmu-table\">");
    ASSERT_HAS(page, "<p id=\"cp-summary\">Critical path (red): <b>");
    /* the runtime's critical_path tool, from overhead.critical_path_tool */
    snprintf(want, sizeof(want), "<tr><td class=\"l\">makespan (first start to last end)</td><td>%.3f µs</td></tr>",
             tool_makespan);
    ASSERT_HAS(page, want);
    char *again = report_of(dir);
    ck_assert_msg(strcmp(page, again) == 0, "a second report of the same directory differs");
    free(again);
    free(page);
}
END_TEST

/* traces/dump_stall.jsonl with a full dump: STARS reaps it at its 11-credit deadline while the collector
 * holds the scheduler threads parked (docs/howto/dump-stall.md: 45 s requested = 11
 * credits of 4.295 s = 47.244640256 s; 2.148 GB produced, 42 MB/s x 47.245 s = 1.984 GB drainable, 1.947 GB
 * of whole payloads written by then; thread 0 parked 14 times). The summary names the collector, not the
 * mte2 pipe of the 19 executions that ran, and does not read 2048 tasks as having run; the page has an
 * args-dump section with those figures. */
START_TEST(a_run_the_collector_killed_shows_its_dump_and_names_no_pipe_bottleneck)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", TRACE("dump_stall.jsonl"), "-o", dir, "--dump-args=2", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 5);
    ASSERT_HAS(r.out, "  tasks 19/2048 completed (2048 AICore tasks submitted, 19 executions run), makespan "
                      "47244640.256 us\n");
    ASSERT_HAS(r.out,
               "  bottleneck: the args dump collector: the scheduler threads were parked, all at once, 47.018 s "
               "of the 47.245 s makespan (99.5%) waiting for the host to drain 2.148 GB at 42 MB/s\n");
    ASSERT_HAS(r.out, "  (the scheduler threads were parked by the args dump: that freeze is what the model "
                      "counts as scheduler overhead here)\n");
    ck_assert_msg(!strstr(r.out, "mte2"), "%s", r.out);
    tu_run_free(&r);
    char *page = report_of(dir);
    char *sum = between(page, "<section id=\"summary\">", "</section>");
    ASSERT_HAS(sum, "completed; 2048 AICore tasks submitted, 19 executions run");
    ASSERT_HAS(sum, "bottleneck</div><div class=\"v bad\">args dump collector</div><div class=\"d\">the "
                    "scheduler threads were parked 99.5% of the run, waiting for the host&#39;s 42 MB/s");
    ASSERT_HAS(sum, "at 47.245 s, fired by the stars_op_execute watchdog");
    ck_assert_msg(!strstr(sum, "mte2"), "%s", sum);
    free(sum);
    ASSERT_HAS(page, "<a href=\"#summary\">Summary</a><a href=\"#dump\">Args dump</a>");
    char *dump = between(page, "<section id=\"dump\">", "</section>");
    ASSERT_HAS(dump,
               "Level 2: 2048 tasks dumped, 184 records. Each scheduler thread copies payloads into its "
               "128 MiB arena; the host's collector drains them at 42 MB/s.");
    ASSERT_HAS(dump,
               "Killed by STARS at 47.245 s</b>: the op-execute timeout of 45.000 s requested rounds up to "
               "11 credits = 47.245 s, while the scheduler threads were parked waiting for the host. The "
               "host recovered 2 threads' un-flushed buffers.");
    ASSERT_HAS(dump, "produced</div><div class=\"v\">2.148 GB</div><div class=\"d\">2148239424 bytes");
    ASSERT_HAS(dump, "drained by the kill</div><div class=\"v\">1.947 GB</div>");
    ASSERT_HAS(dump, "deficit</div><div class=\"v bad\">201.642 MB</div>");
    ASSERT_HAS(dump, "threads frozen</div><div class=\"v\">47.018 s</div><div class=\"d\">99.5% of the run");
    ASSERT_HAS(dump, "in the 47.245 s before the kill it could write at most 42 MB/s × 47.245 s = 1.984 GB.");
    ASSERT_HAS(dump, "<tr><td>0</td><td>939.824 MB</td><td>14</td><td>21.449 s</td><td>45.4%</td></tr>");
    ck_assert_int_eq(count(dump, "<tr><td>"), 3); /* three scheduler threads */
    ASSERT_HAS(dump, "STARS deadline</text>");
    free(dump);
    /* the overhead model reads the freeze as scheduler time: said so; Pipes names no run bottleneck */
    char *oh = between(page, "<section id=\"overhead\">", "</section>");
    ASSERT_HAS(oh, "The args dump froze the scheduler threads for 99.5% of this run");
    free(oh);
    char *pipes = between(page, "<section id=\"pipes\">", "</section>");
    ASSERT_HAS(pipes, "the busiest pipe of the kernel with the most time on cores (*) is the <b>mte2</b>");
    ck_assert_msg(!strstr(pipes, "the run's bottleneck"), "%s", pipes);
    free(pipes);
    free(page);
}
END_TEST

START_TEST(a_big_swimlane_is_binned_and_stays_small)
{
    /* 100,800 executions on 72 cores (1400 each) with busy shares that change from column to column */
    const char *dir = fixture(F_RUN);
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/chip_swimlane_records.json", dir);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 72, "
          "\"core_types\": [",
          f);
    for (int c = 0; c < 72; c++)
        fprintf(f, "%s\"%s\"", c ? ", " : "", c < 24 ? "aic" : "aiv");
    fputs("]}, \"aicore_tasks\": [\n", f);
    const int per = 1400, slot = 90; /* ticks per execution slot; the run spans 126000 ticks */
    for (int c = 0; c < 72; c++)
        for (int k = 0; k < per; k++) {
            long s = 1000000 + (long)k * slot, d = 10 + (long)((k * 7 + c) % 8) * 10;
            if (c == 0 && k == per - 1)
                d = 89; /* core 0's chain ends last */
            fprintf(f, "%s[%d, %ld, %d, %ld, %ld, 5]", c || k ? ",\n" : "", c, (long)c * per + k, k + 1, s,
                    s + d);
        }
    fputs("]}\n", f);
    fclose(f);
    /* a deps chain through core 0's executions, so the critical path is marked too */
    snprintf(p, sizeof(p), "%s/dfx_outputs/deps.json", dir);
    f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"tasks\": [", f);
    for (int k = 0; k < per; k++)
        fprintf(f, "%s{\"task_id\": \"%d\", \"kernel_ids\": [0, -1, -1]}", k ? "," : "", k);
    fputs("], \"edges\": [", f);
    for (int k = 1; k < per; k++)
        fprintf(f, "%s{\"pred\": \"%d\", \"succ\": \"%d\"}", k > 1 ? "," : "", k - 1, k);
    fputs("]}\n", f);
    fclose(f);
    char *page = report_of(dir);
    size_t size = strlen(page);
    ASSERT_HAS(page, "data-mode=\"bins\"");
    ASSERT_HAS(page, "100800 AICore executions on 72 cores");
    ASSERT_HAS(page, "<b>1400 tasks</b>, t0 to t1399");
    /* at most 5 paths a core (4 shades and the critical path) and one for the path's lane, no bar per
     * execution; every one of the 72 lanes labelled, and the path's */
    char *svg = between(page, "<svg id=\"swimlane-chart\"", "</svg>");
    ck_assert_int_le(count(svg, "<path"), 72 * 5 + 1);
    ck_assert_int_eq(count(svg, "<text class=\"lane\""), 73);
    ck_assert_int_eq(count(svg, "id=\"cp-lane\""), 1);
    ck_assert_int_ge(count(svg, "<path class=\"cp\""), 1);
    ck_assert_int_lt(count(svg, "<rect"), 100);
    free(svg);
    ck_assert_msg(size < 5u * 1000 * 1000, "report.html is %zu bytes", size);
    free(page);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Headless Chromium                                                   */
/* ------------------------------------------------------------------ */

/* Measures the rendered page and writes the facts as JSON into <pre id="probe"> (non-ASCII and <>& as \u
 * escapes, so the DOM dump needs no unescaping): section ids and visible text, rendered SVGs, curves, ring
 * series, critical-path bars with their computed fill, text boxes that overlap or leave their SVG. */
static const char PROBE[] =
    "<script>window.addEventListener('load', function () {\n"
    "var R = {sections: [], text: {}, svgs: {}, curves: [], series: {}, cp: [], overlaps: [], clipped: [],\n"
    "         lanes: 0, links: [], lane: null};\n"
    "document.querySelectorAll('section').forEach(function (s) {\n"
    "  R.sections.push(s.id); R.text[s.id] = s.innerText; var n = 0;\n"
    "  s.querySelectorAll('svg').forEach(function (g) { var b = g.getBoundingClientRect();\n"
    "    if (b.width > 50 && b.height > 30) n++; });\n"
    "  R.svgs[s.id] = n; });\n"
    "document.querySelectorAll('#sweep polyline.curve').forEach(function (p) {\n"
    "  R.curves.push({points: p.getAttribute('data-points'), n: p.points.numberOfItems,\n"
    "                 w: p.getBoundingClientRect().width}); });\n"
    "['task_window', 'heap', 'dep_pool'].forEach(function (k) { var a = [];\n"
    "  document.querySelectorAll('#ring-' + k + ' polyline.series').forEach(function (p) {\n"
    "    if (p.getBoundingClientRect().width > 0) a.push(p.getAttribute('data-ring')); });\n"
    "  R.series[k] = a.join(''); });\n"
    "R.lanes = document.querySelectorAll('#swimlane-chart text.lane').length;\n"
    "var lb = document.getElementById('cp-lane-bg');\n"
    "if (lb) { var q = lb.getBoundingClientRect(); R.lane = {top: q.top, bottom: q.bottom}; }\n"
    "document.querySelectorAll('#swimlane-chart g.cpl path').forEach(function (p) { var q = "
    "p.getBoundingClientRect();\n"
    "  R.links.push({top: q.top, bottom: q.bottom}); });\n"
    "document.querySelectorAll('#swimlane-chart g.cp:not(#cp-lane) rect').forEach(function (r) { var b = "
    "r.getBoundingClientRect();\n"
    "  R.cp.push({title: r.querySelector('title').textContent, fill: getComputedStyle(r).fill, w: b.width,\n"
    "             h: b.height}); });\n"
    "document.querySelectorAll('svg').forEach(function (g) { var gb = g.getBoundingClientRect();\n"
    "  var t = Array.prototype.map.call(g.querySelectorAll('text'), function (e) {\n"
    "    return {s: e.textContent, b: e.getBoundingClientRect()}; });\n"
    "  t.forEach(function (a, i) { var x = a.b;\n"
    "    if (x.left < gb.left - 1 || x.right > gb.right + 1 || x.top < gb.top - 1 || x.bottom > gb.bottom + "
    "1)\n"
    "      R.clipped.push((g.id || g.getAttribute('class')) + ': ' + a.s);\n"
    "    for (var j = i + 1; j < t.length; j++) { var y = t[j].b;\n"
    "      if (x.left < y.right - 1 && y.left < x.right - 1 && x.top < y.bottom - 1 && y.top < x.bottom - "
    "1)\n"
    "        R.overlaps.push((g.id || g.getAttribute('class')) + ': ' + a.s + ' / ' + t[j].s); } }); });\n"
    "var p = document.createElement('pre'); p.id = 'probe';\n"
    "p.textContent = JSON.stringify(R).replace(/[\\u007f-\\uffff<>&]/g, function (c) {\n"
    "  return '\\\\u' + ('000' + c.charCodeAt(0).toString(16)).slice(-4); });\n"
    "document.body.appendChild(p); });</script>\n";

/* Runs chromium with args (NULL-terminated), stdout to out_path; returns its exit status. */
static int chromium(const char *const *args, const char *out_path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        const char *argv[24];
        int n = 0;
        argv[n++] = "chromium";
        for (int i = 0; args[i] && n < 23; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open("/dev/null", O_WRONLY);
        dup2(fo, 1);
        dup2(fe, 2);
        execvp("chromium", (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* rm -rf of the browser profile (2-3 MB a launch). */
static void rm_tree(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4096];
    snprintf(buf, sizeof(buf), "%s", path ? path : "/usr/bin:/bin");
    for (char *d = strtok(buf, ":"); d; d = strtok(NULL, ":")) {
        char p[4200];
        snprintf(p, sizeof(p), "%s/%s", d, prog);
        if (access(p, X_OK) == 0)
            return true;
    }
    return false;
}

static const cJSON *probe_get(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(v != NULL, "probe lacks %s", key);
    return v;
}

/* Renders DIR/report.html in headless Chromium with the probe and returns the probe's facts (the caller
 * deletes them). */
static cJSON *probe_page(const char *dir)
{
    char *page = report_of(dir);
    char probe_path[4200], dom_path[4200], ud[4200], url[4300];
    snprintf(probe_path, sizeof(probe_path), "%s/probe.html", dir);
    FILE *f = fopen(probe_path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(page, f);
    fputs(PROBE, f);
    fclose(f);
    free(page);
    snprintf(dom_path, sizeof(dom_path), "%s/dom.html", dir);
    snprintf(ud, sizeof(ud), "--user-data-dir=%s/chromium-profile", dir);
    snprintf(url, sizeof(url), "file://%s", probe_path);
    const char *dump[] = {"--headless",
                          "--no-sandbox",
                          "--disable-gpu",
                          ud,
                          "--window-size=1200,900",
                          "--virtual-time-budget=3000",
                          "--dump-dom",
                          url,
                          NULL};
    int st = chromium(dump, dom_path);
    ck_assert_msg(st == 0, "chromium --dump-dom exited with %d", st);
    char *dom = tu_read(dom_path);
    ck_assert_ptr_nonnull(dom);
    char *json = between(dom, "<pre id=\"probe\">", "</pre>");
    cJSON *R = cJSON_Parse(json + strlen("<pre id=\"probe\">"));
    ck_assert_msg(R != NULL, "the probe's JSON does not parse: %.200s", json);
    free(json);
    free(dom);
    return R;
}

/* No label overlaps another or leaves its chart; every critical-path connector stays in the path's lane. */
static void assert_tidy(const cJSON *R)
{
    char *ov = cJSON_PrintUnformatted(probe_get(R, "overlaps")),
         *cl = cJSON_PrintUnformatted(probe_get(R, "clipped"));
    ck_assert_msg(strcmp(ov, "[]") == 0, "overlapping labels: %s", ov);
    ck_assert_msg(strcmp(cl, "[]") == 0, "labels outside their chart: %s", cl);
    free(ov);
    free(cl);
    const cJSON *lane = probe_get(R, "lane"), *l;
    cJSON_ArrayForEach(l, probe_get(R, "links"))
    {
        ck_assert_msg(cJSON_IsObject(lane), "connectors without a critical-path lane");
        double top = cJSON_GetObjectItem(l, "top")->valuedouble,
               bot = cJSON_GetObjectItem(l, "bottom")->valuedouble,
               lt = cJSON_GetObjectItem(lane, "top")->valuedouble,
               lb = cJSON_GetObjectItem(lane, "bottom")->valuedouble;
        ck_assert_msg(top >= lt - 1 && bot <= lb + 1, "a connector spans %.1f-%.1f px, the lane %.1f-%.1f",
                      top, bot, lt, lb);
    }
}

#define ASSERT_SHOWS(section, text)                                                                          \
    ck_assert_msg(strstr(cJSON_GetObjectItem(probe_get(R, "text"), section)->valuestring, (text)) != NULL,   \
                  "section %s does not show: %s", section, text)

START_TEST(chromium_renders_every_section_with_its_numbers)
{
    ck_assert_msg(on_path("chromium"),
                  "chromium is not on PATH: `make check` installs Debian's chromium package through "
                  "scripts/install-deps.sh --chromium (apt-get, as root or with sudo); run that, then retry");
    const char *dir = fixture(F_ALL);
    char dom_path[4200], png_path[4200], ud[4200], url[4300];
    snprintf(ud, sizeof(ud), "--user-data-dir=%s/chromium-profile", dir);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cJSON *R = probe_page(dir);

    /* every section, in order, each with its charts rendered at a visible size */
    const cJSON *secs = probe_get(R, "sections");
    static const char *const want_secs[] = {"summary", "overhead", "swimlane", "rings",
                                            "pipes",   "roofline", "sweep"};
    static const int want_svgs[] = {1, 1, 1, 3, 1, 1, 4}; /* sweep: makespan and blocked time per knob */
    ck_assert_int_eq(cJSON_GetArraySize(secs), 7);
    for (int i = 0; i < 7; i++) {
        ck_assert_str_eq(cJSON_GetArrayItem(secs, i)->valuestring, want_secs[i]);
        ck_assert_msg(cJSON_GetObjectItem(probe_get(R, "svgs"), want_secs[i])->valueint == want_svgs[i],
                      "section %s renders %d svgs", want_secs[i],
                      cJSON_GetObjectItem(probe_get(R, "svgs"), want_secs[i])->valueint);
    }
    /* the numbers a reader sees */
    ASSERT_SHOWS("summary", "makespan\n36.000 µs");
    ASSERT_SHOWS("summary", "outcome\nok");
    ASSERT_SHOWS("summary", "4 / 4");
    ASSERT_SHOWS("summary", "AIC busy\n27.8%");
    ASSERT_SHOWS("summary", "AIV busy\n52.8%");
    ASSERT_SHOWS("summary", "bottleneck\nmte2 pipe\n90.0% busy in mm");
    ASSERT_SHOWS("overhead", "AIV overhead\n4.4%");
    ASSERT_SHOWS("overhead", "has\n8.8%\npartially scheduler-limited");
    ASSERT_SHOWS("swimlane", "Critical path (red): 3 tasks, t0 to t2");
    ASSERT_SHOWS("swimlane", "2\tt1\tvadd\t14.000\t24.000\t10.000\t2.000");
    ASSERT_SHOWS("rings", "ring 1: highest 4 of 16 (25.0%)");
    ASSERT_SHOWS("rings", "ring 2: never used");
    ASSERT_SHOWS("rings", "simulated time since launch (µs)");
    ASSERT_SHOWS("pipes", "mte2");
    ASSERT_SHOWS("pipes", "90%");
    ASSERT_SHOWS("pipes", "Kernels with a flat cost (no pipe model): vadd.");
    ASSERT_SHOWS("roofline", "mm\tAIC\t16 FLOP/B\t20.0 TFLOP/s\t25.6 TFLOP/s\tmemory\t78.1%\tmte2\t50.0%");
    ASSERT_SHOWS("roofline", "vadd\tAIV\tno pipe profile\t-\t-\t-\t-\t-\t25.0%");
    ASSERT_SHOWS("sweep", "2 swept knobs");
    ASSERT_SHOWS("sweep", "makespan and orchestrator blocked time against ring_task_window (all rings)");
    ASSERT_SHOWS("sweep", "makespan and orchestrator blocked time against ring_heap (ring 1)");
    ASSERT_SHOWS("sweep",
                 "4\t900.000\t1 / 2\t0.000 / 1.500 / 0.000 / 0.000\ttask window 1.500\t3\tothers: first "
                 "runtime error 3 FLOW_CONTROL_DEADLOCK");
    /* the critical path: three red bars, drawn at a visible size */
    const cJSON *cp = probe_get(R, "cp");
    ck_assert_int_eq(cJSON_GetArraySize(cp), 3);
    /* in file order: core 0 (t0), core 1 (t2), core 2 (t1) */
    static const char *const cp_title[3] = {"t0 mm on AIC_0: 2.000", "t2 mm on AIC_1: 26.000",
                                            "t1 vadd on AIV_2: 14.000"};
    for (int i = 0; i < 3; i++) {
        const cJSON *b = cJSON_GetArrayItem(cp, i);
        ck_assert_msg(
            strncmp(cJSON_GetObjectItem(b, "title")->valuestring, cp_title[i], strlen(cp_title[i])) == 0,
            "critical bar %d: %s", i, cJSON_GetObjectItem(b, "title")->valuestring);
        ck_assert_str_eq(cJSON_GetObjectItem(b, "fill")->valuestring, "rgb(214, 39, 40)");
        ck_assert(cJSON_GetObjectItem(b, "w")->valuedouble > 50 &&
                  cJSON_GetObjectItem(b, "h")->valuedouble > 4);
    }
    /* one series per ring with samples in each ring chart; one curve per swept knob */
    const cJSON *series = probe_get(R, "series");
    ck_assert_str_eq(cJSON_GetObjectItem(series, "task_window")->valuestring, "013");
    ck_assert_str_eq(cJSON_GetObjectItem(series, "heap")->valuestring, "013");
    ck_assert_str_eq(cJSON_GetObjectItem(series, "dep_pool")->valuestring, "013");
    const cJSON *curves = probe_get(R, "curves");
    ck_assert_int_eq(cJSON_GetArraySize(curves), 2);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(curves, 0), "points")->valuestring,
                     "4:900.000 16:450.000 64:300.000");
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(curves, 0), "n")->valueint, 3);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(curves, 1), "points")->valuestring,
                     "1024:300.000 2048:320.000");
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(curves, 1), "n")->valueint, 2);
    for (int i = 0; i < 2; i++)
        ck_assert(cJSON_GetObjectItem(cJSON_GetArrayItem(curves, i), "w")->valuedouble > 100);
    /* every lane labelled (4 cores and the critical path); the 2 connectors in the path's lane */
    ck_assert_int_eq(probe_get(R, "lanes")->valueint, 5);
    ck_assert_int_eq(cJSON_GetArraySize(probe_get(R, "links")), 2);
    assert_tidy(R);
    cJSON_Delete(R);

    /* and the pristine page as pixels: a 1200 x 2400 PNG that is not blank (a blank page of that size
     * compresses to about 13 KB, a title and one line of text to 18 KB) */
    snprintf(png_path, sizeof(png_path), "--screenshot=%s/shot.png", dir);
    snprintf(url, sizeof(url), "file://%s/report.html", dir);
    const char *shot[] = {"--headless",
                          "--no-sandbox",
                          "--disable-gpu",
                          ud,
                          "--hide-scrollbars",
                          "--window-size=1200,2400",
                          png_path,
                          url,
                          NULL};
    snprintf(dom_path, sizeof(dom_path), "%s/shot.log", dir);
    int st = chromium(shot, dom_path);
    ck_assert_msg(st == 0, "chromium --screenshot exited with %d", st);
    snprintf(png_path, sizeof(png_path), "%s/shot.png", dir);
    FILE *pf = fopen(png_path, "rb");
    ck_assert_msg(pf != NULL, "no screenshot written");
    unsigned char h[24];
    ck_assert_int_eq(fread(h, 1, sizeof(h), pf), sizeof(h));
    fseek(pf, 0, SEEK_END);
    long png_size = ftell(pf);
    fclose(pf);
    ck_assert(memcmp(h, "\x89PNG\r\n\x1a\n", 8) == 0 && memcmp(h + 12, "IHDR", 4) == 0);
    unsigned w = (unsigned)h[16] << 24 | (unsigned)h[17] << 16 | (unsigned)h[18] << 8 | h[19];
    unsigned ht = (unsigned)h[20] << 24 | (unsigned)h[21] << 16 | (unsigned)h[22] << 8 | h[23];
    ck_assert_uint_eq(w, 1200);
    ck_assert_uint_eq(ht, 2400);
    ck_assert_msg(png_size > 60000, "the screenshot is %ld bytes: a blank page?", png_size);
    rm_tree(ud + strlen("--user-data-dir="));

    /* a real run STARS killed while the dump collector held the threads: its args-dump section renders,
     * each of its 72 cores' lanes is labelled without a label touching the next */
    const char *ds = tu_tmpdir();
    const char *args[] = {"run",
                          TRACE("dump_stall.jsonl"),
                          "-o",
                          ds,
                          "--dump-args=2",
                          "--enable-chip-swimlane",
                          "--enable-dep-gen",
                          "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 5);
    tu_run_free(&r);
    R = probe_page(ds);
    const cJSON *secs2 = probe_get(R, "sections");
    static const char *const want2[] = {"summary", "dump",  "overhead", "swimlane",
                                        "rings",   "pipes", "roofline"};
    ck_assert_int_eq(cJSON_GetArraySize(secs2), 7);
    for (int i = 0; i < 7; i++)
        ck_assert_str_eq(cJSON_GetArrayItem(secs2, i)->valuestring, want2[i]);
    ck_assert_int_eq(cJSON_GetObjectItem(probe_get(R, "svgs"), "dump")->valueint, 1);
    ASSERT_SHOWS("summary", "bottleneck\nargs dump collector");
    ASSERT_SHOWS("dump", "Killed by STARS at 47.245 s");
    ck_assert_int_eq(probe_get(R, "lanes")->valueint, 73);
    assert_tidy(R);
    cJSON_Delete(R);
    snprintf(ud, sizeof(ud), "%s/chromium-profile", ds);
    rm_tree(ud);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fprintf(stderr, "chromium: 3 launches, %.1f s\n",
            (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Markup in every string of every input: the page runs no script      */
/* ------------------------------------------------------------------ */

/* What a folder someone sent may hold in any string: unescaped, it ends an attribute ("), a single-quoted
 * one (') or a tag (>) and starts an element with an event handler, which sets the page's body id. At most
 * 31 bytes, so the shortest field ptosim keeps (bottleneck.pipe) keeps it whole. XSS_P2, without the double
 * quote, is tried where a CSV reader takes no quoted cell. */
#define XSS_P1 "\"'><svg/onload=body.id=7>"
#define XSS_P2 "'><svg/onload=body.id=8>"
#define XSS_MARK "onload=body.id" /* how many made it into the page, as text */
#define XSS_MAX_SITES 512

/* Collects into paths the distinct places of o's string values: ".key" per member, "[*]" per array entry. */
static void xss_json_paths(const cJSON *o, char *path, size_t len, char (*paths)[160], int *n)
{
    size_t at = strlen(path);
    if (cJSON_IsString(o)) {
        for (int i = 0; i < *n; i++)
            if (strcmp(paths[i], path) == 0)
                return;
        if (*n < XSS_MAX_SITES)
            snprintf(paths[(*n)++], 160, "%s", path);
        return;
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, o)
    {
        if (cJSON_IsObject(o))
            snprintf(path + at, len - at, ".%s", c->string);
        else
            snprintf(path + at, len - at, "[*]");
        xss_json_paths(c, path, len, paths, n);
        path[at] = '\0';
    }
}

/* Sets every string value of o at place want to payload. */
static void xss_json_set(cJSON *o, char *path, size_t len, const char *want, const char *payload)
{
    size_t at = strlen(path);
    if (cJSON_IsString(o)) {
        if (strcmp(path, want) == 0)
            ck_assert_ptr_nonnull(cJSON_SetValuestring(o, payload));
        return;
    }
    cJSON *c;
    cJSON_ArrayForEach(c, o)
    {
        if (cJSON_IsObject(o))
            snprintf(path + at, len - at, ".%s", c->string);
        else
            snprintf(path + at, len - at, "[*]");
        xss_json_set(c, path, len, want, payload);
        path[at] = '\0';
    }
}

/* text with place `site` of each JSON document in it (one, or one a line) set to payload; site < 0: the
 * number of places in *nsites. Returns the new text (malloc'd) or NULL. */
static char *xss_json_text(const char *text, bool lines, int site, const char *payload, int *nsites)
{
    static char paths[XSS_MAX_SITES][160];
    int n = 0;
    char *copy = strdup(text), *out = NULL;
    size_t outlen = 0;
    FILE *m = open_memstream(&out, &outlen);
    char *save = NULL;
    for (char *doc = lines ? strtok_r(copy, "\n", &save) : copy; doc;
         doc = lines ? strtok_r(NULL, "\n", &save) : NULL) {
        cJSON *j = cJSON_Parse(doc);
        ck_assert_msg(j != NULL, "not JSON: %.80s", doc);
        char path[512] = "";
        xss_json_paths(j, path, sizeof(path), paths, &n);
        if (site >= 0 && site < n)
            xss_json_set(j, path, sizeof(path), paths[site], payload);
        char *p = cJSON_PrintUnformatted(j);
        fprintf(m, "%s\n", p);
        free(p);
        cJSON_Delete(j);
    }
    fclose(m);
    free(copy);
    *nsites = n;
    return out;
}

/* A CSV cell written back: quoted (its quotes doubled) when it holds a comma or a quote. */
static void xss_csv_cell(FILE *m, const char *c)
{
    if (!strpbrk(c, ",\"")) {
        fputs(c, m);
        return;
    }
    fputc('"', m);
    for (; *c; c++)
        fputs(*c == '"' ? "\"\"" : (char[]){*c, '\0'}, m);
    fputc('"', m);
}

/* Cuts the next cell off *line (RFC 4180 on one line: in a quoted cell "" is a quote) into cell; false past
 * the line's last cell. */
static bool xss_csv_next(const char **line, char *cell, size_t len, bool *more)
{
    const char *p = *line;
    size_t n = 0;
    if (!*more)
        return false;
    if (*p == '"') {
        for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
            if (*p == '"')
                p++;
            if (n + 1 < len)
                cell[n++] = *p;
        }
        if (*p == '"')
            p++;
    } else
        for (; *p && *p != ','; p++)
            if (n + 1 < len)
                cell[n++] = *p;
    cell[n] = '\0';
    *more = *p == ',';
    *line = *p ? p + 1 : p;
    return true;
}

/* text (a CSV without line breaks in its cells, as ptosim writes these) with site 2c (the header's column c)
 * or 2c+1 (column c of every row) set to payload; *nsites gets the number of places. */
static char *xss_csv_text(const char *text, int site, const char *payload, int *nsites)
{
    char *copy = strdup(text), *out = NULL, *save = NULL;
    size_t outlen = 0;
    FILE *m = open_memstream(&out, &outlen);
    int row = 0, ncols = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save), row++) {
        const char *p = line;
        char cell[1024];
        bool more = true;
        int col = 0;
        while (xss_csv_next(&p, cell, sizeof(cell), &more)) {
            if (col)
                fputc(',', m);
            xss_csv_cell(m, site == 2 * col + (row > 0) ? payload : cell);
            col++;
        }
        if (!row)
            ncols = col;
        fputc('\n', m);
    }
    fclose(m);
    free(copy);
    *nsites = 2 * ncols;
    return out;
}

/* One place the report took markup at: which input file, which place in it, which payload. */
typedef struct xss_site {
    int file, site, payload;
} xss_site;

/* Sets place `site` of the input at path to text; *nsites gets the file's number of places. */
static void xss_apply(const char *path, int site, const char *text, int *nsites)
{
    size_t n = strlen(path);
    bool csv = n > 4 && strcmp(path + n - 4, ".csv") == 0,
         lines = n > 6 && strcmp(path + n - 6, ".jsonl") == 0;
    char *was = tu_read(path);
    char *now = csv ? xss_csv_text(was, site, text, nsites) : xss_json_text(was, lines, site, text, nsites);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(now, f);
    ck_assert_int_eq(fclose(f), 0);
    free(was);
    free(now);
}

static const char *const XSS_PAYLOADS[] = {XSS_P1, XSS_P2};
#define XSS_PLAIN "plain words stand in here" /* the same places without markup: the page to compare with */

/* Puts markup into every string of every input of the report of dir, one place at a time: a place the
 * report refuses (a field it checks, status 3) gets its bytes back, one it takes keeps the markup, so in
 * the end the folder holds every injection the report accepts at once. Returns how many it took, each in
 * took[]. */
static int xss_inject(const char *dir, const char *const *files, xss_site *took, int max)
{
    int kept = 0;
    char err[8192];
    for (int fi = 0; files[fi]; fi++) {
        char path[8800 + 64];
        snprintf(path, sizeof(path), "%s/%s", dir, files[fi]);
        if (!tu_exists(path))
            continue;
        int nsites = 1;
        for (int site = 0; site < nsites; site++)
            for (int k = 0; k < 2; k++) {
                char *was = tu_read(path);
                xss_apply(path, site, XSS_PAYLOADS[k], &nsites);
                int rc = htmlrep_write(dir, dir, err, sizeof(err));
                ck_assert_msg(rc == 0 || rc == 3, "%s site %d: status %d: %s", files[fi], site, rc, err);
                if (rc != 0) { /* refused: the field is checked; its bytes back */
                    FILE *f = fopen(path, "w");
                    fputs(was, f);
                    ck_assert_int_eq(fclose(f), 0);
                }
                free(was);
                if (rc == 0) {
                    ck_assert_int_lt(kept, max);
                    took[kept++] = (xss_site){fi, site, k};
                    break;
                }
            }
    }
    ck_assert_msg(htmlrep_write(dir, dir, err, sizeof(err)) == 0, "%s", err);
    return kept;
}

/* The same places of dir's inputs set to plain words. */
static void xss_plain(const char *dir, const char *const *files, const xss_site *took, int n)
{
    char err[8192];
    for (int i = 0; i < n; i++) {
        char path[8800 + 64];
        int nsites;
        snprintf(path, sizeof(path), "%s/%s", dir, files[took[i].file]);
        xss_apply(path, took[i].site, XSS_PLAIN, &nsites);
    }
    ck_assert_msg(htmlrep_write(dir, dir, err, sizeof(err)) == 0, "%s", err);
}

/* The wrapper page: each report page in an iframe; once all have loaded, every element's tag and every
 * attribute's name of each, the event handlers and javascript: values, the body's id and how much of the
 * markup shows as text, as JSON in <pre id="probe">. */
static const char XSS_PROBE[] =
    "<script>window.addEventListener('load', function () {\n"
    "var out = [];\n"
    "document.querySelectorAll('iframe').forEach(function (fr) {\n"
    "  var d = fr.contentDocument, tags = {}, attrs = {}, on = [], js = [];\n"
    "  d.querySelectorAll('*').forEach(function (e) {\n"
    "    tags[e.tagName.toLowerCase()] = 1;\n"
    "    for (var i = 0; i < e.attributes.length; i++) {\n"
    "      var a = e.attributes[i], n = a.name.toLowerCase();\n"
    "      attrs[n] = 1;\n"
    "      if (n.indexOf('on') === 0) on.push(e.tagName + ' ' + n);\n"
    "      if (/^[\\s\\u0000-\\u001f]*javascript:/i.test(a.value)) js.push(e.tagName + ' ' + n);\n"
    "    } });\n"
    "  out.push({page: fr.getAttribute('src'), body_id: d.body ? d.body.id : 'no body', tags: "
    "Object.keys(tags).sort(),\n"
    "    attrs: Object.keys(attrs).sort(), on: on, js: js,\n"
    "    marks: d.documentElement.textContent.split('" XSS_MARK "').length - 1}); });\n"
    "var p = document.createElement('pre'); p.id = 'probe';\n"
    "p.textContent = JSON.stringify(out).replace(/[\\u007f-\\uffff<>&]/g, function (c) {\n"
    "  return '\\\\u' + ('000' + c.charCodeAt(0).toString(16)).slice(-4); });\n"
    "document.body.appendChild(p); });</script>\n";

/* Copies folder from to to (cp -a). */
static void copy_tree(const char *from, const char *to)
{
    const char *argv[] = {"/bin/cp", "-a", from, to, NULL};
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Runs ptosim with args, expecting exit status want. */
static void ptosim_ok(const char *const *args, int want)
{
    run_out r = tu_run(args);
    ck_assert_msg(r.status == want, "ptosim %s: status %d: %s", args[0], r.status, r.err);
    tu_run_free(&r);
}

/* The names in a (a JSON array of strings) that b lacks, joined with spaces ("" when none). */
static void xss_extra(const cJSON *a, const cJSON *b, char *out, size_t len)
{
    out[0] = '\0';
    const cJSON *x, *y;
    cJSON_ArrayForEach(x, a)
    {
        bool found = false;
        cJSON_ArrayForEach(y, b) found |= strcmp(x->valuestring, y->valuestring) == 0;
        if (!found)
            snprintf(out + strlen(out), len - strlen(out), " %s", x->valuestring);
    }
}

/* Copies tests/real/NAME to DIR/AS (with `sub`, into DIR/AS/dfx_outputs); returns the folder to report. */
static const char *real_capture(const char *dir, const char *name, const char *as, bool sub, char *out, size_t n)
{
    char from[4200], parent[4400];
    snprintf(from, sizeof(from), PTOSIM_SRCDIR "/tests/real/%s", name);
    snprintf(out, n, "%s/%s", dir, as);
    ck_assert_int_eq(mkdir(out, 0755), 0);
    snprintf(parent, sizeof(parent), "%s%s", out, sub ? "/dfx_outputs" : "");
    copy_tree(from, sub ? out : dir);
    char got[4400];
    snprintf(got, sizeof(got), "%s/%s", sub ? out : dir, name);
    if (sub) {
        ck_assert_int_eq(rename(got, parent), 0);
    } else { /* its files straight in DIR/AS */
        ck_assert_int_eq(rmdir(out), 0);
        ck_assert_int_eq(rename(got, out), 0);
    }
    return out;
}

/* Captures of the real runtime (tests/real, no ptosim_run.json) give the page of their own files, figures
 * from the records (worked out with a few lines of Python over the same files):
 *   pa_small1   12 executions of 12 tasks, 24 cores (8 AIC, 16 AIV), first start 42291883929, last end
 *               42292513097: 629168 ticks at 50 MHz = 12583.360 us; AIC busy 6.9 %, AIV 2.9 %
 *   bgemm_case1 128 executions of 128 tasks, 44870040 ticks = 897400.800 us, AIC busy 94.8 %
 *   mixed_case1 36 executions of 20 tasks (MIX tasks run on several cores), 127613.080 us
 *   dummy_dense 2 executions; deps.json lists 20 tasks (the dummies never run on a core)
 *   batch_pa_case1h_cut  deps.json and a name map only: 5 tasks, no swimlane, no overhead model. */
START_TEST(a_capture_of_the_real_runtime_reports_what_its_files_say)
{
    const char *dir = tu_tmpdir();
    char pa[4300], bg[4300], mx[4300], dd[4300], cut[4300], l1[4300], um[4300], p0[4400];
    real_capture(dir, "pa_small1", "pa", true, pa, sizeof(pa));
    real_capture(dir, "bgemm_case1", "bgemm", false, bg, sizeof(bg));
    real_capture(dir, "mixed_case1", "mixed", false, mx, sizeof(mx));
    real_capture(dir, "dummy_dense", "dummy", false, dd, sizeof(dd));
    real_capture(dir, "batch_pa_case1h_cut", "cut", false, cut, sizeof(cut));

    char *page = report_of(pa);
    ASSERT_HAS(page, "<title>ptosim report: TestPagedAttention_CaseSmall1: runtime capture</title>");
    ASSERT_HAS(page, "A capture of the real runtime (its own files in dfx_outputs/, no <code>ptosim_run.json</code>)"
                     "; swimlane level 4, a 50000000 Hz counter, 8 AIC and 16 AIV cores.");
    ASSERT_HAS(page, "What a capture cannot say: the runtime records no time the orchestrator spent blocked");
    ASSERT_HAS(page, "<div class=\"k\">makespan</div><div class=\"v\">12583.360 µs</div>");
    ASSERT_HAS(page, "<div class=\"k\">executions</div><div class=\"v\">12</div><div class=\"d\">AICore executions "
                     "of 12 tasks; deps.json lists 12 tasks</div>");
    ASSERT_HAS(page, "<div class=\"k\">AIC busy</div><div class=\"v\">6.9%</div><div class=\"d\">over 8 AIC "
                     "cores</div>");
    ASSERT_HAS(page, "<div class=\"k\">AIV busy</div><div class=\"v\">2.9%</div>");
    ASSERT_HAS(page, "<tr><td class=\"l\">dfx_outputs/name_map_*.json</td><td class=\"l\">read</td>");
    ASSERT_HAS(page, "<tr><td class=\"l\">dfx_outputs/pmu.csv</td><td class=\"l\">absent</td>");
    /* the overhead model and the critical_path tool over the same 12 executions */
    ASSERT_HAS(page, "<div class=\"k\">has</div>");
    ASSERT_HAS(page, "<table id=\"cp-tool\">");
    ASSERT_HAS(page, "<tr><td class=\"l\">tasks with an execution</td><td>12</td></tr>");
    ASSERT_HAS(page, "<tr><td class=\"l\">makespan (first start to last end)</td><td>12583.360 µs</td></tr>");
    ck_assert_ptr_null(strstr(page, "The run did not finish"));
    /* the swimlane with its critical path, named by the name map */
    ASSERT_HAS(page, "<p id=\"cp-summary\">Critical path (red): <b>");
    ASSERT_HAS(page, "<td class=\"l\">QK</td>");
    /* rings from the scope stats, against the header's capacities (16384 slots a ring) */
    ASSERT_HAS(page, "<table id=\"ring-peaks\"><tr><th>ring</th><th>task window sampled / capacity</th>");
    ASSERT_HAS(page, " / 16384 (");
    ASSERT_HAS(page, "<table id=\"scope-table\">");
    ASSERT_HAS(page, "A capture has no kernel cost model, so no pipe busy fractions");
    ASSERT_HAS(page, "No <code>pmu.csv</code> (the runtime writes it with <code>--enable-pmu</code>)");
    ck_assert_ptr_null(strstr(page, "Kernels with a flat cost"));
    char *again = report_of(pa);
    ck_assert_msg(strcmp(page, again) == 0, "a second report of the same capture differs");
    free(again);
    free(page);

    page = report_of(bg);
    ASSERT_HAS(page, "A capture of the real runtime (its own files, no <code>ptosim_run.json</code>)");
    ASSERT_HAS(page, "<div class=\"v\">897400.800 µs</div>");
    ASSERT_HAS(page, "AICore executions of 128 tasks; deps.json lists 128 tasks");
    ASSERT_HAS(page, "<div class=\"k\">AIC busy</div><div class=\"v\">94.8%</div>");
    ASSERT_HAS(page, "<tr><td class=\"l\">chip_swimlane_records.json</td><td class=\"l\">read</td>");
    free(page);
    page = report_of(mx);
    ASSERT_HAS(page, "<div class=\"v\">127613.080 µs</div>");
    ASSERT_HAS(page, "<div class=\"k\">executions</div><div class=\"v\">36</div><div class=\"d\">AICore "
                     "executions of 20 tasks; deps.json lists 20 tasks</div>");
    free(page);
    page = report_of(dd);
    ASSERT_HAS(page, "AICore executions of 2 tasks; deps.json lists 20 tasks");
    free(page);
    page = report_of(cut);
    ASSERT_HAS(page, "<h1>ptosim report: runtime capture of TestBatchPagedAttention_Case1</h1>");
    ASSERT_HAS(page, "<div class=\"k\">tasks</div><div class=\"v\">5</div>");
    ASSERT_HAS(page, "No <code>chip_swimlane_records.json</code> (the runtime writes it with "
                     "<code>--enable-chip-swimlane</code>): no makespan, executions or busy fractions.");
    ASSERT_HAS(page, "No overhead model or critical-path tool for this capture: it needs both "
                     "chip_swimlane_records.json (level 2 or more) and deps.json.");
    ASSERT_HAS(page, "No scope stats: <code>scope_stats/scope_stats.jsonl</code> is absent (the runtime writes "
                     "it with <code>--enable-scope-stats</code>): no ring occupancy.");
    ASSERT_HAS(page, "<p class=\"note\">No swimlane: <code>chip_swimlane_records.json</code> is absent");
    free(page);
    /* without deps.json: the swimlane without its critical path, and no overhead model */
    snprintf(p0, sizeof(p0), "%s/deps.json", bg);
    ck_assert_int_eq(unlink(p0), 0);
    page = report_of(bg);
    ASSERT_HAS(page, "<p class=\"note\">No <code>deps.json</code> (run with <code>--enable-dep-gen</code>): the "
                     "critical path is not highlighted.</p>");
    ASSERT_HAS(page, "<div class=\"d\">AICore executions of 128 tasks</div>");
    ASSERT_HAS(page, "No overhead model or critical-path tool for this capture: it needs both");
    free(page);

    /* a level-1 swimlane has no dispatch and finish times for the model */
    real_capture(dir, "pa_small1", "l1", false, l1, sizeof(l1));
    char p[4400];
    snprintf(p, sizeof(p), "%s/chip_swimlane_records.json", l1);
    char *text = tu_read(p), *lv = strstr(text, "\"chip_swimlane_level\": 4");
    ck_assert_ptr_nonnull(lv);
    lv[strlen("\"chip_swimlane_level\": ")] = '1';
    free(tu_write(l1, "chip_swimlane_records.json", text));
    free(text);
    page = report_of(l1);
    ASSERT_HAS(page, "No overhead model or critical-path tool for this capture: the swimlane is level 1, "
                     "without the AICPU&#39;s dispatch and finish times it needs.");
    free(page);
    /* an AICPU row whose core row is gone is left out of the model, and said */
    real_capture(dir, "pa_small1", "um", false, um, sizeof(um));
    snprintf(p, sizeof(p), "%s/chip_swimlane_records.json", um);
    text = tu_read(p);
    const char row[] = "[0, 8589934592, 1, 42291883929, 42291928598, 17],";
    char *at = strstr(text, row);
    ck_assert_ptr_nonnull(at);
    memmove(at, at + strlen(row), strlen(at + strlen(row)) + 1);
    free(tu_write(um, "chip_swimlane_records.json", text));
    free(text);
    page = report_of(um);
    ASSERT_HAS(page, "1 aicpu_tasks row of the swimlane has no aicore_tasks row and is left out, as the "
                     "runtime's reader does.");
    free(page);
}
END_TEST

START_TEST(markup_in_every_input_string_runs_no_script_and_adds_no_element)
{
    ck_assert_msg(on_path("chromium"),
                  "chromium is not on PATH: `make check` installs Debian's chromium package through "
                  "scripts/install-deps.sh --chromium (apt-get, as root or with sudo); run that, then retry");
    const char *dir = tu_tmpdir();
    struct timespec t0, t1, t2, t3;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char run[4200], err_run[4200], dev[4200], sweep[4200], worker[4200], csv[4400], flat[4200], cap[4300];
    snprintf(run, sizeof(run), "%s/run", dir);
    snprintf(err_run, sizeof(err_run), "%s/rterr", dir);
    snprintf(dev, sizeof(dev), "%s/dev", dir);
    snprintf(sweep, sizeof(sweep), "%s/sweep", dir);
    snprintf(worker, sizeof(worker), "%s/worker", dir);
    /* a run with every input (kv_prefill: pipe costs, so a bottleneck pipe; scopes) and a sweep's csv with
     * failed rows (a 1 KiB heap is too small for chain3's 64 KiB outputs), a --set column and --repeat's */
    const char *a1[] = {"run",
                        TRACE("kv_prefill.jsonl"),
                        "-o",
                        run,
                        "--enable-chip-swimlane",
                        "--enable-dep-gen",
                        "--enable-scope-stats",
                        "--enable-pmu",
                        "--quiet",
                        NULL};
    ptosim_ok(a1, 0);
    const char *a2[] = {"sweep",
                        TRACE("chain3.jsonl"),
                        "--ring-heap",
                        "1024,268435456",
                        "--aicpu-thread-num",
                        "2,4",
                        "--set",
                        "hbm_bw=1.6e12,3.2e12",
                        "--repeat",
                        "2",
                        "-o",
                        sweep,
                        "-j1",
                        NULL};
    ptosim_ok(a2, 0);
    snprintf(csv, sizeof(csv), "%s/sweep.csv", sweep);
    free(tu_copy(run, "sweep.csv", csv));
    /* a runtime error (its name, detail, hint and message), a device error with an args dump (the
     * watchdog), several programs on one worker */
    char *g = tu_write(
        dir, "flat.jsonl",
        "{\"ptosim_graph\": 1, \"name\": \"flat\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
        "\"core\": \"aiv\", \"cost\": {\"cycles\": 100}}]}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"k\"}\n");
    snprintf(flat, sizeof(flat), "%s", g);
    free(g);
    const char *a3[] = {"run",     flat, "--ring-task-window", "4", "-o", err_run, "--enable-chip-swimlane",
                        "--quiet", NULL};
    ptosim_ok(a3, 4);
    const char *a4[] = {"run",
                        TRACE("dump_stall.jsonl"),
                        "-o",
                        dev,
                        "--dump-args=2",
                        "--op-execute-timeout-us",
                        "3000000",
                        "--scheduler-timeout-ms",
                        "2000",
                        "--stream-sync-timeout-ms",
                        "4000",
                        "--quiet",
                        NULL};
    ptosim_ok(a4, 5);
    char dump_dir[4300];
    snprintf(dump_dir, sizeof(dump_dir), "%s/dfx_outputs/args_dump", dev);
    rm_tree(dump_dir); /* 0.3 GB the report does not read */
    const char *a5[] = {"run", TRACE("kv_prefill.jsonl"), TRACE("kv_decode.jsonl"), "-o", worker, "--quiet",
                        NULL};
    ptosim_ok(a5, 0);
    /* a capture of the real runtime (its files straight in the folder), with the run's pmu.csv */
    real_capture(dir, "pa_small1", "cap", false, cap, sizeof(cap));
    snprintf(csv, sizeof(csv), "%s/dfx_outputs/pmu.csv", run);
    free(tu_copy(cap, "pmu.csv", csv));

    static const char *const inputs[] = {"ptosim_run.json",
                                         "dfx_outputs/chip_swimlane_records.json",
                                         "dfx_outputs/deps.json",
                                         "dfx_outputs/scope_stats/scope_stats.jsonl",
                                         "dfx_outputs/pmu.csv",
                                         "sweep.csv",
                                         "0_kv_prefill/ptosim_run.json",
                                         "1_kv_decode/ptosim_run.json",
                                         "chip_swimlane_records.json",
                                         "deps.json",
                                         "scope_stats/scope_stats.jsonl",
                                         "pmu.csv",
                                         "name_map_TestPagedAttention_CaseSmall1.json",
                                         NULL};
    const char *folders[] = {run, err_run, dev, sweep, worker, cap};
    static const int min_kept[] = {40, 10, 10, 20, 15, 8}; /* at least this many places show the markup */
    static const char *const pages[] = {"run/report.html",
                                        "rterr/report.html",
                                        "dev/report.html",
                                        "sweep/report.html",
                                        "worker/report.html",
                                        "worker/0_kv_prefill/report.html",
                                        "worker/1_kv_decode/report.html",
                                        "cap/report.html"};
    enum { NPAGES = sizeof(pages) / sizeof(pages[0]) };
    char base[4200], inj[4200];
    snprintf(base, sizeof(base), "%s/base", dir);
    snprintf(inj, sizeof(inj), "%s/inj", dir);
    ck_assert_int_eq(mkdir(base, 0755), 0);
    ck_assert_int_eq(mkdir(inj, 0755), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int places = 0;
    for (int i = 0; i < 6; i++) {
        copy_tree(folders[i], base);
        copy_tree(folders[i], inj);
        char into[8800];
        static xss_site took[XSS_MAX_SITES];
        snprintf(into, sizeof(into), "%s/%s", inj, strrchr(folders[i], '/') + 1);
        int kept = xss_inject(into, inputs, took, XSS_MAX_SITES);
        ck_assert_msg(kept >= min_kept[i], "%s: markup kept in %d places only", into, kept);
        places += kept;
        snprintf(into, sizeof(into), "%s/%s", base, strrchr(folders[i], '/') + 1);
        xss_plain(into, inputs, took, kept);
    }
    /* one browser for every page, baseline and injected, each in an iframe */
    char wrap[4200], dom_path[4200], ud[4200], url[4300];
    snprintf(wrap, sizeof(wrap), "%s/probe.html", dir);
    FILE *f = fopen(wrap, "w");
    ck_assert_ptr_nonnull(f);
    fputs("<!DOCTYPE html>\n<html><body>\n", f);
    for (int i = 0; i < NPAGES; i++)
        fprintf(f, "<iframe src=\"base/%s\"></iframe>\n<iframe src=\"inj/%s\"></iframe>\n", pages[i],
                pages[i]);
    fputs(XSS_PROBE, f);
    fputs("</body></html>\n", f);
    fclose(f);
    snprintf(dom_path, sizeof(dom_path), "%s/dom.html", dir);
    snprintf(ud, sizeof(ud), "--user-data-dir=%s/chromium-profile", dir);
    snprintf(url, sizeof(url), "file://%s", wrap);
    const char *dump[] = {"--headless",
                          "--no-sandbox",
                          "--disable-gpu",
                          ud,
                          "--allow-file-access-from-files",
                          "--virtual-time-budget=5000",
                          "--dump-dom",
                          url,
                          NULL};
    clock_gettime(CLOCK_MONOTONIC, &t2);
    ck_assert_int_eq(chromium(dump, dom_path), 0);
    clock_gettime(CLOCK_MONOTONIC, &t3);
    fprintf(stderr, "xss: runs %.1f s, markup in %d places %.1f s, chromium (one launch, %d pages) %.1f s\n",
            (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, places,
            (double)(t2.tv_sec - t1.tv_sec) + (double)(t2.tv_nsec - t1.tv_nsec) / 1e9, 2 * NPAGES,
            (double)(t3.tv_sec - t2.tv_sec) + (double)(t3.tv_nsec - t2.tv_nsec) / 1e9);
    char *dom = tu_read(dom_path);
    char *json = between(dom, "<pre id=\"probe\">", "</pre>");
    cJSON *R = cJSON_Parse(json + strlen("<pre id=\"probe\">"));
    ck_assert_msg(R != NULL && cJSON_GetArraySize(R) == 2 * NPAGES,
                  "the probe did not report every page: %.300s", json);
    for (int i = 0; i < NPAGES; i++) {
        const cJSON *b = cJSON_GetArrayItem(R, 2 * i), *x = cJSON_GetArrayItem(R, 2 * i + 1);
        char extra[4096];
        for (int k = 0; k < 2; k++) {
            const cJSON *pg = k ? x : b;
            ck_assert_msg(strcmp(cJSON_GetObjectItem(pg, "body_id")->valuestring, "") == 0,
                          "%s: a script ran (body id \"%s\")", cJSON_GetObjectItem(pg, "page")->valuestring,
                          cJSON_GetObjectItem(pg, "body_id")->valuestring);
            ck_assert_msg(cJSON_GetArraySize(cJSON_GetObjectItem(pg, "on")) == 0,
                          "%s: an event handler attribute", cJSON_GetObjectItem(pg, "page")->valuestring);
            ck_assert_msg(cJSON_GetArraySize(cJSON_GetObjectItem(pg, "js")) == 0, "%s: a javascript: value",
                          cJSON_GetObjectItem(pg, "page")->valuestring);
        }
        xss_extra(cJSON_GetObjectItem(x, "tags"), cJSON_GetObjectItem(b, "tags"), extra, sizeof(extra));
        ck_assert_msg(!extra[0], "%s: elements the page does not write:%s", pages[i], extra);
        xss_extra(cJSON_GetObjectItem(x, "attrs"), cJSON_GetObjectItem(b, "attrs"), extra, sizeof(extra));
        ck_assert_msg(!extra[0], "%s: attributes the page does not write:%s", pages[i], extra);
        ck_assert_int_eq(cJSON_GetObjectItem(b, "marks")->valueint, 0);
        ck_assert_msg(cJSON_GetObjectItem(x, "marks")->valueint > 0, "%s: no injected string shows",
                      pages[i]);
    }
    cJSON_Delete(R);
    free(json);
    free(dom);
    rm_tree(ud + strlen("--user-data-dir="));
}
END_TEST

/* ---- "What would pay": ptosim whatif -o DIR's whatif.json ---- */

START_TEST(whatif_section_ranks_the_levers_of_chain3)
{
    /* chain3 (three vadd of 10000 ns in a chain): 35.084 us; vadd at 0.5 is 20.249 us (test_whatif.c's hand
     * timeline), so 50% faster gains 14.835 us = 42.3% of 35.084; no ring is its limit: 0.000 */
    const char *dir = tu_tmpdir();
    char w[4200];
    snprintf(w, sizeof(w), "%s/w", dir);
    const char *args[] = {"whatif", TRACE("chain3.jsonl"), "--top", "1", "-o", w, "-j", "1", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *page = report_of(w);
    ck_assert_int_eq(count(page, "<a href=\"#whatif\">What would pay</a>"), 1);
    char *sec = between(page, "<section id=\"whatif\">", "</section>");
    ck_assert_msg(strstr(sec, "chain3 on a2a3, baseline makespan 35.084 us.") != NULL, "%s", sec);
    char *rows = between(sec, "<table id=\"whatif-table\">", "</table>");
    ck_assert_str_eq(strstr(rows, "<tr><td>1</td>"),
                     "<tr><td>1</td><td class=\"l\">vadd 50% faster</td><td>20.249</td><td>14.835</td><td>42.3%</td>"
                     "<td class=\"l\"><code>--kernel-scale vadd=0.5</code></td></tr>\n"
                     "<tr><td>2</td><td class=\"l\">vadd 25% faster</td><td>27.989</td><td>7.095</td><td>20.2%</td>"
                     "<td class=\"l\"><code>--kernel-scale vadd=0.75</code></td></tr>\n"
                     "<tr><td>3</td><td class=\"l\">vadd 10% faster</td><td>32.504</td><td>2.580</td><td>7.4%</td>"
                     "<td class=\"l\"><code>--kernel-scale vadd=0.9</code></td></tr>\n"
                     "<tr><td>4</td><td class=\"l\">ring_task_window x2 (all four rings)</td><td>35.084</td>"
                     "<td>0.000</td><td>0.0%</td><td class=\"l\"><code>--ring-task-window "
                     "32768,32768,32768,32768</code></td></tr>\n"
                     "<tr><td>5</td><td class=\"l\">ring_heap x2 (all four rings)</td><td>35.084</td><td>0.000</td>"
                     "<td>0.0%</td><td class=\"l\"><code>--ring-heap 536870912,536870912,536870912,536870912</code>"
                     "</td></tr>\n"
                     "<tr><td>6</td><td class=\"l\">ring_dep_pool x2 (all four rings)</td><td>35.084</td>"
                     "<td>0.000</td><td>0.0%</td><td class=\"l\"><code>--ring-dep-pool "
                     "32768,32768,32768,32768</code></td></tr>\n");
    /* the chart: the longest bar is the 50% lever's, the full 520 px; 25% is 7.095 / 14.835 of it */
    ck_assert_msg(strstr(sec, "width=\"520.0\"") != NULL, "%s", sec);
    ck_assert_msg(strstr(sec, "width=\"248.7\"") != NULL, "%s", sec);
    ck_assert_msg(strstr(sec, ">14.835 us (42.3%)</text>") != NULL, "%s", sec);
    free(rows);
    free(sec);
    free(page);
    /* without whatif.json, no section and no link */
    char p[4400];
    snprintf(p, sizeof(p), "%s/whatif.json", w);
    ck_assert_int_eq(unlink(p), 0);
    page = report_of(w);
    ck_assert_int_eq(count(page, "#whatif"), 0);
    ck_assert_int_eq(count(page, "What would pay"), 0);
    free(page);
}
END_TEST

START_TEST(whatif_section_escapes_a_hostile_lever_and_flag)
{
    const char *dir = fixture(F_RUN);
    put(dir, "whatif.json",
        "{\"graph\": \"<i>g</i>\", \"platform\": \"p\", \"baseline_makespan_us\": 2, \"levers\": [\n"
        "  {\"lever\": \"<script>alert(1)</script> 50% faster\", \"flags\": [\"--kernel-scale\", "
        "\"<b>k'&\\\"=0.5\"], \"makespan_us\": 1, \"gain_us\": 1},\n"
        "  {\"lever\": \"x\", \"flags\": [\"--ring-heap\", \"2\"], \"makespan_us\": null, \"failed\": "
        "\"exit 6: <img src=x>\"}\n]}\n");
    char *page = report_of(dir);
    char *sec = between(page, "<section id=\"whatif\">", "</section>");
    ck_assert_int_eq(count(sec, "<script"), 0);
    ck_assert_int_eq(count(sec, "<b>"), 0);
    ck_assert_int_eq(count(sec, "<img"), 0);
    ck_assert_int_eq(count(sec, "<i>"), 0);
    ck_assert_int_eq(count(sec, "&lt;script&gt;alert(1)&lt;/script&gt; 50% faster"), 2); /* chart and table */
    /* the flag as a shell reads it back: in single quotes, its own quote as '\'' */
    ck_assert_msg(strstr(sec, "<code>--kernel-scale &#39;&lt;b&gt;k&#39;\\&#39;&#39;&amp;&quot;=0.5&#39;</code>") !=
                      NULL,
                  "%s", sec);
    ck_assert_msg(strstr(sec, "<td colspan=\"3\" class=\"bad\">failed: exit 6: &lt;img src=x&gt;</td>") != NULL,
                  "%s", sec);
    free(sec);
    free(page);
}
END_TEST

Suite *suite_report(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("report");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, the_report_sorts_by_a_two_word_key_as_a_stable_sort_would);
    tcase_add_test(tc, a_name_is_cut_to_its_buffer_as_snprintf_cuts_it);
    tcase_add_test(tc, a_capture_reads_the_same_whatever_json_form_its_rows_take);
    tcase_add_test(tc, a_bad_byte_anywhere_in_a_long_string_gets_the_scanners_message);
    tcase_add_test(tc, critical_path_of_a_chain_and_a_side_task_is_the_chain);
    tcase_add_test(tc, critical_path_takes_the_predecessor_that_finished_last);
    tcase_add_test(tc, report_of_a_run_draws_the_critical_path_and_the_numbers);
    tcase_add_test(tc, the_overhead_section_explains_a_missing_or_uncomputed_model);
    tcase_add_test(tc, the_critical_path_card_says_what_a_share_above_100_percent_means);
    tcase_add_test(tc, ring_occupancy_is_drawn_against_simulated_time);
    tcase_add_test(tc, sweep_with_two_swept_knobs_gives_two_curves);
    tcase_add_test(tc, rings_that_move_apart_are_separate_knobs);
    tcase_add_test(tc, every_swept_knob_gets_a_curve_and_blocked_time_per_ring);
    tcase_add_test(tc, sweep_charts_zoom_to_the_spread_mark_the_best_and_draw_the_noise);
    tcase_add_test(tc, missing_optional_inputs_give_notes);
    tcase_add_test(tc, malformed_inputs_name_file_and_field_and_write_nothing);
    tcase_add_test(tc, whatif_section_ranks_the_levers_of_chain3);
    tcase_add_test(tc, whatif_section_escapes_a_hostile_lever_and_flag);
    tcase_add_test(tc, report_command_errors_and_help);
    tcase_add_test(tc, report_writes_into_no_folder_ptosim_did_not_write);
    tcase_add_test(tc, write_failures_are_named_and_leave_no_partial_page);
    tcase_add_test(tc, a_real_run_reports_its_own_numbers_byte_identically);
    tcase_add_test(tc, a_big_swimlane_is_binned_and_stays_small);
    tcase_add_test(tc, a_run_the_collector_killed_shows_its_dump_and_names_no_pipe_bottleneck);
    tcase_add_test(tc, a_capture_of_the_real_runtime_reports_what_its_files_say);
    suite_add_tcase(s, tc);
    TCase *ch = tcase_create("chromium");
    tcase_set_timeout(ch, 120);
    tcase_add_test(ch, chromium_renders_every_section_with_its_numbers);
    suite_add_tcase(s, ch);
    TCase *xss = tcase_create("xss");
    tcase_set_timeout(xss, 240);
    tcase_add_test(xss, markup_in_every_input_string_runs_no_script_and_adds_no_element);
    suite_add_tcase(s, xss);
    return s;
}
