/* outfile.c - atomic output files, unnamed temporary files and directory creation. */
#define _GNU_SOURCE /* mkostemp */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTFILE_BUF (1 << 20)

FILE *outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    snprintf(o->path, sizeof(o->path), "%s", path);
    snprintf(o->tmp, sizeof(o->tmp), "%s.tmp", path);
    o->f = fopen(o->tmp, "wb");
    if (!o->f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return NULL;
    }
    o->buf = malloc(OUTFILE_BUF);
    if (o->buf)
        setvbuf(o->f, o->buf, _IOFBF, OUTFILE_BUF);
    /* one thread writes each file: stdio's per-call lock is a fifth of an all-DFX run */
    __fsetlocking(o->f, FSETLOCKING_BYCALLER);
    return o->f;
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
    int bad = ferror(o->f);
    if (fclose(o->f) != 0)
        bad = 1;
    o->f = NULL;
    free(o->buf);
    o->buf = NULL;
    if (bad || rename(o->tmp, o->path) != 0) {
        snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(errno));
        remove(o->tmp);
        return -1;
    }
    return 0;
}

void outfile_abort(outfile *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    free(o->buf);
    o->buf = NULL;
    remove(o->tmp);
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

int outfile_mkdirs(const char *dir, char *err, size_t errlen)
{
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
