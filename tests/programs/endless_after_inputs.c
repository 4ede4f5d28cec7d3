// Every run ends in an endless loop after its inputs (as sv-benchmarks' heap-data tasks do): after two time-outs confirmed as hangs, later ones are not run again with the longer limit, so each run costs the time limit, not five times it.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: timeout 0
// SYMPATH-ARGS: --budget 3s --timeout 100ms
extern int __VERIFIER_nondet_int(void);

int main(void)
{
    int n = 0;
    if (__VERIFIER_nondet_int() == 5) n++;
    if (__VERIFIER_nondet_int() == 16) n++;
    if (__VERIFIER_nondet_int() == 27) n++;
    if (__VERIFIER_nondet_int() == 38) n++;
    if (__VERIFIER_nondet_int() == 49) n++;
    if (__VERIFIER_nondet_int() == 60) n++;
    if (__VERIFIER_nondet_int() == 71) n++;
    if (__VERIFIER_nondet_int() == 82) n++;
    volatile int k = n, x = 0;
    for (;;) { /* a run is stopped at any of these branches: a new location each time */
        k = (k + 5) % 12;
        if (k == 0) x++;
        if (k == 1) x++;
        if (k == 2) x++;
        if (k == 3) x++;
        if (k == 4) x++;
        if (k == 5) x++;
        if (k == 6) x++;
        if (k == 7) x++;
        if (k == 8) x++;
        if (k == 9) x++;
        if (k == 10) x++;
        if (k == 11) x++;
    }
}
