/* run_folder.c - workdir_: locks the work dir, stages the outputs, renames them into place. */
/* The renames happen under held signals. */
#define _GNU_SOURCE /* renameat2 */
#include "run_folder.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../base/json_reader.h"
#include "../base/outfile.h"
#include "../base/readall.h"
#include "../base/userdir.h"

/* rm -rf of name in the folder at at: a symbolic link is removed, never followed, and each folder is
 * opened with O_NOFOLLOW under the descriptor of its parent, so a link put in place of a folder while this
 * runs is removed as a link too. */
static void remove_tree_at(int at, const char *name)
{
    if (unlinkat(at, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
        return; /* a file or a link (gone), or nothing there */
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    /* the entries through getdents64 into a buffer on the stack, not readdir: the staging folder must go
     * also when a failed allocation is what ends the run (fdopendir allocates) */
    _Alignas(8) char buf[4096];
    long n;
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
        for (long off = 0; off < n;) {
            const struct {
                uint64_t ino;
                int64_t off;
                unsigned short reclen;
                unsigned char type;
                char name[];
            } *e = (const void *)(buf + off);
            if (strcmp(e->name, ".") != 0 && strcmp(e->name, "..") != 0)
                remove_tree_at(fd, e->name);
            off += e->reclen;
        }
    close(fd);
    unlinkat(at, name, AT_REMOVEDIR);
}

/* rm -rf path: a symlink is removed, never followed, nor one on the way below a folder the user named. */
static void remove_tree(const char *path)
{
    userdir_ref r;
    if (userdir_get(&r, path, false, NULL, 0) != 0)
        return; /* a link on the way: what lies past it is not ours */
    remove_tree_at(r.fd, r.name);
    userdir_put(&r);
}

/* rmdir path (an empty folder only), reached as userdir_open reaches it. 0, or -1. */
static int remove_empty(const char *path)
{
    userdir_ref r;
    if (userdir_get(&r, path, false, NULL, 0) != 0)
        return -1;
    int rc = unlinkat(r.fd, r.name, AT_REMOVEDIR);
    userdir_put(&r);
    return rc;
}

/* Opens the folder dir/rel (rel: components of a path under dir, "" = dir itself), each component with
 * O_NOFOLLOW: a symbolic link on the way is not entered. Returns the descriptor, or -1. */
static int open_under(const char *dir, const char *rel, size_t len)
{
    int fd = userdir_open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    char comp[256];
    size_t i = 0;
    while (fd >= 0 && i < len) {
        size_t n = strcspn(rel + i, "/");
        if (n > len - i)
            n = len - i;
        if (n == 0 || n >= sizeof(comp)) {
            i += n + 1;
            continue;
        }
        memcpy(comp, rel + i, n);
        comp[n] = '\0';
        int sub = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(fd);
        fd = sub;
        i += n + 1;
    }
    return fd;
}

static int inherited_lock = -1; /* workdir_inherit_lock's descriptor */

void workdir_inherit_lock(int fd)
{
    inherited_lock = fd;
}

/* fd, or a duplicate of the inherited lock's descriptor when both are the same folder (fd is then closed):
 * the lock the holder took is then this run's too. */
static int take_inherited(int fd)
{
    struct stat a, b;
    if (inherited_lock < 0 || fstat(fd, &a) != 0 || fstat(inherited_lock, &b) != 0 || a.st_dev != b.st_dev ||
        a.st_ino != b.st_ino)
        return fd;
    int dup = fcntl(inherited_lock, F_DUPFD_CLOEXEC, 0);
    if (dup < 0)
        return fd;
    close(fd);
    return dup;
}

int workdir_open(workdir *w, const char *dir, char *err, size_t errlen)
{
    memset(w, 0, sizeof(*w));
    w->lock_fd = -1;
    snprintf(w->dir, sizeof(w->dir), "%s", dir);
    snprintf(w->stage, sizeof(w->stage), "%s/%s", dir, WORKDIR_STAGE);
    /* how many trailing components of dir do not exist yet, for workdir_abort */
    char probe[4096];
    snprintf(probe, sizeof(probe), "%s", dir);
    struct stat st;
    while (probe[0] && userdir_stat(probe, &st) != 0) {
        w->made++;
        char *slash = strrchr(probe, '/');
        if (!slash)
            break;
        *slash = '\0';
    }
    char run[4200], dfx[4200]; /* what a run leaves (a session's folder has ptosim_run.json alone) */
    snprintf(run, sizeof(run), "%s/ptosim_run.json", dir);
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", dir);
    w->had_run = w->made == 0 && (lstat(run, &st) == 0 || lstat(dfx, &st) == 0);
    if (outfile_mkdirs(dir, err, errlen) != 0)
        return -1;
    int rc = 0;
    int fd = userdir_open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open the work dir: %s", dir, userdir_why(errno));
        return -1;
    }
    fd = take_inherited(fd);
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (e == EWOULDBLOCK) {
            close(fd);
            snprintf(
                err, errlen,
                "%s: another ptosim run is writing to this folder; wait for it to end or give another -o",
                dir);
            return -1;
        }
        close(fd); /* NFS without locks, say: go on, unprotected */
        fd = -1;
        snprintf(err, errlen, "%s: cannot lock the work dir (%s); do not let two runs write to it at once",
                 dir, strerror(e));
        rc = 1;
    }
    w->lock_fd = fd;
    remove_tree(w->stage); /* a run killed with SIGKILL left it */
    if (userdir_mkdir(w->stage, 0777) != 0) {
        snprintf(err, errlen, "%s: cannot create directory: %s", w->stage, strerror(errno));
        workdir_close(w);
        return -1;
    }
    return rc;
}

