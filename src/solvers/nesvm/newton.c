/*
 * newton.c - the default inner method of NESVM (method "newton"):
 * truncated Newton with an exact line search on the smoothed objective F
 * of C-SVM, LP-SVM or LS-SVM (objective.h).
 *
 * Same problem, smoothing, continuation and certificate as nesterov.c;
 * only the minimizer of F_mu for a given mu differs.  Why: Nesterov's steps
 * need about sqrt(L) iterations per digit with L = 1 + lambda_max/mu, and on
 * real data lambda_max(X^T X) is huge (Fashion-MNIST: 6.6e6), while the
 * curvature of F_mu lives only on the smoothing zone
 *     Z = { i : 0 < r_i < mu s_i },   r_i = 1 - y_i (x_i.w + b),
 * which near the optimum holds few samples (about the margin support vectors).
 *
 * One iteration at (w, b):
 *   1. gradient g = (w - X^T(alpha y), -sum alpha_i y_i) with alpha_i = c_i u_i
 *      (one X^T*a over the samples with r_i > 0; nv_obj_evaluate_at);
 *   2. direction p: preconditioned conjugate gradients on H p = -g with
 *          H = [R'' 0; 0 delta] + Z^T diag(c_i l''(r_i)) Z,  Z = [X_Z 1],
 *      the Hessian of F (Hessian-vector products touch only the zone rows:
 *      the hinge's smoothing zone, l'' = 1/(mu s_i); every row for LS-SVM,
 *      l'' = 2).  R'' = I for the L2 norm; for LP-SVM's smoothed L1 norm
 *      R''_jj = 1/nu inside Huber's zone |w_j| < nu and 0 outside, where the
 *      damping NV_NESVM_LP_DAMP/nu keeps H definite (the line search is exact, so
 *      the damping only shapes the direction),
 *      Jacobi preconditioner (a curved loss, the logistic's: a subsampled
 *      Hessian, sketch_build), stopped at relative residual NV_NESVM_CG_TOL
 *      (a curved loss's last systems: what the certificate needs, cg_tol) or
 *      after about NV_NESVM_CG_PASSES passes over the data's worth of zone
 *      rows; each product H v is one pass over the zone rows (nv_xtdx; a
 *      curved loss's on a float copy of the rows, fmat.h, where smaller:
 *      the direction only needs to be good, its margins and the step are
 *      exact);
 *   3. margins of the direction X p_w + p_b (one X*w);
 *   4. exact line search: phi(t) = F_mu(w + t p) is a convex piecewise
 *      quadratic whose derivative needs only the margins, so its minimizer is
 *      found by safeguarded Newton steps on phi' at O(n) each, with no pass
 *      over the data;
 *   5. margins are updated as m += t X p (recomputed exactly every
 *      NV_NESVM_REFRESH iterations and at each change of mu).
 * Cost per iteration: about 1 + (n_sv / n) + CG work passes over X.
 * H is positive definite (delta > 0 keeps the bias direction definite when the
 * zone is empty), so p is a descent direction and F decreases monotonically.
 * LS-SVM's F is quadratic: with CG run to its tolerance each step is a
 * Newton step on the exact Hessian and a few iterations solve the problem.
 */
#include "nesvm_solver.h"
#include "../track.h"
#include "tuning.h"
#include "../../linalg/cg.h"
#include "../../linalg/fmat.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>


typedef struct newton_ws {
    nv_obj *obj;
    int32_t d;
    int bias;
    double mu, nu, delta;
    int64_t nz;     /* zone rows (this rank's) */
    int64_t nz_all; /* zone rows over every rank */
    int64_t *zrows; /* dataset rows of the zone */
    int64_t *zidx;  /* the zone's rows as problem rows (the float copy's) */
    double *zom;    /* c_i / (mu s_i) for the zone */
    double *zt;     /* nz scratch */
    double *diag;   /* d + 1 Jacobi preconditioner */
    double *rdiag;  /* d: R'' (LP-SVM), NULL for the L2 norm (R'' = I) */
    double *x, *r, *z, *p, *hp; /* d + 1 CG vectors (entry d: bias) */
    double *mp;     /* n margins of the direction */
    /* direct step (dense data): grown on demand */
    double *A, *B, *M, *rhs, *tmp2, *tmp3, *hvec;
    size_t cap_a, cap_m;
    double row_nnz;  /* mean non-zeros per row */
    int dist;        /* data-parallel: the exact step in its d x d form, summed over the ranks */
    /* a curved loss's preconditioner (sketch_build): the Cholesky factor of
     * R'' + (nz/m) A_S^T A_S over m of the zone's rows, d x d; NULL: Jacobi */
    float *SA, *SG;  /* the sampled rows (a block) and their Gram matrix, in float */
    double *SM;
    int sketch;      /* 1: SM holds this step's factor */
    /* a curved loss's Hessian products and sketch on a float copy of the
     * rows (fmat.h) when it is smaller than the data; F.n == 0: none */
    nv_fmat F;
} newton_ws;

