/* models_string.c: byte-by-byte models of libc's string and memory functions (__sym_model_<name>), so their loops become symbolic branches. */

/*
 * This file is compiled to bitcode and instrumented like user code (rules in models.h):
 * every comparison below is a branch the explorer can flip, so e.g. strcmp on a
 * symbolic string yields one path per differing position. Lengths and positions are
 * loop counters, hence concrete values; the path condition says why they are what they
 * are. Where a loop step has several exits (end of string, mismatch), the conditions are
 * combined with the non-short-circuit & and | so that each step is ONE branch site: a
 * strcmp over n bytes yields n + 1 paths instead of 2n, and each flip is meaningful.
 * Semantics follow C11 7.24 (and POSIX / glibc for strcasecmp, strndup, memrchr,
 * bcmp, stpcpy) in the "C" locale.
 */
#include "models.h"

size_t __sym_model_strlen(const char *s)
{
    size_t n = 0;
    while (s[n] != '\0') n++;
    return n;
}

size_t __sym_model_strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != '\0') n++;
    return n;
}

/* Bytes compare as unsigned char, as the standard requires. */
int __sym_model_strcmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    while ((*p != '\0') & (*p == *q)) {
        p++;
        q++;
    }
    return (int)*p - (int)*q;
}

int __sym_model_strncmp(const char *a, const char *b, size_t n)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    for (size_t i = 0; i < n; i++)
        if ((p[i] != q[i]) | (p[i] == '\0')) return (int)p[i] - (int)q[i]; /* 0 at a common end */
    return 0;
}

int __sym_model_memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i]) return (int)p[i] - (int)q[i];
    return 0;
}

char *__sym_model_strchr(const char *s, int c)
{
    char ch = (char)c;
    while ((*s != ch) & (*s != '\0')) s++;
    return *s == ch ? (char *)s : NULL;
}

char *__sym_model_strrchr(const char *s, int c)
{
    char ch = (char)c;
    const char *last = NULL;
    for (;; s++) {
        if (*s == ch) last = s;
        if (*s == '\0') return (char *)last;
    }
}

void *__sym_model_memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    unsigned char ch = (unsigned char)c;
    for (size_t i = 0; i < n; i++)
        if (p[i] == ch) return (void *)(p + i);
    return NULL;
}

char *__sym_model_strcpy(char *dst, const char *src)
{
    size_t i = 0;
    while ((dst[i] = src[i]) != '\0') i++;
    return dst;
}

/* Copies at most n bytes and pads with NULs up to n, as the standard says. */
char *__sym_model_strncpy(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; i < n && src[i] != '\0'; i++) dst[i] = src[i];
    for (; i < n; i++) dst[i] = '\0';
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
    for (; i < n && src[i] != '\0'; i++) d[i] = src[i];
    d[i] = '\0';
    return dst;
}

char *__sym_model_strstr(const char *hay, const char *needle)
{
    if (needle[0] == '\0') return (char *)hay;
    for (; *hay != '\0'; hay++) {
        size_t i = 0;
        while ((needle[i] != '\0') & (hay[i] == needle[i])) i++;
        if (needle[i] == '\0') return (char *)hay;
    }
    return NULL;
}

/* Case-insensitive comparison in the "C" locale: bytes compare after tolower (POSIX). */
int __sym_model_strcasecmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    for (;; p++, q++) {
        int x = __sym_model_tolower(*p), y = __sym_model_tolower(*q);
        if ((x != y) | (x == '\0')) return x - y;
    }
}

int __sym_model_strncasecmp(const char *a, const char *b, size_t n)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    for (size_t i = 0; i < n; i++) {
        int x = __sym_model_tolower(p[i]), y = __sym_model_tolower(q[i]);
        if ((x != y) | (x == '\0')) return x - y;
    }
    return 0;
}

/* strcoll: in the "C" locale, collation is strcmp's byte order. */
int __sym_model_strcoll(const char *a, const char *b) { return __sym_model_strcmp(a, b); }

/* bcmp: zero when equal, nonzero otherwise (memcmp's result is one such value). */
int __sym_model_bcmp(const void *a, const void *b, size_t n) { return __sym_model_memcmp(a, b, n); }

