/*
 * nesvm_linear.c - NESVM (Nesterov's method on the smoothed primal) for the
 * linear C-SVM with a free bias.
 *
 * Problem (written to model files as c_svm_hinge_l2):
 *
 *     min_{w,b}  P(w,b) = 1/2 ||w||^2 + sum_i c_i max(0, 1 - y_i (x_i.w + b))
 *
 * with c_i = C * weight(y_i) and b unregularized (eq. 37 of the paper; with
 * bias = 0 the b term is absent).  The smoothed objective F_mu (eq. 5-10,
 * prox-function weighted by s_i = ||[x_i, 1]||_inf) is in chinge.c.
 * Steps (33)-(35), prox-center w* = the stage's starting point:
 *     y_k = w_k - g_k / L,  z_k = w* - (1/L) sum_{i<=k} (i+1)/2 g_i,
 *     w_{k+1} = 2/(k+3) z_k + (k+1)/(k+3) y_k,     L = 1 + lambda/mu.
 *
 * Certificate: alpha_i = c_i u_i lies in the dual box [0, c_i]; with a bias,
 * the class with the larger sum of alpha is scaled down so that
 * sum alpha_i y_i = 0.  D(alpha) = sum alpha_i - 1/2 ||X^T (alpha y)||^2 is
 * then a lower bound on min P, and (best P - best D)/|best P| is a certified
 * relative gap.  D_mu = D - mu/2 sum s_i alpha_i^2 / c_i bounds min F_mu.
 *
 * Stopping (docs/solvers.md):
 *   - certified relative gap <= eps                              -> converged;
 *   - fixed mu (mu > 0): smoothed relative gap (F_mu - D_mu)/|F_mu| <= eps
 *     (the smoothed problem is solved; the true gap is still reported);
 *   - eps_abs > 0: the paper's rule |F_mu(w_k) - F_mu(w_k-1)| < eps_abs;
 *   - max_iter, time_limit, or the progress callback cancelling.
 * Automatic mu (mu = 0): start at mu = 1; once the smoothed gap is below a
 * quarter of the true gap, what remains is smoothing error, so mu shrinks by
 * the factor that should bring it to eps/2 (clamped to [1/100, 1/2]) and
 * Nesterov restarts from the best point: continuation in the spirit of
 * homotopy NESVM (Algorithm 2).  Within a stage, when F_mu increases the
 * estimate sequence restarts at the current point (adaptive restart).  The
 * returned point is the iterate with the smallest P seen.
 *
 * Cost per iteration: one X*w and one X^T*a (rows with u_i = 0 skipped) plus
 * O(n + d).  Memory: 3n + 7d doubles, plus 2 T d for T > 1 threads.
 */
#include "track.h"

#include <math.h>
#include <string.h>

/* Start a new estimate sequence at (w, b): prox-center = (w, b), empty gradient sum. */
static void begin_sequence(double *wstar, const double *w, double *G, size_t dbytes,
                           double *bstar, double b, double *Gb, int64_t *k)
{
    memcpy(wstar, w, dbytes);
    memset(G, 0, dbytes);
    *bstar = b;
    *Gb = 0;
    *k = 0;
}

nesvm_status nv_nesvm_linear_train(const nv_binary_problem *pb, const nesvm_params *prm,
                                   const nv_progress_sink *sink, nv_binary_result *res,
                                   nesvm_error *err)
{
    if (prm->method == NV_METHOD_NEWTON) return nv_nesvm_newton_train(pb, prm, sink, res, err);
    const double t0 = nv_now();
    const int32_t d = pb->X->d;
    const int bias = prm->bias;
    const size_t dbytes = (size_t)d * sizeof(double);
    nv_chinge obj;
    double *w = NULL, *wstar = NULL, *G = NULL, *wbest = NULL, *tmp = NULL;
    nesvm_status st = nv_chinge_init(&obj, pb, bias, prm->threads, err);
    if (st != NESVM_OK) {
        res->exit_reason = st == NESVM_ERR_NOMEM ? NESVM_EXIT_NO_MEMORY : NESVM_EXIT_NUMERIC;
        return st;
    }
    size_t dd = (size_t)(d ? d : 1);
    w = nv_malloc_array(dd, sizeof(double));
    wstar = nv_malloc_array(dd, sizeof(double));
    G = nv_malloc_array(dd, sizeof(double));
    wbest = nv_malloc_array(dd, sizeof(double));
    tmp = nv_malloc_array(dd, sizeof(double));
    if (!w || !wstar || !G || !wbest || !tmp) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for NESVM work arrays (d=%d)", d);
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    const double lam = nv_chinge_lipschitz(&obj, prm->lipschitz, prm->seed, tmp);
    if (!isfinite(lam)) {
        st = nv_error(err, NESVM_ERR_NUMERIC,
                      "NESVM: the Lipschitz constant overflows (feature values too large: scale the data)");
        res->exit_reason = NESVM_EXIT_NUMERIC;
        goto out;
    }
    const int auto_mu = prm->mu <= 0;
    double mu = auto_mu ? 1.0 : prm->mu;

    nv_track tr;
    double b = nv_track_start(&tr, pb, prm, sink, w, wbest, t0);
    int64_t k = 0;
    int restart = 1;
    double L = 0, bstar = 0, Gb = 0, fmu_prev = NAN;
    nv_chinge_eval e;

    while (1) {
        if (restart) { /* new mu stage */
            begin_sequence(wstar, w, G, dbytes, &bstar, b, &Gb, &k);
            L = 1.0 + lam / mu;
            fmu_prev = NAN;
            nv_track_new_stage(&tr);
            restart = 0;
        }
        nv_chinge_evaluate(&obj, w, b, mu, &e);
        nv_track_info info = {mu, L, NAN, 0};
        if (nv_track_iterate(&tr, &e, w, b, &info, &st, err)) break;
        /* adaptive restart: F_mu went up, so the momentum overshoots; restart
         * the estimate sequence from the current point (keeps mu and L) */
        int overshoot = k > 0 && e.Fmu > fmu_prev;
        fmu_prev = e.Fmu;
        if (auto_mu && k > 0 && nv_mu_stage_done(&e)) {
            /* the remaining gap is mostly smoothing error: shrink mu, restart */
            mu *= nv_mu_shrink(&e, prm->eps, tr.best_p, 0.01);
            memcpy(w, wbest, dbytes);
            b = tr.bbest;
            restart = 1;
            continue;
        }
        if (overshoot) begin_sequence(wstar, w, G, dbytes, &bstar, b, &Gb, &k);
        /* Nesterov step (33)-(35); gradient g = w - (vp - vn), g_b = e.gb */
        double wk = 0.5 * (double)(k + 1);
        double cz = 2.0 / (double)(k + 3), cy = (double)(k + 1) / (double)(k + 3);
        for (int32_t j = 0; j < d; j++) {
            double g = w[j] - (obj.vp[j] - obj.vn[j]);
            double yj = w[j] - g / L;
            G[j] += wk * g;
            w[j] = cz * (wstar[j] - G[j] / L) + cy * yj;
        }
        if (bias) {
            double yb = b - e.gb / L;
            Gb += wk * e.gb;
            b = cz * (bstar - Gb / L) + cy * yb;
        }
        k++;
    }
    nv_track_result(&tr, res);
out:
    res->seconds = nv_now() - t0;
    nv_free(w);
    nv_free(wstar);
    nv_free(G);
    nv_free(wbest);
    nv_free(tmp);
    nv_chinge_free(&obj);
    return st;
}
