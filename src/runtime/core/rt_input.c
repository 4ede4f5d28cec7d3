/* rt_input.c: input functions (sympath.h, SV-COMP/Test-Comp __VERIFIER_nondet_*), assumptions and assertions. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../../../include/sympath.h"
#include "rt_internal.h"

void rt_input_reset(void) { rt.ninput = 0; }

/* Parameter `index` of the current call as the instrumented caller set it, or NULL
 * when concrete or stale (same check as __sym_get_param, which lives in rt_fast.c). */
static expr *param(uint32_t index, uint64_t value)
{
    expr *e = __sym_params[index];
    return e && e->value == value ? e : NULL;
}

static void write_name(const char *name)
{
    size_t total = strlen(name) + 1; /* chunks carry the terminating NUL */
    for (size_t off = 0; off < total; off += 24) {
        trace_rec r;
        memset(&r, 0, sizeof r);
        r.type = REC_NAME;
        size_t n = total - off < 24 ? total - off : 24;
        memcpy(r.u.name.text, name + off, n);
        if (rt_trace_append(&r, 0)) rt.hdr->dropped++;
    }
}

/* A NaN input becomes the quiet NaN of its sign: a test case writes NaNs as nan / -nan
 * (emit/input.c), which replay reads back as exactly that, so the run and the replay see
 * the same bits whatever payload the solver's model had. Other values are unchanged. */
static uint64_t canonical_nan(uint64_t v, unsigned width)
{
    uint64_t sign = 1ull << (width - 1), exp = width == 32 ? 0x7f800000ull : 0x7ff0000000000000ull;
    uint64_t quiet = width == 32 ? 0x00400000ull : 0x0008000000000000ull;
    if ((v & exp) == exp && (v & ~(sign | exp)) != 0) return (v & sign) | exp | quiet;
    return v;
}

/*
 * Read the next input value (index k = number of values consumed before, in call
 * order). Values past the explorer's vector read as 0; past the input area's
 * capacity they are 0, concrete, counted as CONC_INPUT_OVERFLOW and not traced
 * (they could not be given another value anyway). Otherwise a REC_INPUT is
 * written: expr_id is the symbol's trace id, or 0 for a non-symbolic input
 * (floats, pointers), followed by REC_NAME chunks when name is not NULL.
 * Returns the symbol (NULL when not symbolic) and the masked value in *val.
 */
static expr *next_input(input_type it, unsigned width, const char *name, int symbolic, const uint64_t *given,
                        uint64_t *val);

expr *rt_next_input(input_type it, unsigned width, const char *name, int symbolic, uint64_t *val)
{
    return next_input(it, width, name, symbolic, NULL, val);
}

expr *rt_env_input(input_type it, unsigned width, const char *name, uint64_t value)
{
    uint64_t v;
    return next_input(it, width, name, 1, &value, &v);
}

/* rt_next_input, with the value taken from *given instead of the vector when not NULL. */
static expr *next_input(input_type it, unsigned width, const char *name, int symbolic, const uint64_t *given,
                        uint64_t *val)
{
    trace_header *h = rt.hdr;
    *val = 0;
    if (!h) /* the runtime could not even map a private region: everything is concrete 0 */
        return NULL;
    uint64_t k = rt.ninput;
    if (h->inputs_limit && k >= h->inputs_limit) {
        fflush(stdout);
        fflush(stderr);
        rt_end_run(SYM_INPUTS_DONE_EXIT_CODE);
        _exit(SYM_INPUTS_DONE_EXIT_CODE);
    }
    rt.ninput++;
    if (!rt.trace_off) h->inputs_read = rt.ninput;
    if (k >= h->inputs_cap) {
        rt_count_conc(CONC_INPUT_OVERFLOW);
        *val = 0;
        return NULL;
    }
    uint64_t v = given ? *given & expr_mask(width) : k < h->ninputs ? rt.inputs[k] & expr_mask(width) : 0;
    if (it == IT_FLOAT || it == IT_DOUBLE) v = canonical_nan(v, width);
    *val = v;
    /* once the trace is full the run has gone concrete (rt_trace.c) */
    expr *e = symbolic && !rt.trace_full ? expr_symbol(rt_cx(), (uint32_t)k, width, v) : NULL;
    if (rt.trace_off) return e;
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_INPUT;
    r.u.in.itype = (uint8_t)it;
    r.u.in.width = (uint8_t)width;
    r.u.in.index = (uint32_t)k;
    r.u.in.expr_id = e ? rt_trace_expr(e) : 0;
    r.u.in.value = v;
    if ((e && !r.u.in.expr_id) || rt_trace_append(&r, 0)) {
        h->dropped++;
        return e;
    }
    if (name) write_name(name);
    return e;
}

