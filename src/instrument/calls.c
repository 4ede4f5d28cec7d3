/* calls.c: instrumenting calls: shadow passing, external calls, error hooks, model redirects, intrinsics. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "../expr/expr.h"
#include "../proto/trace.h"
#include "../runtime/rt_abi.h"
#include "util/util.h"

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* The function a call targets directly, looking through a pointer cast of a function
 * (calls to functions declared without a prototype look like that), or NULL. */
static LLVMValueRef direct_callee(LLVMValueRef call)
{
    LLVMValueRef v = LLVMGetCalledValue(call);
    if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMBitCast) v = LLVMGetOperand(v, 0);
    return LLVMIsAFunction(v) ? v : NULL;
}

/* Memory-effect attributes clang puts on calls of libc builtins (isdigit is readonly,
 * ...), or that a program puts on its own functions (__attribute__((const))). They
 * describe the uninstrumented code: once instrumented, a callee writes the return-value
 * shadow slot and coverage bytes, and with `readonly` left on the call -O2 would move the
 * caller's shadow-slot accesses across it (a model's symbolic result read as concrete). */
static const char *const memory_attrs[] = {
    "readnone",     "readonly", "writeonly", "argmemonly", "inaccessiblememonly", "inaccessiblemem_or_argmemonly",
    "speculatable",
};

static void strip_memory_attrs(LLVMValueRef call)
{
    for (size_t i = 0; i < sizeof memory_attrs / sizeof *memory_attrs; i++) {
        unsigned k = LLVMGetEnumAttributeKindForName(memory_attrs[i], strlen(memory_attrs[i]));
        if (k) LLVMRemoveCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, k);
    }
}

void strip_function_memory_attrs(LLVMValueRef f)
{
    for (size_t i = 0; i < sizeof memory_attrs / sizeof *memory_attrs; i++) {
        unsigned k = LLVMGetEnumAttributeKindForName(memory_attrs[i], strlen(memory_attrs[i]));
        if (k) LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, k);
    }
}

/* Make the call target `f` instead, casting it to the call's function type if needed. */
static void set_callee(pass *p, LLVMValueRef call, LLVMValueRef f)
{
    strip_memory_attrs(call);
    LLVMTypeRef fty = LLVMGetCalledFunctionType(call);
    if (LLVMGlobalGetValueType(f) != fty) f = LLVMConstBitCast(f, LLVMPointerType(fty, 0));
    /* the callee is the last operand of every call instruction */
    LLVMSetOperand(call, (unsigned)LLVMGetNumOperands(call) - 1, f);
}

/* ---- error hooks ---- */

/* error_kind and site-table name of a function whose call ends the run with an error, or ERR_NONE. */
static uint32_t error_hook(const char *name, const char **what)
{
    if (!strcmp(name, "reach_error") || !strcmp(name, "__VERIFIER_error")) {
        *what = name;
        return ERR_REACH;
    }
    if (!strcmp(name, "__assert_fail") || !strcmp(name, "__assert_perror_fail") || !strcmp(name, "__assert")) {
        *what = "assert";
        return ERR_ASSERT;
    }
    if (!strcmp(name, "abort")) {
        *what = "abort";
        return ERR_ABORT;
    }
    return ERR_NONE;
}

static void insert_error(pass *p, uint32_t kind, const char *what)
{
    unsigned line, col;
    const char *file;
    uint32_t loc, unused;
    if (p->concrete) { /* the copy reports its original's location */
        if (clone_fetch(p, &loc, &unused)) return;
    } else {
        inst_loc(p, p->cur, &line, &col, &file);
        if (sites_add_loc(p->sites, line, col, file, p->fname, what, &loc)) {
            p->oom = 1;
            return;
        }
        clone_record(p, loc, 0);
    }
    at_before(p);
    LLVMValueRef args[2] = {c32(p, kind), c32(p, loc)};
    rt_call(p, RT_ERROR, args, 2);
}

/* ---- shadow passing ---- */

