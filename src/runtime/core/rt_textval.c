/* rt_textval.c: texts whose number is known as an expression (a database cell as the server printed it), for the strtod and strtol models. */
#include <stdlib.h>
#include <string.h>
#include "rt_internal.h"

/*
 * A database client library hands the program a cell's value as text (libpq's PQgetvalue:
 * "15.12"), and the program converts it with strtod/atof. When the cell is a symbolic double
 * whose text cannot be written as expressions of its bytes (the server's shortest round-trip
 * digits), the runtime registers the text's address and length with the double's expression
 * here; the strtod model (src/runtime/libc/models_float.c) then gives that expression as the
 * result's shadow when it converts exactly that text and gets the expression's concrete value.
 * The check by value makes a stale entry (the memory reused, the text edited) read as concrete.
 * Integer cells are registered too (besides their digits' shadows): atoi/strtol of the text
 * then gives the cell's expression itself rather than the digits parsed back, whose division
 * and remainder chains cost the solver seconds per query.
 */
#define TEXTVAL_MAX 4096

typedef struct textval {
    const char *p;
    size_t len;
    expr *e;    /* the double's 64-bit pattern, or the 64-bit integer when is_int */
    int is_int; /* an integer cell */
} textval;

static textval vals[TEXTVAL_MAX];
static unsigned nvals, next_slot;

void rt_text_value_put(const char *p, size_t len, expr *e, int is_int)
{
    if (!p || !e || rt.trace_full) return;
    for (unsigned i = 0; i < nvals; i++)
        if (vals[i].p == p) {
            vals[i].len = len, vals[i].e = e, vals[i].is_int = is_int;
            return;
        }
    textval *t = nvals < TEXTVAL_MAX ? &vals[nvals++] : &vals[next_slot++ % TEXTVAL_MAX];
    t->p = p, t->len = len, t->e = e, t->is_int = is_int;
    __sym_shadow_active = 1; /* no concrete-mode copy of the model may run past it (rt_slow.h) */
}

void rt_text_value_clear(const char *p, size_t len)
{
    for (unsigned i = 0; i < nvals; i++)
        if (vals[i].p >= p && vals[i].p < p + len) vals[i].p = NULL;
}

void rt_text_value_reset(void) { nvals = next_slot = 0; }

expr *rt_text_value_get(const char *p, size_t len, int *is_int)
{
    for (unsigned i = 0; p && i < nvals; i++)
        if (vals[i].p == p) {
            if (vals[i].len != len) return NULL;
            if (is_int) *is_int = vals[i].is_int;
            return vals[i].e;
        }
    return NULL;
}

/* Declared in src/runtime/libc/models.h (the strtod and strtol models are the callers). */
int sym_model_text_known(const char *p);
double sym_model_text_double(const char *p, size_t used, double value);
int64_t sym_model_text_int(const char *p, int base, size_t *used);

int sym_model_text_known(const char *p)
{
    __sym_ret = NULL;
    for (unsigned i = 0; p && i < nvals; i++)
        if (vals[i].p == p) return 1;
    return 0;
}

double sym_model_text_double(const char *p, size_t used, double value)
{
    __sym_ret = NULL;
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    for (unsigned i = 0; p && i < nvals; i++)
        if (vals[i].p == p) {
            if (vals[i].len != used) break;
            if (!vals[i].is_int && vals[i].e->value == bits) __sym_ret = rt_norm(vals[i].e);
            int64_t iv = (int64_t)vals[i].e->value; /* an integer cell read with strtod: exact up to 2^53 */
            if (vals[i].is_int && iv >= -(1ll << 53) && iv <= (1ll << 53) && (double)iv == value)
                __sym_ret = rt_norm(expr_fp(rt_cx(), EXPR_SITOF, 64, 0, vals[i].e, NULL, NULL));
            break;
        }
    return value;
}

int64_t sym_model_text_int(const char *p, int base, size_t *used)
{
    /* converted here, uninstrumented: the model's own scan would branch on every digit */
    char *e;
    int64_t value = strtoll(p, &e, base);
    *used = (size_t)(e - p);
    __sym_ret = NULL;
    for (unsigned i = 0; p && i < nvals; i++)
        if (vals[i].p == p) {
            if (vals[i].is_int && vals[i].len == *used && vals[i].e->value == (uint64_t)value)
                __sym_ret = rt_norm(vals[i].e);
            break;
        }
    return value;
}
