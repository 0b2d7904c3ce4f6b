/*
 * multi_obj.c - the joint multiclass problems' objective (multi.h states
 * them): margins, the smoothed and unsmoothed values, the balanced dual
 * point and its dual value, the gradient, Hessian-vector products, the
 * Hessian's diagonal and the exact line search's function.
 *
 * Rows are visited in order and their sums added sequentially, each rank's
 * then completed over the ranks (nv_comm_sum): the results depend on the
 * data, the thread count (X^T*a's fixed-order reduction) and the ranks only.
 */
#include "multi.h"

#include <math.h>
#include <string.h>

/* x[0..len) summed over the problem's ranks; a failure kept in o->cst. */
static void msum(nv_mobj *o, double *x, int64_t len)
{
    if (!nv_comm_many(o->mp->comm) || o->cst != NESVM_OK) return;
    o->cst = nv_comm_sum(o->mp->comm, x, len, &o->cerr);
}

/* out (k x d, row m = class m) = X^T A (A: n x k), or of the squares; one
 * pass over X (nv_xta_k) and a transpose. */
static void xta(nv_mobj *o, const double *A, int squares, double *out)
{
    const int k = o->k;
    const int32_t d = o->d;
    nv_xta_k(o->mp->X, o->mp->rows, o->n, A, k, squares, o->T, o->part, &o->lw);
    for (int m = 0; m < k; m++)
        for (int32_t j = 0; j < d; j++)
            out[(size_t)m * (size_t)d + (size_t)j] = o->T[(size_t)j * (size_t)k + (size_t)m];
}

/* out (n x k) = the margins of theta's W (k x d) and, with a bias, its k
 * biases (entries k d on); one pass over X (nv_xw_k). */
static void xw(nv_mobj *o, const double *theta, double *out)
{
    const int k = o->k;
    const int32_t d = o->d;
    for (int m = 0; m < k; m++)
        for (int32_t j = 0; j < d; j++)
            o->Wt[(size_t)j * (size_t)k + (size_t)m] = theta[(size_t)m * (size_t)d + (size_t)j];
    nv_xw_k(o->mp->X, o->mp->rows, o->n, o->Wt, k, o->bias ? theta + (size_t)k * (size_t)d : NULL, out,
            &o->lw);
}

void nv_mobj_free(nv_mobj *o)
{
    nv_linalg_ws_free(&o->lw);
    nv_free(o->M);
    nv_free(o->P);
    nv_free(o->V);
    nv_free(o->Vb);
    nv_free(o->Sx);
    nv_free(o->N);
    nv_free(o->q);
    nv_free(o->Wt);
    nv_free(o->T);
    nv_free(o->A);
    nv_free(o->part);
    memset(o, 0, sizeof *o);
}

