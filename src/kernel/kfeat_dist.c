/* kfeat_dist.c - kernel features over MPI ranks (nv_kfeat_build_dist,
 * kernel.h): the serial basis draw, the basis rows gathered onto every rank,
 * every rank's factor of K_BB, and each rank's features of its own rows. */
#include "kernel.h"
#include "../comm/comm.h"
#include "../linalg/linalg.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* perm[i] of a permutation of 0..N-1 that starts as the identity, with only
 * the moved entries stored (open addressing): the serial partial
 * Fisher-Yates draw without N entries of memory. */
typedef struct sparse_perm {
    int64_t *key, *val;
    int64_t cap; /* a power of 2 */
} sparse_perm;

static int64_t *slot(sparse_perm *p, int64_t i)
{
    uint64_t h = (uint64_t)i * UINT64_C(0x9E3779B97F4A7C15);
    for (int64_t s = (int64_t)(h >> 20) & (p->cap - 1);; s = (s + 1) & (p->cap - 1))
        if (p->key[s] == i || p->key[s] < 0) return &p->key[s];
}

static int64_t perm_get(sparse_perm *p, int64_t i)
{
    int64_t *k = slot(p, i);
    return *k == i ? p->val[k - p->key] : i;
}

static void perm_set(sparse_perm *p, int64_t i, int64_t v)
{
    int64_t *k = slot(p, i);
    *k = i;
    p->val[k - p->key] = v;
}

/* The serial draw (nv_kfeat_build): nb distinct positions of n_all, sorted. */
static nesvm_status draw(int64_t n_all, int64_t nb, uint64_t seed, int64_t *B, nesvm_error *err)
{
    sparse_perm p;
    p.cap = 16;
    while (p.cap < 4 * nb) p.cap *= 2;
    p.key = nv_malloc_array((size_t)p.cap, sizeof(int64_t));
    p.val = nv_malloc_array((size_t)p.cap, sizeof(int64_t));
    if (!p.key || !p.val) {
        nv_free(p.key);
        nv_free(p.val);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the basis draw (%lld rows)", (long long)nb);
    }
    for (int64_t s = 0; s < p.cap; s++) p.key[s] = -1;
    uint64_t rs = seed ^ UINT64_C(0xB1A5);
    for (int64_t i = 0; i < nb; i++) {
        int64_t j = i + (int64_t)(nv_rng_uniform(&rs) * (double)(n_all - i));
        if (j >= n_all) j = n_all - 1;
        int64_t vi = perm_get(&p, i), vj = perm_get(&p, j);
        perm_set(&p, i, vj);
        perm_set(&p, j, vi);
    }
    for (int64_t i = 0; i < nb; i++) B[i] = perm_get(&p, i);
    nv_free(p.key);
    nv_free(p.val);
    qsort(B, (size_t)nb, sizeof(int64_t), nv_cmp_i64);
    return NESVM_OK;
}

/* out[i] = K(x_i, z) for this rank's rows xr[0..n) (squared norms sq), z
 * set in zr with squared norm zsq: one dot product per row. */
static void column(const nv_kernel *k, const nesvm_dataset *X, const int64_t *xr, const double *sq, int64_t n,
                   const nv_zrow *zr, double zsq, int threads, double *out)
{
    (void)threads;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1 && n > 4096)
#endif
    for (int64_t i = 0; i < n; i++) out[i] = nv_kernel_zrow(k, zr, X, xr[i], sq[i], zsq);
}

/* The greedy basis over the ranks: sequential greedy pivoting of K (the
 * serial greedy_basis's rule, one pivot at a time), each step's largest
 * residual over every rank (the lowest position on ties), the pivot's row
 * and its row of L broadcast by its rank, and every rank's new column of L
 * for its rows.  B: the chosen global positions, sorted; *nb their number. */
