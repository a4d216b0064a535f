/* graph_reader.c - graph_: the graph file reader: each line parsed, every field checked. */
/* Each line is parsed into a reused flat doc (json_reader.h, no tree); names are kept in bounded tables. */
#include "graph_reader.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/dtype.h"
#include "graph_source.h"
#include "../base/json_reader.h"
#include "../base/msg_text.h"
#include "../runtime/ring_resources.h"
#include "../runtime/run_config.h"

#define AUTO_ADDR_BASE 0x12c0000000ULL /* first auto-assigned external address */
#define AUTO_ADDR_ALIGN 0x10000ULL     /* auto-assigned buffers start on 64 KiB */
#define MAX_SCOPE_DEPTH GRAPH_MAX_SCOPE_DEPTH

/* fail() with its arguments in ap. */
static int vfail(const graph *g, char *err, size_t errlen, const char *field, const char *fmt, va_list ap)
{
    char msg[GRAPH_ERR_MAX];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    snprintf(err, errlen, "%s:%ld: %s: %s", g->path, g->line, field, msg);
    msgtext_fix(err, errlen); /* names, keys and values of a graph someone sent: no terminal controls */
    return -1;
}

/* Formats "FILE:LINE: field: message" into err and returns -1. */
static int fail(const graph *g, char *err, size_t errlen, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(g, err, errlen, field, fmt, ap);
    va_end(ap);
    return -1;
}

/* f = "a.b" as snprintf(f, n, "%.*s.%.*s", amax, a, bmax, b) makes it, without printf: a cost's field names
 * are made for every op that carries one (an imported graph's every task), and printf costs a run more
 * than the join. amax and bmax bound a and b (SIZE_MAX: no bound). */
static void field_join(char *f, size_t n, const char *a, size_t amax, const char *b, size_t bmax)
{
    size_t k = 0;
    for (size_t i = 0; a[i] && i < amax && k + 1 < n; i++)
        f[k++] = a[i];
    if (k + 1 < n)
        f[k++] = '.';
    for (size_t i = 0; b[i] && i < bmax && k + 1 < n; i++)
        f[k++] = b[i];
    if (n)
        f[k] = '\0';
}

/* fail() at the field "path.key", or key when path is "": a line's field names are built only for a
 * message, not for every field read. */
static int failk(const graph *g, char *err, size_t errlen, const char *path, const char *key, const char *fmt,
                 ...)
{
    char field[256];
    snprintf(field, sizeof(field), "%s%s%s", path, path[0] ? "." : "", key);
    va_list ap;
    va_start(ap, fmt);
    vfail(g, err, errlen, field, fmt, ap);
    va_end(ap);
    return -1;
}

static inline bool is_bool(const jsonl_val *v)
{
    return v && (v->type == JSONL_TRUE || v->type == JSONL_FALSE);
}

/* What v is, for a message ("got a string"). */
static const char *jtype(const jsonl_val *v)
{
    if (jsonl_is(v, JSONL_STRING))
        return "a string";
    if (jsonl_is(v, JSONL_NUMBER))
        return "a number";
    if (is_bool(v))
        return "a boolean";
    if (jsonl_is(v, JSONL_NULL))
        return "null";
    if (jsonl_is(v, JSONL_ARRAY))
        return "an array";
    if (jsonl_is(v, JSONL_OBJECT))
        return "an object";
    return "an invalid value";
}

/* a == b for the short keys of a graph line: inline, no library call. */
static inline bool key_eq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* The first member of obj named key (NULL when none, or obj is not an object), with a two-character
 * test before the string compare (dir, dtype, dump and data share their first): a graph line is looked
 * up a dozen times. key is never empty. */
static inline const jsonl_val *jget(const jsonl_val *obj, const char *key)
{
    if (!jsonl_is(obj, JSONL_OBJECT))
        return NULL;
    const jsonl_val *it;
    JSONL_FOREACH(it, obj)
    {
        if (it->key[0] == key[0] && it->key[1] == key[1] && key_eq(it->key, key))
            return it;
    }
    return NULL;
}

/* Entry i of array v (i < v->count). */
static const jsonl_val *jitem(const jsonl_val *v, int i)
{
    const jsonl_val *it = v + 1;
    while (i-- > 0)
        it += it->span;
    return it;
}

/* "name[i]" into buf without printf. */
static void index_field(char *buf, size_t len, const char *name, int i)
{
    char digits[16];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + i % 10);
        i /= 10;
    } while (i > 0 && nd < 15);
    size_t a = strlen(name);
    if (a + (size_t)nd + 3 > len)
        a = 0;
    memcpy(buf, name, a);
    buf[a] = '[';
    for (int k = 0; k < nd; k++)
        buf[a + 1 + (size_t)k] = digits[nd - 1 - k];
    buf[a + 1 + (size_t)nd] = ']';
    buf[a + 2 + (size_t)nd] = '\0';
}

/* "path.key" into buf without printf (field names are built for every line; inline, so a literal key's
 * length is known when compiled). */
static inline const char *join_field(char *buf, size_t len, const char *path, const char *key)
{
    size_t a = strlen(path), b = strlen(key);
    if (a + b + 2 > len)
        a = len > b + 2 ? len - b - 2 : 0;
    memcpy(buf, path, a);
    buf[a] = '.';
    memcpy(buf + a + 1, key, b + 1);
    return buf;
}

/* Rejects keys not in allowed (NULL-terminated): a typo must not be ignored. */
static int check_keys(const graph *g, const jsonl_val *obj, const char *const *allowed, const char *path,
                      char *err, size_t errlen)
{
    const jsonl_val *it;
    JSONL_FOREACH(it, obj)
    {
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; a++)
            if ((*a)[0] == it->key[0] && (*a)[1] == it->key[1] && key_eq(*a, it->key))
                ok = 1;
        if (!ok)
            return failk(g, err, errlen, path, it->key, "unknown field");
    }
    return 0;
}

/* The keys of an op line and of its entries. An object of a line is sorted by key in one walk
 * (members_of) instead of being searched once per field, and its unknown-field test is one mask test. */
/* clang-format off */
enum {
    K_OP, K_ID, K_KERNEL, K_KERNELS, K_ARGS, K_DEPS, K_BLOCK_NUM, K_SYNC_START, K_COST, K_PREDICATE,
    K_EARLY_RESOLVE, K_ALLOW_EARLY_RESOLVE, K_DUMP, K_SITE, K_MODE, K_TENSORS, K_NS, K_NAME,
    K_DIR, K_TENSOR, K_SHAPE, K_OFFSET, K_START_OFFSET, K_STRIDES, K_DTYPE, K_VERSION, K_MANUAL_DEP,
    K_DATA, K_SCALAR, K_COUNT
};
/* clang-format on */
#define KB(k) (1u << (k))

/* clang-format off */
static const char *const KEY_NAMES[K_COUNT] = {
    [K_OP] = "op", [K_ID] = "id", [K_KERNEL] = "kernel", [K_KERNELS] = "kernels", [K_ARGS] = "args",
    [K_DEPS] = "deps", [K_BLOCK_NUM] = "block_num", [K_SYNC_START] = "sync_start", [K_COST] = "cost",
    [K_PREDICATE] = "predicate", [K_EARLY_RESOLVE] = "early_resolve",
    [K_ALLOW_EARLY_RESOLVE] = "allow_early_resolve", [K_DUMP] = "dump", [K_SITE] = "site", [K_MODE] = "mode",
    [K_TENSORS] = "tensors", [K_NS] = "ns", [K_NAME] = "name", [K_DIR] = "dir", [K_TENSOR] = "tensor",
    [K_SHAPE] = "shape", [K_OFFSET] = "offset", [K_START_OFFSET] = "start_offset", [K_STRIDES] = "strides",
    [K_DTYPE] = "dtype", [K_VERSION] = "version", [K_MANUAL_DEP] = "manual_dep", [K_DATA] = "data",
    [K_SCALAR] = "scalar"};
/* clang-format on */

/* Is the key of klen bytes at key the literal lit? (memcmp of a constant length: a few loads, no call) */
#define KEY_IS(lit) (klen == sizeof(lit) - 1 && memcmp(key, lit, sizeof(lit) - 1) == 0)

/* The K_ of the key of klen bytes at key, or -1: its length and first character pick the one candidate it
 * can be. */
static inline int key_id(const char *key, uint32_t klen)
{
    switch (klen) {
    case 2:
        return KEY_IS("op") ? K_OP : KEY_IS("id") ? K_ID : KEY_IS("ns") ? K_NS : -1;
    case 3:
        return KEY_IS("dir") ? K_DIR : -1;
    case 4:
        switch (key[0]) {
        case 'a':
            return KEY_IS("args") ? K_ARGS : -1;
        case 'c':
            return KEY_IS("cost") ? K_COST : -1;
        case 'd':
            return KEY_IS("deps") ? K_DEPS : KEY_IS("dump") ? K_DUMP : KEY_IS("data") ? K_DATA : -1;
        case 'm':
            return KEY_IS("mode") ? K_MODE : -1;
        case 'n':
            return KEY_IS("name") ? K_NAME : -1;
        case 's':
            return KEY_IS("site") ? K_SITE : -1;
        default:
            return -1;
        }
    case 5:
        return KEY_IS("shape") ? K_SHAPE : KEY_IS("dtype") ? K_DTYPE : -1;
    case 6:
        switch (key[0]) {
        case 'k':
            return KEY_IS("kernel") ? K_KERNEL : -1;
        case 'o':
            return KEY_IS("offset") ? K_OFFSET : -1;
        case 's':
            return KEY_IS("scalar") ? K_SCALAR : -1;
        case 't':
            return KEY_IS("tensor") ? K_TENSOR : -1;
        default:
            return -1;
        }
    case 7:
        switch (key[0]) {
        case 'k':
            return KEY_IS("kernels") ? K_KERNELS : -1;
        case 's':
            return KEY_IS("strides") ? K_STRIDES : -1;
        case 't':
            return KEY_IS("tensors") ? K_TENSORS : -1;
        case 'v':
            return KEY_IS("version") ? K_VERSION : -1;
        default:
            return -1;
        }
    case 9:
        return KEY_IS("block_num") ? K_BLOCK_NUM : KEY_IS("predicate") ? K_PREDICATE : -1;
    case 10:
        return KEY_IS("sync_start") ? K_SYNC_START : KEY_IS("manual_dep") ? K_MANUAL_DEP : -1;
    case 12:
        return KEY_IS("start_offset") ? K_START_OFFSET : -1;
    case 13:
        return KEY_IS("early_resolve") ? K_EARLY_RESOLVE : -1;
    case 19:
        return KEY_IS("allow_early_resolve") ? K_ALLOW_EARLY_RESOLVE : -1;
    default:
        return -1;
    }
}
#undef KEY_IS

/* The members of one object by key: v[k] is the member named KEY_NAMES[k] when bit k of present is set
 * (a doc refuses a key given twice: it is the one jget finds); other: a member the table does not know. */
typedef struct members {
    const jsonl_val *v[K_COUNT];
    uint32_t present;
    bool other;
} members;

static inline void members_of(members *ms, const jsonl_val *obj)
{
    const jsonl_val *it;
    ms->present = 0;
    ms->other = false;
    JSONL_FOREACH(it, obj)
    {
        int k = key_id(it->key, it->klen);
        if (k < 0) {
            ms->other = true;
            continue;
        }
        ms->v[k] = it;
        ms->present |= KB(k);
    }
}

/* The member k of ms, or NULL. */
static inline const jsonl_val *mget(const members *ms, int k)
{
    return ms->present >> k & 1 ? ms->v[k] : NULL;
}

/* check_keys for an object sorted into ms: allowed is a mask of KB(K_...) bits. The first member (in
 * the line's order) that is not allowed is the one named, as check_keys names it. */
static inline int members_check(const graph *g, const members *ms, const jsonl_val *obj, uint32_t allowed,
                                const char *path, char *err, size_t errlen)
{
    if (!ms->other && !(ms->present & ~allowed))
        return 0;
    const jsonl_val *it;
    JSONL_FOREACH(it, obj)
    {
        int k = key_id(it->key, it->klen);
        if (k < 0 || !(allowed & KB(k)))
            return failk(g, err, errlen, path, it->key, "unknown field");
    }
    return 0;
}

/* Reads an integer field v (NULL: not given): a JSON number (every field read here is far below 2^53,
 * where doubles stop being exact). A missing optional field leaves *out unchanged. */
