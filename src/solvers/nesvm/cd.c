/*
 * cd.c - NESVM's method "cd" for the L1 norm with a smooth loss
 * (LIBLINEAR's -s 5 and -s 6, --penalty l1 with the squared hinge, the
 * logistic or a squared loss): proximal Newton steps on the exact problem
 *
 *     min_{w,b}  P(w,b) = ||w||_1 + sum_i c_i l(r_i),   r_i = t_i - s_i m_i,
 *     m_i = x_i.w + b   (objective.h's residuals and signs),
 *
 * whose quadratic models are minimized by coordinate descent over the
 * features (Yuan, Ho and Lin's newGLMNET, 2012, as LIBLINEAR's -s 6; its -s 5
 * takes one Newton step per coordinate instead).  No smoothing: the L1 norm's
 * kinks are met exactly, so the weights are exactly sparse, and the dual point
 * alpha_i = c_i l'(r_i) of the iterate tends to the optimal one, which makes
 * the certificate (objective.h, LP-SVM's: theta alpha with ||X^T(a y)||_inf
 * <= 1) tight at the end.  The Huber continuation of newton.c certifies late
 * on these problems: its dual bound is loose by the smoothing (bench/notes/
 * l1-cs-misses.md).
 *
 * One outer iteration at (w, b), its margins m in obj.m:
 *   1. the certificate at (w, b) (nv_obj_evaluate_at, one X^T*a); stop when
 *      the tracker says so (track.h);
 *   2. per sample the loss's margin derivative g_i = -s_i c_i l'(r_i) and
 *      curvature h_i = c_i l''(r_i) (the generalized Hessian where l has a
 *      kink: the squared hinge's), then per feature the gradient G_j =
 *      sum_i g_i x_ij and the Hessian's diagonal H_jj = sum_i h_i x_ij^2 (one
 *      pass over the columns), and the optimality violation of each weight:
 *      |G_j + sign(w_j)| when w_j != 0, max(|G_j| - 1, 0) when w_j = 0;
 *   3. shrinking: a zero weight whose |G_j| is below 1 - M/n (M the previous
 *      iteration's largest violation) sits out this iteration's model (G is
 *      recomputed over every feature next time, so nothing is lost);
 *   4. the model q(d) = G.d + 1/2 d^T X^T diag(h) X d + ||w + d||_1 (and the
 *      bias's column of ones, unregularized) minimized by cycles of
 *      coordinate descent in a random order, each coordinate's step the
 *      exact minimizer of q along it (a soft threshold), keeping X d up to
 *      date (two passes over the column); the cycles stop when the model's
 *      violation (summed) falls below inner_eps times the outer one, and a
 *      model solved in one cycle tightens inner_eps (LIBLINEAR's rule);
 *      within the cycles a zero coordinate well inside its kink sits out too,
 *      and is checked again before the model is called solved.  After a
 *      cycle that moved no weight to or from 0 (on sparse data: few, while
 *      CG pays), CG on that face of the L1 norm (face_cg); once the cycles and CG steps have cost as much as the
 *      model's Gram matrix (dense data), the model is finished on it
 *      (solve_gram).  At most NV_CD_MAX_CYCLES cycles and steps a model
 *      (NV_CD_PIECEWISE_CYCLES for a piecewise loss's model, which holds only
 *      near w); the trace's "inner" counts them;
 *   5. Armijo's backtracking on P along d from t = 1: P(w + t d) <= P(w) +
 *      sigma t (G.d + ||w + d||_1 - ||w||_1), each trial O(n + |A|) from
 *      the margins m + t X d; the margins follow (recomputed every
 *      NV_CD_REFRESH iterations).
 * Cost per iteration: one pass over X for the certificate, one over its
 * columns for G and H, and about two over the active columns per cycle.
 * Memory: a column copy of the rows (int32 row numbers and the data's
 * precision: about the data's own size again) and 4n + 4d doubles.
 * One process only (the columns are not split over ranks): nv_nesvm_cd_takes.
 */
#include "nesvm_solver.h"
#include "../track.h"
#include "tuning.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

#define NV_CD_SIGMA 0.01        /* Armijo's sufficient decrease */
#define NV_CD_BACKTRACKS 30     /* halvings of the step before a stall */
#define NV_CD_MAX_CYCLES 100    /* coordinate cycles and CG steps per model */
#define NV_CD_PIECEWISE_CYCLES 30 /* the same for a piecewise loss (not curved) */
#define NV_CD_REFRESH 10        /* outer iterations between exact margins */
#define NV_CD_HFLOOR 1e-12      /* added to each H_jj (a column without curvature) */
#define NV_CD_CG_STEPS 20       /* face_cg's steps at most */
#define NV_CD_CG_TOL 0.1        /* and its relative residual */
#define NV_CD_CG_MOVED 100      /* CG after a cycle moving <= 1 in 100 weights to or from 0 */
#define NV_CD_FLAT 10           /* full steps within P's rounding before a stall */

/* The sub-problem's rows by columns: column j's entries are [ptr[j],
 * ptr[j+1]) of row (the row's position k in 0..n-1) and val or fval. */
typedef struct cd_cols {
    int64_t *ptr;
    int32_t *row;
    double *val;
    float *fval;
} cd_cols;

static void cols_free(cd_cols *c)
{
    nv_free(c->ptr);
    nv_free(c->row);
    nv_free(c->val);
    nv_free(c->fval);
}

