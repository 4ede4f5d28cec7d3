/* envcfg.c: reads its configuration with getenv, which --mock getenv replaces (sympath unit e2e). */
#include <stdlib.h>
#include <string.h>

int debug_level(void) {
    const char *v = getenv("APP_DEBUG");
    if (v == NULL) return 0;
    if (strcmp(v, "full") == 0) return 2;
    return 1;
}
