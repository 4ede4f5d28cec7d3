/* fuzz_proto_results.c: libFuzzer target: the .results reader on any bytes; what it accepts is written and read back the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    results r, again;
    char *err = NULL;
    if (results_parse((const char *)data, size, &r, &err) != 0) {
        if (!err) abort(); /* a failure always says why */
        free(err);
        return 0;
    }
    /* accepted text must survive the writer and the reader unchanged */
    char *text = results_format(&r);
    if (!text) { /* only out of memory: every item the reader accepts is writable */
        results_free(&r);
        return 0;
    }
    if (results_parse(text, strlen(text), &again, &err) != 0) abort();
    char *text2 = results_format(&again);
    if (!text2 || strcmp(text, text2) != 0) abort();
    free(text);
    free(text2);
    results_free(&again);
    results_free(&r);
    return 0;
}
