/*
 * gs.c - GS-SVM, the greedy stagewise algorithm for kernel SVMs
 * (papers/gs-svm-greedy-stagewise.md, Algorithm 1).
 *
 * Loss (eq. 10, the hard-margin dual):
 *     L(alpha) = 1/2 sum_ij alpha_i alpha_j y_i y_j K'_ij - sum_i alpha_i,  alpha >= 0,
 * with K' = K + B^2 when a bias feature B is asked for (-B B > 0: the bias is
 * then b = B^2 sum_i alpha_i y_i, a regularized bias as in the dual (18) of
 * the NSSVM paper; the GS-SVM paper has none, which is nesvm's default).
 * Each step adds one kernel function: with g_i = y_i sum_k alpha_k y_k K'_ik - 1
 * (eq. 15), the unselected sample with the most negative
 *     h_i = min_{0 <= a <= cap_i} 1/2 a^2 K'_ii + a g_i      (eq. 20; eq. 23 for K_ii = 1)
 * is selected (eq. 21) with a = min(cap_i, -g_i / K'_ii) (eq. 22; cap_i = C_i
 * with --cap, the soft-margin bound of Section III, else infinite), and g is
 * updated with its kernel column.  Each sample is selected at most once; the
 * training stops when no unselected sample has g_i < 0 (the loss cannot
 * decrease: exit converged) or after max_iter selections (exit max-iter).
 * L decreases by -h at every step.  Cost: one kernel column (n values) and
 * O(n) work per selected sample, O(n_sv n) in all.
 */
#include "gs.h"
#include "../track.h"
#include "../../kernel/kernel.h"

#include <math.h>
#include <string.h>

/* Step m's update of g by the selected sample's kernel column (alpha y =
 * ay); 1 when the loss is no longer finite (*why, *st and err then say so). */
static int gs_update(const nv_gs_problem *gp, const char *sel, double *g, const double *col, double ay, double loss,
                     int64_t m, nesvm_exit *why, nesvm_status *st, nesvm_error *err)
{
    for (int64_t a = 0; a < gp->n; a++)
        if (!sel[a]) g[a] += ay * gp->y[a] * (col[a] + gp->B2);
    if (isfinite(loss)) return 0;
    *why = NESVM_EXIT_NUMERIC;
    *st = nv_error(err, NESVM_ERR_NUMERIC, "non-finite loss at step %lld (check the kernel and -B)", (long long)m);
    return 1;
}

/* The result after m steps: GS-SVM has no certificate; b = B^2 sum alpha y. */
static void gs_result(nv_binary_result *res, nesvm_exit why, int64_t m, double loss, double B2, double bsum)
{
    res->exit_reason = why;
    res->iterations = m;
    res->primal = loss;
    res->lower_bound = NAN;
    res->gap = NAN;
    res->n_sv = m;
    res->b = B2 > 0 ? B2 * bsum : 0.0; /* not -0 */
}

/* The progress report of step m (loss, the step's alpha). */
static nesvm_progress gs_progress(const nv_progress_sink *sink, int64_t m, double t0, double loss, double ab)
{
    return nv_progress_plain(sink, m, t0, loss, ab, m);
}

/* Distributed GS-SVM (gp->comm): the same steps over every rank's
 * positions.  Each step: the arg-min of h over the ranks (lowest global
 * position on ties, as the serial scan), the chosen row broadcast by its
 * rank, and each rank's kernel column against it for its own positions. */
