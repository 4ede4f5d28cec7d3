/* models_print.c: sprintf/snprintf (and v-forms) writing symbolic characters for integer, string and character conversions, so a program may branch on its formatted output. */

/*
 * C11 7.21.6.1 as glibc prints in the "C" locale. Supported symbolically: flags
 * '-' '0' '+' ' ' '#', a field width and a precision (numbers or '*'), length
 * modifiers hh h l ll j z t q, and the conversions d i u o x X c s p n %%: a number's
 * digits are computed from its (possibly symbolic) value, one loop step per digit, so
 * each digit of the output is an expression of the value and the number of digits is a
 * branch the explorer can flip. Any other conversion (floating point: a e f g) is
 * formatted by the real snprintf for that one conversion, with concrete values.
 *
 * Shadows of the variadic arguments: a call of a variadic model passes them in the
 * runtime's vararg slots (models.h, sym_model_vararg32/64); the v-forms receive a
 * va_list made elsewhere and use the values as they are (concrete).
 * Output to streams (printf, fprintf, puts, ...) has no model: the instrumenter lets
 * those calls through without concretizing their arguments, since what a program
 * writes to a stream does not constrain its path.
 */
#include "models.h"

/* glibc's checking snprintf (the _FORTIFY_SOURCE entry point, flag 1, object size = n):
 * the real formatter for conversions printed concretely. Not a name with a model, so the
 * call is not redirected to the model below, and a direct call (unlike one through a
 * pointer) leaves __sym_libc_print_core input-free, so it gets a concrete-mode copy. */
int __snprintf_chk(char *dst, size_t n, int flag, size_t dst_len, const char *fmt, ...);
#define real_snprintf(dst, n, fmt, v) __snprintf_chk(dst, n, 1, n, fmt, v)

typedef struct out {
    char *dst;
    size_t cap; /* bytes available, terminating NUL included; 0 = write nothing */
    size_t n;   /* characters produced so far (the return value) */
} out;

static void __sym_libc_put(out *o, char c)
{
    if (o->n + 1 < o->cap) o->dst[o->n] = c;
    o->n++;
}

static void __sym_libc_pad(out *o, char c, long k)
{
    for (; k > 0; k--) __sym_libc_put(o, c);
}

/* A variadic argument: its value from va_arg, its shadow from the vararg slot k when the
 * call came through a variadic model (slots != 0). */
static int64_t __sym_libc_arg_int(va_list *ap, int size, int slots, unsigned k)
{
    if (size >= 1) {
        int64_t v = va_arg(*ap, long long);
        return slots ? sym_model_vararg64(k, v) : v;
    }
    int32_t v = va_arg(*ap, int);
    return slots ? sym_model_vararg32(k, v) : v;
}

