/* data_rt.h: what the executor's data-mode interceptions (data_sqlite.c, data_pq.c) share: the plan, the log, tuples, data inputs. */
#ifndef SYMPATH_DATA_RT_H
#define SYMPATH_DATA_RT_H

#include <stdbool.h>
#include <stdint.h>
#include "../../data/data.h"
#include "../../proto/trace.h"
#include "../core/rt_internal.h"
#include "db_log.h"

/* The plan's entry for one SELECT site (protocol in src/data/data.h). */
typedef struct data_plan_site {
    char id[17];
    uint64_t limit;  /* 0: no LIMIT */
    uint64_t offset; /* tuples of the same query earlier runs got: skipped */
    char *cond;      /* "" : no WHERE */
} data_plan_site;

/* True when this executor runs in data mode (SYMPATH_DATA_PLAN set); reads the plan on
 * the first call of the process (the fork server's children inherit it: the plan is
 * read again at the start of each run, see data_rt_run_start). */
bool data_rt_active(void);
/* Re-read the plan if the run changed (called by every entry point; cheap after the
 * first call of a run). */
void data_rt_run_start(void);
/* SYMPATH_DATA_DB: the database every open / connect goes to. */
const char *data_rt_db(void);
/* LIMIT of SELECTs without a site entry (0: none). */
uint64_t data_rt_default_limit(void);
/* False when the plan says "symbolic 0" (the full-scan comparison run: no inputs at all). */
bool data_rt_symbolic(void);
/* The plan's entry for a site id, NULL when none. */
const data_plan_site *data_rt_plan_for(const char *site_id);
/* Append one line (format without the newline) to SYMPATH_DATA_LOG with one write. */
void data_rt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line of the log: head, then the fields flattened and cut to field_cap - 1 bytes (db_log_fields). */
void data_rt_log_fields(const char *head, const char *const *fields, int n, size_t field_cap);
/* The "s" line of an execution of a SELECT: "s <site> <ncols> <dialect> <sql> <param>..."
 * (protocol in src/data/data.h); literals[i] is parameter i+1 as an SQL literal (NULL or a
 * NULL array: "NULL"). The SQL and the literals are flattened (proto_flat). */
void data_rt_log_site(const char *site, int ncols, const char *dialect, const char *sql, int nparams,
                      char *const *literals);
/* The next tuple number of the run (0, 1, ...). */
uint64_t data_rt_next_tuple(void);
/*
 * The data input for a value read from tuple `tuple` of site `site`: an input of `width`
 * bits and type `it` named data:<site>:<tuple>:<term>, whose value is `value` (what the
 * database returned; the explorer's vector is not read). The same name within a run
 * gives the same symbol. Returns the symbol, or NULL when the run is concrete (trace
 * full, "symbolic 0").
 */
expr *data_rt_input(unsigned width, input_type it, const char *site, uint64_t tuple, const char *term, uint64_t value);

#endif
