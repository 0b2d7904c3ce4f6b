/* expansion_lp.c - LP-SVM by Newton on a full kernel's expansion
 * (expansion.h): the Euclidean metric on beta, Huber's zone of the L1 norm. */
#include "expansion.h"
#include "../../linalg/cg.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* LP-SVM's direction buffers. */
typedef struct lpws {
    double *A, *B, *M;   /* nz x n, nz x n, nz x nz */
    size_t cap_a, cap_m;
    double *lam, *h, *R, *t, *U, *T; /* n, n, 2n, 2n, 2n, 2 nz */
    double *cgv;         /* CG: x, r, z, p, Hp of n + 1 entries (the bias last) */
} lpws;

static void lpws_free(lpws *l)
{
    nv_free(l->A);
    nv_free(l->B);
    nv_free(l->M);
    nv_free(l->lam);
    nv_free(l->h);
    nv_free(l->R);
    nv_free(l->t);
    nv_free(l->U);
    nv_free(l->T);
    nv_free(l->cgv);
}

/* H p for LP-SVM's Hessian H = [Lambda + K_Z^T D K_Z, K_Z^T D 1; 1^T D K_Z,
 * 1^T D 1 + delta] (K_Z = K_{Z,:}), p = (p_w, p_b): two products. */
static nesvm_status lp_hess_vec(kws *ws, const lpws *l, const double *p, double pb, double delta,
                                double *out, double *outb)
{
    const int64_t n = ws->n, nz = ws->nz;
    int64_t nc = 0;
    for (int64_t j = 0; j < n; j++) {
        if (p[j] == 0) continue;
        ws->cpos[nc] = ws->pos[j];
        ws->cval[nc++] = p[j];
    }
    double *zt = ws->sol; /* nz */
    nesvm_status st = nv_kmat_mul(ws->K, ws->zpos, nz, ws->cpos, nc, ws->cval, 1, zt, ws->err);
    if (st != NESVM_OK) return st;
    double sb = 0;
    for (int64_t k = 0; k < nz; k++) {
        zt[k] = ws->zh[k] * (zt[k] + pb);
        sb += zt[k];
    }
    st = nv_kmat_mul(ws->K, ws->pos, n, ws->zpos, nz, zt, 1, out, ws->err);
    if (st != NESVM_OK) return st;
    for (int64_t j = 0; j < n; j++) out[j] += l->lam[j] * p[j];
    *outb = ws->bias ? sb + delta * pb : 0.0;
    return NESVM_OK;
}

/* nv_cg's operator and Jacobi preconditioner of LP-SVM's Newton system. */
typedef struct lp_cg {
    kws *ws;
    const lpws *l;
    double delta, eta;
} lp_cg;

static nesvm_status lp_cg_apply(void *ctx, const double *p, double *hp)
{
    const lp_cg *c = ctx;
    const int64_t n = c->ws->n;
    return lp_hess_vec(c->ws, c->l, p, p[n], c->delta, hp, &hp[n]);
}

static void lp_cg_precond(void *ctx, const double *r, double *z, int col)
{
    const lp_cg *c = ctx;
    const int64_t n = c->ws->n;
    (void)col;
    for (int64_t j = 0; j < n; j++) z[j] = r[j] / c->l->lam[j];
    z[n] = r[n] / c->eta;
}

/* LP-SVM's Newton direction on the expansion (Euclidean metric on beta, the
 * linear LP-SVM Newton of newton.c with X = K): gradient
 * g = l_nu'(beta) - K(alpha y), Hessian Lambda + K_Z^T D K_Z with Lambda the
 * Huber curvature (1/nu inside |beta_j| < nu, NV_NESVM_LP_DAMP/nu outside) and D the
 * hinge zone's c_i/mu.  Exact by Sherman-Morrison-Woodbury over the zone
 * (M = I + A Lambda^-1 A^T, A = D^1/2 K_{Z,:}) when A and M fit NV_NESVM_ZONE_MEM,
 * else Jacobi CG (the Lambda diagonal) with two products per iteration.  The
 * bias joins by block elimination.  Leaves the direction in ws->dir. */
