/* worker_stub.c: TEMPORARY stand-in for explore_run_worker until the parallel explorer is merged (drop it then). */
#include <stdio.h>

#include "explorer.h"

int explore_run_worker(const explore_run_opts *r, const char *exe, const char *sites, const char *work_dir)
{
    fprintf(r->log ? r->log : stderr, "sympath run: explore_run_worker: not yet (%s, %s, %s)\n", exe, sites, work_dir);
    return 1;
}
