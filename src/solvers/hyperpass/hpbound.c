/*
 * hpbound.c - Hyperpass's lower bound g3 at a point (the paper's eq. 14-17 with
 * the cuts g1, g2 made useless): a certified lower bound on min P that both
 * Hyperpass (its final step) and Pegasos (its gap) use, so that neither
 * solver calls the other's file for it.  Also the heap that keeps the samples
 * nearest the margin (L_A), which Hyperpass's iterations use too.
 */
#include "../hinge.h"
#include "hpqp.h"

#include <math.h>
#include <string.h>

static int cmp_band(const void *a, const void *b, const double *m, const double *sqn)
{
    int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
    double x = fabs(m[p] - 1.0), y = fabs(m[q] - 1.0);
    if (sqn) {
        x /= sqn[p] > 0 ? sqrt(sqn[p]) : 1.0;
        y /= sqn[q] > 0 ? sqrt(sqn[q]) : 1.0;
    }
    return (x > y) - (x < y);
}

/* Keep in heap[0..*len) the at most kmax samples nearest the margin (key
 * |m_i - 1|, divided by ||z_i|| when sqn is given): a max-heap on the key,
 * O(log kmax) per offer.  Returns the sample left out by this offer (i itself
 * or the one it evicted), -1 if none. */
int64_t nv_hp_nearest_offer(int64_t *heap, int64_t *len, int64_t kmax, int64_t i, const double *m,
                             const double *sqn)
{
    int64_t out = -1;
    if (*len < kmax) {
        int64_t k = (*len)++;
        heap[k] = i;
        while (k > 0 && cmp_band(&heap[(k - 1) / 2], &heap[k], m, sqn) < 0) {
            int64_t p = (k - 1) / 2, t = heap[p];
            heap[p] = heap[k];
            heap[k] = t;
            k = p;
        }
        return -1;
    }
    if (kmax == 0 || cmp_band(&i, &heap[0], m, sqn) >= 0) return i;
    out = heap[0];
    heap[0] = i;
    for (int64_t k = 0;;) {
        int64_t l = 2 * k + 1, r = l + 1, g = k;
        if (l < *len && cmp_band(&heap[l], &heap[g], m, sqn) > 0) g = l;
        if (r < *len && cmp_band(&heap[r], &heap[g], m, sqn) > 0) g = r;
        if (g == k) break;
        int64_t t = heap[g];
        heap[g] = heap[k];
        heap[k] = t;
        k = g;
    }
    return out;
}

nesvm_status nv_hp_bound_at(nv_hinge *h, const double *m, const double *sqn, double rho, int kmax,
                            double *bound, double *wout, nesvm_error *err)
{
    const int64_t n = h->n, D = h->D;
    const int q0 = kmax + 3;
    double *buf = nv_malloc_array((size_t)(2 * D + (int64_t)q0 * q0 + 3 * q0 + n), sizeof(double));
    int64_t *lst = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    if (!buf || !lst) {
        nv_free(buf);
        nv_free(lst);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for a lower bound");
    }
    double *s3 = buf, *tmp = s3 + D, *Q = tmp + D, *r = Q + (size_t)q0 * q0, *cc = r + q0, *beta = cc + q0;
    double *a = beta + q0;
    /* L_A: the kmax samples of the band nearest the margin */
    int64_t nl = 0;
    for (int64_t i = 0; i < n; i++)
        if (fabs(m[i] - 1.0) <= rho * (sqn ? sqrt(sqn[i]) : 1.0)) nv_hp_nearest_offer(lst, &nl, kmax, i, m, sqn);
    NV_ASSERT(nl <= kmax); /* Q and beta hold kmax + 3 */
    const int K = (int)nl, q = K + 3;
    double b3 = 0;
    for (int64_t i = 0; i < n; i++) a[i] = m[i] < 1 ? h->c[i] : 0.0;
    for (int k = 0; k < K; k++) a[lst[k]] = 0;
    for (int64_t i = 0; i < n; i++) b3 += a[i] * nv_hinge_thr(h, i);
    nv_hinge_xta(h, a, s3);
    /* g3 alone: the three cut columns coincide; gamma_1 and gamma_2 get
     * constants that make them useless */
    double ss = nv_dot(s3, s3, D);
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++) Q[(size_t)(K + x) * q + (K + y)] = ss;
    for (int x = 0; x < K; x++) {
        memset(tmp, 0, (size_t)D * sizeof(double));
        nv_hinge_axpy(h, lst[x], 1.0, tmp);
        double t3 = nv_dot(tmp, s3, D);
        for (int y = 0; y < 3; y++) Q[(size_t)(K + y) * q + x] = Q[(size_t)x * q + (K + y)] = t3;
        for (int y = 0; y <= x; y++) Q[(size_t)y * q + x] = Q[(size_t)x * q + y] = nv_hinge_dot(h, lst[y], tmp);
        r[x] = nv_hinge_thr(h, lst[x]);
        cc[x] = h->c[lst[x]];
    }
    /* gamma_1, gamma_2 strictly dominated (so 0 at the optimum, not a tie) */
    r[K] = r[K + 1] = -1.0;
    r[K + 2] = b3;
    nesvm_status st = nv_hpqp_solve(K, Q, r, cc, beta, NULL);
    if (st == NESVM_OK) {
        double g = beta[K] + beta[K + 1] + beta[K + 2], dual = g * b3;
        for (int64_t j = 0; j < D; j++) tmp[j] = g * s3[j];
        for (int x = 0; x < K; x++) {
            if (beta[x] != 0) nv_hinge_axpy(h, lst[x], beta[x], tmp);
            dual += beta[x] * r[x];
        }
        *bound = dual - 0.5 * nv_dot(tmp, tmp, D);
        if (wout) memcpy(wout, tmp, (size_t)D * sizeof(double));
    } else
        st = nv_error(err, st, "out of memory for the lower bound's QP");
    nv_free(buf);
    nv_free(lst);
    return st;
}
