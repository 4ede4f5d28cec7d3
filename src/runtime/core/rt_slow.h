/* rt_slow.h: the runtime's slow paths and shared globals, called by the inlined fast paths of rt_fast.c. */
#ifndef SYMPATH_RT_SLOW_H
#define SYMPATH_RT_SLOW_H

#include <stdint.h>
#include "../rt_abi.h"

/*
 * Split of every rt_abi.h entry point: rt_fast.c (bitcode, inlined into the
 * program) decides whether there is symbolic work to do at all; when there is,
 * it tail-calls the matching *_slow function below, which lives in
 * libsympath-rt.a. Each slow path has the same parameters and contract as its
 * rt_abi.h entry point, but may assume that the fast path's early-out test
 * failed (at least one shadow operand is not NULL, or shadow memory is active).
 * A slow path returns NULL instead of a constant expression: a value whose
 * expression folded to a constant is concrete.
 */

/* ---- globals defined in the runtime, read/written directly by the fast paths ---- */

/* Parameter and return slots (see rt_abi.h "Passing expressions across calls"). */
#define SYM_MAX_PARAMS 64
extern symx __sym_params[SYM_MAX_PARAMS];
extern symx __sym_ret;
/* Field slots of an aggregate result (rt_abi.h, __sym_set_ret_field). */
#define SYM_MAX_RET_FIELDS 8
extern symx __sym_ret_fields[SYM_MAX_RET_FIELDS];
/* Sources of byval arguments (rt_abi.h, __sym_set_byval), by argument position. */
extern const void *__sym_byval[SYM_MAX_PARAMS];
/* Points at the trace header's last_site (or at a private dummy when there is no
 * trace to write, e.g. in a child of __sym_fork). Never NULL. */
extern volatile uint32_t *__sym_last_site;
/* The coverage slot of the last branch direction or switch destination taken in this run
 * (0 before any): a branch site and which way it went. Private to the run, not in the trace. */
extern uint32_t __sym_last_slot;
/* Non-zero once any symbolic byte was ever stored in shadow memory in this run:
 * until then every load is concrete and every concrete store/copy has nothing to clear.
 * It must never go back to 0 within a run (only rt_shadow_reset, at the start of a run,
 * clears it): the concrete-mode dispatch (docs/instrumentation.md) runs a function's
 * shadow-free copy when it reads 0, which is sound only if no byte can be symbolic then. */
extern uint32_t __sym_shadow_active;

/* ---- slow paths (libsympath-rt.a) ---- */
symx __sym_binop_slow(uint32_t op, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv);
symx __sym_icmp_slow(uint32_t pred, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv);
symx __sym_cast_slow(uint32_t op, uint32_t from_width, uint32_t to_width, symx a);
/* The getters' resize (rt_abi.h): e (e->width != width) truncated or zero-/sign-extended
 * to `width` bits so that its concrete value is `value`; NULL when no resize gives it. */
symx __sym_fit_slow(symx e, uint64_t value, uint32_t width);
/* c != NULL here (a concrete condition is resolved by the fast path). */
symx __sym_select_slow(uint32_t width, symx c, uint64_t cv, symx t, uint64_t tv, symx e, uint64_t ev);
symx __sym_overflow_slow(uint32_t op, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv);
symx __sym_intrinsic_slow(uint32_t which, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv, symx c,
                          uint64_t cv);
symx __sym_fp_slow(uint32_t which, uint32_t width, uint32_t from_width, symx a, uint64_t av, symx b, uint64_t bv,
                   symx c, uint64_t cv);
symx __sym_fcmp_slow(uint32_t pred, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv);
symx __sym_ptr_add_slow(symx base, uint64_t basev, symx idx, uint64_t idxv, uint32_t idx_width, uint64_t scale);
symx __sym_load_slow(const void *addr, uint64_t size, symx addr_e);
void __sym_store_slow(void *addr, uint64_t size, symx val, symx addr_e);
void __sym_memcpy_slow(void *dst, const void *src, uint64_t n, symx n_e);
void __sym_memset_slow(void *dst, symx val_e, uint64_t n, symx n_e);
/* Records the BK_BRANCH event (coverage was already written by the fast path); cond != NULL. */
void __sym_branch_slow(uint32_t site, uint32_t slot_base, uint32_t taken, symx cond);
/* Records the BK_SWITCH events (coverage already written); e != NULL. */
void __sym_switch_slow(uint32_t site, uint32_t width, uint64_t value, symx e, const uint64_t *cases,
                       const uint32_t *slots, uint32_t ncases);
/* Counts one concretization of `kind` (e != NULL). */
void __sym_concretize_slow(uint32_t kind, symx e);

/* Counts CONC_EXTERNAL_CALL when any of the first bytes behind p (a pointer argument of
 * a call into uninstrumented code) is symbolic: the callee reads them concretely. */
void __sym_external_ptr_slow(const void *p);
/* Slow paths of __sym_concretize_call / __sym_external_ptr_call (rt_libc.c). */
void __sym_concretize_call_slow(uint32_t fn, symx e);
void __sym_external_ptr_call_slow(const void *p, uint32_t fn);

#endif
