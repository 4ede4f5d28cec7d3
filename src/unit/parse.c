/* parse.c: signatures, types, mock candidates and the prelude of a C unit, read with libclang's C API. */
#define _GNU_SOURCE
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"

#ifndef SYMPATH_INCLUDE_DIR
#define SYMPATH_INCLUDE_DIR "include"
#endif

typedef struct parse_ctx {
    unit_info *u;
    CXTranslationUnit tu;
    const char *source;        /* as given */
    char *text;                /* the main file's bytes */
    size_t text_len;
    strbuf prelude;
    /* called functions: names and their declaration cursors */
    char **called;
    CXCursor *called_cur;
    size_t ncalled, capcalled;
    char ***defined;           /* every function defined in any source, static ones too */
    size_t *ndefined;
    size_t *types_cap;         /* capacity of u->types (shared by the sources) */
} parse_ctx;

static char *cx_dup(CXString s) {
    const char *c = clang_getCString(s);
    char *r = strdup(c ? c : "");
    clang_disposeString(s);
    return r;
}

static void *grow(void *p, size_t *cap, size_t n, size_t elem) {
    if (n < *cap) return p;
    size_t nc = *cap ? *cap * 2 : 8;
    void *q = realloc(p, nc * elem);
    if (!q) return NULL;
    *cap = nc;
    return q;
}

/* ---- types ---- */

typedef struct field_ctx {
    parse_ctx *pc;
    ut_type *t;
    size_t cap;
} field_ctx;

static ut_type *conv_type(parse_ctx *pc, CXType t);

static enum CXVisitorResult field_visit(CXCursor c, CXClientData d) {
    field_ctx *fc = d;
    ut_type *t = fc->t;
    ut_field *nf = grow(t->fields, &fc->cap, t->nfields, sizeof *nf);
    if (!nf) return CXVisit_Break;
    t->fields = nf;
    ut_field *f = &t->fields[t->nfields++];
    f->name = cx_dup(clang_getCursorSpelling(c));
    f->bitfield = clang_Cursor_isBitField(c);
    f->type = conv_type(fc->pc, clang_getCursorType(c));
    return CXVisit_Continue;
}

typedef struct enum_ctx {
    ut_type *t;
    size_t cap;
} enum_ctx;

static enum CXChildVisitResult enum_visit(CXCursor c, CXCursor parent, CXClientData d) {
    (void)parent;
    enum_ctx *ec = d;
    if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl) return CXChildVisit_Continue;
    ut_enumerator *ne = grow(ec->t->enums, &ec->cap, ec->t->nenums, sizeof *ne);
    if (!ne) return CXChildVisit_Break;
    ec->t->enums = ne;
    ut_enumerator *e = &ec->t->enums[ec->t->nenums++];
    e->name = cx_dup(clang_getCursorSpelling(c));
    e->value = clang_getEnumConstantDeclValue(c);
    return CXChildVisit_Continue;
}

static ut_type *find_type(unit_info *u, const char *spelling) {
    for (size_t i = 0; i < u->ntypes; i++)
        if (!strcmp(u->types[i]->spelling, spelling)) return u->types[i];
    return NULL;
}

/*
 * Types are interned by their spelling as written (so generated code declares a
 * `uint8_t *buf` as the user did), and entered in the table before their fields are
 * converted, so a struct that points to itself (a list node) finds its own entry instead
 * of recursing forever. Types with the same canonical type share alias_id: a pointer may
 * alias an object of any spelling of its pointee type.
 */
