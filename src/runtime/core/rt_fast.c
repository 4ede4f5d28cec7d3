/* rt_fast.c: inline fast paths of the runtime ABI, compiled to bitcode and linked into every instrumented module. */

/*
 * Every function here is the whole cost of a concrete operation once inlined:
 * test whether any shadow operand is non-NULL, and if none is, return NULL (or
 * do nothing). Otherwise hand over to the *_slow function in libsympath-rt.a
 * (see rt_slow.h). The definitions stay external so that the instrumented
 * module's calls resolve to them; the build internalizes and inlines them.
 * Nothing but the rt_abi.h entry points may be defined in this file (and static inline
 * helpers, which -O2 inlines away).
 */
#include "../../expr/expr.h"
#include "../rt_abi.h"
#include "rt_slow.h"

symx __sym_binop(uint32_t op, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv)
{
    if (!a && !b) return 0;
    return __sym_binop_slow(op, width, a, av, b, bv);
}

symx __sym_icmp(uint32_t pred, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv)
{
    if (!a && !b) return 0;
    return __sym_icmp_slow(pred, width, a, av, b, bv);
}

symx __sym_cast(uint32_t op, uint32_t from_width, uint32_t to_width, symx a)
{
    if (!a) return 0;
    return __sym_cast_slow(op, from_width, to_width, a);
}

symx __sym_select(uint32_t width, symx c, uint64_t cv, symx t, uint64_t tv, symx e, uint64_t ev)
{
    /* A concrete condition just picks the chosen operand's shadow. */
    if (!c) return (cv & 1) ? t : e;
    return __sym_select_slow(width, c, cv, t, tv, e, ev);
}

symx __sym_overflow(uint32_t op, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv)
{
    if (!a && !b) return 0;
    return __sym_overflow_slow(op, width, a, av, b, bv);
}

symx __sym_intrinsic(uint32_t which, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv, symx c, uint64_t cv)
{
    if (!a && !b && !c) return 0;
    return __sym_intrinsic_slow(which, width, a, av, b, bv, c, cv);
}

symx __sym_fp(uint32_t which, uint32_t width, uint32_t from_width, symx a, uint64_t av, symx b, uint64_t bv, symx c,
              uint64_t cv)
{
    if (!a && !b && !c) return 0;
    return __sym_fp_slow(which, width, from_width, a, av, b, bv, c, cv);
}

symx __sym_fcmp(uint32_t pred, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv)
{
    if (!a && !b) return 0;
    return __sym_fcmp_slow(pred, width, a, av, b, bv);
}

symx __sym_ptr_add(symx base, uint64_t basev, symx idx, uint64_t idxv, uint32_t idx_width, uint64_t scale)
{
    if (!base && !idx) return 0;
    return __sym_ptr_add_slow(base, basev, idx, idxv, idx_width, scale);
}

symx __sym_load(const void *addr, uint64_t size, symx addr_e)
{
    if (!addr_e && !__sym_shadow_active) return 0;
    return __sym_load_slow(addr, size, addr_e);
}

void __sym_store(void *addr, uint64_t size, symx val, symx addr_e)
{
    if (!val && !addr_e && !__sym_shadow_active) return;
    __sym_store_slow(addr, size, val, addr_e);
}

void __sym_memcpy(void *dst, const void *src, uint64_t n, symx n_e)
{
    if (!n_e && !__sym_shadow_active) return;
    __sym_memcpy_slow(dst, src, n, n_e);
}

void __sym_memset(void *dst, symx val_e, uint64_t n, symx n_e)
{
    if (!val_e && !n_e && !__sym_shadow_active) return;
    __sym_memset_slow(dst, val_e, n, n_e);
}

/* The value check makes a stale slot (set by some earlier, unrelated call) read as
 * concrete instead of wrong; see rt_abi.h. */
static inline symx slot_read(symx e, uint64_t value, uint32_t width)
{
    if (!e) return 0;
    if (e->width != width) return __sym_fit_slow(e, value, width);
    return e->value == value ? e : 0;
}

void __sym_set_param(uint32_t index, symx e)
{
    if (index < SYM_MAX_PARAMS) __sym_params[index] = e;
}

symx __sym_get_param(uint32_t index, uint64_t value, uint32_t width)
{
    if (index >= SYM_MAX_PARAMS) return 0;
    return slot_read(__sym_params[index], value, width);
}

void __sym_set_ret(symx e) { __sym_ret = e; }

symx __sym_get_ret(uint64_t value, uint32_t width) { return slot_read(__sym_ret, value, width); }

void __sym_set_ret_field(uint32_t index, symx e)
{
    if (index < SYM_MAX_RET_FIELDS) __sym_ret_fields[index] = e;
}

symx __sym_get_ret_field(uint32_t index, uint64_t value, uint32_t width)
{
    if (index >= SYM_MAX_RET_FIELDS) return 0;
    return slot_read(__sym_ret_fields[index], value, width);
}

void __sym_set_byval(uint32_t index, const void *src)
{
    if (index < SYM_MAX_PARAMS) __sym_byval[index] = src;
}

void __sym_get_byval(uint32_t index, void *dst, uint64_t size)
{
    if (index >= SYM_MAX_PARAMS) return;
    const void *src = __sym_byval[index];
    __sym_byval[index] = 0;
    if (!src || !__sym_shadow_active) return;
    __sym_memcpy_slow(dst, src, size, 0);
}

void __sym_branch(uint32_t site, uint32_t slot_base, uint32_t taken, symx cond)
{
    uint32_t slot = slot_base + taken;
    if (slot < __sym_cov_cap) __sym_cov[slot] |= __sym_cov_phase;
    *__sym_last_site = site;
    __sym_last_slot = slot;
    if (cond) __sym_branch_slow(site, slot_base, taken, cond);
}

void __sym_switch(uint32_t site, uint32_t width, uint64_t value, symx e, const uint64_t *cases, const uint32_t *slots,
                  uint32_t ncases, uint32_t default_slot)
{
    uint32_t slot = default_slot;
    for (uint32_t i = 0; i < ncases; i++)
        if (cases[i] == value) {
            slot = slots[i];
            break;
        }
    if (slot < __sym_cov_cap) __sym_cov[slot] |= __sym_cov_phase;
    *__sym_last_site = site;
    __sym_last_slot = slot;
    if (e) __sym_switch_slow(site, width, value, e, cases, slots, ncases);
}

void __sym_concretize(uint32_t kind, symx e)
{
    if (e) __sym_concretize_slow(kind, e);
}

void __sym_concretize_call(uint32_t fn, symx e)
{
    if (e) __sym_concretize_call_slow(fn, e);
}

void __sym_external_ptr_call(const void *p, uint32_t fn)
{
    if (__sym_shadow_active) __sym_external_ptr_call_slow(p, fn);
}

void __sym_external_ptr(const void *p)
{
    if (__sym_shadow_active) __sym_external_ptr_slow(p);
}
