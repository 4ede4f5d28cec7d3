/* report.h: the report component: OUT/stats time series, live progress, errors.sarif, the HTML report, JUnit names. */
#ifndef SYMPATH_REPORT_H
#define SYMPATH_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Everything a user reads about a run besides the test suite itself comes from here.
 * The component knows nothing of the explorer's state: the explorer hands it plain
 * samples (report_sample) while it runs, and everything else is derived from the files
 * of an output directory (report.json, stats, build/sites.tsv, tests/, errors/), so
 * `sympath report OUT` works on the output of any command, also long after the run.
 *
 * Files (formats in README.md, "Output"):
 *   OUT/stats         one tab-separated line per second of exploration (stats.c)
 *   OUT/errors.sarif  SARIF 2.1.0, one result per distinct error (sarif.c)
 *   OUT/report/       static HTML: index.html (html_*.c)
 */

/* ---- the time series (stats.c) ---- */

/* One sample of an exploration's progress: one line of OUT/stats, one refresh of the
 * live status. Counters are totals since the exploration started. */
typedef struct report_sample {
    double elapsed;          /* seconds since the exploration started */
    uint64_t execs;          /* executions of the program */
    uint32_t covered, total; /* branch directions in user code: covered, all */
    uint64_t tests;          /* tests kept */
    uint32_t errors;         /* distinct errors found */
    double solver_seconds;   /* wall time spent solving, seconds */
    uint64_t queries;        /* solver queries */
    uint64_t timeouts;       /* queries the solver gave up on (time-out or unknown) */
    uint64_t divergences;    /* runs that left their predicted path */
} report_sample;

/* The header line of OUT/stats (tab-separated column names, no newline). The columns,
 * keep in this ORDER: elapsed_s execs covered total tests errors solver_s queries
 * solver_timeouts divergences. */
extern const char report_stats_header[];

/* Format one sample as a line of OUT/stats (with its newline) into buf of size n.
 * Returns the length written (truncated lines are never produced: 0 when n is too small). */
size_t report_stats_format(const report_sample *r, char *buf, size_t n);

/* Parse one line of OUT/stats (without or with its newline) into *r. Returns 0, or -1 when
 * the line is the header, a comment or malformed. Missing trailing columns read as 0. */
int report_stats_parse(const char *line, report_sample *r);

/* Read a whole OUT/stats file. On success returns 0 with *rows (malloc'ed, caller frees)
 * and *n set (0 rows for an empty file); malformed lines are skipped. -1 when the file
 * cannot be read (errno set; *rows NULL). */
int report_stats_read(const char *path, report_sample **rows, size_t *n);

/* ---- progress while exploring: OUT/stats + the terminal (progress.c, status.c) ---- */

/* How progress is shown on stderr. */
typedef enum report_display {
    REPORT_DISPLAY_OFF,    /* nothing (--no-progress, or stderr is not a terminal) */
    REPORT_DISPLAY_LINE,   /* one line rewritten in place (\r), as before */
    REPORT_DISPLAY_SCREEN, /* full status screen on the alternate screen (AFL-like) */
} report_display;

/* The display to use on stderr. want is the command's progress flag (the CLI sets it to
 * isatty(2), 0 for --no-progress): 0 gives OFF. Otherwise SYMPATH_PROGRESS=screen or =line
 * chooses; without it, SCREEN on a terminal of at least 60x16 whose TERM is set and not
 * "dumb", LINE on a smaller or dumb terminal, OFF when stderr is not a terminal. */
report_display report_display_auto(int want);

typedef struct report_progress report_progress;

/* Start recording progress: creates (truncates) out_dir/stats and writes its header;
 * display says what stderr shows; title (copied; e.g. "sympath run demo.c") and
 * budget_seconds (0 = none) appear on the screen. SCREEN switches stderr to the alternate
 * screen and installs SIGINT/SIGTERM/SIGHUP wrappers that restore the terminal when the
 * program dies of the signal (they call the previous handler first). Returns NULL only
 * when out of memory; a stats file that cannot be created is skipped silently (the run
 * goes on) and counted in report_progress_stats_failed. */
report_progress *report_progress_open(const char *out_dir, report_display display, const char *title,
                                      double budget_seconds);

/* Record a sample (p NULL: nothing): appends a line to OUT/stats at most once per second
 * (always the first and, when final is nonzero, the last) and refreshes the display at most
 * 4 times a second (always when final). target (may be NULL; read at once, not kept) is the
 * branch the search aims at ("demo.c:33 in parse"). */
void report_progress_update(report_progress *p, const report_sample *r, const char *target, int final);

