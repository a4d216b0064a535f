/* graph_source.c - gsrc_: a graph file's bytes: standard input, gzip, a BOM, spooled copies. */
#define _GNU_SOURCE /* fopencookie */
#include "graph_source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../base/outfile.h"
#include "../base/sha256.h"

#define GSRC_BUF (256 * 1024) /* zlib's input buffer: a pipe's bytes come in large reads */
#define GSRC_MAX_ALIASES 64   /* spooled copies named after their source (a run takes at most 64 graphs) */

static const unsigned char BOM[3] = {0xEF, 0xBB, 0xBF};

/* zlib's message for the last failed read on this thread (the reader thread reports its own errors) */
static _Thread_local char last_error[256];

/* Spooled copies and the names they stand for: set before any reader thread starts, read after. */
static struct {
    char *path, *name;
} aliases[GSRC_MAX_ALIASES];
static int naliases;

/* A stream read through zlib, which passes bytes that are not gzip through unchanged. */
typedef struct gz_cookie {
    gzFile z;
    bool started; /* the first bytes (a possible BOM) are behind us */
} gz_cookie;

/* Fails a read: errno EBADMSG, with zlib's message for gsrc_strerror. */
static ssize_t gz_fail(gz_cookie *c)
{
    int zerr;
    const char *msg = gzerror(c->z, &zerr);
    if (zerr == Z_ERRNO)
        return -1; /* errno says it */
    const char *colon = msg && msg[0] == '<' ? strstr(msg, ": ") : NULL; /* zlib names the stream "<fd:N>" */
    if (colon)
        msg = colon + 2;
    snprintf(last_error, sizeof(last_error), "gzip data: %s",
             zerr == Z_BUF_ERROR ? "ends early (a truncated .gz?)"
             : msg && *msg       ? msg
                                 : "is damaged");
    errno = EBADMSG;
    return -1;
}

static ssize_t gz_read(void *cookie, char *buf, size_t size)
{
    gz_cookie *c = cookie;
    if (size > INT32_MAX)
        size = INT32_MAX; /* gzread counts in unsigned ints and returns an int */
    for (;;) {
        int n = gzread(c->z, buf, (unsigned)size);
        if (n < 0)
            return gz_fail(c);
        /* gzread fills the buffer unless the input ended: a short read is the end, which must be clean */
        int zerr;
        if ((size_t)n < size && (gzerror(c->z, &zerr), zerr != Z_OK))
            return gz_fail(c);
        if (c->started)
            return n;
        c->started = true;
        if (n < 3 || memcmp(buf, BOM, 3) != 0)
            return n;
        memmove(buf, buf + 3, (size_t)n - 3);
        if (n > 3 || (size_t)n < size) /* 0 after the BOM is the end only when the input ended */
            return n - 3;
    }
}

static int gz_close(void *cookie)
{
    gz_cookie *c = cookie;
    int rc = gzclose_r(c->z);
    free(c);
    return rc == Z_OK ? 0 : -1;
}

/* Wraps fd (taken over) in a stream read through zlib. NULL with errno set. */
static FILE *open_gz(int fd)
{
    gz_cookie *c = calloc(1, sizeof(*c));
    if (!c) {
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    c->z = gzdopen(fd, "rb");
    if (!c->z) {
        close(fd);
        free(c);
        errno = ENOMEM;
        return NULL;
    }
    gzbuffer(c->z, GSRC_BUF);
    cookie_io_functions_t io = {.read = gz_read, .close = gz_close};
    FILE *f = fopencookie(c, "r", io);
    if (!f) {
        int e = errno;
        gz_close(c);
        errno = e;
    }
    return f;
}

FILE *gsrc_open(const char *path)
{
    bool in = strcmp(path, GSRC_STDIN) == 0;
    int fd = in ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
        /* a file can be looked at before it is read: plain text keeps the fast path */
        unsigned char head[3] = {0};
        off_t at = S_ISREG(st.st_mode) ? lseek(fd, 0, SEEK_CUR) : -1;
        ssize_t n = at >= 0 ? pread(fd, head, sizeof(head), at) : 0;
        if (n < 2 || head[0] != 0x1f || head[1] != 0x8b) {
            if (n == 3 && memcmp(head, BOM, 3) == 0 && lseek(fd, at + 3, SEEK_SET) < 0) {
                int e = errno;
                close(fd);
                errno = e;
                return NULL;
            }
            FILE *f = fdopen(fd, "r");
            if (!f) {
                int e = errno;
                close(fd);
                errno = e;
            }
            return f;
        }
    }
    return open_gz(fd);
}

