/*
 * smo.c - the C-SVM's dual by sequential minimal optimization, for kernels
 * that are not positive semi-definite (the sigmoid kernel; poly with
 * coef0 < 0), where the primal is not convex and has no certificate.
 *
 * Problem (LIBSVM's C-SVC dual, Q_ij = y_i y_j K_ij):
 *     min_a f(a) = 1/2 a'Q a - sum_i a_i,   0 <= a_i <= C_i,   y'a = 0.
 * With K indefinite, f is not convex: what is found is a stationary point
 * (the KKT conditions to eps), as LIBSVM finds; the model is
 * f(x) = sum_i a_i y_i K(x, x_i) + b.  No duality gap exists to certify:
 * the result's gap and lower bound are NaN (nesvm_model_certified says
 * NESVM_CERT_NONE) and its "primal" is f(a), LIBSVM's "obj".
 *
 * Each iteration moves two variables (Fan, Chen and Lin, "Working set
 * selection using second order information for training SVM", JMLR 2005):
 *   i = argmax { -y_t G_t : t in I_up },  G = Q a - e the gradient (ties
 *       here and for j below go to the last index: with the first,
 *       heart_scale -t 1 -r -1 reached another stationary point, -171.66,
 *       where svm-train reaches -189.45),
 *       I_up = {t : a_t < C_t, y_t = 1, or a_t > 0, y_t = -1},
 *       I_low = {t : a_t < C_t, y_t = -1, or a_t > 0, y_t = 1};
 *   stop when max_{I_up} -y G - min_{I_low} -y G <= eps;
 *   j = argmin { -b_t^2 / a_t : t in I_low, -y_t G_t < -y_i G_i }, with
 *       b_t = -y_i G_i + y_t G_t > 0 and a_t = K_ii + K_tt - 2 K_it, or TAU
 *       where a_t <= 0 (negative curvature: Chen, Fan and Lin 2006 show the
 *       iteration still converges to a stationary point);
 *   the pair moves along a_i += y_i s, a_j -= y_j s (y'a stays 0), which
 *   changes f by -b s + a s^2 / 2: s = b / a clipped to the box.  G then
 *   changes by y_k s (K_ki - K_kj) for every k.
 * The bias: b = -y_t G_t averaged over the free variables (0 < a_t < C_t),
 * else the middle of the interval the KKT conditions leave.
 *
 * Cost per iteration: two kernel columns (from the column cache) and O(n).
 */
#include "smo.h"
#include "../track.h"
#include "../../kernel/kernel.h"

#include <math.h>
#include <string.h>

#define SMO_TAU 1e-12

/* i in I_up / I_low (see above). */
static int in_up(double a, double c, double y) { return y > 0 ? a < c : a > 0; }
static int in_low(double a, double c, double y) { return y > 0 ? a > 0 : a < c; }

/* Kernel column of position p over the problem's rows, copied into out. */
static nesvm_status column(const nv_kernel_problem *kp, int64_t p, double *out, nesvm_error *err)
{
    const double *col;
    const int64_t pos = kp->pos ? kp->pos[p] : p;
    nesvm_status st = nv_kcache_column(kp->kc, pos, kp->pos, kp->n, kp->groups, kp->ngroups, &col, err);
    if (st == NESVM_OK) memcpy(out, col, (size_t)kp->n * sizeof(double));
    return st;
}

/* The dual objective f(a) = 1/2 sum a_t (G_t - 1). */
static double dual_objective(const double *a, const double *G, int64_t n)
{
    double f = 0;
    for (int64_t t = 0; t < n; t++) f += a[t] * (G[t] - 1.0);
    return 0.5 * f;
}

/* The bias from the KKT conditions at a (see the header). */
static double smo_bias(const double *a, const double *G, const double *y, const double *c, int64_t n)
{
    double sum = 0, up = -INFINITY, low = INFINITY;
    int64_t nfree = 0;
    for (int64_t t = 0; t < n; t++) {
        double v = -y[t] * G[t];
        if (a[t] > 0 && a[t] < c[t]) {
            sum += v;
            nfree++;
        } else {
            if (in_up(a[t], c[t], y[t]) && v > up) up = v;
            if (in_low(a[t], c[t], y[t]) && v < low) low = v;
        }
    }
    if (nfree > 0) return sum / (double)nfree;
    if (isfinite(up) && isfinite(low)) return 0.5 * (up + low);
    return isfinite(up) ? up : isfinite(low) ? low : 0.0;
}

int nv_smo_takes(const nv_loss *loss, int l1)
{
    return loss == nv_loss_find("hinge") && !l1;
}

