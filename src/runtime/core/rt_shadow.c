/* rt_shadow.c: shadow memory, mapping each byte of the program's memory to its symbolic expression (or NULL). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "rt_internal.h"

/*
 * Shadow memory is a hash table of shadow pages keyed by page number
 * (address >> 12). A shadow page holds one expression pointer per byte of the
 * 4096-byte page (NULL = the byte is concrete). A page is created only when a
 * symbolic byte is stored into it, so a concrete store into memory that never
 * held a symbolic byte costs one lookup and nothing else; until the first
 * symbolic store of the run, __sym_shadow_active is 0 and the inline fast paths
 * skip shadow memory altogether.
 *
 * The table uses open addressing with linear probing on a multiplicative hash,
 * stays at most half full, and is never shrunk (pages are never removed within
 * a run). A one-entry cache of the last page found serves the common case of
 * consecutive accesses to the same page.
 *
 * Shadow pages and the table come from mmap, never from malloc: a 32 KiB shadow page
 * taken from the program's own heap would push the program's next small allocation
 * onto a fresh heap page, which needs its own shadow page at the next symbolic store,
 * and so on: a program that stores one symbolic field per malloc'd node would use a
 * shadow page per node (gigabytes for 100000 nodes) instead of one per 4 KiB of nodes.
 */
#define SH_PAGE_BITS 12
#define SH_PAGE_SIZE (1u << SH_PAGE_BITS)

typedef struct shadow_page {
    uintptr_t pno;
    expr *byte[SH_PAGE_SIZE];
} shadow_page;

static shadow_page **tab;
static size_t tab_cap, tab_n; /* tab_cap is a power of two, 0 before the first page */
static shadow_page *last_page;

/* Pages are cut from mmap'd pools of POOL_PAGES shadow pages (zeroed by mmap). */
#define POOL_PAGES 64
typedef struct pool {
    struct pool *next;
    size_t used;
    shadow_page page[POOL_PAGES];
} pool;
static pool *pools;

static void *map_zeroed(size_t n)
{
    void *p = rt_sys_mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) rt_out_of_memory();
    return p;
}

static shadow_page *new_page(void)
{
    if (!pools || pools->used == POOL_PAGES) {
        pool *n = map_zeroed(sizeof *n);
        n->next = pools;
        pools = n;
    }
    return &pools->page[pools->used++];
}

uint32_t __sym_shadow_active;

static size_t slot_of(uintptr_t pno) { return (size_t)((pno * 0x9E3779B97F4A7C15ull) >> 29) & (tab_cap - 1); }

static shadow_page *find_page(uintptr_t pno)
{
    if (last_page && last_page->pno == pno) return last_page;
    if (!tab_n) return NULL;
    for (size_t i = slot_of(pno);; i = (i + 1) & (tab_cap - 1)) {
        shadow_page *p = tab[i];
        if (!p) return NULL;
        if (p->pno == pno) return last_page = p;
    }
}

static void insert_page(shadow_page *p)
{
    size_t i = slot_of(p->pno);
    while (tab[i]) i = (i + 1) & (tab_cap - 1);
    tab[i] = p;
}

static shadow_page *make_page(uintptr_t pno)
{
    shadow_page *p = find_page(pno);
    if (p) return p;
    if (2 * (tab_n + 1) > tab_cap) {
        size_t ocap = tab_cap;
        shadow_page **old = tab;
        tab_cap = ocap ? 2 * ocap : 64;
        tab = map_zeroed(tab_cap * sizeof *tab);
        for (size_t i = 0; i < ocap; i++)
            if (old[i]) insert_page(old[i]);
        if (old) rt_sys_munmap(old, ocap * sizeof *old);
    }
    p = new_page();
    p->pno = pno;
    insert_page(p);
    tab_n++;
    /* set by the first symbolic byte, before it is written; pages are never removed within
     * a run, so the flag stays 1 (concrete-mode dispatch relies on it, rt_slow.h) until the
     * trace is full: then the run goes concrete and shadow memory is no longer read */
    __sym_shadow_active = 1;
    return last_page = p;
}