void *__sym_model_memrchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    unsigned char ch = (unsigned char)c;
    while (n > 0) {
        n--;
        if (p[n] == ch) return (void *)(p + n);
    }
    return NULL;
}

/* strchrnul: like strchr, but the end of the string instead of NULL (GNU). */
char *__sym_model_strchrnul(const char *s, int c)
{
    char ch = (char)c;
    while ((*s != ch) & (*s != '\0')) s++;
    return (char *)s;
}

/* stpcpy: strcpy returning the end of the copy (POSIX). */
char *__sym_model_stpcpy(char *dst, const char *src)
{
    size_t i = 0;
    while ((dst[i] = src[i]) != '\0') i++;
    return dst + i;
}

/* Is byte c one of the bytes of set (the terminating NUL excluded)? A disjunction of
 * equalities, not a branch per set member: the set is normally concrete, so the loop is. */
static int __sym_libc_in_set(unsigned char c, const char *set)
{
    int r = 0;
    for (const unsigned char *q = (const unsigned char *)set; *q != '\0'; q++) r |= *q == c;
    return r;
}

/* Length of the longest prefix of s made of bytes of accept. */
size_t __sym_model_strspn(const char *s, const char *accept)
{
    size_t n = 0;
    while ((s[n] != '\0') & __sym_libc_in_set((unsigned char)s[n], accept)) n++;
    return n;
}

/* Length of the longest prefix of s made of bytes not in reject. */
size_t __sym_model_strcspn(const char *s, const char *reject)
{
    size_t n = 0;
    while ((s[n] != '\0') & !__sym_libc_in_set((unsigned char)s[n], reject)) n++;
    return n;
}

char *__sym_model_strpbrk(const char *s, const char *accept)
{
    while ((*s != '\0') & !__sym_libc_in_set((unsigned char)*s, accept)) s++;
    return *s != '\0' ? (char *)s : NULL;
}

/* strdup/strndup: malloc of the (concrete) length plus one, then a byte copy that keeps
 * the shadows. NULL (errno ENOMEM from malloc) when malloc fails. */
char *__sym_model_strndup(const char *s, size_t max)
{
    size_t n = __sym_model_strnlen(s, max);
    char *d = malloc(n + 1);
    if (d == NULL) return NULL;
    for (size_t i = 0; i < n; i++) d[i] = s[i];
    d[n] = '\0';
    return d;
}

/* strdup is strndup without a bound (the bound's test is concrete: no extra event). */
char *__sym_model_strdup(const char *s) { return __sym_model_strndup(s, (size_t)-1); }

/* index/rindex: the old BSD names of strchr/strrchr. */
char *__sym_model_index(const char *s, int c) { return __sym_model_strchr(s, c); }
char *__sym_model_rindex(const char *s, int c) { return __sym_model_strrchr(s, c); }

/* strtok_r (POSIX): the token after the delimiters at s (or at *save when s is NULL); its
 * end is overwritten with a NUL and *save points past it. Positions are concrete counts. */
char *__sym_model_strtok_r(char *s, const char *delim, char **save)
{
    if (s == NULL) s = *save;
    s += __sym_model_strspn(s, delim);
    if (*s == '\0') {
        *save = s;
        return NULL;
    }
    char *end = s + __sym_model_strcspn(s, delim);
    if (*end != '\0') {
        *end = '\0';
        *save = end + 1;
    } else {
        *save = end;
    }
    return s;
}

static char *__sym_libc_strtok_save;

/* strtok: strtok_r with one hidden position (not thread-safe, as in C). */
char *__sym_model_strtok(char *s, const char *delim) { return __sym_model_strtok_r(s, delim, &__sym_libc_strtok_save); }

/* strsep (BSD): the field at *sp up to the first delimiter (an empty field between two
 * delimiters is returned too); *sp moves past it, or becomes NULL after the last field. */
char *__sym_model_strsep(char **sp, const char *delim)
{
    char *s = *sp;
    if (s == NULL) return NULL;
    char *end = s + __sym_model_strcspn(s, delim);
    if (*end != '\0') {
        *end = '\0';
        *sp = end + 1;
    } else {
        *sp = NULL;
    }
    return s;
}
