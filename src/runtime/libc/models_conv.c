/* models_conv.c: string-to-integer conversions (atoi, strtol & co.) over a character source, so parsed numbers stay symbolic. */

/*
 * One core, __sym_libc_scan_integer, reads the number the way C11 7.22.1.4 describes
 * strtol (white space, sign, base prefix, digits), also used by the scanf models
 * (models_scan.c). The magnitude is accumulated in 64 bits with the overflow builtins
 * (llvm.umul/uadd.with.overflow, which the instrumenter models exactly), so the
 * overflow branch is one the solver can flip; each function then clamps as glibc 2.36
 * does: strtol/strtoll to LONG_MIN/LONG_MAX, strtoul/strtoull to ULONG_MAX, with errno
 * ERANGE; a negated unsigned result wraps; an invalid base gives 0 and EINVAL (and leaves
 * *endptr as it was); no
 * digits give 0 with *endptr = the start of the string. atoi/atol/atoll are
 * (int)strtol(s, NULL, 10) etc., as in glibc (so atoi of an overflowing number is
 * (int)LONG_MAX = -1).
 */
#include "models.h"

/* ---- character sources ---- */

int fgetc(void *stream);
int ungetc(int c, void *stream);

int __sym_libc_src_peek(model_src *src)
{
    if (src->s) { /* the NUL reads as -1 (EOF) without a branch: c | -(c == 0) */
        int c = (unsigned char)src->s[src->pos];
        return c | -(c == 0);
    }
    if (!src->have) {
        src->cur = fgetc(src->stream);
        src->have = 1;
    }
    return src->cur;
}

void __sym_libc_src_take(model_src *src)
{
    if (src->s)
        src->pos++;
    else
        src->have = 0;
    src->taken++;
}

int __sym_libc_src_peek2(model_src *src)
{
    if (!src->s || !src->lookahead) return -2;
    if (src->s[src->pos] == '\0' || src->s[src->pos + 1] == '\0') return MODEL_EOF;
    return (unsigned char)src->s[src->pos + 1];
}

void __sym_libc_src_finish(model_src *src)
{
    if (!src->s && src->have && src->cur != MODEL_EOF) ungetc(src->cur, src->stream);
    src->have = 0;
}

/* ---- the integer core ---- */

/* Branch-free: each range selects its value through an all-ones/all-zeros mask, so the
 * caller's test (digit < base) is the only branch per character. */
int __sym_libc_digit_value(int c)
{
    int d = -((c >= '0') & (c <= '9')), l = -((c >= 'a') & (c <= 'z')), u = -((c >= 'A') & (c <= 'Z'));
    return (d & (c - '0')) | (l & (c - 'a' + 10)) | (u & (c - 'A' + 10)) | (~(d | l | u) & 36);
}

uint64_t __sym_libc_scan_integer(model_src *src, int base, size_t width, int skip_space, int *ok, int *neg,
                                 int *overflow)
{
    *ok = *neg = *overflow = 0;
    if (skip_space)
        while (__sym_model_isspace(__sym_libc_src_peek(src))) __sym_libc_src_take(src);
    if (src->s && width == 0 && (base == 10 || base == 0) && sym_model_text_known(src->s + src->pos)) {
        /* a database cell's text (rt_textval.c), e.g. sscanf(argv[i], "%d", &n) in a callback */
        size_t used = 0;
        int64_t v = sym_model_text_int(src->s + src->pos, base, &used);
        if (used) {
            src->pos += used;
            src->taken += used;
            *ok = 1;
            return (uint64_t)v; /* with its sign: *neg stays 0 */
        }
    }
    size_t start = src->pos, start_taken = src->taken, n = 0;
    if (width == 0) width = (size_t)-1;
    int c = __sym_libc_src_peek(src);
    if (n < width && ((c == '-') | (c == '+'))) {
        *neg = c == '-';
        __sym_libc_src_take(src);
        n++;
        c = __sym_libc_src_peek(src);
    }
    uint64_t v = 0;
    int digits = 0, ovf = 0;
    if ((base == 0 || base == 16) && n < width && c == '0') {
        /* a leading 0: octal prefix (base 0), or the start of 0x */
        __sym_libc_src_take(src);
        n++;
        digits = 1;
        c = __sym_libc_src_peek(src);
        if (n < width && (c == 'x' || c == 'X')) {
            int after = __sym_libc_src_peek2(src);
            if (after == -2 || __sym_libc_digit_value(after) < 16) {
                __sym_libc_src_take(src);
                n++;
                c = __sym_libc_src_peek(src);
                base = 16;
                digits = after == -2; /* scanf cannot look ahead: "0x" alone reads as 0 */
            } else if (base == 0) {
                base = 8;
            }
        } else if (base == 0) {
            base = 8;
        }
    }
    if (base == 0) base = 10;
    for (; n < width; n++) {
        /* bases up to 10 (the usual case) need no letters: one unsigned comparison, the
         * easiest form for the solver; larger bases use the masked digit value */
        int d = base <= 10 ? c - '0' : __sym_libc_digit_value(c);
        if ((unsigned)d >= (unsigned)base) break;
        /* the overflow flags are accumulated, not branched on: one decision at the end */
        uint64_t m, s;
        int o1 = __builtin_mul_overflow(v, (uint64_t)base, &m);
        int o2 = __builtin_add_overflow(m, (uint64_t)d, &s);
        ovf |= o1 | o2;
        v = s;
        digits = 1;
        __sym_libc_src_take(src);
        c = __sym_libc_src_peek(src);
    }
    if (!digits) {
        if (src->s) { /* nothing converted: a string source gives back the sign */
            src->pos = start;
            src->taken = start_taken;
        }
        *neg = 0;
        return 0;
    }
    *ok = 1;
    *overflow = ovf;
    return v;
}

