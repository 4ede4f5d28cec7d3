/* sarif.c: OUT/errors.sarif, the errors of a run in SARIF 2.1.0 for code-scanning tools. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../emit/emit.h"
#include "report.h"
#include "report_int.h"

/*
 * One SARIF run: tool.driver.rules has one rule per kind of error met (id = the kind as in
 * report.json), results one entry per distinct error: ruleId/ruleIndex, level, message,
 * the location in the user's source (file:line as recorded, a relative URI: where sympath
 * ran), the reproducer (and its fixture) as relatedLocations under uriBaseId OUTDIR, which
 * originalUriBaseIds maps to the output directory. Only the fields GitHub code scanning
 * and the SARIF viewers read are written; docs: README.md, "Output".
 */

typedef struct rule_text {
    const char *id, *text, *level;
} rule_text;

/* Kinds written by the explorer (error_kind_name); other kinds get a generic rule. */
static const rule_text rules[] = {
    {"reach_error", "The error function (reach_error / __VERIFIER_error) is reachable", "error"},
    {"assertion", "An assertion can fail", "error"},
    {"abort", "The program can call abort()", "error"},
    {"crash", "The program can crash (a fatal signal: SIGSEGV, SIGFPE, ...)", "error"},
    {"timeout", "The program can hang (a run did not end within the time limit)", "warning"},
    {"out-of-memory", "A run can exceed the memory limit", "warning"},
};

static const rule_text *rule_of(const char *kind)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].id, kind) == 0) return &rules[i];
    return NULL;
}

static void text_obj(json_writer *j, const char *key, const char *text)
{
    json_key(j, key);
    json_begin_object(j);
    json_kv_str(j, "text", text);
    json_end_object(j);
}

/* A file URI for an absolute path, a relative reference otherwise (no escaping needed for
 * the characters of ordinary paths; spaces and '%' are escaped). */
static char *uri_of(const char *path, int dir)
{
    strbuf b = STRBUF_INIT;
    if (path[0] == '/') sb_puts(&b, "file://");
    for (const char *p = path; *p; p++) {
        if (*p == ' ' || *p == '%' || *p == '#' || *p == '?')
            sb_printf(&b, "%%%02X", (unsigned char)*p);
        else
            sb_append(&b, p, 1);
    }
    if (dir && (!b.len || b.s[b.len - 1] != '/')) sb_puts(&b, "/");
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s;
}

static void artifact(json_writer *j, const char *uri, const char *base, unsigned line)
{
    json_key(j, "physicalLocation");
    json_begin_object(j);
    json_key(j, "artifactLocation");
    json_begin_object(j);
    json_kv_str(j, "uri", uri);
    if (base) {
        json_kv_str(j, "uriBaseId", base);
    }
    json_end_object(j);
    if (line) {
        json_key(j, "region");
        json_begin_object(j);
        json_kv_uint(j, "startLine", line);
        json_end_object(j);
    }
    json_end_object(j);
}

static void related(json_writer *j, int id, const char *rel, const char *what)
{
    json_begin_object(j);
    json_kv_int(j, "id", id);
    char *u = uri_of(rel, 0);
    artifact(j, u ? u : rel, "OUTDIR", 0);
    free(u);
    text_obj(j, "message", what);
    json_end_object(j);
}

