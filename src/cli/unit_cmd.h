/* unit_cmd.h: `sympath unit`: CMocka unit tests for single C functions (harness, exploration, emission, verification). */
#ifndef SYMPATH_UNIT_CMD_H
#define SYMPATH_UNIT_CMD_H

/* argv[0] is "unit". Returns the process exit code: 0 when at least one test file was
 * written, 1 when nothing could be tested (parse/build error, no test kept), 2 on a usage
 * error (unknown option or function name). */
int cmd_unit(int argc, char **argv);

#endif
