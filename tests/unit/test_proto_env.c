/* test_proto_env.c: every SYMPATH_* environment variable is spelled once, in src/proto/env.h: the source tree holds no other "SYMPATH_..." string literal. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "proto/env.h"
#include "util/util.h"

/*
 * A string literal that starts with SYMPATH_ (a double quote, or an escaped one in
 * generated C text, right before the name) is an environment variable's name written
 * out by hand. "-DSYMPATH_..." (a compile definition) does not start with the name and
 * is not counted. Returns the number of such literals in text and prints each with
 * file:line.
 */
static int count_literals(const char *file, const char *text)
{
    int n = 0, line = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            line++;
        else if (*p == '"' && !strncmp(p + 1, "SYMPATH_", 8)) {
            fprintf(stderr, "%s:%d: a SYMPATH_ name as a string literal: use its macro in src/proto/env.h\n", file,
                    line);
            n++;
        }
    }
    return n;
}

/* Count the literals in every .c and .h file under dir, env.h itself excepted. */
static int scan_tree(const char *dir, int *files)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *path = util_strf("%s/%s", dir, e->d_name);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        size_t len = strlen(path);
        if (S_ISDIR(st.st_mode)) {
            n += scan_tree(path, files);
        } else if (len > 2 && (!strcmp(path + len - 2, ".c") || !strcmp(path + len - 2, ".h")) &&
                   !strstr(path, "/src/proto/env.h")) {
            char *text = util_read_file(path, NULL);
            assert_non_null(text);
            n += count_literals(path, text);
            (*files)++;
            free(text);
        }
        free(path);
    }
    closedir(d);
    return n;
}

/* The scanner sees what it must see (else the tree test would pass vacuously). */
static void test_scanner(void **state)
{
    assert_int_equal(count_literals("x.c", "getenv(\"SYMPATH_NEW\");\n"), 1);
    assert_int_equal(count_literals("x.c", "puts(\"int f = getenv(\\\"SYMPATH_NEW\\\");\");\n"), 1);
    assert_int_equal(count_literals("x.c", "getenv(SYMPATH_ENV_TESTCASE); av_push(\"-DSYMPATH_REPLAY_GCOV\");\n"), 0);
}

/* No file of src/ but env.h spells a SYMPATH_ variable's name. */
static void test_no_literal_outside_env_h(void **state)
{
    int files = 0;
    int n = scan_tree(SYMPATH_SOURCE_DIR "/src", &files);
    assert_true(files > 100); /* the tree was found */
    assert_int_equal(n, 0);
}

/* env.h: each macro is SYMPATH_ENV_X "SYMPATH_X", with a comment on its line or just above, names distinct. */
static void test_env_h_entries(void **state)
{
    char *text = util_read_file(SYMPATH_SOURCE_DIR "/src/proto/env.h", NULL);
    assert_non_null(text);
    char names[64][64];
    int count = 0;
    const char *prev_end = text; /* the text between the previous entry and this one */
    for (char *p = strstr(text, "#define SYMPATH_ENV_"); p; p = strstr(p + 1, "#define SYMPATH_ENV_")) {
        char macro[64], value[64];
        if (!strncmp(p, "#define SYMPATH_ENV_H\n", 22)) continue; /* the include guard */
        assert_int_equal(sscanf(p, "#define SYMPATH_ENV_%63[A-Z0-9_] \"%63[A-Z0-9_]\"", macro, value), 2);
        char expect[80];
        snprintf(expect, sizeof expect, "SYMPATH_%s", macro);
        assert_string_equal(value, expect);
        const char *eol = strchr(p, '\n');
        int commented = 0;
        for (const char *q = p; q < eol; q++) commented |= q[0] == '/' && q[1] == '*';
        for (const char *q = prev_end; q < p; q++) commented |= q[0] == '*' && q[1] == '/';
        if (!commented) fprintf(stderr, "env.h: %s has no comment\n", value);
        assert_true(commented);
        for (int i = 0; i < count; i++) assert_string_not_equal(names[i], value);
        assert_true(count < 64);
        strcpy(names[count++], value);
        prev_end = eol;
    }
    assert_true(count >= 30);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scanner),
        cmocka_unit_test(test_no_literal_outside_env_h),
        cmocka_unit_test(test_env_h_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
