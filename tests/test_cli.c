/* test_cli.c - the command line as a user meets it: inputs, one help and usage convention, warnings. */
/* Graphs from pipes, gzip and BOMs, one help and usage convention for every command, warnings that reach
 * the summary, a reused output folder. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define CHAIN3 TRACE("chain3.jsonl")
#define CHAIN3_MAKESPAN "makespan 35.084 us" /* worked by hand in test_chip.c */

/* Runs a command line in a shell (bash: process substitution) with ptosim as $P. */
static run_out sh(const char *cmd)
{
    char line[16384];
    snprintf(line, sizeof(line), "P='%s'; %s", PTOSIM_BIN, cmd);
    const char *args[] = {"/bin/bash", "-c", line, NULL};
    return tu_run_prog(args);
}

/* sh with printf-style formatting. */
static run_out shf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static run_out shf(const char *fmt, ...)
{
    char cmd[12000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    return sh(cmd);
}

/* Asserts a run ended 0 with chain3's makespan in its summary. */
static void assert_chain3(run_out *r)
{
    ck_assert_msg(r->status == 0, "status %d: %s", r->status, r->err);
    ck_assert_msg(strstr(r->out, CHAIN3_MAKESPAN) != NULL, "%s", r->out);
    tu_run_free(r);
}

/* chain3 with a third line that names a field no op has: its path (malloc'd). */
static char *bad_graph(const char *dir)
{
    char *g = tu_read(CHAIN3);
    char *nl = strchr(strchr(g, '\n') + 1, '\n');
    nl[1] = '\0'; /* header and task a */
    char text[8192];
    snprintf(text, sizeof(text), "%s{\"op\": \"submit\", \"func_id\": 77}\n", g);
    free(g);
    return tu_write(dir, "bad.jsonl", text);
}

START_TEST(run_reads_a_graph_from_a_pipe_stdin_and_process_substitution)
{
    /* the same graph the same way as the file: "-", /dev/stdin, <(...) */
    run_out r = shf("cat %s | $P run -", CHAIN3);
    assert_chain3(&r);
    r = shf("cat %s | $P run /dev/stdin", CHAIN3);
    assert_chain3(&r);
    r = shf("$P run <(cat %s)", CHAIN3);
    assert_chain3(&r);
    r = shf("$P run - < %s", CHAIN3); /* stdin a regular file */
    assert_chain3(&r);
    /* ptosim's own generator into ptosim: gen's chain of 5 as a file and as a pipe */
    const char *dir = tu_tmpdir();
    r = shf("$P gen chain --n 5 > %s/c5.jsonl && $P run %s/c5.jsonl --summary-csv > %s/file.csv && "
            "$P gen chain --n 5 | $P run - --summary-csv > %s/pipe.csv && cmp %s/file.csv %s/pipe.csv",
            dir, dir, dir, dir, dir, dir);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    tu_run_free(&r);
    /* validate names standard input as messages do */
    r = shf("cat %s | $P validate -", CHAIN3);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "<stdin>: ok\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(a_piped_graph_that_is_malformed_leaves_no_outputs)
{
    const char *dir = tu_tmpdir();
    char *bad = bad_graph(dir);
    run_out r = shf("cat %s | $P run - -o %s/out --enable-chip-swimlane", bad, dir);
    free(bad);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim: <stdin>:3: func_id: unknown field\n");
    ck_assert_str_eq(r.out, "");
    char path[4200];
    snprintf(path, sizeof(path), "%s/out", dir);
    ck_assert_msg(!tu_exists(path), "a failed run made %s", path);
    tu_run_free(&r);
    /* a closed standard input */
    r = sh("$P run - <&-");
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim: <stdin>: cannot open graph file: Bad file descriptor\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(gzip_graphs_and_a_byte_order_mark_are_read)
{
    const char *dir = tu_tmpdir();
    run_out r = shf("cd %s && gzip -c %s > c.jsonl.gz && printf '\\357\\273\\277' > bom.jsonl && "
                    "cat %s >> bom.jsonl && gzip -c bom.jsonl > bom.gz",
                    dir, CHAIN3, CHAIN3);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    /* gzip by its magic bytes, whatever the name; from a file and from a pipe */
    r = shf("$P run %s/c.jsonl.gz", dir);
    assert_chain3(&r);
    r = shf("cat %s/c.jsonl.gz | $P run -", dir);
    assert_chain3(&r);
    r = shf("$P run %s/bom.jsonl", dir);
    assert_chain3(&r);
    r = shf("cat %s/bom.jsonl | $P run -", dir);
    assert_chain3(&r);
    r = shf("$P run %s/bom.gz", dir);
    assert_chain3(&r);
    /* the BOM is gone before line 1 is parsed: a message's line numbers are the file's */
    r = shf("printf '\\357\\273\\277{}\\n' | $P validate -");
    ck_assert_int_eq(r.status, 3);
    ck_assert_msg(tu_starts(r.err, "ptosim: <stdin>:1: ptosim_graph: "), "%s", r.err);
    tu_run_free(&r);
}
END_TEST

START_TEST(damaged_gzip_is_a_graph_error)
{
    const char *dir = tu_tmpdir();
    /* cut inside the deflate stream; then the same header with zeros for data */
    run_out r = shf("cd %s && $P gen chain --n 200 | gzip -c > c.gz && head -c 100 c.gz > cut.gz && "
                    "(head -c 20 c.gz; head -c 4000 /dev/zero) > zero.gz",
                    dir);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    r = shf("$P validate %s/cut.gz", dir);
    ck_assert_int_eq(r.status, 3);
    char want[4400];
    snprintf(want, sizeof(want), "ptosim: %s/cut.gz: read error: gzip data: ends early (a truncated .gz?)\n",
             dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    r = shf("cat %s/cut.gz | $P run -", dir);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim: <stdin>: read error: gzip data: ends early (a truncated .gz?)\n");
    tu_run_free(&r);
    r = shf("$P validate %s/zero.gz", dir);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want), "ptosim: %s/zero.gz: read error: gzip data: ", dir);
    ck_assert_msg(tu_starts(r.err, want), "%s", r.err); /* then zlib's words for it */
    tu_run_free(&r);
}
END_TEST

START_TEST(tune_sweep_and_several_programs_read_a_pipe)
{
    const char *dir = tu_tmpdir();
    /* tune: once per trial, from its copy; the baseline is chain3's makespan */
    run_out r = shf("cat %s | $P tune - --max-trials 1", CHAIN3);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "ptosim tune: chain3 (3 tasks) on a2a3\n") != NULL, "%s", r.out);
    tu_run_free(&r);
    /* --repeat reruns the graph */
    r = shf("cd %s && $P run %s --repeat 3 | grep 'over 3 runs' > file.txt && "
            "cat %s | $P run - --repeat 3 | grep 'over 3 runs' > pipe.txt && cmp file.txt pipe.txt",
            dir, CHAIN3, CHAIN3);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    tu_run_free(&r);
    /* two programs, each a pipe */
    r = shf("$P run <(cat %s) <(cat %s) -o %s/w --quiet", CHAIN3, CHAIN3, dir);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char path[4200];
    snprintf(path, sizeof(path), "%s/w/1_chain3/ptosim_run.json", dir);
    ck_assert_msg(tu_exists(path), "%s", path);
    /* sweep: the copy in DIR is what every point reads */
    r = shf("cat %s | $P sweep - --ring-task-window 16,32 -o %s/sw", CHAIN3, dir);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    snprintf(path, sizeof(path), "%s/sw/graph.jsonl", dir);
    char *copy = tu_read(path), *orig = tu_read(CHAIN3);
    ck_assert_str_eq(copy, orig);
    free(copy);
    free(orig);
    snprintf(path, sizeof(path), "%s/sw/sweep.csv", dir);
    char *csv = tu_read(path);
    int rows = 0;
    for (const char *p = csv; (p = strstr(p, ",ok,")); p++)
        rows++;
    ck_assert_int_eq(rows, 2);
    free(csv);
}
END_TEST

