/* import_state.c - imp_: failing and notes for every import step, reading a capture's file, a buffer. */
#include "import_state.h"

#include <cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/json_reader.h"
#include "../../model/base/outfile.h"
#include "../../model/base/msg_text.h"
#include "../../model/base/readall.h"
#include "../../model/base/vec.h"

int imp_fail(importer *im, const char *file, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(im->err, im->errlen, "%s/%s: %s", im->dir, file, msg);
    msgtext_fix(im->err, im->errlen); /* names and values from the capture */
    return -1;
}

int imp_oom(importer *im)
{
    snprintf(im->err, im->errlen, "out of memory");
    return -1;
}

void imp_note(importer *im, const char *fmt, ...)
{
    if (!im->warn || im->notes++ >= IMPORT_MAX_NOTES)
        return;
    fputs("ptosim: note: ", im->warn);
    va_list ap;
    va_start(ap, fmt);
    msgtext_vprint(im->warn, fmt, ap); /* names from the capture */
    va_end(ap);
}

/* Reads a whole file of kind; NULL when it cannot (errno set: ENOENT when it does not exist; EFBIG past the
 * kind's cap, with the message in im->err). */
char *imp_slurp(importer *im, const char *name, readall_kind kind, size_t *len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", im->dir, name);
    FILE *f = readall_open(path); /* a FIFO or a device (/dev/zero) is refused, not read without end */
    if (!f)
        return NULL;
    char why[128];
    char *buf = readall(f, kind, len, why, sizeof(why));
    int e = errno;
    fclose(f);
    if (!buf && e == EFBIG)
        imp_fail(im, name, "cannot read: %s", why);
    errno = e;
    return buf;
}

/* Parses len bytes of text from file strictly (jsonl_parse: a duplicate key,
 * bad UTF-8 or an out-of-range number is an error, as in a graph); NULL with
 * jsonl_message's "DIR/FILE:LINE:COL: FIELD: WHAT" in im->err (line > 0: the
 * text is that line of a JSON Lines file). */
cJSON *imp_parse_json(importer *im, const char *file, const char *text, size_t len, long line)
{
    jsonl_error je;
    cJSON *root = jsonl_parse(text, len, &je);
    if (root)
        return root;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/%s", im->dir, file);
    jsonl_message(im->err, im->errlen, path, text, &je, line);
    return NULL;
}

#define BLOCK_SIZE ((size_t)1 << 20) /* small lists are carved from blocks of this size */

/* n bytes (16-byte aligned) from the importer's blocks; one past a quarter block gets a block of its own. */
static void *block_alloc(importer *im, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    bool own = n > BLOCK_SIZE / 4;
    if (!own && im->block && im->block_used + n <= im->block_size) {
        void *p = im->block + im->block_used;
        im->block_used += n;
        return p;
    }
    if (vec_grow((void **)&im->blocks, &im->blockcap, im->nblocks, sizeof(*im->blocks)) != 0)
        return NULL;
    char *b = malloc(own ? n : BLOCK_SIZE);
    if (!b)
        return NULL;
    im->blocks[im->nblocks++] = b;
    if (own)
        return b;
    im->block = b;
    im->block_size = BLOCK_SIZE;
    im->block_used = n;
    return b;
}

int imp_grow(importer *im, void **buf, size_t *cap, size_t len, size_t elem, size_t first)
{
    if (len < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : first;
    if (ncap > SIZE_MAX / 2 / elem)
        return -1;
    void *nb = block_alloc(im, ncap * elem);
    if (!nb)
        return -1;
    if (len)
        memcpy(nb, *buf, len * elem); /* the old list stays in its block, freed with the rest */
    *buf = nb;
    *cap = ncap;
    return 0;
}

void imp_free_blocks(importer *im)
{
    for (size_t i = 0; i < im->nblocks; i++)
        free(im->blocks[i]);
    free(im->blocks);
    im->blocks = NULL;
    im->block = NULL;
    im->nblocks = im->blockcap = im->block_used = im->block_size = 0;
}

int imp_add_buf(importer *im, imp_buf b)
{
    if (vec_grow((void **)&im->bufs, &im->bufcap, im->nbufs, sizeof(*im->bufs)) != 0)
        return -1;
    im->bufs[im->nbufs] = b;
    return (int)im->nbufs++;
}

void imp_put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            outfile_printf(f, "\\%c", c);
        else if (c < 0x20)
            outfile_printf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}
