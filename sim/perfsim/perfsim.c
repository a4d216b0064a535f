/* perfsim.c - perfsim_: kernels priced by their own code under pto-isa's Perf-Sim. */
/* The compiler and harness runs (bounded in time, in their own process groups, dying with ptosim), their
 * content-addressed cache (trusted only when no one else can write it, each entry checked against the digest
 * it records), and the checks that refuse a pto-isa tree known to measure wrong. */
#include "perfsim.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sha256.h"
#include "../cli/stop_signal.h"

extern char **environ;

#define CACHE_FORMAT "ptosim-perfsim-2" /* bump when the cache's layout or the harness's protocol changes */
#define MAX_ARGV 40
#define ENTRY_HEAD_MAX 256   /* a cache entry's header line: format, kind, key, size, digest */
#define BIN_MAX (1ull << 30) /* a compiled kernel larger than this is no harness ptosim built */

/* ---- content hashes: two FNV-1a 64 streams with different offsets, 128 bits ---- */

typedef struct hash128 {
    uint64_t a, b;
} hash128;

static void h_init(hash128 *h)
{
    h->a = 1469598103934665603ULL;
    h->b = 0x6c62272e07bb0142ULL;
}

static void h_bytes(hash128 *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ c[i]) * 1099511628211ULL;
        h->b = (h->b ^ c[i]) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    }
}

/* A string with its length, so that "ab" + "c" and "a" + "bc" differ. */
static void h_str(hash128 *h, const char *s)
{
    uint64_t n = strlen(s);
    h_bytes(h, &n, sizeof(n));
    h_bytes(h, s, n);
}

static void h_u64(hash128 *h, uint64_t v)
{
    h_bytes(h, &v, sizeof(v));
}

static void h_hex(const hash128 *h, char out[33])
{
    snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, h->a, h->b);
}

/* Hashes a regular file's contents; -1 when it cannot be read. A dep list names files the compiler read: a
 * FIFO or a device there (/dev/zero) is no such file and would block or never end. */
static int h_file(hash128 *h, const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return errno = EINVAL, -1;
    }
    char buf[65536];
    ssize_t n;
    uint64_t total = 0;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        h_bytes(h, buf, (size_t)n);
        total += (uint64_t)n;
    }
    close(fd);
    h_u64(h, total);
    return n < 0 ? -1 : 0;
}

/* ---- small file helpers ---- */

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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
static char *slurp_fd(int fd, size_t max, size_t *len)
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

/* Reads a whole small file of the temporary folder (at most max bytes). */
static char *slurp(const char *path, size_t max, size_t *len)
{
    return slurp_fd(open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), max, len);
}

/* Writes all of data to fd. */
static int write_all(int fd, const void *data, size_t len)
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

/* A new file of the temporary folder (O_EXCL|O_NOFOLLOW) holding data. */
static int new_file(const char *path, const void *data, size_t len, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    if (write_all(fd, data, len) != 0) {
        int e = errno;
        close(fd);
        unlink(path);
        return errno = e, -1;
    }
    return close(fd);
}

/* Empties the folder open as dfd, depth first, following no link; closes dfd. */
static void rm_under(int dfd)
{
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0) {
            rm_under(sub);
            unlinkat(dfd, e->d_name, AT_REMOVEDIR);
        } else {
            unlinkat(dfd, e->d_name, 0);
        }
    }
    closedir(d);
}

/* Removes the temporary folder ptosim made, and everything in it. */
static void rm_tree(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
        rm_under(fd);
    rmdir(dir);
}

/* ---- the cache: opened once, every level from a directory fd, trusted only as the user chose ---- */

enum { SUB_BIN, SUB_DEP, SUB_RES, NSUB };
static const char *const SUB_NAME[NSUB] = {"bin", "dep", "res"};

typedef struct cache {
    const char *path;
    bool shared; /* --shared-cache: other users' folders and entries are used, each entry checked */
    int dfd, sub[NSUB];
    mode_t dir_mode;  /* a folder ptosim makes in it: 0700, or the shared folder's own mode */
    mode_t file_mode; /* an entry ptosim writes: 0600, or 0644 in a shared cache */
    unsigned seq;     /* temporary names */
} cache;

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
    return fail(
        err, errlen,
        "%s: refused: a Perf-Sim cache %s %s (owner uid %u, mode %04o; you are uid %u): ptosim runs what "
        "its cache holds and takes its figures as measured, so no other user may be able to write it; %s, or "
        "give --shared-cache if this cache is shared on purpose",
        path, folder ? "folder" : "entry", other ? "owned by another user" : "that others can write",
        (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777), (unsigned)me, fix);
}

static int not_plain(const char *path, bool folder, char *err, size_t errlen)
{
    return fail(err, errlen,
                "%s: refused: a Perf-Sim cache %s that is a symbolic link or not a %s; delete it", path,
                folder ? "folder" : "entry", folder ? "folder" : "regular file");
}

static int forged(const char *path, const char *why, char *err, size_t errlen)
{
    return fail(
        err, errlen,
        "%s: refused: a Perf-Sim cache entry that is not what its name says (%s): it was changed after "
        "ptosim wrote it; delete it to have it made again",
        path, why);
}

