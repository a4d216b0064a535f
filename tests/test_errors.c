/* test_errors.c - error reporting as the runtime reports it: the host's fatal lines, byte for byte. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../model/output/run_report.h"
#include "../model/runtime/runtime_error.h"
#include "testutil.h"

#define CAPTURE PTOSIM_SRCDIR "/tests/real/fatal_host_log.txt"

/* What f wrote, as a malloc'd string. */
static char *drain(FILE *f)
{
    long n = ftell(f);
    ck_assert(n >= 0);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* ptosim's host lines for one code. */
static char *failure_lines(int code)
{
    FILE *f = tmpfile();
    ck_assert(f != NULL);
    rterr_print_failure(f, code);
    return drain(f);
}

/* Is line (without its newline, len bytes) one of the capture's lines? */
static bool in_capture(const char *const *lines, int n, const char *line, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(lines[i]) == len && memcmp(lines[i], line, len) == 0)
            return true;
    return false;
}

START_TEST(host_lines_are_the_runtime_capture_byte_for_byte)
{
    /* every line the real runtime printed for its fatal codes, log prefix
     * stripped; ptosim's lines for the same codes must be exactly that set */
    char *text = tu_read(CAPTURE);
    ck_assert_msg(text != NULL, "missing %s", CAPTURE);
    const char *lines[64];
    bool used[64] = {false};
    int n = 0, codes[16], ncodes = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        const char *tag = "[runtime_maker.cpp:1019] ";
        char *body = strstr(line, tag);
        ck_assert_msg(body != NULL, "no log prefix: %s", line);
        body += strlen(tag);
        ck_assert(n < 64);
        lines[n++] = body;
        int orch, sched, status;
        if (sscanf(body, "PTO2 runtime failed: orch_error_code=%d sched_error_code=%d runtime_status=%d",
                   &orch, &sched, &status) == 3) {
            ck_assert_int_eq(status, -(orch ? orch : sched));
            codes[ncodes++] = orch ? orch : sched;
        }
    }
    ck_assert_int_eq(ncodes, 9); /* 1, 2, 3, 4, 5, 7, 9, 101, 102 */
    ck_assert_int_eq(n, 27);     /* three lines each */
    for (int i = 0; i < ncodes; i++) {
        char *mine = failure_lines(codes[i]);
        int count = 0;
        for (char *p = mine; *p; count++) {
            char *e = strchr(p, '\n');
            ck_assert_msg(e != NULL, "unterminated line for code %d", codes[i]);
            ck_assert_msg(in_capture(lines, n, p, (size_t)(e - p)), "code %d: not in the capture: %.*s",
                          codes[i], (int)(e - p), p);
            for (int k = 0; k < n; k++)
                if (strlen(lines[k]) == (size_t)(e - p) && memcmp(lines[k], p, (size_t)(e - p)) == 0)
                    used[k] = true;
            p = e + 1;
        }
        ck_assert_int_eq(count, 3);
        free(mine);
    }
    for (int k = 0; k < n; k++)
        ck_assert_msg(used[k], "ptosim never prints: %s", lines[k]);
    free(text);
}
END_TEST

START_TEST(an_uncovered_code_stays_a_bare_failure_line)
{
    /* 6 is retired in a2a3 tensormap_and_ringbuffer: no detail borrowed from a neighbour */
    char *s = failure_lines(6);
    ck_assert_str_eq(s, "PTO2 runtime failed: orch_error_code=6 sched_error_code=0 runtime_status=-6\n");
    free(s);
    ck_assert_str_eq(rterr_name(6), "unknown");
    /* a scheduler code names the scheduler's field */
    s = failure_lines(103);
    ck_assert_str_eq(s,
                     "PTO2 runtime failed: orch_error_code=0 sched_error_code=103 runtime_status=-103\n"
                     "error detail: sched_error_code=103 ASYNC_REGISTRATION_FAILED - the scheduler received "
                     "an async completion message of an illegal kind (runtime-internal; ASYNC_WAIT_OVERFLOW "
                     "normally intercepts this first)\n"
                     "error hint: not expected in normal operation -- keep the device log and report it to "
                     "the runtime maintainers; tuning the ring capacities will not help. See "
                     "docs/troubleshooting/device-error-codes.md\n");
    free(s);
}
END_TEST

