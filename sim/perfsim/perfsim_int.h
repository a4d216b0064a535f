/* perfsim_int.h - perfsim_: the cache perfsim.c keeps for perfsim_price.c: folders, entries, file I/O. */
/* Only sim/perfsim/perfsim*.c include it. It names perfsim.h's types by their struct tags and includes
 * nothing of perfsim.h, so that perfsim.c (the cache, under perfsim_price.c) and it make no circle. Its
 * functions carry perfsim_ (they link with the whole program); its types and macros are short. */
#ifndef PTOSIM_PERFSIM_INT_H
#define PTOSIM_PERFSIM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../../model/base/sha256.h"

#define CACHE_FORMAT "ptosim-perfsim-3" /* bump when the cache's layout or the harness's protocol changes */

struct perfsim_opts;
struct perfsim_result;

/* The cache's folders: compiled kernels; their compiles' manifests (and which source each kernel name was last
 * priced from); results. */
enum { SUB_BIN, SUB_DEP, SUB_RES, NSUB };

typedef struct cache {
    const char *path;
    bool shared; /* --shared-cache: other users' folders and entries are used, each entry checked */
    int dfd, sub[NSUB];
    mode_t dir_mode;  /* a folder ptosim makes in it: 0700, or the shared folder's own mode */
    mode_t file_mode; /* an entry ptosim writes: 0600, or 0644 in a shared cache */
    unsigned seq;     /* temporary names */
} cache;

/* Puts the message in err; returns -1. */
int perfsim_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Reads the whole regular file open as fd (at most max bytes) into a NUL-terminated buffer; closes fd. NULL
 * with errno (EFBIG: not a regular file, or larger than max). */
char *perfsim_slurp_fd(int fd, size_t max, size_t *len);

/* Writes all of data to fd. Returns 0, or -1 with errno. */
int perfsim_write_all(int fd, const void *data, size_t len);

/* Makes (0700) or opens the cache o->cache_dir and its folders and checks that each may be trusted. Returns
 * 0, or -1 with why in err (perfsim_cache_close closes what was opened either way). */
int perfsim_cache_open(const struct perfsim_opts *o, cache *c, char *err, size_t errlen);

void perfsim_cache_close(cache *c);

/* An entry's payload (NUL-terminated, malloc'd): 1 read and checked, 0 there is none, -1 refused. */
int perfsim_entry_read(const cache *c, int sub, const char *name, const char *kind, size_t max,
                       char **payload, size_t *len, char *err, size_t errlen);

/* A cached kernel binary copied to dst (a new file, 0700), checked against its header's digest while it is
 * copied. 1 copied (digest set), 0 there is none, -1 refused. */
int perfsim_entry_copy_bin(const cache *c, const char *name, const char *dst, char digest[SHA256_HEX],
                           char *err, size_t errlen);

/* Writes an entry, whole or absent; digest (or NULL) gets the payload's SHA-256. Returns 0, or -1 (errno). */
int perfsim_entry_put(cache *c, int sub, const char *name, const char *kind, const void *payload, size_t len,
                      bool sync, char digest[SHA256_HEX]);

/* The SHA-256 an entry's header records for its payload (the payload itself is not read): 1 read, 0 there is
 * none, -1 refused. */
int perfsim_entry_digest(const cache *c, int sub, const char *name, const char *kind, char digest[SHA256_HEX],
                         char *err, size_t errlen);

/* The cached result of key: 1 found and read, 0 there is none, -1 refused. */
int perfsim_res_lookup(const cache *c, const char *key, struct perfsim_result *r, char *err, size_t errlen);

#endif