static nesvm_status gs_train_dist(const nv_gs_problem *gp, const nesvm_params *prm, const nv_progress_sink *sink,
                                  nv_binary_result *res, nesvm_error *err)
{
    double t0 = nv_now();
    const nv_comm *c = gp->comm;
    const nv_kcache *kc = gp->kc;
    const int64_t n = gp->n;
    const double B2 = gp->B2;
    size_t nn = (size_t)(n ? n : 1);
    double *g = nv_malloc_array(nn, sizeof(double));
    double *kd = nv_malloc_array(nn, sizeof(double));
    double *xsq = nv_malloc_array(nn, sizeof(double));
    double *col = nv_malloc_array(nn, sizeof(double));
    int64_t *xrows = nv_malloc_array(nn, sizeof(int64_t));
    char *sel = nv_calloc(nn, 1);
    int64_t *counts = nv_malloc_array((size_t)c->size, sizeof(int64_t));
    nv_zrow zr; /* the chosen row, from its rank */
    nesvm_status zst = nv_zrow_init(&zr, kc->X, err);
    double *pack = NULL, *all = NULL;
    nesvm_status st = g && kd && xsq && col && xrows && sel && counts && zst == NESVM_OK
                          ? NESVM_OK
                          : nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    st = nv_comm_agree(c, st, err);
    /* the ranks' first global positions */
    double mine = (double)n;
    int64_t total = 0;
    if (st == NESVM_OK) st = nv_comm_gather(c, &mine, 1, &all, &total, NULL, err);
    int64_t offset = 0;
    for (int r = 0; st == NESVM_OK && r < c->size; r++) {
        counts[r] = (int64_t)all[r];
        if (r < c->rank) offset += counts[r];
    }
    nv_free(all);
    all = NULL;
    if (st != NESVM_OK) goto out;
    memset(res->w, 0, (size_t)n * sizeof(double));
    for (int64_t a = 0; a < n; a++) {
        const int64_t p = gp->pos ? gp->pos[a] : a;
        g[a] = -1.0;
        kd[a] = nv_kcache_diag(kc, p) + B2;
        xrows[a] = kc->rows[p];
        xsq[a] = kc->sq[p];
    }
    /* room for the longest row of every rank: a broadcast row is then set
     * without allocating (no agreement per step) */
    double longest = 0;
    for (int64_t a = 0; a < n; a++) {
        const double len = (double)(nv_rows_pack_size(kc->X, &xrows[a], 1) - 2) / 2;
        if (len > longest) longest = len;
    }
    st = nv_comm_max(c, &longest, 1, err);
    if (st == NESVM_OK && !nv_zrow_reserve(&zr, (int64_t)longest)) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    st = nv_comm_agree(c, st, err);
    if (st != NESVM_OK) goto out;
    double loss = 0, bsum = 0;
    int64_t m = 0;
    nesvm_exit why = NESVM_EXIT_CONVERGED;
    int stop_asked = 0; /* the callback's cancel, decided with the ranks at the next step */
    for (;;) {
        int64_t best = -1;
        double hb = INFINITY, ab = 0;
        for (int64_t a = 0; a < n; a++) {
            if (sel[a] || !(g[a] < 0) || !(kd[a] > 0)) continue;
            double al = -g[a] / kd[a];
            if (al > gp->cap[a]) al = gp->cap[a];
            double h = al * (0.5 * al * kd[a] + g[a]);
            if (h < 0 && h < hb) {
                hb = h;
                ab = al;
                best = a;
            }
        }
        double hv = hb;
        int64_t gi = best >= 0 ? offset + best : INT64_MAX;
        st = nv_comm_minloc(c, &hv, &gi, err);
        /* the limits, every rank's: one rank's clock or cancel stops all */
        double flags[2] = {prm->time_limit > 0 && nv_now() - t0 >= prm->time_limit, stop_asked};
        if (st == NESVM_OK) st = nv_comm_max(c, flags, 2, err);
        if (st != NESVM_OK) break;
        if (flags[1] > 0) {
            why = NESVM_EXIT_CANCELLED;
            st = nv_error(err, NESVM_ERR_CANCELLED, "training cancelled at step %lld", (long long)m);
            break;
        }
        if (!isfinite(hv)) break; /* no rank has h < 0: the loss stops decreasing */
        if (m >= prm->max_iter) {
            why = NESVM_EXIT_MAX_ITER;
            break;
        }
        if (flags[0] > 0) {
            why = NESVM_EXIT_TIME_LIMIT;
            break;
        }
        /* the owner sends a, y, ||x||^2 and the row */
        int owner = 0;
        int64_t start = 0;
        while (owner < c->size - 1 && gi >= start + counts[owner]) start += counts[owner++];
        const int64_t la = gi - start; /* the owner's position */
        int64_t len = 0;
        if (c->rank == owner) len = 3 + nv_rows_pack_size(kc->X, &xrows[la], 1);
        st = nv_comm_bcast(c, &len, sizeof len, owner, err);
        if (st == NESVM_OK) {
            nv_free(pack);
            pack = nv_malloc_array((size_t)len, sizeof(double));
            if (!pack) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        }
        st = nv_comm_agree(c, st, err);
        if (st != NESVM_OK) break;
        if (c->rank == owner) {
            pack[0] = ab;
            pack[1] = gp->y[la];
            pack[2] = xsq[la];
            nv_rows_pack(kc->X, &xrows[la], 1, pack + 3);
        }
        st = nv_comm_bcast(c, pack, (size_t)len * sizeof(double), owner, err);
        if (st != NESVM_OK) break;
        /* the row (packed: label, count, index and value pairs), and its
         * kernel column over this rank's positions */
        nv_zrow_set_packed(&zr, pack + 3); /* within the room of the longest row */
        nv_kcache_external(gp->kc, &zr, pack[2], gp->pos, n, col);
        nv_zrow_clear(&zr);
        ab = pack[0];
        const double ay = ab * pack[1];
        if (c->rank == owner) {
            sel[la] = 1;
            res->w[la] = ay;
        }
        bsum += ay;
        loss += hv;
        m++;
        if (gs_update(gp, sel, g, col, ay, loss, m, &why, &st, err)) break;
        if (sink && sink->fn) {
            nesvm_progress pg = gs_progress(sink, m, t0, loss, ab);
            nv_snapshot snap = {res->w, n, B2 > 0 ? B2 * bsum : 0.0, m, NULL, 0};
            stop_asked = nv_sink_report(sink, &pg, m % prm->progress_every == 0 || m == 1, &snap);
        }
    }
    if (st == NESVM_OK) gs_result(res, why, m, loss, B2, bsum);
out:
    res->seconds = nv_now() - t0;
    nv_free(g);
    nv_free(kd);
    nv_free(xsq);
    nv_free(col);
    nv_free(xrows);
    nv_free(sel);
    nv_free(counts);
    nv_zrow_free(&zr);
    nv_free(pack);
    return st;
}

