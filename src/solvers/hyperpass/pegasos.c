/*
 * pegasos.c - mini-batch Pegasos (Shalev-Shwartz et al.), as a solver of its
 * own and as Hyperpass's warm start (the paper's Figure 6).
 *
 * Problem (hinge.h): P(w) = 1/2 ||w||^2 + sum_i c_i hinge_i, run as
 * f = P / sum c_i = lambda/2 ||w||^2 + sum_i p_i hinge_i with lambda = 1/sum c_i
 * and p_i = c_i lambda (p_i = 1/N and lambda the paper's when c_i = 1/(lambda N)).
 *
 * Step t on a batch A_t of k samples (consecutive in a random permutation of
 * each pass; k = --batch, default 1000, at most n):
 *     eta_t = 1/(lambda t),
 *     w <- (1 - eta_t lambda) w + eta_t/k sum_{i in A_t, y_i <z_i, w> < 1} N p_i y_i z_i,
 *     w <- min(1, (1/sqrt(lambda)) / ||w||) w           (projection step).
 * N p_i = 1 with equal costs: an unbiased subgradient otherwise.
 *
 * The solver runs passes of ceil(n/k) steps (one "iteration" in the paper's
 * plots and here); after each pass it evaluates P (one product per sample)
 * and a certified lower bound, Hyperpass's g3 at the iterate (nv_hp_bound_at:
 * the samples nearest the margin kept as hinges, the rest linearized; one
 * X^T a and a small QP).  It stops at relative gap <= eps, max_iter passes or
 * the time limit, and returns the pass with the smallest P.
 */
#include "hyperpass.h"
#include "hpline.h"
#include "../track.h"

#include <math.h>
#include <string.h>

nesvm_status nv_pegasos_init(nv_pegasos *pg, const nv_hinge *h, const nesvm_params *prm,
                             nesvm_error *err)
{
    memset(pg, 0, sizeof *pg);
    pg->k = prm->batch < h->n ? prm->batch : h->n;
    if (pg->k < 1) pg->k = 1;
    pg->rng = prm->seed * UINT64_C(0x9E3779B97F4A7C15) + 0x5eed;
    pg->perm = nv_malloc_array((size_t)(h->n ? h->n : 1), sizeof(int64_t));
    pg->mb = nv_malloc_array((size_t)pg->k, sizeof(double));
    if (!pg->perm || !pg->mb) {
        nv_pegasos_free(pg);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for Pegasos");
    }
    for (int64_t i = 0; i < h->n; i++) pg->perm[i] = i;
    return NESVM_OK;
}

void nv_pegasos_free(nv_pegasos *pg)
{
    nv_free(pg->perm);
    nv_free(pg->mb);
    pg->perm = NULL;
    pg->mb = NULL;
}

void nv_pegasos_epochs(nv_pegasos *pg, nv_hinge *h, int64_t epochs, double *w)
{
    const int64_t n = h->n, D = h->D, k = pg->k;
    const double lambda = 1.0 / h->csum, radius = 1.0 / sqrt(lambda);
    for (int64_t e = 0; e < epochs; e++) {
        for (int64_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
            int64_t j = (int64_t)(nv_rng_next(&pg->rng) % (uint64_t)(i + 1));
            int64_t t = pg->perm[i];
            pg->perm[i] = pg->perm[j];
            pg->perm[j] = t;
        }
        for (int64_t lo = 0; lo < n; lo += k) {
            int64_t hi = lo + k < n ? lo + k : n, kb = hi - lo;
            for (int64_t a = 0; a < kb; a++) pg->mb[a] = nv_hinge_dot(h, pg->perm[lo + a], w);
            pg->t++;
            double eta = 1.0 / (lambda * (double)pg->t);
            double shrink = 1.0 - eta * lambda;
            for (int64_t j = 0; j < D; j++) w[j] *= shrink;
            for (int64_t a = 0; a < kb; a++) {
                int64_t i = pg->perm[lo + a];
                if (pg->mb[a] < 1) nv_hinge_axpy(h, i, eta / (double)kb * (double)n * h->c[i] * lambda, w);
            }
            double nw = sqrt(nv_dot(w, w, D));
            if (nw > radius)
                for (int64_t j = 0; j < D; j++) w[j] *= radius / nw;
        }
    }
}

nesvm_status nv_pegasos_run(nv_hinge *h, const nesvm_params *prm, int64_t epochs, double *w,
                            nesvm_error *err)
{
    nv_pegasos pg;
    nesvm_status st = nv_pegasos_init(&pg, h, prm, err);
    if (st != NESVM_OK) return st;
    memset(w, 0, (size_t)h->D * sizeof *w);
    nv_pegasos_epochs(&pg, h, epochs, w);
    nv_pegasos_free(&pg);
    return NESVM_OK;
}