const char *gsrc_strerror(int e)
{
    return e == EBADMSG && last_error[0] ? last_error : strerror(e);
}

const char *gsrc_name(const char *path)
{
    for (int i = 0; i < naliases; i++)
        if (strcmp(aliases[i].path, path) == 0)
            return aliases[i].name;
    return strcmp(path, GSRC_STDIN) == 0 ? GSRC_STDIN_NAME : path;
}

bool gsrc_read_once(const char *path)
{
    struct stat st;
    if (strcmp(path, GSRC_STDIN) == 0)
        return true;
    return stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode));
}

/* Names dst after path's name in messages. Returns 0, or -1 when out of room or memory. */
static int add_alias(const char *dst, const char *path)
{
    const char *name = gsrc_name(path);
    for (int i = 0; i < naliases; i++)
        if (strcmp(aliases[i].path, dst) == 0) { /* the same copy made again */
            char *n = strdup(name);
            if (!n)
                return -1;
            free(aliases[i].name);
            aliases[i].name = n;
            return 0;
        }
    if (naliases == GSRC_MAX_ALIASES)
        return -1;
    char *p = strdup(dst), *n = strdup(name);
    if (!p || !n) {
        free(p);
        free(n);
        return -1;
    }
    aliases[naliases].path = p;
    aliases[naliases++].name = n;
    return 0;
}

static const volatile sig_atomic_t *stop_flag; /* gsrc_stop_on's */

void gsrc_stop_on(const volatile sig_atomic_t *flag)
{
    stop_flag = flag;
}

bool gsrc_stopped(void)
{
    return stop_flag && *stop_flag;
}

/* Copies everything of the graph at path to out. Returns 0; 1 when path cannot be opened or read (message
 * in err); -1 when out cannot be written (errno set, no message: the caller names the copy). */
static int copy_graph(const char *path, FILE *out, char *err, size_t errlen)
{
    FILE *in = gsrc_open(path);
    if (!in) {
        snprintf(err, errlen, "%s: cannot open graph file: %s", gsrc_name(path), strerror(errno));
        return 1;
    }
    char buf[16384];
    size_t n;
    while (!gsrc_stopped() && (n = fread(buf, 1, sizeof(buf), in)) > 0)
        if (fwrite(buf, 1, n, out) != n) {
            int e = errno;
            fclose(in);
            errno = e;
            return -1;
        }
    if (gsrc_stopped()) { /* a read a signal cut short (EINTR) is this too */
        snprintf(err, errlen, "%s: interrupted", gsrc_name(path));
        fclose(in);
        return 1;
    }
    if (ferror(in)) {
        snprintf(err, errlen, "%s: read error: %s", gsrc_name(path), gsrc_strerror(errno));
        fclose(in);
        return 1;
    }
    fclose(in);
    return 0;
}

/* The last digest made, by the file's identity: a sweep's points, forked after the sweep hashed its graph,
 * find it here instead of hashing the same file once per point. */
static struct {
    bool set;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    int rc;
    char hex[65];
} memo;

