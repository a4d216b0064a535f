/* report_data_dfx.c - rd_: the DFX files (swimlane, deps.json, scope stats, pmu.csv), the critical path. */
#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/base/csv.h"
#include "../../model/base/json_reader.h"
#include "../../model/base/readall.h"
#include "../../model/base/userdir.h"
#include "../../model/base/vec.h"
#include "../json/json_scan.h"
#include "report_data.h"
#include "report_data_int.h"

/* ------------------------------------------------------------------ */
/* JSON files read with the scanner (json_scan.h)                          */
/* ------------------------------------------------------------------ */

/* Maps a whole file read-only: big captures (a 10^7-edge deps.json is about 1 GB) stay in the page cache
 * instead of the heap. RD_ABSENT when it does not exist. */
static int map_file(const char *path, const char **text, size_t *len, char *err, size_t errlen)
{
    /* a FIFO would block the open, refused below; below DIR no link is followed */
    int fd = userdir_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
    if (fd < 0) {
        if (errno == ENOENT)
            return RD_ABSENT;
        return rd_bad(err, errlen, "%s: cannot read: %s", path, userdir_why(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return rd_bad(err, errlen, "%s: cannot read: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return rd_bad(err, errlen, "%s: cannot read: not a regular file", path);
    }
    *len = (size_t)st.st_size;
    *text = "";
    if (*len) {
        void *m = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            close(fd);
            return rd_bad(err, errlen, "%s: cannot read: %s", path, strerror(e));
        }
        *text = m;
    }
    close(fd);
    return RD_OK;
}

static void unmap_file(const char *text, size_t len)
{
    if (len)
        munmap((void *)text, len);
}

/* The scan's failure as every JSON reader says it: FILE:LINE:COL: json: WHAT. */
static int syntax(const jctx *c, const jscan *s)
{
    jsonl_error je;
    jscan_error(s, &je);
    jsonl_message(c->err, c->errlen, c->path, s->base, &je, 0);
    return RD_BAD;
}

/* What a member reader returns for a key it does not read: the value is skipped. */
enum { MEMBER_SKIP = 2 };

/* Reads the value of the member key at s into st: RD_OK, RD_BAD (message in c->err) or MEMBER_SKIP. */
typedef int member_fn(jctx *c, jscan *s, const char *key, void *st);

#define MEMBERS_KEPT                                                                                         \
    32 /* keys of one object checked for a repeat (jstream refuses objects of more than 48) */

/* Is the key whose opening quote is at a (in s's text) key, which the key at b was read as? Exact for keys
 * read whole; a key that filled key[64] is taken as the same only when its text is byte for byte. */
static bool same_key(const jscan *s, const char *a, const char *b, const char *key, size_t klen)
{
    jscan t;
    char other[64];
    jscan_init(&t, a, (size_t)(s->end - a));
    if (!jscan_string(&t, other, sizeof(other)) || strcmp(other, key) != 0)
        return false;
    if (klen < sizeof(other) - 1)
        return true;
    size_t alen = (size_t)(t.p - a);
    return (size_t)(s->end - b) >= alen && memcmp(a, b, alen) == 0;
}

/* Fast paths. A capture's rows have a few shapes: plain ASCII strings, short integers, shallow nesting.
 * These read such text in a tight loop and leave the scanner alone on anything else, which the jscan
 * readers then read from the same place: they take only text jscan takes, ending where jscan ends, so
 * what a report reads and every message it gives for a bad file are jscan's. */

static inline const char *fp_ws(const char *p, const char *end)
{
    if (p < end && (unsigned char)*p > ' ') /* most tokens of a capture follow one another */
        return p;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* A string of printable ASCII without escapes (jsonl_lex_string's plain run): the byte after its closing
 * quote, or NULL. */
static inline const char *fp_string(const char *p, const char *end)
{
    if (p >= end || *p != '"')
        return NULL;
    p = jsonl_plain_end(p + 1, end);
    return p < end && *p == '"' ? p + 1 : NULL;
}

/* An integer as jsonl_lex_number's short form takes it: -?(0|[1-9][0-9]*) of at most 15 digits, not
 * followed by a digit, '.', 'e' or 'E'. The byte after it, or NULL; *v its magnitude, *neg its sign. */
static inline const char *fp_int(const char *p, const char *end, uint64_t *v, bool *neg)
{
    *neg = p < end && *p == '-';
    const char *d = p + *neg, *q = d;
    if (q < end && *q == '0')
        q++;
    else
        while (q < end && (unsigned)(*q - '0') < 10)
            q++;
    if (q == d || q - d > 15 ||
        (q < end && (*q == '.' || *q == 'e' || *q == 'E' || (unsigned)(*q - '0') < 10)))
        return NULL;
    uint64_t x = 0;
    for (const char *c = d; c < q; c++)
        x = x * 10 + (uint64_t)(*c - '0');
    *v = x;
    return q;
}

/* What jscan_u64 reads, when it is a short integer or a quoted one of 1 to 20 digits that fits 64 bits:
 * the byte after it, or NULL. */
static inline const char *fp_u64(const char *p, const char *end, uint64_t *v)
{
    p = fp_ws(p, end);
    if (p < end && *p == '"') {
        const char *d = ++p;
        uint64_t x = 0;
        for (; p < end && (unsigned)(*p - '0') < 10; p++) {
            unsigned k = (unsigned)(*p - '0');
            if (x > (UINT64_MAX - k) / 10)
                return NULL;
            x = x * 10 + k;
        }
        if (p == d || p - d > 20 || p >= end || *p != '"')
            return NULL;
        *v = x;
        return p + 1;
    }
    bool neg;
    p = p < end && *p >= '0' && *p <= '9' ? fp_int(p, end, v, &neg) : NULL;
    return p;
}

#define FP_DEPTH 32 /* deeper values are left to jscan (which refuses past 256) */

/* Skips one value as jscan_skip would, when it is made of the shapes above: the byte after it, or NULL.
 * One loop, the open containers a bit each (1: an object). */
static const char *fp_value(const char *p, const char *end)
{
    uint32_t open = 0;
    int depth = 0;
    uint64_t v;
    bool neg;
value:
    p = fp_ws(p, end);
    if (p >= end)
        return NULL;
    switch (*p) {
    case '"':
        if (!(p = fp_string(p, end)))
            return NULL;
        goto after;
    case '{':
    case '[': {
        if (depth == FP_DEPTH)
            return NULL;
        bool obj = *p == '{';
        p = fp_ws(p + 1, end);
        if (p < end && *p == (obj ? '}' : ']')) {
            p++;
            goto after;
        }
        open = open << 1 | obj;
        depth++;
        if (obj)
            goto key;
        goto value;
    }
    case 't':
        if (end - p < 4 || memcmp(p, "true", 4) != 0)
            return NULL;
        p += 4;
        goto after;
    case 'f':
        if (end - p < 5 || memcmp(p, "false", 5) != 0)
            return NULL;
        p += 5;
        goto after;
    case 'n':
        if (end - p < 4 || memcmp(p, "null", 4) != 0)
            return NULL;
        p += 4;
        goto after;
    default:
        if (!(p = fp_int(p, end, &v, &neg)))
            return NULL;
        goto after;
    }
key: /* at a member's key, white space skipped */
    if (!(p = fp_string(p, end)))
        return NULL;
    p = fp_ws(p, end);
    if (p >= end || *p != ':')
        return NULL;
    p++;
    goto value;
after: /* a value read: the container goes on, or closes */
    if (!depth)
        return p;
    p = fp_ws(p, end);
    if (p >= end)
        return NULL;
    if (*p == (open & 1 ? '}' : ']')) {
        p++;
        open >>= 1;
        depth--;
        goto after;
    }
    if (*p != ',')
        return NULL;
    p = fp_ws(p + 1, end);
    if (open & 1)
        goto key;
    goto value;
}

/* jscan_skip, through fp_value when it can. */
static bool skip_value(jscan *s)
{
    const char *q = fp_value(s->p, s->end);
    if (q) {
        s->p = q;
        return true;
    }
    return jscan_skip(s);
}

/* jscan_u64, through fp_u64 when it can. */
static bool read_u64(jscan *s, uint64_t *v)
{
    const char *q = fp_u64(s->p, s->end, v);
    if (q) {
        s->p = q;
        return true;
    }
    return jscan_u64(s, v);
}

/* A row of at least min and at most max short integers, "[a, b, ...]", none signed where bit i of
 * unsig is set (jscan_u64 takes no sign): the count read into v and neg, the scanner past the row; 0 (the
 * scanner left alone) when it is not one. */
static int fp_row(jscan *s, int min, int max, unsigned unsig, uint64_t *v, bool *neg)
{
    const char *p = fp_ws(s->p, s->end), *end = s->end;
    if (p >= end || *p != '[')
        return 0;
    int n = 0;
    for (p++;;) {
        p = fp_int(fp_ws(p, end), end, &v[n], &neg[n]);
        if (!p || (neg[n] && (unsig >> n & 1)))
            return 0;
        n++;
        p = fp_ws(p, end);
        if (p >= end)
            return 0;
        if (*p == ']')
            break;
        if (*p != ',' || n == max)
            return 0;
        p++;
    }
    if (n < min)
        return 0;
    s->p = p + 1;
    return n;
}

/* The signed value of a short integer fp_row read. */
static inline int64_t fp_signed(uint64_t v, bool neg)
{
    return neg ? -(int64_t)v : (int64_t)v;
}

/* jscan_next(s, '}', first), inline for what a capture's rows hold: the ',' or '}' right at the cursor, or the
 * first member's key. Anything else is jscan_next's to read (white space) or refuse. */
static inline int next_member(jscan *s, bool *first)
{
    if (s->p < s->end) {
        if (*s->p == '}') {
            s->p++;
            return 0;
        }
        if (*first ? *s->p == '"' : *s->p == ',') {
            s->p += !*first;
            *first = false;
            return 1;
        }
    }
    return jscan_next(s, '}', first);
}

/* The n (< 64) bytes of a key at src into key[64]: eight bytes a step where the text goes on that far (the
 * bytes copied past n are overwritten or past the NUL the caller puts at key[n]), else memcpy. */
static inline void key_copy(char *key, const char *src, size_t n, const char *end)
{
    size_t whole = (n + 7) & ~(size_t)7; /* at most 64: n < 64 */
    if ((size_t)(end - src) < whole) {
        memcpy(key, src, n);
        return;
    }
    for (size_t i = 0; i < whole; i += 8)
        memcpy(key + i, src + i, 8);
}

/* Reads the members of an object whose '{' is already consumed, each with member. A key given twice is
 * refused as jsonl_parse refuses it: a reader would otherwise take one of the values silently. */
static int read_members(jctx *c, jscan *s, member_fn *member, void *st)
{
    bool first = true;
    char key[64];
    const char *kat[MEMBERS_KEPT]; /* where the keys read start */
    uint32_t kh[MEMBERS_KEPT];     /* their hashes */
    uint64_t seen = 0;             /* a bit per hash: most keys differ there, and nothing is compared */
    int nk = 0, r;
    while ((r = next_member(s, &first)) == 1) {
        jscan_peek(s);
        const char *at = s->p, *q = fp_string(at, s->end);
        size_t qlen = q ? (size_t)(q - at) - 2 : 0, klen;
        if (q && qlen < sizeof(key) && (q = fp_ws(q, s->end)) < s->end && *q == ':') {
            key_copy(key, at + 1, qlen, s->end); /* a plain key, as jscan_string copies it */
            key[qlen] = '\0';
            klen = qlen;
            s->p = q + 1;
        } else if (!jscan_string(s, key, sizeof(key)) || !jscan_eat(s, ':')) {
            return syntax(c, s);
        } else {
            klen = strlen(key);
        }
        uint32_t h = jsonl_key_hash(key, klen); /* the rows of a capture hold millions of keys */
        if (seen >> (h & 63) & 1)
            for (int i = 0; i < nk; i++)
                if (kh[i] == h && same_key(s, kat[i], at, key, klen)) {
                    jsonl_error je = {.at = at, .what = "duplicate key"};
                    snprintf(je.path, sizeof(je.path), "%s", key);
                    jsonl_message(c->err, c->errlen, c->path, s->base, &je, 0);
                    return RD_BAD;
                }
        seen |= (uint64_t)1 << (h & 63);
        if (nk < MEMBERS_KEPT) {
            kat[nk] = at;
            kh[nk++] = h;
        }
        int rc = member(c, s, key, st);
        if (rc == MEMBER_SKIP) {
            if (!skip_value(s))
                return syntax(c, s);
        } else if (rc != RD_OK) {
            return rc;
        }
    }
    return r < 0 ? syntax(c, s) : RD_OK;
}

/* Maps c->path and reads its top-level object with member; nothing may follow it. RD_ABSENT when there
 * is no such file. */
static int read_json_file(jctx *c, member_fn *member, void *st)
{
    const char *text;
    size_t len = 0;
    int rc = map_file(c->path, &text, &len, c->err, c->errlen);
    if (rc != RD_OK)
        return rc;
    jscan s;
    jscan_init(&s, text, len);
    if (!jscan_eat(&s, '{'))
        rc = rd_bad(c->err, c->errlen, "%s: not a JSON object", c->path);
    else if ((rc = read_members(c, &s, member, st)) == RD_OK && jscan_peek(&s) != 0)
        rc = syntax(c, &s);
    unmap_file(text, len);
    return rc;
}

/* One element of an array of rows, whichever array it is. */
typedef union row_buf {
    bool aic;
    rd_exec ex;
    rd_cpu cpu;
    rd_task task;
    rd_edge edge;
} row_buf;

/* Parses the element at s, the i-th of its array, into *row: RD_OK or RD_BAD. */
typedef int row_fn(jctx *c, jscan *s, size_t i, row_buf *row);

/* Reads the array named name at s, appending each element read_row parses to *v (*n elements of size
 * bytes). The element is checked before memory is asked for, so a bad row is reported as such. */
static int read_rows(jctx *c, jscan *s, const char *name, row_fn *read_row, void **v, size_t *n, size_t size)
{
    if (!jscan_eat(s, '['))
        return rd_bad(c->err, c->errlen, "%s: %s: not an array", c->path, name);
    /* a second array under the same key would grow rows it does not own the capacity of */
    if (*n)
        return rd_bad(c->err, c->errlen, "%s: %s: given twice", c->path, name);
    size_t cap = 0;
    bool first = true;
    int r;
    while ((r = jscan_next(s, ']', &first)) == 1) {
        row_buf row;
        if (read_row(c, s, *n, &row) != RD_OK)
            return RD_BAD;
        if (!rd_grow(v, &cap, *n, size))
            return rd_bad(c->err, c->errlen, "%s: out of memory", c->path);
        memcpy((char *)*v + *n * size, &row, size);
        (*n)++;
    }
    return r < 0 ? syntax(c, s) : RD_OK;
}

/* ------------------------------------------------------------------ */
/* chip_swimlane_records.json                                          */
/* ------------------------------------------------------------------ */

/* What the reader has seen besides the rows. */
typedef struct swimlane_read {
    rd_swimlane *sl;
    int64_t num_cores; /* -1 = not given */
    bool meta, rows;
} swimlane_read;

static int core_type_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    char t[8];
    if (!jscan_string(s, t, sizeof(t)) || (strcmp(t, "aic") != 0 && strcmp(t, "aiv") != 0))
        return rd_bad(c->err, c->errlen, "%s: metadata.core_types[%zu]: not \"aic\" or \"aiv\"", c->path, i);
    row->aic = strcmp(t, "aic") == 0;
    return RD_OK;
}

/* metadata: clock_freq_hz, num_cores, core_types. */
static int metadata_member(jctx *c, jscan *s, const char *key, void *arg)
{
    swimlane_read *st = arg;
    rd_swimlane *sl = st->sl;
    if (strcmp(key, "clock_freq_hz") == 0) {
        int64_t v;
        if (!jscan_i64(s, &v) || v <= 0)
            return rd_bad(c->err, c->errlen, "%s: metadata.clock_freq_hz: not a positive integer", c->path);
        sl->clock_hz = (uint64_t)v;
        return RD_OK;
    }
    if (strcmp(key, "num_cores") == 0) {
        if (!jscan_i64(s, &st->num_cores) || st->num_cores < 0)
            return rd_bad(c->err, c->errlen, "%s: metadata.num_cores: not a non-negative integer", c->path);
        return RD_OK;
    }
    if (strcmp(key, "core_types") == 0) {
        size_t n = 0;
        int rc =
            read_rows(c, s, "metadata.core_types", core_type_row, (void **)&sl->aic, &n, sizeof(*sl->aic));
        if (rc == RD_OK)
            sl->ncores = (int)n;
        return rc;
    }
    return MEMBER_SKIP;
}

/* aicore_tasks: [core_id, task_token_raw, reg_task_id, start, end, receive_to_start] rows. */
static int exec_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    int64_t core, reg, r2s = 0;
    uint64_t task, start, end, v[6];
    bool neg[6];
    int n = fp_row(s, 5, 6, 1u << 1 | 1u << 3 | 1u << 4, v, neg);
    if (n) {
        core = fp_signed(v[0], neg[0]);
        task = v[1];
        reg = fp_signed(v[2], neg[2]);
        start = v[3];
        end = v[4];
        r2s = n == 6 ? fp_signed(v[5], neg[5]) : 0;
    } else if (!jscan_eat(s, '[') || !jscan_i64(s, &core) || !jscan_eat(s, ',') || !jscan_u64(s, &task) ||
               !jscan_eat(s, ',') || !jscan_i64(s, &reg) || !jscan_eat(s, ',') || !jscan_u64(s, &start) ||
               !jscan_eat(s, ',') || !jscan_u64(s, &end) || (jscan_eat(s, ',') && !jscan_i64(s, &r2s)) ||
               !jscan_eat(s, ']')) {
        return rd_bad(c->err, c->errlen,
                      "%s: aicore_tasks[%zu]: not [core_id, task_id, reg_task_id, start, end, "
                      "receive_to_start] integers",
                      c->path, i);
    }
    if (core < 0 || core > INT32_MAX)
        return rd_bad(c->err, c->errlen, "%s: aicore_tasks[%zu]: core_id %" PRId64 " is negative", c->path, i,
                      core);
    if (end < start)
        return rd_bad(c->err, c->errlen, "%s: aicore_tasks[%zu]: end %" PRIu64 " before start %" PRIu64,
                      c->path, i, end, start);
    row->ex = (rd_exec){.task = task,
                        .start = start,
                        .end = end,
                        .r2s = r2s > 0 ? (uint64_t)r2s : 0,
                        .reg = reg,
                        .core = (int32_t)core};
    return RD_OK;
}

/* aicpu_tasks: [core_id, reg_task_id, dispatch, finish] rows. */
static int cpu_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    int64_t core, reg;
    uint64_t dispatch, finish, v[4];
    bool neg[4];
    if (fp_row(s, 4, 4, 1u << 2 | 1u << 3, v, neg)) {
        core = fp_signed(v[0], neg[0]);
        reg = fp_signed(v[1], neg[1]);
        dispatch = v[2];
        finish = v[3];
    } else if (!jscan_eat(s, '[') || !jscan_i64(s, &core) || !jscan_eat(s, ',') || !jscan_i64(s, &reg) ||
               !jscan_eat(s, ',') || !jscan_u64(s, &dispatch) || !jscan_eat(s, ',') ||
               !jscan_u64(s, &finish) || !jscan_eat(s, ']')) {
        core = -1; /* the message below */
    }
    if (core < 0 || core > INT32_MAX)
        return rd_bad(
            c->err, c->errlen,
            "%s: aicpu_tasks[%zu]: not [core_id, reg_task_id, dispatch, finish] non-negative integers",
            c->path, i);
    row->cpu = (rd_cpu){.core = (int32_t)core, .reg = reg, .dispatch = dispatch, .finish = finish};
    return RD_OK;
}

static int swimlane_member(jctx *c, jscan *s, const char *key, void *arg)
{
    swimlane_read *st = arg;
    rd_swimlane *sl = st->sl;
    if (strcmp(key, "chip_swimlane_level") == 0) {
        int64_t v;
        if (!jscan_i64(s, &v) || v < 1 || v > 4)
            return rd_bad(c->err, c->errlen, "%s: chip_swimlane_level: not a level 1-4", c->path);
        sl->level = (int)v;
        return RD_OK;
    }
    if (strcmp(key, "metadata") == 0) {
        st->meta = true;
        if (!jscan_eat(s, '{'))
            return rd_bad(c->err, c->errlen, "%s: metadata: not an object", c->path);
        return read_members(c, s, metadata_member, st);
    }
    if (strcmp(key, "aicore_tasks") == 0) {
        st->rows = true;
        return read_rows(c, s, "aicore_tasks", exec_row, (void **)&sl->ex, &sl->nex, sizeof(*sl->ex));
    }
    if (strcmp(key, "aicpu_tasks") == 0)
        return read_rows(c, s, "aicpu_tasks", cpu_row, (void **)&sl->cpu, &sl->ncpu, sizeof(*sl->cpu));
    return MEMBER_SKIP;
}

/* What a well-formed file may still lack, or get wrong across its parts. */
static int swimlane_complete(jctx *c, const swimlane_read *st)
{
    const rd_swimlane *sl = st->sl;
    if (!sl->level)
        return rd_bad(c->err, c->errlen, "%s: chip_swimlane_level: missing", c->path);
    if (!st->meta || !sl->clock_hz)
        return rd_bad(c->err, c->errlen, "%s: metadata.clock_freq_hz: missing", c->path);
    if (!sl->aic)
        return rd_bad(c->err, c->errlen, "%s: metadata.core_types: missing or empty", c->path);
    if (st->num_cores >= 0 && st->num_cores != sl->ncores)
        return rd_bad(c->err, c->errlen, "%s: metadata.num_cores: %" PRId64 ", but core_types lists %d cores",
                      c->path, st->num_cores, sl->ncores);
    if (!st->rows)
        return rd_bad(c->err, c->errlen, "%s: aicore_tasks: missing", c->path);
    for (size_t i = 0; i < sl->nex; i++)
        if (sl->ex[i].core >= sl->ncores)
            return rd_bad(c->err, c->errlen, "%s: aicore_tasks[%zu]: core_id %d, but there are %d cores",
                          c->path, i, sl->ex[i].core, sl->ncores);
    return RD_OK;
}

int rd_load_swimlane(const char *path, rd_swimlane *sl, char *err, size_t errlen)
{
    memset(sl, 0, sizeof(*sl));
    jctx c = {path, err, errlen};
    swimlane_read st = {.sl = sl, .num_cores = -1};
    int rc = read_json_file(&c, swimlane_member, &st);
    if (rc == RD_OK)
        rc = swimlane_complete(&c, &st);
    if (rc != RD_OK)
        rd_swimlane_free(sl);
    return rc;
}

void rd_swimlane_free(rd_swimlane *sl)
{
    free(sl->aic);
    free(sl->ex);
    free(sl->cpu);
    memset(sl, 0, sizeof(*sl));
}

/* ------------------------------------------------------------------ */
/* deps.json                                                           */
/* ------------------------------------------------------------------ */

static int cmp_edge_succ(const void *a, const void *b)
{
    const rd_edge *x = a, *y = b;
    if (x->succ != y->succ)
        return x->succ < y->succ ? -1 : 1;
    return x->pred < y->pred ? -1 : x->pred > y->pred;
}

static void key_edge_succ(const void *a, uint64_t k[2])
{
    const rd_edge *e = a;
    k[0] = e->succ;
    k[1] = e->pred;
}

/* Sorts the edges by successor, then predecessor, and drops repeats: the
 * runtime writes an edge per matched tensor slice, the walk needs each
 * (pred, succ) pair once. */
static void unique_edges(rd_deps *d)
{
    if (!d->nedges)
        return;
    if (rd_sort_by_key(d->edges, d->nedges, sizeof(*d->edges), key_edge_succ) != 0)
        qsort(d->edges, d->nedges, sizeof(*d->edges), cmp_edge_succ);
    size_t n = 1;
    for (size_t i = 1; i < d->nedges; i++)
        if (d->edges[i].pred != d->edges[n - 1].pred || d->edges[i].succ != d->edges[n - 1].succ)
            d->edges[n++] = d->edges[i];
    d->nedges = n;
}

/* A task object being read: tasks[i]. */
typedef struct task_read {
    size_t i;
    rd_task t;
    bool has_id;
} task_read;

static int task_member(jctx *c, jscan *s, const char *key, void *arg)
{
    task_read *st = arg;
    if (memcmp(key, "task_id", 8) == 0) { /* key is a char[64], as in edge_member */
        if (!read_u64(s, &st->t.id))
            return rd_bad(c->err, c->errlen, "%s: tasks[%zu].task_id: not a decimal task id", c->path, st->i);
        st->has_id = true;
        return RD_OK;
    }
    if (memcmp(key, "kernel_ids", 11) == 0) {
        int64_t k[3];
        uint64_t v[3];
        bool neg[3];
        if (fp_row(s, 3, 3, 0, v, neg)) {
            for (int j = 0; j < 3; j++)
                k[j] = fp_signed(v[j], neg[j]);
        } else if (!jscan_eat(s, '[') || !jscan_i64(s, &k[0]) || !jscan_eat(s, ',') || !jscan_i64(s, &k[1]) ||
                   !jscan_eat(s, ',') || !jscan_i64(s, &k[2]) || !jscan_eat(s, ']')) {
            return rd_bad(c->err, c->errlen, "%s: tasks[%zu].kernel_ids: not 3 integers", c->path, st->i);
        }
        for (int j = 0; j < 3; j++)
            st->t.k[j] = k[j] < 0 || k[j] > INT32_MAX ? -1 : (int32_t)k[j];
        return RD_OK;
    }
    return MEMBER_SKIP;
}

static int task_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    task_read st = {.i = i, .t = {.id = 0, .k = {-1, -1, -1}}};
    if (!jscan_eat(s, '{'))
        return rd_bad(c->err, c->errlen, "%s: tasks[%zu]: not an object", c->path, i);
    if (read_members(c, s, task_member, &st) != RD_OK)
        return RD_BAD;
    if (!st.has_id)
        return rd_bad(c->err, c->errlen, "%s: tasks[%zu].task_id: missing", c->path, i);
    row->task = st.t;
    return RD_OK;
}

