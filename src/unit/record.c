/* record.c: parses the record a harness writes in record mode (objects, values before/after the call, mock returns). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

static int add(void **arr, size_t *n, size_t elem, const void *v)
{
    void *na = realloc(*arr, (*n + 1) * elem);
    if (!na) return -1;
    *arr = na;
    memcpy((char *)na + *n * elem, v, elem);
    (*n)++;
    return 0;
}

/* Split line into at most max words on single spaces; the last word takes the rest (a string
 * value may start with a blank: only the one separator before it is dropped). */
static size_t words(char *line, char **w, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (*p && n < max) {
        if (n + 1 < max)
            while (*p == ' ') p++;
        if (!*p) break;
        w[n++] = p;
        if (n == max) break;
        char *sp = strchr(p, ' ');
        if (!sp) break;
        *sp = 0;
        p = sp + 1;
    }
    return n;
}

static int value(const char *kind, const char *text, ur_value *v)
{
    if (strlen(kind) != 1 || !strchr("iuepfvdsqaxbm", kind[0])) return -1;
    v->kind = kind[0];
    v->text = strdup(text);
    return v->text ? 0 : -1;
}

/* The n bytes two hex digits each at hex into *out (malloc'ed, replacing what it held). 0, or -1 when a digit is
 * not hex or memory runs out. */
static int hex_bytes(const char *hex, size_t n, unsigned char **out)
{
    free(*out);
    *out = malloc(n ? n : 1);
    if (!*out) return -1;
    for (size_t k = 0; k < n; k++) {
        unsigned v;
        if (sscanf(hex + 2 * k, "%2x", &v) != 1) return -1;
        (*out)[k] = (unsigned char)v;
    }
    return 0;
}

/* "ID LEN HEX": the bytes of stream object ID (a read stream's input, an output stream's text after the call).
 * 0, or -1 when malformed. */
static int stream_line(unit_record *r, const char *text)
{
    int id = 0, used = 0;
    unsigned long len = 0;
    if (sscanf(text, "%d %lu %n", &id, &len, &used) < 2) return -1;
    const char *hex = text + used;
    if (strlen(hex) != 2 * len) return -1;
    for (size_t i = 0; i < r->nobjs; i++) {
        ur_object *o = &r->objs[i];
        if (o->id != id || !(o->stream || o->ostream)) continue;
        if (hex_bytes(hex, len, &o->data)) return -1;
        o->ndata = len;
        return 0;
    }
    return -1;
}

/* "LEN HEX": what the call wrote to standard output, LEN bytes in all, the first (at most 1000) in HEX.
 * 0, or -1 when malformed. */
static int stdout_line(unit_record *r, const char *text)
{
    int used = 0;
    unsigned long len = 0;
    if (sscanf(text, "%lu %n", &len, &used) < 1) return -1;
    const char *hex = text + used;
    size_t n = strlen(hex) / 2;
    if (strlen(hex) % 2 || n > len || n > 1000 || hex_bytes(hex, n, &r->out)) return -1;
    r->nout = n;
    r->out_len = len;
    return 0;
}

static ur_entry *find_entry(unit_record *r, int obj, const char *suffix)
{
    for (size_t i = r->nentries; i-- > 0;)
        if (r->entries[i].obj == obj && !strcmp(r->entries[i].suffix, suffix)) return &r->entries[i];
    return NULL;
}

/* A `make ID KIND FUNC ARG...` line (after "make "); with line_kind 'a' an `add ID NODE PARENT ADDER NA
 * ADARG... ITEM ARG...` line (after "add "), with 'c' a `seq ID FUNC ARG...` line (after "seq "); 0, or
 * -1 when malformed. */
