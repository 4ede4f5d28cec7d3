/* strings.c: the program's constant C strings that read as SQL statements (and the word-like ones it may bind as parameters), for the database layer's fixture layout. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "instrument_int.h"

/* Does s (n bytes) start, after blanks and opening parentheses, with a statement keyword and a blank? */
static int looks_like_sql(const char *s, size_t n)
{
    static const char *kw[] = {"SELECT", "WITH", "UPDATE", "DELETE", "INSERT"};
    size_t i = 0;
    while (i < n && (isspace((unsigned char)s[i]) || s[i] == '(')) i++;
    for (size_t k = 0; k < sizeof kw / sizeof *kw; k++) {
        size_t l = strlen(kw[k]);
        if (n - i > l && !strncasecmp(s + i, kw[k], l) && isspace((unsigned char)s[i + l])) return 1;
    }
    return 0;
}

/* A constant the program may bind as a text parameter (`alice@example.com`, `SKU-000123`): 9 to 32 printable
 * bytes, no blank and no '%' (messages and formats have them), not a path or a database's name (`/`, `.db`,
 * `.sqlite`, a conninfo's `=`); shorter ones fit the default cells anyway. */
static int looks_like_data(const char *s, size_t n)
{
    if (n < 9 || n > 32 || memchr(s, '/', n) || memchr(s, '=', n) || !strncasecmp(s + n - 3, ".db", 3)) return 0;
    for (size_t i = 0; i + 7 <= n; i++)
        if (!strncasecmp(s + i, ".sqlite", 7)) return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] > '~' || s[i] == '%') return 0;
    return 1;
}

char *program_sql_strings(LLVMModuleRef m)
{
    size_t cap = 256, len = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    out[0] = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        LLVMValueRef init = LLVMIsAGlobalVariable(g) ? LLVMGetInitializer(g) : NULL;
        if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init)) continue;
        size_t n = 0;
        const char *s = LLVMGetAsString(init, &n);
        while (n && s[n - 1] == 0) n--;
        if (!n || memchr(s, 0, n)) continue;
        int data = !looks_like_sql(s, n) && looks_like_data(s, n); /* handed over as "\1" + the text */
        if (!data && !looks_like_sql(s, n)) continue;
        if (len + n + 3 > cap) {
            while (len + n + 3 > cap) cap *= 2;
            char *p = realloc(out, cap);
            if (!p) {
                free(out);
                return NULL;
            }
            out = p;
        }
        if (data) out[len++] = 1;
        memcpy(out + len, s, n);
        len += n;
        out[len++] = 0; /* each statement NUL-terminated, the list ends with an empty one */
        out[len] = 0;
    }
    if (!len) { /* none: nothing to hand over */
        free(out);
        return NULL;
    }
    return out;
}
