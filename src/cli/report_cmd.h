/* report_cmd.h: the `sympath report` command: the static HTML report of an output directory. */
#ifndef SYMPATH_REPORT_CMD_H
#define SYMPATH_REPORT_CMD_H

/*
 * `sympath report OUT [-o DIR]`; argv[0] is "report". Writes DIR/index.html (default
 * OUT/report) with report_write_html (src/report) and prints its path on stdout. Returns
 * the exit code: 0 written, 1 when OUT has no readable report.json or DIR cannot be
 * written, 2 for a usage error.
 */
int cmd_report(int argc, char **argv);

#endif