static void cache_close(cache *c)
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
static int cache_open(const perfsim_opts *o, cache *c, char *err, size_t errlen)
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
        return fail(err, errlen, "%s: cannot make the cache folder: %s", c->path, strerror(errno));
    if (trusted(c, c->path, true, &st, err, errlen) != 0)
        return -1;
    c->dir_mode = c->shared ? st.st_mode & 07777 : 0700;
    c->file_mode = c->shared ? 0644 : 0600;
    for (int i = 0; i < NSUB; i++) {
        char p[PATH_MAX];
        snprintf(p, sizeof(p), "%s/%s", c->path, SUB_NAME[i]);
        bool made = mkdirat(c->dfd, SUB_NAME[i], 0700) == 0;
        if (!made && errno != EEXIST)
            return fail(err, errlen, "%s: cannot make the cache folder: %s", p, strerror(errno));
        c->sub[i] = openat(c->dfd, SUB_NAME[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (c->sub[i] < 0)
            return errno == ELOOP || errno == ENOTDIR
                       ? not_plain(p, true, err, errlen)
                       : fail(err, errlen, "%s: cannot make the cache folder: %s", p, strerror(errno));
        /* the mode asked for, whatever the umask: a shared cache's folders as usable as the cache itself */
        if ((made && fchmod(c->sub[i], c->dir_mode) != 0) || fstat(c->sub[i], &st) != 0)
            return fail(err, errlen, "%s: cannot make the cache folder: %s", p, strerror(errno));
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
                              : fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    }
    struct stat st;
    int rc = 1;
    if (fstat(*fd, &st) != 0)
        rc = fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
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
static int entry_read(const cache *c, int sub, const char *name, const char *kind, size_t max, char **payload,
                      size_t *len, char *err, size_t errlen)
{
    char path[PATH_MAX];
    int fd;
    int rc = entry_open(c, sub, name, &fd, path, sizeof(path), err, errlen);
    if (rc <= 0)
        return rc;
    size_t n, off;
    char *t = slurp_fd(fd, max + ENTRY_HEAD_MAX, &n);
    const char *why;
    if (!t)
        return errno == EFBIG ? forged(path, "it is larger than any entry of its kind", err, errlen)
                              : fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
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
static int entry_copy_bin(const cache *c, const char *name, const char *dst, char digest[SHA256_HEX],
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
        rc = fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
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
        rc = fail(err, errlen, "%s: cannot write: %s", dst, strerror(errno));
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
            if (got > size || write_all(out, buf + off, m) != 0) {
                rc = got > size ? forged(path, "its size is not the size its header records", err, errlen)
                                : fail(err, errlen, "%s: cannot write: %s", dst, strerror(errno));
                goto done;
            }
        }
        off = 0;
        if ((n = read_some(fd, buf, sizeof(buf))) <= 0)
            break;
        have = (size_t)n;
    }
    if (n < 0) {
        rc = fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        goto done;
    }
    sha256_hex(&h, digest);
    if (got != size)
        rc = forged(path, "its size is not the size its header records", err, errlen);
    else if (strcmp(digest, hex) != 0)
        rc = forged(path, "its content's SHA-256 is not the one its header records", err, errlen);
    if (close(out) != 0 && rc > 0)
        rc = fail(err, errlen, "%s: cannot write: %s", dst, strerror(errno));
    out = -1;
done:
    if (out >= 0)
        close(out);
    if (rc < 0 && made)
        unlink(dst);
    close(fd);
    return rc;
}

/* Writes an entry: a fresh temporary in the entry's own folder (O_EXCL|O_NOFOLLOW from the folder's fd),
 * renamed into place, so that it is whole or absent and never crosses a file system. digest (or NULL) gets
 * the payload's SHA-256. Returns 0, or -1 with errno. */
static int entry_put(cache *c, int sub, const char *name, const char *kind, const void *payload, size_t len,
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
    int rc = fchmod(fd, c->file_mode) == 0 && write_all(fd, head, (size_t)hn) == 0 &&
                     write_all(fd, payload, len) == 0 && (!sync || fsync(fd) == 0)
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

/* ---- resolving the tools ---- */

/* The first of names found as an executable on the PATH, into out. */
static bool find_on_path(const char *const *names, char *out, size_t outlen)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    for (int i = 0; names[i]; i++) {
        if (strchr(names[i], '/')) {
            if (access(names[i], X_OK) == 0)
                return snprintf(out, outlen, "%s", names[i]) < (int)outlen;
            continue;
        }
        for (const char *p = path; *p;) {
            const char *e = strchr(p, ':');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            char cand[PATH_MAX];
            if (n && snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, p, names[i]) < (int)sizeof(cand) &&
                access(cand, X_OK) == 0 && is_file(cand))
                return snprintf(out, outlen, "%s", cand) < (int)outlen;
            p = e ? e + 1 : p + n;
        }
    }
    return false;
}