static nesvm_status greedy_dist(const nv_kernel *k, const nesvm_dataset *X, const int64_t *xr, const double *sq,
                                int64_t n, int64_t pos_offset, int64_t m, int threads, const struct nv_comm *c,
                                int64_t *B, int64_t *nb, int64_t *evals, nesvm_error *err)
{
    /* the longest packed row over every rank: the message's room (not X->d,
     * which a few values at a huge index make large) */
    double longest = 0;
    for (int64_t i = 0; i < n; i++) {
        const double len = (double)nv_rows_pack_size(X, &xr[i], 1);
        if (len > longest) longest = len;
    }
    nesvm_status st = nv_comm_max(c, &longest, 1, err);
    if (st != NESVM_OK) return st;
    double *L = nv_malloc_array((size_t)(n ? n : 1) * (size_t)m, sizeof(double));
    double *res = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    double *col = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    nv_zrow zr; /* the pivot's row */
    nesvm_status zst = nv_zrow_init(&zr, X, err);
    if (zst == NESVM_OK && !nv_zrow_reserve(&zr, (int64_t)longest / 2)) zst = NESVM_ERR_NOMEM;
    /* the pivot's message: residual, squared norm, its row of L (m), its packed row */
    double *msg = nv_malloc_array((size_t)(2 + m + (int64_t)longest + 2), sizeof(double));
    char *taken = nv_calloc((size_t)(n ? n : 1), 1);
    st = L && res && col && zst == NESVM_OK && msg && taken
             ? NESVM_OK
             : nv_error(err, NESVM_ERR_NOMEM, "out of memory for the greedy basis (%lld x %lld)", (long long)n,
                        (long long)m);
    st = nv_comm_agree(c, st, err);
    double dmax = 0;
    for (int64_t i = 0; st == NESVM_OK && i < n; i++) {
        res[i] = nv_kernel_value(k, sq[i], sq[i], sq[i]);
        if (res[i] > dmax) dmax = res[i];
    }
    if (st == NESVM_OK) st = nv_comm_max(c, &dmax, 1, err);
    if (st == NESVM_OK && !(dmax > 0)) st = nv_kernel_psd_error(k, err);
    int64_t t = 0;
    while (st == NESVM_OK && t < m) {
        /* the largest residual not taken: minloc of its negative */
        double v = INFINITY;
        int64_t gi = INT64_MAX, li = -1;
        for (int64_t i = 0; i < n; i++)
            if (!taken[i] && res[i] > 1e-12 * dmax && -res[i] < v) {
                v = -res[i];
                li = i;
            }
        if (li >= 0) gi = pos_offset + li;
        st = nv_comm_minloc(c, &v, &gi, err);
        if (st != NESVM_OK || !isfinite(v)) break;
        const int mine = li >= 0 && gi == pos_offset + li;
        /* its owner: the rank whose positions hold gi (told by a max of the owner flag) */
        double own = mine ? (double)c->rank : -1.0;
        st = nv_comm_max(c, &own, 1, err);
        if (st != NESVM_OK) break;
        const int owner = (int)own;
        int64_t len = 0;
        if (mine) {
            msg[0] = res[li];
            msg[1] = sq[li];
            memcpy(msg + 2, L + li * m, (size_t)t * sizeof(double));
            len = 2 + t + nv_rows_pack(X, &xr[li], 1, msg + 2 + t);
        }
        st = nv_comm_bcast(c, &len, sizeof len, owner, err);
        if (st == NESVM_OK) st = nv_comm_bcast(c, msg, (size_t)len * sizeof(double), owner, err);
        if (st != NESVM_OK) break;
        const double *lp = msg + 2, *row = msg + 2 + t;
        nv_zrow_set_packed(&zr, row); /* within the room of the longest row */
        column(k, X, xr, sq, n, &zr, msg[1], threads, col);
        nv_zrow_clear(&zr);
        *evals += n;
        const double inv = 1.0 / sqrt(msg[0]);
        for (int64_t i = 0; i < n; i++) {
            double s = col[i];
            for (int64_t a = 0; a < t; a++) s -= L[i * m + a] * lp[a];
            double l = s * inv;
            L[i * m + t] = l;
            res[i] -= l * l;
        }
        if (mine) {
            res[li] = 0;
            taken[li] = 1;
        }
        B[t++] = gi;
    }
    *nb = t;
    qsort(B, (size_t)t, sizeof(int64_t), nv_cmp_i64);
    nv_free(L);
    nv_free(res);
    nv_free(col);
    nv_zrow_free(&zr);
    nv_free(msg);
    nv_free(taken);
    return st;
}

