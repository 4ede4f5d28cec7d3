/* test_proto_replay_conf.c: replay.conf's writer and reader agree (round trip), malformed lines are named, unknown keys ignored. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "proto/proto.h"
#include "util/util.h"

static void same_str(const char *a, const char *b)
{
    if (!a || !b)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

/* Every field of a equals that of b. */
static void assert_same(const replay_conf *a, const replay_conf *b)
{
    assert_int_equal(a->nsources, b->nsources);
    for (size_t i = 0; i < a->nsources; i++) assert_string_equal(a->sources[i], b->sources[i]);
    same_str(a->cflags, b->cflags);
    same_str(a->include_dir, b->include_dir);
    same_str(a->replaylib, b->replaylib);
    assert_int_equal(a->branches_covered, b->branches_covered);
    assert_int_equal(a->branches_total, b->branches_total);
    same_str(a->nondet, b->nondet);
    assert_int_equal(a->args_on, b->args_on);
    assert_int_equal(a->args_min, b->args_min);
    assert_int_equal(a->args_max, b->args_max);
    assert_int_equal(a->arg_len, b->arg_len);
    assert_int_equal(a->stdin_on, b->stdin_on);
    assert_int_equal(a->stdin_max, b->stdin_max);
    assert_int_equal(a->nfiles, b->nfiles);
    for (size_t i = 0; i < a->nfiles; i++) {
        assert_string_equal(a->files[i].name, b->files[i].name);
        assert_int_equal(a->files[i].size, b->files[i].size);
    }
    same_str(a->posixconf, b->posixconf);
    same_str(a->db_schema, b->db_schema);
    assert_int_equal(a->db_inputs, b->db_inputs);
    assert_int_equal(a->db_no_faults, b->db_no_faults);
    same_str(a->replaydb, b->replaydb);
    same_str(a->replaypq, b->replaypq);
}

/* A configuration with every field set, paths with blanks and quotes. */
static void full_conf(replay_conf *c)
{
    replay_conf_init(c);
    assert_int_equal(replay_conf_add_source(c, "/src/my dir/a.c"), 0);
    assert_int_equal(replay_conf_add_source(c, "/src/b.c"), 0);
    c->cflags = strdup("-DN=4 '-DMSG=\"a b\"' -I/x\\ y");
    c->include_dir = strdup("/inc");
    c->replaylib = strdup("/lib/replay.c");
    c->branches_covered = 7;
    c->branches_total = 12;
    c->nondet = strdup("/out/build/nondet.bc");
    c->args_on = 1, c->args_min = 0, c->args_max = 2, c->arg_len = 3;
    c->stdin_on = 1, c->stdin_max = 7;
    assert_int_equal(replay_conf_add_file(c, "we\"ird\\name with blanks", 4), 0);
    assert_int_equal(replay_conf_add_file(c, "f.txt", 1), 0);
    c->posixconf = strdup("/out/build/posix_conf.c");
    c->db_schema = strdup("/out/build/schema.sql");
    c->db_inputs = 18;
    c->db_no_faults = 1;
    c->replaydb = strdup("/lib/replay_db.c");
    c->replaypq = strdup("/lib/replay_pq.c");
}

static void test_round_trip_file(void **state)
{
    char dir[] = "/tmp/sympath-proto-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *path = util_strf("%s/replay.conf", dir);
    replay_conf w, r;
    full_conf(&w);
    char *err = NULL;
    assert_int_equal(replay_conf_write(path, &w, &err), 0);
    assert_int_equal(replay_conf_read(path, &r, &err), 0);
    assert_null(err);
    assert_same(&w, &r);
    replay_conf_free(&r);
    /* the minimum: one source and the library; absent values stay absent */
    replay_conf_free(&w);
    assert_int_equal(replay_conf_add_source(&w, "/a.c"), 0);
    w.replaylib = strdup("/lib/replay.c");
    assert_int_equal(replay_conf_write(path, &w, &err), 0);
    assert_int_equal(replay_conf_read(path, &r, &err), 0);
    w.cflags = strdup(""); /* the writer always writes the cflags line */
    assert_same(&w, &r);
    assert_int_equal(r.branches_total, -1);
    replay_conf_free(&r);
    replay_conf_free(&w);
    unlink(path);
    rmdir(dir);
    free(path);
}

