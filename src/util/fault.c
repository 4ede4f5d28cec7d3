/* fault.c: the test hooks that make sympath itself fail on purpose (SYMPATH_FAULT), for the fault tests; all of them are here. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "proto/env.h"

/*
 * The hooks, each checked at one place:
 *   solver_fail   every query that needs Z3 is answered "unknown", as if Z3 had crashed or
 *                 given up (src/solver/solver.c, step 5 of solver_solve)
 *   solver_memory Z3's memory bound is 24 MB instead of 3072 (src/solver/solver.c): checks stop at
 *                 the bound, as a floating-point query that bit-blasts without end does
 *   slow_test     `sympath unit` drops emitted tests over 0.2 s natively instead of 2 s
 *                 (src/unit/step_verify.c), so that a test of it needs no 2-second run
 * Faults outside sympath's own code (a full disk, a slow disk, a killed executor, Ctrl-C)
 * are made from the outside: tests/faults/faultfs.c and tests/e2e/test_faults_*.sh.
 */
int util_fault(const char *name)
{
    const char *v = getenv(SYMPATH_ENV_FAULT);
    if (!v || !*v || !name || !*name) return 0;
    size_t n = strlen(name);
    for (const char *p = v; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0) return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}
