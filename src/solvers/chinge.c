/* chinge.c - the smoothed C-SVM hinge objective, its gradient, dual bound and Lipschitz constant. */
#include "chinge.h"

#include <math.h>
#include <string.h>

void nv_chinge_free(nv_chinge *o)
{
    nv_free(o->s);
    nv_free(o->m);
    nv_free(o->a);
    nv_free(o->vp);
    nv_free(o->vn);
    nv_linalg_ws_free(&o->lw);
    memset(o, 0, sizeof *o);
}

nesvm_status nv_chinge_init(nv_chinge *o, const nv_binary_problem *pb, int bias, int threads,
                            nesvm_error *err)
{
    memset(o, 0, sizeof *o);
    o->pb = pb;
    o->bias = bias;
    int64_t n = pb->n;
    int32_t d = pb->X->d;
    size_t nn = (size_t)(n ? n : 1), dd = (size_t)(d ? d : 1);
    nesvm_status st = nv_linalg_ws_init(&o->lw, threads, d, err);
    if (st != NESVM_OK) return st;
    o->s = nv_malloc_array(nn, sizeof(double));
    o->m = nv_malloc_array(nn, sizeof(double));
    o->a = nv_malloc_array(nn, sizeof(double));
    o->vp = nv_malloc_array(dd, sizeof(double));
    o->vn = nv_malloc_array(dd, sizeof(double));
    if (!o->s || !o->m || !o->a || !o->vp || !o->vn) {
        nv_chinge_free(o);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the objective (n=%lld, d=%d)",
                        (long long)n, d);
    }
    nv_row_norms(pb->X, pb->rows, n, o->s, o->m);
    double mx = 0;
    for (int64_t i = 0; i < n; i++) {
        double s = o->s[i];
        if (bias && s < 1) s = 1;
        if (s == 0) s = 1; /* an all-zero row without bias: constant loss */
        o->s[i] = s;
        double q = pb->cost[i] * (o->m[i] + (bias ? 1.0 : 0.0)) / s;
        if (q > mx) mx = q;
    }
    o->paper_lam = (double)n * mx;
    if (!isfinite(o->paper_lam)) {
        nv_chinge_free(o);
        return nv_error(err, NESVM_ERR_NUMERIC,
                        "NESVM: a squared row norm overflows (feature values too large: scale the data)");
    }
    return NESVM_OK;
}

void nv_chinge_margins(nv_chinge *o, const double *w, double b)
{
    const nv_binary_problem *pb = o->pb;
    nv_xw(pb->X, pb->rows, pb->n, w, o->bias ? b : 0.0, o->m, &o->lw);
}

void nv_chinge_evaluate(nv_chinge *o, const double *w, double b, double mu, nv_chinge_eval *e)
{
    nv_chinge_margins(o, w, b);
    nv_chinge_evaluate_at(o, w, mu, e);
}

void nv_chinge_evaluate_at(nv_chinge *o, const double *w, double mu, nv_chinge_eval *e)
{
    const nv_binary_problem *pb = o->pb;
    const int64_t n = pb->n;
    const int32_t d = pb->X->d;
    double hinge = 0, hmu = 0, sp = 0, sn = 0, qp = 0, qn = 0, umax_all = 0;
    int64_t nsv = 0, nbound = 0;
    for (int64_t i = 0; i < n; i++) {
        double c = pb->cost[i], s = o->s[i];
        double r = 1.0 - pb->y[i] * o->m[i];
        double u = 0;
        if (r > 0) {
            hinge += c * r;
            double t = mu * s;
            if (r >= t) {
                u = 1.0;
                hmu += c * (r - 0.5 * t);
                nbound++;
            } else {
                u = r / t;
                hmu += c * r * u * 0.5;
            }
            nsv++;
        }
        if (u > umax_all) umax_all = u;
        double alpha = c * u;
        o->a[i] = alpha;
        if (pb->y[i] > 0) {
            sp += alpha;
            qp += c * s * u * u;
        } else {
            sn += alpha;
            qn += c * s * u * u;
        }
    }
    nv_xta(pb->X, pb->rows, n, o->a, pb->y, o->vp, o->vn, &o->lw);
    double ww = nv_dot(w, w, d);
    /* rescale one class so that sum alpha_i y_i = 0 (needed with a free bias) */
    double rp = 1, rn = 1;
    if (o->bias) {
        if (sp > sn)
            rp = sn / sp;
        else if (sn > sp)
            rn = sp / sn;
    }
    double vv = 0;
    for (int32_t j = 0; j < d; j++) {
        double v = rp * o->vp[j] - rn * o->vn[j];
        vv += v * v;
    }
    /* the best multiple theta * alpha inside the box: D(theta alpha) =
     * theta sa - theta^2/2 vv is concave in theta; theta <= 1/max u keeps
     * alpha_i <= c_i (the dual values of alpha itself are theta = 1) */
    double sa = rp * sp + rn * sn, q = rp * rp * qp + rn * rn * qn;
    double umax = (rp > rn ? rp : rn) * umax_all;
    double tmax = umax > 0 ? 1.0 / umax : 1.0;
    double th = vv > 0 ? sa / vv : tmax, thm = vv + mu * q > 0 ? sa / (vv + mu * q) : tmax;
    if (th > tmax) th = tmax;
    if (thm > tmax) thm = tmax;
    e->P = 0.5 * ww + hinge;
    e->Fmu = 0.5 * ww + hmu;
    e->D = th * sa - 0.5 * th * th * vv;
    e->Dmu = thm * sa - 0.5 * thm * thm * (vv + mu * q);
    e->sp = sp;
    e->sn = sn;
    e->gb = o->bias ? -(sp - sn) : 0.0;
    e->nsv = nsv;
    e->nbound = nbound;
}

