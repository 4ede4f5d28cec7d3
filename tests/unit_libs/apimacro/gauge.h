/* gauge.h: a small library whose every prototype is spelled through an export macro, GAUGE_API(type) name(...),
 * as shipped libraries do (sympath unit e2e: test_unit_api_macro.sh). */
#ifndef GAUGE_H
#define GAUGE_H

#include <stddef.h>

#if defined(GAUGE_BUILD_SHARED)
#define GAUGE_API(type) __attribute__((visibility("default"))) type
#else
#define GAUGE_API(type) type
#endif

typedef enum gauge_level { GAUGE_LOW, GAUGE_MID, GAUGE_HIGH } gauge_level;

typedef struct gauge {
    int readings[4];
    size_t count;
    int limit;
} gauge;

/* the name of a level ("low", "mid", "high", "?") */
GAUGE_API(const char *) gauge_level_name(gauge_level level);
/* the level of a reading against limit */
GAUGE_API(gauge_level) gauge_classify(const gauge *g, int reading);
/* the largest of the first count readings (count at most 4); -1 for NULL or none */
GAUGE_API(int) gauge_peak(const gauge *g);

#endif
