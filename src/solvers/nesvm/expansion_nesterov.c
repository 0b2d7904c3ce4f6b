/* expansion_nesterov.c - NESVM's Nesterov steps on a full kernel's expansion
 * (expansion.h): C-SVM and LS-SVM in the K metric. */
#include "expansion.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* lambda for Nesterov's step size: the largest eigenvalue of
 * W^1/2 (K + bias 1 1^T) W^1/2, W = diag(c_i) (LS-SVM) or diag(c_i / s_i)
 * (hinge, s_i = 1): the loss curvature of the linear solvers' Z^T W Z with
 * X = K^1/2.  Kind NV_LIP_PAPER: n max_i w_i (K_ii + bias), the analogue of
 * eq. (48); NV_LIP_POWER: 1.1 x 30 power steps, capped by it. */
static nesvm_status kernel_lipschitz(kws *ws, const nv_obj *o, int kind, uint64_t seed, double *lam)
{
    const nv_binary_problem *pb = o->pb;
    const int64_t n = ws->n;
    double paper = 0;
    for (int64_t i = 0; i < n; i++) {
        double q = pb->cost[i] * (nv_kmat_diag(ws->K, ws->pos[i]) + (ws->bias ? 1.0 : 0.0));
        if (q > paper) paper = q;
    }
    paper *= (double)n;
    *lam = paper;
    if (kind == NV_LIP_PAPER) return NESVM_OK;
    double *u = ws->r, *x = ws->dir, *kx = ws->kd;
    uint64_t st = seed ^ UINT64_C(0x5EED);
    for (int64_t i = 0; i < n; i++) u[i] = 0.5 + nv_rng_uniform(&st);
    double est = 0;
    for (int it = 0; it < 30; it++) {
        double nrm = sqrt(nv_dot(u, u, n));
        if (nrm == 0) break;
        double sx = 0;
        for (int64_t i = 0; i < n; i++) {
            x[i] = sqrt(pb->cost[i]) * u[i] / nrm;
            sx += x[i];
        }
        nesvm_status s = nv_kx_kmul(ws, x, kx);
        if (s != NESVM_OK) return s;
        est = 0;
        for (int64_t i = 0; i < n; i++) {
            double mu_i = sqrt(pb->cost[i]) * (kx[i] + (ws->bias ? sx : 0.0));
            est += (u[i] / nrm) * mu_i; /* Rayleigh quotient */
            u[i] = mu_i;
        }
    }
    est *= 1.1;
    if (est > 0 && est < paper) *lam = est;
    return NESVM_OK;
}

/* Nesterov's steps (33)-(35) in the K metric: with v = K^1/2 beta the problem
 * is the linear one on X = K^1/2, whose iterates map back linearly, so the
 * steps of nesterov.c run on beta with the natural gradient
 * g = beta - alpha y (and dF/db), and the margins follow by the same linear
 * combinations of K beta, K g = K beta - K(alpha y): one product
 * K[alpha_+ alpha_-] per iteration (K beta recomputed every NV_NESVM_REFRESH_NEST). */
