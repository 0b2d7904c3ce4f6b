/*
 * expansion.c - NESVM on the expansion coefficients of a full kernel, with
 * the kernel matrix as an operator (kmat.c: stored in single precision, or
 * computed blockwise on the fly): C-SVM and LS-SVM by Newton (below) or
 * Nesterov's steps (nesterov_loop) in the K metric, LP-SVM by Newton in the
 * Euclidean metric on beta (lp_newton_loop).
 *
 * The paper's kernel form (Section III-D): with m = K beta + b,
 *     F(beta, b) = 1/2 beta^T K beta + sum_i c_i l(1 - y_i m_i),
 * l the smoothed hinge (C-SVM) or the square (LS-SVM), the same objective,
 * smoothing, continuation and certificate as the linear solvers
 * (objective.h, track.h) with the penalty's metric K: the dual term
 * ||X^T(a y)||^2 becomes (a y)^T K (a y).
 *
 * Newton in the K metric.  grad_beta F = K (beta - alpha y) with
 * alpha_i = c_i l'(r_i); the Hessian is K + K H K (H = diag(h), h_i = c_i
 * l''(r_i), non-zero on the zone Z).  Dividing the Newton system by K gives,
 * with rvec = alpha y - beta and g_b = dF/db:
 *     (I + H K) d + H 1 db = rvec,    1^T H K d + (1^T H 1 + delta) db = -g_b.
 * Off the zone d_i = rvec_i; on it, with A = H_Z^-1 + K_ZZ (SPD) and
 * q = H_Z^-1 rvec_Z - K_{Z,C} rvec_C (C: off-zone entries):
 *     A d_Z + 1 db = q,    1^T d_Z - delta db = g_b + 1^T rvec_Z,
 * solved by block elimination with A^-1 [q 1]: a Cholesky factorization of A
 * when it fits NV_NESVM_ZONE_MEM (and is cheaper than the CG it replaces), else
 * conjugate gradients with K_ZZ products.  An empty zone leaves b to the
 * exact bias search that follows every step.  Per iteration: the product
 * K v for the dual bound, K_{:,C} rvec_C (its zone rows enter q) and
 * K_{:,Z} d_Z (together K d, the margins of the direction), the zone
 * system; then the exact line search of objective.c on the piecewise
 * quadratic phi(t) (its quadratic part from K beta and K d).
 *
 * Sparse expansions (C-SVM): at the optimum of F, beta* = alpha* y vanishes
 * beyond the margin, but an iterate that certifies eps may still carry
 * coefficients there (steps shorter than 1 shrink them only by 1 - t).
 * Once certified, the best point is polished: those coefficients are set to
 * zero and Newton continues until the certificate holds again; zeros stay
 * zeros while their samples stay beyond the margin (d_i = rvec_i = 0).  If
 * the polish cannot certify within the limits, the dense point is kept.
 */
#include "expansion.h"
#include "../../linalg/cg.h"
#include "../../linalg/chol.h"


#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>




/* Grow the zone buffers to nz entries (A only when direct); 0: no memory. */
static int zone_buffers(kws *ws, int direct)
{
    size_t nz = (size_t)ws->nz;
    if (direct && nz * nz > ws->cap_a) {
        nv_free(ws->A);
        ws->A = nv_malloc_array(nz * nz, sizeof(double));
        ws->cap_a = ws->A ? nz * nz : 0;
        if (!ws->A) return 0;
    }
    return 1;
}

/* A = H_Z^-1 + K_ZZ applied to the ncol columns of X (nz x ncol). */
static nesvm_status zone_apply(kws *ws, const double *X, int ncol, double *out)
{
    nesvm_status st = nv_kmat_mul(ws->K, ws->zpos, ws->nz, ws->zpos, ws->nz, X, ncol, out, ws->err);
    if (st != NESVM_OK) return st;
    for (int64_t k = 0; k < ws->nz; k++)
        for (int c = 0; c < ncol; c++) out[k * ncol + c] += X[k * ncol + c] / ws->zh[k];
    return NESVM_OK;
}