/* Removes dir/rel, or every match of its last component when that holds a '*'. The folder it lies in is
 * reached without following a link (open_under): a link there would lead to someone else's files. */
static void remove_old(const char *dir, const char *rel)
{
    const char *slash = strrchr(rel, '/');
    const char *base = slash ? slash + 1 : rel;
    int fd = open_under(dir, rel, slash ? (size_t)(slash - rel) : 0);
    if (fd < 0)
        return;
    if (!strchr(base, '*')) {
        if (unlinkat(fd, base, 0) != 0 && errno == EISDIR)
            unlinkat(fd, base, AT_REMOVEDIR); /* remove(): an empty folder goes too */
        close(fd);
        return;
    }
    int scan = dup(fd);
    DIR *d = scan >= 0 ? fdopendir(scan) : NULL;
    if (!d) {
        if (scan >= 0)
            close(scan);
        close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && fnmatch(base, e->d_name, 0) == 0 && unlinkat(fd, e->d_name, 0) != 0 &&
            errno == EISDIR)
            unlinkat(fd, e->d_name, AT_REMOVEDIR);
    closedir(d);
    close(fd);
}

/* Removes the folders of rel under dir that are left empty, innermost first (never dir itself). */
static void prune_parents(const char *dir, const char *rel)
{
    char sub[4096];
    snprintf(sub, sizeof(sub), "%s", rel);
    char *slash;
    while ((slash = strrchr(sub, '/')) != NULL) {
        *slash = '\0';
        char path[8200];
        snprintf(path, sizeof(path), "%s/%s", dir, sub);
        if (remove_empty(path) != 0)
            break; /* not empty (or not there): its parents are not either */
    }
}

/* Length of rel's first component when rel lies in a folder, else 0. */
static size_t top_len(const char *rel)
{
    const char *slash = strchr(rel, '/');
    return slash ? (size_t)(slash - rel) : 0;
}

/* Is rel inside one of the folders tops[0..ntops) (each a prefix of a new file's path)? */
static bool under(const char *rel, const char *const *tops, const size_t *lens, int ntops)
{
    for (int i = 0; i < ntops; i++)
        if (top_len(rel) == lens[i] && strncmp(rel, tops[i], lens[i]) == 0)
            return true;
    return false;
}

/* Puts the staged folder stage/top in the place of dir/top in one step: a crash leaves the old folder or
 * the new one. The old one ends in the staging folder, removed with it. Returns 0, or -1 with errno set. */
static int swap_in(const workdir *w, const char *top, size_t len)
{
    char from[8400], to[8400], aside[8400];
    snprintf(from, sizeof(from), "%s/%.*s", w->stage, (int)len, top);
    snprintf(to, sizeof(to), "%s/%.*s", w->dir, (int)len, top);
    struct stat st;
    if (userdir_stat(to, &st) != 0)
        return errno == ENOENT ? userdir_rename(from, to) : -1;
    userdir_ref a, b;
    if (userdir_get(&a, from, false, NULL, 0) != 0)
        return -1;
    if (userdir_get(&b, to, false, NULL, 0) != 0) {
        userdir_put(&a);
        return -1;
    }
    int rc = renameat2(a.fd, a.name, b.fd, b.name, RENAME_EXCHANGE), e = errno;
    userdir_put(&a);
    userdir_put(&b);
    errno = e;
    if (rc == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return -1;
    /* a file system without the exchange (some network ones): aside, then in; a crash between the two
     * renames leaves the old folder in the staging folder, where the next run removes it */
    snprintf(aside, sizeof(aside), "%s/%.*s.old", w->stage, (int)len, top);
    if (userdir_rename(to, aside) != 0)
        return -1;
    if (userdir_rename(from, to) == 0)
        return 0;
    e = errno;
    userdir_rename(aside, to); /* the old folder back: the commit failed and changed nothing */
    errno = e;
    return -1;
}

int workdir_commit(workdir *w, const char *const *old, int nold, const char *const *new_files, int nnew,
                   char *err, size_t errlen)
{
    /* the folders new files lie in (dfx_outputs/) are replaced whole, not file by file: nothing of the
     * previous run's survives in them, whatever its name */
    const char *tops[16];
    size_t lens[16];
    int ntops = 0;
    for (int i = 0; i < nnew; i++) {
        size_t len = top_len(new_files[i]);
        if (!len || under(new_files[i], tops, lens, ntops))
            continue;
        if (ntops == (int)(sizeof(tops) / sizeof(tops[0]))) {
            snprintf(err, errlen, "%s: more than %d output folders", w->dir, ntops);
            return -1;
        }
        tops[ntops] = new_files[i];
        lens[ntops++] = len;
        /* a file of that name is the user's, not a previous run's folder: it stays, and the run fails */
        char to[8400];
        struct stat st;
        snprintf(to, sizeof(to), "%s/%.*s", w->dir, (int)len, new_files[i]);
        if (userdir_stat(to, &st) == 0 && !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: not a directory", to);
            return -1;
        }
    }
    sigset_t held, prev;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &held, &prev);
    int rc = 0;
    for (int i = 0; i < ntops && rc == 0; i++)
        if (swap_in(w, tops[i], lens[i]) != 0) { /* same file system: only a folder changed under us */
            snprintf(err, errlen, "%s/%.*s: cannot move into place: %s%s", w->dir, (int)lens[i], tops[i],
                     strerror(errno), i ? " (the folder now holds part of this run)" : "");
            rc = i ? -2 : -1;
        }
    for (int i = 0; i < nold && rc == 0; i++)
        if (!under(old[i], tops, lens, ntops))
            remove_old(w->dir, old[i]);
    for (int i = 0; i < nnew && rc == 0; i++) {
        if (top_len(new_files[i]))
            continue; /* moved with its folder */
        char from[8400], to[8400];
        snprintf(from, sizeof(from), "%s/%s", w->stage, new_files[i]);
        snprintf(to, sizeof(to), "%s/%s", w->dir, new_files[i]);
        if (userdir_rename(from, to) != 0) {
            snprintf(err, errlen, "%s: cannot move into place: %s (the folder now holds part of this run)",
                     to, strerror(errno));
            rc = -2;
        }
    }
    for (int i = 0; i < nold && rc == 0; i++) /* folders of old files the new run did not fill */
        if (!under(old[i], tops, lens, ntops))
            prune_parents(w->dir, old[i]);
    if (rc != -1)
        remove_tree(w->stage); /* with the folders swapped out */
    pthread_sigmask(SIG_SETMASK, &prev, NULL);
    return rc;
}