/* Visit the stored non-zeros of the sub-problem's row k as (column, value). */
#define CD_ROW_ENTRIES(X, r, J, V, BODY)                                                   \
    do {                                                                                   \
        if ((X)->storage == NESVM_STORAGE_DENSE) {                                         \
            const int64_t off_ = (r) * (int64_t)(X)->d;                                    \
            for (int32_t J = 0; J < (X)->d; J++) {                                         \
                const double V = nv_val((X), off_ + J);                                    \
                if (V != 0) { BODY; }                                                      \
            }                                                                              \
        } else {                                                                           \
            for (int64_t p_ = (X)->indptr[r]; p_ < (X)->indptr[(r) + 1]; p_++) {           \
                const int64_t J = nv_idx((X), p_);                                         \
                const double V = nv_val((X), p_);                                          \
                if (V != 0) { BODY; }                                                      \
            }                                                                              \
        }                                                                                  \
    } while (0)

static nesvm_status cols_build(const nv_binary_problem *pb, cd_cols *c, nesvm_error *err)
{
    const nesvm_dataset *X = pb->X;
    const int32_t d = X->d;
    const int64_t n = pb->n;
    memset(c, 0, sizeof *c);
    c->ptr = nv_calloc((size_t)d + 1, sizeof(int64_t));
    if (!c->ptr) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the columns' index (d=%d)", d);
    for (int64_t k = 0; k < n; k++) {
        const int64_t r = pb->rows ? pb->rows[k] : k;
        CD_ROW_ENTRIES(X, r, j, v, c->ptr[j + 1]++);
    }
    for (int32_t j = 0; j < d; j++) c->ptr[j + 1] += c->ptr[j];
    const size_t nnz = (size_t)c->ptr[d] + 1;
    c->row = nv_malloc_array(nnz, sizeof(int32_t));
    if (X->prec == NESVM_FLOAT)
        c->fval = nv_malloc_array(nnz, sizeof(float));
    else
        c->val = nv_malloc_array(nnz, sizeof(double));
    int64_t *next = nv_malloc_array((size_t)d + 1, sizeof(int64_t));
    if (!c->row || (!c->fval && !c->val) || !next) {
        nv_free(next);
        cols_free(c);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for a column copy of %lld stored entries",
                        (long long)(nnz - 1));
    }
    memcpy(next, c->ptr, (size_t)d * sizeof(int64_t));
    for (int64_t k = 0; k < n; k++) {
        const int64_t r = pb->rows ? pb->rows[k] : k;
        CD_ROW_ENTRIES(X, r, j, v, {
            const int64_t q = next[j]++;
            c->row[q] = (int32_t)k;
            if (c->fval)
                c->fval[q] = (float)v;
            else
                c->val[q] = v;
        });
    }
    nv_free(next);
    return NESVM_OK;
}

/* The cycles' per-row pair hx[2k] = h_k (the loss's curvature) and hx[2k+1]
 * = (X d)_k (the direction's margin): one cache line for both in a column's
 * gathers. */

/* sum over column j of g_k x_kj, and of h_k x_kj^2 into *s2. */
static double col_dot(const cd_cols *c, int32_t j, const double *g, const double *hx, double *s2)
{
    double s = 0, q = 0;
    const int64_t e = c->ptr[j + 1];
    if (c->fval) {
        for (int64_t p = c->ptr[j]; p < e; p++) {
            const double v = c->fval[p];
            s += g[c->row[p]] * v;
            q += hx[2 * (int64_t)c->row[p]] * v * v;
        }
    } else {
        for (int64_t p = c->ptr[j]; p < e; p++) {
            const double v = c->val[p];
            s += g[c->row[p]] * v;
            q += hx[2 * (int64_t)c->row[p]] * v * v;
        }
    }
    *s2 = q;
    return s;
}

/* sum over column j of h_k (X d)_k x_kj. */
static double col_wdot(const cd_cols *c, int32_t j, const double *hx)
{
    double s = 0;
    const int64_t e = c->ptr[j + 1];
    if (c->fval) {
        for (int64_t p = c->ptr[j]; p < e; p++) {
            const double *q = hx + 2 * (int64_t)c->row[p];
            s += q[0] * q[1] * (double)c->fval[p];
        }
    } else {
        for (int64_t p = c->ptr[j]; p < e; p++) {
            const double *q = hx + 2 * (int64_t)c->row[p];
            s += q[0] * q[1] * c->val[p];
        }
    }
    return s;
}

/* (X d)_k += z x_kj over column j. */
static void col_axpy(const cd_cols *c, int32_t j, double z, double *hx)
{
    const int64_t e = c->ptr[j + 1];
    if (c->fval)
        for (int64_t p = c->ptr[j]; p < e; p++) hx[2 * (int64_t)c->row[p] + 1] += z * (double)c->fval[p];
    else
        for (int64_t p = c->ptr[j]; p < e; p++) hx[2 * (int64_t)c->row[p] + 1] += z * c->val[p];
}

/* sum over column j of h_k u_k x_kj. */
static double col_hdot(const cd_cols *c, int32_t j, const double *hx, const double *u)
{
    double s = 0;
    const int64_t e = c->ptr[j + 1];
    if (c->fval)
        for (int64_t p = c->ptr[j]; p < e; p++) s += hx[2 * (int64_t)c->row[p]] * u[c->row[p]] * (double)c->fval[p];
    else
        for (int64_t p = c->ptr[j]; p < e; p++) s += hx[2 * (int64_t)c->row[p]] * u[c->row[p]] * c->val[p];
    return s;
}

