/* db_report.c: the explorer's side of database applications: fixture files beside kept tests, the "database" section of report.json. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../db/db.h"
#include "../emit/emit.h"
#include "explore_state.h"
#include "proto/proto.h"
#include "util/util.h"

int explore_db_write_fixture(explore_state *s, const run_result *r, const char *xml_path, char **err)
{
    const db_schema *sc = s->o->db_schema;
    if (!sc) return 0;
    /* the fixture starts at the input named after the first table's row count */
    char first[300];
    snprintf(first, sizeof first, "db:%s.rows", sc->tables[0].name);
    size_t start = (size_t)-1;
    for (uint32_t i = 0; i < r->ninputs && start == (size_t)-1; i++)
        if (r->inames && r->inames[i] && !strcmp(r->inames[i], first)) start = i;
    if (start == (size_t)-1) return 0; /* the run never opened its database */
    db_limits l = {s->o->db_rows, s->o->db_text};
    char *sql = s->o->db_pg ? db_pg_fixture_sql(sc, &l, r->inputs, r->ninputs, start)
                            : db_fixture_sql(sc, &l, r->inputs, r->ninputs, start);
    size_t n = strlen(xml_path);
    char *path = malloc(n + 8);
    if (!sql || !path || n < 4) {
        free(sql), free(path);
        *err = strdup("out of memory");
        return -1;
    }
    memcpy(path, xml_path, n - 4);
    strcpy(path + n - 4, ".sql");
    int rc = write_file_atomic(path, sql, strlen(sql));
    if (rc) {
        *err = strdup(path);
    } else {
        s->db_fixtures++;
        for (const char *p = sql; (p = strstr(p, "INSERT INTO ")); p++) s->db_fixture_rows++;
        if (strstr(sql, DB_FAULT_COMMENT)) s->db_fault_tests++;
    }
    if (!rc && s->o->db_results_dir) { /* PostgreSQL: the run's recorded results, for a replay without a server */
        char rp[4200];
        snprintf(rp, sizeof rp, "%s/results-%u.txt", s->o->db_results_dir, s->cur_exec);
        /* the executor wrote it with the .results writer (db_pq_record.c); a run that never
         * connected left none: an empty one, from the same writer */
        size_t tn = 0;
        char *text = NULL;
        if (s->results_text) { /* a worker's run, kept by the coordinator: the results came with it */
            text = malloc(s->results_len + 1);
            if (text) memcpy(text, s->results_text, s->results_len), text[s->results_len] = 0, tn = s->results_len;
        } else {
            text = util_read_file(rp, &tn);
        }
        if (!text) {
            strbuf b = STRBUF_INIT;
            results_put_header(&b, 1);
            text = b.failed ? (sb_free(&b), NULL) : b.s;
            tn = text ? b.len : 0;
        }
        strcpy(path + n - 4, ".results");
        if (!text || write_file_atomic(path, text, tn)) {
            rc = -1;
            *err = strdup(path);
        }
        free(text);
    }
    free(sql), free(path);
    return rc;
}

/* Aggregated log lines of one statement text. */
typedef struct qsite {
    char *sql;
    int understood; /* 1 when every execution was understood */
    uint64_t execs, rows_fixture, rows_other, mismatches, ns, max_rows;
    char kinds[256];
} qsite;

static void add_kinds(char *dst, size_t cap, const char *kinds)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", kinds);
    for (char *save = NULL, *k = strtok_r(buf, ";", &save); k; k = strtok_r(NULL, ";", &save)) {
        size_t kl = strlen(k);
        int have = 0;
        for (const char *p = dst; (p = strstr(p, k)); p += kl)
            if ((p == dst || p[-1] == ';') && (p[kl] == ';' || !p[kl])) have = 1;
        if (!have && strlen(dst) + kl + 2 < cap) {
            if (*dst) strcat(dst, ";");
            strcat(dst, k);
        }
    }
}

/* The distinct messages of one kind of log line (the first 20) and how many such lines there were. */
typedef struct msgs {
    char **v;
    size_t n, total;
} msgs;

static void msgs_add(msgs *m, const char *text)
{
    m->total++;
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->v[i], text)) return;
    if (m->n >= 20) return;
    char **nv = realloc(m->v, (m->n + 1) * sizeof *nv);
    if (!nv) return;
    m->v = nv;
    if ((nv[m->n] = strdup(text))) m->n++;
}

