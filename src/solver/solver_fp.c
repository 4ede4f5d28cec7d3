/* solver_fp.c: sympath's floating-point operators as Z3 FloatingPoint terms (see solver_fp.h). */
#include "solver/solver_fp.h"

#include <stdint.h>

static Z3_ast H(fpz *f, Z3_ast a)
{
    if (!a || f->nheld == sizeof f->held / sizeof *f->held) {
        f->failed = true;
        return NULL;
    }
    Z3_inc_ref(f->z, a);
    f->held[f->nheld++] = a;
    return a;
}

void fpz_release(fpz *f)
{
    while (f->nheld) Z3_dec_ref(f->z, f->held[--f->nheld]);
}

bool fpz_init(fpz *f, Z3_context z)
{
    f->z = z;
    f->nheld = 0;
    f->failed = false;
    /* each result is referenced at once: in reference-counted mode the next API call may free it */
    if (!(f->sort32 = Z3_mk_fpa_sort_single(z))) return false;
    Z3_inc_ref(z, Z3_sort_to_ast(z, f->sort32));
    if (!(f->sort64 = Z3_mk_fpa_sort_double(z))) return false;
    Z3_inc_ref(z, Z3_sort_to_ast(z, f->sort64));
    for (int i = 0; i < 5; i++) {
        Z3_ast (*mk)(Z3_context) = i == FRM_RNE   ? Z3_mk_fpa_rne
                                   : i == FRM_RNA ? Z3_mk_fpa_rna
                                   : i == FRM_RTP ? Z3_mk_fpa_rtp
                                   : i == FRM_RTN ? Z3_mk_fpa_rtn
                                                  : Z3_mk_fpa_rtz;
        if (!(f->rm[i] = mk(z))) return false;
        Z3_inc_ref(z, f->rm[i]);
    }
    return true;
}

void fpz_fini(fpz *f)
{
    if (!f->z) return;
    fpz_release(f);
    if (f->sort32) Z3_dec_ref(f->z, Z3_sort_to_ast(f->z, f->sort32));
    if (f->sort64) Z3_dec_ref(f->z, Z3_sort_to_ast(f->z, f->sort64));
    for (int i = 0; i < 5; i++)
        if (f->rm[i]) Z3_dec_ref(f->z, f->rm[i]);
    f->z = NULL;
}

Z3_sort fpz_sort(fpz *f, unsigned width) { return width == 32 ? f->sort32 : width == 64 ? f->sort64 : NULL; }

Z3_ast fpz_from_bits(fpz *f, Z3_ast bv, unsigned width)
{
    Z3_sort s = fpz_sort(f, width);
    if (!s || !bv) {
        f->failed = true;
        return NULL;
    }
    return H(f, Z3_mk_fpa_to_fp_bv(f->z, bv, s));
}

static Z3_ast bool_bv(fpz *f, Z3_ast b, Z3_ast one, Z3_ast zero)
{
    return b ? H(f, Z3_mk_ite(f->z, b, one, zero)) : NULL;
}

static Z3_ast fnum(fpz *f, double v, unsigned width)
{
    return H(f, Z3_mk_fpa_numeral_double(f->z, v, fpz_sort(f, width)));
}

/* cvttsd2si with a `bits`-bit destination (32/64) of the float x (width w): the
 * truncation when it fits in a signed `bits`-bit integer, else 0x80..0. */
static Z3_ast cvtt(fpz *f, Z3_ast x, unsigned w, unsigned bits)
{
    Z3_context z = f->z;
    double lim = bits == 32 ? 0x1p31 : 0x1p63;
    Z3_ast t = H(f, Z3_mk_fpa_round_to_integral(z, f->rm[FRM_RTZ], x));
    Z3_ast in[2] = {H(f, Z3_mk_fpa_geq(z, t, fnum(f, -lim, w))), H(f, Z3_mk_fpa_lt(z, t, fnum(f, lim, w)))};
    if (!in[0] || !in[1]) return NULL;
    Z3_ast ok = H(f, Z3_mk_and(z, 2, in));
    Z3_ast conv = H(f, Z3_mk_fpa_to_sbv(z, f->rm[FRM_RTZ], x, bits));
    Z3_ast indef =
        H(f, Z3_mk_unsigned_int64(z, bits == 32 ? 0x80000000ull : 0x8000000000000000ull, Z3_mk_bv_sort(z, bits)));
    if (!ok || !conv || !indef) return NULL;
    return H(f, Z3_mk_ite(z, ok, conv, indef));
}

static Z3_ast low_bits(fpz *f, Z3_ast v, unsigned from, unsigned to)
{
    if (!v || from == to) return v;
    return H(f, Z3_mk_extract(f->z, to - 1, 0, v));
}

/* x86-64 float -> integer conversions as clang lowers them (expr.h). */
static Z3_ast to_int(fpz *f, bool is_signed, unsigned w, Z3_ast x, unsigned kw)
{
    Z3_context z = f->z;
    if (is_signed ? w <= 32 : w <= 16) return low_bits(f, cvtt(f, x, kw, 32), 32, w);
    if (is_signed || w <= 32) return low_bits(f, cvtt(f, x, kw, 64), 64, w);
    /* r1 | (r2 & (r1 >>s 63)), r2 = cvtt64(x - 2^63) */
    Z3_ast r1 = cvtt(f, x, kw, 64);
    Z3_ast x63 = H(f, Z3_mk_fpa_sub(z, f->rm[FRM_RNE], x, fnum(f, 0x1p63, kw)));
    Z3_ast r2 = x63 ? cvtt(f, x63, kw, 64) : NULL;
    Z3_ast sh = H(f, Z3_mk_unsigned_int64(z, 63, Z3_mk_bv_sort(z, 64)));
    if (!r1 || !r2 || !sh) return NULL;
    Z3_ast m = H(f, Z3_mk_bvashr(z, r1, sh));
    Z3_ast a = m ? H(f, Z3_mk_bvand(z, r2, m)) : NULL;
    return a ? low_bits(f, H(f, Z3_mk_bvor(z, r1, a)), 64, w) : NULL;
}