int gsrc_sha256(const char *path, char hex[65], char *err, size_t errlen)
{
    struct stat st;
    bool known = stat(path, &st) == 0;
    if (known && memo.set && memo.dev == st.st_dev && memo.ino == st.st_ino && memo.size == st.st_size &&
        memo.mtime.tv_sec == st.st_mtim.tv_sec && memo.mtime.tv_nsec == st.st_mtim.tv_nsec) {
        memcpy(hex, memo.hex, sizeof(memo.hex));
        return memo.rc;
    }
    FILE *in = gsrc_open(path);
    if (!in) {
        snprintf(err, errlen, "%s: cannot open graph file: %s", gsrc_name(path), strerror(errno));
        return -1;
    }
    sha256_ctx c;
    sha256_init(&c);
    char buf[65536];
    size_t n;
    uint64_t total = 0;
    while (!gsrc_stopped() && total <= GSRC_HASH_MAX && (n = fread(buf, 1, sizeof(buf), in)) > 0) {
        sha256_update(&c, buf, n);
        total += n;
    }
    int rc = 0;
    if (gsrc_stopped()) {
        snprintf(err, errlen, "%s: interrupted", gsrc_name(path));
        rc = -1;
    } else if (ferror(in)) {
        snprintf(err, errlen, "%s: read error: %s", gsrc_name(path), gsrc_strerror(errno));
        rc = -1;
    } else if (total > GSRC_HASH_MAX) {
        rc = 1; /* hashing it would cost a large graph's run as much again as reading it */
    }
    fclose(in);
    hex[0] = '\0';
    if (rc == 0)
        sha256_hex(&c, hex);
    if (rc >= 0 && known) {
        memo.set = true;
        memo.dev = st.st_dev;
        memo.ino = st.st_ino;
        memo.size = st.st_size;
        memo.mtime = st.st_mtim;
        memo.rc = rc;
        memcpy(memo.hex, hex, sizeof(memo.hex));
    }
    return rc;
}

int gsrc_spool(const char *path, const char *dst, char *err, size_t errlen)
{
    outfile o;
    FILE *f = outfile_open(&o, dst, err, errlen);
    if (!f)
        return -1;
    int rc = copy_graph(path, f, err, errlen);
    if (rc < 0) /* a full disk mid-copy */
        snprintf(err, errlen, "%s: cannot write its copy %s: %s", gsrc_name(path), dst, strerror(errno));
    if (rc != 0) {
        outfile_abort(&o);
        return rc;
    }
    if (outfile_commit(&o, err, errlen) != 0)
        return -1;
    if (add_alias(dst, path) != 0) {
        snprintf(err, errlen, "%s: out of memory", gsrc_name(path));
        return -1;
    }
    return 0;
}

int gsrc_spool_temp(const char *path, char *out, size_t outlen, char *err, size_t errlen)
{
    const char *tmp;
    int fd = outfile_temp_fd("ptosim-graph", &tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot make a temporary copy in %s: %s", gsrc_name(path), tmp,
                 strerror(errno));
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", gsrc_name(path), strerror(errno));
        close(fd);
        return -1;
    }
    /* the stream's descriptor stays open for the rest of the process: the copy is read through its path */
    int keep = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (keep < 0) {
        snprintf(err, errlen, "%s: %s", gsrc_name(path), strerror(errno));
        fclose(f);
        return -1;
    }
    int rc = copy_graph(path, f, err, errlen);
    if (fclose(f) != 0 && rc == 0) /* a full disk shows mid-copy or at the last flush */
        rc = -1;
    if (rc < 0)
        snprintf(err, errlen, "%s: cannot write its temporary copy in %s: %s", gsrc_name(path), tmp,
                 strerror(errno));
    if (rc == 0 && (size_t)snprintf(out, outlen, "/proc/self/fd/%d", keep) >= outlen) {
        snprintf(err, errlen, "%s: no room for the copy's path", gsrc_name(path));
        rc = -1;
    }
    if (rc == 0 && add_alias(out, path) != 0) {
        snprintf(err, errlen, "%s: out of memory", gsrc_name(path));
        rc = -1;
    }
    if (rc != 0)
        close(keep);
    return rc;
}
