/* tagged.c: a tagged-union value type (enum kind + union of long, double, char[8]) read by pointer and by value, a union returned and one a mock returns (sympath unit e2e). */
#include <string.h>

enum kind { K_INT, K_REAL, K_TEXT };

struct value {
    enum kind k;
    union {
        long i;
        double d;
        char s[8];
    } u;
};

/* 1 when v is "true": a nonzero integer, a positive real, a text not starting with '0' or NUL. */
int value_truthy(const struct value *v)
{
    if (v == NULL) return -1;
    switch (v->k) {
    case K_INT: return v->u.i != 0;
    case K_REAL:
        if (v->u.d > 0.5) return 1;
        return 0;
    case K_TEXT:
        if (v->u.s[0] == 0) return 0;
        if (v->u.s[0] == '0') return 0;
        return 1;
    }
    return -2;
}

/* Order of two values of one kind: -1, 0, 1; 2 when the kinds differ. */
int value_compare(struct value a, struct value b)
{
    if (a.k != b.k) return 2;
    switch (a.k) {
    case K_INT:
        if (a.u.i < b.u.i) return -1;
        return a.u.i > b.u.i;
    case K_REAL:
        if (a.u.d < b.u.d) return -1;
        return a.u.d > b.u.d;
    case K_TEXT: {
        int c = strncmp(a.u.s, b.u.s, sizeof a.u.s);
        if (c < 0) return -1;
        return c > 0;
    }
    }
    return 3;
}

/* Complements an integer value in place (a write through the pointer the assertions see); 0, or -1 for another kind. */
int value_flip(struct value *v)
{
    if (v == NULL || v->k != K_INT) return -1;
    if (v->u.i == 42) {
        v->u.i = 0;
        return 1;
    }
    v->u.i = ~v->u.i;
    return 0;
}

union bits {
    unsigned long n;
    double d;
};

/* The 64 bits of a number value (a union of members of one size: every byte is determinate). */
union bits value_bits(const struct value *v)
{
    union bits b;
    if (v == NULL || v->k == K_TEXT) {
        b.n = 0;
        return b;
    }
    if (v->k == K_REAL)
        b.d = v->u.d;
    else
        b.n = (unsigned long)v->u.i;
    return b;
}

/* A device register, defined by no file here: a mock whose union result is an input. */
union bits reg_read(void);

/* 1 when the register holds a real above 1.0. */
int reg_high(void)
{
    union bits b = reg_read();
    if (b.d > 1.0) return 1;
    return 0;
}
