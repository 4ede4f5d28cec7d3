// Reads and writes at symbolic indexes: a load a[i] is a select over the elements around it, so a branch on the value is symbolic.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 25
// EXPECT-REPLAY
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "array_index.c", 8, "reach_error"); }

int table[20] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4};
unsigned char bytes[8];

int main(void) {
    int i = __VERIFIER_nondet_int();
    int j = __VERIFIER_nondet_int();
    if (i < 0 || i >= 20 || j < 0 || j >= 8) return 0;
    for (int k = 0; k < 8; k++) bytes[k] = __VERIFIER_nondet_uchar();
    int hits = 0;
    if (table[i] == 7) hits++;              /* only i == 13 */
    if (bytes[j] == 0xab) hits++;           /* a symbolic byte chosen by a symbolic index */
    int k = table[i] % 8;
    if (hits == 2 && bytes[k] == 0x11) {
        int w = table[(i + j) % 20];
        if (w == 8)
            reach_error();
    }
    return 0;
}
