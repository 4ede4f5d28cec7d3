/* nap.c: a function whose test on one side of its branch is slow natively (a 0.4 s sleep): sympath unit drops it (test_unit_errors.sh, with the slow_test hook). */
#include <unistd.h>

/* 1 after a nap when ms is over 1000 (the nap is 0.4 s whatever ms), else 0 at once. */
int nap(unsigned ms)
{
    if (ms > 1000) {
        usleep(400000);
        return 1;
    }
    return 0;
}
