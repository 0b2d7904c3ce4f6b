/*
 * expansion_smo.c - NESVM's dual method for a full kernel (method "dcd" on
 * an expansion): the exact C-SVM's dual by sequential minimal optimization
 * on a stored kernel matrix, stopped by the certified duality gap.  Called
 * by nv_nesvm_kernel_train for the working set's sub-problems
 * (expansion_ws.c) and for a stored matrix's whole problem, where
 * nv_kx_smo_takes says so.
 *
 * The problem (expansion.c's, the hinge, no smoothing) and its dual, with
 * Q_ij = y_i y_j K_ij and beta = a y:
 *     min  P(beta, b) = 1/2 beta'K beta + sum_i c_i max(0, 1 - y_i ((K beta)_i + b))
 *     max  D(a) = sum_i a_i - 1/2 a'Q a   over 0 <= a_i <= c_i (and y'a = 0 with a bias).
 * Its gradient G = Q a - 1 is kept up to date; K beta = y (G + 1).
 *
 * epsilon-SVR's tube (real targets y, loss max(0, |y - f| - p)) is the same
 * problem over 2n samples, as LIBSVM solves it: max(0, |y - f| - p) =
 * max(0, (y - p) - f) + max(0, f - (y + p)), so variable k < n is row k with
 * sign +1 and threshold t_k = y_k - p, variable n + k row k with sign -1 and
 * threshold t_{n+k} = -(y_k + p) (hinge.h's nv_tube_split), and the hinge's
 * 1 becomes t_i:
 *     max  sum_i a_i t_i - 1/2 a'Q a,   0 <= a_i <= c_i (y'a = 0 with a bias),
 * G = Q a - t, beta_k = a_k - a_{n+k}.  Variable n + k reads row k of the
 * stored matrix (its position is k's): no copy.  Collapsed to beta this is
 * the tube's dual max sum beta_k y_k - p sum |beta_k| - 1/2 beta'K beta,
 * |beta_k| <= c_k (sum beta = 0), whose value at beta the certificate takes.
 *
 * With a bias every step moves a pair (Fan, Chen and Lin, JMLR 2005: the
 * second-order choice of smo.c, here on the rows of the stored matrix):
 * i the most violating index of I_up, j the pair partner of largest
 * second-order decrease, the step along a_i += y_i s, a_j -= y_j s clipped
 * to the box.  Without a bias y'a = 0 does not hold: every step moves one
 * coordinate, the one of largest second-order decrease pg_i^2 / K_ii
 * (pg the projected gradient), to its clipped minimizer.  Each step costs
 * two passes over |S| (the choice and the update of G by one or two rows).
 *
 * Shrinking (Joachims 1999): every min(|S|, 1000) steps, a variable at a
 * bound whose gradient pushes it out of its box by more than the current
 * violations leaves the active set, over which the steps choose and G is
 * updated; when the active set is solved to the current tolerance all
 * return (their G rebuilt from the rows of the non-zero a), and once the
 * whole set is, the tolerance becomes a tenth of the violation reached
 * (dcd.c's schedule; a warm start skips the levels it is already below).
 *
 * The certificate: when the whole set is solved to a new tolerance (and at
 * least every 10 |S| steps; an iteration is |S| steps), P at
 * beta = a y with the best bias for it (a weighted median over the
 * hinges' breakpoints) against D(a) of the same G, to the tracker
 * (track.h): the same stop, progress, checkpoints and limits as the primal
 * methods.  Each evaluation is certified on its own (see the loop).  The
 * matrix is single precision; the caller certifies again in double
 * precision (expansion_ws.c's certify_double, which also refines the
 * solution from exact margins: kp->f0, smo_start).
 */
#include "expansion_smo.h"
#include "../hinge.h"
#include "../smo/smo.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One pair step (with a bias).  Returns the KKT violation gmax - gmin over
 * the active set (0: nothing moved). */
