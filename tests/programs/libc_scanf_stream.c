// scanf on a stream: the scanf model's stream source reads through fgetc/ungetc, here the program's own (as Test-Comp harnesses define them, returning nondet characters), so the scanned numbers are symbolic. (Replay is not expected to agree: natively, glibc's scanf does not call the program's fgetc.)
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 31
// EXPECT-NO-CONCRETIZATION: external_call
// SYMPATH-ARGS: --budget 10s
#include <stdio.h>
extern char __VERIFIER_nondet_char(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_scanf_stream.c", 9, "reach_error"); }

static int pushed = EOF, count = 0;
int fgetc(FILE *f) {
    if (pushed != EOF) {
        int c = pushed;
        pushed = EOF;
        return c;
    }
    if (count++ >= 6)
        return EOF;
    return (unsigned char)__VERIFIER_nondet_char();
}
int ungetc(int c, FILE *f) { pushed = c; return c; }

int main(void) {
    int a = 0, b = 0;
    int n = scanf("%d", &a);   /* the character after the number goes back with ungetc */
    if (n == EOF)
        return 3;
    int m = scanf("%d", &b);   /* ... and is the first one the second scanf reads */
    if (n == 1 && m == 1 && a == 12 && b == -3)
        reach_error();
    if (n == 1 && a > 100)
        return 1;
    return 0;
}
