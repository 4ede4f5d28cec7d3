/* scale_cfg.h: configuration of scale.c, found only through the -I of the compilation database. */
#ifndef SCALE_CFG_H
#define SCALE_CFG_H
#ifndef SCALE_FACTOR
#error "SCALE_FACTOR must be defined (-DSCALE_FACTOR=N, from the compilation database)"
#endif
typedef long scale_t;
#define SCALE_MAX (1000 * SCALE_FACTOR)
#endif
