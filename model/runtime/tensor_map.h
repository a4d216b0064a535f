/* tensor_map.h - tmap_: the TensorMap: registered writer views per buffer (model/README.md §5.4, §5.2). */
/* The overlap test, lookups and retirement cleanup. */
#ifndef PTOSIM_TENSOR_MAP_H
#define PTOSIM_TENSOR_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TMAP_MAX_DIMS 5          /* Tensor::shapes[5] */
#define TMAP_BUCKETS 4096        /* PTO2_TENSORMAP_NUM_BUCKETS */
#define TMAP_CLEANUP_INTERVAL 64 /* PTO2_TENSORMAP_CLEANUP_INTERVAL */
#define TMAP_RINGS 4

/* A view of a buffer, as a Tensor describes it. */
typedef struct tmap_view {
    uint64_t addr;                  /* buffer base address: the hash key */
    uint64_t buffer_numel;          /* elements of the whole buffer */
    uint64_t start;                 /* element offset of the view origin */
    int32_t version;                /* tensor version */
    uint8_t dtype;                  /* element type */
    uint8_t ndims;                  /* rank */
    int64_t shape[TMAP_MAX_DIMS];   /* elements per dimension */
    int64_t strides[TMAP_MAX_DIMS]; /* element strides, > 0 */
} tmap_view;

/* Result of comparing a producer entry with a consumer view. */
typedef enum {
    OV_NONE,    /* provably disjoint */
    OV_COVERED, /* the consumer view contains the producer's slice */
    OV_OTHER,   /* overlapping, or not provably disjoint */
} tmap_overlap;

/* One registered writer. */
typedef struct tmap_entry {
    tmap_view v;           /* the written view */
    uint64_t producer;     /* writer task id */
    uint32_t bnext, bprev; /* bucket chain, entry index + 1 (0 = none) */
    uint32_t tnext, tprev; /* producer task's chain */
    bool live;             /* in use (not on the free list) */
} tmap_entry;

typedef struct tmap {
    tmap_entry *pool;    /* entries */
    uint32_t capacity;   /* pool size; 0 = unbounded (the replay's logical map) */
    uint32_t pool_len;   /* allocated length of pool */
    uint32_t next;       /* bump index */
    uint32_t *free_list; /* freed entries (LIFO) */
    uint32_t nfree;
    uint32_t buckets[TMAP_BUCKETS];    /* newest entry first */
    uint32_t *task_heads[TMAP_RINGS];  /* per ring slot: first entry of that task */
    uint32_t window[TMAP_RINGS];       /* ring window sizes (powers of two) */
    uint32_t alive[TMAP_RINGS];        /* validity threshold per ring (last_task_alive seen) */
    uint32_t last_cleanup[TMAP_RINGS]; /* cleaned up to this local id */
    bool logical;                      /* never retire entries: the dep_gen replay's view */
    uint32_t peak_used;                /* most entries in use at once */
} tmap;

/* Compares producer entry e with consumer view in (the runtime's check_overlap). */
tmap_overlap tmap_check_overlap(const tmap_view *e, const tmap_view *in);

/* Initialises a map with capacity entries (0 = unbounded) for rings of the
 * given windows; logical maps never retire entries. Returns 0 or -1 (OOM). */
int tmap_init(tmap *m, uint32_t capacity, const uint32_t window[TMAP_RINGS], bool logical);

/* Frees the map. */
void tmap_free(tmap *m);

/* Entries in use (next - nfree), the scope-stats "tensormap" value. */
static inline uint32_t tmap_used(const tmap *m)
{
    return m->next - m->nfree;
}

/* Entries that can still be inserted. */
static inline uint64_t tmap_available(const tmap *m)
{
    return m->capacity ? (uint64_t)m->capacity - tmap_used(m) : UINT64_MAX;
}

/* Registers producer as a writer of v. Returns 0, or -1 when the pool is full
 * or memory runs out. */
int tmap_insert(tmap *m, const tmap_view *v, uint64_t producer);

/* Visitor of a lookup: return 1 to remove the entry just visited (an INOUT
 * that covers it), 0 to go on. */
typedef int (*tmap_visit_fn)(void *ctx, const tmap_entry *e, tmap_overlap ov);

/* Visits every valid entry of in's buffer that may overlap in, newest first. */
void tmap_lookup(tmap *m, const tmap_view *in, tmap_visit_fn fn, void *ctx);

/* The runtime's sync_tensormap at a submit of ring `ring` whose next local id
 * is `local`: refresh that ring's validity threshold to last_alive, and free
 * the entries of retired tasks once 64 have retired (or the slot would alias).
 * Returns entries freed. */
uint32_t tmap_sync(tmap *m, int ring, uint32_t local, uint32_t last_alive);

/* Frees every entry of tasks [last_cleanup, last_alive) on every ring (the
 * pool-pressure reclaim). Returns entries freed. */
uint32_t tmap_reclaim_all(tmap *m, const uint32_t last_alive[TMAP_RINGS]);

#endif
