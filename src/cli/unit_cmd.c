/* unit_cmd.c: `sympath unit`: signatures -> harness -> exploration per function -> recorded runs -> verified CMocka tests. */
#define _GNU_SOURCE
#include "unit_cmd.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emit/emit.h"
#include "emit/json.h"
#include "util/util.h"
#include "explore/explorer.h"
#include "instrument/instrument.h"
#include "run_cmd.h"
#include "unit/unit.h"
#include "unit_proc.h"
#include "unit_steps.h"

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) {
    if (interrupted) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    interrupted = 1;
}

static void unit_usage(FILE *f) {
    fputs("usage: sympath unit FILE.c [MORE.c ...] (--function F ... | --all) [options]\n"
          "  --function NAME         a function to test (repeatable)\n"
          "  --all                   every function with external linkage defined in the files\n"
          "  -o, --output DIR        output directory (default: sympath-unit-out)\n"
          "  -I DIR                  include directory for the unit (repeatable)\n"
          "  --cflags \"FLAGS\"        extra compiler flags for the unit\n"
          "  --budget DURATION       exploration budget, shared by the functions (default 60s)\n"
          "  --mock NAME             also replace NAME (a libc/libm or other system function) by a stand-in\n"
          "  --mock-outputs          mocks also write a fresh value through each output parameter (non-const T *)\n"
          "  --depth N               fresh input objects at most N pointers deep (default 3)\n"
          "  --str-len N             strings: at most N characters (default 16)\n"
          "  --buf-len N             buffer/length pairs: at most N elements (default 32)\n"
          "  --enum-any              enum inputs take any value, not only the declared ones\n"
          "  --global-inputs         the unit's global variables are inputs too (default: their initial values)\n"
          "  --cycles                input objects may point back to objects that contain them (cyclic lists)\n"
          "  --null-always           every pointer input may be NULL (default: only pointers the unit checks for NULL)\n"
          "  --timeout DURATION      time limit of one run (default 1s)\n"
          "  --no-progress           no live progress line\n",
          f);
}

int cmd_unit(int argc, char **argv) {
    const char *out = "sympath-unit-out";
    char *cflags = strdup("");
    const char **sources = calloc((size_t)argc + 1, sizeof *sources);
    const char **fnames = calloc((size_t)argc + 1, sizeof *fnames);
    const char **mocks = calloc((size_t)argc + 1, sizeof *mocks);
    size_t nsources = 0, nfnames = 0, nmocks = 0;
    int all = 0, mock_outputs = 0;
    double budget = 60, timeout = 1;
    unit_harness_opts ho = {3, 16, 32, 0, 0, 0, 0, NULL, NULL, 0};
    int progress = isatty(2);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
#define NEED()                                                              \
    do {                                                                    \
        if (!v) {                                                           \
            fprintf(stderr, "sympath unit: option %s needs a value\n", a); \
            return 2;                                                       \
        }                                                                   \
        i++;                                                                \
    } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            unit_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--function")) {
            NEED();
            fnames[nfnames++] = v;
        } else if (!strcmp(a, "--all")) {
            all = 1;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            NEED();
            out = v;
        } else if (!strcmp(a, "-I") || !strncmp(a, "-I", 2)) {
            const char *dir = a[2] ? a + 2 : v;
            if (!a[2]) NEED();
            char *n = NULL;
            if (asprintf(&n, "%s -I%s", cflags, dir) < 0) return 1;
            free(cflags);
            cflags = n;
        } else if (!strcmp(a, "--cflags")) {
            NEED();
            char *n = NULL;
            if (asprintf(&n, "%s %s", cflags, v) < 0) return 1;
            free(cflags);
            cflags = n;
        } else if (!strcmp(a, "--budget")) {
            NEED();
            if (parse_duration(v, &d)) goto bad;
            budget = d;
        } else if (!strcmp(a, "--timeout")) {
            NEED();
            if (parse_duration(v, &d) || d <= 0) goto bad;
            timeout = d;
        } else if (!strcmp(a, "--mock")) {
            NEED();
            mocks[nmocks++] = v;
        } else if (!strcmp(a, "--mock-outputs")) {
            mock_outputs = 1;
        } else if (!strcmp(a, "--depth") || !strcmp(a, "--str-len") || !strcmp(a, "--buf-len")) {
            NEED();
            char *end;
            long x = strtol(v, &end, 10);
            if (*end || x < 1 || x > 4096) goto bad;
            if (a[2] == 'd') ho.depth = (unsigned)x;
            else if (a[2] == 's') ho.str_len = (unsigned)x;
            else ho.buf_len = (unsigned)x;
        } else if (!strcmp(a, "--enum-any")) {
            ho.enum_any = 1;
        } else if (!strcmp(a, "--null-always")) {
            ho.null_all = 1;
        } else if (!strcmp(a, "--cycles")) {
            ho.cycles = 1;
        } else if (!strcmp(a, "--global-inputs")) {
            ho.global_inputs = 1;
        } else if (!strcmp(a, "--no-progress")) {
            progress = 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sympath unit: unknown option '%s' (see --help)\n", a);
            return 2;
        } else {
            sources[nsources++] = a;
        }
        continue;
    bad:
        fprintf(stderr, "sympath unit: bad value '%s' for %s (see --help)\n", v, a);
        return 2;
