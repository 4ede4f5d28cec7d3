/* pass.h: state and helpers shared by the instrumentation pass files (pass_func.c: the walk; pass.c, pass_mem.c, pass_fp.c, calls.c: instructions; pass_dispatch.c: concrete mode; pass_rt.c: helpers); private to src/instrument. */
#ifndef SYMPATH_INSTRUMENT_PASS_H
#define SYMPATH_INSTRUMENT_PASS_H

#include <stdint.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "instrument_int.h"

/* Runtime entry points of rt_abi.h. keep in this ORDER (indexes rt_sigs in pass_rt.c). */
enum rt_fn {
    RT_BINOP,
    RT_ICMP,
    RT_CAST,
    RT_SELECT,
    RT_OVERFLOW,
    RT_INTRINSIC,
    RT_PTR_ADD,
    RT_LOAD,
    RT_STORE,
    RT_MEMCPY,
    RT_MEMSET,
    RT_SET_PARAM,
    RT_GET_PARAM,
    RT_SET_RET,
    RT_GET_RET,
    RT_BRANCH,
    RT_SWITCH,
    RT_CONCRETIZE,
    RT_ERROR,
    RT_FORK,
    RT_EXTERNAL_PTR,
    RT_CONCRETIZE_CALL,
    RT_EXTERNAL_PTR_CALL,
    RT_SET_VARARG,
    RT_FP,
    RT_FCMP,
    RT_SET_RET_FIELD,
    RT_GET_RET_FIELD,
    RT_SET_BYVAL,
    RT_GET_BYVAL,
    RT_COUNT
};

typedef struct pass {
    LLVMModuleRef m;
    LLVMContextRef cx;
    LLVMBuilderRef b;
    LLVMTargetDataRef td;
    const instr_config *cfg;
    site_table *sites;
    instr_result *res;
    LLVMTypeRef i1, i8, i32, i64, p8, vd;
    LLVMValueRef null;         /* i8* null: the shadow of every concrete value */
    LLVMValueRef rt[RT_COUNT]; /* runtime functions, declared on first use */

    /* the function being instrumented */
    LLVMValueRef fn;
    const char *fname;
    int user;    /* 0 inside sympath's libc models */
    int harness; /* 1 inside a `sympath unit` harness helper (sympu_*): its calls are not the unit's */
    int is_main, in_reach_error;
    unsigned fb_line, fb_col; /* fallback location: first located instruction */
    const char *fb_file;
    ptrmap shadow;      /* value -> shadow (a), second shadow (b) for the {result,
                                       overflow} pairs of llvm.*.with.overflow */
    ptrmap agg;         /* struct value -> its [n x i8*] field shadows (pass_agg.c) */
    LLVMValueRef *phis; /* pairs (original phi, shadow phi) to complete at the end */
    size_t nphis, capphis;

    /* the instruction being instrumented and the original one after it ("after" point) */
    LLVMValueRef cur, next;
    int oom;

    /* concrete mode (docs/instrumentation.md): instrumenting the copy F.sym_concrete of an
     * input-free function, without shadows, reusing the sites and locations of F */
    int concrete;
    int mismatch;              /* a clone instruction had no counterpart: a sympath bug */
    ptrmap pair;               /* original instruction -> its copy (while F is instrumented) */
    ptrmap cmap;               /* copy instruction -> (site id, slot base) or (location id, 0) */
    LLVMValueRef prologue_end; /* last instruction of F's parameter prologue, or NULL */
} pass;

/* ---- pass_rt.c: helpers of every pass file ---- */

/* Insert before the current instruction / right after it. */
void at_before(pass *p);
void at_after(pass *p);
/* Shadow of any operand: the mapped shadow, or the null constant for constants,
 * globals and values without one. */
