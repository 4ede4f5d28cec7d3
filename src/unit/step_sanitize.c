/* step_sanitize.c: step 5b of `sympath unit`: every verified test built with clang-14 -fsanitize=address,undefined and run alone; each report classified (harness defect: dropped; bug of the unit: test_<stem>_bugs.c; leak: released or dropped). */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proto/env.h"
#include "unit/emit_int.h"
#include "unit/pipeline_int.h"
#include "unit/producers_int.h"
#include "util/util.h"

/*
 * The classifier. A HEURISTIC, not a proof: it reads the report's text and decides who owns the
 * memory the faulting access touched, since that is what separates a test the unit's own API
 * could never set up from a bug of the unit.
 *
 *   - The object is the TEST's when ASan places it in a frame of the test file (a local or a
 *     compound literal of the test function), a heap block the test file allocated (heap-mode
 *     inputs), or a global defined in the test file.
 *       . an access BEFORE its start (underflow, "to the left of") is a harness defect: the
 *         unit expected a header in front of the pointer (sds-like strings) that only its own
 *         constructors write;
 *       . an access AFTER its end is the unit's bug when the function was told the extent of
 *         that input (a buffer with a length parameter, a NUL-terminated string), else a harness
 *         defect: the unit expected a bigger object (an array without a length) than the test built;
 *       . use after free / double free of a test object: a harness defect (the test's release
 *         of an object the unit kept or freed).
 *   - The object is the UNIT's (allocated by a frame in a unit file, a frame of the unit, a
 *     global defined in a unit file): a bug of the unit when the faulting access's stack passes
 *     through the unit; when it does not (the test's assertion reads a returned buffer as a
 *     string), a harness defect.
 *   - A SEGV or a UBSan null-pointer report while the test passes a NULL among its inputs is a
 *     harness defect (the function does not accept NULL there); otherwise, in the unit, a bug.
 *   - Other UBSan reports (signed overflow, shift, misaligned access, ...) located in a unit file
 *     are bugs; located in the test, harness defects.
 *   - LeakSanitizer reports are leaks: the caller tries to release the result, else drops the test.
 * Anything else is USAN_UNKNOWN (dropped with the report's first line).
 */

/* The line of text starting at p (without its newline), malloc'ed. */
static char *line_at(const char *p)
{
    const char *e = strchr(p, '\n');
    return strndup(p, e ? (size_t)(e - p) : strlen(p));
}

/* Whether the text [p, p+len) names file path (any directory) as "/BASE:" or " BASE:". */
static int mentions_file(const char *p, size_t len, const char *path)
{
    if (!path || !*path) return 0;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t bl = strlen(base);
    for (const char *q = p; q + bl < p + len; q++) {
        q = memmem(q, (size_t)(p + len - q), base, bl);
        if (!q) return 0;
        if ((q == p || q[-1] == '/' || q[-1] == ' ' || q[-1] == '\'') && q[bl] == ':') return 1;
    }
    return 0;
}

static int in_unit(const unit_san_ctx *c, const char *p, size_t len)
{
    for (size_t i = 0; i < c->nunit_files; i++)
        if (mentions_file(p, len, c->unit_files[i])) return 1;
    return 0;
}

/* The next stack frame line ("    #N 0x... in FUNC FILE:L:C") at or after p, up to the first blank
 * line; NULL when the trace ends. *len gets its length. */
static const char *next_frame(const char *p, size_t *len)
{
    while (p && *p) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        const char *q = p;
        while (*q == ' ') q++;
        if (*q == '#') {
            *len = l;
            return p;
        }
        if (l == 0 || q == p + l) return NULL; /* a blank line ends the trace */
        p = e ? e + 1 : p + l;
    }
    return NULL;
}

/* The frames of the trace starting at p that are in the unit, as "#N in FUNC FILE:L:C" lines
 * appended to b (at most max). */
static void unit_frames(strbuf *b, const unit_san_ctx *c, const char *p, int max)
{
    size_t l = 0;
    for (const char *f = next_frame(p, &l); f && max > 0; f = next_frame(f + l + 1, &l)) {
        if (!in_unit(c, f, l)) {
            if (!f[l]) break;
            continue;
        }
        const char *in = memmem(f, l, " in ", 4);
        const char *hash = strchr(f, '#');
        size_t nl = 0;
        while (hash && hash[nl] && hash[nl] != ' ') nl++;
        sb_printf(b, "  %.*s%.*s\n", (int)nl, hash, in ? (int)(f + l - in) : 0, in ? in : "");
        max--;
        if (!f[l]) break;
    }
}