/* nv_cg's operator and preconditioner of the zone system (kws). */
static nesvm_status zone_cg_apply(void *ctx, const double *p, double *ap)
{
    kws *ws = ctx;
    return zone_apply(ws, p, ws->cg_ncol, ap);
}

static void zone_cg_precond(void *ctx, const double *r, double *z, int c)
{
    const kws *ws = ctx;
    const double *pre = ws->cg + 4 * (size_t)ws->nz * (size_t)ws->cg_ncol;
    for (int64_t k = 0; k < ws->nz; k++) {
        size_t j = (size_t)k * (size_t)ws->cg_ncol + (size_t)c;
        z[j] = pre[k] * r[j];
    }
}

/* Jacobi-preconditioned CG on A X = B for ncol columns at once (shared
 * products); X = ws->sol. */
static nesvm_status zone_cg(kws *ws, int ncol)
{
    const int64_t nz = ws->nz;
    const size_t sz = (size_t)nz * (size_t)ncol;
    double *r = ws->cg, *z = r + sz, *p = z + sz, *ap = p + sz, *pre = ap + sz;
    for (int64_t k = 0; k < nz; k++) pre[k] = 1.0 / (1.0 / ws->zh[k] + nv_kmat_diag(ws->K, ws->zpos[k]));
    memcpy(r, ws->rhs, sz * sizeof(double));
    ws->cg_ncol = ncol;
    nv_cg_ops ops = {ws, nz, ncol, zone_cg_apply, NULL, zone_cg_precond, NV_NESVM_ZONE_CG_MAX,
                     NV_NESVM_ZONE_CG_TOL * NV_NESVM_ZONE_CG_TOL, NV_CG_SQUARED};
    nv_cg_result cr;
    return nv_cg(&ops, ws->sol, r, z, p, ap, &cr);
}

/* Solve A X = rhs (nz x ncol) into ws->sol: Cholesky when affordable, else CG. */
static nesvm_status zone_solve(kws *ws, int ncol)
{
    const int64_t nz = ws->nz;
    double fz = (double)nz;
    /* the zone holds the free support vectors (margin exactly 1 at the
     * optimum), thousands on hard problems: CG on A needed hundreds of
     * products there (Fashion-MNIST T-shirt/Shirt, 12,000 rows: 7 s per
     * Newton step against about 1 s for the factorization) */
    int direct = fz * fz * 8.0 <= NV_NESVM_ZONE_MEM;
    if (direct && zone_buffers(ws, 1)) {
        nesvm_status st = nv_kmat_block(ws->K, ws->zpos, nz, ws->zpos, nz, ws->A, nz, ws->err);
        if (st != NESVM_OK) return st;
        for (int64_t k = 0; k < nz; k++) ws->A[k * nz + k] += 1.0 / ws->zh[k];
        /* A is symmetric, so its row-major array is also column-major: the
         * column-major _work calls factor and solve in place (the plain
         * row-major LAPACKE calls transpose A twice and scan it for NaNs,
         * 11% of the training time on 8,000 Fashion-MNIST rows) */
        lapack_int n = (lapack_int)nz;
        if (nz < NV_CHOL_SMALL) { /* small zones (small problems): no library call */
            if (nv_chol((int)nz, ws->A)) {
                double *bcol = ws->cg;
                for (int c = 0; c < ncol; c++) {
                    for (int64_t k = 0; k < nz; k++) bcol[k] = ws->rhs[k * ncol + c];
                    nv_chol_solve((int)nz, ws->A, bcol);
                    for (int64_t k = 0; k < nz; k++) ws->sol[k * ncol + c] = bcol[k];
                }
                return NESVM_OK;
            }
            return zone_cg(ws, ncol);
        }
        if (LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, ws->A, n) == 0) {
            double *B = ws->cg; /* column-major nz x ncol */
            for (int64_t k = 0; k < nz; k++)
                for (int c = 0; c < ncol; c++) B[(size_t)c * (size_t)nz + (size_t)k] = ws->rhs[k * ncol + c];
            LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, ncol, ws->A, n, B, n);
            for (int64_t k = 0; k < nz; k++)
                for (int c = 0; c < ncol; c++) ws->sol[k * ncol + c] = B[(size_t)c * (size_t)nz + (size_t)k];
            return NESVM_OK;
        }
    }
    return zone_cg(ws, ncol);
}

