/* nested.c: a struct with nested pointers, a string field and a T ** parameter (sympath unit e2e). */
#include <stddef.h>
#include <string.h>

struct point {
    int x, y;
};

struct box {
    struct point *min;
    struct point *max;
    const char *label;
};

int box_check(const struct box *b) {
    if (b == NULL || b->min == NULL || b->max == NULL) return -1;
    if (b->min == b->max) return 0;
    if (b->min->x > b->max->x || b->min->y > b->max->y) return 2;
    if (b->label != NULL && strcmp(b->label, "root") == 0) return 3;
    return 1;
}

int box_take(struct box **slot) {
    if (slot == NULL || *slot == NULL) return -1;
    struct box *b = *slot;
    if (b->min != NULL && b->min->x == 99) {
        b->min->x = 0;
        *slot = NULL;
        return 1;
    }
    return 0;
}
