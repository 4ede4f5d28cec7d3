/* scan_lists.c: pointer parameters a function walks as arrays (`paths[i]`, `argv++`), itself or through the functions it passes them to, found on the bodies' tokens. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit/unit.h"

static int ident(const char *t)
{
    return t && ((t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z') || t[0] == '_');
}

static int among(const char *t, char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t, v[i])) return 1;
    return 0;
}

/* The call whose argument list holds token j as a whole argument (`g(a, P)`): its name and the
 * argument's index, or NULL (P not a whole argument, or inside no call). */
static const char *call_of(const char *const *tok, size_t j, int *arg)
{
    int depth = 0, k = 0;
    for (size_t i = j; i-- > 0;) {
        if (!strcmp(tok[i], ")") || !strcmp(tok[i], "]")) depth++;
        if (!strcmp(tok[i], "(") || !strcmp(tok[i], "[")) {
            if (depth == 0) {
                if (strcmp(tok[i], "(") || i == 0 || !ident(tok[i - 1])) return NULL;
                *arg = k;
                return tok[i - 1];
            }
            depth--;
        }
        if (depth == 0 && (!strcmp(tok[i], ";") || !strcmp(tok[i], "{") || !strcmp(tok[i], "}"))) return NULL;
        if (depth == 0 && !strcmp(tok[i], ",")) k++;
    }
    return NULL;
}

/* Where the expression of tok[j] begins when a cast precedes it (`(const char **)P`: the cast's `(`), else j.
 * A cast: a parenthesis holding identifiers and `*` only, closed right before j. */
static size_t cast_start(const char *const *tok, size_t j)
{
    if (j < 3 || strcmp(tok[j - 1], ")")) return j;
    size_t c = j - 2;
    int star = 0;
    while (c > 0 && (ident(tok[c]) || !strcmp(tok[c], "*"))) star |= !strcmp(tok[c--], "*");
    return !strcmp(tok[c], "(") && star ? c : j;
}

/* Whether tok[j], a member of the group, is walked there: indexed by anything but a literal 0, stepped
 * forward (`x++`, `++x`, `x += k`, `x = x + k`). */
static int walked_at(const char *const *tok, size_t n, size_t j, char **group, size_t ng)
{
    const char *nx = j + 1 < n ? tok[j + 1] : "", *pv = j > 0 ? tok[j - 1] : "";
    if (!strcmp(nx, "[") && !(j + 3 < n && !strcmp(tok[j + 2], "0") && !strcmp(tok[j + 3], "]"))) return 1;
    if (!strcmp(nx, "++") || !strcmp(pv, "++") || !strcmp(nx, "+=")) return 1;
    return !strcmp(nx, "=") && j + 3 < n && among(tok[j + 2], group, ng) && !strcmp(tok[j + 3], "+");
}

/*
 * For each parameter P of fn (identifiers before `,` or `)` at depth 1 of the first parenthesis), its
 * group (unit_tok_group). P is walked when a member of the group is (walked_at); passed whole to a call
 * `g(..., P, ...)` as argument K adds "fn P g K" to u->passed_params, kept in a member (`s->m = P;`)
 * "fn P .m -1". A member walked here, itself (`c->m[c->at]`, `c->m++`) or through a local taken from it
 * (`x = c->m;` then `x++`), adds "* .m" to u->walked_params.
 */
