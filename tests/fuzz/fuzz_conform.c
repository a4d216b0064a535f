/* fuzz_conform.c - libFuzzer target: conform's comparison of two dfx_outputs folders. */
/* Streamed against whole-file. One input holds, split at "\n====\n": the capture's deps.json, ptosim's
 * deps.json, the capture's chip_swimlane_records.json, ptosim's (a missing part is a missing file).
 * ptosim's folder is compared twice: as written, which the stream reads (tasks and edges as spans of text,
 * sim/json/json_span.c), and with the first character of its deps.json's first string written as a \u escape,
 * which json_reader reads alike and the stream refuses in a key, so the whole-file trees compare it. Where
 * both comparisons end, they must print the same. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../sim/conform/conform.h"
#include "fuzzutil.h"

/* conform.c's command asks run.c where the platforms are; the comparison never does. */
void run_platform_dir(char *out, int outlen);
void run_platform_dir(char *out, int outlen)
{
    snprintf(out, (size_t)outlen, "/nonexistent");
}

/* Writes dir/name from part (len bytes; NULL removes it). When esc, the first character of its first string is
 * written as a \u escape: json_reader reads the same text, the stream refuses escaped keys, so that copy is
 * compared as whole-file trees. */
static int put(const char *dir, const char *name, const uint8_t *part, size_t len, bool esc)
{
    char path[160];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (!part) {
        unlink(path);
        return 0;
    }
    const uint8_t *q = esc ? memchr(part, '"', len) : NULL;
    size_t at = q ? (size_t)(q - part) + 1 : len;
    if (!q || at >= len || part[at] <= 0x20 || part[at] >= 0x7f || part[at] == '"' || part[at] == '\\')
        return fuzz_write_file(path, part, len);
    uint8_t *t = malloc(len + 6); /* the escape's 5 more bytes, and room for snprintf's NUL */
    if (!t)
        return -1;
    memcpy(t, part, at);
    snprintf((char *)t + at, 7, "\\u%04x", (unsigned)part[at]);
    memcpy(t + at + 6, part + at + 1, len - at - 1);
    int rc = fuzz_write_file(path, t, len + 5);
    free(t);
    return rc;
}

/* conform_compare's report (malloc'd) and result. */
static long compare(const char *real, const char *sim, char **out)
{
    size_t len = 0;
    char err[4096];
    *out = NULL;
    FILE *f = open_memstream(out, &len);
    if (!f)
        return -2;
    long n = conform_compare(real, sim, f, err, sizeof(err));
    fclose(f);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dirs[3][64];
    if (!dirs[0][0]) {
        static const char *const NAMES[3] = {"real", "sim", "whole"};
        for (int k = 0; k < 3; k++) {
            fuzz_scratch_path(dirs[k], sizeof(dirs[k]), NAMES[k]);
            mkdir(dirs[k], 0700);
        }
    }
    const uint8_t *parts[4] = {NULL}, *p = data, *end = data + size;
    size_t lens[4] = {0};
    for (int k = 0; k < 4 && p; k++) {
        const uint8_t *cut = fuzz_find_sep(p, end);
        parts[k] = p;
        lens[k] = cut ? (size_t)(cut - p) : (size_t)(end - p);
        p = cut ? cut + sizeof(FUZZ_SEP) - 1 : NULL;
    }
    if (put(dirs[0], "deps.json", parts[0], lens[0], false) || put(dirs[1], "deps.json", parts[1], lens[1], false) ||
        put(dirs[2], "deps.json", parts[1], lens[1], true) ||
        put(dirs[0], "chip_swimlane_records.json", parts[2], lens[2], false) ||
        put(dirs[1], "chip_swimlane_records.json", parts[3], lens[3], false) ||
        put(dirs[2], "chip_swimlane_records.json", parts[3], lens[3], false))
        return 0;
    char *streamed, *whole;
    long a = compare(dirs[0], dirs[1], &streamed), b = compare(dirs[0], dirs[2], &whole);
    if (a >= 0 && b >= 0 && (a != b || strcmp(streamed, whole) != 0)) {
        fprintf(stderr, "streamed (%ld):\n%s\nwhole-file (%ld):\n%s\n", a, streamed, b, whole);
        abort();
    }
    free(streamed);
    free(whole);
    return 0;
}