/* u_k += z x_kj over column j. */
static void col_add(const cd_cols *c, int32_t j, double z, double *u)
{
    const int64_t e = c->ptr[j + 1];
    if (c->fval)
        for (int64_t p = c->ptr[j]; p < e; p++) u[c->row[p]] += z * (double)c->fval[p];
    else
        for (int64_t p = c->ptr[j]; p < e; p++) u[c->row[p]] += z * c->val[p];
}

/* The minimizer z of g z + h/2 z^2 + |v + z| (h > 0): the soft threshold. */
static double l1_step(double g, double h, double v)
{
    if (g + 1.0 <= h * v) return -(g + 1.0) / h;
    if (g - 1.0 >= h * v) return -(g - 1.0) / h;
    return -v;
}

/* The optimality violation of weight v with gradient g under the L1 norm. */
static double l1_violation(double g, double v)
{
    if (v > 0) return fabs(g + 1.0);
    if (v < 0) return fabs(g - 1.0);
    const double a = fabs(g) - 1.0;
    return a > 0 ? a : 0.0;
}

int nv_nesvm_cd_takes(const nv_binary_problem *pb, const nesvm_params *prm)
{
    /* the exact problem (no smoothing asked for), a loss with a derivative
     * everywhere, the columns on one process and numbered in 32 bits */
    const nv_loss *l = nv_params_loss(prm);
    return nv_params_l1(prm) && l && !l->smoothed && !nv_comm_many(pb->comm) && prm->mu == 0 &&
           prm->mu_star == 0 && prm->continuation == NV_CONT_ADAPTIVE && pb->n <= INT32_MAX;
}

typedef struct cd_ws {
    nv_obj *obj;
    cd_cols cols;
    int32_t d;
    int64_t n;
    int bias;
    double *g;        /* n: the loss's margin derivative */
    double *hx;       /* 2n: h_k, the loss's curvature, and (X d + db)_k (above) */
    double *lv;       /* n: each sample's c_i l(r_i) */
    double *G, *H;    /* d: gradient and Hessian diagonal of the loss part */
    double *dir;      /* d: the direction */
    int32_t *act;     /* the model's features */
    int32_t *inner;   /* the cycles' features */
    uint64_t rng;
    /* the Gram finish (solve_gram): the matrix, its rows' block, the
     * model's gradient q = g + M d, each feature's place in act (-1: out) */
    double *M, *blk, *q;
    int32_t *pos;
    size_t cap;       /* entries M has room for */
    int gram;         /* 1: the last model needed it, so the next starts on it */
    /* the face's CG (face_cg): the free features, its vectors (d + 1 each)
     * and two of n */
    int32_t *face;
    double *cr, *cz, *cp, *cq, *cdel, *cu, *cxd;
    int64_t ncurved;  /* rows with h_i > 0 */
    double cg_rate;   /* the model's change per step of face_cg's last call */
} cd_ws;

/* g_i and h_i at the margins in obj.m; returns sum_i c_i l(r_i). */
static double sample_terms(cd_ws *ws)
{
    const nv_obj *o = ws->obj;
    const nv_binary_problem *pb = o->pb;
    double s = 0;
    for (int64_t i = 0; i < ws->n; i++) {
        const double r = nv_obj_resid(o, i, o->m[i]);
        nv_loss_at a;
        o->loss->at(o->loss, r, pb->cost[i], 0.0, &a);
        ws->g[i] = -nv_obj_sign(o, i) * pb->cost[i] * a.u;
        ws->hx[2 * i] = o->loss->curv(o->loss, r, pb->cost[i], 0.0);
        ws->lv[i] = a.val;
        s += a.val;
    }
    return s;
}

/* P(w + t d) - P(w): the L1 norm's change over act[0..na) plus each
 * sample's loss change at the margins m + t xd (ws->lv: its loss at m). */
static double change_along(const cd_ws *ws, const double *w, int32_t na, double t)
{
    const nv_obj *o = ws->obj;
    const nv_binary_problem *pb = o->pb;
    double s = 0;
    for (int32_t a = 0; a < na; a++) {
        const int32_t j = ws->act[a];
        s += fabs(w[j] + t * ws->dir[j]) - fabs(w[j]);
    }
    for (int64_t i = 0; i < ws->n; i++)
        if (ws->hx[2 * i + 1] != 0)
            s += nv_loss_value(o->loss, nv_obj_resid(o, i, o->m[i] + t * ws->hx[2 * i + 1]), pb->cost[i]) - ws->lv[i];
    return s;
}

/* Has the Gram finish room for na features (and the bias)? */
static int gram_fits(cd_ws *ws, int32_t na)
{
    const size_t m = (size_t)na + (size_t)ws->bias;
    if (na > NV_CD_GRAM_MAX || m == 0) return 0;
    if (m * m > ws->cap) {
        nv_free(ws->M);
        nv_free(ws->blk);
        ws->M = nv_malloc_array(m * m, sizeof(double));
        ws->blk = nv_malloc_array(256 * m, sizeof(double));
        ws->cap = ws->M && ws->blk ? m * m : 0;
    }
    if (!ws->q) ws->q = nv_malloc_array((size_t)ws->d + 1, sizeof(double));
    if (!ws->pos) ws->pos = nv_malloc_array((size_t)ws->d + 1, sizeof(int32_t));
    return ws->cap >= m * m && ws->q && ws->pos;
}

