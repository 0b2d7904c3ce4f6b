/*
 * nesvm_linear.c - NESVM (Nesterov's method on the smoothed primal) for the
 * linear C-SVM with a free bias.
 *
 * Problem (the one written to model files as c_svm_hinge_l2):
 *
 *     min_{w,b}  P(w,b) = 1/2 ||w||^2 + sum_i c_i max(0, 1 - y_i (x_i.w + b))
 *
 * with c_i = C * weight(y_i) and b unregularized (eq. 37 of the paper; with
 * bias = 0 the b term is absent).  Smoothing (eq. 5-10): with the
 * prox-function weighted by s_i = ||[x_i, 1]||_inf,
 *
 *     h_mu(r) = 0 (r <= 0);  r^2 / (2 mu s_i) (0 < r < mu s_i);  r - mu s_i / 2 (else),
 *     u_i = median(r_i / (mu s_i), 0, 1),   r_i = 1 - y_i (x_i.w + b),
 *
 * F_mu = 1/2||w||^2 + sum c_i h_mu(r_i), gradient (47): w - X^T (c y u) and
 * -sum c_i y_i u_i for b.  Steps (33)-(35) with prox-center w* = w0:
 *     y_k = w_k - g_k / L,  z_k = w* - (1/L) sum_{i<=k} (i+1)/2 g_i,
 *     w_{k+1} = 2/(k+3) z_k + (k+1)/(k+3) y_k.
 *
 * Lipschitz constant: "paper" is eq. (48), 1 + (n/mu) max_i c_i ||[x_i 1]||^2 / s_i;
 * "power" (default) is 1 + lambda_max(Z^T D Z)/mu with Z = [X 1], D = diag(c_i/s_i),
 * estimated by 30 power iterations times a 1.1 safety factor and capped by (48).
 *
 * Certificate: alpha_i = c_i u_i lies in the dual box; with a bias, the class
 * with the larger sum of alpha is scaled down so that sum alpha_i y_i = 0.
 * The dual value D(alpha) = sum alpha_i - 1/2 ||X^T (alpha y)||^2 is then a
 * lower bound on min P, and (best P - best D)/|best P| is a certified relative
 * gap.  Its smoothed counterpart D_mu = D - mu/2 sum s_i alpha_i^2 / c_i bounds
 * min F_mu from below.
 *
 * Stopping (documented in docs/solvers.md):
 *   - certified relative gap <= eps                         -> converged;
 *   - mu given (fixed): smoothed relative gap
 *     (F_mu - D_mu)/|F_mu| <= eps                            -> converged;
 *   - eps_abs > 0: the paper's |F_mu(w_k+1) - F_mu(w_k)| < eps_abs -> converged;
 *   - mu automatic (mu = 0): start at mu = 1; when the smoothed gap falls
 *     below a quarter of the true gap the remaining gap is due to smoothing,
 *     so mu is reduced in proportion and Nesterov restarts from the best point
 *     (a continuation in the spirit of homotopy NESVM, Algorithm 2).
 * The returned point is the iterate with the smallest P seen.
 *
 * Cost per iteration: one X*w and one X^T*a (rows with u_i = 0 are skipped),
 * plus O(n + d).  Memory: 3n + 8d doubles.
 */
#include "solver.h"

#include <math.h>
#include <string.h>

typedef struct ws_t {
    double *s, *cost_s, *m, *a, *vp, *vn, *w, *wy, *wstar, *G, *g, *wbest;
} ws_t;

static void ws_free(ws_t *ws)
{
    double **f[] = {&ws->s, &ws->cost_s, &ws->m,  &ws->a, &ws->vp,    &ws->vn,
                    &ws->w, &ws->wy,     &ws->wstar, &ws->G, &ws->g, &ws->wbest};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        nv_free(*f[i]);
        *f[i] = NULL;
    }
}

