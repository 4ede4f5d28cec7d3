/* unit_inc_header.h: a header found only through -I (sympath unit e2e). */
typedef short small_t;
#define LIMIT 100