static int record_make(unit_record *r, char *rest, char line_kind)
{
    ur_make m;
    memset(&m, 0, sizeof m);
    int add_line = line_kind == 'a';
    char *save = NULL, *id = strtok_r(rest, " ", &save);
    char *kind = line_kind == 'a' ? "a" : line_kind == 'c' ? "c" : strtok_r(NULL, " ", &save);
    char *node = add_line ? strtok_r(NULL, " ", &save) : NULL, *parent = add_line ? strtok_r(NULL, " ", &save) : NULL;
    char *fn = strtok_r(NULL, " ", &save), *na = add_line ? strtok_r(NULL, " ", &save) : NULL;
    if (!id || !kind || !fn || strlen(kind) != 1 || !strchr(line_kind ? "ac" : "rhivo", kind[0]) ||
        (add_line && (!node || !parent || !na)))
        return -1;
    m.obj = atoi(id);
    m.kind = kind[0];
    if (add_line) {
        m.node = atoi(node);
        m.parent = atoi(parent);
        m.nadder = (size_t)atoi(na);
        if (m.node <= 0 || m.parent < 0 || m.parent >= m.node || atoi(na) < 0 || m.nadder > 64) return -1;
    }
    m.func = strdup(fn);
    /* an add line: the adder's own arguments, then the item's producer and its arguments */
    for (size_t k = 0; add_line && m.func && k < m.nadder; k++) {
        char *a = strtok_r(NULL, " ", &save);
        int v = a ? atoi(a) : 0;
        if (!a || add((void **)&m.args, &m.nargs, sizeof v, &v) != 0) {
            free(m.func);
            free(m.args);
            return -1;
        }
    }
    char *item = add_line ? strtok_r(NULL, " ", &save) : NULL;
    if (add_line && !item) {
        free(m.func);
        free(m.args);
        return -1;
    }
    if (item && !(m.item = strdup(item))) {
        free(m.func);
        free(m.args);
        return -1;
    }
    for (char *a = strtok_r(NULL, " ", &save); a && m.func; a = strtok_r(NULL, " ", &save)) {
        int v = atoi(a);
        if (add((void **)&m.args, &m.nargs, sizeof v, &v) != 0) break;
    }
    if (!m.func || add((void **)&r->makes, &r->nmakes, sizeof m, &m) != 0) {
        free(m.func);
        free(m.item);
        free(m.args);
        return -1;
    }
    return 0;
}

