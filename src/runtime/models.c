/* models.c: byte-by-byte libc models (__sym_model_<name>) that the instrumenter substitutes for the real functions, so their loops become symbolic branches. */

/*
 * This file is compiled to bitcode and instrumented like user code: every
 * comparison below is a branch the explorer can flip, so e.g. strcmp on a
 * symbolic string yields one path per differing position. Therefore: plain,
 * portable C, no calls into the runtime or libc, and no system header that
 * declares the real names (the models must not clash with them). Semantics
 * follow the C standard for the "C" locale; the instrumenter redirects a call
 * to <name> here only when __sym_model_<name> exists.
 */
#include <stddef.h>

size_t __sym_model_strlen(const char *s)
{
    size_t n = 0;
    while (s[n] != '\0')
        n++;
    return n;
}

size_t __sym_model_strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != '\0')
        n++;
    return n;
}

/* Bytes compare as unsigned char, as the standard requires. */
int __sym_model_strcmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    while (*p != '\0' && *p == *q) {
        p++;
        q++;
    }
    return (int)*p - (int)*q;
}

int __sym_model_strncmp(const char *a, const char *b, size_t n)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != q[i])
            return (int)p[i] - (int)q[i];
        if (p[i] == '\0')
            return 0;
    }
    return 0;
}

int __sym_model_memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return (int)p[i] - (int)q[i];
    return 0;
}

char *__sym_model_strchr(const char *s, int c)
{
    char ch = (char)c;
    for (;; s++) {
        if (*s == ch)
            return (char *)s;
        if (*s == '\0')
            return NULL;
    }
}

char *__sym_model_strrchr(const char *s, int c)
{
    char ch = (char)c;
    const char *last = NULL;
    for (;; s++) {
        if (*s == ch)
            last = s;
        if (*s == '\0')
            return (char *)last;
    }
}

void *__sym_model_memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    unsigned char ch = (unsigned char)c;
    for (size_t i = 0; i < n; i++)
        if (p[i] == ch)
            return (void *)(p + i);
    return NULL;
}

char *__sym_model_strcpy(char *dst, const char *src)
{
    size_t i = 0;
    while ((dst[i] = src[i]) != '\0')
        i++;
    return dst;
}

/* Copies at most n bytes and pads with NULs up to n, as the standard says. */
char *__sym_model_strncpy(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; i < n && src[i] != '\0'; i++)
        dst[i] = src[i];
    for (; i < n; i++)
        dst[i] = '\0';
    return dst;
}

char *__sym_model_strcat(char *dst, const char *src)
{
    __sym_model_strcpy(dst + __sym_model_strlen(dst), src);
    return dst;
}

/* Appends at most n bytes of src and always a terminating NUL. */
char *__sym_model_strncat(char *dst, const char *src, size_t n)
{
    char *d = dst + __sym_model_strlen(dst);
    size_t i = 0;
    for (; i < n && src[i] != '\0'; i++)
        d[i] = src[i];
    d[i] = '\0';
    return dst;
}

char *__sym_model_strstr(const char *hay, const char *needle)
{
    if (needle[0] == '\0')
        return (char *)hay;
    for (; *hay != '\0'; hay++) {
        size_t i = 0;
        while (needle[i] != '\0' && hay[i] == needle[i])
            i++;
        if (needle[i] == '\0')
            return (char *)hay;
    }
    return NULL;
}

int __sym_model_isdigit(int c) { return c >= '0' && c <= '9'; }
int __sym_model_isupper(int c) { return c >= 'A' && c <= 'Z'; }
int __sym_model_islower(int c) { return c >= 'a' && c <= 'z'; }
int __sym_model_isalpha(int c) { return __sym_model_isupper(c) || __sym_model_islower(c); }
int __sym_model_isalnum(int c) { return __sym_model_isalpha(c) || __sym_model_isdigit(c); }
int __sym_model_isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
int __sym_model_isxdigit(int c)
{
    return __sym_model_isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int __sym_model_toupper(int c) { return __sym_model_islower(c) ? c - 'a' + 'A' : c; }
int __sym_model_tolower(int c) { return __sym_model_isupper(c) ? c - 'A' + 'a' : c; }

/* Leading white space, an optional sign, decimal digits. Overflow is undefined in C;
 * here it wraps (the file is compiled with -fwrapv). */
int __sym_model_atoi(const char *s)
{
    while (__sym_model_isspace((unsigned char)*s))
        s++;
    int neg = 0;
    if (*s == '-' || *s == '+') {
        neg = *s == '-';
        s++;
    }
    int v = 0;
    while (__sym_model_isdigit((unsigned char)*s)) {
        v = v * 10 + (*s - '0');
        s++;
    }
    return neg ? -v : v;
}

int __sym_model_abs(int x) { return x < 0 ? -x : x; }
long __sym_model_labs(long x) { return x < 0 ? -x : x; }