int perfsim_resolve(perfsim_opts *o, char *err, size_t errlen)
{
    static char cxx[PATH_MAX], cache[PATH_MAX];
    if (!o->pto_isa)
        o->pto_isa = getenv("PTO_ISA_ROOT");
    if (!o->runtime_root)
        o->runtime_root = getenv("SIMPLER_ROOT");
    if (!o->pto_isa || !*o->pto_isa)
        return fail(err, errlen, "--costs perf-sim needs a pto-isa tree: --pto-isa DIR or PTO_ISA_ROOT "
                                 "(pto-isa %s is known to work)", PERFSIM_KNOWN_COMMIT);
    if (!o->runtime_root || !*o->runtime_root)
        return fail(err, errlen, "--costs perf-sim needs the runtime's tree for its kernels' headers "
                                 "(simpler_setup/incore, src/common): --runtime-include DIR or SIMPLER_ROOT");
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/include/pto/costmodel/perf_sim/launch.hpp", o->pto_isa);
    if (!is_file(p))
        return fail(err, errlen, "%s: no pto-isa tree with Perf-Sim (include/pto/costmodel/perf_sim/launch.hpp "
                                 "is missing; pto-isa %s is known to work)", o->pto_isa, PERFSIM_KNOWN_COMMIT);
    static const char *const need[] = {"simpler_setup/incore/pipe_sync.h", "src/common/task_interface/tensor.h",
                                       NULL};
    for (int i = 0; need[i]; i++) {
        snprintf(p, sizeof(p), "%s/%s", o->runtime_root, need[i]);
        if (!is_file(p))
            return fail(err, errlen, "%s: not the runtime's tree (%s is missing)", o->runtime_root, need[i]);
    }
    if (!o->cxx) {
        const char *env = getenv("CXX");
        const char *const dflt[] = {"clang++-19", "clang++", NULL}, *const given[] = {env, NULL};
        if (!find_on_path(env && *env ? given : dflt, cxx, sizeof(cxx)))
            return fail(err, errlen, "no C++ compiler for the Perf-Sim harness: %s not found (set CXX; "
                                     "clang++-19 is known to work)", env && *env ? env : "clang++-19 or clang++");
        o->cxx = cxx;
    }
    if (!o->cache_dir) {
        const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (x && *x)
            snprintf(cache, sizeof(cache), "%s/ptosim/perf-sim", x);
        else if (home && *home)
            snprintf(cache, sizeof(cache), "%s/.cache/ptosim/perf-sim", home);
        else
            return fail(err, errlen, "no cache folder for compiled kernels: give --cache DIR (HOME is not set)");
        o->cache_dir = cache;
    }
    if (o->jobs < 1) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->jobs = n > 0 ? (int)n : 1;
    }
    if (!(o->time_limit > 0))
        o->time_limit = PERFSIM_TIME_LIMIT;
    return 0;
}

/* ---- processes: up to `jobs` at once, each in its own process group, bounded in time ---- */

typedef struct proc {
    const char *argv[MAX_ARGV];
    char in[PATH_MAX], out[PATH_MAX]; /* stdin ("" = /dev/null), stdout and stderr */
    pid_t pid;
    int status; /* waitpid's; -1 when it could not be started */
    bool running, timed_out;
    struct timespec start;
} proc;

/* How the processes of one pricing run. */
typedef struct runner {
    char *
        *envp; /* ptosim's environment with TMPDIR set to the temporary folder: their leftovers go with it */
    double limit; /* seconds each may take */
    int jobs;
    bool progress;
} runner;

/* The child's side of spawn(): only async-signal-safe calls between fork and exec. */
static void child(const proc *p, char **envp, pid_t parent)
{
    setpgid(0, 0);
    /* dies with ptosim even when ptosim is killed outright (SIGKILL); if ptosim died before this call, the
     * parent is already someone else */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int in = open(*p->in ? p->in : "/dev/null", O_RDONLY),
        out = open(p->out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
    if (in < 0 || out < 0)
        _exit(127);
    if (in < 3)
        in = fcntl(in, F_DUPFD, 3);
    if (out < 3)
        out = fcntl(out, F_DUPFD, 3);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(127);
    close(in);
    close(out);
    /* nothing else of ptosim's (the graph it writes aside, the cache's folders) reaches the compiler or kernel */
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
    execve(p->argv[0], (char *const *)p->argv, envp);
    static const char msg[] = "error: cannot start ";
    if (write(2, msg, sizeof(msg) - 1) >= 0 && write(2, p->argv[0], strlen(p->argv[0])) >= 0)
        (void)!write(2, "\n", 1);
    _exit(127);
}

static int spawn(proc *p, char **envp)
{
    pid_t parent = getpid(), pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        child(p, envp, parent);
    setpgid(pid, pid); /* the child asks too: whichever comes first, kill(-pid) finds the group */
    p->pid = pid;
    p->running = true;
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    return 0;
}

static double since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* Kills what is left of p's process group (the leader unreaped keeps the group's id from reuse), then reaps
 * the leader. */
static void finish(proc *p, bool kill_leader)
{
    kill(-p->pid, SIGKILL);
    if (kill_leader)
        kill(p->pid, SIGKILL);
    int st;
    while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
        ;
    p->status = st;
    p->running = false;
}

/* Runs every process, `jobs` at a time; what each printed goes to its out file. One that runs past the time
 * limit is killed with its group (timed_out). A SIGINT or SIGTERM kills them all: -1. */