/* Grow the direct step's buffers to nz zone rows; 0 when out of memory. */
static int direct_buffers(newton_ws *ws)
{
    size_t nz = (size_t)ws->nz, d = (size_t)ws->d;
    size_t m = !ws->dist && nz < d ? nz : d;
    if (!ws->rhs) ws->rhs = nv_malloc_array(2 * d + 2, sizeof(double));
    if (!ws->tmp3) ws->tmp3 = nv_malloc_array(2 * d + 2, sizeof(double));
    if (!ws->hvec) ws->hvec = nv_malloc_array(d + 1, sizeof(double));
    if (!ws->rhs || !ws->tmp3 || !ws->hvec) return 0;
    if (nz * d > ws->cap_a) {
        size_t c = nz * d + nz * d / 4;
        nv_free(ws->A);
        nv_free(ws->B);
        nv_free(ws->tmp2);
        ws->A = nv_malloc_array(c, sizeof(double));
        ws->B = ws->rdiag ? nv_malloc_array(c, sizeof(double)) : NULL;
        ws->tmp2 = nv_malloc_array(2 * (nz + nz / 4) + 2, sizeof(double));
        ws->cap_a = (ws->A && ws->tmp2 && (ws->B || !ws->rdiag)) ? c : 0;
        if (!ws->cap_a) return 0;
    }
    if (m * m > ws->cap_m) {
        size_t c = m * m + m * m / 4;
        nv_free(ws->M);
        ws->M = nv_malloc_array(c, sizeof(double));
        ws->cap_m = ws->M ? c : 0;
        if (!ws->M) return 0;
    }
    return 1;
}

/* out = H v (d + 1 entries). */
static void hess_vec(newton_ws *ws, const double *v, double *out)
{
    const nv_binary_problem *pb = ws->obj->pb;
    const int32_t d = ws->d;
    double vb = ws->bias ? v[d] : 0.0;
    /* X_Z^T (h (X_Z v + vb)) in one pass over the zone's rows */
    if (ws->F.n)
        nv_fmat_xtdx(&ws->F, ws->zidx, ws->nz, ws->zom, v, vb, ws->zt, out, &ws->obj->lw);
    else
        nv_xtdx(pb->X, ws->zrows, ws->nz, ws->zom, v, vb, ws->zt, out, &ws->obj->lw);
    double sb = 0;
    for (int64_t k = 0; k < ws->nz; k++) sb += ws->zt[k];
    out[d] = sb; /* X_Z^T (h X_Z v) and the bias row in one reduction */
    nv_obj_sum(ws->obj, out, (int64_t)d + 1);
    sb = out[d];
    if (ws->rdiag)
        for (int32_t j = 0; j < d; j++) out[j] += ws->rdiag[j] * v[j];
    else
        for (int32_t j = 0; j < d; j++) out[j] += v[j];
    out[d] = ws->bias ? ws->delta * vb + sb : 0.0;
}

static double dotd(const newton_ws *ws, const double *a, const double *b)
{
    return nv_dot(a, b, ws->d) + (ws->bias ? a[ws->d] * b[ws->d] : 0.0);
}

/* Collect the zone, its Hessian weights and the Jacobi preconditioner at w. */
static void build_zone(newton_ws *ws, const double *w, double mu, double nu)
{
    nv_obj *o = ws->obj;
    const nv_binary_problem *pb = o->pb;
    const int32_t d = ws->d;
    ws->mu = mu;
    ws->nu = nu;
    int64_t nz = 0;
    double sw = 0;
    for (int64_t i = 0; i < pb->n; i++) {
        double r = nv_obj_resid(o, i, o->m[i]);
        double h = nv_obj_curv(o, i, r, mu);
        if (h > 0) {
            ws->zrows[nz] = pb->rows ? pb->rows[i] : i;
            ws->zidx[nz] = i;
            ws->zom[nz] = h;
            sw += h;
            nz++;
        }
    }
    ws->nz = ws->nz_all = nz;
    if (ws->F.n)
        nv_fmat_col_sq(&ws->F, ws->zidx, nz, ws->zom, ws->diag);
    else
        nv_col_sq(pb->X, ws->zrows, nz, ws->zom, ws->diag);
    if (nv_comm_many(pb->comm)) {
        /* the diagonal's data part, the zone's weight and size over the ranks
         * (diag has d + 1 entries; the zone's size rides in zt's space) */
        double *ext = ws->diag + d;
        ext[0] = sw;
        nv_obj_sum(ws->obj, ws->diag, (int64_t)d + 1);
        sw = ext[0];
        double c = (double)nz;
        nv_obj_sum(ws->obj, &c, 1);
        ws->nz_all = (int64_t)c;
    }
    /* delta: a tiny curvature for b so that H is definite with an empty zone */
    ws->delta = 1e-10 * (1.0 + sw);
    if (ws->rdiag) {
        /* outside Huber's zone R'' = 0: a damping keeps H definite.  A smoothed
         * loss (LP-SVM's hinge), whose zone may leave X_Z^T X_Z singular: the
         * damping NV_NESVM_LP_DAMP/nu.  A smooth loss (the squared hinge, the
         * logistic loss) has curvature on most rows: the damping relative to
         * the column's own curvature (a column with none: LP_DAMP/nu), since
         * LP_DAMP/nu at a small nu dwarfs it and shortens every step (the
         * logistic loss's L1 problem crept at 1e-11 a step, measured) */
        const int smooth = !nv_obj_smoothed(ws->obj);
        for (int32_t j = 0; j < d; j++) {
            double damp = smooth && ws->diag[j] > 0 ? NV_NESVM_LP_DAMP * ws->diag[j] : NV_NESVM_LP_DAMP / nu;
            ws->rdiag[j] = fabs(w[j]) < nu ? 1.0 / nu : damp;
            ws->diag[j] += ws->rdiag[j];
        }
    } else {
        for (int32_t j = 0; j < d; j++) ws->diag[j] += 1.0;
    }
    ws->diag[d] = ws->bias ? ws->delta + sw : 1.0;
    /* H's diagonal is positive (R'' >= 1 or NV_NESVM_LP_DAMP/nu, delta > 0): the
     * Jacobi preconditioner divides by it */
    for (int32_t j = 0; j <= d; j++) NV_ASSERT(ws->diag[j] > 0);
}

