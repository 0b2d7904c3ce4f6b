/* kernel.c - kernel values, blocks of the kernel matrix (BLAS for dense data), and kernel features from a pivoted Cholesky factorization. */
#include "kernel.h"
#include "../comm/comm.h"
#include "../linalg/linalg.h"

#include <cblas.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const nv_kernel_names[5] = {"linear", "poly", "rbf", "sigmoid", "precomputed"};

double nv_kernel_value(const nv_kernel *k, double dot, double sqa, double sqb)
{
    switch (k->type) {
    case NV_KERNEL_POLY: {
        double base = k->gamma * dot + k->coef0, r = 1.0;
        for (int e = 0; e < k->degree; e++) r *= base; /* as LIBSVM: integer power */
        return r;
    }
    case NV_KERNEL_RBF: {
        double d2 = sqa + sqb - 2.0 * dot;
        return exp(-k->gamma * (d2 > 0 ? d2 : 0.0));
    }
    case NV_KERNEL_SIGMOID: return tanh(k->gamma * dot + k->coef0);
    default: return dot; /* linear, and precomputed: the look-up itself */
    }
}

void nv_kernel_sqnorms(const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows, int64_t n, double *out)
{
    if (k && k->type == NV_KERNEL_PRECOMPUTED) {
        for (int64_t i = 0; i < n; i++) {
            const int64_t r = rows ? rows[i] : i, s = nv_pc_serial(X, r);
            out[i] = s > 0 ? nv_row_value(X, r, s) : 0.0;
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t r = rows ? rows[i] : i;
        double s = 0;
        if (X->storage == NESVM_STORAGE_DENSE) {
            int64_t o = r * (int64_t)X->d;
            for (int32_t j = 0; j < X->d; j++) {
                double v = nv_val(X, o + j);
                s += v * v;
            }
        } else {
            for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++) {
                double v = nv_val(X, p);
                s += v * v;
            }
        }
        out[i] = s;
    }
}

int nv_kernel_psd(const nv_kernel *k)
{
    return k->type == NV_KERNEL_LINEAR || k->type == NV_KERNEL_RBF || (k->type == NV_KERNEL_POLY && k->coef0 >= 0);
}

nesvm_status nv_kernel_psd_error(const nv_kernel *k, nesvm_error *err)
{
    return nv_error(err, NESVM_ERR_DATA,
                    "the %s kernel matrix of the basis has no positive diagonal entry "
                    "(K(x,x) = 0 for every basis row: rows of zeros?): the kernel features are all zero",
                    nv_kernel_names[k->type]);
}

nesvm_status nv_zrow_init(nv_zrow *zr, const nesvm_dataset *X, nesvm_error *err)
{
    memset(zr, 0, sizeof *zr);
    zr->d = X->d;
    const size_t d = (size_t)(X->d ? X->d : 1);
    if (X->storage == NESVM_STORAGE_DENSE || !nv_dense_too_large(8.0 * (double)d, X->nnz, X->n)) {
        zr->z = nv_calloc(d, sizeof(double));
        if (!zr->z) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for a kernel row (%zu features)", d);
    }
    return NESVM_OK;
}

int nv_zrow_reserve(nv_zrow *zr, int64_t n)
{
    if (n <= zr->cap) return 1;
    int64_t cap = zr->cap ? zr->cap : 64;
    while (cap < n) cap *= 2;
    int32_t *i = nv_realloc_array(zr->idx, (size_t)cap, sizeof(int32_t));
    if (!i) return 0;
    zr->idx = i;
    double *v = nv_realloc_array(zr->val, (size_t)cap, sizeof(double));
    if (!v) return 0;
    zr->val = v;
    zr->cap = cap;
    return 1;
}

/* The entries into z (those below its width). */
static void zrow_scatter(nv_zrow *zr)
{
    if (zr->z)
        for (int64_t e = 0; e < zr->nnz && zr->idx[e] < zr->d; e++) zr->z[zr->idx[e]] = zr->val[e];
}

