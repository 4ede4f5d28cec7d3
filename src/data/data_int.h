/* data_int.h: the state of `sympath data` shared by its files (tree, log, loop, report); private to src/data. */
#ifndef SYMPATH_DATA_INT_H
#define SYMPATH_DATA_INT_H

#include <stdio.h>
#include "../emit/emit.h"
#include "../explore/explorer.h"
#include "../instrument/instrument.h"
#include "data.h"

/* Why a complement node was not reached (report.json "complement_left"). */
typedef enum dn_state {
    DN_OPEN = 0,  /* still a candidate (left when the budget ended) */
    DN_NO_DATA,   /* its query has no tuple: the data cannot reach it */
    DN_DIVERGED,  /* tuples of its query did not take it (a condition was dropped or the path depends on state) */
    DN_NOT_SQL,   /* its own condition has no exact SQL form */
    DN_EXHAUSTED, /* every tuple of the table was seen without reaching it */
    DN_TIMEOUT    /* the run on its query ran out of time (--timeout): a slow query, not a program hang */
} dn_state;

/*
 * A node of a site's execution tree over tuples (Li and Csallner, section 4.3): the edge
 * from its parent is one direction of a symbolic branch taken while processing a tuple.
 * Explored nodes were taken by some tuple; complement nodes (explored == false) are the
 * other directions of branches on explored paths, not taken by any tuple yet.
 */
typedef struct dnode {
    struct dnode *parent, *kids, *next;
    uint32_t bsite, arg; /* branch site id and event arg (switch case slot) */
    uint8_t dir;         /* direction of the edge */
    bool explored;
    char *cond;            /* SQL of the edge's condition, NULL: not expressible */
    const char *why;       /* static reason when cond is NULL */
    uint32_t tuples, ends; /* tuples through this node / whose path ends here */
    dn_state state;
    unsigned tries;      /* queries aimed at it that did not reach it */
    uint64_t offset;     /* tuples its query already gave (the next query continues after them) */
    uint32_t open_below; /* open complement leaves in the subtree (refreshed per round) */
    /* estimates of the node's query (counts; see estimate() in data_cand.c) */
    bool est_known;
    double rows, cost1;
    bool rows_exact;
    bool rows_unseen; /* no tuple in the estimate's sample: rows is a guess (rarer than the sample) */
    double dbms_rows; /* PostgreSQL: EXPLAIN's Plan Rows for its query (-1 none), for the report */
} dnode;

/* One SELECT site of the program. */
typedef struct dsite {
    char id[17];
    char *sql; /* the program's text */
    int ncols, nparams;
    char **params; /* SQL literals of the last execution's parameters */
    dnode root;
    int64_t table_rows; /* rows of its query on the whole data (-1 not yet counted) */
    double full_cost;   /* estimated cost of a full scan of its query */
    char **whole;       /* tuples without keys: "<table>:*" keys of the (small) tables the
                                  query reads, for fixtures of whole tables; NULL: none */
    int nwhole;
    bool whole_tried;
    uint64_t fetched;  /* tuples fetched over all runs */
    uint64_t distinct; /* distinct tuples (by key) seen */
} dsite;

/* One query sympath issued (report "queries"). */
typedef struct dquery {
    int site;
    char *cond; /* the extra WHERE, NULL: none */
    char *sql;  /* the whole query the program's SELECT became */
    uint64_t limit, offset;
    double est_rows, est_cost;
    double dbms_rows; /* the DBMS's own row estimate (PostgreSQL EXPLAIN), -1 none */
    uint64_t fetched; /* tuples the run got from it */
    uint32_t new_paths;
    bool aimed_leaf;
} dquery;

