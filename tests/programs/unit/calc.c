/* calc.c: a tiny expression evaluator (calc_create parses a text and its length, calc_eval evaluates, calc_destroy(c, vars) releases) for sympath unit's e2e test of producers that fail and destructors of two arguments. */
#include <stdlib.h>

/* A variable an expression refers to, by its one-letter name. */
struct calc_var {
    int value;
    char name;
    struct calc_var *next;
};

/* The variables of the expressions made with it: calc_create adds the ones it meets, calc_destroy
 * frees them. Starts zeroed (`struct calc_vars vars = {0};`). */
struct calc_vars {
    struct calc_var *head;
};

enum calc_kind { CALC_NUM, CALC_VAR, CALC_ADD, CALC_SUB, CALC_MUL, CALC_DIV, CALC_SQUARE };

struct calc {
    enum calc_kind kind;
    int value;            /* CALC_NUM */
    struct calc_var *var; /* CALC_VAR */
    struct calc *l, *r;   /* the operands of an operator */
};

/* Frees c's operands, not c itself (a partial destructor: the name does not end with the word). */
void calc_destroy_operands(struct calc *c);

/* Frees c (NULL: nothing) and every variable of vars (NULL: none). */
void calc_destroy(struct calc *c, struct calc_vars *vars)
{
    if (c != NULL) {
        calc_destroy_operands(c);
        free(c);
    }
    if (vars != NULL) {
        while (vars->head != NULL) {
            struct calc_var *next = vars->head->next;
            free(vars->head);
            vars->head = next;
        }
    }
}

void calc_destroy_operands(struct calc *c)
{
    calc_destroy(c->l, NULL);
    calc_destroy(c->r, NULL);
    c->l = c->r = NULL;
}

static struct calc_var *var_of(struct calc_vars *vars, char name)
{
    for (struct calc_var *v = vars->head; v != NULL; v = v->next)
        if (v->name == name) return v;
    struct calc_var *v = calloc(1, sizeof *v);
    if (v == NULL) return NULL;
    v->name = name;
    v->next = vars->head;
    vars->head = v;
    return v;
}

/* The operand at s[*i]: a number of at most 3 digits or a lowercase variable; NULL otherwise. The
 * digit loop reads the byte after the number before it checks the length, as many hand-written
 * tokenizers do: the text must be NUL-terminated. */
static struct calc *operand(const char *s, size_t len, size_t *i, struct calc_vars *vars)
{
    if (*i >= len) return NULL;
    char c = s[*i];
    struct calc *n = calloc(1, sizeof *n);
    if (n == NULL) return NULL;
    if (c >= '0' && c <= '9') {
        n->kind = CALC_NUM;
        while (c >= '0' && c <= '9' && *i < len && n->value < 100) {
            n->value = n->value * 10 + (c - '0');
            (*i)++;
            c = s[*i];
        }
        return n;
    }
    if (c >= 'a' && c <= 'z') {
        n->kind = CALC_VAR;
        n->var = var_of(vars, c);
        if (n->var != NULL) {
            (*i)++;
            return n;
        }
    }
    free(n);
    return NULL;
}

/* Parses the len bytes of s: `A`, `A op B` with op one of + - * /, or `A^`, where A and B are
 * numbers or variables (added to vars); NULL for anything else. */
struct calc *calc_create(const char *s, size_t len, struct calc_vars *vars)
{
    size_t i = 0;
    struct calc *a = operand(s, len, &i, vars), *b = NULL;
    if (a == NULL || i == len) return a;
    enum calc_kind k;
    switch (s[i++]) {
    case '+': k = CALC_ADD; break;
    case '-': k = CALC_SUB; break;
    case '*': k = CALC_MUL; break;
    case '/': k = CALC_DIV; break;
    case '^': k = CALC_SQUARE; break;
    default: calc_destroy(a, NULL); return NULL;
    }
    if (k != CALC_SQUARE) b = operand(s, len, &i, vars);
    struct calc *n = i == len && (b != NULL || k == CALC_SQUARE) ? calloc(1, sizeof *n) : NULL;
    if (n == NULL) {
        calc_destroy(a, NULL);
        calc_destroy(b, NULL);
        return NULL;
    }
    n->kind = k;
    n->l = a;
    n->r = b;
    return n;
}

/* The value of c (never NULL: it does not check). */
int calc_eval(const struct calc *c)
{
    switch (c->kind) {
    case CALC_NUM: return c->value;
    case CALC_VAR: return c->var->value;
    case CALC_SQUARE: return calc_eval(c->l) * calc_eval(c->l);
    default: break;
    }
    int a = calc_eval(c->l), b = calc_eval(c->r);
    switch (c->kind) {
    case CALC_ADD: return a + b;
    case CALC_SUB: return a - b;
    case CALC_MUL: return a * b;
    case CALC_DIV: return b == 0 ? 0 : a / b;
    default: return 0;
    }
}
