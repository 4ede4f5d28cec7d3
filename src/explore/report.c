/* report.c: report.json (coverage per branch site, statistics, errors, solver figures) and the end-of-run summary. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../emit/emit.h"
#include "explore_state.h"

/* Names of conc_kind values in report.json; keep in the ORDER of conc_kind. */
static const char *const conc_names[CONC_KIND_COUNT] = {
    "external_call",  "float",      "symbolic_pointer", "symbolic_size",
    "wide_integer",   "aggregate",  "vararg",           "unsupported_instruction",
    "input_overflow", "trace_full", "pointer_input",
};

static void report_coverage(json_writer *j, const explore_state *s)
{
    json_key(j, "coverage");
    json_begin_object(j);
    json_kv_str(j, "unit",
                "branch directions (both outcomes of each conditional branch, each distinct switch destination)");
    json_kv_uint(j, "branches_total", s->user_slots);
    json_kv_uint(j, "branches_covered", s->user_covered);
    json_kv_double(j, "percent", s->user_slots ? 100.0 * s->user_covered / s->user_slots : 100.0);
    json_kv_double(j, "reached_after_seconds", s->last_cov_time);
    uint32_t nsites = 0, full = 0;
    for (uint32_t i = 0; i < s->sites.nsites; i++) {
        const site_info *si = &s->sites.sites[i];
        if (!si->user) continue;
        nsites++;
        uint32_t c = 0;
        for (uint32_t d = 0; d < si->ndirs; d++)
            if (si->slot_base + d < s->nslots && s->covered[si->slot_base + d]) c++;
        if (c == si->ndirs) full++;
    }
    json_kv_uint(j, "sites_total", nsites);
    json_kv_uint(j, "sites_fully_covered", full);
    json_key(j, "sites");
    json_begin_array(j);
    for (uint32_t i = 0; i < s->sites.nsites; i++) {
        const site_info *si = &s->sites.sites[i];
        if (!si->user) continue;
        json_begin_object(j);
        json_kv_uint(j, "id", si->id);
        json_kv_str(j, "file", si->file);
        json_kv_uint(j, "line", si->line);
        json_kv_uint(j, "column", si->col);
        json_kv_str(j, "function", si->function);
        json_kv_str(j, "kind", si->kind);
        json_key(j, "covered");
        json_begin_array(j);
        for (uint32_t d = 0; d < si->ndirs; d++)
            json_bool(j, si->slot_base + d < s->nslots && s->covered[si->slot_base + d]);
        json_end_array(j);
        json_end_object(j);
    }
    json_end_array(j);
    json_end_object(j);
}

static void report_errors(json_writer *j, const explore_state *s)
{
    json_key(j, "errors");
    json_begin_array(j);
    for (uint32_t i = 0; i < s->nerrors; i++) {
        const error_rec *e = &s->errors[i];
        json_begin_object(j);
        json_kv_str(j, "kind", error_kind_name(e->kind));
        json_kv_str(j, "class", error_is_property(e->kind) ? "property-violation" : "other-termination");
        if (e->kind == ERR_SIGNAL) {
            json_kv_int(j, "signal", e->signo);
        }
        if (e->kind == ERR_TIMEOUT) {
            json_kv_bool(j, "confirmed", !e->unconfirmed);
        }
        json_kv_str(j, "location", e->where);
        json_kv_str(j, "function", e->function);
        char path[64];
        snprintf(path, sizeof path, "errors/error-%03d.xml", e->number);
        json_kv_str(j, "reproducer", e->number > 0 ? path : NULL);
        json_kv_uint(j, "runs", e->hits);
        json_kv_double(j, "found_after_seconds", e->found_seconds);
        json_kv_uint(j, "found_at_execution", e->found_exec);
        json_end_object(j);
    }
    json_end_array(j);
}