nesvm_status nv_smo_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                          nv_binary_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int64_t n = kp->n;
    const double *y = kp->y, *c = kp->cost;
    size_t nn = (size_t)(n ? n : 1);
    double *a = nv_calloc(nn, sizeof(double));
    double *G = nv_malloc_array(nn, sizeof(double));
    double *Ki = nv_malloc_array(nn, sizeof(double));
    double *Kj = nv_malloc_array(nn, sizeof(double));
    double *kd = nv_malloc_array(nn, sizeof(double));
    nesvm_status st = a && G && Ki && Kj && kd ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (st != NESVM_OK) goto out;
    for (int64_t t = 0; t < n; t++) {
        G[t] = -1.0;
        kd[t] = nv_kcache_diag(kp->kc, kp->pos ? kp->pos[t] : t);
    }
    /* a warm start (a checkpoint's or a path's expansion beta = a y), when it
     * is feasible for this problem's box and y'a = 0; else from zero */
    const double *beta0 = sink && sink->resume ? sink->resume->w : kp->beta0;
    if (beta0) {
        double ya = 0, scale = 0;
        int feasible = 1;
        for (int64_t t = 0; t < n && feasible; t++) {
            a[t] = beta0[t] * y[t];
            feasible = a[t] >= 0 && a[t] <= c[t];
            ya += beta0[t];
            scale += fabs(beta0[t]);
        }
        if (!feasible || fabs(ya) > 1e-12 * (scale > 0 ? scale : 1.0)) memset(a, 0, nn * sizeof(double));
        for (int64_t t = 0; t < n && st == NESVM_OK; t++) {
            if (a[t] == 0) continue;
            st = column(kp, t, Ki, err);
            for (int64_t k = 0; k < n && st == NESVM_OK; k++) G[k] += y[k] * y[t] * a[t] * Ki[k];
        }
        if (st != NESVM_OK) goto out;
    }
    const double eps = prm->eps;
    int64_t it = sink && sink->resume ? sink->resume->iteration : 0;
    nesvm_exit why = NESVM_EXIT_MAX_ITER;
    double gmax = 0, gmin = 0;
    for (;;) {
        /* the maximal violating index i and the stopping measure */
        int64_t i = -1;
        gmax = -INFINITY;
        gmin = INFINITY;
        for (int64_t t = 0; t < n; t++) {
            double v = -y[t] * G[t];
            if (in_up(a[t], c[t], y[t]) && v >= gmax) {
                gmax = v;
                i = t;
            }
            if (in_low(a[t], c[t], y[t]) && v < gmin) gmin = v;
        }
        if (i < 0 || gmax - gmin <= eps) {
            why = NESVM_EXIT_CONVERGED;
            break;
        }
        if (it >= prm->max_iter) break;
        if (prm->time_limit > 0 && nv_now() - t0 >= prm->time_limit) {
            why = NESVM_EXIT_TIME_LIMIT;
            break;
        }
        st = column(kp, i, Ki, err);
        if (st != NESVM_OK) break;
        /* j by the second-order decrease */
        int64_t j = -1;
        double best = INFINITY, bj = 0, aj = 0;
        for (int64_t t = 0; t < n; t++) {
            if (!in_low(a[t], c[t], y[t])) continue;
            double b = gmax + y[t] * G[t];
            if (!(b > 0)) continue;
            double q = kd[i] + kd[t] - 2.0 * Ki[t];
            if (!(q > 0)) q = SMO_TAU;
            double dec = -b * b / q;
            if (dec <= best) {
                best = dec;
                j = t;
                bj = b;
                aj = q;
            }
        }
        if (j < 0) { /* no pair decreases f: stationary to rounding */
            why = NESVM_EXIT_CONVERGED;
            break;
        }
        NV_ASSERT(j != i); /* -y_j G_j < -y_i G_i: the pair is two variables */
        st = column(kp, j, Kj, err);
        if (st != NESVM_OK) break;
        /* the step along a_i += y_i s, a_j -= y_j s, clipped to the box */
        const double s = nv_smo_pair_move(a, y, c, i, j, bj / aj);
        /* the pair stays in its box 0 <= a <= C (s < smax to the rounding of C - a) */
        NV_ASSERT(a[i] >= 0 && a[i] <= c[i] * (1 + 1e-12) && a[j] >= 0 && a[j] <= c[j] * (1 + 1e-12));
        for (int64_t k = 0; k < n; k++) G[k] += y[k] * s * (Ki[k] - Kj[k]);
        it++;
        if (sink && (sink->fn || sink->ckpt) && it % (prm->progress_every > 0 ? prm->progress_every : 1) == 0) {
            for (int64_t t = 0; t < n; t++) res->w[t] = a[t] * y[t];
            int64_t nsv = 0;
            for (int64_t t = 0; t < n; t++) nsv += a[t] > 0;
            nesvm_progress pg = nv_progress_plain(sink, it, t0, dual_objective(a, G, n), s, nsv);
            double bias = smo_bias(a, G, y, c, n);
            nv_snapshot snap = {res->w, n, bias, it, NULL, 0};
            if (nv_sink_report(sink, &pg, 1, &snap)) {
                why = NESVM_EXIT_CANCELLED;
                st = nv_error(err, NESVM_ERR_CANCELLED, "training cancelled at iteration %lld", (long long)it);
                break;
            }
        }
    }
    if (st == NESVM_OK) {
        int64_t nsv = 0;
        for (int64_t t = 0; t < n; t++) {
            res->w[t] = a[t] * y[t];
            nsv += a[t] > 0;
        }
        res->b = smo_bias(a, G, y, c, n);
        res->exit_reason = why;
        res->iterations = it;
        res->primal = dual_objective(a, G, n);
        res->lower_bound = NAN;
        res->gap = NAN;
        res->n_sv = nsv;
    }
out:
    res->seconds = nv_now() - t0;
    nv_free(a);
    nv_free(G);
    nv_free(Ki);
    nv_free(Kj);
    nv_free(kd);
    return st;
}
