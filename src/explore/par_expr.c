/* par_expr.c: path conditions on the wire: an expression DAG as a list of nodes, kids before parents, rebuilt with expr_raw. */
#include <stdlib.h>
#include <string.h>

#include "par_int.h"
#include "util/util.h"

/* Number the nodes below roots in post order (kids first) with an explicit stack: an
 * expression can be thousands of nodes deep. map: node -> index + 1. */
static int number_nodes(expr *const *roots, size_t n, ptrmap *map, expr ***order, uint32_t *count)
{
    size_t cap = 64, top = 0, ocap = 64;
    struct frame {
        expr *e;
        unsigned next;
    } *st = malloc(cap * sizeof *st);
    expr **ord = malloc(ocap * sizeof *ord);
    uint32_t cnt = 0;
    if (!st || !ord) goto oom;
    for (size_t r = 0; r < n; r++) {
        if (!roots[r] || ptrmap_get(map, roots[r])) continue;
        st[top++] = (struct frame){roots[r], 0};
        while (top) {
            struct frame *f = &st[top - 1];
            if (f->next < f->e->nkids) {
                expr *k = f->e->kid[f->next++];
                if (ptrmap_get(map, k)) continue;
                if (top == cap) {
                    struct frame *ns = realloc(st, cap * 2 * sizeof *ns);
                    if (!ns) goto oom;
                    st = ns;
                    cap *= 2;
                }
                st[top++] = (struct frame){k, 0};
                continue;
            }
            expr *e = f->e;
            top--;
            if (ptrmap_get(map, e)) continue;
            if (cnt == ocap) {
                expr **no = realloc(ord, ocap * 2 * sizeof *no);
                if (!no) goto oom;
                ord = no;
                ocap *= 2;
            }
            ord[cnt++] = e;
            if (ptrmap_put(map, e, (void *)(uintptr_t)cnt, NULL) != 0) goto oom;
        }
    }
    free(st);
    *order = ord;
    *count = cnt;
    return 0;
oom:
    free(st);
    free(ord);
    return -1;
}

void par_put_exprs(par_msg *m, expr *const *roots, size_t n)
{
    ptrmap map = PTRMAP_INIT;
    expr **ord = NULL;
    uint32_t cnt = 0;
    if (number_nodes(roots, n, &map, &ord, &cnt) != 0) {
        m->bad = 1;
        ptrmap_clear(&map);
        return;
    }
    par_put_u32(m, cnt);
    for (uint32_t i = 0; i < cnt; i++) {
        const expr *e = ord[i];
        par_put_u8(m, e->op);
        par_put_u8(m, e->width);
        par_put_u8(m, e->nkids);
        par_put_u32(m, e->aux);
        par_put_u64(m, e->value);
        for (unsigned k = 0; k < e->nkids; k++) par_put_u32(m, (uint32_t)(uintptr_t)ptrmap_get(&map, e->kid[k])->a - 1);
    }
    par_put_u32(m, (uint32_t)n);
    for (size_t r = 0; r < n; r++)
        par_put_u32(m, roots[r] ? (uint32_t)(uintptr_t)ptrmap_get(&map, roots[r])->a - 1 : 0);
    free(ord);
    ptrmap_clear(&map);
}

size_t par_get_exprs(par_msg *m, expr_ctx *cx, expr ***out)
{
    *out = NULL;
    uint32_t cnt = par_get_u32(m);
    if (m->bad || cnt > (1u << 26)) return 0;
    expr **nodes = malloc((cnt ? cnt : 1) * sizeof *nodes);
    if (!nodes) return 0;
    for (uint32_t i = 0; i < cnt; i++) {
        unsigned op = par_get_u8(m), width = par_get_u8(m), nk = par_get_u8(m);
        uint32_t aux = par_get_u32(m);
        uint64_t value = par_get_u64(m);
        expr *k[3] = {NULL, NULL, NULL};
        for (unsigned j = 0; j < nk && j < 3; j++) {
            uint32_t idx = par_get_u32(m);
            k[j] = idx < i ? nodes[idx] : NULL; /* kids come first */
            if (!k[j]) m->bad = 1;
        }
        nodes[i] = m->bad || nk > 3 ? NULL : expr_raw(cx, (expr_op)op, width, aux, k[0], k[1], k[2], value);
        if (!nodes[i]) {
            free(nodes);
            m->bad = 1;
            return 0;
        }
    }
    uint32_t n = par_get_u32(m);
    expr **roots = n && !m->bad && n <= cnt ? malloc(n * sizeof *roots) : NULL;
    for (uint32_t r = 0; roots && r < n; r++) {
        uint32_t idx = par_get_u32(m);
        roots[r] = idx < cnt ? nodes[idx] : NULL;
        if (!roots[r] || roots[r]->width != 1) m->bad = 1;
    }
    free(nodes);
    if (!roots || m->bad) {
        free(roots);
        return 0;
    }
    *out = roots;
    return n;
}