static int run_all(const runner *rn, proc *ps, size_t n, const char *what)
{
    size_t next = 0, running = 0, done = 0;
    long nap_us = 1000;
    while (done < n) {
        if (intr_signal()) {
            for (size_t i = 0; i < next; i++)
                if (ps[i].running)
                    finish(&ps[i], true);
            return -1;
        }
        while (running < (size_t)rn->jobs && next < n) {
            if (spawn(&ps[next], rn->envp) == 0)
                running++;
            else {
                ps[next].status = -1;
                done++;
            }
            next++;
        }
        bool ended = false;
        for (size_t i = 0; i < next; i++) {
            if (!ps[i].running)
                continue;
            siginfo_t si;
            si.si_pid = 0; /* waitid leaves it unset when nothing changed */
            bool exited =
                waitid(P_PID, (id_t)ps[i].pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid != 0;
            if (!exited && since(&ps[i].start) < rn->limit)
                continue;
            ps[i].timed_out = !exited;
            finish(&ps[i], !exited);
            running--;
            done++;
            ended = true;
        }
        if (ended) {
            nap_us = 1000;
            if (rn->progress)
                fprintf(stderr, "\rptosim: perf-sim: %s %zu/%zu", what, done, n);
            continue;
        }
        /* a signal cuts the nap short (no SA_RESTART); the naps grow to 50 ms while nothing ends */
        struct timespec nap = {0, nap_us * 1000};
        nanosleep(&nap, NULL);
        nap_us = nap_us < 50000 ? nap_us * 2 : 50000;
    }
    if (rn->progress && n)
        fputc('\n', stderr);
    return 0;
}

static bool exited_ok(const proc *p)
{
    return p->status >= 0 && !p->timed_out && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0;
}

/* The first "error:" line of a compiler's log (or its first line), trimmed, into out. */
static void first_error(const char *log, char *out, size_t outlen)
{
    size_t len;
    char *t = slurp(log, 64u << 20, &len);
    const char *line = NULL;
    if (t) {
        for (char *s = t; s && *s;) {
            char *e = strchr(s, '\n');
            if (e)
                *e = '\0';
            if (!line && *s)
                line = s; /* the first line, unless an error line comes */
            if (strstr(s, "error:")) {
                line = s;
                break;
            }
            s = e ? e + 1 : NULL;
        }
    }
    snprintf(out, outlen, "%s", line ? line : "(the compiler printed nothing)");
    free(t);
}

/* ---- compiling ---- */

typedef struct kbuild {
    char manifest[33]; /* key of the compile: harness, compiler, flags, kernel path, core */
    char binkey[33];   /* the binary's key: the manifest and the contents of every file the compile read */
    char digest[SHA256_HEX]; /* the binary's SHA-256: its results' key holds it */
    char run[PATH_MAX];      /* the binary to run, in the temporary folder; "" until known */
    char tmp_bin[PATH_MAX], tmp_dep[PATH_MAX], log[PATH_MAX];
    const char *argv[MAX_ARGV];
    char defkernel[PATH_MAX + 32], incs[7][PATH_MAX + 4];
    int argc;
} kbuild;

/* The compile's command line, all but the output and dep file; the harness (in the temporary folder) last. */
static void compile_argv(const perfsim_opts *o, const perfsim_kernel *k, const char *harness, kbuild *b)
{
    static const char *const fixed[] = {"-std=c++23", "-xc++", "-include", "stdint.h", "-include", "stddef.h",
                                        "-D__COSTMODEL", "-D__NPU_ARCH__=2201", "-DPTO_COMM_NOT_SUPPORTED", "-O2",
                                        "-w", NULL};
    int n = 0;
    b->argv[n++] = o->cxx;
    for (int i = 0; fixed[i]; i++)
        b->argv[n++] = fixed[i];
    b->argv[n++] = k->aic ? "-D__DAV_CUBE__" : "-D__DAV_VEC__";
    /* pto-isa's stubs first; then the runtime's incore headers (pipe_sync.h, tensor.h) */
    snprintf(b->incs[0], sizeof(b->incs[0]), "-I%s/include/pto/costmodel/stubs", o->pto_isa);
    snprintf(b->incs[1], sizeof(b->incs[1]), "-I%s/include", o->pto_isa);
    snprintf(b->incs[2], sizeof(b->incs[2]), "-I%s/include/pto", o->pto_isa);
    snprintf(b->incs[3], sizeof(b->incs[3]), "-I%s/simpler_setup/incore", o->runtime_root);
    snprintf(b->incs[4], sizeof(b->incs[4]), "-I%s/src/common/task_interface", o->runtime_root);
    snprintf(b->incs[5], sizeof(b->incs[5]), "-I%s/src/common", o->runtime_root);
    snprintf(b->incs[6], sizeof(b->incs[6]), "-I%s/src/common/platform/include", o->runtime_root);
    for (int i = 0; i < 7; i++)
        b->argv[n++] = b->incs[i];
    snprintf(b->defkernel, sizeof(b->defkernel), "-DPTOSIM_KERNEL=\"%s\"", k->source);
    b->argv[n++] = b->defkernel;
    b->argv[n++] = harness;
    b->argc = n;
}

/* The binary's key: the manifest and the contents of every file the compile read (its dep list, from the
 * cache). 1 known, 0 unknown (no dep list, or a file it names is gone: errno says why), -1 refused. */
static int binary_key(const cache *c, kbuild *b, char *err, size_t errlen)
{
    char *deps;
    size_t len;
    int rc = entry_read(c, SUB_DEP, b->manifest, "dep", 64u << 20, &deps, &len, err, errlen);
    if (rc <= 0)
        return rc;
    hash128 h;
    h_init(&h);
    h_str(&h, b->manifest);
    for (char *s = strtok(deps, "\n"); s && rc > 0; s = strtok(NULL, "\n")) {
        h_str(&h, s);
        if (h_file(&h, s) != 0)
            rc = 0;
    }
    int e = errno;
    free(deps);
    h_hex(&h, b->binkey);
    errno = e;
    return rc;
}

/* Appends one name of a dep file to the list at *w, unless it is under skip (the temporary folder). */
static void dep_name(char **w, char *start, const char *skip, size_t skiplen)
{
    if (*w == start)
        return;
    if ((size_t)(*w - start) >= skiplen && memcmp(start, skip, skiplen) == 0) {
        *w = start;
        return;
    }
    *(*w)++ = '\n';
}

/* A make-style dep file ("target: a b \\\n c") as one path a line, the names unescaped as clang and GCC write
 * them: a space or tab after 2N+1 backslashes is N backslashes and the space (after 2N: N backslashes, then
 * the name ends), "\#" is '#' (clang doubles the backslashes before it, as before a space), "$$" is '$', a
 * backslash before a newline joins the lines, any other backslash is itself. A name that is not a rule's
 * target is a file the compile read; those under skip (the temporary folder: the harness, copied there) are
 * left out, the harness's text being in the key already. */
static char *dep_list(const char *depfile, const char *skip)
{
    size_t len, skiplen = strlen(skip);
    char *t = slurp(depfile, 64u << 20, &len);
    if (!t)
        return NULL;
    char *out = malloc(len + 2), *w = out, *start = out;
    if (!out) {
        free(t);
        return NULL;
    }
    bool target = true; /* the names before a rule's colon */
    for (size_t i = 0; i <= len; i++) {
        char ch = t[i];
        bool space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\0';
        if (ch == '\\') {
            size_t n = 0;
            while (i + n < len && t[i + n] == '\\')
                n++;
            char next = t[i + n];
            if (next == '\n' || (next == '\r' && t[i + n + 1] == '\n')) { /* a continued line */
                for (size_t k = 0; k + 1 < n; k++)
                    *w++ = '\\';
                i += n + (next == '\r');
                space = true;
                ch = ' ';
            } else if (next == ' ' || next == '\t' || next == '#') {
                for (size_t k = 0; k < n / 2; k++)
                    *w++ = '\\';
                if (n % 2 || next == '#') { /* an escaped space, or '#' (a compiler never writes a comment) */
                    *w++ = next;
                    i += n;
                    continue;
                }
                i += n - 1; /* N backslashes end the name; the space is read next */
                continue;
            } else {
                for (size_t k = 0; k < n; k++)
                    *w++ = '\\';
                i += n - 1;
                continue;
            }
        }
        if (space) {
            if (!target)
                dep_name(&w, start, skip, skiplen);
            else
                w = start;
            start = w;
            if (ch == '\n')
                target = true; /* a new rule (-MP's empty ones: their colon ends the name) */
            continue;
        }
        if (target && ch == ':' &&
            (i + 1 >= len || strchr(" \t\r\n", t[i + 1]) ||
             (t[i + 1] == '\\' && (t[i + 2] == '\n' || t[i + 2] == '\r')))) {
            w = start; /* the name before it is a target */
            target = false;
            continue;
        }
        if (ch == '$' && t[i + 1] == '$')
            i++;
        *w++ = ch;
    }
    *w = '\0';
    free(t);
    return out;
}

/* The compiler's identity for the cache: its resolved path, size and modification time. */
static void h_compiler(hash128 *h, const char *cxx)
{
    char real[PATH_MAX];
    const char *names[] = {cxx, NULL};
    char found[PATH_MAX];
    const char *path = find_on_path(names, found, sizeof(found)) ? found : cxx;
    if (!realpath(path, real))
        snprintf(real, sizeof(real), "%s", path);
    struct stat st;
    h_str(h, real);
    if (stat(real, &st) == 0) {
        h_u64(h, (uint64_t)st.st_size);
        h_u64(h, (uint64_t)st.st_mtim.tv_sec);
        h_u64(h, (uint64_t)st.st_mtim.tv_nsec);
    }
}

/* Compiles the kernels that have no cached binary, `jobs` at once; every kernel's binary ends in the
 * temporary folder (a checked copy of the cached one, or the compiler's output, stored in the cache too). */
static int compile_kernels(const perfsim_opts *o, const runner *rn, cache *c, perfsim_kernel *ks, int nk,
                           const bool *want, kbuild *bs, const char *work, char *err, size_t errlen)
{
    char harness[PATH_MAX], skip[PATH_MAX];
    snprintf(harness, sizeof(harness), "%.4000s/harness.cpp", work);
    snprintf(skip, sizeof(skip), "%.4000s/", work);
    if (new_file(harness, perfsim_harness_src, strlen(perfsim_harness_src), 0600) != 0)
        return fail(err, errlen, "%s: cannot write the harness source: %s", harness, strerror(errno));
    proc *ps = calloc((size_t)nk, sizeof(*ps));
    int *which = calloc((size_t)nk, sizeof(*which));
    if (!ps || !which) {
        free(ps);
        free(which);
        return fail(err, errlen, "out of memory");
    }
    size_t np = 0;
    int rc = 0;
    for (int i = 0; i < nk && rc == 0; i++) {
        if (!want[i])
            continue;
        kbuild *b = &bs[i];
        perfsim_kernel *k = &ks[i];
        if (strpbrk(k->source, "\"\\\n")) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why), "its source path %s has a quote, backslash or newline", k->source);
            continue;
        }
        if (!is_file(k->source)) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why), "%s: no such file", k->source);
            continue;
        }
        compile_argv(o, k, harness, b);
        hash128 h;
        h_init(&h);
        h_str(&h, CACHE_FORMAT);
        h_str(&h, perfsim_harness_src); /* the harness by its text: its path changes with every import */
        h_compiler(&h, o->cxx);
        for (int a = 1; a < b->argc - 1; a++)
            h_str(&h, b->argv[a]);
        h_hex(&h, b->manifest);
        int known = binary_key(c, b, err, errlen);
        if (known > 0) {
            snprintf(b->run, sizeof(b->run), "%.4000s/k%d.run", work, i);
            known = entry_copy_bin(c, b->binkey, b->run, b->digest, err, errlen);
        }
        if (known < 0) {
            rc = -1;
            break;
        }
        if (known > 0)
            continue; /* compiled before, from these very files */
        b->run[0] = '\0';
        snprintf(b->tmp_bin, sizeof(b->tmp_bin), "%.4000s/k%d.bin", work, i);
        snprintf(b->tmp_dep, sizeof(b->tmp_dep), "%.4000s/k%d.d", work, i);
        snprintf(b->log, sizeof(b->log), "%.4000s/k%d.log", work, i);
        proc *p = &ps[np];
        memcpy(p->argv, b->argv, sizeof(b->argv[0]) * (size_t)b->argc);
        int n = b->argc;
        p->argv[n++] = "-MD";
        p->argv[n++] = "-MF";
        p->argv[n++] = b->tmp_dep;
        p->argv[n++] = "-o";
        p->argv[n++] = b->tmp_bin;
        p->argv[n] = NULL;
        snprintf(p->out, sizeof(p->out), "%s", b->log);
        which[np++] = i;
    }
    if (rc == 0 && np && o->progress)
        fprintf(stderr, "ptosim: perf-sim: compiling %zu kernel%s with %s (-j %d)\n", np, np == 1 ? "" : "s",
                o->cxx, o->jobs);
    if (rc == 0 && run_all(rn, ps, np, "compiled") != 0)
        rc = fail(err, errlen, "interrupted by %s", intr_name(intr_signal()));
    for (size_t j = 0; j < np && rc == 0; j++) {
        int i = which[j];
        kbuild *b = &bs[i];
        perfsim_kernel *k = &ks[i];
        if (ps[j].timed_out) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why),
                     "its compile was killed after %g s, the time limit (--time-limit "
                     "SECONDS raises it)",
                     rn->limit);
            continue;
        }
        if (!exited_ok(&ps[j])) {
            char first[PERFSIM_MSG_MAX - 64];
            if (ps[j].status < 0)
                snprintf(first, sizeof(first), "%s could not be started", o->cxx);
            else
                first_error(b->log, first, sizeof(first));
            /* an error inside pto-isa's own headers is the tree's, not the kernel's */
            if (strncmp(first, o->pto_isa, strlen(o->pto_isa)) == 0 || strstr(first, "/include/pto/")) {
                rc = fail(err, errlen,
                          "the pto-isa tree at %s does not compile under __COSTMODEL (kernel %s, first error: %s); "
                          "pto-isa %s is known to work",
                          o->pto_isa, k->name, first, PERFSIM_KNOWN_COMMIT);
                break;
            }
            k->failed = true;
            snprintf(k->why, sizeof(k->why), "does not compile: %s", first);
            continue;
        }
        char *deps = dep_list(b->tmp_dep, skip);
        int known = -1;
        if (deps && entry_put(c, SUB_DEP, b->manifest, "dep", deps, strlen(deps), true, NULL) == 0) {
            char kerr[PERFSIM_MSG_MAX];
            known = binary_key(c, b, kerr, sizeof(kerr));
            if (known < 0) { /* what was just written does not read back: said as is */
                free(deps);
                rc = fail(err, errlen, "%s", kerr);
                break;
            }
        }
        if (known <= 0) {
            free(deps);
            rc = fail(err, errlen, "%s: cannot record kernel %s's dependencies: %s", o->cache_dir, k->name,
                      strerror(errno));
            break;
        }
        free(deps);
        size_t len;
        char *bin = slurp(b->tmp_bin, BIN_MAX, &len);
        if (!bin || entry_put(c, SUB_BIN, b->binkey, "bin", bin, len, true, b->digest) != 0) {
            rc = fail(err, errlen, "%s/bin/%s: cannot store kernel %s's binary: %s", o->cache_dir, b->binkey,
                      k->name, strerror(errno));
            free(bin);
            break;
        }
        free(bin);
        snprintf(b->run, sizeof(b->run), "%s", b->tmp_bin);
    }
    free(ps);
    free(which);
    return rc;
}