/* An edge object being read: edges[i]. */
typedef struct edge_read {
    size_t i;
    rd_edge e;
    bool has_pred, has_succ;
} edge_read;

static int edge_member(jctx *c, jscan *s, const char *key, void *arg)
{
    edge_read *st = arg;
    /* key is a char[64]: five bytes compare the word and its end (an edge has a dozen keys) */
    bool is_pred = memcmp(key, "pred", 5) == 0;
    if (!is_pred && memcmp(key, "succ", 5) != 0)
        return MEMBER_SKIP;
    if (!read_u64(s, is_pred ? &st->e.pred : &st->e.succ))
        return rd_bad(c->err, c->errlen, "%s: edges[%zu].%s: not a decimal task id", c->path, st->i, key);
    *(is_pred ? &st->has_pred : &st->has_succ) = true;
    return RD_OK;
}

static int edge_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    edge_read st = {.i = i, .e = {0, 0}};
    if (!jscan_eat(s, '{'))
        return rd_bad(c->err, c->errlen, "%s: edges[%zu]: not an object", c->path, i);
    if (read_members(c, s, edge_member, &st) != RD_OK)
        return RD_BAD;
    if (!st.has_pred || !st.has_succ)
        return rd_bad(c->err, c->errlen, "%s: edges[%zu].%s: missing", c->path, i,
                      st.has_pred ? "succ" : "pred");
    row->edge = st.e;
    return RD_OK;
}