nesvm_status nv_kfeat_build_dist(const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows, int64_t n,
                                 int64_t pos_offset, int64_t row_offset, int64_t n_all, int64_t m, int transform,
                                 int select, uint64_t seed, double mem_mb, int threads, const struct nv_comm *c,
                                 nv_kfeat *out, nesvm_error *err)
{
    memset(out, 0, sizeof *out);
    out->k = *k;
    const int full = m <= 0 || m >= n_all;
    const int64_t nb_max = full ? n_all : m;
    int64_t nb = nb_max; /* the greedy pivoting may stop early */
    const double mb = 1048576.0;
    /* this rank's memory: the gathered basis rows aside, K_BB and its rows' features */
    double need = transform ? ((double)nb * (double)nb + (double)n * (double)nb) * 8.0 : (double)n * (double)nb * 8.0;
    if (!full && select == NV_BASIS_GREEDY) need += (double)n * (double)nb * 8.0; /* its L */
    nesvm_status st = NESVM_OK;
    if (need > mem_mb * mb)
        st = nv_error(err, NESVM_ERR_NOMEM,
                      "the %s kernel needs %.3g MB (%lld x %lld basis), more than the kernel memory budget of "
                      "%.3g MB: raise --kernel-memory or use a smaller --basis",
                      full ? "full" : "reduced", need / mb, (long long)n, (long long)nb, mem_mb);
    int64_t *B = NULL, *xr = NULL, *mine = NULL, *bglob = NULL;
    double *sq = NULL, *bsq = NULL, *K = NULL;
    lapack_int *piv = NULL;
    if (st == NESVM_OK) {
        B = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(int64_t));
        xr = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
        sq = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
        mine = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(int64_t));
        if (!B || !xr || !sq || !mine) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel features");
    }
    if (st == NESVM_OK) {
        for (int64_t i = 0; i < n; i++) xr[i] = rows ? rows[i] : i;
        nv_kernel_sqnorms(k, X, xr, n, sq);
    }
    if (full && st == NESVM_OK) {
        for (int64_t i = 0; i < nb; i++) B[i] = i;
    } else if (!full && select == NV_BASIS_GREEDY) {
        st = nv_comm_agree(c, st, err);
        if (st == NESVM_OK) st = greedy_dist(k, X, xr, sq, n, pos_offset, m, threads, c, B, &nb, &out->evals, err);
    } else if (st == NESVM_OK) {
        st = draw(n_all, nb, seed, B, err);
    }
    /* this rank's basis rows, each with its global dataset row, onto every
     * rank in B's order (sorted positions, so rank order) */
    int64_t nm = 0, total = 0;
    double *pre = NULL, *pall = NULL;
    if (st == NESVM_OK) {
        for (int64_t j = 0; j < nb; j++)
            if (B[j] >= pos_offset && B[j] < pos_offset + n) mine[nm++] = xr[B[j] - pos_offset];
        pre = nv_malloc_array((size_t)(nm ? nm : 1), sizeof(double));
        bglob = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(int64_t));
        bsq = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(double));
        if (!pre || !bglob || !bsq) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel features");
        for (int64_t j = 0; pre && j < nm; j++) pre[j] = (double)(row_offset + mine[j]);
    }
    st = nv_comm_agree(c, st, err);
    if (st == NESVM_OK) st = nv_rows_gather(c, X, mine, nm, pre, 1, &pall, &out->bdata, &total, err);
    for (int64_t j = 0; st == NESVM_OK && j < nb && j < total; j++) bglob[j] = (int64_t)pall[j];
    nv_free(pre);
    nv_free(pall);
    if (st == NESVM_OK) {
        nv_kernel_sqnorms(k, out->bdata, NULL, nb, bsq);
        if (!transform) {
            out->phi = nv_malloc_array((size_t)(n ? n : 1) * (size_t)(nb ? nb : 1), sizeof(double));
            out->basis = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(int64_t));
            out->bpos = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(int64_t));
            out->brow = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(int64_t));
            if (!out->phi || !out->basis || !out->bpos || !out->brow) {
                st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel features");
            } else {
                out->evals += n * nb;
                st = nv_kernel_block(k, X, xr, n, sq, out->bdata, NULL, nb, bsq, out->phi, nb, threads, err);
                out->r = nb;
                for (int64_t a = 0; a < nb; a++) {
                    out->basis[a] = B[a];
                    out->bpos[a] = a;
                    out->brow[a] = bglob[a];
                }
            }
        } else {
            K = nv_malloc_array((size_t)nb * (size_t)nb, sizeof(double));
            piv = nv_malloc_array((size_t)nb, sizeof(lapack_int));
            if (!K || !piv) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel features");
            if (st == NESVM_OK) {
                out->evals += nb * nb;
                st = nv_kernel_block(k, out->bdata, NULL, nb, bsq, out->bdata, NULL, nb, bsq, K, nb, threads, err);
            }
            lapack_int rank = 0;
            if (st == NESVM_OK) {
                /* as nv_kfeat_build: row-major K is column-major K; LAPACK's
                 * lower factor is our row-major upper U; the same on every rank */
                lapack_int info = LAPACKE_dpstrf(LAPACK_COL_MAJOR, 'L', (lapack_int)nb, K, (lapack_int)nb, piv,
                                                 &rank, -1.0);
                if (info < 0 || rank <= 0) st = nv_kernel_psd_error(k, err);
            }
            if (st == NESVM_OK) {
                const int64_t r = rank;
                out->r = r;
                out->U = nv_malloc_array((size_t)r * (size_t)r, sizeof(double));
                out->basis = nv_malloc_array((size_t)r, sizeof(int64_t));
                out->bpos = nv_malloc_array((size_t)r, sizeof(int64_t));
                out->brow = nv_malloc_array((size_t)r, sizeof(int64_t));
                out->phi = nv_malloc_array((size_t)(n ? n : 1) * (size_t)r, sizeof(double));
                double *brsq = nv_malloc_array((size_t)r, sizeof(double));
                if (!out->U || !out->basis || !out->bpos || !out->brow || !out->phi || !brsq) {
                    st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel features");
                } else {
                    for (int64_t a = 0; a < r; a++) {
                        out->bpos[a] = piv[a] - 1;
                        out->basis[a] = B[piv[a] - 1];
                        out->brow[a] = bglob[piv[a] - 1];
                        brsq[a] = bsq[piv[a] - 1];
                        for (int64_t q = 0; q < r; q++) out->U[a * r + q] = q >= a ? K[a * nb + q] : 0.0;
                    }
                    out->evals += n * r;
                    st = nv_kernel_block(k, X, xr, n, sq, out->bdata, out->bpos, r, brsq, out->phi, r, threads, err);
                    if (st == NESVM_OK && n > 0)
                        cblas_dtrsm(CblasRowMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)n, (int)r,
                                    1.0, out->U, (int)r, out->phi, (int)r);
                }
                nv_free(brsq);
            }
        }
    }
    if (st == NESVM_OK && !nv_kfeat_wrap(out, n)) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel features");
    st = nv_comm_agree(c, st, err);
    if (st != NESVM_OK) nv_kfeat_free(out);
    nv_free(B);
    nv_free(xr);
    nv_free(sq);
    nv_free(mine);
    nv_free(bglob);
    nv_free(bsq);
    nv_free(K);
    nv_free(piv);
    return st;
}
