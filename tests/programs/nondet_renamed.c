// Input functions of names the runtime does not define, each an input of its declared return type (unsigned and signed integers of every width, _Bool, a struct returned in registers and one in memory, long double, a pointer, a 128-bit integer read as bytes, a void function that cannot be an input, one called without any declaration: int): the build succeeds, every branch is covered and replay reads the same values.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 0
// EXPECT-REPLAY
#include <stdint.h>
extern unsigned int __VERIFIER_nondet_unsigned_int(void);
extern unsigned short __VERIFIER_nondet_unsigned_short(void);
extern unsigned char __VERIFIER_nondet_unsigned_char(void);
extern unsigned long __VERIFIER_nondet_unsigned_long(void);
extern int8_t __VERIFIER_nondet_int8(void);
extern int16_t __VERIFIER_nondet_int16(void);
extern int32_t __VERIFIER_nondet_int32(void);
extern int64_t __VERIFIER_nondet_int64(void);
extern _Bool __VERIFIER_nondet_flag(void);
struct pair { int a; short b; };
struct big { long x, y, z; };
extern struct pair __VERIFIER_nondet_pair(void);
extern struct big __VERIFIER_nondet_big(void);
extern long double __VERIFIER_nondet_long_double(void);
extern int *__VERIFIER_nondet_intptr(void);
extern __int128 __VERIFIER_nondet_wide(void);
extern void __VERIFIER_nondet_nothing(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "nondet_renamed.c", 23, "reach_error"); }

int main(void) {
    unsigned int ui = __VERIFIER_nondet_unsigned_int();
    unsigned short us = __VERIFIER_nondet_unsigned_short();
    unsigned char uc = __VERIFIER_nondet_unsigned_char();
    unsigned long ul = __VERIFIER_nondet_unsigned_long();
    int8_t s8 = __VERIFIER_nondet_int8();
    int16_t s16 = __VERIFIER_nondet_int16();
    int32_t s32 = __VERIFIER_nondet_int32();
    int64_t s64 = __VERIFIER_nondet_int64();
    _Bool f = __VERIFIER_nondet_flag();
    struct pair p = __VERIFIER_nondet_pair();
    struct big g = __VERIFIER_nondet_big();
    long double ld = __VERIFIER_nondet_long_double();
    int *ptr = __VERIFIER_nondet_intptr();
    __int128 w = __VERIFIER_nondet_wide();
    int implicit = __VERIFIER_nondet_unsigned_long_long(); /* no prototype: returns int */
    if (ui < 4000000000u)           /* unsigned compare: needs a value above 2^31 */
        return 0;
    if (us < 60000)                 /* zero-extended: 60000..65535 */
        return 1;
    if (uc != 200)
        return 2;
    if (ul <= 0xffffffffffff0000ul)
        return 3;
    if (s8 != -100 || s16 != -30000)  /* sign-extended narrow returns */
        return 4;
    if (s32 >= -7 || s64 != -5000000000ll)
        return 5;
    if (!f)
        return 6;
    if (implicit != -5)
        return 11;
    if (p.a != 12345 || p.b != -2)   /* struct in registers */
        return 7;
    if (g.z != 77)                   /* struct in memory (sret) */
        return 8;
    __VERIFIER_nondet_nothing();      /* no type to be an input of: reported, returns */
    reach_error();
    /* concrete inputs (long double, pointer) and a 128-bit value read as bytes: no branch on them */
    return 10 + (int)ld + (ptr != 0) + (int)(w >> 64);
}
