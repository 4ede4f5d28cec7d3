/* models_scan.c: sscanf/scanf/fscanf (and their v- and __isoc99_ forms) as one scanning core over a character source, so scanned numbers and words stay symbolic. */

/*
 * The core follows C11 7.21.6.2 as glibc implements it: white space in the format
 * skips any white space; an ordinary character must match; a conversion is
 * %[*][width][hh|h|l|ll|j|z|t|L|q]<conv> with conv one of d i u o x X p (integers, via
 * model_scan_integer: the stored value is the symbolic magnitude, negated when a '-'
 * was read, truncated to the target width), c, s, [set] (bytes copied one by one, so
 * their shadows travel), n, %%, and the floating-point conversions a e f g (read
 * with strtod & co., whose models, models_float.c, keep short decimals symbolic). The result is the
 * number of items assigned, or EOF when the input ended before any item was assigned.
 *
 * Streams are read with fgetc/ungetc (one character of push-back); the models of those
 * belong to the stdin/file models (another file), and without them the calls reach libc.
 */
#include "models.h"

extern void *stdin;
double strtod(const char *s, char **end);
float strtof(const char *s, char **end);
long double strtold(const char *s, char **end);

/* Is c in the scanset that starts at set (after '[' and an optional '^'), ending at the
 * ']' at *end? A ']' or '-' right at the start is literal; a-b is a range. */
static int __sym_libc_in_scanset(int c, const char *set, const char *end)
{
    int r = 0; /* a disjunction, not a branch per member (the set is concrete) */
    for (const char *p = set; p < end; p++) {
        if (p + 2 < end && p[1] == '-') {
            r |= (c >= (unsigned char)p[0]) & (c <= (unsigned char)p[2]);
            p += 2;
            continue;
        }
        r |= c == (unsigned char)*p;
    }
    return r;
}

/* Store an integer conversion result through the next pointer argument, by size. */
static void __sym_libc_store_int(va_list *ap, int size, uint64_t v)
{
    switch (size) {
    case -2: *va_arg(*ap, signed char *) = (signed char)v; break;
    case -1: *va_arg(*ap, short *) = (short)v; break;
    case 1: *va_arg(*ap, long *) = (long)v; break;
    case 2: *va_arg(*ap, long long *) = (long long)v; break;
    default: *va_arg(*ap, int *) = (int)v; break;
    }
}

/* A floating-point conversion: gather the characters that can belong to a number,
 * convert them with the real strto{f,d,ld} (concrete). Returns 1 if one was read. */
static int __sym_libc_scan_float(model_src *src, size_t width, int size, int store, va_list *ap)
{
    char buf[128];
    size_t n = 0;
    if (width == 0 || width > sizeof buf - 1) width = sizeof buf - 1;
    for (int c = __sym_libc_src_peek(src); n < width && c != MODEL_EOF; c = __sym_libc_src_peek(src)) {
        int ok = __sym_model_isxdigit(c) || c == '+' || c == '-' || c == '.' || c == 'x' || c == 'X' || c == 'p' ||
                 c == 'P' || c == 'n' || c == 'N' || c == 'i' || c == 'I' || c == 't' || c == 'T' || c == 'y' ||
                 c == 'Y';
        if (!ok) break;
        buf[n++] = (char)c;
        __sym_libc_src_take(src);
    }
    buf[n] = '\0';
    char *end;
    long double v = strtold(buf, &end);
    if (end == buf) return 0;
    if (store) {
        if (size == 3)
            *va_arg(*ap, long double *) = v;
        else if (size >= 1)
            *va_arg(*ap, double *) = strtod(buf, NULL);
        else
            *va_arg(*ap, float *) = strtof(buf, NULL);
    }
    return 1;
}

