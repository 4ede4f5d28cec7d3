/* arena.c: a list parser whose memory comes from the caller's callbacks (json-parser's json_settings: mem_alloc, mem_free). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Where the parser's memory comes from: NULL callbacks mean calloc and free. */
typedef struct list_settings {
    void *(*mem_alloc)(size_t size, int zero, void *user_data);
    void (*mem_free)(void *ptr, void *user_data);
    void *user_data;
    unsigned max_items; /* 0: no limit */
} list_settings;

typedef struct item {
    long value;
    struct item *next;
} item;

/* "name:1,-2,3": a label and its numbers, in order. */
typedef struct list {
    char *label; /* NULL when the text has no "name:" */
    size_t count;
    item *head;
} list;

static void *get(const list_settings *s, size_t n)
{
    return s && s->mem_alloc ? s->mem_alloc(n, 1, s->user_data) : calloc(1, n);
}

static void put(const list_settings *s, void *p)
{
    if (s && s->mem_free)
        s->mem_free(p, s->user_data);
    else
        free(p);
}

/* Release l, its label and items with s's mem_free. */
void list_free_ex(const list_settings *s, list *l)
{
    if (!l) return;
    for (item *i = l->head, *next; i; i = next) {
        next = i->next;
        put(s, i);
    }
    put(s, l->label);
    put(s, l);
}

/* Release a list parsed with the default allocator (or with callbacks that use calloc). */
void list_free(list *l) { list_free_ex(NULL, l); }

/* Parse the len bytes of text into a new list: its memory from s (NULL: calloc). NULL when the
 * text is malformed, has more than s->max_items numbers or memory runs out. */
list *list_parse_ex(const list_settings *s, const char *text, size_t len)
{
    list *l = get(s, sizeof *l);
    if (!l) return NULL;
    const char *colon = memchr(text, ':', len);
    size_t at = 0;
    if (colon) {
        size_t n = (size_t)(colon - text);
        l->label = get(s, n + 1);
        if (!l->label) goto fail;
        memcpy(l->label, text, n); /* the block must hold n + 1 bytes */
        at = n + 1;
    }
    item **tail = &l->head;
    while (at < len) {
        int neg = 0;
        if (text[at] == '-') {
            neg = 1;
            at++;
        }
        if (at >= len || text[at] < '0' || text[at] > '9') goto fail;
        long v = 0;
        while (at < len && text[at] >= '0' && text[at] <= '9') v = v * 10 + (text[at++] - '0');
        if (s && s->max_items && l->count == s->max_items) goto fail;
        item *i = get(s, sizeof *i);
        if (!i) goto fail;
        i->value = neg ? -v : v;
        *tail = i;
        tail = &i->next;
        l->count++;
        if (at < len && text[at++] != ',') goto fail;
    }
    return l;
fail:
    list_free_ex(s, l);
    return NULL;
}

/* Parse text with the default allocator. */
list *list_parse(const char *text) { return list_parse_ex(NULL, text, strlen(text)); }
