// Defines its own read() and write() with nondet results, as SV-COMP harnesses do: the runtime's fork server and the replay library must not call them (the executor once exited at start-up: its protocol writes went to the program's write()).
// EXPECT-COVERAGE: 90
// EXPECT-ERROR: reach_error 34
// EXPECT-REPLAY
#include <stddef.h>
#include <sys/types.h>
extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_override.c", 10, "reach_error"); }

/* models: a result between -1 and n, one byte of the buffer set */
ssize_t read(int fd, void *buf, size_t n) {
    long r = __VERIFIER_nondet_long();
    if (r < -1 || r > (long)n)
        return -1;
    if (n > 0)
        ((char *)buf)[0] = (char)__VERIFIER_nondet_int();
    return r;
}

ssize_t write(int fd, const void *buf, size_t n) {
    long r = __VERIFIER_nondet_long();
    return r < -1 || r > (long)n ? -1 : r;
}

int main(void) {
    char line[8] = "hello";
    ssize_t got = read(0, line, sizeof line);
    if (got <= 0)
        return 1;
    ssize_t put = write(1, line, (size_t)got);
    if (put == got && line[0] == 'Z')
        reach_error();
    return 0;
}
