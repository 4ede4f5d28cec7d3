/* sites.c: the site table: building it during instrumentation, writing it, reading it back. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "instrument_int.h"
#include "util/util.h"

/* ---- building ---- */

/* Grow an array so that index `n` fits; capacity doubles (it is implied by n, so no field is needed). */
static int grow(void **arr, size_t n, size_t elem)
{
    if (n & (n - 1)) /* not a power of two: there is room */
        return 0;
    size_t cap = n ? n * 2 : 8;
    if (n && n < 8) return 0;
    void *p = realloc(*arr, cap * elem);
    if (!p) return -1;
    *arr = p;
    return 0;
}

static char *dup_or(const char *s, const char *dflt) { return strdup(s && *s ? s : dflt); }

int sites_add_site(site_table *t, uint32_t ndirs, int user, uint32_t line, uint32_t col, const char *file,
                   const char *function, const char *kind, uint32_t *id, uint32_t *slot_base)
{
    if (grow((void **)&t->sites, t->nsites, sizeof *t->sites)) return -1;
    site_info *s = &t->sites[t->nsites];
    memset(s, 0, sizeof *s);
    s->file = dup_or(file, "?");
    s->function = dup_or(function, "?");
    s->kind = dup_or(kind, "?");
    if (!s->file || !s->function || !s->kind) {
        free(s->file), free(s->function), free(s->kind);
        return -1;
    }
    s->id = ++t->nsites;
    s->slot_base = t->nslots;
    s->ndirs = ndirs;
    s->user = user;
    s->line = line;
    s->col = col;
    t->nslots += ndirs;
    *id = s->id;
    *slot_base = s->slot_base;
    return 0;
}

int sites_add_loc(site_table *t, uint32_t line, uint32_t col, const char *file, const char *function, const char *what,
                  uint32_t *id)
{
    if (grow((void **)&t->locs, t->nlocs, sizeof *t->locs)) return -1;
    loc_info *l = &t->locs[t->nlocs];
    memset(l, 0, sizeof *l);
    l->file = dup_or(file, "?");
    l->function = dup_or(function, "?");
    l->what = dup_or(what, "?");
    if (!l->file || !l->function || !l->what) {
        free(l->file), free(l->function), free(l->what);
        return -1;
    }
    l->id = ++t->nlocs;
    l->line = line;
    l->col = col;
    *id = l->id;
    return 0;
}

int sites_add_callee(site_table *t, const char *name, uint32_t *id)
{
    for (uint32_t i = 0; i < t->ncallees; i++)
        if (!strcmp(t->callees[i], name)) {
            *id = i + 1;
            return 0;
        }
    if (grow((void **)&t->callees, t->ncallees, sizeof *t->callees)) return -1;
    char *c = strdup(name);
    if (!c) return -1;
    t->callees[t->ncallees++] = c;
    *id = t->ncallees;
    return 0;
}

int sites_count_unsupported(site_table *t, const char *kind, uint64_t n)
{
    for (uint32_t i = 0; i < t->nunsupported; i++)
        if (!strcmp(t->unsupported_kind[i], kind)) {
            t->unsupported_count[i] += n;
            return 0;
        }
    if (grow((void **)&t->unsupported_kind, t->nunsupported, sizeof *t->unsupported_kind) ||
        grow((void **)&t->unsupported_count, t->nunsupported, sizeof *t->unsupported_count))
        return -1;
    char *k = strdup(kind);
    if (!k) return -1;
    t->unsupported_kind[t->nunsupported] = k;
    t->unsupported_count[t->nunsupported] = n;
    t->nunsupported++;
    return 0;
}

/* ---- writing ---- */