nesvm_status nv_mobj_init(nv_mobj *o, const nv_multi_problem *mp, int threads, nesvm_error *err)
{
    memset(o, 0, sizeof *o);
    o->mp = mp;
    o->d = mp->X->d;
    o->k = mp->k;
    o->n = mp->n;
    o->a = mp->kind == NV_MULTI_CS ? 1.0 : 0.0;
    o->rho = mp->kind == NV_MULTI_CS ? 0.0 : 1.0;
    o->bias = mp->bias;
    o->B2 = mp->bias == NV_MULTI_BIAS_REG ? mp->B * mp->B : 0.0;
    const int k = o->k;
    const size_t nk = (size_t)(o->n ? o->n : 1) * (size_t)k, kd = (size_t)k * (size_t)(o->d ? o->d : 1);
    nesvm_status st = nv_linalg_ws_init(&o->lw, threads, o->d, err);
    if (st != NESVM_OK) return st;
    o->M = nv_malloc_array(nk, sizeof(double));
    o->P = nv_malloc_array(nk, sizeof(double));
    /* V then s: one buffer, one reduction over the ranks */
    o->V = nv_malloc_array(kd + (size_t)k, sizeof(double));
    o->Vb = nv_malloc_array(kd, sizeof(double));
    o->N = nv_malloc_array((size_t)k + 1, sizeof(double));
    o->q = nv_malloc_array(2 * (size_t)k + 5, sizeof(double));
    o->Wt = nv_malloc_array(kd, sizeof(double));
    o->T = nv_malloc_array(kd, sizeof(double));
    o->A = nv_malloc_array(nk, sizeof(double));
    /* the threads' partial sums of X^T A (d x k each), within NV_MOBJ_PART_MEM */
    if (o->lw.threads > 1 && (double)o->lw.threads * (double)kd * 8.0 <= NV_MOBJ_PART_MEM)
        o->part = nv_malloc_array((size_t)o->lw.threads * kd, sizeof(double));
    if (o->bias == NV_MULTI_BIAS_FREE) o->Sx = nv_malloc_array(kd, sizeof(double));
    if (!o->M || !o->P || !o->V || !o->Vb || !o->N || !o->q || !o->Wt || !o->T || !o->A ||
        (o->bias == NV_MULTI_BIAS_FREE && !o->Sx)) {
        nv_mobj_free(o);
        return nv_error(err, NESVM_ERR_NOMEM,
                        "out of memory for the joint problem (%d classes, n=%lld, d=%d)", k, (long long)mp->n,
                        mp->X->d);
    }
    o->s = o->V + (size_t)k * (size_t)o->d;
    /* the classes' costs N_m and their sum, over every rank */
    for (int m = 0; m <= k; m++) o->N[m] = 0;
    for (int64_t i = 0; i < o->n; i++) {
        NV_ASSERT(mp->cls[i] >= 0 && mp->cls[i] < k && mp->cost[i] > 0);
        o->N[mp->cls[i]] += mp->cost[i];
    }
    msum(o, o->N, k);
    for (int m = 0; m < k; m++) o->csum += o->N[m];
    /* a free bias's balance: sum_{i: y_i = m} C_i x_i */
    if (o->Sx) {
        for (int64_t i = 0; i < o->n; i++)
            for (int m = 0; m < k; m++) o->A[i * k + m] = mp->cls[i] == m ? mp->cost[i] : 0.0;
        xta(o, o->A, 0, o->Sx);
        msum(o, o->Sx, (int64_t)k * o->d);
    }
    if (o->cst != NESVM_OK) {
        st = nv_error(err, o->cst, "%s", o->cerr.message);
        nv_mobj_free(o);
        return st;
    }
    return NESVM_OK;
}

void nv_mobj_margins(nv_mobj *o, const double *theta)
{
    xw(o, theta, o->M);
}

/* Row i's smoothed max at margins f (k entries): z_m = a e_m + f_m - f_y,
 * its largest value, p = softmax(z / mu) into p (k entries, or NULL) and
 * log sum_m exp((z_m - zmax) / mu) into *lse; returns zmax. */
static double row_softmax(const nv_mobj *o, const double *f, int y, double mu, double *p, double *lse)
{
    const int k = o->k;
    const double fy = f[y];
    double zmax = -INFINITY;
    for (int m = 0; m < k; m++) {
        const double z = (m != y ? o->a : 0.0) + f[m] - fy;
        if (z > zmax) zmax = z;
    }
    double se = 0;
    for (int m = 0; m < k; m++) {
        const double e = exp(((m != y ? o->a : 0.0) + f[m] - fy - zmax) / mu);
        if (p) p[m] = e;
        se += e;
    }
    if (p)
        for (int m = 0; m < k; m++) p[m] /= se;
    *lse = log(se);
    return zmax;
}

/* sum_m p_m log p_m's negative, H(p), with 0 log 0 = 0. */
static double entropy(const double *p, int k)
{
    double h = 0;
    for (int m = 0; m < k; m++)
        if (p[m] > 0) h -= p[m] * log(p[m]);
    return h;
}

/* 1/2 ||W||^2 + R(b) (no collective: theta is the same on every rank). */
static double regularizer(const nv_mobj *o, const double *theta)
{
    const int64_t kd = (int64_t)o->k * o->d;
    double r = 0.5 * nv_dot(theta, theta, kd);
    if (o->bias == NV_MULTI_BIAS_REG) r += 0.5 * nv_dot(theta + kd, theta + kd, o->k) / o->B2;
    return r;
}