int nv_zrow_set(nv_zrow *zr, const nesvm_dataset *D, int64_t r)
{
    NV_ASSERT(r >= 0 && r < D->n);
    const int dense = D->storage == NESVM_STORAGE_DENSE;
    const int64_t p0 = dense ? r * (int64_t)D->d : D->indptr[r], len = dense ? D->d : D->indptr[r + 1] - p0;
    if (!nv_zrow_reserve(zr, len)) return 0;
    int64_t k = 0;
    for (int64_t q = 0; q < len; q++) {
        const double v = nv_val(D, p0 + q);
        if (dense && v == 0) continue;
        zr->idx[k] = (int32_t)(dense ? q : nv_idx(D, p0 + q));
        zr->val[k++] = v;
    }
    /* a dense z holds no other row's entries: the row before was cleared
     * (nv_zrow_clear); merged dot products (z NULL) need no clearing */
    NV_ASSERT(k <= zr->cap && (!zr->z || zr->nnz == 0));
    zr->nnz = k;
    zrow_scatter(zr);
    return 1;
}

int nv_zrow_set_packed(nv_zrow *zr, const double *packed)
{
    const int64_t k = (int64_t)packed[1];
    if (!nv_zrow_reserve(zr, k)) return 0;
    for (int64_t e = 0; e < k; e++) {
        zr->idx[e] = (int32_t)packed[2 + 2 * e];
        zr->val[e] = packed[3 + 2 * e];
    }
    zr->nnz = k;
    zrow_scatter(zr);
    return 1;
}

void nv_zrow_clear(nv_zrow *zr)
{
    if (zr->z)
        for (int64_t e = 0; e < zr->nnz && zr->idx[e] < zr->d; e++) zr->z[zr->idx[e]] = 0.0;
    zr->nnz = 0;
}

double nv_zrow_dot(const nv_zrow *zr, const nesvm_dataset *X, int64_t r)
{
    return zr->z ? nv_row_dot(X, r, zr->z) : nv_row_dot_sparse(X, r, zr->idx, zr->val, zr->nnz);
}

double nv_kernel_zrow(const nv_kernel *k, const nv_zrow *zr, const nesvm_dataset *X, int64_t r, double xsq,
                      double zsq)
{
    if (k->type != NV_KERNEL_PRECOMPUTED) return nv_kernel_value(k, nv_zrow_dot(zr, X, r), xsq, zsq);
    /* z's serial number: its entry in column 0 (its first, the columns ascending) */
    const double s = zr->nnz > 0 && zr->idx[0] == 0 ? zr->val[0] : 0.0;
    return s >= 1 && s <= INT32_MAX && s == floor(s) ? nv_row_value(X, r, (int64_t)s) : 0.0;
}

void nv_zrow_free(nv_zrow *zr)
{
    nv_free(zr->z);
    nv_free(zr->idx);
    nv_free(zr->val);
    memset(zr, 0, sizeof *zr);
}

/* Row r's first dc features as a dense vector (dense or CSR storage). */
static void dense_row(const nesvm_dataset *X, int64_t r, int32_t dc, double *dst)
{
    if (X->storage != NESVM_STORAGE_DENSE) {
        memset(dst, 0, (size_t)dc * sizeof(double));
        for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++)
            if (nv_idx(X, p) < dc) dst[nv_idx(X, p)] = nv_val(X, p);
        return;
    }
    int64_t o = r * (int64_t)X->d;
    if (X->prec == NESVM_DOUBLE)
        memcpy(dst, (const double *)X->values + o, (size_t)dc * sizeof(double));
    else
        for (int32_t j = 0; j < dc; j++) dst[j] = (double)((const float *)X->values)[o + j];
}

static void map_block(const nv_kernel *k, double *out, int64_t ldo, int64_t nx, int64_t nz,
                      const double *xsq, const double *zsq, int threads)
{
    if (k->type == NV_KERNEL_LINEAR) return;
    (void)threads;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && nx * nz > 65536)