START_TEST(stall_sub_classes_carry_the_runtime_labels)
{
    ck_assert_str_eq(rterr_stall_name(1), "S1:running-stalled");
    ck_assert_str_eq(rterr_stall_name(3), "S3:ready-but-all-idle");
    ck_assert_str_eq(rterr_stall_name(4), "S4:dependency-deadlock");
    ck_assert_str_eq(rterr_stall_name(5), "S5:orchestrator-starvation");
    ck_assert_str_eq(rterr_stall_name(99), "unknown:accounting/corruption");
    ck_assert_str_eq(rterr_stall_name(2), "invalid");
}
END_TEST

/* Checks that err starts with want and that every line after it starts
 * "ptosim: " (ptosim's own context follows the runtime's lines). */
/* The runtime's hints and ACL hints end "See docs/troubleshooting/device-error-codes.md", a page of the
 * runtime's tree that ptosim does not ship: ptosim's first line after them says whose it is. */
#define PAGE_NOTE                                                                                            \
    "ptosim: docs/troubleshooting/device-error-codes.md (named above) is the runtime's page, in "            \
    "hw-native-sys/simpler; ptosim's own exit statuses are in man ptosim, EXIT STATUS\n"

static void assert_host_lines_then_ptosim(const char *err, const char *want)
{
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "want:\n%s\ngot:\n%s", want, err);
    for (const char *p = err + strlen(want); *p; p = strchr(p, '\n') + 1) {
        ck_assert_msg(strncmp(p, "ptosim: ", 8) == 0, "a line without the prefix: %s", p);
        ck_assert_msg(strchr(p, '\n') != NULL, "unterminated: %s", p);
    }
}

#define FLAT4                                                                                                \
    "{\"ptosim_graph\": 1, \"name\": \"flat\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": "        \
    "\"aiv\", "                                                                                              \
    "\"cost\": {\"cycles\": 100}}]}\n"                                                                       \
    "{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n"                     \
    "{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n"

START_TEST(a_fatal_run_prints_the_three_host_lines_then_ptosim_lines)
{
    /* four tasks in the root scope with a 4-slot window: the fourth submit
     * meets 3 >= 4 - 1 in the scope pre-check, code 1 */
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "flat.jsonl", FLAT4);
    const char *args[] = {"run", g, "--ring-task-window", "4", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 4);
    char last[512];
    snprintf(last, sizeof(last),
             "\nptosim: %s:5: FATAL: Scope Deadlock Detected! (ring 0) Tasks in current scope (3) >= "
             "task_window_size (4). scope_depth: 1, ring_id: 0, scope_task_count: 3, active_tasks: 3 / 4 "
             "(scope opened at (unknown):0)\n",
             g);
    ck_assert_msg(strlen(r.err) > strlen(last) && strcmp(r.err + strlen(r.err) - strlen(last), last) == 0,
                  "%s", r.err);
    assert_host_lines_then_ptosim(
        r.err,
        "PTO2 runtime failed: orch_error_code=1 sched_error_code=0 runtime_status=-1\n"
        "error detail: orch_error_code=1 SCOPE_DEADLOCK - tasks submitted in one scope reached the ring "
        "task-window cap; their fanout references are only released at scope_end, so no slot can be "
        "reclaimed\n"
        "error hint: raise ring_task_window (PTO2_RING_TASK_WINDOW) or split the scope so slots are "
        "reclaimed "
        "sooner; enable CallConfig.enable_scope_stats to see which scope peaked. See "
        "docs/troubleshooting/device-error-codes.md\n" PAGE_NOTE
        "ptosim: set it with --ring-task-window N|a,b,c,d (RunConfig ring_task_window; "
        "PTO2_RING_TASK_WINDOW is retired and not read); see the scopes with --enable-scope-stats\n");
    tu_run_free(&r);
    free(g);
}
END_TEST

static void window_4(chip_config *cfg)
{
    for (int r = 0; r < RING_COUNT; r++)
        cfg->ring_task_window[r] = 4;
}

