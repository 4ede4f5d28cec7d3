/* build.c: the build pipeline: clang -> bitcode, link with the models and rt_fast, mem2reg, concrete-mode clones, instrument, native link. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "instrument_int.h"
#include "util/util.h"

/*
 * Flags of the front-end compilation, and why (docs/instrumentation.md has the long form):
 *   -O0 -Xclang -disable-O0-optnone  unoptimised IR that passes may still run on (mem2reg)
 *   -gline-tables-only               source locations of branch sites, error calls and crashes
 *                                    (addr2line -f -i): nothing else of the debug info is read, and
 *                                    full -g costs 15% more in the executor's -O2 compile
 *   -fwrapv                          signed overflow wraps, as the expressions say; without it
 *                                    -O2 on the executor could assume it away
 *   -fno-delete-null-pointer-checks  a dereference does not prove a pointer non-null
 *   -fno-finite-loops                loops without side effects are not assumed to end
 * and, for C sources (not .i files, already preprocessed):
 *   -D__NO_CTYPE                     glibc's <ctype.h> declares isdigit & co. as functions
 *                                    instead of table-lookup macros, so calls reach the
 *                                    ctype models (models_ctype.c)
 */
static const char *const cc_flags[] = {
    "-c",
    "-emit-llvm",
    "-gline-tables-only",
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-fwrapv",
    "-fno-delete-null-pointer-checks",
    "-fno-finite-loops",
};

/* Everything the pipeline owns, released in one place. */
typedef struct build {
    const build_opts *o;
    LLVMContextRef cx;
    LLVMModuleRef m;
    char *diag;     /* LLVM error diagnostics collected by the context's handler */
    char **rt_fast; /* functions defined by rt_fast.bc */
    size_t n_rt_fast;
    char **models; /* functions defined by models.bc */
    size_t n_models;
    site_table sites;
} build;

static void on_diag(LLVMDiagnosticInfoRef di, void *ctx)
{
    build *B = ctx;
    if (LLVMGetDiagInfoSeverity(di) != LLVMDSError) return;
    char *d = LLVMGetDiagInfoDescription(di);
    char *n = util_strf("%s%s%s", B->diag ? B->diag : "", B->diag ? "\n" : "", d);
    if (n) {
        free(B->diag);
        B->diag = n;
    }
    LLVMDisposeMessage(d);
}

static void free_names(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* Compile source number i to <work_dir>/<i>.bc. */
static int compile_one(build *B, size_t i, char **err)
{
    const build_opts *o = B->o;
    char **argv = NULL;
    size_t argc = 0;
    int rc = -1;
    char *inc = util_strf("-I%s", o->include_dir);
    char *out = util_strf("%s/%zu.bc", o->work_dir, i);
    char *log = util_strf("%s/%zu.log", o->work_dir, i);
    argv = calloc(7 + sizeof cc_flags / sizeof *cc_flags, sizeof *argv);
    if (!inc || !out || !log || !argv) {
        *err = util_strf("out of memory");
        goto done;
    }
    argv[argc++] = strdup(o->clang);
    for (size_t k = 0; k < sizeof cc_flags / sizeof *cc_flags; k++) argv[argc++] = strdup(cc_flags[k]);
    /* a preprocessed source (.i) takes no include path: clang would warn that -I is unused */
    size_t sl = strlen(o->sources[i]);
    if (sl < 2 || strcmp(o->sources[i] + sl - 2, ".i") != 0) {
        argv[argc++] = strdup(inc);
        argv[argc++] = strdup("-D__NO_CTYPE");
        argv[argc++] = strdup("-idirafter"); /* <libpq-fe.h> without a --cflags of the user's */
        argv[argc++] = strdup(SYMPATH_PQ_INCLUDE);
    }
    if (util_split_words(o->cflags, &argv, &argc, err)) goto done;
    const char *tail[] = {o->sources[i], "-o", out};
    for (int k = 0; k < 3; k++) {
        char **nv = realloc(argv, (argc + 2) * sizeof *argv);
        if (!nv) {
            *err = util_strf("out of memory");
            goto done;
        }
        argv = nv;
        argv[argc++] = strdup(tail[k]);
        argv[argc] = NULL;
    }
    char *diag = NULL;
    int st = run_logged(argv, log, &diag);
    if (st != 0) {
        if (st < 0)
            *err = util_strf("cannot run %s: %s", o->clang, diag ? diag : "?");
        else
            *err = util_strf("compiling %s failed (%s exit status %d):\n%s", o->sources[i], o->clang, st,
                             diag ? diag : "");
        free(diag);
        goto done;
    }
    free(diag);
    rc = 0;
done:
    if (argv) free_names(argv, argc);
    free(inc), free(out), free(log);
    return rc;
}

/* Parse a bitcode (or textual IR) file into B->cx. */
static LLVMModuleRef load_module(build *B, const char *path, char **err)
{
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        *err = util_strf("cannot read %s: %s", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMModuleRef m;
    if (LLVMParseIRInContext(B->cx, buf, &m, &msg)) { /* takes the buffer */
        *err = util_strf("cannot parse %s: %s", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    return m;
}

/* Names of the function definitions of m (malloc'ed array of malloc'ed strings). */
static int defined_names(LLVMModuleRef m, char ***names, size_t *n)
{
    size_t cap = 0;
    *names = NULL;
    *n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f)) continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            char **nv = realloc(*names, cap * sizeof *nv);
            if (!nv) return -1;
            *names = nv;
        }
        size_t len;
        if (!((*names)[(*n)++] = strdup(LLVMGetValueName2(f, &len)))) return -1;
    }
    return 0;
}