/* M = [X_A 1]^T diag(h) [X_A 1] over the rows with h_i > 0 (the bias's
 * column only with a bias), in blocks of 256 rows by BLAS's dsyrk; both
 * triangles filled. */
static void gram_build(cd_ws *ws, int32_t na)
{
    const nv_binary_problem *pb = ws->obj->pb;
    const nesvm_dataset *X = pb->X;
    const int32_t m = na + ws->bias;
    for (int32_t j = 0; j < ws->d; j++) ws->pos[j] = -1;
    for (int32_t a = 0; a < na; a++) ws->pos[ws->act[a]] = a;
    int64_t k = 0, filled = 0;
    int first = 1;
    while (k < ws->n || filled > 0) {
        if (k < ws->n && filled < 256) {
            const double h = ws->hx[2 * k];
            if (h > 0) {
                const double sq = sqrt(h);
                double *row = ws->blk + filled * m;
                memset(row, 0, (size_t)m * sizeof *row);
                const int64_t r = pb->rows ? pb->rows[k] : k;
                CD_ROW_ENTRIES(X, r, j, v, {
                    if (ws->pos[j] >= 0) row[ws->pos[j]] = sq * v;
                });
                if (ws->bias) row[na] = sq;
                filled++;
            }
            k++;
            continue;
        }
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, m, (int)filled, 1.0, ws->blk, m, first ? 0.0 : 1.0,
                    ws->M, m);
        first = 0;
        filled = 0;
    }
    if (first) memset(ws->M, 0, (size_t)m * (size_t)m * sizeof(double));
    for (int32_t a = 0; a < m; a++)
        for (int32_t c = 0; c < a; c++) ws->M[(int64_t)a * m + c] = ws->M[(int64_t)c * m + a];
}

/* Finish the model on M from the direction in dir[act] (and dir[d]):
 * cycles to a summed violation <= tol; X d + db into xd. */
static int64_t solve_gram(cd_ws *ws, const double *w, int32_t na, double gb, double tol)
{
    const int32_t m = na + ws->bias, d = ws->d;
    double *q = ws->q, *dir = ws->dir;
    const double *M = ws->M;
    /* q = g + M dir */
    for (int32_t a = 0; a < m; a++) {
        const int32_t j = a < na ? ws->act[a] : d;
        q[a] = a < na ? ws->G[j] : gb;
    }
    for (int32_t c = 0; c < m; c++) {
        const double z = dir[c < na ? ws->act[c] : d];
        if (z != 0) cblas_daxpy(m, z, M + (int64_t)c * m, 1, q, 1);
    }
    for (int32_t a = 0; a < m; a++) ws->inner[a] = a;
    int64_t cycle = 0;
    while (cycle < NV_CD_GRAM_CYCLES) {
        cycle++;
        for (int32_t a = m - 1; a > 0; a--) {
            const int32_t b = (int32_t)(nv_rng_next(&ws->rng) % (uint64_t)(a + 1)), t = ws->inner[a];
            ws->inner[a] = ws->inner[b];
            ws->inner[b] = t;
        }
        double vsum = 0;
        for (int32_t k = 0; k < m; k++) {
            const int32_t a = ws->inner[k];
            const double hh = M[(int64_t)a * m + a] + NV_CD_HFLOOR;
            double dz;
            if (a == na) { /* the bias */
                vsum += fabs(q[a]);
                dz = -q[a] / hh;
                dir[d] += dz;
            } else {
                const int32_t j = ws->act[a];
                const double v = w[j] + dir[j];
                vsum += l1_violation(q[a], v);
                const double z = l1_step(q[a], hh, v), nd = z == -v ? -w[j] : dir[j] + z;
                dz = nd - dir[j];
                dir[j] = nd;
            }
            if (dz != 0) cblas_daxpy(m, dz, M + (int64_t)a * m, 1, q, 1);
        }
        if (vsum <= tol) break;
    }
    for (int64_t i = 0; i < ws->n; i++) ws->hx[2 * i + 1] = ws->bias ? dir[d] : 0.0;
    for (int32_t a = 0; a < na; a++)
        if (dir[ws->act[a]] != 0) col_axpy(&ws->cols, ws->act[a], dir[ws->act[a]], ws->hx);
    return cycle;
}

/* The model's change q(d + delta) - q(d) for the step delta[0..nf) over
 * face[0..nf) (and delta[nf], the bias's) whose margins are scale * u:
 * G.delta + (X d)^T diag(h) (X delta) + 1/2 ||X delta||_h^2 plus the L1
 * norm's change, exactly, in O(n + nf). */
static double face_change(const cd_ws *ws, const double *w, int32_t nf, const double *delta, const double *u,
                          double scale, double gb)
{
    const double *hx = ws->hx;
    double s = ws->bias ? gb * delta[nf] : 0.0;
    for (int32_t k = 0; k < nf; k++) {
        const int32_t j = ws->face[k];
        const double v = w[j] + ws->dir[j];
        s += ws->G[j] * delta[k] + fabs(v + delta[k]) - fabs(v);
    }
    for (int64_t i = 0; i < ws->n; i++) {
        const double ui = scale * u[i];
        s += hx[2 * i] * ui * (hx[2 * i + 1] + 0.5 * ui);
    }
    return s;
}

