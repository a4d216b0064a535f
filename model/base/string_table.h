/* string_table.h - strtab_: string to small-integer slot map, for tensor names and task labels. */
#ifndef PTOSIM_STRING_TABLE_H
#define PTOSIM_STRING_TABLE_H

#include <stddef.h>

/* Maps each distinct string to a dense slot number 0, 1, 2, ... in first-seen
 * order. Memory grows with the number of distinct strings, never with how
 * often they are used, which keeps streamed graphs bounded when loop bodies
 * reuse their names. */
typedef struct strtab {
    char **keys;     /* keys[slot]: owned copy of the string */
    size_t count;    /* slots handed out */
    size_t keys_cap; /* allocated entries of keys */
    int *index;      /* hash buckets: slot + 1, 0 = empty */
    size_t nbuckets; /* power of two */
} strtab;

/* Initialises an empty table. */
void strtab_init(strtab *t);

/* Frees the table and its keys. */
void strtab_free(strtab *t);

/* Slot of s, or -1 if absent. */
int strtab_find(const strtab *t, const char *s);

/* Slot of s, adding it if absent. Returns -1 when out of memory. */
int strtab_intern(strtab *t, const char *s);

/* The string of a slot. */
static inline const char *strtab_key(const strtab *t, int slot)
{
    return t->keys[slot];
}

#endif
