/*
 * pdas.c - the exact hinge's finish by a primal-dual active set (newton.c's
 * stage ends): the C-SVM's KKT system solved exactly on a guessed
 * partition of the samples, the guess refined from the solution, as in
 * Hintermueller, Ito and Kunisch's method for box-constrained QPs.
 *
 * The hinge's optimum (w, b, alpha) splits the samples in three:
 *   R  r_i < 0 (beyond the margin):        alpha_i = 0
 *   L  r_i > 0 (inside it or misclassified): alpha_i = c_i
 *   E  r_i = 0 (on the margin):            0 <= alpha_i <= c_i
 * with r_i = 1 - y_i (x_i.w + b), w = sum_i alpha_i y_i x_i and, with a free
 * bias, sum_i alpha_i y_i = 0.  Given the partition, the unknowns are
 * beta = alpha_E y_E and b, and the equations are the margins of E:
 *     G beta + b 1 = y_E - X_E w_L,   1' beta = -sum_L c_i y_i,
 * G = X_E X_E' (|E| x |E|, Cholesky), w_L = sum_L c_i y_i x_i; without a
 * bias b = 0 and the second equation goes.  The next partition puts sample
 * i by z_i = alpha_i / c_i + r_i: R when z_i <= 0, L when z_i >= 1, else E.
 * A partition that repeats is the optimum's: the certificate then closes.
 *
 * Started from the smoothed problem's solution at a stage end (its zone
 * guesses E, samples past it L, the rest R), a handful of iterations reach
 * the exact optimum where Newton's steps on ever smaller mu stop at every
 * kink (2,000 rows of Fashion-MNIST T-shirt vs Shirt, C = 1 to 1000: 1 to
 * 4 iterations).  From a poor start the partition oscillates: each
 * iterate goes to the tracker (a valid certificate: alpha clipped to its
 * box, balanced with a bias), and the finish gives up, leaving Newton to go
 * on, when the certified gap has not shrunk over NV_NESVM_PDAS_PATIENCE
 * iterations, when E outgrows the features (G singular) or its matrices
 * the memory of Newton's exact step.
 */
#include "nesvm_solver.h"
#include "../track.h"
#include "tuning.h"
#include "../../linalg/chol.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

typedef struct pdas {
    nv_obj *o;
    int64_t n, ne;
    int32_t d;
    double *alpha, *wl, *beta, *A, *G, *ones;
    int64_t *E;
    signed char *part;
} pdas;

/* Cholesky of G in place (col-major lower = row-major upper); 0 if it fails. */
static int factor(double *G, int64_t m)
{
    return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)m, G, (lapack_int)m) == 0;
}

static void solve(const double *G, int64_t m, double *x)
{
    cblas_dtrsv(CblasRowMajor, CblasUpper, CblasTrans, CblasNonUnit, (int)m, G, (int)m, x, 1);
    cblas_dtrsv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, (int)m, G, (int)m, x, 1);
}

/* The partition from alpha and the margins in o->m; returns how many
 * samples changed side. */
static int64_t partition(pdas *s, double b)
{
    const nv_binary_problem *pb = s->o->pb;
    int64_t changed = 0;
    s->ne = 0;
    for (int64_t i = 0; i < s->n; i++) {
        double c = pb->cost[i], r = 1.0 - pb->y[i] * (s->o->m[i] + b);
        double z = s->alpha[i] / c + r;
        signed char p = z <= 0 ? 0 : (z >= 1 ? 2 : 1);
        changed += p != s->part[i];
        s->part[i] = p;
        if (p == 1) s->E[s->ne++] = i;
    }
    return changed;
}

/* Solve the KKT system of the partition: alpha, and b with a bias; 0 when
 * G is not positive definite. */
static int kkt(pdas *s, int bias, double *b)
{
    nv_obj *o = s->o;
    const nv_binary_problem *pb = o->pb;
    const int32_t d = s->d;
    const int64_t ne = s->ne;
    double sl = 0; /* sum_L c_i y_i */
    for (int64_t i = 0; i < s->n; i++) {
        o->a[i] = s->part[i] == 2 ? pb->cost[i] : 0.0;
        sl += o->a[i] * pb->y[i];
    }
    nv_xta(pb->X, pb->rows, s->n, o->a, pb->y, o->vp, o->vn, &o->lw);
    for (int32_t j = 0; j < d; j++) s->wl[j] = o->vp[j] - o->vn[j];
    for (int64_t k = 0; k < ne; k++) {
        const int64_t i = s->E[k], r = pb->rows ? pb->rows[i] : i;
        double *a = s->A + k * d;
        memset(a, 0, (size_t)d * sizeof *a);
        nv_row_axpy(pb->X, r, 1.0, a);
        s->beta[k] = pb->y[i] - nv_dot(a, s->wl, d);
        s->ones[k] = 1.0;
    }
    *b = 0;
    if (ne > 0) {
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)ne, d, 1.0, s->A, d, 0.0, s->G, (int)ne);
        double tr = 0;
        for (int64_t k = 0; k < ne; k++) tr += s->G[k * ne + k];
        /* a ridge at rounding's scale: E's rows may be dependent */
        for (int64_t k = 0; k < ne; k++) s->G[k * ne + k] += NV_NESVM_PDAS_RIDGE * tr / (double)ne;
        if (!factor(s->G, ne)) return 0;
        solve(s->G, ne, s->beta);
        if (bias) {
            /* b = (1' G^-1 rhs + sum_L c y) / (1' G^-1 1), then beta -= b G^-1 1 */
            solve(s->G, ne, s->ones);
            double u = 0, v = 0;
            for (int64_t k = 0; k < ne; k++) {
                u += s->beta[k];
                v += s->ones[k];
            }
            if (!(v > 0)) return 0;
            *b = (u + sl) / v;
            for (int64_t k = 0; k < ne; k++) s->beta[k] -= *b * s->ones[k];
        }
    } else if (bias && sl != 0) {
        return 0; /* no free sample to balance sum alpha y */
    }
    for (int64_t i = 0; i < s->n; i++) s->alpha[i] = s->part[i] == 2 ? pb->cost[i] : 0.0;
    for (int64_t k = 0; k < ne; k++) s->alpha[s->E[k]] = s->beta[k] * pb->y[s->E[k]];
    return 1;
}