START_TEST(a_malformed_pipe_stops_tune_and_sweep_before_any_run)
{
    const char *dir = tu_tmpdir();
    char *bad = bad_graph(dir);
    run_out r = shf("cat %s | $P tune -", bad);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim: <stdin>:3: func_id: unknown field\n");
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    r = shf("cat %s | $P sweep - --ring-task-window 16,32 -o %s/sw", bad, dir);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim sweep: <stdin>:3: func_id: unknown field\n");
    tu_run_free(&r);
    char path[4200];
    snprintf(path, sizeof(path), "%s/sw/points", dir);
    ck_assert_msg(!tu_exists(path), "a point ran");
    /* several programs: the second is checked before the first runs */
    r = shf("$P run %s <(cat %s) -o %s/w", CHAIN3, bad, dir);
    ck_assert_int_eq(r.status, 3);
    ck_assert_msg(tu_starts(r.err, "ptosim: /dev/fd/"), "%s", r.err); /* the name bash gave the pipe */
    ck_assert_msg(strstr(r.err, ":3: func_id: unknown field\n") != NULL, "%s", r.err);
    tu_run_free(&r);
    snprintf(path, sizeof(path), "%s/w", dir);
    ck_assert_msg(!tu_exists(path), "a program ran");
    free(bad);
    /* the copy needs a temporary folder */
    r = shf("cat %s | TMPDIR=/nonexistent $P tune -", CHAIN3);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err,
                     "ptosim: <stdin>: cannot make a temporary copy in /nonexistent: No such file or directory\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(import_pipes_into_run)
{
    /* a capture of chain3, imported and run without a file in between: the same chain */
    const char *dir = tu_tmpdir();
    run_out r = shf("$P run %s -o %s/cap --enable-dep-gen --enable-scope-stats --quiet && "
                    "$P import --costs model %s/cap/dfx_outputs | $P run - --quiet -o %s/again",
                    CHAIN3, dir, dir, dir);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char path[4200];
    snprintf(path, sizeof(path), "%s/again/ptosim_run.json", dir);
    cJSON *j = tu_json_file(path), *g = cJSON_GetObjectItem(j, "graph");
    ck_assert_str_eq(cJSON_GetObjectItem(g, "file")->valuestring, "<stdin>");
    ck_assert_str_eq(cJSON_GetObjectItem(g, "name")->valuestring, "chain3");
    ck_assert_int_eq(cJSON_GetObjectItem(g, "operations")->valueint, 3);
    cJSON_Delete(j);
}
END_TEST

START_TEST(a_reused_output_folder_holds_the_last_run_alone)
{
    /* default (swimlane, deps, its name map), a page of it and a file of the user's in dfx_outputs/, then
     * chain3 into the same folder: chain3's two files are all there is */
    const char *dir = tu_tmpdir();
    run_out r = shf("cd %s && $P run %s -o out --enable-chip-swimlane --enable-dep-gen --quiet && "
                    "$P report out > /dev/null && test -f out/report.html && "
                    "test -f out/dfx_outputs/name_map_default.json && touch out/dfx_outputs/stray.txt && "
                    "ls -i -d out/dfx_outputs > before && $P run %s -o out --quiet && "
                    "ls -i -d out/dfx_outputs > after && find out | sort",
                    dir, TRACE("default.jsonl"), CHAIN3);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "out\nout/dfx_outputs\nout/dfx_outputs/name_map_chain3.json\nout/ptosim_run.json\n");
    tu_run_free(&r);
    /* dfx_outputs/ is a new folder, swapped in whole, not the old one emptied and refilled */
    r = shf("cd %s && ! cmp -s before after", dir);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
}
END_TEST