nesvm_status nv_pegasos_train(const nv_binary_problem *pb, const nesvm_params *prm,
                              const nv_progress_sink *sink, nv_binary_result *res,
                              nesvm_error *err)
{
    double t0 = nv_now();
    /* a subgradient method reaches a relative gap eps after about 1/eps
     * passes: below 1e-6 it would run to --max-iter, not to the gap */
    if (prm->eps < NV_PEGASOS_EPS_MIN && !(prm->eps_abs >= NV_PEGASOS_EPS_MIN)) {
        char e[32];
        nv_format_double(prm->eps, e);
        return nv_error(err, NESVM_ERR_ARG,
                        "-e %s is below what Pegasos can reach (a relative gap eps takes about "
                        "1/eps passes): use -e 1e-6 or more, or --solver hyperpass for tight gaps",
                        e);
    }
    nv_hinge h;
    nv_pegasos pg;
    memset(&pg, 0, sizeof pg);
    nesvm_status st = nv_hinge_init(&h, pb, prm, err);
    if (st == NESVM_OK) st = nv_pegasos_init(&pg, &h, prm, err);
    const size_t D = (size_t)(h.D ? h.D : 1);
    double *w = nv_malloc_array(2 * D, sizeof(double));
    double *m = nv_malloc_array((size_t)(h.n ? h.n : 1), sizeof(double));
    double *state = NULL;
    if (st == NESVM_OK && (!w || !m)) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for Pegasos");
    if (st != NESVM_OK) goto out;
    double *wbest = w + D;
    memset(w, 0, D * sizeof *w);
    nesvm_params tp = *prm;
    tp.eps_abs = 0;
    nv_track tr;
    nv_track_init(&tr, &tp, sink, (int32_t)h.D, wbest, t0);
    tr.d_model = h.d; /* checkpoints: w and b = B w[d] */
    tr.B = h.B;
    memcpy(wbest, w, D * sizeof *w);
    /* checkpoints: the whole state after a pass (PG_STATE entries, then the
     * permutation, the iterate and the best point), so that a resume
     * continues exactly: the same steps, batches and result */
    enum { PG_T, PG_RNG_HI, PG_RNG_LO, PG_BEST_P, PG_BEST_D, PG_NSV, PG_STATE };
    const int64_t nstate = PG_STATE + h.n + 2 * (int64_t)D;
    const double *x;
    st = nv_track_state(&tr, sink, nstate, &state, &x, "Pegasos", err);
    if (st != NESVM_OK) goto out;
    if (x) {
        pg.t = (int64_t)x[PG_T];
        pg.rng = (uint64_t)x[PG_RNG_HI] << 32 | (uint64_t)x[PG_RNG_LO];
        for (int64_t i = 0; i < h.n; i++) {
            pg.perm[i] = (int64_t)x[PG_STATE + i];
            if (pg.perm[i] < 0 || pg.perm[i] >= h.n) {
                st = nv_error(err, NESVM_ERR_ARG, "the checkpoint's Pegasos state does not fit this problem");
                goto out;
            }
        }
        memcpy(w, x + PG_STATE + h.n, D * sizeof *w);
        memcpy(wbest, x + PG_STATE + h.n + (int64_t)D, D * sizeof *w);
        tr.best_p = x[PG_BEST_P];
        tr.best_d = x[PG_BEST_D];
        tr.nsv_best = (int64_t)x[PG_NSV];
    }
    double gap = 1.0;
    for (;;) {
        nv_pegasos_epochs(&pg, &h, 1, w);
        nv_hinge_margins(&h, w, m);
        nv_obj_eval e;
        memset(&e, 0, sizeof e);
        e.P = e.Fmu = nv_hinge_primal(&h, w, m);
        st = nv_hp_bound_at(&h, m, NULL, 0.5, NV_HP_MAX_LA, &e.D, NULL, err);
        if (st != NESVM_OK) break;
        e.Dmu = e.D;
        for (int64_t i = 0; i < h.n; i++) e.nsv += m[i] <= 1.0;
        nv_track_info info = {NAN, NAN, h.csum / (double)pg.t, 0, 0, 0, 0, 0, NAN, NAN}; /* step: eta_t */
        if (state) { /* the state after this pass, as nv_track_iterate will leave it */
            state[PG_T] = (double)pg.t;
            state[PG_RNG_HI] = (double)(pg.rng >> 32);
            state[PG_RNG_LO] = (double)(pg.rng & 0xffffffffu);
            int better = e.P < tr.best_p;
            state[PG_BEST_P] = better ? e.P : tr.best_p;
            state[PG_BEST_D] = e.D > tr.best_d ? e.D : tr.best_d;
            state[PG_NSV] = (double)(better ? e.nsv : tr.nsv_best);
            for (int64_t i = 0; i < h.n; i++) state[PG_STATE + i] = (double)pg.perm[i];
            memcpy(state + PG_STATE + h.n, w, D * sizeof *w);
            memcpy(state + PG_STATE + h.n + (int64_t)D, better ? w : wbest, D * sizeof *w);
        }
        int stop = nv_track_iterate(&tr, &e, w, 0.0, &info, &st, err);
        gap = nv_track_rel(tr.best_p - tr.best_d, tr.best_p);
        if (stop) break;
        if (prm->eps_abs > 0 && (tr.best_p - tr.best_d) / h.csum < prm->eps_abs) {
            tr.why = NESVM_EXIT_CONVERGED;
            break;
        }
    }
    if (st == NESVM_OK) {
        res->exit_reason = tr.why;
        res->iterations = tr.iter;
        res->primal = tr.best_p;
        res->lower_bound = tr.best_d;
        res->gap = gap < 0 ? 0 : gap;
        res->n_sv = tr.nsv_best;
        nv_hinge_result(&h, wbest, res->w, &res->b);
        res->dots = h.dots;
        res->axpys = h.axpys;
    }
out:
    res->seconds = nv_now() - t0;
    nv_free(w);
    nv_free(m);
    nv_free(state);
    nv_pegasos_free(&pg);
    nv_hinge_free(&h);
    return st;
}
