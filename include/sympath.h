/* sympath.h: the API a program under test uses to declare symbolic inputs and assumptions. */
#ifndef SYMPATH_H
#define SYMPATH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Every call returns the next value of the test case's input vector (call order,
 * as in Test-Comp's test-format) and, when the program runs under `sympath run`,
 * makes that value a fresh input symbol of the returned type's width. `name` labels
 * the input in generated test cases (may be NULL). Under `sympath replay` the same
 * functions read the values back from a test case, so a test replays natively.
 * Under `sympath run` a value past the end of the run's vector reads as 0 (up to the run's
 * input limit, where the run ends); under replay, asking for a value past the end of the
 * test case ends the program with exit(0), and without a test case every value is 0.
 */
int sym_int(const char *name);
unsigned sym_uint(const char *name);
long sym_long(const char *name);
unsigned long sym_ulong(const char *name);
char sym_char(const char *name);
unsigned char sym_uchar(const char *name);
short sym_short(const char *name);
unsigned short sym_ushort(const char *name);
_Bool sym_bool(const char *name);
int8_t sym_i8(const char *name);
uint8_t sym_u8(const char *name);
int16_t sym_i16(const char *name);
uint16_t sym_u16(const char *name);
int32_t sym_i32(const char *name);
uint32_t sym_u32(const char *name);
int64_t sym_i64(const char *name);
uint64_t sym_u64(const char *name);
size_t sym_size_t(const char *name);
/* IEEE binary32 / binary64 inputs (any bit pattern: NaNs, infinities, -0.0, denormals). */
float sym_float(const char *name);
double sym_double(const char *name);

/* Fill buf[0..n) with n symbolic bytes (n inputs of type unsigned char). */
void sym_bytes(void *buf, size_t n, const char *name);

/* v's value in this run, without its symbolic expression and with no constraint on it: a
 * concretization the path condition does not keep (as SymCC concretizes the arguments of calls it
 * cannot follow). A loop that runs sym_concrete(n) times adds no branch on n, so the explorer stays
 * free to change n (a harness filling n elements then padding to a fixed count: the inputs keep their
 * positions whatever n is). Under replay, v. */
uint64_t sym_concrete(uint64_t v);

/* Prune the paths on which cond is false: the run ends silently (no test, no error). */
void sym_assume(int cond);

/* Report an assertion failure (ERR_ASSERT) when cond is false. */
void sym_assert(int cond);

#ifdef __cplusplus
}
#endif
#endif