/* Which of the two arrays the file has. */
typedef struct deps_read {
    rd_deps *d;
    bool tasks, edges;
} deps_read;

static int deps_member(jctx *c, jscan *s, const char *key, void *arg)
{
    deps_read *st = arg;
    rd_deps *d = st->d;
    if (strcmp(key, "tasks") == 0) {
        st->tasks = true;
        return read_rows(c, s, "tasks", task_row, (void **)&d->tasks, &d->ntasks, sizeof(*d->tasks));
    }
    if (strcmp(key, "edges") == 0) {
        st->edges = true;
        return read_rows(c, s, "edges", edge_row, (void **)&d->edges, &d->nedges, sizeof(*d->edges));
    }
    return MEMBER_SKIP;
}

int rd_load_deps(const char *path, rd_deps *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof(*d));
    jctx c = {path, err, errlen};
    deps_read st = {.d = d};
    int rc = read_json_file(&c, deps_member, &st);
    if (rc == RD_OK && !st.tasks)
        rc = rd_bad(err, errlen, "%s: tasks: missing", path);
    else if (rc == RD_OK && !st.edges)
        rc = rd_bad(err, errlen, "%s: edges: missing", path);
    if (rc == RD_OK)
        unique_edges(d);
    else
        rd_deps_free(d);
    return rc;
}