#if NV_ASSERTS_ON
/* The model's terms that a step over face[0..nf) (and the bias) changes, at
 * the direction in dir and margins in hx: face_change's check in debug
 * builds (the change of this sum across the step taken is its value). */
static double face_value(const cd_ws *ws, const double *w, int32_t nf, double gb)
{
    double s = ws->bias ? gb * ws->dir[ws->d] : 0.0;
    for (int32_t k = 0; k < nf; k++) {
        const int32_t j = ws->face[k];
        s += ws->G[j] * ws->dir[j] + fabs(w[j] + ws->dir[j]);
    }
    for (int64_t i = 0; i < ws->n; i++) s += 0.5 * ws->hx[2 * i] * ws->hx[2 * i + 1] * ws->hx[2 * i + 1];
    return s;
}
#endif

/* Conjugate gradients on the model restricted to the face of the L1 norm
 * the cycles have found: the features of inner[0..ni) with w_j + d_j != 0
 * keep their signs, where the model is a quadratic with Hessian X_F^T
 * diag(h) X_F (and the bias's row; Jacobi's preconditioner).  Coordinate
 * descent is Gauss-Seidel on that system and crawls when the columns are
 * correlated (the sparse set's heavy features: 50-80 cycles a model); CG
 * needs about the square root of its steps.  At most NV_CD_CG_STEPS steps,
 * to a tenth of the residual.  Two ends are then weighed by the model's exact
 * change (face_change), and the lower taken: the step cut where the first
 * free weight would change its sign (that weight lands on 0; the model goes
 * down), and the whole step with every weight that would cross 0 put on it
 * instead (a projection: the face's signs kept, the crossing weights leaving
 * it).  The cut alone is often tiny while the cycles still move a few small
 * weights; the projection keeps the CG's work.  Returns the steps (0 when
 * there was nothing to do or no room) and the model's change in *dq. */
static int64_t face_cg(cd_ws *ws, const double *w, int32_t ni, double gb, double hb, double *dq)
{
    const int32_t d = ws->d;
    const int64_t n = ws->n;
    double *hx = ws->hx, *dir = ws->dir;
    if (!ws->face) {
        ws->face = nv_malloc_array((size_t)d + 1, sizeof(int32_t));
        double **v[] = {&ws->cr, &ws->cz, &ws->cp, &ws->cq, &ws->cdel};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) *v[k] = nv_malloc_array((size_t)d + 1, sizeof(double));
        ws->cu = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
        ws->cxd = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    }
    if (!ws->face || !ws->cr || !ws->cz || !ws->cp || !ws->cq || !ws->cdel || !ws->cu || !ws->cxd) return 0;
    int32_t nf = 0;
    for (int32_t a = 0; a < ni; a++)
        if (w[ws->inner[a]] + dir[ws->inner[a]] != 0) ws->face[nf++] = ws->inner[a];
    const int32_t m = nf + ws->bias;
    if (m == 0) return 0;
    double *r = ws->cr, *z = ws->cz, *p = ws->cp, *q = ws->cq, *del = ws->cdel, *u = ws->cu, *xdel = ws->cxd;
    for (int32_t k = 0; k < nf; k++) {
        const int32_t j = ws->face[k];
        r[k] = -(ws->G[j] + col_wdot(&ws->cols, j, hx) + (w[j] + dir[j] > 0 ? 1.0 : -1.0));
    }
    if (ws->bias) {
        double sb = gb;
        for (int64_t i = 0; i < n; i++) sb += hx[2 * i] * hx[2 * i + 1];
        r[nf] = -sb;
    }
    memset(del, 0, (size_t)m * sizeof *del);
    memset(xdel, 0, (size_t)n * sizeof *xdel);
    double rz = 0;
    for (int32_t k = 0; k < m; k++) {
        z[k] = r[k] / (k < nf ? ws->H[ws->face[k]] : hb);
        p[k] = z[k];
        rz += r[k] * z[k];
    }
    const double rz0 = rz;
    int64_t it = 0;
    while (it < NV_CD_CG_STEPS && rz > 0) {
        it++;
        for (int64_t i = 0; i < n; i++) u[i] = ws->bias ? p[nf] : 0.0;
        for (int32_t k = 0; k < nf; k++)
            if (p[k] != 0) col_add(&ws->cols, ws->face[k], p[k], u);
        double pq = 0;
        for (int32_t k = 0; k < nf; k++) {
            q[k] = col_hdot(&ws->cols, ws->face[k], hx, u) + NV_CD_HFLOOR * p[k];
            pq += p[k] * q[k];
        }
        if (ws->bias) {
            double sb = NV_CD_HFLOOR * p[nf];
            for (int64_t i = 0; i < n; i++) sb += hx[2 * i] * u[i];
            q[nf] = sb;
            pq += p[nf] * sb;
        }
        if (!(pq > 0)) break;
        const double alpha = rz / pq;
        double rzn = 0;
        for (int32_t k = 0; k < m; k++) {
            del[k] += alpha * p[k];
            r[k] -= alpha * q[k];
            z[k] = r[k] / (k < nf ? ws->H[ws->face[k]] : hb);
            rzn += r[k] * z[k];
        }
        for (int64_t i = 0; i < n; i++) xdel[i] += alpha * u[i];
        if (rzn <= NV_CD_CG_TOL * NV_CD_CG_TOL * rz0) break;
        const double beta = rzn / rz;
        for (int32_t k = 0; k < m; k++) p[k] = z[k] + beta * p[k];
        rz = rzn;
    }
    /* the largest step <= 1 that keeps every free weight's sign */
    double t = 1.0;
    int32_t cut = -1;
    for (int32_t k = 0; k < nf; k++) {
        const int32_t j = ws->face[k];
        const double v = w[j] + dir[j];
        if (v * del[k] < 0 && -v / del[k] < t) {
            t = -v / del[k];
            cut = k;
        }
    }