/* Call of an instrumented function (or an unknown one through a pointer): parameter
 * slots before, return slot after. Variadic extras cannot be passed: concretized, except
 * for a variadic libc model (to_model), which gets their shadows in the vararg slots. */
static void instrumented_call(pass *p, int to_model)
{
    LLVMValueRef I = p->cur;
    strip_memory_attrs(I);
    LLVMTypeRef fty = LLVMGetCalledFunctionType(I);
    unsigned nfixed = LLVMCountParamTypes(fty), nargs = LLVMGetNumArgOperands(I);
    at_before(p);
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < nargs; i++) {
        LLVMValueRef a = LLVMGetOperand(I, i);
        if (!tracked_type(p, LLVMTypeOf(a))) continue;
        if (i < nfixed && LLVMGetCallSiteEnumAttribute(I, i + 1, byval)) {
            /* the callee copies the shadow of what the code generator copies (rt_abi.h) */
            LLVMValueRef args[2] = {c32(p, i), LLVMBuildPointerCast(p->b, a, p->p8, "")};
            rt_call(p, RT_SET_BYVAL, args, 2);
        }
        LLVMValueRef s = shadow_of(p, a);
        if (i < nfixed) {
            LLVMValueRef args[2] = {c32(p, i), s};
            rt_call(p, RT_SET_PARAM, args, 2);
        } else if (to_model) {
            /* a variadic model reads the shadows of its extras back (models.h) */
            LLVMValueRef args[2] = {c32(p, i - nfixed), s};
            rt_call(p, RT_SET_VARARG, args, 2);
        } else {
            concretize(p, CONC_VARARG, s);
        }
    }
    LLVMValueRef none = p->null;
    rt_call(p, RT_SET_RET, &none, 1);
    if (tracked_type(p, LLVMTypeOf(I))) {
        at_after(p);
        /* the width lets the runtime resize an expression of another width (caller and
         * callee disagree on the return type), never pass it on as is */
        LLVMValueRef args[2] = {as_i64(p, I), c32(p, bit_width(p, LLVMTypeOf(I)))};
        set_shadow(p, I, rt_call(p, RT_GET_RET, args, 2));
    } else if (agg_tracked_type(p, LLVMTypeOf(I))) {
        agg_call_result(p);
    }
}

/*
 * Functions whose only effect on symbolic arguments is to write them to a stream: what
 * a program prints does not constrain its path, so their arguments are passed as they
 * are, neither concretized nor counted. (Their results, character counts, are concrete.)
 */
static const char *const output_sinks[] = {
    "printf",           "fprintf",         "dprintf",        "vprintf",
    "vfprintf",         "vdprintf",        "puts",           "fputs",
    "putchar",          "fputc",           "putc",           "_IO_putc",
    "putchar_unlocked", "putc_unlocked",   "fputc_unlocked", "fputs_unlocked",
    "fwrite",           "fwrite_unlocked", "perror",         "__printf_chk",
    "__fprintf_chk",    "__vprintf_chk",   "__vfprintf_chk", "__dprintf_chk",
    "__vdprintf_chk",   "printf_unlocked",
};

static int is_output_sink(const char *name)
{
    for (size_t i = 0; i < sizeof output_sinks / sizeof *output_sinks; i++)
        if (!strcmp(name, output_sinks[i])) return 1;
    return 0;
}

/* Call of code we do not instrument: its integer/pointer arguments are concretized,
 * its result is concrete. reads_memory 0: the callee does not read the bytes behind
 * its pointer arguments (free), so symbolic bytes there are not counted as lost.
 * name: the callee, whose concretizations are also counted under its name (site-table
 * "callee" id); NULL for inline asm (counted by kind only). */