/* The Newton direction (ws->dir, and db) and K dir (ws->kd) at the last
 * evaluation.  zmu > mu
 * (the first step after mu shrank, C-SVM): the predictor of the new stage,
 * whose zone is the previous stage's, 0 < r_i < zmu, with the new curvature
 * c_i/mu and the unclipped model alpha_i = c_i r_i/mu there.  At the optimum
 * for zmu the zone's residuals are r_i = zmu u_i; at the optimum for mu the
 * same samples (mostly the free support vectors) sit at r_i = mu u_i.  A
 * plain Newton step would treat every sample with r_i >= mu as linear and
 * stop short each time one re-enters the zone: measured on Fashion-MNIST
 * T-shirt/Shirt (4,000 rows), 15-20 steps of 0.001-0.03 after each shrink. */
static nesvm_status direction(kws *ws, nv_obj *o, double mu, double zmu, double gb, double *db)
{
    const nv_binary_problem *pb = o->pb;
    const int64_t n = ws->n;
    /* the predictor models the hinge's zone (0 < r < t, u = r/t): a smoothed
     * loss with sparse duals */
    const int predict = zmu > mu && nv_obj_smoothed(o) && o->loss->sparse;
    int64_t nz = 0, nc = 0;
    double sh = 0, gbm = 0;
    for (int64_t i = 0; i < n; i++) {
        double res = nv_obj_resid(o, i, o->m[i]), sg = nv_obj_sign(o, i);
        double h, a = o->a[i];
        if (predict) {
            h = o->loss->curv(o->loss, res, pb->cost[i], zmu) > 0 ? pb->cost[i] / mu : 0.0;
            if (h > 0) a = h * res;
            gbm -= sg * a;
        } else {
            h = nv_obj_curv(o, i, res, mu);
        }
        ws->r[i] = sg * a - ws->beta[i];
        if (h > 0) {
            ws->zi[nz] = i;
            ws->zpos[nz] = ws->pos[i];
            ws->zh[nz] = h;
            sh += h;
            nz++;
            ws->dir[i] = 0;
        } else {
            ws->dir[i] = ws->r[i];
            if (ws->r[i] != 0) {
                ws->cpos[nc] = ws->pos[i];
                ws->cval[nc] = ws->r[i];
                nc++;
            }
        }
    }
    if (predict && ws->bias) gb = gbm;
    ws->nz = nz;
    *db = 0;
    /* K dir = K_{:,C} rvec_C + K_{:,Z} d_Z: the first part, over all rows,
     * also gives the zone's K_{Z,C} rvec_C */
    nesvm_status st = nv_kmat_mul(ws->K, ws->pos, n, ws->cpos, nc, ws->cval, 1, ws->kd, ws->err);
    if (st != NESVM_OK || nz == 0) return st;
    const int ncol = ws->bias ? 2 : 1;
    /* q = H_Z^-1 rvec_Z - K_{Z,C} rvec_C, into column 0 of rhs */
    double sr = 0;
    for (int64_t k = 0; k < nz; k++) {
        double rk = ws->r[ws->zi[k]];
        sr += rk;
        ws->rhs[k * ncol] = rk / ws->zh[k] - ws->kd[ws->zi[k]];
        if (ncol == 2) ws->rhs[k * 2 + 1] = 1.0;
    }
    st = zone_solve(ws, ncol);
    if (st != NESVM_OK) return st;
    if (ws->bias) {
        double s0 = 0, s1 = 0;
        for (int64_t k = 0; k < nz; k++) {
            s0 += ws->sol[2 * k];
            s1 += ws->sol[2 * k + 1];
        }
        double delta = 1e-10 * (1.0 + sh);
        *db = (s0 - gb - sr) / (s1 + delta);
    }
    for (int64_t k = 0; k < nz; k++) {
        double dk = ws->sol[k * ncol] - (ws->bias ? *db * ws->sol[2 * k + 1] : 0.0);
        ws->dir[ws->zi[k]] = dk;
        ws->cval[k] = dk;
    }
    st = nv_kmat_mul(ws->K, ws->pos, n, ws->zpos, nz, ws->cval, 1, ws->v, ws->err);
    if (st != NESVM_OK) return st;
    for (int64_t i = 0; i < n; i++) ws->kd[i] += ws->v[i];
    return NESVM_OK;
}

