// sscanf of integers and a %s word from a symbolic line (the scanf model's one scanning core): items assigned, %d/%x/%c/%s/%[...]/%n, widths and '*', and branches on the scanned values.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 35
// EXPECT-NO-CONCRETIZATION: external_call
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 10s
#include <stdio.h>
#include <string.h>
extern char __VERIFIER_nondet_char(void);
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_scanf.c", 12, "reach_error"); }

int main(void) {
    char line[6];
    for (int i = 0; i < 5; i++)
        line[i] = __VERIFIER_nondet_char();
    line[5] = '\0';
    int score = 0;
    switch (__VERIFIER_nondet_int()) {
    case 0: {
        int a = 0, b = 0;
        int n = sscanf(line, "%d,%d", &a, &b);
        if (n == 2 && a == 12 && b == -3)
            score += 1;
        else if (n == 1)
            score += 2;
        else if (n == EOF)
            score += 3;
        break;
    }
    case 1: {
        char word[7];
        if (sscanf(line, "%s", word) == 1 && strcmp(word, "go") == 0)
            reach_error();
        break;
    }
    case 2: {
        unsigned x = 0;
        char c = 0;
        int used = 0;
        if (sscanf(line, "%2x%c%n", &x, &c, &used) == 2 && x == 0xaf && c == ':' && used == 3)
            score += 4;
        break;
    }
    default: {
        char key[7];
        int v = 0;
        if (sscanf(line, "%*c%[a-c]=%1d", key, &v) == 2 && v == 7 && key[1] == 'b')
            score += 5;
    }
    }
    return score;
}