/* ---- strtol & co. ---- */

/* Shared by the four strto* models: is_signed selects the clamping rules. */
static uint64_t __sym_libc_strto_common(const char *nptr, char **endptr, int base, int is_signed)
{
    if (base < 0 || base == 1 || base > 36) {
        *__errno_location() = MODEL_EINVAL; /* *endptr untouched, as glibc */
        return 0;
    }
    if (is_signed && (base == 10 || base == 0) && sym_model_text_known(nptr)) {
        /* a database cell's text (rt_textval.c): the cell's integer, not its digits parsed back */
        size_t used = 0;
        int64_t v = sym_model_text_int(nptr, base, &used);
        if (endptr) *endptr = (char *)nptr + used;
        return (uint64_t)v;
    }
    model_src src = {nptr, 0, NULL, 0, 0, 0, 1};
    int ok, neg, ovf;
    uint64_t mag = __sym_libc_scan_integer(&src, base, 0, 1, &ok, &neg, &ovf);
    if (endptr) *endptr = (char *)(ok ? nptr + src.pos : nptr);
    if (!ok) return 0;
    if (is_signed) {
        if (ovf || (neg && mag > (uint64_t)LLONG_MAX + 1) || (!neg && mag > (uint64_t)LLONG_MAX)) {
            *__errno_location() = MODEL_ERANGE;
            return neg ? (uint64_t)LLONG_MIN : (uint64_t)LLONG_MAX;
        }
        return neg ? (uint64_t)0 - mag : mag;
    }
    if (ovf) {
        *__errno_location() = MODEL_ERANGE;
        return ULLONG_MAX;
    }
    return neg ? (uint64_t)0 - mag : mag;
}

long __sym_model_strtol(const char *s, char **end, int base) { return (long)__sym_libc_strto_common(s, end, base, 1); }
long long __sym_model_strtoll(const char *s, char **end, int base)
{
    return (long long)__sym_libc_strto_common(s, end, base, 1);
}
unsigned long __sym_model_strtoul(const char *s, char **end, int base)
{
    return __sym_libc_strto_common(s, end, base, 0);
}
unsigned long long __sym_model_strtoull(const char *s, char **end, int base)
{
    return __sym_libc_strto_common(s, end, base, 0);
}
long __sym_model_strtoimax(const char *s, char **end, int base)
{
    return (long)__sym_libc_strto_common(s, end, base, 1);
}
unsigned long __sym_model_strtoumax(const char *s, char **end, int base)
{
    return __sym_libc_strto_common(s, end, base, 0);
}
/* glibc 2.38+ with C2x maps the names to __isoc23_*; same semantics for our purposes */
long __sym_model___isoc23_strtol(const char *s, char **end, int base)
{
    return (long)__sym_libc_strto_common(s, end, base, 1);
}
long long __sym_model___isoc23_strtoll(const char *s, char **end, int base)
{
    return (long long)__sym_libc_strto_common(s, end, base, 1);
}
unsigned long __sym_model___isoc23_strtoul(const char *s, char **end, int base)
{
    return __sym_libc_strto_common(s, end, base, 0);
}
unsigned long long __sym_model___isoc23_strtoull(const char *s, char **end, int base)
{
    return __sym_libc_strto_common(s, end, base, 0);
}

int __sym_model_atoi(const char *s) { return (int)(long)__sym_libc_strto_common(s, NULL, 10, 1); }
long __sym_model_atol(const char *s) { return (long)__sym_libc_strto_common(s, NULL, 10, 1); }
long long __sym_model_atoll(const char *s) { return (long long)__sym_libc_strto_common(s, NULL, 10, 1); }

int __sym_model_abs(int x) { return x < 0 ? -x : x; }
long __sym_model_labs(long x) { return x < 0 ? -x : x; }
long long __sym_model_llabs(long long x) { return x < 0 ? -x : x; }
