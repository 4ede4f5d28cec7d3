/* prog.c: a tiny stack-program compiler (the producer) and its evaluator (the target) for sympath unit's e2e test of the search's phases. */
#include <stdlib.h>

enum { OP_PUSH, OP_LOAD, OP_ADD, OP_SUB, OP_MUL, OP_NEG, OP_DUP, OP_MAX = 16 };

struct prog {
    int n;
    unsigned char op[OP_MAX];
    int arg[OP_MAX];
};

/* One instruction per character: a digit pushes it, x pushes the argument, + - * pop two and push
 * one, ~ negates, d duplicates, blanks are skipped, # starts a comment; NULL for anything else or a
 * stack that would underflow. */
struct prog *prog_compile(const char *src)
{
    struct prog *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    int depth = 0;
    for (const char *s = src; *s && *s != '#'; s++) {
        char c = *s;
        if (c == ' ' || c == '\t' || c == '\n') continue;
        if (p->n == OP_MAX) goto fail;
        int need = 0, push = 1;
        if (c >= '0' && c <= '9') {
            p->op[p->n] = OP_PUSH;
            p->arg[p->n] = c - '0';
            if (p->arg[p->n] > 9) goto fail; /* defensive: never true */
        } else if (c == 'x' || c == 'X') {
            p->op[p->n] = OP_LOAD;
        } else if (c == '+') {
            p->op[p->n] = OP_ADD;
            need = 2;
        } else if (c == '-') {
            p->op[p->n] = OP_SUB;
            need = 2;
        } else if (c == '*') {
            p->op[p->n] = OP_MUL;
            need = 2;
        } else if (c == '~') {
            p->op[p->n] = OP_NEG;
            need = 1;
        } else if (c == 'd') {
            p->op[p->n] = OP_DUP;
            need = 1;
            push = 2;
        } else {
            goto fail;
        }
        if (depth < need) goto fail;
        depth += push - need;
        p->n++;
    }
    if (depth != 1) goto fail;
    return p;
fail:
    free(p);
    return NULL;
}

void prog_free(struct prog *p) { free(p); }

/* The value of the program for x, clamped to [-1000, 1000]; a small value is classified. p must not be NULL. */
int prog_eval(const struct prog *p, int x)
{
    int st[OP_MAX], sp = 0;
    for (int i = 0; i < p->n; i++) {
        switch (p->op[i]) {
        case OP_PUSH: st[sp++] = p->arg[i]; break;
        case OP_LOAD: st[sp++] = x > 1000 ? 1000 : x < -1000 ? -1000 : x; break;
        case OP_ADD: sp--, st[sp - 1] += st[sp]; break;
        case OP_SUB: sp--, st[sp - 1] -= st[sp]; break;
        case OP_MUL: sp--, st[sp - 1] *= st[sp]; break;
        case OP_NEG: st[sp - 1] = -st[sp - 1]; break;
        default: st[sp] = st[sp - 1], sp++; break;
        }
    }
    int v = st[0];
    if (v > 1000) return 1000;
    if (v < -1000) return -1000;
    if (v == 42) return 4200;
    if (v > 100) return 100 + v % 7;
    if (v < -100) return -100 - (-v) % 5;
    return v;
}

/* The program's operations into ops, which has room for num_ops of them: how many, or -1 when they
 * do not fit. */
int prog_ops(const struct prog *p, int *ops, unsigned num_ops)
{
    if (p->n > (int)num_ops) return -1;
    for (int i = 0; i < p->n; i++) ops[i] = p->op[i];
    return p->n;
}
