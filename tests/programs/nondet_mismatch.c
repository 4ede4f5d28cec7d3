// Input functions declared with other return types than the runtime's (int for _Bool and char, long for int, no prototype): the inputs stay symbolic and replay reads the same values.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 21
// EXPECT-REPLAY
extern int __VERIFIER_nondet_bool();
extern int __VERIFIER_nondet_char(void);
extern long __VERIFIER_nondet_int(void);
unsigned short __VERIFIER_nondet_ushort();
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "nondet_mismatch.c", 10, "reach_error"); }

int main(void) {
    int b = __VERIFIER_nondet_bool();
    int c = __VERIFIER_nondet_char();
    long i = __VERIFIER_nondet_int();
    int u = __VERIFIER_nondet_ushort();
    if (b != 1)
        return 0;
    if (c == -3) {               /* a negative char read as int: sign-extended */
        if (i == -100000 && u == 65000)
            reach_error();
        return 1;
    }
    return 2;
}