static inline int int_val(const graph *g, const jsonl_val *v, const char *path, const char *key,
                          bool required, int64_t min, int64_t max, int64_t *out, char *err, size_t errlen)
{
    if (!v) {
        if (required)
            return failk(g, err, errlen, path, key, "missing required field");
        return 0;
    }
    if (!jsonl_is(v, JSONL_NUMBER)) /* "1" is not 1: one type per field */
        return failk(g, err, errlen, path, key, "must be an integer (a JSON number), got %s", jtype(v));
    double d = v->num;
    if (d != floor(d) || fabs(d) > 9.007199254740992e15)
        return failk(g, err, errlen, path, key, "must be an integer, got %.17g", d);
    int64_t x = (int64_t)d;
    if (x < min)
        return failk(g, err, errlen, path, key, "must be >= %" PRId64 ", got %" PRId64, min, x);
    if (x > max)
        return failk(g, err, errlen, path, key, "must be <= %" PRId64 ", got %" PRId64, max, x);
    *out = x;
    return 0;
}

/* int_val of obj's member key, the message at field. */
static int get_int(const graph *g, const jsonl_val *obj, const char *key, const char *field, bool required,
                   int64_t min, int64_t max, int64_t *out, char *err, size_t errlen)
{
    return int_val(g, jget(obj, key), "", field, required, min, max, out, err, errlen);
}

/* Reads an unsigned 64-bit value given as a number or as a decimal/0x-hex string. */
static int get_u64(const graph *g, const jsonl_val *v, const char *field, uint64_t *out, char *err,
                   size_t errlen)
{
    if (jsonl_is(v, JSONL_NUMBER)) {
        double d = v->num;
        if (d < 0 || d != floor(d) || d > 9.007199254740992e15)
            return fail(g, err, errlen, field,
                        "must be a non-negative integer (write values above 2^53 as strings)");
        *out = (uint64_t)d;
        return 0;
    }
    if (jsonl_is(v, JSONL_STRING)) {
        const char *s = v->str;
        char *end;
        errno = 0;
        int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
        if (*s == '-' || *s == '\0')
            return fail(g, err, errlen, field, "must be a non-negative integer, got \"%s\"", s);
        unsigned long long u = strtoull(s, &end, base);
        if (*end || errno)
            return fail(g, err, errlen, field, "must be a decimal or 0x-hex integer, got \"%s\"", s);
        *out = u;
        return 0;
    }
    return fail(g, err, errlen, field, "must be an integer or a string, got %s", jtype(v));
}

/* Reads a boolean field v (NULL: not given, *out unchanged). */
static inline int bool_val(const graph *g, const jsonl_val *v, const char *path, const char *key, bool *out,
                           char *err, size_t errlen)
{
    if (!v)
        return 0;
    if (!is_bool(v))
        return failk(g, err, errlen, path, key, "must be true or false, got %s", jtype(v));
    *out = v->type == JSONL_TRUE;
    return 0;
}

static int get_bool(const graph *g, const jsonl_val *obj, const char *key, const char *field, bool *out,
                    char *err, size_t errlen)
{
    return bool_val(g, jget(obj, key), "", field, out, err, errlen);
}

/* Reads a string field v (NULL: not given) of fewer than outlen bytes: *out points at it in the doc (valid
 * until the next line). A missing optional field leaves *out unchanged. */
static inline int str_val(const graph *g, const jsonl_val *v, const char *path, const char *key,
                          bool required, size_t outlen, const char **out, char *err, size_t errlen)
{
    if (!v) {
        if (required)
            return failk(g, err, errlen, path, key, "missing required field");
        return 0;
    }
    if (!jsonl_is(v, JSONL_STRING))
        return failk(g, err, errlen, path, key, "must be a string, got %s", jtype(v));
    if (v->count >= outlen) /* the doc knows the length */
        return failk(g, err, errlen, path, key, "longer than %zu characters", outlen - 1);
    *out = v->str;
    return 0;
}

/* Reads a string field into out (size outlen). */
static int get_str(const graph *g, const jsonl_val *obj, const char *key, const char *field, bool required,
                   char *out, size_t outlen, char *err, size_t errlen)
{
    const jsonl_val *v = jget(obj, key);
    const char *s = NULL;
    if (str_val(g, v, "", field, required, outlen, &s, err, errlen) != 0)
        return -1;
    if (s)
        memcpy(out, s, (size_t)v->count + 1);
    return 0;
}

/* Reads an array of positive (or non-negative) integers. */
static int dims_val(const graph *g, const jsonl_val *v, const char *path, const char *key, int64_t min,
                    int64_t *dims, int *ndim, char *err, size_t errlen)
{
    if (!jsonl_is(v, JSONL_ARRAY))
        return failk(g, err, errlen, path, key, "must be an array of integers, got %s", jtype(v));
    int n = 0;
    const jsonl_val *it;
    JSONL_FOREACH(it, v)
    {
        if (n == GRAPH_MAX_DIMS)
            return failk(g, err, errlen, path, key, "more than %d dimensions", GRAPH_MAX_DIMS);
        if (!jsonl_is(it, JSONL_NUMBER))
            return failk(g, err, errlen, path, key, "entries must be integers >= %" PRId64 ", got %s", min,
                         jtype(it));
        /* in [min, 2^53] first (min >= 0): the cast is then defined, and an integer casts back to itself */
        if (!(it->num >= (double)min && it->num <= 9.007199254740992e15 &&
              (double)(int64_t)it->num == it->num))
            return failk(g, err, errlen, path, key,
                         "entries must be integers in [%" PRId64 ", 2^53], got %.17g", min, it->num);
        dims[n++] = (int64_t)it->num;
    }
    if (n == 0)
        return failk(g, err, errlen, path, key, "must have at least one dimension");
    *ndim = n;
    return 0;
}

static int get_dims(const graph *g, const jsonl_val *v, const char *field, int64_t min, int64_t *dims,
                    int *ndim, char *err, size_t errlen)
{
    return dims_val(g, v, "", field, min, dims, ndim, err, errlen);
}

/* Reads a dtype field v (NULL: not given, *out unchanged unless required). */
static int dtype_val(const graph *g, const jsonl_val *v, const char *path, const char *key, bool required,
                     int *out, char *err, size_t errlen)
{
    const char *name = "";
    if (!v && !required)
        return 0;
    if (str_val(g, v, path, key, required, 32, &name, err, errlen) != 0)
        return -1;
    int dt = dtype_parse(name); /* "" too: it is not FLOAT32 */
    if (dt < 0)
        return failk(g, err, errlen, path, key,
                     "unknown dtype '%s' (FLOAT32, FLOAT16, BFLOAT16, INT8..INT64, UINT8..UINT64, BOOL)",
                     name);
    *out = dt;
    return 0;
}

static int get_dtype(const graph *g, const jsonl_val *obj, const char *key, const char *field, bool required,
                     int *out, char *err, size_t errlen)
{
    return dtype_val(g, jget(obj, key), "", field, required, out, err, errlen);
}

/* Reads a non-negative integer member `key` of obj (if present) into *out,
 * at most max. */
static int get_count(const graph *g, const jsonl_val *obj, const char *key, const char *parent, uint64_t max,
                     uint64_t *out, char *err, size_t errlen)
{
    const jsonl_val *x = jget(obj, key);
    if (!x)
        return 0;
    char f[256];
    field_join(f, sizeof(f), parent, SIZE_MAX, key, SIZE_MAX);
    if (!jsonl_is(x, JSONL_NUMBER) || x->num != floor(x->num))
        return fail(g, err, errlen, f, "must be an integer, got %s", jtype(x));
    if (x->num < 0)
        return fail(g, err, errlen, f, "must be >= 0, got %.17g", x->num);
    if (x->num > (double)max)
        return fail(g, err, errlen, f, "must be <= %" PRIu64 ", got %.17g", max, x->num);
    *out = (uint64_t)x->num;
    return 0;
}

/* One pipe's entry of a pipe-form cost: cycles per tile, or the work of one
 * tile ({"bytes"} for MTE1/MTE2/MTE3/FIXPIPE, {"m","n","k"} for the cube,
 * {"elems"} for the vector unit, each with optional "cycles" on top). */
static int get_pipe_entry(const graph *g, const jsonl_val *v, pipe_id p, const char *field, pipe_kernel *pk,
                          char *err, size_t errlen)
{
    pipe_work *w = &pk->work;
    if (jsonl_is(v, JSONL_NUMBER)) {
        if (v->num != floor(v->num))
            return fail(g, err, errlen, field, "must be an integer (cycles per tile), got %.17g", v->num);
        if (v->num < 0 || v->num > (double)GRAPH_MAX_PIPE_CYCLES)
            return fail(g, err, errlen, field, "must be in [0, %" PRIu64 "] cycles per tile, got %.17g",
                        (uint64_t)GRAPH_MAX_PIPE_CYCLES, v->num);
        w->cycles[p] = (uint64_t)v->num;
        return 0;
    }
    if (!jsonl_is(v, JSONL_OBJECT))
        return fail(g, err, errlen, field, "must be cycles per tile or an object, got %s", jtype(v));
    static const char *const mte_keys[] = {"bytes", "gib_per_s", "cycles", NULL};
    static const char *const mte2_keys[] = {"bytes", "reread", "gib_per_s", "cycles", NULL};
    static const char *const cube_keys[] = {"m", "n", "k", "dtype", "cycles", NULL};
    static const char *const vec_keys[] = {"elems", "dtype", "cycles", NULL};
    static const char *const scalar_keys[] = {"cycles", NULL};
    const char *const *keys = p == PIPE_CUBE     ? cube_keys
                              : p == PIPE_VECTOR ? vec_keys
                              : p == PIPE_SCALAR ? scalar_keys
                              : p == PIPE_MTE2   ? mte2_keys
                                                 : mte_keys;
    if (check_keys(g, v, keys, field, err, errlen) != 0 ||
        get_count(g, v, "cycles", field, GRAPH_MAX_PIPE_CYCLES, &w->cycles[p], err, errlen) != 0)
        return -1;
    if (p == PIPE_CUBE) {
        static const char *const dims[3] = {"m", "n", "k"};
        int given = 0;
        for (int d = 0; d < 3; d++) {
            given += jget(v, dims[d]) != NULL;
            if (get_count(g, v, dims[d], field, GRAPH_MAX_CUBE_DIM, &w->mnk[d], err, errlen) != 0)
                return -1;
        }
        if (given != 0 && given != 3)
            return fail(g, err, errlen, field, "give all of m, n and k (one m x n x k multiply per tile)");
        int dt = DT_FLOAT16;
        char f[300];
        field_join(f, sizeof(f), field, 200, "dtype", SIZE_MAX);
        if (get_dtype(g, v, "dtype", f, false, &dt, err, errlen) != 0)
            return -1;
        if (dt != DT_FLOAT16 && dt != DT_BFLOAT16 && dt != DT_INT8 && dt != DT_FLOAT32)
            return fail(g, err, errlen, f, "the cube takes FLOAT16, BFLOAT16, FLOAT32 or INT8, got %s",
                        dtype_name(dt));
        w->cube_elem_bytes = (uint32_t)dtype_size(dt);
    } else if (p == PIPE_VECTOR) {
        if (get_count(g, v, "elems", field, GRAPH_MAX_PIPE_BYTES, &w->vec_elems, err, errlen) != 0)
            return -1;
        int dt = DT_FLOAT16;
        char f[300];
        field_join(f, sizeof(f), field, 200, "dtype", SIZE_MAX);
        if (get_dtype(g, v, "dtype", f, false, &dt, err, errlen) != 0)
            return -1;
        if (dtype_size(dt) < 1)
            return fail(g, err, errlen, f, "%s has no whole-byte element size", dtype_name(dt));
        w->vec_elem_bytes = (uint32_t)dtype_size(dt);
    } else if (p != PIPE_SCALAR) {
        if (get_count(g, v, "bytes", field, GRAPH_MAX_PIPE_BYTES, &w->bytes[p], err, errlen) != 0 ||
            (p == PIPE_MTE2 &&
             get_count(g, v, "reread", field, GRAPH_MAX_PIPE_BYTES, &w->mte2_reread, err, errlen) != 0))
            return -1;
        const jsonl_val *x = jget(v, "gib_per_s");
        if (x) {
            char f[300];
            field_join(f, sizeof(f), field, 200, "gib_per_s", SIZE_MAX);
            if (!jsonl_is(x, JSONL_NUMBER))
                return fail(g, err, errlen, f, "must be a number (GiB/s), got %s", jtype(x));
            if (!(x->num >= 0.001 && x->num <= 1e6))
                return fail(g, err, errlen, f, "must be in [0.001, 1000000] GiB/s, got %.17g", x->num);
            w->gib_per_s[p] = x->num;
        }
    }
    return 0;
}

/* The pipe form: {"tiles", "buffers", and one entry per pipe}; checks that
 * every pipe exists on the core type and that N buffers of a tile fit the
 * core's local memory (UB on the AIV, L1 on the AIC; model/README.md §10.3). */
