/* run_folder.h - workdir_: a run's output folder as one unit, swapped in whole or not at all. */
/* Locked while a run writes it and filled in a staging folder. */
#ifndef PTOSIM_RUN_FOLDER_H
#define PTOSIM_RUN_FOLDER_H

#include <stdbool.h>
#include <stddef.h>

#define WORKDIR_STAGE ".ptosim-run" /* the staging folder's name inside the work dir */

/* A work dir held by this process. */
typedef struct workdir {
    char dir[4096];   /* the work dir (-o) */
    char stage[4200]; /* dir/WORKDIR_STAGE: where the run writes until it commits */
    int lock_fd;      /* dir, open with an exclusive flock held; -1 = not locked */
    int made;         /* folders of dir's path workdir_open created (0: dir was there) */
    bool had_run;     /* dir held a run's files (ptosim_run.json or dfx_outputs/) when it was opened */
} workdir;

/* Creates dir if needed, locks it against other ptosim runs (a flock on the
 * folder itself: nothing is left behind, and a killed run's lock goes with
 * it), and makes an empty staging folder (removing one a killed run left).
 * Returns 0; 1 when the folder cannot be locked on this file system (the run
 * goes on, unprotected; err says why); -1 with a message in err when another
 * run holds the lock or the folder cannot be made. */
int workdir_open(workdir *w, const char *dir, char *err, size_t errlen);

/* What a failed run leaves in w's folder, in words for its message: "DIR keeps the previous run's
 * outputs" when the folder held a run's files, else "nothing was written to DIR" (a folder the run created
 * is gone again after workdir_abort; one that was there holds what it held). */
void workdir_left(const workdir *w, char *out, size_t n);

/* A lock on a work dir handed to this process (`ptosim conform` holds its folder's for the whole
 * comparison and runs `ptosim run` into it): workdir_open of that same folder takes its lock through fd,
 * the holder's own open file, instead of opening the folder anew, which the holder's lock would refuse.
 * Any other folder is locked as ever; fd is only used, never closed. */
void workdir_inherit_lock(int fd);

/* Puts the run's outputs in place, with SIGINT and SIGTERM held back
 * throughout: each folder the `new` files lie in (paths relative to dir:
 * dfx_outputs/) replaces dir's folder of that name whole, in one rename
 * (an exchange: a crash leaves the old folder or the new one, and nothing
 * of the old survives); then what `old` names outside those folders goes (a
 * '*' in the last component matches as in a shell), the new top-level files
 * are renamed in, and the staging folder is removed with the old folders.
 * Returns 0; -1 with a message in err when the first folder cannot be
 * swapped in (nothing changed); -2 when a rename failed midway (the folder
 * holds part of each run: only a folder changed under the run gets there). */
int workdir_commit(workdir *w, const char *const *old, int nold, const char *const *new_files, int nnew,
                   char *err, size_t errlen);

#define WORKDIR_MAX_PROGRAMS 64 /* WORKER_MAX_PROGRAMS */

/* The program folders ("N_name") a session of several programs left in a work dir. */
typedef struct workdir_programs {
    int n;
    char name[WORKDIR_MAX_PROGRAMS][256];
} workdir_programs;

/* Is s a name a session gives a program's folder, "N_name": digits, '_', then
 * no '/' (so "", ".", ".." and "../x" are not: nothing outside the work dir)? */
bool workdir_program_dir_name(const char *s);

/* The folders dir/ptosim_run.json lists when a session of several programs
 * wrote it (its programs[].dir); none when that file is a single run's, is
 * missing or cannot be read. Read before a run replaces the file. */
void workdir_old_programs(const char *dir, workdir_programs *out);

/* Once a later run or session is in place: removes each of old's folders
 * from dir, but those named in keep (nkeep names), when it is still a
 * folder holding a ptosim_run.json. What is left of dir is then the newer
 * run's alone. */
void workdir_drop_programs(const char *dir, const workdir_programs *old, const char *const *keep, int nkeep);

/* Removes the staging folder and what is in it: dir keeps what it had, and
 * the folders workdir_open made for it go again when they are empty. */
void workdir_abort(workdir *w);

/* Releases the lock. */
void workdir_close(workdir *w);

/* rm -rf path, as the staging folder goes: a link is removed, never followed (a scratch folder ptosim made,
 * such as `ptosim whatif`'s levers' run folders). */
void workdir_remove_tree(const char *path);

#endif
