/* inilite.c: an INI-like reader of a FILE * (sympath unit e2e: FILE * parameters as symbolic streams). */
#include <stdio.h>
#include <string.h>

/* Counts the key=value lines of f inside a [section]; -1 for a key before any section or a line
 * that is neither a section, a comment (';'), a blank line nor key=value. f is never NULL. */
int count_keys(FILE *f)
{
    char line[32];
    int keys = 0, in_section = 0;
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        if (n > 0 && line[n - 1] == '\n') line[--n] = '\0';
        if (n == 0 || line[0] == ';') continue;
        if (line[0] == '[') {
            if (line[n - 1] != ']') return -1;
            in_section = 1;
        } else if (strchr(line, '=')) {
            if (!in_section) return -1;
            keys++;
        } else
            return -1;
    }
    return keys;
}

/* Whether the first line rd gives opens a section. */
static int first_line_opens(char *(*rd)(char *, int, FILE *), FILE *f)
{
    char line[8];
    return rd(line, (int)sizeof line, f) != NULL && line[0] == '[';
}

/* Whether the first line of f opens a section: 1, else 0; reads through a pointer to fgets (the
 * executor must pass fgets' model, not libc's fgets, for the bytes of f to be symbolic). */
int opens_section(FILE *f) { return first_line_opens(fgets, f); }

/* Writes `key=value` to out (iniparser_dump's shape: a FILE * the function writes to), or `;key` when value
 * is empty; returns what fprintf returned. */
int write_pair(FILE *out, const char *key, const char *value)
{
    if (!value[0]) return fprintf(out, ";%s\n", key);
    return fprintf(out, "%s=%s\n", key, value);
}
