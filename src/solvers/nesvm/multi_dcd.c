/*
 * multi_dcd.c - Crammer and Singer's multiclass SVM by coordinate ascent on
 * its dual, one row's block of k coefficients at a time (the sequential dual
 * method of Keerthi, Sundararajan, Chang, Hsieh and Lin 2008, derived here
 * from the dual of multi.h), with shrinking; stopped by the same certificate
 * as the Newton method (multi.c).  Method "dcd", and "auto"'s choice on one
 * process (the smoothing options --mu, --mu-star and --continuation paper
 * ask for the smoothed problem: Newton).
 *
 * The dual (multi.h, a = 1, rho = 0): over alpha_i in
 *     A_i = { a in R^k : sum_m a_m = 0, a_m <= C_i delta_{m,y_i} }
 * maximize
 *     D(alpha) = sum_i alpha_{i,y_i} - 1/2 sum_m ||w_m||^2,   w_m = sum_i alpha_im x~_i,
 * x~_i = x_i, or (x_i, B) with LIBLINEAR's bias feature B (its weight u_m,
 * b_m = B u_m).  With the other rows fixed, row i's block is
 *     min_a 1/2 A_i ||a||^2 + sum_m B_m a_m  over A_i,
 *     A_i = ||x~_i||^2,  B_m = w_m.x~_i - A_i alpha_im + e_im,  e_im = 1 - delta_{m,y_i}
 * (sum_m a_m e_im = -a_{y_i} with sum a = 0), whose KKT conditions give
 * a_m = min(C_i delta_{m,y_i}, (beta - B_m) / A_i) with beta such that
 * sum_m a_m = 0: with D_m = B_m + A_i C_i delta_{m,y_i} sorted down,
 * beta = (D_(1) + .. + D_(r) - A_i C_i) / r for the first r with beta >=
 * D_(r+1) (sum_m min(D_m, beta) = sum_m B_m is increasing in beta).  A row
 * with x~_i = 0 has a linear block: a_{y_i} = C_i, one other class -C_i.
 * w moves by (a - alpha_i)_m x~_i for the classes that changed.
 *
 * Optimality of a block: the gradient g_m = w_m.x~_i + e_im is the same
 * beta for every m below its bound and at most beta for those at it; the
 * violation is max_m g_m - min_{m below the bound} g_m.  Shrinking: a row
 * with alpha_i = 0 whose margin holds by more than the last epoch's largest
 * violation (g_{y_i} - max_{m != y_i} g_m > that) leaves the active set;
 * within a row, a class m != y_i at alpha_im = 0 whose gradient lies below
 * the level of the row's free coefficients by more than that stays out of
 * the row's steps (its gradient is not computed, its coefficient stays 0;
 * a row left with y_i alone leaves too); when the active rows are solved
 * to the tolerance every row and class returns and the tolerance shrinks
 * tenfold (dcd.c's rule).
 *
 * The certificate: after about n block steps times check_spacing's
 * epochs (2 near eps, more while the gap is far from it) the margins of W (one pass
 * over X for k columns, linalg.h's nv_xw_k), the primal P(W, b) and
 * D(alpha) go to the tracker, which stops at the certified gap; every
 * NV_MULTI_DCD_EXACT_EVERY checks (and the first) W = X~^T alpha is first
 * recomputed exactly (nv_xta_k), clearing the steps' rounding.  A warm start's dual point is the
 * smoothed max's argmax distribution at the start's margins with mu =
 * NV_NESVM_DCD_WARM_MU.  One process, one thread for the steps.
 */
#include "nesvm_solver.h"
#include "multi.h"
#include "tuning.h"
#include "../track.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every this many checks W = X~^T alpha is recomputed (the others take the
 * steps' W). */
#define NV_MULTI_DCD_EXACT_EVERY 10
/* Checks every SPACING epochs near eps, up to SPACING_MAX far from it
 * (check_spacing). */
#define NV_MULTI_DCD_SPACING 2.0
#define NV_MULTI_DCD_SPACING_MAX 5.0

