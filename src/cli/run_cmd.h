/* run_cmd.h: `sympath run`: build the instrumented executor and explore the program. */
#ifndef SYMPATH_RUN_CMD_H
#define SYMPATH_RUN_CMD_H

#include <stddef.h>
#include <stdint.h>

/* argv[0] is "run". Returns the process exit code: 0 when the exploration ran (whatever
 * it found), 1 when the program could not be built or explored, 2 on a usage error. */
int cmd_run(int argc, char **argv);

/* Parse a duration such as "60", "60s", "1.5m", "500ms", "2h" into seconds.
 * Returns 0 and sets *seconds, or -1 when the text is not a duration. */
int parse_duration(const char *text, double *seconds);

struct sym_posix_opts;
struct db_setup;
/* Write OUT/build/replay.conf (atomically, by proto.h's one writer): sources, flags, the replay
 * library, the branch figures covered/total, nondet and POSIX lines, the SQLite database lines
 * when db->schema is set for SQLite, and the replay_pq.c line when replaypq is set (db and posix
 * may be NULL). 0, or -1 after a message on stderr. */
int write_replay_conf(const char *out, char *const *abs_sources, size_t n, const char *cflags,
                      const struct sym_posix_opts *posix, uint32_t covered, uint32_t total, const struct db_setup *db,
                      int replaypq);

#endif
