/* errors.c: the distinct errors of an output directory, read the same way for run, run --db, unit and data outputs. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_int.h"

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* Split "file:line[ (...)]" into file and line (file NULL when there is no line number). */
static void split_location(rerror *e) {
    if (!e->location) return;
    char *loc = strdup(e->location);
    if (!loc) return;
    char *paren = strstr(loc, " (");
    if (paren) *paren = 0;
    char *colon = strrchr(loc, ':');
    if (colon && colon[1] >= '0' && colon[1] <= '9' && colon > loc) {
        *colon = 0;
        e->line = (unsigned)strtoul(colon + 1, NULL, 10);
        e->file = strdup(loc);
    }
    free(loc);
}

/* Fill the file names next to a reproducer: its .txt (description) and .sql/.results (fixture). */
static void beside_reproducer(const char *out_dir, rerror *e) {
    if (!e->reproducer) return;
    size_t n = strlen(e->reproducer);
    if (n < 4 || strcmp(e->reproducer + n - 4, ".xml") != 0) return;
    char path[4200];
    snprintf(path, sizeof path, "%s/%.*s.txt", out_dir, (int)(n - 4), e->reproducer);
    e->description = report_read_file(path, NULL);
    static const char *const ext[] = {".sql", ".results"};
    for (int i = 0; i < 2 && !e->fixture; i++) {
        snprintf(path, sizeof path, "%s/%.*s%s", out_dir, (int)(n - 4), e->reproducer, ext[i]);
        if (access(path, R_OK) == 0 && asprintf(&e->fixture, "%.*s%s", (int)(n - 4), e->reproducer, ext[i]) < 0)
            e->fixture = NULL;
    }
}

static int grow(rerror **list, size_t n, size_t *cap) {
    if (n < *cap) return 0;
    size_t nc = *cap ? *cap * 2 : 8;
    rerror *nl = realloc(*list, nc * sizeof *nl);
    if (!nl) return -1;
    *list = nl;
    *cap = nc;
    return 0;
}

/* The "errors" array of one report.json; reproducer paths get prefix (relative to OUT). */
static void from_array(const char *out_dir, const jv *errs, const char *prefix, const char *scope, rerror **list,
                       size_t *n, size_t *cap) {
    for (size_t i = 0; i < jv_len(errs); i++) {
        const jv *o = &errs->items[i];
        if (grow(list, *n, cap)) return;
        rerror *e = &(*list)[(*n)++];
        memset(e, 0, sizeof *e);
        e->kind = dup_or_null(jv_str(jv_get(o, "kind"), "error"));
        e->klass = dup_or_null(jv_str(jv_get(o, "class"), NULL));
        e->location = dup_or_null(jv_str(jv_get(o, "location"), NULL));
        e->function = dup_or_null(jv_str(jv_get(o, "function"), NULL));
        const char *rep = jv_str(jv_get(o, "reproducer"), NULL);
        if (rep && asprintf(&e->reproducer, "%s%s", prefix, rep) < 0) e->reproducer = NULL;
        e->scope = dup_or_null(scope);
        const jv *conf = jv_get(o, "confirmed");
        e->unconfirmed = conf && conf->t == JV_BOOL && !conf->b;
        e->found_seconds = jv_num(jv_get(o, "found_after_seconds"), -1);
        split_location(e);
        beside_reproducer(out_dir, e);
    }
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* sympath unit: every function's exploration under OUT/build/runs. */
static void from_unit_runs(const char *out_dir, rerror **list, size_t *n, size_t *cap) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/build/runs", out_dir);
    struct dirent **ents = NULL;
    int ne = scandir(dir, &ents, NULL, by_name);
    for (int i = 0; i < ne; i++) {
        const char *fn = ents[i]->d_name;
        if (fn[0] != '.') {
            char path[4600], prefix[4600];
            snprintf(path, sizeof path, "%s/%s/report.json", dir, fn);
            snprintf(prefix, sizeof prefix, "build/runs/%s/", fn);
            char *err = NULL;
            jv *r = jv_read_file(path, &err);
            free(err);
            if (r) from_array(out_dir, jv_get(r, "errors"), prefix, fn, list, n, cap);
            jv_free(r);
        }
        free(ents[i]);
    }
    free(ents);
}

static int is_error_xml(const struct dirent *d) {
    size_t n = strlen(d->d_name);
    return strncmp(d->d_name, "error-", 6) == 0 && n > 4 && strcmp(d->d_name + n - 4, ".xml") == 0;
}

/* sympath data: the reproducers in OUT/errors; the kind is the first line of each .txt. */
static void from_reproducers(const char *out_dir, rerror **list, size_t *n, size_t *cap) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/errors", out_dir);
    struct dirent **ents = NULL;
    int ne = scandir(dir, &ents, is_error_xml, by_name);
    char *src = report_program_source(out_dir);
    for (int i = 0; i < ne; i++) {
        if (grow(list, *n, cap) == 0) {
            rerror *e = &(*list)[(*n)++];
            memset(e, 0, sizeof *e);
            if (asprintf(&e->reproducer, "errors/%s", ents[i]->d_name) < 0) e->reproducer = NULL;
            e->found_seconds = -1;
            beside_reproducer(out_dir, e);
            const char *d = e->description ? e->description : "error";
            e->kind = strndup(d, strcspn(d, ":\n"));
            e->file = dup_or_null(src);
        }
        free(ents[i]);
    }
    free(ents);
    free(src);
}

int rerrors_collect(const char *out_dir, rerror **list, size_t *n) {
    *list = NULL;
    *n = 0;
    char path[4200], *err = NULL;
    snprintf(path, sizeof path, "%s/report.json", out_dir);
    jv *r = jv_read_file(path, &err);
    if (!r) {
        free(err);
        if (!errno) errno = EINVAL;
        return -1;
    }
    size_t cap = 0;
    const jv *errs = jv_get(r, "errors");
    if (errs && errs->t == JV_ARR) from_array(out_dir, errs, "", NULL, list, n, &cap);
    else if (strstr(jv_str(jv_get(r, "tool"), ""), "unit")) from_unit_runs(out_dir, list, n, &cap);
    else from_reproducers(out_dir, list, n, &cap);
    jv_free(r);
    return 0;
}

void rerrors_free(rerror *list, size_t n) {
    for (size_t i = 0; i < n; i++) {
        rerror *e = &list[i];
        free(e->kind), free(e->klass), free(e->location), free(e->file), free(e->function);
        free(e->reproducer), free(e->fixture), free(e->description), free(e->scope);
    }
    free(list);
}

char *report_program_source(const char *out_dir) {
    char path[4200];
    snprintf(path, sizeof path, "%s/build/replay.conf", out_dir);
    char *text = report_read_file(path, NULL);
    if (!text) return NULL;
    char *res = NULL;
    for (char *l = text; l && *l && !res;) {
        char *nl = strchr(l, '\n');
        if (nl) *nl = 0;
        if (strncmp(l, "source ", 7) == 0) res = strdup(l + 7);
        l = nl ? nl + 1 : NULL;
    }
    free(text);
    return res;
}