int unit_record_parse(const char *text, unit_record *r, char **err)
{
    memset(r, 0, sizeof *r);
    *err = NULL;
    char *copy = strdup(text ? text : "");
    if (!copy) return -1;
    int lineno = 0;
    size_t mocks_from = 0, args_from = 0; /* the mock and arg lines no construction has claimed yet */
    for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        char *w[6];
        size_t n;
        int bad = 0;
        if (!strncmp(line, "obj ", 4)) {
            n = words(line + 4, w, 5);
            if (n < 5)
                bad = 1;
            else {
                ur_object o;
                memset(&o, 0, sizeof o);
                o.id = atoi(w[0]);
                o.param = strchr(w[1], 'p') != NULL;
                o.array = strchr(w[1], 'a') != NULL;
                o.string = strchr(w[1], 's') != NULL;
                o.global = strchr(w[1], 'g') != NULL;
                o.result = strchr(w[1], 'r') != NULL;
                o.handle = strchr(w[1], 'h') != NULL;
                o.stream = strchr(w[1], 'F') != NULL;
                o.ostream = strchr(w[1], 'O') != NULL;
                o.make_arg = strchr(w[1], 'm') != NULL;
                o.count = strtoull(w[2], NULL, 10);
                o.local = strdup(w[3]);
                o.ctype = strdup(w[4]);
                bad = add((void **)&r->objs, &r->nobjs, sizeof o, &o);
            }
        } else if (!strncmp(line, "pre ", 4) || !strncmp(line, "post ", 5)) {
            int post = line[1] == 'o';
            n = words(line + (post ? 5 : 4), w, 4);
            if (n < 4)
                bad = 1;
            else {
                const char *suffix = strcmp(w[1], "-") ? w[1] : "";
                int obj = atoi(w[0]);
                ur_entry *e = find_entry(r, obj, suffix);
                if (!e) {
                    ur_entry ne;
                    memset(&ne, 0, sizeof ne);
                    ne.obj = obj;
                    ne.suffix = strdup(suffix);
                    if (add((void **)&r->entries, &r->nentries, sizeof ne, &ne) != 0)
                        bad = 1;
                    else
                        e = &r->entries[r->nentries - 1];
                }
                if (e && !bad) {
                    ur_value *v = post ? &e->post : &e->pre;
                    free(v->text);
                    bad = value(w[2], w[3], v);
                }
            }
        } else if (!strncmp(line, "mock ", 5)) {
            n = words(line + 5, w, 3);
            if (n == 2 && !strcmp(w[1], "s")) /* a reader's empty line: "mock f s " */
                w[n++] = "";
            if (n < 3)
                bad = 1;
            else {
                ur_mock m;
                memset(&m, 0, sizeof m);
                m.name = strdup(w[0]);
                bad = value(w[1], w[2], &m.value) || add((void **)&r->mocks, &r->nmocks, sizeof m, &m);
            }
        } else if (!strncmp(line, "arg ", 4)) {
            n = words(line + 4, w, 4);
            if (n == 3 && (!strcmp(w[2], "s") || !strcmp(w[2], "m"))) /* an empty string: "arg f 1 s " */
                w[n++] = "";
            if (n < 4)
                bad = 1;
            else {
                ur_arg a;
                memset(&a, 0, sizeof a);
                a.name = strdup(w[0]);
                a.index = atoi(w[1]);
                bad = !a.name || value(w[2], w[3], &a.value) || add((void **)&r->args, &r->nargs, sizeof a, &a);
                if (bad) {
                    free(a.name);
                    free(a.value.text);
                }
            }
        } else if (!strncmp(line, "stream ", 7)) {
            bad = stream_line(r, line + 7);
        } else if (!strncmp(line, "ostream ", 8)) {
            bad = stream_line(r, line + 8);
        } else if (!strncmp(line, "stdout ", 7)) {
            bad = stdout_line(r, line + 7);
        } else if (!strncmp(line, "heapat ", 7)) {
            n = words(line + 7, w, 3);
            ur_heapat h = {0, NULL, NULL};
            if (n == 3) {
                h.obj = atoi(w[0]);
                h.suffix = strdup(strcmp(w[1], "-") ? w[1] : "");
                h.release = strdup(w[2]);
            }
            bad = n != 3 || !h.suffix || !h.release || add((void **)&r->heapats, &r->nheapats, sizeof h, &h);
            if (bad) {
                free(h.suffix);
                free(h.release);
            }
        } else if (!strncmp(line, "vararg ", 7)) {
            n = words(line + 7, w, 2);
            int k = n == 2 ? atoi(w[0]) : -1;
            bad = k < 0 || k >= UNIT_VARARG_BLOCKS || strlen(w[1]) % 2;
            if (!bad) {
                free(r->varargs[k]);
                bad = !(r->varargs[k] = strdup(w[1]));
            }
        } else if (!strncmp(line, "varheap ", 8)) {
            n = words(line + 8, w, 3);
            int k = n == 3 ? atoi(w[0]) : -1, off = n == 3 ? atoi(w[1]) : -1;
            bad = k < 0 || k >= UNIT_VARARG_BLOCKS || off < 0 || off % 8 || off / 8 >= 8 ||
                  off + 8 > UNIT_VARARG_BYTES || (strcmp(w[2], "-") && strlen(w[2]) % 2);
            if (!bad) {
                r->varheap[k] |= (uint8_t)(1u << (off / 8));
                free(r->varheap_bytes[k][off / 8]);
                r->varheap_bytes[k][off / 8] = strcmp(w[2], "-") ? strdup(w[2]) : NULL;
            }
        } else if (!strcmp(line, "retheap")) {
            r->ret_heap = 1;
        } else if (!strncmp(line, "retown ", 7)) {
            char *tail = strdup(line + 7);
            bad = !tail || !*tail || add((void **)&r->retowns, &r->nretowns, sizeof tail, &tail);
            if (bad) free(tail);
        } else if (!strcmp(line, "call")) {
            r->called = 1;
            mocks_from = r->nmocks;
            args_from = r->nargs;
        } else if (!strncmp(line, "ret ", 4)) {
            n = words(line + 4, w, 2);
            if (n == 1 && !strcmp(w[0], "s")) /* a returned empty string: "ret s " */
                bad = value(w[0], "", &r->ret);
            else
                bad = n < 2 || value(w[0], w[1], &r->ret);
        } else if (!strncmp(line, "walk ", 5)) {
            n = words(line + 5, w, 5);
            if (n == 4 && (!strcmp(w[3], "s") || !strcmp(w[3], "a"))) /* an empty string: "... s " */
                w[n++] = "";
            if (n < 5)
                bad = 1;
            else {
                ur_walk wk;
                memset(&wk, 0, sizeof wk);
                wk.obj = atoi(w[0]);
                wk.suffix = strdup(strcmp(w[1], "-") ? w[1] : "");
                wk.tail = strdup(strcmp(w[2], "-") ? w[2] : "");
                if (w[3][0] == 'q' && !strcmp(w[4], "-")) w[4] = "";
                bad = !wk.suffix || !wk.tail || value(w[3], w[4], &wk.value) ||
                      add((void **)&r->walks, &r->nwalks, sizeof wk, &wk);
                if (bad) {
                    free(wk.suffix);
                    free(wk.tail);
                    free(wk.value.text);
                }
            }
        } else if (!strncmp(line, "make ", 5) || !strncmp(line, "add ", 4) || !strncmp(line, "seq ", 4)) {
            int mk = line[0] == 'm';
            bad = record_make(r, line + (mk ? 5 : 4), mk ? 0 : line[0] == 'a' ? 'a' : 'c');
            /* the calls of mocks and stand-ins since the last construction happened in this one */
            for (size_t i = mocks_from; !bad && !r->called && i < r->nmocks; i++) r->mocks[i].make = r->nmakes;
            for (size_t i = args_from; !bad && !r->called && i < r->nargs; i++) r->args[i].make = r->nmakes;
            mocks_from = r->nmocks;
            args_from = r->nargs;
        } else if (!strncmp(line, "pfreed ", 7)) {
            int id = atoi(line + 7);
            for (size_t i = 0; i < r->nobjs; i++)
                if (r->objs[i].id == id) r->objs[i].pointee_freed = 1;
        } else if (!strncmp(line, "freed ", 6)) {
            int id = atoi(line + 6);
            for (size_t i = 0; i < r->nobjs; i++)
                if (r->objs[i].id == id) r->objs[i].freed = 1;
        } else if (!strcmp(line, "done")) {
            r->done = 1;
        } else {
            bad = 1;
        }
        if (bad) {
            if (asprintf(err, "record line %d malformed: %s", lineno, line) < 0) *err = NULL;
            free(copy);
            unit_record_free(r);
            return -1;
        }
    }
    free(copy);
    return 0;
}