static void report_stats(json_writer *j, const explore_state *s)
{
    json_key(j, "executions");
    json_begin_object(j);
    json_kv_uint(j, "total", s->execs);
    json_kv_double(j, "per_second", s->total_seconds > 0 ? s->execs / s->total_seconds : 0);
    json_kv_double(j, "mean_seconds", s->execs ? s->exec_seconds / s->execs : 0);
    json_kv_double(j, "mean_symbolic_events", s->execs ? (double)s->events_total / s->execs : 0);
    json_kv_uint(j, "max_symbolic_events", s->events_max);
    json_kv_double(j, "mean_inputs", s->execs ? (double)s->inputs_total / s->execs : 0);
    json_kv_uint(j, "timeouts", s->timeouts);
    json_kv_uint(j, "slow_runs", s->slow_runs);
    json_kv_uint(j, "assumption_failed", s->assume_failed);
    json_kv_uint(j, "assumption_retries", s->assume_retries);
    json_kv_uint(j, "input_limit_reached", s->inputs_done);
    json_kv_uint(j, "continuations_not_run", s->ncont + s->cont_dropped);
    json_kv_uint(j, "forks_by_program", s->forks);
    json_kv_uint(j, "trace_records_dropped", s->dropped);
    uint64_t restarts = s->agg ? s->agg->restarts : 0;
    for (unsigned i = 0; i < s->nex; i++) restarts += s->ex[i] ? executor_restarts(s->ex[i]) : 0;
    json_kv_uint(j, "executor_restarts", restarts);
    json_kv_uint(j, "parallel_executors", s->agg ? (uint64_t)s->link->nworkers : s->nex);
    json_end_object(j);

    json_key(j, "time");
    json_begin_object(j);
    json_kv_double(j, "total_seconds", s->total_seconds);
    json_kv_double(j, "build_seconds", s->o->build_seconds);
    json_kv_double(j, "execution_seconds", s->exec_seconds);
    json_kv_double(j, "solver_seconds", s->solve_seconds);
    /* share of the processes' time: with workers, of workers x wall time */
    double wall = s->total_seconds * (s->agg ? s->link->nworkers : 1);
    json_kv_double(j, "solver_share", wall > 0 ? s->solve_seconds / wall : 0);
    json_end_object(j);

    json_kv_uint(j, "divergences", s->divergences);
    json_key(j, "optimistic_solving");
    json_begin_object(j);
    json_kv_uint(j, "tried", s->optimistic);
    json_kv_uint(j, "sat", s->optimistic_sat);
    json_kv_uint(j, "pins_dropped", s->pins_dropped);
    json_end_object(j);

    tree_stats ts;
    explore_tree_stats(s, &ts);
    json_key(j, "tree");
    json_begin_object(j);
    json_kv_uint(j, "nodes", ts.nodes);
    json_kv_uint(j, "max_depth", ts.max_depth);
    json_kv_uint(j, "mismatches", ts.mismatches);
    json_key(j, "directions");
    json_begin_object(j);
    for (int k = 0; k < CHILD_STATUS_COUNT; k++) json_kv_uint(j, child_status_name((child_status)k), ts.by_status[k]);
    json_end_object(j);
    json_end_object(j);

    json_key(j, "concretizations");
    json_begin_object(j);
    for (int k = 0; k < CONC_KIND_COUNT; k++) json_kv_uint(j, conc_names[k], s->conc[k]);
    json_end_object(j);

    /* CONC_EXTERNAL_CALL by callee name (site-table "callee" ids); slot 0 holds the ids
     * past the header's table, reported as "(other)" */
    json_key(j, "concretizations_by_function");
    json_begin_object(j);
    for (uint32_t i = 0; i < s->sites.ncallees && i + 1 < TRACE_CONC_FN_SLOTS; i++)
        if (s->conc_fn[i + 1]) json_kv_uint(j, s->sites.callees[i], s->conc_fn[i + 1]);
    if (s->conc_fn[0]) json_kv_uint(j, "(other)", s->conc_fn[0]);
    json_end_object(j);

    json_key(j, "unsupported_instructions");
    json_begin_object(j);
    for (uint32_t i = 0; i < s->sites.nunsupported; i++)
        json_kv_uint(j, s->sites.unsupported_kind[i], s->sites.unsupported_count[i]);
    json_end_object(j);

    solver_stats ss;
    explore_solver_stats(s, &ss);
    json_key(j, "solver");
    json_begin_object(j);
    json_kv_uint(j, "queries", ss.queries);
    json_kv_uint(j, "sat", ss.sat);
    json_kv_uint(j, "unsat", ss.unsat);
    json_kv_uint(j, "unknown", ss.unknown);
    json_kv_uint(j, "z3_calls", ss.z3_calls);
    json_kv_uint(j, "z3_timeouts", ss.z3_timeouts);
    json_kv_uint(j, "cache_hits", ss.cache_hits);
    json_kv_uint(j, "unsat_subset_hits", ss.unsat_subset_hits);
    json_kv_uint(j, "syntactic_unsat", ss.syntactic_unsat);
    json_kv_uint(j, "constraints_in", ss.constraints_in);
    json_kv_uint(j, "constraints_kept", ss.constraints_kept);
    json_kv_double(j, "seconds", ss.seconds);
    json_kv_double(j, "z3_seconds", ss.z3_seconds);
    json_kv_uint(j, "fp_queries", ss.fp_queries);
    json_kv_uint(j, "fp_timeouts", ss.fp_timeouts);
    json_kv_double(j, "fp_seconds", ss.fp_seconds);
    json_kv_uint(j, "fp_sampled", ss.fp_sampled);
    json_kv_uint(j, "int_relaxed", ss.int_relaxed);
    json_kv_uint(j, "int_core_unsat", ss.int_core_unsat);
    json_kv_uint(j, "fp_relaxed", ss.fp_relaxed);
    json_kv_uint(j, "fp_core_unsat", ss.fp_core_unsat);
    json_kv_uint(j, "fp_skeleton_unsat", ss.fp_skeleton_unsat);
    json_kv_uint(j, "fp_pinned", ss.fp_pinned);
    json_kv_uint(j, "fp_hard_skipped", ss.fp_hard_skipped);
    json_kv_double(j, "fp_relax_seconds", ss.fp_relax_seconds);
    json_end_object(j);
}