static ut_type *conv_type(parse_ctx *pc, CXType t) {
    unit_info *u = pc->u;
    CXType canon = clang_getCanonicalType(t);
    char *ws = cx_dup(clang_getTypeSpelling(t));
    ut_type *old = find_type(u, ws);
    if (old) {
        free(ws);
        return old;
    }
    char *cs = cx_dup(clang_getTypeSpelling(canon));
    ut_type *ty = calloc(1, sizeof *ty);
    ut_type **nt = grow(u->types, pc->types_cap, u->ntypes, sizeof *nt);
    if (!ty || !nt) {
        free(ty);
        free(cs);
        return NULL;
    }
    u->types = nt;
    ty->id = (int)u->ntypes;
    u->types[u->ntypes++] = ty;
    ty->canonical = cs;
    ty->spelling = ws;
    ty->alias_id = ty->id;
    const char *bare = !strncmp(cs, "const ", 6) ? cs + 6 : cs;
    for (size_t i = 0; i + 1 < u->ntypes; i++) {
        const char *c2 = u->types[i]->canonical;
        if (!strncmp(c2, "const ", 6)) c2 += 6;
        if (strcmp(c2, bare)) continue;
        ty->alias_id = u->types[i]->alias_id;
        break;
    }
    ty->is_const = clang_isConstQualifiedType(canon);
    long long sz = clang_Type_getSizeOf(canon);
    ty->size = sz > 0 ? (uint64_t)sz : 0;
    switch (canon.kind) {
    case CXType_Void: ty->kind = UT_VOID; break;
    case CXType_Bool: ty->kind = UT_BOOL; ty->bits = 8; break;
    case CXType_Char_S: case CXType_SChar: case CXType_Char_U: case CXType_UChar:
        ty->kind = UT_INT;
        ty->is_char = 1;
        ty->bits = 8;
        ty->is_signed = canon.kind == CXType_Char_S || canon.kind == CXType_SChar;
        ty->is_plain_char = canon.kind == CXType_Char_S || canon.kind == CXType_Char_U;
        break;
    case CXType_Short: case CXType_Int: case CXType_Long: case CXType_LongLong:
        ty->kind = UT_INT; ty->bits = (unsigned)ty->size * 8; ty->is_signed = 1; break;
    case CXType_UShort: case CXType_UInt: case CXType_ULong: case CXType_ULongLong:
        ty->kind = UT_INT; ty->bits = (unsigned)ty->size * 8; ty->is_signed = 0; break;
    case CXType_Float: case CXType_Double: case CXType_LongDouble: ty->kind = UT_FLOAT; break;
    case CXType_Enum: {
        ty->kind = UT_ENUM;
        ty->bits = (unsigned)ty->size * 8;
        CXCursor d = clang_getTypeDeclaration(canon);
        CXType it = clang_getEnumDeclIntegerType(d);
        ty->is_signed = !(it.kind == CXType_UInt || it.kind == CXType_ULong || it.kind == CXType_ULongLong);
        enum_ctx ec = {ty, 0};
        clang_visitChildren(d, enum_visit, &ec);
        break;
    }
    case CXType_Pointer: {
        ty->kind = UT_PTR;
        CXType pt = clang_getPointeeType(t);
        if (pt.kind == CXType_Invalid) pt = clang_getPointeeType(canon);
        ty->pointee = conv_type(pc, pt);
        break;
    }
    case CXType_ConstantArray: case CXType_IncompleteArray: {
        ty->kind = UT_ARRAY;
        long long n = clang_getArraySize(canon);
        ty->count = n > 0 ? (uint64_t)n : 0;
        CXType et = clang_getArrayElementType(t);
        if (et.kind == CXType_Invalid) et = clang_getArrayElementType(canon);
        ty->pointee = conv_type(pc, et);
        break;
    }
    case CXType_Record: {
        CXCursor d = clang_getTypeDeclaration(canon);
        ty->kind = clang_getCursorKind(d) == CXCursor_UnionDecl ? UT_UNION : UT_STRUCT;
        /* a struct of a system header (FILE, pthread_mutex_t, ...) is opaque: its fields are
         * the library's business, an input object with arbitrary fields would be garbage */
        ty->complete = sz > 0 && !clang_Location_isInSystemHeader(clang_getCursorLocation(d));
        if (ty->complete) {
            field_ctx fc = {pc, ty, 0};
            clang_Type_visitFields(canon, field_visit, &fc);
        }
        break;
    }
    case CXType_FunctionProto: case CXType_FunctionNoProto: {
        ty->kind = UT_FUNC;
        CXType ft = clang_getResultType(t).kind == CXType_Invalid ? canon : t;
        ty->ret = conv_type(pc, clang_getResultType(ft));
        int n = clang_getNumArgTypes(ft);
        ty->nargs = n > 0 ? (size_t)n : 0;
        ty->args = calloc(ty->nargs + 1, sizeof *ty->args);
        for (size_t i = 0; i < ty->nargs; i++) ty->args[i] = conv_type(pc, clang_getArgType(ft, (unsigned)i));
        ty->variadic = clang_isFunctionTypeVariadic(ft);
        break;
    }
    default: ty->kind = UT_OTHER; break;
    }
    return ty;
}

/* ---- text of the main file ---- */

static int cursor_offsets(CXCursor c, unsigned *b, unsigned *e) {
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1, f2;
    clang_getSpellingLocation(clang_getRangeStart(r), &f1, NULL, NULL, b);
    clang_getSpellingLocation(clang_getRangeEnd(r), &f2, NULL, NULL, e);
    return f1 && f2 && clang_File_isEqual(f1, f2) && *b <= *e ? 0 : -1;
}

static int in_main_file(CXCursor c) {
    return clang_Location_isFromMainFile(clang_getCursorLocation(c));
}

