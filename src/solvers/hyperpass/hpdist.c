/* hpdist.c - Hyperpass over MPI ranks: L_A chosen over every rank, the exact
 * line search by collective bracketing, the final bound (hpdist.h). */
#include "hpdist.h"
#include "hpqp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void nv_hp_rows_free(nv_hp_rows *r)
{
    nv_free(r->ptr);
    nv_free(r->idx);
    nv_free(r->val);
    nv_free(r->cost);
    nv_free(r->thr);
    memset(r, 0, sizeof *r);
}

double nv_hp_rows_dot(const nv_hp_rows *r, int a, const double *v)
{
    double s = 0;
    for (int64_t p = r->ptr[a]; p < r->ptr[a + 1]; p++) s += r->val[p] * v[r->idx[p]];
    return s;
}

void nv_hp_rows_axpy(const nv_hp_rows *r, int a, double s, double *out)
{
    for (int64_t p = r->ptr[a]; p < r->ptr[a + 1]; p++) out[r->idx[p]] += s * r->val[p];
}

double nv_hp_rows_dot2(const nv_hp_rows *r, int a, int b)
{
    double s = 0;
    int64_t p = r->ptr[a], q = r->ptr[b];
    while (p < r->ptr[a + 1] && q < r->ptr[b + 1]) {
        if (r->idx[p] < r->idx[q])
            p++;
        else if (r->idx[p] > r->idx[q])
            q++;
        else
            s += r->val[p++] * r->val[q++];
    }
    return s;
}

/* Sample i's non-zero entries of y_i z_i, appended to buf as index, value
 * pairs (in ascending index); returns the count.  buf has room for d + 1 pairs. */
static int64_t row_entries(const nv_hinge *h, int64_t i, double *buf)
{
    const nesvm_dataset *X = h->X;
    const int64_t r = h->rows ? h->rows[i] : i;
    const double y = h->y[i];
    int64_t k = 0;
    if (X->storage == NESVM_STORAGE_DENSE) {
        for (int32_t j = 0; j < X->d; j++) {
            double v = nv_val(X, r * (int64_t)X->d + j);
            if (v != 0) {
                buf[2 * k] = (double)j;
                buf[2 * k + 1] = y * v;
                k++;
            }
        }
    } else {
        for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++) {
            double v = nv_val(X, p);
            if (v != 0) {
                buf[2 * k] = (double)nv_idx(X, p);
                buf[2 * k + 1] = y * v;
                k++;
            }
        }
    }
    if (h->B > 0) {
        buf[2 * k] = (double)h->d;
        buf[2 * k + 1] = y * h->B;
        k++;
    }
    return k;
}

typedef struct cand_key {
    double key;
    int64_t i;
} cand_key;

static int cmp_cand(const void *a, const void *b)
{
    const cand_key *x = a, *y = b;
    if (x->key < y->key) return -1;
    if (x->key > y->key) return 1;
    return (x->i > y->i) - (x->i < y->i);
}

typedef struct glob_key {
    double key;
    int64_t rank, pos;
} glob_key;

static int cmp_glob(const void *a, const void *b)
{
    const glob_key *x = a, *y = b;
    if (x->key < y->key) return -1;
    if (x->key > y->key) return 1;
    if (x->rank != y->rank) return (x->rank > y->rank) - (x->rank < y->rank);
    return (x->pos > y->pos) - (x->pos < y->pos);
}

