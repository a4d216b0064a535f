/* userdir.c - userdir_: paths below the folders the user named, opened a level at a time, O_NOFOLLOW. */
#include "userdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int nroots;
static char roots[USERDIR_MAX][4096];

/* why the last call on this thread failed, and the errno it goes with */
static _Thread_local char why[4400];
static _Thread_local int why_errno;

int userdir_add(const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n == 0 || n >= sizeof(roots[0]))
        return -1;
    for (int i = 0; i < nroots; i++)
        if (strlen(roots[i]) == n && strncmp(roots[i], dir, n) == 0)
            return 0;
    if (nroots == USERDIR_MAX)
        return -1;
    memcpy(roots[nroots], dir, n);
    roots[nroots++][n] = '\0';
    return 0;
}

void userdir_reset(void)
{
    nroots = 0;
}

/* The part of path below the outermost named folder that holds it (its first component, past the
 * slashes), with that folder in *root; NULL when path lies below none (a named folder itself is not
 * below it: it is resolved as the user gave it). The outermost: a folder named below another (a sweep's
 * point, which its run names again) is reached from the outer one, without following a link. */
static const char *below(const char *path, const char **root)
{
    const char *rel = NULL;
    size_t best = 0;
    for (int i = 0; i < nroots; i++) {
        size_t n = strlen(roots[i]);
        if (strncmp(path, roots[i], n) != 0 || (path[n] != '/' && roots[i][n - 1] != '/'))
            continue;
        const char *r = path + n;
        while (*r == '/')
            r++;
        if (*r && (!rel || n < best)) {
            rel = r;
            best = n;
            *root = roots[i];
        }
    }
    return rel;
}

static void say(int e, const char *fmt, const char *path, int len, const char *what)
{
    snprintf(why, sizeof(why), fmt, len, path, what);
    why_errno = e;
    errno = e;
}

int userdir_get(userdir_ref *r, const char *path, bool make, char *err, size_t errlen)
{
    why[0] = '\0';
    r->fd = AT_FDCWD;
    r->below = false;
    const char *root = NULL, *p = below(path, &root);
    if (!p) {
        if (strlen(path) >= sizeof(r->name)) {
            say(ENAMETOOLONG, "%.*s: %s", path, (int)strlen(path), strerror(ENAMETOOLONG));
            goto fail;
        }
        snprintf(r->name, sizeof(r->name), "%s", path);
        return 0;
    }
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* named: followed, as asked */
    if (fd < 0) {
        say(errno, "%.*s: %s", root, (int)strlen(root), strerror(errno));
        goto fail;
    }
    for (;;) {
        size_t len = strcspn(p, "/");
        const char *next = p + len;
        while (*next == '/')
            next++;
        int upto = (int)(p + len - path); /* the path up to this component, for messages */
        if (len >= 256) {
            say(ENAMETOOLONG, "%.*s: %s", path, upto, strerror(ENAMETOOLONG));
            close(fd);
            goto fail;
        }
        memcpy(r->name, p, len);
        r->name[len] = '\0';
        if (strcmp(r->name, "..") == 0) { /* a way out of the folder: never taken */
            say(EACCES, "%.*s: %s", path, upto, "'..' below a folder you named is not followed");
            close(fd);
            goto fail;
        }
        if (!*next) {
            r->fd = fd;
            r->below = true;
            return 0;
        }
        p = next;
        if (strcmp(r->name, ".") == 0)
            continue;
        int sub = openat(fd, r->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0 && errno == ENOENT && make && (mkdirat(fd, r->name, 0777) == 0 || errno == EEXIST))
            sub = openat(fd, r->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) {
            int e = errno;
            struct stat st;
            bool there = fstatat(fd, r->name, &st, AT_SYMLINK_NOFOLLOW) == 0;
            close(fd);
            if (there && S_ISLNK(st.st_mode))
                say(ELOOP, "%.*s: %s", path, upto, USERDIR_LINK_WHY);
            else if (there && !S_ISDIR(st.st_mode))
                say(ENOTDIR, "%.*s: %s", path, upto, "not a directory");
            else
                say(e, "%.*s: %s", path, upto, strerror(e));
            goto fail;
        }
        close(fd);
        fd = sub;
    }
fail:
    if (err)
        snprintf(err, errlen, "%s", why);
    return -1;
}

void userdir_put(userdir_ref *r)
{
    if (r->fd >= 0)
        close(r->fd);
    r->fd = AT_FDCWD;
}

/* After an *at call on r's last component failed with errno e: a link there (below a named folder) is
 * said to be one, errno ELOOP; else errno stays e. Releases r. Returns -1. */
static int failed(userdir_ref *r, const char *path, int e)
{
    struct stat st;
    if (r->below && e != EEXIST && fstatat(r->fd, r->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(st.st_mode))
        say(ELOOP, "%.*s: %s", path, (int)strlen(path), USERDIR_LINK_WHY);
    else
        errno = e;
    userdir_put(r);
    return -1;
}

int userdir_open(const char *path, int flags, mode_t mode)
{
    userdir_ref r;
    if (userdir_get(&r, path, false, NULL, 0) != 0)
        return -1;
    int fd = openat(r.fd, r.name, flags | (r.below ? O_NOFOLLOW : 0), mode);
    if (fd < 0)
        return failed(&r, path, errno);
    userdir_put(&r);
    return fd;
}

int userdir_stat(const char *path, struct stat *st)
{
    userdir_ref r;
    if (userdir_get(&r, path, false, NULL, 0) != 0)
        return -1;
    int rc = fstatat(r.fd, r.name, st, r.below ? AT_SYMLINK_NOFOLLOW : 0);
    int e = errno;
    userdir_put(&r);
    errno = e;
    return rc;
}

int userdir_mkdir(const char *path, mode_t mode)
{
    userdir_ref r;
    if (userdir_get(&r, path, false, NULL, 0) != 0)
        return -1;
    int rc = mkdirat(r.fd, r.name, mode);
    int e = errno;
    userdir_put(&r);
    errno = e;
    return rc;
}

int userdir_remove(const char *path)
{
    userdir_ref r;
    if (userdir_get(&r, path, false, NULL, 0) != 0)
        return -1;
    int rc = unlinkat(r.fd, r.name, 0);
    if (rc != 0 && (errno == EISDIR || errno == EPERM)) /* a folder: remove(3) takes an empty one */
        rc = unlinkat(r.fd, r.name, AT_REMOVEDIR);
    int e = errno;
    userdir_put(&r);
    errno = e;
    return rc;
}

int userdir_rename(const char *from, const char *to)
{
    userdir_ref a, b;
    if (userdir_get(&a, from, false, NULL, 0) != 0)
        return -1;
    if (userdir_get(&b, to, false, NULL, 0) != 0) {
        int e = errno;
        userdir_put(&a);
        errno = e;
        return -1;
    }
    int rc = renameat(a.fd, a.name, b.fd, b.name); /* neither name is followed by rename itself */
    int e = errno;
    userdir_put(&a);
    userdir_put(&b);
    errno = e;
    return rc;
}

const char *userdir_why(int e)
{
    return why[0] && why_errno == e ? why : strerror(e);
}