void unit_record_free(unit_record *r)
{
    for (size_t i = 0; i < r->nobjs; i++) {
        free(r->objs[i].local);
        free(r->objs[i].ctype);
        free(r->objs[i].data);
    }
    for (size_t i = 0; i < r->nentries; i++) {
        free(r->entries[i].suffix);
        free(r->entries[i].pre.text);
        free(r->entries[i].post.text);
    }
    for (size_t i = 0; i < r->nmocks; i++) {
        free(r->mocks[i].name);
        free(r->mocks[i].value.text);
    }
    for (size_t i = 0; i < r->nargs; i++) {
        free(r->args[i].name);
        free(r->args[i].value.text);
    }
    free(r->args);
    for (size_t i = 0; i < r->nheapats; i++) {
        free(r->heapats[i].suffix);
        free(r->heapats[i].release);
    }
    free(r->heapats);
    for (size_t i = 0; i < r->nretowns; i++) free(r->retowns[i]);
    free(r->retowns);
    for (int k = 0; k < UNIT_VARARG_BLOCKS; k++) {
        free(r->varargs[k]);
        for (int w = 0; w < 8; w++) free(r->varheap_bytes[k][w]);
    }
    for (size_t i = 0; i < r->nwalks; i++) {
        free(r->walks[i].suffix);
        free(r->walks[i].tail);
        free(r->walks[i].value.text);
    }
    free(r->walks);
    for (size_t i = 0; i < r->nmakes; i++) {
        free(r->makes[i].func);
        free(r->makes[i].item);
        free(r->makes[i].args);
    }
    free(r->makes);
    free(r->ret.text);
    free(r->out);
    free(r->objs);
    free(r->entries);
    free(r->mocks);
    memset(r, 0, sizeof *r);
}
