// Calls an uninstrumented libc function (strtold: sympath models strtol and strtod, not strtold) on symbolic bytes: its result is concrete, so a run can diverge.
// EXPECT-DIVERGENCE
#include <stdlib.h>
#include "sympath.h"

int main(void) {
    char buf[4];
    sym_bytes(buf, 3, "digits");
    buf[3] = 0;
    long v = (long)strtold(buf, 0);  /* not instrumented: v is concrete */
    if (v > 0) {
        if (buf[1] == 'x') return 1;
    } else {
        if (buf[0] == '7') return 2;
    }
    return 0;
}
