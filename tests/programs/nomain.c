// A file without main: sympath must say so clearly and exit non-zero.
// EXPECT-BUILD-FAIL: no main
int helper(int x) { return x + 1; }