static int __sym_libc_scan_core(model_src *src, const char *fmt, va_list ap0)
{
    va_list ap;
    va_copy(ap, ap0);
    int assigned = 0, converted = 0, eof = 0;
    const unsigned char *f = (const unsigned char *)fmt;
    while (*f != '\0') {
        if (__sym_model_isspace(*f)) {
            while (__sym_model_isspace(*f)) f++;
            while (__sym_model_isspace(__sym_libc_src_peek(src))) __sym_libc_src_take(src);
            continue;
        }
        if (*f != '%' || f[1] == '%') {
            if (*f == '%') {
                f++;
                while (__sym_model_isspace(__sym_libc_src_peek(src))) __sym_libc_src_take(src);
            }
            int c = __sym_libc_src_peek(src);
            if (c == MODEL_EOF) {
                eof = 1;
                break;
            }
            if (c != *f) break;
            __sym_libc_src_take(src);
            f++;
            continue;
        }
        f++;
        int store = 1;
        if (*f == '*') {
            store = 0;
            f++;
        }
        size_t width = 0;
        while (*f >= '0' && *f <= '9') width = width * 10 + (size_t)(*f++ - '0');
        int size = 0; /* -2 hh, -1 h, 0 int, 1 l, 2 ll, 3 L */
        for (;; f++) {
            if (*f == 'h')
                size = size == -1 ? -2 : -1;
            else if (*f == 'l')
                size = size == 1 ? 2 : 1;
            else if (*f == 'j' || *f == 'z' || *f == 't' || *f == 'q')
                size = *f == 'q' ? 2 : 1;
            else if (*f == 'L')
                size = 3;
            else
                break;
        }
        int conv = *f++;
        if (conv == '\0') break;
        if (conv == 'n') {
            if (store) __sym_libc_store_int(&ap, size, src->taken);
            continue;
        }
        if (conv != 'c' && conv != '[') /* every other conversion skips white space */
            while (__sym_model_isspace(__sym_libc_src_peek(src))) __sym_libc_src_take(src);
        if (__sym_libc_src_peek(src) == MODEL_EOF) {
            eof = 1;
            break;
        }
        if (conv == 'd' || conv == 'i' || conv == 'u' || conv == 'o' || conv == 'x' || conv == 'X' || conv == 'p') {
            int base = conv == 'd' || conv == 'u' ? 10 : conv == 'i' ? 0 : conv == 'o' ? 8 : 16;
            int ok, neg, ovf;
            uint64_t v = __sym_libc_scan_integer(src, base, width, 0, &ok, &neg, &ovf);
            if (!ok) break;
            if (neg) v = (uint64_t)0 - v;
            converted++;
            if (store) {
                if (conv == 'p')
                    *va_arg(ap, void **) = (void *)(uintptr_t)v;
                else
                    __sym_libc_store_int(&ap, size, v);
                assigned++;
            }
        } else if (conv == 'c') {
            if (width == 0) width = 1;
            char *dst = store ? va_arg(ap, char *) : NULL;
            size_t n = 0;
            for (int c = __sym_libc_src_peek(src); n < width && c != MODEL_EOF; c = __sym_libc_src_peek(src)) {
                if (dst) dst[n] = src->s ? src->s[src->pos] : (char)c;
                n++;
                __sym_libc_src_take(src);
            }
            converted++;
            if (store) assigned++;
        } else if (conv == 's' || conv == '[') {
            const unsigned char *set = f, *set_end = f;
            int negate = 0;
            if (conv == '[') {
                if (*set == '^') {
                    negate = 1;
                    set++;
                }
                set_end = set;
                if (*set_end == ']') set_end++;
                while (*set_end != '\0' && *set_end != ']') set_end++;
                if (*set_end == '\0') break; /* malformed set: matching failure */
                f = set_end + 1;
            }
            char *dst = store ? va_arg(ap, char *) : NULL;
            size_t n = 0;
            for (int c = __sym_libc_src_peek(src); width == 0 || n < width; c = __sym_libc_src_peek(src)) {
                int take = conv == 's' ? !__sym_model_isspace(c)
                                       : __sym_libc_in_scanset(c, (const char *)set, (const char *)set_end) != negate;
                if (!((c != MODEL_EOF) & take)) /* one branch per character */
                    break;
                if (dst) /* a string source: copy the byte itself, shadow and all */
                    dst[n] = src->s ? src->s[src->pos] : (char)c;
                n++;
                __sym_libc_src_take(src);
            }
            if (n == 0) break;
            if (dst) dst[n] = '\0';
            converted++;
            if (store) assigned++;
        } else if (conv == 'a' || conv == 'e' || conv == 'f' || conv == 'g' || conv == 'A' || conv == 'E' ||
                   conv == 'F' || conv == 'G') {
            if (!__sym_libc_scan_float(src, width, size, store, &ap)) break;
            converted++;
            if (store) assigned++;
        } else {
            break; /* unknown conversion: stop, as glibc does */
        }
    }
    va_end(ap);
    __sym_libc_src_finish(src);
    (void)converted;
    /* glibc: EOF when the input failed before anything was assigned (C11 says "before the
     * first conversion"; glibc does not count suppressed ones) */
    return eof && assigned == 0 ? MODEL_EOF : assigned;
}

int __sym_model_vsscanf(const char *s, const char *fmt, va_list ap)
{
    model_src src = {s, 0, NULL, 0, 0, 0, 0};
    return __sym_libc_scan_core(&src, fmt, ap);
}

int __sym_model_vfscanf(void *stream, const char *fmt, va_list ap)
{
    model_src src = {NULL, 0, stream, 0, 0, 0, 0};
    return __sym_libc_scan_core(&src, fmt, ap);
}

int __sym_model_vscanf(const char *fmt, va_list ap) { return __sym_model_vfscanf(stdin, fmt, ap); }

int __sym_model_sscanf(const char *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = __sym_model_vsscanf(s, fmt, ap);
    va_end(ap);
    return r;
}

int __sym_model_fscanf(void *stream, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = __sym_model_vfscanf(stream, fmt, ap);
    va_end(ap);
    return r;
}

int __sym_model_scanf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = __sym_model_vfscanf(stdin, fmt, ap);
    va_end(ap);
    return r;
}

/* The names glibc's <stdio.h> gives these functions in C99 mode and later. */
int __sym_model___isoc99_vsscanf(const char *s, const char *fmt, va_list ap) { return __sym_model_vsscanf(s, fmt, ap); }
int __sym_model___isoc99_vfscanf(void *st, const char *fmt, va_list ap) { return __sym_model_vfscanf(st, fmt, ap); }
int __sym_model___isoc99_vscanf(const char *fmt, va_list ap) { return __sym_model_vfscanf(stdin, fmt, ap); }

int __sym_model___isoc99_sscanf(const char *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = __sym_model_vsscanf(s, fmt, ap);
    va_end(ap);
    return r;
}

int __sym_model___isoc99_fscanf(void *stream, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = __sym_model_vfscanf(stream, fmt, ap);
    va_end(ap);
    return r;
}

int __sym_model___isoc99_scanf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = __sym_model_vfscanf(stdin, fmt, ap);
    va_end(ap);
    return r;
}