static void external_call(pass *p, int reads_memory, const char *name)
{
    /* the harness's own calls (malloc of a buffer of symbolic length) lose nothing of the
     * unit's: counting them would list callees the unit never calls */
    if (p->harness) return;
    unsigned nargs = LLVMGetNumArgOperands(p->cur);
    uint32_t fn = 0;
    if (name && sites_add_callee(p->sites, name, &fn)) {
        p->oom = 1;
        return;
    }
    at_before(p);
    for (unsigned i = 0; i < nargs; i++) {
        LLVMValueRef a = LLVMGetOperand(p->cur, i);
        LLVMValueRef s = shadow_of(p, a);
        if (name && !is_null_shadow(p, s)) {
            LLVMValueRef args[2] = {c32(p, fn), s};
            rt_call(p, RT_CONCRETIZE_CALL, args, 2);
        } else if (!name) {
            concretize(p, CONC_EXTERNAL_CALL, s);
        }
        /* memory the callee may read: counted when it holds symbolic bytes */
        if (reads_memory && LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMPointerTypeKind) {
            LLVMValueRef ptr = LLVMBuildPointerCast(p->b, a, p->p8, "");
            if (name) {
                LLVMValueRef args[2] = {ptr, c32(p, fn)};
                rt_call(p, RT_EXTERNAL_PTR_CALL, args, 2);
            } else {
                rt_call(p, RT_EXTERNAL_PTR, &ptr, 1);
            }
        }
    }
}

/* memcpy/memmove/memset (libc or intrinsic): the shadow side runs before the real copy. */
static void mem_call(pass *p, int is_set)
{
    LLVMValueRef I = p->cur;
    LLVMValueRef dst = LLVMGetOperand(I, 0), x = LLVMGetOperand(I, 1), n = LLVMGetOperand(I, 2);
    at_before(p);
    LLVMValueRef sn = shadow_of(p, n);
    if (is_set) {
        /* the fill byte: an i8 for the intrinsic, an int for libc memset */
        LLVMValueRef sv = shadow_of(p, x);
        unsigned w = bit_width(p, LLVMTypeOf(x));
        if (w != 8 && !is_null_shadow(p, sv)) {
            LLVMValueRef args[4] = {c32(p, EXPR_EXTRACT), c32(p, w), c32(p, 8), sv};
            sv = rt_call(p, RT_CAST, args, 4);
        }
        LLVMValueRef args[4] = {dst, sv, as_i64(p, n), sn};
        rt_call(p, RT_MEMSET, args, 4);
    } else {
        LLVMValueRef args[4] = {dst, x, as_i64(p, n), sn};
        rt_call(p, RT_MEMCPY, args, 4);
    }
    if (tracked_type(p, LLVMTypeOf(I))) /* libc's return their destination */
        set_shadow(p, I, shadow_of(p, dst));
}

/* ---- intrinsics ---- */

static const struct {
    const char *prefix;
    uint32_t which;
} int_intrinsics[] = {
    {"llvm.bswap.", SYM_I_BSWAP},
    {"llvm.ctpop.", SYM_I_CTPOP},
    {"llvm.ctlz.", SYM_I_CTLZ},
    {"llvm.cttz.", SYM_I_CTTZ},
    {"llvm.bitreverse.", SYM_I_BITREVERSE},
    {"llvm.abs.", SYM_I_ABS},
    {"llvm.smin.", SYM_I_SMIN},
    {"llvm.smax.", SYM_I_SMAX},
    {"llvm.umin.", SYM_I_UMIN},
    {"llvm.umax.", SYM_I_UMAX},
    {"llvm.fshl.", SYM_I_FSHL},
    {"llvm.fshr.", SYM_I_FSHR},
    {"llvm.uadd.sat.", SYM_I_UADD_SAT},
    {"llvm.usub.sat.", SYM_I_USUB_SAT},
    {"llvm.sadd.sat.", SYM_I_SADD_SAT},
    {"llvm.ssub.sat.", SYM_I_SSUB_SAT},
};

/* llvm.X.with.overflow: the arithmetic op and the overflow flag op. */
static const struct {
    const char *prefix;
    uint32_t op, flag;
} ovf_intrinsics[] = {
    {"llvm.uadd.with.overflow.", EXPR_ADD, EXPR_UADDO}, {"llvm.sadd.with.overflow.", EXPR_ADD, EXPR_SADDO},
    {"llvm.usub.with.overflow.", EXPR_SUB, EXPR_USUBO}, {"llvm.ssub.with.overflow.", EXPR_SUB, EXPR_SSUBO},
    {"llvm.umul.with.overflow.", EXPR_MUL, EXPR_UMULO}, {"llvm.smul.with.overflow.", EXPR_MUL, EXPR_SMULO},
};

