/* errors.c: the distinct errors of an output directory, read the same way for run, run --db, unit and data outputs. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/util.h"
#include "report_int.h"

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* Split "file:line[ (...)]" into file and line (file NULL when there is no line number). */
static void split_location(rerror *e)
{
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
static void beside_reproducer(const char *out_dir, rerror *e)
{
    if (!e->reproducer) return;
    size_t n = strlen(e->reproducer);
    if (n < 4 || strcmp(e->reproducer + n - 4, ".xml") != 0) return;
    char path[4200];
    snprintf(path, sizeof path, "%s/%.*s.txt", out_dir, (int)(n - 4), e->reproducer);
    e->description = util_read_file(path, NULL);
    static const char *const ext[] = {".sql", ".results"};
    for (int i = 0; i < 2 && !e->fixture; i++) {
        snprintf(path, sizeof path, "%s/%.*s%s", out_dir, (int)(n - 4), e->reproducer, ext[i]);
        if (access(path, R_OK) == 0 && asprintf(&e->fixture, "%.*s%s", (int)(n - 4), e->reproducer, ext[i]) < 0)
            e->fixture = NULL;
    }
}

static int grow(rerror **list, size_t n, size_t *cap)
{
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
                       size_t *n, size_t *cap)
{
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

/* sympath unit: every function's exploration under OUT/build/runs. */
static void from_unit_runs(const char *out_dir, rerror **list, size_t *n, size_t *cap)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/build/runs", out_dir);
    size_t nd = 0;
    char **dirs = util_list_dir(dir, "*", &nd);
    for (size_t i = 0; i < nd; i++) {
        const char *fn = strrchr(dirs[i], '/') + 1;
        char *path = util_strf("%s/report.json", dirs[i]), *prefix = util_strf("build/runs/%s/", fn), *err = NULL;
        jv *r = path ? jv_read_file(path, &err) : NULL;
        free(err);
        if (r && prefix) from_array(out_dir, jv_get(r, "errors"), prefix, fn, list, n, cap);
        jv_free(r);
        free(path);
        free(prefix);
    }
    util_free_strv(dirs);
}

/* sympath data: the reproducers in OUT/errors; the kind is the first line of each .txt. */
static void from_reproducers(const char *out_dir, rerror **list, size_t *n, size_t *cap)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/errors", out_dir);
    size_t nf = 0;
    char **files = util_list_dir(dir, "error-*.xml", &nf);
    char *src = report_program_source(out_dir);
    for (size_t i = 0; i < nf && grow(list, *n, cap) == 0; i++) {
        rerror *e = &(*list)[(*n)++];
        memset(e, 0, sizeof *e);
        e->reproducer = util_strf("errors/%s", strrchr(files[i], '/') + 1);
        e->found_seconds = -1;
        beside_reproducer(out_dir, e);
        const char *d = e->description ? e->description : "error";
        e->kind = strndup(d, strcspn(d, ":\n"));
        e->file = dup_or_null(src);
    }
    util_free_strv(files);
    free(src);
}

int rerrors_collect(const char *out_dir, rerror **list, size_t *n)
{
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
    if (errs && errs->t == JV_ARR)
        from_array(out_dir, errs, "", NULL, list, n, &cap);
    else if (strstr(jv_str(jv_get(r, "tool"), ""), "unit"))
        from_unit_runs(out_dir, list, n, &cap);
    else
        from_reproducers(out_dir, list, n, &cap);
    jv_free(r);
    return 0;
}

void rerrors_free(rerror *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rerror *e = &list[i];
        free(e->kind), free(e->klass), free(e->location), free(e->file), free(e->function);
        free(e->reproducer), free(e->fixture), free(e->description), free(e->scope);
    }
    free(list);
}

char *report_program_source(const char *out_dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/build/replay.conf", out_dir);
    char *text = util_read_file(path, NULL);
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