static void test_format_is_the_documented_text(void **state)
{
    replay_conf c;
    full_conf(&c);
    free(c.replaypq);
    c.replaypq = NULL;
    char *err = NULL;
    char *t = replay_conf_format(&c, &err);
    assert_non_null(t);
    assert_string_equal(t, "sympath-replay 1\n"
                           "source /src/my dir/a.c\n"
                           "source /src/b.c\n"
                           "cflags -DN=4 '-DMSG=\"a b\"' -I/x\\ y\n"
                           "include /inc\n"
                           "replaylib /lib/replay.c\n"
                           "branches 7 12\n"
                           "nondet /out/build/nondet.bc\n"
                           "sym-args 0 2 3\n"
                           "sym-stdin 7\n"
                           "sym-file 4 we\"ird\\name with blanks\n"
                           "sym-file 1 f.txt\n"
                           "posixconf /out/build/posix_conf.c\n"
                           "db_schema /out/build/schema.sql\n"
                           "db_inputs 18\n"
                           "db_faults 0\n"
                           "replaydb /lib/replay_db.c\n");
    free(t);
    /* a line break in a value could not be read back */
    free(c.nondet);
    c.nondet = strdup("/a\nsource /evil.c");
    assert_null(replay_conf_format(&c, &err));
    assert_non_null(err);
    assert_non_null(strstr(err, "nondet"));
    free(err);
    replay_conf_free(&c);
}

/* Parse text; expect failure with an error containing want. */
static void expect_error(const char *text, const char *want)
{
    replay_conf c;
    char *err = NULL;
    assert_int_equal(replay_conf_parse(text, strlen(text), &c, &err), -1);
    assert_non_null(err);
    if (!strstr(err, want)) fail_msg("error '%s' does not contain '%s'", err, want);
    assert_int_equal(c.nsources, 0); /* freed */
    free(err);
}

static void test_malformed_lines(void **state)
{
    expect_error("", "empty");
    expect_error("sympath-replay 2\nsource /a.c\nreplaylib /r.c\n", "line 1: not a version 1");
    expect_error("source /a.c\n", "line 1:");
    expect_error("sympath-replay 1\nsource /a.c\nreplaylib /r.c\nbranches 3\n", "line 4: branches needs two counts");
    expect_error("sympath-replay 1\nsource /a.c\nbranches x y\n", "line 3: branches");
    expect_error("sympath-replay 1\nbranches 5 3\n", "line 2: branches");
    expect_error("sympath-replay 1\nsource /a.c\nreplaylib /r.c\ndb_inputs -1\n", "line 4: db_inputs");
    expect_error("sympath-replay 1\nsource /a.c\nreplaylib /r.c\ndb_faults 2\n", "line 4: db_faults");
    expect_error("sympath-replay 1\nsym-args 1 2\n", "line 2: sym-args");
    expect_error("sympath-replay 1\nsym-stdin\n", "line 2: sym-stdin");
    expect_error("sympath-replay 1\nsym-file 3\n", "line 2: sym-file");
    expect_error("sympath-replay 1\nsym-file 3 \n", "line 2: sym-file");
    expect_error("sympath-replay 1\nsource\n", "line 2: source needs a path");
    expect_error("sympath-replay 1\nsource /a.c\ncflags -DX='a\n", "line 3: cflags: unterminated");
    expect_error("sympath-replay 1\nsource /a.c\n", "needs at least one `source` and a `replaylib`");
    const char nul[] = "sympath-replay 1\nsource /a\0.c\nreplaylib /r.c\n";
    replay_conf c;
    char *err = NULL;
    assert_int_equal(replay_conf_parse(nul, sizeof nul - 1, &c, &err), -1);
    assert_non_null(strstr(err, "line 2: a NUL byte"));
    free(err);
}

static void test_unknown_keys_and_crlf(void **state)
{
    const char *t = "sympath-replay 1\r\n"
                    "source /a.c\r\n"
                    "future-key whatever 1 2 3\n"
                    "replaylib /r.c\n"
                    "include /i1\n"
                    "include /i2\n" /* the last one counts */
                    "branches 0 0"; /* no final newline */
    replay_conf c;
    char *err = NULL;
    assert_int_equal(replay_conf_parse(t, strlen(t), &c, &err), 0);
    assert_int_equal(c.nsources, 1);
    assert_string_equal(c.sources[0], "/a.c");
    assert_null(c.sources[1]);
    assert_string_equal(c.include_dir, "/i2");
    assert_int_equal(c.branches_total, 0);
    assert_null(c.cflags);
    replay_conf_free(&c);
}

static void test_read_missing_file(void **state)
{
    replay_conf c;
    char *err = NULL;
    assert_int_equal(replay_conf_read("/nonexistent/replay.conf", &c, &err), -1);
    assert_non_null(strstr(err, "cannot read /nonexistent/replay.conf"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_file),   cmocka_unit_test(test_format_is_the_documented_text),
        cmocka_unit_test(test_malformed_lines),   cmocka_unit_test(test_unknown_keys_and_crlf),
        cmocka_unit_test(test_read_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