#endif
    for (int64_t i = 0; i < nx; i++) {
        double *o = out + i * ldo;
        double sa = xsq ? xsq[i] : 0.0;
        for (int64_t j = 0; j < nz; j++) o[j] = nv_kernel_value(k, o[j], sa, zsq ? zsq[j] : 0.0);
    }
}

/* A block of a precomputed kernel: each z row's serial number, then one
 * look-up per value (threaded over x rows). */
static nesvm_status precomputed_block(const nesvm_dataset *X, const int64_t *xrows, int64_t nx,
                                      const nesvm_dataset *Z, const int64_t *zrows, int64_t nz, double *out,
                                      int64_t ldo, int threads, nesvm_error *err)
{
    int64_t *ser = nv_malloc_array((size_t)nz, sizeof(int64_t));
    if (!ser) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for a kernel block (%lld x %d)", (long long)nz, 1);
    for (int64_t j = 0; j < nz; j++) ser[j] = nv_pc_serial(Z, zrows ? zrows[j] : j);
    (void)threads;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && nx * nz > 65536)
#endif
    for (int64_t i = 0; i < nx; i++) {
        const int64_t r = xrows ? xrows[i] : i;
        double *o = out + i * ldo;
        for (int64_t j = 0; j < nz; j++) o[j] = ser[j] > 0 ? nv_row_value(X, r, ser[j]) : 0.0;
    }
    nv_free(ser);
    return NESVM_OK;
}

