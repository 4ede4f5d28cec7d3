/* step_emit.c: the last step of `sympath unit`: one verified CMocka file per source file, its build line and CMake fragment, report.json and the summary. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "explore/explorer.h"
#include "report/report.h"
#include "unit/pipeline_int.h"
#include "util/util.h"

/* Where test t (expecting a failure) fails: the location its error reproducer's description
 * gives (errors/error-NNN.txt of fr's run: the first frame in the unit), malloc'ed, or NULL. */
/* The distinct mutants the tests of fn among tests[0..n) were seen to kill (unit_test.kills). */
static unsigned suite_kills(const unit_test *const *tests, size_t n, const ut_func *fn)
{
    size_t total = 0;
    for (size_t k = 0; k < n; k++)
        if (tests[k]->fn == fn) total += tests[k]->nkills;
    uint32_t *all = total ? malloc(total * sizeof *all) : NULL;
    if (!all) return 0;
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (tests[k]->fn == fn)
            for (size_t q = 0; q < tests[k]->nkills; q++) all[m++] = tests[k]->kills[q];
    unsigned distinct = 0;
    for (size_t a = 0; a < m; a++) {
        size_t b = 0;
        while (b < a && all[b] != all[a]) b++;
        distinct += b == a;
    }
    free(all);
    return distinct;
}

static char *failure_where(const fn_result *fr, const unit_test *t)
{
    const char *dot = t->origin ? strrchr(t->origin, '.') : NULL;
    if (!fr->run_dir || !dot || strncmp(t->origin, "error-", 6)) return NULL;
    char *path = util_strf("%s/errors/%.*s.txt", fr->run_dir, (int)(dot - t->origin), t->origin);
    char *text = path ? util_read_file(path, NULL) : NULL;
    char *where = explore_error_where(text);
    free(text);
    free(path);
    return where;
}

/* rc is a write of path (0, or -1 with errno): on failure say so on lg and return 1, else 0. */
static int said_if_failed(FILE *lg, const char *path, int rc)
{
    if (rc == 0) return 0;
    fprintf(lg, "sympath unit: cannot write %s: %s\n", path, strerror(errno));
    return 1;
}

/* fn_result.reached ("function\ttaken\ttotal" lines) as the gcov object's "callees" array. */
static void reached_json(json_writer *j, const char *reached)
{
    json_key(j, "callees");
    json_begin_array(j);
    for (const char *l = reached; l && *l;) {
        const char *nl = strchr(l, '\n');
        char name[512];
        int taken = 0, total = 0;
        if (sscanf(l, "%511[^\t]\t%d\t%d", name, &taken, &total) == 3) {
            json_begin_object(j);
            json_kv_str(j, "function", name);
            json_kv_uint(j, "branches_total", (uint64_t)total);
            json_kv_uint(j, "branches_taken", (uint64_t)taken);
            json_end_object(j);
        }
        l = nl ? nl + 1 : NULL;
    }
    json_end_array(j);
}

/* The sums of the branch figures of fn_result.reached; returns the number of functions. */
static int reached_sum(const char *reached, int *taken, int *total)
{
    int n = 0;
    for (const char *l = reached; l && *l;) {
        const char *nl = strchr(l, '\n');
        const char *t = strchr(l, '\t');
        int a = 0, b = 0;
        if (t && sscanf(t, "\t%d\t%d", &a, &b) == 2) {
            *taken += a;
            *total += b;
            n++;
        }
        l = nl ? nl + 1 : NULL;
    }
    return n;
}

/* A target's figures together with the unit's functions its own tests reached (fn_result.reached):
 * a wrapper (json-parser's json_parse calling json_parse_ex) has no branch of its own, its callees
 * do the work. Exploration: own + each reached function's sites in the run's report.json. */
typedef struct with_callees {
    int nfuncs;                 /* reached functions */
    uint32_t covered, total;    /* exploration, branch directions */
    int gcov_taken, gcov_total; /* gcov branch outcomes; gcov_total -1: unknown */
} with_callees;

