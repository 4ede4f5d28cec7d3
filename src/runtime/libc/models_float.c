/* models_float.c: strtod, strtof and atof over symbolic text, so that parsed decimals stay symbolic (Clinger's exact fast path). */

/*
 * A decimal "[space][sign]digits[.digits][e[sign]digits]" whose significand has at most 15
 * significant digits (7 for strtof) is an integer m < 2^53 (2^24) that the target type holds
 * exactly; with a power of ten 10^k, |k| <= 22 (10), also exact, the value m * 10^k or
 * m / 10^-k takes one correctly rounded operation, which is the correctly rounded value of the
 * decimal: what glibc's strtod returns (W. D. Clinger, "How to read floating point numbers
 * accurately", PLDI 1990, the fast path). Those conversions are computed here from the bytes,
 * so the result is an expression of them. Anything else (more digits, larger exponents, hex
 * floats, inf, nan) is converted by glibc for real, concretely. A text registered by the
 * runtime as a database cell's printed value (rt_textval.c) gets that cell's expression.
 * errno is never set on the fast path (it cannot overflow or underflow).
 */
#include "models.h"

double strtod(const char *s, char **end);
float strtof(const char *s, char **end);

/* A scanned decimal: value (-1)^neg * m * 10^exp10. */
typedef struct __sym_libc_dec {
    uint64_t m;  /* the significand's digits as an integer */
    int sig;     /* significant digits in m (from the first non-zero one) */
    int ovf;     /* m overflowed 64 bits */
    int exp10;   /* exponent minus the digits after the point */
    int neg;     /* a '-' sign */
    size_t used; /* characters converted */
} __sym_libc_dec;

/* Scan s as strtod's decimal form. Returns 1 with *d, 0 when no digits (nothing converted),
 * -1 for the forms left to glibc (hex, inf, nan). One branch per character read. */
static int __sym_libc_scan_decimal(const char *s, __sym_libc_dec *d)
{
    size_t i = 0;
    while (__sym_model_isspace((unsigned char)s[i])) i++;
    int c = (unsigned char)s[i];
    d->neg = 0;
    if ((c == '-') | (c == '+')) {
        d->neg = c == '-';
        i++;
    }
    uint64_t m = 0;
    int ovf = 0, sig = 0, digits = 0, frac = 0;
    for (;; i++) {
        unsigned dg = (unsigned)((unsigned char)s[i] - '0');
        if (dg >= 10) break;
        uint64_t t;
        ovf |= __builtin_mul_overflow(m, (uint64_t)10, &t) | __builtin_add_overflow(t, (uint64_t)dg, &m);
        sig += m != 0;
        digits++;
    }
    c = (unsigned char)s[i];
    if (((c | 32) == 'x') & (digits == 1) & (m == 0)) return -1; /* 0x...: a hex float */
    if (c == '.') {
        i++;
        for (;; i++) {
            unsigned dg = (unsigned)((unsigned char)s[i] - '0');
            if (dg >= 10) break;
            uint64_t t;
            ovf |= __builtin_mul_overflow(m, (uint64_t)10, &t) | __builtin_add_overflow(t, (uint64_t)dg, &m);
            sig += m != 0;
            digits++;
            frac++;
        }
    }
    if (!digits) {
        c = (unsigned char)s[i];
        return (((c | 32) == 'i') | ((c | 32) == 'n')) ? -1 : 0; /* inf, nan; else nothing */
    }
    int e = 0;
    if (((unsigned char)s[i] | 32) == 'e') {
        size_t j = i + 1;
        int en = 0, ec = (unsigned char)s[j];
        if ((ec == '-') | (ec == '+')) {
            en = ec == '-';
            j++;
        }
        if ((unsigned)((unsigned char)s[j] - '0') < 10) {
            for (;; j++) {
                unsigned dg = (unsigned)((unsigned char)s[j] - '0');
                if (dg >= 10) break;
                int big = e >= 100000;
                e = big ? e : e * 10 + (int)dg; /* saturates: any such exponent leaves the fast path */
            }
            e = en ? -e : e;
            i = j;
        }
    }
    d->m = m;
    d->sig = sig;
    d->ovf = ovf;
    d->exp10 = e - frac;
    d->used = i;
    return 1;
}

/* 10^k for 0 <= k <= 22, exact */
static double __sym_libc_pow10(int k)
{
    double p = 1.0;
    for (int i = 0; i < k; i++) p *= 10.0;
    return p;
}

double __sym_model_strtod(const char *s, char **end)
{
    if (sym_model_text_known(s)) { /* a database cell's text: its expression */
        char *e;
        double v = strtod(s, &e);
        if (end) *end = e;
        return sym_model_text_double(s, (size_t)(e - s), v);
    }
    __sym_libc_dec d;
    int ok = __sym_libc_scan_decimal(s, &d);
    if (ok < 0 || (ok > 0 && (d.ovf | (d.sig > 15) | (d.exp10 > 22) | (d.exp10 < -22)))) return strtod(s, end);
    if (!ok) {
        if (end) *end = (char *)s;
        return 0.0;
    }
    if (end) *end = (char *)s + d.used;
    if (d.m == 0) return d.neg ? -0.0 : 0.0;
    /* the sign on the integer, so the result is a monotone chain of it (expr_fp.c turns its
     * comparisons with constants into integer ones) */
    double r = (double)(d.neg ? -(int64_t)d.m : (int64_t)d.m);
    if (d.exp10 < 0) return r / __sym_libc_pow10(-d.exp10);
    return r * __sym_libc_pow10(d.exp10);
}

float __sym_model_strtof(const char *s, char **end)
{
    if (sym_model_text_known(s)) {
        char *e;
        double v = strtod(s, &e);
        if (end) *end = e;
        return (float)sym_model_text_double(s, (size_t)(e - s), v);
    }
    __sym_libc_dec d;
    int ok = __sym_libc_scan_decimal(s, &d);
    if (ok < 0 || (ok > 0 && (d.ovf | (d.sig > 7) | (d.exp10 > 10) | (d.exp10 < -10)))) return strtof(s, end);
    if (!ok) {
        if (end) *end = (char *)s;
        return 0.0f;
    }
    if (end) *end = (char *)s + d.used;
    if (d.m == 0) return d.neg ? -0.0f : 0.0f;
    float r = (float)(d.neg ? -(int64_t)d.m : (int64_t)d.m);
    float p = (float)__sym_libc_pow10(d.exp10 < 0 ? -d.exp10 : d.exp10); /* exact: 10^10 < 2^24 * 2^10 */
    if (d.exp10 < 0) return r / p;
    return r * p;
}

double __sym_model_atof(const char *s) { return __sym_model_strtod(s, (char **)0); }