/* Solve U^T U X = B in place, U the row-major upper Cholesky factor (m x m)
 * and B m x ncol row-major with leading dimension 2. */
static void chol_solve(const double *U, int64_t m, double *B, int ncol)
{
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, (int)m, ncol, 1.0, U,
                (int)m, B, 2);
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, (int)m, ncol, 1.0,
                U, (int)m, B, 2);
}

/*
 * Direct Newton direction for dense data: the exact solution of H x = -g by
 * a Cholesky factorization (LAPACK), in whichever of two forms is smaller.
 * With A = diag(sqrt(h_Z)) X_Z (the zone rows, weighted) and
 * Lambda = R'' (1, or LP-SVM's Huber curvature):
 *   q <= |Z|  H_ww = Lambda + A^T A, a q x q matrix (dsyrk);
 *   |Z| < q   Sherman-Morrison-Woodbury: H_ww^-1 v = Lambda^-1 v -
 *             Lambda^-1 A^T M^-1 A Lambda^-1 v with M = I + A Lambda^-1 A^T,
 *             a |Z| x |Z| matrix (the kernel matrix of the zone, for kernel
 *             features).
 * The bias joins by block elimination: H = [H_ww h; h^T eta] with
 * h = X_Z^T h_Z and eta = sum h_Z + delta.  Returns 0 when the factorization
 * fails (then CG is used).
 */
static int direct_step(newton_ws *ws, const double *g)
{
    const nv_binary_problem *pb = ws->obj->pb;
    const nesvm_dataset *X = pb->X;
    const int32_t d = ws->d;
    const int64_t nz = ws->nz;
    const int smw = !ws->dist && nz < d;
    const int64_t m = smw ? nz : d;
    /* A: nz x d, row k = sqrt(h_k) x_k */
    for (int64_t k = 0; k < nz; k++) {
        double sq = sqrt(ws->zom[k]);
        double *a = ws->A + k * d;
        int64_t r = ws->zrows[k];
        if (X->storage == NESVM_STORAGE_DENSE) {
            int64_t o = r * (int64_t)d;
            for (int32_t j = 0; j < d; j++) a[j] = sq * nv_val(X, o + j);
        } else {
            memset(a, 0, (size_t)d * sizeof *a);
            for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++) a[nv_idx(X, p)] = sq * nv_val(X, p);
        }
    }
    double *M = ws->M;
    const double *lam = ws->rdiag; /* NULL: Lambda = I */
    if (!smw) {
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, d, (int)nz, 1.0, ws->A, d, 0.0, M, d);
        if (ws->dist) nv_obj_sum(ws->obj, M, (int64_t)d * d); /* A^T A over the ranks' zone rows */
        for (int32_t j = 0; j < d; j++) M[(int64_t)j * d + j] += lam ? lam[j] : 1.0;
    } else {
        /* M = I + A Lambda^-1 A^T: scale A's columns by Lambda^-1/2 in a copy */
        const double *B = ws->A;
        if (lam) {
            for (int64_t k = 0; k < nz; k++)
                for (int32_t j = 0; j < d; j++) ws->B[k * d + j] = ws->A[k * d + j] / sqrt(lam[j]);
            B = ws->B;
        }
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)nz, d, 1.0, B, d, 0.0, M, (int)nz);
        for (int64_t k = 0; k < nz; k++) M[k * nz + k] += 1.0;
    }
    /* M is symmetric: its row-major array is also column-major, so the
     * column-major _work calls run in place (the row-major LAPACKE calls
     * transpose M and scan it for NaNs) */
    if (LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)m, M, (lapack_int)m) != 0) return 0;
    /* H_ww^-1 applied to the columns of R = [-g_w, h] (d x 2, row-major) */
    double *R = ws->rhs;
    for (int32_t j = 0; j < d; j++) {
        R[2 * j] = -g[j];
        R[2 * j + 1] = 0;
    }
    double eta = 0;
    for (int32_t j = 0; j <= d; j++) ws->hvec[j] = 0;
    for (int64_t k = 0; k < nz; k++) {
        /* h = X_Z^T h_Z = A^T sqrt(h_Z) */
        double sq = sqrt(ws->zom[k]);
        const double *a = ws->A + k * d;
        for (int32_t j = 0; j < d; j++) ws->hvec[j] += sq * a[j];
        eta += ws->zom[k];
    }
    if (ws->dist) { /* h and sum h_Z over the ranks (entry d carries the sum) */
        ws->hvec[d] = eta;
        nv_obj_sum(ws->obj, ws->hvec, (int64_t)d + 1);
        eta = ws->hvec[d];
    }
    eta += ws->delta;
    for (int32_t j = 0; j < d; j++) R[2 * j + 1] = ws->hvec[j];
    const int ncol = ws->bias ? 2 : 1;
    if (!smw) {
        chol_solve(M, d, R, ncol);
    } else {
        /* t = Lambda^-1 R; u = M^-1 (A t); R = t - Lambda^-1 A^T u */
        double *T = ws->tmp2; /* nz x 2 */
        for (int32_t j = 0; j < d; j++) {
            double il = lam ? 1.0 / lam[j] : 1.0;
            R[2 * j] *= il;
            R[2 * j + 1] *= il;
        }
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nz, ncol, d, 1.0, ws->A, d, R, 2,
                    0.0, T, 2);
        chol_solve(M, nz, T, ncol);
        double *U = ws->tmp3; /* d x 2 = A^T T */
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, d, ncol, (int)nz, 1.0, ws->A, d, T, 2,
                    0.0, U, 2);
        for (int32_t j = 0; j < d; j++) {
            double il = lam ? 1.0 / lam[j] : 1.0;
            R[2 * j] -= il * U[2 * j];
            if (ncol == 2) R[2 * j + 1] -= il * U[2 * j + 1]; /* U's second column: only with a bias */
        }
    }
    /* R[:,0] = H_ww^-1 (-g_w), R[:,1] = H_ww^-1 h */
    double xb = 0;
    if (ws->bias) {
        double hu = 0, hv = 0;
        for (int32_t j = 0; j < d; j++) {
            hu += ws->hvec[j] * R[2 * j];
            hv += ws->hvec[j] * R[2 * j + 1];
        }
        double schur = eta - hv;
        if (!(schur > 0)) return 0;
        xb = (-g[d] - hu) / schur;
    }
    for (int32_t j = 0; j < d; j++) ws->x[j] = ws->bias ? R[2 * j] - xb * R[2 * j + 1] : R[2 * j];
    ws->x[d] = ws->bias ? xb : 0.0;
    return 1;
}