/* Intrinsics with nothing to model: no values, or values that are concrete by nature. */
static const char *const noop_intrinsics[] = {
    "llvm.dbg.",
    "llvm.lifetime.",
    "llvm.stacksave",
    "llvm.stackrestore",
    "llvm.va_start",
    "llvm.va_end",
    "llvm.va_copy",
    "llvm.assume",
    "llvm.trap",
    "llvm.debugtrap",
    "llvm.prefetch",
    "llvm.donothing",
    "llvm.experimental.noalias.scope.decl",
    "llvm.invariant.",
    "llvm.var.annotation",
    "llvm.objectsize.",
    "llvm.is.constant.",
};

static int has_int_or_ptr(pass *p, LLVMValueRef I)
{
    if (tracked_type(p, LLVMTypeOf(I)) || LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMIntegerTypeKind) return 1;
    unsigned n = LLVMGetNumArgOperands(I);
    for (unsigned i = 0; i < n; i++) {
        LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(I, i)));
        if (k == LLVMIntegerTypeKind || k == LLVMPointerTypeKind) return 1;
    }
    return 0;
}

static void do_intrinsic(pass *p, const char *name)
{
    LLVMValueRef I = p->cur;
    unsigned nargs = LLVMGetNumArgOperands(I);
    for (size_t i = 0; i < sizeof noop_intrinsics / sizeof *noop_intrinsics; i++)
        if (starts(name, noop_intrinsics[i])) return;
    if (starts(name, "llvm.expect.")) {
        if (tracked_type(p, LLVMTypeOf(I))) set_shadow(p, I, shadow_of(p, LLVMGetOperand(I, 0)));
        return;
    }
    if (starts(name, "llvm.memcpy.") || starts(name, "llvm.memmove.")) {
        mem_call(p, 0);
        return;
    }
    if (starts(name, "llvm.memset.")) {
        mem_call(p, 1);
        return;
    }
    /* Integer intrinsics on scalars of at most 64 bits; vectors fall through to "unsupported". */
    LLVMValueRef a0 = nargs ? LLVMGetOperand(I, 0) : NULL;
    int scalar = a0 && tracked_type(p, LLVMTypeOf(a0)) && LLVMGetTypeKind(LLVMTypeOf(a0)) == LLVMIntegerTypeKind;
    for (size_t i = 0; scalar && i < sizeof ovf_intrinsics / sizeof *ovf_intrinsics; i++) {
        if (!starts(name, ovf_intrinsics[i].prefix)) continue;
        /* The {result, overflow} struct gets a compile-time pair of shadows, which
         * extractvalue 0 / 1 resolves (do_extractvalue). */
        LLVMValueRef a = a0, b = LLVMGetOperand(I, 1);
        LLVMValueRef sa = shadow_of(p, a), sb = shadow_of(p, b);
        if (is_null_shadow(p, sa) && is_null_shadow(p, sb)) return;
        at_before(p);
        unsigned w = bit_width(p, LLVMTypeOf(a));
        LLVMValueRef av = as_i64(p, a), bv = as_i64(p, b);
        LLVMValueRef args[6] = {c32(p, ovf_intrinsics[i].op), c32(p, w), sa, av, sb, bv};
        LLVMValueRef s0 = rt_call(p, RT_BINOP, args, 6);
        args[0] = c32(p, ovf_intrinsics[i].flag);
        LLVMValueRef s1 = rt_call(p, RT_OVERFLOW, args, 6);
        if (ptrmap_put(&p->shadow, I, s0, s1)) p->oom = 1;
        return;
    }
    for (size_t i = 0; scalar && i < sizeof int_intrinsics / sizeof *int_intrinsics; i++) {
        if (!starts(name, int_intrinsics[i].prefix)) continue;
        LLVMValueRef sh[3] = {p->null, p->null, p->null}, v[3];
        int any = 0;
        for (unsigned k = 0; k < 3 && k < nargs; k++) {
            sh[k] = shadow_of(p, LLVMGetOperand(I, k));
            any |= !is_null_shadow(p, sh[k]);
        }
        if (!any) return;
        at_before(p);
        for (unsigned k = 0; k < 3; k++) v[k] = k < nargs ? as_i64(p, LLVMGetOperand(I, k)) : c64(p, 0);
        LLVMValueRef args[8] = {c32(p, int_intrinsics[i].which),
                                c32(p, bit_width(p, LLVMTypeOf(I))),
                                sh[0],
                                v[0],
                                sh[1],
                                v[1],
                                sh[2],
                                v[2]};
        set_shadow(p, I, rt_call(p, RT_INTRINSIC, args, 8));
        return;
    }
    /* Floating-point intrinsics sympath models (fabs, sqrt, fma, fmuladd, minnum, floor, ...). */
    if (do_fp_call(p, name, 0)) return;
    if (!has_int_or_ptr(p, I)) return;
    /* Anything else is counted under its own name, its symbolic operands concretized
     * (as CONC_FLOAT when it computes on floats: llvm.sin, llvm.pow, ...). */
    char kind[160];
    snprintf(kind, sizeof kind, "call %s", name);
    count_unsupported(p, kind);
    int on_floats = fp_type(LLVMTypeOf(I));
    for (unsigned i = 0; i < nargs; i++) on_floats |= fp_type(LLVMTypeOf(LLVMGetOperand(I, i)));
    lose_operands(p, on_floats ? CONC_FLOAT : CONC_UNSUPPORTED);
}