nesvm_status nv_kernel_block(const nv_kernel *k, const nesvm_dataset *X, const int64_t *xrows,
                             int64_t nx, const double *xsq, const nesvm_dataset *Z,
                             const int64_t *zrows, int64_t nz, const double *zsq, double *out,
                             int64_t ldo, int threads, nesvm_error *err)
{
    if (nx == 0 || nz == 0) return NESVM_OK;
    threads = nv_threads(threads);
    if (k->type == NV_KERNEL_PRECOMPUTED) return precomputed_block(X, xrows, nx, Z, zrows, nz, out, ldo, threads, err);
    const int32_t dc = X->d < Z->d ? X->d : Z->d; /* columns that can meet */
    /* One side dense (so the width is modest; Z's rows as a dense block stay
     * within 256 MB): gather Z's rows once, X's in blocks of about 32 MB,
     * then dgemm.  Both sides CSR: sparse dot products. */
    /* Two CSR sides dense enough (Fashion-MNIST: half its pixels are not
     * zero) also go through dgemm: the scatter-and-dot loop is a chain of
     * dependent additions, dgemm several times faster per value. */
    const int dense_enough = X->n > 0 && X->d > 0 &&
                             (double)X->nnz >= NV_KCACHE_COPY_DENSITY * (double)X->n * (double)X->d;
    if ((X->storage == NESVM_STORAGE_DENSE || Z->storage == NESVM_STORAGE_DENSE || dense_enough) && dc > 0 &&
        (double)nz * (double)dc <= 33554432.0) {
        int64_t bx = (int64_t)(4194304 / dc);
        if (bx < 64) bx = 64;
        if (bx > nx) bx = nx;
        double *B = nv_malloc_array((size_t)nz * (size_t)dc, sizeof(double));
        double *A = nv_malloc_array((size_t)bx * (size_t)dc, sizeof(double));
        if (!B || !A) {
            nv_free(B);
            nv_free(A);
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory for a kernel block (%lld x %d)",
                            (long long)nz, dc);
        }
        for (int64_t j = 0; j < nz; j++) dense_row(Z, zrows ? zrows[j] : j, dc, B + j * dc);
        for (int64_t i0 = 0; i0 < nx; i0 += bx) {
            int64_t nb = nx - i0 < bx ? nx - i0 : bx;
            for (int64_t i = 0; i < nb; i++)
                dense_row(X, xrows ? xrows[i0 + i] : i0 + i, dc, A + i * dc);
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, (int)nz, dc, 1.0, A, dc,
                        B, dc, 0.0, out + i0 * ldo, (int)ldo);
        }
        nv_free(A);
        nv_free(B);
    } else if (nv_dense_too_large(8.0 * (double)threads * (double)(X->d > Z->d ? X->d : Z->d), X->nnz + Z->nnz,
                                  X->n + Z->n)) {
        /* a few values at a huge index: no dense buffer of that width; each
         * z row's entries merged with the x rows' */
        int64_t longest = 1;
        for (int64_t j = 0; j < nz; j++) {
            int64_t zr = zrows ? zrows[j] : j;
            int64_t len = Z->storage == NESVM_STORAGE_DENSE ? Z->d : Z->indptr[zr + 1] - Z->indptr[zr];
            if (len > longest) longest = len;
        }
        nv_zrow *zs = nv_calloc((size_t)threads, sizeof(nv_zrow)); /* z NULL: merged */
        int ok = zs != NULL;
        for (int t = 0; ok && t < threads; t++) ok = nv_zrow_reserve(&zs[t], longest);
        if (ok) {
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && nz > 1)
#endif
            for (int64_t j = 0; j < nz; j++) {
#ifdef _OPENMP
                nv_zrow *zw = &zs[omp_get_thread_num()];
#else
                nv_zrow *zw = zs;
#endif
                nv_zrow_set(zw, Z, zrows ? zrows[j] : j); /* within its room: cannot fail */
                for (int64_t i = 0; i < nx; i++)
                    out[i * ldo + j] = nv_row_dot_sparse(X, xrows ? xrows[i] : i, zw->idx, zw->val, zw->nnz);
            }
        }
        for (int t = 0; zs && t < threads; t++) nv_zrow_free(&zs[t]);
        nv_free(zs);
        if (!ok) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel buffers");
    } else {
        int32_t dmax = X->d > Z->d ? X->d : Z->d;
        size_t nbuf = (size_t)(dmax ? dmax : 1);
        double *bufs = nv_calloc((size_t)threads * nbuf, sizeof(double));
        if (!bufs) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel buffers");
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && nz > 1)
#endif
        for (int64_t j = 0; j < nz; j++) {
#ifdef _OPENMP
            double *buf = bufs + (size_t)omp_get_thread_num() * nbuf;
#else
            double *buf = bufs;
#endif
            int64_t zr = zrows ? zrows[j] : j;
            if (Z->storage == NESVM_STORAGE_DENSE) {
                dense_row(Z, zr, Z->d, buf);
            } else {
                for (int64_t p = Z->indptr[zr]; p < Z->indptr[zr + 1]; p++)
                    buf[nv_idx(Z, p)] = nv_val(Z, p);
            }
            for (int64_t i = 0; i < nx; i++) {
                int64_t xr = xrows ? xrows[i] : i;
                double s = 0;
                if (X->storage == NESVM_STORAGE_DENSE) {
                    int64_t o = xr * (int64_t)X->d;
                    for (int32_t c = 0; c < dc; c++) s += nv_val(X, o + c) * buf[c];
                } else if (X->indices64) {
                    for (int64_t p = X->indptr[xr]; p < X->indptr[xr + 1]; p++)
                        s += nv_val(X, p) * buf[X->indices64[p]];
                } else {
                    for (int64_t p = X->indptr[xr]; p < X->indptr[xr + 1]; p++)
                        s += nv_val(X, p) * buf[X->indices[p]];
                }
                out[i * ldo + j] = s;
            }
            if (Z->storage == NESVM_STORAGE_DENSE) {
                memset(buf, 0, (size_t)Z->d * sizeof(double));
            } else {
                for (int64_t p = Z->indptr[zr]; p < Z->indptr[zr + 1]; p++) buf[nv_idx(Z, p)] = 0;
            }
        }
        nv_free(bufs);
    }
    map_block(k, out, ldo, nx, nz, xsq, zsq, threads);
    return NESVM_OK;
}

