/* fuzz_proto_replay_conf.c: libFuzzer target: replay.conf's reader on any bytes; what it accepts is written and read back the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    replay_conf c, again;
    char *err = NULL;
    if (replay_conf_parse((const char *)data, size, &c, &err) != 0) {
        if (!err) abort(); /* a failure always says why */
        free(err);
        return 0;
    }
    /* accepted text must survive the writer and the reader unchanged */
    char *text = replay_conf_format(&c, &err);
    if (!text) {
        free(err); /* only out of memory: every value the reader accepts is writable */
        replay_conf_free(&c);
        return 0;
    }
    if (replay_conf_parse(text, strlen(text), &again, &err) != 0) abort();
    char *text2 = replay_conf_format(&again, &err);
    if (!text2 || strcmp(text, text2) != 0) abort();
    free(text);
    free(text2);
    replay_conf_free(&again);
    replay_conf_free(&c);
    return 0;
}
