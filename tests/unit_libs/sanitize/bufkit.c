/* bufkit.c: a small buffer and string library with planted faults (sympath unit e2e: the sanitizer check of the tests). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A string with a hidden header: the length is stored in the size_t before the characters, as sds
 * does; only str_new makes one, so a plain char array passed as a str is read out of bounds. */
typedef char *str;

str str_new(const char *init)
{
    size_t n = strlen(init);
    size_t *h = malloc(sizeof(size_t) + n + 1);
    if (!h) return NULL;
    h[0] = n;
    memcpy(h + 1, init, n + 1);
    return (str)(h + 1);
}

size_t str_len(str s) { return ((const size_t *)s)[-1]; }

/* Counts the occurrences of c in s (reads the hidden header). */
int str_count(str s, char c)
{
    int k = 0;
    for (size_t i = 0; i < str_len(s); i++)
        if (s[i] == c) k++;
    return k;
}

/* BUG: copies len + 1 bytes of buf into a copy of len bytes (an off-by-one on valid input). */
char *buf_dup(const char *buf, size_t len)
{
    char *d = malloc(len ? len : 1);
    if (!d) return NULL;
    memcpy(d, buf, len);
    if (len > 2 && buf[0] == '#') d[len] = 0;
    return d;
}

/* Correct: the sum of the first len bytes. */
int buf_sum(const unsigned char *buf, size_t len)
{
    int s = 0;
    for (size_t i = 0; i < len; i++) s += buf[i];
    return s;
}

/* BUG: the cost of many units overflows int (undefined behaviour, UBSan's signed-integer-overflow). */
int unit_cost(int units)
{
    if (units > 1000) return units * 5000000;
    return units * 2;
}

/* Correct: splits "key=value" into copies the caller frees (an out-parameter the call fills with
 * blocks it allocates: the tests release them). */
struct kv {
    char *key;
    char *value;
};

int kv_split(const char *s, struct kv *out)
{
    const char *eq = strchr(s, '=');
    if (!eq) return -1;
    out->key = strndup(s, (size_t)(eq - s));
    out->value = strdup(eq + 1);
    return out->key && out->value ? 0 : -1;
}

/* Globals: scan_calls is changed by digits_scan (every test sets it first); kit_name by no call
 * (no test sets it). */
int scan_calls;
const char *kit_name = "bufkit";

/* Correct: a scanf-like reader, variadic: for each 'd' of fmt (at most 4) the next variadic
 * argument is an int * that gets the next digit of s. Returns how many it stored. */
int digits_scan(const char *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = 0;
    scan_calls++;
    for (; *fmt && n < 4; fmt++) {
        if (*fmt != 'd') continue;
        int *out = va_arg(ap, int *);
        if (*s < '0' || *s > '9') break;
        *out = *s++ - '0';
        n++;
    }
    va_end(ap);
    return n;
}
