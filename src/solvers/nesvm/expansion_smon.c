/*
 * expansion_smon.c - the kernel SMO's nu mode (expansion_smo.c's state,
 * expansion_smo.h): nu-SVC and nu-SVR's duals on a stored matrix, as
 * LIBSVM's Solver_NU (Chang and Lin, Neural Computation 2001).
 *
 * Both are, over m variables a with signs y_i = +-1, thresholds t_i and
 * costs c_i (nu-SVC: m = n rows, t = 0; nu-SVR: the tube's 2 n with p = 0,
 * t_k = y_k and t_{n+k} = -y_k, hinge.h's nv_tube_split),
 *     min_a  F(a) = 1/2 a'Q a - t'a,   Q_ij = y_i y_j K_ij,  0 <= a_i <= c_i,
 *            sum_{y_i = +1} a_i = r_+,   sum_{y_i = -1} a_i = r_-,
 * two equalities where the C-SVM's dual has one (y'a = 0): a pair step
 * moves two variables of the same sign (a_i += y s, a_j -= y s), which
 * keeps both sums, and the pair is the most violating one of either sign
 * (the second-order choice of pair_step within each sign, the better of the
 * two).  In a working set (expansion_wsn.c) the held rows enter t (nu-SVC:
 * t_i = -y_i h_i, h the held coefficients' margins; nu-SVR: the targets
 * y - h) and r_+-, the sums the start has.
 *
 * The certificate: with G = Q a - t (so that G_i = y_i f_i - t_i, f the
 * margins), for any feasible a and any l_+, l_-, convexity bounds
 * F(a) - min F by G'a - min_{a' feasible} G'a', and the linear program's
 * dual gives
 *     F(a) - min F  <=  sum_{sign} sum_{y_i = sign} [a_i (G_i - l) + c_i max(0, l - G_i)],
 * each term non-negative, the sum smallest at the weighted quantile l of
 * the sign's G (nv_nu_quantile: the one-class SVM's rho, expansion_wso.c).
 * So D = -F(a) = t'a - 1/2 a'Q a and P = D + that sum (offset by d0, the
 * held part) bracket the optimum; for the whole problem P is the primal
 * objective of docs/solvers.md (nu-SVC: u = l_+, v = l_-; nu-SVR: u = -l_+,
 * v = l_-), and the bias (v - u) / 2 = (l_- - l_+) / 2 for both.
 */
#include "expansion_smo.h"
#include "../smo/smo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SMO_TAU 1e-12

static int cmp_zb(const void *x, const void *y)
{
    const double a = ((const double *)x)[0], b = ((const double *)y)[0];
    return a < b ? -1 : a > b;
}

double nv_nu_quantile(const double *g, const double *c, const double *y, double sign, int64_t m, double r,
                      double *zb)
{
    int64_t k = 0;
    for (int64_t i = 0; i < m; i++) {
        if (y && y[i] != sign) continue;
        zb[2 * k] = g[i];
        zb[2 * k + 1] = c[i];
        k++;
    }
    qsort(zb, (size_t)k, 2 * sizeof(double), cmp_zb);
    double cum = 0;
    for (int64_t j = 0; j < k; j++) {
        cum += zb[2 * j + 1];
        if (cum == r && j + 1 < k) return 0.5 * (zb[2 * j] + zb[2 * j + 2]); /* flat between */
        if (cum >= r) return zb[2 * j];
    }
    return k > 0 ? zb[2 * (k - 1)] : 0.0; /* r beyond the sum by rounding: the largest */
}

void nv_nu_fill(double *a, const double *y, const double *c, int64_t m, double half)
{
    for (int k = 0; k < 2; k++) {
        const double sign = k ? 1.0 : -1.0;
        double sum = 0;
        for (int64_t i = 0; i < m; i++)
            if (y[i] == sign) sum += a[i];
        if (sum > half) {
            const double f = half / sum;
            for (int64_t i = 0; i < m; i++)
                if (y[i] == sign) a[i] *= f;
            continue;
        }
        double left = half - sum;
        for (int64_t i = 0; i < m && left > 0; i++) {
            if (y[i] != sign) continue;
            const double room = c[i] - a[i], add = room < left ? room : left;
            a[i] += add;
            left -= add;
        }
    }
}

void nv_ksmo_nu_start(ksmo *s, const nv_kernel_problem *kp)
{
    const int64_t n = s->n, m = s->m;
    int exact = 0;
    if (kp->a0) { /* the working set's point: feasible, and beta0 its beta */
        memcpy(s->a, kp->a0, (size_t)m * sizeof(double));
        exact = kp->beta0 && kp->f0;
    } else {
        for (int64_t i = 0; i < m; i++) {
            const double v = kp->beta0 ? s->y[i] * kp->beta0[i < n ? i : i - n] : 0.0;
            s->a[i] = v < 0 ? 0.0 : (v > s->c[i] ? s->c[i] : v);
        }
        nv_nu_fill(s->a, s->y, s->c, m, 0.5 * s->nuw); /* from zero: LIBSVM's start */
    }
    s->nur[0] = s->nur[1] = 0;
    for (int64_t i = 0; i < m; i++) s->nur[s->y[i] > 0] += s->a[i];
    if (exact) { /* G from the exact margins: the float matrix's rounding does not enter */
        for (int64_t i = 0; i < m; i++) s->G[i] = s->y[i] * kp->f0[i < n ? i : i - n] - s->t[i];
        s->nact = m;
        return;
    }
    for (int64_t i = 0; i < m; i++) s->G[i] = -s->t[i];
    s->nact = 0; /* G of every variable from the rows of the non-zero a */
    nv_ksmo_unshrink(s);
}

