// Symbolic values through calls, returns, memory, memcpy and a switch with shared case bodies.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 36
// EXPECT-REPLAY
#include <string.h>
#include "sympath.h"
void reach_error(void);

struct pair { int a; short b; };

static int classify(int v) {
    switch (v) {
    case 1:
    case 2: return 10;
    case 5: return 20;
    case 1000000: return 30;
    default: return 0;
    }
}

static int weigh(const struct pair *p) { return classify(p->a) + p->b; }

int main(void) {
    struct pair in, copy;
    in.a = sym_int("a");
    in.b = sym_short("b");
    memcpy(&copy, &in, sizeof copy);
    int w = weigh(&copy);
    if (w == 30 + 7) {
        unsigned char bytes[8];
        sym_bytes(bytes, 8, "bytes");
        unsigned long long word;
        memcpy(&word, bytes, 8);
        if ((__builtin_bswap64(word) >> 8) == 0x01020304050607ull) {
            if (__builtin_popcountll(word) == 13)
                reach_error();
        }
    }
    return 0;
}
