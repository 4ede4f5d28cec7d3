/* unit_proc.c: the steps of `sympath unit` run their tools through util_run with these settings. */
#include "unit_proc.h"

#include "util/util.h"

int up_run(char *const *argv, char *const *env_add, const char *log, double timeout_s, int *status)
{
    util_proc p = { .argv = argv, .env_add = env_add, .out_path = log ? log : "/dev/null",
                    .timeout_s = timeout_s, .new_group = 1 };
    return util_run(&p, status);
}