void rd_deps_free(rd_deps *d)
{
    free(d->tasks);
    free(d->edges);
    memset(d, 0, sizeof(*d));
}

/* ------------------------------------------------------------------ */
/* Critical path                                                       */
/* ------------------------------------------------------------------ */

/* A task of the walk: any id seen in the swimlane, deps.json's tasks or its edges. */
typedef struct cp_node {
    uint64_t id;
    uint64_t start, end; /* over its executions */
    int64_t eff;         /* when it finished: its last end, or its last predecessor's (-1 = never) */
    size_t order;        /* submission index in deps.json, SIZE_MAX = not listed */
    bool executed, visited;
} cp_node;

/* Index of id in the sorted node table (it is there by construction). */
static size_t node_of(const cp_node *n, size_t nn, uint64_t id)
{
    return vec_lower_bound(n, nn, sizeof(*n), offsetof(cp_node, id), id);
}

/* Predecessor edges of succ: [*lo, *hi) in edges sorted by successor. */
static void preds_of(const rd_edge *e, size_t ne, uint64_t succ, size_t *lo, size_t *hi)
{
    size_t a = vec_lower_bound(e, ne, sizeof(*e), offsetof(rd_edge, succ), succ);
    *lo = a;
    while (a < ne && e[a].succ == succ)
        a++;
    *hi = a;
}