typedef struct mdcd {
    const nv_multi_problem *mp;
    int k;
    int32_t d, dd; /* features, and rows of Wt (d + 1 with the bias feature) */
    int64_t n;
    double B;           /* the bias feature's value, or 0 */
    double *alpha;      /* n x k */
    double *Wt;         /* dd x k: w_m's entry j at Wt[j k + m] */
    double *An;         /* n: A_i */
    double *g, *Dv, *a; /* k scratch: the gradient, the sorted D, the new block */
    int *ch;            /* k scratch: the classes a step changed */
    int *act;           /* n x k: each row's active classes, y first */
    int *nact;          /* n: how many */
    double *M;          /* n x k margins (the checks) */
    double *theta;      /* k (d + 1): the tracked point */
    int64_t *idx;
    nv_linalg_ws lw;
    double *part;
    uint64_t rng;
} mdcd;

static int cmp_desc(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

/* g_c = w_{cl[c]}.x~_i + e_{i,cl[c]} for row i's na active classes cl
 * (one pass over the row). */
static void block_grad(mdcd *s, int64_t i, const int *cl, int na)
{
    const nesvm_dataset *X = s->mp->X;
    const int k = s->k, y = s->mp->cls[i];
    const int64_t r = s->mp->rows ? s->mp->rows[i] : i;
    for (int c = 0; c < na; c++) s->g[c] = cl[c] != y ? 1.0 : 0.0;
    if (s->B > 0) {
        const double *wb = s->Wt + (size_t)s->d * (size_t)k;
        for (int c = 0; c < na; c++) s->g[c] += s->B * wb[cl[c]];
    }
    if (X->storage == NESVM_STORAGE_DENSE) {
        const int64_t base = r * (int64_t)X->d;
        for (int32_t j = 0; j < X->d; j++) {
            const double v = nv_val(X, base + j);
            if (v == 0) continue;
            const double *wj = s->Wt + (size_t)j * (size_t)k;
            for (int c = 0; c < na; c++) s->g[c] += v * wj[cl[c]];
        }
    } else {
        for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++) {
            const double v = nv_val(X, p);
            const double *wj = s->Wt + (size_t)nv_idx(X, p) * (size_t)k;
            for (int c = 0; c < na; c++) s->g[c] += v * wj[cl[c]];
        }
    }
}

/* W += dl_c x~_i for the nch classes ch whose coefficient changed. */
static void block_update(mdcd *s, int64_t i, const int *ch, const double *dl, int nch)
{
    const nesvm_dataset *X = s->mp->X;
    const int k = s->k;
    const int64_t r = s->mp->rows ? s->mp->rows[i] : i;
    if (nch == 0) return;
    if (s->B > 0) {
        double *wb = s->Wt + (size_t)s->d * (size_t)k;
        for (int c = 0; c < nch; c++) wb[ch[c]] += s->B * dl[c];
    }
    if (X->storage == NESVM_STORAGE_DENSE) {
        const int64_t base = r * (int64_t)X->d;
        for (int32_t j = 0; j < X->d; j++) {
            const double v = nv_val(X, base + j);
            if (v == 0) continue;
            double *wj = s->Wt + (size_t)j * (size_t)k;
            for (int c = 0; c < nch; c++) wj[ch[c]] += v * dl[c];
        }
    } else {
        for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++) {
            const double v = nv_val(X, p);
            double *wj = s->Wt + (size_t)nv_idx(X, p) * (size_t)k;
            for (int c = 0; c < nch; c++) wj[ch[c]] += v * dl[c];
        }
    }
}

/* One block step on row i over its active classes (s->act: y first, then
 * the others not shrunk; a shrunk class keeps alpha_im = 0): its violation
 * into *viol; classes at 0 whose gradient lies below the free ones' by more
 * than m_old leave the row's active set; returns 1 when the row leaves the
 * active set (alpha_i = 0 past the margin by more than m_old, or no class
 * but y left). */
