/* wordlist.c: functions over NULL-terminated lists of words and a table ended by a zeroed entry, walked directly, through a cursor struct and through the members a parser keeps (test_unit_lists.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wordlist.h"

void cursor_init(struct word_cursor *c, const char **words)
{
    c->words = words;
    c->at = 0;
}

const char *cursor_next(struct word_cursor *c)
{
    const char *w = c->words[c->at];
    if (w) c->at++;
    return w;
}

int words_join(const char **words, char sep, char *out, size_t cap)
{
    struct word_cursor c;
    size_t n = 0;
    const char *w;
    if (cap == 0) return -1;
    cursor_init(&c, words);
    while ((w = cursor_next(&c)) != NULL) {
        size_t l = strlen(w);
        if (n > 0) {
            if (n + 1 >= cap) return -1;
            out[n++] = sep;
        }
        if (n + l >= cap) return -1;
        memcpy(out + n, w, l);
        n += l;
    }
    out[n] = 0;
    return (int)n;
}

size_t words_count(char **argv, size_t *longest)
{
    size_t n = 0;
    *longest = 0;
    for (; *argv; argv++, n++)
        if (strlen(*argv) > *longest) *longest = strlen(*argv);
    return n;
}

int words_has_dup(const char *const *words)
{
    for (size_t i = 0; words[i]; i++)
        for (size_t j = i + 1; words[j]; j++)
            if (!strcmp(words[i], words[j])) return 1;
    return 0;
}

int parser_init(struct parser *p, const struct opt *opts, const char *const *usage, int flags)
{
    p->opts = opts;
    p->usage = usage;
    p->flags = flags;
    return 0;
}

int parser_find(const struct parser *p, const char *name)
{
    for (const struct opt *o = p->opts; o->name; o++)
        if (!strcmp(o->name, name)) return o->takes_arg ? 2 : 1;
    return 0;
}

int parser_need(struct parser *p, const char *name)
{
    int k = parser_find(p, name);
    if (k == 0) {
        p->error = strdup(name);
        fprintf(stderr, "unknown option '%s'\n", p->error);
        exit(2);
    }
    return k;
}

int parser_scan(const struct parser *p, int argc, const char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++)
        if (parser_find(p, argv[i])) n++;
    return argv[argc] == NULL ? n : -1;
}

size_t parser_usage_lines(const struct parser *p)
{
    size_t n = 0;
    const char *const *u = p->usage;
    while (*u++) n++;
    return n;
}
