/* fuzz_import.c - libFuzzer target: the capture reader of `ptosim import`. */
/* One input holds the capture's files one after another, split at "\n====\n": deps.json,
 * scope_stats/scope_stats.jsonl, chip_swimlane_records.json, name_map_f.json (a missing part is a
 * missing file). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/graph/graph_reader.h"
#include "../../sim/import/import.h"
#include "fuzzutil.h"

static const char *const FILES[] = {"deps.json", "scope_stats/scope_stats.jsonl",
                                    "chip_swimlane_records.json", "name_map_f.json"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[64];
    static FILE *sink;
    char path[128];
    if (!dir[0]) {
        fuzz_scratch_path(dir, sizeof(dir), "capture");
        mkdir(dir, 0700);
        snprintf(path, sizeof(path), "%s/scope_stats", dir);
        mkdir(path, 0700);
        sink = fopen("/dev/null", "w");
    }
    const uint8_t *p = data, *end = data + size;
    for (int f = 0; f < 4; f++) {
        snprintf(path, sizeof(path), "%s/%s", dir, FILES[f]);
        if (!p) {
            unlink(path);
            continue;
        }
        const uint8_t *cut = fuzz_find_sep(p, end);
        size_t len = cut ? (size_t)(cut - p) : (size_t)(end - p);
        if (fuzz_write_file(path, p, len) != 0)
            return 0;
        p = cut ? cut + sizeof(FUZZ_SEP) - 1 : NULL;
    }
    /* what `ptosim import` does with a capture it read: the graph it made, checked as `ptosim run` reads it
     * (import_main writes it only then), so the checker meets every graph the importer can make */
    char err[2048], graph[160];
    snprintf(graph, sizeof(graph), "%s/graph.jsonl", dir);
    FILE *g = fopen(graph, "w");
    if (!g)
        return 0;
    int rc = import_capture(dir, NULL, g, err, sizeof(err));
    if (fclose(g) == 0 && rc == 0)
        graph_validate(graph, err, sizeof(err));
    /* conform imports a capture while another thread checks it, trusting its syntax (opt.checked): on files
     * the check would refuse, that import is thrown away, but it must end, and safely */
    import_opts trusting = {.costs = IMPORT_COSTS_AUTO, .checked = true, .warn = sink};
    if ((g = fopen(graph, "w")) != NULL) {
        import_capture(dir, &trusting, g, err, sizeof(err));
        fclose(g);
    }
    return 0;
}
