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
 * violation is max_m g_m - min_{m below the bound} g_m.  Shrinking (the
 * paper's, with no margin): before its step, a class m != y_i at
 * alpha_im = 0 whose gradient lies below the level of the row's
 * coefficients under their bound leaves the row's steps (its gradient is
 * not computed, its coefficient stays 0).  A row leaves the active set when
 * y_i is left alone (alpha_i = 0, its margin holding), or when y_i is at its
 * bound C_i below the level of the one class left, which then holds -C_i:
 * a vertex of A_i that the block's solution keeps (LIBLINEAR shrinks y_i at
 * its bound too).  Each check rebuilds the active set from the margins it
 * computes anyway, every row and class judged by the same rules
 * (rebuild_active): what the steps since made violate returns.  On
 * Fashion-MNIST's ten classes at C = 0.1 (one thread, by hand) an epoch at
 * the end visits 6,700 rows of 2.2 classes: the rule that came before (a
 * margin of the last epoch's largest violation) kept 59,800 rows of 10
 * classes, 0.17 s an epoch; without the vertex rule 21,500 rows stayed (73%
 * of their steps found the block optimal), 0.025 s an epoch.
 *
 * Layout: the steps keep w_m's entries together (W, k x dd: a row touches
 * the cache lines of the classes it uses only; linalg.h's
 * nv_row_dot_cols / nv_row_axpy_cols), the checks take the transpose (Wt,
 * dd x k, nv_xw_k's layout), and the epochs prefetch the coming rows (the
 * order is random).
 *
 * The certificate: after check_spacing's work (row-class products, in
 * units of a check's n k: where the gap's rate puts eps), after
 * NV_MULTI_DCD_CHECK_MAX epochs, or early when the active set is solved
 * (NV_MULTI_DCD_SOLVED), the margins of W (one pass over X for k columns,
 * nv_xw_k) and D(alpha) go to the tracker with a primal point: the one on
 * the segment from the last check's primal point to W with the lowest P
 * (primal_mix: P is convex on it, and the margins are linear, so the search
 * costs O(n k) a step and no pass over X).  W itself jumps around the
 * optimum (P(W) varied by 0.1% between checks on Fashion-MNIST), and the
 * running best of the segments lies lower: 500 epochs to certify 1e-3 there
 * instead of 600.  The tracker stops at the certified gap; every
 * NV_MULTI_DCD_EXACT_EVERY checks (and the first) W = X~^T alpha is first
 * recomputed exactly (nv_xta_k),
 * clearing the steps' rounding.  A warm start's dual point is the smoothed
 * max's argmax distribution at the start's margins with mu =
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
/* Checks' worth of work between checks: before the gap's rate is known,
 * and the bounds of the predicted spacing (check_spacing). */
#define NV_MULTI_DCD_SPACING 2.0
#define NV_MULTI_DCD_SPACING_MIN 0.5
#define NV_MULTI_DCD_SPACING_MAX 10.0
/* A check comes early when the active set's largest violation in an epoch
 * falls below this fraction of the whole problem's at the last check. */
#define NV_MULTI_DCD_SOLVED 0.1
/* At most this many epochs between checks: each check rebuilds the active
 * set and moves the primal point, and both go stale (Fashion-MNIST's ten
 * classes: 444 epochs to certify 1e-3 with 30, 545 with 50, 627 with 100,
 * 444 with 20 but more checks; one run each). */
#define NV_MULTI_DCD_CHECK_MAX 30
/* Bisection steps of primal_mix (theta to 2^-18). */
#define NV_MULTI_DCD_MIX_STEPS 20

typedef struct mdcd {
    const nv_multi_problem *mp;
    int k;
    int32_t d, dd; /* features, and entries of each w_m (d + 1 with the bias feature) */
    int64_t n;
    double B;           /* the bias feature's value, or 0 */
    double *alpha;      /* n x k */
    double *W;          /* k x dd: w_m's entry j at W[m dd + j] (the steps') */
    double *Wt;         /* dd x k: the same transposed (the checks', linalg.h's k-column layout) */
    double *An;         /* n: A_i */
    double *g, *Dv, *a; /* k scratch: the gradient, the sorted D, the new block */
    int *ch;            /* k scratch: the classes a step changed */
    int *act;           /* n x k: each row's active classes, y first (rebuild_active) */
    int *nact;          /* n: how many */
    double *M;          /* n x k margins (the checks) */
    double *theta;      /* k (d + 1): the tracked point */
    double *Wb, *Mb;    /* the primal point (Wt's layout) and its margins */
    int have_bar;
    double last_gap; /* the certified gap at the last check (check_spacing) */
    int64_t *idx;
    nv_linalg_ws lw;
    double *part;
    uint64_t rng;
    double work;    /* row-class products since the last check */
    int64_t active; /* rows in the active set: idx[0 .. active) */
    double vmax;    /* the largest violation at the last check */
} mdcd;

