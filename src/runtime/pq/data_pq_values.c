/* data_pq_values.c: libpq in data mode: values of a wrapped SELECT's rows (PQgetvalue, PQgetisnull, PQgetlength) as data inputs whose SQL terms recompute them, and their release (PQclear). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include "data_pq_int.h"

/* The result and tuple behind (res, row, col) when its value is a data input: text format,
 * inside the result, a symbolic run. */
static pq_res *input_cell(const PGresult *res, int row, int col, uint64_t *tuple)
{
    if (!data_rt_active() || !data_rt_symbolic() || rt.trace_full) return NULL;
    pq_res *p = data_pq_find_res(res);
    if (!p || row < 0 || row >= p->nrows || col < 0 || col >= PQnfields(res) || PQfformat(res, col) != 0) return NULL;
    *tuple = p->first_tuple + (uint64_t)row;
    return p;
}

/*
 * Column col in SQL: *text its text form (the type's output function, as libpq's text
 * format; booleans print 't' / 'f' where the cast to text says 'true'), *bytes the bytes
 * libpq returns, that text in the client encoding, UTF8 (data_pg_connect), and *len their
 * number. On a UTF8 database the text's own octet_length is that number (no conversion
 * per row); on another the converted bytes are counted.
 */
static void col_sql(const pq_res *pr, const PGresult *res, int col, char text[80], char bytes[112], char len[128])
{
    if (PQftype(res, col) == 16)
        snprintf(text, 80, "(CASE WHEN c%d THEN 't' WHEN NOT c%d THEN 'f' END)", col, col);
    else
        snprintf(text, 80, "c%d::text", col);
    snprintf(bytes, 112, "convert_to(%s,'UTF8')", text);
    snprintf(len, 128, "octet_length(%s)", pr->utf8_server ? text : bytes);
}

char *data_pq_getvalue(const PGresult *res, int row, int col)
{
    char *p = PQgetvalue(res, row, col);
    __sym_ret = NULL;
    uint64_t tuple;
    pq_res *pr = p ? input_cell(res, row, col, &tuple) : NULL;
    if (!pr) return p;
    int len = PQgetlength(res, row, col);
    char text[80], bytes[112], olen[128];
    col_sql(pr, res, col, text, bytes, olen);
    /* bytes 0..len: the NUL too, so a loop to the terminator reads symbolic bytes */
    for (int k = 0; k <= len && k < MAX_TEXT_BYTES && !rt.trace_full; k++) {
        char term[320];
        snprintf(term, sizeof term, "(CASE WHEN %s > %d THEN get_byte(%s,%d) ELSE 0 END)", olen, k, bytes, k);
        expr *e = data_rt_input(8, IT_U8, pr->site, tuple, term, (uint8_t)p[k]);
        if (e) {
            rt_shadow_put((uintptr_t)(p + k), &e, 1);
            pr->shadowed = true;
        }
    }
    return p;
}

int data_pq_getisnull(const PGresult *res, int row, int col)
{
    int v = PQgetisnull(res, row, col);
    __sym_ret = NULL;
    uint64_t tuple;
    pq_res *pr = input_cell(res, row, col, &tuple);
    if (pr) {
        char term[64];
        snprintf(term, sizeof term, "(CASE WHEN c%d IS NULL THEN 1 ELSE 0 END)", col);
        __sym_ret = data_rt_input(32, IT_S32, pr->site, tuple, term, (uint32_t)v);
    }
    return v;
}

int data_pq_getlength(const PGresult *res, int row, int col)
{
    int v = PQgetlength(res, row, col);
    __sym_ret = NULL;
    uint64_t tuple;
    pq_res *pr = input_cell(res, row, col, &tuple);
    if (pr) {
        char text[80], bytes[112], olen[128], term[160];
        col_sql(pr, res, col, text, bytes, olen);
        snprintf(term, sizeof term, "COALESCE(%s,0)", olen);
        __sym_ret = data_rt_input(32, IT_S32, pr->site, tuple, term, (uint32_t)v);
    }
    return v;
}

void data_pq_clear(PGresult *res)
{
    __sym_ret = NULL;
    for (pq_res **pp = &data_pq_results; *pp; pp = &(*pp)->next)
        if ((*pp)->res == res) {
            pq_res *p = *pp;
            *pp = p->next;
            if (p->shadowed) /* the values' memory is freed below: no stale shadows on it */
                for (int row = 0; row < p->nrows; row++)
                    for (int col = 0; col < PQnfields(res); col++) {
                        int len = PQgetlength(res, row, col);
                        rt_shadow_clear((uintptr_t)PQgetvalue(res, row, col),
                                        (size_t)(len < MAX_TEXT_BYTES ? len + 1 : MAX_TEXT_BYTES));
                    }
            free(p);
            break;
        }
    PQclear(res);
}