static int block_step(mdcd *s, int64_t i, double m_old, double *viol)
{
    const int k = s->k, y = s->mp->cls[i];
    const double C = s->mp->cost[i], A = s->An[i];
    double *al = s->alpha + (size_t)i * (size_t)k;
    int *cl = s->act + (size_t)i * (size_t)k;
    int na = s->nact[i];
    NV_ASSERT(na >= 1 && cl[0] == y);
    block_grad(s, i, cl, na);
    /* the violation: max g - min over the coefficients below their bound */
    double gmax = -INFINITY, gmin = INFINITY, gother = -INFINITY;
    int zero = 1;
    for (int c = 0; c < na; c++) {
        const int m = cl[c];
        const double g = s->g[c];
        if (g > gmax) gmax = g;
        if (al[m] < (m == y ? C : 0.0) && g < gmin) gmin = g;
        if (m != y && g > gother) gother = g;
        zero &= al[m] == 0;
    }
    *viol = gmax - gmin;
    if (zero) {
        /* alpha_i = 0 is optimal where g_y >= every other g (the margin) */
        const double v = na > 1 ? gother - s->g[0] : -INFINITY;
        *viol = v > 0 ? v : 0.0;
        if (v < -m_old) return 1;
    } else if (isfinite(m_old)) {
        /* a class at 0 far below the free ones' level stays there */
        for (int c = 1; c < na; c++)
            if (al[cl[c]] == 0 && s->g[c] < gmin - m_old) {
                na--;
                int t = cl[c];
                cl[c] = cl[na];
                cl[na] = t;
                double tg = s->g[c];
                s->g[c] = s->g[na];
                s->g[na] = tg;
                c--;
            }
        s->nact[i] = na;
    }
    if (!(*viol > 0)) return 0;
    if (!(A > 0)) {
        /* x~_i = 0: a linear block, a_y = C and one other active class -C */
        for (int c = 0; c < na; c++) s->a[c] = c == 0 ? C : c == 1 ? -C : 0.0;
    } else {
        /* B_m = g_m - A alpha_m; D_m = B_m + A C delta_m, sorted down */
        for (int c = 0; c < na; c++) s->Dv[c] = s->g[c] - A * al[cl[c]] + (c == 0 ? A * C : 0.0);
        double *Ds = s->a; /* the sorted copy, then the block */
        memcpy(Ds, s->Dv, (size_t)na * sizeof(double));
        qsort(Ds, (size_t)na, sizeof(double), cmp_desc);
        double sum = 0, beta = 0;
        for (int r = 1; r <= na; r++) {
            sum += Ds[r - 1];
            beta = (sum - A * C) / r;
            if (r == na || beta >= Ds[r]) break;
        }
        for (int c = 0; c < na; c++) {
            const double Bm = s->Dv[c] - (c == 0 ? A * C : 0.0), cap = c == 0 ? C : 0.0;
            const double v = (beta - Bm) / A;
            s->a[c] = v < cap ? v : cap;
        }
    }
    /* the row's coefficients sum to 0: the y entry as the others' negated sum */
    double sy = 0;
    for (int c = 1; c < na; c++) sy -= s->a[c];
    s->a[0] = sy;
    int nch = 0;
    for (int c = 0; c < na; c++) {
        const double dl = s->a[c] - al[cl[c]];
        if (dl == 0) continue;
        al[cl[c]] = s->a[c];
        s->ch[nch] = cl[c];
        s->Dv[nch++] = dl;
    }
    block_update(s, i, s->ch, s->Dv, nch);
    return 0;
}

/* Every row's classes active again (y first). */
static void unshrink_classes(mdcd *s)
{
    const int k = s->k;
    for (int64_t i = 0; i < s->n; i++) {
        if (s->nact[i] == k) continue;
        int *cl = s->act + (size_t)i * (size_t)k;
        const int y = s->mp->cls[i];
        cl[0] = y;
        for (int m = 0, c = 1; m < k; m++)
            if (m != y) cl[c++] = m;
        s->nact[i] = k;
    }
}