static with_callees callees_of(const fn_result *fr)
{
    with_callees w = {0, fr->covered, fr->total, fr->gcov_taken, fr->gcov_total};
    int rt = 0, rn = 0;
    w.nfuncs = reached_sum(fr->reached, &rt, &rn);
    if (w.gcov_total >= 0) w.gcov_taken += rt, w.gcov_total += rn;
    char *report = fr->run_dir ? util_strf("%s/report.json", fr->run_dir) : NULL;
    for (const char *l = fr->reached; report && l && *l;) {
        const char *nl = strchr(l, '\n');
        char name[512];
        uint32_t c = 0, t = 0;
        if (sscanf(l, "%511[^\t]", name) == 1) coverage_of(report, name, &c, &t);
        w.covered += c;
        w.total += t;
        l = nl ? nl + 1 : NULL;
    }
    free(report);
    return w;
}

/* report.json's "with_callees" object of the "coverage" (gcov 0) or "gcov" (gcov 1) object. */
static void with_callees_json(json_writer *j, const with_callees *w, int gcov)
{
    json_key(j, "with_callees");
    json_begin_object(j);
    json_kv_uint(j, "functions", (uint64_t)w->nfuncs);
    json_kv_uint(j, "branches_total", gcov ? (uint64_t)w->gcov_total : w->total);
    json_kv_uint(j, gcov ? "branches_taken" : "branches_covered", gcov ? (uint64_t)w->gcov_taken : w->covered);
    json_end_object(j);
}

/* The summary's line of the functions a target's tests reached: "name taken/total", the first
 * eight, then how many more. */
static void reached_line(FILE *lg, const char *reached)
{
    fprintf(lg, "      callees (gcov):");
    int n = 0, more = 0;
    for (const char *l = reached; l && *l;) {
        const char *nl = strchr(l, '\n');
        char name[512];
        int taken = 0, total = 0;
        if (sscanf(l, "%511[^\t]\t%d\t%d", name, &taken, &total) == 3) {
            if (n++ < 8)
                fprintf(lg, "%s %s %d/%d", n > 1 ? "," : "", name, taken, total);
            else
                more++;
        }
        l = nl ? nl + 1 : NULL;
    }
    if (more) fprintf(lg, ", %d more (report.json)", more);
    fprintf(lg, "\n");
}