void nv_kfeat_free(nv_kfeat *f)
{
    nv_free(f->basis);
    nv_free(f->U);
    nv_free(f->phi);
    nv_free(f->X);
    nesvm_dataset_destroy(f->bdata);
    nv_free(f->bpos);
    nv_free(f->brow);
    memset(f, 0, sizeof *f);
}

/*
 * The greedy basis: the pivots of a pivoted (incomplete) Cholesky
 * factorization of K, each the row with the largest residual diagonal
 * K_ii - ||L_i||^2 (the Nystrom approximation's error there), computed in
 * blocks: the NV_GREEDY_BLOCK rows of largest residual get their kernel
 * columns at once (one nv_kernel_block) and their residual columns from one
 * dgemm; within the block a candidate is taken only while its updated
 * residual is still the largest (at least every candidate's left and the
 * largest residual outside the block), so the result is exactly sequential
 * greedy pivoting.  Stops early when the largest residual is <= 1e-12 of the
 * largest diagonal (the rest is numerically in the span).  Cost: n m kernel
 * values and O(n m^2) flops; memory n m doubles.  B gets the chosen
 * positions, sorted; *nb their number (<= m).
 */
#define NV_GREEDY_BLOCK 32
static nesvm_status greedy_basis(const nv_kernel *k, const nesvm_dataset *X, const int64_t *xr,
                                 const double *sq, int64_t n, int64_t m, int threads, int64_t *B,
                                 int64_t *nb, int64_t *evals, nesvm_error *err)
{
    const int64_t bs = NV_GREEDY_BLOCK;
    double *L = nv_malloc_array((size_t)n * (size_t)m, sizeof(double));
    double *res = nv_malloc_array((size_t)n, sizeof(double));
    double *C = nv_malloc_array((size_t)n * (size_t)bs, sizeof(double));
    double *Lc = nv_malloc_array((size_t)bs * (size_t)m, sizeof(double));
    int64_t *cand = nv_malloc_array((size_t)bs, sizeof(int64_t));
    int64_t *crow = nv_malloc_array((size_t)bs, sizeof(int64_t));
    double *csq = nv_malloc_array((size_t)bs, sizeof(double));
    char *taken = nv_calloc((size_t)n, 1);
    nesvm_status st = NESVM_OK;
    if (!L || !res || !C || !Lc || !cand || !crow || !csq || !taken) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the greedy basis (%lld x %lld)",
                      (long long)n, (long long)m);
        goto out;
    }
    double dmax = 0;
    for (int64_t i = 0; i < n; i++) {
        res[i] = nv_kernel_value(k, sq[i], sq[i], sq[i]);
        if (res[i] > dmax) dmax = res[i];
    }
    if (!(dmax > 0)) {
        st = nv_kernel_psd_error(k, err);
        goto out;
    }
    int64_t t = 0;
    while (t < m) {
        /* candidates: the bs largest residuals not taken (ties: lowest index) */
        int64_t nc = 0;
        for (int64_t i = 0; i < n; i++) {
            if (taken[i] || !(res[i] > 1e-12 * dmax)) continue;
            int64_t q = nc < bs ? nc++ : bs;
            if (q == bs) {
                if (!(res[i] > res[cand[bs - 1]])) continue;
                q = bs - 1;
            }
            while (q > 0 && res[cand[q - 1]] < res[i]) {
                cand[q] = cand[q - 1];
                q--;
            }
            cand[q] = i;
        }
        if (nc == 0) break;
        /* the largest residual outside the block bounds what a candidate must keep */
        double outside = 0;
        if (nc == bs)
            for (int64_t i = 0; i < n; i++) {
                int in = 0;
                for (int64_t q = 0; q < nc && !in; q++) in = cand[q] == i;
                if (!taken[i] && !in && res[i] > outside) outside = res[i];
            }
        for (int64_t q = 0; q < nc; q++) {
            crow[q] = xr[cand[q]];
            csq[q] = sq[cand[q]];
        }
        st = nv_kernel_block(k, X, xr, n, sq, X, crow, nc, csq, C, nc, threads, err);
        if (st != NESVM_OK) goto out;
        *evals += n * nc;
        if (t > 0) {
            for (int64_t q = 0; q < nc; q++) memcpy(Lc + q * t, L + cand[q] * m, (size_t)t * sizeof(double));
            /* C -= L[:, :t] Lc^T */
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)nc, (int)t, -1.0, L, (int)m,
                        Lc, (int)t, 1.0, C, (int)nc);
        }
        /* within the block: take the largest updated residual while it stays the largest */
        char used[NV_GREEDY_BLOCK] = {0};
        for (int64_t took = 0; took < nc && t < m; took++) {
            int64_t qb = -1;
            for (int64_t q = 0; q < nc; q++)
                if (!used[q] && (qb < 0 || C[cand[q] * nc + q] > C[cand[qb] * nc + qb])) qb = q;
            double dq = C[cand[qb] * nc + qb];
            if (took > 0 && (dq < outside || !(dq > 1e-12 * dmax))) break;
            used[qb] = 1;
            double inv = 1.0 / sqrt(dq);
            int64_t piv = cand[qb];
            /* the new column first: the updates below read it at the candidates' rows */
            for (int64_t i = 0; i < n; i++) {
                double l = C[i * nc + qb] * inv;
                L[i * m + t] = l;
                res[i] -= l * l;
            }
            for (int64_t i = 0; i < n; i++) {
                double l = L[i * m + t];
                for (int64_t q = 0; q < nc; q++)
                    if (!used[q]) C[i * nc + q] -= l * L[cand[q] * m + t];
            }
            res[piv] = 0;
            taken[piv] = 1;
            B[t++] = piv;
        }
    }
    *nb = t;
    qsort(B, (size_t)t, sizeof(int64_t), nv_cmp_i64);