/* Orders nodes by submission, unlisted ones (allocs, unknown tasks) last by id. */
static int cmp_node_order(const void *a, const void *b)
{
    const cp_node *x = *(cp_node *const *)a, *y = *(cp_node *const *)b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* cmp_node_order's order as a key (SIZE_MAX, not listed, sorts last). */
static void key_node_order(const void *a, uint64_t k[2])
{
    const cp_node *x = *(cp_node *const *)a;
    k[0] = (uint64_t)x->order;
    k[1] = x->id;
}

static void key_u64(const void *a, uint64_t k[2])
{
    k[0] = *(const uint64_t *)a;
    k[1] = 0;
}

/* The node of id in the sorted table, or NULL (an alloc task: in no file but deps.json's edges). */
static cp_node *find_node(cp_node *n, size_t nn, uint64_t id)
{
    size_t i = node_of(n, nn, id);
    return i < nn && n[i].id == id ? &n[i] : NULL;
}

int rd_critical_path(const rd_swimlane *sl, const rd_deps *d, rd_path *out)
{
    memset(out, 0, sizeof(*out));
    if (!sl->nex)
        return 0;
    int rc = -1;
    size_t nids = sl->nex + d->ntasks, nn = 0;
    uint64_t *ids = malloc(nids * sizeof(*ids));
    cp_node *n = NULL, **byorder = NULL;
    if (!ids)
        goto out;
    for (size_t i = 0; i < sl->nex; i++)
        ids[i] = sl->ex[i].task;
    for (size_t i = 0; i < d->ntasks; i++)
        ids[sl->nex + i] = d->tasks[i].id;
    if (rd_sort_by_key(ids, nids, sizeof(*ids), key_u64) != 0)
        qsort(ids, nids, sizeof(*ids), rd_cmp_u64);
    for (size_t i = 0; i < nids; i++)
        if (i == 0 || ids[i] != ids[nn - 1])
            ids[nn++] = ids[i];
    n = calloc(nn, sizeof(*n));
    byorder = malloc(nn * sizeof(*byorder));
    out->v = malloc(nn * sizeof(*out->v));
    if (!n || !byorder || !out->v)
        goto out;
    for (size_t i = 0; i < nn; i++)
        n[i] = (cp_node){.id = ids[i], .eff = -1, .order = SIZE_MAX};
    for (size_t i = 0; i < sl->nex; i++) {
        cp_node *t = find_node(n, nn, sl->ex[i].task);
        if (!t->executed || sl->ex[i].start < t->start)
            t->start = sl->ex[i].start;
        if (!t->executed || sl->ex[i].end > t->end)
            t->end = sl->ex[i].end;
        t->executed = true;
    }
    for (size_t i = 0; i < d->ntasks; i++) {
        cp_node *t = find_node(n, nn, d->tasks[i].id);
        if (t->order == SIZE_MAX)
            t->order = i;
    }

    /* finishing times in submission order, so a dummy sees its predecessors' */
    for (size_t i = 0; i < nn; i++)
        byorder[i] = &n[i];
    if (rd_sort_by_key(byorder, nn, sizeof(*byorder), key_node_order) != 0)
        qsort(byorder, nn, sizeof(*byorder), cmp_node_order);
    for (size_t i = 0; i < nn; i++) {
        cp_node *t = byorder[i];
        if (t->executed) {
            t->eff = (int64_t)t->end;
            continue;
        }
        size_t lo, hi;
        preds_of(d->edges, d->nedges, t->id, &lo, &hi);
        for (size_t j = lo; j < hi; j++) {
            const cp_node *p = find_node(n, nn, d->edges[j].pred);
            if (p && p != t && p->eff > t->eff)
                t->eff = p->eff;
        }
    }

    /* the walk back, from the last end (the lowest id among equals) */
    cp_node *cur = NULL;
    for (size_t i = 0; i < nn; i++)
        if (n[i].executed && (!cur || n[i].end > cur->end))
            cur = &n[i];
    while (cur && !cur->visited) {
        cur->visited = true;
        out->v[out->n++] =
            (rd_step){.task = cur->id, .executed = cur->executed, .start = cur->start, .end = cur->end};
        size_t lo, hi;
        cp_node *best = NULL;
        preds_of(d->edges, d->nedges, cur->id, &lo, &hi);
        for (size_t j = lo; j < hi; j++) { /* ascending pred id: the first of equals is the lowest */
            cp_node *p = find_node(n, nn, d->edges[j].pred);
            if (p && p != cur && p->eff >= 0 && (!best || p->eff > best->eff))
                best = p;
        }
        cur = best;
    }
    for (size_t i = 0; i < out->n / 2; i++) {
        rd_step tmp = out->v[i];
        out->v[i] = out->v[out->n - 1 - i];
        out->v[out->n - 1 - i] = tmp;
    }
    rc = 0;
out:
    free(ids);
    free(n);
    free(byorder);
    if (rc != 0)
        rd_path_free(out);
    return rc;
}

void rd_path_free(rd_path *p)
{
    free(p->v);
    p->v = NULL;
    p->n = 0;
}

/* ------------------------------------------------------------------ */
/* scope_stats.jsonl                                                   */
/* ------------------------------------------------------------------ */

/* Cuts text into lines in place: returns the next line (without "\n" or
 * "\r\n"), advancing *p; NULL at the end. */
static char *next_line(char **p)
{
    char *s = *p;
    if (!s || !*s)
        return NULL;
    char *nl = strchr(s, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = s + strlen(s);
    }
    size_t n = strlen(s);
    if (n && s[n - 1] == '\r')
        s[n - 1] = '\0';
    return s;
}

/* A JSON number a uint64_t holds (a cast of one past 2^64 is undefined). */
static bool u64_number(const cJSON *v)
{
    return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 1.8e19;
}

static int ring_array(const char *path, const cJSON *meta, const char *key, uint64_t out[RD_RINGS], char *err,
                      size_t errlen)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(meta, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != RD_RINGS)
        return rd_bad(err, errlen, "%s:1: %s: missing or not an array of 4 numbers", path, key);
    for (int i = 0; i < RD_RINGS; i++) {
        const cJSON *v = cJSON_GetArrayItem(a, i);
        if (!u64_number(v))
            return rd_bad(err, errlen, "%s:1: %s[%d]: not a non-negative number", path, key, i);
        out[i] = (uint64_t)v->valuedouble;
    }
    return 0;
}

