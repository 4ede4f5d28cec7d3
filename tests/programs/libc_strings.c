// A command parser on a symbolic buffer: strcmp, strncmp, strchr, strstr, strspn, strcasecmp keep their meaning (libc models), so the explorer reaches each keyword.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 28
// SYMPATH-ARGS: --budget 30s --max-execs 600
// EXPECT-NO-CONCRETIZATION: external_call
// EXPECT-REPLAY
#include <string.h>
#include <strings.h>
extern char __VERIFIER_nondet_char(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_strings.c", 10, "reach_error"); }

int main(void) {
    char buf[12];
    for (int i = 0; i < 11; i++)
        buf[i] = __VERIFIER_nondet_char();
    buf[11] = '\0';
    int score = 0;
    if (strcmp(buf, "quit") == 0)
        return 1;
    if (strncmp(buf, "set ", 4) == 0) {
        const char *eq = strchr(buf + 4, '=');
        if (eq != NULL && eq - buf == 6)
            score += 2;
        else
            score += 1;
    } else if (strcasecmp(buf, "HeLp") == 0) {
        if (buf[0] == 'h') reach_error();
    } else if (strstr(buf, "abc") != NULL) {
        score += 3;
    } else if (strspn(buf, "0123456789") >= 3) {
        score += 4;
    }
    return score;
}
