/* report_int.h: private to src/report: a small JSON reader (jsonr.c), the errors of an output directory, HTML helpers. */
#ifndef SYMPATH_REPORT_INT_H
#define SYMPATH_REPORT_INT_H

#include <stddef.h>

#include "../util/util.h"
#include "report.h"

/* ---- JSON reader (jsonr.c): a parsed document as a tree of values ----
 * Objects keep their keys in document order; a duplicated key is kept twice (jv_get finds
 * the first). Numbers are doubles (report.json's counters stay below 2^53). Strings are
 * UTF-8 with escapes decoded (\u0000 becomes '?': our strings are C strings). */
typedef enum jv_type { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ } jv_type;

typedef struct jv {
    jv_type t;
    int b;            /* JV_BOOL */
    double num;       /* JV_NUM */
    char *str;        /* JV_STR */
    struct jv *items; /* JV_ARR, JV_OBJ: n values */
    char **keys;      /* JV_OBJ: n keys */
    size_t n;
} jv;

/* Parse text (NUL-terminated). Returns a tree (free with jv_free) or NULL with *err
 * (malloc'ed, "line L: what was expected"). Nesting deeper than 200 levels is an error. */
jv *jv_parse(const char *text, char **err);
/* Read and parse a file; NULL with *err (malloc'ed) when it cannot be read or parsed. */
jv *jv_read_file(const char *path, char **err);
/* Free a tree from jv_parse / jv_read_file. NULL ok. */
void jv_free(jv *v);
/* Member `key` of object v; NULL when v is NULL, not an object, or has no such key. */
const jv *jv_get(const jv *v, const char *key);
/* The string of v, or dflt when v is NULL or not a string. */
const char *jv_str(const jv *v, const char *dflt);
/* The number of v (booleans 0/1), or dflt when v is NULL or neither. */
double jv_num(const jv *v, double dflt);
/* Elements of an array (0 when v is NULL or not an array). */
size_t jv_len(const jv *v);

/* ---- HTML text (html_text.c) ---- */

/* Append s with &, <, >, " and ' escaped; control characters other than tab and newline
 * become '?'. NULL appends nothing. */
void html_escaped(strbuf *b, const char *s);

#endif

/* ---- errors of an output directory, whatever command wrote it (errors.c) ---- */

/* One distinct error. Strings malloc'ed (NULL when not recorded); paths relative to OUT. */
typedef struct rerror {
    char *kind;     /* "reach_error", "assertion", "abort", "crash", "timeout", "out-of-memory", ... */
    char *klass;    /* "property-violation" or "other-termination" */
    char *location; /* as recorded: "demo.c:33", "demo.c:12 (last branch executed)" */
    char *file;     /* the file of location, relative to where sympath ran (NULL: unknown) */
    unsigned line;  /* its line (0: unknown) */
    char *function;
    char *reproducer;     /* "errors/error-002.xml", "build/runs/f/errors/error-001.xml" */
    char *fixture;        /* the reproducer's database fixture (.sql/.results) when it exists */
    char *description;    /* the reproducer's .txt (what happened, where, the inputs) */
    char *scope;          /* sympath unit: the function whose exploration found it */
    int unconfirmed;      /* a time-out not confirmed with the longer limit */
    double found_seconds; /* -1 when not recorded */
} rerror;

/* The errors of out_dir: report.json's "errors" array (run, run --db), every function's
 * exploration (unit: OUT/build/runs/F/report.json), or the reproducers in OUT/errors
 * (data). *list malloc'ed (free with rerrors_free), possibly empty. -1 with errno when
 * out_dir/report.json cannot be read or parsed. */
int rerrors_collect(const char *out_dir, rerror **list, size_t *n);
void rerrors_free(rerror *list, size_t n);
/* The first program source named in out_dir/build/replay.conf (malloc'ed; NULL if none). */
char *report_program_source(const char *out_dir);

/* ---- the HTML report (html*.c) ---- */

/* What wrote the output directory (from report.json's shape). */
typedef enum html_kind { HTML_RUN, HTML_DB, HTML_UNIT, HTML_DATA } html_kind;

/* What the section writers share. Everything is read-only for them. */
typedef struct html_ctx {
    const char *out_dir;
    const jv *rep; /* OUT/report.json */
    html_kind kind;
    char **sources; /* absolute paths of the program's sources (replay.conf, unit functions) */
    size_t nsources;
    const char *link; /* prefix of links to OUT's files from the HTML directory ("../", or OUT's path + "/") */
} html_ctx;

/* Inline SVG line plots of a time series (html_plot.c): branch directions covered,
 * executions, tests, solver share; one polyline point per row (= per line of OUT/stats).
 * id_prefix names the plots (HTML ids "<prefix>-covered", ...). n == 0 writes a note. */
void html_plots(strbuf *b, const report_sample *rows, size_t n, const char *id_prefix);
/* The sources annotated with covered/uncovered branch directions and the reasons (html_source.c). */
void html_sources(strbuf *b, const html_ctx *c);
/* The errors: kind, location, inputs, replay command, fixture (html_sections.c). */
void html_errors(strbuf *b, const html_ctx *c);
/* What limited the run: concretizations, unsupported instructions, SQL run concretely, tree statuses. */
void html_limits(strbuf *b, const html_ctx *c);
/* sympath unit: per function tests and coverage; sympath data: the queries (html_sections.c). */
void html_unit(strbuf *b, const html_ctx *c);
void html_data(strbuf *b, const html_ctx *c);
/* A reason name of reasons.tsv in words ("infeasible" -> "UNSAT: ..."). Static string. */
const char *html_reason_words(const char *why);