static double pair_step(ksmo *s, double *gmax_out, double *gmin_out)
{
    int64_t i = -1;
    double gmax = -INFINITY, gmin = INFINITY;
    for (int64_t k = 0; k < s->nact; k++) {
        const int64_t t = s->act[k];
        const double v = -s->y[t] * s->G[t];
        if (up(s, t) && v >= gmax) {
            gmax = v;
            i = t;
        }
        if (low(s, t) && v < gmin) gmin = v;
    }
    *gmax_out = gmax;
    *gmin_out = gmin;
    if (i < 0 || !(gmax - gmin > 0)) return 0;
    const float *ri = krow(s, i);
    int64_t j = -1;
    double best = INFINITY, bj = 0, qj = 0;
    for (int64_t k = 0; k < s->nact; k++) {
        const int64_t t = s->act[k];
        if (!low(s, t)) continue;
        const double bt = gmax + s->y[t] * s->G[t];
        if (!(bt > 0)) continue;
        double q = s->kd[i] + s->kd[t] - 2.0 * (double)kval(ri, s, t);
        if (!(q > 0)) q = SMO_TAU;
        const double dec = -bt * bt / q;
        if (dec <= best) {
            best = dec;
            j = t;
            bj = bt;
            qj = q;
        }
    }
    if (j < 0) return 0;
    const double *y = s->y;
    double *a = s->a;
    const double st = nv_smo_pair_move(a, y, s->c, i, j, bj / qj);
    if (a[i] < 0) a[i] = 0; /* the rounding of c - a */
    if (a[j] < 0) a[j] = 0;
    nv_ksmo_grad_add(s, i, st);
    nv_ksmo_grad_add(s, j, -st);
    s->moved += fabs(st);
    return gmax - gmin;
}

/* The projected gradient of coordinate t (no bias): its violation. */
static inline double proj_grad(const ksmo *s, int64_t t)
{
    const double g = s->G[t];
    if (s->a[t] <= 0) return g < 0 ? g : 0.0;
    if (s->a[t] >= s->c[t]) return g > 0 ? g : 0.0;
    return g;
}

/* One coordinate step (no bias).  Returns the largest |projected gradient|
 * over the active set (0: nothing moved). */
static double coord_step(ksmo *s)
{
    int64_t i = -1;
    double best = 0, viol = 0;
    for (int64_t k = 0; k < s->nact; k++) {
        const int64_t t = s->act[k];
        const double pg = proj_grad(s, t);
        if (fabs(pg) > viol) viol = fabs(pg);
        const double gain = pg * pg / (s->kd[t] > 0 ? s->kd[t] : SMO_TAU);
        if (gain > best) {
            best = gain;
            i = t;
        }
    }
    if (i < 0) return 0;
    double an = s->a[i] - s->G[i] / (s->kd[i] > 0 ? s->kd[i] : SMO_TAU);
    an = an < 0 ? 0.0 : (an > s->c[i] ? s->c[i] : an);
    const double da = an - s->a[i];
    s->a[i] = an;
    if (da != 0) nv_ksmo_grad_add(s, i, da * s->y[i]);
    return viol;
}

/* Shrink: bounded variables whose gradient points out of the box by more
 * than the current violation interval leave the active set.  With a bias
 * the test is LIBSVM's (-y G beyond gmax for I_low-only variables, below
 * gmin for I_up-only ones); without, a variable at a bound with a
 * projected gradient of zero and |G| > viol. */
static void shrink(ksmo *s, double gmax, double gmin, double viol)
{
    int64_t k = 0;
    while (k < s->nact) {
        const int64_t t = s->act[k];
        int out;
        if (s->bias) { /* (nu mode: the interval of t's sign, LIBSVM's Solver_NU) */
            const double v = -s->y[t] * s->G[t];
            const int u = up(s, t), l = low(s, t), c = s->y[t] > 0;
            const double hi = s->nu ? s->ngmax[c] : gmax, lo = s->nu ? s->ngmin[c] : gmin;
            out = (u && !l && v < lo) || (l && !u && v > hi);
        } else {
            out = proj_grad(s, t) == 0 && (s->a[t] <= 0 || s->a[t] >= s->c[t]) && fabs(s->G[t]) > viol;
        }
        if (out) {
            s->act[k] = s->act[--s->nact];
            s->act[s->nact] = t;
        } else {
            k++;
        }
    }
}

static int cmp_zb(const void *x, const void *y)
{
    const double a = ((const double *)x)[0], b = ((const double *)y)[0];
    return a < b ? -1 : a > b;
}

