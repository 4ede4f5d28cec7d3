/* parse.c: a C unit read with libclang: each source's top-level declarations (targets, globals, prelude items), diagnostics, mock candidates; unit_info and its lookups. */
#define _GNU_SOURCE
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"
#include "parse_int.h"

#ifndef SYMPATH_INCLUDE_DIR
#define SYMPATH_INCLUDE_DIR "include"
#endif

char *cx_dup(CXString s)
{
    const char *c = clang_getCString(s);
    char *r = strdup(c ? c : "");
    clang_disposeString(s);
    return r;
}

void *grow(void *p, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap) return p;
    size_t nc = *cap ? *cap * 2 : 8;
    void *q = realloc(p, nc * elem);
    if (!q) return NULL;
    *cap = nc;
    return q;
}

/* ---- text of the main file ---- */

/* Byte offsets of a cursor's text in its file. The start is taken where it is expanded: a
 * declaration that begins with a macro (`API(int) f(void)`, the type inside the macro's
 * argument) starts at the macro's name, not at the argument; libclang already moves the end
 * past a macro invocation. */
int cursor_offsets(CXCursor c, unsigned *b, unsigned *e)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1, f2;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, b);
    clang_getSpellingLocation(clang_getRangeEnd(r), &f2, NULL, NULL, e);
    return f1 && f2 && clang_File_isEqual(f1, f2) && *b <= *e ? 0 : -1;
}

/* Whether c is in the main file, also when its name comes out of a macro's argument
 * (`API(int (*hook(int k))(int))`): libclang counts such a location as the macro's. */
static int in_main_file(CXCursor c)
{
    CXSourceLocation l = clang_getCursorLocation(c);
    if (clang_Location_isFromMainFile(l)) return 1;
    CXFile f;
    unsigned line, col;
    clang_getExpansionLocation(l, &f, &line, &col, NULL);
    return f && clang_Location_isFromMainFile(clang_getLocation(clang_Cursor_getTranslationUnit(c), f, line, col));
}

static void push_item(top_ctx *tc, CXCursor c, int kind)
{
    unsigned b, e;
    if (cursor_offsets(c, &b, &e) != 0) return;
    top_item *ni = grow(tc->items, &tc->cap, tc->n, sizeof *ni);
    if (!ni) return;
    tc->items = ni;
    tc->items[tc->n++] = (top_item){b, e, kind, c};
}