nesvm_status nv_kx_nesterov_loop(kws *ws, nv_obj *obj, const nesvm_params *prm, nv_track *tr,
                                  double b, nesvm_error *err)
{
    const int64_t n = ws->n;
    const size_t nb = (size_t)(n ? n : 1) * sizeof(double);
    nws nw;
    memset(&nw, 0, sizeof nw);
    nesvm_status st = NESVM_OK;
    nw.bstar = nv_malloc(nb);
    nw.kbstar = nv_malloc(nb);
    nw.G = nv_malloc(nb);
    nw.KG = nv_malloc(nb);
    nw.kay = nv_malloc(nb);
    nw.k2 = nv_malloc(2 * nb);
    if (nv_obj_shift(obj) && ws->bias) nw.k1 = nv_malloc(nb);
    if (!nw.bstar || !nw.kbstar || !nw.G || !nw.KG || !nw.kay || !nw.k2 ||
        (nv_obj_shift(obj) && ws->bias && !nw.k1)) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel Nesterov work arrays (n=%lld)",
                      (long long)n);
        tr->why = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    if (nw.k1) {
        for (int64_t i = 0; i < n; i++) ws->r[i] = 1.0;
        st = nv_kx_kmul(ws, ws->r, nw.k1);
        if (st != NESVM_OK) goto out;
    }
    double lam;
    st = kernel_lipschitz(ws, obj, prm->lipschitz, prm->seed, &lam);
    if (st != NESVM_OK) goto out;
    nv_sched sc;
    nv_sched_init(&sc, prm, nv_obj_smoothed(obj), nv_obj_l1(obj), 1.0, 1.0, 0.01);
    int64_t k = 0, since = 0;
    int restart = 1;
    double L = 0, bstar = 0, Gb = 0, fmu_prev = NAN;
    nv_obj_eval e;
    while (1) {
        if (restart) {
            L = nv_obj_lipschitz_L(obj, lam, sc.mu, sc.nu);
            fmu_prev = NAN;
            nv_track_new_stage(tr);
        }
        for (int64_t i = 0; i < n; i++) obj->m[i] = ws->kb[i] + (ws->bias ? b : 0.0);
        st = nv_kx_evaluate_nesterov(ws, &nw, obj, sc.mu, sc.nu, &e);
        if (st != NESVM_OK) break;
        nv_track_info info = {sc.mu, L, NAN, 0, sc.final, 0, 0, 0, NAN, NAN};
        const double best_d = tr->best_d;
        const int stop = nv_track_iterate(tr, &e, ws->beta, b, &info, &st, err);
        nv_kx_keep_dual(ws, &e, best_d, tr);
        if (stop) break;
        int overshoot = prm->restart && !restart && k > 0 && e.Fmu > fmu_prev; /* adaptive restart */
        fmu_prev = e.Fmu;
        if (!restart && k > 0 && nv_sched_stage_done(&sc, tr, &e)) {
            /* shrink the smoothing and restart from the best point */
            nv_sched_next(&sc, &e, prm->eps, tr->best_p);
            memcpy(ws->beta, tr->wbest, nb);
            b = tr->bbest;
            st = nv_kx_kmul(ws, ws->beta, ws->kb);
            if (st != NESVM_OK) break;
            since = 0;
            restart = 1;
            continue;
        }
        if (restart || overshoot) { /* a new estimate sequence at the current point */
            memcpy(nw.bstar, ws->beta, nb);
            memcpy(nw.kbstar, ws->kb, nb);
            memset(nw.G, 0, nb);
            memset(nw.KG, 0, nb);
            bstar = b;
            Gb = 0;
            k = 0;
            restart = 0;
        }
        const double *a = obj->a;
        double wk = 0.5 * (double)(k + 1);
        double cz = 2.0 / (double)(k + 3), cy = (double)(k + 1) / (double)(k + 3);
        for (int64_t i = 0; i < n; i++) {
            double g = ws->beta[i] - nv_obj_sign(obj, i) * a[i], kg = ws->kb[i] - nw.kay[i];
            double yi = ws->beta[i] - g / L, kyi = ws->kb[i] - kg / L;
            nw.G[i] += wk * g;
            nw.KG[i] += wk * kg;
            ws->beta[i] = cz * (nw.bstar[i] - nw.G[i] / L) + cy * yi;
            ws->kb[i] = cz * (nw.kbstar[i] - nw.KG[i] / L) + cy * kyi;
        }
        if (ws->bias) {
            double yb = b - e.gb / L;
            Gb += wk * e.gb;
            b = cz * (bstar - Gb / L) + cy * yb;
        }
        k++;
        if (++since >= NV_NESVM_REFRESH_NEST) {
            st = nv_kx_kmul(ws, ws->beta, ws->kb);
            if (st != NESVM_OK) break;
            since = 0;
        }
    }
out:
    nv_free(nw.bstar);
    nv_free(nw.kbstar);
    nv_free(nw.G);
    nv_free(nw.KG);
    nv_free(nw.kay);
    nv_free(nw.k2);
    nv_free(nw.k1);
    return st;
}
