/* build.c: the suite's program rebuilt natively with gcc: its sources, the replay library, the --wrap options replay.conf calls for. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "replay/replay.h"
#include "util/util.h"
#include "proto/env.h"

/* A growable argv (NULL-terminated). Allocation failure is sticky, like strbuf's. */
typedef struct argvec {
    char **v;
    size_t n;
    int failed;
} argvec;

static void av_push(argvec *a, const char *s)
{
    if (!s || util_strv_push(&a->v, &a->n, s)) a->failed = 1;
}

/* Push a malloc'ed string (NULL: out of memory) and free it. */
static void av_take(argvec *a, char *s)
{
    if (!s)
        a->failed = 1;
    else
        av_push(a, s);
    free(s);
}

/* Run a compiler (stdio inherited: its diagnostics reach the user). 0 when it exited 0. */
static int run_tool(const argvec *a)
{
    if (a->failed) return -1;
    util_proc p = {.argv = a->v};
    int st = 0;
    return util_run(&p, &st) == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* The clang that compiles generated bitcode: $SYMPATH_CC as for `sympath run`, else the build's. */
static const char *clang_path(void)
{
    const char *e = getenv(SYMPATH_ENV_CC);
    return e && *e ? e : SYMPATH_CLANG;
}

/* Compile one source (i < nsources) or library file into an object; 0 or -1 with *err. */
static int compile_one(const replay_conf *c, char **cflags, const char *src, const char *obj, int is_lib, int coverage,
                       char **err)
{
    argvec a = {0};
    av_push(&a, "gcc");
    av_push(&a, "-O0");
    av_push(&a, "-g");
    av_push(&a, "-w");
    if (coverage && !is_lib) av_push(&a, "--coverage");
    if (coverage && is_lib) av_push(&a, "-DSYMPATH_REPLAY_GCOV");
    if (is_lib && c->posixconf) av_push(&a, "-DSYMPATH_REPLAY_POSIX");
    if (c->include_dir && *c->include_dir) av_take(&a, util_strf("-I%s", c->include_dir));
    if (is_lib) /* replay_pq.c and replay_db.c include sympath's own headers (proto.h, data.h, util.h) */
        av_push(&a, "-I" SYMPATH_SOURCE_DIR "/src");
    av_push(&a, "-idirafter"); /* <libpq-fe.h>, as `sympath run` compiles */
    av_push(&a, SYMPATH_PQ_INCLUDE);
    for (size_t k = 0; !is_lib && cflags && cflags[k]; k++) av_push(&a, cflags[k]);
    av_push(&a, "-c");
    av_push(&a, src);
    av_push(&a, "-o");
    av_push(&a, obj);
    int rc = run_tool(&a);
    util_free_strv(a.v);
    if (rc) *err = util_strf("compiling %s failed", src);
    return rc;
}

int replay_build(const replay_conf *c, const char *rdir, const char *prog, int coverage, char **err)
{
    *err = NULL;
    char **cflags = NULL;
    size_t ncflags = 0;
    if (util_split_words(c->cflags, &cflags, &ncflags, err)) {
        char *why = *err;
        *err = util_strf("replay.conf: cflags: %s", why ? why : "out of memory");
        free(why);
        util_free_strv(cflags);
        return -1;
    }
    argvec objs = {0};
    int rc = 0;
    int with_db = c->db_schema && c->replaydb;
    /* after the program's sources: replay.c, then replay_db.c and replay_pq.c when configured */
    const char *libs[3];
    size_t nlibs = 0;
    libs[nlibs++] = c->replaylib;
    if (with_db) libs[nlibs++] = c->replaydb;
    if (c->replaypq) libs[nlibs++] = c->replaypq;
    for (size_t i = 0; i < c->nsources + nlibs && rc == 0; i++) {
        int is_lib = i >= c->nsources;
        const char *src = is_lib ? libs[i - c->nsources] : c->sources[i];
        const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
        const char *dot = strrchr(base, '.');
        int stem_len = dot ? (int)(dot - base) : (int)strlen(base);
        /* index prefix: two sources with the same base name get distinct .o/.gcno/.gcda */
        char *obj = is_lib ? util_strf("%s/replaylib%zu.o", rdir, i - c->nsources)
                           : util_strf("%s/s%zu-%.*s.o", rdir, i, stem_len, base);
        if (!obj) {
            *err = util_strf("out of memory");
            rc = -1;
            break;
        }
        rc = compile_one(c, cflags, src, obj, is_lib, coverage, err);
        av_take(&objs, obj);
    }
    /* posix_conf.c with gcc; the input functions `sympath run` generated from their
     * declared types are LLVM bitcode, so clang compiles them (same x86-64 ABI) */
    const char *extra[2][2] = {{"gcc", c->posixconf}, {clang_path(), c->nondet}};
    const char *extra_obj[2] = {"posix_conf.o", "nondet.o"};
    for (int k = 0; k < 2 && rc == 0; k++) {
        if (!extra[k][1]) continue;
        argvec a = {0};
        char *obj = util_strf("%s/%s", rdir, extra_obj[k]);
        av_push(&a, extra[k][0]);
        av_push(&a, "-c");
        av_push(&a, "-O0");
        av_push(&a, "-w");
        av_push(&a, extra[k][1]);
        av_push(&a, "-o");
        av_push(&a, obj);
        rc = run_tool(&a);
        util_free_strv(a.v);
        if (rc) *err = util_strf("compiling %s failed", extra[k][1]);
        av_take(&objs, obj);
    }
    if (rc == 0) {
        argvec a = {0};
        av_push(&a, "gcc");
        if (coverage) av_push(&a, "--coverage");
        for (size_t i = 0; i < objs.n; i++) av_push(&a, objs.v[i]);
        for (size_t k = 0; k < ncflags; k++) /* may carry -l/-L options */
            av_push(&a, cflags[k]);
        if (with_db || c->replaypq) /* what they share with sympath: the .results reader, site ids, util */
            av_push(&a, SYMPATH_LIB_DIR "/libsympath-replay.a");
        if (with_db) { /* the program's opens go to replay_db.c */
            av_take(&a, replay_wrap_option(REPLAY_WRAP_SQLITE));
            av_push(&a, "-lsqlite3");
        }
        if (c->replaypq) { /* the program's connections and statements go to replay_pq.c */
            av_take(&a, replay_wrap_option(REPLAY_WRAP_PQ));
            av_push(&a, "-lpq");
        } else { /* a program that calls libpq outside data mode */
            av_push(&a, "-Wl,--push-state,--as-needed");
            av_push(&a, "-lpq");
            av_push(&a, "-Wl,--pop-state");
        }
        av_push(&a, "-lm");
        if (c->posixconf) /* replay.c's start-up and file wrappers (SYMPATH_REPLAY_POSIX) */
            av_take(&a, replay_wrap_option(REPLAY_WRAP_POSIX));
        av_push(&a, "-o");
        av_push(&a, prog);
        rc = run_tool(&a);
        util_free_strv(a.v);
        if (rc) *err = util_strf("linking %s failed", prog);
    }
    if (objs.failed && rc == 0) {
        *err = util_strf("out of memory");
        rc = -1;
    }
    util_free_strv(objs.v);
    util_free_strv(cflags);
    return rc;
}
