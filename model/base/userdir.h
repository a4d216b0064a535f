/* userdir.h - userdir_: the folders the user named, below which no symbolic link is followed. */
/* Every path below one is reached a level at a time from the folder above, O_NOFOLLOW. */
#ifndef PTOSIM_USERDIR_H
#define PTOSIM_USERDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define USERDIR_MAX 16 /* folders named at once: run, sweep, report, import, conform name one or two */

/* What a link refused below a named folder is told: "PATH: is a symbolic link, ..." */
#define USERDIR_LINK_WHY "is a symbolic link, which ptosim did not make and does not follow; remove it"

/* Names dir (as the program spells the paths below it: "out/s", or the absolute form) as a folder the user
 * gave: dir itself is resolved as ever (a link there is followed, as asked), but nothing below it is.
 * Call it before any thread starts: the list is read without a lock. Returns 0, or -1 when the list is
 * full or dir too long (nothing is below it then: paths under it resolve as ever). */
int userdir_add(const char *dir);

/* Forgets every folder named (tests). */
void userdir_reset(void);

/* A path resolved for one operation: the folder its last component lies in, and that component. */
typedef struct userdir_ref {
    int fd;          /* the folder, opened a level at a time without following a link; AT_FDCWD when the
                      * path lies below no named folder (name is then the whole path, resolved as ever) */
    bool below;      /* the path lies below a named folder: its last component is not followed either */
    char name[4200]; /* the last component (below), else the path */
} userdir_ref;

/* Resolves path for one operation: below a named folder, each folder on the way is opened with
 * O_NOFOLLOW from the one above (and made when missing, with make). Returns 0, or -1 with errno set and
 * a message in err: "PATH: is a symbolic link, ..." for a link on the way (errno ELOOP), "PATH: not a
 * directory" for a file there (ENOTDIR), "PATH: STRERROR" otherwise, PATH the path up to what failed.
 * userdir_put releases r. */
int userdir_get(userdir_ref *r, const char *path, bool make, char *err, size_t errlen);
void userdir_put(userdir_ref *r);

/* open(2) of path, through userdir_get: below a named folder the last component is opened with
 * O_NOFOLLOW too (a link there: -1, errno ELOOP). -1 with errno set; userdir_why says why in words. */
int userdir_open(const char *path, int flags, mode_t mode);

/* lstat(2) of path below a named folder (a link there is reported as one), stat(2) elsewhere, as
 * userdir_open resolves it. 0, or -1 with errno set. */
int userdir_stat(const char *path, struct stat *st);

/* mkdir(2) of path, as userdir_open resolves it. 0, or -1 with errno set. */
int userdir_mkdir(const char *path, mode_t mode);

/* Removes the file (or empty folder) path, as remove(3) but resolved as userdir_open does: a link
 * there goes as a link. 0, or -1 with errno set. */
int userdir_remove(const char *path);

/* rename(2) of from to to, both resolved as userdir_open does (a link at to is replaced, never
 * followed). 0, or -1 with errno set. */
int userdir_rename(const char *from, const char *to);

/* Why the last userdir_ call on this thread failed with errno e: the link or folder it stopped at
 * ("DIR/points: is a symbolic link, which ptosim did not make and does not follow; remove it"), or
 * strerror(e) when it failed otherwise. */
const char *userdir_why(int e);

#endif