/* ---- calls ---- */

/* The function named prefix+name+suffix when the module defines it (not just declares it),
 * else NULL. */
static LLVMValueRef defined_function(pass *p, const char *prefix, const char *name, const char *suffix)
{
    char *full = util_strf("%s%s%s", prefix, name, suffix);
    if (!full) {
        p->oom = 1;
        return NULL;
    }
    LLVMValueRef f = LLVMGetNamedFunction(p->m, full);
    free(full);
    return f && !LLVMIsDeclaration(f) ? f : NULL;
}

/* The model __sym_model_<name> when sympath's models define it and the program does not
 * define <name> itself (its own strlen is its own business), else NULL. */
static LLVMValueRef model_of(pass *p, const char *name)
{
    if (defined_function(p, "", name, "")) return NULL;
    return defined_function(p, "__sym_model_", name, "");
}

/*
 * Models whose libc function computes exactly the same thing and keeps no state the model
 * would have to share (unlike strtok's saved position, the stdin/file models' streams, or
 * scanf reading through them). A concrete-mode copy runs only while nothing is symbolic, so
 * there such a call goes to libc itself: glibc's vectorised string functions instead of the
 * models' byte loops (docs/design.md, "Concrete mode").
 */
static const char *const libc_same_when_concrete[] = {
    "strlen",          "strnlen",          "strcmp",      "strncmp",   "memcmp",    "bcmp",    "strchr",
    "strrchr",         "memchr",           "memrchr",     "strchrnul", "index",     "rindex",  "strcpy",
    "stpcpy",          "strncpy",          "strcat",      "strncat",   "strstr",    "strspn",  "strcspn",
    "strpbrk",         "strcasecmp",       "strncasecmp", "strcoll",   "strdup",    "strndup", "strtok_r",
    "strsep",          "isdigit",          "isupper",     "islower",   "isalpha",   "isalnum", "isspace",
    "isblank",         "iscntrl",          "isprint",     "isgraph",   "ispunct",   "isascii", "isxdigit",
    "toupper",         "tolower",          "toascii",     "strtol",    "strtoll",   "strtoul", "strtoull",
    "strtoimax",       "strtoumax",        "atoi",        "atol",      "atoll",     "abs",     "labs",
    "llabs",           "sprintf",          "snprintf",    "vsprintf",  "vsnprintf", "sscanf",  "vsscanf",
    "__isoc99_sscanf", "__isoc99_vsscanf",
};

