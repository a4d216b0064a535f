/* task_slots.c - task_: task windows and producer links. */
#include "task_slots.h"

#include <stdlib.h>
#include <string.h>

int task_add_link(task *t, uint64_t producer, bool retain)
{
    for (uint32_t i = 0; i < t->nlinks; i++) {
        task_link *l = task_link_at(t, i);
        if (l->producer == producer) {
            l->retain |= retain;
            return 0;
        }
    }
    if (t->nlinks >= TASK_FANIN_INLINE) {
        uint32_t extra = t->nlinks - TASK_FANIN_INLINE;
        if (extra == t->links_more_cap) {
            uint32_t ncap = t->links_more_cap ? t->links_more_cap * 2 : 8;
            task_link *nl = realloc(t->links_more, ncap * sizeof(*nl));
            if (!nl)
                return -1;
            t->links_more = nl;
            t->links_more_cap = ncap;
        }
    }
    task_link *l = task_link_at(t, t->nlinks++);
    l->producer = producer;
    l->retain = retain;
    return 1;
}

void task_clear_links(task *t)
{
    free(t->links_more);
    t->links_more = NULL;
    t->links_more_cap = 0;
    t->nlinks = 0;
}

int task_ring_init(task_ring *r, uint32_t window)
{
    memset(r, 0, sizeof(*r));
    r->window = window;
    /* calloc: untouched slots cost no memory until the ring reaches them */
    r->slots = calloc(window, sizeof(*r->slots));
    return r->slots ? 0 : -1;
}

void task_ring_free(task_ring *r)
{
    /* slots never handed out are calloc's untouched pages: reading them would fault them in */
    if (r->slots)
        for (uint32_t i = 0; i < r->touched; i++)
            free(r->slots[i].links_more);
    free(r->slots);
    memset(r, 0, sizeof(*r));
}