/* The best bias for the margins f = K beta (n rows): minimizes sum_i c_i
 * max(0, t_i - y_i (f_i + b)) over the variables (the tube's two hinges a
 * row), whose slope in b is sum_{y=-1, z_i < b} c_i - sum_{y=+1, z_i > b} c_i
 * with the breakpoints z_i = y_i t_i - f_i (the hinge: y_i - f_i; the tube:
 * y_k -+ p - f_k), plus r (kp->keep_sum): the first breakpoint where the
 * slope reaches 0 (a weighted median). */
static double best_bias(ksmo *s, const double *f)
{
    const int64_t m = s->m;
    double slope = s->r; /* the tube in a working set: P's term b sum beta */
    for (int64_t i = 0; i < m; i++) {
        s->zb[2 * i] = s->y[i] * thr(s, i) - f[row_of(s, i)];
        s->zb[2 * i + 1] = s->c[i];
        if (s->y[i] > 0) slope -= s->c[i];
    }
    qsort(s->zb, (size_t)m, 2 * sizeof(double), cmp_zb);
    for (int64_t k = 0; k < m; k++) {
        slope += s->zb[2 * k + 1];
        if (slope >= 0) return s->zb[2 * k];
    }
    return m > 0 ? s->zb[2 * (m - 1)] : 0.0;
}

/* The tube's evaluation (smo_evaluate): beta_k = a_k - a_{n+k}, f_k =
 * G_k + t_k (the +1 half's), beta'K beta = sum_i a_i (G_i + t_i), and the
 * dual value of beta itself (feasible: |beta_k| <= c_k, sum beta = 0),
 *     D = sum_k beta_k y_k - p sum_k |beta_k| - 1/2 beta'K beta,
 * which is the doubled dual's value where a_k a_{n+k} = 0 and above it
 * elsewhere.  With the others held (kp->keep_sum) sum beta = r and P has
 * the bias's term b r (its Lagrangian's); both offset by d0.  Returns b. */
static double tube_evaluate(ksmo *s, double *beta, double *f, nv_obj_eval *e)
{
    const int64_t n = s->n;
    double quad = 0, lin = 0;
    int64_t nsv = 0, nb = 0;
    for (int64_t i = 0; i < s->m; i++) quad += s->a[i] * (s->G[i] + s->t[i]);
    for (int64_t k = 0; k < n; k++) {
        beta[k] = s->a[k] - s->a[n + k];
        f[k] = s->G[k] + s->t[k];
        lin += beta[k] * s->yr[k] - s->p * fabs(beta[k]);
        nsv += beta[k] != 0;
        nb += fabs(beta[k]) >= s->c[k];
    }
    const double b = s->bias ? best_bias(s, f) : 0.0;
    double loss = 0;
    for (int64_t k = 0; k < n; k++) {
        const double r = fabs(s->yr[k] - (f[k] + b)) - s->p;
        if (r > 0) loss += s->c[k] * r;
    }
    memset(e, 0, sizeof *e);
    e->P = e->Fmu = 0.5 * quad + loss + b * s->r + s->d0;
    e->D = e->Dmu = lin - 0.5 * quad + s->d0;
    e->nsv = nsv;
    e->nbound = nb;
    e->theta = 1.0;
    return b;
}

/* The one-class SVM's evaluation (smo_evaluate): y = +1, t = -h (the held
 * rows' margins on these rows, or 0), so that G_i = (K a)_i + h_i is row
 * i's whole margin and f_i = G_i + t_i its part from these rows;
 * quad = a'K a = sum a_i f_i, and with rho = -b the best offset for G
 * (best_bias: a weighted quantile of the margins, the slope's r the kept
 * sum of a):
 *     P = 1/2 quad + sum_i c_i max(0, rho - G_i) - r rho + d0,
 *     D = sum_i a_i t_i - 1/2 quad + d0.
 * Returns b = -rho. */