/* Link the library module rt_dir/<file> into B->m, remembering what it defines. */
static int link_lib(build *B, const char *file, char ***names, size_t *n, char **err)
{
    char *path = util_strf("%s/%s", B->o->rt_dir, file);
    if (!path) {
        *err = util_strf("out of memory");
        return -1;
    }
    LLVMModuleRef lib = load_module(B, path, err);
    if (!lib) {
        free(path);
        return -1;
    }
    if (defined_names(lib, names, n)) {
        LLVMDisposeModule(lib);
        free(path);
        *err = util_strf("out of memory");
        return -1;
    }
    if (LLVMLinkModules2(B->m, lib)) {
        *err = util_strf("cannot link %s: %s", path, B->diag ? B->diag : "?");
        free(path);
        return -1;
    }
    free(path);
    return 0;
}

/* True when the program calls a SQLite function (declared sqlite3_* functions). */
static int uses_sqlite(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f) && len > 8 && !strncmp(name, "sqlite3_", 8)) return 1;
    }
    return 0;
}

/* True when the program calls a libpq function (declared PQ* functions: PQconnectdb, PQexec, ...). */
static int uses_libpq(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f) && len > 2 && name[0] == 'P' && name[1] == 'Q') return 1;
    }
    return 0;
}

/* Link one more module of models (rt_dir/<file>), adding its functions to B->models. */
static int link_models(build *B, const char *file, char **err)
{
    char **names = NULL;
    size_t n = 0;
    if (link_lib(B, file, &names, &n, err)) return -1;
    char **all = realloc(B->models, (B->n_models + n) * sizeof *all);
    if (!all) {
        free_names(names, n);
        *err = util_strf("out of memory");
        return -1;
    }
    memcpy(all + B->n_models, names, n * sizeof *names);
    free(names);
    B->models = all;
    B->n_models += n;
    return 0;
}

/* Compile, parse and link the user's sources into B->m; check for main. */
static int front_end(build *B, char **err)
{
    const build_opts *o = B->o;
    for (size_t i = 0; i < o->nsources; i++)
        if (compile_one(B, i, err)) return -1;
    for (size_t i = 0; i < o->nsources; i++) {
        char *path = util_strf("%s/%zu.bc", o->work_dir, i);
        if (!path) {
            *err = util_strf("out of memory");
            return -1;
        }
        LLVMModuleRef m = load_module(B, path, err);
        free(path);
        if (!m) return -1;
        if (!B->m) {
            B->m = m;
        } else if (LLVMLinkModules2(B->m, m)) {
            *err = util_strf("linking %s with the other sources failed: %s", o->sources[i], B->diag ? B->diag : "?");
            return -1;
        }
    }
    LLVMValueRef main_fn = LLVMGetNamedFunction(B->m, "main");
    if (!main_fn || LLVMIsDeclaration(main_fn)) {
        size_t len = 1;
        for (size_t i = 0; i < o->nsources; i++) len += strlen(o->sources[i]) + 1;
        char *list = calloc(len, 1);
        for (size_t i = 0; list && i < o->nsources; i++) {
            if (i) strcat(list, " ");
            strcat(list, o->sources[i]);
        }
        *err = util_strf("no main function in %s", list ? list : "the sources");
        free(list);
        return -1;
    }
    return 0;
}