START_TEST(a_session_or_run_after_a_session_leaves_none_of_its_program_folders)
{
    /* three programs, then two: the third's folder and the second's old one go; a folder of the user's
     * ("7_mine", no ptosim_run.json) and one the session never listed ("5_other") stay */
    const char *dir = tu_tmpdir();
    run_out r = shf("cd %s && $P run %s %s %s -o out --quiet && mkdir out/7_mine out/5_other && "
                    "touch out/7_mine/notes out/5_other/ptosim_run.json && $P run %s %s -o out --quiet && ls out",
                    dir, CHAIN3, TRACE("default.jsonl"), TRACE("fan200.jsonl"), CHAIN3, TRACE("forkjoin.jsonl"));
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "0_chain3\n1_forkjoin\n5_other\n7_mine\nptosim_run.json\n");
    tu_run_free(&r);
    /* a run that fails (a malformed graph) changes nothing, the session's folders included */
    char *bad = bad_graph(dir);
    r = shf("cd %s && $P run %s -o out --quiet; echo $?; ls out", dir, bad);
    free(bad);
    ck_assert_str_eq(r.out, "3\n0_chain3\n1_forkjoin\n5_other\n7_mine\nptosim_run.json\n");
    tu_run_free(&r);
    /* a single run then: its files, and the user's folders */
    r = shf("cd %s && $P run %s -o out --quiet && ls out", dir, CHAIN3);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "5_other\n7_mine\ndfx_outputs\nptosim_run.json\n");
    tu_run_free(&r);
}
END_TEST

/* What the ordering rule makes of --op-execute-timeout-us 1 under the a2a3 defaults (10000 ms, 50000 ms):
 * 1 us is not above 10000 ms, so all three go back to the defaults. */
#define ORDER_WARNING                                                                                        \
    "timeouts scheduler 10000 ms, op-execute 1 us, stream-sync 50000 ms break the ordering scheduler < "     \
    "op-execute < stream-sync (and stream-sync > scheduler + 1.5 s); ignored, using the defaults 10000 ms / " \
    "45000000 us / 50000 ms"

START_TEST(the_timeout_ordering_warning_is_repeated_where_it_cannot_be_missed)
{
    const char *dir = tu_tmpdir();
    run_out r = shf("$P run %s --op-execute-timeout-us 1 --no-host-timing -o %s/o", CHAIN3, dir);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "ptosim: warning: " ORDER_WARNING "\n");
    /* the summary's last line */
    const char *last = "  WARNING: " ORDER_WARNING "\n";
    size_t n = strlen(r.out), m = strlen(last);
    ck_assert_msg(n >= m && strcmp(r.out + n - m, last) == 0, "%s", r.out);
    tu_run_free(&r);
    char path[4200];
    snprintf(path, sizeof(path), "%s/o/ptosim_run.json", dir);
    cJSON *j = tu_json_file(path), *w = cJSON_GetObjectItem(j, "warnings");
    ck_assert_int_eq(cJSON_GetArraySize(w), 1);
    ck_assert_str_eq(cJSON_GetArrayItem(w, 0)->valuestring, ORDER_WARNING);
    cJSON_Delete(j);
    /* ordered timeouts: no warning anywhere */
    r = shf("$P run %s --op-execute-timeout-us 20000000 -o %s/p", CHAIN3, dir);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_ptr_null(strstr(r.out, "WARNING"));
    tu_run_free(&r);
    snprintf(path, sizeof(path), "%s/p/ptosim_run.json", dir);
    j = tu_json_file(path);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "warnings")), 0);
    cJSON_Delete(j);
    /* and run --help states the rule */
    r = sh("$P run --help");
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "runtime's order, scheduler < op-execute < stream-sync and\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "stream-sync > scheduler + 1.5 s, or all three are ignored"));
    tu_run_free(&r);
}
END_TEST

