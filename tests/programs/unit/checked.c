/* checked.c: a function that fails an assertion on some inputs (sympath unit e2e). */
#include <assert.h>

int scale(int x, int factor) {
    assert(factor != 0);
    if (x > 1000) return x / factor;
    return x * factor;
}