static double oc_evaluate(ksmo *s, double *beta, double *f, nv_obj_eval *e)
{
    const int64_t n = s->n;
    double quad = 0, lin = 0;
    int64_t nsv = 0, nb = 0;
    for (int64_t i = 0; i < n; i++) {
        beta[i] = s->a[i];
        f[i] = s->G[i] + s->t[i];
        quad += s->a[i] * f[i];
        lin += s->a[i] * s->t[i];
        nsv += s->a[i] > 0;
        nb += s->a[i] >= s->c[i];
    }
    const double b = best_bias(s, f);
    double loss = 0;
    for (int64_t i = 0; i < n; i++) {
        const double r = s->t[i] - (f[i] + b);
        if (r > 0) loss += s->c[i] * r;
    }
    memset(e, 0, sizeof *e);
    e->P = e->Fmu = 0.5 * quad + loss + b * s->r + s->d0;
    e->D = e->Dmu = lin - 0.5 * quad + s->d0;
    e->nsv = nsv;
    e->nbound = nb;
    e->theta = 1.0;
    return b;
}

/* The certificate at a: P(beta = a y, best b) and D(a), into e; beta and
 * the margins f (n rows each) into beta, f.  Returns b. */
static double smo_evaluate(ksmo *s, double *beta, double *f, nv_obj_eval *e)
{
    if (s->nu) return nv_ksmo_nu_evaluate(s, beta, f, e);
    if (s->tube) return tube_evaluate(s, beta, f, e);
    if (s->oc) return oc_evaluate(s, beta, f, e);
    const int64_t n = s->n;
    double quad = 0, asum = 0;
    int64_t nsv = 0, nb = 0;
    for (int64_t i = 0; i < n; i++) {
        beta[i] = s->a[i] * s->y[i];
        f[i] = s->y[i] * (s->G[i] + 1.0);
        quad += s->a[i] * (s->G[i] + 1.0);
        asum += s->a[i];
        nsv += s->a[i] > 0;
        nb += s->a[i] >= s->c[i];
    }
    const double b = s->bias ? best_bias(s, f) : 0.0;
    double loss = 0;
    for (int64_t i = 0; i < n; i++) {
        const double r = 1.0 - s->y[i] * (f[i] + b);
        if (r > 0) loss += s->c[i] * r;
    }
    memset(e, 0, sizeof *e);
    e->P = e->Fmu = 0.5 * quad + loss;
    e->D = e->Dmu = asum - 0.5 * quad;
    e->nsv = nsv;
    e->nbound = nb;
    e->theta = 1.0;
    return b;
}

/* The start: a = y beta0 clipped to the box (the tube: a_k = beta0_k and
 * a_{n+k} = -beta0_k where positive), and with a bias y'a = 0 by scaling
 * the larger side down (a feasible dual point); G = y f0 - t from the exact
 * margins f0 = K beta0 when a gives beta0 back (a warm start from the
 * working set's last point: the float matrix's rounding does not enter),
 * else from the rows of a's non-zero entries. */
static void smo_start(ksmo *s, const double *beta0, const double *f0)
{
    const int64_t n = s->n, m = s->m;
    int moved = 0;
    for (int64_t i = 0; i < m; i++) {
        double v = beta0 ? s->y[i] * beta0[row_of(s, i)] : 0.0;
        s->a[i] = v < 0 ? 0.0 : (v > s->c[i] ? s->c[i] : v);
        if (!s->tube) moved |= s->a[i] != v;
        s->G[i] = -thr(s, i);
    }
    if (s->tube) /* the tube: beta_k = a_k - a_{n+k} */
        for (int64_t k = 0; k < n; k++) moved |= s->a[k] - s->a[n + k] != (beta0 ? beta0[k] : 0.0);
    if (s->oc) { /* the one-class SVM: the start's sum is kept */
        if (!beta0) { /* LIBSVM's start: a_i = min(c_i, what is left of nu sum c), in row order */
            double left = s->nuw;
            for (int64_t i = 0; i < n && left > 0; i++) {
                s->a[i] = s->c[i] < left ? s->c[i] : left;
                left -= s->a[i];
            }
        }
        s->r = 0;
        for (int64_t i = 0; i < n; i++) s->r += s->a[i];
    } else if (s->keep_sum) { /* the sum is the constraint's: kept as it is */
        s->r = 0;
        for (int64_t k = 0; k < n; k++) s->r += s->a[k] - s->a[n + k];
    } else if (s->bias) {
        double side[2] = {0, 0};
        for (int64_t i = 0; i < m; i++) side[s->y[i] > 0] += s->a[i];
        /* balanced to rounding: an SMO point (y'a = 0 up to its sums' rounding) */
        if (fabs(side[0] - side[1]) > 1e-12 * (side[0] + side[1])) {
            const int big = side[1] > side[0];
            const double r = side[!big] / side[big];
            for (int64_t i = 0; i < m; i++)
                if ((s->y[i] > 0) == big) s->a[i] *= r;
            moved = 1;
        }
    }
    if (f0 && beta0 && !moved) { /* f0 is K beta0: without beta0 (a = 0) it says nothing */
        for (int64_t i = 0; i < m; i++) s->G[i] = s->y[i] * f0[row_of(s, i)] - thr(s, i);
        s->nact = m;
        return;
    }
    s->nact = 0; /* G of every variable from the rows of the non-zero a */
    nv_ksmo_unshrink(s);
}