/* Every command and its usage line (main.c's table). */
static const struct {
    const char *name, *usage;
} COMMANDS[] = {
    {"run", "ptosim run GRAPH [GRAPH...] [options]"},
    {"tune", "ptosim tune GRAPH [--max-trials N] [run options]"},
    {"sweep", "ptosim sweep GRAPH [KNOB LIST ...] [run options] -o DIR | --resume DIR | --collect DIR | --best DIR"},
    {"validate", "ptosim validate GRAPH"},
    {"import", "ptosim import [--costs swimlane|model|perf-sim|FILE] DFX_DIR > graph.jsonl"},
    {"conform", "ptosim conform CAPTURE_DIR [-o WORKDIR] [-p PLATFORM]"},
    {"gen", "ptosim gen KIND [--PARAM VALUE ...] > GRAPH.jsonl"},
    {"params", "ptosim params [-p NAME|FILE]"},
    {"report", "ptosim report DIR [-o OUT]"},
    {"overhead", "ptosim overhead DIR|SWIMLANE.json [--deps-json DEPS.json]"},
};
#define NCOMMANDS (int)(sizeof(COMMANDS) / sizeof(COMMANDS[0]))

START_TEST(every_command_takes_help_and_help_cmd_shows_it)
{
    /* the man page lists each command's exit statuses too */
    char *man = tu_read(PTOSIM_SRCDIR "/sim/ptosim.1");
    ck_assert_ptr_nonnull(man);
    const char *statuses = strstr(man, "Which statuses each command can end with");
    ck_assert_ptr_nonnull(statuses);
    for (int i = 0; i < NCOMMANDS; i++) {
        const char *name = COMMANDS[i].name;
        char entry[128];
        snprintf(entry, sizeof(entry), ".B %s\n0 ", name);
        ck_assert_msg(strstr(statuses, entry) != NULL, "ptosim.1 lists no exit statuses for %s", name);
        char want[512];
        snprintf(want, sizeof(want), "usage: %.100s", name[0] == 's' && name[1] == 'w' ? "ptosim sweep GRAPH"
                                                                                       : COMMANDS[i].usage);
        for (int form = 0; form < 3; form++) {
            const char *run[] = {name, form == 0 ? "-h" : "--help", NULL}, *help[] = {"help", name, NULL};
            run_out r = tu_run(form == 2 ? help : run);
            ck_assert_msg(r.status == 0, "%s form %d: exit %d", name, form, r.status);
            ck_assert_msg(tu_starts(r.out, want), "%s form %d: %.200s", name, form, r.out);
            ck_assert_msg(strstr(r.out, "exit status: 0 ") != NULL, "%s: no exit statuses in its help", name);
            ck_assert_msg(r.err[0] == '\0', "%s form %d: stderr %s", name, form, r.err);
            tu_run_free(&r);
        }
    }
    /* help alone is the general help; an unknown one is a usage error */
    const char *help[] = {"help", NULL}, *nope[] = {"help", "nope", NULL};
    run_out r = tu_run(help);
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_starts(r.out, "usage: ptosim COMMAND [ARGS]\n"));
    tu_run_free(&r);
    r = tu_run(nope);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "ptosim help: nope: unknown command\nusage: ptosim help [COMMAND]\n");
    tu_run_free(&r);
    free(man);
}
END_TEST

START_TEST(a_usage_error_ends_with_the_commands_own_usage_line)
{
    for (int i = 0; i < NCOMMANDS; i++) {
        const char *args[] = {COMMANDS[i].name, "--no-such-option", NULL};
        run_out r = tu_run(args);
        ck_assert_msg(r.status == 2, "%s: exit %d", COMMANDS[i].name, r.status);
        ck_assert_str_eq(r.out, "");
        char want[512];
        snprintf(want, sizeof(want), "\nusage: %s (ptosim %s --help)\n", COMMANDS[i].usage, COMMANDS[i].name);
        size_t n = strlen(r.err), m = strlen(want);
        ck_assert_msg(n > m && strcmp(r.err + n - m, want) == 0, "%s: %s", COMMANDS[i].name, r.err);
        ck_assert_int_eq((int)(strstr(r.err, "usage:") - r.err), (int)(n - m + 1)); /* one usage line */
        tu_run_free(&r);
    }
    /* what the issue saw: tune without a graph named run's usage; tune --enable-pmu asked for -o */
    const char *tune[] = {"tune", NULL};
    run_out r = tu_run(tune);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "ptosim tune: missing GRAPH\n"
                            "usage: ptosim tune GRAPH [--max-trials N] [run options] (ptosim tune --help)\n");
    tu_run_free(&r);
    const char *pmu[] = {"tune", CHAIN3, "--enable-pmu", NULL};
    r = tu_run(pmu);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err,
                     "ptosim tune: takes one GRAPH and no output options (-o, --enable-*, --dump-args, --perfetto: "
                     "tune writes no files; run ptosim run with the recommended flags for those)\n"
                     "usage: ptosim tune GRAPH [--max-trials N] [run options] (ptosim tune --help)\n");
    tu_run_free(&r);
    const char *validate[] = {"validate", NULL};
    r = tu_run(validate);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "ptosim validate: missing GRAPH\nusage: ptosim validate GRAPH (ptosim validate --help)\n");
    tu_run_free(&r);
}
END_TEST

