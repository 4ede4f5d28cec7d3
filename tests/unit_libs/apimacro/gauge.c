/* gauge.c: the gauge library; its definitions repeat the export macro, and one function is declared only here. */
#include "gauge.h"

/* not in the header: its prototype must be rebuilt from the types, the macro expanded */
GAUGE_API(int) gauge_scaled(int reading, int percent);

GAUGE_API(const char *) gauge_level_name(gauge_level level) {
    switch (level) {
    case GAUGE_LOW: return "low";
    case GAUGE_MID: return "mid";
    case GAUGE_HIGH: return "high";
    }
    return "?";
}

GAUGE_API(gauge_level) gauge_classify(const gauge *g, int reading) {
    int limit = g ? g->limit : 100;
    if (reading > limit) return GAUGE_HIGH;
    if (reading > limit / 2) return GAUGE_MID;
    return GAUGE_LOW;
}

GAUGE_API(int) gauge_peak(const gauge *g) {
    if (g == NULL || g->count == 0) return -1;
    size_t n = g->count < 4 ? g->count : 4;
    int best = g->readings[0];
    for (size_t i = 1; i < n; i++)
        if (g->readings[i] > best) best = g->readings[i];
    return best;
}

GAUGE_API(int) gauge_scaled(int reading, int percent) {
    if (percent <= 0) return 0;
    if (percent > 200) percent = 200;
    return reading / 100 * percent;
}
