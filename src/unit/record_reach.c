/* record_reach.c: drops the objects of a record no parameter, global, result or stand-in reaches (lazily NULL pointers' objects, their producers' calls). */
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* Index of the object a pointer value ("ID", "ID[K]") names, or -1. */
static long target(const unit_record *r, const ur_value *v)
{
    if (v->kind != 'p' || !v->text) return -1;
    int id = atoi(v->text);
    if (id <= 0) return -1;
    for (size_t i = 0; i < r->nobjs; i++)
        if (r->objs[i].id == id) return (long)i;
    return -1;
}

/*
 * The harness builds the object behind every pointer before the call, also when the run then
 * makes the pointer NULL (lazy NULL, sympu_lazy_null): such an object, and what only it points
 * to, is in the record but in no test. Marked from the roots (parameters, globals, the result,
 * stand-ins' results and output objects, walk lines and callback arguments naming an input
 * object, the objects producers' calls built and their arguments) along the pointer values before and after the call; the others are removed with
 * their entries.
 */
/* Whether object id is a parameter whose value before the call is NULL (lazily: its construction is moot). */
static int null_param(const unit_record *r, int id)
{
    int param = 0;
    for (size_t i = 0; i < r->nobjs; i++)
        if (r->objs[i].id == id) param = r->objs[i].param;
    for (size_t j = 0; param && j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj == id && !*e->suffix) return e->pre.kind == 'p' && e->pre.text && !strcmp(e->pre.text, "0");
    }
    return 0;
}

/* Whether a value before or after the call points to object id. */
static int pointed_to(const unit_record *r, int id)
{
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if ((e->pre.kind == 'p' && e->pre.text && atoi(e->pre.text) == id) ||
            (e->post.kind == 'p' && e->post.text && atoi(e->post.text) == id))
            return 1;
    }
    return 0;
}

/* The producers' calls of a parameter the run made NULL lazily (harness_producer.c: its value went
 * through sympu_lazy_null after the construction): the test passes NULL and builds nothing, so
 * those make, add and seq lines go, and an initialiser's object no value points to any more. */
/* Whether make line i builds a producer's argument (a nested producer, harness_producer.c: an object of
 * flag m) that no other make line of r passes any more (its parameter's construction was dropped). */
static int orphan_arg_make(const unit_record *r, size_t i)
{
    const ur_make *m = &r->makes[i];
    int arg = 0;
    for (size_t j = 0; j < r->nobjs; j++)
        if (r->objs[j].id == m->obj) arg = r->objs[j].make_arg && !r->objs[j].param;
    if (!arg || m->kind == 'a' || m->kind == 'c') return 0;
    for (size_t k = 0; k < r->nmakes; k++)
        for (size_t a = 0; k != i && a < r->makes[k].nargs; a++)
            if (r->makes[k].args[a] == m->obj) return 0;
    return 1;
}

/* The calls of mocks and stand-ins made in construction old (1-based; 0: during the call) now in
 * construction map[old - 1], or UNIT_MAKE_DROPPED when that construction was dropped. */
static void remap_queue(unit_record *r, const size_t *map)
{
    for (size_t i = 0; i < r->nmocks; i++)
        if (r->mocks[i].make && r->mocks[i].make != UNIT_MAKE_DROPPED) r->mocks[i].make = map[r->mocks[i].make - 1];
    for (size_t i = 0; i < r->nargs; i++)
        if (r->args[i].make && r->args[i].make != UNIT_MAKE_DROPPED) r->args[i].make = map[r->args[i].make - 1];
}

