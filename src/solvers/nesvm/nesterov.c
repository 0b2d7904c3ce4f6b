/*
 * nesterov.c - NESVM (Nesterov's method on the smoothed primal) for the
 * linear C-SVM, LP-SVM and LS-SVM with a free bias, and the entry point of
 * the "nesvm" solver (method newton is in newton.c).
 *
 * Problems (objective.h; written to model files as c_svm_hinge_l2,
 * lp_svm_hinge_l1, ls_svm_squared_l2), e.g. for C-SVM
 *
 *     min_{w,b}  P(w,b) = 1/2 ||w||^2 + sum_i c_i max(0, 1 - y_i (x_i.w + b))
 *
 * with c_i = C * weight(y_i) and b unregularized (eq. 37 of the paper; with
 * bias = 0 the b term is absent).  The smoothed objective F (eq. 5-10 and
 * 22-28) and its certificate are in objective.c.
 * Steps (33)-(35), prox-center w* = the stage's starting point:
 *     y_k = w_k - g_k / L,  z_k = w* - (1/L) sum_{i<=k} (i+1)/2 g_i,
 *     w_{k+1} = 2/(k+3) z_k + (k+1)/(k+3) y_k,
 * L = 1 + lambda/mu (C-SVM, eq. 48), 1/nu + lambda/mu (LP-SVM, eq. 52),
 * 1 + 2 lambda (LS-SVM), lambda from nv_obj_lipschitz.
 *
 * Certificate: alpha_i = c_i l'(r_i) gives a dual point and a lower bound D
 * on min P (objective.h); (best P - best D)/|best P| is a certified
 * relative gap.  D_F bounds min F likewise.
 *
 * Stopping (docs/solvers.md):
 *   - certified relative gap <= eps                              -> converged;
 *   - final smoothing stage (fixed mu, LS-SVM, or mu_star reached): smoothed
 *     relative gap (F - D_F)/|F| <= eps (the smoothed problem is solved;
 *     the true gap is still reported);
 *   - eps_abs > 0: the paper's rule |F_mu(w_k) - F_mu(w_k-1)| < eps_abs
 *     (Algorithm 1); with mu_star it ends a stage, and the training only in
 *     the final one (Algorithm 2 goes on until mu <= mu*; track.c);
 *   - max_iter, time_limit, or the progress callback cancelling.
 * Continuation (track.h, nv_sched): by default mu starts at 1 (nu too) and
 * shrinks adaptively (factor clamped to [1/100, 1/2]); "paper" is homotopy
 * NESVM's mu0/(t+1).  Each stage restarts Nesterov from the best point.
 * Within a stage, when F increases the estimate sequence restarts at the
 * current point (adaptive restart; restart = 0 turns it off: the paper's
 * plain Algorithm 1).  The returned point is the iterate with the smallest P
 * seen.
 *
 * Cost per iteration: one X*w and one X^T*a (rows with u_i = 0 skipped) plus
 * O(n + d).  Memory: 3n + 7d doubles, plus 2 T d for T > 1 threads.
 */
#include "nesvm_solver.h"
#include "../track.h"
#include "../bias_feature.h"

#include <math.h>
#include <string.h>