double nv_chinge_lipschitz(nv_chinge *o, int kind, uint64_t seed, double *v)
{
    if (kind == NV_LIP_PAPER) return o->paper_lam;
    const nv_binary_problem *pb = o->pb;
    int64_t n = pb->n;
    int32_t d = pb->X->d;
    double vb = o->bias ? 1.0 : 0.0;
    uint64_t st = seed ^ UINT64_C(0x5EED);
    for (int32_t j = 0; j < d; j++) v[j] = 0.5 + nv_rng_uniform(&st);
    double lam = 0;
    for (int it = 0; it < 30; it++) {
        double nrm = sqrt(nv_dot(v, v, d) + vb * vb);
        if (nrm == 0) break;
        for (int32_t j = 0; j < d; j++) v[j] /= nrm;
        vb /= nrm;
        nv_xw(pb->X, pb->rows, n, v, vb, o->m, &o->lw);
        double sb = 0;
        for (int64_t i = 0; i < n; i++) {
            o->a[i] = pb->cost[i] / o->s[i] * o->m[i];
            sb += o->a[i];
        }
        nv_xta(pb->X, pb->rows, n, o->a, NULL, o->vp, NULL, &o->lw);
        lam = nv_dot(v, o->vp, d) + (o->bias ? vb * sb : 0); /* Rayleigh quotient */
        memcpy(v, o->vp, (size_t)d * sizeof *v);
        vb = o->bias ? sb : 0;
    }
    double est = 1.1 * lam;
    return (est > 0 && est < o->paper_lam) ? est : o->paper_lam;
}

/* phi'(t) and phi''(t) for phi(t) = F_mu(w + t p):
 *   phi'(t)  = A + t B + sum_i c_i u_i(t) dr_i,    dr_i = -y_i mp_i,
 *   phi''(t) = B + sum_{i in zone(t)} c_i dr_i^2 / (mu s_i). */
static void phi_derivs(const nv_chinge *o, const double *mp, double mu, double A, double B,
                       double t, double *d1, double *d2)
{
    const nv_binary_problem *pb = o->pb;
    double s1 = 0, s2 = 0;
    for (int64_t i = 0; i < pb->n; i++) {
        double dr = -pb->y[i] * mp[i];
        if (dr == 0) continue;
        double r = 1.0 - pb->y[i] * o->m[i] + t * dr;
        if (r <= 0) continue;
        double th = mu * o->s[i];
        if (r >= th) {
            s1 += pb->cost[i] * dr;
        } else {
            double q = pb->cost[i] * dr / th;
            s1 += q * r;
            s2 += q * dr;
        }
    }
    *d1 = A + t * B + s1;
    *d2 = B + s2;
}

double nv_chinge_line_search(const nv_chinge *o, const double *mp, double mu, double A, double B)
{
    double f1, f2;
    phi_derivs(o, mp, mu, A, B, 0.0, &f1, &f2);
    if (!(f1 < 0)) return 0.0;
    const double tol = 1e-12 * fabs(f1);
    double lo = 0, hi = INFINITY, t = 1.0;
    for (int it = 0; it < 100; it++) {
        phi_derivs(o, mp, mu, A, B, t, &f1, &f2);
        if (fabs(f1) <= tol) break;
        if (f1 < 0)
            lo = t;
        else
            hi = t;
        if (isfinite(hi) && hi - lo <= 1e-15 * hi) break;
        /* Newton on the piecewise-linear phi', kept inside the bracket */
        double tn = f2 > 0 ? t - f1 / f2 : NAN;
        if (!(tn > lo && tn < hi)) tn = isfinite(hi) ? 0.5 * (lo + hi) : 2.0 * t;
        t = tn;
    }
    return t;
}
