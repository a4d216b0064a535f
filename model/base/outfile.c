/* outfile.c - atomic output files, unnamed temporary files and directory creation. */
#define _GNU_SOURCE /* mkostemp */
#include "outfile.h"

#include "userdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTFILE_BUF (1 << 20)

/* Creates o->tmp afresh (O_EXCL|O_NOFOLLOW: whatever is already there is never written through). A
 * regular file there is a temporary a killed run left: its name goes (unlink, which never reaches what a
 * link points to) and the create is tried once more. Returns the descriptor, or -1 with a message in err. */
static int create_tmp(outfile *o, char *err, size_t errlen)
{
    const char *tmp = o->tmp + o->base; /* its name in o->dir */
    for (int tries = 0;; tries++) {
        int fd = openat(o->dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        int e = errno;
        struct stat st;
        if (e != EEXIST || tries > 0 || fstatat(o->dir, tmp, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            snprintf(err, errlen, "%s: cannot write: %s", o->path, strerror(e));
            return -1;
        }
        if (S_ISLNK(st.st_mode)) {
            snprintf(
                err, errlen,
                "%s: cannot write: %s is a symbolic link, which ptosim did not make and does not follow; "
                "remove it",
                o->path, o->tmp);
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "%s: cannot write: %s", o->path,
                     strerror(S_ISDIR(st.st_mode) ? EISDIR : EEXIST));
            return -1;
        }
        if (unlinkat(o->dir, tmp, 0) != 0 && errno != ENOENT) {
            snprintf(err, errlen, "%s: cannot write: %s: %s", o->path, o->tmp, strerror(errno));
            return -1;
        }
    }
}

/* Closes the folder outfile_open opened. */
static void close_dir(outfile *o)
{
    if (o->own_dir)
        close(o->dir);
    o->own_dir = false;
    o->dir = AT_FDCWD;
}

FILE *outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    o->dir = AT_FDCWD;
    snprintf(o->path, sizeof(o->path), "%s", path);
    snprintf(o->tmp, sizeof(o->tmp), "%s.tmp", path);
    /* below a folder the user named, the folder the file goes in is reached without following a link */
    userdir_ref r;
    char why[4400];
    if (userdir_get(&r, path, false, why, sizeof(why)) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, why);
        return NULL;
    }
    if (r.below) {
        size_t n = strlen(path), k = strlen(r.name);
        if (k > n || strcmp(path + n - k, r.name) != 0) { /* "DIR/x/": no file name to write */
            userdir_put(&r);
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(EISDIR));
            return NULL;
        }
        o->dir = r.fd;
        o->own_dir = true;
        o->base = n - k;
    }
    int fd = create_tmp(o, err, errlen);
    if (fd < 0) {
        close_dir(o);
        return NULL;
    }
    o->made = 1;
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        outfile_abort(o);
        return NULL;
    }
    o->buf = malloc(OUTFILE_BUF);
    if (o->buf)
        setvbuf(o->f, o->buf, _IOFBF, OUTFILE_BUF);
    /* one thread writes each file: stdio's per-call lock is a fifth of an all-DFX run */
    __fsetlocking(o->f, FSETLOCKING_BYCALLER);
    return o->f;
}

static atomic_ulong print_failures;

int outfile_printf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    if (n < 0)
        atomic_fetch_add(&print_failures, 1);
    return n;
}

void outfile_note_failure(void)
{
    atomic_fetch_add(&print_failures, 1);
}

void outfile_put_u64(FILE *f, uint64_t x)
{
    char d[24];
    int k = (int)sizeof(d) - 1;
    d[k] = '\0';
    do
        d[--k] = (char)('0' + x % 10);
    while ((x /= 10) != 0);
    fputs(d + k, f);
}

void outfile_put_i64(FILE *f, int64_t x)
{
    if (x < 0)
        fputc('-', f);
    outfile_put_u64(f, x < 0 ? 0 - (uint64_t)x : (uint64_t)x);
}

