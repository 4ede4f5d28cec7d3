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
    "external_call", "float", "symbolic_pointer", "symbolic_size", "wide_integer", "aggregate",
    "vararg", "unsupported_instruction", "input_overflow", "trace_full", "pointer_input",
};

static void put_uint(json_writer *j, const char *k, uint64_t v) {
    json_key(j, k);
    json_uint(j, v);
}

static void put_double(json_writer *j, const char *k, double v) {
    json_key(j, k);
    json_double(j, v);
}

static void put_str(json_writer *j, const char *k, const char *v) {
    json_key(j, k);
    json_string(j, v);
}

static void report_coverage(json_writer *j, const explore_state *s) {
    json_key(j, "coverage");
    json_begin_object(j);
    put_str(j, "unit", "branch directions (both outcomes of each conditional branch, each distinct switch destination)");
    put_uint(j, "branches_total", s->user_slots);
    put_uint(j, "branches_covered", s->user_covered);
    put_double(j, "percent", s->user_slots ? 100.0 * s->user_covered / s->user_slots : 100.0);
    put_double(j, "reached_after_seconds", s->last_cov_time);
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
    put_uint(j, "sites_total", nsites);
    put_uint(j, "sites_fully_covered", full);
    json_key(j, "sites");
    json_begin_array(j);
    for (uint32_t i = 0; i < s->sites.nsites; i++) {
        const site_info *si = &s->sites.sites[i];
        if (!si->user) continue;
        json_begin_object(j);
        put_uint(j, "id", si->id);
        put_str(j, "file", si->file);
        put_uint(j, "line", si->line);
        put_uint(j, "column", si->col);
        put_str(j, "function", si->function);
        put_str(j, "kind", si->kind);
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

static void report_errors(json_writer *j, const explore_state *s) {
    json_key(j, "errors");
    json_begin_array(j);
    for (uint32_t i = 0; i < s->nerrors; i++) {
        const error_rec *e = &s->errors[i];
        json_begin_object(j);
        put_str(j, "kind", error_kind_name(e->kind));
        put_str(j, "class", error_is_property(e->kind) ? "property-violation" : "other-termination");
        if (e->kind == ERR_SIGNAL) {
            json_key(j, "signal");
            json_int(j, e->signo);
        }
        if (e->kind == ERR_TIMEOUT) {
            json_key(j, "confirmed");
            json_bool(j, !e->unconfirmed);
        }
        put_str(j, "location", e->where);
        put_str(j, "function", e->function);
        char path[64];
        snprintf(path, sizeof path, "errors/error-%03d.xml", e->number);
        put_str(j, "reproducer", e->number > 0 ? path : NULL);
        put_uint(j, "runs", e->hits);
        put_double(j, "found_after_seconds", e->found_seconds);
        put_uint(j, "found_at_execution", e->found_exec);
        json_end_object(j);
    }
    json_end_array(j);
}

static void report_stats(json_writer *j, const explore_state *s) {
    json_key(j, "executions");
    json_begin_object(j);
    put_uint(j, "total", s->execs);
    put_double(j, "per_second", s->total_seconds > 0 ? s->execs / s->total_seconds : 0);
    put_double(j, "mean_seconds", s->execs ? s->exec_seconds / s->execs : 0);
    put_double(j, "mean_symbolic_events", s->execs ? (double)s->events_total / s->execs : 0);
    put_uint(j, "max_symbolic_events", s->events_max);
    put_double(j, "mean_inputs", s->execs ? (double)s->inputs_total / s->execs : 0);
    put_uint(j, "timeouts", s->timeouts);
    put_uint(j, "slow_runs", s->slow_runs);
    put_uint(j, "assumption_failed", s->assume_failed);
    put_uint(j, "input_limit_reached", s->inputs_done);
    put_uint(j, "continuations_not_run", s->ncont + s->cont_dropped);
    put_uint(j, "forks_by_program", s->forks);
    put_uint(j, "trace_records_dropped", s->dropped);
    unsigned restarts = 0;
    for (unsigned i = 0; i < s->nex; i++) restarts += s->ex[i] ? executor_restarts(s->ex[i]) : 0;
    put_uint(j, "executor_restarts", restarts);
    put_uint(j, "parallel_executors", s->nex);
    json_end_object(j);

    json_key(j, "time");
    json_begin_object(j);
    put_double(j, "total_seconds", s->total_seconds);
    put_double(j, "build_seconds", s->o->build_seconds);
    put_double(j, "execution_seconds", s->exec_seconds);
    put_double(j, "solver_seconds", s->solve_seconds);
    put_double(j, "solver_share", s->total_seconds > 0 ? s->solve_seconds / s->total_seconds : 0);
    json_end_object(j);

    put_uint(j, "divergences", s->divergences);
    json_key(j, "optimistic_solving");
    json_begin_object(j);
    put_uint(j, "tried", s->optimistic);
    put_uint(j, "sat", s->optimistic_sat);
    json_end_object(j);

    tree_stats ts;
    tree_get_stats(s->tree, &ts);
    json_key(j, "tree");
    json_begin_object(j);
    put_uint(j, "nodes", ts.nodes);
    put_uint(j, "max_depth", ts.max_depth);
    put_uint(j, "mismatches", ts.mismatches);
    json_key(j, "directions");
    json_begin_object(j);
    for (int k = 0; k < CHILD_STATUS_COUNT; k++) put_uint(j, child_status_name((child_status)k), ts.by_status[k]);
    json_end_object(j);
    json_end_object(j);

    json_key(j, "concretizations");
    json_begin_object(j);
    for (int k = 0; k < CONC_KIND_COUNT; k++) put_uint(j, conc_names[k], s->conc[k]);
    json_end_object(j);

    /* CONC_EXTERNAL_CALL by callee name (site-table "callee" ids); slot 0 holds the ids
     * past the header's table, reported as "(other)" */
    json_key(j, "concretizations_by_function");
    json_begin_object(j);
    for (uint32_t i = 0; i < s->sites.ncallees && i + 1 < TRACE_CONC_FN_SLOTS; i++)
        if (s->conc_fn[i + 1]) put_uint(j, s->sites.callees[i], s->conc_fn[i + 1]);
    if (s->conc_fn[0]) put_uint(j, "(other)", s->conc_fn[0]);
    json_end_object(j);

    json_key(j, "unsupported_instructions");
    json_begin_object(j);
    for (uint32_t i = 0; i < s->sites.nunsupported; i++)
        put_uint(j, s->sites.unsupported_kind[i], s->sites.unsupported_count[i]);
    json_end_object(j);

    solver_stats ss;
    solver_get_stats(s->solver, &ss);
    json_key(j, "solver");
    json_begin_object(j);
    put_uint(j, "queries", ss.queries);
    put_uint(j, "sat", ss.sat);
    put_uint(j, "unsat", ss.unsat);
    put_uint(j, "unknown", ss.unknown);
    put_uint(j, "z3_calls", ss.z3_calls);
    put_uint(j, "z3_timeouts", ss.z3_timeouts);
    put_uint(j, "cache_hits", ss.cache_hits);
    put_uint(j, "unsat_subset_hits", ss.unsat_subset_hits);
    put_uint(j, "syntactic_unsat", ss.syntactic_unsat);
    put_uint(j, "constraints_in", ss.constraints_in);
    put_uint(j, "constraints_kept", ss.constraints_kept);
    put_double(j, "seconds", ss.seconds);
    put_double(j, "z3_seconds", ss.z3_seconds);
    put_uint(j, "fp_queries", ss.fp_queries);
    put_uint(j, "fp_timeouts", ss.fp_timeouts);
    put_double(j, "fp_seconds", ss.fp_seconds);
    put_uint(j, "fp_sampled", ss.fp_sampled);
    json_end_object(j);
}

int explore_write_report(const explore_state *s, char **err) {
    json_writer *j = json_new();
    if (!j) {
        *err = strdup("out of memory");
        return -1;
    }
    json_begin_object(j);
    put_str(j, "tool", "sympath " SYMPATH_VERSION);
    json_key(j, "program");
    json_begin_array(j);
    for (size_t i = 0; i < s->o->nsources; i++) json_string(j, s->o->sources[i]);
    json_end_array(j);
    put_str(j, "strategy", s->o->strategy ? s->o->strategy : "cov");
    put_uint(j, "seed", s->o->seed);
    put_double(j, "budget_seconds", s->o->budget_seconds);
    if (s->o->build) {
        json_key(j, "build");
        json_begin_object(j);
        put_uint(j, "functions", s->o->build->functions);
        put_uint(j, "branch_sites", s->o->build->branch_sites);
        put_uint(j, "concrete_clones", s->o->build->concrete_clones);
        put_uint(j, "concrete_dispatches", s->o->build->dispatches);
        put_uint(j, "unsupported_instructions", s->o->build->unsupported);
        put_double(j, "seconds", s->o->build->seconds);
        put_uint(j, "nondet_generated", s->o->build->nondet_generated);
        json_key(j, "nondet_unsupported"); /* input functions whose return type cannot be an input */
        json_begin_array(j);
        for (const char *l = s->o->build->nondet_unsupported_list; l && *l;) {
            const char *nl = strchr(l, '\n');
            size_t n = nl ? (size_t)(nl - l) : strlen(l);
            char *one = strndup(l, n);
            if (one)
                json_string(j, one);
            free(one);
            l = nl ? nl + 1 : l + n;
        }
        json_end_array(j);
        json_end_object(j);
    }
    put_str(j, "stop_reason", s->stop_reason);
    json_key(j, "complete");
    json_bool(j, s->complete);
    put_uint(j, "tests", s->tests);
    put_uint(j, "property_violations", s->errors_property);
    put_uint(j, "other_terminations", s->errors_other);
    report_coverage(j, s);
    report_errors(j, s);
    report_stats(j, s);
    explore_db_report(j, s);
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

void explore_print_summary(const explore_state *s, FILE *f) {
    double pct = s->user_slots ? 100.0 * s->user_covered / s->user_slots : 100.0;
    tree_stats ts;
    tree_get_stats(s->tree, &ts);
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
    fprintf(f, "sympath: %s after %.1f s: %llu executions (%.0f/s), %llu tests in %s/tests\n", why,
            s->total_seconds, (unsigned long long)s->execs, s->total_seconds > 0 ? s->execs / s->total_seconds : 0.0,
            (unsigned long long)s->tests, s->o->out_dir);
    fprintf(f, "  branch coverage: %u/%u directions (%.1f%%)\n", s->user_covered, s->user_slots, pct);
    fprintf(f, "  property violations: %u   other terminations: %u\n", s->errors_property, s->errors_other);
    for (uint32_t i = 0; i < s->nerrors; i++) {
        const error_rec *e = &s->errors[i];
        fprintf(f, "    [%s] %s at %s in %s -> errors/error-%03d.xml\n",
                error_is_property(e->kind) ? "violation" : "other", error_kind_name(e->kind), e->where,
                e->function, e->number);
    }
    uint64_t conc = 0;
    for (int k = 0; k < CONC_KIND_COUNT; k++) conc += s->conc[k];
    solver_stats ss;
    solver_get_stats(s->solver, &ss);
    explore_db_print_summary(s, f);
    fprintf(f, "  divergences: %llu   concretizations: %llu   solver: %llu queries, %.0f%% of the time\n",
            (unsigned long long)s->divergences, (unsigned long long)conc, (unsigned long long)ss.queries,
            s->total_seconds > 0 ? 100.0 * s->solve_seconds / s->total_seconds : 0.0);
    /* the libc functions without a model that got symbolic values, most first (at most 5) */
    int shown = 0;
    uint64_t last = UINT64_MAX;
    while (shown < 5) {
        uint64_t best = 0; /* the largest count below the last one printed */
        for (uint32_t i = 0; i < s->sites.ncallees && i + 1 < TRACE_CONC_FN_SLOTS; i++) {
            uint64_t c = s->conc_fn[i + 1];
            if (c > best && c < last)
                best = c;
        }
        if (!best)
            break;
        for (uint32_t i = 0; i < s->sites.ncallees && i + 1 < TRACE_CONC_FN_SLOTS && shown < 5; i++)
            if (s->conc_fn[i + 1] == best) {
                fprintf(f, "%s%s %llu", shown ? ", " : "  concretized by calls of: ", s->sites.callees[i],
                        (unsigned long long)best);
                shown++;
            }
        last = best;
    }
    if (shown)
        fputc('\n', f);
    if (s->report_failed)
        fprintf(f, "  report: none (report.json could not be written)\n");
    else
        fprintf(f, "  report: %s/report.json\n", s->o->out_dir);
}