void rt_shadow_reset(void)
{
    while (pools) {
        pool *next = pools->next;
        rt_sys_munmap(pools, sizeof *pools);
        pools = next;
    }
    if (tab) rt_sys_munmap(tab, tab_cap * sizeof *tab);
    tab = NULL;
    tab_cap = tab_n = 0;
    last_page = NULL;
    __sym_shadow_active = 0;
}

expr *rt_shadow_get(uintptr_t addr)
{
    shadow_page *p = find_page(addr >> SH_PAGE_BITS);
    return p ? p->byte[addr & (SH_PAGE_SIZE - 1)] : NULL;
}

/* Walk [addr, addr+n) page by page: each step covers bytes [a, a+len) of one page,
 * starting at offset `off` in it, and `done` bytes of the range before it. */
#define FOR_SEGMENTS(addr, n)                                                                            \
    for (uintptr_t a = (addr), end_ = (addr) + (n), off, len, done = 0; a < end_; a += len, done += len) \
        if ((off = a & (SH_PAGE_SIZE - 1)), (len = SH_PAGE_SIZE - off), (len > end_ - a ? (len = end_ - a) : 0), 1)

int rt_shadow_get_range(uintptr_t addr, size_t n, expr **out)
{
    int any = 0;
    FOR_SEGMENTS(addr, n)
    {
        shadow_page *p = find_page(a >> SH_PAGE_BITS);
        if (!p) {
            memset(out + done, 0, len * sizeof *out);
            continue;
        }
        for (size_t i = 0; i < len; i++) any |= (out[done + i] = p->byte[off + i]) != NULL;
    }
    return any;
}

void rt_shadow_put(uintptr_t addr, expr *const *bytes, size_t n)
{
    FOR_SEGMENTS(addr, n)
    {
        int any = 0;
        for (size_t i = 0; i < len && !any; i++) any = bytes[done + i] != NULL;
        shadow_page *p = any ? make_page(a >> SH_PAGE_BITS) : find_page(a >> SH_PAGE_BITS);
        if (p) memcpy(&p->byte[off], bytes + done, len * sizeof *bytes);
    }
}

void rt_shadow_clear(uintptr_t addr, size_t n)
{
    if (!__sym_shadow_active) return;
    FOR_SEGMENTS(addr, n)
    {
        shadow_page *p = find_page(a >> SH_PAGE_BITS);
        if (p) memset(&p->byte[off], 0, len * sizeof p->byte[0]);
    }
}

/* Little-endian assembly: byte i of the value is bits [8i, 8i+8). Concrete bytes
 * become constants of the actual memory contents. The builder merges adjacent
 * extracts of one node, so a value stored as extract(v, 8i, 8) bytes comes back as v. */
expr *rt_shadow_load(const void *addr, uint64_t size)
{
    expr_ctx *cx = rt_cx();
    const uint8_t *m = addr;
    expr *b[8] = {0};
    if (!__sym_shadow_active || !rt_shadow_get_range((uintptr_t)addr, size, b)) {
        uint64_t v = 0;
        for (uint64_t i = 0; i < size; i++) v |= (uint64_t)m[i] << (8 * i);
        return expr_const(cx, v, 8 * (unsigned)size);
    }
    expr *acc = NULL;
    for (uint64_t i = 0; i < size; i++) {
        /* A shadow byte whose concrete value is not the byte in memory is stale: code that
         * is not instrumented (read(), sprintf(), ...) overwrote it. The byte is concrete now. */
        if (b[i] && b[i]->value != m[i]) {
            rt_count_conc(CONC_EXTERNAL_CALL);
            rt_shadow_clear((uintptr_t)addr + i, 1);
            b[i] = NULL;
        }
        expr *byte = b[i] ? b[i] : expr_const(cx, m[i], 8);
        acc = acc ? expr_concat(cx, byte, acc) : byte;
    }
    return acc;
}

