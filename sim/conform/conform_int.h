/* conform_int.h - cf_: what conform's files share: difference lines, both folders as read, the digests. */
/* Only sim/conform/conform*.c include it. conform.c (the command) reads the capture with conform_read.c
 * and compares with conform_compare.c, which reads both folders (conform_read.c) and compares deps.json
 * (conform_deps.c), the scope stats and the swimlane (conform_scope_swim.c), all of them writing their
 * lines with conform_compare.c's. Its functions carry cf_ (they link with the whole program). */
#ifndef PTOSIM_CONFORM_INT_H
#define PTOSIM_CONFORM_INT_H

#include <cJSON.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "../../model/base/string_table.h"
#include "../json/json_stream.h"

#define CF_VALUE_MAX 160 /* a value printed in a difference line, longer ones end in "..." */
#define CF_RING_COUNT 4  /* PTO2_MAX_RING_DEPTH */
#define CF_DEFAULT_RING_HEAP (256ULL * 1024 * 1024) /* PTO2_HEAP_SIZE, runtime/pto_runtime2_types.h */

/* One compared file: where its lines go and how many differences it had. */
typedef struct cf_file {
    FILE *out;        /* the report */
    const char *name; /* file name as printed */
    long diffs;       /* differences found */
    char **held;      /* NULL: lines go to out; else the first CONFORM_MAX_LINES lines are kept here */
    bool oom;         /* a held line could not be kept */
} cf_file;

/* ---- conform_compare.c: the lines a comparison writes, and values as they show ---- */

/* A difference line (the first CONFORM_MAX_LINES of a file printed, all counted); an information line
 * (shown, not compared); a message into err, returning -1. */