void nv_mobj_evaluate(nv_mobj *o, const double *theta, double mu, nv_obj_eval *e)
{
    const nv_multi_problem *mp = o->mp;
    const int k = o->k;
    const int32_t d = o->d;
    const int64_t n = o->n, kd = (int64_t)k * d;
    memset(e, 0, sizeof *e);
    /* -------- pass 1: the raw dual point p_i = softmax(z_i / mu), the losses,
     * the dual's terms, the classes' mass S_m = sum_i C_i p_im */
    double *q = o->q;
    for (int m = 0; m < k + 5; m++) q[m] = 0;
    double *S = q + 5;
    for (int64_t i = 0; i < n; i++) {
        const double c = mp->cost[i];
        const int y = mp->cls[i];
        double *p = o->P + i * k, lse;
        const double zmax = row_softmax(o, o->M + i * k, y, mu, p, &lse);
        /* the unsmoothed loss: CS the max, the softmax log sum exp (mu = 1) */
        q[0] += c * (o->rho > 0 ? zmax + lse : zmax);
        q[1] += c * (zmax + mu * lse);
        double off = 0; /* 1 - p_y without cancellation */
        for (int m = 0; m < k; m++) {
            if (m != y) off += p[m];
            S[m] += c * p[m];
        }
        q[2] += c * o->a * off;
        q[3] += c * entropy(p, k);
        q[4] += off > 0;
    }
    msum(o, q, k + 5);
    const double loss = q[0], sloss = q[1];
    double eterm = q[2], ent = q[3];
    e->nsv = (int64_t)q[4];
    /* -------- the raw alpha's v_m and s_m (the gradient's), over every rank */
    for (int m = 0; m < k; m++) o->s[m] = 0;
    for (int64_t i = 0; i < n; i++)
        for (int m = 0; m < k; m++) {
            const double a = mp->cost[i] * ((mp->cls[i] == m ? 1.0 : 0.0) - o->P[i * k + m]);
            o->A[i * k + m] = a;
            o->s[m] += a;
        }
    xta(o, o->A, 0, o->V);
    msum(o, o->V, kd + k);
    /* -------- a free bias: the balanced dual point (multi.h) and its v_m */
    double T = 0;
    memcpy(o->Vb, o->V, (size_t)kd * sizeof(double));
    if (o->bias == NV_MULTI_BIAS_REG) T = 0.5 * o->B2 * nv_dot(o->s, o->s, k);
    if (o->bias == NV_MULTI_BIAS_FREE) {
        /* excess mass ex_m = S_m - N_m: the excess classes keep 1 - ex_m / S_m
         * of their p, which goes to the deficit classes by -ex_m / E */
        double E = 0, *ex = S + k; /* q's last k entries */
        for (int m = 0; m < k; m++) {
            ex[m] = S[m] - o->N[m];
            if (ex[m] > 0) E += ex[m];
        }
        if (E > 0) {
            double bal[2] = {0, 0};
            for (int64_t i = 0; i < n; i++) {
                const double c = mp->cost[i];
                const int y = mp->cls[i];
                const double *p = o->P + i * k;
                double r = 0, off = 0, h = 0;
                for (int m = 0; m < k; m++)
                    if (ex[m] > 0) r += p[m] * (ex[m] / S[m]);
                for (int m = 0; m < k; m++) {
                    const double pm = ex[m] > 0   ? p[m] * (1.0 - ex[m] / S[m])
                                      : ex[m] < 0 ? p[m] + r * (-ex[m] / E)
                                                  : p[m];
                    if (m != y) off += pm;
                    if (pm > 0) h -= pm * log(pm);
                }
                bal[0] += c * o->a * off;
                bal[1] += c * h;
            }
            msum(o, bal, 2);
            eterm = bal[0];
            ent = bal[1];
            /* v of the balanced point: X^T(C p_m) = Sx_m - v_m for each class */
            for (int m = 0; m < k; m++) {
                double *vb = o->Vb + (size_t)m * (size_t)d;
                const double *v = o->V + (size_t)m * (size_t)d, *sx = o->Sx + (size_t)m * (size_t)d;
                if (ex[m] > 0) {
                    const double am = ex[m] / S[m];
                    for (int32_t j = 0; j < d; j++) vb[j] = v[j] + am * (sx[j] - v[j]);
                }
            }
            /* the deficits: v_m - (-ex_m / E) X^T(C r), X^T(C r) = sum_{excess l} a_l X^T(C p_l) */
            for (int32_t j = 0; j < d; j++) {
                double xr = 0;
                for (int l = 0; l < k; l++)
                    if (ex[l] > 0)
                        xr += ex[l] / S[l] *
                              (o->Sx[(size_t)l * (size_t)d + (size_t)j] -
                               o->V[(size_t)l * (size_t)d + (size_t)j]);
                for (int m = 0; m < k; m++)
                    if (ex[m] < 0) o->Vb[(size_t)m * (size_t)d + (size_t)j] -= (-ex[m] / E) * xr;
            }
        }
    }
    const double R = regularizer(o, theta), vv = 0.5 * nv_dot(o->Vb, o->Vb, kd);
    e->P = R + loss;
    e->Fmu = R + sloss;
    e->D = eterm + o->rho * ent - vv - T;
    e->Dmu = eterm + mu * ent - vv - T;
    e->theta = 1.0;
}

