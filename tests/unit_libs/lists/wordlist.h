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
#endif