/*
 * Symbolic command line, stdin and files (posix.c, models_io.c): the generated
 * configuration <work_dir>/posix_conf.c is compiled and linked, and the program's main
 * becomes __sym_user_main, called by the models' start-up wrapper __sym_posix_main
 * (renamed main after instrumentation). Without options the configuration file is
 * removed (a stale one would be replayed) and nothing changes.
 */
#define POSIX_MAIN "__sym_posix_main"

static int setup_posix(build *B, int posix, char **err)
{
    const build_opts *o = B->o;
    char *src = util_strf("%s/posix_conf.c", o->work_dir), *bc = util_strf("%s/posix_conf.bc", o->work_dir);
    char *log = util_strf("%s/posix_conf.log", o->work_dir);
    int rc = -1;
    if (!src || !bc || !log) {
        *err = util_strf("out of memory");
        goto out;
    }
    if (!posix) {
        remove(src);
        rc = 0;
        goto out;
    }
    if (posix_write_conf(o->posix, src, err)) goto out;
    char *argv[] = {(char *)o->clang, "-c", "-emit-llvm", "-O0", src, "-o", bc, NULL};
    char *diag = NULL;
    int st = run_logged(argv, log, &diag);
    if (st != 0) {
        *err = util_strf("compiling the generated %s failed (%d):\n%s", src, st, diag ? diag : "");
        free(diag);
        goto out;
    }
    free(diag);
    LLVMModuleRef conf = load_module(B, bc, err);
    if (!conf) goto out;
    if (LLVMLinkModules2(B->m, conf)) {
        *err = util_strf("cannot link %s: %s", bc, B->diag ? B->diag : "?");
        goto out;
    }
    LLVMSetValueName2(LLVMGetNamedFunction(B->m, "main"), "__sym_user_main", 15);
    rc = 0;
out:
    free(src), free(bc), free(log);
    return rc;
}

/* rt_fast.bc's entry points disappear into their callers: internal + alwaysinline. */
static void internalize_fast_paths(build *B)
{
    unsigned inl = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    unsigned noinl = LLVMGetEnumAttributeKindForName("noinline", 8);
    unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
    for (size_t i = 0; i < B->n_rt_fast; i++) {
        LLVMValueRef f = LLVMGetNamedFunction(B->m, B->rt_fast[i]);
        if (!f || LLVMIsDeclaration(f)) continue;
        LLVMSetLinkage(f, LLVMInternalLinkage);
        LLVMSetVisibility(f, LLVMDefaultVisibility);
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinl);
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(B->cx, inl, 0));
    }
}

/*
 * Huge functions (generated state machines such as the RERS tasks: thousands of guarded
 * updates in one function) make the final -O2 compile superlinear: 60 s for a function
 * of 6000 branches, 4 minutes for 12000, against 4-7 s at -O0. Marking them optnone is
 * not enough (measured: 37 s instead of 7 s; the register allocator is chosen for the
 * whole module), so a module with a huge function is compiled at -O0 as a whole. The fast
 * paths are still inlined (alwaysinline is honoured at -O0); the executor is slower, but
 * the build no longer eats the exploration budget. Returns how many functions are huge.
 */
#define HUGE_FUNCTION_INSTRUCTIONS 20000u

static unsigned count_huge_functions(build *B)
{
    unsigned marked = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(B->m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f)) continue;
        unsigned n = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && n <= HUGE_FUNCTION_INSTRUCTIONS;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) n++;
        if (n > HUGE_FUNCTION_INSTRUCTIONS) marked++;
    }
    return marked;
}

