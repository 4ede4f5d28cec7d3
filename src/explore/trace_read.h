/* trace_read.h: decoding a run's shared-memory trace (trace.h) into a run_result (private to explore/). */
#ifndef SYMPATH_TRACE_READ_H
#define SYMPATH_TRACE_READ_H

#include "../expr/expr.h"
#include "../proto/trace.h"
#include "run.h"

/*
 * Decode the records [0, h->nrecs) published in the region that starts at region_base
 * (h is normally region_base itself). nrecs is read once, with acquire order, and
 * clamped to recs_cap, so a region still being written by a live or dead executor is
 * safe to read: only complete, published records are seen.
 *
 * Expressions are interned into cx with expr_raw, so nodes from many runs are shared.
 * *out is overwritten (not freed first: release a previous result with
 * run_result_clear before reusing the struct). It receives inputs (with types, widths
 * and names), events, the error and end records, and the header counters (conc[],
 * forks, dropped, last_site). Fields the trace does not determine (wait_status,
 * seconds) are zero; exit_code is the REC_END status or -1 without REC_END.
 *
 * Returns 0, or -1 on a malformed trace (bad header, unknown record type, expression
 * id unknown or out of order, invalid expression shape, branch condition not of width
 * 1, ...): *err then gets a malloc'ed message (caller frees) and *out keeps everything
 * decoded before the bad record. Also returns -1 when memory runs out. err may be NULL.
 */
int trace_read(const trace_header *h, const void *region_base, expr_ctx *cx, run_result *out, char **err);

#endif