static void add_global(parse_ctx *pc, CXCursor c);

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    top_ctx *tc = d;
    parse_ctx *pc = tc->pc;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_FunctionDecl && clang_Location_isInSystemHeader(clang_getCursorLocation(c))) {
        char **ns = grow(tc->sysfuncs, &tc->capsys, tc->nsys, sizeof *ns);
        if (ns) {
            tc->sysfuncs = ns;
            tc->sysfuncs[tc->nsys++] = cx_dup(clang_getCursorSpelling(c));
        }
    }
    if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
        char **nd = realloc(*pc->defined, (*pc->ndefined + 1) * sizeof *nd);
        if (nd) {
            *pc->defined = nd;
            nd[(*pc->ndefined)++] = cx_dup(clang_getCursorSpelling(c));
        }
        /* calls from every function body of this file (static helpers included) */
        clang_visitChildren(c, body_visit, pc);
        if (in_main_file(c))
            scan_tokens(pc, c);
        else if (!clang_Location_isInSystemHeader(clang_getCursorLocation(c))) {
            /* defined in a project header (a header-only library): named when asked for */
            CXFile hf;
            clang_getExpansionLocation(clang_getCursorLocation(c), &hf, NULL, NULL, NULL);
            char **nh = hf ? realloc(pc->u->header_defs, (pc->u->nheader_defs + 2) * sizeof *nh) : NULL;
            if (nh) {
                pc->u->header_defs = nh;
                nh[pc->u->nheader_defs++] = cx_dup(clang_getCursorSpelling(c));
                nh[pc->u->nheader_defs++] = cx_dup(clang_getFileName(hf));
            }
            /* with its signature, once (every source that includes the header sees it) */
            char *hn = cx_dup(clang_getCursorSpelling(c));
            int seen = !hn;
            for (size_t i = 0; hn && i < pc->u->nhfuncs && !seen; i++) seen = !strcmp(pc->u->hfuncs[i].name, hn);
            free(hn);
            ut_func f;
            if (!seen && fill_func(pc, c, &f) == 0) add_func(&pc->u->hfuncs, &pc->u->nhfuncs, &f);
        }
    }
    /* every enum of the unit's files is known, also one no signature uses: parson's `enum
     * json_value_type` behind `typedef int JSON_Value_Type` names the members of a tagged union
     * (harness_walk.c) */
    if (k == CXCursor_EnumDecl && clang_isCursorDefinition(c) &&
        !clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        conv_type(pc, clang_getCursorType(c));
    if (!in_main_file(c)) return CXChildVisit_Continue;
    switch (k) {
    case CXCursor_InclusionDirective:
    case CXCursor_MacroDefinition: push_item(tc, c, 0); break;
    case CXCursor_StructDecl:
    case CXCursor_UnionDecl:
        /* an unnamed struct of a variable (`static const struct { ... } tab[] = ...`, http-parser's
         * http_strerror_tab): copied alone it is a declaration that declares nothing (an error
         * with -Werror), and nothing else can name its type; a typedef's is inside the typedef */
        if (clang_Cursor_isAnonymous(c)) break;
        push_item(tc, c, 1);
        break;
    case CXCursor_EnumDecl:
    case CXCursor_TypedefDecl: push_item(tc, c, 1); break;
    case CXCursor_VarDecl:
        if (clang_Cursor_getStorageClass(c) == CX_SC_Extern)
            push_item(tc, c, 3);
        else if (clang_getCursorLinkage(c) == CXLinkage_External && clang_Cursor_getStorageClass(c) != CX_SC_Static)
            add_global(pc, c); /* a definition, tentative (`int n;`) or not */
        break;
    case CXCursor_FunctionDecl: {
        enum CX_StorageClass sc = clang_Cursor_getStorageClass(c);
        int external = sc != CX_SC_Static && clang_getCursorLinkage(c) == CXLinkage_External;
        char *name = cx_dup(clang_getCursorSpelling(c));
        if (!strcmp(name, "main")) {
            if (clang_isCursorDefinition(c)) pc->u->has_main = 1;
        } else if (external || clang_isCursorDefinition(c)) {
            if (external) push_item(tc, c, 2);
            /* a static definition: a target of a header unit (with the external ones), by name in a .c */
            int to_defs = external || pc->header;
            if (clang_isCursorDefinition(c) && (to_defs ? !has_def(pc->u, name) : !unit_find_def(pc->u, name))) {
                ut_func f;
                if (fill_func(pc, c, &f) == 0) {
                    f.decl = unit_prototype(&f);
                    if (!f.decl) f.decl = decl_text(pc, c);
                    f.is_static = !external;
                    free(f.file);
                    f.file = strdup(pc->source);
                    if (to_defs)
                        add_func(&pc->u->defs, &pc->u->ndefs, &f);
                    else
                        add_func(&pc->u->statics, &pc->u->nstatics, &f);
                }
            }
        }
        free(name);
        break;
    }
    default: break;
    }
    return CXChildVisit_Continue;
}

/* A global variable defined in a source: remembered with its type, and declared
 * `extern` in the prelude so that the harness and the tests can read and set it. */
static void add_global(parse_ctx *pc, CXCursor c)
{
    unit_info *u = pc->u;
    char *name = cx_dup(clang_getCursorSpelling(c));
    for (size_t i = 0; i < u->nglobals; i++)
        if (!strcmp(u->globals[i].name, name)) {
            free(name);
            return;
        }
    ut_type *t = conv_type(pc, clang_getCursorType(c));
    ut_param *ng = realloc(u->globals, (u->nglobals + 1) * sizeof *ng);
    if (!t || !ng || strstr(t->spelling, "(unnamed") || strstr(t->spelling, "(anonymous")) {
        if (ng) u->globals = ng;
        free(name);
        return;
    }
    u->globals = ng;
    ng[u->nglobals++] = (ut_param){name, t, -1, -1, 0, 0};
}

static void diag_text(CXTranslationUnit tu, strbuf *out, int *errors)
{
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) (*errors)++;
        if (sev >= CXDiagnostic_Warning) {
            CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn |
                                                       CXDiagnostic_DisplayOption);
            sb_puts(out, clang_getCString(s));
            sb_puts(out, "\n");
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
}

