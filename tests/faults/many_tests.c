// many_tests.c: 24 independent branch sites, so that almost every run keeps a test (tests/e2e/test_faults_*.sh).
extern int __VERIFIER_nondet_int(void);
#define T(k) if (__VERIFIER_nondet_int() == (k) * 7919) n += (k);
int main(void) {
    int n = 0;
    T(1) T(2) T(3) T(4) T(5) T(6) T(7) T(8) T(9) T(10) T(11) T(12)
    T(13) T(14) T(15) T(16) T(17) T(18) T(19) T(20) T(21) T(22) T(23) T(24)
    return n == 7;
}
