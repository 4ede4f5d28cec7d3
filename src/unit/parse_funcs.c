/* parse_funcs.c: functions of a unit read with libclang: signatures (ut_func), the functions each body calls (mock candidates), the NULL-check scan of a body's tokens. */
#define _GNU_SOURCE
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"
#include "parse_int.h"

/* ---- functions ---- */

typedef struct call_ctx {
    parse_ctx *pc;
} call_ctx;

static void note_called(parse_ctx *pc, CXCursor decl)
{
    char *name = cx_dup(clang_getCursorSpelling(decl));
    for (size_t i = 0; i < pc->ncalled; i++)
        if (!strcmp(pc->called[i], name)) {
            free(name);
            return;
        }
    size_t cap = pc->capcalled;
    char **nc = grow(pc->called, &pc->capcalled, pc->ncalled, sizeof *nc);
    if (!nc) {
        free(name);
        return;
    }
    pc->called = nc;
    size_t cap2 = cap;
    CXCursor *ncur = grow(pc->called_cur, &cap2, pc->ncalled, sizeof *ncur);
    if (!ncur) {
        free(name);
        return;
    }
    pc->called_cur = ncur;
    pc->called[pc->ncalled] = name;
    pc->called_cur[pc->ncalled++] = decl;
}

enum CXChildVisitResult body_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    parse_ctx *pc = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr || k == CXCursor_DeclRefExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) note_called(pc, ref);
    }
    return CXChildVisit_Recurse;
}

/* NULL checks in a function body, on its tokens (unit_scan_null_checks). */
void scan_tokens(parse_ctx *pc, CXCursor fn)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    /* from where the definition is expanded: one that begins inside a macro's body
     * (`API(int) f(...)` with API adding an attribute) would give no tokens */
    CXSourceRange r = clang_getCursorExtent(fn);
    CXFile f;
    unsigned line, col;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, &line, &col, NULL);
    if (f) r = clang_getRange(clang_getLocation(pc->tu, f, line, col), clang_getRangeEnd(r));
    clang_tokenize(pc->tu, r, &toks, &n);
    char **sp = calloc(n + 1, sizeof *sp);
    if (sp) {
        for (unsigned i = 0; i < n; i++) sp[i] = cx_dup(clang_getTokenSpelling(pc->tu, toks[i]));
        unit_scan_null_checks(pc->u, (const char *const *)sp, n);
        unit_scan_written_streams(pc->u, (const char *const *)sp, n);
        char *fname = cx_dup(clang_getCursorSpelling(fn));
        if (fname) unit_scan_opened_paths(pc->u, fname, (const char *const *)sp, n);
        if (fname) unit_scan_negative_returns(pc->u, fname, (const char *const *)sp, n);
        if (fname) unit_scan_backward_params(pc->u, fname, (const char *const *)sp, n);
        if (fname) unit_scan_walked_params(pc->u, fname, (const char *const *)sp, n);
        free(fname);
        for (unsigned i = 0; i < n; i++) free(sp[i]);
        free(sp);
    }
    clang_disposeTokens(pc->tu, toks, n);
}

static char *param_name(CXCursor arg, size_t i)
{
    char *n = cx_dup(clang_getCursorSpelling(arg));
    if (!*n) {
        free(n);
        if (asprintf(&n, "arg%zu", i) < 0) n = NULL;
    }
    return n;
}

/* Declaration text of a function cursor: for a definition, the text before its body (the
 * prelude's fallback when the prototype cannot be rebuilt from the types). */
char *decl_text(parse_ctx *pc, CXCursor c)
{
    unsigned b, e;
    if (cursor_offsets(c, &b, &e) != 0 || e > pc->text_len) return NULL;
    /* a definition: stop at the body's opening brace (parameter lists hold no brace
     * in C, except inside a struct definition in a parameter, which is not supported) */
    unsigned body = e;
    for (unsigned i = b; i < e; i++)
        if (pc->text[i] == '{') {
            body = i;
            break;
        }
    size_t n = body - b;
    while (n > 0 && (pc->text[b + n - 1] == ' ' || pc->text[b + n - 1] == '\n' || pc->text[b + n - 1] == '\t')) n--;
    return strndup(pc->text + b, n);
}

/* The type of parameter cursor a as the harness builds it. A parameter declared as an array of
 * no size (`const BYTE data[]`, `int v[n]`) is the pointer to its element the function receives
 * (C11 6.7.6.3p7): an array local cannot be declared without its size. An array of a constant
 * size (`int arr[4]`, `BYTE hash[32]`) keeps it: the harness builds that many elements. */
static ut_type *param_type(parse_ctx *pc, CXCursor a)
{
    CXType t = clang_getCursorType(a);
    enum CXTypeKind k = clang_getCanonicalType(t).kind; /* `typedef BYTE block[]` too */
    if (k == CXType_IncompleteArray || k == CXType_VariableArray || k == CXType_DependentSizedArray)
        return conv_decayed(pc, t);
    return conv_type(pc, t);
}

int fill_func(parse_ctx *pc, CXCursor c, ut_func *f)
{
    memset(f, 0, sizeof *f);
    f->name = cx_dup(clang_getCursorSpelling(c));
    CXFile file;
    clang_getSpellingLocation(clang_getCursorLocation(c), &file, &f->line, NULL, NULL);
    f->file = file ? cx_dup(clang_getFileName(file)) : strdup(pc->source);
    /* the library's interface: first declared in another file (its header), or in a header */
    CXFile first;
    clang_getSpellingLocation(clang_getCursorLocation(clang_getCanonicalCursor(c)), &first, NULL, NULL, NULL);
    f->in_header = (first && file && !clang_File_isEqual(first, file)) || (f->file && unit_is_header(f->file));
    f->type = conv_type(pc, clang_getCursorType(c));
    int n = clang_Cursor_getNumArguments(c);
    f->nparams = n > 0 ? (size_t)n : 0;
    f->params = calloc(f->nparams + 1, sizeof *f->params);
    if (!f->params || !f->name || !f->type) return -1;
    for (size_t i = 0; i < f->nparams; i++) {
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
        f->params[i].name = param_name(a, i);
        f->params[i].type = param_type(pc, a);
        f->params[i].len_param = f->params[i].buf_param = -1;
    }
    unit_pair_buffers(f);
    return 0;
}

int add_func(ut_func **arr, size_t *n, const ut_func *f)
{
    ut_func *na = realloc(*arr, (*n + 1) * sizeof *na);
    if (!na) return -1;
    *arr = na;
    na[(*n)++] = *f;
    return 0;
}

int has_def(const unit_info *u, const char *name)
{
    for (size_t i = 0; i < u->ndefs; i++)
        if (!strcmp(u->defs[i].name, name)) return 1;
    return 0;
}

void free_func(ut_func *f)
{
    free(f->name);
    free(f->file);
    free(f->decl);
    for (size_t i = 0; i < f->nparams; i++) free(f->params[i].name);
    free(f->params);
}
