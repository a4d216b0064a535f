/* failalloc.c - the allocation-failure walk's injector (tests/test_oom.c), preloaded with LD_PRELOAD. */
/* Once main() has started it counts every malloc/calloc/realloc/posix_memalign/aligned_alloc by
 * who called it, and makes the FAILALLOC_N-th call of class FAILALLOC_CLASS return NULL (ENOMEM).
 *
 * Classes, by the object the caller's code lies in: "own" is ptosim's executable and the C libraries it
 * calls (libc, cJSON, zlib: an allocation glibc's fopen or vfprintf makes is ptosim's to handle); "lib" is
 * everything else (SimGrid, libstdc++, Boost). FAILALLOC_N=0 only counts. FAILALLOC_SYM=NAME instead fails
 * the first call made from the exported function NAME (glibc's __libc_scratch_buffer_grow_preserve, which
 * vfprintf calls for a format with many conversions). At exit it writes
 * "own N lib M" to FAILALLOC_LOG, and "failed CLASS N at OBJECT+OFFSET (SYMBOL)" when it failed one.
 *
 * The real allocator is the next one after this library (glibc's, or ASan's in the sanitized build), found
 * with dlsym(RTLD_NEXT); dlsym's own allocations while it looks are served from a small static arena. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void *(*malloc_f)(size_t);
typedef void *(*calloc_f)(size_t, size_t);
typedef void *(*realloc_f)(void *, size_t);
typedef void (*free_f)(void *);
typedef int (*memalign_f)(void **, size_t, size_t);
typedef void *(*aligned_f)(size_t, size_t);

static malloc_f real_malloc;
static calloc_f real_calloc;
static realloc_f real_realloc;
static free_f real_free;
static memalign_f real_memalign;
static aligned_f real_aligned;

static _Alignas(16) char arena[65536]; /* dlsym's allocations before the real allocator is known */
static size_t arena_used;
static atomic_int resolving;

static atomic_long counts[2]; /* own, lib */
static long target = -1;      /* the call to fail, 1-based; -1 none */
static int target_class;      /* 0 own, 1 lib */
static atomic_int active;     /* main() has started */
static atomic_int failed;     /* the target was failed */
static int logfd = -1;
static const char *fail_sym; /* FAILALLOC_SYM */

static bool in_arena(const void *p)
{
    return (const char *)p >= arena && (const char *)p < arena + sizeof(arena);
}

static void *arena_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (arena_used + n > sizeof(arena))
        return NULL;
    void *p = arena + arena_used;
    arena_used += n;
    return p;
}

static void resolve(void)
{
    if (real_malloc)
        return;
    atomic_store(&resolving, 1);
    real_calloc = (calloc_f)dlsym(RTLD_NEXT, "calloc");
    real_malloc = (malloc_f)dlsym(RTLD_NEXT, "malloc");
    real_realloc = (realloc_f)dlsym(RTLD_NEXT, "realloc");
    real_free = (free_f)dlsym(RTLD_NEXT, "free");
    real_memalign = (memalign_f)dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned = (aligned_f)dlsym(RTLD_NEXT, "aligned_alloc");
    atomic_store(&resolving, 0);
}

static void logmsg(const char *fmt, ...)
{
    if (logfd < 0)
        return;
    char b[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b, sizeof(b), fmt, ap);
    va_end(ap);
    if (n > 0) {
        ssize_t w = write(logfd, b, (size_t)n < sizeof(b) ? (size_t)n : sizeof(b) - 1);
        (void)w;
    }
}

static _Thread_local int busy;    /* dladdr may allocate: not counted */
static _Thread_local int started; /* a thread's own code has begun (the main thread: main) */
static _Thread_local int loading; /* inside dlopen: see below */

/* A new thread's allocations count from its start routine on: before it, ASan's thread start (in the
 * sanitized build) allocates and stops the process with a CHECK when it cannot, which is the sanitizer's
 * failure, not ptosim's. */
typedef struct start_arg {
    void *(*fn)(void *);
    void *arg;
} start_arg;

static void *thread_start(void *p)
{
    start_arg a = *(start_arg *)p;
    free(p);
    started = 1;
    return a.fn(a.arg);
}

typedef int (*create_f)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    create_f real = (create_f)dlsym(RTLD_NEXT, "pthread_create");
    start_arg *a = malloc(sizeof(*a));
    if (!a)
        return EAGAIN;
    a->fn = fn;
    a->arg = arg;
    int rc = real(t, attr, thread_start, a);
    if (rc != 0)
        free(a);
    return rc;
}