/* lambda_max of Z^T D Z, Z = [X (1)], D = diag(dw), by power iteration. */
static double power_lambda(const nv_binary_problem *pb, int bias, const double *dw, ws_t *ws,
                           nv_linalg_ws *lw, uint64_t seed)
{
    int64_t n = pb->n;
    int32_t d = pb->X->d;
    double *v = ws->g;   /* d */
    double vb = bias ? 1.0 : 0.0;
    uint64_t st = seed ^ UINT64_C(0x5EED);
    for (int32_t j = 0; j < d; j++) v[j] = 0.5 + nv_rng_uniform(&st);
    double lam = 0;
    for (int it = 0; it < 30; it++) {
        double nrm = sqrt(nv_dot(v, v, d) + vb * vb);
        if (nrm == 0) return 0;
        for (int32_t j = 0; j < d; j++) v[j] /= nrm;
        vb /= nrm;
        nv_xw(pb->X, pb->rows, n, v, vb, ws->m, lw->threads);
        double sb = 0;
        for (int64_t i = 0; i < n; i++) {
            ws->a[i] = dw[i] * ws->m[i];
            sb += ws->a[i];
        }
        nv_xta(pb->X, pb->rows, n, ws->a, NULL, ws->vp, NULL, lw);
        /* Rayleigh quotient v^T A v with |v| = 1 */
        double q = nv_dot(v, ws->vp, d) + (bias ? vb * sb : 0);
        lam = q;
        memcpy(v, ws->vp, (size_t)d * sizeof *v);
        vb = bias ? sb : 0;
    }
    return lam;
}