void nv_mobj_grad(const nv_mobj *o, const double *theta, double *g)
{
    const int k = o->k;
    const int64_t kd = (int64_t)k * o->d;
    for (int64_t j = 0; j < kd; j++) g[j] = theta[j] - o->V[j];
    for (int m = 0; m < k; m++)
        g[kd + m] = o->bias == NV_MULTI_BIAS_NONE  ? 0.0
                    : o->bias == NV_MULTI_BIAS_REG ? theta[kd + m] / o->B2 - o->s[m]
                                                   : -o->s[m];
}

void nv_mobj_dir_margins(nv_mobj *o, const double *dir, double *U)
{
    xw(o, dir, U);
}

void nv_mobj_hess_vec(nv_mobj *o, double mu, const double *dir, double *hv, double *u)
{
    const nv_multi_problem *mp = o->mp;
    const int k = o->k;
    const int32_t d = o->d;
    const int64_t n = o->n, kd = (int64_t)k * d;
    nv_mobj_dir_margins(o, dir, u);
    /* u becomes h: h_im = (C_i / mu) p_im (u_im - sum_l p_il u_il) */
    for (int64_t i = 0; i < n; i++) {
        const double *p = o->P + i * k;
        double *ui = u + i * k, pu = 0;
        for (int m = 0; m < k; m++) pu += p[m] * ui[m];
        const double w = mp->cost[i] / mu;
        for (int m = 0; m < k; m++) ui[m] = w * p[m] * (ui[m] - pu);
    }
    for (int m = 0; m < k; m++) hv[kd + m] = 0;
    for (int64_t i = 0; i < n; i++)
        for (int m = 0; m < k; m++) hv[kd + m] += u[i * k + m];
    xta(o, u, 0, hv);
    msum(o, hv, kd + k);
    for (int64_t j = 0; j < kd; j++) hv[j] += dir[j];
    for (int m = 0; m < k; m++)
        hv[kd + m] = o->bias == NV_MULTI_BIAS_NONE  ? 0.0
                     : o->bias == NV_MULTI_BIAS_REG ? hv[kd + m] + dir[kd + m] / o->B2
                                                    : hv[kd + m];
}