/* ptosim loads SimGrid with dlopen when it first simulates: what the loader and SimGrid's static constructors
 * allocate then is what process start allocated when SimGrid was linked, and is not walked either (a failure
 * there ends the run before it has touched anything: "cannot load SimGrid", or the C++ runtime's abort). */
void *dlopen(const char *file, int mode);

void *dlopen(const char *file, int mode)
{
    typedef void *(*dlopen_f)(const char *, int);
    dlopen_f real = (dlopen_f)dlsym(RTLD_NEXT, "dlopen");
    loading++;
    void *h = real(file, mode);
    loading--;
    return h;
}

/* Does this call fail? Counts it in its caller's class. */
static bool should_fail(void *caller)
{
    if (!atomic_load(&active) || busy || !started || loading)
        return false;
    busy = 1;
    Dl_info di;
    memset(&di, 0, sizeof(di));
    int cls = 1;
    if (dladdr(caller, &di) && di.dli_fname) {
        const char *base = strrchr(di.dli_fname, '/');
        base = base ? base + 1 : di.dli_fname;
        if (strncmp(base, "ld-linux", 8) == 0) { /* the loader's memory for a dlopen'd library's thread-local
                                                  * data, set aside at process start for a linked one */
            busy = 0;
            return false;
        }
        cls = strncmp(base, "ptosim", 6) == 0 || strncmp(base, "libc.so", 7) == 0 ||
                      strncmp(base, "libcjson", 8) == 0 || strncmp(base, "libz.so", 7) == 0
                  ? 0
                  : 1;
    }
    long c = atomic_fetch_add(&counts[cls], 1) + 1;
    bool fail = fail_sym ? di.dli_sname && strcmp(di.dli_sname, fail_sym) == 0 && !atomic_exchange(&failed, 1)
                         : cls == target_class && c == target && !atomic_exchange(&failed, 1);
    if (fail)
        logmsg("failed %s %ld at %s+0x%lx (%s)\n", cls ? "lib" : "own", c, di.dli_fname ? di.dli_fname : "?",
               (unsigned long)((char *)caller - (char *)di.dli_fbase), di.dli_sname ? di.dli_sname : "?");
    busy = 0;
    return fail;
}

void *malloc(size_t n)
{
    if (atomic_load(&resolving))
        return arena_alloc(n);
    resolve();
    if (should_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_malloc(n);
}

void *calloc(size_t a, size_t b)
{
    if (atomic_load(&resolving)) {
        void *p = b && a > SIZE_MAX / b ? NULL : arena_alloc(a * b);
        return p; /* the arena is zeroed and never reused */
    }
    resolve();
    if (should_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
    resolve();
    if (in_arena(p)) { /* never happens in practice: dlsym frees what it allocates */
        void *q = real_malloc(n);
        if (q)
            memcpy(q, p, n);
        return q;
    }
    if (should_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_realloc(p, n);
}

void free(void *p)
{
    if (!p || in_arena(p))
        return;
    resolve();
    real_free(p);
}

int posix_memalign(void **p, size_t al, size_t n)
{
    resolve();
    if (should_fail(__builtin_return_address(0)))
        return ENOMEM;
    return real_memalign(p, al, n);
}

void *aligned_alloc(size_t al, size_t n)
{
    resolve();
    if (should_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_aligned(al, n);
}

static void at_end(void)
{
    logmsg("own %ld lib %ld\n", (long)atomic_load(&counts[0]), (long)atomic_load(&counts[1]));
}

typedef int (*main_t)(int, char **, char **);
static main_t real_main;

static int wrap_main(int argc, char **argv, char **envp)
{
    const char *t = getenv("FAILALLOC_N"), *cls = getenv("FAILALLOC_CLASS"), *l = getenv("FAILALLOC_LOG");
    target = t ? atol(t) : 0;
    if (target <= 0)
        target = -1;
    target_class = cls && strcmp(cls, "lib") == 0;
    fail_sym = getenv("FAILALLOC_SYM");
    if (l)
        logfd = open(l, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    atexit(at_end);
    started = 1;
    atomic_store(&active, 1);
    return real_main(argc, argv, envp);
}

typedef int (*start_f)(main_t, int, char **, void (*)(void), void (*)(void), void (*)(void), void *);
int __libc_start_main(main_t m, int argc, char **argv, void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end);

int __libc_start_main(main_t m, int argc, char **argv, void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end)
{
    start_f real = (start_f)dlsym(RTLD_NEXT, "__libc_start_main");
    real_main = m;
    return real(wrap_main, argc, argv, init, fini, rtld_fini, stack_end);
}