int explore_write_report(const explore_state *s, char **err)
{
    json_writer *j = json_new();
    if (!j) {
        *err = strdup("out of memory");
        return -1;
    }
    json_begin_object(j);
    json_kv_str(j, "tool", "sympath " SYMPATH_VERSION);
    json_key(j, "program");
    json_begin_array(j);
    for (size_t i = 0; i < s->o->nsources; i++) json_string(j, s->o->sources[i]);
    json_end_array(j);
    json_kv_str(j, "strategy", s->o->strategy ? s->o->strategy : "cov");
    json_kv_uint(j, "seed", s->o->seed);
    json_kv_double(j, "budget_seconds", s->o->budget_seconds);
    if (s->o->build) {
        json_key(j, "build");
        json_begin_object(j);
        json_kv_uint(j, "functions", s->o->build->functions);
        json_kv_uint(j, "branch_sites", s->o->build->branch_sites);
        json_kv_uint(j, "concrete_clones", s->o->build->concrete_clones);
        json_kv_uint(j, "concrete_dispatches", s->o->build->dispatches);
        json_kv_uint(j, "unsupported_instructions", s->o->build->unsupported);
        json_kv_double(j, "seconds", s->o->build->seconds);
        json_kv_uint(j, "nondet_generated", s->o->build->nondet_generated);
        /* input functions whose return type cannot be an input */
        json_kv_lines(j, "nondet_unsupported", s->o->build->nondet_unsupported_list);
        json_end_object(j);
    }
    json_kv_str(j, "stop_reason", s->stop_reason);
    json_kv_bool(j, "complete", s->complete);
    json_kv_uint(j, "tests", s->tests);
    json_kv_uint(j, "property_violations", s->errors_property);
    json_kv_uint(j, "other_terminations", s->errors_other);
    report_coverage(j, s);
    report_errors(j, s);
    report_stats(j, s);
    explore_db_report(j, s);
    explore_report_parallel(j, s);
    json_end_object(j);
    char path[4096];
    snprintf(path, sizeof path, "%s/report.json", s->o->out_dir);
    int rc = json_write_file(j, path);
    int e = errno;
    if (rc != 0 && asprintf(err, "%s: %s", path, strerror(e)) < 0) *err = NULL;
    json_free(j);
    errno = e;
    return rc;
}

