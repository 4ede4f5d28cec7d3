/* memory.c: how much heap sympath itself holds (its execution tree, path conditions, Z3), and the default bound of it. */
#define _GNU_SOURCE
#include <malloc.h>
#include <unistd.h>

#include "util.h"

uint64_t util_heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
}

unsigned util_default_max_memory_mb(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    uint64_t half = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 2 / (1024 * 1024) : 4096;
    return (unsigned)(half < 4096 ? (half > 256 ? half : 256) : 4096);
}
