/* toklist.c: a tiny tokenizer and expression tree for the e2e test of sympath unit's assertions on returned lists, filled structs and printed text, producers taking a buffer with its count, and walks of blocks shorter than their struct. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toklist.h"

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A token of the n bytes at s. */
static token *tok_new(const char *s, size_t n)
{
    token *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->kind = n == 0 ? TK_PUNCT : is_digit(s[0]) ? TK_NUM : is_alpha(s[0]) ? TK_WORD : TK_PUNCT;
    t->len = (int)n;
    t->text = malloc(n + 1);
    if (t->text) {
        memcpy(t->text, s, n);
        t->text[n] = 0;
    }
    return t;
}

token *tok_split(const char *s)
{
    if (s == NULL || *s == 0) return NULL;
    const char *eq = strchr(s, '=');
    size_t n = eq ? (size_t)(eq - s) : strlen(s);
    token *head = tok_new(s, n);
    if (head && eq) head->next = tok_new(eq + 1, strlen(eq + 1));
    return head;
}

void tok_list_free(token *t)
{
    while (t) {
        token *next = t->next;
        free(t->text);
        free(t);
        t = next;
    }
}

void tok_print(const token *t)
{
    int n = 0;
    for (; t; t = t->next, n++)
        printf("%s %d %s\n", t->kind == TK_NUM ? "num" : t->kind == TK_WORD ? "word" : "punct", t->len, t->text);
    if (n > 1) printf("%d tokens\n", n);
}

int tok_stats_of(const char *s, tok_stats *st)
{
    token *list = tok_split(s);
    int n = 0;
    memset(st, 0, sizeof *st);
    for (token *t = list; t; t = t->next) {
        if (t->kind == TK_WORD) st->words++;
        if (t->kind == TK_NUM) st->nums++;
        if (t->kind == TK_PUNCT) st->puncts++;
        st->last = t->kind;
        n++;
    }
    if (list) {
        size_t l = strlen(list->text);
        memcpy(st->first, list->text, l < 3 ? l : 3);
    }
    tok_list_free(list);
    return n;
}

/* ---- the expression tree ---- */

/* A leaf: allocated without kids[] (what tinyexpr's new_expr does for a constant). */
static en_node *leaf(int op, int value)
{
    en_node *n = malloc(offsetof(en_node, kids));
    if (n) {
        n->op = op;
        n->value = value;
    }
    return n;
}

en_node *en_compile(const char *s, const en_var *vars, int var_count)
{
    if (!s) return NULL;
    if (*s == '-' && s[1] != '-') { /* one negation: the explorations stay short */
        en_node *k = en_compile(s + 1, vars, var_count);
        if (!k) return NULL;
        en_node *n = malloc(sizeof *n);
        if (!n) {
            en_free(k);
            return NULL;
        }
        n->op = '-';
        n->value = 0;
        n->kids[0] = k;
        return n;
    }
    if (*s >= '0' && *s <= '9') return leaf('#', *s - '0');
    for (int i = 0; *s && i < var_count; i++)
        if (vars[i].name && vars[i].name[0] == *s) return leaf('v', vars[i].value);
    return NULL;
}

int en_eval(const en_node *n)
{
    if (!n) return 0;
    if (n->op == '-') return -en_eval(n->kids[0]);
    if (n->op == 'v') return n->value * 10;
    return n->value;
}

void en_free_kids(en_node *n)
{
    if (n && n->op == '-') en_free(n->kids[0]);
}

void en_free(en_node *n)
{
    en_free_kids(n);
    free(n);
}