/* Is the exact step affordable?  One process; a zone of at most
 * NV_NESVM_DIRECT_ZONE n rows unless its buffers are small (the first steps
 * from w = 0, where the zone holds most rows, cost less by CG's budgeted
 * iterations: Fashion-MNIST 0 vs rest at C = 0.01 trained 2.2x slower with an
 * exact first step on 54,000 zone rows; at large C on separable data every
 * row may stay in the zone); work buffers within the data's own storage (at least
 * NV_NESVM_DIRECT_MEM_FLOOR) and NV_NESVM_DIRECT_MEM; BLAS-3 flops at most
 * NV_NESVM_DIRECT_RATIO times those of CG at its largest cap (counted on the
 * non-zero values, so that CSR and dense storage of the same data decide
 * alike).  Within these it is taken at every step: CG's truncated
 * directions cost Newton iterations that grow with C (bench/notes/large-c-cliff.md:
 * 2,000 rows, C = 10: 13,419 iterations with CG, 173 exact), and BLAS-3
 * runs far faster per flop than CG's passes. */
/* The bytes the exact step may use: the data's own storage, at least
 * NV_NESVM_DIRECT_MEM_FLOOR, at most NV_NESVM_DIRECT_MEM. */
static double direct_room(const nesvm_dataset *X)
{
    double data = (double)X->nnz * ((X->prec == NESVM_FLOAT ? 4.0 : 8.0) +
                                    (X->storage == NESVM_STORAGE_DENSE ? 0.0 : X->indices64 ? 8.0 : 4.0));
    if (data < NV_NESVM_DIRECT_MEM_FLOOR) data = NV_NESVM_DIRECT_MEM_FLOOR;
    return data < NV_NESVM_DIRECT_MEM ? data : NV_NESVM_DIRECT_MEM;
}

int nv_nesvm_newton_exact(const nv_binary_problem *pb)
{
    const double d = (double)pb->X->d;
    return d * d * 8.0 <= direct_room(pb->X);
}

static int want_direct(const newton_ws *ws)
{
    const nv_binary_problem *pb = ws->obj->pb;
    /* data-parallel: every rank decides alike from the sums over the ranks
     * (the zone, the rows, the mean row's values), in the d x d form, within
     * the floor (a rank's own storage is not every rank's) */
    double nz = (double)ws->nz_all, d = (double)ws->d, n = (double)ws->obj->n_all;
    if (nz == 0) return 0;
    double m = !ws->dist && nz < d ? nz : d;
    double mem = ((ws->rdiag ? 2.0 : 1.0) * nz * d + m * m) * 8.0;
    if (mem > (ws->dist ? NV_NESVM_DIRECT_MEM_FLOOR : direct_room(pb->X))) return 0;
    if (nz > NV_NESVM_DIRECT_ZONE * n && mem > NV_NESVM_DIRECT_MEM_FLOOR) return 0;
    double direct = nz * d * m + m * m * m / 3.0;
    double cg = 2.0 * nz * ws->row_nnz * (double)NV_NESVM_CG_MAX;
    return direct <= NV_NESVM_DIRECT_RATIO * cg;
}

/* direct_buffers on every rank: the ranks take the exact step together or
 * not at all (one more reduction when data-parallel). */