/* A check: the margins of W, P(W, b) and D(alpha) to the tracker; 1 when
 * training stops.  exact: W = X~^T alpha recomputed first (the steps'
 * updates carry their rounding; D's error from it is of that rounding's
 * order, far below the certificate's slack, so most checks take the steps'
 * W: one pass over X instead of two). */
static int mdcd_check(mdcd *s, nv_track *tr, int64_t epochs, int64_t active, int exact, nesvm_status *st,
                      nesvm_error *err)
{
    const nv_multi_problem *mp = s->mp;
    const int k = s->k;
    const int32_t d = s->d;
    const int64_t n = s->n, kd = (int64_t)k * d;
    if (exact) {
        nv_xta_k(mp->X, mp->rows, n, s->alpha, k, 0, s->Wt, s->part, &s->lw);
        if (s->B > 0) {
            double *wb = s->Wt + (size_t)d * (size_t)k;
            for (int m = 0; m < k; m++) wb[m] = 0;
            for (int64_t i = 0; i < n; i++)
                for (int m = 0; m < k; m++) wb[m] += s->B * s->alpha[(size_t)i * (size_t)k + (size_t)m];
        }
    }
    double *b = s->theta + kd;
    for (int m = 0; m < k; m++) b[m] = s->B > 0 ? s->B * s->Wt[(size_t)d * (size_t)k + (size_t)m] : 0.0;
    for (int m = 0; m < k; m++)
        for (int32_t j = 0; j < d; j++)
            s->theta[(size_t)m * (size_t)d + (size_t)j] = s->Wt[(size_t)j * (size_t)k + (size_t)m];
    nv_xw_k(mp->X, mp->rows, n, s->Wt, k, s->B > 0 ? b : NULL, s->M, &s->lw);
    double ww = 0, loss = 0, ay = 0;
    int64_t nsv = 0;
    for (int64_t j = 0; j < (int64_t)s->dd * k; j++) ww += s->Wt[j] * s->Wt[j];
    for (int64_t i = 0; i < n; i++) {
        const int y = mp->cls[i];
        const double *f = s->M + (size_t)i * (size_t)k, *al = s->alpha + (size_t)i * (size_t)k;
        double zmax = 0; /* z_y = 0 */
        int any = 0;
        for (int m = 0; m < k; m++) {
            if (m != y && 1.0 + f[m] - f[y] > zmax) zmax = 1.0 + f[m] - f[y];
            any |= al[m] != 0;
        }
        loss += mp->cost[i] * zmax;
        ay += al[y];
        nsv += any;
    }
    nv_obj_eval e;
    memset(&e, 0, sizeof e);
    e.P = e.Fmu = 0.5 * ww + loss;
    e.D = e.Dmu = ay - 0.5 * ww;
    e.nsv = nsv;
    e.theta = 1;
    nv_track_info info = {0.0, NAN, NAN, epochs, 1, active, 0, 0, NAN, NAN};
    return nv_track_iterate(tr, &e, s->theta, 0.0, &info, st, err);
}

/* Epochs' worth of block steps between checks.  A check costs more than an
 * epoch (the margins of k columns over every row; Fashion-MNIST's ten
 * classes at C = 0.1: 0.28 s a check, 0.17 s an epoch, and one check every
 * two epochs took 60 s of 145), so checks come every NV_MULTI_DCD_SPACING
 * epochs near eps (a certificate found at most that many epochs late) and
 * one more for each decade of the certified gap above 10 eps, at most
 * NV_MULTI_DCD_SPACING_MAX.  Counted in work, not time: the same steps on
 * every machine. */
static double check_spacing(const nv_track *tr, double eps)
{
    if (!(tr->best_p > 0) || !isfinite(tr->best_d)) return 1.0;
    const double gap = (tr->best_p - tr->best_d) / tr->best_p;
    double s = NV_MULTI_DCD_SPACING;
    if (gap > 10.0 * eps) s += floor(log10(gap / (10.0 * eps)));
    return s < NV_MULTI_DCD_SPACING_MAX ? s : NV_MULTI_DCD_SPACING_MAX;
}

