/* grow.c: text copied into a block a realloc-like callback grows (Lua's lua_Alloc shape: size 0 frees). */
#include <stddef.h>
#include <string.h>
typedef struct grow_alloc {
    void *(*mem_realloc)(void *ptr, size_t size, void *user);
    void *user;
} grow_alloc;
/* Copy text into a block grown by mem_realloc 4 bytes at a time; its length in *len. */
char *grow_copy(const grow_alloc *a, const char *text, size_t *len)
{
    char *p = NULL;
    size_t cap = 0, n = strlen(text);
    while (cap < n + 1) {
        char *q = a->mem_realloc(p, cap + 4, a->user);
        if (!q) {
            a->mem_realloc(p, 0, a->user);
            return NULL;
        }
        p = q;
        cap += 4;
    }
    memcpy(p, text, n + 1);
    *len = n;
    return p;
}
