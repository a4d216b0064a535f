/* workdir.c - lock the work dir, stage the outputs beside it, rename them into place under held signals. */
#include "workdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* rm -rf path: a symlink is removed, never followed. */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char sub[4400];
                int n = snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
                if (n > 0 && (size_t)n < sizeof(sub)) /* a cut path could name something else */
                    remove_tree(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
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
    while (probe[0] && stat(probe, &st) != 0) {
        w->made++;
        char *slash = strrchr(probe, '/');
        if (!slash)
            break;
        *slash = '\0';
    }
    if (outfile_mkdirs(dir, err, errlen) != 0)
        return -1;
    int rc = 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open the work dir: %s", dir, strerror(errno));
        return -1;
    }
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
    if (mkdir(w->stage, 0777) != 0) {
        snprintf(err, errlen, "%s: cannot create directory: %s", w->stage, strerror(errno));
        workdir_close(w);
        return -1;
    }
    return rc;
}

/* Removes dir/rel, or every match of its last component when that holds a '*'. */
static void remove_old(const char *dir, const char *rel)
{
    char path[4700];
    const char *slash = strrchr(rel, '/');
    const char *base = slash ? slash + 1 : rel;
    if (!strchr(base, '*')) {
        snprintf(path, sizeof(path), "%s/%s", dir, rel);
        remove(path);
        return;
    }
    char parent[4400];
    snprintf(parent, sizeof(parent), "%s/%.*s", dir, slash ? (int)(slash - rel) : 0, rel);
    DIR *d = opendir(parent);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && fnmatch(base, e->d_name, 0) == 0) {
            int n = snprintf(path, sizeof(path), "%s/%s", parent, e->d_name);
            if (n > 0 && (size_t)n < sizeof(path))
                remove(path);
        }
    closedir(d);
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
        if (rmdir(path) != 0)
            break; /* not empty (or not there): its parents are not either */
    }
}

/* The folder of dir/rel into out. */
static void parent_of(const char *dir, const char *rel, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", dir, rel);
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
}

int workdir_commit(workdir *w, const char *const *old, int nold, const char *const *new_files, int nnew,
                   char *err, size_t errlen)
{
    /* every folder the new files go to first: a failure here changes nothing */
    for (int i = 0; i < nnew; i++) {
        char parent[8400];
        parent_of(w->dir, new_files[i], parent, sizeof(parent));
        if (outfile_mkdirs(parent, err, errlen) != 0)
            return -1;
    }
    sigset_t held, prev;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &held, &prev);
    int rc = 0;
    for (int i = 0; i < nold; i++)
        remove_old(w->dir, old[i]);
    for (int i = 0; i < nnew && rc == 0; i++) {
        char from[8400], to[8400];
        snprintf(from, sizeof(from), "%s/%s", w->stage, new_files[i]);
        snprintf(to, sizeof(to), "%s/%s", w->dir, new_files[i]);
        if (rename(from, to) != 0) { /* same file system: only a folder changed under us gets here */
            snprintf(err, errlen, "%s: cannot move into place: %s (the folder now holds part of this run)",
                     to, strerror(errno));
            rc = -2;
        }
    }
    for (int i = 0; i < nold; i++) /* folders of old files the new run did not fill */
        prune_parents(w->dir, old[i]);
    remove_tree(w->stage);
    pthread_sigmask(SIG_SETMASK, &prev, NULL);
    return rc;
}

void workdir_abort(workdir *w)
{
    remove_tree(w->stage);
    char path[4096];
    snprintf(path, sizeof(path), "%s", w->dir);
    for (int i = 0; i < w->made; i++) { /* only empty folders go: rmdir refuses the others */
        if (rmdir(path) != 0)
            break;
        char *slash = strrchr(path, '/');
        if (!slash)
            break;
        *slash = '\0';
    }
    w->made = 0;
}

void workdir_close(workdir *w)
{
    if (w->lock_fd >= 0)
        close(w->lock_fd);
    w->lock_fd = -1;
}