int nv_nesvm_multi_dcd_takes(const nv_multi_problem *mp, const nesvm_params *prm)
{
    return mp->kind == NV_MULTI_CS && mp->bias != NV_MULTI_BIAS_FREE && !nv_comm_many(mp->comm) &&
           prm->mu == 0 && prm->mu_star == 0 && prm->continuation == NV_CONT_ADAPTIVE;
}

nesvm_status nv_nesvm_multi_dcd_train(const nv_multi_problem *mp, const nesvm_params *prm,
                                      const nv_progress_sink *sink, nv_multi_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int k = mp->k;
    const int32_t d = mp->X->d;
    const int64_t n = mp->n, kd = (int64_t)k * d, len = (int64_t)k * ((int64_t)d + 1);
    res->exit_reason = NESVM_EXIT_NUMERIC;
    res->primal = res->lower_bound = res->gap = res->mu = NAN;
    if (!nv_nesvm_multi_dcd_takes(mp, prm))
        return nv_error(
            err, NESVM_ERR_ARG,
            "--method dcd solves Crammer and Singer's problem (--multiclass cs) on one process, "
            "unsmoothed: not the multinomial one, not over MPI, not a fixed smoothing (--mu, --mu-star, "
            "--continuation paper); use --method newton");
    mdcd s;
    memset(&s, 0, sizeof s);
    s.mp = mp;
    s.k = k;
    s.d = d;
    s.n = n;
    s.B = mp->bias == NV_MULTI_BIAS_REG ? mp->B : 0.0;
    s.dd = d + (s.B > 0);
    s.rng = prm->seed ^ UINT64_C(0xC5DCD);
    const size_t nk = (size_t)(n ? n : 1) * (size_t)k;
    nesvm_status st = nv_linalg_ws_init(&s.lw, prm->threads, d, err);
    double *best = NULL;
    if (st == NESVM_OK) {
        s.alpha = nv_calloc(nk, sizeof(double));
        s.Wt = nv_calloc((size_t)s.dd * (size_t)k, sizeof(double));
        s.An = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
        s.g = nv_malloc_array((size_t)k, sizeof(double));
        s.Dv = nv_malloc_array((size_t)k, sizeof(double));
        s.a = nv_malloc_array((size_t)k, sizeof(double));
        s.ch = nv_malloc_array((size_t)k, sizeof(int));
        s.act = nv_malloc_array(nk, sizeof(int));
        s.nact = nv_malloc_array((size_t)(n ? n : 1), sizeof(int));
        s.M = nv_malloc_array(nk, sizeof(double));
        s.theta = nv_calloc((size_t)len, sizeof(double));
        s.idx = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
        best = nv_malloc_array((size_t)len, sizeof(double));
        if (s.lw.threads > 1 && (double)s.lw.threads * (double)kd * 8.0 <= NV_MOBJ_PART_MEM)
            s.part = nv_malloc_array((size_t)s.lw.threads * (size_t)kd, sizeof(double));
        if (!s.alpha || !s.Wt || !s.An || !s.g || !s.Dv || !s.a || !s.ch || !s.act || !s.nact || !s.M ||
            !s.theta || !s.idx || !best)
            st = nv_error(err, NESVM_ERR_NOMEM,
                          "out of memory for the joint problem's dual method (%d classes, n=%lld, d=%d)", k,
                          (long long)n, d);
    }
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    nv_row_norms(mp->X, mp->rows, n, NULL, s.An);
    for (int64_t i = 0; i < n; i++) {
        s.An[i] += s.B * s.B;
        s.idx[i] = i;
        s.nact[i] = 0;
    }
    unshrink_classes(&s);
    /* a warm start: the smoothed max's argmax distribution at the start's margins */
    if (mp->w0) {
        for (int m = 0; m < k; m++)
            for (int32_t j = 0; j < d; j++)
                s.Wt[(size_t)j * (size_t)k + (size_t)m] = mp->w0[(size_t)m * (size_t)d + (size_t)j];
        double *b0 = s.g;
        for (int m = 0; m < k; m++) b0[m] = s.B > 0 && mp->b0 ? mp->b0[m] : 0.0;
        nv_xw_k(mp->X, mp->rows, n, s.Wt, k, b0, s.M, &s.lw);
        const double mu = NV_NESVM_DCD_WARM_MU;
        for (int64_t i = 0; i < n; i++) {
            const int y = mp->cls[i];
            const double *f = s.M + (size_t)i * (size_t)k;
            double *al = s.alpha + (size_t)i * (size_t)k, zmax = -INFINITY, se = 0;
            for (int m = 0; m < k; m++) {
                const double z = (m != y) + f[m] - f[y];
                if (z > zmax) zmax = z;
            }
            for (int m = 0; m < k; m++) {
                al[m] = exp(((m != y) + f[m] - f[y] - zmax) / mu);
                se += al[m];
            }
            /* alpha = C (delta - p), the y entry as the others' negated sum */
            double sy = 0;
            for (int m = 0; m < k; m++)
                if (m != y) {
                    al[m] = -mp->cost[i] * al[m] / se;
                    sy -= al[m];
                }
            al[y] = sy;
        }
    }
    nv_track tr;
    nv_track_init(&tr, prm, sink, (int32_t)len, best, t0);
    int64_t active = n, epochs = 0;
    double m_old = INFINITY, tol = NV_NESVM_DCD_TOL0, work = 0;
    if (mdcd_check(&s, &tr, epochs, active, 1, &st, err)) goto done;
    int64_t checks = 0;
    while (1) {
        for (int64_t q = 0; q + 1 < active; q++) {
            int64_t j = q + (int64_t)(nv_rng_next(&s.rng) % (uint64_t)(active - q));
            int64_t t = s.idx[q];
            s.idx[q] = s.idx[j];
            s.idx[j] = t;
        }
        double mx = 0;
        for (int64_t q = 0; q < active; q++) {
            double v;
            if (block_step(&s, s.idx[q], m_old, &v)) {
                active--;
                int64_t t = s.idx[q];
                s.idx[q] = s.idx[active];
                s.idx[active] = t;
                q--;
                continue;
            }
            if (v > mx) mx = v;
        }
        epochs++;
        work += (double)active;
        if (mx <= tol) {
            if (active == n) tol *= 0.1;
            active = n;
            m_old = INFINITY;
            unshrink_classes(&s);
        } else {
            m_old = mx;
        }
        if (work >= check_spacing(&tr, prm->eps) * (double)n || epochs % NV_NESVM_DCD_CHECK_MAX == 0) {
            work = 0;
            if (mdcd_check(&s, &tr, epochs, active, ++checks % NV_MULTI_DCD_EXACT_EVERY == 0, &st, err))
                break;
            if (mx == 0 && active == n) {
                tr.why = NESVM_EXIT_STALLED; /* every block optimal: nothing moves */
                break;
            }
        }
    }
done:
    res->exit_reason = tr.why;
    res->iterations = tr.iter;
    res->primal = tr.best_p;
    res->lower_bound = tr.best_d;
    res->gap = NAN;
    if (isfinite(tr.best_p)) nv_certify(tr.best_p, tr.best_d, &res->gap, NULL);
    res->n_sv = tr.nsv_best;
    memcpy(res->w, best, (size_t)kd * sizeof(double));
    memcpy(res->b, best + kd, (size_t)k * sizeof(double));
out:
    res->seconds = nv_now() - t0;
    nv_linalg_ws_free(&s.lw);
    nv_free(s.alpha);
    nv_free(s.Wt);
    nv_free(s.An);
    nv_free(s.g);
    nv_free(s.Dv);
    nv_free(s.a);
    nv_free(s.ch);
    nv_free(s.act);
    nv_free(s.nact);
    nv_free(s.M);
    nv_free(s.theta);
    nv_free(s.idx);
    nv_free(s.part);
    nv_free(best);
    return st;
}