static int buffers_agreed(newton_ws *ws)
{
    double failed = direct_buffers(ws) ? 0.0 : 1.0;
    if (ws->dist) nv_obj_sum(ws->obj, &failed, 1);
    return failed == 0;
}

/* Mean number of non-zero values per row of the problem. */
static double mean_row_nnz(const nv_binary_problem *pb)
{
    const nesvm_dataset *X = pb->X;
    double cnt = 0;
    for (int64_t i = 0; i < pb->n; i++) {
        int64_t r = pb->rows ? pb->rows[i] : i;
        if (X->storage == NESVM_STORAGE_DENSE) {
            for (int32_t j = 0; j < X->d; j++) cnt += nv_val(X, r * (int64_t)X->d + j) != 0;
        } else {
            for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++) cnt += nv_val(X, p) != 0;
        }
    }
    return pb->n > 0 ? cnt / (double)pb->n : 0.0;
}

/* The CG operator, inner product and preconditioner of the Newton system
 * (nv_cg's callbacks; the bias entry d counts only with a bias). */
static nesvm_status cg_apply(void *ctx, const double *p, double *hp)
{
    hess_vec(ctx, p, hp);
    return NESVM_OK;
}

static double cg_dot(void *ctx, const double *a, const double *b) { return dotd(ctx, a, b); }

static void cg_precond(void *ctx, const double *r, double *z, int c)
{
    const newton_ws *ws = ctx;
    (void)c;
    if (ws->sketch) {
        /* the weights by the sketch's factor, the bias by its diagonal */
        memcpy(z, r, (size_t)ws->d * sizeof *z);
        LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', ws->d, 1, ws->SM, ws->d, z, ws->d);
        z[ws->d] = r[ws->d] / ws->diag[ws->d];
        return;
    }
    for (int32_t j = 0; j <= ws->d; j++) z[j] = r[j] / ws->diag[j];
}

/* The preconditioner of a curved loss (the logistic's): every row is in its
 * zone and H = R'' + X^T diag(h) X is far from diagonal on correlated
 * features, where Jacobi leaves CG many steps.  A subsampled Hessian stands
 * for it: I + (nz/m) X_S^T diag(h_S) X_S over m = NV_NESVM_SKETCH_ROWS d
 * evenly spaced zone rows, its diagonal raised to H's where the sample's
 * falls short, factored once per Newton step (m d^2 + d^3/3 flops: the
 * Gram matrix in float, ssyrk, about half dsyrk's time, and the factor in
 * double; rows in blocks of NV_NESVM_SKETCH_BLOCK, d^2 floats and doubles
 * kept).  Measured on
 * Fashion-MNIST 0 vs rest (one thread, CPU seconds of the whole run, CG
 * steps): C = 1, 7.2 s and 140 steps with Jacobi, 2.6 s and 23 with m = 8 d;
 * C = 100, 10.9 s and 247 against 5.0 s and 70; m = 2 d was worse than
 * Jacobi at C = 100 (443 steps), m = 16 d no better than 8 d.  Taken on one
 * process when the zone holds m rows, d <= NV_NESVM_SKETCH_DMAX, the
 * factor's flops are at most NV_NESVM_SKETCH_RATIO CG steps' and its
 * memory within the exact step's room.  Returns 1 when SM holds the
 * factor (0: Jacobi). */
static int sketch_build(newton_ws *ws)
{
    const nv_obj *o = ws->obj;
    const nesvm_dataset *X = o->pb->X;
    const int32_t d = ws->d;
    const int64_t nz = ws->nz, m = NV_NESVM_SKETCH_ROWS * (int64_t)d, blk = NV_NESVM_SKETCH_BLOCK;
    /* (the L1 norm's Huber continuation, R'' = rdiag, stays with Jacobi: on
     * Fashion-MNIST's -s 6 at C = 0.1 the sketch certified 2.2x sooner but
     * at a point with all 784 weights non-zero, Jacobi's 240) */
    if (!o->loss->curved || ws->rdiag || ws->dist || d == 0 || d > NV_NESVM_SKETCH_DMAX || nz < m) return 0;
    const double dd = (double)d, flops = (double)m * dd * dd + dd * dd * dd / 3.0;
    if (flops > NV_NESVM_SKETCH_RATIO * 4.0 * (double)nz * ws->row_nnz) return 0;
    if (((double)blk + dd) * dd * 4.0 + dd * dd * 8.0 > direct_room(X)) return 0;
    if (!ws->SA) ws->SA = nv_malloc_array((size_t)blk * (size_t)d, sizeof(float));
    if (!ws->SG) ws->SG = nv_malloc_array((size_t)d * (size_t)d, sizeof(float));
    if (!ws->SM) ws->SM = nv_malloc_array((size_t)d * (size_t)d, sizeof(double));
    if (!ws->SA || !ws->SG || !ws->SM) return 0;
    const double scale = (double)nz / (double)m;
    for (int64_t k0 = 0; k0 < m; k0 += blk) {
        const int64_t kn = m - k0 < blk ? m - k0 : blk;
        for (int64_t k = 0; k < kn; k++) {
            const int64_t z = (k0 + k) * nz / m; /* evenly spaced over the zone */
            const float sq = (float)sqrt(scale * ws->zom[z]);
            float *a = ws->SA + k * d;
            if (ws->F.n) {
                nv_fmat_row(&ws->F, ws->zidx[z], sq, a);
                continue;
            }
            nv_row_dense_float(X, ws->zrows[z], sq, a);
        }
        cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, d, (int)kn, 1.0f, ws->SA, d, k0 ? 1.0f : 0.0f, ws->SG,
                    d);
    }
    for (size_t e = 0; e < (size_t)d * (size_t)d; e++) ws->SM[e] = ws->SG[e];
    /* R'' = I on the diagonal, raised to H's own (Jacobi's) where the
     * sample's falls short */
    for (int32_t j = 0; j < d; j++) {
        double *mjj = &ws->SM[(int64_t)j * d + j];
        *mjj += 1.0;
        if (*mjj < ws->diag[j]) *mjj = ws->diag[j];
    }
    /* symmetric: the row-major upper triangle is the column-major lower one */
    return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', d, ws->SM, d) == 0;
}