/* --kernel-set NAME.FIELD=VALUE is the graph's own flag on every submit of the kernel: a run of the plain
 * graph with it writes byte for byte what a run of the graph with the flag on those lines writes, and
 * =false takes a line's flag away. Here the early-resolved producer lets the 4-block sync-start consumer be
 * staged before it ends: 23.590 us instead of 28.277 us. */
START_TEST(kernel_set_is_the_flag_on_every_submit_of_the_kernel)
{
    const char *dir = tu_tmpdir();
#define KS_HDR                                                                                               \
    "{\"ptosim_graph\": 1, \"name\": \"ks\", \"kernels\": [{\"id\": 0, \"name\": \"p\", \"core\": \"aiv\", " \
    "\"cost\": {\"ns\": 10000}}, {\"id\": 1, \"name\": \"c\", \"core\": \"aiv\", \"cost\": {\"ns\": "        \
    "10000}}]}\n"
#define KS_OUT "\"args\": [{\"dir\": \"out\", \"tensor\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [16]}]}\n"
#define KS_IN "\"args\": [{\"dir\": \"in\", \"tensor\": \"x\", \"shape\": [16]}]}\n"
    free(tu_write(dir, "a.jsonl",
                  KS_HDR "{\"op\": \"submit\", \"kernel\": \"p\", " KS_OUT
                         "{\"op\": \"submit\", \"kernel\": \"c\", \"block_num\": 4, " KS_IN));
    free(tu_write(dir, "b.jsonl",
                  KS_HDR
                  "{\"op\": \"submit\", \"kernel\": \"p\", \"early_resolve\": true, " KS_OUT
                  "{\"op\": \"submit\", \"kernel\": \"c\", \"block_num\": 4, \"sync_start\": true, " KS_IN));
    run_out r = shf(
        "cd %s && F='--enable-dep-gen --enable-chip-swimlane' && "
        "$P run a.jsonl -o A $F | grep -o 'makespan.*' && "
        "$P run a.jsonl -o A2 $F --kernel-set p.early_resolve=true --kernel-set=c.sync_start=true "
        "| grep -o 'makespan.*' && "
        "$P run b.jsonl -o B $F | grep -o 'makespan.*' && "
        "$P run b.jsonl -o B2 $F --kernel-set p.allow_early_resolve=false --kernel-set c.sync_start=false "
        "| grep -o 'makespan.*' && "
        "for f in deps.json chip_swimlane_records.json; do cmp A2/dfx_outputs/$f B/dfx_outputs/$f && "
        "cmp A/dfx_outputs/$f B2/dfx_outputs/$f || exit 1; done && "
        "! cmp -s A/dfx_outputs/deps.json B/dfx_outputs/deps.json",
        dir);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_str_eq(r.out,
                     "makespan 28.277 us\nmakespan 23.590 us\nmakespan 23.590 us\nmakespan 28.277 us\n");
    tu_run_free(&r);
    /* ptosim_run.json says what was set, in func id order; a run without the flag has no such key */
    char path[4300];
    snprintf(path, sizeof(path), "%s/A2/ptosim_run.json", dir);
    cJSON *j = tu_json_file(path), *ks = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "config"), "kernel_set");
    char *text = cJSON_PrintUnformatted(ks);
    ck_assert_str_eq(text, "{\"p.early_resolve\":true,\"c.sync_start\":true}");
    free(text);
    cJSON_Delete(j);
    snprintf(path, sizeof(path), "%s/A/ptosim_run.json", dir);
    j = tu_json_file(path);
    ck_assert_ptr_null(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "config"), "kernel_set"));
    cJSON_Delete(j);
    /* every message, each a usage error before anything runs */
    struct {
        const char *arg, *err;
    } bad[] = {
        {"q.sync_start=true",
         "ptosim: --kernel-set q.sync_start=true: graph ks (%s/a.jsonl) has no kernel 'q'\n"},
        {"p.foo=true", "ptosim: --kernel-set p.foo=true: 'foo' is not a flag of a submit (sync_start, "
                       "early_resolve or allow_early_resolve)\n"},
        {"p.sync_start=yes",
         "ptosim: --kernel-set p.sync_start=yes: the value is true or false, got 'yes'\n"},
        {"psync=true",
         "ptosim: --kernel-set psync=true: expected NAME.FIELD=VALUE (a kernel's name, sync_start "
         "or early_resolve, true or false)\n"},
    };
    /* a name longer than a kernel's, and more flags than a run keeps */
    char longname[200];
    memset(longname, 'k', 130);
    strcpy(longname + 130, ".sync_start=true");
    const char *toolong[] = {"run", CHAIN3, "--kernel-set", longname, NULL};
    r = tu_run(toolong);
    ck_assert_int_eq(r.status, 2);
    char want0[600];
    snprintf(want0, sizeof(want0),
             "ptosim: --kernel-set %s: the kernel's name is longer than 127 characters\n" TU_USAGE_RUN,
             longname);
    ck_assert_str_eq(r.err, want0);
    tu_run_free(&r);
    const char *many[3 + 2 * 257 + 1] = {PTOSIM_BIN, "run", CHAIN3}; /* past tu_run's 63 arguments */
    for (int i = 0; i < 257; i++) {
        many[3 + 2 * i] = "--kernel-set";
        many[4 + 2 * i] = "a.sync_start=true";
    }
    r = tu_run_prog(many);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "ptosim: too many --kernel-set arguments (at most 256)\n" TU_USAGE_RUN);
    tu_run_free(&r);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char graph[4200], want[8192], out[4200];
        snprintf(graph, sizeof(graph), "%s/a.jsonl", dir);
        snprintf(out, sizeof(out), "%s/E", dir);
        const char *args[] = {"run", graph, "--kernel-set", bad[i].arg, "-o", out, NULL};
        r = tu_run(args);
        ck_assert_int_eq(r.status, 2);
        snprintf(want, sizeof(want), bad[i].err, dir);
        snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s", TU_USAGE_RUN);
        ck_assert_str_eq(r.err, want);
        ck_assert(!tu_exists(out));
        tu_run_free(&r);
    }
}
END_TEST