static int get_pipe_cost(const graph *g, const jsonl_val *v, const char *field, core_type core,
                         pipe_kernel *pk, char *err, size_t errlen)
{
    static const char *const keys[] = {"tiles", "buffers", "scalar", "mte1",    "mte2",
                                       "mte3",  "cube",    "vector", "fixpipe", NULL};
    if (check_keys(g, v, keys, field, err, errlen) != 0)
        return -1;
    memset(pk, 0, sizeof(*pk));
    pk->aic = core == CORE_AIC;
    uint64_t tiles = 1, buffers = 2;
    if (get_count(g, v, "tiles", field, GRAPH_MAX_TILES, &tiles, err, errlen) != 0 ||
        get_count(g, v, "buffers", field, 16, &buffers, err, errlen) != 0)
        return -1;
    char f[256];
    if (tiles < 1) {
        join_field(f, sizeof(f), field, "tiles");
        return fail(g, err, errlen, f, "must be >= 1, got 0");
    }
    if (buffers < 1) {
        join_field(f, sizeof(f), field, "buffers");
        return fail(g, err, errlen, f, "must be >= 1, got 0");
    }
    pk->tiles = (uint32_t)tiles;
    pk->buffers = (uint32_t)buffers;
    int npipes = 0;
    for (int p = 0; p < PIPE_COUNT; p++) {
        const jsonl_val *x = jget(v, pipe_name((pipe_id)p));
        if (!x)
            continue;
        field_join(f, sizeof(f), field, SIZE_MAX, pipe_name((pipe_id)p), SIZE_MAX);
        if (!pipe_on_core((pipe_id)p, pk->aic))
            return fail(g, err, errlen, f, "the %s has no %s pipe (its pipes: %s)", pk->aic ? "AIC" : "AIV",
                        pipe_name((pipe_id)p),
                        pk->aic ? "scalar, mte1, mte2, cube, fixpipe" : "scalar, mte2, mte3, vector");
        if (get_pipe_entry(g, x, (pipe_id)p, f, pk, err, errlen) != 0)
            return -1;
        if (p == PIPE_SCALAR)
            pk->scalar_given = true;
        else
            npipes++;
    }
    if (!npipes)
        return fail(g, err, errlen, field, "the pipe form needs work on at least one pipe besides scalar");
    /* N buffers of one tile's input (and output, on the AIV) must fit */
    const pipe_work *w = &pk->work;
    uint64_t in = w->bytes[PIPE_MTE2] + w->mte2_reread; /* a re-read panel occupies the buffer too */
    uint64_t per = pk->aic ? in : in + w->bytes[PIPE_MTE3];
    uint64_t cap = pk->aic ? PIPE_L1_BYTES : PIPE_UB_BYTES;
    if (per * buffers > cap) {
        if (pk->aic)
            return fail(g, err, errlen, field,
                        "%" PRIu64 " buffers x mte2 %" PRIu64 " B = %" PRIu64
                        " B do not fit the AIC's %" PRIu64 " KiB L1; use more, smaller tiles",
                        buffers, in, per * buffers, cap / 1024);
        return fail(g, err, errlen, field,
                    "%" PRIu64 " buffers x (mte2 %" PRIu64 " B + mte3 %" PRIu64 " B) = %" PRIu64
                    " B do not fit the AIV's %" PRIu64 " KiB UB; use more, smaller tiles",
                    buffers, in, w->bytes[PIPE_MTE3], per * buffers, cap / 1024);
    }
    return 0;
}

/* A measured profile of one block, as `ptosim import --costs perf-sim` writes it:
 * {"perf_sim": {"ghz": F, "cycles": T, "busy": {pipe: cycles}, "gm_bytes": {pipe: bytes}}}.
 * Every busy figure is at most T (a pipe is busy within the kernel's window). */
static int get_measured_cost(const graph *g, const jsonl_val *v, const char *field, core_type core,
                             pipe_kernel *pk, char *err, size_t errlen)
{
    static const char *const keys[] = {"ghz", "cycles", "busy", "gm_bytes", NULL};
    char f[256], sub[512];
    field_join(f, sizeof(f), field, 200, "perf_sim", SIZE_MAX);
    if (!jsonl_is(v, JSONL_OBJECT))
        return fail(g, err, errlen, f, "must be an object, got %s", jtype(v));
    if (check_keys(g, v, keys, f, err, errlen) != 0)
        return -1;
    memset(pk, 0, sizeof(*pk));
    pk->aic = core == CORE_AIC;
    pk->measured = true;
    pk->tiles = pk->buffers = 1;
    pk->scalar_given = true;
    const jsonl_val *ghz = jget(v, "ghz");
    field_join(sub, sizeof(sub), f, SIZE_MAX, "ghz", SIZE_MAX);
    if (!ghz || !jsonl_is(ghz, JSONL_NUMBER))
        return fail(g, err, errlen, sub, "must be the clock Perf-Sim counts at, in GHz (1.85), got %s",
                    ghz ? jtype(ghz) : "nothing");
    if (!(ghz->num >= 0.001 && ghz->num <= 100))
        return fail(g, err, errlen, sub, "must be in [0.001, 100] GHz, got %.17g", ghz->num);
    pk->measured_hz = (uint64_t)(ghz->num * 1e9 + 0.5);
    if (!jget(v, "cycles")) {
        field_join(sub, sizeof(sub), f, SIZE_MAX, "cycles", SIZE_MAX);
        return fail(g, err, errlen, sub, "missing (the kernel's end-to-end cycles)");
    }
    if (get_count(g, v, "cycles", f, GRAPH_MAX_PIPE_CYCLES, &pk->measured_cycles, err, errlen) != 0)
        return -1;
    static const char *const groups[2] = {"busy", "gm_bytes"};
    for (int i = 0; i < 2; i++) {
        const jsonl_val *o = jget(v, groups[i]);
        if (!o)
            continue;
        char gf[300];
        field_join(gf, sizeof(gf), f, 250, groups[i], SIZE_MAX);
        if (!jsonl_is(o, JSONL_OBJECT))
            return fail(g, err, errlen, gf, "must be an object of pipe names, got %s", jtype(o));
        const jsonl_val *x;
        JSONL_FOREACH(x, o)
        {
            int p = 0;
            while (p < PIPE_COUNT && strcmp(x->key, pipe_name((pipe_id)p)) != 0)
                p++;
            field_join(sub, sizeof(sub), gf, 300, x->key, 150);
            if (p == PIPE_COUNT || !pipe_on_core((pipe_id)p, pk->aic))
                return fail(g, err, errlen, sub, "the %s has no such pipe (its pipes: %s)",
                            pk->aic ? "AIC" : "AIV",
                            pk->aic ? "scalar, mte1, mte2, cube, fixpipe" : "scalar, mte2, mte3, vector");
            if (i == 1 && !pipe_is_gm((pipe_id)p))
                return fail(g, err, errlen, sub, "moves no GM bytes (GM pipes: mte2, mte3, fixpipe)");
            uint64_t *dst = i == 0 ? &pk->work.cycles[p] : &pk->work.bytes[p];
            if (get_count(g, o, x->key, gf, i == 0 ? GRAPH_MAX_PIPE_CYCLES : GRAPH_MAX_PIPE_BYTES, dst, err,
                          errlen) != 0)
                return -1;
            if (i == 0 && *dst > pk->measured_cycles)
                return fail(g, err, errlen, sub, "%" PRIu64 " busy cycles exceed the kernel's %" PRIu64, *dst,
                            pk->measured_cycles);
        }
    }
    return 0;
}

/* Parses a cost object: {"cycles": N}, {"ns": N}, or (pipes true) the pipe
 * form for a kernel of core type `core`. */
static int get_cost(const graph *g, const jsonl_val *v, const char *field, bool pipes, core_type core,
                    graph_cost *out, char *err, size_t errlen)
{
    static const char *const keys[] = {"cycles", "ns", NULL};
    if (!jsonl_is(v, JSONL_OBJECT))
        return fail(g, err, errlen, field, "must be an object such as {\"cycles\": 1800}, got %s", jtype(v));
    memset(out, 0, sizeof(*out));
    if (pipes && jget(v, "perf_sim")) {
        static const char *const only[] = {"perf_sim", NULL};
        if (check_keys(g, v, only, field, err, errlen) != 0)
            return -1;
        out->kind = COST_PIPES;
        return get_measured_cost(g, jget(v, "perf_sim"), field, core, &out->pipe, err, errlen);
    }
    if (!jget(v, "cycles") && !jget(v, "ns") && pipes) {
        out->kind = COST_PIPES;
        return get_pipe_cost(g, v, field, core, &out->pipe, err, errlen);
    }
    if (check_keys(g, v, keys, field, err, errlen) != 0)
        return -1;
    int forms = 0;
    for (int i = 0; keys[i]; i++) {
        const jsonl_val *x = jget(v, keys[i]);
        if (!x)
            continue;
        char sub[256];
        field_join(sub, sizeof(sub), field, SIZE_MAX, keys[i], SIZE_MAX);
        if (!jsonl_is(x, JSONL_NUMBER) || x->num != floor(x->num))
            return fail(g, err, errlen, sub, "must be an integer, got %s", jtype(x));
        if (x->num < 0)
            return fail(g, err, errlen, sub, "must be >= 0, got %.17g", x->num);
        if (x->num > 1e15)
            return fail(g, err, errlen, sub, "must be <= 1e15, got %.17g", x->num);
        out->kind = i == 0 ? COST_CYCLES : COST_NS;
        out->value = (uint64_t)x->num;
        forms++;
    }
    if (forms != 1)
        return fail(g, err, errlen, field, "give exactly one of \"cycles\" or \"ns\"");
    return 0;
}

/* Reads "data": an array of at most GRAPH_MAX_DATA numbers or booleans (the
 * values an args dump shows for a tensor), appended to g->databuf. Returns
 * the count in *n and the start offset in *off. */
static int get_data(graph *g, const jsonl_val *v, const char *field, uint64_t want_max, bool exact,
                    uint32_t *n, size_t *off, char *err, size_t errlen)
{
    if (!jsonl_is(v, JSONL_ARRAY))
        return fail(g, err, errlen, field, "must be an array of numbers, got %s", jtype(v));
    size_t len = (size_t)v->count;
    if (len > GRAPH_MAX_DATA)
        return fail(g, err, errlen, field, "at most %d values, got %zu", GRAPH_MAX_DATA, len);
    if (exact && len != want_max)
        return fail(g, err, errlen, field,
                    "must give one value per element of the view (%" PRIu64 "), got %zu", want_max, len);
    if (len > want_max)
        return fail(g, err, errlen, field, "more values (%zu) than the tensor has elements (%" PRIu64 ")",
                    len, want_max);
    if (g->datalen + len > g->datacap) {
        size_t ncap = g->datacap ? g->datacap : 256;
        while (ncap < g->datalen + len)
            ncap *= 2;
        double *nd = realloc(g->databuf, ncap * sizeof(*nd));
        if (!nd)
            return fail(g, err, errlen, field, "out of memory");
        g->databuf = nd;
        g->datacap = ncap;
    }
    *off = g->datalen;
    const jsonl_val *x;
    JSONL_FOREACH(x, v)
    {
        if (jsonl_is(x, JSONL_NUMBER))
            g->databuf[g->datalen++] = x->num;
        else if (is_bool(x))
            g->databuf[g->datalen++] = jsonl_is(x, JSONL_TRUE) ? 1 : 0;
        else
            return fail(g, err, errlen, field, "values must be numbers or booleans, got %s", jtype(x));
    }
    *n = (uint32_t)len;
    return 0;
}

static int ensure_tensor_slot(graph *g, int slot)
{
    if ((size_t)slot < g->tensors_cap)
        return 0;
    size_t ncap = g->tensors_cap ? g->tensors_cap * 2 : 64;
    while (ncap <= (size_t)slot)
        ncap *= 2;
    graph_tensor *nt = realloc(g->tensors, ncap * sizeof(*nt));
    if (!nt)
        return -1;
    memset(nt + g->tensors_cap, 0, (ncap - g->tensors_cap) * sizeof(*nt));
    g->tensors = nt;
    g->tensors_cap = ncap;
    return 0;
}

/* *out = a * b when that is at most lim (< 2^64, so nothing wraps); false otherwise. */
static bool mul_within(uint64_t a, uint64_t b, uint64_t lim, uint64_t *out)
{
    if ((a | b) >> 32 == 0) { /* the common case: no 64-bit wrap possible, no division */
        *out = a * b;
        return *out <= lim;
    }
    if (a && b > lim / a)
        return false;
    *out = a * b;
    return true;
}

/* Elements of a shape (entries >= 1), or false when the dtype's bytes of
 * them would pass GRAPH_MAX_BYTES. */
static inline bool numel_within(const int64_t *shape, int ndim, int dtype, uint64_t *out)
{
    int ds = dtype_size(dtype);
    uint64_t size = ds > 0 ? (uint64_t)ds : 1;
    uint64_t n = 1;
    for (int i = 0; i < ndim; i++)
        if (!mul_within(n, (uint64_t)shape[i], GRAPH_MAX_BYTES / size, &n))
            return false;
    *out = n;
    return true;
}

