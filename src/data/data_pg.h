/* data_pg.h: the read-only PostgreSQL connection of data mode, shared by the explorer (source_pg.c) and the executor (data_pq.c). */
#ifndef SYMPATH_DATA_PG_H
#define SYMPATH_DATA_PG_H

#include <stdbool.h>
#include <stddef.h>
#include <libpq-fe.h>

/*
 * Connect to `conninfo` (a URI or key=value string) so that nothing done on the
 * connection can write: the server option default_transaction_read_only=on is given at
 * connection start (so RESET and DISCARD ALL keep it), then
 *   SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY; SET default_transaction_read_only = on
 * are run. A write then fails with PostgreSQL's own error ("cannot execute INSERT in a
 * read-only transaction"). A program could still turn this off with SQL of its own: see
 * data_pg_refused. Options the conninfo gives in its own "options" are replaced. Also
 * synchronize_seqscans = off: a scan of a large table then always starts at its first
 * block, so LIMIT n OFFSET m of the same query in a later run continues where the
 * earlier one stopped. And client_encoding = 'UTF8': the text libpq returns is then the
 * bytes convert_to(value, 'UTF8') computes in SQL (the executor's terms for text bytes),
 * whatever the database's encoding.
 * Returns the connection, owned by the caller (PQfinish). When the server cannot be
 * reached the connection is returned with PQstatus CONNECTION_BAD and libpq's message.
 * When it connected but the read-only setup failed, the connection is closed and NULL
 * returned with the server's message in err[0..cap) (never a writable connection).
 * NULL with "out of memory" when libpq could not allocate.
 */
PGconn *data_pg_connect(const char *conninfo, char *err, size_t cap);

/*
 * True when the statement text could make the connection writable again, so data mode
 * refuses to run it: it names transaction_read_only / default_transaction_read_only
 * (SET, set_config, ALTER ... SET), asks for READ WRITE (BEGIN / START TRANSACTION /
 * SET TRANSACTION / SET SESSION CHARACTERISTICS ... READ WRITE), or changes the session
 * characteristics. Case-insensitive, blanks between words of any length; the keywords
 * count outside '...' constants, the setting's name anywhere. A false positive (a column
 * named transaction_read_only) refuses a harmless statement.
 */
bool data_pg_refused(const char *sql);

/* The error text of a result or connection without its trailing newline, into
 * buf[0..cap) (always terminated); res may be NULL (then the connection's message). */
void data_pg_message(const PGconn *conn, const PGresult *res, char *buf, size_t cap);

#endif