START_TEST(short_options_take_attached_values)
{
    const char *dir = tu_tmpdir();
    /* -oDIR -pNAME as -o DIR -p NAME: the same bytes */
    run_out r = shf("cd %s && $P run %s -oa -pa2a3sim --no-host-timing --quiet && "
                    "$P run %s -o b -p a2a3sim --no-host-timing --quiet && cmp a/ptosim_run.json b/ptosim_run.json "
                    "&& $P params -pa2a3sim | head -1",
                    dir, CHAIN3, CHAIN3);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(tu_starts(r.out, "platform a2a3sim ("), "%s", r.out);
    tu_run_free(&r);
    r = shf("cd %s && $P sweep %s --ring-task-window 16 -os -j1 >/dev/null && test -f s/sweep.csv && "
            "$P tune %s --max-trials=0 | head -1",
            dir, CHAIN3, CHAIN3);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "ptosim tune: chain3 (3 tasks) on a2a3\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(the_readme_is_one_screen_with_install_and_the_two_commands)
{
    /* a reader decides and starts from the first screen: install, the two commands, the walk, links */
    char *readme = tu_read(PTOSIM_SRCDIR "/README.md");
    int lines = 0;
    for (const char *p = readme; *p; p++)
        lines += *p == '\n';
    ck_assert_int_le(lines, 150);
    char *start = strstr(readme, "## Install and test"), *end = start ? strstr(start + 1, "\n## ") : NULL;
    ck_assert_ptr_nonnull(end);
    *end = '\0';
    ck_assert_ptr_nonnull(strstr(start, "\nmake run "));
    ck_assert_ptr_nonnull(strstr(start, "\nmake check "));
    ck_assert_ptr_nonnull(strstr(end + 1, "](docs/tutorial.md)"));
    free(readme);
    /* the tutorial's piped graph does what it says (every console block: make check-docs) */
    run_out r = sh("$P gen chain --n 5 | $P run -");
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "makespan 57.948 us"));
    tu_run_free(&r);
}
END_TEST

START_TEST(a_piped_graph_whose_copy_cannot_be_written_fails_by_name)
{
    /* a file-size limit stands in for a full disk; the shell ignores SIGXFSZ, so ptosim sees EFBIG */
    const char *dir = tu_tmpdir();
    char want[8192];
    /* --repeat reads the graph twice: a pipe is copied to $TMPDIR first */
    run_out r = shf("trap '' XFSZ; ulimit -f 8; cat %s | TMPDIR=%s $P run - --repeat 2", TRACE("gen_fan.jsonl"),
                    dir);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want), "ptosim: <stdin>: cannot write its temporary copy in %s: File too large\n", dir);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    /* a sweep copies a pipe to $TMPDIR to check it before its folder is touched: failing mid-copy (5.6 MB)
     * and at the last flush (93 KB), with no folder made */
    r = shf("trap '' XFSZ; ulimit -f 8; $P gen fan --n 30000 | TMPDIR=%s $P sweep - --ring-heap 1024,2048/0/0/0 "
            "-o %s/a",
            dir, dir);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want), "ptosim sweep: <stdin>: cannot write its temporary copy in %s: File too large\n",
             dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    r = shf("trap '' XFSZ; ulimit -f 8; cat %s | TMPDIR=%s $P sweep - --ring-heap 1024,2048/0/0/0 -o %s/b",
            TRACE("gen_fan.jsonl"), dir, dir);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    for (int i = 0; i < 2; i++) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/%s", dir, i ? "b" : "a");
        ck_assert_msg(!tu_exists(path), "a failed sweep made %s", path);
    }
    for (int i = 0; i < 2; i++) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/%s/sweep.csv", dir, i ? "b" : "a");
        ck_assert_msg(!tu_exists(path), "a failed sweep wrote %s", path);
        snprintf(path, sizeof(path), "%s/%s/graph.jsonl", dir, i ? "b" : "a");
        ck_assert_msg(!tu_exists(path), "a failed copy was left at %s", path);
    }
    /* a folder that cannot be made: the sweep's own failures are not mistaken for --help (exit 0) */
    r = shf("$P sweep %s --ring-heap 1024,2048/0/0/0 -o /proc/nope", CHAIN3);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "ptosim sweep: /proc/nope: cannot create directory: No such file or directory\n");
    tu_run_free(&r);
}
END_TEST

