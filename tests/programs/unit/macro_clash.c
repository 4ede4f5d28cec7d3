/* macro_clash.c: a lowercase macro that breaks the generated builders of pointer inputs; the function
 * without pointers must still be tested (sympath unit e2e for the per-function harness fallback). */
#include <stddef.h>
#define nal 1

struct item {
    int v;
};

int item_value(const struct item *it) {
    if (it == NULL) return -1;
    return it->v + nal;
}

int twice(int x) {
    if (x > 10) return 2 * x;
    return x;
}