/* ---- running ---- */

/* A batch's files: what it prints its results to, and Perf-Sim's output folder. */
struct runpaths {
    char res[PATH_MAX], out[PATH_MAX];
};

static void h_sig(hash128 *h, const perfsim_sig *s)
{
    h_u64(h, (uint64_t)s->block_num);
    h_u64(h, (uint64_t)s->nslots);
    for (int i = 0; i < s->nslots; i++) {
        const perfsim_arg *a = &s->arg[i];
        uint64_t head[6] = {a->used, a->scalar, a->value, (uint64_t)a->dtype, (uint64_t)a->ndim, a->start};
        h_bytes(h, head, sizeof(head));
        h_bytes(h, a->shape, sizeof(a->shape[0]) * (size_t)a->ndim);
        h_bytes(h, a->stride, sizeof(a->stride[0]) * (size_t)a->ndim);
        h_u64(h, a->buffer_elems);
        h_u64(h, a->data ? a->datalen : UINT64_MAX);
        if (a->data)
            h_bytes(h, a->data, a->datalen);
    }
}

static int write_spec(FILE *f, size_t id, const perfsim_sig *s)
{
    fprintf(f, "sig %zu\nb 0 %d\n", id, s->block_num > 0 ? s->block_num : 1);
    for (int i = 0; i < s->nslots; i++) {
        const perfsim_arg *a = &s->arg[i];
        if (!a->used)
            continue;
        if (a->scalar) {
            fprintf(f, "s %d %" PRIu64 "\n", i, a->value);
            continue;
        }
        fprintf(f, "t %d %d %d", i, a->dtype, a->ndim);
        for (int d = 0; d < a->ndim; d++)
            fprintf(f, " %" PRIu32, a->shape[d]);
        for (int d = 0; d < a->ndim; d++)
            fprintf(f, " %" PRIu32, a->stride[d]);
        fprintf(f, " %" PRIu64 " %" PRIu64 " %zu ", a->start, a->buffer_elems, a->data ? a->datalen : 0);
        if (a->data && a->datalen)
            for (size_t b = 0; b < a->datalen; b++)
                fprintf(f, "%02x", a->data[b]);
        else
            fputc('-', f);
        fputc('\n', f);
    }
    fputs("go\n", f);
    return ferror(f) ? -1 : 0;
}

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