int nv_kx_dual(const nv_kernel_problem *kp, const nesvm_params *prm)
{
    return (prm->method == NV_METHOD_DCD || prm->method == NV_METHOD_AUTO) && nv_kx_smo_takes(kp, prm);
}

int nv_kx_smo_params(const nesvm_params *prm)
{
    const nv_loss *l = nv_params_loss(prm);
    return (l == nv_loss_find("hinge") || l == nv_loss_find("epsilon_insensitive")) && !nv_params_l1(prm) &&
           prm->mu == 0 && prm->mu_star == 0 && prm->continuation == NV_CONT_ADAPTIVE;
}

int nv_kx_smo_takes(const nv_kernel_problem *kp, const nesvm_params *prm)
{
    /* the hinge on signs, the tube on real targets, the one-class SVM's hinge of rho - f */
    const int tube = nv_params_loss(prm) == nv_loss_find("epsilon_insensitive");
    const int target = nesvm_params_task(prm) == NESVM_TASK_NOVELTY ? NV_TARGET_NONE
                       : tube                                      ? NV_TARGET_REAL
                                                                   : NV_TARGET_SIGN;
    return kp->K && kp->K->K && kp->target == target && nv_kx_smo_params(prm);
}

/* The SMO's arrays (m variables): the tube's doubled samples from
 * nv_tube_split (positions, signs, costs and thresholds over 2 n; n + k
 * shares row k's position), the hinge's positions. */
typedef struct ksmo_mem {
    nv_tube_split ts;
    int64_t *pos;
    double *ones, *tz; /* the one-class SVM's y = +1 and t = -h */
    double *beta, *f, *best;
} ksmo_mem;

static void ksmo_free(ksmo *s, ksmo_mem *mm)
{
    nv_tube_split_free(&mm->ts);
    nv_free(mm->pos);
    nv_free(mm->ones);
    nv_free(mm->tz);
    nv_free(s->a);
    nv_free(s->G);
    nv_free(s->kd);
    nv_free(s->act);
    nv_free(s->zb);
    nv_free(mm->beta);
    nv_free(mm->f);
    nv_free(mm->best);
}

