/* suite.c: the test-suite writer (Test-Comp test-format 1.1 metadata, test cases, error reproducers). */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include "emit.h"
#include "sha256.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The exact prolog lines of the sosy-lab test-format, version 1.1. */
#define XML_DECL "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
#define METADATA_DOCTYPE                                                                             \
    "<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN\" " \
    "\"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\">\n"
#define TESTCASE_DOCTYPE                                                                   \
    "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" " \
    "\"https://sosy-lab.org/test-format/testcase-1.1.dtd\">\n"

#define DEFAULT_SPEC "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )"

struct suite_writer {
    char *tests_dir;
    char *errors_dir;
    int ntests;  /* test cases written so far (the last number used) */
    int nerrors; /* error reproducers written so far */
};

/* ---- small helpers ---- */

/* *err = malloc'ed formatted message (left NULL if even that allocation fails). */
__attribute__((format(printf, 2, 3))) static void set_err(char **err, const char *fmt, ...)
{
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(err, fmt, ap) < 0) *err = NULL;
    va_end(ap);
}

static char *path_join(const char *dir, const char *name)
{
    char *p;
    return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

/* Remove the regular files in dir whose names match one of the NULL-terminated
 * glob patterns. 0 or -1 with errno. */
static int remove_matching(const char *dir, const char *const *patterns)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        int match = 0;
        for (const char *const *p = patterns; *p && !match; p++) match = fnmatch(*p, e->d_name, FNM_PERIOD) == 0;
        if (!match) continue;
        char *full = path_join(dir, e->d_name);
        struct stat st;
        if (!full || (lstat(full, &st) == 0 && S_ISREG(st.st_mode) && unlink(full) != 0)) rc = -1;
        free(full);
    }
    closedir(d);
    return rc;
}

int write_file_atomic(const char *path, const char *data, size_t len) { return util_write_atomic(path, data, len); }

/* Write a finished buffer atomically; on failure *err says which file and why. */
static int write_buffer(strbuf *b, const char *path, char **err)
{
    if (b->failed) {
        set_err(err, "%s: out of memory", path);
        return -1;
    }
    if (write_file_atomic(path, b->s ? b->s : "", b->len)) {
        int e = errno; /* the caller tells a full disk from other failures */
        set_err(err, "cannot write %s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    return 0;
}

/* Put the <testcase> document for tc into b. */
static void format_testcase(strbuf *b, const test_case *tc, const char *comment, int covers_error)
{
    sb_puts(b, XML_DECL TESTCASE_DOCTYPE);
    if (comment && *comment) {
        sb_puts(b, "<!-- ");
        sb_xml_comment_text(b, comment);
        sb_puts(b, " -->\n");
    }
    sb_puts(b, covers_error ? "<testcase coversError=\"true\">\n" : "<testcase>\n");
    for (uint32_t i = 0; i < tc->n; i++) {
        input_type t = (input_type)tc->types[i];
        char val[64];
        sb_puts(b, "  <input type=\"");
        sb_xml_escaped(b, input_type_c_name(t));
        sb_puts(b, "\"");
        const char *name = tc->names ? tc->names[i] : NULL;
        if (name && *name) {
            sb_puts(b, " variable=\"");
            sb_xml_escaped(b, name);
            sb_puts(b, "\"");
        }
        sb_puts(b, ">");
        sb_puts(b, input_format_value(val, sizeof val, t, tc->values[i]));
        sb_puts(b, "</input>\n");
    }
    sb_puts(b, "</testcase>\n");
}

/* ---- public API ---- */

suite_writer *suite_open(const char *out_dir, const suite_meta *meta, char **err)
{
    static const char *const test_patterns[] = {"test-*.xml", ".test-*.xml.tmp*", "test-*.sql", "test-*.results",
                                                "test-*.cov", "cand-*.xml",       "cand-*.cov", NULL};
    static const char *const error_patterns[] = {"error-*", ".error-*.tmp*", NULL};
    if (err) *err = NULL;
    if (!out_dir || !meta || !meta->program_file) {
        set_err(err, "suite_open: output directory and program file are required");
        return NULL;
    }
    suite_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->tests_dir = path_join(out_dir, "tests")) || !(w->errors_dir = path_join(out_dir, "errors"))) {
        set_err(err, "out of memory");
        suite_close(w);
        return NULL;
    }
    const char *dirs[] = {out_dir, w->tests_dir, w->errors_dir};
    for (int i = 0; i < 3; i++) {
        if (util_mkdir_p(dirs[i])) {
            set_err(err, "cannot create directory %s: %s", dirs[i], strerror(errno));
            suite_close(w);
            return NULL;
        }
    }
    if (remove_matching(w->tests_dir, test_patterns) || remove_matching(w->errors_dir, error_patterns)) {
        set_err(err, "cannot clear old test files in %s: %s", out_dir, strerror(errno));
        suite_close(w);
        return NULL;
    }

    char hex[65];
    const char *hash = meta->program_hash;
    if (!hash) {
        if (sha256_file_hex(meta->program_file, hex)) {
            set_err(err, "cannot read program file %s: %s", meta->program_file, strerror(errno));
            suite_close(w);
            return NULL;
        }
        hash = hex;
    }
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);

    /* element order is fixed by the test-metadata DTD */
    const char *elems[][2] = {
        {"sourcecodelang", "C"},
        {"producer", meta->producer ? meta->producer : "sympath"},
        {"specification", meta->specification ? meta->specification : DEFAULT_SPEC},
        {"programfile", meta->program_file},
        {"programhash", hash},
        {"entryfunction", meta->entry_function ? meta->entry_function : "main"},
        {"architecture", "64bit"},
        {"creationtime", when},
    };
    strbuf b = STRBUF_INIT;
    sb_puts(&b, XML_DECL METADATA_DOCTYPE "<test-metadata>\n");
    for (size_t i = 0; i < sizeof elems / sizeof elems[0]; i++) {
        sb_printf(&b, "  <%s>", elems[i][0]);
        sb_xml_escaped(&b, elems[i][1]);
        sb_printf(&b, "</%s>\n", elems[i][0]);
    }
    sb_puts(&b, "</test-metadata>\n");
    char *path = path_join(w->tests_dir, "metadata.xml");
    int rc = path ? write_buffer(&b, path, err) : (set_err(err, "out of memory"), -1);
    free(path);
    sb_free(&b);
    if (rc) {
        suite_close(w);
        return NULL;
    }
    return w;
}

