/* data_cmd.h: `sympath data`: a program tested on an existing database (SQLite file or PostgreSQL), never written. */
#ifndef SYMPATH_DATA_CMD_H
#define SYMPATH_DATA_CMD_H

/* argv[0] is "data". Returns 0 when the exploration ran, 1 when the program could not be
 * built or the database not opened, 2 on a usage error. */
int cmd_data(int argc, char **argv);

#endif
