/* needs_inc.c: includes a header that is only found with -I (sympath unit bad-input e2e). */
#include "unit_inc_header.h"

int widen(small_t x) {
    if (x > LIMIT) return LIMIT;
    return x;
}