void workdir_abort(workdir *w)
{
    remove_tree(w->stage);
    char path[4096];
    snprintf(path, sizeof(path), "%s", w->dir);
    for (int i = 0; i < w->made; i++) { /* only empty folders go: rmdir refuses the others */
        if (remove_empty(path) != 0)
            break;
        char *slash = strrchr(path, '/');
        if (!slash)
            break;
        *slash = '\0';
    }
    w->made = 0;
}

void workdir_left(const workdir *w, char *out, size_t n)
{
    if (w->had_run)
        snprintf(out, n, "%s keeps the previous run's outputs", w->dir);
    else
        snprintf(out, n, "nothing was written to %s", w->dir);
}

void workdir_remove_tree(const char *path)
{
    remove_tree(path);
}

void workdir_close(workdir *w)
{
    if (w->lock_fd >= 0)
        close(w->lock_fd);
    w->lock_fd = -1;
}

bool workdir_program_dir_name(const char *s)
{
    size_t d = strspn(s, "0123456789");
    return d > 0 && s[d] == '_' && s[d + 1] && !strchr(s, '/') && strlen(s) < 256;
}

void workdir_old_programs(const char *dir, workdir_programs *out)
{
    out->n = 0;
    char path[4200];
    snprintf(path, sizeof(path), "%s/ptosim_run.json", dir);
    FILE *f = readall_open(path); /* a FIFO would block the open; no link below the folder */
    if (!f)
        return;
    size_t len;
    char *text = readall(f, READALL_RUN, &len, NULL, 0);
    fclose(f);
    cJSON *j = text ? jsonl_parse(text, len, NULL) : NULL; /* strict, as every reader: else no programs */
    free(text);
    const cJSON *progs = cJSON_GetObjectItemCaseSensitive(j, "programs");
    if (cJSON_GetObjectItemCaseSensitive(j, "ptosim_worker") && cJSON_IsArray(progs)) {
        const cJSON *p;
        cJSON_ArrayForEach(p, progs)
        {
            const cJSON *d = cJSON_GetObjectItemCaseSensitive(p, "dir");
            if (out->n < WORKDIR_MAX_PROGRAMS && cJSON_IsString(d) &&
                workdir_program_dir_name(d->valuestring))
                snprintf(out->name[out->n++], sizeof(out->name[0]), "%s", d->valuestring);
        }
    }
    cJSON_Delete(j);
}

void workdir_drop_programs(const char *dir, const workdir_programs *old, const char *const *keep, int nkeep)
{
    for (int i = 0; i < old->n; i++) {
        bool kept = false;
        for (int k = 0; k < nkeep && !kept; k++)
            kept = strcmp(old->name[i], keep[k]) == 0;
        char path[4400], run[4500];
        snprintf(path, sizeof(path), "%s/%s", dir, old->name[i]);
        snprintf(run, sizeof(run), "%s/ptosim_run.json", path);
        struct stat st;
        if (!kept && userdir_stat(path, &st) == 0 && S_ISDIR(st.st_mode) && userdir_stat(run, &st) == 0)
            remove_tree(path);
    }
}