/* The whole source line(s) holding offset off (with backslash continuations). */
static void append_line_at(parse_ctx *pc, unsigned off) {
    size_t b = off, e = off;
    while (b > 0 && pc->text[b - 1] != '\n') b--;
    while (e < pc->text_len && !(pc->text[e] == '\n' && (e == 0 || pc->text[e - 1] != '\\'))) e++;
    sb_append(&pc->prelude, pc->text + b, e - b);
    sb_puts(&pc->prelude, "\n");
}

/* ---- functions ---- */

typedef struct call_ctx {
    parse_ctx *pc;
} call_ctx;

static void note_called(parse_ctx *pc, CXCursor decl) {
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

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor parent, CXClientData d) {
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
static void scan_tokens(parse_ctx *pc, CXCursor fn) {
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(pc->tu, clang_getCursorExtent(fn), &toks, &n);
    char **sp = calloc(n + 1, sizeof *sp);
    if (sp) {
        for (unsigned i = 0; i < n; i++) sp[i] = cx_dup(clang_getTokenSpelling(pc->tu, toks[i]));
        unit_scan_null_checks(pc->u, (const char *const *)sp, n);
        for (unsigned i = 0; i < n; i++) free(sp[i]);
        free(sp);
    }
    clang_disposeTokens(pc->tu, toks, n);
}

static char *param_name(CXCursor arg, size_t i) {
    char *n = cx_dup(clang_getCursorSpelling(arg));
    if (!*n) {
        free(n);
        if (asprintf(&n, "arg%zu", i) < 0) n = NULL;
    }
    return n;
}

/* Declaration text of a function cursor: for a definition, the text before its body. */
static char *decl_text(parse_ctx *pc, CXCursor c) {
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

static int fill_func(parse_ctx *pc, CXCursor c, ut_func *f) {
    memset(f, 0, sizeof *f);
    f->name = cx_dup(clang_getCursorSpelling(c));
    CXFile file;
    clang_getSpellingLocation(clang_getCursorLocation(c), &file, &f->line, NULL, NULL);
    f->file = file ? cx_dup(clang_getFileName(file)) : strdup(pc->source);
    f->type = conv_type(pc, clang_getCursorType(c));
    int n = clang_Cursor_getNumArguments(c);
    f->nparams = n > 0 ? (size_t)n : 0;
    f->params = calloc(f->nparams + 1, sizeof *f->params);
    if (!f->params || !f->name || !f->type) return -1;
    for (size_t i = 0; i < f->nparams; i++) {
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
        f->params[i].name = param_name(a, i);
        f->params[i].type = conv_type(pc, clang_getCursorType(a));
        f->params[i].len_param = f->params[i].buf_param = -1;
    }
    unit_pair_buffers(f);
    return 0;
}

static int add_func(ut_func **arr, size_t *n, const ut_func *f) {
    ut_func *na = realloc(*arr, (*n + 1) * sizeof *na);
    if (!na) return -1;
    *arr = na;
    na[(*n)++] = *f;
    return 0;
}

static int has_def(const unit_info *u, const char *name) {
    for (size_t i = 0; i < u->ndefs; i++)
        if (!strcmp(u->defs[i].name, name)) return 1;
    return 0;
}

/* Top-level declarations of the main file: prelude text, definitions, calls. */
typedef struct top_item {
    unsigned b, e;
    int kind;              /* 0 line (include/macro), 1 declaration text, 2 prototype (decl_text + ';') */
    CXCursor c;
} top_item;

typedef struct top_ctx {
    parse_ctx *pc;
    top_item *items;
    size_t n, cap;
    char *err;
} top_ctx;

static void push_item(top_ctx *tc, CXCursor c, int kind) {
    unsigned b, e;
    if (cursor_offsets(c, &b, &e) != 0) return;
    top_item *ni = grow(tc->items, &tc->cap, tc->n, sizeof *ni);
    if (!ni) return;
    tc->items = ni;
    tc->items[tc->n++] = (top_item){b, e, kind, c};
}

static void add_global(parse_ctx *pc, CXCursor c);

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData d) {
    (void)parent;
    top_ctx *tc = d;
    parse_ctx *pc = tc->pc;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
        char **nd = realloc(*pc->defined, (*pc->ndefined + 1) * sizeof *nd);
        if (nd) {
            *pc->defined = nd;
            nd[(*pc->ndefined)++] = cx_dup(clang_getCursorSpelling(c));
        }
        /* calls from every function body of this file (static helpers included) */
        clang_visitChildren(c, body_visit, pc);
        if (in_main_file(c)) scan_tokens(pc, c);
    }
    if (!in_main_file(c)) return CXChildVisit_Continue;
    switch (k) {
    case CXCursor_InclusionDirective:
    case CXCursor_MacroDefinition:
        push_item(tc, c, 0);
        break;
    case CXCursor_StructDecl: case CXCursor_UnionDecl: case CXCursor_EnumDecl: case CXCursor_TypedefDecl:
        push_item(tc, c, 1);
        break;
    case CXCursor_VarDecl:
        if (clang_Cursor_getStorageClass(c) == CX_SC_Extern) push_item(tc, c, 1);
        else if (clang_getCursorLinkage(c) == CXLinkage_External && clang_Cursor_getStorageClass(c) != CX_SC_Static)
            add_global(pc, c); /* a definition, tentative (`int n;`) or not */
        break;
    case CXCursor_FunctionDecl: {
        enum CX_StorageClass sc = clang_Cursor_getStorageClass(c);
        int external = sc != CX_SC_Static && clang_getCursorLinkage(c) == CXLinkage_External;
        char *name = cx_dup(clang_getCursorSpelling(c));
        if (!strcmp(name, "main")) {
            if (clang_isCursorDefinition(c)) pc->u->has_main = 1;
        } else if (external) {
            push_item(tc, c, 2);
            if (clang_isCursorDefinition(c) && !has_def(pc->u, name)) {
                ut_func f;
                if (fill_func(pc, c, &f) == 0) {
                    f.decl = decl_text(pc, c);
                    free(f.file);
                    f.file = strdup(pc->source);
                    add_func(&pc->u->defs, &pc->u->ndefs, &f);
                }
            }
        }
        free(name);
        break;
    }
    default:
        break;
    }
    return CXChildVisit_Continue;
}

