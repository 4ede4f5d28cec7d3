/* models_ctype.c: character classes and case mapping of the "C" locale, as functions and as glibc's __ctype_*_loc tables. */

/*
 * Two forms reach sympath. A program compiled from C sources by sympath calls the
 * functions (the build passes -D__NO_CTYPE, which makes glibc's <ctype.h> declare
 * isdigit & co. as functions instead of table-lookup macros); their models below are
 * range tests, which the solver handles best. A preprocessed .i file has the macros
 * already expanded to `(*__ctype_b_loc())[(int)(c)] & mask`; for it __ctype_b_loc,
 * __ctype_toupper_loc and __ctype_tolower_loc return our own tables, and a lookup at a
 * symbolic index becomes a select over the whole table (rt_symidx.c reads any known
 * global object of at most SYMIDX_MAX_ELEMS elements whole), so it is exact too.
 *
 * Table layout as glibc's "C" locale on a little-endian machine: 384 entries for
 * indexes -128..255, the returned pointer addresses entry 0 (index 128 of the array).
 * Class bits are glibc's _ISbit values (<ctype.h>): bit n < 8 is 1 << (n + 8), else
 * 1 << (n - 8), for n = upper 0, lower 1, alpha 2, digit 3, xdigit 4, space 5,
 * print 6, graph 7, blank 8, cntrl 9, punct 10, alnum 11.
 */
#include "models.h"

/* Each class is one expression of c (non-short-circuit & and |), so a branch on it in the
 * program is one branch site, whatever the class's ranges. */
int __sym_model_isdigit(int c) { return (c >= '0') & (c <= '9'); }
int __sym_model_isupper(int c) { return (c >= 'A') & (c <= 'Z'); }
int __sym_model_islower(int c) { return (c >= 'a') & (c <= 'z'); }
int __sym_model_isalpha(int c) { return __sym_model_isupper(c) | __sym_model_islower(c); }
int __sym_model_isalnum(int c) { return __sym_model_isalpha(c) | __sym_model_isdigit(c); }
int __sym_model_isspace(int c) { return (c == ' ') | ((c >= '\t') & (c <= '\r')); }
int __sym_model_isblank(int c) { return (c == ' ') | (c == '\t'); }
int __sym_model_iscntrl(int c) { return ((c >= 0) & (c < ' ')) | (c == 127); }
int __sym_model_isprint(int c) { return (c >= ' ') & (c < 127); }
int __sym_model_isgraph(int c) { return (c > ' ') & (c < 127); }
int __sym_model_ispunct(int c) { return __sym_model_isgraph(c) & !__sym_model_isalnum(c); }
int __sym_model_isascii(int c) { return (c >= 0) & (c < 128); }
int __sym_model_isxdigit(int c)
{
    return __sym_model_isdigit(c) | ((c >= 'a') & (c <= 'f')) | ((c >= 'A') & (c <= 'F'));
}
/* 'a' - 'A' == 32: the case bit, added or removed by the class bit shifted into place */
int __sym_model_toupper(int c) { return c - (__sym_model_islower(c) << 5); }
int __sym_model_tolower(int c) { return c + (__sym_model_isupper(c) << 5); }
/* XSI/BSD: _toupper/_tolower as the table macros glibc defines them (the "C" locale maps
 * like toupper/tolower), toascii keeps the low 7 bits. */
int __sym_model__toupper(int c) { return __sym_model_toupper(c); }
int __sym_model__tolower(int c) { return __sym_model_tolower(c); }
int __sym_model_toascii(int c) { return c & 0x7f; }

#define B_UPPER 0x100
#define B_LOWER 0x200
#define B_ALPHA 0x400
#define B_DIGIT 0x800
#define B_XDIGIT 0x1000
#define B_SPACE 0x2000
#define B_PRINT 0x4000
#define B_GRAPH 0x8000
#define B_BLANK 0x1
#define B_CNTRL 0x2
#define B_PUNCT 0x4
#define B_ALNUM 0x8