/* The shape as "[a, b]" into buf, for messages. */
static const char *shape_text(const int64_t *shape, int ndim, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < ndim && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%" PRId64, i ? ", " : "[", shape[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (used + 2 <= len)
        memcpy(buf + used, "]", 2);
    return buf;
}

/* The shape's elements of dtype into *numel, or a "more than 2^53 bytes" error at path.key. */
static inline int checked_numel(const graph *g, const int64_t *shape, int ndim, int dtype, const char *path,
                                const char *key, uint64_t *numel, char *err, size_t errlen)
{
    if (numel_within(shape, ndim, dtype, numel))
        return 0;
    char sh[160];
    return failk(g, err, errlen, path, key, "%s x %s is more than 2^53 bytes (GRAPH_MAX_BYTES)",
                 shape_text(shape, ndim, sh, sizeof(sh)), dtype_name(dtype));
}

/* Parses the header line. */
int graph_check_cost(const char *path, long line, const char *field, const cJSON *v, bool aic,
                     graph_cost *out, char *err, size_t errlen)
{
    static graph g; /* only its path and line are read, by fail() */
    snprintf(g.path, sizeof(g.path), "%s", path);
    g.line = line;
    graph_cost tmp;
    jsonl_doc d; /* the tree as a doc, as if its text had been a graph line */
    jsonl_doc_init(&d);
    const jsonl_val *dv = jsonl_doc_from_cjson(&d, v);
    int rc = dv ? get_cost(&g, dv, field, true, aic ? CORE_AIC : CORE_AIV, out ? out : &tmp, err, errlen)
                : fail(&g, err, errlen, field, "out of memory");
    jsonl_doc_free(&d);
    return rc;
}

/* RunConfig's repr of a value it refuses for not being an int (Python's
 * spelling: True, 'text', 64.5), into out; false when v is none of a bool,
 * string or number (null, object, nested list: not RunConfig's to judge). */
static bool runconfig_repr(const jsonl_val *v, char *out, size_t outlen)
{
    if (is_bool(v))
        snprintf(out, outlen, "%s", jsonl_is(v, JSONL_TRUE) ? "True" : "False");
    else if (jsonl_is(v, JSONL_STRING))
        snprintf(out, outlen, "'%.60s'", v->str);
    else if (jsonl_is(v, JSONL_NUMBER)) {
        /* the shortest of 15 or 17 digits that reads back, as Python's repr of 64.1 is 64.1 */
        snprintf(out, outlen, "%.15g", v->num);
        if (strtod(out, NULL) != v->num)
            snprintf(out, outlen, "%.17g", v->num);
    } else
        return false;
    return true;
}

/* Reads the header's ring sizes: "run_config", what this program asks for as pypto's RunConfig takes it
 * (an integer for the four rings, or a list of four where 0 keeps that ring's default), with RunConfig's
 * rules and messages (model/runtime/run_config.c, model/README.md §4.1); or "runtime_env", the sizes a
 * capture's runtime ran with, with simpler's RuntimeEnv rules and messages (a heap of any size from 1024
 * bytes: `ptosim import` writes it when RunConfig could not have asked for them). */
static int parse_ring_sizes(graph *g, const jsonl_val *rc, const char *key, bool env, char *err, size_t errlen)
{
    static const char *const keys[] = {"ring_task_window", "ring_heap", "ring_dep_pool", NULL};
    if (!jsonl_is(rc, JSONL_OBJECT))
        return fail(g, err, errlen, key, "must be an object, got %s", jtype(rc));
    if (check_keys(g, rc, keys, key, err, errlen) != 0)
        return -1;
    for (int k = 0; k < 3; k++) {
        const jsonl_val *v = jget(rc, keys[k]);
        if (!v)
            continue;
        char f[64], msg[256];
        snprintf(f, sizeof(f), "%s.%s", key, keys[k]);
        const jsonl_val *items[4] = {v};
        int nitems = 1;
        bool list = jsonl_is(v, JSONL_ARRAY);
        if (list) {
            /* RunConfig and RuntimeEnv count a list before they read its entries */
            nitems = (int)v->count;
            if ((env ? runcfg_env_count((runcfg_knob)k, nitems, msg, sizeof(msg))
                     : runcfg_ring_count((runcfg_knob)k, nitems, msg, sizeof(msg))) != 0)
                return fail(g, err, errlen, f, "%s", msg);
            for (int i = 0; i < 4; i++)
                items[i] = jitem(v, i);
        }
        uint64_t vals[4];
        for (int i = 0; i < nitems; i++) {
            double d = jsonl_is(items[i], JSONL_NUMBER) ? items[i]->num : -1;
            if (!jsonl_is(items[i], JSONL_NUMBER) || d != floor(d) || d < 0 || d > 1.8e19) {
                char repr[80];
                if (env)
                    runcfg_env_refuse((runcfg_knob)k, msg, sizeof(msg));
                else if (!runconfig_repr(items[i], repr, sizeof(repr)))
                    return fail(g, err, errlen, f,
                                "must be a non-negative integer or a list of 4 of them, got %s",
                                jtype(items[i]));
                else
                    runcfg_ring_refuse((runcfg_knob)k, list, repr, msg, sizeof(msg));
                return fail(g, err, errlen, f, "%s", msg);
            }
            vals[i] = (uint64_t)d;
        }
        if ((env ? runcfg_env_values((runcfg_knob)k, vals, nitems, list, g->run_rings[k], msg, sizeof(msg))
                 : runcfg_ring_values((runcfg_knob)k, vals, nitems, list, g->run_rings[k], msg, sizeof(msg))) != 0)
            return fail(g, err, errlen, f, "%s", msg);
        g->has_run_config = true;
    }
    return 0;
}

static int parse_header(graph *g, const jsonl_val *h, char *err, size_t errlen)
{
    static const char *const keys[] = {"ptosim_graph", "name",    "description", "orchestrator",
                                       "kernels",      "tensors", "run_config",  "runtime_env", NULL};
    int64_t ver = 0;
    if (!jsonl_is(h, JSONL_OBJECT))
        return fail(g, err, errlen, "ptosim_graph", "line 1 must be the graph header object");
    if (!jget(h, "ptosim_graph"))
        return fail(g, err, errlen, "ptosim_graph",
                    "missing required field (line 1 must be the graph header)");
    if (get_int(g, h, "ptosim_graph", "ptosim_graph", true, 0, INT32_MAX, &ver, err, errlen) != 0)
        return -1;
    if (ver != GRAPH_VERSION)
        return fail(g, err, errlen, "ptosim_graph",
                    "unsupported format version %" PRId64 " (this ptosim reads version %d)", ver,
                    GRAPH_VERSION);
    if (check_keys(g, h, keys, "", err, errlen) != 0)
        return -1;
    const jsonl_val *desc = jget(h, "description");
    if (desc && !jsonl_is(desc, JSONL_STRING))
        return fail(g, err, errlen, "description", "must be a string, got %s", jtype(desc));
    if (get_str(g, h, "name", "name", true, g->name, sizeof(g->name), err, errlen) != 0)
        return -1;
    for (const char *c = g->name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
              *c == '-' || *c == '.'))
            return fail(g, err, errlen, "name",
                        "'%s' may only use letters, digits, '_', '-' and '.' (it names files)", g->name);
    if (!g->name[0])
        return fail(g, err, errlen, "name", "must not be empty");
    if (get_str(g, h, "orchestrator", "orchestrator", false, g->orchestrator, sizeof(g->orchestrator), err,
                errlen) != 0)
        return -1;
    const jsonl_val *rc = jget(h, "run_config"), *re = jget(h, "runtime_env");
    if (rc && re) /* RunConfig forwards its sizes to runtime_env: two sets would be one run's two answers */
        return fail(g, err, errlen, "runtime_env",
                    "a graph gives its ring sizes in run_config or in runtime_env, not both");
    if (rc && parse_ring_sizes(g, rc, "run_config", false, err, errlen) != 0)
        return -1;
    if (re && parse_ring_sizes(g, re, "runtime_env", true, err, errlen) != 0)
        return -1;

    const jsonl_val *ks = jget(h, "kernels");
    if (!ks)
        return fail(g, err, errlen, "kernels", "missing required field");
    if (!jsonl_is(ks, JSONL_ARRAY))
        return fail(g, err, errlen, "kernels", "must be an array, got %s", jtype(ks));
    int nk = (int)ks->count; /* a line of 16 MiB at most: far below INT_MAX */
    g->kernels = calloc(nk ? (size_t)nk : 1, sizeof(*g->kernels));
    if (!g->kernels)
        return fail(g, err, errlen, "kernels", "out of memory");
    const jsonl_val *k;
    int i = 0;
    JSONL_FOREACH(k, ks)
    {
        static const char *const kkeys[] = {"id", "name", "core", "cost", "note", NULL};
        char f[96];
        graph_kernel *gk = &g->kernels[i];
        snprintf(f, sizeof(f), "kernels[%d]", i);
        if (!jsonl_is(k, JSONL_OBJECT))
            return fail(g, err, errlen, f, "must be an object, got %s", jtype(k));
        /* the runtime sets these on each task's Arg, not on a kernel: say where they go */
        static const char *const per_task[] = {"allow_early_resolve", "early_resolve", "sync_start"};
        for (int t = 0; t < 3; t++)
            if (jget(k, per_task[t])) {
                snprintf(f, sizeof(f), "kernels[%d].%s", i, per_task[t]);
                return fail(
                    g, err, errlen, f,
                    "a field of each submit, not of a kernel (the runtime sets it per task); give it on "
                    "the kernel's submit lines, or with --kernel-set %s.%s=true to every one of them",
                    jsonl_is(jget(k, "name"), JSONL_STRING) ? jget(k, "name")->str : "NAME",
                    t == 2 ? "sync_start" : "early_resolve");
            }
        if (check_keys(g, k, kkeys, f, err, errlen) != 0)
            return -1;
        int64_t id = 0;
        snprintf(f, sizeof(f), "kernels[%d].id", i);
        if (get_int(g, k, "id", f, true, 0, GRAPH_MAX_FUNC_ID - 1, &id, err, errlen) != 0)
            return -1;
        if (g->func_to_kernel[id] >= 0)
            return fail(g, err, errlen, f, "func id %" PRId64 " is used twice", id);
        gk->id = (int)id;
        snprintf(f, sizeof(f), "kernels[%d].name", i);
        if (get_str(g, k, "name", f, true, gk->name, sizeof(gk->name), err, errlen) != 0)
            return -1;
        if (!gk->name[0])
            return fail(g, err, errlen, f, "must not be empty");
        for (int j = 0; j < i; j++)
            if (strcmp(g->kernels[j].name, gk->name) == 0)
                return fail(g, err, errlen, f, "kernel name '%s' is used twice", gk->name);
        char core[16] = "";
        snprintf(f, sizeof(f), "kernels[%d].core", i);
        if (get_str(g, k, "core", f, true, core, sizeof(core), err, errlen) != 0)
            return -1;
        if (strcmp(core, "aic") == 0)
            gk->core = CORE_AIC;
        else if (strcmp(core, "aiv") == 0)
            gk->core = CORE_AIV;
        else
            return fail(g, err, errlen, f, "must be \"aic\" or \"aiv\", got \"%s\"", core);
        const jsonl_val *note = jget(k, "note"); /* how the cost was found; for people, not the model */
        snprintf(f, sizeof(f), "kernels[%d].note", i);
        if (note && !jsonl_is(note, JSONL_STRING))
            return fail(g, err, errlen, f, "must be a string, got %s", jtype(note));
        snprintf(f, sizeof(f), "kernels[%d].cost", i);
        const jsonl_val *c = jget(k, "cost");
        if (!c)
            return fail(g, err, errlen, f, "missing required field");
        if (get_cost(g, c, f, true, gk->core, &gk->cost, err, errlen) != 0)
            return -1;
        g->func_to_kernel[id] = i;
        i++;
    }
    g->nkernels = nk;

    const jsonl_val *ts = jget(h, "tensors");
    if (ts && !jsonl_is(ts, JSONL_ARRAY))
        return fail(g, err, errlen, "tensors", "must be an array, got %s", jtype(ts));
    i = 0;
    const jsonl_val *t;
    JSONL_FOREACH(t, ts)
    {
        static const char *const tkeys[] = {"name",    "dtype", "shape",    "addr",
                                            "version", "data",  "resident", NULL};
        char f[96], name[GRAPH_NAME_MAX];
        snprintf(f, sizeof(f), "tensors[%d]", i);
        if (!jsonl_is(t, JSONL_OBJECT))
            return fail(g, err, errlen, f, "must be an object, got %s", jtype(t));
        if (check_keys(g, t, tkeys, f, err, errlen) != 0)
            return -1;
        snprintf(f, sizeof(f), "tensors[%d].name", i);
        if (get_str(g, t, "name", f, true, name, sizeof(name), err, errlen) != 0)
            return -1;
        if (strtab_find(&g->tensor_names, name) >= 0)
            return fail(g, err, errlen, f, "tensor '%s' is declared twice", name);
        int slot = strtab_intern(&g->tensor_names, name);
        if (slot < 0 || ensure_tensor_slot(g, slot) != 0)
            return fail(g, err, errlen, f, "out of memory");
        g->nexternal = slot + 1; /* counted now: graph_close frees its data when a later tensor fails */
        graph_tensor *gt = &g->tensors[slot];
        snprintf(f, sizeof(f), "tensors[%d].dtype", i);
        if (get_dtype(g, t, "dtype", f, true, &gt->dtype, err, errlen) != 0)
            return -1;
        snprintf(f, sizeof(f), "tensors[%d].shape", i);
        const jsonl_val *sh = jget(t, "shape");
        if (!sh)
            return fail(g, err, errlen, f, "missing required field");
        if (get_dims(g, sh, f, 1, gt->shape, &gt->ndim, err, errlen) != 0 ||
            checked_numel(g, gt->shape, gt->ndim, gt->dtype, "", f, &gt->numel, err, errlen) != 0)
            return -1;
        gt->storage_numel = gt->numel;
        int64_t ver = 0;
        snprintf(f, sizeof(f), "tensors[%d].version", i);
        if (get_int(g, t, "version", f, false, 0, INT32_MAX, &ver, err, errlen) != 0)
            return -1;
        gt->version = (int32_t)ver;
        const jsonl_val *a = jget(t, "addr");
        uint64_t bytes = gt->numel * (uint64_t)dtype_size(gt->dtype); /* <= GRAPH_MAX_BYTES */
        if (a) {
            snprintf(f, sizeof(f), "tensors[%d].addr", i);
            if (get_u64(g, a, f, &gt->addr, err, errlen) != 0)
                return -1;
            if (gt->addr == 0)
                return fail(g, err, errlen, f, "must not be 0");
            if (bytes && gt->addr > UINT64_MAX - (bytes - 1))
                return fail(g, err, errlen, f,
                            "0x%" PRIx64 " + %" PRIu64 " bytes runs past the end of the 64-bit address space",
                            gt->addr, bytes);
        } else {
            uint64_t span =
                bytes ? (bytes + AUTO_ADDR_ALIGN - 1) / AUTO_ADDR_ALIGN * AUTO_ADDR_ALIGN : AUTO_ADDR_ALIGN;
            if (g->next_auto_addr > UINT64_MAX - span) {
                snprintf(f, sizeof(f), "tensors[%d]", i);
                return fail(g, err, errlen, f,
                            "no room left for it in the 64-bit address space after the tensors before it "
                            "(give \"addr\")");
            }
            gt->auto_addr = true;
            gt->addr = g->next_auto_addr;
            g->next_auto_addr += span;
        }
        gt->external = true;
        gt->defined_line = 1;
        snprintf(f, sizeof(f), "tensors[%d].resident", i);
        if (get_bool(g, t, "resident", f, &gt->resident, err, errlen) != 0)
            return -1;
        const jsonl_val *dv = jget(t, "data");
        if (dv) {
            size_t off = 0;
            snprintf(f, sizeof(f), "tensors[%d].data", i);
            g->datalen = 0;
            if (get_data(g, dv, f, gt->numel, false, &gt->ndata, &off, err, errlen) != 0)
                return -1;
            gt->data = malloc((gt->ndata ? gt->ndata : 1) * sizeof(double));
            if (!gt->data)
                return fail(g, err, errlen, f, "out of memory");
            memcpy(gt->data, g->databuf + off, gt->ndata * sizeof(double));
            g->datalen = 0;
        }
        i++;
    }
    g->nexternal = i;
    return 0;
}

