/* scale_exec.c: a parallel-exploration workload (bench/scale.sh) whose time goes into executions.
 * Each run first does a fixed amount of concrete work (about a million rounds of a table mix that
 * do not depend on the inputs: a few milliseconds), then interprets 32 symbolic bytes as a small
 * command language: a state machine with keywords, numbers, registers and nested blocks. The
 * branches are byte comparisons and small sums, so the solver's queries are cheap; there are many
 * of them, and the deep ones need a sequence of earlier ones, so one executor does not exhaust
 * the tree in a minute. */
#include "sympath.h"

#define WORK 1200000
#define LEN 32

static unsigned int table[256];

/* concrete work: about a million rounds of mixing, independent of the inputs */
static unsigned int concrete_work(void)
{
    unsigned int h = 2166136261u;
    for (int i = 0; i < 256; i++)
        table[i] = (unsigned int)i * 2654435761u;
    for (int i = 0; i < WORK; i++) {
        h ^= table[(h >> 24) & 0xff];
        h = (h ^ (unsigned int)i) * 16777619u;
        h ^= h >> 13;
        table[i & 0xff] += h;
    }
    return h;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* a keyword at s[i..]: 0 when none */
static int keyword(const unsigned char *s, int i)
{
    if (i + 3 > LEN)
        return 0;
    if (s[i] == 's' && s[i + 1] == 'e' && s[i + 2] == 't') return 1;
    if (s[i] == 'g' && s[i + 1] == 'e' && s[i + 2] == 't') return 2;
    if (s[i] == 'a' && s[i + 1] == 'd' && s[i + 2] == 'd') return 3;
    if (s[i] == 'm' && s[i + 1] == 'u' && s[i + 2] == 'l') return 4;
    if (s[i] == 'j' && s[i + 1] == 'm' && s[i + 2] == 'p') return 5;
    if (s[i] == 'c' && s[i + 1] == 'm' && s[i + 2] == 'p') return 6;
    if (s[i] == 'o' && s[i + 1] == 'u' && s[i + 2] == 't') return 7;
    if (s[i] == 'e' && s[i + 1] == 'n' && s[i + 2] == 'd') return 8;
    return 0;
}

int main(void)
{
    unsigned char s[LEN];
    unsigned int h = concrete_work();
    sym_bytes(s, LEN, "cmd");
    int reg[4] = {0, 0, 0, 0};
    int depth = 0, outs = 0, errors = 0, flag = 0, steps = 0;
    int i = 0;
    while (i < LEN && steps < 16) {
        steps++;
        unsigned char c = s[i];
        if (c == ' ' || c == ';') { i++; continue; }
        if (c == '{') { depth++; if (depth > 2) errors++; i++; continue; }
        if (c == '}') { if (depth == 0) errors++; else depth--; i++; continue; }
        if (c == '#') break; /* comment to the end */
        int k = keyword(s, i);
        if (k == 0) {
            if (is_digit(c)) { reg[0] = reg[0] * 10 + (c - '0'); i++; continue; }
            if (is_alpha(c)) { errors++; i++; continue; }
            errors += 2;
            i++;
            continue;
        }
        i += 3;
        /* an operand: a register r0..r3 or a digit */
        int r = -1, v = 0;
        if (i + 1 < LEN && s[i] == 'r' && s[i + 1] >= '0' && s[i + 1] <= '3') { r = s[i + 1] - '0'; i += 2; }
        else if (i < LEN && is_digit(s[i])) { v = s[i] - '0'; i++; }
        else errors++;
        switch (k) {
        case 1: if (r >= 0) reg[r] = v; else reg[1] = v; break;
        case 2: if (r >= 0) reg[0] = reg[r]; else if (v > 5) reg[0] = v; break;
        case 3: if (r >= 0) reg[0] += reg[r]; else reg[0] += v; if (reg[0] > 20) flag |= 1; break;
        case 4: if (r >= 0) reg[0] *= reg[r]; else reg[0] *= v; if (reg[0] == 42) flag |= 2; break;
        case 5: if (depth > 0 && r == 2) flag |= 4; else if (v == 7) flag |= 8; break;
        case 6: if (r >= 0 && reg[r] == reg[0]) flag |= 16; else if (reg[0] < v) flag |= 32; break;
        case 7: outs++; if (outs == 3) flag |= 64; break;
        case 8: if (depth == 0 && errors == 0) flag |= 128; i = LEN; break;
        }
    }
    int score = 0;
    if (flag & 1) score++;
    if (flag & 2) score++;
    if ((flag & 6) == 6) score += 2;
    if (flag & 8) score++;
    if ((flag & 16) && depth == 1) score += 3;
    if (flag & 32) score++;
    if (flag & 64) score++;
    if ((flag & 128) && outs > 0) score += 4;
    if (score > 8) score = 8;
    return (score + (int)(h & 1)) & 0x7f;
}
