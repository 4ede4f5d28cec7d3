/* compdb.c: a unit's compiler flags from a compilation database (compile_commands.json), read with libclang. */
#define _GNU_SOURCE
#include <clang-c/CXCompilationDatabase.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "util/util.h"

char *unit_quote_word(const char *word)
{
    int plain = *word != 0;
    for (const char *p = word; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                strchr("-_=./,:+@%", *p);
    if (plain) return strdup(word);
    strbuf b = STRBUF_INIT;
    sb_puts(&b, "\"");
    for (const char *p = word; *p; p++) {
        if (*p == '"' || *p == '\\') sb_puts(&b, "\\");
        sb_append(&b, p, 1);
    }
    sb_puts(&b, "\"");
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s;
}

static char *cx_str(CXString s)
{
    const char *c = clang_getCString(s);
    char *r = strdup(c ? c : "");
    clang_disposeString(s);
    return r;
}

/* path made absolute against dir (when relative). */
static char *abs_against(const char *dir, const char *path)
{
    if (path[0] == '/' || !dir || !*dir) return strdup(path);
    return util_strf("%s/%s", dir, path);
}

/* The command's file as a path against the command's directory (NULL: none, or out of memory). */
static char *cmd_file(CXCompileCommand cmd)
{
    char *dir = cx_str(clang_CompileCommand_getDirectory(cmd));
    char *file = cx_str(clang_CompileCommand_getFilename(cmd));
    char *full = file ? abs_against(dir, file) : NULL;
    free(dir);
    free(file);
    return full;
}

/* Whether the command's file is source (both resolved through realpath when they exist). */
static int same_file(CXCompileCommand cmd, const char *source)
{
    char *full = cmd_file(cmd);
    char *a = full ? realpath(full, NULL) : NULL, *b = realpath(source, NULL);
    int same = a && b ? !strcmp(a, b) : (full && !strcmp(full, source));
    free(full);
    free(a);
    free(b);
    return same;
}

/* Whether the command's file lies in the directory of source. */
static int same_dir(CXCompileCommand cmd, const char *source)
{
    char *full = cmd_file(cmd);
    char *a = full ? realpath(full, NULL) : NULL, *b = realpath(source, NULL);
    int same = 0;
    if (a && b) {
        char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
        same = sa && sb && sa - a == sb - b && !strncmp(a, b, (size_t)(sa - a));
    }
    free(full);
    free(a);
    free(b);
    return same;
}

/* Append text (words already quoted) to out unless out already has it as whole words. */
static void add_text(strbuf *out, const char *text)
{
    char *hay = util_strf(" %s ", out->s ? out->s : ""), *needle = util_strf(" %s ", text);
    if (hay && needle && !strstr(hay, needle)) sb_printf(out, "%s%s", out->len ? " " : "", text);
    free(hay);
    free(needle);
}

/* Append one word, quoted, unless out already has it. */
static void add_word(strbuf *out, const char *word)
{
    char *q = unit_quote_word(word);
    if (q) add_text(out, q);
    free(q);
}

/* The flags of one compile command that matter for the unit (see unit_compdb_flags). */
static void take_flags(CXCompileCommand cmd, strbuf *out)
{
    char *dir = cx_str(clang_CompileCommand_getDirectory(cmd));
    unsigned n = clang_CompileCommand_getNumArgs(cmd);
    static const char *const path_opts[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", NULL};
    for (unsigned i = 1; i < n; i++) {
        char *a = cx_str(clang_CompileCommand_getArg(cmd, i));
        if (!a) break;
        int done = 0;
        for (int k = 0; path_opts[k] && !done; k++) {
            size_t l = strlen(path_opts[k]);
            if (strncmp(a, path_opts[k], l)) continue;
            const char *val = NULL;
            char *next = NULL;
            if (a[l]) {
                if (k != 0) continue; /* -isystemDIR is not a form we take apart; -Idir is */
                val = a + l;
            } else if (i + 1 < n) {
                next = cx_str(clang_CompileCommand_getArg(cmd, ++i));
                val = next;
            }
            if (val) {
                char *p = abs_against(dir, val), *w = NULL;
                /* -I glued, the others as "-opt" "path" in one word pair */
                if (k == 0) w = util_strf("-I%s", p);
                if (w)
                    add_word(out, w);
                else {
                    char *q = unit_quote_word(p), *pair = q ? util_strf("%s %s", path_opts[k], q) : NULL;
                    if (pair) add_text(out, pair);
                    free(pair);
                    free(q);
                }
                free(w);
                free(p);
            }
            free(next);
            done = 1;
        }
        if (!done && (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2))) {
            if (a[2])
                add_word(out, a);
            else if (i + 1 < n) {
                char *v = cx_str(clang_CompileCommand_getArg(cmd, ++i));
                char *w = v ? util_strf("%.2s%s", a, v) : NULL;
                if (w) add_word(out, w);
                free(w);
                free(v);
            }
        } else if (!done && (!strncmp(a, "-std=", 5) || !strncmp(a, "--std=", 6))) {
            /* the strict ISO dialects become the GNU dialect of the same year: the harness, the
             * runtime and the replay library are built with the unit's flags and need glibc's
             * extensions (MAP_ANONYMOUS, AT_FDCWD) that -std=c11 hides */
            const char *std = a[1] == '-' ? a + 6 : a + 5;
            char *w = util_strf(std[0] == 'c' && std[1] >= '0' && std[1] <= '9' ? "-std=gnu%s" : "-std=%s",
                                std[0] == 'c' && std[1] >= '0' && std[1] <= '9' ? std + 1 : std);
            if (w) add_word(out, w);
            free(w);
        }
        free(a);
    }
    free(dir);
}

/* Remove the temporary directory tmp made for a copy of the database (its
 * compile_commands.json, then the directory) and free the name; NULL: nothing. */
static void remove_copy(char *tmp)
{
    if (!tmp) return;
    char *copy = util_strf("%s/compile_commands.json", tmp);
    if (copy) unlink(copy);
    free(copy);
    rmdir(tmp);
    free(tmp);
}

char *unit_compdb_flags(const char *db, const char *const *sources, size_t nsources, char **err)
{
    *err = NULL;
    struct stat st;
    if (stat(db, &st) != 0) {
        *err = util_strf("cannot read the compilation database %s: %s", db, strerror(errno));
        return NULL;
    }
    char *dir = NULL, *tmp = NULL;
    if (S_ISDIR(st.st_mode)) {
        char *f = util_strf("%s/compile_commands.json", db);
        int there = f && access(f, R_OK) == 0;
        free(f);
        if (!there) {
            *err = util_strf("no compile_commands.json in %s (CMake writes it with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, "
                             "Bear with `bear -- make`)",
                             db);
            return NULL;
        }
        dir = strdup(db);
    } else {
        const char *base = strrchr(db, '/');
        base = base ? base + 1 : db;
        if (!strcmp(base, "compile_commands.json")) {
            dir = base == db ? strdup(".") : strndup(db, (size_t)(base - 1 - db));
            if (dir && !*dir) {
                free(dir);
                dir = strdup("/");
            }
        } else {
            /* libclang reads DIR/compile_commands.json only: a copy under that name */
            char tmpl[] = "/tmp/sympath-compdb-XXXXXX";
            size_t len = 0;
            char *text = util_read_file(db, &len);
            tmp = mkdtemp(tmpl) ? strdup(tmpl) : NULL;
            char *copy = tmp ? util_strf("%s/compile_commands.json", tmp) : NULL;
            if (!text || !copy || util_write_atomic(copy, text, len) != 0) {
                *err = util_strf("cannot copy the compilation database %s: %s", db, strerror(errno));
                free(text);
                free(copy);
                free(tmp);
                return NULL;
            }
            free(text);
            free(copy);
            dir = strdup(tmp);
        }
    }
    CXCompilationDatabase_Error ec = CXCompilationDatabase_NoError;
    CXCompilationDatabase cdb = dir ? clang_CompilationDatabase_fromDirectory(dir, &ec) : NULL;
    if (!cdb || ec != CXCompilationDatabase_NoError) {
        *err = util_strf("cannot load the compilation database %s (no compile_commands.json there, or not valid JSON)",
                         db);
        if (cdb) clang_CompilationDatabase_dispose(cdb);
        free(dir);
        remove_copy(tmp);
        return NULL;
    }
    strbuf out = STRBUF_INIT;
    sb_puts(&out, "");
    CXCompileCommands all = clang_CompilationDatabase_getAllCompileCommands(cdb);
    unsigned nall = all ? clang_CompileCommands_getSize(all) : 0;
    for (size_t s = 0; s < nsources; s++) {
        CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(cdb, sources[s]);
        if (cmds && clang_CompileCommands_getSize(cmds) > 0) {
            take_flags(clang_CompileCommands_getCommand(cmds, 0), &out);
        } else {
            /* the same file spelled differently (symlinks, relative entries), else a file of
             * the same directory (a header has no entry of its own), else the first entry */
            int pick = -1;
            for (unsigned k = 0; k < nall && pick < 0; k++)
                if (same_file(clang_CompileCommands_getCommand(all, k), sources[s])) pick = (int)k;
            for (unsigned k = 0; k < nall && pick < 0; k++)
                if (same_dir(clang_CompileCommands_getCommand(all, k), sources[s])) pick = (int)k;
            if (pick < 0 && nall > 0) pick = 0;
            if (pick >= 0) take_flags(clang_CompileCommands_getCommand(all, (unsigned)pick), &out);
        }
        if (cmds) clang_CompileCommands_dispose(cmds);
    }
    if (all) clang_CompileCommands_dispose(all);
    clang_CompilationDatabase_dispose(cdb);
    remove_copy(tmp);
    free(dir);
    if (out.failed) {
        sb_free(&out);
        *err = strdup("out of memory");
        return NULL;
    }
    return out.s;
}
