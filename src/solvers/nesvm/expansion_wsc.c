/*
 * expansion_wsc.c - what the two working sets share (expansion_ws.h): the
 * sub-problems' progress and checkpoints in the whole problem's units, the
 * first set, the rounds' K_SS.
 */
#include "expansion_ws.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int nv_ws_tick_fn(void *ctx)
{
    nv_ws_tick *t = ctx;
    if (!t->outer || !t->outer->fn) return 0;
    nesvm_progress q;
    if (t->have) {
        q = t->last;
    } else { /* nothing reported yet: iteration 0 of the first binary problem */
        memset(&q, 0, sizeof q);
        q.size = sizeof q;
        q.submodel = t->outer->submodel;
        q.n_submodels = t->outer->n_submodels;
        q.primal = q.best_primal = q.smoothed = q.lower_bound = q.gap = q.mu = q.lipschitz = NAN;
        q.step = q.residual = q.grad_norm = NAN;
    }
    q.elapsed = nv_now() - t->t0;
    return t->outer->fn(&q, t->outer->user);
}

static int ws_progress(const nesvm_progress *pg, void *user)
{
    const nv_ws_sink *w = user;
    nesvm_progress q = *pg;
    q.iteration += w->iter0;
    q.elapsed += w->t0_shift;
    w->tick->last = q;
    w->tick->have = 1;
    return w->outer->fn(&q, w->outer->user);
}

static int ws_checkpoint(void *ctx, const nv_snapshot *snap, int stopping)
{
    nv_ws_sink *w = ctx;
    memcpy(w->wfull, w->base, (size_t)w->n * sizeof(double));
    for (int64_t k = 0; k < w->ns && k < snap->nw; k++) w->wfull[w->S[k]] = snap->w[k];
    nv_snapshot s = *snap;
    s.w = w->wfull;
    s.nw = w->n;
    s.iteration += w->iter0;
    return w->outer->ckpt(w->outer->ckpt_ctx, &s, stopping);
}

void nv_ws_sub_sink(nv_ws_sink *w, nv_progress_sink *sub)
{
    const nv_progress_sink *sink = w->outer;
    *sub = *sink;
    sub->fn = sink->fn ? ws_progress : NULL;
    sub->user = w;
    sub->ckpt = sink->ckpt ? ws_checkpoint : NULL;
    sub->ckpt_ctx = w;
    sub->resume = NULL;
}

int nv_ws_cmp_cand(const void *a, const void *b)
{
    const nv_ws_cand *x = a, *y = b;
    if (x->r != y->r) return x->r > y->r ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

int64_t nv_ws_first_set(const nv_kernel_problem *kp, const nesvm_params *prm, int64_t m, char *in, int64_t *S,
                        int64_t *perm)
{
    const int64_t n = kp->n;
    int64_t ns = 0;
    if (kp->beta0)
        for (int64_t i = 0; i < n; i++)
            if (kp->beta0[i] != 0) {
                in[i] = 1;
                S[ns++] = i;
            }
    for (int64_t i = 0; i < n; i++) perm[i] = i;
    uint64_t rs = prm->seed ^ UINT64_C(0x3057A9E1) ^ (uint64_t)n;
    for (int64_t k = 0; k < n && ns < m; k++) {
        int64_t j = k + (int64_t)(nv_rng_uniform(&rs) * (double)(n - k));
        if (j >= n) j = n - 1;
        int64_t t = perm[k];
        perm[k] = perm[j];
        perm[j] = t;
        if (!in[perm[k]]) {
            in[perm[k]] = 1;
            S[ns++] = perm[k];
        }
    }
    int havep = kp->target != NV_TARGET_SIGN, haven = havep; /* real targets: no classes */
    for (int64_t k = 0; k < ns; k++) {
        havep |= kp->y[S[k]] > 0;
        haven |= kp->y[S[k]] < 0;
    }
    for (int64_t i = 0; i < n && (!havep || !haven); i++) {
        if (in[i] || (kp->y[i] > 0 ? havep : haven)) continue;
        in[i] = 1;
        S[ns++] = i;
        if (kp->y[i] > 0) havep = 1;
        else haven = 1;
    }
    qsort(S, (size_t)ns, sizeof(int64_t), nv_cmp_i64);
    return ns;
}

int nv_ws_sub_matrix(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                     int64_t *idx, int64_t ns, const double *beta, double b, int64_t iters, double t0,
                     nv_ws_tick *tick, nv_kmat *km, nv_binary_result *res, nesvm_status *st, nesvm_error *err)
{
    *st = NESVM_OK;
    if (kp->kc) {
        for (int64_t k = 0; k < ns; k++) idx[k] = kp->kc->rows[idx[k]];
        nv_kwatch watch = {prm->time_limit > 0 ? t0 + prm->time_limit : 0, sink ? nv_ws_tick_fn : NULL, tick};
        /* large: single-precision products (the certificate reads double columns) */
        const int fast = (double)ns * (double)ns * (double)kp->kc->X->d >= NV_NESVM_WS_FLOAT_FLOPS;
        *st = (fast ? nv_kmat_init_fast : nv_kmat_init)(km, &kp->kc->k, kp->kc->X, idx, ns, prm->kernel_memory,
                                                        prm->threads, &watch, err);
        if (*st == NESVM_ERR_CANCELLED && watch.deadline > 0 && nv_now() >= watch.deadline) {
            *st = NESVM_OK; /* the time limit, inside K_SS: the last round's point */
            res->exit_reason = NESVM_EXIT_TIME_LIMIT;
            return 1;
        }
        if (*st == NESVM_ERR_CANCELLED) { /* the callback's cancel: the checkpoint of a stop */
            res->exit_reason = NESVM_EXIT_CANCELLED;
            if (sink->ckpt) {
                nv_snapshot snap = {beta, kp->n, b, iters, NULL, 0};
                sink->ckpt(sink->ckpt_ctx, &snap, 1);
            }
            return 1;
        }
    } else if (kp->K->K && (double)ns * (double)ns * sizeof(float) <= prm->kernel_memory * 1048576.0) {
        *st = nv_kmat_gather(kp->K, idx, ns, km, err); /* contiguous rows for the products */
    }
    return 0;
}

