// Structs passed by value keep their fields' expressions: returned in registers ({i64, i8*}, {double, double}, {i64, i64}; also through a function that passes one on, and from an input function returning a struct) and passed in memory (byval).
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 59
// EXPECT-NO-CONCRETIZATION: aggregate
// EXPECT-REPLAY
extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);
extern double __VERIFIER_nondet_double(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "struct_by_value.c", 10, "reach_error"); }

struct packet {
    unsigned size, prio;
    const char *payload;
}; /* {i64, i8*} */
struct point {
    double x, y;
}; /* {double, double} */
struct range {
    long lo, hi;
}; /* {i64, i64} */
extern struct range __VERIFIER_nondet_range(void);
struct big {
    long a, b, c;
    int d;
}; /* passed byval */

static struct packet receive(void)
{
    struct packet k;
    k.size = __VERIFIER_nondet_uint();
    k.prio = __VERIFIER_nondet_int() ? 0 : 1;
    k.payload = "data";
    return k;
}

static struct packet forward(void) { return receive(); }

static int odd_big(struct big s) { return s.d % 2 == 1 && s.a == 11; }

static struct point at(void)
{
    double x = __VERIFIER_nondet_double();
    struct point q = {x, x + 1.0};
    return q;
}

int main(void)
{
    struct packet k = forward();
    if (k.size > 1000) return 1;
    if (k.prio == 1 && k.size == 7) return 2;
    struct point q = at();
    if (q.x > 1.5 && q.y < 3.5) return 3;
    struct range r = __VERIFIER_nondet_range();
    if (r.lo < 10 || r.hi > r.lo + 5) return 4;
    struct big b = {r.lo, 0, 0, (int)k.size};
    if (odd_big(b)) return 5;
    if (r.hi == 12 && k.size == 3) reach_error();
    return 0;
}