/* A symbolic integer input: the value, with its symbol left in the return slot for
 * the instrumented caller (which reads it with __sym_get_ret right after the call). */
static uint64_t int_input(input_type it, unsigned width, const char *name)
{
    uint64_t v;
    __sym_ret = rt_next_input(it, width, name, 1, &v);
    return v;
}

/* A non-symbolic input (pointer, 128-bit integer): value only, counted as a concretization. */
static uint64_t plain_input(input_type it, unsigned width, uint32_t conc)
{
    uint64_t v;
    rt_next_input(it, width, NULL, 0, &v);
    rt_count_conc(conc);
    __sym_ret = NULL;
    return v;
}

/* Symbolic float / double inputs: the symbol is the IEEE bit pattern (32 / 64 bits),
 * which the instrumented caller reads as the float's shadow (expr.h, "Floating point"). */
static float float_input(const char *name)
{
    uint32_t bits = (uint32_t)int_input(IT_FLOAT, 32, name);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double double_input(const char *name)
{
    uint64_t bits = int_input(IT_DOUBLE, 64, name);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* ---- sympath.h ---- */
int sym_int(const char *name) { return (int)int_input(IT_INT, 32, name); }
unsigned sym_uint(const char *name) { return (unsigned)int_input(IT_UINT, 32, name); }
long sym_long(const char *name) { return (long)int_input(IT_LONG, 64, name); }
unsigned long sym_ulong(const char *name) { return (unsigned long)int_input(IT_ULONG, 64, name); }
char sym_char(const char *name) { return (char)int_input(IT_CHAR, 8, name); }
unsigned char sym_uchar(const char *name) { return (unsigned char)int_input(IT_UCHAR, 8, name); }
short sym_short(const char *name) { return (short)int_input(IT_SHORT, 16, name); }
unsigned short sym_ushort(const char *name) { return (unsigned short)int_input(IT_USHORT, 16, name); }
/* _Bool is returned as an LLVM i1, so its symbol has width 1. */
_Bool sym_bool(const char *name) { return (_Bool)int_input(IT_BOOL, 1, name); }
int8_t sym_i8(const char *name) { return (int8_t)int_input(IT_S8, 8, name); }
uint8_t sym_u8(const char *name) { return (uint8_t)int_input(IT_U8, 8, name); }
int16_t sym_i16(const char *name) { return (int16_t)int_input(IT_S16, 16, name); }
uint16_t sym_u16(const char *name) { return (uint16_t)int_input(IT_U16, 16, name); }
int32_t sym_i32(const char *name) { return (int32_t)int_input(IT_S32, 32, name); }
uint32_t sym_u32(const char *name) { return (uint32_t)int_input(IT_U32, 32, name); }
int64_t sym_i64(const char *name) { return (int64_t)int_input(IT_S64, 64, name); }
uint64_t sym_u64(const char *name) { return int_input(IT_U64, 64, name); }
size_t sym_size_t(const char *name) { return (size_t)int_input(IT_SIZE_T, 64, name); }
float sym_float(const char *name) { return float_input(name); }
double sym_double(const char *name) { return double_input(name); }

/* n inputs of type IT_BYTE; the name follows the first one only. The bytes'
 * symbols go straight into buf's shadow. */
void sym_bytes(void *buf, size_t n, const char *name)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        expr *e = rt_next_input(IT_BYTE, 8, i == 0 ? name : NULL, 1, &v);
        p[i] = (unsigned char)v;
        if (e)
            rt_shadow_put((uintptr_t)(p + i), &e, 1);
        else
            rt_shadow_clear((uintptr_t)(p + i), 1);
    }
    __sym_ret = NULL;
}

