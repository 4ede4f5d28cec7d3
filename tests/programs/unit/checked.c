/* checked.c: a function that fails an assertion on some inputs and counts its calls in a global (sympath unit e2e). */
#include <assert.h>

int calls;

int scale(int x, int factor) {
    calls++;
    assert(factor != 0);
    if (x > 1000) return x / factor;
    return x * factor;
}
