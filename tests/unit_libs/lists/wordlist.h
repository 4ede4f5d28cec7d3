/* wordlist.h: NULL-terminated lists of words (argv's shape), for test_unit_lists.sh. */
#ifndef WORDLIST_H
#define WORDLIST_H
#include <stddef.h>

/* A position in a list of words. */
struct word_cursor {
    const char **words;
    size_t at;
};

/* Start c at the first of words (NULL-terminated; kept, not copied). */
void cursor_init(struct word_cursor *c, const char **words);
/* The next word, or NULL at the end. */
const char *cursor_next(struct word_cursor *c);
/* Join words with sep into out (cap bytes with the NUL); the length written, or -1 when it does not fit. */
int words_join(const char **words, char sep, char *out, size_t cap);
/* The number of words; the longest one's length in *longest. */
size_t words_count(char **argv, size_t *longest);
/* Whether a word appears twice. */
int words_has_dup(const char *const *words);

/* An option of a parser's table; the table ends with an entry whose name is NULL. */
struct opt {
    const char *name;
    int takes_arg;
};
/* A parser over a table of options and a NULL-terminated list of usage lines. */
struct parser {
    const struct opt *opts;
    const char *const *usage;
    int flags;
    char *error; /* the unknown option parser_need met (malloc'ed) */
};
/* Set p up over opts and usage (both kept, not copied); 0. */
int parser_init(struct parser *p, const struct opt *opts, const char *const *usage, int flags);
/* 2 when name is an option taking an argument, 1 when it is one taking none, 0 when it is none. */
int parser_find(const struct parser *p, const char *name);
/* parser_find's answer; an unknown option is fatal: kept in p->error, reported, exit(2). */
int parser_need(struct parser *p, const char *name);
/* The number of options among argv[1] .. argv[argc - 1] (argv[argc] is NULL, as main's), or -1 without that NULL. */
int parser_scan(const struct parser *p, int argc, const char **argv);
/* The number of usage lines. */
size_t parser_usage_lines(const struct parser *p);
#endif