/* Does the kernel's own source call set_flag (itself, or through the runtime's pipe_sync())? */
static bool calls_set_flag(const char *source)
{
    char *t = slurp(source, 64u << 20, NULL);
    bool yes = t && (strstr(t, "set_flag") || strstr(t, "pipe_sync()"));
    free(t);
    return yes;
}

/* The cached result of key: 1 found and read, 0 there is none, -1 refused. */
static int res_lookup(const cache *c, const char *key, perfsim_result *r, char *err, size_t errlen)
{
    char path[PATH_MAX];
    int fd;
    int rc = entry_open(c, SUB_RES, key, &fd, path, sizeof(path), err, errlen);
    if (rc <= 0)
        return rc;
    size_t n;
    const char *why;
    char *t = slurp_fd(fd, 4096, &n);
    if (!t)
        return errno == EFBIG ? forged(path, "it is larger than any entry of its kind", err, errlen)
                              : fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    rc = perfsim_read_cached(t, n, key, r, &why) == 0 ? 1 : forged(path, why, err, errlen);
    free(t);
    return rc;
}

/* ptosim's environment for the processes it starts, with TMPDIR the temporary folder (malloc'd). */
static char **child_env(const char *work, char *tmpdir_var, size_t varlen)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = calloc(n + 2, sizeof(*env));
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "TMPDIR=", 7) != 0)
            env[k++] = environ[i];
    snprintf(tmpdir_var, varlen, "TMPDIR=%s", work);
    env[k++] = tmpdir_var;
    env[k] = NULL;
    return env;
}

