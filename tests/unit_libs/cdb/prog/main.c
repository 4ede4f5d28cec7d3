/* main.c: a program of two files (with ../src/scale.c) for `sympath run --compile-commands` (test_unit_compdb.sh):
 * both need the database's -I and -D; the assertion fails when the input saturates the scale. */
#include <assert.h>

#include "scale_cfg.h"
#include "sympath.h"

scale_t scale(int v);

int main(void) {
    int v = sym_int("v");
    assert(scale(v) != SCALE_MAX);
    return 0;
}
