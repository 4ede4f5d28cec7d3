/* test_replay_pq.c: a program rebuilt by replay_build with replay_pq.c gets the results (and the writes' PQcmdTuples) the explorer side recorded: same site ids, SELECT test and flattening on both sides. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "data/data.h"
#include "proto/proto.h"
#include "replay/replay.h"
#include "util/util.h"

/* The statements the program runs, as it writes them: blanks, a ';', a comment, line breaks. */
#define Q_SELECT "  SELECT a, b FROM t WHERE k = 1 ;\n"
#define Q_COMMENTED "/* first */ select count(*) from t"
#define Q_INSERT "INSERT INTO t\n\tVALUES (1)"
#define Q_DELETE "DELETE FROM t WHERE k > 1"

static const char program[] =
    "#include <stdio.h>\n"
    "#include <libpq-fe.h>\n"
    "static const char *const qs[] = { \"  SELECT a, b FROM t WHERE k = 1 ;\\n\",\n"
    "    \"/* first */ select count(*) from t\", \"INSERT INTO t\\n\\tVALUES (1)\", \"select 2\",\n"
    "    \"DELETE FROM t WHERE k > 1\", \"DELETE FROM t WHERE k > 1\" };\n"
    "int main(void)\n"
    "{\n"
    "    PGconn *c = PQconnectdb(\"dbname=nowhere\");\n"
    "    if (PQstatus(c) != CONNECTION_OK)\n"
    "        return 2;\n"
    "    for (int i = 0; i < 6; i++) {\n"
    "        PGresult *r = PQexec(c, qs[i]);\n"
    "        printf(\"%d:%s\", i, PQresStatus(PQresultStatus(r)));\n"
    "        for (int k = 0; k < PQntuples(r); k++)\n"
    "            for (int j = 0; j < PQnfields(r); j++)\n"
    "                printf(\" %s=%s\", PQfname(r, j), PQgetisnull(r, k, j) ? \"NULL\" : PQgetvalue(r, k, j));\n"
    "        printf(\" [%s] <%s>\\n\", PQresultErrorMessage(r), PQcmdTuples(r));\n"
    "        PQclear(r);\n"
    "    }\n"
    "    PQfinish(c);\n"
    "    return 0;\n"
    "}\n";

/* The same implementation on both sides: the explorer side's functions agree with what the
 * replay (linked with lib/libsympath-replay.a) serves for the same text. */
static void test_replay_serves_recorded_results(void **state)
{
    char dir[] = "/tmp/sympath-replaypq-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *src = util_strf("%s/prog.c", dir), *prog = util_strf("%s/prog", dir), *res = util_strf("%s/t.results", dir);
    assert_int_equal(util_write_atomic(src, program, strlen(program)), 0);

    /* the results, written as the explorer side does: site ids and flattening of its own */
    assert_true(data_is_select(Q_SELECT, strlen(Q_SELECT)));
    assert_true(data_is_select(Q_COMMENTED, strlen(Q_COMMENTED)));
    assert_false(data_is_select(Q_INSERT, strlen(Q_INSERT)));
    char s1[17], s2[17], flat[256];
    data_site_id(Q_SELECT, strlen(Q_SELECT), s1);
    data_site_id(Q_COMMENTED, strlen(Q_COMMENTED), s2);
    proto_flat(flat, sizeof flat, Q_INSERT);
    strbuf b = STRBUF_INIT;
    results_put_header(&b, 0);
    results_put_result(&b, s1, 2);
    const char *names[] = {"a", "b"};
    results_put_names(&b, names, 2);
    const char *row[] = {"x y", NULL};
    results_put_row(&b, row, NULL, 2);
    results_put_end(&b);
    results_put_result(&b, s2, 1);
    results_put_error(&b, "ERROR:  no\ncount");
    results_put_end(&b);
    results_put_fail(&b, "ERROR:  duplicate key", flat);
    results_put_done(&b, "2", Q_DELETE); /* the first DELETE's count; the second has none: a read-only error */
    assert_false(b.failed);
    assert_int_equal(util_write_atomic(res, b.s, b.len), 0);
    sb_free(&b);

    replay_conf c;
    replay_conf_init(&c);
    assert_int_equal(replay_conf_add_source(&c, src), 0);
    c.include_dir = strdup(SYMPATH_INCLUDE_DIR);
    c.replaylib = strdup(SYMPATH_LIB_DIR "/replay.c");
    c.replaypq = strdup(SYMPATH_LIB_DIR "/replay_pq.c");
    char *err = NULL;
    if (replay_build(&c, dir, prog, 0, &err)) fail_msg("replay_build: %s", err ? err : "?");

    char *out = util_strf("%s/out.txt", dir), *errf = util_strf("%s/err.txt", dir),
         *envv = util_strf("SYMPATH_REPLAY_RESULTS=%s", res);
    char *argv[] = {prog, NULL}, *env[] = {envv, NULL};
    util_proc p = {.argv = argv, .env_add = env, .out_path = out, .err_path = errf, .timeout_s = 30};
    int st = 0;
    assert_int_equal(util_run(&p, &st), 0);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *text = util_read_file(out, NULL);
    assert_non_null(text);
    const char *want = "0:PGRES_TUPLES_OK a=x y b=NULL [] <1>\n"
                       "1:PGRES_FATAL_ERROR [ERROR:  no count\n] <>\n"
                       "2:PGRES_FATAL_ERROR [ERROR:  duplicate key\n] <>\n"
                       "3:PGRES_TUPLES_OK [] <>\n"
                       "4:PGRES_COMMAND_OK [] <2>\n"
                       "5:PGRES_FATAL_ERROR [ERROR:  cannot execute DELETE in a read-only transaction\n] <>\n";
    if (strcmp(text, want)) fail_msg("the replay printed:\n%s\nwanted:\n%s", text, want);

    /* a results file the reader refuses stops the test with the reason */
    assert_int_equal(util_write_atomic(res, "sympath-results 1\nrow\tx\n", 24), 0);
    assert_int_equal(util_run(&p, &st), 0);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 3);
    free(text);
    text = util_read_file(errf, NULL);
    assert_non_null(strstr(text, "line 2: 'row' outside a block"));

    free(text);
    replay_conf_free(&c);
    char *rm = util_strf("rm -rf '%s'", dir);
    assert_int_equal(system(rm), 0);
    free(rm), free(out), free(errf), free(envv), free(src), free(prog), free(res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_serves_recorded_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