static nesvm_status lp_direction(kws *ws, lpws *l, const nws *nw, const nv_obj *o,
                                 const unsigned char *mask, double mu, double nu, double gb,
                                 double *db)
{
    const int64_t n = ws->n;
    double *g = ws->r;
    int64_t nz = 0;
    double eta = 0;
    for (int64_t j = 0; j < n; j++) {
        double z = ws->beta[j] / nu;
        g[j] = (z > 1 ? 1 : (z < -1 ? -1 : z)) - nw->kay[j];
        l->lam[j] = (fabs(ws->beta[j]) < nu ? 1.0 : NV_NESVM_LP_DAMP) / nu;
        if (mask && mask[j]) { /* held at zero: infinite curvature */
            g[j] = 0;
            l->lam[j] = 1e300;
        }
        double h = nv_obj_curv(o, j, nv_obj_resid(o, j, o->m[j]), mu);
        if (h > 0) {
            ws->zi[nz] = j;
            ws->zpos[nz] = ws->pos[j];
            ws->zh[nz] = h;
            eta += h;
            nz++;
        }
    }
    ws->nz = nz;
    *db = 0;
    const double delta = 1e-10 * (1.0 + eta);
    eta += delta;
    if (nz == 0) {
        for (int64_t j = 0; j < n; j++) ws->dir[j] = mask && mask[j] ? 0.0 : -g[j] / l->lam[j];
        return NESVM_OK;
    }
    nesvm_status st;
    size_t sa = (size_t)nz * (size_t)n, sm = (size_t)nz * (size_t)nz;
    int direct = (2.0 * (double)sa + (double)sm) * 8.0 <= NV_NESVM_ZONE_MEM;
    if (direct && sa > l->cap_a) {
        nv_free(l->A);
        nv_free(l->B);
        l->A = nv_malloc_array(sa, sizeof(double));
        l->B = nv_malloc_array(sa, sizeof(double));
        l->cap_a = l->A && l->B ? sa : 0;
        direct = l->cap_a > 0;
    }
    if (direct && sm > l->cap_m) {
        nv_free(l->M);
        l->M = nv_malloc_array(sm, sizeof(double));
        l->cap_m = l->M ? sm : 0;
        direct = l->cap_m > 0;
    }
    if (direct) {
        st = nv_kmat_block(ws->K, ws->zpos, nz, ws->pos, n, l->A, n, ws->err);
        if (st != NESVM_OK) return st;
        for (int64_t j = 0; j < n; j++) l->h[j] = 0;
        for (int64_t k = 0; k < nz; k++) {
            double sq = sqrt(ws->zh[k]);
            double *a = l->A + (size_t)k * (size_t)n, *bb = l->B + (size_t)k * (size_t)n;
            for (int64_t j = 0; j < n; j++) {
                l->h[j] += ws->zh[k] * a[j]; /* h = K_{:,Z} D 1 */
                a[j] *= sq;
                bb[j] = a[j] / sqrt(l->lam[j]);
            }
        }
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)nz, (int)n, 1.0, l->B, (int)n, 0.0,
                    l->M, (int)nz);
        for (int64_t k = 0; k < nz; k++) l->M[k * nz + k] += 1.0;
        direct = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)nz, l->M, (lapack_int)nz) == 0;
    }
    if (direct) {
        /* t = Lambda^-1 [-g h]; T = A t; T = M^-1 T; U = A^T T; R = t - Lambda^-1 U */
        for (int64_t j = 0; j < n; j++) {
            l->t[2 * j] = -g[j] / l->lam[j];
            l->t[2 * j + 1] = l->h[j] / l->lam[j];
        }
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nz, 2, (int)n, 1.0, l->A, (int)n,
                    l->t, 2, 0.0, l->T, 2);
        cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, (int)nz, 2, 1.0,
                    l->M, (int)nz, l->T, 2);
        cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, (int)nz, 2, 1.0,
                    l->M, (int)nz, l->T, 2);
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)n, 2, (int)nz, 1.0, l->A, (int)n,
                    l->T, 2, 0.0, l->U, 2);
        double hu = 0, hv = 0;
        for (int64_t j = 0; j < n; j++) {
            l->R[2 * j] = l->t[2 * j] - l->U[2 * j] / l->lam[j];
            l->R[2 * j + 1] = l->t[2 * j + 1] - l->U[2 * j + 1] / l->lam[j];
            hu += l->h[j] * l->R[2 * j];
            hv += l->h[j] * l->R[2 * j + 1];
        }
        double xb = 0;
        if (ws->bias && eta - hv > 0) xb = (-gb - hu) / (eta - hv);
        for (int64_t j = 0; j < n; j++)
            ws->dir[j] = mask && mask[j] ? 0.0 : l->R[2 * j] - xb * l->R[2 * j + 1];
        *db = xb;
        return NESVM_OK;
    }
    /* CG on H x = -(g, gb), Jacobi on Lambda (and eta for b): vectors of
     * n + 1 entries, the bias last */
    double *x = l->cgv, *r = x + (n + 1), *z = r + (n + 1), *p = z + (n + 1), *hp = p + (n + 1);
    for (int64_t j = 0; j < n; j++) r[j] = -g[j];
    r[n] = ws->bias ? -gb : 0.0;
    lp_cg ctx = {ws, l, delta, eta};
    nv_cg_ops ops = {&ctx, n + 1, 1, lp_cg_apply, NULL, lp_cg_precond, NV_NESVM_LP_CG_MAX, 1e-2, NV_CG_SQUARED};
    nv_cg_result cr;
    /* relative residual 0.1, as the linear CG */
    st = nv_cg(&ops, x, r, z, p, hp, &cr);
    if (st != NESVM_OK) return st;
    const double xb = x[n];
    for (int64_t j = 0; j < n; j++) ws->dir[j] = mask && mask[j] ? 0.0 : x[j];
    *db = ws->bias ? xb : 0.0;
    return NESVM_OK;
}