static void drop_moot_makes(unit_record *r)
{
    size_t n = 0, *map = calloc(r->nmakes + 1, sizeof *map);
    for (size_t i = 0; i < r->nmakes; i++) {
        ur_make *m = &r->makes[i];
        int moot = m->kind == 'i' || m->kind == 'o' || m->kind == 'v' ? !pointed_to(r, m->obj) : null_param(r, m->obj);
        if (map) map[i] = moot ? UNIT_MAKE_DROPPED : n + 1;
        if (!moot) {
            r->makes[n++] = *m;
            continue;
        }
        free(m->func);
        free(m->item);
        free(m->args);
    }
    if (map) remap_queue(r, map);
    r->nmakes = n;
    /* then the arguments' own make lines the dropped ones passed (nested producers) */
    n = 0;
    for (size_t i = 0; i < r->nmakes; i++) {
        ur_make *m = &r->makes[i];
        int orphan = orphan_arg_make(r, i);
        if (map) map[i] = orphan ? UNIT_MAKE_DROPPED : n + 1;
        if (!orphan) {
            r->makes[n++] = *m;
            continue;
        }
        free(m->func);
        free(m->item);
        free(m->args);
        m->func = m->item = NULL;
        m->args = NULL;
        m->nargs = 0;
    }
    if (map) remap_queue(r, map);
    free(map);
    r->nmakes = n;
}

void unit_record_prune(unit_record *r)
{
    drop_moot_makes(r);
    if (r->nobjs == 0) return;
    char *live = calloc(r->nobjs, 1);
    size_t nmade = 0;
    for (size_t i = 0; i < r->nmakes; i++) nmade += 1 + r->makes[i].nargs;
    long *stack = calloc(r->nobjs + r->nmocks + r->nwalks + r->nargs + nmade + 2 * r->nentries + 1, sizeof *stack);
    if (!live || !stack) {
        free(live);
        free(stack);
        return; /* out of memory: the record stays whole */
    }
    size_t sp = 0;
    for (size_t i = 0; i < r->nobjs; i++) {
        const ur_object *o = &r->objs[i];
        if (o->param || o->global || o->result) stack[sp++] = (long)i;
    }
    for (size_t i = 0; i < r->nmocks; i++) {
        long t = target(r, &r->mocks[i].value);
        if (t >= 0) stack[sp++] = t;
    }
    for (size_t i = 0; i < r->nwalks; i++) {
        long t = target(r, &r->walks[i].value);
        if (t >= 0) stack[sp++] = t;
    }
    for (size_t i = 0; i < r->nargs; i++) {
        long t = target(r, &r->args[i].value);
        if (t >= 0) stack[sp++] = t;
    }
    for (size_t i = 0; i < r->nmakes; i++) { /* what a producer's call built and its arguments */
        const ur_make *m = &r->makes[i];
        for (size_t j = 0; j < r->nobjs; j++) {
            int hit = r->objs[j].id == m->obj;
            for (size_t a = 0; a < m->nargs; a++) hit |= r->objs[j].id == m->args[a];
            if (hit) stack[sp++] = (long)j;
        }
    }
    while (sp > 0) {
        long k = stack[--sp];
        if (live[k]) continue;
        live[k] = 1;
        for (size_t j = 0; j < r->nentries; j++) {
            const ur_entry *e = &r->entries[j];
            if (e->obj != r->objs[k].id) continue;
            long a = target(r, &e->pre), b = target(r, &e->post);
            if (a >= 0 && !live[a]) stack[sp++] = a;
            if (b >= 0 && !live[b] && a != b) stack[sp++] = b;
        }
    }
    free(stack);
    size_t no = 0, ne = 0;
    for (size_t j = 0; j < r->nentries; j++) {
        ur_entry *e = &r->entries[j];
        int keep = 1;
        for (size_t i = 0; i < r->nobjs; i++)
            if (r->objs[i].id == e->obj) keep = live[i];
        if (keep) {
            r->entries[ne++] = *e;
        } else {
            free(e->suffix);
            free(e->pre.text);
            free(e->post.text);
        }
    }
    r->nentries = ne;
    for (size_t i = 0; i < r->nobjs; i++) {
        if (live[i]) {
            r->objs[no++] = r->objs[i];
        } else {
            free(r->objs[i].local);
            free(r->objs[i].ctype);
            free(r->objs[i].data);
        }
    }
    r->nobjs = no;
    free(live);
}
