/* nolock.c - preloaded into ptosim by tests (LD_PRELOAD): every flock() fails with ENOLCK. */
/* As on a file system without locks (NFS without its lock daemon), which no test machine is sure to have.
 * The only way to reach ptosim's "cannot lock" warnings from outside the process. */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/file.h>

int flock(int fd, int op)
{
    (void)fd;
    (void)op;
    errno = ENOLCK;
    return -1;
}