void nv_mobj_hess_diag(nv_mobj *o, double mu, double *diag)
{
    const nv_multi_problem *mp = o->mp;
    const int k = o->k;
    const int32_t d = o->d;
    const int64_t n = o->n, kd = (int64_t)k * d;
    for (int m = 0; m < k; m++) diag[kd + m] = 0;
    for (int64_t i = 0; i < n; i++)
        for (int m = 0; m < k; m++) {
            const double p = o->P[i * k + m];
            o->A[i * k + m] = mp->cost[i] / mu * p * (1.0 - p);
            diag[kd + m] += o->A[i * k + m];
        }
    xta(o, o->A, 1, diag);
    msum(o, diag, kd + k);
    for (int64_t j = 0; j < kd; j++) diag[j] += 1.0;
    for (int m = 0; m < k; m++) {
        if (o->bias == NV_MULTI_BIAS_REG) diag[kd + m] += 1.0 / o->B2;
        if (o->bias == NV_MULTI_BIAS_NONE || !(diag[kd + m] > 0)) diag[kd + m] = 1.0;
    }
}

void nv_mobj_line(nv_mobj *o, const double *theta, const double *dir, const double *U, double mu, double t,
                  double *phi, double *d1, double *d2)
{
    const nv_multi_problem *mp = o->mp;
    const int k = o->k;
    const int64_t n = o->n, kd = (int64_t)k * o->d;
    double s[3] = {0, 0, 0};
    double *fi = o->q, *p = o->q + k; /* scratch: the row's margins and softmax */
    for (int64_t i = 0; i < n; i++) {
        const double *ui = U + i * k;
        const int y = mp->cls[i];
        for (int m = 0; m < k; m++) fi[m] = o->M[i * k + m] + t * ui[m];
        double lse;
        const double zmax = row_softmax(o, fi, y, mu, p, &lse);
        double pu = 0, pu2 = 0;
        for (int m = 0; m < k; m++) {
            pu += p[m] * ui[m];
            pu2 += p[m] * ui[m] * ui[m];
        }
        const double c = mp->cost[i];
        s[0] += c * (zmax + mu * lse);
        s[1] += c * (pu - ui[y]);
        s[2] += c / mu * (pu2 - pu * pu);
    }
    msum(o, s, 3);
    /* the regularizer along the line (the same on every rank) */
    const double wd = nv_dot(theta, dir, kd), dd = nv_dot(dir, dir, kd), ww = nv_dot(theta, theta, kd);
    double r = 0.5 * (ww + 2 * t * wd + t * t * dd), r1 = wd + t * dd, r2 = dd;
    if (o->bias == NV_MULTI_BIAS_REG) {
        const double *b = theta + kd, *db = dir + kd;
        for (int m = 0; m < k; m++) {
            const double bt = b[m] + t * db[m];
            r += 0.5 * bt * bt / o->B2;
            r1 += bt * db[m] / o->B2;
            r2 += db[m] * db[m] / o->B2;
        }
    }
    *phi = r + s[0];
    *d1 = r1 + s[1];
    *d2 = r2 + s[2];
}

double nv_mobj_line_search(nv_mobj *o, const double *theta, const double *dir, const double *U, double mu)
{
    double phi, g0, h;
    nv_mobj_line(o, theta, dir, U, mu, 0.0, &phi, &g0, &h);
    if (!(g0 < 0)) return 0.0;
    /* phi is convex: phi' rises from g0 < 0; bracket its zero in [lo, hi]
     * and take Newton steps on phi' inside it, bisection when one leaves */
    double lo = 0, hi = INFINITY, t = 1.0;
    for (int it = 0; it < 200; it++) {
        double g;
        nv_mobj_line(o, theta, dir, U, mu, t, &phi, &g, &h);
        if (!isfinite(g)) {
            hi = t; /* beyond the range of double precision: too far */
            t = 0.5 * (lo + t);
            continue;
        }
        if (fabs(g) <= 1e-12 * fabs(g0)) return t;
        if (g > 0)
            hi = t;
        else
            lo = t;
        if (isfinite(hi) && hi - lo <= 1e-15 * hi) break;
        double tn = h > 0 ? t - g / h : NAN;
        if (!isfinite(hi)) /* no upper end yet: Newton's step, at least doubling */
            t = isfinite(tn) && tn > 2 * t ? (tn < 1e6 * t ? tn : 1e6 * t) : 2 * t;
        else
            t = isfinite(tn) && tn > lo && tn < hi ? tn : 0.5 * (lo + hi);
        if (!(t < 1e300)) break;
    }
    return lo;
}