/* The starting point of a large C-SVM problem: the solution of the problem
 * on a random quarter of its rows, with costs times 4 so that the loss keeps
 * its weight against the penalty (recursively: the quarter starts from its
 * own quarter).  The fine level then begins near its optimum instead of at
 * beta = 0, where every sample is on the hinge's linear part and the zone
 * fills a few hundred samples per Newton step.  The coarse solve reports
 * no progress; it stops at relative gap NV_NESVM_COARSE_EPS (or the caller's eps if
 * larger).  beta (n entries, zero outside the quarter) and b get the start;
 * with one class missing from the quarter they stay zero. */
static nesvm_status coarse_start(const nv_kernel_problem *kp, const nesvm_params *prm,
                                 double *beta, double *b, nesvm_error *err)
{
    const int64_t n = kp->n, m = n / NV_NESVM_COARSE_FACTOR;
    int64_t *idx = nv_malloc_array((size_t)n, sizeof(int64_t));
    int64_t *pos = nv_malloc_array((size_t)m, sizeof(int64_t));
    double *y = nv_malloc_array((size_t)m, sizeof(double));
    double *cost = nv_malloc_array((size_t)m, sizeof(double));
    double *w = nv_malloc_array((size_t)m, sizeof(double));
    nesvm_status st = NESVM_OK;
    if (!idx || !pos || !y || !cost || !w) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the coarse start (n=%lld)", (long long)n);
        goto out;
    }
    /* m distinct rows at random (partial Fisher-Yates), in increasing order */
    for (int64_t i = 0; i < n; i++) idx[i] = i;
    uint64_t rs = prm->seed ^ UINT64_C(0xC0A25E) ^ (uint64_t)n;
    for (int64_t i = 0; i < m; i++) {
        int64_t j = i + (int64_t)(nv_rng_uniform(&rs) * (double)(n - i));
        if (j >= n) j = n - 1;
        int64_t t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    qsort(idx, (size_t)m, sizeof(int64_t), nv_cmp_i64);
    int npos = 0, nneg = 0;
    for (int64_t k = 0; k < m; k++) {
        int64_t i = idx[k];
        y[k] = kp->y[i];
        cost[k] = kp->cost[i] * ((double)n / (double)m);
        npos += y[k] > 0;
        nneg += y[k] < 0;
        pos[k] = kp->pos ? kp->pos[i] : i;
    }
    if (npos > 0 && nneg > 0) {
        nesvm_params cp = *prm;
        if (cp.eps < NV_NESVM_COARSE_EPS) cp.eps = NV_NESVM_COARSE_EPS;
        nv_kernel_problem sub = {kp->K, pos, m, y, cost, NULL, 0.0, NULL, NULL, 0, 0, kp->target, NULL, 0, 0, NULL, NULL};
        nv_binary_result r;
        memset(&r, 0, sizeof r);
        r.w = w;
        st = nv_nesvm_kernel_train(&sub, &cp, NULL, &r, err);
        if (st == NESVM_OK) {
            for (int64_t k = 0; k < m; k++) beta[idx[k]] = w[k];
            *b = nv_params_bias(prm) ? r.b : 0.0;
        }
    }
out:
    nv_free(idx);
    nv_free(pos);
    nv_free(y);
    nv_free(cost);
    nv_free(w);
    return st;
}

