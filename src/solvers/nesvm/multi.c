/*
 * multi.c - NESVM's joint multiclass problems (the registry's train_multi):
 * Crammer and Singer's multiclass SVM and the multinomial logistic
 * regression, exactly as multi.h states them (problems, smoothing, dual,
 * certificate), by truncated Newton with an exact line search.
 *
 * One iteration at theta = (W, b):
 *   1. evaluation (multi_obj.c): P, F_mu, the balanced dual point's D and
 *      D_mu, the gradient's v_m and s_m (k X^T*a over the margins kept in
 *      o->M); the tracker (track.h) keeps the best point and the best
 *      lower bound, certifies the gap, reports progress and stops;
 *   2. direction: preconditioned conjugate gradients on H x = -g (H the
 *      Hessian of F_mu: k X*w and k X^T*a a product; Jacobi's
 *      preconditioner), to the relative residual min(NV_NESVM_CG_TOL,
 *      sqrt(||g|| / ||g_0||)) (the forcing term that makes the softmax's
 *      steps superlinear), at most NV_NESVM_CG_MAX products; a free bias's
 *      part centred (sum_m b_m = 0);
 *   3. the direction's margins (k X*w) and the exact line search along it
 *      (phi convex, its derivatives O(n k) from the margins, no pass over
 *      X); the margins updated, recomputed every NV_NESVM_REFRESH steps.
 * Crammer and Singer's max is smoothed with the entropy of width mu and mu
 * shrinks along NESVM's schedule (track.h's nv_sched: adaptive by default, a
 * stage ends when the smoothed gap is a quarter of the true one, mu_star,
 * the paper's homotopy); the softmax is smooth (mu = 1, one stage).  Two
 * steps in a row that do not lower F_mu end a stage, or in the last one the
 * training (exit stalled).  "converged" only when the certified gap is eps
 * (or, in a fixed-mu final stage, its smoothed problem's gap).
 *
 * --method dcd, and auto where multi_dcd.c takes the problem (Crammer and
 * Singer on one process without the smoothing options), go to the dual
 * method instead (nv_nesvm_multi_dcd_train).
 *
 * A warm start (the C path's previous solution, --init) starts Crammer and
 * Singer's schedule at the mu among mu0 / 4^j, j < NV_SCHED_WARM_TRIES, whose
 * dual point gives the best lower bound there (one evaluation each).
 */
#include "nesvm_solver.h"
#include "multi.h"
#include "tuning.h"
#include "../track.h"
#include "../../linalg/cg.h"

#include <math.h>
#include <string.h>

typedef struct multi_ws {
    nv_mobj *o;
    double mu;
    double *diag, *u; /* the preconditioner; n x k scratch of the products */
    int64_t len;      /* nv_mobj_size */
} multi_ws;

static nesvm_status cg_apply(void *ctx, const double *p, double *hp)
{
    multi_ws *ws = ctx;
    nv_mobj_hess_vec(ws->o, ws->mu, p, hp, ws->u);
    return ws->o->cst;
}

static void cg_precond(void *ctx, const double *r, double *z, int c)
{
    const multi_ws *ws = ctx;
    (void)c;
    for (int64_t j = 0; j < ws->len; j++) z[j] = r[j] / ws->diag[j];
}

/* A free bias: centre the k entries at b (sum 0); none: zero them. */
static void fix_bias(const nv_mobj *o, double *b)
{
    if (o->bias == NV_MULTI_BIAS_NONE) {
        memset(b, 0, (size_t)o->k * sizeof *b);
    } else if (o->bias == NV_MULTI_BIAS_FREE) {
        double s = 0;
        for (int m = 0; m < o->k; m++) s += b[m];
        s /= o->k;
        for (int m = 0; m < o->k; m++) b[m] -= s;
    }
}