/* Whether a frame of the trace at p (the faulting access's stack) is in the unit. */
static int access_in_unit(const unit_san_ctx *c, const char *p)
{
    size_t l = 0;
    for (const char *f = next_frame(p, &l); f; f = f[l] ? next_frame(f + l + 1, &l) : NULL)
        if (in_unit(c, f, l)) return 1;
    return 0;
}

/* The first frame of the trace at p that is neither the sanitizer's interceptor nor libc's
 * allocator (the code that asked for the memory), or NULL. */
static const char *first_own_frame(const char *p, size_t *len)
{
    for (const char *f = next_frame(p, len); f; f = next_frame(f + *len + (f[*len] ? 1 : 0), len)) {
        if (memmem(f, *len, "__interceptor_", 14) || memmem(f, *len, "asan_", 5) || memmem(f, *len, "libc.so", 7))
            continue;
        return f;
    }
    return NULL;
}

/* Whether the sanitizer output out reports a leak of a block the test function test itself allocated
 * (the first frame after the allocator's is in it): not the unit's, but a string the test handed to a
 * made object on the belief that its destructor frees it (emit_made_owned). */
static int leak_of_test(const char *out, const char *test)
{
    const char *l = out ? strstr(out, "leak of ") : NULL;
    const char *a = l ? strstr(l, "allocated from:") : NULL;
    if (!a) return 0;
    for (const char *line = strchr(a, '\n'); line && line[1] == ' '; line = strchr(line + 1, '\n')) {
        const char *e = strchr(line + 1, '\n');
        size_t len = e ? (size_t)(e - line) : strlen(line);
        char buf[512];
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = 0;
        if (strstr(buf, "__interceptor_") || strstr(buf, " in malloc") || strstr(buf, " in calloc") ||
            strstr(buf, " in realloc"))
            continue;
        char want[300];
        snprintf(want, sizeof want, " in %s ", test);
        return strstr(buf, want) != NULL;
    }
    return 0;
}

/* The variable a heap-mode line of the test allocates: "    T *x_obj = malloc(...)" -> "x_obj". */
static char *malloced_name(const char *test_text, unsigned line)
{
    const char *p = test_text;
    for (unsigned k = 1; p && k < line; k++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p) return NULL;
    char *l = line_at(p);
    char *eq = l ? strstr(l, "= malloc(") : NULL;
    if (!eq && l) eq = strstr(l, "= calloc("); /* text: zeroed, then its literal */
    char *name = NULL;
    if (eq) {
        char *e = eq;
        while (e > l && e[-1] == ' ') e--;
        char *s = e;
        while (s > l && (isalnum((unsigned char)s[-1]) || s[-1] == '_')) s--;
        if (s < e) name = strndup(s, (size_t)(e - s));
    }
    free(l);
    return name;
}

/* Whether the object named obj ("buf_obj", "s") is the input of one of the n names. */
static int input_among(const char *const *names, size_t n, const char *obj)
{
    if (!obj) return 0;
    size_t ol = strlen(obj);
    if (ol > 4 && !strcmp(obj + ol - 4, "_obj")) ol -= 4;
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) == ol && !strncmp(names[i], obj, ol)) return 1;
    return 0;
}

/* Whether an access (READ or WRITE, acc: the report's access line) past the end of the input obj
 * is the unit's fault: the function was told its extent (a buffer with a length, a string it
 * reads), not an output string written past the end (the caller sizes that buffer). */
static int sized(const unit_san_ctx *c, const char *obj, const char *acc)
{
    if (!input_among(c->sized_inputs, c->nsized_inputs, obj)) return 0;
    int write = acc && !strncmp(acc, "WRITE", 5);
    return !(write && input_among(c->out_strings, c->nout_strings, obj));
}

/* The input's name as the reason gives it: "s_obj" -> "s". */
static char *input_name(const char *obj)
{
    size_t ol = strlen(obj);
    if (ol > 4 && !strcmp(obj + ol - 4, "_obj")) ol -= 4;
    return strndup(obj, ol);
}

