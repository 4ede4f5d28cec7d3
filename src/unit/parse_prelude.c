/* parse_prelude.c: the prelude of a unit (the declarations a harness or test file repeats) and the include block of a source compiled into them. */
#define _GNU_SOURCE
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"
#include "parse_int.h"

/* The whole source line(s) holding offset off (with backslash continuations). */
static void append_line_at(parse_ctx *pc, unsigned off)
{
    size_t b = off, e = off;
    while (b > 0 && pc->text[b - 1] != '\n') b--;
    while (e < pc->text_len && !(pc->text[e] == '\n' && (e == 0 || pc->text[e - 1] != '\\'))) e++;
    sb_append(&pc->prelude, pc->text + b, e - b);
    sb_puts(&pc->prelude, "\n");
}

/* Whether c is declared before: by an included header (the prelude's #include brings that
 * declaration, no copy is needed) or earlier in the file (that prototype is in the prelude). */
static int declared_before(CXCursor c) { return !clang_equalCursors(clang_getCanonicalCursor(c), c); }

/* The prototype of a function cursor rebuilt from its types (unit_prototype), the source text
 * before its body when the types cannot be spelled; NULL when neither works. */
static char *prototype_of(parse_ctx *pc, CXCursor c)
{
    ut_func f;
    char *r = NULL;
    if (fill_func(pc, c, &f) == 0) r = unit_prototype(&f);
    free_func(&f);
    return r ? r : decl_text(pc, c);
}

/* `extern T name` of a variable cursor rebuilt from its type; the source text when the type
 * cannot be spelled (an anonymous struct). */
static char *extern_of(parse_ctx *pc, CXCursor c, unsigned b, unsigned e)
{
    ut_type *t = conv_type(pc, clang_getCursorType(c));
    char *name = cx_dup(clang_getCursorSpelling(c));
    char *r = NULL;
    if (t && name && !strstr(t->spelling, "(unnamed") && !strstr(t->spelling, "(anonymous")) {
        char *d = unit_declarator(t->spelling, name);
        if (d && asprintf(&r, "extern %s", d) < 0) r = NULL;
        free(d);
    }
    free(name);
    return r ? r : strndup(pc->text + b, e - b);
}

static int cmp_item(const void *a, const void *b)
{
    const top_item *x = a, *y = b;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    return x->e > y->e ? -1 : x->e < y->e;
}

/* Whether macro cursor c is named like a function a system header declares. */
static int libc_name(const top_ctx *tc, CXCursor c)
{
    char *n = cx_dup(clang_getCursorSpelling(c));
    int r = 0;
    for (size_t k = 0; n && k < tc->nsys && !r; k++) r = !strcmp(tc->sysfuncs[k], n);
    free(n);
    return r;
}

/* Append the prelude text of the main file: items in source order, an item inside the
 * previous one (the struct inside `typedef struct {...} T;`) skipped, lines already in
 * the prelude (the same #include from another source) not repeated. */