unsigned long outfile_print_failures(void)
{
    return atomic_load(&print_failures);
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
    int bad = ferror(o->f);
    if (outfile_print_failures() != 0) { /* a formatted write was cut short */
        bad = 1;
        errno = ENOMEM;
    }
    if (fclose(o->f) != 0)
        bad = 1;
    o->f = NULL;
    free(o->buf);
    o->buf = NULL;
    /* rename replaces a link at path itself, never what it points to */
    if (bad || renameat(o->dir, o->tmp + o->base, o->dir, o->path + o->base) != 0) {
        snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(errno));
        outfile_abort(o);
        return -1;
    }
    o->made = 0;
    close_dir(o);
    return 0;
}

void outfile_abort(outfile *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    free(o->buf);
    o->buf = NULL;
    if (o->made) /* only the file this outfile created: never a name someone else put there */
        unlinkat(o->dir, o->tmp + o->base, 0);
    o->made = 0;
    close_dir(o);
}

int outfile_temp_fd(const char *prefix, const char **dir)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (dir)
        *dir = tmp;
    char name[4200];
    snprintf(name, sizeof(name), "%s/%s-XXXXXX", tmp, prefix);
    int fd = mkostemp(name, O_CLOEXEC);
    if (fd >= 0)
        unlink(name);
    return fd;
}

/* The last step of outfile_mkdirs and outfile_own_dir below a folder the user named: r's last component
 * made when missing, or checked. A link there is refused, or with replace removed (its name alone) and a
 * folder made in its place; link_why ends the message of a refused one. Returns 0, 1 when something was
 * replaced, or -1 with a message in err naming path. */
static int own_last(userdir_ref *r, const char *path, int replace, const char *link_why, char *err,
                    size_t errlen)
{
    for (int tries = 0;; tries++) {
        if (mkdirat(r->fd, r->name, 0777) == 0)
            return tries > 0;
        int e = errno;
        struct stat st;
        if (e != EEXIST || tries > 0 || fstatat(r->fd, r->name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            snprintf(err, errlen, "%s: cannot create directory: %s", path, strerror(e));
            return -1;
        }
        if (S_ISDIR(st.st_mode))
            return 0;
        if (!replace) {
            if (S_ISLNK(st.st_mode))
                snprintf(err, errlen, "%s: %s", path, link_why);
            else
                snprintf(err, errlen, "%s: not a directory", path);
            return -1;
        }
        if (unlinkat(r->fd, r->name, 0) != 0) { /* the link's name: what it points to stays as it is */
            snprintf(err, errlen, "%s: cannot replace it with a folder: %s", path, strerror(errno));
            return -1;
        }
    }
}

int outfile_mkdirs(const char *dir, char *err, size_t errlen)
{
    userdir_ref r;
    if (userdir_get(&r, dir, true, err, errlen) != 0)
        return -1;
    if (r.below) {
        int rc = own_last(&r, dir, 0, USERDIR_LINK_WHY, err, errlen);
        userdir_put(&r);
        return rc;
    }
    char p[4096];
    snprintf(p, sizeof(p), "%s", dir);
    size_t n = strlen(p);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: cannot create directory: %s", p, strerror(errno));
            return -1;
        }
        p[i] = c;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory", dir);
        return -1;
    }
    return 0;
}

int outfile_own_dir(const char *dir, int replace, char *err, size_t errlen)
{
    char parent[4096];
    snprintf(parent, sizeof(parent), "%s", dir);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = '\0';
        if (outfile_mkdirs(parent, err, errlen) != 0)
            return -1;
    }
    userdir_ref r;
    if (userdir_get(&r, dir, false, err, errlen) != 0)
        return -1;
    int rc = own_last(&r, dir, replace,
                      "is a symbolic link, which ptosim did not make and does not write through; remove it",
                      err, errlen);
    userdir_put(&r);
    return rc;
}