#if NV_ASSERTS_ON
    const double q0 = face_value(ws, w, nf, gb);
#define CD_CHECK_CHANGE() \
    NV_ASSERT(fabs(face_value(ws, w, nf, gb) - q0 - *dq) <= 1e-7 * (fabs(q0) + fabs(*dq) + 1.0))
#else
#define CD_CHECK_CHANGE() ((void)0)
#endif
    /* z: the cut step (margins t xdel); p and u: the projected one */
    for (int32_t k = 0; k < nf; k++) z[k] = k == cut ? -(w[ws->face[k]] + dir[ws->face[k]]) : t * del[k];
    if (ws->bias) z[nf] = t * del[nf];
    *dq = face_change(ws, w, nf, z, xdel, t, gb);
    if (cut >= 0) {
        memcpy(u, xdel, (size_t)n * sizeof *u);
        for (int32_t k = 0; k < nf; k++) {
            const int32_t j = ws->face[k];
            const double v = w[j] + dir[j];
            p[k] = del[k];
            if (v * (v + del[k]) < 0) {
                col_add(&ws->cols, j, -v - del[k], u);
                p[k] = -v;
            }
        }
        if (ws->bias) p[nf] = del[nf];
        const double dqp = face_change(ws, w, nf, p, u, 1.0, gb);
        if (dqp < *dq) {
            *dq = dqp;
            for (int32_t k = 0; k < nf; k++) {
                const int32_t j = ws->face[k];
                dir[j] = p[k] == -(w[j] + dir[j]) ? -w[j] : dir[j] + p[k];
            }
            if (ws->bias) dir[d] += p[nf];
            for (int64_t i = 0; i < n; i++) hx[2 * i + 1] += u[i];
            CD_CHECK_CHANGE();
            return it;
        }
    }
    for (int32_t k = 0; k < nf; k++) {
        const int32_t j = ws->face[k];
        dir[j] = k == cut ? -w[j] : dir[j] + t * del[k];
    }
    if (ws->bias) dir[d] += t * del[nf];
    for (int64_t i = 0; i < n; i++) hx[2 * i + 1] += t * xdel[i];
    CD_CHECK_CHANGE();
#undef CD_CHECK_CHANGE
    return it;
}

/* Minimize the model at w over the active features act[0..na) (and the
 * bias) to a summed violation <= tol: coordinate cycles over the columns,
 * finished on the Gram matrix (to gtol) once the cycles have cost as much as
 * building it, or at once when the last model needed it.  The direction
 * goes to dir, its margins to xd; returns the cycles. */