nesvm_status nv_nesvm_multi_train(const nv_multi_problem *mp, const nesvm_params *prm,
                                  const nv_progress_sink *sink, nv_multi_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int k = mp->k;
    const int32_t d = mp->X->d;
    const int64_t len = (int64_t)k * ((int64_t)d + 1), kd = (int64_t)k * d, n = mp->n;
    const int softmax = mp->kind == NV_MULTI_SOFTMAX;
    res->exit_reason = NESVM_EXIT_NUMERIC;
    res->primal = res->lower_bound = res->gap = res->mu = NAN;
    if (len > INT32_MAX) /* the tracker's point (either method's) */
        return nv_error(err, NESVM_ERR_DATA,
                        "the joint problem of %d classes and %d features has %lld unknowns: more than the "
                        "solver's 2^31 - 1",
                        k, d, (long long)len);
    if (prm->method == NV_METHOD_DCD || (prm->method == NV_METHOD_AUTO && nv_nesvm_multi_dcd_takes(mp, prm)))
        return nv_nesvm_multi_dcd_train(mp, prm, sink, res, err);
    nv_mobj o;
    nesvm_status st = nv_mobj_init(&o, mp, prm->threads, err);
    if (nv_comm_many(mp->comm)) st = nv_comm_agree(mp->comm, st, err);
    if (st != NESVM_OK) {
        res->exit_reason = st == NESVM_ERR_NOMEM ? NESVM_EXIT_NO_MEMORY : NESVM_EXIT_NUMERIC;
        return st;
    }
    const size_t L = (size_t)len;
    double *theta = nv_malloc_array(L, sizeof(double)), *best = nv_malloc_array(L, sizeof(double));
    double *g = nv_malloc_array(L, sizeof(double)), *x = nv_malloc_array(L, sizeof(double));
    double *r = nv_malloc_array(L, sizeof(double)), *z = nv_malloc_array(L, sizeof(double));
    double *p = nv_malloc_array(L, sizeof(double)), *hp = nv_malloc_array(L, sizeof(double));
    double *diag = nv_malloc_array(L, sizeof(double));
    double *U = nv_malloc_array((size_t)(n ? n : 1) * (size_t)k, sizeof(double));
    double *u = nv_malloc_array((size_t)(n ? n : 1) * (size_t)k, sizeof(double));
    if (!theta || !best || !g || !x || !r || !z || !p || !hp || !diag || !U || !u)
        st = nv_error(err, NESVM_ERR_NOMEM,
                      "out of memory for the joint problem's Newton arrays (%lld unknowns)", (long long)len);
    if (nv_comm_many(mp->comm)) st = nv_comm_agree(mp->comm, st, err);
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    /* the start: the warm start's point (biases centred or dropped), else 0 */
    for (int64_t j = 0; j < kd; j++) theta[j] = mp->w0 ? mp->w0[j] : 0.0;
    for (int m = 0; m < k; m++) theta[kd + m] = mp->b0 ? mp->b0[m] : 0.0;
    fix_bias(&o, theta + kd);
    memcpy(best, theta, L * sizeof(double));
    nv_sched sc;
    nv_sched_init(&sc, prm, !softmax, 0, NV_NESVM_MU0, NV_NESVM_NU0, NV_NESVM_MU_MIN_FACTOR);
    nv_track tr;
    nv_track_init(&tr, prm, sink, (int32_t)len, best, t0);
    tr.comm = mp->comm;
    nv_track_new_stage(&tr);
    nv_mobj_margins(&o, theta);
    nv_obj_eval e;
    if (mp->w0 && !softmax && !sc.final) {
        /* a warm start: the first mu among mu0 / 4^j whose dual point bounds best */
        double best_d = -INFINITY, best_mu = sc.mu, mu = sc.mu;
        for (int j = 0; j < NV_SCHED_WARM_TRIES; j++, mu *= 0.25) {
            if (sc.mu_star > 0 && mu < sc.mu_star) break;
            nv_mobj_evaluate(&o, theta, mu, &e);
            if (e.D > best_d) {
                best_d = e.D;
                best_mu = mu;
            }
        }
        sc.mu = best_mu;
        if (sc.mode == NV_SCHED_PAPER) sc.t = (int64_t)floor(sc.mu0 / best_mu + 0.5) - 1;
    }
    multi_ws ws = {&o, softmax ? 1.0 : sc.mu, diag, u, len};
    int64_t since_refresh = 0, cg_its = 0;
    double step = NAN, f_before = NAN, g0 = NAN;
    int stalls = 0;
    while (1) {
        ws.mu = softmax ? 1.0 : sc.mu;
        nv_mobj_evaluate(&o, theta, ws.mu, &e);
        if (o.cst != NESVM_OK) {
            st = nv_error(err, o.cst, "%s", o.cerr.message);
            break;
        }
        if (isfinite(f_before)) stalls = e.Fmu < f_before - 1e-15 * fabs(f_before) ? 0 : stalls + 1;
        nv_track_info info = {
            softmax ? NAN : sc.mu, NAN, step, cg_its, softmax || sc.final, 0, 0, 0, NAN, NAN};
        if (nv_track_iterate(&tr, &e, theta, 0.0, &info, &st, err)) break;
        if (!softmax && !sc.final && (nv_sched_stage_done(&sc, &tr, &e) || stalls >= 2)) {
            nv_sched_next(&sc, &e, prm->eps, tr.best_p);
            nv_track_new_stage(&tr);
            ws.mu = sc.mu;
            nv_mobj_margins(&o, theta);
            since_refresh = 0;
            stalls = 0;
            f_before = NAN;
            g0 = NAN;
            nv_mobj_evaluate(&o, theta, ws.mu, &e);
            if (o.cst != NESVM_OK) {
                st = nv_error(err, o.cst, "%s", o.cerr.message);
                break;
            }
        } else if (stalls >= 2) {
            tr.why = NESVM_EXIT_STALLED;
            break;
        }
        /* the direction: CG on H x = -g */
        nv_mobj_grad(&o, theta, g);
        const double gn = sqrt(nv_dot(g, g, len));
        if (!isfinite(g0)) g0 = gn;
        nv_mobj_hess_diag(&o, ws.mu, diag);
        for (int64_t j = 0; j < len; j++) r[j] = -g[j];
        double tol = softmax && g0 > 0 ? sqrt(gn / g0) : NV_NESVM_CG_TOL;
        if (!(tol <= NV_NESVM_CG_TOL)) tol = NV_NESVM_CG_TOL;
        nv_cg_ops ops = {&ws, len, 1, cg_apply, NULL, cg_precond, NV_NESVM_CG_MAX, tol, NV_CG_NORM};
        nv_cg_result cr;
        st = nv_cg(&ops, x, r, z, p, hp, &cr);
        if (st != NESVM_OK || o.cst != NESVM_OK) {
            st = nv_error(err, o.cst != NESVM_OK ? o.cst : st, "%s",
                          o.cst != NESVM_OK ? o.cerr.message : "CG failed");
            tr.why = NESVM_EXIT_NUMERIC;
            break;
        }
        cg_its = cr.applies;
        if (cr.applies == 0 || nv_dot(x, x, len) == 0) /* no CG step: -D^-1 g */
            for (int64_t j = 0; j < len; j++) x[j] = -g[j] / diag[j];
        fix_bias(&o, x + kd);
        /* the exact line search along x */
        nv_mobj_dir_margins(&o, x, U);
        step = nv_mobj_line_search(&o, theta, x, U, ws.mu);
        if (o.cst != NESVM_OK) {
            st = nv_error(err, o.cst, "%s", o.cerr.message);
            tr.why = NESVM_EXIT_NUMERIC;
            break;
        }
        f_before = e.Fmu;
        if (step > 0) {
            for (int64_t j = 0; j < len; j++) theta[j] += step * x[j];
            if (++since_refresh >= NV_NESVM_REFRESH) {
                nv_mobj_margins(&o, theta);
                since_refresh = 0;
            } else {
                for (int64_t i = 0; i < n * k; i++) o.M[i] += step * U[i];
            }
        }
    }
    res->exit_reason = tr.why;
    res->iterations = tr.iter;
    res->primal = tr.best_p;
    res->lower_bound = tr.best_d;
    res->gap = NAN;
    if (isfinite(tr.best_p)) nv_certify(tr.best_p, tr.best_d, &res->gap, NULL);
    res->n_sv = tr.nsv_best;
    res->mu = softmax ? NAN : tr.mu_best_d;
    memcpy(res->w, best, (size_t)kd * sizeof(double));
    memcpy(res->b, best + kd, (size_t)k * sizeof(double));
out:
    res->seconds = nv_now() - t0;
    nv_free(theta);
    nv_free(best);
    nv_free(g);
    nv_free(x);
    nv_free(r);
    nv_free(z);
    nv_free(p);
    nv_free(hp);
    nv_free(diag);
    nv_free(U);
    nv_free(u);
    nv_mobj_free(&o);
    return st;
}