/* LP-SVM's Newton loop on the expansion: as the C-SVM loop without the
 * predictor and the polish; at the end the coefficients inside Huber's zone
 * (|beta_j| < nu) are set to zero when that keeps the certificate. */
nesvm_status nv_kx_lp_newton_loop(kws *ws, nv_obj *obj, const nesvm_params *prm, nv_track *tr,
                                   double b, nesvm_error *err)
{
    const int64_t n = ws->n;
    const size_t nb = (size_t)(n ? n : 1) * sizeof(double);
    nws nw;
    lpws l;
    memset(&nw, 0, sizeof nw);
    memset(&l, 0, sizeof l);
    nesvm_status st = NESVM_OK;
    unsigned char *mask = NULL; /* polish: coefficients held at zero */
    double *dense = NULL, dense_b = 0, dense_p = INFINITY;
    nw.kay = nv_malloc(nb);
    nw.k2 = nv_malloc(2 * nb);
    l.lam = nv_malloc(nb);
    l.h = nv_malloc(nb);
    l.R = nv_malloc(2 * nb);
    l.t = nv_malloc(2 * nb);
    l.U = nv_malloc(2 * nb);
    l.T = nv_malloc(2 * nb);
    l.cgv = nv_malloc_array((size_t)(n + 1) * 5, sizeof(double));
    if (!nw.kay || !nw.k2 || !l.lam || !l.h || !l.R || !l.t || !l.U || !l.T || !l.cgv) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel LP-SVM work arrays (n=%lld)",
                      (long long)n);
        tr->why = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    nv_sched sc;
    nv_sched_init(&sc, prm, nv_obj_smoothed(obj), nv_obj_l1(obj), NV_NESVM_MU0, NV_NESVM_MU0, NV_NESVM_MU_MIN_FACTOR);
    if (ws->bias) b = nv_obj_best_bias(obj, ws->md, sc.mu, 0.0, b);
    int64_t since = 0;
    int stalls = 0;
    double step = NAN, f_before = NAN;
    nv_obj_eval e;
    while (1) {
        st = nv_kx_evaluate_nesterov(ws, &nw, obj, sc.mu, sc.nu, &e);
        if (st != NESVM_OK) break;
        if (isfinite(f_before)) stalls = e.Fmu < f_before - 1e-15 * fabs(f_before) ? 0 : stalls + 1;
        nv_track_info info = {sc.mu, NAN, step, ws->nz, sc.final, 0, 0, 0, NAN, NAN};
        const double best_d = tr->best_d;
        const int stop = nv_track_iterate(tr, &e, ws->beta, b, &info, &st, err);
        nv_kx_keep_dual(ws, &e, best_d, tr);
        if (stop) {
            if (st != NESVM_OK || tr->why != NESVM_EXIT_CONVERGED || mask) break;
            /* polish for a sparse expansion: the coefficients inside Huber's
             * zone (|beta_j| < nu) are the L1 norm's kink, where the smoothed
             * optimum keeps them at nu (K(alpha y))_j, not 0; hold them at zero
             * and re-solve on the rest until the certificate holds again (on
             * heart_scale RBF C = 1 the certified iterate had 256 of 270
             * coefficients inside the zone, and zeroing them alone raised P
             * beyond the gap) */
            int64_t drop = 0;
            for (int64_t i = 0; i < n; i++) drop += fabs(tr->wbest[i]) < sc.nu && tr->wbest[i] != 0;
            if (drop == 0) break;
            mask = nv_calloc((size_t)(n ? n : 1), 1);
            dense = nv_malloc(nb);
            if (!mask || !dense) break;
            memcpy(dense, tr->wbest, nb);
            dense_b = tr->bbest;
            dense_p = tr->best_p;
            for (int64_t i = 0; i < n; i++) {
                mask[i] = fabs(tr->wbest[i]) < sc.nu;
                ws->beta[i] = mask[i] ? 0.0 : tr->wbest[i];
            }
            b = tr->bbest;
            st = nv_kx_refresh(ws, obj, b);
            if (st != NESVM_OK) break;
            tr->best_p = INFINITY;
            tr->why = NESVM_EXIT_MAX_ITER;
            nv_track_new_stage(tr);
            since = 0;
            stalls = 0;
            f_before = NAN;
            step = NAN;
            continue;
        }
        if (!sc.final && (nv_sched_stage_done(&sc, tr, &e) || stalls >= 2)) {
            nv_sched_next(&sc, &e, prm->eps, tr->best_p);
            nv_track_new_stage(tr);
            st = nv_kx_refresh(ws, obj, b);
            if (st != NESVM_OK) break;
            since = 0;
            stalls = 0;
            f_before = NAN;
            continue;
        } else if (stalls >= 2) {
            tr->why = NESVM_EXIT_STALLED;
            break;
        }
        double db;
        st = lp_direction(ws, &l, &nw, obj, mask, sc.mu, sc.nu, e.gb, &db);
        if (st != NESVM_OK) break;
        st = nv_kx_kmul(ws, ws->dir, ws->kd);
        if (st != NESVM_OK) break;
        for (int64_t i = 0; i < n; i++) ws->md[i] = ws->kd[i] + (ws->bias ? db : 0.0);
        step = nv_obj_line_search_q(obj, ws->md, sc.mu, sc.nu, ws->beta, ws->dir, 1, 0.0, 0.0);
        f_before = e.Fmu;
        if (step > 0) {
            for (int64_t i = 0; i < n; i++) {
                ws->beta[i] += step * ws->dir[i];
                ws->kb[i] += step * ws->kd[i];
            }
            b += step * db;
            if (++since >= NV_NESVM_REFRESH) {
                st = nv_kx_refresh(ws, obj, b);
                if (st != NESVM_OK) break;
                since = 0;
            } else {
                for (int64_t i = 0; i < n; i++) obj->m[i] += step * ws->md[i];
            }
        }
        if (ws->bias) b = nv_obj_best_bias(obj, ws->md, sc.mu, 0.0, b);
    }
    if (dense && st == NESVM_OK && tr->why != NESVM_EXIT_CONVERGED && !(tr->best_p <= dense_p)) {
        /* the polish did not certify: the dense point */
        memcpy(tr->wbest, dense, nb);
        tr->bbest = dense_b;
        tr->best_p = dense_p;
        tr->why = NESVM_EXIT_CONVERGED;
    }
    if (st == NESVM_OK) {
        /* sparsify: drop the coefficients in Huber's zone if the certificate holds */
        int64_t drop = 0;
        for (int64_t i = 0; i < n; i++) {
            ws->dir[i] = fabs(tr->wbest[i]) < sc.nu ? 0.0 : tr->wbest[i];
            drop += ws->dir[i] != tr->wbest[i];
        }
        if (drop > 0) {
            st = nv_kx_kmul(ws, ws->dir, ws->kd);
            if (st == NESVM_OK) {
                double P = 0;
                for (int64_t i = 0; i < n; i++) {
                    double r = nv_obj_resid(obj, i, ws->kd[i] + (ws->bias ? tr->bbest : 0.0));
                    P += fabs(ws->dir[i]) + nv_loss_value(obj->loss, r, obj->pb->cost[i]);
                }
                if (P <= tr->best_p || nv_track_rel(P - tr->best_d, P) <= prm->eps) {
                    memcpy(tr->wbest, ws->dir, nb);
                    tr->best_p = P;
                }
            }
        }
    }
out:
    nv_free(nw.kay);
    nv_free(nw.k2);
    nv_free(mask);
    nv_free(dense);
    lpws_free(&l);
    return st;
}