/* Print a name field: tabs and line breaks would break the record, so they become blanks. */
static void put_field(FILE *f, const char *s)
{
    fputc('\t', f);
    for (; *s; s++) fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

int site_table_write(const char *path, const site_table *t, char **err)
{
    char *tmp = util_strf("%s.tmp.%ld", path, (long)getpid());
    if (!tmp) {
        *err = util_strf("out of memory");
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        *err = util_strf("cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    fprintf(f, "sympath-sites\t1\nslots\t%u\n", t->nslots);
    for (uint32_t i = 0; i < t->nsites; i++) {
        const site_info *s = &t->sites[i];
        fprintf(f, "site\t%u\t%u\t%u\t%d\t%u\t%u", s->id, s->slot_base, s->ndirs, s->user ? 1 : 0, s->line, s->col);
        put_field(f, s->file);
        put_field(f, s->function);
        put_field(f, s->kind);
        fputc('\n', f);
    }
    for (uint32_t i = 0; i < t->nlocs; i++) {
        const loc_info *l = &t->locs[i];
        fprintf(f, "loc\t%u\t%u\t%u", l->id, l->line, l->col);
        put_field(f, l->file);
        put_field(f, l->function);
        put_field(f, l->what);
        fputc('\n', f);
    }
    for (uint32_t i = 0; i < t->nunsupported; i++) {
        fprintf(f, "unsupported\t%llu", (unsigned long long)t->unsupported_count[i]);
        put_field(f, t->unsupported_kind[i]);
        fputc('\n', f);
    }
    for (uint32_t i = 0; i < t->ncallees; i++) {
        fprintf(f, "callee\t%u", i + 1);
        put_field(f, t->callees[i]);
        fputc('\n', f);
    }
    int bad = ferror(f);
    if (fclose(f) || bad) {
        *err = util_strf("cannot write %s", tmp);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, path)) {
        *err = util_strf("cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

/* ---- reading ---- */

/* Split a line in place on tabs; returns the number of fields (at most max). */
static int split_tabs(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = 0;
        p = tab + 1;
    }
    return n;
}

/* A decimal unsigned number that must fill the whole field. */
static int parse_u32(const char *s, uint32_t *out)
{
    uint64_t v;
    if (util_parse_uint(s, UINT32_MAX, &v)) return -1;
    *out = (uint32_t)v;
    return 0;
}

/*
 * Records may come in any order after the header, but ids must be dense and in
 * order (site i has id i+1), and every slot must belong to exactly one site: the
 * explorer indexes coverage by slot and relies on slot_site being total.
 */
int site_table_load(const char *path, site_table *t, char **err)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) {
        *err = util_strf("%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned lineno = 0;
    int have_slots = 0;
    const char *why = NULL;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len && line[len - 1] == '\n') line[--len] = 0;
        char *fl[12];
        int n = split_tabs(line, fl, 12);
        if (lineno == 1) {
            if (n != 2 || strcmp(fl[0], "sympath-sites") || strcmp(fl[1], "1")) {
                why = "expected header 'sympath-sites<TAB>1'";
                goto bad;
            }
            continue;
        }
        if (!strcmp(fl[0], "slots")) {
            if (n != 2 || have_slots || parse_u32(fl[1], &t->nslots)) {
                why = "bad 'slots' record";
                goto bad;
            }
            have_slots = 1;
        } else if (!strcmp(fl[0], "site")) {
            site_info s = {0};
            if (n != 10 || parse_u32(fl[1], &s.id) || parse_u32(fl[2], &s.slot_base) || parse_u32(fl[3], &s.ndirs) ||
                (strcmp(fl[4], "0") && strcmp(fl[4], "1")) || parse_u32(fl[5], &s.line) || parse_u32(fl[6], &s.col)) {
                why = "bad 'site' record (expected: site id slot_base ndirs user line col file function kind)";
                goto bad;
            }
            if (s.id != t->nsites + 1) {
                why = "site ids must be 1, 2, 3, ... in order";
                goto bad;
            }
            s.user = fl[4][0] == '1';
            if (grow((void **)&t->sites, t->nsites, sizeof *t->sites)) goto oom;
            s.file = strdup(fl[7]);
            s.function = strdup(fl[8]);
            s.kind = strdup(fl[9]);
            t->sites[t->nsites++] = s;
            if (!s.file || !s.function || !s.kind) goto oom;
        } else if (!strcmp(fl[0], "loc")) {
            loc_info l = {0};
            if (n != 7 || parse_u32(fl[1], &l.id) || parse_u32(fl[2], &l.line) || parse_u32(fl[3], &l.col)) {
                why = "bad 'loc' record (expected: loc id line col file function what)";
                goto bad;
            }
            if (l.id != t->nlocs + 1) {
                why = "loc ids must be 1, 2, 3, ... in order";
                goto bad;
            }
            if (grow((void **)&t->locs, t->nlocs, sizeof *t->locs)) goto oom;
            l.file = strdup(fl[4]);
            l.function = strdup(fl[5]);
            l.what = strdup(fl[6]);
            t->locs[t->nlocs++] = l;
            if (!l.file || !l.function || !l.what) goto oom;
        } else if (!strcmp(fl[0], "unsupported")) {
            uint64_t c;
            if (n != 3 || util_parse_uint(fl[1], UINT64_MAX, &c) || !*fl[2]) {
                why = "bad 'unsupported' record (expected: unsupported count kind)";
                goto bad;
            }
            if (sites_count_unsupported(t, fl[2], c)) goto oom;
        } else if (!strcmp(fl[0], "callee")) {
            uint32_t id, got;
            if (n != 3 || parse_u32(fl[1], &id) || !*fl[2]) {
                why = "bad 'callee' record (expected: callee id name)";
                goto bad;
            }
            if (id != t->ncallees + 1) {
                why = "callee ids must be 1, 2, 3, ... in order";
                goto bad;
            }
            if (sites_add_callee(t, fl[2], &got)) goto oom;
            if (got != id) {
                why = "duplicate 'callee' name";
                goto bad;
            }
        } else if (!(n == 1 && !*fl[0])) {
            why = "unknown record";
            goto bad;
        }
    }
    if (lineno == 0) {
        why = "empty file";
        goto bad;
    }
    if (!have_slots) {
        why = "missing 'slots' record";
        goto bad;
    }
    /* Map every slot to its site, checking that the sites tile [0, nslots). */
    t->slot_site = calloc(t->nslots ? t->nslots : 1, sizeof *t->slot_site);
    if (!t->slot_site) goto oom;
    for (uint32_t i = 0; i < t->nsites; i++) {
        const site_info *s = &t->sites[i];
        if ((uint64_t)s->slot_base + s->ndirs > t->nslots) {
            *err = util_strf("%s: site %u: slots %u..%u beyond the %u slots of the table", path, s->id, s->slot_base,
                             s->slot_base + s->ndirs - 1, t->nslots);
            goto fail;
        }
        for (uint32_t d = 0; d < s->ndirs; d++) {
            if (t->slot_site[s->slot_base + d]) {
                *err = util_strf("%s: site %u: slot %u already belongs to site %u", path, s->id, s->slot_base + d,
                                 t->slot_site[s->slot_base + d]);
                goto fail;
            }
            t->slot_site[s->slot_base + d] = s->id;
        }
    }
    for (uint32_t k = 0; k < t->nslots; k++)
        if (!t->slot_site[k]) {
            *err = util_strf("%s: slot %u belongs to no site", path, k);
            goto fail;
        }
    free(line);
    fclose(f);
    return 0;
bad:
    *err = util_strf("%s:%u: %s", path, lineno, why);
    goto fail;
oom:
    *err = util_strf("%s:%u: out of memory", path, lineno);
fail:
    free(line);
    fclose(f);
    site_table_free(t);
    return -1;
}

void site_table_free(site_table *t)
{
    if (!t) return;
    for (uint32_t i = 0; i < t->nsites; i++) {
        free(t->sites[i].file);
        free(t->sites[i].function);
        free(t->sites[i].kind);
    }
    for (uint32_t i = 0; i < t->nlocs; i++) {
        free(t->locs[i].file);
        free(t->locs[i].function);
        free(t->locs[i].what);
    }
    for (uint32_t i = 0; i < t->nunsupported; i++) free(t->unsupported_kind[i]);
    for (uint32_t i = 0; i < t->ncallees; i++) free(t->callees[i]);
    free(t->callees);
    free(t->sites);
    free(t->locs);
    free(t->unsupported_kind);
    free(t->unsupported_count);
    free(t->slot_site);
    memset(t, 0, sizeof *t);
}