/* C fmod from IEEE remainder r = x - y*n (n nearest): fmod truncates instead, so when r
 * is non-zero and its sign differs from x's, fmod = r + copysign(|y|, x) (exact; Z3's
 * fp.rem is the IEEE operation, not fmod). A zero or NaN r is already fmod's result. */
static Z3_ast fmod_term(fpz *f, Z3_ast x, Z3_ast y)
{
    Z3_context z = f->z;
    Z3_ast r = H(f, Z3_mk_fpa_rem(z, x, y));
    Z3_ast ay = H(f, Z3_mk_fpa_abs(z, y));
    if (!r || !ay) return NULL;
    Z3_ast nay = H(f, Z3_mk_fpa_neg(z, ay));
    Z3_ast xneg = H(f, Z3_mk_fpa_is_negative(z, x));
    Z3_ast rneg = H(f, Z3_mk_fpa_is_negative(z, r));
    if (!nay || !xneg || !rneg) return NULL;
    Z3_ast adj = H(f, Z3_mk_fpa_add(z, f->rm[FRM_RNE], r, H(f, Z3_mk_ite(z, xneg, nay, ay))));
    Z3_ast keep[3] = {H(f, Z3_mk_fpa_is_zero(z, r)), H(f, Z3_mk_fpa_is_nan(z, r)), H(f, Z3_mk_eq(z, xneg, rneg))};
    if (!adj || !keep[0] || !keep[1] || !keep[2]) return NULL;
    return H(f, Z3_mk_ite(z, H(f, Z3_mk_or(z, 3, keep)), r, adj));
}

Z3_ast fpz_node(fpz *f, const expr *e, Z3_ast const fk[3], Z3_ast const bk[3], Z3_ast one, Z3_ast zero, Z3_ast *bv)
{
    Z3_context z = f->z;
    Z3_ast rne = f->rm[FRM_RNE], x = fk[0], y = fk[1], r = NULL;
    unsigned w = e->width, kw = e->kid[0]->width;
    *bv = NULL;
    switch ((expr_op)e->op) {
    case EXPR_FADD: r = H(f, Z3_mk_fpa_add(z, rne, x, y)); break;
    case EXPR_FSUB: r = H(f, Z3_mk_fpa_sub(z, rne, x, y)); break;
    case EXPR_FMUL: r = H(f, Z3_mk_fpa_mul(z, rne, x, y)); break;
    case EXPR_FDIV: r = H(f, Z3_mk_fpa_div(z, rne, x, y)); break;
    case EXPR_FREM:
        /* Z3 4.8's fp.rem on Float64 bit-blasts to a circuit over the whole exponent
         * range: gigabytes and minutes, and Z3_interrupt does not stop it. Double fmod is
         * left to the sampling fallback (solver_sample.h); float fmod is fine. */
        r = w == 32 ? fmod_term(f, x, y) : NULL;
        break;
    case EXPR_FSQRT: r = H(f, Z3_mk_fpa_sqrt(z, rne, x)); break;
    case EXPR_FMA: r = H(f, Z3_mk_fpa_fma(z, rne, x, y, fk[2])); break;
    case EXPR_FMIN: r = H(f, Z3_mk_fpa_min(z, x, y)); break;
    case EXPR_FMAX: r = H(f, Z3_mk_fpa_max(z, x, y)); break;
    case EXPR_FRINT: r = e->aux <= FRM_RTZ ? H(f, Z3_mk_fpa_round_to_integral(z, f->rm[e->aux], x)) : NULL; break;
    case EXPR_SITOF: r = H(f, Z3_mk_fpa_to_fp_signed(z, rne, bk[0], fpz_sort(f, w))); break;
    case EXPR_UITOF: r = H(f, Z3_mk_fpa_to_fp_unsigned(z, rne, bk[0], fpz_sort(f, w))); break;
    case EXPR_FCVT: r = H(f, Z3_mk_fpa_to_fp_float(z, rne, x, fpz_sort(f, w))); break;
    case EXPR_FOEQ: *bv = bool_bv(f, H(f, Z3_mk_fpa_eq(z, x, y)), one, zero); break;
    case EXPR_FOLT: *bv = bool_bv(f, H(f, Z3_mk_fpa_lt(z, x, y)), one, zero); break;
    case EXPR_FOLE: *bv = bool_bv(f, H(f, Z3_mk_fpa_leq(z, x, y)), one, zero); break;
    case EXPR_FUNO: {
        Z3_ast n[2] = {H(f, Z3_mk_fpa_is_nan(z, x)), H(f, Z3_mk_fpa_is_nan(z, y))};
        if (n[0] && n[1]) *bv = bool_bv(f, H(f, Z3_mk_or(z, 2, n)), one, zero);
        break;
    }
    case EXPR_FTOSI: *bv = to_int(f, true, w, x, kw); break;
    case EXPR_FTOUI: *bv = to_int(f, false, w, x, kw); break;
    default: break;
    }
    if (r) *bv = H(f, Z3_mk_fpa_to_ieee_bv(z, r));
    if (!*bv || f->failed) {
        f->failed = true;
        *bv = NULL;
        return NULL;
    }
    return r;
}
