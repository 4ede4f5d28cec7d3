/* parse_int.h: what the files reading a unit with libclang (parse.c, parse_types.c, parse_funcs.c, parse_prelude.c) share; only src/unit includes it. */
#ifndef SYMPATH_UNIT_PARSE_INT_H
#define SYMPATH_UNIT_PARSE_INT_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "util/util.h"
#include "unit.h"

/* One source being read: its translation unit and text, and what the sources share. */
typedef struct parse_ctx {
    unit_info *u;
    CXTranslationUnit tu;
    const char *source; /* as given */
    char *text;         /* the main file's bytes */
    size_t text_len;
    strbuf prelude;
    /* called functions: names and their declaration cursors */
    char **called;
    CXCursor *called_cur;
    size_t ncalled, capcalled;
    char ***defined; /* every function defined in any source, static ones too */
    size_t *ndefined;
    size_t *types_cap; /* capacity of u->types (shared by the sources) */
    int header;        /* the source is a header (a header-only library): static functions are targets */
} parse_ctx;

/* Top-level declarations of the main file: prelude text, definitions, calls. */
typedef struct top_item {
    unsigned b, e;
    int kind; /* 0 line (include/macro), 1 declaration text, 2 prototype (rebuilt from the
                              types), 3 extern variable (rebuilt from its type) */
    CXCursor c;
} top_item;

typedef struct top_ctx {
    parse_ctx *pc;
    top_item *items;
    size_t n, cap;
    char *err;
    char **sysfuncs; /* names of the functions system headers declare (malloc, strdup, ...) */
    size_t nsys, capsys;
} top_ctx;

/* parse.c */
/* The C string of s, copied (never NULL unless out of memory); s is disposed. */
char *cx_dup(CXString s);
/* p with room for n + 1 elements of elem bytes (*cap doubled when full); NULL when out of memory. */
void *grow(void *p, size_t *cap, size_t n, size_t elem);
/* Byte offsets of a cursor's text in its file (from where it is expanded); 0, or -1 when not one range of one file. */
int cursor_offsets(CXCursor c, unsigned *b, unsigned *e);

/* parse_types.c */
/* The ut_type of t, converted once per spelling and kept in pc->u->types. */
ut_type *conv_type(parse_ctx *pc, CXType t);
/* The pointer type a parameter declared as the array type t (`const BYTE in[]`) has: "const BYTE
 * *", pointee the element type (C11 6.7.6.3p7; libclang spells the parameter, and the function
 * type's argument, as written). NULL when out of memory. */
ut_type *conv_decayed(parse_ctx *pc, CXType t);
/* Stand-in names of the function-pointer types (stub_<field or parameter>). */
void name_stubs(unit_info *u);

/* parse_funcs.c */
/* clang_visitChildren visitor of a function body: notes each function called or referenced (pc). */
enum CXChildVisitResult body_visit(CXCursor c, CXCursor parent, CXClientData d);
/* NULL checks in a function body, on its tokens (unit_scan_null_checks). */
void scan_tokens(parse_ctx *pc, CXCursor fn);
/* Declaration text of a function cursor (a definition: the text before its body). */
char *decl_text(parse_ctx *pc, CXCursor c);
/* *f from a function cursor: name, file, line, type, parameters; 0, or -1 when out of memory. */
int fill_func(parse_ctx *pc, CXCursor c, ut_func *f);
/* Append *f to (*arr, *n); 0, or -1 when out of memory. */
int add_func(ut_func **arr, size_t *n, const ut_func *f);
/* Whether u->defs has a function named name. */
int has_def(const unit_info *u, const char *name);
/* Free what fill_func allocated in f (not f itself). */
void free_func(ut_func *f);

/* parse_prelude.c */
/* Append the prelude text of the main file's top-level items to tc->pc->prelude. */
void build_prelude(top_ctx *tc);
/* u->prelude from the sources' parts: an included source is its include block. */
void rebuild_prelude(unit_info *u);

#endif