static int check_file(const char *dir, const char *file, char **err)
{
    char *path = util_strf("%s/%s", dir, file);
    int ok = path && access(path, R_OK) == 0;
    if (!ok) *err = util_strf("runtime file %s missing (is the runtime built?)", path ? path : file);
    free(path);
    return ok ? 0 : -1;
}

/*
 * Pipeline order matters twice: rt_fast.bc is linked *before* instrumentation so
 * that the pass calls its definitions with their exact types (and skips them), and
 * it is internalized only after, once nothing else will be linked.
 */
int build_executor(const build_opts *o, build_stats *st, char **err)
{
    double t0 = util_now_s();
    build B = {0};
    B.o = o;
    int rc = -1;
    char *path = NULL, *diag = NULL, *link_argv[16] = {0};
    *err = NULL;
    if (st) memset(st, 0, sizeof *st);
    if (!o->nsources) {
        *err = util_strf("no source files");
        return -1;
    }
    run_set_stop_flag(o->interrupted);
    if (check_file(o->rt_dir, "models.bc", err) || check_file(o->rt_dir, "rt_fast.bc", err) ||
        check_file(o->rt_dir, "libsympath-rt.a", err))
        return -1;

    B.cx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(B.cx, on_diag, &B);
    if (front_end(&B, err)) goto done;
    int pq_null_tested = pq_result_null_tested(B.m);    /* the program's code only */
    if (st) st->sql_strings = program_sql_strings(B.m); /* NULL when out of memory: no hints, nothing else lost */
    nondet_result nd;
    char *nd_path = util_strf("%s/nondet.bc", o->work_dir);
    int nd_rc = nd_path ? define_nondet_inputs(B.m, nd_path, &nd, err) : -1;
    free(nd_path);
    if (nd_rc) {
        if (!*err) *err = util_strf("out of memory");
        goto done;
    }
    if (st) {
        st->nondet_generated = nd.generated;
        st->nondet_unsupported = nd.unsupported;
        st->nondet_unsupported_list = nd.unsupported_list;
    } else {
        free(nd.unsupported_list);
    }
    int posix = posix_enabled(o->posix);
    if (setup_posix(&B, posix, err)) goto done;
    if (link_lib(&B, "models.bc", &B.models, &B.n_models, err) ||
        link_lib(&B, "rt_fast.bc", &B.rt_fast, &B.n_rt_fast, err))
        goto done;
    /* A program that calls SQLite gets the interception stubs (db_models.bc, counted as
     * models) and is linked with libsqlite3 and the SQL layer's libpg_query. */
    int uses_db = uses_sqlite(B.m);
    if (uses_db && link_models(&B, "db_models.bc", err)) goto done;
    /* A program that calls libpq gets its interception stubs (pq_models.bc: data mode or
     * fixture mode on PostgreSQL, plain libpq otherwise) and is linked with libpq, and with
     * libsqlite3 and libpg_query, which fixture mode's SQL layer (src/db) uses. */
    int uses_pq = uses_libpq(B.m);
    if (uses_pq && link_models(&B, "pq_models.bc", err)) goto done;
    if (uses_pq && add_pq_null_flag(B.m, pq_null_tested)) {
        *err = util_strf("cannot add %s to the module", PQ_NULL_FLAG);
        goto done;
    }

    if (!posix) { /* the start-up wrapper of the symbolic command line is not wanted */
        LLVMValueRef w = LLVMGetNamedFunction(B.m, POSIX_MAIN);
        if (w) LLVMDeleteFunction(w);
    }
    uint32_t pruned; /* with --sym-*, the start-up wrapper is the future main: kept */
    prune_unused_models(B.m, (const char *const *)B.models, B.n_models, posix ? POSIX_MAIN : NULL, &pruned);

    LLVMPassBuilderOptionsRef popts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef perr = LLVMRunPasses(B.m, "mem2reg", NULL, popts);
    LLVMDisposePassBuilderOptions(popts);
    if (perr) {
        char *m = LLVMGetErrorMessage(perr);
        *err = util_strf("mem2reg failed: %s", m);
        LLVMDisposeErrorMessage(m);
        goto done;
    }

    instr_config cfg = {(const char *const *)B.rt_fast, B.n_rt_fast, (const char *const *)B.models, B.n_models};
    instr_result res;
    uint32_t nclones = 0;
    /* after mem2reg (copy and original must have the same shape), before the pass */
    if (make_concrete_clones(B.m, &cfg, &nclones, err)) goto done;
    if (instrument_module(B.m, &cfg, &B.sites, &res, err)) goto done;
    internalize_fast_paths(&B);
    if (posix) /* after the pass: the wrapper is model code, not the program's main */
        LLVMSetValueName2(LLVMGetNamedFunction(B.m, POSIX_MAIN), "main", 4);
    uint32_t nobjects;
    if (add_object_table(B.m, &nobjects, err)) goto done;
    unsigned huge = count_huge_functions(&B);

    char *vmsg = NULL;
    if (LLVMVerifyModule(B.m, LLVMReturnStatusAction, &vmsg)) {
        *err = util_strf("internal error (a bug in sympath's instrumenter): the instrumented module "
                         "does not verify:\n%s",
                         vmsg ? vmsg : "?");
        LLVMDisposeMessage(vmsg);
        goto done;
    }
    LLVMDisposeMessage(vmsg);

    path = util_strf("%s/instrumented.bc", o->work_dir);
    if (!path || write_bitcode_file(B.m, path)) {
        *err = util_strf("cannot write %s: %s", path ? path : "instrumented.bc", strerror(errno));
        goto done;
    }
    if (site_table_write(o->sites_path, &B.sites, err)) goto done;

    /* The executor: optimise (inlining the fast paths) and link with the runtime. */
    char *lib = util_strf("%s/libsympath-rt.a", o->rt_dir);
    char *log = util_strf("%s/link.log", o->work_dir);
    /* (a NULL entry is an option not wanted: skipped) */
    const char *la[] = {o->clang,
                        huge ? "-O0" : "-O2",
                        "-g",
                        "-fno-delete-null-pointer-checks",
                        "-fwrapv",
                        path,
                        lib,
                        "-lm",
                        "-ldl",
                        "-o",
                        o->exe_path,
                        uses_db || uses_pq ? "-lsqlite3" : NULL,
                        uses_db || uses_pq ? "-lpg_query" : NULL,
                        uses_db || uses_pq ? "-lpthread" : NULL,
                        uses_pq ? "-lpq" : NULL};
    int ok = lib && log;
    for (size_t k = 0, n = 0; ok && k < sizeof la / sizeof *la; k++)
        if (la[k]) ok = (link_argv[n++] = strdup(la[k])) != NULL;
    if (!ok) {
        free(lib), free(log);
        *err = util_strf("out of memory");
        goto done;
    }
    int status = run_logged(link_argv, log, &diag);
    free(lib), free(log);
    if (status != 0) {
        *err = util_strf("linking the executor %s failed (%s exit status %d):\n%s", o->exe_path, o->clang, status,
                         diag ? diag : "");
        goto done;
    }
    if (st) {
        st->functions = res.functions;
        st->branch_sites = res.user_sites;
        st->slots = B.sites.nslots;
        st->locations = B.sites.nlocs;
        st->unsupported = res.unsupported;
        st->concrete_clones = nclones;
        st->dispatches = res.dispatches;
        st->seconds = util_now_s() - t0;
    }
    rc = 0;
done:
    for (size_t k = 0; k < sizeof link_argv / sizeof *link_argv; k++) free(link_argv[k]);
    free(path);
    free(diag);
    if (B.m) LLVMDisposeModule(B.m);
    if (B.cx) LLVMContextDispose(B.cx);
    free(B.diag);
    free_names(B.rt_fast, B.n_rt_fast);
    free_names(B.models, B.n_models);
    site_table_free(&B.sites);
    if (rc && !*err) *err = util_strf("build failed");
    return rc;
}

void build_stats_free(build_stats *st)
{
    free(st->nondet_unsupported_list);
    st->nondet_unsupported_list = NULL;
    free(st->sql_strings);
    st->sql_strings = NULL;
}