/* One sample line: ring, phase and the live count of each resource. */
static int scope_sample(const char *path, int line, const cJSON *j, rd_sample *s, char *err, size_t errlen)
{
    if (!cJSON_IsObject(j))
        return rd_bad(err, errlen, "%s:%d: not a JSON object", path, line);
    const cJSON *ring = cJSON_GetObjectItemCaseSensitive(j, "ring");
    if (!cJSON_IsNumber(ring) || ring->valuedouble < 0 || ring->valuedouble >= RD_RINGS ||
        ring->valuedouble != (int)ring->valuedouble)
        return rd_bad(err, errlen, "%s:%d: ring: missing or not a ring 0-3", path, line);
    s->ring = (int)ring->valuedouble;
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(j, "phase");
    if (!cJSON_IsString(ph) || (strcmp(ph->valuestring, "begin") != 0 && strcmp(ph->valuestring, "end") != 0))
        return rd_bad(err, errlen, "%s:%d: phase: missing or not \"begin\" or \"end\"", path, line);
    s->begin = strcmp(ph->valuestring, "begin") == 0;
    /* the keys spelt out: a line per scope sample, no printf */
    static const char *const starts[] = {"task_window_start", "heap_start", "dep_pool_start"};
    static const char *const ends[] = {"task_window_end", "heap_end", "dep_pool_end"};
    uint64_t *dst[] = {&s->task_window, &s->heap, &s->dep_pool};
    for (int r = 0; r < 3; r++) {
        const char *k0 = starts[r], *k1 = ends[r];
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, k0),
                    *b = cJSON_GetObjectItemCaseSensitive(j, k1);
        if (!u64_number(a))
            return rd_bad(err, errlen, "%s:%d: %s: missing or not a non-negative number", path, line, k0);
        if (!u64_number(b))
            return rd_bad(err, errlen, "%s:%d: %s: missing or not a non-negative number", path, line, k1);
        if (b->valuedouble < a->valuedouble)
            return rd_bad(err, errlen, "%s:%d: %s: %.0f is below %s %.0f", path, line, k1, b->valuedouble, k0,
                          a->valuedouble);
        *dst[r] = (uint64_t)b->valuedouble - (uint64_t)a->valuedouble;
    }
    return 0;
}