/* The work arrays of a full kernel's expansion (kws), n entries each. */
static nesvm_status kx_alloc(kws *ws, int64_t n, nesvm_error *err)
{
    size_t nn = (size_t)(n ? n : 1);
    ws->pos = nv_malloc_array(nn, sizeof(int64_t));
    ws->beta = nv_calloc(nn, sizeof(double));
    ws->kb = nv_calloc(nn, sizeof(double));
    ws->v = nv_malloc_array(nn, sizeof(double));
    ws->kv = nv_malloc_array(nn, sizeof(double));
    ws->r = nv_malloc_array(nn, sizeof(double));
    ws->dir = nv_malloc_array(nn, sizeof(double));
    ws->kd = nv_malloc_array(nn, sizeof(double));
    ws->md = nv_malloc_array(nn, sizeof(double));
    ws->cpos = nv_malloc_array(nn, sizeof(int64_t));
    ws->cval = nv_malloc_array(2 * nn, sizeof(double));
    ws->zi = nv_malloc_array(nn, sizeof(int64_t));
    ws->zpos = nv_malloc_array(nn, sizeof(int64_t));
    ws->zh = nv_malloc_array(nn, sizeof(double));
    ws->rhs = nv_malloc_array(2 * nn, sizeof(double));
    ws->sol = nv_malloc_array(2 * nn, sizeof(double));
    ws->cg = nv_malloc_array(9 * nn, sizeof(double));
    if (!ws->pos || !ws->beta || !ws->kb || !ws->v || !ws->kv || !ws->r || !ws->dir || !ws->kd || !ws->md ||
        !ws->cpos || !ws->cval || !ws->zi || !ws->zpos || !ws->zh || !ws->rhs || !ws->sol || !ws->cg)
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel Newton work arrays (n=%lld)", (long long)n);
    return NESVM_OK;
}

static void kx_free(kws *ws)
{
    nv_free(ws->pos);
    nv_free(ws->beta);
    nv_free(ws->kb);
    nv_free(ws->v);
    nv_free(ws->kv);
    nv_free(ws->r);
    nv_free(ws->dir);
    nv_free(ws->kd);
    nv_free(ws->md);
    nv_free(ws->cpos);
    nv_free(ws->cval);
    nv_free(ws->zi);
    nv_free(ws->zpos);
    nv_free(ws->zh);
    nv_free(ws->rhs);
    nv_free(ws->sol);
    nv_free(ws->cg);
    nv_free(ws->A);
}

/* The Newton loop's state between iterations. */
typedef struct kx_newton {
    nv_sched sc;
    double b, step, f_before, zmu; /* zmu: the zone's width for the next direction */
    int64_t since_refresh;
    int stalls, polished;
    double *dense; /* the dense point kept while polishing, or NULL */
    double dense_b, dense_p;
    int64_t dense_nsv;
} kx_newton;

/* The polish for a sparse expansion, once the dense point converged:
 * restart from the best point with the coefficients of the samples beyond
 * the margin (alpha_i = 0) set to zero; Newton keeps such entries at zero
 * (d_i = rvec_i = 0) while their samples stay beyond the margin.  Returns 1
 * to go on iterating, 0 to stop (nothing to drop, or a failure in *st). */
static int kx_polish(kws *ws, nv_obj *obj, nv_track *tr, kx_newton *nt, double *best, nesvm_status *st)
{
    const int64_t n = ws->n;
    const size_t nn = (size_t)(n ? n : 1);
    nt->polished = 1;
    memcpy(ws->beta, best, nn * sizeof(double));
    nt->b = tr->bbest;
    *st = nv_kx_refresh(ws, obj, nt->b);
    if (*st != NESVM_OK) return 0;
    nv_obj_sums q;
    nv_obj_pass(obj, nt->sc.mu, &q);
    int64_t drop = 0;
    for (int64_t i = 0; i < n; i++) {
        if (obj->a[i] == 0 && ws->beta[i] != 0 && nv_obj_resid(obj, i, obj->m[i]) < -(1e-2)) {
            ws->beta[i] = 0;
            drop++;
        }
    }
    if (drop == 0) return 0;
    nt->dense = nv_malloc_array(nn, sizeof(double));
    if (!nt->dense) return 0; /* keep the dense result */
    memcpy(nt->dense, best, nn * sizeof(double));
    nt->dense_b = tr->bbest;
    nt->dense_p = tr->best_p;
    nt->dense_nsv = tr->nsv_best;
    *st = nv_kx_refresh(ws, obj, nt->b);
    if (*st != NESVM_OK) return 0;
    tr->best_p = INFINITY;
    tr->why = NESVM_EXIT_MAX_ITER;
    nv_track_new_stage(tr);
    nt->since_refresh = 0;
    nt->stalls = 0;
    nt->f_before = NAN;
    nt->step = NAN;
    return 1;
}

