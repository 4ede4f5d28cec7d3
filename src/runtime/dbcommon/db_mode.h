/* db_mode.h: the one rule both database dispatchers (sqlite_dispatch.c, pq_dispatch.c) use to pick fixture mode, data mode or pass-through. */
#ifndef SYMPATH_DB_MODE_H
#define SYMPATH_DB_MODE_H

#include <stdbool.h>
#include "data_rt.h"

/*
 * An intercepted database call runs in one of three modes, decided in this order for
 * every API:
 *   RT_DB_DATA     `sympath data` on an existing database (SYMPATH_DATA_PLAN set): the
 *                  user's database read-only, values as data inputs (data_*.c);
 *   RT_DB_FIXTURE  `sympath run --db`: a fresh database per run from the fixture in the
 *                  test vector, rows symbolic (db_*.c);
 *   RT_DB_PLAIN    neither: the library's own function, concrete results (__sym_ret NULL).
 * The two modes never meet in one executor (different commands set their variables).
 */
typedef enum rt_db_mode { RT_DB_PLAIN = 0, RT_DB_FIXTURE, RT_DB_DATA } rt_db_mode;

/* The mode of a call, given whether this API's fixture mode is configured (an environment
 * test; the data plan is read once per run). */
static inline rt_db_mode rt_db_mode_of(bool fixture_wanted)
{
    if (data_rt_active()) return RT_DB_DATA;
    return fixture_wanted ? RT_DB_FIXTURE : RT_DB_PLAIN;
}

#endif