static int64_t solve_model(cd_ws *ws, const double *w, int32_t na, double gb, double tol, double gtol)
{
    double *hx = ws->hx, *dir = ws->dir;
    for (int64_t i = 0; i < ws->n; i++) hx[2 * i + 1] = 0;
    for (int32_t a = 0; a < na; a++) dir[ws->act[a]] = 0;
    dir[ws->d] = 0;
    double hb = NV_CD_HFLOOR, nnz_a = 0;
    if (ws->bias)
        for (int64_t i = 0; i < ws->n; i++) hb += hx[2 * i];
    for (int32_t a = 0; a < na; a++) nnz_a += (double)(ws->cols.ptr[ws->act[a] + 1] - ws->cols.ptr[ws->act[a]]);
    /* in visits of a column entry: a cycle's two passes, and the Gram
     * matrix's flops at BLAS's speed plus a pass to gather its rows */
    const double mm = (double)(na + ws->bias), cycle_cost = 2.0 * nnz_a + (double)ws->n,
                 gram_cost = (double)ws->ncurved * mm * mm / NV_CD_GRAM_SPEED + nnz_a;
    const int can_gram = gram_cost < NV_CD_MAX_CYCLES * cycle_cost && gram_fits(ws, na);
    if (can_gram && ws->gram) {
        gram_build(ws, na);
        return solve_gram(ws, w, na, gb, gtol < tol ? gtol : tol);
    }
    ws->gram = 0;
    int32_t ni = na;
    memcpy(ws->inner, ws->act, (size_t)na * sizeof(int32_t));
    double mprev = INFINITY; /* the last cycle's largest violation */
    int64_t cycle = 0, steps = 0;
    /* a piecewise loss's model (the squared hinge's generalized Hessian)
     * holds only near w: solving it far costs more than the next model */
    const int64_t cap = ws->obj->loss->curved ? NV_CD_MAX_CYCLES : NV_CD_PIECEWISE_CYCLES;
    while (cycle + steps < cap) {
        if (can_gram && (double)(cycle + steps) * cycle_cost >= gram_cost) {
            ws->gram = 1;
            gram_build(ws, na);
            return cycle + steps + solve_gram(ws, w, na, gb, gtol < tol ? gtol : tol);
        }
        cycle++;
        for (int32_t a = ni - 1; a > 0; a--) { /* a random order */
            const int32_t b = (int32_t)(nv_rng_next(&ws->rng) % (uint64_t)(a + 1)), t = ws->inner[a];
            ws->inner[a] = ws->inner[b];
            ws->inner[b] = t;
        }
        double vsum = 0, vmax = 0, dq = 0; /* dq: the cycle's change of the model */
        int64_t changed = 0; /* weights that left or reached 0 */
        for (int32_t a = 0; a < ni; a++) {
            const int32_t j = ws->inner[a];
            const double gj = ws->G[j] + col_wdot(&ws->cols, j, hx);
            const double v = w[j] + dir[j];
            if (v == 0 && fabs(gj) < 1.0 - mprev / (double)ws->n) { /* well inside its kink */
                ws->inner[a--] = ws->inner[--ni];
                continue;
            }
            const double viol = l1_violation(gj, v);
            vsum += viol;
            if (viol > vmax) vmax = viol;
            /* the kink's step is exactly -w_j: w_j + d_j is then exactly 0 */
            const double z = l1_step(gj, ws->H[j], v), nd = z == -v ? -w[j] : dir[j] + z, dz = nd - dir[j];
            if (dz != 0) {
                dq += gj * dz + 0.5 * ws->H[j] * dz * dz + fabs(w[j] + nd) - fabs(v);
                changed += (v == 0) != (w[j] + nd == 0);
                dir[j] = nd;
                col_axpy(&ws->cols, j, dz, hx);
            }
        }
        if (ws->bias) {
            double s = gb;
            for (int64_t i = 0; i < ws->n; i++) s += hx[2 * i] * hx[2 * i + 1];
            const double z = -s / hb;
            vsum += fabs(s);
            dq += s * z + 0.5 * hb * z * z;
            dir[ws->d] += z;
            for (int64_t i = 0; i < ws->n; i++) hx[2 * i + 1] += z;
        }
        /* a cycle that moved no weight to or from 0 has found the face;
         * without the Gram finish (sparse data) one that moved few is close
         * enough for the projected CG step, as long as CG's last call
         * lowered the model at least as fast as this cycle did (per step:
         * a CG step costs about a cycle) */
        const int64_t few = can_gram ? 0 : ni / NV_CD_CG_MOVED;
        if (vsum > tol && cycle >= 2 && changed <= few && ws->cg_rate <= dq) {
            double dqc = 0;
            const int64_t k = face_cg(ws, w, ni, gb, hb, &dqc);
            steps += k;
            ws->cg_rate = dqc / (double)(k + 1);
        }
        if (vsum <= tol) {
            if (ni == na) break;
            /* the sat-out coordinates are checked once more */
            ni = na;
            memcpy(ws->inner, ws->act, (size_t)na * sizeof(int32_t));
            mprev = INFINITY;
        } else {
            mprev = vmax;
        }
    }
    return cycle + steps;
}