/* CG's relative residual for the Newton system at gradient g and primal P.
 * NV_NESVM_CG_TOL, except for a curved loss (the logistic's) under the L2
 * norm at the final stage: there the dual point alpha_i = c_i l'(r_i) meets
 * the primal with equality in every loss term, so P - D(alpha) = 1/2
 * ||w - X^T(alpha y)||^2 = 1/2 ||grad P||^2, and CG's residual r = H x + g
 * is the linear model's next gradient: asking ||r||^2 / 2 below a
 * fraction of eps |P| is enough for the next point to certify, and a
 * tighter CG (the last systems are the worst conditioned: 47 and 65 CG
 * steps at Fashion-MNIST's last two, C = 1) buys nothing. */
static double cg_tol(newton_ws *ws, const double *g, double P, double eps, int final)
{
    double tol = NV_NESVM_CG_TOL;
    const nv_obj *o = ws->obj;
    if (!o->loss->curved || nv_obj_l1(o) || !final) return tol;
    const double gn = sqrt(dotd(ws, g, g)), need = NV_NESVM_CG_GAP_SAFETY * sqrt(2.0 * eps * fabs(P));
    if (gn > 0 && need > tol * gn) tol = need < NV_NESVM_CG_TOL_MAX * gn ? need / gn : NV_NESVM_CG_TOL_MAX;
    return tol;
}

/* Preconditioned CG on H x = -g from x = 0 to relative residual tol;
 * returns the iteration count. */
static int64_t pcg(newton_ws *ws, const double *g, int64_t n, int64_t cap, double tol)
{
    const int32_t d = ws->d;
    const int32_t D = d + 1;
    /* the pass budget protects against solving a model that holds only
     * nearby; LS-SVM's quadratic model is exact and a curved smooth loss's
     * (the logistic) holds far, so there only cap applies (with the budget,
     * logistic regression's every row in the zone gave 4 CG steps a Newton
     * step: 239 Newton iterations on Fashion-MNIST 0 vs rest at C = 1,
     * LIBLINEAR's trust region 9) */
    int64_t maxit = ws->nz_all > 0 && !nv_obj_quadratic(ws->obj) && !ws->obj->loss->curved
                        ? (int64_t)(NV_NESVM_CG_PASSES * (double)n / (double)ws->nz_all) : cap;
    if (maxit > cap) maxit = cap;
    if (maxit < NV_NESVM_CG_MIN) maxit = NV_NESVM_CG_MIN;
    for (int32_t j = 0; j < D; j++) ws->r[j] = -g[j];
    if (!ws->bias) ws->r[d] = 0;
    nv_cg_ops ops = {ws, D, 1, cg_apply, cg_dot, cg_precond, maxit, tol, NV_CG_NORM};
    nv_cg_result cr;
    nv_cg(&ops, ws->x, ws->r, ws->z, ws->p, ws->hp, &cr);
    const int64_t it = cr.applies;
    /* no CG step taken (zero gradient or breakdown): fall back to -D^-1 g */
    if (it == 0 || dotd(ws, ws->x, ws->x) == 0)
        for (int32_t j = 0; j < D; j++) ws->x[j] = -g[j] / ws->diag[j];
    if (!ws->bias) ws->x[d] = 0;
    return it;
}

/* Whether a curved loss's CG and sketch read a float copy of the rows
 * (fmat.h): every row of such a loss is in the zone, so the copy serves
 * each Hessian product; taken when it is smaller than the rows' own
 * storage (user data, not the internal BLAS rows) and fits the exact
 * step's room, on at most NV_FMAT_D_MAX features.  Measured (one thread,
 * CSR double): on Fashion-MNIST 0 vs rest (60,000 x 784) a product took
 * 0.042 s on the data and 0.021 s on the copy; on 200,000 x 100,000 sparse
 * rows (a copy with 32-bit columns, tried) training took 1.20 s against
 * 0.99 s on the data (median of 5), the product's gathers into vectors
 * past the cache setting its pace. */