int unit_parse(const char *const *sources, size_t nsources, const char *cflags, unit_info *u, char **err)
{
    memset(u, 0, sizeof *u);
    *err = NULL;
    char **args = NULL;
    size_t nargs = 0;
    unit_split_words("-std=gnu11 -I" SYMPATH_INCLUDE_DIR, &args, &nargs);
    unit_split_words(cflags, &args, &nargs);
    CXIndex idx = clang_createIndex(0, 0);
    strbuf diags = STRBUF_INIT;
    strbuf prelude = STRBUF_INIT;
    char **called = NULL;
    CXCursor *called_cur = NULL;
    size_t ncalled = 0;
    char **defined = NULL;
    size_t ndefined = 0, types_cap = 0;
    CXTranslationUnit *tus = calloc(nsources + 1, sizeof *tus);
    u->sources = calloc(nsources + 1, sizeof *u->sources);
    u->src_prelude = calloc(nsources + 1, sizeof *u->src_prelude);
    u->included = calloc(nsources + 1, sizeof *u->included);
    u->nsources = nsources;
    int rc = 0, errors = 0;
    if (!tus || !u->sources || !u->src_prelude || !u->included) {
        *err = strdup("out of memory");
        rc = -1;
    }
    for (size_t i = 0; i < nsources && rc == 0; i++) {
        u->sources[i] = strdup(sources[i]);
        /* a header is the unit (a header-only library): parsed as C, included by the harness and tests */
        int header = unit_is_header(sources[i]);
        u->included[i] = header;
        char **sargs = calloc(nargs + 4, sizeof *sargs);
        size_t nsargs = 0;
        if (!sargs) {
            *err = strdup("out of memory");
            rc = -1;
            break;
        }
        for (size_t k = 0; k < nargs; k++) sargs[nsargs++] = args[k];
        if (header) {
            sargs[nsargs++] = "-x";
            sargs[nsargs++] = "c";
            sargs[nsargs++] = "-Wno-pragma-once-outside-header";
        }
        parse_ctx pc;
        memset(&pc, 0, sizeof pc);
        pc.u = u;
        pc.source = sources[i];
        pc.prelude = prelude;
        pc.called = called;
        pc.called_cur = called_cur;
        pc.ncalled = pc.capcalled = ncalled;
        pc.defined = &defined;
        pc.ndefined = &ndefined;
        pc.types_cap = &types_cap;
        pc.header = header;
        size_t prelude_before = prelude.len;
        if (ncalled) pc.capcalled = ncalled; /* grow() doubles from here */
        pc.text = util_read_file(sources[i], &pc.text_len);
        if (!pc.text) {
            if (asprintf(err, "cannot read %s", sources[i]) < 0) *err = NULL;
            free(sargs);
            rc = -1;
            break;
        }
        enum CXErrorCode ec = clang_parseTranslationUnit2(
            idx, sources[i], (const char *const *)sargs, (int)nsargs, NULL, 0,
            CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &tus[i]);
        free(sargs);
        if (ec != CXError_Success) {
            if (asprintf(err, "libclang could not parse %s (error %d)", sources[i], (int)ec) < 0) *err = NULL;
            free(pc.text);
            rc = -1;
            break;
        }
        pc.tu = tus[i];
        diag_text(tus[i], &diags, &errors);
        top_ctx tc = {&pc, NULL, 0, 0, NULL, NULL, 0, 0};
        size_t g0 = u->nglobals;
        clang_visitChildren(clang_getTranslationUnitCursor(tus[i]), top_visit, &tc);
        build_prelude(&tc);
        for (size_t g = g0; g < u->nglobals; g++) {
            char *d = unit_declarator(u->globals[g].type->spelling, u->globals[g].name);
            if (d) sb_printf(&pc.prelude, "extern %s;\n", d);
            free(d);
        }
        free(tc.items);
        for (size_t k = 0; k < tc.nsys; k++) free(tc.sysfuncs[k]);
        free(tc.sysfuncs);
        prelude = pc.prelude;
        u->src_prelude[i] = strndup(prelude.s ? prelude.s + prelude_before : "", prelude.len - prelude_before);
        called = pc.called;
        called_cur = pc.called_cur;
        ncalled = pc.ncalled;
        /* mock candidates are decided below, once every definition is known; their types
         * are converted now, while this translation unit is alive */
        for (size_t k = 0; k < ncalled; k++) {
            if (!called[k] || clang_Cursor_getTranslationUnit(called_cur[k]) != tus[i]) continue;
            ut_func f;
            if (fill_func(&pc, called_cur[k], &f) != 0) continue;
            f.decl = NULL;
            int sys = clang_Location_isInSystemHeader(clang_getCursorLocation(called_cur[k]));
            if (!strncmp(f.name, "__builtin", 9) || !strncmp(f.name, "__sym", 5) || !strncmp(f.name, "sym_", 4) ||
                !strncmp(f.name, "__VERIFIER", 10))
                sys = 1;
            add_func(sys ? &u->system : &u->externs, sys ? &u->nsystem : &u->nexterns, &f);
            called[k][0] = 0; /* done: keep the name slot so it is not noted twice */
        }
        free(pc.text);
    }
    /* drop candidates defined in some source (static ones too), and duplicates */
    size_t w = 0;
    for (size_t i = 0; i < u->nexterns; i++) {
        int dup = has_def(u, u->externs[i].name);
        for (size_t j = 0; j < ndefined && !dup; j++) dup = !strcmp(defined[j], u->externs[i].name);
        for (size_t j = 0; j < w && !dup; j++) dup = !strcmp(u->externs[j].name, u->externs[i].name);
        if (!dup)
            u->externs[w++] = u->externs[i];
        else
            free_func(&u->externs[i]);
    }
    u->nexterns = w;
    w = 0;
    for (size_t i = 0; i < u->nsystem; i++) {
        int dup = has_def(u, u->system[i].name);
        for (size_t j = 0; j < w && !dup; j++) dup = !strcmp(u->system[j].name, u->system[i].name);
        if (!dup)
            u->system[w++] = u->system[i];
        else
            free_func(&u->system[i]);
    }
    u->nsystem = w;
    unit_null_propagate(u);
    unit_mark_walked(u);
    name_stubs(u);
    u->diagnostics = diags.s ? diags.s : strdup("");
    sb_free(&prelude);
    rebuild_prelude(u);
    if (rc == 0 && errors) {
        if (asprintf(err, "clang reports %d error%s:\n%s", errors, errors > 1 ? "s" : "", u->diagnostics) < 0)
            *err = NULL;
        rc = -1;
    }
    for (size_t i = 0; i < ncalled; i++) free(called[i]);
    free(called);
    for (size_t i = 0; i < ndefined; i++) free(defined[i]);
    free(defined);
    free(called_cur);
    for (size_t i = 0; i < nsources; i++)
        if (tus[i]) clang_disposeTranslationUnit(tus[i]);
    free(tus);
    clang_disposeIndex(idx);
    for (size_t i = 0; i < nargs; i++) free(args[i]);
    free(args);
    return rc;
}

