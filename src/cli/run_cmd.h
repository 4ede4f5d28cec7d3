/* run_cmd.h: `sympath run`: options, then explore_run (src/explore); the duration parser the commands share. */
#ifndef SYMPATH_RUN_CMD_H
#define SYMPATH_RUN_CMD_H

#include <stddef.h>

/* argv[0] is "run". Returns the process exit code: 0 when the exploration ran (whatever
 * it found), 1 when the program could not be built or explored, 2 on a usage error. */
int cmd_run(int argc, char **argv);

/* Parse a duration such as "60", "60s", "1.5m", "500ms", "2h" into seconds.
 * Returns 0 and sets *seconds, or -1 when the text is not a duration. */
int parse_duration(const char *text, double *seconds);

#endif
