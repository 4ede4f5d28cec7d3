/* models.h: declarations shared by the libc model files (models_*.c), which are compiled to bitcode and instrumented like user code. */
#ifndef SYMPATH_MODELS_H
#define SYMPATH_MODELS_H

/*
 * Rules for every models_*.c file (docs/design.md, "libc models"):
 *  - A model of libc function X is named __sym_model_X; the instrumenter redirects every
 *    call of X to it (in user code and in other models), except a call of X made inside
 *    __sym_model_X itself, which reaches the real X. Each model is instrumented, so its
 *    comparisons are branch sites the explorer can flip (sites with user = 0: not
 *    program coverage).
 *  - Plain C, no system header that declares libc's names (only the compiler's own
 *    <stddef.h>, <stdarg.h>, <stdint.h>, <limits.h>); the few libc functions a model
 *    really calls are declared here by hand.
 *  - Helpers (static or shared between the files) are named __sym_libc_*: a reserved prefix,
 *    so that no program's function clashes with them or is taken for a model (the
 *    instrumenter tells model code from program code by the names models.bc defines).
 *  - Semantics: C11 and glibc 2.36 in the "C" locale, on x86-64 (int 32 bits, long and
 *    long long 64 bits, char signed).
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define MODEL_EOF (-1)
#define MODEL_ERANGE 34 /* Linux errno values */
#define MODEL_EINVAL 22

/* libc functions the models call for real (no model of their own, or the model's own name) */
int *__errno_location(void);
void *malloc(size_t n);

/*
 * Variadic arguments of a call to a variadic model keep their shadows: the instrumenter
 * stores the shadow of extra argument k (0-based, after the fixed parameters) in a
 * runtime slot, and the model reads it back by passing the concrete value it got from
 * va_arg through one of these runtime functions, which return that value with the slot's
 * expression as their result's shadow (NULL when the slot is stale: the value check).
 * Defined in src/runtime/core/rt_libc.c.
 */
int32_t sym_model_vararg32(uint32_t k, int32_t value);
int64_t sym_model_vararg64(uint32_t k, int64_t value);

/*
 * Texts whose number is known as an expression (src/runtime/core/rt_textval.c: a database
 * REAL cell's text as the server printed it). sym_model_text_known(p): is p the start of such a
 * text. sym_model_text_double(p, used, value): value, with the registered expression as the
 * result's shadow when p's entry has length `used` and the expression's concrete value is
 * value's bits (else concrete); an integer cell's text gives its integer as a double (exact up
 * to 2^53). sym_model_text_int(p, base, used): strtoll(p, &end, base) computed by the runtime
 * (no branch on p's bytes), *used = end - p, with the registered integer cell's expression as
 * the result's shadow when p's entry is an integer cell of length *used whose concrete value is
 * the result (else concrete). Call it only when sym_model_text_known(p).
 */
int sym_model_text_known(const char *p);
double sym_model_text_double(const char *p, size_t used, double value);
int64_t sym_model_text_int(const char *p, int base, size_t *used);

/* ctype (models_ctype.c), used by the conversion and scanning models. Each is the C11
 * function of the same name (7.4) in the "C" locale: c is an unsigned char value or EOF;
 * the class tests return 1 or 0 (one expression, no branch), the case maps return the
 * mapped character or c unchanged. */
int __sym_model_isspace(int c);
int __sym_model_isdigit(int c);
int __sym_model_isxdigit(int c);
int __sym_model_isupper(int c);
int __sym_model_islower(int c);
int __sym_model_isalpha(int c);
int __sym_model_tolower(int c);
int __sym_model_toupper(int c);

/* string (models_string.c): C11 7.24.6.3 strlen and POSIX strnlen (at most max bytes
 * examined); the count is a loop counter, so a concrete value whose reason is in the path
 * condition. */
size_t __sym_model_strlen(const char *s);
size_t __sym_model_strnlen(const char *s, size_t max);

/*
 * A character source for the conversion and scanning cores: a NUL-terminated string
 * (s != NULL; the NUL reads as MODEL_EOF) or a stdio stream (s == NULL), read with
 * fgetc and given back with ungetc (whose models belong to the stdin/file models), so
 * that at most one character is pushed back, as C requires.
 */
typedef struct model_src {
    const char *s; /* string source, or NULL */
    size_t pos;    /* string: index of the next character */
    void *stream;  /* stream source (a FILE *) */
    int have, cur; /* stream: a character read but not consumed yet */
    size_t taken;  /* characters consumed so far (for %n) */
    int lookahead; /* strtol's rules: a string source may look two characters ahead ("0x"
                        not followed by a hex digit converts the "0"); 0 = scanf's rules
                        (one character of look-ahead: "0x" is consumed whatever follows) */
} model_src;

/* The next character (as unsigned char, or MODEL_EOF) without consuming it. */
int __sym_libc_src_peek(model_src *src);
/* Consume the character __sym_libc_src_peek returned. */
void __sym_libc_src_take(model_src *src);
/* The character after the next one, for a string source with lookahead set; else -2
 * (unknown: scanf reads with one character of look-ahead). */
int __sym_libc_src_peek2(model_src *src);
/* End of a scan: a stream gets back the character peeked but not consumed. */
void __sym_libc_src_finish(model_src *src);

/* Digit value of character c in bases up to 36 ('0'-'9', then 'a'-'z' or 'A'-'Z' as
 * 10..35), or 36 for any other character (models_conv.c). */
int __sym_libc_digit_value(int c);

/*
 * The integer conversion core shared by strtol & co. and the scanf models (C11 7.22.1.4):
 * reads an optionally signed integer in `base` (0 = C prefix rules, or 2..36) from src,
 * after leading white space when skip_space is set, consuming at most `width`
 * characters after the white space (0 = unbounded). Outputs: *ok = 1 when at least one
 * digit was read (else nothing is consumed after the white space for a string source);
 * *neg = a '-' sign; *overflow = the magnitude exceeded 64 bits. Returns the magnitude
 * modulo 2^64. As glibc: "0x" not followed by a hex digit converts the "0" alone under
 * strtol's rules (src->lookahead), and reads as 0 with the "x" consumed under scanf's.
 */
uint64_t __sym_libc_scan_integer(model_src *src, int base, size_t width, int skip_space, int *ok, int *neg,
                                 int *overflow);

#endif