/* A global variable defined in a source: remembered with its type, and declared
 * `extern` in the prelude so that the harness and the tests can read and set it. */
static void add_global(parse_ctx *pc, CXCursor c) {
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
    ng[u->nglobals++] = (ut_param){name, t, -1, -1};
}

static int cmp_item(const void *a, const void *b) {
    const top_item *x = a, *y = b;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    return x->e > y->e ? -1 : x->e < y->e;
}

/* Append the prelude text of the main file: items in source order, an item inside the
 * previous one (the struct inside `typedef struct {...} T;`) skipped, lines already in
 * the prelude (the same #include from another source) not repeated. */
static void build_prelude(top_ctx *tc) {
    parse_ctx *pc = tc->pc;
    qsort(tc->items, tc->n, sizeof *tc->items, cmp_item);
    unsigned last_end = 0;
    int have = 0;
    for (size_t i = 0; i < tc->n; i++) {
        top_item *it = &tc->items[i];
        if (have && it->b < last_end) continue;
        strbuf one = STRBUF_INIT;
        strbuf saved = pc->prelude;
        pc->prelude = one;
        if (it->kind == 0) {
            /* a macro's cursor covers "NAME ..." only: take the whole #define line */
            append_line_at(pc, it->b);
        } else if (it->kind == 1) {
            sb_append(&pc->prelude, pc->text + it->b, it->e - it->b);
            sb_puts(&pc->prelude, ";\n");
        } else {
            char *t = decl_text(pc, it->c);
            if (t) {
                sb_puts(&pc->prelude, t);
                sb_puts(&pc->prelude, ";\n");
            }
            free(t);
        }
        one = pc->prelude;
        pc->prelude = saved;
        /* the same #include or #define from another source is not repeated */
        int repeat = it->kind == 0 && one.s && pc->prelude.s && strstr(pc->prelude.s, one.s);
        if (one.s && !repeat) sb_puts(&pc->prelude, one.s);
        sb_free(&one);
        last_end = it->e;
        have = 1;
    }
}

