// A program branching on its command line (--sym-args 0 2 3: up to two symbolic arguments of up to 3 bytes): argc checks, an option `-v`, a number argument. Every branch is covered and replay passes the same argv.
// SYMPATH-ARGS: --sym-args 0 2 3 --budget 10s
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 0
// EXPECT-REPLAY
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "posix_args.c", 7, "reach_error"); }

static int number(const char *s) {
    int n = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        n = n * 10 + (*s - '0');
    }
    return n;
}

int main(int argc, char **argv) {
    int verbose = 0;
    if (argc < 2)
        return 1;                       /* usage */
    int i = 1;
    if (argv[1][0] == '-') {
        if (argv[1][1] != 'v' || argv[1][2] != '\0')
            return 2;                   /* unknown option */
        verbose = 1;
        i++;
    }
    if (i >= argc)
        return 3;                       /* no operand */
    int n = number(argv[i]);
    if (n < 0)
        return 4;
    if (verbose && n == 42)
        reach_error();
    return 0;
}
