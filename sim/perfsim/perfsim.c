/* perfsim.c - perfsim_: Perf-Sim's cache of compiled kernels and results, and the result lines it holds. */
/* The content-addressed cache, trusted only when no one else can write it (or shared on purpose), every level
 * opened from a directory fd, each entry whole or absent and checked against the SHA-256 its header records;
 * the result lines of a batch's results file and of a cached result. perfsim_price.c compiles and runs. */
#include "perfsim.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfsim_int.h"
#include "../../model/base/sha256.h"

#define ENTRY_HEAD_MAX 256   /* a cache entry's header line: format, kind, key, size, digest */

/* ---- small file helpers ---- */

int perfsim_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* mkdir -p, each folder it makes mode 0700 (a cache's parents hold nothing for others either). */
static int make_dirs(const char *path)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
        return errno = ENAMETOOLONG, -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(p, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

/* read(), again when a signal cut it short. */
static ssize_t read_some(int fd, void *buf, size_t len)
{
    ssize_t n;
    while ((n = read(fd, buf, len)) < 0 && errno == EINTR)
        ;
    return n;
}

/* Reads the whole regular file open as fd (at most max bytes) into a NUL-terminated buffer; closes fd. */
char *perfsim_slurp_fd(int fd, size_t max, size_t *len)
{
    struct stat st;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) {
        close(fd);
        return errno = EFBIG, NULL;
    }
    char *b = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    ssize_t n = 0;
    while (b && got < (size_t)st.st_size && (n = read_some(fd, b + got, (size_t)st.st_size - got)) > 0)
        got += (size_t)n;
    int e = errno;
    close(fd);
    if (!b || got != (size_t)st.st_size) {
        free(b);
        errno = b ? (n < 0 ? e : EIO) : ENOMEM;
        return NULL;
    }
    b[got] = '\0';
    if (len)
        *len = got;
    return b;
}

/* Writes all of data to fd. */
int perfsim_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0 ? (errno = EIO, -1) : -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* ---- the cache: opened once, every level from a directory fd, trusted only as the user chose ---- */

static const char *const SUB_NAME[NSUB] = {"bin", "dep", "res"};

/* A private cache is used only when it is the user's and no one else can write it: another user who can write
 * it could run code as the user (bin/) or forge kernel costs (res/). A shared cache is the user's choice. */
static int trusted(const cache *c, const char *path, bool folder, const struct stat *st, char *err,
                   size_t errlen)
{
    uid_t me = geteuid();
    bool other = st->st_uid != me, writable = (st->st_mode & (S_IWGRP | S_IWOTH)) != 0;
    if (c->shared || (!other && !writable))
        return 0;
    char fix[PATH_MAX + 32];
    if (!other)
        snprintf(fix, sizeof(fix), "chmod go-w %s", path);
    else
        snprintf(fix, sizeof(fix), "%s", folder ? "use a folder of your own (--cache DIR)" : "delete it");
    return perfsim_fail(
        err, errlen,
        "%s: refused: a Perf-Sim cache %s %s (owner uid %u, mode %04o; you are uid %u): ptosim runs what "
        "its cache holds and takes its figures as measured, so no other user may be able to write it; %s, or "
        "give --shared-cache if this cache is shared on purpose",
        path, folder ? "folder" : "entry", other ? "owned by another user" : "that others can write",
        (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777), (unsigned)me, fix);
}

static int not_plain(const char *path, bool folder, char *err, size_t errlen)
{
    return perfsim_fail(err, errlen,
                        "%s: refused: a Perf-Sim cache %s that is a symbolic link or not a %s; delete it",
                        path, folder ? "folder" : "entry", folder ? "folder" : "regular file");
}

static int forged(const char *path, const char *why, char *err, size_t errlen)
{
    return perfsim_fail(
        err, errlen,
        "%s: refused: a Perf-Sim cache entry that is not what its name says (%s): it was changed after "
        "ptosim wrote it; delete it to have it made again",
        path, why);
}

void perfsim_cache_close(cache *c)
{
    for (int i = 0; i < NSUB; i++)
        if (c->sub[i] >= 0)
            close(c->sub[i]);
    if (c->dfd >= 0)
        close(c->dfd);
    c->dfd = -1;
    for (int i = 0; i < NSUB; i++)
        c->sub[i] = -1;
}

/* Makes (0700) or opens the cache and its folders and checks that each may be trusted. */
int perfsim_cache_open(const perfsim_opts *o, cache *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof(*c));
    c->path = o->cache_dir;
    c->shared = o->shared_cache;
    c->dfd = -1;
    for (int i = 0; i < NSUB; i++)
        c->sub[i] = -1;
    struct stat st;
    if (make_dirs(c->path) != 0 || (c->dfd = open(c->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
        fstat(c->dfd, &st) != 0)
        return perfsim_fail(err, errlen, "%s: cannot make the cache folder: %s", c->path, strerror(errno));
    if (trusted(c, c->path, true, &st, err, errlen) != 0)
        return -1;
    c->dir_mode = c->shared ? st.st_mode & 07777 : 0700;
    c->file_mode = c->shared ? 0644 : 0600;
    for (int i = 0; i < NSUB; i++) {
        char p[PATH_MAX];
        snprintf(p, sizeof(p), "%s/%s", c->path, SUB_NAME[i]);
        bool made = mkdirat(c->dfd, SUB_NAME[i], 0700) == 0;
        if (!made && errno != EEXIST)
            return perfsim_fail(err, errlen, "%s: cannot make the cache folder: %s", p, strerror(errno));
        c->sub[i] = openat(c->dfd, SUB_NAME[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (c->sub[i] < 0)
            return errno == ELOOP || errno == ENOTDIR
                       ? not_plain(p, true, err, errlen)
                       : perfsim_fail(err, errlen, "%s: cannot make the cache folder: %s", p,
                                      strerror(errno));
        /* the mode asked for, whatever the umask: a shared cache's folders as usable as the cache itself */
        if ((made && fchmod(c->sub[i], c->dir_mode) != 0) || fstat(c->sub[i], &st) != 0)
            return perfsim_fail(err, errlen, "%s: cannot make the cache folder: %s", p, strerror(errno));
        if (trusted(c, p, true, &st, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* ---- cache entries: "FORMAT KIND KEY SIZE SHA256\n" and SIZE bytes; whole or absent ---- */

int perfsim_entry_header(char *out, size_t outlen, const char *kind, const char *key, const void *payload,
                         size_t len)
{
    sha256_ctx h;
    sha256_init(&h);
    sha256_update(&h, payload, len);
    char hex[SHA256_HEX];
    sha256_hex(&h, hex);
    int n = snprintf(out, outlen, "%s %s %s %zu %s\n", CACHE_FORMAT, kind, key, len, hex);
    return n > 0 && (size_t)n < outlen && n <= ENTRY_HEAD_MAX ? n : -1;
}

/* Reads the header line head[0, n) (n counts its newline): the payload's size and digest, or why not. */
static int header_parse(const char *head, size_t n, const char *kind, const char *key, uint64_t *size,
                        char hex[SHA256_HEX], const char **why)
{
    char want[ENTRY_HEAD_MAX];
    int w = snprintf(want, sizeof(want), "%s %s %s ", CACHE_FORMAT, kind, key);
    size_t f = strlen(CACHE_FORMAT);
    if (n < f + 1 || memcmp(head, CACHE_FORMAT " ", f + 1) != 0)
        return *why = "it has no " CACHE_FORMAT " header", -1;
    if (w < 0 || (size_t)w >= sizeof(want) || n < (size_t)w || memcmp(head, want, (size_t)w) != 0)
        return *why = "its header names another entry", -1;
    const char *p = head + w, *end = head + n - 1; /* at the newline */
    uint64_t v = 0;
    const char *digits = p;
    for (; p < end && *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            break;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (p == digits || p >= end || *p != ' ' || end - (p + 1) != SHA256_HEX - 1)
        return *why = "its header does not read", -1;
    for (int i = 0; i < SHA256_HEX - 1; i++) {
        char c = p[1 + i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return *why = "its header does not read", -1;
        hex[i] = c;
    }
    hex[SHA256_HEX - 1] = '\0';
    *size = v;
    return 0;
}

int perfsim_entry_check(const char *text, size_t len, const char *kind, const char *key, size_t *payload,
                        const char **why)
{
    const char *nl = memchr(text, '\n', len < ENTRY_HEAD_MAX ? len : ENTRY_HEAD_MAX);
    uint64_t size;
    char hex[SHA256_HEX];
    if (!nl) {
        bool ours =
            len > strlen(CACHE_FORMAT) && memcmp(text, CACHE_FORMAT " ", strlen(CACHE_FORMAT) + 1) == 0;
        return *why = ours ? "its header does not read" : "it has no " CACHE_FORMAT " header", -1;
    }
    size_t off = (size_t)(nl - text) + 1;
    if (header_parse(text, off, kind, key, &size, hex, why) != 0)
        return -1;
    if (size != len - off)
        return *why = "its size is not the size its header records", -1;
    sha256_ctx h;
    sha256_init(&h);
    sha256_update(&h, text + off, len - off);
    char got[SHA256_HEX];
    sha256_hex(&h, got);
    if (strcmp(got, hex) != 0)
        return *why = "its content's SHA-256 is not the one its header records", -1;
    *payload = off;
    return 0;
}

/* Opens entry name of folder sub for reading: 1 open (fd, its path), 0 there is none, -1 refused or
 * unreadable. */
static int entry_open(const cache *c, int sub, const char *name, int *fd, char *path, size_t pathlen,
                      char *err, size_t errlen)
{
    snprintf(path, pathlen, "%s/%s/%s", c->path, SUB_NAME[sub], name);
    /* O_NONBLOCK: a FIFO planted there is refused, not waited on */
    *fd = openat(c->sub[sub], name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0) {
        if (errno == ENOENT)
            return 0;
        return errno == ELOOP ? not_plain(path, false, err, errlen)
                              : perfsim_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    }
    struct stat st;
    int rc = 1;
    if (fstat(*fd, &st) != 0)
        rc = perfsim_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = not_plain(path, false, err, errlen);
    else if (trusted(c, path, false, &st, err, errlen) != 0)
        rc = -1;
    if (rc < 0) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

/* An entry's payload (NUL-terminated, malloc'd): 1 read and checked, 0 there is none, -1 refused. */
int perfsim_entry_read(const cache *c, int sub, const char *name, const char *kind, size_t max,
                       char **payload, size_t *len, char *err, size_t errlen)
{
    char path[PATH_MAX];
    int fd;
    int rc = entry_open(c, sub, name, &fd, path, sizeof(path), err, errlen);
    if (rc <= 0)
        return rc;
    size_t n, off;
    char *t = perfsim_slurp_fd(fd, max + ENTRY_HEAD_MAX, &n);
    const char *why;
    if (!t)
        return errno == EFBIG ? forged(path, "it is larger than any entry of its kind", err, errlen)
                              : perfsim_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    if (perfsim_entry_check(t, n, kind, name, &off, &why) != 0) {
        free(t);
        return forged(path, why, err, errlen);
    }
    memmove(t, t + off, n - off + 1);
    *payload = t;
    *len = n - off;
    return 1;
}

/* A cached kernel binary copied to dst (a new file of the temporary folder, 0700), its content checked
 * against its header's digest while it is copied: what runs is what was checked, whoever writes the cache
 * meanwhile. 1 copied (digest set), 0 there is none, -1 refused. */
int perfsim_entry_copy_bin(const cache *c, const char *name, const char *dst, char digest[SHA256_HEX],
                           char *err, size_t errlen)
{
    char path[PATH_MAX];
    int fd, out = -1;
    bool made = false;
    int rc = entry_open(c, SUB_BIN, name, &fd, path, sizeof(path), err, errlen);
    if (rc <= 0)
        return rc;
    char buf[65536], hex[SHA256_HEX];
    size_t have = 0;
    ssize_t n = 0;
    const char *nl = NULL, *why = NULL;
    while (!nl && have < ENTRY_HEAD_MAX && (n = read_some(fd, buf + have, ENTRY_HEAD_MAX - have)) > 0) {
        have += (size_t)n;
        nl = memchr(buf, '\n', have);
    }
    uint64_t size = 0, got = 0;
    if (n < 0) {
        rc = perfsim_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        goto done;
    }
    if (!nl) {
        rc = forged(path, "it has no " CACHE_FORMAT " header", err, errlen);
        goto done;
    }
    if (header_parse(buf, (size_t)(nl - buf) + 1, "bin", name, &size, hex, &why) != 0) {
        rc = forged(path, why, err, errlen);
        goto done;
    }
    out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0700);
    if (out < 0) {
        rc = perfsim_fail(err, errlen, "%s: cannot write: %s", dst, strerror(errno));
        goto done;
    }
    made = true;
    sha256_ctx h;
    sha256_init(&h);
    size_t off = (size_t)(nl - buf) + 1;
    for (;;) {
        size_t m = have - off;
        if (m) {
            sha256_update(&h, buf + off, m);
            got += m;
            if (got > size || perfsim_write_all(out, buf + off, m) != 0) {
                rc = got > size ? forged(path, "its size is not the size its header records", err, errlen)
                                : perfsim_fail(err, errlen, "%s: cannot write: %s", dst, strerror(errno));
                goto done;
            }
        }
        off = 0;
        if ((n = read_some(fd, buf, sizeof(buf))) <= 0)
            break;
        have = (size_t)n;
    }
    if (n < 0) {
        rc = perfsim_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        goto done;
    }
    sha256_hex(&h, digest);
    if (got != size)
        rc = forged(path, "its size is not the size its header records", err, errlen);
    else if (strcmp(digest, hex) != 0)
        rc = forged(path, "its content's SHA-256 is not the one its header records", err, errlen);
    if (close(out) != 0 && rc > 0)
        rc = perfsim_fail(err, errlen, "%s: cannot write: %s", dst, strerror(errno));
    out = -1;
done:
    if (out >= 0)
        close(out);
    if (rc < 0 && made)
        unlink(dst);
    close(fd);
    return rc;
}

int perfsim_entry_digest(const cache *c, int sub, const char *name, const char *kind, char digest[SHA256_HEX],
                         char *err, size_t errlen)
{
    char path[PATH_MAX], head[ENTRY_HEAD_MAX];
    int fd;
    int rc = entry_open(c, sub, name, &fd, path, sizeof(path), err, errlen);
    if (rc <= 0)
        return rc;
    size_t have = 0;
    ssize_t n = 0;
    const char *nl = NULL, *why = NULL;
    while (!nl && have < sizeof(head) && (n = read_some(fd, head + have, sizeof(head) - have)) > 0) {
        have += (size_t)n;
        nl = memchr(head, '\n', have);
    }
    close(fd);
    uint64_t size;
    if (n < 0)
        return perfsim_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    if (!nl)
        return forged(path, "it has no " CACHE_FORMAT " header", err, errlen);
    if (header_parse(head, (size_t)(nl - head) + 1, kind, name, &size, digest, &why) != 0)
        return forged(path, why, err, errlen);
    return 1;
}

/* Writes an entry: a fresh temporary in the entry's own folder (O_EXCL|O_NOFOLLOW from the folder's fd),
 * renamed into place, so that it is whole or absent and never crosses a file system. digest (or NULL) gets
 * the payload's SHA-256. Returns 0, or -1 with errno. */
int perfsim_entry_put(cache *c, int sub, const char *name, const char *kind, const void *payload, size_t len,
                      bool sync, char digest[SHA256_HEX])
{
    char head[ENTRY_HEAD_MAX + 1], tmp[64];
    int hn = perfsim_entry_header(head, sizeof(head), kind, name, payload, len);
    if (hn < 0)
        return errno = ENAMETOOLONG, -1;
    if (digest) {
        const char *d = head + hn - SHA256_HEX; /* the header ends "HEX\n" */
        memcpy(digest, d, SHA256_HEX - 1);
        digest[SHA256_HEX - 1] = '\0';
    }
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        snprintf(tmp, sizeof(tmp), ".tmp.%ld.%u", (long)getpid(), c->seq++);
        fd = openat(c->sub[sub], tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, c->file_mode);
        if (fd < 0 && errno != EEXIST)
            return -1;
    }
    if (fd < 0)
        return -1;
    /* the mode asked for, whatever the umask: a shared cache's entries are readable by the team */
    int rc = fchmod(fd, c->file_mode) == 0 && perfsim_write_all(fd, head, (size_t)hn) == 0 &&
                     perfsim_write_all(fd, payload, len) == 0 && (!sync || fsync(fd) == 0)
                 ? 0
                 : -1;
    int e = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc == 0 && renameat(c->sub[sub], tmp, c->sub[sub], name) != 0) {
        /* a shared cache's sticky folder keeps another member's entry of this name: it stands (it is checked
         * whenever it is read), ours goes */
        rc = c->shared && (errno == EPERM || errno == EACCES) ? 0 : -1;
        e = errno;
        unlinkat(c->sub[sub], tmp, 0);
    } else if (rc != 0) {
        unlinkat(c->sub[sub], tmp, 0);
    }
    errno = e;
    return rc;
}

/* ---- result lines: a batch's results file and the cache's res/ entries ---- */

/* A decimal number with no sign that fits 64 bits, at *p; moves *p past it. */
static bool read_u64(const char **p, const char *end, uint64_t *out)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    uint64_t v = 0;
    const char *d = s;
    for (; s < end && *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return false;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    if (s == d || (s < end && *s != ' ' && *s != '\t' && *s != '\r'))
        return false;
    *p = s;
    *out = v;
    return true;
}

int perfsim_parse_result(const char *line, size_t len, size_t *id, perfsim_result *r)
{
    const char *p = line, *end = line + len;
    uint64_t v[14];
    if (len < 2 || p[0] != 'r' || (p[1] != ' ' && p[1] != '\t'))
        return -1;
    p++;
    for (int i = 0; i < 14; i++)
        if (!read_u64(&p, end, &v[i]))
            return -1;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    if (p != end || v[0] > SIZE_MAX)
        return -1;
    memset(r, 0, sizeof(*r));
    r->total = v[1];
    r->instructions = v[2];
    r->sync_events = v[3];
    r->busy[PIPE_SCALAR] = v[4];
    r->busy[PIPE_MTE2] = v[5];
    r->busy[PIPE_MTE1] = v[6];
    r->busy[PIPE_CUBE] = v[7];
    r->busy[PIPE_FIXPIPE] = v[8];
    r->busy[PIPE_VECTOR] = v[9];
    r->busy[PIPE_MTE3] = v[10];
    r->gm_bytes[PIPE_MTE2] = v[11];
    r->gm_bytes[PIPE_MTE3] = v[12];
    r->gm_bytes[PIPE_FIXPIPE] = v[13];
    *id = (size_t)v[0];
    return 0;
}

int perfsim_format_result(char *out, size_t outlen, size_t id, const perfsim_result *r)
{
    return snprintf(out, outlen,
                    "r %zu %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
                    " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                    id, r->total, r->instructions, r->sync_events, r->busy[PIPE_SCALAR], r->busy[PIPE_MTE2],
                    r->busy[PIPE_MTE1], r->busy[PIPE_CUBE], r->busy[PIPE_FIXPIPE], r->busy[PIPE_VECTOR],
                    r->busy[PIPE_MTE3], r->gm_bytes[PIPE_MTE2], r->gm_bytes[PIPE_MTE3], r->gm_bytes[PIPE_FIXPIPE]);
}

size_t perfsim_read_batch(const char *text, size_t len, const perfsim_sig *sigs, size_t nsigs, int kernel,
                          perfsim_result *res, bool *have)
{
    size_t taken = 0;
    for (const char *s = text, *end = text + len; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end;
        size_t id;
        perfsim_result r;
        if (perfsim_parse_result(s, (size_t)(e - s), &id, &r) == 0 && id < nsigs &&
            sigs[id].kernel == kernel) {
            res[id] = r;
            have[id] = true;
            taken++;
        }
        s = nl ? nl + 1 : end;
    }
    return taken;
}

int perfsim_read_cached(const char *text, size_t len, const char *key, perfsim_result *r, const char **why)
{
    size_t off, id;
    if (perfsim_entry_check(text, len, "res", key, &off, why) != 0)
        return -1;
    const char *p = text + off;
    size_t n = len - off;
    if (n && p[n - 1] == '\n')
        n--;
    if (memchr(p, '\n', n) || perfsim_parse_result(p, n, &id, r) != 0)
        return *why = "its result does not read", -1;
    return 0;
}

/* The cached result of key: 1 found and read, 0 there is none, -1 refused. */
int perfsim_res_lookup(const cache *c, const char *key, perfsim_result *r, char *err, size_t errlen)
{
    char path[PATH_MAX];
    int fd;
    int rc = entry_open(c, SUB_RES, key, &fd, path, sizeof(path), err, errlen);
    if (rc <= 0)
        return rc;
    size_t n;
    const char *why;
    char *t = perfsim_slurp_fd(fd, 4096, &n);
    if (!t)
        return errno == EFBIG ? forged(path, "it is larger than any entry of its kind", err, errlen)
                              : perfsim_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    rc = perfsim_read_cached(t, n, key, r, &why) == 0 ? 1 : forged(path, why, err, errlen);
    free(t);
    return rc;
}