nesvm_status nv_nesvm_cd_train(const nv_binary_problem *pb, const nesvm_params *prm,
                               const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int32_t d = pb->X->d;
    const int64_t n = pb->n;
    const int bias = nv_params_bias(prm);
    if (!nv_nesvm_cd_takes(pb, prm)) {
        res->exit_reason = NESVM_EXIT_NUMERIC;
        return nv_error(err, NESVM_ERR_ARG,
                        "--method cd solves the L1 norm's linear problem with a differentiable loss (the squared "
                        "hinge, the logistic, a squared loss) on one process: not the hinge, not the L2 norm, not "
                        "over MPI, not a fixed smoothing (--mu, --mu-star, --continuation paper); use --method "
                        "newton");
    }
    nv_obj obj;
    const nv_loss inst = nv_params_loss_inst(prm);
    nesvm_status st = nv_obj_init(&obj, pb, &inst, 1, bias, prm->threads, err);
    if (st != NESVM_OK) {
        res->exit_reason = st == NESVM_ERR_NOMEM ? NESVM_EXIT_NO_MEMORY : NESVM_EXIT_NUMERIC;
        return st;
    }
    cd_ws ws;
    memset(&ws, 0, sizeof ws);
    ws.obj = &obj;
    ws.d = d;
    ws.n = n;
    ws.bias = bias;
    ws.rng = prm->seed ^ UINT64_C(0xCD);
    ws.cg_rate = -INFINITY;
    double *w = NULL, *wbest = NULL;
    const size_t nn = (size_t)(n ? n : 1), dd = (size_t)d + 1;
    st = cols_build(pb, &ws.cols, err);
    if (st == NESVM_OK) {
        ws.g = nv_malloc_array(nn, sizeof(double));
        ws.hx = nv_malloc_array(2 * nn, sizeof(double));
        ws.lv = nv_malloc_array(nn, sizeof(double));
        ws.G = nv_malloc_array(dd, sizeof(double));
        ws.H = nv_malloc_array(dd, sizeof(double));
        ws.dir = nv_calloc(dd, sizeof(double));
        ws.act = nv_malloc_array(dd, sizeof(int32_t));
        ws.inner = nv_malloc_array(dd, sizeof(int32_t));
        w = nv_malloc_array(dd, sizeof(double));
        wbest = nv_malloc_array(dd, sizeof(double));
        if (!ws.g || !ws.hx || !ws.lv || !ws.G || !ws.H || !ws.dir || !ws.act || !ws.inner || !w || !wbest)
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for coordinate descent's work arrays (n=%lld, d=%d)",
                          (long long)n, d);
    }
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    nv_track tr;
    double b = nv_track_start(&tr, pb, prm, sink, w, wbest, t0);
    nv_track_new_stage(&tr);
    nv_obj_margins(&obj, w, b);
    double inner_eps = 1.0, mprev = INFINITY, step = NAN;
    int64_t cycles = 0, since_refresh = 0;
    int flat = 0; /* full steps in a row taken within P's rounding */
    int32_t na = d;
    nv_obj_eval e;
    while (1) {
        nv_obj_evaluate_at(&obj, w, 0.0, 0.0, &e);
        nv_track_info info = {0.0, NAN, step, cycles, 1, na, 0, 0, NAN, NAN};
        if (nv_track_iterate(&tr, &e, w, b, &info, &st, err)) break;
        /* 2. the loss's terms, G and H, the violations */
        const double lossv = sample_terms(&ws);
        ws.ncurved = 0;
        for (int64_t i = 0; i < n; i++) ws.ncurved += ws.hx[2 * i] > 0;
        double vsum = 0, vmax = 0, l1 = 0;
        na = 0;
        for (int32_t j = 0; j < d; j++) {
            ws.G[j] = col_dot(&ws.cols, j, ws.g, ws.hx, &ws.H[j]);
            ws.H[j] += NV_CD_HFLOOR;
            l1 += fabs(w[j]);
            const double viol = l1_violation(ws.G[j], w[j]);
            vsum += viol;
            if (viol > vmax) vmax = viol;
            /* 3. shrinking */
            if (w[j] != 0 || fabs(ws.G[j]) >= 1.0 - mprev / (double)n) ws.act[na++] = j;
        }
        double gb = 0;
        if (bias) {
            for (int64_t i = 0; i < n; i++) gb += ws.g[i];
            vsum += fabs(gb);
        }
        mprev = vmax;
        /* 4. the model */
        const int64_t c = solve_model(&ws, w, na, gb, inner_eps * vsum, NV_CD_GRAM_ETA * vsum);
        cycles = c;
        if (c == 1) inner_eps *= 0.25;
        /* 5. Armijo along the direction; the changes of P are summed term by
         * term (a sample whose margin the direction leaves alone adds an exact
         * 0), not as the difference of two sums of P's size */
        double delta = bias ? gb * ws.dir[d] : 0.0;
        for (int32_t a = 0; a < na; a++) {
            const int32_t j = ws.act[a];
            delta += ws.G[j] * ws.dir[j] + (fabs(w[j] + ws.dir[j]) - fabs(w[j]));
        }
        const double P0 = l1 + lossv;
        double t = 1.0;
        int ok = 0;
        for (int k = 0; k < NV_CD_BACKTRACKS && delta < 0; k++, t *= 0.5) {
            if (change_along(&ws, w, na, t) <= NV_CD_SIGMA * t * delta) {
                ok = 1;
                break;
            }
        }
        /* At the last digits of P its change is below rounding (and so is
         * delta, whose sign is then noise) while the weights still move: the
         * dual bound lags, its L1 scaling following the largest violation, of
         * the order of sqrt(P - P*).  A full step that leaves P within
         * rounding is taken, NV_CD_FLAT times in a row at most. */
        if (!ok && flat < NV_CD_FLAT && change_along(&ws, w, na, 1.0) <= 1e-13 * fabs(P0)) {
            ok = 1;
            t = 1.0;
            flat++;
        } else if (ok) {
            flat = 0;
        }
        if (!ok) { /* no decrease left at this precision */
            tr.why = NESVM_EXIT_STALLED;
            break;
        }
        step = t;
        for (int32_t a = 0; a < na; a++) {
            const int32_t j = ws.act[a];
            w[j] += t * ws.dir[j]; /* a full step to the kink gives exactly 0 (d_j = -w_j) */
        }
        if (bias) b += t * ws.dir[d];
        if (++since_refresh >= NV_CD_REFRESH) {
            nv_obj_margins(&obj, w, b);
            since_refresh = 0;
        } else {
            for (int64_t i = 0; i < n; i++) obj.m[i] += t * ws.hx[2 * i + 1];
        }
    }
    nv_track_result(&tr, res);
out:
    res->seconds = nv_now() - t0;
    cols_free(&ws.cols);
    nv_free(ws.g);
    nv_free(ws.hx);
    nv_free(ws.lv);
    nv_free(ws.G);
    nv_free(ws.H);
    nv_free(ws.dir);
    nv_free(ws.act);
    nv_free(ws.inner);
    nv_free(ws.M);
    nv_free(ws.blk);
    nv_free(ws.q);
    nv_free(ws.pos);
    nv_free(ws.face);
    nv_free(ws.cr);
    nv_free(ws.cz);
    nv_free(ws.cp);
    nv_free(ws.cq);
    nv_free(ws.cdel);
    nv_free(ws.cu);
    nv_free(ws.cxd);
    nv_free(w);
    nv_free(wbest);
    nv_obj_free(&obj);
    return st;
}