void unit_info_free(unit_info *u)
{
    for (size_t i = 0; i < u->ndefs; i++) free_func(&u->defs[i]);
    for (size_t i = 0; i < u->nstatics; i++) free_func(&u->statics[i]);
    free(u->statics);
    for (size_t i = 0; i < u->nhfuncs; i++) free_func(&u->hfuncs[i]);
    free(u->hfuncs);
    for (size_t i = 0; i < u->nsources; i++) {
        free(u->sources ? u->sources[i] : NULL);
        free(u->src_prelude ? u->src_prelude[i] : NULL);
    }
    free(u->sources);
    free(u->src_prelude);
    free(u->included);
    for (size_t i = 0; i < u->nheader_defs; i++) free(u->header_defs[i]);
    free(u->header_defs);
    for (size_t i = 0; i < u->nexterns; i++) free_func(&u->externs[i]);
    for (size_t i = 0; i < u->nsystem; i++) free_func(&u->system[i]);
    free(u->defs);
    free(u->externs);
    free(u->system);
    for (size_t i = 0; i < u->ntypes; i++) {
        ut_type *t = u->types[i];
        free(t->spelling);
        free(t->canonical);
        for (size_t k = 0; k < t->nfields; k++) {
            free(t->fields[k].name);
            free(t->fields[k].stub);
        }
        free(t->fields);
        for (size_t k = 0; k < t->nenums; k++) free(t->enums[k].name);
        free(t->enums);
        free(t->args);
        free(t->stub);
        free(t);
    }
    free(u->types);
    free(u->prelude);
    free(u->diagnostics);
    for (size_t i = 0; i < u->nnull_checked; i++) free(u->null_checked[i]);
    free(u->null_checked);
    for (size_t i = 0; i < u->nwritten_streams; i++) free(u->written_streams[i]);
    free(u->written_streams);
    for (size_t i = 0; i < u->nbackward; i++) free(u->backward[i]);
    free(u->backward);
    for (size_t i = 0; i < u->nwalked_params; i++) free(u->walked_params[i]);
    free(u->walked_params);
    for (size_t i = 0; i < u->npassed_params; i++) free(u->passed_params[i]);
    free(u->passed_params);
    for (size_t i = 0; i < u->nopened_paths; i++) free(u->opened_paths[i]);
    free(u->opened_paths);
    for (size_t i = 0; i < u->nneg_failures; i++) free(u->neg_failures[i]);
    free(u->neg_failures);
    for (size_t i = 0; i < u->nnull_flow; i++) free(u->null_flow[i]);
    free(u->null_flow);
    for (size_t i = 0; i < u->nglobals; i++) free(u->globals[i].name);
    free(u->globals);
    memset(u, 0, sizeof *u);
}

const char *unit_header_of(const unit_info *u, const char *name)
{
    for (size_t i = 0; i + 1 < u->nheader_defs; i += 2)
        if (!strcmp(u->header_defs[i], name)) return u->header_defs[i + 1];
    return NULL;
}

const ut_func *unit_find_def(const unit_info *u, const char *name)
{
    for (size_t i = 0; i < u->ndefs; i++)
        if (!strcmp(u->defs[i].name, name)) return &u->defs[i];
    for (size_t i = 0; i < u->nstatics; i++)
        if (!strcmp(u->statics[i].name, name)) return &u->statics[i];
    return NULL;
}