int nv_nesvm_pdas_takes(const nv_obj *o)
{
    const nv_loss *l = o->loss;
    return !o->l1 && !o->real && !nv_comm_many(o->pb->comm) && l->smoothed && l->lo == 0 && l->hi == 1 &&
           l->conj_q == 0 && l->conj_e == 0;
}

int nv_nesvm_pdas(nv_obj *o, nv_track *tr, double room, double *w, double *b, nesvm_status *st, nesvm_error *err)
{
    const nv_binary_problem *pb = o->pb;
    const int64_t n = pb->n;
    const int32_t d = pb->X->d;
    const int bias = o->bias;
    pdas s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.n = n;
    s.d = d;
    const size_t nn = (size_t)(n ? n : 1);
    s.alpha = nv_malloc_array(nn, sizeof(double));
    s.beta = nv_malloc_array(nn, sizeof(double));
    s.ones = nv_malloc_array(nn, sizeof(double));
    s.E = nv_malloc_array(nn, sizeof(int64_t));
    s.part = nv_calloc(nn, 1);
    s.wl = nv_malloc_array((size_t)d + 1, sizeof(double));
    int stop = 0;
    if (!s.alpha || !s.beta || !s.ones || !s.E || !s.part || !s.wl) goto out; /* Newton goes on */
    /* the start: the smoothed alpha, the margins of (w, b) in o->m */
    memcpy(s.alpha, o->a, nn * sizeof(double));
    double bb = bias ? *b : 0.0, best = INFINITY;
    int64_t cap = 0, stale = 0;
    for (int it = 0; it < NV_NESVM_PDAS_MAX; it++) {
        /* o->m holds x_i.w without the bias after an evaluation here */
        int64_t changed = partition(&s, it == 0 ? 0.0 : bb);
        if (s.ne > d || ((double)s.ne * (double)d + (double)s.ne * (double)s.ne) * 8.0 > room) break;
        if (s.ne * (int64_t)d > cap) {
            cap = s.ne * (int64_t)d;
            nv_free(s.A);
            nv_free(s.G);
            s.A = nv_malloc_array((size_t)(cap ? cap : 1), sizeof(double));
            s.G = nv_malloc_array((size_t)(s.ne ? s.ne * s.ne : 1), sizeof(double));
            if (!s.A || !s.G) break;
        } else if (s.ne * s.ne > cap) {
            nv_free(s.G);
            s.G = nv_malloc_array((size_t)(s.ne * s.ne), sizeof(double));
            if (!s.G) break;
        }
        if (!kkt(&s, bias, &bb)) break;
        /* the certificate of alpha clipped to its box; w = X^T(alpha y) */
        for (int64_t i = 0; i < n; i++) {
            double c = pb->cost[i];
            o->a[i] = s.alpha[i] < 0 ? 0 : (s.alpha[i] > c ? c : s.alpha[i]);
        }
        nv_obj_eval e;
        nv_obj_evaluate_dual(o, w, bb, &e);
        nv_track_info info = {0.0, NAN, NAN, changed, 1, s.ne, 0, 0, NAN, NAN};
        if (nv_track_iterate(tr, &e, w, bb, &info, st, err)) {
            stop = 1;
            break;
        }
        /* the next partition reads the margins of the unclipped alpha's w */
        for (int64_t i = 0; i < n; i++) o->a[i] = s.alpha[i];
        nv_xta(pb->X, pb->rows, n, o->a, pb->y, o->vp, o->vn, &o->lw);
        for (int32_t j = 0; j < d; j++) s.wl[j] = o->vp[j] - o->vn[j];
        nv_obj_margins(o, s.wl, 0.0);
        double gap = tr->best_p - tr->best_d;
        stale = gap < best ? 0 : stale + 1;
        if (gap < best) best = gap;
        if (stale >= NV_NESVM_PDAS_PATIENCE) break;
    }
out:
    nv_free(s.alpha);
    nv_free(s.beta);
    nv_free(s.ones);
    nv_free(s.E);
    nv_free(s.part);
    nv_free(s.wl);
    nv_free(s.A);
    nv_free(s.G);
    return stop;
}
