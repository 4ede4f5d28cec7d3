/* ops.c: a device driven through an ops table whose flush slot is optional (sympath unit e2e). */
#include <stddef.h>

struct dev_ops {
    int (*read)(int reg);
    int (*flush)(void);
};

struct device {
    const struct dev_ops *ops;
    int state;
};

int dev_sync(struct device *d) {
    int v = d->ops->read(1);
    if (v < 0) {
        d->state = -1;
        return -1;
    }
    if (d->ops->flush != NULL) {
        if (d->ops->flush() != 0) return 2;
    }
    d->state = v;
    return 1;
}
