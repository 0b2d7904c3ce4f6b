/* expansion_ops.c - the operations on a full kernel's expansion that the
 * three methods share (expansion.h): K products, evaluations, refreshes. */
#include "expansion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* out[0..n) = K[pos, supp(x)] x over the problem's rows. */
nesvm_status nv_kx_kmul(kws *ws, const double *x, double *out)
{
    int64_t nc = 0;
    for (int64_t i = 0; i < ws->n; i++) {
        if (x[i] != 0) {
            ws->cpos[nc] = ws->pos[i];
            ws->cval[nc] = x[i];
            nc++;
        }
    }
    return nv_kmat_mul(ws->K, ws->pos, ws->n, ws->cpos, nc, ws->cval, 1, out, ws->err);
}

/* Evaluate at the margins in o->m (beta, K beta in ws). */
nesvm_status nv_kx_evaluate(kws *ws, nv_obj *o, double mu, nv_obj_eval *e)
{
    nv_obj_sums q;
    nv_obj_pass(o, mu, &q);
    double rp, rn, t;
    nv_obj_balance(o, &q, &rp, &rn, &t);
    for (int64_t i = 0; i < ws->n; i++) ws->v[i] = nv_obj_dual_coef(o, i, rp, rn, t);
    nesvm_status st = nv_kx_kmul(ws, ws->v, ws->kv);
    if (st != NESVM_OK) return st;
    double vv = nv_dot(ws->v, ws->kv, ws->n);
    if (vv < 0) vv = 0; /* single-precision K: rounding */
    double R = 0.5 * nv_dot(ws->beta, ws->kb, ws->n);
    int64_t nnz = 0;
    for (int64_t i = 0; i < ws->n; i++) nnz += ws->beta[i] != 0;
    nv_obj_finish(o, &q, rp, rn, t, vv, 0.0, R, R, nnz, mu, 0.0, e);
    return NESVM_OK;
}

/* K beta and the margins from scratch. */
nesvm_status nv_kx_refresh(kws *ws, nv_obj *o, double b)
{
    nesvm_status st = nv_kx_kmul(ws, ws->beta, ws->kb);
    if (st != NESVM_OK) return st;
    for (int64_t i = 0; i < ws->n; i++) o->m[i] = ws->kb[i] + (ws->bias ? b : 0.0);
    return NESVM_OK;
}



/* Evaluation for the Nesterov steps and LP-SVM: as nv_kx_evaluate(), and also
 * K(alpha y); nu is LP-SVM's L1 smoothing. */
nesvm_status nv_kx_evaluate_nesterov(kws *ws, nws *nw, nv_obj *o, double mu, double nu,
                                      nv_obj_eval *e)
{
    const int64_t n = ws->n;
    nv_obj_sums q;
    nv_obj_pass(o, mu, &q);
    double rp, rn, t;
    nv_obj_balance(o, &q, &rp, &rn, &t);
    nesvm_status st;
    if (nv_obj_shift(o)) {
        for (int64_t i = 0; i < n; i++) ws->r[i] = nv_obj_sign(o, i) * o->a[i];
        st = nv_kx_kmul(ws, ws->r, nw->kay);
        if (st != NESVM_OK) return st;
        for (int64_t i = 0; i < n; i++) {
            ws->v[i] = ws->r[i] - t;
            ws->kv[i] = nw->kay[i] - (nw->k1 ? t * nw->k1[i] : 0.0);
        }
    } else {
        /* K [alpha_+ alpha_-] in one product over the support */
        int64_t nc = 0;
        for (int64_t i = 0; i < n; i++) {
            if (o->a[i] == 0) continue;
            ws->cpos[nc] = ws->pos[i];
            const int up = nv_obj_sign(o, i) > 0;
            ws->cval[2 * nc] = up ? o->a[i] : 0.0;
            ws->cval[2 * nc + 1] = up ? 0.0 : o->a[i];
            nc++;
        }
        st = nv_kmat_mul(ws->K, ws->pos, n, ws->cpos, nc, ws->cval, 2, nw->k2, ws->err);
        if (st != NESVM_OK) return st;
        for (int64_t i = 0; i < n; i++) {
            double y = nv_obj_sign(o, i);
            nw->kay[i] = nw->k2[2 * i] - nw->k2[2 * i + 1];
            ws->kv[i] = rp * nw->k2[2 * i] - rn * nw->k2[2 * i + 1];
            ws->v[i] = y * o->a[i] * (y > 0 ? rp : rn);
        }
    }
    if (nv_obj_l1(o)) {
        /* LP-SVM: the Euclidean metric on beta (X = K): X^T(a' y) = K(a' y) */
        double vv = 0, vinf = 0, R, Rs;
        int64_t nnz;
        for (int64_t i = 0; i < n; i++) {
            vv += ws->kv[i] * ws->kv[i];
            if (fabs(ws->kv[i]) > vinf) vinf = fabs(ws->kv[i]);
        }
        nv_obj_huber(ws->beta, n, nu, &R, &Rs, &nnz);
        nv_obj_finish(o, &q, rp, rn, t, vv, vinf, R, Rs, nnz, mu, nu, e);
        return NESVM_OK;
    }
    double vv = nv_dot(ws->v, ws->kv, n);
    if (vv < 0) vv = 0;
    double R = 0.5 * nv_dot(ws->beta, ws->kb, n);
    int64_t nnz = 0;
    for (int64_t i = 0; i < n; i++) nnz += ws->beta[i] != 0;
    nv_obj_finish(o, &q, rp, rn, t, vv, 0.0, R, R, nnz, mu, 0.0, e);
    return NESVM_OK;
}
