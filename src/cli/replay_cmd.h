/* replay_cmd.h: the `sympath replay` command: rebuild the program natively with the replay library and run the suite. */
#ifndef SYMPATH_REPLAY_CMD_H
#define SYMPATH_REPLAY_CMD_H

/*
 * `sympath replay OUT [--coverage] [--timeout SECONDS]`; argv[0] is "replay".
 * Reads OUT/build/replay.conf (written by `sympath run`), builds OUT/replay/prog
 * with gcc, runs every OUT/tests/test-*.xml and OUT/errors/error-*.xml in name
 * order (env SYMPATH_TESTCASE = the file, output to OUT/replay/<dir>-<name>.log,
 * each killed after SECONDS, default 10) and prints one line per test. With
 * --coverage the build is instrumented for gcov and gcovr's branch and line
 * totals are printed beside sympath's own branch count, plus an HTML report in
 * OUT/replay/coverage.html.
 * Returns the process exit code: 0 when every run of a tests/ file exited (any status)
 * and every run of an errors/ file ended abnormally (non-zero exit, signal or time-out);
 * 1 otherwise; 2 on usage, configuration, build or gcovr errors.
 */
int cmd_replay(int argc, char **argv);

#endif