void unit_scan_walked_params(unit_info *u, const char *fn, const char *const *tok, size_t n)
{
    char *params[32];
    size_t body, np = unit_tok_params(tok, n, params, 32, &body);
    for (size_t k = 0; k < np; k++) {
        char *group[16];
        size_t ng = 0;
        group[ng++] = params[k];
        unit_tok_group(tok, n, body, group, &ng);
        int walked = 0;
        for (size_t j = body; j + 1 < n; j++) {
            if (!among(tok[j], group, ng)) continue;
            walked |= walked_at(tok, n, j, group, ng);
            const char *nx = tok[j + 1], *pv = j > 0 ? tok[j - 1] : "";
            char pk[300];
            if ((!strcmp(pv, "->") || !strcmp(pv, ".")) && !strcmp(nx, "=")) { /* kept in a member */
                size_t v = unit_tok_rhs(tok, n, j);
                if (v + 1 < n && among(tok[v], group, ng) && !strcmp(tok[v + 1], ";") &&
                    snprintf(pk, sizeof pk, "%s .%s -1", params[k], tok[j]) < (int)sizeof pk)
                    unit_fn_param_add(&u->passed_params, &u->npassed_params, fn, pk);
            }
            size_t at = cast_start(tok, j); /* `g(x, (char **)P)`: the argument begins at the cast */
            pv = at > 0 ? tok[at - 1] : "";
            if ((!strcmp(pv, "(") || !strcmp(pv, ",")) && (!strcmp(nx, ",") || !strcmp(nx, ")"))) {
                int arg = 0;
                const char *g = call_of(tok, at, &arg);
                if (g && strcmp(g, fn) && snprintf(pk, sizeof pk, "%s %s %d", params[k], g, arg) < (int)sizeof pk)
                    unit_fn_param_add(&u->passed_params, &u->npassed_params, fn, pk);
            }
        }
        if (walked) unit_fn_param_add(&u->walked_params, &u->nwalked_params, fn, params[k]);
    }
    for (size_t j = body; j + 2 < n; j++) {
        if ((strcmp(tok[j], "->") && strcmp(tok[j], ".")) || !ident(tok[j + 1])) continue;
        char *group[16];
        size_t ng = 0;
        group[ng++] = (char *)tok[j + 1];
        int w = walked_at(tok, n, j + 1, group, ng);
        if (!w && j >= 3 && !strcmp(tok[j + 2], ";") && ident(tok[j - 1])) {
            /* `x = c->m;` (a cast allowed): the local x walked anywhere in the body */
            size_t a = j - 1;
            while (a > body && strcmp(tok[a], "=") && strcmp(tok[a], ";") && strcmp(tok[a], "{")) a--;
            if (!strcmp(tok[a], "=") && ident(tok[a - 1]) && unit_tok_rhs(tok, n, a - 1) == j - 1) {
                char *lg[16];
                size_t nl = 0;
                lg[nl++] = (char *)tok[a - 1];
                unit_tok_group(tok, n, body, lg, &nl);
                for (size_t q = body; q + 1 < n && !w; q++)
                    if (among(tok[q], lg, nl)) w = walked_at(tok, n, q, lg, nl);
            }
        }
        char m[300];
        if (w && snprintf(m, sizeof m, ".%s", tok[j + 1]) < (int)sizeof m)
            unit_fn_param_add(&u->walked_params, &u->nwalked_params, "*", m);
    }
}

/* The name of parameter k of the unit's function named fn (defined in a source or in a header it
 * includes), or NULL. */
static const char *param_name(const unit_info *u, const char *fn, int k)
{
    const ut_func *sets[] = {u->defs, u->statics, u->hfuncs};
    size_t ns[] = {u->ndefs, u->nstatics, u->nhfuncs};
    for (int s = 0; s < 3; s++)
        for (size_t i = 0; i < ns[s]; i++)
            if (!strcmp(sets[s][i].name, fn))
                return k >= 0 && (size_t)k < sets[s][i].nparams ? sets[s][i].params[k].name : NULL;
    return NULL;
}

static int walks(const unit_info *u, const char *fn, const char *param, int depth)
{
    if (unit_fn_param_in(u->walked_params, u->nwalked_params, fn, param)) return 1;
    if (depth >= 4) return 0;
    size_t lf = strlen(fn), lp = strlen(param);
    for (size_t i = 0; i < u->npassed_params; i++) {
        const char *e = u->passed_params[i]; /* "fn P g K" */
        if (strncmp(e, fn, lf) || e[lf] != ' ' || strncmp(e + lf + 1, param, lp) || e[lf + 1 + lp] != ' ') continue;
        char g[256];
        int k = -1;
        if (sscanf(e + lf + 1 + lp + 1, "%255s %d", g, &k) != 2) continue;
        if (g[0] == '.') { /* kept in a member */
            if (unit_fn_param_in(u->walked_params, u->nwalked_params, "*", g)) return 1;
            continue;
        }
        const char *q = param_name(u, g, k);
        if (q && walks(u, g, q, depth + 1)) return 1;
    }
    return 0;
}

int unit_walks_array(const unit_info *u, const char *fn, const char *param)
{
    return u && fn && param && walks(u, fn, param, 0);
}

void unit_mark_walked(unit_info *u)
{
    ut_func *sets[] = {u->defs, u->statics, u->hfuncs};
    size_t ns[] = {u->ndefs, u->nstatics, u->nhfuncs};
    for (int s = 0; s < 3; s++)
        for (size_t i = 0; i < ns[s]; i++)
            for (size_t k = 0; k < sets[s][i].nparams; k++)
                sets[s][i].params[k].walked = unit_walks_array(u, sets[s][i].name, sets[s][i].params[k].name);
}

int unit_member_walked(const unit_info *u, const char *name)
{
    char m[300];
    return u && name && snprintf(m, sizeof m, ".%s", name) < (int)sizeof m &&
           unit_fn_param_in(u->walked_params, u->nwalked_params, "*", m);
}
