/* envlevel.c: a static helper that reads getenv, tested directly with --mock getenv (test_unit_static.sh). */
#include <stdlib.h>
#include <string.h>

static int level_of(const char *name) {
    const char *v = getenv(name);
    if (v == NULL) return 0;
    if (strcmp(v, "full") == 0) return 2;
    return 1;
}

int debug_level(void) {
    return level_of("APP_DEBUG");
}