static const char *const DIR_NAMES[] = {"in", "out", "inout", "out_existing", "no_dep"};

const char *graph_dir_name(graph_dir d)
{
    return DIR_NAMES[d];
}

/* The name_cache entry of the tensor name of len (>= 1) bytes at s: its length and three of its bytes. */
static inline int *name_entry(graph *g, const char *s, uint32_t len)
{
    uint32_t h = len * 0x9E3779B1u ^ (unsigned char)s[0] ^ (uint32_t)(unsigned char)s[len - 1] << 8 ^
                 (uint32_t)(unsigned char)s[len >> 1] << 16;
    return &g->name_cache[(h * 0x9E3779B1u) >> 26];
}

/* Is slot's name the len bytes at s (which hold no NUL)? Compared a byte at a time: the slot's copy may be
 * shorter than len. */
static inline bool slot_is(const graph *g, int slot, const char *s, uint32_t len)
{
    const char *k = strtab_key(&g->tensor_names, slot);
    uint32_t i = 0;
    while (i < len && k[i] == s[i])
        i++;
    return i == len && k[len] == '\0';
}

/* The slot of the tensor name s (NUL-terminated, len bytes), or -1: strtab_find, through name_cache. */
static int tensor_find(graph *g, const char *s, uint32_t len)
{
    if (len == 0)
        return strtab_find(&g->tensor_names, s);
    int *e = name_entry(g, s, len);
    if (*e > 0 && slot_is(g, *e - 1, s, len))
        return *e - 1;
    int slot = strtab_find(&g->tensor_names, s);
    if (slot >= 0)
        *e = slot + 1;
    return slot;
}

/* strtab_intern of the tensor name s (NUL-terminated, len >= 1 bytes), through name_cache. */
static int tensor_intern(graph *g, const char *s, uint32_t len)
{
    int *e = name_entry(g, s, len);
    if (*e > 0 && slot_is(g, *e - 1, s, len))
        return *e - 1;
    int slot = strtab_intern(&g->tensor_names, s);
    if (slot >= 0)
        *e = slot + 1;
    return slot;
}

/* Binds (or rebinds) a tensor name (len >= 1 bytes) to a runtime-created buffer, a->tensor to its slot. */
static int bind_output(graph *g, const char *name, uint32_t len, graph_arg *a, const char *path,
                       const char *key, char *err, size_t errlen)
{
    int slot = tensor_intern(g, name, len);
    if (slot < 0 || ensure_tensor_slot(g, slot) != 0)
        return failk(g, err, errlen, path, key, "out of memory");
    graph_tensor *gt = &g->tensors[slot];
    if (gt->external)
        return failk(g, err, errlen, path, key,
                     "'%s' is an external tensor from the header; a runtime-created output needs "
                     "a new name (use out_existing to write into it)",
                     name);
    gt->dtype = a->dtype;
    gt->ndim = a->ndim;
    memcpy(gt->shape, a->shape, sizeof(gt->shape));
    numel_within(a->shape, a->ndim, a->dtype, &gt->numel); /* checked in parse_new_tensor */
    gt->storage_numel = a->buffer_numel;
    gt->addr = 0;
    gt->version = 0;
    gt->defined_line = g->line;
    a->tensor = slot; /* the slot intern gave: no second lookup */
    return 0;
}

/* The runtime sizes a created buffer up to the 1024-byte packed-output
 * alignment (calculate_output_layout in pto_orchestrator.cpp), and its overlap
 * test and deps.json see that storage: FLOAT32 [3,5] has 256 elements. */
static uint64_t created_storage_numel(uint64_t numel, int dtype)
{
    uint64_t size = (uint64_t)dtype_size(dtype);
    return size ? heap_round_output(numel * size) / size : numel;
}

/* Parses a runtime-created tensor ({"dir":"out"} arg or an alloc entry), sorted into ms; its name (member
 * nk) into *name (in the doc), bound by the caller after the whole op is read. */
static int parse_new_tensor(graph *g, const members *ms, const char *path, int nk, graph_arg *a,
                            const char **name, char *err, size_t errlen)
{
    const char *namekey = KEY_NAMES[nk];
    if (str_val(g, mget(ms, nk), path, namekey, true, GRAPH_NAME_MAX, name, err, errlen) != 0)
        return -1;
    if (!(*name)[0])
        return failk(g, err, errlen, path, namekey, "must not be empty");
    if (dtype_val(g, mget(ms, K_DTYPE), path, "dtype", true, &a->dtype, err, errlen) != 0)
        return -1;
    const jsonl_val *sh = mget(ms, K_SHAPE);
    if (!sh)
        return failk(g, err, errlen, path, "shape", "missing required field");
    uint64_t numel = 0;
    if (dims_val(g, sh, path, "shape", 1, a->shape, &a->ndim, err, errlen) != 0 ||
        checked_numel(g, a->shape, a->ndim, a->dtype, path, "shape", &numel, err, errlen) != 0)
        return -1;
    int64_t s = 1; /* every partial product is at most numel */
    for (int d = a->ndim - 1; d >= 0; d--) {
        a->strides[d] = s;
        s *= a->shape[d];
    }
    a->start_offset = 0;
    a->buffer_numel = created_storage_numel(numel, a->dtype);
    a->tensor = -1;
    return 0;
}

/* Parses a view of an existing tensor, sorted into ms, into a. */
static int parse_view(graph *g, const members *ms, const char *path, graph_arg *a, char *err, size_t errlen)
{
    const char *name = NULL;
    if (str_val(g, mget(ms, K_TENSOR), path, "tensor", true, GRAPH_NAME_MAX, &name, err, errlen) != 0)
        return -1;
    int slot = tensor_find(g, name, mget(ms, K_TENSOR)->count);
    if (slot < 0)
        return failk(g, err, errlen, path, "tensor",
                     "unknown tensor '%s' (declare it in the header or create it with an \"out\" arg "
                     "or an alloc first)",
                     name);
    const graph_tensor *gt = &g->tensors[slot];
    a->tensor = slot;
    a->dtype = gt->dtype;
    a->version = gt->version;
    a->buffer_numel = gt->storage_numel;

    const jsonl_val *sh = mget(ms, K_SHAPE);
    if (sh) {
        if (dims_val(g, sh, path, "shape", 1, a->shape, &a->ndim, err, errlen) != 0)
            return -1;
    } else {
        a->ndim = gt->ndim;
        memcpy(a->shape, gt->shape, sizeof(a->shape));
    }
    uint64_t view_numel = 0;
    if (checked_numel(g, a->shape, a->ndim, a->dtype, path, "shape", &view_numel, err, errlen) != 0)
        return -1;
    /* default strides: the buffer's row-major strides when ranks agree;
     * beyond GRAPH_MAX_BYTES they stop growing, and the view cannot fit */
    const int64_t *base_shape = a->ndim == gt->ndim ? gt->shape : a->shape;
    uint64_t s = 1;
    for (int d = a->ndim - 1; d >= 0; d--) {
        a->strides[d] = (int64_t)s;
        if (!mul_within(s, (uint64_t)base_shape[d], GRAPH_MAX_BYTES, &s))
            s = GRAPH_MAX_BYTES + 1;
    }
    const jsonl_val *st = mget(ms, K_STRIDES);
    if (st) {
        int n;
        int64_t tmp[GRAPH_MAX_DIMS];
        if (dims_val(g, st, path, "strides", 1, tmp, &n, err, errlen) != 0)
            return -1;
        if (n != a->ndim)
            return failk(g, err, errlen, path, "strides", "has %d entries but the view has %d dimensions", n,
                         a->ndim);
        memcpy(a->strides, tmp, sizeof(tmp));
    }
    const jsonl_val *off = mget(ms, K_OFFSET);
    const jsonl_val *so = mget(ms, K_START_OFFSET);
    a->start_offset = 0;
    if (off && so)
        return fail(g, err, errlen, path, "give \"offset\" or \"start_offset\", not both");
    if (off) {
        int n;
        int64_t tmp[GRAPH_MAX_DIMS];
        if (dims_val(g, off, path, "offset", 0, tmp, &n, err, errlen) != 0)
            return -1;
        if (n != a->ndim)
            return failk(g, err, errlen, path, "offset", "has %d entries but the view has %d dimensions", n,
                         a->ndim);
        for (int d = 0; d < n; d++) {
            uint64_t step;
            if (!mul_within((uint64_t)tmp[d], (uint64_t)a->strides[d], GRAPH_MAX_BYTES, &step) ||
                (a->start_offset += step) > GRAPH_MAX_BYTES)
                return fail(g, err, errlen, path,
                            "view origin is past element 2^53 but tensor '%s' has %" PRIu64 " elements", name,
                            gt->numel);
        }
    } else if (so) {
        char f[160];
        join_field(f, sizeof(f), path, "start_offset");
        if (!jsonl_is(so, JSONL_NUMBER)) /* an element offset, below 2^53: only addresses may be strings */
            return fail(g, err, errlen, f, "must be a non-negative integer, got %s", jtype(so));
        if (get_u64(g, so, f, &a->start_offset, err, errlen) != 0)
            return -1;
    }
    /* start <= 2^53 and each term <= 2^53: the sum of at most six stays far below 2^64 */
    uint64_t last = a->start_offset;
    bool beyond = a->start_offset > GRAPH_MAX_BYTES;
    for (int d = 0; d < a->ndim && !beyond; d++) {
        uint64_t step;
        beyond = !mul_within((uint64_t)(a->shape[d] - 1), (uint64_t)a->strides[d], GRAPH_MAX_BYTES, &step);
        last += step;
    }
    if (beyond)
        return fail(g, err, errlen, path,
                    "view reaches past element 2^53 but tensor '%s' has %" PRIu64 " elements", name,
                    gt->numel);
    if (last >= gt->numel)
        return fail(g, err, errlen, path,
                    "view reaches element %" PRIu64 " but tensor '%s' has %" PRIu64 " elements", last, name,
                    gt->numel);
    int64_t ver = a->version;
    if (int_val(g, mget(ms, K_VERSION), path, "version", false, 0, INT32_MAX, &ver, err, errlen) != 0)
        return -1;
    a->version = (int32_t)ver;
    return 0;
}