nesvm_status nv_hp_select_global(nv_hinge *h, const int64_t *cand, int64_t nc, const double *m,
                                 const double *sqn, int64_t kmax, unsigned char *chosen, nv_hp_rows *rows,
                                 nesvm_error *err)
{
    const nv_comm *c = h->comm;
    memset(rows, 0, sizeof *rows);
    /* this rank's kmax best, in key order */
    cand_key *ck = nv_malloc_array((size_t)(nc ? nc : 1), sizeof *ck);
    const int64_t L = nc < kmax ? nc : kmax;
    double *keys = nv_malloc_array((size_t)(L ? L : 1), sizeof(double));
    double *all = NULL, *enc = NULL, *allenc = NULL;
    glob_key *gk = NULL;
    int64_t *counts = nv_malloc_array((size_t)c->size, sizeof(int64_t));
    int64_t total = 0;
    nesvm_status st = ck && keys && counts ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (st == NESVM_OK) {
        for (int64_t k = 0; k < nc; k++) {
            int64_t i = cand[k];
            double key = fabs(m[i] - 1.0);
            if (sqn) key /= sqn[i] > 0 ? sqrt(sqn[i]) : 1.0;
            ck[k] = (cand_key){key, i};
        }
        qsort(ck, (size_t)nc, sizeof *ck, cmp_cand);
        for (int64_t k = 0; k < L; k++) keys[k] = ck[k].key;
    }
    st = nv_comm_agree(c, st, err);
    if (st == NESVM_OK) st = nv_comm_gather(c, keys, L, &all, &total, counts, err);
    /* every rank sorts the same keys: the same choice everywhere */
    int64_t mine = 0; /* this rank's chosen: its first `mine` in key order */
    int K = 0;
    if (st == NESVM_OK && total > 0) {
        gk = nv_malloc_array((size_t)total, sizeof *gk);
        if (!gk) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    }
    if (st == NESVM_OK && total > 0) {
        int64_t at = 0;
        for (int r = 0; r < c->size; r++)
            for (int64_t k = 0; k < counts[r]; k++, at++) gk[at] = (glob_key){all[at], r, k};
        qsort(gk, (size_t)total, sizeof *gk, cmp_glob);
        K = (int)(total < kmax ? total : kmax);
        for (int a = 0; a < K; a++)
            if (gk[a].rank == c->rank) mine++;
    }
    /* the chosen rows, encoded: cost, threshold, count, then index, value pairs */
    int64_t nenc = 0;
    if (st == NESVM_OK) {
        enc = nv_malloc_array((size_t)(mine * (2 * (h->D + 1) + 3) + 1), sizeof(double));
        if (!enc) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        for (int64_t k = 0; enc && k < mine; k++) {
            int64_t i = ck[k].i;
            chosen[i] = 1;
            int64_t cnt = row_entries(h, i, enc + nenc + 3);
            enc[nenc] = h->c[i];
            enc[nenc + 1] = nv_hinge_thr(h, i);
            enc[nenc + 2] = (double)cnt;
            nenc += 3 + 2 * cnt;
            h->dots++;
        }
    }
    st = nv_comm_agree(c, st, err);
    int64_t tenc = 0;
    if (st == NESVM_OK) st = nv_comm_gather(c, enc, nenc, &allenc, &tenc, NULL, err);
    if (st == NESVM_OK) {
        /* decode in rank order */
        int64_t nnz = 0;
        for (int64_t at = 0, a = 0; a < K && at < tenc; a++) {
            int64_t cnt = (int64_t)allenc[at + 2];
            nnz += cnt;
            at += 3 + 2 * cnt;
        }
        rows->ptr = nv_malloc_array((size_t)K + 1, sizeof(int64_t));
        rows->idx = nv_malloc_array((size_t)(nnz ? nnz : 1), sizeof(int64_t));
        rows->val = nv_malloc_array((size_t)(nnz ? nnz : 1), sizeof(double));
        rows->cost = nv_malloc_array((size_t)(K ? K : 1), sizeof(double));
        rows->thr = nv_malloc_array((size_t)(K ? K : 1), sizeof(double));
        if (!rows->ptr || !rows->idx || !rows->val || !rows->cost || !rows->thr) {
            nv_hp_rows_free(rows);
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        } else {
            rows->K = K;
            rows->ptr[0] = 0;
            int64_t at = 0, p = 0;
            for (int a = 0; a < K; a++) {
                rows->cost[a] = allenc[at];
                rows->thr[a] = allenc[at + 1];
                int64_t cnt = (int64_t)allenc[at + 2];
                for (int64_t k = 0; k < cnt; k++, p++) {
                    rows->idx[p] = (int64_t)allenc[at + 3 + 2 * k];
                    rows->val[p] = allenc[at + 4 + 2 * k];
                }
                rows->ptr[a + 1] = p;
                at += 3 + 2 * cnt;
            }
        }
    }
    /* a rank out of memory above leaves the others with its message */
    st = nv_comm_agree(c, st, err);
    if (st != NESVM_OK) nv_hp_rows_free(rows);
    nv_free(ck);
    nv_free(keys);
    nv_free(all);
    nv_free(enc);
    nv_free(allenc);
    nv_free(gk);
    nv_free(counts);
    return st;
}