/* 1 when report_progress_update(p, ..., final) would write a stats line or refresh the
 * display now, 0 when it would do nothing (p NULL, or neither is due): lets a caller that
 * samples after every run skip building the sample. */
int report_progress_due(const report_progress *p, int final);

/* A message for the user while exploring ("found reach_error at demo.c:33"; no newline).
 * LINE/OFF: printed on stderr at once (the progress line cleared first). SCREEN: shown in
 * the screen's message area and printed again on stderr when the screen closes, so it
 * outlives the alternate screen. */
void report_progress_note(report_progress *p, const char *msg);

/* Nonzero when OUT/stats could not be written. */
int report_progress_stats_failed(const report_progress *p);

/* Leave the display (terminal restored, notes re-printed, the line ended) and close
 * OUT/stats. NULL is accepted. */
void report_progress_close(report_progress *p);

/* Render the status screen for r into buf (size n) as plain text lines of at most width
 * columns, without escape sequences (status.c; for the screen and its tests). notes are
 * the last messages (may be NULL). Returns the length written. */
size_t report_status_render(const report_sample *r, const char *title, const char *target, double budget_seconds,
                            const char *const *notes, size_t nnotes, unsigned width, char *buf, size_t n);

/* ---- why branch directions stay uncovered (reasons.c) ---- */

/* Directions of the execution tree that no run took, per branch site and direction, as
 * OUT/build/reasons.tsv: a header line, then "site<TAB>dir<TAB>why<TAB>count" lines. site
 * is the site id of report.json's coverage.sites; dir the direction index (its position in
 * "covered"), or "*" for events near the site that are not one of its directions
 * (concretizations); why a tree status name (infeasible, unknown, bounded, diverged, open,
 * pending, ignored) or "concretization"; count the tree directions with that status. */
typedef struct report_reason {
    uint32_t site;
    uint32_t dir; /* REPORT_DIR_ANY for "*" */
    char why[24];
    uint64_t count;
} report_reason;

#define REPORT_DIR_ANY UINT32_MAX

typedef struct report_reasons report_reasons;

/* An empty accumulator; NULL when out of memory (adds to NULL are ignored). */
report_reasons *report_reasons_new(void);
/* Count one direction (site, dir) left with status why (at most 23 characters, copied). */
void report_reasons_add(report_reasons *r, uint32_t site, uint32_t dir, const char *why);
/* Write the accumulated counts to out_dir/build/reasons.tsv atomically (out_dir/build is
 * created when missing: a unit function's exploration directory has none). 0, or -1 with errno. */
int report_reasons_write(const report_reasons *r, const char *out_dir);
/* Free the accumulator. NULL ok. */
void report_reasons_free(report_reasons *r);
/* Read a reasons file (path: the file itself): 0 with *rows (malloc'ed, caller frees) and *n;
 * malformed lines are skipped. -1 with errno when it cannot be read (*rows NULL). */
int report_reasons_read(const char *path, report_reason **rows, size_t *n);

/* ---- SARIF (sarif.c) ---- */

/* Write out_dir/errors.sarif (SARIF 2.1.0) from out_dir/report.json: one rule per kind of
 * error, one result per distinct error with its location (file:line, relative to the
 * directory sympath ran in) and its reproducer as a related location. Written also when
 * there is no error (an empty results array). Works for run, run --db and unit outputs
 * (unit: the errors of every function's exploration). Returns 0, or -1 with *err
 * (malloc'ed) when report.json cannot be read or errors.sarif cannot be written. */
int report_write_sarif(const char *out_dir, char **err);

/* ---- HTML report (html.c and html_*.c) ---- */

/* Write the static HTML report of out_dir into html_dir (NULL: out_dir/report), created
 * if missing: index.html with the summary, the coverage-over-time plots (inline SVG from
 * OUT/stats), the annotated sources, the errors, the limits of the run, and per function
 * (unit) or per query (data) sections. Files missing from out_dir leave their section out
 * with a note. Returns 0, or -1 with *err (malloc'ed) when out_dir has no report.json or
 * the report cannot be written. */
int report_write_html(const char *out_dir, const char *html_dir, char **err);

/* ---- JUnit (junit.c) ---- */

/* The shell command that runs the CMocka test binary exe so that it writes JUnit XML to
 * xml_path: "rm -f XML && CMOCKA_MESSAGE_OUTPUT=xml CMOCKA_XML_FILE=XML EXE". The old
 * file is removed first because CMocka writes the XML to stderr instead of overwriting an
 * existing file. Paths with shell-special characters are single-quoted. The binary's exit
 * status is still the number of failed tests. malloc'ed; NULL when out of memory. */
char *report_junit_run(const char *exe, const char *xml_path);

#endif