static nesvm_status ksmo_init(ksmo *s, ksmo_mem *mm, const nv_kernel_problem *kp, const nesvm_params *prm,
                              nesvm_error *err)
{
    const int64_t n = kp->n;
    memset(s, 0, sizeof *s);
    memset(mm, 0, sizeof *mm);
    s->K = kp->K->K;
    s->ld = kp->K->n;
    s->n = s->m = n;
    s->y = kp->y;
    s->c = kp->cost;
    s->bias = nv_params_bias(prm);
    const size_t nn = (size_t)(n ? n : 1);
    nesvm_status st = NESVM_OK;
    const int nu = nv_params_nu_type(prm);
    if (kp->target == NV_TARGET_REAL) { /* the tube: 2 n hinges (nu-SVR: p = 0, the half-width a variable) */
        s->p = nu ? 0.0 : nv_params_loss_inst(prm).conj_e;
        nv_binary_problem pb = {NULL, kp->pos, n, kp->y, kp->cost, NULL, 0.0, NULL, NV_TARGET_REAL};
        st = nv_tube_split_init(&mm->ts, &pb, s->p, err);
        if (st != NESVM_OK) return st;
        s->m = 2 * n;
        s->tube = 1;
        s->y = mm->ts.y;
        s->c = mm->ts.c;
        s->t = mm->ts.t;
        s->yr = kp->y;
        s->keep_sum = kp->keep_sum && s->bias && !nu;
        s->d0 = kp->d0;
        if (nu) s->nu = s->bias = 1;
    } else if (nu) { /* nu-SVC: signs y, t = -y h (the held rows' margins h, or 0) */
        mm->tz = nv_malloc_array(nn, sizeof(double));
        if (!mm->tz)
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the kernel dual method (n=%lld)", (long long)n);
        for (int64_t i = 0; i < n; i++) mm->tz[i] = kp->h ? -kp->y[i] * kp->h[i] : 0.0;
        s->t = mm->tz;
        s->d0 = kp->d0;
        s->nu = s->bias = 1;
    } else if (kp->target == NV_TARGET_NONE) { /* the one-class SVM: pair steps keep sum a */
        mm->ones = nv_malloc_array(nn, sizeof(double));
        mm->tz = nv_malloc_array(nn, sizeof(double));
        if (!mm->ones || !mm->tz)
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the kernel dual method (n=%lld)", (long long)n);
        double csum = 0;
        for (int64_t i = 0; i < n; i++) {
            mm->ones[i] = 1.0;
            mm->tz[i] = kp->h ? -kp->h[i] : 0.0;
            csum += kp->cost[i];
        }
        s->oc = s->bias = 1;
        s->y = mm->ones;
        s->t = mm->tz;
        s->d0 = kp->d0;
        s->nuw = prm->svm_nu * csum;
    }
    const size_t mn = (size_t)(s->m ? s->m : 1);
    if (!s->tube) mm->pos = nv_malloc_array(nn, sizeof(int64_t));
    s->a = nv_malloc_array(mn, sizeof(double));
    s->G = nv_malloc_array(mn, sizeof(double));
    s->kd = nv_malloc_array(mn, sizeof(double));
    s->act = nv_malloc_array(mn, sizeof(int64_t));
    s->zb = nv_malloc_array(2 * mn, sizeof(double));
    mm->beta = nv_malloc_array(nn, sizeof(double));
    mm->f = nv_malloc_array(nn, sizeof(double));
    mm->best = nv_malloc_array(nn, sizeof(double));
    if ((!s->tube && !mm->pos) || !s->a || !s->G || !s->kd || !s->act || !s->zb || !mm->beta || !mm->f || !mm->best)
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the kernel dual method (n=%lld)", (long long)n);
    if (!s->tube)
        for (int64_t i = 0; i < n; i++) mm->pos[i] = kp->pos ? kp->pos[i] : i;
    s->pos = s->tube ? mm->ts.rows : mm->pos;
    for (int64_t i = 0; i < s->m; i++) {
        s->kd[i] = nv_kmat_diag(kp->K, s->pos[i]);
        s->act[i] = i;
    }
    if (nu) { /* each sign's sum of a at a cold start: nu/2 of the rows' costs */
        s->nuw = 0;
        for (int64_t i = 0; i < n; i++) s->nuw += kp->cost[i];
        s->nuw *= prm->svm_nu;
    }
    return NESVM_OK;
}

