/* scan_backward.c: pointer parameters a function only walks backwards (`s--` from where it was given), found on the body's tokens: they get room before them. */
#include <ctype.h>
#include <string.h>

#include "unit/unit.h"

static int ident(const char *t) { return t && (isalpha((unsigned char)t[0]) || t[0] == '_'); }

static int among(const char *t, char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t, v[i])) return 1;
    return 0;
}

/*
 * The parameters (identifiers before `,` or `)` at depth 1 of the first parenthesis) and, in the
 * body, their aliases: `x = P;` or `x = (T *)P;` with P a parameter or an alias. A group (a
 * parameter and its aliases) moves backwards when one of them is decremented (`x--`, `--x`,
 * `x -= ...`) or indexed below zero (`x[-1]`), and forwards when one is incremented (`x++`,
 * `++x`, `x += ...`). Only a group that moves backwards and never forwards is recorded: a
 * scanner that steps forward and backs up (`p++ ... p--`) reads nothing before where it started,
 * and reading there is a bug the sanitizers should still find.
 */
size_t unit_tok_params(const char *const *tok, size_t n, char **params, size_t max, size_t *body)
{
    size_t i = 0, np = 0;
    while (i < n && strcmp(tok[i], "(")) i++;
    int depth = 0;
    for (; i < n; i++) {
        if (!strcmp(tok[i], "(")) depth++;
        if (!strcmp(tok[i], ")") && --depth == 0) break;
        if (depth == 1 && i + 1 < n && ident(tok[i]) && (!strcmp(tok[i + 1], ",") || !strcmp(tok[i + 1], ")")) &&
            np < max)
            params[np++] = (char *)tok[i];
    }
    while (i < n && strcmp(tok[i], "{")) i++;
    *body = i;
    return np;
}

size_t unit_tok_rhs(const char *const *tok, size_t n, size_t j)
{
    size_t v = j + 2;
    if (v < n && !strcmp(tok[v], "(")) { /* a cast */
        int d = 0;
        for (; v < n; v++) {
            if (!strcmp(tok[v], "(")) d++;
            if (!strcmp(tok[v], ")") && --d == 0) break;
        }
        v++;
    }
    return v;
}

void unit_tok_group(const char *const *tok, size_t n, size_t body, char **group, size_t *ng)
{
    for (size_t j = body; j + 3 < n && *ng < 16; j++) {
        if (!ident(tok[j]) || strcmp(tok[j + 1], "=")) continue;
        size_t v = unit_tok_rhs(tok, n, j);
        if (v + 1 < n && among(tok[v], group, *ng) && !strcmp(tok[v + 1], ";") && !among(tok[j], group, *ng))
            group[(*ng)++] = (char *)tok[j];
    }
}

void unit_scan_backward_params(unit_info *u, const char *fn, const char *const *tok, size_t n)
{
    char *params[32];
    size_t body, np = unit_tok_params(tok, n, params, 32, &body);
    for (size_t k = 0; k < np; k++) {
        char *group[16];
        size_t ng = 0;
        group[ng++] = params[k];
        unit_tok_group(tok, n, body, group, &ng);
        int back = 0, fwd = 0;
        for (size_t j = body; j + 1 < n; j++) {
            if (!among(tok[j], group, ng)) continue;
            const char *nx = tok[j + 1], *pv = j > 0 ? tok[j - 1] : "";
            if (!strcmp(nx, "--") || !strcmp(pv, "--") || !strcmp(nx, "-=") ||
                (!strcmp(nx, "[") && j + 2 < n && !strcmp(tok[j + 2], "-")))
                back = 1;
            if (!strcmp(nx, "++") || !strcmp(pv, "++") || !strcmp(nx, "+=")) fwd = 1;
            if (!strcmp(nx, "=") && j + 3 < n && among(tok[j + 2], group, ng)) { /* `p = p + 1` */
                back |= !strcmp(tok[j + 3], "-");
                fwd |= !strcmp(tok[j + 3], "+");
            }
        }
        if (back && !fwd) unit_fn_param_add(&u->backward, &u->nbackward, fn, params[k]);
    }
}

int unit_reads_before(const unit_info *u, const char *fn, const char *param)
{
    return u && unit_fn_param_in(u->backward, u->nbackward, fn, param);
}
