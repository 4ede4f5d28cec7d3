// Character classes on symbolic chars, as calls (isdigit, isspace, isalpha, toupper: the ctype models) and in the preprocessed form glibc's macros expand to ((*__ctype_b_loc())[c] & mask, *__ctype_toupper_loc()), read exactly over the whole 384-entry table.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 35
// EXPECT-NO-CONCRETIZATION: external_call
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 4s
#include <ctype.h>
extern char __VERIFIER_nondet_char(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_ctype.c", 11, "reach_error"); }
/* what a preprocessed Test-Comp .i file contains */
extern const unsigned short int **__ctype_b_loc(void);
extern const int **__ctype_toupper_loc(void);

int main(void) {
    char a = __VERIFIER_nondet_char(), b = __VERIFIER_nondet_char();
    char c = __VERIFIER_nondet_char(), d = __VERIFIER_nondet_char();
    int score = 0;
    if (isdigit(a))
        score += a - '0';
    else if (isspace(a))
        score -= 1;
    if (isalpha(b) && toupper(b) == 'Q')
        score += 10;
    /* the macro forms: 2048 is _ISdigit, 8192 _ISspace, 1024 _ISalpha (little endian) */
    if ((*__ctype_b_loc())[(int)c] & (unsigned short)2048) {
        score += 100;
    } else if ((*__ctype_b_loc())[(int)c] & (unsigned short)8192) {
        if (c == '\v')
            score += 1000;
    }
    if ((*__ctype_b_loc())[(int)d] & (unsigned short)1024) {
        int up = (*__ctype_toupper_loc())[(int)d];
        if (up == 'Z' && isdigit(a) && a == '7' && b == 'q' && c == '3')
            reach_error();
    }
    return score;
}
