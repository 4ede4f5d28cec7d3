/* fuzz_replay_testcase.c (includes src/replay/rt/replay.c, the library compiled into the program): the Test-Comp testcase XML reader and its literal parsing. */
#include <stddef.h>
#include <stdint.h>

/*
 * rt/replay.c is compiled by `sympath replay` as one file next to the program, so it is
 * included here whole (without SYMPATH_REPLAY_POSIX, so nothing wraps main). The input is a testcase document:
 * parse_testcase reads its <input> elements, then every value is converted the way
 * each input function converts it (64-bit, 128-bit, float, double).
 *
 * The library allocates from its own mmap'd arena, which it never gives back (see
 * xalloc): each input's allocations are rolled back after it, so that a long run does
 * not grow without bound. ASan does not see inside the arena; what it checks here is
 * every read of the document, which is an exact-size heap copy.
 */
#include "replay/rt/replay.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *doc = malloc(size + 1);
    if (!doc) return 0;
    memcpy(doc, data, size);
    doc[size] = '\0';
    char *arena = g_arena;
    size_t left = g_arena_left;
    g_vals = NULL;
    g_nvals = g_cap = g_next = 0;
    g_loaded = 1; /* no SYMPATH_TESTCASE: running past the end reads 0 */
    parse_testcase(doc);
    for (size_t i = 0; i < g_nvals; i++) {
        /* the 64-bit, 128-bit and floating conversions of each value */
        g_next = i;
        volatile uint64_t a = next_int();
        g_next = i;
        volatile unsigned __int128 b = next_int128();
        g_next = i;
        volatile double c = next_double();
        g_next = i;
        volatile float d = next_float();
        (void)a, (void)b, (void)c, (void)d;
    }
    free(doc);
    /* roll the arena back when no new block was mapped for this input */
    if (arena && (uintptr_t)g_arena - (uintptr_t)arena == left - g_arena_left) {
        g_arena = arena;
        g_arena_left = left;
    }
    return 0;
}