symx __sym_load_slow(const void *addr, uint64_t size, symx addr_e)
{
    addr_e = rt_lazy_null_pin(addr_e);
    if (size == 0 || size > 8) {
        if (addr_e) rt_concretize_pin(addr_e, (uintptr_t)addr, CONC_SYM_POINTER);
        return NULL;
    }
    if (addr_e) {
        expr *sel = rt_symbolic_read(addr, size, addr_e);
        if (sel) return rt_norm(sel);
        rt_concretize_pin(addr_e, (uintptr_t)addr, CONC_SYM_POINTER);
    }
    if (!__sym_shadow_active) return NULL;
    return rt_norm(rt_shadow_load(addr, size));
}

void __sym_store_slow(void *addr, uint64_t size, symx val, symx addr_e)
{
    addr_e = rt_lazy_null_pin(addr_e);
    if (addr_e) rt_concretize_pin(addr_e, (uintptr_t)addr, CONC_SYM_POINTER);
    if (rt.trace_full) /* the run has gone concrete (rt_trace.c) */
        val = NULL;
    if (!val || size == 0 || size > 8) {
        rt_shadow_clear((uintptr_t)addr, size);
        return;
    }
    expr_ctx *cx = rt_cx();
    unsigned w = 8 * (unsigned)size;
    if (val->width != w) /* e.g. an i1 stored as a byte: the instrumenter should have widened it */
        val = expr_resize(cx, val, w);
    expr *b[8];
    for (unsigned i = 0; i < size; i++) b[i] = rt_norm(expr_extract(cx, val, 8 * i, 8));
    rt_shadow_put((uintptr_t)addr, b, size);
}

/*
 * Copies go through a bounce buffer of SH_BLOCK pointers. For overlapping ranges
 * with dst above src the blocks are processed from the end backwards (like
 * memmove): each block is read completely before it is written, and a write can
 * only overwrite source bytes that were already read.
 */
#define SH_BLOCK 1024

void __sym_memcpy_slow(void *dst, const void *src, uint64_t n, symx n_e)
{
    if (n_e) rt_concretize_pin(n_e, n, CONC_SYM_SIZE);
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (!__sym_shadow_active || n == 0 || d == s) return;
    expr *tmp[SH_BLOCK];
    int backward = d > s && d < s + n;
    for (uint64_t k = 0; k < n;) {
        uint64_t len = n - k < SH_BLOCK ? n - k : SH_BLOCK;
        uint64_t off = backward ? n - k - len : k;
        if (rt_shadow_get_range(s + off, len, tmp))
            rt_shadow_put(d + off, tmp, len);
        else
            rt_shadow_clear(d + off, len);
        k += len;
    }
}

void __sym_memset_slow(void *dst, symx val_e, uint64_t n, symx n_e)
{
    if (n_e) rt_concretize_pin(n_e, n, CONC_SYM_SIZE);
    if (rt.trace_full) /* the run has gone concrete (rt_trace.c) */
        val_e = NULL;
    if (val_e && val_e->width != 8) val_e = expr_resize(rt_cx(), val_e, 8);
    if (!val_e) {
        rt_shadow_clear((uintptr_t)dst, n);
        return;
    }
    expr *tmp[SH_BLOCK];
    for (size_t i = 0; i < SH_BLOCK; i++) tmp[i] = val_e;
    for (uint64_t k = 0; k < n;) {
        uint64_t len = n - k < SH_BLOCK ? n - k : SH_BLOCK;
        rt_shadow_put((uintptr_t)dst + k, tmp, len);
        k += len;
    }
}

/* How many bytes behind a pointer passed to uninstrumented code are checked for
 * symbolic contents (the callee's real extent is unknown: strings, buffers). */
#define EXTERNAL_SCAN_BYTES 256

int rt_external_ptr_symbolic(const void *p)
{
    if (!p) return 0;
    uintptr_t a = (uintptr_t)p;
    for (size_t i = 0; i < EXTERNAL_SCAN_BYTES; i++)
        if (rt_shadow_get(a + i)) return 1;
    return 0;
}

void __sym_external_ptr_slow(const void *p)
{
    if (rt_external_ptr_symbolic(p)) rt_count_conc(CONC_EXTERNAL_CALL);
}