void build_prelude(top_ctx *tc)
{
    parse_ctx *pc = tc->pc;
    qsort(tc->items, tc->n, sizeof *tc->items, cmp_item);
    unsigned last_end = 0;
    int have = 0;
    for (size_t i = 0; i < tc->n; i++) {
        top_item *it = &tc->items[i];
        if (have && it->b < last_end) continue;
        /* a macro named like a function of the C library (toml.c's `#define calloc(x, y) error -
         * forbidden - use CALLOC instead`) guards the unit's own code: in a harness or test that
         * calls the real function it is an error */
        if (it->kind == 0 && libc_name(tc, it->c)) continue;
        strbuf one = STRBUF_INIT;
        strbuf saved = pc->prelude;
        pc->prelude = one;
        if (it->kind == 0) {
            /* a macro's cursor covers "NAME ..." only: take the whole #define line */
            append_line_at(pc, it->b);
        } else if (it->kind == 1) {
            sb_append(&pc->prelude, pc->text + it->b, it->e - it->b);
            sb_puts(&pc->prelude, ";\n");
        } else if (!declared_before(it->c)) {
            char *t = it->kind == 2 ? prototype_of(pc, it->c) : extern_of(pc, it->c, it->b, it->e);
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

int unit_is_header(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash)) return 0;
    return !strcmp(dot, ".h") || !strcmp(dot, ".hh") || !strcmp(dot, ".hpp") || !strcmp(dot, ".hxx") ||
           !strcmp(dot, ".inc");
}

/* The warnings of -Wall -Wextra (gcc 12, clang 14) a library's own code may give, silenced around
 * its include: the emitted test is checked with -Werror, the library is taken as shipped
 * (zserge/expr's `snprintf(varname, sizeof(varname) - 1, "$%d", ...)` is a -Wformat-truncation in
 * every test that includes expr.h). gcc ignores "-Wall" in a pragma, so each is named; -Wpragmas
 * and -Wunknown-warning-option first: a name one compiler does not know is no warning then. */
static const char *const lib_warnings[] = {"pragmas",
                                           "unknown-warning-option",
                                           "all",
                                           "extra",
                                           "unused-function",
                                           "unused-variable",
                                           "unused-const-variable",
                                           "unused-parameter",
                                           "unused-but-set-variable",
                                           "unused-but-set-parameter",
                                           "unused-value",
                                           "unused-label",
                                           "unused-local-typedefs",
                                           "sign-compare",
                                           "type-limits",
                                           "implicit-fallthrough",
                                           "missing-field-initializers",
                                           "missing-braces",
                                           "parentheses",
                                           "misleading-indentation",
                                           "char-subscripts",
                                           "empty-body",
                                           "cast-function-type",
                                           "shift-negative-value",
                                           "old-style-declaration",
                                           "override-init",
                                           "ignored-qualifiers",
                                           "format",
                                           "format-truncation",
                                           "format-overflow",
                                           "stringop-truncation",
                                           "stringop-overflow",
                                           "maybe-uninitialized",
                                           "uninitialized",
                                           "array-bounds",
                                           "restrict",
                                           "pointer-sign",
                                           "switch",
                                           "tautological-compare",
                                           "dangling-else",
                                           "logical-not-parentheses",
                                           "int-in-bool-context",
                                           "bool-operation",
                                           "enum-conversion",
                                           "sizeof-pointer-div",
                                           "sizeof-pointer-memaccess",
                                           "address",
                                           "unknown-pragmas",
                                           "comment",
                                           "strict-aliasing",
                                           "multistatement-macros",
                                           "nonnull",
                                           "array-parameter",
                                           "vla-parameter",
                                           "dangling-pointer",
                                           "use-after-free",
                                           "clobbered",
                                           "missing-parameter-type",
                                           "string-compare",
                                           NULL};

char *unit_include_block(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    strbuf b = STRBUF_INIT;
    sb_printf(&b,
              "/* %s is compiled here (its static functions are under test); it is not linked separately; its own\n"
              " * warnings are not the tests' */\n#pragma GCC diagnostic push\n",
              base);
    for (size_t i = 0; lib_warnings[i]; i++)
        sb_printf(&b, "#pragma GCC diagnostic ignored \"-W%s\"\n", lib_warnings[i]);
    sb_printf(&b, "#include \"%s\"\n#pragma GCC diagnostic pop\n", base);
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s;
}

/* Around an included source in the harness (which includes sympath_unit_rt.h first, the tests
 * do not): a libc function mocked with --mock is renamed to the harness's stand-in for the
 * file's calls, as the build wrapper of a linked source does (opening: the stand-in's prototype
 * and the #define; closing: the #undef, the harness itself keeps the real function). */
static void mock_renames(const unit_info *u, strbuf *b, int closing)
{
    int any = 0;
    for (size_t k = 0; k < u->nsystem; k++) {
        const ut_func *m = &u->system[k];
        if (!unit_is_wrapped(u, m->name)) continue;
        if (!any)
            sb_puts(b, "#ifdef SYMPATH_UNIT_RT_H /* the harness: --mock'ed libc functions go to their stand-ins */\n");
        any = 1;
        if (closing) {
            sb_printf(b, "#undef %s\n", m->name);
            continue;
        }
        ut_func renamed = *m;
        char *cn = NULL;
        if (asprintf(&cn, "sympu_mock_%s", m->name) < 0) continue;
        renamed.name = cn;
        char *proto = unit_prototype(&renamed);
        if (proto) sb_printf(b, "%s;\n", proto);
        sb_printf(b, "#define %s %s\n", m->name, cn);
        free(proto);
        free(cn);
    }
    if (any) sb_puts(b, "#endif\n");
}

char *unit_feature_macros(const char *prelude)
{
    strbuf out = STRBUF_INIT, *b = &out;
    sb_puts(b, "");
    static const char *const names[] = {"_POSIX_C_SOURCE",   "_POSIX_SOURCE",
                                        "_XOPEN_SOURCE",     "_XOPEN_SOURCE_EXTENDED",
                                        "_GNU_SOURCE",       "_DEFAULT_SOURCE",
                                        "_BSD_SOURCE",       "_SVID_SOURCE",
                                        "_ISOC99_SOURCE",    "_ISOC11_SOURCE",
                                        "_FILE_OFFSET_BITS", "_LARGEFILE64_SOURCE",
                                        "_TIME_BITS",        NULL};
    for (const char *l = prelude; l && *l;) {
        const char *e = strchr(l, '\n'), *p = l;
        size_t len = e ? (size_t)(e - l) : strlen(l);
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#') {
            p++;
            while (*p == ' ' || *p == '\t') p++;
            if (!strncmp(p, "define", 6) && (p[6] == ' ' || p[6] == '\t')) {
                p += 6;
                while (*p == ' ' || *p == '\t') p++;
                for (int i = 0; names[i]; i++) {
                    size_t k = strlen(names[i]);
                    if (!strncmp(p, names[i], k) && (p[k] == ' ' || p[k] == '\t' || p[k] == '\n' || !p[k])) {
                        sb_append(b, l, len);
                        sb_puts(b, "\n");
                        break;
                    }
                }
            }
        }
        l = e ? e + 1 : NULL;
    }
    return out.s;
}