/* The heap deadlock's hint cites "the 'Ring buffer sizes:' line above", which the runtime logs when it
 * sets the rings up: ptosim prints that line (the runtime's format, docs/reference/exit-status.md) first,
 * so the hint names a line that is there. chain3's first task wants 64 KiB of a 1024-byte heap: code 2. */
START_TEST(a_heap_deadlock_prints_the_ring_sizes_line_its_hint_cites)
{
    const char *args[] = {"run", TRACE("chain3.jsonl"), "--ring-heap", "1024,0,0,2048", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 4);
    assert_host_lines_then_ptosim(
        r.err,
        "Ring buffer sizes: task_window=[16384, 16384, 16384, 16384] heap=[1024, 268435456, 268435456, 2048] "
        "dep_pool=[16384, 16384, 16384, 16384]\n"
        "PTO2 runtime failed: orch_error_code=2 sched_error_code=0 runtime_status=-2\n"
        "error detail: orch_error_code=2 HEAP_RING_DEADLOCK - the task allocator could not reserve the heap "
        "bytes required for another task\n"
        "error hint: raise ring_heap (PTO2_RING_HEAP) or shrink per-task args / intermediate tensors; the "
        "'Ring buffer sizes:' line above reports the configured capacities. See "
        "docs/troubleshooting/device-error-codes.md\n" PAGE_NOTE
        "ptosim: set it with --ring-heap N|a,b,c,d (RunConfig ring_heap; PTO2_RING_HEAP is retired and not "
        "read)\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(scope_deadlock_counts_the_root_scope_as_the_runtime_does)
{
    /* the first user scope: scope_stack_top 1 on ring 1, which the runtime
     * prints as scope_depth 2 (pto_orchestrator.cpp check_scope_can_accept_task
     * prints scope_stack_top + 1; the executor's root scope is top 0). Its
     * fourth submit sees 3 tasks in the scope >= 4 - 1; none is reclaimed. */
    chip *c = tu_chip("{\"ptosim_graph\": 1, \"name\": \"s\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
                      "\"core\": \"aiv\", \"cost\": {\"cycles\": 100}}]}\n"
                      "{\"op\": \"scope_begin\", \"site\": \"demo.cpp:42\"}\n"
                      "{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n"
                      "{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n"
                      "{\"op\": \"scope_end\"}\n",
                      NULL, 0, window_4);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 1);
    const char *m = strstr(c->message, ":6: ");
    ck_assert_msg(m != NULL, "%s", c->message);
    ck_assert_str_eq(m,
                     ":6: FATAL: Scope Deadlock Detected! (ring 1) Tasks in current scope (3) >= "
                     "task_window_size (4). scope_depth: 2, ring_id: 1, scope_task_count: 3, active_tasks: "
                     "3 / 4 (scope opened at demo.cpp:42)");
    tu_chip_free(c);
}
END_TEST

static void timeout_20ms(chip_config *cfg)
{
    cfg->scheduler_timeout = 20 * PS_PER_MS;
}

START_TEST(a_scheduler_timeout_adds_the_sub_class_line_after_the_hint)
{
    /* one AIC kernel of 1e15 cycles: its owner thread sees no progress for 20 ms */
    chip *c = tu_chip("{\"ptosim_graph\": 1, \"name\": \"h\", \"kernels\": [{\"id\": 0, \"name\": \"spin\", "
                      "\"core\": \"aic\", \"cost\": {\"cycles\": 1000000000000000}}]}\n"
                      "{\"op\": \"submit\", \"kernel\": \"spin\"}\n",
                      NULL, 0, timeout_20ms);
    FILE *f = tmpfile();
    report_failure(c, f);
    char *s = drain(f);
    ck_assert_str_eq(
        s,
        "PTO2 runtime failed: orch_error_code=0 sched_error_code=100 runtime_status=-100\n"
        "error detail: sched_error_code=100 SCHEDULER_TIMEOUT - the scheduler saw no forward progress within "
        "its timeout; the sub_class= line below carries the device-classified reason and locators\n"
        "error hint: read the sub_class= line below first, then follow the S1-S5 table in the doc; raise "
        "PTO2_SCHEDULER_TIMEOUT_MS to tell a true deadlock apart from a merely slow kernel. See "
        "docs/troubleshooting/device-error-codes.md\n"
        "PTO2 scheduler timeout sub_class=S1:running-stalled (detail=1) completed=0/1 running=1 ready=0 "
        "waiting=0 orch_done=1 stuck_task_id=0 stuck_core=0\n" PAGE_NOTE
        "ptosim: set it with --scheduler-timeout-ms N or SIMPLER_SCHEDULER_TIMEOUT_MS (the variable the "
        "runtime reads)\n"
        "ptosim: scheduler thread 0 made no progress for 20.000 ms\n");
    free(s);
    tu_chip_free(c);
}
END_TEST

#define ACL_HINT                                                                                             \
    "ACL error hint: do NOT read this as 'deadlock' or 'OOM' on its own -- it is a generic host-side code. " \
    "Grep the host log for 'orch_error_code=' / 'sched_error_code=' / 'sub_class=' to get the "              \
    "device-classified reason, and read the device log for the detector that fired. See "                    \
    "docs/troubleshooting/device-error-codes.md\n"

/* The host's report of a device kill: a chip that ran a trivial graph, then
 * killed by the watchdog whose deadline comes first; `since` > 0 says a task
 * completed that long before the kill. */
static char *device_failure_after(ps_t stars, ps_t stream, ps_t since)
{
    chip *c = tu_chip("{\"ptosim_graph\": 1, \"name\": \"d\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
                      "\"core\": \"aiv\", \"cost\": {\"cycles\": 100}}]}\n",
                      NULL, 0, NULL);
    c->status = CHIP_RUNNING;
    c->stars_deadline = stars;
    c->stream_deadline = stream;
    c->stars_credits = 1;
    c->cfg.stream_sync_timeout_ms = 4000;
    if (since) {
        c->tasks_completed = 1;
        c->last_completion = (stars < stream ? stars : stream) - since;
    }
    chip_device_kill(c, stars < stream ? stars : stream);
    FILE *f = tmpfile();
    report_failure(c, f);
    tu_chip_free(c);
    return drain(f);
}

static char *device_failure(ps_t stars, ps_t stream)
{
    return device_failure_after(stars, stream, 0);
}

START_TEST(a_device_kill_prints_the_runtimes_acl_lines_then_ptosim_lines)
{
    /* sync_stream_pair (device_runner_base.cpp), ACL_LOG_ERROR_DETAIL and
     * recover_device_or_mark_unusable (a2a3 device_runner.cpp) */
    char *s = device_failure(4294967296000ULL, PS_NEVER); /* one credit, 4.294967296 s */
    ck_assert_str_eq(
        s,
        "aclrtSynchronizeStreamWithTimeout (AICPU) failed: 507018\n"
        "ACL error detail: 507018 ACL_ERROR_RT_AICPU_EXCEPTION - an AICPU task raised an exception; several "
        "distinct on-device mechanisms all surface as this one generic code\n" ACL_HINT
        "AICore error 507018: device drained, but force-resetting in finalize regardless (drain success does "
        "not prove the card is clean)\n" PAGE_NOTE
        "ptosim: [device] STARS op-execute timeout: the AICore launch ran past its deadline (1 credit(s), "
        "4.294967 s) and was reaped with the AICPU (HandleTaskTimeout / kill aicpu-sd)\n"
        "ptosim: a STARS op-execute kill is not proof of a deadlock: the run may simply be slow (see "
        "ptosim_run.json: outcome.device_error, args_dump)\n");
    free(s);
    s = device_failure(PS_NEVER, 4000 * PS_PER_MS);
    ck_assert_str_eq(
        s,
        "Stream sync timeout: stream=AICPU timeout_ms=4000 device_id=0 block_dim=24\n"
        "ACL error detail: 507046 ACL_ERROR_RT_STREAM_SYNC_TIMEOUT - the host timed out waiting on a stream "
        "sync; the device never reported completion\n" ACL_HINT
        "AICore error 507046: device drained, but force-resetting in finalize regardless (drain success does "
        "not prove the card is clean)\n" PAGE_NOTE
        "ptosim: a stream-sync kill is not proof of a deadlock: the run may simply be slow (see "
        "ptosim_run.json: outcome.device_error, args_dump)\n");
    free(s);
}
END_TEST

START_TEST(a_kill_of_a_run_still_completing_tasks_names_the_knob)
{
    /* the last completion 1.664 us before the kill, within the scheduler timeout (10 s): the run
     * was moving, and both watchdogs bound the whole graph */
    char *s = device_failure_after(4294967296000ULL, PS_NEVER, 1664 * PS_PER_NS);
    const char *line = strstr(s, "ptosim: [device] STARS");
    ck_assert_ptr_nonnull(line);
    ck_assert_str_eq(strchr(line, '\n') + 1,
                     "ptosim: not a hang: a task completed 1.664 us before the kill; the op-execute timeout "
                     "bounds the whole graph (one AICPU launch), so silicon kills it too: raise "
                     "--op-execute-timeout-us (and --stream-sync-timeout-ms above it)\n");
    free(s);
    s = device_failure_after(PS_NEVER, 4000 * PS_PER_MS, 20 * PS_PER_NS);
    line = strstr(s, "not prove the card is clean)\n");
    ck_assert_ptr_nonnull(line);
    ck_assert_str_eq(line + strlen("not prove the card is clean)\n"),
                     PAGE_NOTE "ptosim: not a hang: a task completed 0.020 us before the kill; the stream-sync timeout "
                     "bounds the whole graph (one stream sync), so silicon kills it too: raise "
                     "--stream-sync-timeout-ms\n");
    free(s);
    /* a completion longer ago than the scheduler timeout proves nothing: the old line */
    s = device_failure_after(4294967296000ULL, PS_NEVER, 10001 * PS_PER_MS);
    ck_assert_ptr_nonnull(strstr(s, "ptosim: a STARS op-execute kill is not proof of a deadlock"));
    ck_assert_ptr_null(strstr(s, "not a hang"));
    free(s);
}
END_TEST

/* The string every case below puts in an input: ESC ] 0 ; (a terminal's "set the title"), BEL, a newline and
 * DEL, as JSON escapes, and as each message prints it (\xHH per byte). */
#define EVIL_JSON "\\u001b]0;P\\u0007\\n\\u007f"
#define EVIL_SHOWN "\\x1b]0;P\\x07\\x0a\\x7f"

/* Does s hold a byte a terminal acts on, other than the newlines that end its lines? */
static bool has_control(const char *s)
{
    for (; *s; s++)
        if (((unsigned char)*s < 0x20 && *s != '\n') || *s == 0x7f)
            return true;
    return false;
}

/* Strings a graph, a platform file, a capture or a run folder holds reached stderr raw: a graph someone sent
 * could clear the screen or set the title when its error was printed. Each kind of message escapes them. */
START_TEST(a_string_from_an_input_reaches_every_message_escaped)
{
    const char *dir = tu_tmpdir();
    char path[1024], want[4096], text[2048];
    /* the graph reader's own check (a name), with the file's name holding ESC too */
    snprintf(path, sizeof(path), "%s/g\x1b[2J.jsonl", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"vadd\", \"core\": \"aiv\", "
          "\"cost\": {\"cycles\": 18000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [4]}]}\n"
          "{\"op\": \"submit\", \"id\": \"a\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
          "\"x" EVIL_JSON "\"}]}\n",
          f);
    fclose(f);
    const char *val[] = {"validate", path, NULL};
    run_out r = tu_run(val);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim: %s/g\\x1b[2J.jsonl:2: args[0].tensor: unknown tensor 'x" EVIL_SHOWN
             "' (declare it in the header or create it with an \"out\" arg or an alloc first)\n",
             dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* the one JSON reader's message (jsonl_message): a key given twice; the second starts at column 34 of line 2
     * ({ is 1, "a...": 1, is columns 2 to 33: the raw key "a\u001b]0;P\u0007\n\u007f" has 27 bytes) */
    f = fopen(path, "w");
    fputs("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [], \"tensors\": []}\n"
          "{\"a" EVIL_JSON "\": 1, \"a" EVIL_JSON "\": 2}\n",
          f);
    fclose(f);
    r = tu_run(val);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want), "ptosim: %s/g\\x1b[2J.jsonl:2:34: a" EVIL_SHOWN ": duplicate key\n", dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* a platform file's key, at column 51 */
    char *plat = tu_write(dir, "p.json",
                          "{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"params\": {\"c" EVIL_JSON "\": 1}}");
    const char *run[] = {"run", TRACE("chain3.jsonl"), "-p", plat, "--quiet", NULL};
    r = tu_run(run);
    ck_assert_int_eq(r.status, 2);
    snprintf(want, sizeof(want), "ptosim: %s:1:51: params.c" EVIL_SHOWN ": unknown platform parameter\n" TU_USAGE_RUN,
             plat);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(plat);
    /* report: a value of a run folder's ptosim_run.json */
    const char *rdir = tu_tmpdir();
    free(tu_write(rdir, "ptosim_run.json",
                  "{\"ptosim_worker\": 1, \"programs\": [{\"dir\": \"x" EVIL_JSON "\"}], \"worker\": {}, "
                  "\"costs_us\": {}}\n"));
    const char *rep[] = {"report", rdir, NULL};
    r = tu_run(rep);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim report: %s/ptosim_run.json: programs[0].dir \"x" EVIL_SHOWN
             "\" is not a program's folder (N_NAME, inside %s); the report follows no path out of the folder\n",
             rdir, rdir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* import: a capture's kernel name, in a note */
    const char *cap = tu_tmpdir();
    snprintf(text, sizeof(text), "cp -r %s/tests/real/pa_small1/. %s && chmod -R u+w %s", PTOSIM_SRCDIR, cap, cap);
    ck_assert_int_eq(system(text), 0);
    free(tu_write(cap, "name_map_TestPagedAttention_CaseSmall1.json",
                  "{\"level\": 2, \"orchestrator_name\": null, \"callable_id_to_name\": {\"0\": \"Q" EVIL_JSON
                  "\", \"1\": \"SF\", \"2\": \"PV\", \"3\": \"Q" EVIL_JSON "\"}}\n"));
    const char *imp[] = {"import", cap, NULL};
    r = tu_run(imp);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "ptosim: note: name_map_TestPagedAttention_CaseSmall1.json: func ids 0 and 3 are both "
                            "named 'Q" EVIL_SHOWN "': func id 3 is called 'Q" EVIL_SHOWN "_3' in the graph\n"
                            "ptosim: kernel costs from the model: the swimlane has 24 cores, a simulator "
                            "platform's, whose times are the host's (--costs swimlane takes them anyway)\n");
    tu_run_free(&r);
    /* a run's summary on stdout: the busiest pipe's kernel (gemm_tile in gen_bgemm, renamed) */
    snprintf(path, sizeof(path), "%s/bgemm.jsonl", dir);
    snprintf(text, sizeof(text), "sed 's/gemm_tile/g\\\\u001b]0;P\\\\u0007\\\\n\\\\u007f/g' %s > %s",
             TRACE("gen_bgemm.jsonl"), path); /* sed's \\ is one backslash */
    ck_assert_int_eq(system(text), 0);
    const char *sum[] = {"run", path, NULL};
    r = tu_run(sum);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, " us that g" EVIL_SHOWN " (most time on cores) ran\n") != NULL, "%s", r.out);
    ck_assert(!has_control(r.out));
    ck_assert_str_eq(r.err, "");
    tu_run_free(&r);
}
END_TEST

Suite *suite_errors(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("host lines");
    tcase_add_test(tc, host_lines_are_the_runtime_capture_byte_for_byte);
    tcase_add_test(tc, an_uncovered_code_stays_a_bare_failure_line);
    tcase_add_test(tc, stall_sub_classes_carry_the_runtime_labels);
    tcase_add_test(tc, a_fatal_run_prints_the_three_host_lines_then_ptosim_lines);
    tcase_add_test(tc, a_scheduler_timeout_adds_the_sub_class_line_after_the_hint);
    tcase_add_test(tc, a_heap_deadlock_prints_the_ring_sizes_line_its_hint_cites);
    tcase_add_test(tc, scope_deadlock_counts_the_root_scope_as_the_runtime_does);
    tcase_add_test(tc, a_device_kill_prints_the_runtimes_acl_lines_then_ptosim_lines);
    tcase_add_test(tc, a_kill_of_a_run_still_completing_tasks_names_the_knob);
    tcase_add_test(tc, a_string_from_an_input_reaches_every_message_escaped);
    suite_add_tcase(s, tc);
    return s;
}