/* What bash completion offers after WORDS (space-separated, the last the word being completed). */
static char *complete_words(const char *words)
{
    char script[1024];
    snprintf(script, sizeof(script),
             "source %s/sim/ptosim.bash; COMP_WORDS=(%s); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
             "_ptosim; echo \"${COMPREPLY[*]}\"",
             PTOSIM_SRCDIR, words);
    const char *args[] = {"/bin/bash", "-c", script, NULL};
    run_out r = tu_run_prog(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *out = r.out;
    r.out = NULL;
    tu_run_free(&r);
    return out;
}

/* Every option completion offers run, tune and sweep has an entry in the man page (it lacked --seed and
 * --repeat); -p offers every shipped platform; gen offers a generator's own parameters, read from its
 * --help, so neither list can drift from the program. */
START_TEST(completion_and_the_man_page_know_every_option_platform_and_parameter)
{
    char *man = tu_read(PTOSIM_SRCDIR "/sim/ptosim.1");
    ck_assert_ptr_nonnull(man);
    static const char *const cmds[] = {" run g.jsonl -", " tune g.jsonl -", " sweep g.jsonl -"};
    for (int c = 0; c < 3; c++) {
        char line[256];
        snprintf(line, sizeof(line), "%s%s", PTOSIM_BIN, cmds[c]);
        char *opts = complete_words(line);
        ck_assert_msg(strstr(opts, "--seed") && strstr(opts, "--repeat") && strstr(opts, "--kernel-set"),
                      "%s", opts);
        ck_assert_msg(c != 2 || (strstr(opts, "--engine") && strstr(opts, "--sshlogin")), "%s", opts);
        char *save = NULL;
        for (char *o = strtok_r(opts, " \n", &save); o; o = strtok_r(NULL, " \n", &save)) {
            if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0 || strcmp(o, "--") == 0)
                continue;
            char esc[128] = ""; /* the man page writes --seed as \-\-seed */
            for (const char *c = o; *c && strlen(esc) + 3 < sizeof(esc); c++) {
                if (*c == '-')
                    strcat(esc, "\\");
                strncat(esc, c, 1);
            }
            ck_assert_msg(strstr(man, esc), "the man page has no entry for %s (%s)", o, cmds[c]);
        }
        free(opts);
    }
    free(man);
    /* a sweep's GRAPH may be gen:KIND, whose parameters complete as --gen-PARAM */
    char *gen = complete_words(PTOSIM_BIN " sweep gen:gr");
    ck_assert_str_eq(gen, "gen:granularity\n");
    free(gen);
    gen = complete_words(PTOSIM_BIN " sweep gen:granularity --gen-");
    ck_assert_str_eq(gen, "--gen-k --gen-total-us\n");
    free(gen);
    char *plats = complete_words(PTOSIM_BIN " run g.jsonl -p a2a3");
    ck_assert_str_eq(plats, "a2a3 a2a3_2606 a2a3sim\n");
    free(plats);
    char *params = complete_words(PTOSIM_BIN " gen decode_layer --l");
    ck_assert_str_eq(params, "--layers\n");
    free(params);
    params = complete_words(PTOSIM_BIN " gen granularity --");
    ck_assert_msg(strstr(params, "--k") && strstr(params, "--total-us"), "%s", params);
    free(params);
}
END_TEST

/* Runs scripts/install-deps.sh with a stand-in apt-get (and sudo) from stub/ that answers as the
 * script in stub/answer says; nothing is installed and the real apt lock is not taken. */