nesvm_status nv_nesvm_linear_train(const nv_binary_problem *pb, const nesvm_params *prm,
                                   const nv_progress_sink *sink, nv_binary_result *res,
                                   nesvm_error *err)
{
    const double t0 = nv_now();
    const int64_t n = pb->n;
    const int32_t d = pb->X->d;
    const int bias = prm->bias;
    ws_t ws;
    memset(&ws, 0, sizeof ws);
    nv_linalg_ws lw = {0};
    nesvm_status st = nv_linalg_ws_init(&lw, prm->threads, d, err);
    if (st != NESVM_OK) return st;
    size_t nn = (size_t)(n ? n : 1), dd = (size_t)(d ? d : 1);
    ws.s = nv_malloc_array(nn, sizeof(double));
    ws.cost_s = nv_malloc_array(nn, sizeof(double));
    ws.m = nv_malloc_array(nn, sizeof(double));
    ws.a = nv_malloc_array(nn, sizeof(double));
    ws.vp = nv_malloc_array(dd, sizeof(double));
    ws.vn = nv_malloc_array(dd, sizeof(double));
    ws.w = nv_malloc_array(dd, sizeof(double));
    ws.wy = nv_malloc_array(dd, sizeof(double));
    ws.wstar = nv_malloc_array(dd, sizeof(double));
    ws.G = nv_malloc_array(dd, sizeof(double));
    ws.g = nv_malloc_array(dd, sizeof(double));
    ws.wbest = nv_malloc_array(dd, sizeof(double));
    if (!ws.s || !ws.cost_s || !ws.m || !ws.a || !ws.vp || !ws.vn || !ws.w || !ws.wy ||
        !ws.wstar || !ws.G || !ws.g || !ws.wbest) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for NESVM work arrays (n=%lld, d=%d)",
                      (long long)n, d);
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }

    /* smoothing scales s_i and the paper's Lipschitz bound (48) */
    nv_row_norms(pb->X, pb->rows, n, ws.s, ws.m);
    double paper_max = 0;
    for (int64_t i = 0; i < n; i++) {
        double s = ws.s[i];
        if (bias && s < 1) s = 1;
        if (s == 0) s = 1; /* an all-zero row without bias: constant loss */
        ws.s[i] = s;
        double q = pb->cost[i] * (ws.m[i] + (bias ? 1.0 : 0.0)) / s;
        if (q > paper_max) paper_max = q;
        ws.cost_s[i] = pb->cost[i] / s;
    }
    double lam_paper = (double)n * paper_max; /* L = 1 + lam/mu */
    double lam = lam_paper;
    if (prm->lipschitz == NV_LIP_POWER) {
        double est = 1.1 * power_lambda(pb, bias, ws.cost_s, &ws, &lw, prm->seed);
        if (est > 0 && est < lam) lam = est;
    }

    const int auto_mu = prm->mu <= 0;
    double mu = auto_mu ? 1.0 : prm->mu;

    /* starting point */
    if (pb->w0)
        memcpy(ws.w, pb->w0, (size_t)d * sizeof(double));
    else
        memset(ws.w, 0, (size_t)d * sizeof(double));
    double b = bias ? pb->b0 : 0.0;
    memcpy(ws.wbest, ws.w, (size_t)d * sizeof(double));
    double bbest = b;
    double best_p = INFINITY, best_d = -INFINITY;
    int64_t nsv_best = 0;

    int64_t iter = 0;     /* total iterations */
    nesvm_exit why = NESVM_EXIT_MAX_ITER;
    int stage_restart = 1;
    int64_t k = 0;        /* iteration within the stage */
    double L = 0, bstar = 0, Gb = 0, fmu_prev = NAN;

    while (1) {
        if (stage_restart) {
            /* prox-center = current point, fresh gradient sum */
            memcpy(ws.wstar, ws.w, (size_t)d * sizeof(double));
            bstar = b;
            memset(ws.G, 0, (size_t)d * sizeof(double));
            Gb = 0;
            k = 0;
            L = 1.0 + lam / mu;
            fmu_prev = NAN;
            stage_restart = 0;
        }
        /* ---- evaluate at w_k: margins, objectives, dual variables */
        nv_xw(pb->X, pb->rows, n, ws.w, b, ws.m, lw.threads);
        double hinge = 0, hmu = 0, sp = 0, sn = 0, qp = 0, qn = 0;
        int64_t nsv = 0, nbound = 0;
        for (int64_t i = 0; i < n; i++) {
            double c = pb->cost[i], s = ws.s[i];
            double r = 1.0 - pb->y[i] * ws.m[i];
            double u = 0;
            if (r > 0) {
                hinge += c * r;
                double t = mu * s;
                if (r >= t) {
                    u = 1.0;
                    hmu += c * (r - 0.5 * t);
                    nbound++;
                } else {
                    u = r / t;
                    hmu += c * r * u * 0.5;
                }
                nsv++;
            }
            double alpha = c * u;
            ws.a[i] = alpha;
            if (pb->y[i] > 0) {
                sp += alpha;
                qp += c * s * u * u;
            } else {
                sn += alpha;
                qn += c * s * u * u;
            }
        }
        nv_xta(pb->X, pb->rows, n, ws.a, pb->y, ws.vp, ws.vn, &lw);
        double ww = nv_dot(ws.w, ws.w, d);
        double P = 0.5 * ww + hinge;
        double Fmu = 0.5 * ww + hmu;
        /* dual-feasible scaling and dual values */
        double rp = 1, rn = 1;
        if (bias) {
            if (sp > sn)
                rp = sp > 0 ? sn / sp : 1;
            else if (sn > sp)
                rn = sn > 0 ? sp / sn : 1;
        }
        double vv = 0;
        for (int32_t j = 0; j < d; j++) {
            double v = rp * ws.vp[j] - rn * ws.vn[j];
            vv += v * v;
        }
        double D = rp * sp + rn * sn - 0.5 * vv;
        double Dmu = D - 0.5 * mu * (rp * rp * qp + rn * rn * qn);
        if (!isfinite(P) || !isfinite(Fmu) || !isfinite(D)) {
            why = NESVM_EXIT_NUMERIC;
            st = nv_error(err, NESVM_ERR_NUMERIC,
                          "NESVM: non-finite objective at iteration %lld (check the data scale)",
                          (long long)iter + 1);
            break;
        }
        if (P < best_p) {
            best_p = P;
            memcpy(ws.wbest, ws.w, (size_t)d * sizeof(double));
            bbest = b;
            nsv_best = nsv;
        }
        if (D > best_d) best_d = D;
        iter++;
        double scale = fabs(best_p) > 1e-300 ? fabs(best_p) : 1e-300;
        double gap = (best_p - best_d) / scale;
        if (gap < 0) gap = 0;

        if (sink && sink->fn && (iter % prm->progress_every == 0 || iter == 1)) {
            nesvm_progress pg = {sink->submodel, sink->n_submodels, iter, nv_now() - t0,
                                 P, best_p, Fmu, best_d, gap, mu, L, nsv, nbound};
            if (sink->fn(&pg, sink->user)) {
                why = NESVM_EXIT_CANCELLED;
                st = nv_error(err, NESVM_ERR_CANCELLED, "training cancelled at iteration %lld",
                              (long long)iter);
                break;
            }
        }
        /* ---- stopping rules */
        if (gap <= prm->eps) {
            why = NESVM_EXIT_CONVERGED;
            break;
        }
        double sgap = (Fmu - Dmu) / (fabs(Fmu) > 1e-300 ? fabs(Fmu) : 1e-300);
        if (!auto_mu && sgap <= prm->eps) {
            why = NESVM_EXIT_CONVERGED;
            break;
        }
        if (prm->eps_abs > 0 && k > 0 && fabs(Fmu - fmu_prev) < prm->eps_abs) {
            why = NESVM_EXIT_CONVERGED;
            break;
        }
        if (iter >= prm->max_iter) {
            why = NESVM_EXIT_MAX_ITER;
            break;
        }
        if (prm->time_limit > 0 && nv_now() - t0 >= prm->time_limit) {
            why = NESVM_EXIT_TIME_LIMIT;
            break;
        }
        fmu_prev = Fmu;
        if (auto_mu && k > 0 && (Fmu - Dmu) <= 0.25 * (P - D)) {
            /* the remaining gap is mostly smoothing error: shrink mu and restart */
            double smooth_part = (P - D) - (Fmu - Dmu);
            double target = 0.5 * prm->eps * scale;
            double f = smooth_part > 0 ? target / smooth_part : 0.01;
            if (f < 0.01) f = 0.01;
            if (f > 0.5) f = 0.5;
            mu *= f;
            memcpy(ws.w, ws.wbest, (size_t)d * sizeof(double));
            b = bbest;
            stage_restart = 1;
            continue;
        }
        /* ---- Nesterov step (33)-(35) */
        double gb = bias ? -(sp - sn) : 0.0;
        double wk = 0.5 * (double)(k + 1);
        double cz = 2.0 / (double)(k + 3), cy = (double)(k + 1) / (double)(k + 3);
        for (int32_t j = 0; j < d; j++) {
            double g = ws.w[j] - (ws.vp[j] - ws.vn[j]);
            double yj = ws.w[j] - g / L;
            ws.G[j] += wk * g;
            double zj = ws.wstar[j] - ws.G[j] / L;
            ws.w[j] = cz * zj + cy * yj;
        }
        if (bias) {
            double yb = b - gb / L;
            Gb += wk * gb;
            double zb = bstar - Gb / L;
            b = cz * zb + cy * yb;
        }
        k++;
    }

    res->exit_reason = why;
    res->iterations = iter;
    res->primal = best_p;
    res->lower_bound = best_d;
    res->gap = isfinite(best_p) ? (best_p - best_d) / (fabs(best_p) > 1e-300 ? fabs(best_p) : 1e-300) : NAN;
    if (res->gap < 0) res->gap = 0;
    res->n_sv = nsv_best;
    memcpy(res->w, ws.wbest, (size_t)d * sizeof(double));
    res->b = bbest;
out:
    res->seconds = nv_now() - t0;
    ws_free(&ws);
    nv_linalg_ws_free(&lw);
    return st;
}