/* "args[i]" into buf (32 bytes): index_field's text, the common one-digit index without its loop. */
static inline void args_path(char *buf, int i)
{
    if (i < 0 || i > 9) {
        index_field(buf, 32, "args", i);
        return;
    }
    memcpy(buf, "args[", 5);
    buf[5] = (char)('0' + i);
    buf[6] = ']';
    buf[7] = '\0';
}

/* The graph_dir named by the len bytes at s, or -1: the five names have five lengths. */
static inline int dir_of(const char *s, uint32_t len)
{
    static const int by_len[13] = {-1, -1, DIR_IN, DIR_OUT, -1, DIR_INOUT,       DIR_NO_DEP,
                                   -1, -1, -1,     -1,      -1, DIR_OUT_EXISTING};
    int d = len < 13 ? by_len[len] : -1;
    if (d < 0)
        return -1;
    for (uint32_t i = 0; i < len; i++) /* a dozen bytes at most: no call */
        if (s[i] != DIR_NAMES[d][i])
            return -1;
    return d;
}

#define SCALAR_KEYS (KB(K_SCALAR) | KB(K_DTYPE) | KB(K_DUMP))
#define OUT_KEYS                                                                                             \
    (KB(K_DIR) | KB(K_TENSOR) | KB(K_SHAPE) | KB(K_DTYPE) | KB(K_MANUAL_DEP) | KB(K_DUMP) | KB(K_DATA))
#define ARG_KEYS (OUT_KEYS | KB(K_OFFSET) | KB(K_START_OFFSET) | KB(K_STRIDES) | KB(K_VERSION))

/* Parses the "args" array of a submit/dummy. Output names are bound after
 * every arg is read: inputs see the bindings from before this op. */
static int parse_args(graph *g, const jsonl_val *args, graph_op *op, char *err, size_t errlen)
{
    size_t data_off[GRAPH_MAX_TENSOR_ARGS];
    const char *out_names[GRAPH_MAX_TENSOR_ARGS]; /* in the doc */
    uint32_t out_lens[GRAPH_MAX_TENSOR_ARGS];
    int out_slots[GRAPH_MAX_TENSOR_ARGS];
    int nout = 0;
    if (!jsonl_is(args, JSONL_ARRAY))
        return fail(g, err, errlen, "args", "must be an array, got %s", jtype(args));
    int i = 0;
    const jsonl_val *o;
    JSONL_FOREACH(o, args)
    {
        char path[32];
        args_path(path, i);
        if (!jsonl_is(o, JSONL_OBJECT))
            return fail(g, err, errlen, path, "must be an object, got %s", jtype(o));
        members ms;
        members_of(&ms, o);
        const jsonl_val *v = mget(&ms, K_SCALAR);
        if (v) {
            if (members_check(g, &ms, o, SCALAR_KEYS, path, err, errlen) != 0)
                return -1;
            if (op->nscalars == GRAPH_MAX_SCALAR_ARGS)
                return fail(g, err, errlen, path, "more than %d scalar args (CORE_MAX_SCALAR_ARGS)",
                            GRAPH_MAX_SCALAR_ARGS);
            graph_scalar *s = &op->scalars[op->nscalars];
            if (jsonl_is(v, JSONL_NUMBER))
                s->value = v->num;
            else if (is_bool(v))
                s->value = jsonl_is(v, JSONL_TRUE) ? 1 : 0;
            else
                return failk(g, err, errlen, path, "scalar", "must be a number or a boolean, got %s",
                             jtype(v));
            s->dtype = is_bool(v) ? DT_BOOL : DT_UINT64;
            if (dtype_val(g, mget(&ms, K_DTYPE), path, "dtype", false, &s->dtype, err, errlen) != 0)
                return -1;
            s->dump = false;
            if (bool_val(g, mget(&ms, K_DUMP), path, "dump", &s->dump, err, errlen) != 0)
                return -1;
            op->nscalars++;
            i++;
            continue;
        }
        if (members_check(g, &ms, o, ARG_KEYS, path, err, errlen) != 0)
            return -1;
        if (op->nargs == GRAPH_MAX_TENSOR_ARGS)
            return fail(g, err, errlen, path, "more than %d tensor args (CORE_MAX_TENSOR_ARGS)",
                        GRAPH_MAX_TENSOR_ARGS);
        graph_arg *a = &op->args[op->nargs];
        memset(a, 0, sizeof(*a));
        const char *dir = "";
        if (str_val(g, mget(&ms, K_DIR), path, "dir", true, 32, &dir, err, errlen) != 0)
            return -1;
        int d = dir_of(dir, mget(&ms, K_DIR)->count);
        if (d < 0)
            return failk(g, err, errlen, path, "dir",
                         "unknown direction '%s' (expected in, out, inout, out_existing or no_dep)", dir);
        a->dir = (graph_dir)d;
        if (a->dir == DIR_OUT) {
            if (members_check(g, &ms, o, OUT_KEYS, path, err, errlen) != 0)
                return -1;
            if (parse_new_tensor(g, &ms, path, K_TENSOR, a, &out_names[nout], err, errlen) != 0)
                return -1;
            out_lens[nout] = mget(&ms, K_TENSOR)->count;
            out_slots[nout++] = op->nargs;
        } else {
            if (mget(&ms, K_DTYPE))
                return failk(g, err, errlen, path, "dtype",
                             "only \"out\" args declare a dtype; a view takes its tensor's");
            if (parse_view(g, &ms, path, a, err, errlen) != 0)
                return -1;
        }
        if (bool_val(g, mget(&ms, K_MANUAL_DEP), path, "manual_dep", &a->manual_dep, err, errlen) != 0 ||
            bool_val(g, mget(&ms, K_DUMP), path, "dump", &a->dump, err, errlen) != 0)
            return -1;
        const jsonl_val *dv = mget(&ms, K_DATA);
        if (dv) {
            char f[96];
            join_field(f, sizeof(f), path, "data");
            if (a->dir == DIR_IN || a->dir == DIR_NO_DEP)
                return fail(
                    g, err, errlen, f,
                    "only outputs (out, inout, out_existing) give data: an input shows what its tensor "
                    "holds");
            uint64_t n = 1;
            numel_within(a->shape, a->ndim, a->dtype, &n); /* checked with the view */
            if (get_data(g, dv, f, n, true, &a->ndata, &data_off[op->nargs], err, errlen) != 0)
                return -1;
        }
        op->nargs++;
        i++;
    }
    for (int k = 0; k < op->nargs; k++) /* the buffer may have moved while it grew */
        op->args[k].data = op->args[k].ndata ? g->databuf + data_off[k] : NULL;
    for (int k = 0; k < nout; k++) {
        char path[32];
        args_path(path, out_slots[k]);
        for (int j = 0; j < k; j++)
            if (strcmp(out_names[j], out_names[k]) == 0)
                return failk(g, err, errlen, path, "tensor", "output '%s' is created twice by one task",
                             out_names[k]);
        if (bind_output(g, out_names[k], out_lens[k], &op->args[out_slots[k]], path, "tensor", err, errlen) !=
            0)
            return -1;
    }
    return 0;
}

/* Resolves one kernel reference (name or func id) into a kernel. */
static const graph_kernel *resolve_kernel(graph *g, const jsonl_val *v, const char *field, char *err,
                                          size_t errlen)
{
    if (jsonl_is(v, JSONL_STRING)) {
        /* a name shorter than the array it is in: the bytes compared, its NUL included, are all there */
        for (int i = 0; i < g->nkernels && v->count < GRAPH_NAME_MAX; i++)
            if (g->kernels[i].name[0] == v->str[0] && memcmp(g->kernels[i].name, v->str, v->count + 1) == 0)
                return &g->kernels[i];
        fail(g, err, errlen, field, "unknown kernel '%s' (not in the header's kernel table)", v->str);
        return NULL;
    }
    if (jsonl_is(v, JSONL_NUMBER) && v->num == floor(v->num)) {
        /* range first: casting a double beyond int is undefined */
        const graph_kernel *k =
            v->num >= 0 && v->num < GRAPH_MAX_FUNC_ID ? graph_kernel_by_id(g, (int)v->num) : NULL;
        if (k)
            return k;
        fail(g, err, errlen, field, "unknown kernel id %.17g (not in the header's kernel table)", v->num);
        return NULL;
    }
    fail(g, err, errlen, field, "must be a kernel name or func id, got %s", jtype(v));
    return NULL;
}

static int parse_kernels(graph *g, const members *ms, graph_op *op, char *err, size_t errlen)
{
    const jsonl_val *one = mget(ms, K_KERNEL);
    const jsonl_val *three = mget(ms, K_KERNELS);
    op->kernel_ids[0] = op->kernel_ids[1] = op->kernel_ids[2] = -1;
    if (one && three)
        return fail(g, err, errlen, "kernel", "give \"kernel\" or \"kernels\", not both");
    if (!one && !three)
        return fail(g, err, errlen, "kernel", "missing required field (or \"kernels\")");
    if (one) {
        const graph_kernel *k = resolve_kernel(g, one, "kernel", err, errlen);
        if (!k)
            return -1;
        op->kernel_ids[k->core == CORE_AIC ? 0 : 1] = k->id;
        return 0;
    }
    if (!jsonl_is(three, JSONL_ARRAY) || three->count != 3)
        return fail(g, err, errlen, "kernels",
                    "must be an array of 3 entries [aic, aiv0, aiv1] (null or -1 = inactive)");
    int i = 0, active = 0;
    const jsonl_val *v;
    JSONL_FOREACH(v, three)
    {
        char f[32];
        index_field(f, sizeof(f), "kernels", i);
        if (jsonl_is(v, JSONL_NULL) || (jsonl_is(v, JSONL_NUMBER) && v->num == -1)) {
            i++;
            continue;
        }
        const graph_kernel *k = resolve_kernel(g, v, f, err, errlen);
        if (!k)
            return -1;
        core_type want = i == 0 ? CORE_AIC : CORE_AIV;
        if (k->core != want)
            return fail(g, err, errlen, f, "kernel '%s' is %s but slot %d runs on %s", k->name,
                        k->core == CORE_AIC ? "aic" : "aiv", i, want == CORE_AIC ? "aic" : "aiv");
        op->kernel_ids[i] = k->id;
        active++;
        i++;
    }
    if (!active)
        return fail(g, err, errlen, "kernels",
                    "no active kernel (use {\"op\":\"dummy\"} for a dependency-only task)");
    return 0;
}

/* Reads the op's "deps" (NULL: none). */
static int parse_deps(graph *g, const jsonl_val *deps, graph_op *op, char *err, size_t errlen)
{
    op->ndeps = 0;
    op->deps = g->depbuf;
    if (!deps)
        return 0;
    if (!jsonl_is(deps, JSONL_ARRAY))
        return fail(g, err, errlen, "deps", "must be an array of task labels or task ids, got %s",
                    jtype(deps));
    size_t n = (size_t)deps->count;
    if (n > g->depcap) {
        graph_dep *nd = realloc(g->depbuf, n * sizeof(*nd));
        if (!nd)
            return fail(g, err, errlen, "deps", "out of memory");
        g->depbuf = nd;
        g->depcap = n;
    }
    op->deps = g->depbuf;
    const jsonl_val *v;
    int i = 0;
    JSONL_FOREACH(v, deps)
    {
        char f[32]; /* "deps[i]", written only for a message */
        graph_dep *d = &op->deps[i];
        if (jsonl_is(v, JSONL_STRING)) {
            d->label = strtab_find(&g->labels, v->str);
            if (d->label < 0) {
                index_field(f, sizeof(f), "deps", i);
                return fail(g, err, errlen, f, "unknown task '%s' (no earlier op has that \"id\")", v->str);
            }
            d->raw_id = 0;
        } else if (jsonl_is(v, JSONL_NUMBER) && v->num == -1) {
            d->raw_id = UINT64_MAX; /* PTO2TaskId::invalid(): the run ends with code 5, as in the runtime */
            d->label = -1;
        } else if (jsonl_is(v, JSONL_NUMBER)) {
            index_field(f, sizeof(f), "deps", i);
            if (get_u64(g, v, f, &d->raw_id, err, errlen) != 0)
                return -1;
            if ((d->raw_id >> 32) > 3)
                return fail(g, err, errlen, f, "task id %" PRIu64 " names ring %" PRIu64 " (rings are 0..3)",
                            d->raw_id, d->raw_id >> 32);
            d->label = -1;
        } else {
            index_field(f, sizeof(f), "deps", i);
            return fail(g, err, errlen, f, "must be a task label (string) or a task id, got %s", jtype(v));
        }
        i++;
    }
    op->ndeps = i;
    return 0;
}