/* Rows of 16 entries: 0x00-0x7f of the "C" locale; 0x80-0xff and negative indexes are 0. */
#define C_ B_CNTRL
#define CS (B_CNTRL | B_SPACE)
#define CB (B_CNTRL | B_SPACE | B_BLANK)
#define SP (B_PRINT | B_SPACE | B_BLANK)
#define PU (B_PRINT | B_GRAPH | B_PUNCT)
#define DI (B_PRINT | B_GRAPH | B_DIGIT | B_XDIGIT | B_ALNUM)
#define UX (B_PRINT | B_GRAPH | B_UPPER | B_ALPHA | B_XDIGIT | B_ALNUM)
#define UP (B_PRINT | B_GRAPH | B_UPPER | B_ALPHA | B_ALNUM)
#define LX (B_PRINT | B_GRAPH | B_LOWER | B_ALPHA | B_XDIGIT | B_ALNUM)
#define LO (B_PRINT | B_GRAPH | B_LOWER | B_ALPHA | B_ALNUM)
const unsigned short __sym_model_ctype_b_table[384] = {
    [128 + 0x00] = C_, C_, C_, C_, C_, C_, C_, C_, C_, CB, CS, CS, CS, CS, C_, C_,
    [128 + 0x10] = C_, C_, C_, C_, C_, C_, C_, C_, C_, C_, C_, C_, C_, C_, C_, C_,
    [128 + 0x20] = SP, PU, PU, PU, PU, PU, PU, PU, PU, PU, PU, PU, PU, PU, PU, PU,
    [128 + 0x30] = DI, DI, DI, DI, DI, DI, DI, DI, DI, DI, PU, PU, PU, PU, PU, PU,
    [128 + 0x40] = PU, UX, UX, UX, UX, UX, UX, UP, UP, UP, UP, UP, UP, UP, UP, UP,
    [128 + 0x50] = UP, UP, UP, UP, UP, UP, UP, UP, UP, UP, UP, PU, PU, PU, PU, PU,
    [128 + 0x60] = PU, LX, LX, LX, LX, LX, LX, LO, LO, LO, LO, LO, LO, LO, LO, LO,
    [128 + 0x70] = LO, LO, LO, LO, LO, LO, LO, LO, LO, LO, LO, PU, PU, PU, PU, C_,
};

/* Case tables: index c maps to toupper(c) / tolower(c); negative indexes -128..-2 map to
 * c + 256 and -1 (EOF) to itself, as in glibc. Filled on first use. */
int __sym_model_ctype_toupper_table[384];
int __sym_model_ctype_tolower_table[384];

static const unsigned short *__sym_libc_ctype_b_ptr = &__sym_model_ctype_b_table[128];
static const int *__sym_libc_ctype_toupper_ptr = &__sym_model_ctype_toupper_table[128];
static const int *__sym_libc_ctype_tolower_ptr = &__sym_model_ctype_tolower_table[128];

static void __sym_libc_fill_case_tables(void)
{
    for (int c = -128; c < 256; c++) {
        int v = c < -1 ? c + 256 : c;
        __sym_model_ctype_toupper_table[c + 128] = v >= 'a' && v <= 'z' ? v - 'a' + 'A' : v;
        __sym_model_ctype_tolower_table[c + 128] = v >= 'A' && v <= 'Z' ? v - 'A' + 'a' : v;
    }
}

const unsigned short **__sym_model___ctype_b_loc(void) { return &__sym_libc_ctype_b_ptr; }

const int **__sym_model___ctype_toupper_loc(void)
{
    if (__sym_model_ctype_toupper_table['A' + 128] == 0) __sym_libc_fill_case_tables();
    return &__sym_libc_ctype_toupper_ptr;
}

const int **__sym_model___ctype_tolower_loc(void)
{
    if (__sym_model_ctype_toupper_table['A' + 128] == 0) __sym_libc_fill_case_tables();
    return &__sym_libc_ctype_tolower_ptr;
}