static int price(const perfsim_opts *o, cache *c, const char *work, perfsim_kernel *kernels, int nkernels,
                 const perfsim_sig *sigs, size_t nsigs, perfsim_result *res, char *err, size_t errlen);

int perfsim_price(const perfsim_opts *o, perfsim_kernel *kernels, int nkernels, const perfsim_sig *sigs,
                  size_t nsigs, perfsim_result *res, char *err, size_t errlen)
{
    cache c;
    if (cache_open(o, &c, err, errlen) != 0) {
        cache_close(&c);
        return -1;
    }
    const char *tmpdir = getenv("TMPDIR");
    char work[PATH_MAX];
    snprintf(work, sizeof(work), "%s/ptosim-perfsim-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(work)) {
        cache_close(&c);
        return fail(err, errlen, "cannot make a temporary folder in %s: %s", tmpdir ? tmpdir : "/tmp",
                    strerror(errno));
    }
    /* SIGINT and SIGTERM only ask: the compiles and runs are killed and the temporary folder removed before
     * ptosim stops; the caller's handling comes back after */
    struct sigaction old_int, old_term;
    sigaction(SIGINT, NULL, &old_int);
    sigaction(SIGTERM, NULL, &old_term);
    intr_install();
    int rc = price(o, &c, work, kernels, nkernels, sigs, nsigs, res, err, errlen);
    rm_tree(work);
    cache_close(&c);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}