/* cond's shadow comes from parameter slot 0 (the instrumenter sets the parameters
 * before calling a runtime API function). A false assumption ends the run silently. */
static void assume(int cond)
{
    expr *e = param(0, (uint32_t)cond);
    __sym_ret = NULL;
    if (e) {
        expr_ctx *cx = rt_cx();
        expr *c = expr_cmp(cx, PRED_NE, e, expr_const(cx, 0, e->width));
        if (c->op != EXPR_CONST) rt_trace_event(BK_ASSUME, 0, cond != 0, c, 0);
    }
    if (!cond) {
        fflush(stdout);
        fflush(stderr);
        rt_end_run(SYM_ASSUME_EXIT_CODE);
        _exit(SYM_ASSUME_EXIT_CODE);
    }
}

/* The result has no shadow: the argument's expression (the parameter slot) is not read. */
uint64_t sym_concrete(uint64_t v)
{
    __sym_ret = NULL;
    return v;
}

void sym_assume(int cond) { assume(cond); }
__attribute__((weak)) void __VERIFIER_assume(int cond) { assume(cond); }

/* A symbolic assertion is recorded as a safety check (BK_CHECK, arg 2): cond is
 * (arg == 0), so direction 1 is the failure the explorer may try to reach. */
void sym_assert(int cond)
{
    expr *e = param(0, (uint32_t)cond);
    __sym_ret = NULL;
    if (e) {
        expr_ctx *cx = rt_cx();
        expr *c = expr_cmp(cx, PRED_EQ, e, expr_const(cx, 0, e->width));
        if (c->op != EXPR_CONST) rt_trace_event(BK_CHECK, 0, cond == 0, c, 2);
    }
    if (!cond) __sym_error(ERR_ASSERT, 0);
}

/* ---- SV-COMP / Test-Comp input functions ----
 * Weak, like __VERIFIER_assume above: a program that defines one of them itself
 * keeps its own definition instead of failing to link. */
#define WEAK __attribute__((weak))
/* The functions narrower than 64 bits return their value extended to the whole
 * register (an alias of a function returning long long): a program that declares
 * one with another return type (`int __VERIFIER_nondet_bool()`, `long
 * __VERIFIER_nondet_int()`, or no prototype at all) reads a well-defined value
 * instead of the garbage the ABI leaves above a _Bool or char. The return slot
 * holds the expression extended the same way (by the type's signedness), so the
 * getter's resize to the caller's width is a truncation, right whatever the value's
 * sign (rt_abi.h); for the declared width it folds back to the symbol. replay.c
 * returns the same values. */
static uint64_t wide_input(input_type it, unsigned width, int is_signed)
{
    uint64_t v = int_input(it, width, NULL);
    if (__sym_ret) __sym_ret = __sym_cast_slow(is_signed ? EXPR_SEXT : EXPR_ZEXT, width, 64, __sym_ret);
    return v;
}
/* The input functions of other names (`__VERIFIER_nondet_unsigned_int`, ...) that
 * build.c defines from their declared types (src/instrument/nondet.c) call this one:
 * an input of type it, `width` (1..64) bits, returned extended to 64 bits by its
 * signedness, the symbol in the return slot extended the same way. */
