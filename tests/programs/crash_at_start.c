// Crashes before reading any input: the very first run finds it.
// EXPECT-ERROR: crash 5 11
int main(void) {
    volatile int *p = (int *)16;
    *p = 1;
    return 0;
}
