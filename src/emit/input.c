/* input.c: the input-type table (width, C name, signedness) and formatting of input values as C literals. */
#include "emit.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * One row per input_type, indexed by the enum (designated initialisers keep the
 * rows attached to their enumerators whatever the ORDER in trace.h). Every
 * question about a type is answered from here; no switch elsewhere.
 *
 * Widths are the number of value bits the runtime records. _Bool occupies a
 * byte in memory but carries one bit of information (0/1), and its inputs are
 * symbols of width 1, so its width here is 1. char is signed on x86-64.
 */
typedef struct type_row {
    unsigned width; /* bits */
    int is_signed;  /* sign-extend from width when formatting */
    enum { K_INT, K_BOOL, K_FLOAT, K_PTR } kind;
    const char *c_name; /* what the `type` attribute of <input> says */
} type_row;

static const type_row TYPES[IT_COUNT] = {
    [IT_INT] = {32, 1, K_INT, "int"},
    [IT_UINT] = {32, 0, K_INT, "unsigned int"},
    [IT_CHAR] = {8, 1, K_INT, "char"},
    [IT_UCHAR] = {8, 0, K_INT, "unsigned char"},
    [IT_SCHAR] = {8, 1, K_INT, "signed char"},
    [IT_SHORT] = {16, 1, K_INT, "short"},
    [IT_USHORT] = {16, 0, K_INT, "unsigned short"},
    [IT_LONG] = {64, 1, K_INT, "long"},
    [IT_ULONG] = {64, 0, K_INT, "unsigned long"},
    [IT_LONGLONG] = {64, 1, K_INT, "long long"},
    [IT_ULONGLONG] = {64, 0, K_INT, "unsigned long long"},
    [IT_BOOL] = {1, 0, K_BOOL, "_Bool"},
    [IT_FLOAT] = {32, 1, K_FLOAT, "float"},
    [IT_DOUBLE] = {64, 1, K_FLOAT, "double"},
    [IT_POINTER] = {64, 0, K_PTR, "void *"},
    [IT_SIZE_T] = {64, 0, K_INT, "size_t"},
    [IT_U8] = {8, 0, K_INT, "uint8_t"},
    [IT_U16] = {16, 0, K_INT, "uint16_t"},
    [IT_U32] = {32, 0, K_INT, "uint32_t"},
    [IT_U64] = {64, 0, K_INT, "uint64_t"},
    [IT_S8] = {8, 1, K_INT, "int8_t"},
    [IT_S16] = {16, 1, K_INT, "int16_t"},
    [IT_S32] = {32, 1, K_INT, "int32_t"},
    [IT_S64] = {64, 1, K_INT, "int64_t"},
    [IT_LOFF_T] = {64, 1, K_INT, "loff_t"},
    [IT_BYTE] = {8, 0, K_INT, "unsigned char"},
};

/* Out-of-range types are treated as unsigned 64-bit integers rather than read
 * past the table: a corrupt trace must not crash the writer. */
static const type_row *row(input_type t)
{
    static const type_row fallback = {64, 0, K_INT, "unsigned long long"};
    return (unsigned)t < IT_COUNT && TYPES[t].c_name ? &TYPES[t] : &fallback;
}

unsigned input_type_width(input_type t) { return row(t)->width; }
const char *input_type_c_name(input_type t) { return row(t)->c_name; }
int input_type_signed(input_type t) { return row(t)->is_signed; }

/* Format a floating value so that strtod/strtof give back the same bits. %a is
 * exact for every finite value; infinities print as inf/-inf, NaNs as nan/-nan
 * (the payload is lost, the sign is kept). */
static void format_float(char *buf, size_t len, double d)
{
    if (d != d)
        snprintf(buf, len, "%snan", signbit(d) ? "-" : "");
    else
        snprintf(buf, len, "%a", d);
}

char *input_format_value(char *buf, size_t len, input_type t, uint64_t bits)
{
    const type_row *r = row(t);
    uint64_t mask = r->width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << r->width) - 1);
    uint64_t v = bits & mask;

    if (len == 0) return buf;
    switch (r->kind) {
    case K_BOOL: snprintf(buf, len, "%d", v != 0); break;
    case K_PTR: snprintf(buf, len, "0x%" PRIx64, v); break;
    case K_FLOAT:
        if (r->width == 32) {
            uint32_t b32 = (uint32_t)v;
            float f;
            memcpy(&f, &b32, sizeof f);
            format_float(buf, len, (double)f); /* float -> double is exact */
        } else {
            double d;
            memcpy(&d, &v, sizeof d);
            format_float(buf, len, d);
        }
        break;
    case K_INT:
        if (r->is_signed) {
            if (r->width < 64 && (v >> (r->width - 1)) & 1) v |= ~mask; /* sign-extend */
            snprintf(buf, len, "%" PRId64, (int64_t)v);
        } else {
            snprintf(buf, len, "%" PRIu64, v);
        }
        break;
    }
    return buf;
}