static int __sym_libc_print_core(out *o, const char *fmt, va_list ap0, int slots)
{
    va_list ap;
    va_copy(ap, ap0);
    unsigned k = 0; /* index of the next variadic argument */
    for (const char *f = fmt; *f != '\0';) {
        if (*f != '%') {
            __sym_libc_put(o, *f++);
            continue;
        }
        const char *spec = f++;
        int left = 0, zero = 0, plus = 0, space = 0, alt = 0;
        for (;; f++) {
            if (*f == '-')
                left = 1;
            else if (*f == '0')
                zero = 1;
            else if (*f == '+')
                plus = 1;
            else if (*f == ' ')
                space = 1;
            else if (*f == '#')
                alt = 1;
            else
                break;
        }
        long width = 0, prec = -1;
        if (*f == '*') {
            width = va_arg(ap, int);
            k++;
            f++;
            if (width < 0) {
                left = 1;
                width = -width;
            }
        } else {
            while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
        }
        if (*f == '.') {
            f++;
            prec = 0;
            if (*f == '*') {
                prec = va_arg(ap, int);
                k++;
                f++;
            } else {
                while (*f >= '0' && *f <= '9') prec = prec * 10 + (*f++ - '0');
            }
        }
        int size = 0, big = 0; /* -2 hh, -1 h, 0 int, 1 l/ll/j/z/t; big: L */
        for (;; f++) {
            if (*f == 'h')
                size = size == -1 ? -2 : -1;
            else if (*f == 'l' || *f == 'j' || *f == 'z' || *f == 't' || *f == 'q')
                size = 1;
            else if (*f == 'L')
                big = 1;
            else
                break;
        }
        char conv = *f;
        if (conv == '\0') break;
        f++;
        if (conv == '%') {
            __sym_libc_put(o, '%');
            continue;
        }
        if (conv == 'n') {
            void *p = va_arg(ap, void *);
            k++;
            if (size == -2)
                *(signed char *)p = (signed char)o->n;
            else if (size == -1)
                *(short *)p = (short)o->n;
            else if (size == 1)
                *(long *)p = (long)o->n;
            else
                *(int *)p = (int)o->n;
            continue;
        }
        if (conv == 'c') {
            char c = (char)__sym_libc_arg_int(&ap, 0, slots, k++);
            if (!left) __sym_libc_pad(o, ' ', width - 1);
            __sym_libc_put(o, c);
            if (left) __sym_libc_pad(o, ' ', width - 1);
            continue;
        }
        if (conv == 's') {
            const char *s = va_arg(ap, const char *);
            k++;
            if (s == NULL) s = "(null)";
            long len = 0;
            while ((prec < 0 || len < prec) && s[len] != '\0') len++;
            if (!left) __sym_libc_pad(o, ' ', width - len);
            for (long i = 0; i < len; i++) __sym_libc_put(o, s[i]);
            if (left) __sym_libc_pad(o, ' ', width - len);
            continue;
        }
        if (conv == 'd' || conv == 'i' || conv == 'u' || conv == 'o' || conv == 'x' || conv == 'X' || conv == 'p') {
            uint64_t mag;
            int neg = 0;
            unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X' || conv == 'p') ? 16 : 10;
            if (conv == 'p') {
                mag = (uint64_t)(uintptr_t)va_arg(ap, void *);
                k++;
                if (mag == 0) {
                    const char *nil = "(nil)";
                    if (!left) __sym_libc_pad(o, ' ', width - 5);
                    for (int i = 0; i < 5; i++) __sym_libc_put(o, nil[i]);
                    if (left) __sym_libc_pad(o, ' ', width - 5);
                    continue;
                }
                alt = 1;
            } else {
                int64_t v = __sym_libc_arg_int(&ap, size, slots, k++);
                if (conv == 'd' || conv == 'i') {
                    if (size == -2)
                        v = (signed char)v;
                    else if (size == -1)
                        v = (short)v;
                    else if (size == 0)
                        v = (int)v;
                    neg = v < 0;
                    mag = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
                } else {
                    mag = (uint64_t)v;
                    if (size == -2)
                        mag = (unsigned char)mag;
                    else if (size == -1)
                        mag = (unsigned short)mag;
                    else if (size == 0)
                        mag = (unsigned)mag;
                }
            }
            /* digits, least significant first; the letter offset is arithmetic, not a branch */
            char digits[24];
            int nd = 0;
            int letter = (conv == 'X' ? 'A' : 'a') - '0' - 10;
            if (!(mag == 0 && prec == 0)) {
                if (size <= 0 && conv != 'p') {
                    /* an int's magnitude fits 32 bits: 32-bit division is far cheaper to solve */
                    uint32_t m = (uint32_t)mag;
                    do {
                        uint32_t d = m % base;
                        digits[nd++] = (char)('0' + d + (d >= 10) * letter);
                        m /= base;
                    } while (m != 0);
                } else {
                    uint64_t m = mag;
                    do {
                        unsigned d = (unsigned)(m % base);
                        digits[nd++] = (char)('0' + d + (d >= 10) * letter);
                        m /= base;
                    } while (m != 0);
                }
            }
            const char *prefix = "";
            if (neg)
                prefix = "-";
            else if ((conv == 'd' || conv == 'i') && plus)
                prefix = "+";
            else if ((conv == 'd' || conv == 'i') && space)
                prefix = " ";
            else if (alt && base == 16 && mag != 0)
                prefix = conv == 'X' ? "0X" : "0x";
            else if (alt && base == 8 && (nd == 0 || digits[nd - 1] != '0') && prec <= nd)
                prefix = "0";
            long plen = (long)__sym_model_strlen(prefix);
            long zeros = prec > nd ? prec - nd : 0;
            if (zero && !left && prec < 0 && width > plen + nd) zeros = width - plen - nd;
            long total = plen + zeros + nd;
            if (!left) __sym_libc_pad(o, ' ', width - total);
            for (long i = 0; i < plen; i++) __sym_libc_put(o, prefix[i]);
            __sym_libc_pad(o, '0', zeros);
            while (nd > 0) __sym_libc_put(o, digits[--nd]);
            if (left) __sym_libc_pad(o, ' ', width - total);
            continue;
        }
        /* anything else (floating point): the real snprintf prints this one conversion */
        char one[48], text[512];
        size_t sl = (size_t)(f - spec);
        if (sl >= sizeof one) break;
        for (size_t i = 0; i < sl; i++) one[i] = spec[i];
        one[sl] = '\0';
        int r;
        if (conv == 'a' || conv == 'A' || conv == 'e' || conv == 'E' || conv == 'f' || conv == 'F' || conv == 'g' ||
            conv == 'G') {
            if (big)
                r = real_snprintf(text, sizeof text, one, va_arg(ap, long double));
            else
                r = real_snprintf(text, sizeof text, one, va_arg(ap, double));
        } else {
            break; /* an unknown conversion: stop printing, as the behaviour is undefined */
        }
        k++;
        for (int i = 0; i < r && i < (int)sizeof text - 1; i++) __sym_libc_put(o, text[i]);
    }
    va_end(ap);
    if (o->cap > 0) o->dst[o->n < o->cap ? o->n : o->cap - 1] = '\0';
    return (int)o->n;
}

int __sym_model_vsnprintf(char *dst, size_t n, const char *fmt, va_list ap)
{
    out o = {dst, n, 0};
    return __sym_libc_print_core(&o, fmt, ap, 0);
}

int __sym_model_vsprintf(char *dst, const char *fmt, va_list ap)
{
    out o = {dst, (size_t)-1 / 2, 0};
    return __sym_libc_print_core(&o, fmt, ap, 0);
}

int __sym_model_snprintf(char *dst, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out o = {dst, n, 0};
    int r = __sym_libc_print_core(&o, fmt, ap, 1);
    va_end(ap);
    return r;
}

int __sym_model_sprintf(char *dst, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out o = {dst, (size_t)-1 / 2, 0};
    int r = __sym_libc_print_core(&o, fmt, ap, 1);
    va_end(ap);
    return r;
}