/* u->prelude from the sources' parts: an included source is its include block. */
void rebuild_prelude(unit_info *u)
{
    strbuf b = STRBUF_INIT;
    sb_puts(&b, "");
    for (size_t i = 0; i < u->nsources; i++) {
        if (u->included && u->included[i]) {
            char *blk = unit_include_block(u->sources[i]);
            mock_renames(u, &b, 0);
            if (blk) sb_puts(&b, blk);
            mock_renames(u, &b, 1);
            free(blk);
        } else if (u->src_prelude && u->src_prelude[i]) {
            sb_puts(&b, u->src_prelude[i]);
        }
    }
    free(u->prelude);
    u->prelude = b.s ? b.s : strdup("");
}

size_t unit_include_sources(unit_info *u, const ut_func *const *targets, size_t ntargets)
{
    size_t n = 0;
    for (size_t t = 0; t < ntargets; t++) {
        if (!targets[t]->is_static) continue;
        for (size_t i = 0; i < u->nsources; i++)
            if (!strcmp(u->sources[i], targets[t]->file)) u->included[i] = 1;
    }
    for (size_t i = 0; i < u->nsources; i++) n += u->included[i] != 0;
    if (n) rebuild_prelude(u);
    return n;
}

int unit_source_included(const unit_info *u, const char *path)
{
    for (size_t i = 0; i < u->nsources; i++)
        if (u->included && u->included[i] && !strcmp(u->sources[i], path)) return 1;
    return 0;
}