static void excerpt_add_line(strbuf *b, const char *p)
{
    if (!p) return;
    char *l = line_at(p);
    char *pc = l ? strstr(l, " at pc 0x") : NULL; /* registers say nothing to the reader */
    if (pc) *pc = 0;
    char *s = l;
    while (s && *s == ' ') s++;
    if (s && *s) sb_printf(b, "%s\n", s);
    free(l);
}

void unit_san_classify(const char *report, const unit_san_ctx *c, unit_san_verdict *v)
{
    memset(v, 0, sizeof *v);
    if (!report) return;
    const char *asan = strstr(report, "ERROR: AddressSanitizer: ");
    const char *ub = strstr(report, ": runtime error: ");
    const char *leak = strstr(report, "ERROR: LeakSanitizer:");
    strbuf ex = STRBUF_INIT;
    if (ub && (!asan || ub < asan)) {
        /* UBSan: "FILE:L:C: runtime error: TEXT", then the stack with print_stacktrace=1 */
        const char *ls = ub;
        while (ls > report && ls[-1] != '\n') ls--;
        char *line = line_at(ls);
        const char *what = ub + strlen(": runtime error: ");
        char *text = line_at(what);
        int unit_loc = in_unit(c, ls, (size_t)(ub - ls) + 1);
        excerpt_add_line(&ex, ls);
        unit_frames(&ex, c, ub, 4);
        const char *sum = strstr(ub, "SUMMARY: ");
        excerpt_add_line(&ex, sum);
        if (strstr(text, "null pointer") && c->null_input) {
            v->kind = USAN_HARNESS;
            v->reason = util_strf("sanitizer: %s (a NULL input: the function does not accept NULL there)", text);
        } else if (unit_loc) {
            v->kind = USAN_BUG;
            v->reason = util_strf("undefined behaviour: %s", text);
        } else {
            v->kind = USAN_HARNESS;
            v->reason = util_strf("sanitizer: %s (outside the unit)", text);
        }
        free(line);
        free(text);
        v->excerpt = ex.s;
        return;
    }
    if (asan) {
        const char *kw = asan + strlen("ERROR: AddressSanitizer: ");
        size_t kl = strcspn(kw, " \n");
        char *kind = strndup(kw, kl);
        if (!strncmp(kw, "attempting double-free", 22)) {
            free(kind);
            kind = strdup("double-free");
        } else if (!strncmp(kw, "attempting free on address which was not malloc", 48)) {
            free(kind);
            kind = strdup("bad-free");
        } else if (!strncmp(kw, "requested allocation size", 26)) {
            /* glibc returns NULL, which the test's run took natively; ASan stops the program instead */
            free(kind);
            excerpt_add_line(&ex, asan);
            unit_frames(&ex, c, asan, 4);
            v->kind = USAN_HARNESS;
            v->reason = strdup("sanitizer: allocation-size-too-big (a size no allocator gives: glibc returns NULL, "
                               "ASan stops the test)");
            v->excerpt = ex.s;
            return;
        }
        excerpt_add_line(&ex, asan);
        const char *acc = strstr(asan, "READ of size");
        if (!acc) acc = strstr(asan, "WRITE of size");
        if (acc) excerpt_add_line(&ex, acc);
        unit_frames(&ex, c, acc ? acc : asan, 4);
        const char *where = strstr(asan, "is located ");
        if (where) {
            const char *ls = where;
            while (ls > asan && ls[-1] != '\n') ls--;
            excerpt_add_line(&ex, ls);
        }
        /* who owns the object, and on which side the access fell */
        int owner = 0; /* 1 test, 2 unit, 0 unknown */
        int before = 0;
        char *obj = NULL;
        const char *stack = where ? strstr(where, "is located in stack of thread") : NULL;
        if (stack && stack == where) {
            size_t l = 0;
            const char *f = next_frame(strchr(stack, '\n') ? strchr(stack, '\n') + 1 : stack, &l);
            if (f && mentions_file(f, l, c->test_file))
                owner = 1;
            else if (f && in_unit(c, f, l))
                owner = 2;
            else if (!strcmp(kind, "dynamic-stack-buffer-overflow"))
                owner = 2; /* alloca or a VLA, which ASan gives no frame: never the test's (it declares neither) */
            const char *mark = strstr(stack, "<== Memory access at offset");
            if (mark) {
                const char *ls = mark;
                while (ls > stack && ls[-1] != '\n') ls--;
                const char *q1 = memchr(ls, '\'', (size_t)(mark - ls));
                const char *q2 = q1 ? memchr(q1 + 1, '\'', (size_t)(mark - q1 - 1)) : NULL;
                if (q1 && q2) obj = strndup(q1 + 1, (size_t)(q2 - q1 - 1));
                char *ml = line_at(mark);
                before = strstr(ml, "underflows") != NULL;
                free(ml);
                excerpt_add_line(&ex, ls);
            }
        } else if (where && strstr(where, "of global variable '") == strstr(where, "global variable '") &&
                   strstr(where, "global variable '")) {
            const char *g = strstr(where, "global variable '") + strlen("global variable '");
            const char *ge = strchr(g, '\'');
            if (ge) obj = strndup(g, (size_t)(ge - g));
            const char *nl = strchr(where, '\n');
            size_t l = nl ? (size_t)(nl - where) : strlen(where);
            owner = mentions_file(where, l, c->test_file) ? 1 : in_unit(c, where, l) ? 2 : 0;
            before = memmem(where, l, "to the left of", 14) != NULL;
        } else if (where) {
            /* a heap block: who allocated it */
            const char *nl = strchr(where, '\n');
            size_t wl = nl ? (size_t)(nl - where) : strlen(where);
            before = memmem(where, wl, "to the left of", 14) != NULL;
            const char *al = strstr(where, "allocated by thread");
            size_t l = 0;
            const char *f = al ? first_own_frame(strchr(al, '\n') ? strchr(al, '\n') + 1 : al, &l) : NULL;
            if (f && mentions_file(f, l, c->test_file)) {
                owner = 1;
                const char *tf = memmem(f, l, c->test_file, strlen(c->test_file));
                if (tf && c->test_text)
                    obj = malloced_name(c->test_text, (unsigned)atoi(tf + strlen(c->test_file) + 1));
            } else if (f && in_unit(c, f, l)) {
                owner = 2;
            }
        }
        const char *sum = strstr(asan, "SUMMARY: ");
        excerpt_add_line(&ex, sum);
        char *in = obj ? input_name(obj) : strdup("?");
        if (!strcmp(kind, "SEGV")) {
            if (c->null_input) {
                v->kind = USAN_HARNESS;
                v->reason = strdup("sanitizer: SEGV with a NULL input (the function does not accept NULL there)");
            } else {
                size_t l = 0;
                const char *f = next_frame(asan, &l);
                v->kind = f && in_unit(c, f, l) ? USAN_BUG : USAN_UNKNOWN;
                v->reason = strdup(v->kind == USAN_BUG ? "SEGV in the unit" : "sanitizer: SEGV outside the unit");
            }
        } else if (owner == 1) {
            v->kind = USAN_HARNESS;
            if (strstr(kind, "free") || strstr(kind, "after"))
                v->reason = util_strf("sanitizer: %s on input %s (built by the test, released twice)", kind, in);
            else if (before && input_among(c->whole_buffers, c->nwhole_buffers, obj))
                v->kind = USAN_BUG,
                v->reason = util_strf("%s before the start of input %s (a buffer with its length)", kind, in);
            else if (before) /* ASan names a heap underflow "heap-buffer-overflow" too */
                v->reason = util_strf("sanitizer: %s%s on input %s (built by the test, not by the unit)", kind,
                                      strstr(kind, "underflow") ? "" : " before the start", in);
            else if (sized(c, obj, acc))
                v->kind = USAN_BUG,
                v->reason = util_strf("%s past the end of input %s (its extent is a parameter)", kind, in);
            else
                v->reason = util_strf(
                    "sanitizer: %s on input %s (built by the test, not by the unit: the unit expects a larger object)",
                    kind, in);
        } else if (owner == 2 && !access_in_unit(c, acc ? acc : asan)) {
            /* the unit's object, but the faulting access is the test's own (an assertion reading a
             * returned buffer as a string): the test is wrong, not the unit */
            v->kind = USAN_HARNESS;
            v->reason = util_strf("sanitizer: %s in the test's own code, on memory the unit returned", kind);
        } else if (owner == 2) {
            v->kind = USAN_BUG;
            v->reason = obj ? util_strf("%s on %s (the unit's memory)", kind, obj)
                            : util_strf("%s on memory the unit allocated", kind);
        } else {
            v->kind = USAN_UNKNOWN;
            v->reason = util_strf("sanitizer: %s (not classified)", kind);
        }
        free(in);
        free(obj);
        free(kind);
        v->excerpt = ex.s;
        return;
    }
    if (leak) {
        const char *d = strstr(leak, "leak of ");
        char *what = d ? line_at(d - (strncmp(d - 7, "Direct ", 7) ? 0 : 7)) : strdup("leak");
        excerpt_add_line(&ex, leak);
        if (d) excerpt_add_line(&ex, what);
        unit_frames(&ex, c, d ? d : leak, 4);
        v->kind = USAN_LEAK;
        v->reason = util_strf("sanitizer: leak (%s)", what ? what : "?");
        free(what);
        v->excerpt = ex.s;
        return;
    }
    sb_free(&ex);
}