typedef struct brk {
    double e, w;
} brk;

static int cmp_brk(const void *a, const void *b)
{
    double x = ((const brk *)a)->e, y = ((const brk *)b)->e;
    return (x > y) - (x < y);
}

/* First index of sorted breakpoints b[0..L) with e > t. */
static int64_t upper(const brk *b, int64_t L, double t)
{
    int64_t lo = 0, hi = L;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (b[mid].e > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* First index with e >= t. */
static int64_t lower(const brk *b, int64_t L, double t)
{
    int64_t lo = 0, hi = L;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (b[mid].e >= t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

nesvm_status nv_hp_line_search_dist(nv_hinge *h, const double *m, const double *dl, double A, double Bq,
                                    double *eta, double *kink_at, nesvm_error *err)
{
    const nv_comm *c = h->comm;
    const int P = c->size;
    *eta = 0;
    *kink_at = NAN;
    /* phi'(t) = A + t Bq - S(t), S(t) = S0 - (the weights c_i |dl_i| of the
     * breakpoints e_i <= t): the samples still on the loss side */
    brk *b = nv_malloc_array((size_t)(h->n ? h->n : 1), sizeof *b);
    double *slot = nv_malloc_array((size_t)(4 * P), sizeof(double));
    nesvm_status st = b && slot ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    double S0 = 0;
    int64_t L = 0;
    for (int64_t i = 0; b && i < h->n; i++) {
        double di = dl[i], mi = m[i];
        if (di == 0) continue;
        if (mi < 1 || (mi == 1 && di < 0)) S0 += h->c[i] * di;
        double ei = (1.0 - mi) / di;
        if (ei > 0) b[L++] = (brk){ei, h->c[i] * fabs(di)};
    }
    if (b) {
        qsort(b, (size_t)L, sizeof *b, cmp_brk);
        for (int64_t k = 1; k < L; k++) b[k].w += b[k - 1].w; /* prefix sums of the weights */
    }
    st = nv_comm_agree(c, st, err);
    if (st == NESVM_OK) st = nv_comm_sum(c, &S0, 1, err);
    double lo = 0, hi = INFINITY, drop_lo = 0; /* drop_lo: the weights up to lo, every rank's */
    double *cand = slot + 2 * P, *drop = slot + 3 * P;
    for (int round = 0; st == NESVM_OK && Bq > 0 && round < 200; round++) {
        /* each rank's candidate: the median of its breakpoints in (lo, hi),
         * with its count there (one reduction of 2 P slots) */
        int64_t a = upper(b, L, lo), z = isinf(hi) ? L : lower(b, L, hi);
        memset(slot, 0, (size_t)(2 * P) * sizeof(double));
        slot[c->rank] = z > a ? b[a + (z - a) / 2].e : -1.0;
        slot[P + c->rank] = (double)(z > a ? z - a : 0);
        st = nv_comm_sum(c, slot, 2 * P, err);
        if (st != NESVM_OK) break;
        double inside = 0;
        for (int r = 0; r < P; r++) inside += slot[P + r];
        if (inside == 0) break;
        /* the distinct candidates ascending, and the weights up to each */
        int u = 0;
        for (int r = 0; r < P; r++)
            if (slot[r] > 0) cand[u++] = slot[r];
        qsort(cand, (size_t)u, sizeof(double), cmp_double);
        int v = 0;
        for (int k = 0; k < u; k++)
            if (v == 0 || cand[k] != cand[v - 1]) cand[v++] = cand[k];
        for (int k = 0; k < v; k++) {
            int64_t at = upper(b, L, cand[k]);
            drop[k] = at > 0 ? b[at - 1].w : 0.0;
        }
        st = nv_comm_sum(c, drop, v, err);
        if (st != NESVM_OK) break;
        /* the first candidate after which phi' is not negative bounds the
         * minimizer from above, the one before it from below */
        int k = 0;
        while (k < v && A + cand[k] * Bq - (S0 - drop[k]) < 0) k++;
        if (k > 0) {
            lo = cand[k - 1];
            drop_lo = drop[k - 1];
        }
        if (k < v) hi = cand[k];
    }
    nv_free(b);
    nv_free(slot);
    if (st != NESVM_OK || !(Bq > 0)) return st;
    /* no breakpoint strictly inside (lo, hi): phi' is linear there */
    double root = (S0 - drop_lo - A) / Bq;
    if (!(root > lo)) { /* also NaN (overflowing data): the caller sees it */
        *eta = isnan(root) ? root : lo;
        if (lo > 0) *kink_at = lo;
    } else if (root >= hi) {
        *eta = hi;
        *kink_at = hi;
    } else {
        *eta = root;
    }
    return NESVM_OK;
}

nesvm_status nv_hp_bound_at_dist(nv_hinge *h, const double *m, const double *sqn, double rho, int kmax,
                                 double *bound, double *wout, nesvm_error *err)
{
    const int64_t n = h->n, D = h->D;
    double *buf = nv_malloc_array((size_t)(2 * D + 2 + n), sizeof(double));
    int64_t *lst = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    unsigned char *chosen = nv_calloc((size_t)(n ? n : 1), 1);
    nesvm_status st = buf && lst && chosen ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory for a lower bound");
    nv_hp_rows rows;
    memset(&rows, 0, sizeof rows);
    int64_t nl = 0;
    if (st == NESVM_OK)
        for (int64_t i = 0; i < n; i++)
            if (fabs(m[i] - 1.0) <= rho * (sqn ? sqrt(sqn[i]) : 1.0)) lst[nl++] = i;
    st = nv_comm_agree(h->comm, st, err);
    if (st == NESVM_OK) st = nv_hp_select_global(h, lst, nl, m, sqn, kmax, chosen, &rows, err);
    double *Q = NULL;
    if (st == NESVM_OK) {
        const int K = rows.K, q = K + 3;
        double *s3 = buf, *tmp = s3 + D, *a = tmp + D + 2;
        double b3 = 0;
        for (int64_t i = 0; i < n; i++) {
            a[i] = m[i] < 1 && !chosen[i] ? h->c[i] : 0.0;
            b3 += a[i] * nv_hinge_thr(h, i);
        }
        nv_hinge_xta(h, a, s3);
        s3[D] = b3; /* the linear part's constant rides in the same reduction */
        st = nv_comm_sum(h->comm, s3, D + 1, err);
        b3 = s3[D];
        Q = nv_malloc_array((size_t)q * q + 3 * (size_t)q, sizeof(double));
        if (st == NESVM_OK && !Q) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for a lower bound");
        st = nv_comm_agree(h->comm, st, err);
        if (st == NESVM_OK) {
            double *r = Q + (size_t)q * q, *cc = r + q, *beta = cc + q;
            double ss = nv_dot(s3, s3, D);
            for (int x = 0; x < 3; x++)
                for (int y = 0; y < 3; y++) Q[(size_t)(K + x) * q + (K + y)] = ss;
            for (int x = 0; x < K; x++) {
                double t3 = nv_hp_rows_dot(&rows, x, s3);
                for (int y = 0; y < 3; y++) Q[(size_t)(K + y) * q + x] = Q[(size_t)x * q + (K + y)] = t3;
                for (int y = 0; y <= x; y++) Q[(size_t)y * q + x] = Q[(size_t)x * q + y] = nv_hp_rows_dot2(&rows, y, x);
                r[x] = rows.thr[x];
                cc[x] = rows.cost[x];
            }
            r[K] = r[K + 1] = -1.0;
            r[K + 2] = b3;
            st = nv_hpqp_solve(K, Q, r, cc, beta, NULL);
            if (st == NESVM_OK) {
                double g = beta[K] + beta[K + 1] + beta[K + 2], dual = g * b3;
                for (int64_t j = 0; j < D; j++) tmp[j] = g * s3[j];
                for (int x = 0; x < K; x++) {
                    if (beta[x] != 0) nv_hp_rows_axpy(&rows, x, beta[x], tmp);
                    dual += beta[x] * r[x];
                }
                *bound = dual - 0.5 * nv_dot(tmp, tmp, D);
                if (wout) memcpy(wout, tmp, (size_t)D * sizeof(double));
            } else {
                st = nv_error(err, st, "out of memory for the lower bound's QP");
            }
            st = nv_comm_agree(h->comm, st, err);
        }
    }
    nv_free(Q);
    nv_hp_rows_free(&rows);
    nv_free(buf);
    nv_free(lst);
    nv_free(chosen);
    return st;
}