/* Binds the op's "id" label (idv, NULL when not given), after its deps were resolved. */
static int bind_label(graph *g, const jsonl_val *idv, graph_op *op, char *err, size_t errlen)
{
    const char *label = "";
    op->label = -1;
    if (str_val(g, idv, "", "id", false, GRAPH_NAME_MAX, &label, err, errlen) != 0)
        return -1;
    if (!label[0]) {
        if (idv)
            return fail(g, err, errlen, "id", "must not be empty");
        return 0;
    }
    int slot = strtab_intern(&g->labels, label);
    if (slot < 0)
        return fail(g, err, errlen, "id", "out of memory");
    if ((size_t)slot >= g->labels_cap) {
        size_t ncap = g->labels_cap ? g->labels_cap * 2 : 64;
        long *nl = realloc(g->label_line, ncap * sizeof(*nl));
        if (!nl)
            return fail(g, err, errlen, "id", "out of memory");
        g->label_line = nl;
        g->labels_cap = ncap;
    }
    g->label_line[slot] = g->line;
    op->label = slot;
    return 0;
}

static int parse_task_common(graph *g, const members *ms, graph_op *op, char *err, size_t errlen)
{
    int64_t bn = 1;
    if (int_val(g, mget(ms, K_BLOCK_NUM), "", "block_num", false, 1, GRAPH_MAX_BLOCK_NUM, &bn, err, errlen) !=
        0)
        return -1;
    op->block_num = (int)bn;
    if (bool_val(g, mget(ms, K_SYNC_START), "", "sync_start", &op->sync_start, err, errlen) != 0 ||
        bool_val(g, mget(ms, K_EARLY_RESOLVE), "", "early_resolve", &op->early_resolve, err, errlen) != 0 ||
        bool_val(g, mget(ms, K_PREDICATE), "", "predicate", &op->predicate, err, errlen) != 0 ||
        bool_val(g, mget(ms, K_DUMP), "", "dump", &op->dump_task, err, errlen) != 0)
        return -1;
    /* allow_early_resolve: the runtime's own name of the flag (Arg::set_allow_early_resolve) */
    const jsonl_val *aer = mget(ms, K_ALLOW_EARLY_RESOLVE);
    if (aer) {
        bool given = mget(ms, K_EARLY_RESOLVE) != NULL, was = op->early_resolve;
        if (bool_val(g, aer, "", "allow_early_resolve", &op->early_resolve, err, errlen) != 0)
            return -1;
        if (given && was != op->early_resolve)
            return fail(
                g, err, errlen, "allow_early_resolve",
                "%s, but early_resolve is %s: they are one flag (the runtime's name and ptosim's); give "
                "one",
                op->early_resolve ? "true" : "false", was ? "true" : "false");
    }
    const jsonl_val *cost = mget(ms, K_COST);
    if (cost) {
        /* the pipe form needs one core type: a single kernel, or SPMD of one */
        int core = -1;
        bool one_type = true;
        for (int k = 0; k < 3; k++)
            if (op->kernel_ids[k] >= 0) {
                int t = k == 0 ? CORE_AIC : CORE_AIV;
                one_type &= core < 0 || core == t;
                core = t;
            }
        bool pipes = one_type && core >= 0;
        if (!pipes && jsonl_is(cost, JSONL_OBJECT) && !jget(cost, "cycles") && !jget(cost, "ns"))
            return fail(g, err, errlen, "cost",
                        "a MIX task's cost override must be flat ({\"cycles\": N} or {\"ns\": N}); give "
                        "pipe costs in the kernel table");
        if (get_cost(g, cost, "cost", pipes, core == CORE_AIC ? CORE_AIC : CORE_AIV, &op->cost, err,
                     errlen) != 0)
            return -1;
        op->has_cost = true;
    }
    const jsonl_val *args = mget(ms, K_ARGS);
    if (parse_deps(g, mget(ms, K_DEPS), op, err, errlen) != 0)
        return -1;
    if (args && parse_args(g, args, op, err, errlen) != 0)
        return -1;
    return bind_label(g, mget(ms, K_ID), op, err, errlen);
}

/* An op's defaults, before its line is read. */
static void op_reset(graph *g, graph_op *op)
{
    memset(op, 0, offsetof(graph_op, args));
    op->nargs = op->nscalars = op->ndeps = 0;
    g->datalen = 0;
    op->label = -1;
    op->predicate = true;
    op->block_num = 1;
    op->kernel_ids[0] = op->kernel_ids[1] = op->kernel_ids[2] = -1;
    op->line = g->line;
}

/* A scope_begin's depth check and bookkeeping. */
static int open_scope(graph *g, char *err, size_t errlen)
{
    if (g->scope_depth + 1 >= MAX_SCOPE_DEPTH)
        return fail(g, err, errlen, "op",
                    "scopes nest deeper than %d (PTO2_MAX_SCOPE_DEPTH, the root scope included)",
                    MAX_SCOPE_DEPTH);
    g->scope_lines[g->scope_depth++] = g->line;
    return 0;
}

/* A scope_end's check and bookkeeping. */
static int close_scope(graph *g, char *err, size_t errlen)
{
    if (g->scope_depth == 0)
        return fail(g, err, errlen, "op", "scope_end without a matching scope_begin");
    g->scope_depth--;
    return 0;
}

#define SUBMIT_KEYS                                                                                          \
    (KB(K_OP) | KB(K_ID) | KB(K_KERNEL) | KB(K_KERNELS) | KB(K_ARGS) | KB(K_DEPS) | KB(K_BLOCK_NUM) |        \
     KB(K_SYNC_START) | KB(K_COST) | KB(K_PREDICATE) | KB(K_EARLY_RESOLVE) | KB(K_ALLOW_EARLY_RESOLVE) |     \
     KB(K_DUMP))

static int parse_op(graph *g, const jsonl_val *line, graph_op *op, char *err, size_t errlen)
{
    const char *kind = "";
    op_reset(g, op);
    if (!jsonl_is(line, JSONL_OBJECT))
        return fail(g, err, errlen, "op", "each line must be a JSON object, got %s", jtype(line));
    members ms;
    members_of(&ms, line);
    if (str_val(g, mget(&ms, K_OP), "", "op", true, 32, &kind, err, errlen) != 0)
        return -1;
    if (kind[0] == 's' && key_eq(kind, "scope_begin")) {
        const char *mode = "auto", *site = NULL;
        if (members_check(g, &ms, line, KB(K_OP) | KB(K_SITE) | KB(K_MODE), "", err, errlen) != 0)
            return -1;
        op->kind = OP_SCOPE_BEGIN;
        memcpy(op->site, "(unknown):0", sizeof("(unknown):0"));
        if (str_val(g, mget(&ms, K_SITE), "", "site", false, sizeof(op->site), &site, err, errlen) != 0 ||
            str_val(g, mget(&ms, K_MODE), "", "mode", false, 16, &mode, err, errlen) != 0)
            return -1;
        if (site)
            memcpy(op->site, site, strlen(site) + 1); /* shorter than op->site: str_val checked */
        if (strcmp(mode, "manual") == 0)
            op->manual = true;
        else if (strcmp(mode, "auto") != 0)
            return fail(g, err, errlen, "mode", "must be \"auto\" or \"manual\", got \"%s\"", mode);
        return open_scope(g, err, errlen);
    }
    if (kind[0] == 's' && key_eq(kind, "scope_end")) {
        if (members_check(g, &ms, line, KB(K_OP), "", err, errlen) != 0)
            return -1;
        op->kind = OP_SCOPE_END;
        return close_scope(g, err, errlen);
    }
    if (kind[0] == 's' && key_eq(kind, "submit")) {
        if (members_check(g, &ms, line, SUBMIT_KEYS, "", err, errlen) != 0)
            return -1;
        op->kind = OP_SUBMIT;
        if (parse_kernels(g, &ms, op, err, errlen) != 0)
            return -1;
        g->nsubmits++;
        return parse_task_common(g, &ms, op, err, errlen);
    }
    if (kind[0] == 'd' && key_eq(kind, "dummy")) {
        if (members_check(g, &ms, line, KB(K_OP) | KB(K_ID) | KB(K_ARGS) | KB(K_DEPS), "", err, errlen) != 0)
            return -1;
        op->kind = OP_DUMMY;
        g->nsubmits++;
        return parse_task_common(g, &ms, op, err, errlen);
    }
    if (kind[0] == 'a' && key_eq(kind, "alloc")) {
        const char *names[GRAPH_MAX_TENSOR_ARGS]; /* in the doc */
        uint32_t lens[GRAPH_MAX_TENSOR_ARGS];
        if (members_check(g, &ms, line, KB(K_OP) | KB(K_ID) | KB(K_TENSORS), "", err, errlen) != 0)
            return -1;
        op->kind = OP_ALLOC;
        const jsonl_val *ts = mget(&ms, K_TENSORS);
        if (!ts)
            return fail(g, err, errlen, "tensors", "missing required field");
        if (!jsonl_is(ts, JSONL_ARRAY) || ts->count == 0)
            return fail(g, err, errlen, "tensors", "must be a non-empty array of tensors");
        const jsonl_val *t;
        JSONL_FOREACH(t, ts)
        {
            char path[48];
            index_field(path, sizeof(path), "tensors", op->nargs);
            if (op->nargs == GRAPH_MAX_TENSOR_ARGS)
                return fail(g, err, errlen, path, "more than %d tensors in one alloc", GRAPH_MAX_TENSOR_ARGS);
            if (!jsonl_is(t, JSONL_OBJECT))
                return fail(g, err, errlen, path, "must be an object, got %s", jtype(t));
            members tm;
            members_of(&tm, t);
            if (members_check(g, &tm, t, KB(K_NAME) | KB(K_DTYPE) | KB(K_SHAPE), path, err, errlen) != 0)
                return -1;
            graph_arg *a = &op->args[op->nargs];
            memset(a, 0, sizeof(*a));
            a->dir = DIR_OUT;
            if (parse_new_tensor(g, &tm, path, K_NAME, a, &names[op->nargs], err, errlen) != 0)
                return -1;
            lens[op->nargs] = mget(&tm, K_NAME)->count;
            op->nargs++;
        }
        for (int k = 0; k < op->nargs; k++) {
            char path[48];
            index_field(path, sizeof(path), "tensors", k);
            for (int j = 0; j < k; j++)
                if (strcmp(names[j], names[k]) == 0)
                    return failk(g, err, errlen, path, "name", "tensor '%s' is allocated twice", names[k]);
            if (bind_output(g, names[k], lens[k], &op->args[k], path, "name", err, errlen) != 0)
                return -1;
        }
        g->nsubmits++;
        return bind_label(g, mget(&ms, K_ID), op, err, errlen);
    }
    if (kind[0] == 'u' && key_eq(kind, "user_code")) {
        int64_t ns = 0;
        if (members_check(g, &ms, line, KB(K_OP) | KB(K_NS), "", err, errlen) != 0)
            return -1;
        op->kind = OP_USER_CODE;
        if (int_val(g, mget(&ms, K_NS), "", "ns", true, 0, (int64_t)1e15, &ns, err, errlen) != 0)
            return -1;
        op->user_ns = (uint64_t)ns;
        return 0;
    }
    return fail(g, err, errlen, "op",
                "unknown operation '%s' (expected scope_begin, scope_end, submit, dummy, alloc or "
                "user_code)",
                kind);
}

/* Reads the next non-blank line, NUL-terminated in place, into g->linebuf
 * (which points into g->rbuf). Returns its length, or -1 at EOF or on a read
 * error. Lines are cut out of large fread blocks: getline costs as much as
 * the JSON parse on million-line graphs. */