nesvm_status nv_kx_smo_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                             nv_binary_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int64_t n = kp->n;
    NV_ASSERT(nv_kx_smo_takes(kp, prm));
    ksmo s;
    ksmo_mem mm;
    nesvm_status st = ksmo_init(&s, &mm, kp, prm, err);
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    const int64_t m = s.m;
    double *beta = mm.beta, *f = mm.f, *best = mm.best;
    if (s.nu) nv_ksmo_nu_start(&s, kp);
    else smo_start(&s, kp->beta0, kp->f0);
    nv_track tr;
    nv_track_init(&tr, prm, sink, (int32_t)n, best, t0);
    for (int64_t i = 0; i < n; i++) best[i] = s.tube ? s.a[i] - s.a[n + i] : s.a[i] * s.y[i];
    tr.bbest = s.bias ? kp->b0 : 0.0;
    nv_obj_eval e;
    double b = smo_evaluate(&s, beta, f, &e);
    nv_track_info info = {0.0, NAN, NAN, 0, 1, m, 0, 0, NAN, NAN};
    if (nv_track_iterate(&tr, &e, beta, b, &info, &st, err)) goto done;
    /* the active set's tolerance: solved to tol, then all variables return
     * and the tolerance shrinks tenfold below the violation reached (as
     * dcd.c); the certificate when the whole set is solved to tol, and at
     * least every 10 m steps */
    double tol = NV_NESVM_DCD_TOL0;
    int64_t steps = 0, since = 0, last = 0;
    /* the one-class SVM: a violation within the rounding the steps' single-
     * precision rows added to G (2 FLT_EPSILON max K_ii per unit moved; G
     * starts exact from a warm start's margins) is noise, below which the
     * steps move nothing the certificate in double precision can see (a
     * degenerate problem, w ~ 0, has margins and a relative gap of rounding
     * only, and would step on to the iteration limit) */
    double vunit = 0;
    for (int64_t i = 0; (s.oc || s.nu) && i < m; i++)
        if (s.kd[i] > vunit) vunit = s.kd[i];
    vunit *= 2.0 * FLT_EPSILON;
    /* the nu mode: and the double rounding of G itself, whose terms (the held
     * rows' margins, a warm start's exact ones) are each up to max K_ii times
     * the sum of a: a degenerate problem (w* = 0) cancels them to that noise */
    double vfloor = 0;
    for (int64_t i = 0; s.nu && i < m; i++) vfloor += s.a[i];
    vfloor *= 4.0 * DBL_EPSILON * vunit / (2.0 * FLT_EPSILON);
    const int64_t every = m < 1000 ? m : 1000; /* shrink after this many steps */
    for (;;) {
        double gmax = 0, gmin = 0;
        const double v = s.nu ? nv_ksmo_nu_step(&s) : s.bias ? pair_step(&s, &gmax, &gmin) : coord_step(&s);
        steps++;
        since++;
        int check = steps - last >= 10 * m;
        const int noise = (s.oc || s.nu) && v <= vunit * s.moved + vfloor && s.nact == m;
        check |= noise;
        if (v <= tol) {
            if (s.nact == m) { /* a warm start may be well below tol already */
                tol = 0.1 * (v < tol ? v : tol);
                check = 1;
            }
            nv_ksmo_unshrink(&s);
            since = 0;
        } else if (since >= every) {
            shrink(&s, gmax, gmin, v);
            since = 0;
        }
        if (!check) continue;
        last = steps;
        if (s.nact < m) nv_ksmo_unshrink(&s); /* the certificate needs every G */
        b = smo_evaluate(&s, beta, f, &e);
        /* an iteration is m steps (an epoch, as dcd.c's), so that the
         * iterations, --max-iter and warm starts count work */
        if (steps / m > tr.iter) tr.iter = steps / m;
        /* each evaluation certifies itself: P and D of one gradient G, which
         * holds the rounding of the single-precision rows its steps added
         * (and, warm from exact margins, none of the start's), so that two
         * evaluations are of slightly different problems and the best P of
         * one against the best D of another is no bound (heart_scale at
         * gamma 2^-13, C = 2^15: D above P by 5e-4) */
        tr.best_p = INFINITY;
        tr.best_d = -INFINITY;
        info.inner = steps;
        info.n_active = s.nact;
        if (nv_track_iterate(&tr, &e, beta, b, &info, &st, err)) break;
        if (v == 0 || noise) { /* every variable optimal: nothing moves any more */
            tr.why = NESVM_EXIT_STALLED;
            break;
        }
    }
done:
    nv_track_result(&tr, res);
    if (res->dual && s.nu) /* the nu mode: the m variables a */
        memcpy(res->dual, s.a, (size_t)m * sizeof(double));
    else if (res->dual) /* beta: a y (the tube: a_k - a_{n+k}) */
        for (int64_t i = 0; i < n; i++) res->dual[i] = s.tube ? s.a[i] - s.a[n + i] : s.a[i] * s.y[i];
out:
    res->seconds = nv_now() - t0;
    ksmo_free(&s, &mm);
    return st;
}