int nv_nesvm_method(const nv_binary_problem *pb, const nesvm_params *prm)
{
    if (prm->method != NV_METHOD_AUTO) return prm->method;
    /* Newton where its exact step is always affordable (few features: the
     * d x d matrix fits the data's storage), else the dual, whose steps do
     * not slow down at large C when the features are many (docs/solvers.md,
     * "Choosing the method") */
    if (nv_nesvm_cd_takes(pb, prm)) return NV_METHOD_CD;
    return nv_nesvm_dcd_takes(pb, prm) && !nv_nesvm_newton_exact(pb) ? NV_METHOD_DCD : NV_METHOD_NEWTON;
}

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
    /* LIBLINEAR's bias: this problem without one on the rows [x_i, B] */
    if (nv_params_bias_feature(prm)) return nv_bias_feature_train(nv_nesvm_linear_train, pb, prm, sink, res, err);
    switch (nv_nesvm_method(pb, prm)) {
    case NV_METHOD_NEWTON:
        return nv_nesvm_newton_train(pb, prm, sink, res, err);
    case NV_METHOD_DCD:
        return nv_nesvm_dcd_train(pb, prm, sink, res, err);
    case NV_METHOD_CD:
        return nv_nesvm_cd_train(pb, prm, sink, res, err);
    default:
        break;
    }
    const double t0 = nv_now();
    const int32_t d = pb->X->d;
    const int bias = nv_params_bias(prm);
    const size_t dbytes = (size_t)d * sizeof(double);
    nv_obj obj;
    double *w = NULL, *wstar = NULL, *G = NULL, *wbest = NULL, *tmp = NULL, *g = NULL;
    const nv_loss inst = nv_params_loss_inst(prm);
    nesvm_status st = nv_obj_init(&obj, pb, &inst, nv_params_l1(prm), bias, prm->threads, err);
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
    g = nv_malloc_array(dd, sizeof(double));
    if (!w || !wstar || !G || !wbest || !tmp || !g)
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for NESVM work arrays (d=%d)", d);
    if (nv_comm_many(pb->comm)) st = nv_comm_agree(pb->comm, st, err); /* before the collectives */
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    const double lam = nv_obj_lipschitz(&obj, prm->lipschitz, prm->seed, tmp);
    if (!isfinite(lam)) {
        st = nv_error(err, NESVM_ERR_NUMERIC,
                      "NESVM: the Lipschitz constant overflows (feature values too large: scale the data)");
        res->exit_reason = NESVM_EXIT_NUMERIC;
        goto out;
    }
    nv_sched sc;
    nv_sched_init(&sc, prm, nv_obj_smoothed(&obj), nv_obj_l1(&obj), 1.0, 1.0, 0.01);

    nv_track tr;
    double b = nv_track_start(&tr, pb, prm, sink, w, wbest, t0);
    if (pb->w0) nv_sched_warm(&sc, &obj, w, b);
    int64_t k = 0;
    int restart = 1;
    double L = 0, bstar = 0, Gb = 0, fmu_prev = NAN;
    nv_obj_eval e;

    while (1) {
        if (restart) { /* new stage */
            begin_sequence(wstar, w, G, dbytes, &bstar, b, &Gb, &k);
            L = nv_obj_lipschitz_L(&obj, lam, sc.mu, sc.nu);
            NV_ASSERT(L > 0); /* the regularizer's curvature alone is 1 or 1/nu: the steps divide by L */
            fmu_prev = NAN;
            nv_track_new_stage(&tr);
            restart = 0;
        }
        nv_obj_evaluate(&obj, w, b, sc.mu, sc.nu, &e);
        if ((st = nv_obj_comm_status(&obj, err)) != NESVM_OK) break;
        nv_track_info info = {sc.mu, L, NAN, 0, sc.final, 0, 0, 0, NAN, NAN};
        if (nv_track_iterate(&tr, &e, w, b, &info, &st, err)) break;
        /* adaptive restart (prm->restart; off: the paper's Algorithm 1): F
         * went up, so the momentum overshoots; restart the estimate sequence
         * from the current point (keeps mu and L) */
        int overshoot = prm->restart && k > 0 && e.Fmu > fmu_prev;
        fmu_prev = e.Fmu;
        if (k > 0 && nv_sched_stage_done(&sc, &tr, &e)) {
            /* shrink the smoothing and restart from the best point */
            nv_sched_next(&sc, &e, prm->eps, tr.best_p);
            memcpy(w, wbest, dbytes);
            b = tr.bbest;
            restart = 1;
            continue;
        }
        if (overshoot) begin_sequence(wstar, w, G, dbytes, &bstar, b, &Gb, &k);
        /* Nesterov step (33)-(35) */
        nv_obj_grad(&obj, w, sc.nu, g);
        double wk = 0.5 * (double)(k + 1);
        double cz = 2.0 / (double)(k + 3), cy = (double)(k + 1) / (double)(k + 3);
        for (int32_t j = 0; j < d; j++) {
            double yj = w[j] - g[j] / L;
            G[j] += wk * g[j];
            w[j] = cz * (wstar[j] - G[j] / L) + cy * yj;
        }
        if (bias) {
            double yb = b - e.gb / L;
            Gb += wk * e.gb;
            b = cz * (bstar - Gb / L) + cy * yb;
        }
        k++;
    }
    nv_track_sparsify(&tr, &obj, sc.nu, tmp);
    nv_track_result(&tr, res);
out:
    res->seconds = nv_now() - t0;
    nv_free(w);
    nv_free(wstar);
    nv_free(G);
    nv_free(wbest);
    nv_free(tmp);
    nv_free(g);
    nv_obj_free(&obj);
    return st;
}
