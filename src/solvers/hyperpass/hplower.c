/* hplower.c - the loss over the working set, and Hyperpass's lower bound g_t (the paper's eq. 11-17): the three
 * cuts and the samples L_A on the margin, minimized exactly through the QP's
 * dual (hpqp.c).  Callers: the iteration in hyperpass.c (hpstate.h). */
#include "hpstate.h"

#include <math.h>
#include <string.h>

/* Loss over the working set at margins mm plus the ball's linear part at p. */
double nv_hp_loss_at(const hp *s, const double *mm, const double *p)
{
    double l = 0;
    for (int64_t k = 0; k < s->na; k++) {
        int64_t i = s->order[k];
        if (mm[i] < 1) l += s->h.c[i] * (1.0 - mm[i]);
    }
    if (s->cF != 0 || !isinf(s->R)) l += s->cF - nv_dot(s->sF, p, s->D);
    return l;
}

/* L_A: the working samples on the margin, the NV_HP_MAX_LA closest kept;
 * the others join g3's linear part (s3, b3). */
static void pick_la(hp *s, double *b3)
{
    int64_t nl = 0;
    for (int64_t k = 0; k < s->na; k++) {
        int64_t i = s->order[k];
        if (s->cls[i] != CLS_L) continue;
        int64_t out = nv_hp_nearest_offer(s->lbuf, &nl, NV_HP_MAX_LA, i, s->m, NULL);
        if (out >= 0 && s->m[out] < 1) {
            nv_hinge_axpy(&s->h, out, s->h.c[out], s->s3);
            *b3 += s->h.c[out] * nv_hinge_thr(&s->h, out);
        }
    }
    s->K = (int)nl;
    for (int a = 0; a < s->K; a++) s->la[a] = s->lbuf[a];
}

/* u1 = minus the loss subgradient at w~ (margins mt): from the loss-side sum
 * at w, corrected by the samples on the other side at w~. */
static void subgradient_at_wt(hp *s)
{
    int64_t changes = 0;
    for (int64_t k = 0; k < s->na; k++) {
        int64_t i = s->order[k];
        changes += (s->mt[i] < 1) != (s->cls[i] == CLS_S);
    }
    if (s->na == s->n && changes > s->n / 4) {
        for (int64_t i = 0; i < s->n; i++) s->dl[i] = s->mt[i] < 1 ? s->h.c[i] : 0.0;
        nv_hinge_xta(&s->h, s->dl, s->u1);
        return;
    }
    for (int64_t j = 0; j < s->D; j++) s->u1[j] = s->sS[j] + s->sF[j];
    for (int64_t k = 0; k < s->na && changes > 0; k++) {
        int64_t i = s->order[k];
        int in_t = s->mt[i] < 1, in_w = s->cls[i] == CLS_S;
        if (in_t != in_w) {
            nv_hinge_axpy(&s->h, i, in_t ? s->h.c[i] : -s->h.c[i], s->u1);
            changes--;
        }
    }
}

/* The QP's Gram entries of the three cuts' columns (after the K rows of L_A). */
static void cut_gram(double *Q, int q, int K, const double *const col[3], int64_t D)
{
    for (int a = 0; a < 3; a++)
        for (int b = 0; b <= a; b++)
            Q[(size_t)(K + a) * q + (K + b)] = Q[(size_t)(K + b) * q + (K + a)] = nv_dot(col[a], col[b], D);
}

/* Steps 1-2: the lower bound's QP; leaves w~_t in s->wn and returns v_t. */
nesvm_status nv_hp_lower_bound(hp *s, double v, double *vout, int *qp_iters, nesvm_error *err)
{
    const int64_t D = s->D;
    /* g1 at w~ */
    subgradient_at_wt(s);
    double b1 = nv_hp_loss_at(s, s->mt, s->wt) + nv_dot(s->u1, s->wt, D);
    /* g2 */
    double b2 = v + 0.5 * nv_dot(s->wt, s->wt, D);
    /* g3 at w */
    double b3 = s->cS + s->cF;
    for (int64_t j = 0; j < D; j++) s->s3[j] = s->sS[j] + s->sF[j];
    pick_la(s, &b3);
    NV_ASSERT(s->K >= 0 && s->K <= NV_HP_MAX_LA); /* s->la and s->Q hold NV_HP_MAX_LA (+ 3) */
    const int K = s->K, q = K + 3;
    double *Q = s->Q;
    const double *col[3] = {s->u1, s->wt, s->s3};
    cut_gram(Q, q, K, col, D);
    for (int a = 0; a < K; a++) {
        int64_t i = s->la[a];
        memset(s->tmp, 0, (size_t)D * sizeof(double));
        nv_hinge_axpy(&s->h, i, 1.0, s->tmp); /* y_i z_i */
        for (int b = 0; b < 3; b++)
            Q[(size_t)(K + b) * q + a] = Q[(size_t)a * q + (K + b)] = nv_dot(s->tmp, col[b], D);
        for (int b = 0; b <= a; b++)
            Q[(size_t)b * q + a] = Q[(size_t)a * q + b] = nv_hinge_dot(&s->h, s->la[b], s->tmp);
        s->r[a] = nv_hinge_thr(&s->h, i);
        s->cc[a] = s->h.c[i];
    }
    s->r[K] = b1;
    s->r[K + 1] = b2;
    s->r[K + 2] = b3;
    if (nv_hpqp_solve(K, Q, s->r, s->cc, s->beta, qp_iters) != NESVM_OK)
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the lower bound's QP");
    const double *g = s->beta + K;
    double dual = g[0] * b1 + g[1] * b2 + g[2] * b3;
    for (int64_t j = 0; j < D; j++) s->wn[j] = g[0] * s->u1[j] + g[1] * s->wt[j] + g[2] * s->s3[j];
    for (int a = 0; a < K; a++) {
        if (s->beta[a] != 0) nv_hinge_axpy(&s->h, s->la[a], s->beta[a], s->wn);
        dual += s->beta[a] * s->r[a];
    }
    *vout = dual - 0.5 * nv_dot(s->wn, s->wn, D);
    return NESVM_OK;
}

