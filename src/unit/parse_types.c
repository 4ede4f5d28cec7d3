/* parse_types.c: C types of a unit read with libclang (ut_type: scalars, pointers, arrays, structs, enums, function pointers) and the stand-in names of function-pointer types. */
#define _GNU_SOURCE
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"
#include "parse_int.h"

/* ---- types ---- */

typedef struct field_ctx {
    parse_ctx *pc;
    ut_type *t;
    size_t cap;
} field_ctx;

static enum CXVisitorResult field_visit(CXCursor c, CXClientData d)
{
    field_ctx *fc = d;
    ut_type *t = fc->t;
    ut_field *nf = grow(t->fields, &fc->cap, t->nfields, sizeof *nf);
    if (!nf) return CXVisit_Break;
    t->fields = nf;
    ut_field *f = &t->fields[t->nfields++];
    memset(f, 0, sizeof *f);
    f->name = cx_dup(clang_getCursorSpelling(c));
    f->bitfield = clang_Cursor_isBitField(c);
    f->type = conv_type(fc->pc, clang_getCursorType(c));
    return CXVisit_Continue;
}

typedef struct enum_ctx {
    ut_type *t;
    size_t cap;
} enum_ctx;

static enum CXChildVisitResult enum_visit(CXCursor c, CXCursor parent, CXClientData d)
{
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

static ut_type *find_type(unit_info *u, const char *spelling)
{
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
/* A new entry of the table, spelled ws (canonical cs; both taken over, freed on failure), in
 * the alias class of the types of its canonical type; NULL when out of memory. */
static ut_type *new_type(parse_ctx *pc, char *ws, char *cs)
{
    unit_info *u = pc->u;
    ut_type *ty = calloc(1, sizeof *ty);
    ut_type **nt = ws && cs ? grow(u->types, pc->types_cap, u->ntypes, sizeof *nt) : NULL;
    if (!ty || !nt) {
        free(ty);
        free(cs);
        free(ws);
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
    return ty;
}

/* "T" -> "T *", "T *" -> "T **" (malloc'ed; NULL when out of memory). */
static char *pointer_to(const char *s)
{
    char *r = NULL;
    size_t n = strlen(s);
    return asprintf(&r, "%s%s*", s, n && s[n - 1] == '*' ? "" : " ") < 0 ? NULL : r;
}

ut_type *conv_decayed(parse_ctx *pc, CXType t)
{
    CXType canon = clang_getCanonicalType(t);
    CXType et = clang_getArrayElementType(t);
    if (et.kind == CXType_Invalid) et = clang_getArrayElementType(canon);
    if (et.kind == CXType_Invalid) return conv_type(pc, t);
    char *es = cx_dup(clang_getTypeSpelling(et)), *ecs = cx_dup(clang_getTypeSpelling(clang_getCanonicalType(et)));
    char *ws = es ? pointer_to(es) : NULL, *cs = ecs ? pointer_to(ecs) : NULL;
    free(es);
    free(ecs);
    ut_type *old = ws ? find_type(pc->u, ws) : NULL;
    if (old) {
        free(ws);
        free(cs);
        return old;
    }
    ut_type *ty = new_type(pc, ws, cs);
    if (!ty) return NULL;
    ty->kind = UT_PTR;
    ty->size = sizeof(void *);
    ty->pointee = conv_type(pc, et);
    return ty;
}

ut_type *conv_type(parse_ctx *pc, CXType t)
{
    unit_info *u = pc->u;
    CXType canon = clang_getCanonicalType(t);
    char *ws = cx_dup(clang_getTypeSpelling(t));
    ut_type *old = find_type(u, ws);
    if (old) {
        free(ws);
        return old;
    }
    char *cs = cx_dup(clang_getTypeSpelling(canon));
    ut_type *ty = new_type(pc, ws, cs);
    if (!ty) return NULL;
    ty->is_const = clang_isConstQualifiedType(canon);
    long long sz = clang_Type_getSizeOf(canon);
    ty->size = sz > 0 ? (uint64_t)sz : 0;
    switch (canon.kind) {
    case CXType_Void: ty->kind = UT_VOID; break;
    case CXType_Bool:
        ty->kind = UT_BOOL;
        ty->bits = 8;
        break;
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_Char_U:
    case CXType_UChar:
        ty->kind = UT_INT;
        ty->is_char = 1;
        ty->bits = 8;
        ty->is_signed = canon.kind == CXType_Char_S || canon.kind == CXType_SChar;
        ty->is_plain_char = canon.kind == CXType_Char_S || canon.kind == CXType_Char_U;
        break;
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
        ty->kind = UT_INT;
        ty->bits = (unsigned)ty->size * 8;
        ty->is_signed = 1;
        break;
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
        ty->kind = UT_INT;
        ty->bits = (unsigned)ty->size * 8;
        ty->is_signed = 0;
        break;
    case CXType_Float:
    case CXType_Double:
    case CXType_LongDouble: ty->kind = UT_FLOAT; break;
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
    case CXType_ConstantArray:
    case CXType_IncompleteArray: {
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
    case CXType_FunctionProto:
    case CXType_FunctionNoProto: {
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

/* Give each function-pointer type a stand-in name after the first place it is used:
 * a struct field (ops tables: stub_read, stub_flush) or a parameter (stub_cb); a name
 * already taken gets the type's own name instead (unit_stub_name). */
static void set_stub(unit_info *u, ut_type *t, const char *use)
{
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

void name_stubs(unit_info *u)
{
    for (size_t i = 0; i < u->ntypes; i++) {
        ut_type *t = u->types[i];
        for (size_t k = 0; t->kind == UT_STRUCT && k < t->nfields; k++)
            set_stub(u, t->fields[k].type, t->fields[k].name);
    }
    for (size_t i = 0; i < u->ndefs; i++)
        for (size_t k = 0; k < u->defs[i].nparams; k++)
            set_stub(u, u->defs[i].params[k].type, u->defs[i].params[k].name);
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
    /* a field of a function-pointer type whose stand-in is named after another field gets its own,
     * `stub_<field>` (unless that name is another type's stand-in or another field's of another
     * type): a test then tells which callback got which call */
    for (size_t i = 0; i < u->ntypes; i++) {
        ut_type *t = u->types[i];
        for (size_t k = 0; t->kind == UT_STRUCT && k < t->nfields; k++) {
            ut_field *f = &t->fields[k];
            const ut_type *ft = f->type;
            if (!ft || ft->kind != UT_PTR || !ft->pointee || ft->pointee->kind != UT_FUNC || !ft->stub || !*f->name)
                continue;
            char *cand = NULL;
            if (asprintf(&cand, "stub_%s", f->name) < 0) continue;
            int clash = !strcmp(cand, ft->stub);
            for (size_t j = 0; j < u->ntypes && !clash; j++) {
                const ut_type *o = u->types[j];
                clash = o->stub && !strcmp(o->stub, cand);
                for (size_t m = 0; o->kind == UT_STRUCT && m < o->nfields && !clash; m++)
                    clash = o->fields[m].stub && !strcmp(o->fields[m].stub, cand) &&
                            o->fields[m].type->alias_id != ft->alias_id;
            }
            if (clash)
                free(cand);
            else
                f->stub = cand;
        }
    }
}