void unit_san_verdict_free(unit_san_verdict *v)
{
    free(v->reason);
    free(v->excerpt);
    memset(v, 0, sizeof *v);
}

/* ---- the step ---- */

#define SAN_FLAGS "-g -O0 -w -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
/* detect_leaks: LSan comes with ASan on Linux; allow_user_segv_handler: a test expecting SIGSEGV
 * resets it to SIG_DFL in its child; print_stacktrace: UBSan's frames in the unit. LSan's use_stacks=0,
 * use_registers=0: each test runs alone and has returned when LSan looks, so a block only a dead stack
 * slot still points to is leaked; with the defaults, a test run alone kept it "reachable" from there
 * and passed, and the same test leaked in the whole suite (sv.h: a view's text the test calloc'ed) */
static char *san_env[] = {"ASAN_OPTIONS=detect_leaks=1:allow_user_segv_handler=1:handle_abort=0:symbolize=1",
                          "LSAN_OPTIONS=use_stacks=0:use_registers=0",
                          "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1", "LC_ALL=C", NULL};
/* A test whose call exits (argparse's usage error: exit(1) with its option buffer still held by the caller's
 * struct): the frames are live when LSan looks at exit, so what they point to is reachable, not leaked (with
 * use_stacks=0 every such test was dropped as a leak) */
