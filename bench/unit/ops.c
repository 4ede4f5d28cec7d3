/* ops.c: code driven through an ops table with optional slots (sympath unit benchmark). */
#include <stddef.h>

struct codec_ops {
    int (*open)(int flags);
    int (*encode)(int sample);
    void (*close)(int handle);
};

struct codec {
    const struct codec_ops *ops;
    int handle;
    int frames;
};

int codec_run(struct codec *c, int sample) {
    if (c->ops->open != NULL) {
        c->handle = c->ops->open(1);
        if (c->handle < 0) return -1;
    }
    int e = c->ops->encode(sample);
    if (e > 255) e = 255;
    c->frames++;
    if (c->ops->close != NULL) c->ops->close(c->handle);
    return e;
}