/* Write tests/test-<num>.xml atomically; 0, or -1 with *err (nothing is left of a failed file). */
static int write_test_file(suite_writer *w, int num, const test_case *tc, const char *comment, char **err)
{
    char name[32];
    snprintf(name, sizeof name, "test-%05d.xml", num);
    char *path = path_join(w->tests_dir, name);
    strbuf b = STRBUF_INIT;
    format_testcase(&b, tc, comment, tc->covers_error != 0);
    int rc = path ? write_buffer(&b, path, err) : (set_err(err, "out of memory"), -1);
    free(path);
    sb_free(&b);
    return rc;
}

int suite_write_test_to(const char *path, const test_case *tc, const char *comment, char **err)
{
    if (err) *err = NULL;
    strbuf b = STRBUF_INIT;
    format_testcase(&b, tc, comment, tc->covers_error != 0);
    int rc = write_buffer(&b, path, err);
    sb_free(&b);
    return rc;
}

int suite_write_test(suite_writer *w, const test_case *tc, const char *comment, char **err)
{
    if (err) *err = NULL;
    int num = w->ntests + 1;
    if (write_test_file(w, num, tc, comment, err)) return -1; /* the number is not used up: the next call retries it */
    w->ntests = num;
    return num;
}

int suite_rewrite_test(suite_writer *w, int num, const test_case *tc, const char *comment, char **err)
{
    if (err) *err = NULL;
    if (num < 1 || num > w->ntests) {
        set_err(err, "no test %d to rewrite", num);
        return -1;
    }
    return write_test_file(w, num, tc, comment, err);
}

int suite_write_error(suite_writer *w, const test_case *tc, const char *description, char **err)
{
    if (err) *err = NULL;
    int num = w->nerrors + 1;
    char name[32];
    int rc = -1;
    strbuf b = STRBUF_INIT;

    /* the .txt first: once the .xml exists, its description does too */
    snprintf(name, sizeof name, "error-%03d.txt", num);
    char *path = path_join(w->errors_dir, name);
    if (!path) {
        set_err(err, "out of memory");
        goto out;
    }
    const char *desc = description ? description : "";
    sb_puts(&b, desc);
    if (b.len == 0 || b.s[b.len - 1] != '\n') sb_puts(&b, "\n");
    if (write_buffer(&b, path, err)) goto out;
    free(path);
    sb_free(&b);

    snprintf(name, sizeof name, "error-%03d.xml", num);
    path = path_join(w->errors_dir, name);
    if (!path) {
        set_err(err, "out of memory");
        goto out;
    }
    format_testcase(&b, tc, NULL, 1);
    if (write_buffer(&b, path, err)) {
        int e = errno; /* no description without its reproducer */
        snprintf(name, sizeof name, "error-%03d.txt", num);
        char *txt = path_join(w->errors_dir, name);
        if (txt) unlink(txt);
        free(txt);
        errno = e;
        goto out;
    }
    w->nerrors = num;
    rc = num;
out:
    free(path);
    sb_free(&b);
    return rc;
}

const char *suite_tests_dir(const suite_writer *w) { return w->tests_dir; }
const char *suite_errors_dir(const suite_writer *w) { return w->errors_dir; }

void suite_close(suite_writer *w)
{
    if (!w) return;
    free(w->tests_dir);
    free(w->errors_dir);
    free(w);
}
