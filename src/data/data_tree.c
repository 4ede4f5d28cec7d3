/* data_tree.c: a site's execution tree over tuples and its complement nodes (Li and Csallner, section 4.3). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "data_int.h"

static dnode *child(dnode *n, uint32_t bsite, uint32_t arg, uint8_t dir)
{
    for (dnode *k = n->kids; k; k = k->next)
        if (k->bsite == bsite && k->arg == arg && k->dir == dir) return k;
    return NULL;
}

static dnode *add_child(dnode *n, uint32_t bsite, uint32_t arg, uint8_t dir, char *cond, const char *why)
{
    dnode *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->parent = n;
    k->bsite = bsite;
    k->arg = arg;
    k->dir = dir;
    k->cond = cond;
    k->why = cond ? NULL : why;
    k->next = n->kids;
    n->kids = k;
    return k;
}

int dtree_insert(dsite *s, const sym_event *const *ev, char *const *sql, const char *const *why, size_t n)
{
    dnode *cur = &s->root;
    cur->tuples++;
    int fresh = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t dir = ev[i]->taken ? 1 : 0;
        dnode *k = child(cur, ev[i]->site, ev[i]->arg, dir);
        if (k && !k->explored) { /* a complement node reached: a new path */
            k->explored = true;
            fresh++;
            if (!k->cond && sql[i]) { /* keep the condition as this run expressed it */
                k->cond = strdup(sql[i]);
                k->why = NULL;
            }
        } else if (!k) {
            k = add_child(cur, ev[i]->site, ev[i]->arg, dir, sql[i] ? strdup(sql[i]) : NULL,
                          why[i] ? why[i] : "not expressible in SQL");
            if (!k) return -1;
            k->explored = true;
        }
        /* the other direction: a complement node when no tuple took it yet */
        if (!child(cur, ev[i]->site, ev[i]->arg, !dir)) {
            char *neg = NULL;
            if (sql[i] && !strncmp(sql[i], "NOT ", 4))
                neg = strdup(sql[i] + 4);
            else if (sql[i] && asprintf(&neg, "NOT %s", sql[i]) < 0)
                neg = NULL;
            dnode *c = add_child(cur, ev[i]->site, ev[i]->arg, !dir, neg, why[i] ? why[i] : "not expressible in SQL");
            if (!c) return -1;
            if (!neg) c->state = DN_NOT_SQL;
        }
        k->tuples++;
        cur = k;
    }
    cur->ends++;
    return fresh;
}

char *dtree_path_sql(const dnode *n, unsigned *dropped)
{
    strbuf b = STRBUF_INIT;
    unsigned d = 0;
    for (; n && n->parent; n = n->parent) {
        if (!n->cond) {
            d++;
            continue;
        }
        if (b.len) sb_puts(&b, " AND ");
        sb_puts(&b, n->cond);
    }
    if (dropped) *dropped = d;
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s ? b.s : strdup("");
}

static uint32_t count_open(dnode *n)
{
    uint32_t c = 0;
    for (dnode *k = n->kids; k; k = k->next) c += k->explored ? count_open(k) : k->state == DN_OPEN;
    n->open_below = c;
    return c;
}

void dtree_count_open(dnode *root) { count_open(root); }

uint32_t dtree_paths(const dnode *n)
{
    uint32_t c = n->ends > 0;
    for (const dnode *k = n->kids; k; k = k->next)
        if (k->explored) c += dtree_paths(k);
    return c;
}

void dtree_walk(dnode *n, void (*f)(dnode *, void *), void *ctx)
{
    f(n, ctx);
    for (dnode *k = n->kids; k; k = k->next) dtree_walk(k, f, ctx);
}

void dtree_free(dnode *root)
{
    dnode *k = root->kids;
    while (k) {
        dnode *nx = k->next;
        dtree_free(k);
        free(k->cond);
        free(k);
        k = nx;
    }
    root->kids = NULL;
}