static int fmat_pays(const nv_binary_problem *pb, const nv_obj *o)
{
    const nesvm_dataset *X = pb->X;
    if (!o->loss->curved || X->blas_rows || pb->n == 0 || X->d > NV_FMAT_D_MAX) return 0;
    double stored = 0;
    for (int64_t i = 0; i < pb->n; i++) {
        const int64_t r = pb->rows ? pb->rows[i] : i;
        stored += X->storage == NESVM_STORAGE_DENSE ? (double)X->d : (double)(X->indptr[r + 1] - X->indptr[r]);
    }
    const double own = stored * ((X->prec == NESVM_FLOAT ? 4.0 : 8.0) +
                                 (X->storage == NESVM_STORAGE_DENSE ? 0.0 : X->indices64 ? 8.0 : 4.0));
    const double copy = nv_fmat_bytes(X, pb->rows, pb->n);
    return copy < own && copy <= direct_room(X);
}

/* Free the work arrays (NULL ones too). */
static void newton_ws_free(newton_ws *ws)
{
    double *d[] = {ws->zom, ws->zt, ws->mp, ws->diag, ws->rdiag, ws->x, ws->r, ws->z, ws->p,
                   ws->hp, ws->A, ws->B, ws->M, ws->rhs, ws->tmp2, ws->tmp3, ws->hvec, ws->SM};
    for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) nv_free(d[k]);
    nv_free(ws->zrows);
    nv_free(ws->zidx);
    nv_free(ws->SA);
    nv_free(ws->SG);
    nv_fmat_free(&ws->F);
}

