/* fuzz_perfsim.c - libFuzzer target: the Perf-Sim result readers, and import's use of what they read. */
/* The input is read as a batch's results file (perfsim_read_batch) and as a cached result entry
 * (perfsim_read_cached); then, cut at "\n====\n", its parts become the result lines of the cached entries
 * of a stand-in import of tests/real/pa_small1_dump (each under a header made valid, so that the import
 * takes it), whose graph is checked as `ptosim run` reads it. The stand-ins (tests/perfsim/fakecxx.sh and
 * the trees it needs) fill the cache once, at the first input; run from the repository's root. */
#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/graph/graph_reader.h"
#include "../../sim/import/import.h"
#include "../../sim/perfsim/perfsim.h"
#include "fuzzutil.h"

#define CAPTURE "tests/real/pa_small1_dump"
#define MAX_RES 64

static char dir[64], pto[96], rt[96], cache[96], kern[4][96], kargs[4][112];
static char res_name[MAX_RES][64];
static char *res_orig[MAX_RES]; /* each entry as the stand-in import wrote it */
static size_t res_len[MAX_RES];
static int nres = -1; /* -1: the import's part is not set up (no stand-ins here) */
static FILE *sink;

static void put(const char *path, const char *text)
{
    fuzz_write_file(path, (const uint8_t *)text, strlen(text));
}

static void mkdirs(const char *path)
{
    char p[256];
    snprintf(p, sizeof(p), "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0700);
            *s = '/';
        }
    mkdir(p, 0700);
}

static int import_once(void)
{
    static const char *const names[4] = {"QK", "SF", "PV", "UP"};
    const char *ka[4];
    for (int i = 0; i < 4; i++) {
        snprintf(kargs[i], sizeof(kargs[i]), "%s=%s", names[i], kern[i]);
        ka[i] = kargs[i];
    }
    import_opts o = {.costs = IMPORT_COSTS_PERFSIM, .kernel_args = ka, .nkernel_args = 4, .pto_isa = pto,
                     .runtime_root = rt, .cache_dir = cache, .jobs = 1, .warn = sink};
    char err[4096], graph[160];
    snprintf(graph, sizeof(graph), "%s/graph.jsonl", dir);
    FILE *g = fopen(graph, "w");
    if (!g)
        return -1;
    int rc = import_capture(CAPTURE, &o, g, err, sizeof(err));
    if (fclose(g) != 0 || rc != 0)
        return -1;
    /* what import takes from a result it read, a graph holds: `ptosim import` never writes one run refuses */
    if (graph_validate(graph, err, sizeof(err)) != 0) {
        fprintf(stderr, "import wrote a graph that does not validate: %s\n", err);
        __builtin_trap();
    }
    return 0;
}

/* The stand-in trees, kernels and compiler, and a cache they fill. */
static void setup(void)
{
    sink = fopen("/dev/null", "w");
    fuzz_scratch_path(dir, sizeof(dir), "perfsim");
    snprintf(pto, sizeof(pto), "%s/pto", dir);
    snprintf(rt, sizeof(rt), "%s/rt", dir);
    snprintf(cache, sizeof(cache), "%s/cache", dir);
    char p[256], cxx[4096];
    if (access(CAPTURE "/deps.json", R_OK) != 0 || !realpath("tests/perfsim/fakecxx.sh", cxx))
        return;
    setenv("CXX", cxx, 1);
    snprintf(p, sizeof(p), "%s/include/pto/costmodel/perf_sim", pto);
    mkdirs(p);
    snprintf(p, sizeof(p), "%s/include/pto/costmodel/perf_sim/launch.hpp", pto);
    put(p, "// stand-in\n");
    snprintf(p, sizeof(p), "%s/simpler_setup/incore", rt);
    mkdirs(p);
    snprintf(p, sizeof(p), "%s/simpler_setup/incore/pipe_sync.h", rt);
    put(p, "// stand-in\n");
    snprintf(p, sizeof(p), "%s/src/common/task_interface", rt);
    mkdirs(p);
    snprintf(p, sizeof(p), "%s/src/common/task_interface/tensor.h", rt);
    put(p, "// stand-in\n");
    static const char *const figures[4] = {"41 11 8 5 12 7 7 13 0 0 1024 0 1024", "431 20 6 0 17 0 0 0 403 10 1600 0 0",
                                           "42 11 8 5 12 8 7 13 0 0 1024 0 1024", "45 19 6 0 38 0 0 0 2 5 3328 2176 0"};
    for (int i = 0; i < 4; i++) {
        snprintf(kern[i], sizeof(kern[i]), "%s/k%d.cpp", dir, i);
        char text[128];
        snprintf(text, sizeof(text), "// fake: %s\n", figures[i]);
        put(kern[i], text);
    }
    if (import_once() != 0)
        return;
    snprintf(p, sizeof(p), "%s/res", cache);
    DIR *d = opendir(p);
    if (!d)
        return;
    nres = 0;
    for (struct dirent *e; (e = readdir(d)) && nres < MAX_RES;) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(res_name[0]))
            continue;
        memcpy(res_name[nres], e->d_name, strlen(e->d_name) + 1);
        snprintf(p, sizeof(p), "%s/res/%s", cache, res_name[nres]);
        FILE *f = fopen(p, "rb");
        res_orig[nres] = malloc(4096);
        res_len[nres] = f && res_orig[nres] ? fread(res_orig[nres], 1, 4096, f) : 0;
        if (f)
            fclose(f);
        nres++;
    }
    closedir(d);
    for (int i = 1; i < nres; i++) /* a fixed order: part i of an input is always the same entry's */
        for (int j = i; j > 0 && strcmp(res_name[j - 1], res_name[j]) > 0; j--) {
            char t[64], *o = res_orig[j];
            size_t l = res_len[j];
            memcpy(t, res_name[j], sizeof(t));
            memcpy(res_name[j], res_name[j - 1], sizeof(t));
            memcpy(res_name[j - 1], t, sizeof(t));
            res_orig[j] = res_orig[j - 1], res_len[j] = res_len[j - 1];
            res_orig[j - 1] = o, res_len[j - 1] = l;
        }
}