LLVMValueRef shadow_of(pass *p, LLVMValueRef v);
void set_shadow(pass *p, LLVMValueRef v, LLVMValueRef s);
/* Is s statically the null shadow (so runtime work can be skipped at compile time)? */
int is_null_shadow(pass *p, LLVMValueRef s);
/* Is v a vector value (vectors have no shadows: counted as unsupported)? */
int is_vector(LLVMValueRef v);
/* Shadow of a width change of s from `from` to `to` bits (both <= 64), op EXPR_EXTRACT,
 * EXPR_ZEXT or EXPR_SEXT, at the builder; s itself when the widths agree or s is null. */
LLVMValueRef resize_shadow(pass *p, uint32_t op, unsigned from, unsigned to, LLVMValueRef s);
/* Integer/pointer of at most 64 bits, float or double (the values that carry shadows)? */
int tracked_type(pass *p, LLVMTypeRef t);
/* Width in bits of an integer type, 32 for float, 64 for double and pointers. */
unsigned bit_width(pass *p, LLVMTypeRef t);
/* v (integer <= 64 bits, pointer, float, double) zero-extended / converted to i64 (a
 * float as its bit pattern), at the builder. */
LLVMValueRef as_i64(pass *p, LLVMValueRef v);
LLVMValueRef c32(pass *p, uint64_t v);
LLVMValueRef c64(pass *p, uint64_t v);
/* The declaration (or rt_fast.bc definition) of runtime function `which`. */
LLVMValueRef rt_decl(pass *p, enum rt_fn which);
/* Call runtime function `which` at the builder; pointer arguments are cast to the
 * declared parameter types and a pointer result is returned as i8*. */
LLVMValueRef rt_call(pass *p, enum rt_fn which, LLVMValueRef *args, unsigned n);
/* __sym_concretize(kind, s) at the builder unless s is statically null. */
void concretize(pass *p, uint32_t kind, LLVMValueRef s);
/* Concretize (kind) every operand of the current instruction that has a shadow. */
void lose_operands(pass *p, uint32_t kind);
/* Count one instruction of an unsupported kind in the site table. */
void count_unsupported(pass *p, const char *kind);
/* Source location of an instruction (falls back to the function's first one). */
void inst_loc(pass *p, LLVMValueRef inst, unsigned *line, unsigned *col, const char **file);
/* Sites and error locations of concrete-mode copies: in normal mode, remember (a, b) for
 * the copy of the current instruction (if F has a copy); in concrete mode, fetch what the
 * original instruction got. clone_fetch returns 0, or -1 (p->mismatch set). */
void clone_record(pass *p, uint32_t a, uint32_t b);
int clone_fetch(pass *p, uint32_t *a, uint32_t *b);

/* ---- pass.c: the visitor ---- */
/* Instrument the instruction p->cur (p->next: the original instruction after it), by
 * opcode; in concrete mode only branches, switches and calls. */
void instrument_inst(pass *p);
/* Give the shadow phis made by the visitor their incoming values (once every block of the
 * function is instrumented, so every incoming value has its shadow). */
void finish_phis(pass *p);

/* ---- pass_mem.c: memory instructions (p->cur) ---- */
/* getelementptr: the shadow of base + sum(index * scale) + constant. */
void do_gep(pass *p);
/* load: the shadow read from shadow memory (__sym_load); a symbolic address is concretized. */
void do_load(pass *p);
/* store: the value's shadow (or NULL) written to shadow memory (__sym_store). */
void do_store(pass *p);
/* alloca: the fresh object's bytes marked concrete. */
void do_alloca(pass *p);
/* atomicrmw / cmpxchg (`kind`): counted unsupported, operands concretized, bytes made concrete. */
void do_atomic(pass *p, const char *kind, int ptr_op, int val_op);
/* insertvalue: counted unsupported, the inserted value concretized. */
void do_insertvalue(pass *p);

/* ---- pass_agg.c: structs of scalars held in registers (a C struct returned by value) ---- */
/* Is t a struct of 1..8 fields, each an integer of at most 64 bits, a pointer, a float or a
 * double (the aggregates whose values get field shadows)? */