int model_is_libc_when_concrete(const char *name)
{
    for (size_t i = 0; i < sizeof libc_same_when_concrete / sizeof *libc_same_when_concrete; i++)
        if (!strcmp(libc_same_when_concrete[i], name)) return 1;
    return 0;
}

int model_redirect_ok(const char *caller, const char *callee)
{
    static const char pre[] = "__sym_model_";
    size_t lp = sizeof pre - 1, lc = strlen(callee), ls = strlen(CONCRETE_SUFFIX);
    if (starts(callee, pre)) return 0;
    if (!caller || !starts(caller, pre)) return 1;
    /* caller is __sym_model_<X> or its copy __sym_model_<X>.sym_concrete */
    const char *x = caller + lp;
    size_t lx = strlen(x);
    if (lx > ls && !strcmp(x + lx - ls, CONCRETE_SUFFIX)) lx -= ls;
    return !(lx == lc && !strncmp(x, callee, lc));
}

/*
 * Classification of a call, in this order:
 *   inline asm                         -> external (counted)
 *   intrinsic                          -> do_intrinsic
 *   error function (reach_error, ...)  -> __sym_error(kind, loc) first (not inside reach_error)
 *   fork                               -> redirected to __sym_fork
 *   X with __sym_model_X defined       -> redirected to the model (model_redirect_ok), instrumented
 *   memcpy / memmove / memset          -> shadow copy, then the real call
 *   runtime API, defined in the module,
 *   or indirect                        -> instrumented call (parameter/return slots)
 *   anything else                      -> external: symbolic arguments concretized
 */
void do_call(pass *p)
{
    LLVMValueRef I = p->cur;
    LLVMValueRef fn = direct_callee(I);
    if (LLVMIsAInlineAsm(LLVMGetCalledValue(I))) {
        count_unsupported(p, "inline asm");
        external_call(p, 1, NULL);
        return;
    }
    if (!fn) {
        instrumented_call(p, 0);
        return;
    }
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    if (LLVMGetIntrinsicID(fn)) {
        do_intrinsic(p, name);
        return;
    }
    const char *what;
    uint32_t ek = error_hook(name, &what);
    if (ek != ERR_NONE && !p->in_reach_error) {
        insert_error(p, ek, what);
        return;
    }
    if (!strcmp(name, "fork")) {
        set_callee(p, I, rt_decl(p, RT_FORK));
        return;
    }
    if (model_redirect_ok(p->fname, name)) {
        LLVMValueRef model = model_of(p, name);
        if (model) {
            set_callee(p, I, model);
            instrumented_call(p, 1);
            return;
        }
    }
    if (!strcmp(name, "memcpy") || !strcmp(name, "memmove")) {
        mem_call(p, 0);
        return;
    }
    if (!strcmp(name, "memset")) {
        mem_call(p, 1);
        return;
    }
    if (starts(name, "__VERIFIER_nondet_") || starts(name, "sym_") || starts(name, "__sym_input_") ||
        !strcmp(name, "__VERIFIER_assume") || !LLVMIsDeclaration(fn)) {
        /* A program may define its own sqrt, memcmp, ...: the optimiser must call that
         * definition, not treat the call as the library function (fold it, or emit sqrtsd). */
        if (!LLVMIsDeclaration(fn)) {
            unsigned k = LLVMGetEnumAttributeKindForName("nobuiltin", 9);
            LLVMAddCallSiteAttribute(I, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(p->cx, k, 0));
        }
        instrumented_call(p, starts(name, "__sym_model_"));
        return;
    }
    /* libm functions with a floating-point model (sqrt, fabs, floor, fmin, fma, ...): the
     * real call computes the value, the shadow is built beside it */
    if (do_fp_call(p, name, 1)) return;
    if (is_output_sink(name)) return;
    external_call(p, strcmp(name, "free") != 0, name);
}

