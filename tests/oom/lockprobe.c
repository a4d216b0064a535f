/* lockprobe.c - preloaded into ptosim conform by a test (LD_PRELOAD): is its work dir locked at its run? */
/* When it starts the run (execv in the child) and when the run has ended (waitpid), a fresh open of the
 * folder $LOCKPROBE_DIR tries the lock another conform would take, and "exec held" or "exec free" (then
 * "wait ...") is appended to $LOCKPROBE_OUT. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void probe(const char *when)
{
    const char *dir = getenv("LOCKPROBE_DIR"), *out = getenv("LOCKPROBE_OUT");
    if (!dir || !out)
        return;
    const char *state = "unknown";
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            state = "free";
        else if (errno == EWOULDBLOCK)
            state = "held";
        close(fd); /* a lock it took goes with it */
    }
    FILE *f = fopen(out, "a");
    if (f) {
        fprintf(f, "%s %s\n", when, state);
        fclose(f);
    }
}

int execv(const char *path, char *const argv[])
{
    static int (*real)(const char *, char *const[]);
    if (!real)
        real = (int (*)(const char *, char *const[]))dlsym(RTLD_NEXT, "execv");
    probe("exec");
    unsetenv("LOCKPROBE_DIR"); /* the run it starts probes nothing */
    return real(path, argv);
}

pid_t waitpid(pid_t pid, int *status, int options)
{
    static pid_t (*real)(pid_t, int *, int);
    if (!real)
        real = (pid_t(*)(pid_t, int *, int))dlsym(RTLD_NEXT, "waitpid");
    pid_t r = real(pid, status, options);
    if (r > 0)
        probe("wait");
    return r;
}
