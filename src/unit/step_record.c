/* step_record.c: step 4 of `sympath unit`: each kept test vector run through the native recorder, deduplicated, with the reasons of the dropped ones. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit/pipeline_int.h"
#include "util/util.h"
#include "proto/env.h"

/* Per-function branch coverage from the exploration's report.json: the sites whose
 * "function" is fn, and their "covered" arrays (the report is written by our own
 * writer, one value per line, so a line scan is enough). */
void coverage_of(const char *report_path, const char *fn, uint32_t *covered, uint32_t *total)
{
    *covered = *total = 0;
    char *t = util_read_file(report_path, NULL);
    if (!t) return;
    char key[512];
    snprintf(key, sizeof key, "\"function\": \"%s\"", fn);
    for (char *p = strstr(t, key); p; p = strstr(p + 1, key)) {
        /* the site's "covered": [ ... ] follows before the next site */
        char *c = strstr(p, "\"covered\": [");
        char *next = strstr(p + 1, "\"function\": ");
        if (!c || (next && next < c)) continue;
        char *end = strchr(c, ']');
        for (char *q = c; q && q < end; q++) {
            if (!strncmp(q, "true", 4))
                (*covered)++, (*total)++;
            else if (!strncmp(q, "false", 5))
                (*total)++;
        }
    }
    free(t);
}

void add_drop(fn_result *r, const char *vec, const char *why)
{
    char *n = NULL;
    if (asprintf(&n, "%s%s: %s\n", r->drops ? r->drops : "", uc_base_name(vec), why) < 0) return;
    free(r->drops);
    r->drops = n;
    r->dropped++;
}

/* Run the recorder on one test vector; on success append a unit_test. */
void record_vector(const char *recorder, const char *rec_path, const char *vec, fn_result *fr, tests_vec *tv,
                   unsigned *counter)
{
    char *e1 = NULL, *e2 = NULL, *e3 = NULL;
    if (asprintf(&e1, SYMPATH_ENV_TESTCASE "=%s", vec) < 0 ||
        asprintf(&e2, SYMPATH_ENV_UNIT_FUNCTION "=%s", fr->fn->name) < 0 ||
        asprintf(&e3, SYMPATH_ENV_UNIT_RECORD "=%s", rec_path) < 0)
        return;
    char *env[] = {e1, e2, e3, NULL};
    char *argv[] = {(char *)recorder, NULL};
    unlink(rec_path);
    int st = 0;
    int rc = up_run(argv, env, NULL, 1.5, &st);
    if (rc != 0) {
        add_drop(fr, vec,
                 rc == 1 ? "the call does not end natively within 1.5 s (hang)" : "the recorder did not start");
        goto out;
    }
    char *text = util_read_file(rec_path, NULL);
    unit_record rec;
    char *err = NULL;
    if (unit_record_parse(text ? text : "", &rec, &err) != 0) {
        add_drop(fr, vec, err ? err : "malformed record");
        free(err);
        free(text);
        goto out;
    }
    unit_record_prune(&rec);
    unit_outcome oc = UO_NORMAL;
    int signo = 0, code = 0;
    if (!rec.called) {
        add_drop(fr, vec, "its inputs end before the call (an input assumption failed)");
        unit_record_free(&rec);
        free(text);
        goto out;
    }
    if (WIFSIGNALED(st)) {
        oc = UO_SIGNAL;
        signo = WTERMSIG(st);
    } else if (WIFEXITED(st) && !rec.done) {
        if (WEXITSTATUS(st) == 0) {
            add_drop(fr, vec, "the run ended inside the call asking for more inputs than the test case has");
            unit_record_free(&rec);
            free(text);
            goto out;
        }
        oc = UO_EXIT;
        code = WEXITSTATUS(st);
    }
    char *key = NULL;
    if (asprintf(&key, "%d %d %d\n%s", (int)oc, signo, code, text ? text : "") < 0) key = NULL;
    for (size_t i = 0; key && i < tv->n; i++)
        if (!strcmp(tv->texts[i], key)) {
            free(key);
            unit_record_free(&rec);
            free(text);
            fr->duplicates++; /* same record and outcome as an earlier test: not a loss */
            goto out;
        }
    unit_test *nv = realloc(tv->v, (tv->n + 1) * sizeof *nv);
    char **nt = realloc(tv->texts, (tv->n + 1) * sizeof *nt);
    if (!nv || !nt) {
        free(key);
        goto out;
    }
    tv->v = nv;
    tv->texts = nt;
    unit_test *t = &tv->v[tv->n];
    memset(t, 0, sizeof *t);
    /* the name says what a failing test expects: test_parse_3_crashes, test_scale_2_aborts */
    const char *what = oc == UO_EXIT ? "_exits" : oc == UO_SIGNAL ? (signo == SIGABRT ? "_aborts" : "_crashes") : "";
    if (asprintf(&t->name, "test_%s_%u%s", fr->fn->name, ++*counter, what) < 0) t->name = NULL;
    t->fn = fr->fn;
    t->rec = rec;
    t->outcome = oc;
    t->signo = signo;
    t->exit_code = code;
    t->origin = strdup(uc_base_name(vec));
    tv->texts[tv->n++] = key;
    free(text);
out:
    free(e1);
    free(e2);
    free(e3);
}