/* x[0..len) in decreasing order (insertion: a row's few active classes). */
static void sort_desc(double *x, int len)
{
    for (int c = 1; c < len; c++) {
        const double v = x[c];
        int j = c;
        for (; j > 0 && x[j - 1] < v; j--) x[j] = x[j - 1];
        x[j] = v;
    }
}

/* Prefetch distances (steps ahead) of the epochs' loop. */
#define MDCD_AHEAD_START 8
#define MDCD_AHEAD_ROW 3

/* Problem row i's row of X. */
static inline int64_t row_of(const mdcd *s, int64_t i)
{
    return s->mp->rows ? s->mp->rows[i] : i;
}

/* g_c = w_{cl[c]}.x~_i + e_{i,cl[c]} for row i's na active classes cl. */
static void block_grad(mdcd *s, int64_t i, const int *cl, int na)
{
    const int y = s->mp->cls[i];
    const int64_t r = row_of(s, i);
    const size_t dd = (size_t)s->dd;
    nv_row_dot_cols(s->mp->X, r, s->W, dd, cl, na, s->g);
    for (int c = 0; c < na; c++)
        s->g[c] +=
            (cl[c] != y ? 1.0 : 0.0) + (s->B > 0 ? s->B * s->W[(size_t)cl[c] * dd + (size_t)s->d] : 0.0);
}

/* W += dl_c x~_i for the nch classes ch whose coefficient changed. */
static void block_update(mdcd *s, int64_t i, const int *ch, const double *dl, int nch)
{
    const int64_t r = row_of(s, i);
    if (nch == 0) return;
    const size_t dd = (size_t)s->dd;
    if (s->B > 0)
        for (int c = 0; c < nch; c++) s->W[(size_t)ch[c] * dd + (size_t)s->d] += s->B * dl[c];
    nv_row_axpy_cols(s->mp->X, r, dl, ch, nch, s->W, dd);
}

/* One block step on row i over its active classes (s->act: y first, then
 * the others not shrunk; a shrunk class keeps alpha_im = 0): its violation
 * into *viol; first the classes at 0 whose gradient lies below the level of
 * the row's coefficients under their bound leave the row's active set (the
 * step would keep them at 0); returns 1 when the row leaves the active set
 * (y alone left: alpha_i = 0 and its margin holds). */