nesvm_status nv_nesvm_newton_train(const nv_binary_problem *pb, const nesvm_params *prm,
                                   const nv_progress_sink *sink, nv_binary_result *res,
                                   nesvm_error *err)
{
    const double t0 = nv_now();
    const int32_t d = pb->X->d;
    const int64_t n = pb->n;
    const int bias = nv_params_bias(prm);
    nv_obj obj;
    newton_ws ws;
    memset(&ws, 0, sizeof ws);
    double *w = NULL, *g = NULL, *wbest = NULL;
    const nv_loss inst = nv_params_loss_inst(prm);
    nesvm_status st = nv_obj_init(&obj, pb, &inst, nv_params_l1(prm), bias, prm->threads, err);
    if (st != NESVM_OK) {
        res->exit_reason = st == NESVM_ERR_NOMEM ? NESVM_EXIT_NO_MEMORY : NESVM_EXIT_NUMERIC;
        return st;
    }
    size_t D = (size_t)d + 1, nn = (size_t)(n ? n : 1);
    ws.obj = &obj;
    ws.d = d;
    ws.bias = bias;
    ws.dist = nv_comm_many(pb->comm);
    ws.zrows = nv_malloc_array(nn, sizeof(int64_t));
    ws.zidx = nv_malloc_array(nn, sizeof(int64_t));
    ws.zom = nv_malloc_array(nn, sizeof(double));
    ws.zt = nv_malloc_array(nn, sizeof(double));
    ws.mp = nv_malloc_array(nn, sizeof(double));
    ws.diag = nv_malloc_array(D, sizeof(double));
    ws.x = nv_malloc_array(D, sizeof(double));
    ws.r = nv_malloc_array(D, sizeof(double));
    ws.z = nv_malloc_array(D, sizeof(double));
    ws.p = nv_malloc_array(D, sizeof(double));
    ws.hp = nv_malloc_array(D, sizeof(double));
    if (nv_obj_l1(&obj)) ws.rdiag = nv_malloc_array(D, sizeof(double));
    w = nv_malloc_array(D, sizeof(double));
    g = nv_malloc_array(D, sizeof(double));
    wbest = nv_malloc_array(D, sizeof(double));
    if (!ws.zrows || !ws.zidx || !ws.zom || !ws.zt || !ws.mp || !ws.diag || !ws.x || !ws.r || !ws.z ||
        !ws.p || !ws.hp || (nv_obj_l1(&obj) && !ws.rdiag) || !w || !g || !wbest)
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for Newton work arrays (n=%lld, d=%d)",
                      (long long)n, d);
    if (nv_comm_many(pb->comm)) st = nv_comm_agree(pb->comm, st, err); /* before the collectives */
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    if (fmat_pays(pb, &obj) && nv_fmat_build(&ws.F, pb->X, pb->rows, n, NULL) != NESVM_OK)
        ws.F.n = 0; /* no copy (out of memory, a value beyond float's range): the data's own values */
    ws.row_nnz = ws.F.n ? (double)ws.F.ptr[n] / (double)n : mean_row_nnz(pb);
    if (ws.dist) { /* the mean row over every rank's rows: the exact step's rule */
        double t[2] = {ws.row_nnz * (double)n, (double)n};
        nv_obj_sum(&obj, t, 2);
        ws.row_nnz = t[1] > 0 ? t[0] / t[1] : 0.0;
    }
    nv_sched sc;
    nv_sched_init(&sc, prm, nv_obj_smoothed(&obj), nv_obj_l1(&obj), NV_NESVM_MU0, NV_NESVM_NU0,
                  NV_NESVM_MU_MIN_FACTOR);
    nv_track tr;
    double b = nv_track_start(&tr, pb, prm, sink, w, wbest, t0);
    nv_track_new_stage(&tr);
    const double b_warm = b; /* a warm start's bias, before the first mu's best */
    if (pb->w0)
        nv_sched_warm(&sc, &obj, w, b);
    else
        nv_obj_margins(&obj, w, b);
    ws.mu = sc.mu;
    ws.nu = sc.nu;
    if (bias) b = nv_obj_best_bias(&obj, ws.mp, ws.mu, ws.nu, b);
    int64_t since_refresh = 0, cg_its = 0, cg_cap = NV_NESVM_CG_MAX;
    double step = NAN;
    int stalls = 0;
    double f_before = NAN;
    const double stall_tol = nv_obj_quadratic(&obj) ? 0.0 : 1e-15;
    nv_obj_eval e;
    /* the active-set finish solves the exact problem: not where the options
     * ask for the smoothed one (the dual method's condition); not on kernel
     * features, whose margin support vectors outnumber the basis columns
     * (E's system singular: every attempt given up, and unit_cv's C path
     * with a 40-column basis took 1.07-1.41x more iterations warm than cold) */
    const int pdas = nv_nesvm_pdas_takes(&obj) && nv_nesvm_dcd_takes(pb, prm) && !pb->X->blas_rows;
    while (1) {
        nv_obj_evaluate_at(&obj, w, sc.mu, sc.nu, &e);
        if ((st = nv_obj_comm_status(&obj, err)) != NESVM_OK) break;
        /* a step that did not lower F measurably is a stall; LS-SVM's F is
         * a strongly convex quadratic whose last digits still move the
         * solution, so there any decrease counts */
        if (isfinite(f_before))
            stalls = e.Fmu < f_before - stall_tol * fabs(f_before) ? 0 : stalls + 1;
        nv_track_info info = {sc.mu, NAN, step, cg_its, sc.final, 0, 0, 0, NAN, NAN};
        if (nv_track_iterate(&tr, &e, w, b, &info, &st, err)) break;
        if (pb->w0 && tr.iter == 1) {
            /* a warm start (the C path's previous solution) guesses the
             * active set at once */
            if (pdas && nv_nesvm_pdas(&obj, &tr, direct_room(pb->X), ws.x, &b, &st, err)) break;
            /* far from the optimum: a larger mu, from the start's bias */
            const int far = nv_sched_warm_far(&sc, e.P, tr.best_d);
            if (far) {
                nv_track_new_stage(&tr);
                b = b_warm;
            }
            if (far || pdas) nv_obj_margins(&obj, w, b);
            if (far && bias) b = nv_obj_best_bias(&obj, ws.mp, sc.mu, sc.nu, b);
            if (far || pdas) nv_obj_evaluate_at(&obj, w, sc.mu, sc.nu, &e);
        }
        if (!sc.final && (nv_sched_stage_done(&sc, &tr, &e) || stalls >= 2)) {
            /* the exact hinge's active set from the smoothed solution: done,
             * or Newton goes on at the next mu (pdas.c) */
            if (pdas && nv_nesvm_pdas(&obj, &tr, direct_room(pb->X), ws.x, &b, &st, err)) break;
            nv_sched_next(&sc, &e, prm->eps, tr.best_p);
            nv_track_new_stage(&tr);
            nv_obj_margins(&obj, w, b);
            since_refresh = 0;
            stalls = 0;
            nv_obj_evaluate_at(&obj, w, sc.mu, sc.nu, &e);
            f_before = NAN;
        } else if (stalls >= 2) {
            tr.why = NESVM_EXIT_STALLED;
            break;
        }
        /* gradient of F */
        nv_obj_grad(&obj, w, sc.nu, g);
        g[d] = bias ? e.gb : 0.0;
        build_zone(&ws, w, sc.mu, sc.nu);
        if (want_direct(&ws) && buffers_agreed(&ws) && direct_step(&ws, g))
            cg_its = 0; /* exact direction */
        else {
            ws.sketch = sketch_build(&ws);
            cg_its = pcg(&ws, g, obj.n_all, cg_cap, cg_tol(&ws, g, e.P, prm->eps, sc.final));
        }
        nv_xw(pb->X, pb->rows, n, ws.x, bias ? ws.x[d] : 0.0, ws.mp, &obj.lw);
        step = nv_obj_line_search(&obj, ws.mp, sc.mu, sc.nu, w, ws.x);
        f_before = e.Fmu;
        /* a short step means the quadratic model holds only nearby (the zone
         * changes along p): solve the next system less exactly */
        if (step < 0.1)
            cg_cap = cg_cap / 2 > NV_NESVM_CG_CAP_MIN ? cg_cap / 2 : NV_NESVM_CG_CAP_MIN;
        else if (step > 0.5)
            cg_cap = 2 * cg_cap < NV_NESVM_CG_MAX ? 2 * cg_cap : NV_NESVM_CG_MAX;
        if (step > 0) {
            for (int32_t j = 0; j < d; j++) w[j] += step * ws.x[j];
            if (bias) b += step * ws.x[d];
            if (++since_refresh >= NV_NESVM_REFRESH) {
                nv_obj_margins(&obj, w, b);
                since_refresh = 0;
            } else {
                for (int64_t i = 0; i < n; i++) obj.m[i] += step * ws.mp[i];
            }
        }
        if (bias) b = nv_obj_best_bias(&obj, ws.mp, ws.mu, ws.nu, b);
    }
    nv_track_sparsify(&tr, &obj, sc.nu, g);
    nv_track_result(&tr, res);
out:
    res->seconds = nv_now() - t0;
    newton_ws_free(&ws);
    nv_free(w);
    nv_free(g);
    nv_free(wbest);
    nv_obj_free(&obj);
    return st;
}