void explore_print_summary(const explore_state *s, FILE *f)
{
    double pct = s->user_slots ? 100.0 * s->user_covered / s->user_slots : 100.0;
    tree_stats ts;
    explore_tree_stats(s, &ts);
    char why[256];
    if (s->complete)
        snprintf(why, sizeof why, "exploration complete (every feasible path explored)");
    else if (s->exhausted)
        snprintf(why, sizeof why,
                 "no direction left to try, but not every path was run (%llu bounded, %llu unknown to the "
                 "solver, %llu diverged, or values concretized)",
                 (unsigned long long)ts.by_status[CHILD_BOUNDED], (unsigned long long)ts.by_status[CHILD_UNKNOWN],
                 (unsigned long long)ts.by_status[CHILD_DIVERGED]);
    else
        snprintf(why, sizeof why, "stopped (%s)", s->stop_reason);
    fprintf(f, "sympath: %s after %.1f s: %llu executions (%.0f/s), %llu tests in %s/tests\n", why, s->total_seconds,
            (unsigned long long)s->execs, s->total_seconds > 0 ? s->execs / s->total_seconds : 0.0,
            (unsigned long long)s->tests, s->o->out_dir);
    fprintf(f, "  branch coverage: %u/%u directions (%.1f%%)\n", s->user_covered, s->user_slots, pct);
    fprintf(f, "  property violations: %u   other terminations: %u\n", s->errors_property, s->errors_other);
    for (uint32_t i = 0; i < s->nerrors; i++) {
        const error_rec *e = &s->errors[i];
        fprintf(f, "    [%s] %s at %s in %s -> errors/error-%03d.xml\n",
                error_is_property(e->kind) ? "violation" : "other", error_kind_name(e->kind), e->where, e->function,
                e->number);
    }
    uint64_t conc = 0;
    for (int k = 0; k < CONC_KIND_COUNT; k++) conc += s->conc[k];
    solver_stats ss;
    explore_solver_stats(s, &ss);
    explore_db_print_summary(s, f);
    fprintf(f, "  divergences: %llu   concretizations: %llu   solver: %llu queries, %.0f%% of the time\n",
            (unsigned long long)s->divergences, (unsigned long long)conc, (unsigned long long)ss.queries,
            s->total_seconds > 0 ? 100.0 * s->solve_seconds / (s->total_seconds * (s->agg ? s->link->nworkers : 1))
                                 : 0.0);
    if (s->agg)
        fprintf(f,
                "  workers: %d   jobs moved: %llu   idle: %.0f%%   paths: %llu distinct, %llu run again (%llu after "
                "a divergence)\n",
                s->link->nworkers, (unsigned long long)s->jobs_received,
                s->total_seconds > 0 ? 100.0 * s->idle_seconds / (s->total_seconds * s->link->nworkers) : 0.0,
                (unsigned long long)s->paths.n, (unsigned long long)s->paths.dup,
                (unsigned long long)(s->paths.dup - s->paths.dup_aimed));
    /* the libc functions without a model that got symbolic values, most first (at most 5) */
    int shown = 0;
    uint64_t last = UINT64_MAX;
    while (shown < 5) {
        uint64_t best = 0; /* the largest count below the last one printed */
        for (uint32_t i = 0; i < s->sites.ncallees && i + 1 < TRACE_CONC_FN_SLOTS; i++) {
            uint64_t c = s->conc_fn[i + 1];
            if (c > best && c < last) best = c;
        }
        if (!best) break;
        for (uint32_t i = 0; i < s->sites.ncallees && i + 1 < TRACE_CONC_FN_SLOTS && shown < 5; i++)
            if (s->conc_fn[i + 1] == best) {
                fprintf(f, "%s%s %llu", shown ? ", " : "  concretized by calls of: ", s->sites.callees[i],
                        (unsigned long long)best);
                shown++;
            }
        last = best;
    }
    if (shown) fputc('\n', f);
    if (s->report_failed)
        fprintf(f, "  report: none (report.json could not be written)\n");
    else
        fprintf(f, "  report: %s/report.json\n", s->o->out_dir);
}

void explore_tree_stats(const explore_state *s, tree_stats *ts)
{
    if (s->agg)
        *ts = s->agg->tree;
    else
        tree_get_stats(s->tree, ts);
}

void explore_solver_stats(const explore_state *s, solver_stats *ss)
{
    if (s->agg)
        *ss = s->agg->solver;
    else
        solver_get_stats(s->solver, ss);
}