static char *san_env_exit[] = {"ASAN_OPTIONS=detect_leaks=1:allow_user_segv_handler=1:handle_abort=0:symbolize=1",
                               "LSAN_OPTIONS=use_stacks=1:use_registers=1",
                               "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1", "LC_ALL=C", NULL};

static const char *san_cc(void) { return getenv(SYMPATH_ENV_CC) ? getenv(SYMPATH_ENV_CC) : SYMPATH_CLANG; }

/* Whether clang-14 can link a sanitized program (libclang-rt-14-dev): tried once per process. */
static int runtime_ok(const char *dir, FILE *log)
{
    static int state = -1;
    if (state >= 0) return state;
    char *c = util_strf("%s/san_probe.c", dir), *e = util_strf("%s/san_probe", dir),
         *l = util_strf("%s/san_probe.log", dir);
    state = 0;
    if (c && e && l && util_write_atomic(c, "int main(void) { return 0; }\n", 29) == 0) {
        char *argv[] = {(char *)san_cc(), "-fsanitize=address,undefined", c, "-o", e, NULL};
        int st = 0;
        char *run[] = {e, NULL};
        state = up_run(argv, NULL, l, 60, &st) == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
                up_run(run, san_env, l, 20, &st) == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    if (!state)
        fprintf(log,
                "sympath unit: clang-14's sanitizer runtime is missing (Debian: libclang-rt-14-dev): the tests are "
                "not checked under ASan/UBSan/LSan\n");
    if (c) unlink(c);
    if (e) unlink(e);
    free(c);
    free(e);
    free(l);
    return state;
}

/* Where a sanitizer report's excerpt places the fault: its SUMMARY line from the first '/' (the file, line
 * and column, the function), else the whole excerpt; the length in *n. */
static const char *bug_place(const char *excerpt, size_t *n)
{
    const char *s = excerpt ? strstr(excerpt, "SUMMARY: ") : NULL;
    const char *p = s ? strchr(s, '/') : NULL;
    const char *from = p ? p : excerpt ? excerpt : "";
    *n = strcspn(from, "\n");
    return from;
}

/* The name of a test of t's function already moved to the bugs file for a fault at the place v's report
 * names, or NULL. */
static const char *same_bug(const tests_vec *moved, const unit_test *t, const unit_san_verdict *v)
{
    size_t n = 0, m = 0;
    const char *place = bug_place(v->excerpt, &n);
    for (size_t i = 0; n && i < moved->n; i++) {
        const unit_test *o = &moved->v[i];
        const char *op = o->fn == t->fn && o->note ? bug_place(strstr(o->note, "SUMMARY: "), &m) : NULL;
        if (op && m == n && !memcmp(op, place, n)) return o->name;
    }
    return NULL;
}

/* The inputs of t whose extent its function knows (buffer with a length, plain char string);
 * *outs (malloc'ed, *nout names) gets the non-const strings without a length among them (output
 * buffers), *whole (malloc'ed, *nwhole names) those with a length whose type is written as a
 * pointer (unit_san_ctx.whole_buffers). The arrays borrow the names from t. */
static const char **sized_inputs(const unit_test *t, size_t *n, const char ***outs, size_t *nout, const char ***whole,
                                 size_t *nwhole)
{
    const ut_func *f = t->fn;
    const char **v = calloc(f->nparams + 1, sizeof *v);
    *outs = calloc(f->nparams + 1, sizeof **outs);
    *whole = calloc(f->nparams + 1, sizeof **whole);
    *n = *nout = *nwhole = 0;
    for (size_t i = 0; v && i < f->nparams; i++) {
        const ut_type *ty = f->params[i].type;
        int str = ty->kind == UT_PTR && ty->pointee && ty->pointee->is_plain_char;
        if (f->params[i].len_param >= 0 || str) v[(*n)++] = f->params[i].name;
        if (str && f->params[i].len_param < 0 && !ty->pointee->is_const && *outs)
            (*outs)[(*nout)++] = f->params[i].name;
        if (f->params[i].len_param >= 0 && ty->kind == UT_PTR && strchr(ty->spelling, '*') && *whole)
            (*whole)[(*nwhole)++] = f->params[i].name;
    }
    return v;
}

/* Whether the test passes a NULL pointer among its inputs (a recorded pointer value 0 before the call). */
static int has_null_input(const unit_test *t)
{
    for (size_t i = 0; i < t->rec.nentries; i++) {
        const ur_entry *e = &t->rec.entries[i];
        size_t k;
        const ur_object *o = obj_by_id(&t->rec, e->obj, &k);
        if (o && (o->global || o->result)) continue;
        if (e->pre.kind == 'p' && e->pre.text && !strcmp(e->pre.text, "0")) return 1;
    }
    return 0;
}

/* The unit's function releasing what t's function returns: a unit function named like a
 * destructor (free, delete, destroy, release, in any case: cJSON_Delete) taking exactly that type and
 * returning void;
 * else "free". */
const char *sanitize_releaser(const unit_info *u, const ut_func *f)
{
    /* an array with its count out (`sds *sdssplitargs(line, int *argc)`): the unit's destructor
     * of (array, count) releases the elements too (sdsfreesplitres) */
    const char *a = unit_result_count(f) >= 0 ? unit_array_destructor(u, f->type->ret) : NULL;
    if (a) return a;
    const char *d = unit_destructor(u, f->type->ret); /* sdsfree, cJSON_Delete, Node_Destroy */
    return d ? d : "free";
}

/* Whether the call of t returned a pointer that is no input object (fresh memory, perhaps). */
int sanitize_returns_fresh(const unit_test *t)
{
    const ur_value *r = &t->rec.ret;
    return t->fn->type->ret->kind == UT_PTR && t->outcome == UO_NORMAL &&
           ((r->kind == 'p' && r->text && !strcmp(r->text, "-1")) || r->kind == 's');
}

/* The comment of a test in _bugs.c: the verdict, the report's excerpt, the call. */
static char *bug_note(const unit_test *t, const unit_san_verdict *v, const char *body)
{
    strbuf b = STRBUF_INIT;
    sb_printf(&b, " * %s: %s\n * The sanitizers' report (clang-14 -fsanitize=address,undefined):\n", t->name,
              v->reason);
    for (const char *p = v->excerpt; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        sb_puts(&b, " *   ");
        for (size_t i = 0; i < l; i++) sb_printf(&b, "%c", p[i] == '*' && i + 1 < l && p[i + 1] == '/' ? '?' : p[i]);
        sb_puts(&b, "\n");
        p = nl ? nl + 1 : p + l;
    }
    const char *call = body ? strstr(body, t->fn->name) : NULL;
    while (call && call > body && call[-1] != ' ' && call[-1] != '(') call = strstr(call + 1, t->fn->name);
    if (call) {
        char *l = line_at(call);
        sb_printf(&b, " * The call: %s\n", l);
        free(l);
    }
    return b.s;
}

/* Remove test i of tv (the vector keeps its order). */
static void tv_remove(tests_vec *tv, size_t i)
{
    memmove(&tv->v[i], &tv->v[i + 1], (tv->n - i - 1) * sizeof *tv->v);
    tv->n--;
}

static fn_result *fr_of(fn_result *frs, size_t nfr, const ut_func *f)
{
    for (size_t k = 0; k < nfr; k++)
        if (frs[k].fn == f) return &frs[k];
    return NULL;
}

size_t sanitize_file(const unit_cfg *c, const char *dir, const char *src, tests_vec *tv, fn_result *frs, size_t nfr,
                     char **text, char **bugs, double *seconds)
{
    double t0 = util_now_s();
    *bugs = NULL;
    *seconds = 0;
    if (!*text || tv->n == 0 || !runtime_ok(dir, c->log)) return tv->n;
    char *st = uc_stem(src);
    char *sdir = util_strf("%s/san_%s", dir, st);
    char *test_base = util_strf("test_%s.c", st);
    char *test_c = util_strf("%s/%s", sdir, test_base), *exe = util_strf("%s/t", sdir),
         *log = util_strf("%s/log", sdir);
    tests_vec moved = {NULL, 0, NULL};
    if (!sdir || !test_base || !test_c || !exe || !log) goto out;
    util_mkdir_p(sdir);
    for (int round = 0; round < 4 && tv->n > 0; round++) {
        if (util_write_atomic(test_c, *text, strlen(*text)) != 0) break;
        char **argv = unit_test_cc_argv(c, san_cc(), SAN_FLAGS, test_c, exe);
        int status = 0;
        int rc = up_run(argv, san_env, log, 180, &status);
        util_free_strv(argv);
        if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            char *l = util_read_file(log, NULL);
            fprintf(c->log, "sympath unit: the tests of %s do not build with the sanitizers (not checked):\n%.600s\n",
                    uc_base_name(src), l ? l : "");
            free(l);
            break;
        }
        for (size_t k = 0; k < nfr; k++)
            if (!strcmp(frs[k].fn->file, src)) frs[k].san_checked = 1;
        int changed = 0, released = 0;
        for (size_t i = 0; i < tv->n; i++) {
            unit_test *t = &tv->v[i];
            char *targv[] = {exe, t->name, NULL};
            char *tlog = util_strf("%s/%s.log", sdir, t->name); /* the whole report stays there */
            rc = up_run(targv, t->outcome == UO_EXIT ? san_env_exit : san_env, tlog ? tlog : log, 30, &status);
            char *out = util_read_file(tlog ? tlog : log, NULL);
            free(tlog);
            int passed = rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
            size_t nsized = 0, nouts = 0, nwhole = 0;
            const char **outs = NULL, **whole = NULL, **sz = sized_inputs(t, &nsized, &outs, &nouts, &whole, &nwhole);
            unit_san_ctx ctx = {test_base,
                                *text,
                                (const char *const *)c->abs_sources,
                                c->nsources,
                                sz,
                                nsized,
                                has_null_input(t),
                                outs,
                                nouts,
                                whole,
                                nwhole};
            unit_san_verdict v;
            unit_san_classify(out, &ctx, &v);
            free(sz);
            free(outs);
            free(whole);
            char *out_copy = out; /* freed after the verdict is acted on */
            fn_result *fr = fr_of(frs, nfr, t->fn);
            if (v.kind == USAN_NONE && passed) {
                unit_san_verdict_free(&v);
                free(out_copy);
                continue;
            }
            if (v.kind == USAN_LEAK && !t->unowned && leak_of_test(out_copy, t->name)) {
                /* a string the test allocated for a made object's destructor to free, which it did not:
                 * declared as a local, run again */
                t->unowned = 1;
                released = changed = 1;
            } else if (v.kind == USAN_LEAK && !t->release && sanitize_returns_fresh(t)) {
                t->release = sanitize_releaser(c->u, t->fn); /* released after the assertions, then run again */
                t->release_owned = !strcmp(t->release, "free") && t->rec.nretowns; /* and its fields' blocks */
                released = changed = 1;
            } else if (v.kind == USAN_LEAK && t->release && !strcmp(t->release, "free") && !t->release_owned &&
                       t->rec.nretowns) {
                t->release_owned = 1; /* freed as one block, the result leaked what its fields point to */
                released = changed = 1;
            } else if (v.kind == USAN_BUG && same_bug(&moved, t, &v)) {
                /* one reproducer per function and bug location, as `sympath run` keeps one per error */
                char *w = util_strf("the same bug as %s (%s)", same_bug(&moved, t, &v), v.reason);
                if (fr) add_drop(fr, t->name, w ? w : "the same bug as another test");
                free(w);
                tv_remove(tv, i--);
                changed = 1;
            } else if (v.kind == USAN_BUG) {
                char *body = unit_emit_test_body(c->u, t);
                t->note = bug_note(t, &v, body);
                free(body);
                unit_test *nv = realloc(moved.v, (moved.n + 1) * sizeof *nv);
                if (nv) {
                    moved.v = nv;
                    moved.v[moved.n++] = *t;
                }
                if (fr) {
                    fr->san_bugs++;
                    char *nl = util_strf("%s%s: %s\n", fr->san_bug_lines ? fr->san_bug_lines : "", t->name, v.reason);
                    free(fr->san_bug_lines);
                    fr->san_bug_lines = nl;
                }
                tv_remove(tv, i--);
                changed = 1;
            } else {
                const char *why = v.kind == USAN_NONE ? "sanitizer: fails under ASan+UBSan without a report"
                                  : v.kind == USAN_LEAK && t->release
                                      ? "sanitizer: leak (releasing the result does not help)"
                                      : v.reason;
                char *w = v.kind == USAN_LEAK && !t->release && !sanitize_returns_fresh(t)
                              ? util_strf("%s: memory the call allocated is not reachable from the test", v.reason)
                              : strdup(why ? why : "sanitizer");
                if (fr) {
                    add_drop(fr, t->name, w ? w : "sanitizer");
                    fr->san_dropped++;
                }
                free(w);
                tv_remove(tv, i--);
                changed = 1;
            }
            unit_san_verdict_free(&v);
            free(out_copy);
        }
        if (!changed) break;
        free(*text);
        *text = NULL;
        if (tv->n == 0) break;
        if (released) {
            /* a test that now releases its result is a new test: verified natively again */
            verify_file(c, dir, src, tv, frs, nfr, text);
            if (!*text) break;
            continue; /* and checked under the sanitizers again */
        }
        *text = unit_emit_tests(c->u, tv->v, tv->n, c->mocked, c->nmocked, uc_base_name(src));
        break; /* removals only: the remaining tests were clean */
    }
    if (moved.n) {
        char *t = unit_emit_tests(c->u, moved.v, moved.n, c->mocked, c->nmocked, uc_base_name(src));
        const char *rest = t ? strstr(t, "*/\n") : NULL; /* the suite's header comment is replaced */
        if (t && rest)
            *bugs = util_strf(
                "/* test_%s_bugs.c: tests that show BUGS of %s under AddressSanitizer / UndefinedBehaviorSanitizer\n"
                " * (each test's comment holds the report). Not a regression suite: natively they pass with the\n"
                " * values observed, under the sanitizers they fail. Build them with\n"
                " *   clang -g -fsanitize=address,undefined -fno-sanitize-recover=undefined ...\n"
                " * (the same line as test_%s.c otherwise) to see each report. */%s",
                st, uc_base_name(src), st, rest + 2);
        free(t);
        for (size_t i = 0; i < moved.n; i++) {
            free(moved.v[i].note);
            moved.v[i].note = NULL;
        }
    }
out:
    free(moved.v);
    if (exe) unlink(exe);
    free(st);
    free(sdir);
    free(test_base);
    free(test_c);
    free(exe);
    free(log);
    *seconds = util_now_s() - t0;
    return *text ? tv->n : 0;
}
