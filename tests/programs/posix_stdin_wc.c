// A wc-like program reading standard input to end of file through fdopen(0) with fgetc/ungetc/feof (--sym-stdin: up to 4 symbolic bytes of symbolic length), and the standard stream stdin when it is empty. Every branch is covered and replay feeds the same bytes on fd 0.
// SYMPATH-ARGS: --sym-stdin 4 --budget 10s
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 0
// EXPECT-REPLAY
#include <stdio.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "posix_stdin_wc.c", 8, "reach_error"); }

int main(void) {
    int c, lines = 0, words = 0, chars = 0, inword = 0;
    FILE *in = fdopen(0, "r");          /* a new stream on the symbolic descriptor 0 */
    while ((c = fgetc(in)) != EOF) {
        chars++;
        if (c == '\n')
            lines++;
        if (c == ' ' || c == '\n')
            inword = 0;
        else if (!inword) {
            inword = 1;
            words++;
        }
        if (c == '#') {                 /* "##" counts as one character: look one ahead */
            int d = fgetc(in);
            if (d != '#')
                ungetc(d, in);
        }
    }
    if (chars == 0) /* 4: at end of file, and stdin is the same (empty) input */
        return 4 + !feof(in) + (getchar() != EOF);
    if (chars == 4 && words == 2 && lines == 1)
        reach_error();
    printf("%d %d %d\n", lines, words, chars);
    return 0;
}