/* What a reader took must print back to what it reads again. */
static void round_trip(size_t id, const perfsim_result *r)
{
    char line[512];
    int n = perfsim_format_result(line, sizeof(line), id, r);
    size_t id2;
    perfsim_result r2;
    if (n <= 0 || (size_t)n >= sizeof(line) || perfsim_parse_result(line, (size_t)n - 1, &id2, &r2) != 0 ||
        id2 != id || memcmp(r, &r2, sizeof(r2)) != 0)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (nres == -1 && !sink)
        setup();
    const char *text = (const char *)data;
    /* a batch's results file, for two signatures of two kernels */
    perfsim_sig sigs[2];
    memset(sigs, 0, sizeof(sigs));
    sigs[1].kernel = 1;
    perfsim_result res[2];
    bool have[2] = {false, false};
    perfsim_read_batch(text, size, sigs, 2, 0, res, have);
    perfsim_read_batch(text, size, sigs, 2, 1, res, have);
    for (size_t i = 0; i < 2; i++)
        if (have[i])
            round_trip(i, &res[i]);
    /* a cached entry as found, and the input under a valid header: read iff its one line reads */
    static const char key[] = "0123456789abcdef0123456789abcdef";
    const char *why;
    perfsim_result r;
    if (perfsim_read_cached(text, size, key, &r, &why) == 0)
        round_trip(0, &r);
    char *entry = malloc(size + 256);
    if (!entry)
        return 0;
    int hn = perfsim_entry_header(entry, 256, "res", key, data, size);
    if (hn > 0) {
        memcpy(entry + hn, data, size);
        size_t n = size && text[size - 1] == '\n' ? size - 1 : size, id;
        bool line = !memchr(text, '\n', n) && perfsim_parse_result(text, n, &id, &r) == 0;
        if ((perfsim_read_cached(entry, (size_t)hn + size, key, &r, &why) == 0) != line)
            __builtin_trap();
    }
    /* the import, each cached result replaced by a part of the input (the stand-in's own past the last) */
    const uint8_t *p = data, *end = data + size;
    for (int i = 0; i < nres; i++) {
        char path[256];
        snprintf(path, sizeof(path), "%s/res/%s", cache, res_name[i]);
        if (!p) {
            fuzz_write_file(path, (const uint8_t *)res_orig[i], res_len[i]);
            continue;
        }
        const uint8_t *cut = fuzz_find_sep(p, end);
        size_t len = cut ? (size_t)(cut - p) : (size_t)(end - p);
        hn = perfsim_entry_header(entry, 256, "res", res_name[i], p, len);
        if (hn > 0) {
            memcpy(entry + hn, p, len);
            fuzz_write_file(path, (const uint8_t *)entry, (size_t)hn + len);
        }
        p = cut ? cut + sizeof(FUZZ_SEP) - 1 : NULL;
    }
    if (nres > 0)
        import_once();
    free(entry);
    return 0;
}