/* Consumes the literal lit (n bytes) at *p: false when the text there is another. */
static bool eat_lit(const char **p, const char *lit, size_t n)
{
    if (strncmp(*p, lit, n) != 0)
        return false;
    *p += n;
    return true;
}
#define EAT(p, lit) eat_lit(&(p), "" lit, sizeof(lit) - 1)

/* A sample line exactly as ptosim and the runtime write it (these keys in this order, a plain site, short
 * non-negative integers, nothing after the object), with a ring below RD_RINGS and no end below its start:
 * true with *x filled as scope_sample fills it from the parsed line. Any other line (false) is parsed. */
static bool fast_sample(const char *l, rd_sample *x)
{
    const char *end = l + strlen(l), *p = l;
    if (!EAT(p, "{\"site\": ") || !(p = fp_string(p, end)))
        return false;
    bool begin = EAT(p, ", \"phase\": \"begin\"");
    if (!begin && !EAT(p, ", \"phase\": \"end\""))
        return false;
    uint64_t v[9];
    bool neg = false;
    if (!EAT(p, ", \"depth\": ") || !(p = fp_int(p, end, &v[0], &neg)) || neg || !EAT(p, ", \"ring\": ") ||
        !(p = fp_int(p, end, &v[1], &neg)) || neg || !EAT(p, ", \"task_window_start\": ") ||
        !(p = fp_int(p, end, &v[2], &neg)) || neg || !EAT(p, ", \"task_window_end\": ") ||
        !(p = fp_int(p, end, &v[3], &neg)) || neg || !EAT(p, ", \"heap_start\": ") ||
        !(p = fp_int(p, end, &v[4], &neg)) || neg || !EAT(p, ", \"heap_end\": ") ||
        !(p = fp_int(p, end, &v[5], &neg)) || neg || !EAT(p, ", \"dep_pool_start\": ") ||
        !(p = fp_int(p, end, &v[6], &neg)) || neg || !EAT(p, ", \"dep_pool_end\": ") ||
        !(p = fp_int(p, end, &v[7], &neg)) || neg || !EAT(p, ", \"tensormap\": ") ||
        !(p = fp_int(p, end, &v[8], &neg)) || neg || !EAT(p, "}") || p != end)
        return false;
    if (v[1] >= RD_RINGS || v[3] < v[2] || v[5] < v[4] || v[7] < v[6])
        return false; /* the parsed line's message */
    *x = (rd_sample){.ring = (int)v[1],
                     .begin = begin,
                     .task_window = v[3] - v[2],
                     .heap = v[5] - v[4],
                     .dep_pool = v[7] - v[6]};
    return true;
}

int rd_load_scopes(const char *path, rd_scopes *sc, char *err, size_t errlen)
{
    memset(sc, 0, sizeof(*sc));
    char *text;
    size_t len, cap = 0;
    int rc = rd_slurp(path, READALL_RECORDS, &text, &len, err, errlen);
    if (rc != RD_OK)
        return rc;
    char *p = text, *l;
    int line = 0;
    bool meta = false;
    while ((l = next_line(&p)) != NULL) {
        line++;
        if (!l[strspn(l, " \t")])
            continue; /* blank lines are skipped, as scope_stats_plot does */
        rd_sample fast;
        if (meta && fast_sample(l, &fast)) { /* a line per sample: most are of one shape */
            if (!rd_grow((void **)&sc->v, &cap, sc->n, sizeof(*sc->v))) {
                rc = rd_bad(err, errlen, "%s: out of memory", path);
                break;
            }
            sc->v[sc->n++] = fast;
            continue;
        }
        jsonl_error je;
        cJSON *j = jsonl_parse(l, strlen(l), &je);
        if (!j) {
            jsonl_message(err, errlen, path, l, &je, line);
            rc = RD_BAD;
            break;
        }
        if (!meta) {
            meta = true;
            const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "fatal"),
                        *dr = cJSON_GetObjectItemCaseSensitive(j, "dropped");
            sc->fatal = cJSON_IsTrue(f);
            sc->dropped = !cJSON_IsNumber(dr) || dr->valuedouble <= 0 ? 0
                          : u64_number(dr)                          ? (uint64_t)dr->valuedouble
                                                                    : UINT64_MAX; /* saturated */
            if (!cJSON_IsObject(j))
                rc = rd_bad(err, errlen, "%s:%d: not a JSON object", path, line);
            else if (ring_array(path, j, "task_window_max", sc->task_window_max, err, errlen) != 0 ||
                     ring_array(path, j, "heap_max", sc->heap_max, err, errlen) != 0 ||
                     ring_array(path, j, "dep_pool_max", sc->dep_pool_max, err, errlen) != 0)
                rc = RD_BAD;
        } else if (!rd_grow((void **)&sc->v, &cap, sc->n, sizeof(*sc->v))) {
            rc = rd_bad(err, errlen, "%s: out of memory", path);
        } else if (scope_sample(path, line, j, &sc->v[sc->n], err, errlen) != 0) {
            rc = RD_BAD;
        } else {
            sc->n++;
        }
        cJSON_Delete(j);
        if (rc != RD_OK)
            break;
    }
    if (rc == RD_OK && !meta)
        rc = rd_bad(err, errlen, "%s:1: no metadata line (the file is empty)", path);
    free(text);
    if (rc != RD_OK)
        rd_scopes_free(sc);
    return rc;
}