int agg_tracked_type(pass *p, LLVMTypeRef t);
/* The [n x i8*] field shadows of the struct value v, or NULL when it has none (concrete). */
LLVMValueRef agg_shadow_of(pass *p, LLVMValueRef v);
/* load of such a struct (p->cur) through a pointer of shadow sptr: one __sym_load per field. */
void agg_load(pass *p, LLVMValueRef sptr);
/* store of a struct value (p->cur), after do_store cleared the whole: each field's shadow. */
void agg_store(pass *p);
/* extractvalue of a field of a struct with field shadows: that field's shadow; returns 0
 * when the aggregate has none (the caller goes on as before). */
int agg_extractvalue(pass *p);
/* insertvalue into such a struct: the field shadows with the inserted one; 0 when the type
 * is not one of these (the caller goes on as before). */
int agg_insertvalue(pass *p);
/* ret of the struct value v: every field slot set (__sym_set_ret_field). */
void agg_ret(pass *p, LLVMValueRef v);
/* The instrumented call p->cur returning such a struct: field slots cleared before, read
 * after (__sym_get_ret_field). */
void agg_call_result(pass *p);

/* ---- pass_dispatch.c: concrete mode ---- */
/* Map (p->pair) every instruction of fn to the one at the same place in its copy; -1 when
 * the two differ in shape (a sympath bug), 0 otherwise (p->oom set when out of memory). */
int pair_instructions(pass *p, LLVMValueRef fn, LLVMValueRef copy);
/* May fn's entry call its copy (not main, not variadic, no byval-like arguments)? */
int can_dispatch(pass *p, LLVMValueRef fn);
/* Give fn (instrumented, p->shadow still holding its parameters' shadows) the entry test
 * that calls `copy` when nothing is symbolic. */
void insert_dispatch(pass *p, LLVMValueRef fn, LLVMValueRef copy);
/* What fn's dispatch calls: libc's own X for a model __sym_model_X that computes what
 * glibc does (model_is_libc_when_concrete), else the copy. */
LLVMValueRef libc_target(pass *p, const char *name, LLVMValueRef fn, LLVMValueRef copy);

/* ---- pass_fp.c ---- */
/* Is t float or double (the floating-point types with shadows)? */
int fp_type(LLVMTypeRef t);
/* Instrument the floating-point instruction p->cur (fneg, fadd..frem, fcmp, fptosi,
 * fptoui, sitofp, uitofp, fpext, fptrunc); other operands/results stay concrete
 * (x86_fp80, half, fp128: counted as CONC_FLOAT). */
void do_fp_inst(pass *p);
/* Float intrinsic `name` (llvm.fabs.*, llvm.sqrt.*, ...) or libm function (sqrt, fabsf,
 * floor, ..., and glibc's __isnan, __isinf, __finite, __fpclassify with their f variants;
 * is_libm) called by p->cur: emit its shadow and return 1, or return 0 when it is not one
 * sympath models (the caller then treats it as before). */
int do_fp_call(pass *p, const char *name, int is_libm);

/* ---- calls.c ---- */
/* Instrument the call instruction p->cur (direct, indirect, intrinsic, hooks, redirects). */
void do_call(pass *p);
/* Remove the memory-effect attributes (readnone, readonly, argmemonly, ...) from the
 * definition f: an instrumented function writes shadow slots and coverage bytes. */
void strip_function_memory_attrs(LLVMValueRef f);

/* The same in concrete mode: hooks, fork and redirects only, callees are the copies. */
void do_call_concrete(pass *p);
/* Instrument extractvalue (resolves with.overflow pairs). */
void do_extractvalue(pass *p);

/* model_addr.c: the address of a modelled stream reader (fgets, fgetc, getc, fread, getline,
 * getdelim) used as a value in the program's instructions, e.g. passed as a callback, becomes
 * its model's (__sym_model_X), so an indirect call reads the symbolic stream. Called once per
 * module before the functions are instrumented. */
void redirect_model_addresses(LLVMModuleRef m);

#endif