out:
    nv_free(L);
    nv_free(res);
    nv_free(C);
    nv_free(Lc);
    nv_free(cand);
    nv_free(crow);
    nv_free(csq);
    nv_free(taken);
    return st;
}

int nv_kfeat_wrap(nv_kfeat *f, int64_t n)
{
    f->X = nv_calloc(1, sizeof *f->X);
    if (!f->X) return 0;
    f->X->n = n;
    f->X->d = (int32_t)f->r;
    f->X->nnz = n * f->r;
    f->X->storage = NESVM_STORAGE_DENSE;
    f->X->prec = NESVM_DOUBLE;
    f->X->values = f->phi;
    f->X->blas_rows = 1;
    return 1;
}

nesvm_status nv_kfeat_build(const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows,
                            int64_t n, int64_t m, int transform, int select, uint64_t seed,
                            double mem_mb, int threads, nv_kfeat *out, nesvm_error *err)
{
    memset(out, 0, sizeof *out);
    out->k = *k;
    const int full = m <= 0 || m >= n;
    int64_t nb = full ? n : m;
    const double mb = 1048576.0;
    const double need = nv_kfeat_bytes(n, m, transform, select);
    if (need > mem_mb * mb)
        return nv_error(err, NESVM_ERR_NOMEM,
                        "the %s kernel needs %.3g MB (%lld x %lld basis), more than the kernel memory "
                        "budget of %.3g MB: raise --kernel-memory or use a smaller --basis",
                        full ? "full" : "reduced", need / mb, (long long)n, (long long)nb, mem_mb);
    /* the basis candidates: positions 0..n-1, or m distinct ones at random */
    int64_t *B = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(int64_t));
    double *sq = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    int64_t *xr = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    double *K = NULL;
    lapack_int *piv = NULL;
    nesvm_status st = NESVM_OK;
    if (!B || !sq || !xr) goto nomem;
    for (int64_t i = 0; i < n; i++) xr[i] = rows ? rows[i] : i;
    nv_kernel_sqnorms(k, X, xr, n, sq);
    if (full) {
        for (int64_t i = 0; i < n; i++) B[i] = i;
    } else if (select == NV_BASIS_GREEDY) {
        st = greedy_basis(k, X, xr, sq, n, m, threads, B, &nb, &out->evals, err);
        if (st != NESVM_OK) goto fail;
    } else {
        int64_t *perm = nv_malloc_array((size_t)n, sizeof(int64_t));
        if (!perm) goto nomem;
        for (int64_t i = 0; i < n; i++) perm[i] = i;
        uint64_t rs = seed ^ UINT64_C(0xB1A5);
        for (int64_t i = 0; i < nb; i++) { /* partial Fisher-Yates */
            int64_t j = i + (int64_t)(nv_rng_uniform(&rs) * (double)(n - i));
            if (j >= n) j = n - 1;
            int64_t t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        memcpy(B, perm, (size_t)nb * sizeof(int64_t));
        nv_free(perm);
        qsort(B, (size_t)nb, sizeof(int64_t), nv_cmp_i64);
    }
    int64_t *bx = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(int64_t));
    double *bsq = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(double));
    if (!bx || !bsq) {
        nv_free(bx);
        nv_free(bsq);
        goto nomem;
    }
    for (int64_t j = 0; j < nb; j++) {
        bx[j] = xr[B[j]];
        bsq[j] = sq[B[j]];
    }
    if (!transform) {
        out->phi = nv_malloc_array((size_t)n * (size_t)(nb ? nb : 1), sizeof(double));
        if (!out->phi) {
            nv_free(bx);
            nv_free(bsq);
            goto nomem;
        }
        out->evals += n * nb;
        st = nv_kernel_block(k, X, xr, n, sq, X, bx, nb, bsq, out->phi, nb, threads, err);
        nv_free(bx);
        nv_free(bsq);
        if (st != NESVM_OK) goto fail;
        out->r = nb;
        out->basis = B;
        B = NULL;
    } else {
        K = nv_malloc_array((size_t)nb * (size_t)nb, sizeof(double));
        piv = nv_malloc_array((size_t)nb, sizeof(lapack_int));
        if (!K || !piv) {
            nv_free(bx);
            nv_free(bsq);
            goto nomem;
        }
        out->evals += nb * nb;
        st = nv_kernel_block(k, X, bx, nb, bsq, X, bx, nb, bsq, K, nb, threads, err);
        nv_free(bx);
        nv_free(bsq);
        if (st != NESVM_OK) goto fail;
        /* K is symmetric: row-major K is column-major K; LAPACK's column-major
         * lower factor L (P^T K P = L L^T) is our row-major upper U = L^T */
        lapack_int rank = 0;
        lapack_int info = LAPACKE_dpstrf(LAPACK_COL_MAJOR, 'L', (lapack_int)nb, K, (lapack_int)nb, piv,
                                         &rank, -1.0);
        if (info < 0 || rank <= 0) {
            st = nv_kernel_psd_error(k, err);
            goto fail;
        }
        int64_t r = rank;
        out->r = r;
        out->U = nv_malloc_array((size_t)r * (size_t)r, sizeof(double));
        out->basis = nv_malloc_array((size_t)r, sizeof(int64_t));
        out->phi = nv_malloc_array((size_t)n * (size_t)r, sizeof(double));
        if (!out->U || !out->basis || !out->phi) goto nomem;
        for (int64_t a = 0; a < r; a++) {
            out->basis[a] = B[piv[a] - 1];
            for (int64_t c = 0; c < r; c++) out->U[a * r + c] = c >= a ? K[a * nb + c] : 0.0;
        }
        if (full) {
            /* Phi of point B[piv[c]] is column c of U's first r rows */
            for (int64_t c = 0; c < nb; c++) {
                double *ph = out->phi + (B[piv[c] - 1]) * r;
                for (int64_t a = 0; a < r; a++) ph[a] = a <= c ? K[a * nb + c] : 0.0;
            }
        } else {
            int64_t *brow = nv_malloc_array((size_t)r, sizeof(int64_t));
            double *brsq = nv_malloc_array((size_t)r, sizeof(double));
            if (!brow || !brsq) {
                nv_free(brow);
                nv_free(brsq);
                goto nomem;
            }
            for (int64_t a = 0; a < r; a++) {
                brow[a] = xr[out->basis[a]];
                brsq[a] = sq[out->basis[a]];
            }
            out->evals += n * r;
            st = nv_kernel_block(k, X, xr, n, sq, X, brow, r, brsq, out->phi, r, threads, err);
            nv_free(brow);
            nv_free(brsq);
            if (st != NESVM_OK) goto fail;
            cblas_dtrsm(CblasRowMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)n,
                        (int)r, 1.0, out->U, (int)r, out->phi, (int)r);
        }
    }
    if (!nv_kfeat_wrap(out, n)) goto nomem;
    nv_free(B);
    nv_free(sq);
    nv_free(xr);
    nv_free(K);
    nv_free(piv);
    return NESVM_OK;