static run_out install_deps_with(const char *stub, const char *answer, const char *wait)
{
    char path[4200], libdir[4200], waitv[64], sh[4200], apt[8192];
    snprintf(apt, sizeof(apt),
             "#!/bin/sh\nn=$(cat %s/count 2>/dev/null || echo 0); n=$((n + 1)); echo $n > %s/count\n"
             "echo \"$*\" >> %s/calls\n%s\n",
             stub, stub, stub, answer);
    free(tu_write(stub, "apt-get", apt));
    free(tu_write(stub, "sudo", "#!/bin/sh\nexec \"$@\"\n"));
    snprintf(sh, sizeof(sh), "chmod +x %s/apt-get %s/sudo", stub, stub);
    ck_assert_int_eq(system(sh), 0);
    snprintf(path, sizeof(path), "PATH=%s:/usr/bin:/bin", stub);
    snprintf(libdir, sizeof(libdir), "PKG_CONFIG_LIBDIR=%s", stub); /* every library looks missing */
    snprintf(waitv, sizeof(waitv), "PTOSIM_APT_LOCK_WAIT=%s", wait);
    const char *args[] = {"/usr/bin/env", path, libdir, "PTOSIM_DEPS_LOCKED=1", waitv, "PTOSIM_APT_LOCK_POLL=1",
                          "/bin/sh", PTOSIM_SRCDIR "/scripts/install-deps.sh", NULL};
    return tu_run_prog(args);
}

/* Another apt holding the lock is waited for, with a limit and a message, never a failure at once: the
 * stand-in apt-get fails twice as apt does when dpkg's lock is held, then succeeds; held past the limit,
 * the script says so and fails; any other apt failure is passed on at once. */
START_TEST(install_deps_waits_for_another_apts_lock)
{
    const char *lock = "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)";
    char answer[512];
    snprintf(answer, sizeof(answer), "if [ $n -le 2 ]; then echo '%s' >&2; exit 100; fi\nexit 0", lock);
    const char *stub = tu_tmpdir();
    run_out r = install_deps_with(stub, answer, "10");
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *wait = "install-deps: another apt or dpkg holds its lock; waiting up to 10 s\n";
    const char *w = strstr(r.err, wait);
    ck_assert_msg(w && !strstr(w + 1, wait), "%s", r.err);
    char p[4200];
    snprintf(p, sizeof(p), "%s/calls", stub);
    char *calls = tu_read(p);
    ck_assert_msg(tu_starts(calls, "update -qq\nupdate -qq\nupdate -qq\ninstall -y -qq --no-install-recommends "
                                   "libsimgrid-dev"),
                  "%s", calls);
    free(calls);
    tu_run_free(&r);

    snprintf(answer, sizeof(answer), "echo '%s' >&2; exit 100", lock);
    r = install_deps_with(tu_tmpdir(), answer, "2");
    ck_assert_int_eq(r.status, 1);
    char want[512];
    snprintf(want, sizeof(want),
             "install-deps: another apt or dpkg still holds its lock after 2 s (set PTOSIM_APT_LOCK_WAIT to wait "
             "longer): %s\n",
             lock);
    ck_assert_msg(strstr(r.err, want), "%s", r.err);
    tu_run_free(&r);

    r = install_deps_with(tu_tmpdir(), "echo 'E: Unable to locate package libsimgrid-dev' >&2; exit 100", "10");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "E: Unable to locate package libsimgrid-dev\n") && !strstr(r.err, "waiting"),
                  "%s", r.err);
    tu_run_free(&r);

    r = install_deps_with(tu_tmpdir(), "exit 0", "ten");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "install-deps: PTOSIM_APT_LOCK_WAIT and PTOSIM_APT_LOCK_POLL are whole seconds, "
                                "got 'ten' and '1'\n"),
                  "%s", r.err);
    tu_run_free(&r);
}
END_TEST

Suite *suite_cli(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("graph input");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, run_reads_a_graph_from_a_pipe_stdin_and_process_substitution);
    tcase_add_test(tc, a_piped_graph_that_is_malformed_leaves_no_outputs);
    tcase_add_test(tc, gzip_graphs_and_a_byte_order_mark_are_read);
    tcase_add_test(tc, damaged_gzip_is_a_graph_error);
    tcase_add_test(tc, tune_sweep_and_several_programs_read_a_pipe);
    tcase_add_test(tc, a_malformed_pipe_stops_tune_and_sweep_before_any_run);
    tcase_add_test(tc, import_pipes_into_run);
    suite_add_tcase(s, tc);
    tc = tcase_create("convention");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_command_takes_help_and_help_cmd_shows_it);
    tcase_add_test(tc, a_usage_error_ends_with_the_commands_own_usage_line);
    tcase_add_test(tc, short_options_take_attached_values);
    tcase_add_test(tc, the_readme_is_one_screen_with_install_and_the_two_commands);
    suite_add_tcase(s, tc);
    tc = tcase_create("outputs");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_reused_output_folder_holds_the_last_run_alone);
    tcase_add_test(tc, a_session_or_run_after_a_session_leaves_none_of_its_program_folders);
    tcase_add_test(tc, the_timeout_ordering_warning_is_repeated_where_it_cannot_be_missed);
    tcase_add_test(tc, a_piped_graph_whose_copy_cannot_be_written_fails_by_name);
    tcase_add_test(tc, completion_and_the_man_page_know_every_option_platform_and_parameter);
    tcase_add_test(tc, install_deps_waits_for_another_apts_lock);
    tcase_add_test(tc, kernel_set_is_the_flag_on_every_submit_of_the_kernel);
    suite_add_tcase(s, tc);
    return s;
}
