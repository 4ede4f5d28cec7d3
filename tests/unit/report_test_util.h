/* report_test_util.h: helpers of the report component's unit tests: a scratch output directory with files written from strings. */
#ifndef SYMPATH_REPORT_TEST_UTIL_H
#define SYMPATH_REPORT_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"

/* Write text to dir/rel, creating the directories on the way (asserts on failure). */
static inline void put_file(const char *dir, const char *rel, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    char *slash = strrchr(path, '/');
    *slash = 0;
    assert_int_equal(util_mkdir_p(path), 0);
    *slash = '/';
    assert_int_equal(util_write_atomic(path, text, strlen(text)), 0);
}

/* A fresh scratch directory (malloc'ed path); removed by rm_dir. */
static inline char *scratch_dir(void)
{
    char *d = strdup("/tmp/sympath_report_XXXXXX");
    assert_non_null(mkdtemp(d));
    return d;
}

static inline void rm_dir(char *d)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    assert_int_equal(system(cmd), 0);
    free(d);
}

#endif