nesvm_status nv_gs_train(const nv_gs_problem *gp, const nesvm_params *prm, const nv_progress_sink *sink,
                         nv_binary_result *res, nesvm_error *err)
{
    if (nv_comm_many(gp->comm)) return gs_train_dist(gp, prm, sink, res, err);
    double t0 = nv_now();
    const int64_t n = gp->n;
    const double B2 = gp->B2;
    double *g = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    double *kd = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    char *sel = nv_calloc((size_t)(n ? n : 1), 1);
    /* checkpoints: [steps, loss, sum alpha_i y_i, then (sample, alpha y) in
     * the order selected]; a resume replays the steps (the same columns, the
     * same updates), so it continues exactly where the run stopped */
    const int ckpt = sink && (sink->ckpt || sink->resume);
    double *hist = ckpt ? nv_malloc_array(2 * (size_t)n + 3, sizeof(double)) : NULL;
    nesvm_status st = NESVM_OK;
    if (!g || !kd || !sel || (ckpt && !hist)) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto out;
    }
    memset(res->w, 0, (size_t)n * sizeof(double));
    for (int64_t a = 0; a < n; a++) {
        g[a] = -1.0;
        kd[a] = nv_kcache_diag(gp->kc, gp->pos ? gp->pos[a] : a) + B2;
    }
    double loss = 0, bsum = 0;
    int64_t m = 0;
    nesvm_exit why = NESVM_EXIT_CONVERGED;
    const nv_snapshot *rs = sink ? sink->resume : NULL;
    if (rs && rs->extra) {
        const int64_t steps = (int64_t)rs->extra[0];
        if (rs->nextra != 2 * steps + 3 || steps < 0 || steps > n) {
            st = nv_error(err, NESVM_ERR_ARG, "the checkpoint's GS-SVM state does not fit this problem");
            goto out;
        }
        for (int64_t k = 0; k < steps; k++) {
            const int64_t a = (int64_t)rs->extra[3 + 2 * k];
            const double ay = rs->extra[4 + 2 * k];
            if (a < 0 || a >= n || sel[a]) {
                st = nv_error(err, NESVM_ERR_ARG, "the checkpoint's GS-SVM state does not fit this problem");
                goto out;
            }
            const double *col;
            st = nv_kcache_column(gp->kc, gp->pos ? gp->pos[a] : a, gp->pos, n, gp->groups, gp->ngroups, &col,
                                  err);
            if (st != NESVM_OK) goto out;
            sel[a] = 1;
            res->w[a] = ay;
            for (int64_t q = 0; q < n; q++)
                if (!sel[q]) g[q] += ay * gp->y[q] * (col[q] + B2);
            hist[3 + 2 * k] = (double)a;
            hist[4 + 2 * k] = ay;
        }
        m = steps;
        loss = rs->extra[1];
        bsum = rs->extra[2];
    }
    for (;;) {
        /* eq. 20-21: the unselected sample of most negative h */
        int64_t best = -1;
        double hb = 0, ab = 0;
        for (int64_t a = 0; a < n; a++) {
            if (sel[a] || !(g[a] < 0) || !(kd[a] > 0)) continue;
            double al = -g[a] / kd[a];
            if (al > gp->cap[a]) al = gp->cap[a];
            double h = al * (0.5 * al * kd[a] + g[a]);
            if (h < hb) {
                hb = h;
                ab = al;
                best = a;
            }
        }
        if (best < 0) break; /* min over Q of g >= 0: the loss stops decreasing */
        if (m >= prm->max_iter) {
            why = NESVM_EXIT_MAX_ITER;
            break;
        }
        if (prm->time_limit > 0 && nv_now() - t0 >= prm->time_limit) {
            why = NESVM_EXIT_TIME_LIMIT;
            break;
        }
        const double *col;
        st = nv_kcache_column(gp->kc, gp->pos ? gp->pos[best] : best, gp->pos, n, gp->groups, gp->ngroups,
                              &col, err);
        if (st != NESVM_OK) break;
        /* eq. 22: the new coefficient in its box (0, cap], each sample once */
        NV_ASSERT(ab > 0 && ab <= gp->cap[best] && !sel[best] && m < n);
        const double yb = gp->y[best], ay = ab * yb;
        sel[best] = 1;
        res->w[best] = ay;
        bsum += ay;
        loss += hb;
        if (hist) {
            hist[3 + 2 * m] = (double)best;
            hist[4 + 2 * m] = ay;
        }
        m++;
        if (gs_update(gp, sel, g, col, ay, loss, m, &why, &st, err)) break;
        if (sink && (sink->fn || sink->ckpt)) {
            nesvm_progress pg = gs_progress(sink, m, t0, loss, ab);
            if (hist) {
                hist[0] = (double)m;
                hist[1] = loss;
                hist[2] = bsum;
            }
            nv_snapshot snap = {res->w, n, B2 > 0 ? B2 * bsum : 0.0, m, hist, 2 * m + 3};
            if (nv_sink_report(sink, &pg, m % prm->progress_every == 0 || m == 1, &snap)) {
                why = NESVM_EXIT_CANCELLED;
                st = nv_error(err, NESVM_ERR_CANCELLED, "training cancelled at step %lld", (long long)m);
                break;
            }
        }
    }
    if (st == NESVM_OK) gs_result(res, why, m, loss, B2, bsum);
out:
    res->seconds = nv_now() - t0;
    nv_free(g);
    nv_free(kd);
    nv_free(sel);
    nv_free(hist);
    return st;
}