/* One Newton step: the direction, the exact line search, the move (K beta
 * and the margins updated, refreshed every NV_NESVM_REFRESH steps), the bias. */
static nesvm_status kx_newton_step(kws *ws, nv_obj *obj, kx_newton *nt, const nv_obj_eval *e)
{
    const int64_t n = ws->n;
    double db;
    nesvm_status st = direction(ws, obj, nt->sc.mu, nt->zmu, e->gb, &db);
    nt->zmu = nt->sc.mu;
    if (st != NESVM_OK) return st;
    for (int64_t i = 0; i < n; i++) ws->md[i] = ws->kd[i] + db;
    double A = nv_dot(ws->kb, ws->dir, n), B = nv_dot(ws->kd, ws->dir, n);
    nt->step = nv_obj_line_search_q(obj, ws->md, nt->sc.mu, 0.0, NULL, NULL, 1, A, B);
    nt->f_before = e->Fmu;
    if (nt->step > 0) {
        for (int64_t i = 0; i < n; i++) {
            ws->beta[i] += nt->step * ws->dir[i];
            ws->kb[i] += nt->step * ws->kd[i];
        }
        nt->b += nt->step * db;
        if (++nt->since_refresh >= NV_NESVM_REFRESH) {
            st = nv_kx_refresh(ws, obj, nt->b);
            if (st != NESVM_OK) return st;
            nt->since_refresh = 0;
        } else {
            for (int64_t i = 0; i < n; i++) obj->m[i] += nt->step * ws->md[i];
        }
    }
    if (ws->bias) nt->b = nv_obj_best_bias(obj, ws->md, nt->sc.mu, 0.0, nt->b);
    return NESVM_OK;
}

/* C-SVM and LS-SVM by Newton with continuation of mu (direction(), the
 * exact line search), then the polish of a sparse expansion (kx_polish). */
static nesvm_status kx_newton_loop(kws *ws, nv_obj *obj, const nesvm_params *prm, nv_track *tr, double *best,
                                   double b, nesvm_error *err)
{
    const int64_t n = ws->n;
    const size_t nn = (size_t)(n ? n : 1);
    kx_newton nt;
    memset(&nt, 0, sizeof nt);
    nv_sched_init(&nt.sc, prm, nv_obj_smoothed(obj), nv_obj_l1(obj), NV_NESVM_MU0, NV_NESVM_MU0,
                  NV_NESVM_MU_MIN_FACTOR);
    nt.b = ws->bias ? nv_obj_best_bias(obj, ws->md, nt.sc.mu, 0.0, b) : b;
    nt.step = nt.f_before = NAN;
    nt.zmu = nt.sc.mu;
    nt.dense_p = INFINITY;
    const double stall_tol = nv_obj_quadratic(obj) ? 0.0 : 1e-15;
    nesvm_status st;
    nv_obj_eval e;
    while (1) {
        st = nv_kx_evaluate(ws, obj, nt.sc.mu, &e);
        if (st != NESVM_OK) break;
        if (isfinite(nt.f_before))
            nt.stalls = e.Fmu < nt.f_before - stall_tol * fabs(nt.f_before) ? 0 : nt.stalls + 1;
        nv_track_info info = {nt.sc.mu, NAN, nt.step, ws->nz, nt.sc.final, 0, 0, 0, NAN, NAN};
        const double best_d = tr->best_d;
        const int stop = nv_track_iterate(tr, &e, ws->beta, nt.b, &info, &st, err);
        nv_kx_keep_dual(ws, &e, best_d, tr);
        if (stop) {
            if (st != NESVM_OK || tr->why != NESVM_EXIT_CONVERGED || !nv_obj_sparse_l2(obj) || nt.polished)
                break;
            if (kx_polish(ws, obj, tr, &nt, best, &st)) continue;
            break;
        }
        if (!nt.sc.final && (nv_sched_stage_done(&nt.sc, tr, &e) || nt.stalls >= 2)) {
            nt.zmu = nt.sc.mu;
            nv_sched_next(&nt.sc, &e, prm->eps, tr->best_p);
            nv_track_new_stage(tr);
            st = nv_kx_refresh(ws, obj, nt.b);
            if (st != NESVM_OK) break;
            nt.since_refresh = 0;
            nt.stalls = 0;
            st = nv_kx_evaluate(ws, obj, nt.sc.mu, &e);
            if (st != NESVM_OK) break;
            nt.f_before = NAN;
        } else if (nt.stalls >= 2) {
            tr->why = NESVM_EXIT_STALLED;
            break;
        }
        st = kx_newton_step(ws, obj, &nt, &e);
        if (st != NESVM_OK) break;
    }
    if (nt.dense && st == NESVM_OK && tr->why != NESVM_EXIT_CONVERGED && !(tr->best_p <= nt.dense_p)) {
        /* the polish did not certify: the dense point */
        memcpy(best, nt.dense, nn * sizeof(double));
        tr->bbest = nt.dense_b;
        tr->best_p = nt.dense_p;
        tr->nsv_best = nt.dense_nsv;
        tr->why = NESVM_EXIT_CONVERGED;
    }
    nv_free(nt.dense);
    return st;
}

