/* rt_libc.c: runtime support of the libc models: per-callee concretization counts and the shadows of variadic arguments. */
#include <string.h>
#include "rt_internal.h"
#include "rt_slow.h"

void __sym_concretize_call_slow(uint32_t fn, symx e)
{
    rt_count_conc(CONC_EXTERNAL_CALL);
    if (!rt.trace_off) rt.hdr->conc_fn[fn < TRACE_CONC_FN_SLOTS ? fn : 0]++;
}

void __sym_external_ptr_call_slow(const void *p, uint32_t fn)
{
    if (rt_external_ptr_symbolic(p)) __sym_concretize_call_slow(fn, NULL);
}

/*
 * Variadic arguments of calls to the variadic models (sprintf, snprintf, ...): C has
 * no way to give va_arg a shadow, so the caller's instrumentation parks the shadows in
 * these slots and the model passes each value it reads through sym_model_vararg32/64,
 * which hand the slot's expression back as the result's shadow. The getter of the
 * return slot checks the value (and resizes the expression to the result's width), so
 * a stale slot reads as concrete, never as a wrong expression.
 */
#define SYM_MAX_VARARGS 64
static symx varargs[SYM_MAX_VARARGS];

void rt_varargs_reset(void) { memset(varargs, 0, sizeof varargs); }

/* A symbolic slot also sets __sym_shadow_active, as a symbolic byte in memory would: the
 * concrete-mode copies (which pass values through sym_model_vararg* without their
 * shadows) are only entered while it is 0, so a model reading a symbolic vararg always
 * runs instrumented. (Not once the trace is full: the run has gone concrete, rt_trace.c.) */
void __sym_set_vararg(uint32_t k, symx e)
{
    if (k < SYM_MAX_VARARGS) varargs[k] = e;
    if (e && !rt.trace_full) __sym_shadow_active = 1;
}

/* Declared in src/runtime/libc/models.h (the models are their only callers). */
int32_t sym_model_vararg32(uint32_t k, int32_t value);
int64_t sym_model_vararg64(uint32_t k, int64_t value);

int32_t sym_model_vararg32(uint32_t k, int32_t value)
{
    __sym_ret = k < SYM_MAX_VARARGS ? varargs[k] : NULL;
    return value;
}

int64_t sym_model_vararg64(uint32_t k, int64_t value)
{
    __sym_ret = k < SYM_MAX_VARARGS ? varargs[k] : NULL;
    return value;
}