uint64_t __sym_input_int(uint32_t it, uint32_t width, uint32_t is_signed)
{
    if (width < 1 || width > 64) width = 64;
    uint64_t v = wide_input((input_type)it, width, is_signed != 0);
    if (is_signed && width < 64 && (v >> (width - 1)) & 1) v |= ~expr_mask(width);
    return v;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wattribute-alias" /* the type difference is the point */
#endif
#define NARROW_NONDET(T, name, it, width, ext)                                                                   \
    static long long name##_wide(void) { return (long long)(ext)wide_input(it, width, (long long)(ext)-1 < 0); } \
    WEAK T name(void) __attribute__((alias(#name "_wide")));
NARROW_NONDET(int, __VERIFIER_nondet_int, IT_INT, 32, int)
NARROW_NONDET(unsigned int, __VERIFIER_nondet_uint, IT_UINT, 32, unsigned)
NARROW_NONDET(unsigned int, __VERIFIER_nondet_unsigned, IT_UINT, 32, unsigned)
WEAK long __VERIFIER_nondet_long(void) { return (long)int_input(IT_LONG, 64, NULL); }
WEAK unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)int_input(IT_ULONG, 64, NULL); }
WEAK long long __VERIFIER_nondet_longlong(void) { return (long long)int_input(IT_LONGLONG, 64, NULL); }
WEAK unsigned long long __VERIFIER_nondet_ulonglong(void) { return int_input(IT_ULONGLONG, 64, NULL); }
NARROW_NONDET(char, __VERIFIER_nondet_char, IT_CHAR, 8, char)
NARROW_NONDET(unsigned char, __VERIFIER_nondet_uchar, IT_UCHAR, 8, unsigned char)
NARROW_NONDET(signed char, __VERIFIER_nondet_schar, IT_SCHAR, 8, signed char)
NARROW_NONDET(short, __VERIFIER_nondet_short, IT_SHORT, 16, short)
NARROW_NONDET(unsigned short, __VERIFIER_nondet_ushort, IT_USHORT, 16, unsigned short)
NARROW_NONDET(_Bool, __VERIFIER_nondet_bool, IT_BOOL, 1, _Bool)
NARROW_NONDET(_Bool, __VERIFIER_nondet__Bool, IT_BOOL, 1, _Bool)
WEAK size_t __VERIFIER_nondet_size_t(void) { return (size_t)int_input(IT_SIZE_T, 64, NULL); }
NARROW_NONDET(unsigned char, __VERIFIER_nondet_u8, IT_U8, 8, unsigned char)
NARROW_NONDET(unsigned short, __VERIFIER_nondet_u16, IT_U16, 16, unsigned short)
NARROW_NONDET(unsigned int, __VERIFIER_nondet_u32, IT_U32, 32, unsigned)
WEAK unsigned long __VERIFIER_nondet_u64(void) { return (unsigned long)int_input(IT_U64, 64, NULL); }
WEAK long long __VERIFIER_nondet_loff_t(void) { return (long long)int_input(IT_LOFF_T, 64, NULL); }
WEAK unsigned long __VERIFIER_nondet_sector_t(void) { return (unsigned long)int_input(IT_U64, 64, NULL); }

WEAK float __VERIFIER_nondet_float(void) { return float_input(NULL); }
WEAK double __VERIFIER_nondet_double(void) { return double_input(NULL); }

WEAK void *__VERIFIER_nondet_pointer(void)
{
    return (void *)(uintptr_t)plain_input(IT_POINTER, 64, CONC_POINTER_INPUT);
}
WEAK char *__VERIFIER_nondet_pchar(void) { return (char *)(uintptr_t)plain_input(IT_POINTER, 64, CONC_POINTER_INPUT); }

/* 128-bit inputs: one 64-bit value of the vector, extended; not symbolic (expressions are at
 * most 64 bits wide), counted as CONC_WIDE_INT. The replay library reads the same value. */
WEAK __int128 __VERIFIER_nondet_int128(void) { return (__int128)(int64_t)plain_input(IT_LONGLONG, 64, CONC_WIDE_INT); }
WEAK unsigned __int128 __VERIFIER_nondet_uint128(void)
{
    return (unsigned __int128)plain_input(IT_ULONGLONG, 64, CONC_WIDE_INT);
}
