/* pipeline.c: `sympath unit` as a library: signatures -> targets and mocks -> harness -> executor and recorder -> exploration and recording per function -> emission. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "explore/explorer.h"
#include "instrument/instrument.h"
#include "unit/pipeline_int.h"
#include "unit/unit.h"
#include "util/util.h"
#include "proto/env.h"

/*
 * The steps, in order (docs/design.md, "sympath unit"):
 *   1. unit_parse: the functions, their types, the calls to mock;
 *   2. the harness (harness.c), checked with clang -fsyntax-only: a function whose
 *      harness does not compile is reported and left out, not the whole unit;
 *   3. the instrumented executor (build_executor) and the native recorder (the same
 *      harness with -DSYMPATH_UNIT_RECORD and the replay library);
 *   4. per function an exploration (explore_program, a share of the budget), then each
 *      test vector it kept run through the recorder (step_record.c);
 *   5. per source file the tests emitted, compiled and run until they pass (step_verify.c),
 *      measured with gcov (step_gcov.c), and the outputs written (step_emit.c).
 */
int unit_run(const unit_run_opts *uo)
{
    FILE *lg = uo->log ? uo->log : stderr;
    const char *out = uo->out_dir;
    const char *cflags = uo->cflags ? uo->cflags : "";
    const char *const *sources = uo->sources;
    size_t nsources = uo->nsources;
    const char *const *fnames = uo->functions;
    size_t nfnames = uo->nfunctions;
    const char *const *mocks = uo->mocks;
    size_t nmocks = uo->nmocks;
    int all = uo->all, mock_outputs = uo->mock_outputs, progress = uo->progress;
    double budget = uo->budget_s, timeout = uo->timeout_s;
    unit_harness_opts ho = uo->harness;

    char **abs_sources = calloc(nsources + 2, sizeof *abs_sources);
    for (size_t i = 0; i < nsources; i++) {
        abs_sources[i] = realpath(sources[i], NULL);
        if (!abs_sources[i]) {
            fprintf(lg, "sympath unit: cannot read %s: %s\n", sources[i], strerror(errno));
            return 1;
        }
    }

    /* 1. signatures */
    unit_info u;
    char *err = NULL;
    if (uo->compile_commands) { /* unitlib: --compile-commands: the unit's flags from the database, before --cflags */
        char *cf = unit_compdb_flags(uo->compile_commands, (const char *const *)abs_sources, nsources, &err);
        char *all_flags = cf ? util_strf(" %s%s", cf, cflags) : NULL;
        free(cf);
        if (!all_flags) {
            fprintf(lg, "sympath unit: %s\n", err ? err : "out of memory");
            return 2;
        }
        cflags = all_flags; /* lives as long as the run (the emit step's flags too) */
    }
    if (unit_parse((const char *const *)abs_sources, nsources, cflags, &u, &err) != 0) {
        fprintf(lg, "sympath unit: cannot parse the unit: %s\n", err ? err : "unknown error");
        return 1;
    }
    /* a single-header library whose functions are defined only under its implementation switch (`#ifdef
     * SJ_IMPL`): defined, as a user of the library does in one file, unless the user's flags name it; when
     * the header defines nothing, or not a function asked for (inline helpers outside the switch), or with
     * --all when the switch adds functions */
    int missing = (u.ndefs == 0 && u.nstatics == 0) || all;
    for (size_t i = 0; i < nfnames && !missing; i++) missing = unit_find_def(&u, fnames[i]) == NULL;
    for (size_t i = 0; i < nsources && missing; i++) {
        char *m = unit_is_header(abs_sources[i]) ? unit_header_impl_macro(abs_sources[i]) : NULL;
        char *d = m ? util_strf("-D%s", m) : NULL;
        char *flags = d && !strstr(cflags, d) ? util_strf("%s %s", cflags, d) : NULL;
        unit_info u2;
        memset(&u2, 0, sizeof u2);
        char *err2 = NULL;
        if (flags && unit_parse((const char *const *)abs_sources, nsources, flags, &u2, &err2) == 0 &&
            u2.ndefs + u2.nstatics > u.ndefs + u.nstatics) {
            fprintf(lg,
                    "sympath unit: %s defines its functions under %s (a single-header library): built with %s, "
                    "as a program using it does in one file\n",
                    abs_sources[i], m, d);
            unit_info_free(&u);
            u = u2;
            cflags = flags; /* lives as long as the run (the emit step's flags too) */
            flags = NULL;
            missing = 0;
        } else {
            unit_info_free(&u2);
        }
        free(err2);
        free(flags);
        free(d);
        free(m);
    }
    if (*u.diagnostics) fprintf(lg, "%s", u.diagnostics);
    u.mock_outputs = mock_outputs;
    const ut_func **targets = calloc(u.ndefs + nfnames + 1, sizeof *targets);
    size_t ntargets = 0;
    if (all) {
        for (size_t i = 0; i < u.ndefs; i++) targets[ntargets++] = &u.defs[i];
    }
    for (size_t i = 0; i < nfnames; i++) {
        const ut_func *f = unit_find_def(&u, fnames[i]);
        if (!f) {
            fprintf(lg,
                    "sympath unit: no function '%s' with external linkage is defined in the given files; there are:",
                    fnames[i]);
            for (size_t k = 0; k < u.ndefs; k++) fprintf(lg, " %s", u.defs[k].name);
            fprintf(lg, "%s\n", u.ndefs ? "" : " none");
            if (unit_header_of(&u, fnames[i])) /* unitlib: a header-only library's function */
                fprintf(lg,
                        "sympath unit: %s is defined in the header %s: give the header as the unit (sympath unit %s "
                        "--function %s)\n",
                        fnames[i], unit_header_of(&u, fnames[i]), unit_header_of(&u, fnames[i]), fnames[i]);
            return 2;
        }
        int dup = 0;
        for (size_t k = 0; k < ntargets; k++) dup |= targets[k] == f;
        if (!dup) targets[ntargets++] = f;
    }
    if (ntargets == 0) {
        fprintf(lg, "sympath unit: the files define no function with external linkage\n");
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
            wrapped[nwrapped++] = mocks[i]; /* the unit's calls only: see the build wrappers */
        } else if (d && nsources > 1)
            wrapped[nwrapped++] = mocks[i];
        else if (d)
            fprintf(lg,
                    "sympath unit: --mock %s: the function is defined in the only file of the unit; calls inside "
                    "one file cannot be redirected, it is not mocked\n",
                    mocks[i]);
        else
            fprintf(lg, "sympath unit: --mock %s: the unit does not call it\n", mocks[i]);
    }
    u.wrapped = wrapped;
    u.nwrapped = nwrapped;
    /* a wrapped function is a stand-in now: not a target */
    for (size_t i = 0; i < ntargets; i++)
        if (unit_is_wrapped(&u, targets[i]->name)) {
            fprintf(lg,
                    "sympath unit: %s is mocked (--mock): calls from the other files go to a stand-in; not tested\n",
                    targets[i]->name);
            memmove(&targets[i], &targets[i + 1], (ntargets - i - 1) * sizeof *targets);
            ntargets--;
            i--;
        }
    if (ntargets == 0) {
        fprintf(lg, "sympath unit: no function left to test\n");
        return 1;
    }
    ho.mock_names = mocks;
    ho.nmock_names = nmocks;
    unit_include_sources(&u, targets, ntargets); /* unitlib: a file with a static target is #included, not linked */

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
    strbuf untested = STRBUF_INIT; /* "function\treason" lines */
    /* 2. harness */
    char build_dir[PATH_MAX], path[PATH_MAX + 64], rt_header[PATH_MAX];
    snprintf(build_dir, sizeof build_dir, "%s/build", out);
    if (util_mkdir_p(build_dir) != 0) {
        fprintf(lg, "sympath unit: cannot create %s: %s\n", build_dir, strerror(errno));
        return 1;
    }
    snprintf(rt_header, sizeof rt_header, "%s/sympath_unit_rt.h", instrument_lib_dir());
    ho.rt_header = rt_header;
    char *warnings = NULL;
    char *harness = unit_harness(&u, targets, ntargets, &ho, &warnings, &err);
    if (!harness) {
        fprintf(lg, "sympath unit: %s\n", err ? err : "cannot generate the harness");
        return 1;
    }
    if (*warnings) fprintf(lg, "sympath unit: %s", warnings);
    snprintf(path, sizeof path, "%s/harness.c", build_dir);
    if (util_write_atomic(path, harness, strlen(harness)) == 0 && !syntax_ok(path, build_cflags, build_dir, NULL)) {
        /* a type the generator gets wrong must not cost every function: keep those whose
         * harness alone compiles, report the others with clang's first error */
        size_t kept = 0;
        for (size_t i = 0; i < ntargets; i++) {
            char *w1 = NULL, *e1 = NULL, *diag = NULL;
            char *h1 = unit_harness(&u, &targets[i], 1, &ho, &w1, &e1);
            int ok =
                h1 && util_write_atomic(path, h1, strlen(h1)) == 0 && syntax_ok(path, build_cflags, build_dir, &diag);
            if (ok)
                targets[kept++] = targets[i];
            else {
                fprintf(lg, "sympath unit: %s: cannot build its harness (not tested):\n%s\n", targets[i]->name,
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
            fprintf(lg, "sympath unit: no function could be given a harness\n");
            return 1;
        }
        free(harness);
        free(warnings);
        harness = unit_harness(&u, targets, ntargets, &ho, &warnings, &err);
        if (!harness) {
            fprintf(lg, "sympath unit: %s\n", err ? err : "cannot generate the harness");
            return 1;
        }
    }
    if (util_write_atomic(path, harness, strlen(harness)) != 0) {
        fprintf(lg, "sympath unit: cannot write %s: %s\n", path, strerror(errno));
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
        int inc = unit_source_included(&u, abs_sources[i]); /* unitlib: compiled inside the harness */
        if (inc) sb_printf(&w, "/* %s is #included by the harness */\n", abs_sources[i]);
        if (!w.s) {
            build_sources[i] = strdup(abs_sources[i]);
            continue;
        }
        char *st = uc_stem(abs_sources[i]), *wp = NULL;
        if (!inc) sb_printf(&w, "#include \"%s\"\n", abs_sources[i]);
        if (asprintf(&wp, "%s/wrap_%s.c", build_dir, st) < 0 || util_write_atomic(wp, w.s, w.len) != 0) {
            fprintf(lg, "sympath unit: cannot write the wrapper of %s\n", sources[i]);
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
    build_opts bo = {
        (const char *const *)build_sources,
        nsources + 1,
        build_cflags,
        build_dir,
        instrument_lib_dir(),
        instrument_include_dir(),
        exe,
        sites,
        getenv(SYMPATH_ENV_CC) ? getenv(SYMPATH_ENV_CC) : SYMPATH_CLANG,
        NULL,
        NULL /* interrupted: Ctrl-C is armed after the build (arm_interrupt); before, it ends the process */};
    build_stats bs;
    memset(&bs, 0, sizeof bs);
    fprintf(lg, "sympath unit: %zu function%s to test, %zu mock%s; building ...\n", ntargets, ntargets > 1 ? "s" : "",
            nmocked, nmocked == 1 ? "" : "s");
    if (build_executor(&bo, &bs, &err) != 0) {
        fprintf(lg, "sympath unit: cannot build the unit with its harness:\n%s\n", err ? err : "unknown error");
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
        uc_compile_words("cc", "-w -g -O0 -fno-strict-aliasing -DSYMPATH_UNIT_RECORD", build_cflags, &v, &n);
        for (size_t i = 0; i <= nsources; i++) uc_push_word(build_sources[i], &v, &n);
        char *rl = NULL;
        if (asprintf(&rl, "%s/replay.c", instrument_lib_dir()) >= 0) uc_push_word(rl, &v, &n);
        free(rl);
        unit_split_words("-lm -o", &v, &n); /* libm, as the unit's own build would link it */
        uc_push_word(recorder, &v, &n);
        int st = 0;
        if (up_run(v, NULL, rlog, 120, &st) != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            char *l = util_read_file(rlog, NULL);
            fprintf(lg, "sympath unit: cannot build the native recorder:\n%s\n", l ? l : "");
            return 1;
        }
        util_free_strv(v);
    }

    /* the mutant-schemata recorder (step_mutate.c): the same build, by clang through bitcode, with every
     * target's mutants; without it (a build failure, said in the log) no mutation analysis */
    char mutrec[PATH_MAX + 16];
    snprintf(mutrec, sizeof mutrec, "%s/mutants", build_dir);
    mutant_desc *mutants = NULL;
    size_t nmutants = 0;
    if (!uo->no_mutants) {
        char **cv = NULL, **lv = NULL;
        size_t cn = 0, ln = 0;
        uc_compile_words(getenv(SYMPATH_ENV_CC) ? getenv(SYMPATH_ENV_CC) : SYMPATH_CLANG,
                         "-w -g -O0 -fno-strict-aliasing -DSYMPATH_UNIT_RECORD -DSYMPATH_UNIT_MUTANTS", build_cflags,
                         &cv, &cn);
        char *rl = NULL;
        if (asprintf(&rl, "%s/replay.c", instrument_lib_dir()) >= 0) uc_push_word(rl, &lv, &ln);
        free(rl);
        uc_push_word("-lm", &lv, &ln);
        const char **names = calloc(ntargets + 1, sizeof *names);
        for (size_t i = 0; names && i < ntargets; i++) names[i] = targets[i]->name;
        mutant_build_opts mo = {(const char *const *)cv,
                                cn,
                                (const char *const *)build_sources,
                                nsources + 1,
                                (const char *const *)lv,
                                ln,
                                names,
                                names ? ntargets : 0,
                                2000 * (unsigned)ntargets,
                                build_dir,
                                mutrec};
        char *merr = NULL;
        if (build_mutants(&mo, &mutants, &nmutants, &merr) != 0) {
            fprintf(lg, "sympath unit: no mutation analysis: %s\n", merr ? merr : "the build failed");
            nmutants = 0;
        }
        free(merr);
        free(names);
        util_free_strv(cv);
        util_free_strv(lv);
    }

    if (uo->before_explore) uo->before_explore(); /* the CLI arms its Ctrl-C handler: stop after the run in flight */

    /* 4. explore each function, then record each kept test vector natively */
    fn_result *frs = calloc(ntargets, sizeof *frs);
    tests_vec *tvs = calloc(ntargets, sizeof *tvs);
    unsigned *counters = calloc(ntargets, sizeof *counters);
    for (size_t i = 0; i < ntargets && !(uo->interrupted && *uo->interrupted); i++) {
        fn_result *fr = &frs[i];
        fr->fn = targets[i];
        fr->gcov_taken = fr->gcov_total = -1;
        if (asprintf(&fr->run_dir, "%s/runs/%s", build_dir, targets[i]->name) < 0) return 1;
        util_mkdir_p(fr->run_dir);
        setenv(SYMPATH_ENV_UNIT_FUNCTION, targets[i]->name, 1);
        explore_opts o;
        memset(&o, 0, sizeof o);
        /* what earlier functions left unused goes to the ones after them */
        double spent = 0;
        for (size_t k = 0; k < i; k++) spent += frs[k].seconds;
        double left = budget - spent;
        o.budget_seconds = budget > 0 ? (left > 0 ? left : 0.5) / (double)(ntargets - i) : 0;
        if (budget > 0 && o.budget_seconds < 0.5) o.budget_seconds = 0.5;
        o.seed = 1;
        o.max_execs = uo->max_execs;
        o.max_memory_mb = uo->max_memory_mb;
        o.jobs = uo->jobs > 1 ? uo->jobs : 1;
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
        o.interrupted = uo->interrupted;
        /* the inputs a kept test's path leaves free get varied values (diversify.c), and each kept
         * test's coverage is written for the suite minimisation (minimize.c) */
        o.diversify_prefs = uo->no_diversify ? NULL : unit_diversify_prefs;
        o.diversify_share = 0.15;
        o.test_coverage = !uo->no_minimize;
        o.candidates = 200; /* for the mutation analysis (step_mutate.c) and the refill (step_refill.c) */
        /* saturated early: the rest of its share goes to the functions after it */
        o.unit_target = targets[i]->name;
        o.stop_when_saturated = !uo->full_budget;
        explore_summary sum;
        memset(&sum, 0, sizeof sum);
        fprintf(lg, "sympath unit: exploring %s (%s:%u)\n", targets[i]->name, uc_base_name(targets[i]->file),
                targets[i]->line);
        if (explore_program(&o, &sum, &err) != 0) {
            fprintf(lg, "sympath unit: %s: %s\n", targets[i]->name, err ? err : "exploration failed");
            free(err);
            err = NULL;
            continue;
        }
        fr->seconds = sum.seconds;
        fr->div_done = sum.diversified;
        fr->div_rejected = sum.div_rejected;
        fr->div_skipped = sum.div_skipped;
        fr->cands_diversified = sum.cands_diversified;
        fr->div_seconds = sum.div_seconds;
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
        if (nmutants && !(uo->interrupted && *uo->interrupted)) {
            /* a fifth of the function's share (1 s at least), or what its exploration left of it when it
             * ended early (the tree exhausted) */
            double share = o.budget_seconds > 5 ? 0.2 * o.budget_seconds : 1.0;
            if (o.budget_seconds - fr->seconds > share) share = o.budget_seconds - fr->seconds;
            unit_mut_ctx mc = {mutrec, recorder, mutants, nmutants, share, uo->interrupted};
            unit_mutation_step(&mc, fr, &tvs[i], &counters[i]);
            fr->seconds += fr->mut_seconds;
        }
    }

    unit_pipe p = {lg,      out,      cflags,          sources,  abs_sources, nsources,  &u,
                   targets, ntargets, mocked,          nmocked,  warnings,    &untested, build_dir,
                   frs,     tvs,      uo->no_minimize, recorder, counters};
    return unit_step_emit(&p);
}
