// hard_queries.c: a branch that asks Z3 to factor a 64-bit product: far too slow for a 1 ms solver time-out (tests/e2e/test_faults_solver.sh).
extern unsigned long __VERIFIER_nondet_ulong(void);
int main(void) {
    unsigned long a = __VERIFIER_nondet_ulong(), b = __VERIFIER_nondet_ulong();
    if (a > 1 && b > 1 && a < (1ul << 32) && b < (1ul << 32) && a * b == 3221225473ul * 2013265921ul)
        return 1;
    return 0;
}
