#!/bin/bash
# test_db_lookup.sh: `sympath run --db` on a parcel looked up by tracking number after three report queries
# (ORDER BY ... LIMIT, GROUP BY ... HAVING, a correlated NOT EXISTS count over two tables; tests/db/lookup.c): within
# 25 runs the lookup returns its row and the branch on its weight goes both ways. Before the `cov` strategy put the
# first rows asked of a query that never returned one in tier 1 (row_untried, strategy_cov.c), they waited in tier 3
# behind the report queries' shallower row events, which every run adds again: no run got the parcel.
test=db_lookup
. "$SRC/tests/e2e/db_lines.sh"

# the lookup's row (33) and the weight read from it (34)
run lookup 25 33 34
echo "ok [db_lookup]: the parcel's row found and its weight both ways within 25 runs"