static void diag_text(CXTranslationUnit tu, strbuf *out, int *errors) {
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

static void free_func(ut_func *f);

/* Give each function-pointer type a stand-in name after the first place it is used:
 * a struct field (ops tables: stub_read, stub_flush) or a parameter (stub_cb); a name
 * already taken gets the type's own name instead (unit_stub_name). */
static void set_stub(unit_info *u, ut_type *t, const char *use) {
    if (!t || t->kind != UT_PTR || !t->pointee || t->pointee->kind != UT_FUNC || t->stub || !*use) return;
    char *cand = NULL;
    if (asprintf(&cand, "stub_%s", use) < 0) return;
    for (size_t i = 0; i < u->ntypes; i++)
        if (u->types[i]->stub && !strcmp(u->types[i]->stub, cand)) {
            free(cand);
            return;
        }
    t->stub = cand;
}

static void name_stubs(unit_info *u) {
    for (size_t i = 0; i < u->ntypes; i++) {
        ut_type *t = u->types[i];
        for (size_t k = 0; t->kind == UT_STRUCT && k < t->nfields; k++) set_stub(u, t->fields[k].type, t->fields[k].name);
    }
    for (size_t i = 0; i < u->ndefs; i++)
        for (size_t k = 0; k < u->defs[i].nparams; k++) set_stub(u, u->defs[i].params[k].type, u->defs[i].params[k].name);
    /* types that are one canonical type share one stand-in */
    for (size_t i = 0; i < u->ntypes; i++) {
        ut_type *t = u->types[i];
        if (t->kind != UT_PTR || t->stub) continue;
        for (size_t k = 0; k < u->ntypes; k++)
            if (u->types[k]->stub && u->types[k]->alias_id == t->alias_id) {
                t->stub = strdup(u->types[k]->stub);
                break;
            }
    }
}

int unit_parse(const char *const *sources, size_t nsources, const char *cflags, unit_info *u, char **err) {
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
    int rc = 0, errors = 0;
    for (size_t i = 0; i < nsources && rc == 0; i++) {
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
        if (ncalled) pc.capcalled = ncalled; /* grow() doubles from here */
        pc.text = util_read_file(sources[i], &pc.text_len);
        if (!pc.text) {
            if (asprintf(err, "cannot read %s", sources[i]) < 0) *err = NULL;
            rc = -1;
            break;
        }
        enum CXErrorCode ec = clang_parseTranslationUnit2(
            idx, sources[i], (const char *const *)args, (int)nargs, NULL, 0,
            CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &tus[i]);
        if (ec != CXError_Success) {
            if (asprintf(err, "libclang could not parse %s (error %d)", sources[i], (int)ec) < 0) *err = NULL;
            free(pc.text);
            rc = -1;
            break;
        }
        pc.tu = tus[i];
        diag_text(tus[i], &diags, &errors);
        top_ctx tc = {&pc, NULL, 0, 0, NULL};
        size_t g0 = u->nglobals;
        clang_visitChildren(clang_getTranslationUnitCursor(tus[i]), top_visit, &tc);
        build_prelude(&tc);
        for (size_t g = g0; g < u->nglobals; g++) {
            char *d = unit_declarator(u->globals[g].type->spelling, u->globals[g].name);
            if (d) sb_printf(&pc.prelude, "extern %s;\n", d);
            free(d);
        }
        free(tc.items);
        prelude = pc.prelude;
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
        if (!dup) u->externs[w++] = u->externs[i];
        else free_func(&u->externs[i]);
    }
    u->nexterns = w;
    w = 0;
    for (size_t i = 0; i < u->nsystem; i++) {
        int dup = has_def(u, u->system[i].name);
        for (size_t j = 0; j < w && !dup; j++) dup = !strcmp(u->system[j].name, u->system[i].name);
        if (!dup) u->system[w++] = u->system[i];
        else free_func(&u->system[i]);
    }
    u->nsystem = w;
    unit_null_propagate(u);
    name_stubs(u);
    u->diagnostics = diags.s ? diags.s : strdup("");
    u->prelude = prelude.s ? prelude.s : strdup("");
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

static void free_func(ut_func *f) {
    free(f->name);
    free(f->file);
    free(f->decl);
    for (size_t i = 0; i < f->nparams; i++) free(f->params[i].name);
    free(f->params);
}

void unit_info_free(unit_info *u) {
    for (size_t i = 0; i < u->ndefs; i++) free_func(&u->defs[i]);
    for (size_t i = 0; i < u->nexterns; i++) free_func(&u->externs[i]);
    for (size_t i = 0; i < u->nsystem; i++) free_func(&u->system[i]);
    free(u->defs);
    free(u->externs);
    free(u->system);
    for (size_t i = 0; i < u->ntypes; i++) {
        ut_type *t = u->types[i];
        free(t->spelling);
        free(t->canonical);
        for (size_t k = 0; k < t->nfields; k++) free(t->fields[k].name);
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
    for (size_t i = 0; i < u->nnull_flow; i++) free(u->null_flow[i]);
    free(u->null_flow);
    for (size_t i = 0; i < u->nglobals; i++) free(u->globals[i].name);
    free(u->globals);
    memset(u, 0, sizeof *u);
}

const ut_func *unit_find_def(const unit_info *u, const char *name) {
    for (size_t i = 0; i < u->ndefs; i++)
        if (!strcmp(u->defs[i].name, name)) return &u->defs[i];
    return NULL;
}