/* The count under count_key, the messages as an array under list_key; frees them. */
static void msgs_write(json_writer *j, const char *count_key, const char *list_key, msgs *m)
{
    json_kv_uint(j, count_key, m->total);
    json_key(j, list_key);
    json_begin_array(j);
    for (size_t i = 0; i < m->n; i++) {
        json_string(j, m->v[i]);
        free(m->v[i]);
    }
    json_end_array(j);
    free(m->v);
}

void explore_db_report(json_writer *j, const explore_state *s)
{
    if (!s->o->db_schema) return;
    qsite *q = NULL;
    size_t nq = 0;
    msgs errors = {0}, stmt_errors = {0}, rejections = {0};
    FILE *f = s->o->db_log ? fopen(s->o->db_log, "r") : NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while (f && (len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n') line[--len] = 0;
        char *fld[8] = {0};
        int nf = 0;
        for (char *p = line; nf < 8;) {
            fld[nf++] = p;
            char *t = strchr(p, '\t');
            if (!t || nf == 8) break;
            *t = 0;
            p = t + 1;
        }
        if (!strcmp(fld[0], "s") && nf >= 3) {
            char both[2200];
            snprintf(both, sizeof both, "%s: %s", fld[2], fld[1]);
            msgs_add(&stmt_errors, both);
            continue;
        }
        if (!strcmp(fld[0], "r") && nf >= 2) { /* a fixture row SQLite rejected (a CHECK not modelled) */
            msgs_add(&rejections, fld[1]);
            continue;
        }
        if (!strcmp(fld[0], "e") && nf >= 2) {
            msgs_add(&errors, fld[1]);
            continue;
        }
        if (strcmp(fld[0], "q") || nf < 8) continue;
        qsite *site = NULL;
        for (size_t i = 0; i < nq && !site; i++)
            if (!strcmp(q[i].sql, fld[7])) site = &q[i];
        if (!site) {
            if (nq >= 500) continue;
            qsite *nqv = realloc(q, (nq + 1) * sizeof *nqv);
            if (!nqv) continue;
            q = nqv;
            site = &q[nq];
            memset(site, 0, sizeof *site);
            if (!(site->sql = strdup(fld[7]))) continue;
            site->understood = 1;
            nq++;
        }
        uint64_t rows = strtoull(fld[2], NULL, 10);
        site->execs++;
        site->understood &= atoi(fld[1]) != 0;
        site->rows_fixture += rows;
        if (rows > site->max_rows) site->max_rows = rows;
        site->rows_other += strtoull(fld[3], NULL, 10);
        site->mismatches += strtoull(fld[4], NULL, 10);
        site->ns += strtoull(fld[5], NULL, 10);
        add_kinds(site->kinds, sizeof site->kinds, fld[6]);
    }
    free(line);
    if (f) fclose(f);

    json_key(j, "database");
    json_begin_object(j);
    json_kv_uint(j, "tables", (uint64_t)s->o->db_schema->ntables);
    json_kv_uint(j, "row_slots_per_table", s->o->db_rows);
    json_kv_uint(j, "text_bytes", s->o->db_text);
    /* the layouts the exploration outgrew (db_layout.c), oldest first; the figures above are the last's */
    json_key(j, "layouts_before");
    json_begin_array(j);
    for (size_t i = 0; i < s->o->ndb_rounds; i++) {
        const explore_db_round *rd = &s->o->db_rounds[i];
        json_begin_object(j);
        json_kv_uint(j, "row_slots_per_table", rd->rows);
        json_kv_uint(j, "text_bytes", rd->text);
        json_kv_double(j, "seconds", rd->seconds);
        json_kv_uint(j, "branches_covered", rd->covered);
        json_kv_uint(j, "tests", rd->tests);
        json_kv_uint(j, "executions", rd->execs);
        json_end_object(j);
    }
    json_end_array(j);
    json_kv_uint(j, "fixtures_written", s->db_fixtures);
    json_kv_uint(j, "rows_synthesized", s->db_fixture_rows);
    json_kv_uint(j, "injected_fault_tests", s->db_fault_tests);
    /* fixture minimization (db_minimize.c; counted where tests are kept: not in -j's coordinator) */
    json_kv_uint(j, "fixtures_minimized", s->db_minimized);
    json_kv_uint(j, "minimizations_off_path", s->db_min_rejected);
    json_kv_uint(j, "minimizations_partial", s->db_min_partial);
    json_kv_uint(j, "minimization_queries", s->db_min_queries);
    json_kv_uint(j, "minimizations_skipped", s->db_min_skipped);
    json_kv_double(j, "minimization_seconds", s->db_min_seconds);
    json_key(j, "constraints_not_modelled");
    json_begin_array(j);
    for (int i = 0; i < s->o->db_schema->nignored; i++) json_string(j, s->o->db_schema->ignored[i]);
    json_end_array(j);
    uint64_t nchecks = 0, nmodelled = 0;
    for (int t = 0; t < s->o->db_schema->ntables; t++)
        for (int i = 0; i < s->o->db_schema->tables[t].nchecks; i++)
            nchecks++, nmodelled += s->o->db_schema->tables[t].checks[i].q != NULL;
    json_kv_uint(j, "check_constraints", nchecks);
    json_kv_uint(j, "check_constraints_modelled", nmodelled);
    msgs_write(j, "fixtures_rejected", "fixture_rejection_messages", &rejections);
    double total_ms = 0;
    uint64_t understood = 0;
    for (size_t i = 0; i < nq; i++) total_ms += (double)q[i].ns / 1e6, understood += q[i].understood;
    json_kv_double(j, "sqlite_ms", total_ms);
    json_kv_uint(j, "query_sites", nq);
    json_kv_uint(j, "query_sites_understood", understood);
    json_key(j, "queries");
    json_begin_array(j);
    for (size_t i = 0; i < nq; i++) {
        json_begin_object(j);
        json_kv_str(j, "sql", q[i].sql);
        json_kv_bool(j, "understood", q[i].understood);
        json_kv_uint(j, "executions", q[i].execs);
        json_kv_uint(j, "fixture_rows_returned", q[i].rows_fixture);
        json_kv_uint(j, "max_fixture_rows_in_one_execution", q[i].max_rows);
        json_kv_uint(j, "other_rows_returned", q[i].rows_other);
        json_kv_uint(j, "model_mismatches", q[i].mismatches);
        json_kv_double(j, "sqlite_ms", (double)q[i].ns / 1e6);
        json_key(j, "unsupported");
        json_begin_array(j);
        char buf[256];
        snprintf(buf, sizeof buf, "%s", q[i].kinds);
        for (char *save = NULL, *k = strtok_r(buf, ";", &save); k; k = strtok_r(NULL, ";", &save)) json_string(j, k);
        json_end_array(j);
        json_end_object(j);
        free(q[i].sql);
    }
    json_end_array(j);
    msgs_write(j, "fixture_errors", "fixture_error_messages", &errors);
    msgs_write(j, "statement_errors", "statement_error_messages", &stmt_errors);
    json_end_object(j);
    free(q);
}

void explore_db_print_summary(const explore_state *s, FILE *f)
{
    if (!s->o->db_schema) return;
    uint64_t fixture_errors = 0, statement_errors = 0, rejected = 0;
    char *first_rejection = NULL;
    FILE *in = s->o->db_log ? fopen(s->o->db_log, "r") : NULL;
    char *line = NULL, *first_error = NULL;
    size_t cap = 0;
    while (in && getline(&line, &cap, in) > 0) {
        if (line[0] == 'e' && line[1] == '\t') {
            fixture_errors++;
            if (!first_error) first_error = strdup(line + 2);
        } else if (line[0] == 's' && line[1] == '\t') {
            statement_errors++;
        } else if (line[0] == 'r' && line[1] == '\t') {
            if (!rejected++) {
                char *tab = strchr(line + 2, '\t');
                if (tab) *tab = 0;
                first_rejection = strdup(line + 2);
            }
        }
    }
    free(line);
    if (in) fclose(in);
    fprintf(f,
            "  database: %llu fixtures, %llu rows synthesized, %llu tests with an injected fault, %llu statements "
            "failed at run time (report.json)\n",
            (unsigned long long)s->db_fixtures, (unsigned long long)s->db_fixture_rows,
            (unsigned long long)s->db_fault_tests, (unsigned long long)statement_errors);
    if (fixture_errors)
        fprintf(f, "  database: %llu runs could not build their database (a bug of sympath), first: %s",
                (unsigned long long)fixture_errors, first_error ? first_error : "?\n");
    if (rejected)
        fprintf(f,
                "  database: %llu candidate(s) not run: fixture rejected: %s (a CHECK sympath does not model, "
                "report.json)\n",
                (unsigned long long)rejected, first_rejection ? first_rejection : "?");
    free(first_rejection);
    free(first_error);
}