void rd_scopes_free(rd_scopes *s)
{
    free(s->v);
    memset(s, 0, sizeof(*s));
}

/* ------------------------------------------------------------------ */
/* pmu.csv                                                             */
/* ------------------------------------------------------------------ */

#define PMU_LEAD 6 /* thread_id,core_id,task_id,func_id,core_type,pmu_total_cycles */

static int cmp_pmu_func(const void *a, const void *b)
{
    const rd_pmu_func *x = a, *y = b;
    return x->func_id < y->func_id ? -1 : x->func_id > y->func_id;
}

int rd_load_pmu(const char *path, rd_pmu *pm, char *err, size_t errlen)
{
    static const char *const lead[PMU_LEAD] = {"thread_id", "core_id",   "task_id",
                                               "func_id",   "core_type", "pmu_total_cycles"};
    memset(pm, 0, sizeof(*pm));
    char *text;
    size_t len, cap = 0;
    int rc = rd_slurp(path, READALL_RECORDS, &text, &len, err, errlen);
    if (rc != RD_OK)
        return rc;
    char *p = text, *l, *f[PMU_LEAD + RD_MAX_COUNTERS + 2], *hdr[PMU_LEAD + RD_MAX_COUNTERS + 2];
    const int maxf = PMU_LEAD + RD_MAX_COUNTERS + 1;
    int next = 1, line = 1, nh;
    if ((l = rd_next_record(&p, &next, &line)) == NULL) {
        rc = rd_bad(err, errlen, "%s:1: no header line (the file is empty)", path);
        goto out;
    }
    nh = csv_split(l, hdr, maxf);
    if (nh < 0) {
        rc = rd_quoting_bad(err, errlen, path, line);
        goto out;
    }
    if (nh > maxf) {
        rc = rd_bad(err, errlen, "%s:1: header: more than %d counter columns", path, RD_MAX_COUNTERS);
        goto out;
    }
    for (int i = 0; i < PMU_LEAD; i++)
        if (i >= nh || strcmp(hdr[i], lead[i]) != 0) {
            rc = rd_bad(err, errlen, "%s:1: header: column %d is \"%s\", expected %s", path, i + 1,
                        i < nh ? hdr[i] : "", lead[i]);
            goto out;
        }
    if (nh < PMU_LEAD + 1 || strcmp(hdr[nh - 1], "event_type") != 0) {
        rc = rd_bad(err, errlen, "%s:1: header: the last column is not event_type", path);
        goto out;
    }
    pm->ncounters = nh - PMU_LEAD - 1;
    pm->event_type = -1;
    for (int i = 0; i < pm->ncounters; i++)
        rd_copy_str(pm->counter_name[i], sizeof(pm->counter_name[i]), hdr[PMU_LEAD + i]);
    while ((l = rd_next_record(&p, &next, &line)) != NULL) {
        if (!l[strspn(l, "\r")])
            continue;
        if ((rc = rd_split_row(path, line, l, f, maxf, nh, err, errlen)) != RD_OK)
            goto out;
        uint64_t func, total, cnt[RD_MAX_COUNTERS];
        int core_type, ev;
        if (strncmp(f[2], "0x", 2) != 0 || strlen(f[2]) != 18 || strspn(f[2] + 2, "0123456789abcdef") != 16) {
            rc = rd_bad(err, errlen, "%s:%d: task_id: \"%s\" is not 0x and 16 hex digits", path, line, f[2]);
            goto out;
        }
        if (!rd_parse_u64(f[3], &func) || func > UINT32_MAX) {
            rc = rd_bad(err, errlen, "%s:%d: func_id: \"%s\" is not an unsigned integer", path, line, f[3]);
            goto out;
        }
        if (!rd_parse_int(f[4], &core_type) || (core_type != 0 && core_type != 1)) {
            rc = rd_bad(err, errlen, "%s:%d: core_type: \"%s\" is not 0 (AIC) or 1 (AIV)", path, line, f[4]);
            goto out;
        }
        if (!rd_parse_u64(f[5], &total)) {
            rc = rd_bad(err, errlen, "%s:%d: pmu_total_cycles: \"%s\" is not an unsigned integer", path, line,
                        f[5]);
            goto out;
        }
        for (int i = 0; i < pm->ncounters; i++)
            if (!rd_parse_u64(f[PMU_LEAD + i], &cnt[i])) {
                rc = rd_bad(err, errlen, "%s:%d: %s: \"%s\" is not an unsigned integer", path, line,
                            pm->counter_name[i], f[PMU_LEAD + i]);
                goto out;
            }
        if (!rd_parse_int(f[nh - 1], &ev) || ev < 1) {
            rc = rd_bad(err, errlen, "%s:%d: event_type: \"%s\" is not an event group", path, line,
                        f[nh - 1]);
            goto out;
        }
        if (pm->event_type >= 0 && ev != pm->event_type) {
            rc = rd_bad(err, errlen, "%s:%d: event_type: %d, but earlier rows have %d", path, line, ev,
                        pm->event_type);
            goto out;
        }
        pm->event_type = ev;
        int k = 0;
        while (k < pm->nfuncs && pm->funcs[k].func_id != func)
            k++;
        if (k == pm->nfuncs) {
            if (!rd_grow((void **)&pm->funcs, &cap, (size_t)pm->nfuncs, sizeof(*pm->funcs))) {
                rc = rd_bad(err, errlen, "%s: out of memory", path);
                goto out;
            }
            memset(&pm->funcs[k], 0, sizeof(pm->funcs[k]));
            pm->funcs[k].func_id = (uint32_t)func;
            pm->funcs[k].core_type = core_type;
            pm->nfuncs++;
        }
        rd_pmu_func *pf = &pm->funcs[k];
        pf->rows++;
        pf->total_cycles += total;
        for (int i = 0; i < pm->ncounters; i++)
            pf->counter[i] += cnt[i];
        pm->rows++;
    }
    if (pm->nfuncs)
        qsort(pm->funcs, (size_t)pm->nfuncs, sizeof(*pm->funcs), cmp_pmu_func);
out:
    free(text);
    if (rc != RD_OK)
        rd_pmu_free(pm);
    return rc;
}

void rd_pmu_free(rd_pmu *p)
{
    free(p->funcs);
    memset(p, 0, sizeof(*p));
}