#undef NEED
    }
    if (nsources == 0 || (!all && nfnames == 0)) {
        fprintf(stderr, "sympath unit: %s\n", nsources == 0 ? "no C source given" : "give --function NAME or --all");
        unit_usage(stderr);
        return 2;
    }

    char **abs_sources = calloc(nsources + 2, sizeof *abs_sources);
    for (size_t i = 0; i < nsources; i++) {
        abs_sources[i] = realpath(sources[i], NULL);
        if (!abs_sources[i]) {
            fprintf(stderr, "sympath unit: cannot read %s: %s\n", sources[i], strerror(errno));
            return 1;
        }
    }

    /* 1. signatures */
    unit_info u;
    char *err = NULL;
    char **cflag_words = NULL;
    size_t ncflag_words = 0;
    if (util_split_words(cflags, &cflag_words, &ncflag_words, &err)) {
        fprintf(stderr, "sympath unit: --cflags: %s\n", err);
        return 2;
    }
    util_free_strv(cflag_words);
    if (unit_parse((const char *const *)abs_sources, nsources, cflags, &u, &err) != 0) {
        fprintf(stderr, "sympath unit: cannot parse the unit: %s\n", err ? err : "unknown error");
        return 1;
    }
    if (*u.diagnostics) fprintf(stderr, "%s", u.diagnostics);
    u.mock_outputs = mock_outputs;
    const ut_func **targets = calloc(u.ndefs + nfnames + 1, sizeof *targets);
    size_t ntargets = 0;
    if (all) {
        for (size_t i = 0; i < u.ndefs; i++) targets[ntargets++] = &u.defs[i];
    }
    for (size_t i = 0; i < nfnames; i++) {
        const ut_func *f = unit_find_def(&u, fnames[i]);
        if (!f) {
            fprintf(stderr, "sympath unit: no function '%s' with external linkage is defined in the given files; there are:",
                    fnames[i]);
            for (size_t k = 0; k < u.ndefs; k++) fprintf(stderr, " %s", u.defs[k].name);
            fprintf(stderr, "%s\n", u.ndefs ? "" : " none");
            return 2;
        }
        int dup = 0;
        for (size_t k = 0; k < ntargets; k++) dup |= targets[k] == f;
        if (!dup) targets[ntargets++] = f;
    }
    if (ntargets == 0) {
        fprintf(stderr, "sympath unit: the files define no function with external linkage\n");
        return 1;
    }
    /* mocks: undefined functions, plus --mock names declared in system headers */
    const char **mocked = calloc(u.nexterns + nmocks + 1, sizeof *mocked);
    const char **wrapped = calloc(nmocks + 1, sizeof *wrapped);
    size_t nmocked = 0, nwrapped = 0;
    for (size_t i = 0; i < u.nexterns; i++) mocked[nmocked++] = u.externs[i].name;
    for (size_t i = 0; i < nmocks; i++) {
        int found = 0;
        for (size_t k = 0; k < u.nsystem; k++)
            if (!strcmp(u.system[k].name, mocks[i])) found = 1;
        const ut_func *d = found ? NULL : unit_find_def(&u, mocks[i]);
        if (found) {
            mocked[nmocked++] = mocks[i];
            wrapped[nwrapped++] = mocks[i];   /* the unit's calls only: see the build wrappers */
        }
        else if (d && nsources > 1) wrapped[nwrapped++] = mocks[i];
        else if (d)
            fprintf(stderr, "sympath unit: --mock %s: the function is defined in the only file of the unit; calls inside "
                            "one file cannot be redirected, it is not mocked\n", mocks[i]);
        else
            fprintf(stderr, "sympath unit: --mock %s: the unit does not call it\n", mocks[i]);
    }
    u.wrapped = wrapped;
    u.nwrapped = nwrapped;
    /* a wrapped function is a stand-in now: not a target */
    for (size_t i = 0; i < ntargets; i++)
        if (unit_is_wrapped(&u, targets[i]->name)) {
            fprintf(stderr, "sympath unit: %s is mocked (--mock): calls from the other files go to a stand-in; not tested\n",
                    targets[i]->name);
            memmove(&targets[i], &targets[i + 1], (ntargets - i - 1) * sizeof *targets);
            ntargets--;
            i--;
        }
    if (ntargets == 0) {
        fprintf(stderr, "sympath unit: no function left to test\n");
        return 1;
    }
    ho.mock_names = mocks;
    ho.nmock_names = nmocks;

    /* the harness lives in OUT/build: the sources' directories go on the include path for
     * the includes it copied from them ("ring.h") */
    char *build_cflags = NULL;
    if (asprintf(&build_cflags, "%s%s", cflags, u.has_main ? " -Dmain=sympath_unit_user_main" : "") < 0) return 1;
    for (size_t i = 0; i < nsources; i++) {
        char *d = uc_dir_of(abs_sources[i]), *nb = NULL;
        if (asprintf(&nb, "%s '-I%s'", build_cflags, d) >= 0) {
            free(build_cflags);
            build_cflags = nb;
        }
        free(d);
    }
    strbuf untested = STRBUF_INIT;   /* "function\treason" lines */
    /* 2. harness */
    char build_dir[PATH_MAX], path[PATH_MAX + 64], rt_header[PATH_MAX];
    snprintf(build_dir, sizeof build_dir, "%s/build", out);
    if (util_mkdir_p(build_dir) != 0) {
        fprintf(stderr, "sympath unit: cannot create %s: %s\n", build_dir, strerror(errno));
        return 1;
    }
    snprintf(rt_header, sizeof rt_header, "%s/sympath_unit_rt.h", uc_lib_dir());
    ho.rt_header = rt_header;
    char *warnings = NULL;
    char *harness = unit_harness(&u, targets, ntargets, &ho, &warnings, &err);
    if (!harness) {
        fprintf(stderr, "sympath unit: %s\n", err ? err : "cannot generate the harness");
        return 1;
    }
    if (*warnings) fprintf(stderr, "sympath unit: %s", warnings);
    snprintf(path, sizeof path, "%s/harness.c", build_dir);
    if (write_file_atomic(path, harness, strlen(harness)) == 0 && !syntax_ok(path, build_cflags, build_dir, NULL)) {
        /* a type the generator gets wrong must not cost every function: keep those whose
         * harness alone compiles, report the others with clang's first error */
        size_t kept = 0;
        for (size_t i = 0; i < ntargets; i++) {
            char *w1 = NULL, *e1 = NULL, *diag = NULL;
            char *h1 = unit_harness(&u, &targets[i], 1, &ho, &w1, &e1);
            int ok = h1 && write_file_atomic(path, h1, strlen(h1)) == 0 && syntax_ok(path, build_cflags, build_dir, &diag);
            if (ok) targets[kept++] = targets[i];
            else {
                fprintf(stderr, "sympath unit: %s: cannot build its harness (not tested):\n%s\n", targets[i]->name,
                        diag ? diag : (e1 ? e1 : "?"));
                char *first = strdup(diag ? diag : (e1 ? e1 : "?"));
                char *nl = first ? strchr(first, '\n') : NULL;
                if (nl) *nl = 0;
                sb_printf(&untested, "%s\t%s\n", targets[i]->name, first ? first : "?");
                free(first);
            }
            free(h1);
            free(w1);
            free(e1);
            free(diag);
        }
        ntargets = kept;
        if (ntargets == 0) {
            fprintf(stderr, "sympath unit: no function could be given a harness\n");
            return 1;
        }
        free(harness);
        free(warnings);
        harness = unit_harness(&u, targets, ntargets, &ho, &warnings, &err);
        if (!harness) {
            fprintf(stderr, "sympath unit: %s\n", err ? err : "cannot generate the harness");
            return 1;
        }
    }
    if (write_file_atomic(path, harness, strlen(harness)) != 0) {
        fprintf(stderr, "sympath unit: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    char *harness_abs = realpath(path, NULL);
    /* the files the executor and the recorder are built from: the sources, except that a
     * file defining a wrapped function is included by a wrapper that renames it to
     * __real_NAME (calls inside that file follow, as with the linker's --wrap), then the harness */
    char **build_sources = calloc(nsources + 2, sizeof *build_sources);
    for (size_t i = 0; i < nsources; i++) {
        strbuf w = STRBUF_INIT;
        for (size_t k = 0; k < u.ndefs; k++)
            if (unit_is_wrapped(&u, u.defs[k].name) && !strcmp(u.defs[k].file, abs_sources[i]))
                sb_printf(&w, "#define %s __real_%s\n", u.defs[k].name, u.defs[k].name);
        /* mocked libc functions: every file of the unit calls the harness's sympu_mock_NAME */
        for (size_t k = 0; k < u.nsystem; k++)
            if (unit_is_wrapped(&u, u.system[k].name))
                sb_printf(&w, "#define %s sympu_mock_%s\n", u.system[k].name, u.system[k].name);
        if (!w.s) {
            build_sources[i] = strdup(abs_sources[i]);
            continue;
        }
        char *st = uc_stem(abs_sources[i]), *wp = NULL;
        sb_printf(&w, "#include \"%s\"\n", abs_sources[i]);
        if (asprintf(&wp, "%s/wrap_%s.c", build_dir, st) < 0 || write_file_atomic(wp, w.s, w.len) != 0) {
            fprintf(stderr, "sympath unit: cannot write the wrapper of %s\n", sources[i]);
            return 1;
        }
        build_sources[i] = realpath(wp, NULL);
        free(wp);
        free(st);
        sb_free(&w);
    }
    build_sources[nsources] = harness_abs;

    /* 3. the instrumented executor: the unit and the harness, built like any program */
    char exe[PATH_MAX + 16], sites[PATH_MAX + 16];
    snprintf(exe, sizeof exe, "%s/executor", build_dir);
    snprintf(sites, sizeof sites, "%s/sites.tsv", build_dir);
    build_opts bo = {(const char *const *)build_sources, nsources + 1, build_cflags, build_dir, uc_lib_dir(), uc_include_dir(), exe,
                     sites, getenv("SYMPATH_CC") ? getenv("SYMPATH_CC") : SYMPATH_CLANG, NULL};
    build_stats bs;
    memset(&bs, 0, sizeof bs);
    fprintf(stderr, "sympath unit: %zu function%s to test, %zu mock%s; building ...\n", ntargets, ntargets > 1 ? "s" : "",
            nmocked, nmocked == 1 ? "" : "s");
    if (build_executor(&bo, &bs, &err) != 0) {
        fprintf(stderr, "sympath unit: cannot build the unit with its harness:\n%s\n", err ? err : "unknown error");
        return 1;
    }
    build_stats_free(&bs);
    /* the recorder: the same harness, native, with the replay library */
    char recorder[PATH_MAX + 16], rlog[PATH_MAX + 16];
    snprintf(recorder, sizeof recorder, "%s/recorder", build_dir);
    snprintf(rlog, sizeof rlog, "%s/recorder.log", build_dir);
    {
        char **v = NULL;
        size_t n = 0;
        unit_split_words("cc -w -g -O0 -fno-strict-aliasing -DSYMPATH_UNIT_RECORD", &v, &n);
        char *inc = NULL;
        if (asprintf(&inc, "-I%s", uc_include_dir()) >= 0) uc_push_word(inc, &v, &n);
        free(inc);
        unit_split_words(build_cflags, &v, &n);
        for (size_t i = 0; i <= nsources; i++) uc_push_word(build_sources[i], &v, &n);
        char *rl = NULL;
        if (asprintf(&rl, "%s/replay.c", uc_lib_dir()) >= 0) uc_push_word(rl, &v, &n);
        free(rl);
        unit_split_words("-lm -o", &v, &n); /* libm, as the unit's own build would link it */
        uc_push_word(recorder, &v, &n);
        int st = 0;
        if (up_run(v, NULL, rlog, 120, &st) != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            char *l = util_read_file(rlog, NULL);
            fprintf(stderr, "sympath unit: cannot build the native recorder:\n%s\n", l ? l : "");
            return 1;
        }
        util_free_strv(v);
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* 4. explore each function, then record each kept test vector natively */
    fn_result *frs = calloc(ntargets, sizeof *frs);
    tests_vec *tvs = calloc(ntargets, sizeof *tvs);
    unsigned *counters = calloc(ntargets, sizeof *counters);
    for (size_t i = 0; i < ntargets && !interrupted; i++) {
        fn_result *fr = &frs[i];
        fr->fn = targets[i];
        fr->gcov_taken = fr->gcov_total = -1;
        if (asprintf(&fr->run_dir, "%s/runs/%s", build_dir, targets[i]->name) < 0) return 1;
        util_mkdir_p(fr->run_dir);
        setenv("SYMPATH_UNIT_FUNCTION", targets[i]->name, 1);
        explore_opts o;
        memset(&o, 0, sizeof o);
        /* what earlier functions left unused goes to the ones after them */
        double spent = 0;
        for (size_t k = 0; k < i; k++) spent += frs[k].seconds;
        double left = budget - spent;
        o.budget_seconds = budget > 0 ? (left > 0 ? left : 0.5) / (double)(ntargets - i) : 0;
        if (budget > 0 && o.budget_seconds < 0.5) o.budget_seconds = 0.5;
        o.seed = 1;
        o.jobs = 1;
        o.run_timeout_ms = (unsigned)(timeout * 1000 + 0.5);
        o.mem_mb = 2048;
        o.out_kb = 1024;
        o.solver_timeout_ms = 2000;
        o.loop_bound = 200;
        o.max_depth = 100000;
        o.inputs_limit = 10000;
        o.progress = progress;
        o.out_dir = fr->run_dir;
        o.exe_path = exe;
        o.sites_path = sites;
        o.work_dir = build_dir;
        o.sources = (const char *const *)build_sources;
        o.nsources = nsources + 1;
        o.build = &bs;
        o.interrupted = &interrupted;
        explore_summary sum;
        memset(&sum, 0, sizeof sum);
        fprintf(stderr, "sympath unit: exploring %s (%s:%u)\n", targets[i]->name, uc_base_name(targets[i]->file),
                targets[i]->line);
        if (explore_program(&o, &sum, &err) != 0) {
            fprintf(stderr, "sympath unit: %s: %s\n", targets[i]->name, err ? err : "exploration failed");
            free(err);
            err = NULL;
            continue;
        }
        fr->seconds = sum.seconds;
        snprintf(path, sizeof path, "%s/report.json", fr->run_dir);
        coverage_of(path, targets[i]->name, &fr->covered, &fr->total);
        char rec_path[PATH_MAX + 64];
        snprintf(rec_path, sizeof rec_path, "%s/record.txt", fr->run_dir);
        for (int kind = 0; kind < 2; kind++) {
            char dir[PATH_MAX + 32];
            snprintf(dir, sizeof dir, "%s/%s", fr->run_dir, kind ? "errors" : "tests");
            size_t n = 0;
            char **vecs = util_list_dir(dir, kind ? "error-*.xml" : "test-*.xml", &n);
            for (size_t k = 0; k < n; k++) {
                fr->vectors++;
                record_vector(recorder, rec_path, vecs[k], fr, &tvs[i], &counters[i]);
            }
            util_free_strv(vecs);
        }
    }

    /* 5. one test file per source file, verified */
    unit_cfg cfg = {out, cflags, abs_sources, nsources, &u, mocked, nmocked, u.has_main};
    char verify_dir[PATH_MAX + 16];
    snprintf(verify_dir, sizeof verify_dir, "%s/verify", build_dir);
    util_mkdir_p(verify_dir);
    json_writer *j = json_new();
    json_begin_object(j);
    json_key(j, "tool");
    json_string(j, "sympath 0.1 unit");
    json_key(j, "files");
    json_begin_array(j);
    size_t files_written = 0, total_kept = 0;
    strbuf build_lines = STRBUF_INIT, cmake = STRBUF_INIT;
    const unit_test **kept_tests = NULL;   /* every test written, for the report */
    size_t kept_n = 0;
    sb_puts(&cmake, "# CMake fragment written by `sympath unit`: include() it from a CMakeLists.txt that has enable_testing().\n");
    for (size_t s = 0; s < nsources; s++) {
        tests_vec tv = {NULL, 0, NULL};
        size_t nfr = 0;
        for (size_t i = 0; i < ntargets; i++) {
            if (strcmp(targets[i]->file, abs_sources[s])) continue;
            nfr++;
            for (size_t k = 0; k < tvs[i].n; k++) {
                unit_test *nv = realloc(tv.v, (tv.n + 1) * sizeof *nv);
                if (!nv) break;
                tv.v = nv;
                tv.v[tv.n++] = tvs[i].v[k];
            }
        }
        if (nfr == 0) continue;
        char *text = NULL;
        size_t kept = tv.n ? verify_file(&cfg, verify_dir, abs_sources[s], &tv, frs, ntargets, &text) : 0;
        char *st = uc_stem(abs_sources[s]);
        json_begin_object(j);
        json_key(j, "source");
        json_string(j, sources[s]);
        if (kept && text) {
            snprintf(path, sizeof path, "%s/test_%s.c", out, st);
            gcov_measure(&cfg, verify_dir, abs_sources[s], text, frs, ntargets);
            if (write_file_atomic(path, text, strlen(text)) != 0) {
                fprintf(stderr, "sympath unit: cannot write %s: %s\n", path, strerror(errno));
            } else {
                files_written++;
                total_kept += kept;
                for (size_t i = 0; i < tv.n; i++) {
                    for (size_t k = 0; k < ntargets; k++)
                        if (frs[k].fn == tv.v[i].fn) {
                            frs[k].kept++;
                            frs[k].failing += tv.v[i].outcome != UO_NORMAL;
                        }
                    unit_test *copy = malloc(sizeof *copy);
                    const unit_test **nk = realloc(kept_tests, (kept_n + 1) * sizeof *nk);
                    if (copy && nk) {
                        *copy = tv.v[i];
                        kept_tests = nk;
                        kept_tests[kept_n++] = copy;
                    }
                }
                /* the build line and the CMake fragment */
                strbuf line = STRBUF_INIT, dirs = STRBUF_INIT;
                sb_puts(&line, "cc ");
                for (size_t k = 0; k < nsources; k++) {
                    char *d = uc_dir_of(sources[k]), *ad = uc_dir_of(abs_sources[k]);
                    char pat[PATH_MAX + 8];
                    snprintf(pat, sizeof pat, "-I%s ", d);
                    if (!line.s || !strstr(line.s, pat)) sb_puts(&line, pat);
                    snprintf(pat, sizeof pat, " %s", ad);
                    if (!dirs.s || !strstr(dirs.s, pat)) sb_puts(&dirs, pat);
                    free(d);
                    free(ad);
                }
                const char *mainflag = u.has_main ? " -Dmain=sympath_unit_user_main" : "";
                const char *cf = cflags;
                while (*cf == ' ') cf++;
                if (*cf) sb_printf(&line, "%s ", cf);
                if (*mainflag) sb_printf(&line, "%s ", mainflag + 1);
                sb_puts(&line, path);
                for (size_t k = 0; k < nsources; k++) sb_printf(&line, " %s", sources[k]);
                for (size_t k = 0; k < u.nwrapped; k++) sb_printf(&line, " -Wl,--wrap=%s", u.wrapped[k]);
                sb_printf(&line, " -lcmocka -lm -o %s/test_%s && %s/test_%s", out, st, out, st);
                json_key(j, "test_file");
                json_string(j, path);
                json_key(j, "build");
                json_string(j, line.s);
                json_key(j, "tests");
                json_uint(j, kept);
                sb_printf(&build_lines, "%s\n", line.s);
                char *abs_test = realpath(path, NULL);
                sb_printf(&cmake, "add_executable(test_%s %s", st, abs_test ? abs_test : path);
                for (size_t k = 0; k < nsources; k++) sb_printf(&cmake, " %s", abs_sources[k]);
                sb_printf(&cmake, ")\ntarget_include_directories(test_%s PRIVATE%s)\n", st, dirs.s ? dirs.s : " .");
                if (*cflags || *mainflag) {
                    char **words = NULL;
                    size_t nw = 0;
                    unit_split_words(cflags, &words, &nw);
                    unit_split_words(mainflag, &words, &nw);
                    sb_printf(&cmake, "target_compile_options(test_%s PRIVATE", st);
                    for (size_t k = 0; k < nw; k++) sb_printf(&cmake, " \"%s\"", words[k]);
                    sb_puts(&cmake, ")\n");
                    util_free_strv(words);
                }
                if (u.nwrapped) {
                    sb_printf(&cmake, "target_link_options(test_%s PRIVATE", st);
                    for (size_t k = 0; k < u.nwrapped; k++) sb_printf(&cmake, " \"-Wl,--wrap=%s\"", u.wrapped[k]);
                    sb_puts(&cmake, ")\n");
                }
                sb_printf(&cmake, "target_link_libraries(test_%s cmocka m)\nadd_test(NAME test_%s COMMAND test_%s)\n", st, st, st);
                free(abs_test);
                sb_free(&line);
                sb_free(&dirs);
            }
        } else {
            json_key(j, "tests");
            json_uint(j, 0);
            /* a test file left by an earlier run would no longer match what was found */
            snprintf(path, sizeof path, "%s/test_%s.c", out, st);
            unlink(path);
        }
        free(text);
        free(st);
        json_end_object(j);
        free(tv.v);
    }
    json_end_array(j);
    json_key(j, "functions");
    json_begin_array(j);
    fprintf(stderr, "\nsympath unit: results (branch coverage of each function as explored; gcov: branch outcomes\n"
                    "the emitted tests take, measured with gcc --coverage; tests that fail run in a child gcov misses)\n");
    for (size_t i = 0; i < ntargets; i++) {
        fn_result *fr = &frs[i];
        json_begin_object(j);
        json_key(j, "function");
        json_string(j, fr->fn->name);
        json_key(j, "file");
        json_string(j, fr->fn->file);
        json_key(j, "coverage");
        json_begin_object(j);
        json_key(j, "branches_total");
        json_uint(j, fr->total);
        json_key(j, "branches_covered");
        json_uint(j, fr->covered);
        json_key(j, "percent");
        json_double(j, fr->total ? 100.0 * fr->covered / fr->total : 100.0);
        json_end_object(j);
        json_key(j, "gcov");
        if (fr->gcov_total >= 0) {
            json_begin_object(j);
            json_key(j, "note");
            json_string(j, "branch outcomes of the function taken by the emitted tests, gcc --coverage + gcov -b");
            json_key(j, "branches_total");
            json_uint(j, (uint64_t)fr->gcov_total);
            json_key(j, "branches_taken");
            json_uint(j, (uint64_t)fr->gcov_taken);
            json_end_object(j);
        } else {
            json_null(j);
        }
        json_key(j, "test_vectors");
        json_uint(j, fr->vectors);
        json_key(j, "duplicates");
        json_uint(j, fr->duplicates);
        json_key(j, "tests_emitted");
        json_uint(j, fr->kept);
        json_key(j, "tests_expecting_failure");
        json_uint(j, fr->failing);
        json_key(j, "seconds");
        json_double(j, fr->seconds);
        json_key(j, "tests");
        json_begin_array(j);
        for (size_t k = 0; k < kept_n; k++) {
            if (kept_tests[k]->fn != fr->fn) continue;
            const unit_test *t = kept_tests[k];
            json_begin_object(j);
            json_key(j, "name");
            json_string(j, t->name);
            json_key(j, "expects");
            json_string(j, t->outcome == UO_NORMAL ? "return" : t->outcome == UO_EXIT ? "exit" : "signal");
            if (t->outcome == UO_SIGNAL) {
                json_key(j, "signal");
                json_int(j, t->signo);
            } else if (t->outcome == UO_EXIT) {
                json_key(j, "exit_code");
                json_int(j, t->exit_code);
            }
            json_key(j, "from");
            json_string(j, t->origin);
            json_end_object(j);
        }
        json_end_array(j);
        json_key(j, "dropped");
        json_begin_array(j);
        for (char *p = fr->drops; p && *p;) {
            char *nl = strchr(p, '\n');
            char *one = strndup(p, nl ? (size_t)(nl - p) : strlen(p));
            json_string(j, one);
            free(one);
            p = nl ? nl + 1 : p + strlen(p);
        }
        json_end_array(j);
        json_end_object(j);
        char g[64] = "-";
        if (fr->gcov_total >= 0) snprintf(g, sizeof g, "%d/%d", fr->gcov_taken, fr->gcov_total);
        fprintf(stderr, "  %-24s branches %u/%u (%.0f%%), gcov %s, %u tests emitted (%u expect a failure), %u dropped\n",
                fr->fn->name, fr->covered, fr->total, fr->total ? 100.0 * fr->covered / fr->total : 100.0, g, fr->kept,
                fr->failing, fr->dropped);
        for (size_t k = 0; k < kept_n; k++) {
            const unit_test *t = kept_tests[k];
            if (t->fn != fr->fn || t->outcome == UO_NORMAL) continue;
            if (t->outcome == UO_SIGNAL)
                fprintf(stderr, "      expects a failure: %s (signal %d, %s)\n", t->name, t->signo, strsignal(t->signo));
            else
                fprintf(stderr, "      expects a failure: %s (exit status %d)\n", t->name, t->exit_code);
        }
        for (char *p = fr->drops; p && *p;) {
            char *nl = strchr(p, '\n');
            fprintf(stderr, "      dropped %.*s\n", (int)(nl ? nl - p : (long)strlen(p)), p);
            p = nl ? nl + 1 : p + strlen(p);
        }
    }
    json_end_array(j);
    json_key(j, "not_tested");
    json_begin_array(j);
    for (char *p = untested.s; p && *p;) {
        char *nl = strchr(p, '\n'), *tab = strchr(p, '\t');
        if (!nl || !tab || tab > nl) break;
        char *fn = strndup(p, (size_t)(tab - p)), *why = strndup(tab + 1, (size_t)(nl - tab - 1));
        json_begin_object(j);
        json_key(j, "function");
        json_string(j, fn);
        json_key(j, "reason");
        json_string(j, why);
        json_end_object(j);
        free(fn);
        free(why);
        p = nl + 1;
    }
    json_end_array(j);
    json_key(j, "mocks");
    json_begin_array(j);
    for (size_t i = 0; i < nmocked; i++) json_string(j, mocked[i]);
    json_end_array(j);
    json_key(j, "warnings");
    json_string(j, warnings);
    json_end_object(j);
    snprintf(path, sizeof path, "%s/report.json", out);
    json_write_file(j, path);
    json_free(j);
    if (files_written) {
        snprintf(path, sizeof path, "%s/BUILD.txt", out);
        write_file_atomic(path, build_lines.s, build_lines.len);
        snprintf(path, sizeof path, "%s/tests.cmake", out);
        write_file_atomic(path, cmake.s, cmake.len);
        fprintf(stderr, "sympath unit: %zu tests in %zu file%s; build and run with:\n%s(also in %s/BUILD.txt; CMake: %s/tests.cmake)\n",
                total_kept, files_written, files_written > 1 ? "s" : "", build_lines.s, out, out);
    } else {
        fprintf(stderr, "sympath unit: no test could be kept (reasons above and in %s/report.json)\n", out);
        snprintf(path, sizeof path, "%s/BUILD.txt", out);
        unlink(path);
        snprintf(path, sizeof path, "%s/tests.cmake", out);
        unlink(path);
    }
    return files_written ? 0 : 1;
}
