// A command-line tool reading its mode from argv[1] and a number from stdin, through strcmp, atoi, isdigit and scanf/sscanf (--sym-args, --sym-stdin and the libc models together). Every branch is covered and replay feeds the same argv and stdin.
// SYMPATH-ARGS: --sym-args 1 1 3 --sym-stdin 4 --budget 30s
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 0
// EXPECT-REPLAY
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "posix_libc.c", 11, "reach_error"); }

int main(int argc, char **argv) {
    int n;
    if (strcmp(argv[1], "add") == 0) {
        if (scanf("%d", &n) != 1)
            return 1;
        if (n + 1 == 100)
            reach_error();
        printf("%d\n", n + 1);
    } else if (isdigit((unsigned char)argv[1][0])) {
        int k = atoi(argv[1]);
        if (k > 42)
            puts("big");
        else
            puts("small");
    } else {
        char word[8];
        char line[8];
        if (!fgets(line, sizeof line, stdin))
            return 2;
        if (sscanf(line, "%7s", word) == 1 && word[0] == 'q')
            puts("quit");
    }
    return 0;
}