typedef struct dstate_x {
    const data_opts *o;
    data_source *ds;
    data_dialect dialect;
    expr_ctx *cx;
    executor *ex;
    site_table sites_tab;
    suite_writer *suite;
    uint8_t *covered, *slot_user;
    uint32_t nslots, user_slots, user_covered;
    dsite *sites;
    int nsites;
    dquery *queries;
    size_t nqueries;
    char **writes; /* distinct "w" messages */
    size_t nwrites;
    char *plan_path, *log_path;
    /* keys already seen (distinct tuples), as a simple open-addressing set of hashes */
    uint64_t *seen;
    size_t seen_cap, seen_n;
    uint64_t tests_unkeyed; /* tests whose tuples have no rowids (their fixture lacks those rows) */
    uint64_t timeouts;      /* runs stopped by --timeout (slow candidate queries; not program errors) */
    uint64_t runs, tests, errors, tuples_fetched, estimates, cross_tuple, not_sql, dropped_conds;
    double t0, estimate_seconds, exec_seconds, total_seconds;
    const char *stop_reason;
    struct report_progress *progress; /* OUT/stats (src/report) */
} dstate_x;

/* ---- tree (data_tree.c) ---- */

/* Insert one tuple's path: events (BK_BRANCH/BK_SWITCH of that tuple) with their SQL
 * conditions sql[i] (NULL: not expressible, why[i] says why). Returns the number of
 * complement nodes it explored (new paths below), or -1 when out of memory. */
int dtree_insert(dsite *s, const sym_event *const *ev, char *const *sql, const char *const *why, size_t n);
/* The conjunction of the edge conditions from the root to n, as SQL ("" when none);
 * *dropped counts the edges whose condition could not be expressed. malloc'ed. */
char *dtree_path_sql(const dnode *n, unsigned *dropped);
/* Recompute open_below for every node of the site's tree. */
void dtree_count_open(dnode *root);
/* Distinct tuple paths (nodes where some tuple's path ended). */
uint32_t dtree_paths(const dnode *root);
/* Call f on every node of the tree (pre-order). */
void dtree_walk(dnode *root, void (*f)(dnode *, void *), void *ctx);
/* Free the tree below root (root itself is embedded in its site). */
void dtree_free(dnode *root);

/* ---- one run (data_run.c) ---- */

/* Run the executor once with `plan` (the text of OUT's data-plan file: limits and candidate
 * queries per site), then process the run: name its data inputs, grow the sites' tuple
 * trees, merge coverage, keep a test (with its fixture or recorded results) when it added
 * coverage or hit an error. *new_paths receives the distinct tuple paths it added.
 * Returns the tuples fetched, -2 when it timed out before any tuple came (a slow query),
 * -1 when the program could not be run. */
int64_t data_run_once(dstate_x *x, const char *plan, uint32_t *new_paths);
/* One line of OUT/stats (src/report; at most one per second unless final): the solver
 * columns hold the estimates (seconds, candidate queries) and the runs stopped by --timeout. */
void data_stats_sample(dstate_x *x, int final);

/* ---- candidates (data_cand.c) ---- */

/* A candidate query: a node of a site's tuple tree and how many of its tuples to ask for. */
typedef struct dcand {
    int site;
    dnode *node;
    bool leaf;      /* a complement node (aimed at directly) rather than an internal one */
    char *cond;     /* the node's path condition (SQL, malloc'ed) */
    uint64_t limit; /* n_q */
    double score, rows, cost;
} dcand;

/* The best candidate over all sites (least estimated cost per expected new path; estimates
 * are made and cached on the nodes as needed). Returns 1 with *best (best->cond owned by the
 * caller), 0 when none is left. */
int data_choose(dstate_x *x, dcand *best);

/* ---- log (data_log.c) ---- */

/* What one run's log said. */
typedef struct dlog_tuple {
    int site;    /* index into sites */
    char **keys; /* "<table>:<rowid>" per FROM item (nkeys 0: unknown) */
    int nkeys;
} dlog_tuple;

typedef struct dlog {
    dlog_tuple *tuples; /* by run-wide tuple number */
    size_t ntuples;
    char *results; /* PostgreSQL: the recorded results file text, NULL otherwise */
} dlog;

/* Read the run's log into *lg, registering new sites in x (and counting their tables).
 * Returns 0, or -1 when the log cannot be read. */
int dlog_read(dstate_x *x, dlog *lg);
void dlog_free(dlog *lg);
/* Index of the site with id, or -1. */
int dsite_find(const dstate_x *x, const char *id);

/* ---- report (data_report.c) ---- */

/* Write OUT/report.json (atomically); 0 or -1. */
int data_write_report(const dstate_x *x);
/* Print the summary lines on f. */
void data_print_summary(const dstate_x *x, FILE *f);

#endif
