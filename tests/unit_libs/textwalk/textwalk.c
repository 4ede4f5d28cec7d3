/* textwalk.c: UTF-8 text helpers of the kinds a string library has (sheredom's utf8.h), for test_unit_textwalk: a length bounded by a NUL and a count, and a step back to the previous character from the middle of a text. */
#include <stddef.h>

/* The length of s, reading at most n bytes; -1 when s goes on past n bytes. */
long text_nlen(const char *s, size_t n)
{
    size_t i = 0;
    while (s[i] != '\0' && i < n)
        i++;
    if (i == n && s[i] != '\0')
        return -1;
    return (long)i;
}

/* The start of the UTF-8 character before s (s points into a text, past its first character), and
 * in *width how many bytes that character has. */
const char *text_prev(const char *s, int *width)
{
    const char *p = s;
    do {
        p--;
    } while ((*p & 0xc0) == 0x80);
    *width = (int)(s - p);
    return p;
}

/* A view of text: count bytes at data (the shape of tsoding's sv.h String_View). */
struct span {
    size_t count;
    const char *data;
};

/* Whether a and b hold the same text, ignoring ASCII case. */
int span_eq_nocase(struct span a, struct span b)
{
    if (a.count != b.count)
        return 0;
    for (size_t i = 0; i < a.count; i++) {
        char x = a.data[i] >= 'A' && a.data[i] <= 'Z' ? a.data[i] + 32 : a.data[i];
        char y = b.data[i] >= 'A' && b.data[i] <= 'Z' ? b.data[i] + 32 : b.data[i];
        if (x != y)
            return 0;
    }
    return 1;
}