nomem:
    st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel features (%lld rows, basis %lld)",
                  (long long)n, (long long)nb);
fail:
    nv_free(B);
    nv_free(sq);
    nv_free(xr);
    nv_free(K);
    nv_free(piv);
    nv_kfeat_free(out);
    return st;
}

double nv_kfeat_bytes(int64_t n, int64_t m, int transform, int select)
{
    const int full = m <= 0 || m >= n;
    const double nb = (double)(full ? n : m);
    double need = transform ? (nb * nb + (double)n * nb) * 8.0 : (double)n * nb * 8.0;
    if (!full && select == NV_BASIS_GREEDY) need += (double)n * nb * 8.0;
    return need;
}

/* The residual's two sums over rows[0..n). */
static void residual_sums(const nv_kfeat *f, const nesvm_dataset *X, const int64_t *rows, int64_t n, double *res_out,
                          double *diag_out)
{
    double res = 0.0, diag = 0.0;
    const int64_t r = f->r;
    for (int64_t i = 0; i < n; i++) {
        const int64_t x = rows ? rows[i] : i;
        double sq;
        nv_kernel_sqnorms(&f->k, X, &x, 1, &sq);
        const double kii = nv_kernel_value(&f->k, sq, sq, sq);
        if (!(kii > 0)) continue; /* an indefinite kernel's row: no Nystrom error to measure */
        const double *ph = f->phi + i * r;
        double p2 = 0.0;
        for (int64_t a = 0; a < r; a++) p2 += ph[a] * ph[a];
        diag += kii;
        res += kii > p2 ? kii - p2 : 0.0;
    }
    *res_out = res;
    *diag_out = diag;
}

double nv_kfeat_residual(const nv_kfeat *f, const nesvm_dataset *X, const int64_t *rows, int64_t n)
{
    if (!f->U || n <= 0) return 0.0;
    double res, diag;
    residual_sums(f, X, rows, n, &res, &diag);
    return diag > 0 ? res / diag : 0.0;
}

nesvm_status nv_kfeat_residual_dist(const nv_kfeat *f, const nesvm_dataset *X, const int64_t *rows, int64_t n,
                                    const struct nv_comm *c, double *out, nesvm_error *err)
{
    double s[2] = {0.0, 0.0};
    if (f->U) residual_sums(f, X, rows, n, &s[0], &s[1]);
    nesvm_status st = nv_comm_sum(c, s, 2, err);
    *out = s[1] > 0 ? s[0] / s[1] : 0.0;
    return st;
}

void nv_kfeat_coef(const nv_kfeat *f, const double *v, double *beta)
{
    memcpy(beta, v, (size_t)f->r * sizeof(double));
    if (f->U)
        cblas_dtrsv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, (int)f->r, f->U,
                    (int)f->r, beta, 1);
}
