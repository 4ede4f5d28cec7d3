// A file that does not compile: sympath must show clang's diagnostics and exit non-zero.
// EXPECT-BUILD-FAIL: error:
int main(void) { int x = ; return x }