static int price(const perfsim_opts *o, cache *c, const char *work, perfsim_kernel *kernels, int nkernels,
                 const perfsim_sig *sigs, size_t nsigs, perfsim_result *res, char *err, size_t errlen)
{
    char tmpvar[PATH_MAX + 8];
    runner rn = {.envp = child_env(work, tmpvar, sizeof(tmpvar)),
                 .limit = o->time_limit > 0 ? o->time_limit : PERFSIM_TIME_LIMIT,
                 .jobs = o->jobs > 0 ? o->jobs : 1,
                 .progress = o->progress};
    bool *want = calloc((size_t)nkernels, sizeof(*want));
    kbuild *bs = calloc((size_t)nkernels, sizeof(*bs));
    char(*keys)[33] = calloc(nsigs ? nsigs : 1, sizeof(*keys));
    bool *have = calloc(nsigs ? nsigs : 1, sizeof(*have));
    int rc = 0;
    if (!rn.envp || !want || !bs || !keys || !have) {
        rc = fail(err, errlen, "out of memory");
        goto out;
    }
    memset(res, 0, nsigs * sizeof(*res));
    for (size_t i = 0; i < nsigs; i++) {
        assert(sigs[i].kernel >= 0 && sigs[i].kernel < nkernels);
        want[sigs[i].kernel] = true;
    }
    if ((rc = compile_kernels(o, &rn, c, kernels, nkernels, want, bs, work, err, errlen)) != 0)
        goto out;
    /* the results cached for these binaries (by their content); a spec file per kernel for the rest */
    size_t todo = 0;
    for (size_t i = 0; i < nsigs; i++) {
        const perfsim_kernel *k = &kernels[sigs[i].kernel];
        const kbuild *b = &bs[sigs[i].kernel];
        if (k->failed)
            continue;
        hash128 h;
        h_init(&h);
        h_str(&h, CACHE_FORMAT);
        h_str(&h, b->digest);
        h_sig(&h, &sigs[i]);
        h_hex(&h, keys[i]);
        int found = res_lookup(c, keys[i], &res[i], err, errlen);
        if (found < 0) {
            rc = -1;
            goto out;
        }
        if (found)
            have[i] = true;
        else
            todo++;
    }
    /* a kernel's signatures go out in chunks, so that one kernel with many signatures uses every job too */
    size_t chunk = (todo + (size_t)rn.jobs - 1) / (size_t)rn.jobs;
    if (chunk < 8)
        chunk = 8;
    size_t np = 0, cap = todo ? (size_t)nkernels + todo / chunk + 1 : 0;
    int *kof = calloc(cap ? cap : 1, sizeof(*kof));
    proc *runs = calloc(cap ? cap : 1, sizeof(*runs));
    struct runpaths *paths = calloc(cap ? cap : 1, sizeof(*paths));
    if (!kof || !runs || !paths) {
        free(kof), free(runs), free(paths);
        rc = fail(err, errlen, "out of memory");
        goto out;
    }
    for (int k = 0; k < nkernels && todo; k++) {
        if (!want[k] || kernels[k].failed)
            continue;
        FILE *f = NULL;
        size_t n = 0;
        for (size_t i = 0; i <= nsigs && rc == 0; i++) {
            bool last = i == nsigs;
            if (!last && (sigs[i].kernel != k || have[i]))
                continue;
            if (f && (last || n == chunk)) { /* close the chunk and queue its run */
                proc *p = &runs[np];
                bool bad = ferror(f) != 0;
                bad |= fclose(f) != 0;
                f = NULL;
                if (bad) {
                    rc = fail(err, errlen, "%s: cannot write: %s", p->in, strerror(errno));
                    break;
                }
                snprintf(paths[np].res, PATH_MAX, "%.3900s/r%zu.res", work, np);
                snprintf(paths[np].out, PATH_MAX, "%.3900s/r%zu.out", work, np);
                if (mkdir(paths[np].out, 0700) != 0) {
                    rc = fail(err, errlen, "%s: cannot make: %s", paths[np].out, strerror(errno));
                    break;
                }
                p->argv[0] = bs[k].run;
                p->argv[1] = paths[np].res;
                p->argv[2] = paths[np].out;
                p->argv[3] = NULL;
                snprintf(p->out, sizeof(p->out), "%.3900s/r%zu.log", work, np);
                kof[np++] = k;
            }
            if (last)
                break;
            if (!f) {
                assert(np < cap);
                proc *p = &runs[np];
                snprintf(p->in, sizeof(p->in), "%.3900s/r%zu.spec", work, np);
                int fd = open(p->in, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (fd < 0 || !(f = fdopen(fd, "w"))) {
                    if (fd >= 0)
                        close(fd);
                    rc = fail(err, errlen, "%s: cannot write: %s", p->in, strerror(errno));
                    break;
                }
                n = 0;
            }
            write_spec(f, i, &sigs[i]);
            n++;
        }
        if (f)
            fclose(f);
        if (rc) {
            free(kof), free(runs), free(paths);
            goto out;
        }
    }
    if (np && o->progress)
        fprintf(stderr, "ptosim: perf-sim: running %zu task signature%s in %zu batch%s\n", todo,
                todo == 1 ? "" : "s", np, np == 1 ? "" : "es");
    if (run_all(&rn, runs, np, "batches run") != 0)
        rc = fail(err, errlen, "interrupted by %s", intr_name(intr_signal()));
    for (size_t j = 0; j < np && rc == 0; j++) {
        int k = kof[j];
        if (runs[j].timed_out) {
            kernels[k].failed = true;
            snprintf(kernels[k].why, sizeof(kernels[k].why),
                     "its Perf-Sim run was killed after %g s, the time "
                     "limit (--time-limit SECONDS raises it)",
                     rn.limit);
            continue;
        }
        size_t len;
        char *text = exited_ok(&runs[j]) ? slurp(paths[j].res, 256u << 20, &len) : NULL;
        if (!text) {
            char first[PERFSIM_MSG_MAX - 64];
            first_error(runs[j].out, first, sizeof(first));
            kernels[k].failed = true;
            snprintf(kernels[k].why, sizeof(kernels[k].why), "its Perf-Sim run failed: %s", first);
            continue;
        }
        bool *fresh = calloc(nsigs, sizeof(*fresh));
        if (!fresh) {
            free(text);
            rc = fail(err, errlen, "out of memory");
            break;
        }
        perfsim_read_batch(text, len, sigs, nsigs, k, res, fresh);
        free(text);
        for (size_t id = 0; id < nsigs && rc == 0; id++) {
            if (!fresh[id])
                continue;
            have[id] = true;
            char line[512];
            int n = perfsim_format_result(line, sizeof(line), id, &res[id]);
            if (entry_put(c, SUB_RES, keys[id], "res", line, (size_t)n, false, NULL) != 0)
                rc = fail(err, errlen, "%s/res/%s: cannot store a result: %s", o->cache_dir, keys[id],
                          strerror(errno));
        }
        free(fresh);
    }
    free(runs);
    free(paths);
    free(kof);
    if (rc)
        goto out;
    for (size_t i = 0; i < nsigs && rc == 0; i++) {
        perfsim_kernel *k = &kernels[sigs[i].kernel];
        if (k->failed)
            continue;
        if (!have[i]) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why), "its Perf-Sim run gave no result for a signature");
            continue;
        }
        /* the silent fault of later pto-isa trees: no-op set_flag stubs win, no sync event is recorded */
        if (res[i].instructions && !res[i].sync_events && calls_set_flag(k->source))
            rc = fail(err, errlen,
                      "the pto-isa tree at %s recorded no sync events for kernel %s, whose code calls set_flag: "
                      "its set_flag/wait_flag are no-op stubs, which makes every kernel look faster than it is; "
                      "pto-isa %s is known to work",
                      o->pto_isa, k->name, PERFSIM_KNOWN_COMMIT);
    }
    if (rc == 0 && intr_signal()) /* came after the last process: nothing is kept of an interrupted import */
        rc = fail(err, errlen, "interrupted by %s", intr_name(intr_signal()));
out:
    free(rn.envp);
    free(want);
    free(bs);
    free(keys);
    free(have);
    return rc;
}