static ssize_t next_line(graph *g)
{
    for (;;) {
        char *start = g->rbuf ? g->rbuf + g->rpos : NULL; /* no buffer before the first read */
        char *nl = g->rpos < g->rlen ? memchr(start, '\n', g->rlen - g->rpos) : NULL;
        size_t n;
        if (nl) {
            n = (size_t)(nl - start);
            if (n > GRAPH_MAX_LINE) {
                g->too_long = true;
                return -1;
            }
            g->rpos += n + 1;
        } else if (!g->reof) {
            /* keep the partial line, make room, read more */
            size_t keep = g->rlen - g->rpos;
            if (keep > GRAPH_MAX_LINE) { /* /dev/zero, or a file that is no graph */
                g->too_long = true;
                return -1;
            }
            if (keep + GRAPH_READ_BLOCK + 1 > g->rcap) {
                size_t cap = g->rcap ? g->rcap * 2 : 2 * GRAPH_READ_BLOCK + 1;
                while (keep + GRAPH_READ_BLOCK + 1 > cap)
                    cap *= 2;
                char *p = malloc(cap);
                if (!p) {
                    g->rerrno = ENOMEM;
                    g->rerror = true;
                    return -1;
                }
                if (keep)
                    memcpy(p, start, keep);
                free(g->rbuf);
                g->rbuf = p;
                g->rcap = cap;
            } else {
                memmove(g->rbuf, start, keep);
            }
            g->rbase += g->rpos;
            g->rpos = 0;
            g->rlen = keep;
            size_t got = fread(g->rbuf + keep, 1, GRAPH_READ_BLOCK, g->f);
            g->rlen += got;
            if (got < GRAPH_READ_BLOCK) {
                if (ferror(g->f)) { /* not the end: a read failed (EIO, EISDIR, ...) */
                    g->rerrno = errno;
                    g->rerror = true;
                    return -1;
                }
                g->reof = true;
            }
            continue;
        } else if (g->rpos < g->rlen) {
            n = g->rlen - g->rpos; /* last line without a newline */
            if (n > GRAPH_MAX_LINE) {
                g->too_long = true;
                return -1;
            }
            g->rpos = g->rlen;
        } else {
            return -1;
        }
        start[n] = '\0'; /* the newline's place, or the spare byte after rlen */
        g->line++;
        while (n > 0 && start[n - 1] == '\r')
            start[--n] = '\0';
        size_t i = 0;
        while (i < n && (start[i] == ' ' || start[i] == '\t'))
            i++;
        if (i < n) {
            g->linebuf = start;
            return (ssize_t)n;
        }
    }
}

/* Parses g->linebuf into g->doc; returns its top value, or NULL with the message in err. */
static const jsonl_val *parse_line(graph *g, ssize_t n, char *err, size_t errlen)
{
    jsonl_error je;
    const jsonl_val *j = jsonl_doc_parse(&g->doc, g->linebuf, (size_t)n, &je);
    if (!j) {
        const char *at = je.at;
        if (je.what == JSONL_OOM) /* the doc could not grow: the simulator's failure, not the file's */
            fail(g, err, errlen, "json", "out of memory");
        else if (at && at >= g->linebuf && at <= g->linebuf + n)
            jsonl_message(err, errlen, g->path, g->linebuf, &je, g->line); /* FILE:LINE:COL: FIELD: WHAT */
        else
            fail(g, err, errlen, "json", "not valid JSON");
    }
    return j;
}

/* Frees the doc after a line that grew it past GRAPH_DOC_KEEP bytes: one long line (a graph's lines are
 * short; GRAPH_MAX_LINE allows 16 MiB) must not hold its memory for the rest of the file. */
static void doc_trim(graph *g)
{
    if (g->doc.vcap > GRAPH_DOC_KEEP / sizeof(*g->doc.v) ||
        g->doc.tcap > GRAPH_DOC_KEEP - g->doc.vcap * sizeof(*g->doc.v))
        jsonl_doc_free(&g->doc);
}

/* The message of a failed read or an endless line, if next_line stopped on one. */
static bool stream_error(graph *g, char *err, size_t errlen)
{
    if (g->rerror) {
        snprintf(err, errlen, "%s: read error: %s", g->path, gsrc_strerror(g->rerrno));
        return true;
    }
    if (g->too_long) {
        g->line++; /* the line being read */
        fail(g, err, errlen, "json", "line is longer than %d MiB (GRAPH_MAX_LINE): not a graph file?",
             GRAPH_MAX_LINE >> 20);
        return true;
    }
    return false;
}

int graph_open(graph *g, const char *path, char *err, size_t errlen)
{
    memset(g, 0, sizeof(*g));
    jsonl_doc_init(&g->doc);
    snprintf(g->path, sizeof(g->path), "%s", gsrc_name(path)); /* "-", a spooled copy: the user's name */
    for (int i = 0; i < GRAPH_MAX_FUNC_ID; i++)
        g->func_to_kernel[i] = -1;
    strtab_init(&g->tensor_names);
    strtab_init(&g->labels);
    g->next_auto_addr = AUTO_ADDR_BASE;
    g->f = gsrc_open(path); /* "-", gzip, a BOM */
    if (!g->f) {
        snprintf(err, errlen, "%s: cannot open graph file: %s", g->path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(g->f), &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory, not a graph file", path);
        graph_close(g);
        return -1;
    }
    ssize_t n = next_line(g);
    if (n < 0) {
        if (!stream_error(g, err, errlen)) {
            g->line = 1;
            fail(g, err, errlen, "ptosim_graph", "empty file (line 1 must be the graph header)");
        }
        graph_close(g);
        return -1;
    }
    const jsonl_val *h = parse_line(g, n, err, errlen);
    int rc = h ? parse_header(g, h, err, errlen) : -1;
    doc_trim(g);
    if (rc != 0)
        graph_close(g);
    return rc;
}

/* A scope line byte for byte the same as the last one of its kind that
 * parsed gives the same op (a generated graph repeats its loop body's
 * scope lines on most of its lines): only the depth checks depend on what
 * came before, and they run again. Returns the parse's result (0 or -1),
 * or -2 when the line is not a remembered one. */
static int scope_memo(graph *g, size_t n, graph_op *op, char *err, size_t errlen)
{
    if (n == g->memo_end_len && memcmp(g->linebuf, g->memo_end, n) == 0) {
        op_reset(g, op);
        op->kind = OP_SCOPE_END;
        return close_scope(g, err, errlen);
    }
    if (n == g->memo_begin_len && memcmp(g->linebuf, g->memo_begin, n) == 0) {
        op_reset(g, op);
        op->kind = OP_SCOPE_BEGIN;
        op->manual = g->memo_manual;
        memcpy(op->site, g->memo_site, sizeof(op->site));
        return open_scope(g, err, errlen);
    }
    return -2;
}

/* Remembers a scope line that parsed (its bytes are unchanged by the parse). */
static void scope_remember(graph *g, size_t n, const graph_op *op)
{
    if (n > GRAPH_MEMO_LINE)
        return;
    if (op->kind == OP_SCOPE_END) {
        memcpy(g->memo_end, g->linebuf, n);
        g->memo_end_len = n;
    } else if (op->kind == OP_SCOPE_BEGIN) {
        memcpy(g->memo_begin, g->linebuf, n);
        g->memo_begin_len = n;
        g->memo_manual = op->manual;
        memcpy(g->memo_site, op->site, sizeof(g->memo_site));
    }
}

int graph_next(graph *g, graph_op *op, char *err, size_t errlen)
{
    if (gsrc_stopped()) { /* a sweep's SIGINT (gsrc_stop_on): the line is not read */
        snprintf(err, errlen, "%s:%ld: interrupted", g->path, g->line + 1);
        return -1;
    }
    ssize_t n = next_line(g);
    if (n < 0) {
        if (stream_error(g, err, errlen))
            return -1;
        if (g->scope_depth > 0) {
            long end_line = g->line;
            g->line = g->scope_lines[g->scope_depth - 1];
            fail(g, err, errlen, "scope_begin",
                 "scope is never closed (end of file after line %ld; %d scope(s) open)", end_line,
                 g->scope_depth);
            return -1;
        }
        return 0;
    }
    int rc = scope_memo(g, (size_t)n, op, err, errlen);
    if (rc < 0) {
        const jsonl_val *j = parse_line(g, n, err, errlen);
        if (!j)
            return -1;
        rc = parse_op(g, j, op, err, errlen);
        doc_trim(g);
        if (rc == 0)
            scope_remember(g, (size_t)n, op);
    }
    if (rc != 0)
        return -1;
    g->nops++;
    op->byte_end = g->rbase + g->rpos;
    return 1;
}

/* Moves the file and its read buffer from `from` to `to`. */
static void move_stream(graph *to, graph *from)
{
    to->f = from->f;
    to->rbuf = from->rbuf;
    to->rcap = from->rcap;
    to->rlen = from->rlen;
    to->rpos = from->rpos;
    to->rbase = from->rbase;
    to->reof = from->reof;
    to->rerror = from->rerror;
    to->rerrno = from->rerrno;
    to->too_long = from->too_long;
    to->line = from->line;
    from->f = NULL;
    from->rbuf = NULL;
    from->rcap = from->rlen = from->rpos = 0;
    from->reof = true; /* reads nothing more */
}

int graph_handover(graph *from, graph *to)
{
    *to = *from;
    /* what stays shared would be freed twice: copy it */
    to->kernels = NULL;
    to->tensors = NULL;
    to->label_line = NULL;
    to->databuf = NULL;
    to->depbuf = NULL;
    to->labels_cap = to->datalen = to->datacap = to->depcap = 0;
    to->f = NULL;
    to->rbuf = NULL;
    jsonl_doc_init(&to->doc); /* each reader parses into its own */
    strtab_init(&to->tensor_names);
    strtab_init(&to->labels);
    to->kernels = malloc((from->nkernels ? (size_t)from->nkernels : 1) * sizeof(*to->kernels));
    to->tensors = calloc(from->tensors_cap ? from->tensors_cap : 1, sizeof(*to->tensors));
    bool ok = to->kernels && to->tensors;
    if (ok) {
        if (from->nkernels) /* memcpy from NULL is undefined even for 0 bytes */
            memcpy(to->kernels, from->kernels, (size_t)from->nkernels * sizeof(*to->kernels));
        if (from->tensors_cap)
            memcpy(to->tensors, from->tensors, from->tensors_cap * sizeof(*to->tensors));
        for (size_t i = 0; i < from->tensors_cap; i++) { /* the reader never looks at header data */
            to->tensors[i].data = NULL;
            to->tensors[i].ndata = 0;
        }
    }
    /* interned in slot order, the names keep their slots */
    for (size_t i = 0; ok && i < from->tensor_names.count; i++)
        ok = strtab_intern(&to->tensor_names, strtab_key(&from->tensor_names, (int)i)) == (int)i;
    for (size_t i = 0; ok && i < from->labels.count; i++)
        ok = strtab_intern(&to->labels, strtab_key(&from->labels, (int)i)) == (int)i;
    if (ok && from->labels_cap) {
        to->label_line = malloc(from->labels_cap * sizeof(*to->label_line));
        ok = to->label_line != NULL;
        if (ok) {
            memcpy(to->label_line, from->label_line, from->labels_cap * sizeof(*to->label_line));
            to->labels_cap = from->labels_cap;
        }
    }
    if (!ok) {
        graph_close(to);
        return -1;
    }
    move_stream(to, from);
    return 0;
}

void graph_handback(graph *from, graph *to)
{
    move_stream(from, to);
    graph_close(to);
}

void graph_close(graph *g)
{
    if (g->f)
        fclose(g->f);
    free(g->rbuf);
    free(g->kernels);
    for (int i = 0; i < g->nexternal && g->tensors; i++)
        free(g->tensors[i].data);
    free(g->tensors);
    free(g->label_line);
    free(g->depbuf);
    free(g->databuf);
    strtab_free(&g->tensor_names);
    strtab_free(&g->labels);
    jsonl_doc_free(&g->doc);
    memset(g, 0, sizeof(*g));
}

int graph_validate(const char *path, char *err, size_t errlen)
{
    graph g;
    if (graph_open(&g, path, err, errlen) != 0)
        return -1;
    graph_op *op = malloc(sizeof(*op));
    if (!op) {
        snprintf(err, errlen, "%s: out of memory", path);
        graph_close(&g);
        return -1;
    }
    int rc;
    while ((rc = graph_next(&g, op, err, errlen)) == 1)
        ;
    free(op);
    graph_close(&g);
    return rc;
}

bool graph_err_oom(const char *err)
{
    const char *tails[] = {"out of memory", "Cannot allocate memory"}; /* ours; strerror(ENOMEM) (fopen's) */
    size_t n = strlen(err);
    for (size_t i = 0; i < sizeof(tails) / sizeof(*tails); i++) {
        size_t t = strlen(tails[i]);
        if (n >= t && strcmp(err + n - t, tails[i]) == 0)
            return true;
    }
    return false;
}