void cf_diff(cf_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cf_info(cf_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cf_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Equal JSON values; a value as compact JSON ("-" absent), or a string without quotes; a u64 written as a
 * decimal string or a whole number; s appended as snprintf would. */
bool cf_same(const cJSON *a, const cJSON *b);
const char *cf_jtext(const cJSON *v, char *buf, size_t n);
const char *cf_jraw(const cJSON *v, char *buf, size_t n);
bool cf_get_u64(const cJSON *v, uint64_t *out);
void cf_cat(char *buf, size_t *len, size_t cap, const char *s);

/* A difference line when two values (or two objects' members key) differ. */
void cf_cmp_vals(cf_file *f, const char *where, const char *key, const cJSON *va, const cJSON *vb);
void cf_cmp_key(cf_file *f, const char *where, const cJSON *a, const cJSON *b, const char *key);

/* ---- conform_read.c: both folders read: whole as trees, or checked by the stream ---- */

/* ptosim's heap arena: [ORCH_HEAP_ARENA_BASE, + the four ring heaps). */
typedef struct cf_arena {
    uint64_t base; /* ORCH_HEAP_ARENA_BASE: ring 0's heap */
    uint64_t size; /* the four ring heaps, bytes */
} cf_arena;

/* scope_stats.jsonl: one object per non-blank line, the header first. */
typedef struct cf_lines {
    cJSON **v;   /* parsed lines */
    int *lineno; /* their line numbers in the file */
    size_t n;    /* lines (at least the header) */
} cf_lines;

/* The three files of one dfx_outputs folder (NULL = absent). */
typedef struct cf_dfx {
    char deps_path[PATH_MAX];  /* DIR/deps.json */
    char scope_path[PATH_MAX]; /* DIR/scope_stats/scope_stats.jsonl */
    char swim_path[PATH_MAX];  /* DIR/chip_swimlane_records.json */
    cJSON *deps;               /* deps.json, checked by check_deps */
    cJSON *swim;               /* the swimlane, checked by check_swimlane */
    cf_lines scope;            /* scope stats: the header, then the records */
    bool has_scope;            /* scope is loaded */
} cf_dfx;

/* A folder read whole (cf_dfx_load names what is wrong); ptosim's heap arena as its run had it. */
int cf_dfx_load(cf_dfx *d, const char *dir, bool real, char *err, size_t errlen);
void cf_dfx_free(cf_dfx *d);
void cf_sim_arena(const cJSON *scope_header, const char *sim_dir, cf_arena *a, FILE *report);

/* The first occurrence of one of deps.json's lists. */
typedef struct cf_list {
    bool have;    /* the key occurs */
    uint64_t off; /* file offset of its '[' */
    long n;       /* elements */
} cf_list;

enum { CF_TASKS, CF_TENSORS, CF_EDGES };
static const char *const ROW_LISTS[] = {"aicore_tasks", "aicpu_tasks"};
static const char *const PHASE_LISTS[] = {"aicpu_scheduler_phases", "aicpu_orchestrator_phases"};

/* One dfx_outputs folder as the streaming comparison holds it: where deps.json's lists are, the scope-stats
 * header, and the swimlane's schema, which is all the comparison reads of that file. Its size does not grow
 * with the number of tasks (the phase items are the distinct kinds and key sets). */
typedef struct cf_sdfx {
    char deps_path[PATH_MAX];  /* DIR/deps.json */
    char scope_path[PATH_MAX]; /* DIR/scope_stats/scope_stats.jsonl */
    char swim_path[PATH_MAX];  /* DIR/chip_swimlane_records.json */
    bool has_deps;             /* deps.json exists (and was checked) */
    cf_list lists[3];          /* tasks, tensors, edges */
    bool has_scope;            /* scope stats exist */
    cJSON *scope_header;       /* their first line */
    int header_line;           /* its line number */
    size_t scope_n;            /* non-blank lines, the header included */
    bool has_swim;             /* the swimlane exists */
    char top_keys[1024];       /* its top-level keys, as key_list writes them */
    bool top_full;             /* a key did not fit: the later ones are left out, as key_list does */
    cJSON *level;              /* chip_swimlane_level, NULL when absent */
    cJSON *metadata;           /* metadata */
    bool rows[2];              /* aicore_tasks, aicpu_tasks present */
    bool arity[2][64];         /* the row lengths seen (63: 63 or more) */
    bool phases[2];            /* the phase lists present */
    int lanes[2];              /* their lanes */
    strtab items[2];           /* their distinct phase items */
    struct stat st[3];         /* deps, scope stats, swimlane as checked (st_size -1: absent) */
} cf_sdfx;

/* The largest window a stream of the last comparison or capture read held (conform_peak_window). */
extern _Atomic size_t cf_peak_window;

/* A folder checked by the stream (split: two threads), the same as then, freed; a stream's peak noted
 * and closed; a checked value's text as a tree; fn(arg) on a thread with every signal blocked. */
int cf_sdfx_load(cf_sdfx *d, const char *dir, bool real);
int cf_sdfx_load_split(cf_sdfx *d, const char *dir, bool real, bool split);
bool cf_sdfx_same(const cf_sdfx *d);
void cf_sdfx_free(cf_sdfx *d);
void cf_stream_done(jstream *js);
cJSON *cf_tree(const char *text, size_t len);
bool cf_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/* ---- conform_deps.c: deps.json compared ---- */

/* What cf_scmp_deps compares of one side, as 64-bit hashes: each task in order, the edge lines sorted, each
 * tensor in order with its address; the tensor ids numbered as the walk numbers them on that side (tasks,
 * edges, tensors, in file order), which does not depend on the other side. So the two sides' digests can be
 * made at once, or one while the capture is imported and run; where they agree, cf_scmp_deps would find
 * nothing (but for 64-bit collisions, as its edges already accept). Anything else, and any side the spans
 * cannot digest whole (a task the trees must compare, an escape, an address that is not a decimal u64),
 * goes to cf_scmp_deps, which then says what differs exactly as before. */
typedef struct cf_digest {
    bool ok;          /* made whole: the fields below hold */
    uint64_t *tasks;  /* per task */
    size_t ntasks;    /* tasks */
    uint64_t *edges;  /* edge line hashes, sorted */
    size_t nedges;    /* edges */
    uint64_t *tens;   /* per tensor: its T<n>, version, dtype and buffer_numel */
    uint64_t *addr;   /* per tensor: buffer_addr */
    size_t ntens;     /* tensors */
    size_t ids;       /* distinct tensor ids */
    char err[256];    /* the readers' message when a read fails (the walk, reading again, says it) */
} cf_digest;

/* A digest made on a thread of its own. */
typedef struct cf_digest_job {
    const cf_sdfx *d;
    cf_digest g;
    pthread_t thread;
    bool started; /* on its thread, to be joined */
    bool done;    /* g is made */
} cf_digest_job;

/* deps.json of both sides compared, as trees or streamed in step (its lines held until the count of
 * distinct ids is known); strcmp for qsort. */
int cf_cmp_deps(cf_file *f, const cJSON *rd, const cJSON *sd, const cf_arena *arena);
int cf_scmp_deps(FILE *report, long *diffs, const cf_sdfx *r, const cf_sdfx *s, const cf_arena *arena,
                 char *err, size_t errlen);
int cf_cmp_str(const void *a, const void *b);

/* A side's digest made as its check reads deps.json (cf_sdfx_load_with): new (NULL when out of memory, which
 * leaves the side without a digest), each element checked handed over in file order (with the members the
 * check gave, nm SIZE_MAX: none), then the digest made
 * (g->ok when whole, as cf_digest_side makes it) and the digester freed; or freed without a digest. */
typedef struct cf_digester cf_digester;
cf_digester *cf_digester_new(void);
void cf_digester_elem(cf_digester *w, int list, const char *text, size_t len, const jstream_mspan *m, size_t nm);
void cf_digester_end(cf_digester *w, cf_digest *g);
void cf_digester_free(cf_digester *w);

/* cf_sdfx_load_split that also makes deps.json's digest into g as it checks it (g->ok when whole and the
 * check passed; NULL: none), and with then, calls then(arg) once the scope stats and swimlane passed their
 * check, on the thread that checked them (before this returns). */
int cf_sdfx_load_with(cf_sdfx *d, const char *dir, bool real, bool split, cf_digest *g, void (*then)(void *),
                      void *arg);

/* One side's digest: made (split: two threads), on a thread of its own and joined, compared, freed. */
void cf_digest_side(const cf_sdfx *d, bool split, cf_digest *g);
void cf_digest_start(cf_digest_job *j, const cf_sdfx *d);
cf_digest *cf_digest_join(cf_digest_job *j);
bool cf_digests_agree(const cf_digest *r, const cf_digest *s, const cf_arena *arena);
void cf_digest_free(cf_digest *g);

/* ---- conform_scope_swim.c: scope_stats.jsonl and the swimlane compared ---- */

/* The scope stats and the swimlane of both sides, as trees or streamed; a phase record's kind and keys. */
void cf_cmp_scope(cf_file *f, const cf_lines *r, const cf_lines *s);
int cf_cmp_swimlane(cf_file *f, const cJSON *r, const cJSON *s);
int cf_scmp_scope(cf_file *f, const cf_sdfx *r, const cf_sdfx *s, char *err, size_t errlen);
void cf_scmp_swimlane(cf_file *f, const cf_sdfx *r, const cf_sdfx *s);
void cf_phase_item(const cJSON *rec, char *item, size_t size);

/* ---- conform_compare.c: the comparison ---- */

/* conform_compare with the capture as the command checked it (real, taken over, its digest begun in rjob),
 * or NULL. */
long cf_compare_with(cf_sdfx *real, cf_digest_job *rjob, const char *real_dir, const char *sim_dir,
                     FILE *report, char *err, size_t errlen);

#endif