nesvm_status nv_nesvm_kernel_train(const nv_kernel_problem *kp, const nesvm_params *prm,
                                   const nv_progress_sink *sink, nv_binary_result *res,
                                   nesvm_error *err)
{
    if (nv_kx_dual(kp, prm)) return nv_kx_smo_train(kp, prm, sink, res, err);
    const double t0 = nv_now();
    const int64_t n = kp->n;
    const int bias = nv_params_bias(prm);
    nv_binary_problem pb = {NULL, NULL, n, kp->y, kp->cost, NULL, 0.0, NULL, kp->target};
    nv_obj obj;
    kws ws;
    memset(&ws, 0, sizeof ws);
    const nv_loss inst = nv_params_loss_inst(prm);
    nesvm_status st = nv_obj_init_plain(&obj, &pb, &inst, nv_params_l1(prm), bias, err);
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        return st;
    }
    size_t nn = (size_t)(n ? n : 1);
    ws.K = kp->K;
    ws.n = n;
    ws.bias = bias;
    ws.err = err;
    ws.dual_out = res->dual;
    st = kx_alloc(&ws, n, err);
    double *best = st == NESVM_OK ? nv_malloc_array(nn, sizeof(double)) : NULL;
    if (st == NESVM_OK && !best)
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel Newton work arrays (n=%lld)", (long long)n);
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    for (int64_t i = 0; i < n; i++) ws.pos[i] = kp->pos ? kp->pos[i] : i;
    nv_track tr;
    nv_track_init(&tr, prm, sink, (int32_t)n, best, t0);
    nv_track_new_stage(&tr);
    double b = 0;
    if (kp->beta0) { /* a warm start (a checkpoint's point) */
        memcpy(ws.beta, kp->beta0, nn * sizeof(double));
        b = kp->b0;
    } else if (nv_obj_sparse_l2(&obj) && nv_params_newton(prm) && n >= NV_NESVM_COARSE_MIN) {
        st = coarse_start(kp, prm, ws.beta, &b, err);
        if (st != NESVM_OK) goto out;
    }
    memcpy(best, ws.beta, nn * sizeof(double));
    tr.bbest = b;
    st = nv_kx_refresh(&ws, &obj, b);
    if (st != NESVM_OK) goto out;
    if (nv_obj_l1(&obj))
        st = nv_kx_lp_newton_loop(&ws, &obj, prm, &tr, b, err);
    else if (prm->method == NV_METHOD_NESTEROV)
        st = nv_kx_nesterov_loop(&ws, &obj, prm, &tr, b, err);
    else
        st = kx_newton_loop(&ws, &obj, prm, &tr, best, b, err);
    if (st == NESVM_ERR_NOMEM) tr.why = NESVM_EXIT_NO_MEMORY;
    nv_track_result(&tr, res);
out:
    res->seconds = nv_now() - t0;
    kx_free(&ws);
    nv_free(best);
    nv_obj_free(&obj);
    return st;
}