double nv_ksmo_nu_step(ksmo *s)
{
    int64_t ip[2] = {-1, -1};
    double gmax[2] = {-INFINITY, -INFINITY}, gmin[2] = {INFINITY, INFINITY};
    for (int64_t k = 0; k < s->nact; k++) {
        const int64_t t = s->act[k];
        const int c = s->y[t] > 0;
        const double v = -s->y[t] * s->G[t];
        if (up(s, t) && v >= gmax[c]) {
            gmax[c] = v;
            ip[c] = t;
        }
        if (low(s, t) && v < gmin[c]) gmin[c] = v;
    }
    double viol = 0;
    for (int c = 0; c < 2; c++) {
        s->ngmax[c] = gmax[c];
        s->ngmin[c] = gmin[c];
        if (ip[c] >= 0 && gmax[c] - gmin[c] > viol) viol = gmax[c] - gmin[c];
    }
    if (!(viol > 0)) return 0;
    const float *ri[2] = {ip[0] >= 0 ? krow(s, ip[0]) : NULL, ip[1] >= 0 ? krow(s, ip[1]) : NULL};
    int64_t j = -1;
    int cj = 0;
    double best = INFINITY, bj = 0, qj = 0;
    for (int64_t k = 0; k < s->nact; k++) {
        const int64_t t = s->act[k];
        const int c = s->y[t] > 0;
        if (ip[c] < 0 || !low(s, t)) continue;
        const double bt = gmax[c] + s->y[t] * s->G[t];
        if (!(bt > 0)) continue;
        double q = s->kd[ip[c]] + s->kd[t] - 2.0 * (double)kval(ri[c], s, t);
        if (!(q > 0)) q = SMO_TAU;
        const double dec = -bt * bt / q;
        if (dec <= best) {
            best = dec;
            j = t;
            cj = c;
            bj = bt;
            qj = q;
        }
    }
    if (j < 0) return 0;
    const int64_t i = ip[cj];
    double *a = s->a;
    const double st = nv_smo_pair_move(a, s->y, s->c, i, j, bj / qj);
    if (a[i] < 0) a[i] = 0; /* the rounding of c - a */
    if (a[j] < 0) a[j] = 0;
    nv_ksmo_grad_add(s, i, st);
    nv_ksmo_grad_add(s, j, -st);
    s->moved += fabs(st);
    return viol;
}

double nv_ksmo_nu_evaluate(ksmo *s, double *beta, double *f, nv_obj_eval *e)
{
    const int64_t n = s->n, m = s->m;
    double quad = 0, lin = 0;
    int64_t nsv = 0, nb = 0;
    for (int64_t k = 0; k < n; k++) {
        beta[k] = s->tube ? s->a[k] - s->a[n + k] : s->y[k] * s->a[k];
        f[k] = s->tube ? s->G[k] + s->t[k] : s->y[k] * (s->G[k] + s->t[k]);
        nsv += beta[k] != 0;
        nb += fabs(beta[k]) >= s->c[k];
    }
    for (int64_t i = 0; i < m; i++) {
        quad += s->a[i] * (s->G[i] + s->t[i]);
        lin += s->a[i] * s->t[i];
    }
    /* P = D + the gap's sum of non-negative terms (and the drift of the
     * kept sums by the steps' rounding): no cancellation where both are
     * near 0 */
    double lam[2], gap = 0, scale = 0;
    for (int c = 0; c < 2; c++) {
        const double sign = c ? 1.0 : -1.0;
        double sum = 0;
        lam[c] = nv_nu_quantile(s->G, s->c, s->y, sign, m, s->nur[c], s->zb);
        for (int64_t i = 0; i < m; i++) {
            if (s->y[i] != sign) continue;
            gap += s->a[i] * (s->G[i] - lam[c]) + (lam[c] > s->G[i] ? s->c[i] * (lam[c] - s->G[i]) : 0.0);
            scale += s->c[i] * fabs(lam[c] - s->G[i]);
            sum += s->a[i];
        }
        gap += lam[c] * (sum - s->nur[c]);
    }
    if (gap < 0 && -gap <= 1e-12 * scale) gap = 0;
    memset(e, 0, sizeof *e);
    e->D = e->Dmu = lin - 0.5 * quad + s->d0;
    e->P = e->Fmu = e->D + gap;
    e->nsv = nsv;
    e->nbound = nb;
    e->theta = 1.0;
    return 0.5 * (lam[0] - lam[1]);
}
