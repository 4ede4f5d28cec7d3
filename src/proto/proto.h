/* proto.h: the formats that cross processes (trace ABI, replay.conf, .results, query logs, the executor's environment): one reader and one writer each. */
#ifndef SYMPATH_PROTO_H
#define SYMPATH_PROTO_H

/*
 * Every file or shared-memory layout one sympath process writes and another reads
 * is defined here, with its writer and its reader next to each other and a
 * round-trip test in tests/unit/test_proto_*.c. Sections are added per format.
 */

#endif