static int block_step(mdcd *s, int64_t i, double *viol)
{
    const int k = s->k, y = s->mp->cls[i];
    const double C = s->mp->cost[i], A = s->An[i];
    double *al = s->alpha + (size_t)i * (size_t)k;
    int *cl = s->act + (size_t)i * (size_t)k;
    int na = s->nact[i];
    NV_ASSERT(na >= 1 && cl[0] == y);
    block_grad(s, i, cl, na);
    s->work += na;
    /* the violation: max g - min over the coefficients below their bound */
    double gmax = -INFINITY, gmin = INFINITY;
    for (int c = 0; c < na; c++) {
        const int m = cl[c];
        const double g = s->g[c];
        if (g > gmax) gmax = g;
        if (al[m] < (m == y ? C : 0.0) && g < gmin) gmin = g;
    }
    *viol = gmax - gmin;
    for (int c = 1; c < na; c++)
        if (al[cl[c]] == 0 && s->g[c] < gmin) {
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
    /* y alone, or y at its bound below the level of the one class left,
     * which holds -C_i: nothing in the row can move */
    if (na == 1 || (na == 2 && al[y] == C && s->g[0] < gmin)) return 1;
    if (!(*viol > 0)) return 0;
    if (!(A > 0)) {
        /* x~_i = 0: a linear block, a_y = C and one other active class -C */
        for (int c = 0; c < na; c++) s->a[c] = c == 0 ? C : c == 1 ? -C : 0.0;
    } else {
        /* B_m = g_m - A alpha_m; D_m = B_m + A C delta_m, sorted down */
        for (int c = 0; c < na; c++) s->Dv[c] = s->g[c] - A * al[cl[c]] + (c == 0 ? A * C : 0.0);
        double *Ds = s->a; /* the sorted copy, then the block */
        memcpy(Ds, s->Dv, (size_t)na * sizeof(double));
        sort_desc(Ds, na);
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
    s->work += nch;
    return 0;
}

/* W from Wt (to_w) or Wt from W. */
static void transpose_w(mdcd *s, int to_w)
{
    const size_t k = (size_t)s->k, dd = (size_t)s->dd;
    for (size_t m = 0; m < k; m++)
        for (size_t j = 0; j < dd; j++) {
            if (to_w)
                s->W[m * dd + j] = s->Wt[j * k + m];
            else
                s->Wt[j * k + m] = s->W[m * dd + j];
        }
}

/* The active set again from a check's margins s->M (at the steps' W): row i
 * keeps class m unless alpha_im = 0 and its gradient g_m = f_m + e_m lies
 * below the level of the row's coefficients under their bound (block_step's
 * rule, here with every class's gradient); a row left with y alone leaves.
 * Every shrunk coordinate that the steps since made violate its optimality
 * returns here.  s->vmax: the largest violation over every row and class. */
static void rebuild_active(mdcd *s)
{
    const int k = s->k;
    int64_t active = 0, inactive = s->n;
    double vmax = 0;
    for (int64_t i = 0; i < s->n; i++) {
        const int y = s->mp->cls[i];
        const double C = s->mp->cost[i];
        const double *f = s->M + (size_t)i * (size_t)k, *al = s->alpha + (size_t)i * (size_t)k;
        double gmax = -INFINITY, gmin = INFINITY;
        for (int m = 0; m < k; m++) {
            const double g = f[m] + (m != y);
            if (g > gmax) gmax = g;
            if (al[m] < (m == y ? C : 0.0) && g < gmin) gmin = g;
        }
        if (gmax - gmin > vmax) vmax = gmax - gmin;
        int *cl = s->act + (size_t)i * (size_t)k, na = 1;
        cl[0] = y;
        for (int m = 0; m < k; m++)
            if (m != y && !(al[m] == 0 && f[m] + 1.0 < gmin)) cl[na++] = m;
        s->nact[i] = na;
        if (na > 1 && !(na == 2 && al[y] == C && f[y] < gmin))
            s->idx[active++] = i;
        else
            s->idx[--inactive] = i;
    }
    s->active = active;
    s->vmax = vmax;
}

/* The theta in [0, 1] that minimizes P on the segment Wb + theta (Wt - Wb)
 * (convex: bisection on its derivative), from the margins Mb and M. */
static double primal_mix(const mdcd *s)
{
    const nv_multi_problem *mp = s->mp;
    const int k = s->k;
    const size_t len = (size_t)s->dd * (size_t)k;
    double a = 0, q = 0;
    for (size_t j = 0; j < len; j++) {
        const double dj = s->Wt[j] - s->Wb[j];
        a += s->Wb[j] * dj;
        q += dj * dj;
    }
    double lo = 0, hi = 1;
    for (int it = 0; it < NV_MULTI_DCD_MIX_STEPS; it++) {
        const double th = it == 0 ? 1.0 : it == 1 ? 0.0 : 0.5 * (lo + hi);
        double dP = a + th * q;
        for (int64_t i = 0; i < s->n; i++) {
            const int y = mp->cls[i];
            const double *fb = s->Mb + (size_t)i * (size_t)k, *f = s->M + (size_t)i * (size_t)k;
            const double fy = fb[y] + th * (f[y] - fb[y]);
            double zmax = 0;
            int mm = -1;
            for (int m = 0; m < k; m++) {
                if (m == y) continue;
                const double z = 1.0 + fb[m] + th * (f[m] - fb[m]) - fy;
                if (z > zmax) {
                    zmax = z;
                    mm = m;
                }
            }
            if (mm >= 0) dP += mp->cost[i] * ((f[mm] - fb[mm]) - (f[y] - fb[y]));
        }
        if (it == 0) {
            if (dP <= 0) return 1.0;
        } else if (it == 1) {
            if (dP >= 0) return 0.0;
        } else if (dP > 0) {
            hi = th;
        } else {
            lo = th;
        }
    }
    return 0.5 * (lo + hi);
}

/* A check: the margins of W into s->M, D(alpha) and the primal point (Wb,
 * its margins Mb, P there: primal_mix) to the tracker; 1 when training
 * stops.  exact: W = X~^T alpha recomputed first (the steps' updates carry
 * their rounding; D's error from it is of that rounding's order, far below
 * the certificate's slack, so most checks take the steps' W: one pass over X
 * instead of two). */
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
        transpose_w(s, 1);
    } else {
        transpose_w(s, 0);
    }
    double *b = s->theta + kd; /* the bias of W, then of the primal point */
    for (int m = 0; m < k; m++) b[m] = s->B > 0 ? s->B * s->Wt[(size_t)d * (size_t)k + (size_t)m] : 0.0;
    nv_xw_k(mp->X, mp->rows, n, s->Wt, k, s->B > 0 ? b : NULL, s->M, &s->lw);
    const size_t len = (size_t)s->dd * (size_t)k, nk = (size_t)n * (size_t)k;
    double ww = 0, ay = 0;
    int64_t nsv = 0;
    for (size_t j = 0; j < len; j++) ww += s->Wt[j] * s->Wt[j];
    for (int64_t i = 0; i < n; i++) {
        const double *al = s->alpha + (size_t)i * (size_t)k;
        int any = 0;
        for (int m = 0; m < k; m++) any |= al[m] != 0;
        ay += al[mp->cls[i]];
        nsv += any;
    }
    /* the primal point: the best of the segment from the last one to W */
    if (!s->have_bar) {
        memcpy(s->Wb, s->Wt, len * sizeof(double));
        memcpy(s->Mb, s->M, nk * sizeof(double));
        s->have_bar = 1;
    } else {
        const double th = primal_mix(s);
        for (size_t j = 0; j < len; j++) s->Wb[j] += th * (s->Wt[j] - s->Wb[j]);
        for (size_t q = 0; q < nk; q++) s->Mb[q] += th * (s->M[q] - s->Mb[q]);
    }
    double wbwb = 0, loss = 0;
    for (size_t j = 0; j < len; j++) wbwb += s->Wb[j] * s->Wb[j];
    for (int64_t i = 0; i < n; i++) {
        const int y = mp->cls[i];
        const double *f = s->Mb + (size_t)i * (size_t)k;
        double zmax = 0; /* z_y = 0 */
        for (int m = 0; m < k; m++)
            if (m != y && 1.0 + f[m] - f[y] > zmax) zmax = 1.0 + f[m] - f[y];
        loss += mp->cost[i] * zmax;
    }
    for (int m = 0; m < k; m++) {
        b[m] = s->B > 0 ? s->B * s->Wb[(size_t)d * (size_t)k + (size_t)m] : 0.0;
        for (int32_t j = 0; j < d; j++)
            s->theta[(size_t)m * (size_t)d + (size_t)j] = s->Wb[(size_t)j * (size_t)k + (size_t)m];
    }
    nv_obj_eval e;
    memset(&e, 0, sizeof e);
    e.P = e.Fmu = 0.5 * wbwb + loss;
    e.D = e.Dmu = ay - 0.5 * ww;
    e.nsv = nsv;
    e.theta = 1;
    nv_track_info info = {0.0, NAN, NAN, epochs, 1, active, 0, 0, NAN, NAN};
    return nv_track_iterate(tr, &e, s->theta, 0.0, &info, st, err);
}

