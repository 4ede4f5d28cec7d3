/* data_pq_int.h: what the files of data mode on PostgreSQL (data_pq.c, data_pq_values.c) share: the wrapped results the program holds. */
#ifndef SYMPATH_DATA_PQ_INT_H
#define SYMPATH_DATA_PQ_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <libpq-fe.h>
#include "../dbcommon/data_rt.h"
#include "data_pq.h"

#define MAX_TEXT_BYTES 256 /* bytes of a value that become inputs (then the rest is concrete) */

/* A result of a wrapped SELECT the program holds. */
typedef struct pq_res {
    struct pq_res *next;
    const PGresult *res;
    char site[17];
    uint64_t first_tuple; /* tuple number of row 0; rows are consecutive */
    int nrows;
    bool shadowed;    /* shadows were put on some of its values */
    bool utf8_server; /* the database's encoding is UTF8 (cheaper length terms) */
} pq_res;

/* The wrapped results the program holds, newest first (data_pq.c adds, data_pq_clear frees). */
extern pq_res *data_pq_results;
/* The entry of data_pq_results for r, NULL when r is not a wrapped SELECT's result. */
pq_res *data_pq_find_res(const PGresult *r);

#endif
