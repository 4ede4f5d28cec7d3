/* scale.c: needs -Iinclude and -DSCALE_FACTOR from its compilation database (sympath unit e2e: test_unit_compdb.sh). */
#include "scale_cfg.h"

scale_t scale(int v) {
    scale_t r = (scale_t)v * SCALE_FACTOR;
    if (r > SCALE_MAX) return SCALE_MAX;
    if (r < -SCALE_MAX) return -SCALE_MAX;
    return r;
}