/* Work until the next check, in units of a check's (the margins of k
 * columns over every row: n k row-class products; the steps count theirs,
 * s->work).  A check costs about one unit and is worth making when the
 * certificate may hold: the certified gap falls about geometrically in the
 * work (Fashion-MNIST's ten classes: by half every 130 epochs near 1e-3),
 * so the next check comes where the last two checks' rate of log(gap) puts
 * eps, at least NV_MULTI_DCD_SPACING_MIN and at most NV_MULTI_DCD_SPACING_MAX
 * units on (NV_MULTI_DCD_SPACING before a rate is known, or while the gap
 * does not fall).  Counted in work, not time: the same steps on every
 * machine. */
static double check_spacing(mdcd *s, const nv_track *tr, double eps, double work)
{
    if (!(tr->best_p > 0) || !isfinite(tr->best_d)) return NV_MULTI_DCD_SPACING;
    const double gap = (tr->best_p - tr->best_d) / tr->best_p;
    double sp = NV_MULTI_DCD_SPACING;
    if (s->last_gap > gap && gap > eps && work > 0) {
        const double rate = log(s->last_gap / gap) / work; /* per unit */
        sp = log(gap / eps) / rate;
        if (sp < NV_MULTI_DCD_SPACING_MIN) sp = NV_MULTI_DCD_SPACING_MIN;
        if (sp > NV_MULTI_DCD_SPACING_MAX) sp = NV_MULTI_DCD_SPACING_MAX;
    }
    s->last_gap = gap;
    return sp;
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
        s.W = nv_calloc((size_t)s.dd * (size_t)k, sizeof(double));
        s.Wt = nv_calloc((size_t)s.dd * (size_t)k, sizeof(double));
        s.Wb = nv_calloc((size_t)s.dd * (size_t)k, sizeof(double));
        s.Mb = nv_malloc_array(nk, sizeof(double));
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
        if (!s.alpha || !s.W || !s.Wt || !s.Wb || !s.Mb || !s.An || !s.g || !s.Dv || !s.a || !s.ch ||
            !s.act || !s.nact || !s.M || !s.theta || !s.idx || !best)
            st = nv_error(err, NESVM_ERR_NOMEM,
                          "out of memory for the joint problem's dual method (%d classes, n=%lld, d=%d)", k,
                          (long long)n, d);
    }
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    nv_row_norms(mp->X, mp->rows, n, NULL, s.An);
    for (int64_t i = 0; i < n; i++) s.An[i] += s.B * s.B;
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
    int64_t epochs = 0, checks = 0, last_check = 0;
    double spacing = NV_MULTI_DCD_SPACING;
    s.active = n;
    if (mdcd_check(&s, &tr, epochs, s.active, 1, &st, err)) goto done;
    rebuild_active(&s);
    while (1) {
        int64_t active = s.active;
        for (int64_t q = 0; q + 1 < active; q++) {
            int64_t j = q + (int64_t)(nv_rng_next(&s.rng) % (uint64_t)(active - q));
            int64_t t = s.idx[q];
            s.idx[q] = s.idx[j];
            s.idx[j] = t;
        }
        double mx = 0;
        for (int64_t q = 0; q < active; q++) {
            /* ahead of the steps (the order is random): the rows' offsets,
             * then the rows, and their classes' records */
            if (q + MDCD_AHEAD_START < active)
                nv_row_prefetch_start(mp->X, row_of(&s, s.idx[q + MDCD_AHEAD_START]));
            if (q + MDCD_AHEAD_ROW < active) {
                const int64_t i2 = s.idx[q + MDCD_AHEAD_ROW];
                nv_row_prefetch_row(mp->X, row_of(&s, i2));
                __builtin_prefetch(s.alpha + (size_t)i2 * (size_t)k);
                __builtin_prefetch(s.act + (size_t)i2 * (size_t)k);
            }
            double v;
            const int leaves = block_step(&s, s.idx[q], &v);
            if (v > mx) mx = v;
            if (leaves) {
                active--;
                int64_t t = s.idx[q];
                s.idx[q] = s.idx[active];
                s.idx[active] = t;
                q--;
            }
        }
        s.active = active;
        epochs++;
        if (s.work >= spacing * (double)n * k || mx <= NV_MULTI_DCD_SOLVED * s.vmax ||
            epochs - last_check >= NV_MULTI_DCD_CHECK_MAX) {
            const double units = s.work / ((double)n * k);
            s.work = 0;
            last_check = epochs;
            if (mdcd_check(&s, &tr, epochs, active, ++checks % NV_MULTI_DCD_EXACT_EVERY == 0, &st, err))
                break;
            spacing = check_spacing(&s, &tr, prm->eps, units);
            rebuild_active(&s);
            if (s.vmax == 0) {
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
    nv_free(s.W);
    nv_free(s.Wt);
    nv_free(s.Wb);
    nv_free(s.Mb);
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
