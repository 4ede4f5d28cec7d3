// A reactive loop that never ends by itself: runs end at the input limit (normally), tests replay to the same point, and the error needs a sequence of three inputs.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 16
// EXPECT-REPLAY
// SYMPATH-ARGS: --input-limit 100 --budget 3s
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "reactive_loop.c", 8, "reach_error"); }

int main(void) {
    int state = 0;
    while (1) {
        int in = __VERIFIER_nondet_int();
        if (in == 1 && state == 0) state = 1;
        else if (in == 2 && state == 1) state = 2;
        else if (in == 3 && state == 2) reach_error();
        else if (in == 9) state = 0;
    }
}