/* nv_hp_lower_bound over every rank's samples (no ball): L_A chosen over the
 * ranks and its rows sent to every rank; u1, s3 and the constants summed in
 * one reduction; the QP is then the same on every rank. */
nesvm_status nv_hp_lower_bound_dist(hp *s, double v, double *vout, int *qp_iters, nesvm_error *err)
{
    const int64_t D = s->D, n = s->n;
    subgradient_at_wt(s);
    double lw = nv_hp_loss_at(s, s->mt, s->wt);
    int64_t nc = 0;
    for (int64_t i = 0; i < n; i++)
        if (s->cls[i] == CLS_L) s->lbuf[nc++] = i;
    memset(s->chosen, 0, (size_t)(n ? n : 1));
    nv_hp_rows rows;
    nesvm_status st = nv_hp_select_global(&s->h, s->lbuf, nc, s->m, NULL, NV_HP_MAX_LA, s->chosen, &rows, err);
    if (st != NESVM_OK) return st;
    double b3 = s->cS + s->cF;
    for (int64_t j = 0; j < D; j++) s->s3[j] = s->sS[j] + s->sF[j];
    for (int64_t k = 0; k < nc; k++) {
        int64_t i = s->lbuf[k];
        if (!s->chosen[i] && s->m[i] < 1) {
            nv_hinge_axpy(&s->h, i, s->h.c[i], s->s3);
            b3 += s->h.c[i] * nv_hinge_thr(&s->h, i);
        }
    }
    double *red = s->red;
    memcpy(red, s->u1, (size_t)D * sizeof(double));
    memcpy(red + D, s->s3, (size_t)D * sizeof(double));
    red[2 * D] = lw;
    red[2 * D + 1] = b3;
    st = nv_comm_sum(s->h.comm, red, 2 * D + 2, err);
    if (st != NESVM_OK) {
        nv_hp_rows_free(&rows);
        return st;
    }
    memcpy(s->u1, red, (size_t)D * sizeof(double));
    memcpy(s->s3, red + D, (size_t)D * sizeof(double));
    lw = red[2 * D];
    b3 = red[2 * D + 1];
    double b1 = lw + nv_dot(s->u1, s->wt, D);
    double b2 = v + 0.5 * nv_dot(s->wt, s->wt, D);
    NV_ASSERT(rows.K >= 0 && rows.K <= NV_HP_MAX_LA); /* chosen over the ranks, at most as many */
    const int K = rows.K, q = K + 3;
    double *Q = s->Q;
    const double *col[3] = {s->u1, s->wt, s->s3};
    cut_gram(Q, q, K, col, D);
    for (int a = 0; a < K; a++) {
        for (int b = 0; b < 3; b++)
            Q[(size_t)(K + b) * q + a] = Q[(size_t)a * q + (K + b)] = nv_hp_rows_dot(&rows, a, col[b]);
        for (int b = 0; b <= a; b++) Q[(size_t)b * q + a] = Q[(size_t)a * q + b] = nv_hp_rows_dot2(&rows, b, a);
        s->r[a] = rows.thr[a];
        s->cc[a] = rows.cost[a];
    }
    s->r[K] = b1;
    s->r[K + 1] = b2;
    s->r[K + 2] = b3;
    if (nv_hpqp_solve(K, Q, s->r, s->cc, s->beta, qp_iters) != NESVM_OK)
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the lower bound's QP");
    st = nv_comm_agree(s->h.comm, st, err);
    if (st == NESVM_OK) {
        const double *g = s->beta + K;
        double dual = g[0] * b1 + g[1] * b2 + g[2] * b3;
        for (int64_t j = 0; j < D; j++) s->wn[j] = g[0] * s->u1[j] + g[1] * s->wt[j] + g[2] * s->s3[j];
        for (int a = 0; a < K; a++) {
            if (s->beta[a] != 0) nv_hp_rows_axpy(&rows, a, s->beta[a], s->wn);
            dual += s->beta[a] * s->r[a];
        }
        *vout = dual - 0.5 * nv_dot(s->wn, s->wn, D);
    }
    nv_hp_rows_free(&rows);
    return st;
}