static void result(json_writer *j, const rerror *e, size_t rule_index, const char *out_dir)
{
    const rule_text *rt = rule_of(e->kind);
    json_begin_object(j);
    json_kv_str(j, "ruleId", e->kind);
    json_kv_uint(j, "ruleIndex", rule_index);
    json_kv_str(j, "level", e->unconfirmed ? "note" : rt ? rt->level : "error");
    /* the first line of the reproducer's description says what happened */
    strbuf m = STRBUF_INIT;
    if (e->description)
        sb_append(&m, e->description, strcspn(e->description, "\n"));
    else
        sb_puts(&m, e->kind);
    if (e->function) sb_printf(&m, " in %s", e->function);
    if (e->scope) sb_printf(&m, " (unit test of %s)", e->scope);
    if (e->reproducer && !e->scope)
        sb_printf(&m, "; reproducer: %s (sympath replay %s)", e->reproducer, out_dir);
    else if (e->reproducer)
        sb_printf(&m, "; test vector: %s", e->reproducer);
    text_obj(j, "message", m.s ? m.s : e->kind);
    sb_free(&m);
    json_key(j, "locations");
    json_begin_array(j);
    if (e->file) {
        json_begin_object(j);
        char *u = uri_of(e->file, 0);
        artifact(j, u ? u : e->file, NULL, e->line);
        free(u);
        json_end_object(j);
    }
    json_end_array(j);
    json_key(j, "relatedLocations");
    json_begin_array(j);
    int id = 1;
    if (e->reproducer) related(j, id++, e->reproducer, "the test case that reproduces it (Test-Comp XML)");
    if (e->fixture) related(j, id++, e->fixture, "the database fixture of that test case");
    json_end_array(j);
    json_key(j, "properties");
    json_begin_object(j);
    json_kv_str(j, "class", e->klass);
    json_kv_str(j, "location", e->location);
    json_kv_str(j, "function", e->function);
    json_kv_str(j, "reproducer", e->reproducer);
    if (e->scope) {
        json_kv_str(j, "unit_function", e->scope);
    }
    json_end_object(j);
    json_end_object(j);
}

int report_write_sarif(const char *out_dir, char **err)
{
    rerror *errs = NULL;
    size_t n = 0;
    if (rerrors_collect(out_dir, &errs, &n) != 0) {
        if (asprintf(err, "%s/report.json: %s", out_dir, strerror(errno)) < 0) *err = NULL;
        return -1;
    }
    /* the rules: distinct kinds in order of first appearance */
    const char **kinds = calloc(n + 1, sizeof *kinds);
    size_t nk = 0;
    size_t *rule_idx = calloc(n + 1, sizeof *rule_idx);
    for (size_t i = 0; kinds && rule_idx && i < n; i++) {
        size_t k = 0;
        while (k < nk && strcmp(kinds[k], errs[i].kind) != 0) k++;
        if (k == nk) kinds[nk++] = errs[i].kind;
        rule_idx[i] = k;
    }
    json_writer *j = json_new();
    if (!j || !kinds || !rule_idx) {
        json_free(j);
        free(kinds), free(rule_idx);
        rerrors_free(errs, n);
        *err = strdup("out of memory");
        return -1;
    }
    json_begin_object(j);
    json_kv_str(j, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    json_kv_str(j, "version", "2.1.0");
    json_key(j, "runs");
    json_begin_array(j);
    json_begin_object(j);
    json_key(j, "tool");
    json_begin_object(j);
    json_key(j, "driver");
    json_begin_object(j);
    json_kv_str(j, "name", "sympath");
    json_kv_str(j, "version", "0.1");
    json_key(j, "rules");
    json_begin_array(j);
    for (size_t k = 0; k < nk; k++) {
        const rule_text *rt = rule_of(kinds[k]);
        json_begin_object(j);
        json_kv_str(j, "id", kinds[k]);
        text_obj(j, "shortDescription", rt ? rt->text : kinds[k]);
        json_key(j, "defaultConfiguration");
        json_begin_object(j);
        json_kv_str(j, "level", rt ? rt->level : "error");
        json_end_object(j);
        json_end_object(j);
    }
    json_end_array(j);
    json_end_object(j);
    json_end_object(j);
    char abs[PATH_MAX];
    char *base = uri_of(realpath(out_dir, abs) ? abs : out_dir, 1);
    if (base && base[0] == 'f') { /* originalUriBaseIds must be absolute */
        json_key(j, "originalUriBaseIds");
        json_begin_object(j);
        json_key(j, "OUTDIR");
        json_begin_object(j);
        json_kv_str(j, "uri", base);
        json_end_object(j);
        json_end_object(j);
    }
    free(base);
    json_key(j, "results");
    json_begin_array(j);
    for (size_t i = 0; i < n; i++) result(j, &errs[i], rule_idx[i], out_dir);
    json_end_array(j);
    json_end_object(j);
    json_end_array(j);
    json_end_object(j);
    char path[4200];
    snprintf(path, sizeof path, "%s/errors.sarif", out_dir);
    int rc = json_write_file(j, path);
    if (rc != 0 && asprintf(err, "%s: %s", path, strerror(errno)) < 0) *err = NULL;
    json_free(j);
    free(kinds), free(rule_idx);
    rerrors_free(errs, n);
    return rc;
}