int unit_step_emit(unit_pipe *p)
{
    FILE *lg = p->log;
    const char *out = p->out, *cflags = p->cflags;
    const char *const *sources = p->sources;
    char **abs_sources = p->abs_sources;
    size_t nsources = p->nsources;
    const unit_info u = *p->u;
    const ut_func **targets = p->targets;
    size_t ntargets = p->ntargets;
    const char **mocked = p->mocked;
    size_t nmocked = p->nmocked;
    const char *warnings = p->warnings;
    strbuf untested = *p->untested;
    const char *build_dir = p->build_dir;
    fn_result *frs = p->frs;
    tests_vec *tvs = p->tvs;
    char path[PATH_MAX + 64];

    unit_cfg cfg = {out, cflags, abs_sources, nsources, &u, mocked, nmocked, u.has_main, lg};
    char verify_dir[PATH_MAX + 16];
    snprintf(verify_dir, sizeof verify_dir, "%s/verify", build_dir);
    util_mkdir_p(verify_dir);
    json_writer *j = json_new();
    json_begin_object(j);
    json_kv_str(j, "tool", "sympath 0.1 unit");
    json_key(j, "files");
    json_begin_array(j);
    size_t files_written = 0, total_kept = 0;
    strbuf build_lines = STRBUF_INIT, cmake = STRBUF_INIT;
    const unit_test **kept_tests = NULL; /* every test written, for the report */
    size_t kept_n = 0;
    sb_puts(
        &cmake,
        "# CMake fragment written by `sympath unit`: include() it from a CMakeLists.txt that has enable_testing().\n");
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
        /* a result the record shows is heap memory the call allocated is released by its test */
        for (size_t i = 0; i < tv.n; i++)
            if (!tv.v[i].release && tv.v[i].rec.ret_heap && sanitize_returns_fresh(&tv.v[i]))
                tv.v[i].release = sanitize_releaser(&u, tv.v[i].fn);
        char *text = NULL, *bugs = NULL;
        char *st = uc_stem(abs_sources[s]);
        snprintf(path, sizeof path, "%s/test_%s.dropped.log", verify_dir, st);
        unlink(path); /* the compiler's diagnostics of this run's drops only (verify_file) */
        size_t kept = tv.n ? verify_file(&cfg, verify_dir, abs_sources[s], &tv, frs, ntargets, &text) : 0;
        char *verified = text ? strdup(text) : NULL; /* the suite as it passed natively, in its order */
        double san_s = 0;
        if (kept && text) /* every kept test checked under ASan+UBSan+LSan (step_sanitize.c) */
            kept = sanitize_file(&cfg, verify_dir, abs_sources[s], &tv, frs, ntargets, &text, &bugs, &san_s);
        /* directions only dropped tests took, from the exploration's candidates (step_refill.c) */
        kept += unit_refill_lost(&cfg, verify_dir, abs_sources[s], p->recorder, &tv, tvs, frs, p->counters, ntargets,
                                 &text);
        int measured = 0; /* the fewest tests with the same coverage and result variety (minimize.c) */
        if (kept && text && !p->no_minimize) {
            measured = unit_minimize_checked(&cfg, verify_dir, abs_sources[s], &tv, frs, ntargets, &text);
            kept = text ? tv.n : 0;
        }
        if (kept && text && verified && strcmp(text, verified)) {
            /* the sanitizer check and the minimisation removed tests: the suite as written runs once more
             * in its own order, since a test may read what the one before it left in the unit's static
             * storage (tiny-regex-c's re_compile keeps its last pattern) */
            size_t before = tv.n;
            char *again = NULL;
            kept = verify_file(&cfg, verify_dir, abs_sources[s], &tv, frs, ntargets, &again);
            if (!again || strcmp(again, text)) measured = 0; /* gcov measured on another suite */
            free(text);
            text = again;
            for (size_t k = 0; k < ntargets && tv.n != before; k++)
                if (frs[k].min_done) frs[k].min_after = 0;
            for (size_t i = 0; i < tv.n && tv.n != before; i++)
                for (size_t k = 0; k < ntargets; k++)
                    if (frs[k].fn == tv.v[i].fn && frs[k].min_done) frs[k].min_after++;
        }
        free(verified);
        json_begin_object(j);
        json_kv_str(j, "source", sources[s]);
        json_kv_double(j, "sanitizer_seconds", san_s);
        snprintf(path, sizeof path, "%s/test_%s_bugs.c", out, st);
        if (bugs) {
            /* tests that show a bug of the unit under the sanitizers: never in the regression suite */
            if (util_write_atomic(path, bugs, strlen(bugs)) != 0)
                fprintf(lg, "sympath unit: cannot write %s: %s\n", path, strerror(errno));
            else
                json_kv_str(j, "bugs_file", path);
        } else {
            unlink(path); /* left by an earlier run */
        }
        free(bugs);
        if (kept && text) {
            snprintf(path, sizeof path, "%s/test_%s.c", out, st);
            if (!measured) gcov_measure(&cfg, verify_dir, abs_sources[s], text, frs, ntargets);
            if (util_write_atomic(path, text, strlen(text)) != 0) {
                fprintf(lg, "sympath unit: cannot write %s: %s\n", path, strerror(errno));
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
                for (size_t k = 0; k < nsources; k++)
                    if (!unit_source_included(&u, abs_sources[k])) sb_printf(&line, " %s", sources[k]); /* unitlib */
                for (size_t k = 0; k < u.nwrapped; k++) sb_printf(&line, " -Wl,--wrap=%s", u.wrapped[k]);
                sb_printf(&line, " -lcmocka -lm -o %s/test_%s && ", out, st);
                char exe_path[PATH_MAX + 64], xml_path[PATH_MAX + 64]; /* JUnit XML for CI (src/report) */
                snprintf(exe_path, sizeof exe_path, "%s/test_%s", out, st);
                snprintf(xml_path, sizeof xml_path, "%s/test_%s.junit.xml", out, st);
                char *run = report_junit_run(exe_path, xml_path);
                sb_puts(&line, run ? run : exe_path);
                free(run);
                json_kv_str(j, "test_file", path);
                json_kv_str(j, "build", line.s);
                json_kv_uint(j, "tests", kept);
                sb_printf(&build_lines, "%s\n", line.s);
                char *abs_test = realpath(path, NULL);
                sb_printf(&cmake, "add_executable(test_%s %s", st, abs_test ? abs_test : path);
                for (size_t k = 0; k < nsources; k++)
                    if (!unit_source_included(&u, abs_sources[k]))
                        sb_printf(&cmake, " %s", abs_sources[k]); /* unitlib */
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
                sb_printf(&cmake, "target_link_libraries(test_%s cmocka m)\nadd_test(NAME test_%s COMMAND test_%s)\n",
                          st, st, st);
                free(abs_test);
                sb_free(&line);
                sb_free(&dirs);
            }
        } else {
            json_kv_uint(j, "tests", 0);
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
    fprintf(lg, "\nsympath unit: results (branch coverage of each function as explored; gcov: branch outcomes\n"
                "the emitted tests take, measured with gcc --coverage; tests that fail run in a child gcov misses)\n");
    for (size_t i = 0; i < ntargets; i++) {
        fn_result *fr = &frs[i];
        json_begin_object(j);
        json_kv_str(j, "function", fr->fn->name);
        json_kv_str(j, "file", fr->fn->file);
        json_key(j, "coverage");
        json_begin_object(j);
        json_kv_uint(j, "branches_total", fr->total);
        json_kv_uint(j, "branches_covered", fr->covered);
        json_kv_double(j, "percent", fr->total ? 100.0 * fr->covered / fr->total : 100.0);
        with_callees wc = callees_of(fr);
        with_callees_json(j, &wc, 0);
        json_end_object(j);
        json_key(j, "gcov");
        if (fr->gcov_unknown) {
            json_begin_object(j);
            json_kv_str(j, "unknown", fr->gcov_unknown); /* no coverage data: not 0 */
            json_end_object(j);
        } else if (fr->gcov_total >= 0) {
            json_begin_object(j);
            json_kv_str(j, "note",
                        "branch outcomes of the function taken by its own emitted tests, gcc --coverage + gcov -b; "
                        "callees: the unit's other functions those tests ran");
            json_kv_uint(j, "branches_total", (uint64_t)fr->gcov_total);
            json_kv_uint(j, "branches_taken", (uint64_t)fr->gcov_taken);
            reached_json(j, fr->reached);
            with_callees_json(j, &wc, 1);
            json_end_object(j);
        } else {
            json_null(j);
        }
        json_kv_uint(j, "test_vectors", fr->vectors);
        json_kv_uint(j, "duplicates", fr->duplicates);
        json_kv_uint(j, "tests_emitted", fr->kept);
        json_kv_uint(j, "tests_expecting_failure", fr->failing);
        json_kv_double(j, "seconds", fr->seconds);
        json_key(j, "diversify");
        json_begin_object(j);
        json_kv_uint(j, "tests_diversified", fr->div_done);
        json_kv_uint(j, "rejected", fr->div_rejected);
        json_kv_uint(j, "skipped", fr->div_skipped);
        json_kv_uint(j, "candidates_diversified", fr->cands_diversified);
        json_kv_double(j, "seconds", fr->div_seconds);
        json_end_object(j);
        json_key(j, "minimize");
        if (fr->min_done) {
            json_begin_object(j);
            json_kv_uint(j, "tests_before", fr->min_before);
            json_kv_uint(j, "tests_after", fr->min_after);
            json_kv_bool(j, "reverted_for_gcov", fr->min_reverted);
            json_end_object(j);
        } else {
            json_null(j);
        }
        json_key(j, "mutation");
        if (fr->mut_total) {
            json_begin_object(j);
            json_kv_uint(j, "mutants", fr->mut_total);
            json_kv_uint(j, "mutants_built", fr->mut_built);
            json_kv_uint(j, "killed_by_kept_tests", fr->mut_killed_kept);
            json_kv_uint(j, "killed", fr->mut_killed);
            json_kv_uint(j, "killed_by_suite", suite_kills(kept_tests, kept_n, fr->fn));
            json_kv_uint(j, "candidates", fr->mut_candidates);
            json_kv_uint(j, "tests_added", fr->mut_added);
            json_kv_double(j, "seconds", fr->mut_seconds);
            json_kv_lines(j, "survivors", fr->mut_survivors ? fr->mut_survivors : "");
            json_end_object(j);
        } else {
            json_null(j);
        }
        json_key(j, "tests");
        json_begin_array(j);
        for (size_t k = 0; k < kept_n; k++) {
            if (kept_tests[k]->fn != fr->fn) continue;
            const unit_test *t = kept_tests[k];
            json_begin_object(j);
            json_kv_str(j, "name", t->name);
            json_kv_str(j, "expects", t->outcome == UO_NORMAL ? "return" : t->outcome == UO_EXIT ? "exit" : "signal");
            if (t->outcome == UO_SIGNAL) {
                json_kv_int(j, "signal", t->signo);
            } else if (t->outcome == UO_EXIT) {
                json_kv_int(j, "exit_code", t->exit_code);
            }
            json_kv_str(j, "from", t->origin);
            if (t->outcome != UO_NORMAL) {
                char *where = failure_where(fr, t);
                json_kv_str(j, "location", where);
                free(where);
            }
            json_end_object(j);
        }
        json_end_array(j);
        json_kv_lines(j, "dropped", fr->drops);
        json_key(j, "sanitizer");
        json_begin_object(j);
        json_kv_bool(j, "checked", fr->san_checked);
        json_kv_uint(j, "dropped", fr->san_dropped);
        json_kv_uint(j, "bugs", fr->san_bugs);
        json_kv_lines(j, "bug_tests", fr->san_bug_lines);
        json_kv_uint(j, "refilled", fr->refilled); /* candidate tests added for what dropped tests took */
        json_end_object(j);
        json_end_object(j);
        char g[64] = "-";
        if (fr->gcov_unknown)
            snprintf(g, sizeof g, "unknown");
        else if (fr->gcov_total >= 0)
            snprintf(g, sizeof g, "%d/%d", fr->gcov_taken, fr->gcov_total);
        char sz[96] = "";
        if (fr->san_checked)
            snprintf(sz, sizeof sz, "; sanitizers: %u dropped, %u in _bugs.c", fr->san_dropped, fr->san_bugs);
        int nr = wc.nfuncs;
        if (fr->total == 0 && fr->gcov_total <= 0 && nr) { /* a wrapper: the work is in its callees */
            char gw[64] = "-";
            if (wc.gcov_total >= 0) snprintf(gw, sizeof gw, "%d/%d", wc.gcov_taken, wc.gcov_total);
            fprintf(lg,
                    "  %-24s 0/0 own; with its callees: branches %u/%u (%.0f%%), gcov %s, %u tests emitted (%u expect "
                    "a failure), %u dropped%s\n",
                    fr->fn->name, wc.covered, wc.total, wc.total ? 100.0 * wc.covered / wc.total : 100.0, gw, fr->kept,
                    fr->failing, fr->dropped, sz);
        } else
            fprintf(lg,
                    "  %-24s branches %u/%u (%.0f%%), gcov %s, %u tests emitted (%u expect a failure), %u dropped%s\n",
                    fr->fn->name, fr->covered, fr->total, fr->total ? 100.0 * fr->covered / fr->total : 100.0, g,
                    fr->kept, fr->failing, fr->dropped, sz);
        if (nr) reached_line(lg, fr->reached);
        if (fr->div_done || fr->min_done) {
            fprintf(lg, "      inputs diversified in %u tests (%.1f s); ", fr->div_done, fr->div_seconds);
            if (fr->min_done)
                fprintf(lg, "minimized: %u -> %u tests%s\n", fr->min_before, fr->min_after,
                        fr->min_reverted ? " (kept whole: the minimised tests took fewer gcov branches)" : "");
            else
                fprintf(lg, "not minimized\n");
        }
        if (fr->mut_total) {
            unsigned ks = suite_kills(kept_tests, kept_n, fr->fn);
            fprintf(
                lg,
                "      mutants: %u/%u killed by the emitted tests (%.0f%%); %u of %u candidate tests added (%.1f s)\n",
                ks, fr->mut_total, 100.0 * ks / fr->mut_total, fr->mut_added, fr->mut_candidates, fr->mut_seconds);
        }
        if (fr->refilled)
            fprintf(lg, "      %u candidate tests added for branch directions only dropped tests took\n", fr->refilled);
        if (fr->gcov_unknown) fprintf(lg, "      gcov unknown: %s\n", fr->gcov_unknown);
        for (char *p = fr->san_bug_lines; p && *p;) {
            char *nl = strchr(p, '\n');
            fprintf(lg, "      bug (sanitizer, in test_*_bugs.c): %.*s\n", (int)(nl ? nl - p : (long)strlen(p)), p);
            p = nl ? nl + 1 : p + strlen(p);
        }
        for (size_t k = 0; k < kept_n; k++) {
            const unit_test *t = kept_tests[k];
            if (t->fn != fr->fn || t->outcome == UO_NORMAL) continue;
            char *where = failure_where(fr, t);
            if (t->outcome == UO_SIGNAL)
                fprintf(lg, "      expects a failure: %s (signal %d, %s)", t->name, t->signo, strsignal(t->signo));
            else
                fprintf(lg, "      expects a failure: %s (exit status %d)", t->name, t->exit_code);
            fprintf(lg, "%s%s\n", where ? " at " : "", where ? where : "");
            free(where);
        }
        /* test cases that end before the call (a failed construction: harness_producer.c) are many
         * with producers that parse: one line for them all (report.json lists each) */
        static const char before[] = ": its inputs end before the call";
        size_t nbefore = 0;
        const char *first = NULL;
        for (char *p = fr->drops; p && *p;) {
            char *nl = strchr(p, '\n');
            int len = (int)(nl ? nl - p : (long)strlen(p));
            const char *hit = strstr(p, before);
            if (hit && hit < p + len) {
                if (!nbefore++) first = p;
            } else {
                fprintf(lg, "      dropped %.*s\n", len, p);
            }
            p = nl ? nl + 1 : p + strlen(p);
        }
        if (nbefore == 1)
            fprintf(lg, "      dropped %.*s\n", (int)strcspn(first, "\n"), first);
        else if (nbefore > 1)
            fprintf(lg,
                    "      dropped %zu test cases whose inputs end before the call (an input assumption failed: a "
                    "producer that failed builds no input), the first %.*s\n",
                    nbefore, (int)(strstr(first, before) - first), first);
    }
    json_end_array(j);
    json_key(j, "not_tested");
    json_begin_array(j);
    for (char *p = untested.s; p && *p;) {
        char *nl = strchr(p, '\n'), *tab = strchr(p, '\t');
        if (!nl || !tab || tab > nl) break;
        char *fn = strndup(p, (size_t)(tab - p)), *why = strndup(tab + 1, (size_t)(nl - tab - 1));
        json_begin_object(j);
        json_kv_str(j, "function", fn);
        json_kv_str(j, "reason", why);
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
    json_kv_str(j, "warnings", warnings);
    json_end_object(j);
    snprintf(path, sizeof path, "%s/report.json", out);
    /* each file is whole or absent (atomic); a missing one is said, exit code 1 */
    int write_failed = said_if_failed(lg, path, json_write_file(j, path));
    json_free(j);
    char *serr = NULL;
    /* errors.sarif: every function's errors (src/report), made from the report.json just written */
    if (!write_failed && report_write_sarif(out, &serr) != 0)
        fprintf(lg, "sympath unit: cannot write errors.sarif: %s\n", serr ? serr : "?");
    free(serr);
    if (files_written) {
        snprintf(path, sizeof path, "%s/BUILD.txt", out);
        write_failed |=
            said_if_failed(lg, path, util_write_atomic(path, build_lines.s ? build_lines.s : "", build_lines.len));
        snprintf(path, sizeof path, "%s/tests.cmake", out);
        write_failed |= said_if_failed(lg, path, util_write_atomic(path, cmake.s ? cmake.s : "", cmake.len));
        fprintf(lg,
                "sympath unit: %zu tests in %zu file%s; build and run with:\n%s(also in %s/BUILD.txt; CMake: "
                "%s/tests.cmake)\n",
                total_kept, files_written, files_written > 1 ? "s" : "", build_lines.s, out, out);
    } else {
        fprintf(lg, "sympath unit: no test could be kept (reasons above and in %s/report.json)\n", out);
        snprintf(path, sizeof path, "%s/BUILD.txt", out);
        unlink(path);
        snprintf(path, sizeof path, "%s/tests.cmake", out);
        unlink(path);
    }
    return files_written && !write_failed ? 0 : 1;
}