/* A call concrete mode cannot make: code that may read inputs (or whose parameters
 * would need shadows). make_concrete_clones never copies a function that makes one, so
 * this is a sympath bug; the build fails rather than lose symbolic paths silently. */
static void not_concrete(pass *p) { p->mismatch = 1; }

/* The concrete-mode copy of the function named `prefix``name`, or NULL. */
static LLVMValueRef concrete_copy(pass *p, const char *prefix, const char *name)
{
    return defined_function(p, prefix, name, CONCRETE_SUFFIX);
}

/*
 * Concrete mode (the copy of an input-free function): no shadows are passed, and a
 * call's classification is do_call's with the original names (a callee that is itself
 * a copy is classified by its original's name). What remains: error hooks (with the
 * original's location ids), fork, model redirects (to the model's copy), and calls of
 * defined functions go to their copies (the linker already made them so).
 */
void do_call_concrete(pass *p)
{
    LLVMValueRef I = p->cur;
    LLVMValueRef fn = direct_callee(I);
    if (LLVMIsAInlineAsm(LLVMGetCalledValue(I))) return;
    if (!fn) {
        not_concrete(p);
        return;
    }
    if (LLVMGetIntrinsicID(fn)) return; /* memcpy/memset have no shadow side here; the rest has no symbolic operand */
    if (!LLVMIsDeclaration(fn)) strip_memory_attrs(I); /* a call of a copy: it writes coverage bytes */
    size_t len, ls = strlen(CONCRETE_SUFFIX);
    const char *full = LLVMGetValueName2(fn, &len);
    int is_copy = len > ls && !strcmp(full + len - ls, CONCRETE_SUFFIX);
    char *name = strndup(full, is_copy ? len - ls : len);
    if (!name) {
        p->oom = 1;
        return;
    }
    const char *what;
    uint32_t ek = error_hook(name, &what);
    if (ek != ERR_NONE && !p->in_reach_error) {
        insert_error(p, ek, what);
    } else if (!strcmp(name, "fork")) {
        set_callee(p, I, rt_decl(p, RT_FORK));
    } else if (model_redirect_ok(p->fname, name) && model_of(p, name) && !model_is_libc_when_concrete(name)) {
        LLVMValueRef mc = concrete_copy(p, "__sym_model_", name);
        if (mc)
            set_callee(p, I, mc);
        else
            not_concrete(p);
    } else if (is_copy || !strcmp(name, "memcpy") || !strcmp(name, "memmove") || !strcmp(name, "memset")) {
        /* already the copy; or no shadow side to copy */
    } else if (starts(name, "sym_model_")) {
        /* the models' vararg plumbing: in a copy no slot is symbolic (rt_libc.c) */
    } else if (starts(name, "__VERIFIER_nondet_") || starts(name, "sym_") || starts(name, "__sym_input_") ||
               !strcmp(name, "__VERIFIER_assume")) {
        not_concrete(p);
    } else if (!LLVMIsDeclaration(fn)) {
        LLVMValueRef c = concrete_copy(p, "", name);
        if (c)
            set_callee(p, I, c);
        else
            not_concrete(p);
    }
    free(name);
}

void do_extractvalue(pass *p)
{
    LLVMValueRef I = p->cur, agg = LLVMGetOperand(I, 0);
    ptrmap_ent *e = LLVMIsAInstruction(agg) ? ptrmap_get(&p->shadow, agg) : NULL;
    if (e && e->b && LLVMGetNumIndices(I) == 1) {
        /* a with.overflow pair */
        set_shadow(p, I, LLVMGetIndices(I)[0] == 0 ? e->a : e->b);
        return;
    }
    if (agg_extractvalue(p)) return;
    if (LLVMIsACallInst(agg) && !e) {
        /* a with.overflow of concrete operands, or another call's aggregate: concrete */
        LLVMValueRef fn = direct_callee(agg);
        size_t len;
        if (fn && LLVMGetIntrinsicID(fn) && strstr(LLVMGetValueName2(fn, &len), ".with.overflow.")) return;
    }
    count_unsupported(p, "extractvalue");
}
