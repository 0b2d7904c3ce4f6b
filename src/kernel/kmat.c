/* kmat.c - the kernel matrix of the training rows as an operator: stored in single precision when it fits the budget, computed blockwise on the fly otherwise. */
#include "kernel.h"
#include "../linalg/linalg.h"

#include <math.h>

#include <cblas.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <string.h>
#ifdef __linux__
#include <stdint.h>
#include <sys/mman.h>
#endif

#define BLOCK_DOUBLES 8388608 /* one kernel block: 64 MB */

/* Ask for transparent huge pages over a large buffer (Linux, where they are
 * given on request: /sys/kernel/mm/transparent_hugepage/enabled "madvise"):
 * the first touch of a stored matrix then faults 2 MB pages, not 4 KB ones
 * (20,000 rows: 1.6 GB, 400,000 faults; 2 s of a virtual machine's 18).  A
 * hint: nothing changes where it is refused. */
static void huge_pages(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t align = (uintptr_t)2 << 20, a = ((uintptr_t)p + align - 1) & ~(align - 1);
    const uintptr_t end = ((uintptr_t)p + bytes) & ~(align - 1);
    if (bytes >= 32 * align && end > a) (void)madvise((void *)a, (size_t)(end - a), MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

void nv_kmat_free(nv_kmat *km)
{
    nv_free(km->rows);
    nv_free(km->sq);
    nv_free(km->K);
    nv_free(km->xr);
    nv_free(km->zr);
    nv_free(km->xs);
    nv_free(km->zs);
    nv_free(km->blk);
    memset(km, 0, sizeof *km);
}

double nv_kmat_diag(const nv_kmat *km, int64_t i)
{
    NV_ASSERT(i >= 0 && i < km->n);
    if (km->K) return (double)km->K[i * km->n + i];
    return nv_kernel_value(&km->k, km->sq[i], km->sq[i], km->sq[i]);
}

/* Grow the block scratch to c doubles. */
static int grow_blk(nv_kmat *km, size_t c)
{
    if (c <= km->blk_cap) return 1;
    nv_free(km->blk);
    km->blk = nv_malloc_array(c, sizeof(double));
    km->blk_cap = km->blk ? c : 0;
    return km->blk != NULL;
}

/* out (nr x nc, ldo) = K[ri, ci] computed from the data (ci == NULL: the
 * positions c0 .. c0 + nc - 1). */
static nesvm_status compute_block(nv_kmat *km, const int64_t *ri, int64_t nr, const int64_t *ci,
                                  int64_t c0, int64_t nc, double *out, int64_t ldo, nesvm_error *err)
{
    NV_ASSERT(nr <= km->n && nc <= km->n && c0 >= 0 && nc <= ldo); /* xr, zr: n positions */
    for (int64_t a = 0; a < nr; a++) {
        int64_t p = ri ? ri[a] : a;
        km->xr[a] = km->rows[p];
        km->xs[a] = km->sq[p];
    }
    for (int64_t b = 0; b < nc; b++) {
        int64_t p = ci ? ci[b] : c0 + b;
        km->zr[b] = km->rows[p];
        km->zs[b] = km->sq[p];
    }
    km->evals += nr * nc;
    return nv_kernel_block(&km->k, km->X, km->xr, nr, km->xs, km->X, km->zr, nc, km->zs, out, ldo,
                           km->threads, err);
}

/* The error for a kernel value v = K(x_ra, x_rb) (dataset rows ra, rb) that
 * the stored matrix cannot hold: not finite, or beyond single precision. */
static void kvalue_error(const nv_kernel *k, double v, int64_t ra, int64_t rb, nesvm_error *err)
{
    char g[32], r[32], val[32], what[160], fix[160];
    nv_format_double(k->gamma, g);
    nv_format_double(k->coef0, r);
    nv_format_double(v, val);
    if (isfinite(v))
        snprintf(what, sizeof what, "is %s, beyond the 3.4e38 of single precision, in which the kernel matrix is stored",
                 val);
    else
        snprintf(what, sizeof what, "is %s, not a finite number", val);
    switch (k->type) {
    case NV_KERNEL_POLY:
        snprintf(fix, sizeof fix, "(gamma %s x.z + coef0 %s)^degree %d: lower -g, -r or -d, or scale the data", g, r,
                 k->degree);
        break;
    case NV_KERNEL_RBF: snprintf(fix, sizeof fix, "exp(-gamma %s |x-z|^2): scale the data", g); break;
    case NV_KERNEL_SIGMOID: snprintf(fix, sizeof fix, "tanh(gamma %s x.z + coef0 %s): scale the data", g, r); break;
    case NV_KERNEL_PRECOMPUTED: snprintf(fix, sizeof fix, "the data's value: scale the matrix"); break;
    default: snprintf(fix, sizeof fix, "x.z: scale the data"); break;
    }
    char rows[80];
    if (ra == rb) snprintf(rows, sizeof rows, "K(x, x) of row %lld", (long long)ra + 1);
    else snprintf(rows, sizeof rows, "K(x, z) of rows %lld and %lld", (long long)ra + 1, (long long)rb + 1);
    nv_error(err, NESVM_ERR_NUMERIC, "the %s kernel's value %s of the data (counted from 1) %s; it is %s",
             nv_kernel_names[k->type], rows, what, fix);
}

/* km's fields for n rows (the matrix itself aside); 0: no memory. */
static int alloc_core(nv_kmat *km, const nv_kernel *k, const nesvm_dataset *X, int64_t n, int threads)
{
    memset(km, 0, sizeof *km);
    km->k = *k;
    km->X = X;
    km->n = n;
    km->threads = threads;
    size_t nn = (size_t)(n ? n : 1);
    km->rows = nv_malloc_array(nn, sizeof(int64_t));
    km->sq = nv_malloc_array(nn, sizeof(double));
    km->xr = nv_malloc_array(nn, sizeof(int64_t));
    km->zr = nv_malloc_array(nn, sizeof(int64_t));
    km->xs = nv_malloc_array(nn, sizeof(double));
    km->zs = nv_malloc_array(nn, sizeof(double));
    return km->rows && km->sq && km->xr && km->zr && km->xs && km->zs;
}

/* The rows as dense floats (n x d), for the stored matrix's single-precision
 * products; NULL where they do not pay or fit: a precomputed kernel, rows
 * too sparse for a dense product (the double path's own rule, kernel.h),
 * more columns than rows (the copy would outgrow the matrix), or out of
 * memory. */
static float *float_rows(const nv_kmat *km, const nesvm_dataset *X, int64_t n)
{
    const int32_t d = X->d;
    if (km->k.type == NV_KERNEL_PRECOMPUTED || d <= 0 || (int64_t)d > n) return NULL;
    if (X->storage != NESVM_STORAGE_DENSE && (double)X->nnz < NV_KCACHE_COPY_DENSITY * (double)X->n * (double)d)
        return NULL;
    float *F = nv_malloc_array((size_t)n * (size_t)d, sizeof(float));
    for (int64_t i = 0; F && i < n; i++) nv_row_dense_float(X, km->rows[i], 1.0f, F + i * d);
    return F;
}

/* Row block [i0, i1) of the stored matrix, its lower triangle (columns
 * 0..a of row a): with F, the products u.v by sgemm into fb (then each
 * value from them in double, the diagonal's product its squared norm, as
 * the double path's); else nv_kernel_block in double.  A value that is not
 * finite in single precision is an error (kvalue_error). */
static nesvm_status lower_rows(nv_kmat *km, const float *F, float *fb, int64_t i0, int64_t i1, nesvm_error *err)
{
    const int64_t n = km->n;
    if (F) {
        const int32_t d = km->X->d;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)(i1 - i0), (int)i1, d, 1.0f, F + i0 * d, d, F,
                    d, 0.0f, fb, (int)i1);
    } else {
        for (int64_t a = i0; a < i1; a++) {
            km->xr[a - i0] = km->rows[a];
            km->xs[a - i0] = km->sq[a];
        }
        nesvm_status st = nv_kernel_block(&km->k, km->X, km->xr, i1 - i0, km->xs, km->X, km->rows, i1, km->sq,
                                          km->blk, i1, km->threads, err);
        if (st != NESVM_OK) return st;
    }
    int bad = 0;
    int64_t bad_a = 0, bad_j = 0;
    double bad_v = 0;
    const int T = nv_threads(km->threads);
    (void)T;
#ifdef _OPENMP
#pragma omp parallel for num_threads(T) schedule(static) if (T > 1 && F)
#endif
    for (int64_t a = i0; a < i1; a++) {
        float *dst = km->K + a * n;
        for (int64_t j = 0; j <= a; j++) {
            double v = F ? nv_kernel_value(&km->k, j == a ? km->sq[a] : (double)fb[(a - i0) * i1 + j], km->sq[a],
                                           km->sq[j])
                         : km->blk[(a - i0) * i1 + j];
            float f = (float)v;
            if (!isfinite(f)) {
#ifdef _OPENMP
#pragma omp critical(nv_kmat_bad)
#endif
                if (!bad || a < bad_a) bad = 1, bad_a = a, bad_j = j, bad_v = v;
                break;
            }
            dst[j] = f;
        }
    }
    if (bad) {
        kvalue_error(&km->k, bad_v, km->rows[bad_a], km->rows[bad_j], err);
        return NESVM_ERR_NUMERIC;
    }
    return NESVM_OK;
}

static nesvm_status kmat_init(nv_kmat *km, const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows,
                              int64_t n, double mem_mb, int threads, const nv_kwatch *watch, int fast,
                              nesvm_error *err)
{
    size_t nn = (size_t)(n ? n : 1);
    if (!alloc_core(km, k, X, n, threads)) goto nomem;
    for (int64_t i = 0; i < n; i++) km->rows[i] = rows ? rows[i] : i;
    nv_kernel_sqnorms(k, X, km->rows, n, km->sq);
    int pos = 0;
    for (int64_t i = 0; i < n && !pos; i++) pos = nv_kmat_diag(km, i) > 0;
    if (!pos) {
        nv_kmat_free(km);
        return nv_kernel_psd_error(k, err);
    }
    if ((double)n * (double)n * sizeof(float) > mem_mb * 1048576.0) return NESVM_OK; /* on the fly */
    km->K = nv_malloc_array(nn * nn, sizeof(float));
    if (!km->K) return NESVM_OK; /* no room after all: on the fly */
    huge_pages(km->K, nn * nn * sizeof(float));
    /* the lower triangle in row blocks [i0, i1) x [0, i1), mirrored */
    /* row blocks of at most an eighth of the rows: block [i0, i1) computes
     * columns [0, i1), so the values computed are n^2/2 (1 + 1/8), not n^2
     * as one block of all rows would */
    int64_t bs = BLOCK_DOUBLES / (int64_t)nn;
    if (bs > (n + 7) / 8) bs = (n + 7) / 8;
    if (bs < 16) bs = 16;
    if (bs > n) bs = n;
    float *F = fast ? float_rows(km, X, n) : NULL, *fb = NULL;
    if (F && !(fb = nv_malloc_array((size_t)bs * nn, sizeof(float)))) {
        nv_free(F);
        F = NULL; /* no room for the float path: the double one */
    }
    if (!F && !grow_blk(km, (size_t)bs * nn)) goto nomem;
    nesvm_status st = NESVM_OK;
    for (int64_t i0 = 0; i0 < n; i0 += bs) {
        int64_t i1 = n - i0 < bs ? n : i0 + bs;
        if (watch && watch->deadline > 0 && nv_now() >= watch->deadline) {
            st = nv_error(err, NESVM_ERR_CANCELLED, "the time limit ran out while the kernel matrix was computed, "
                                                    "before any training: no model (raise --time-limit)");
            break;
        }
        if (watch && watch->tick && i0 > 0 && watch->tick(watch->ctx)) {
            st = nv_error(err, NESVM_ERR_CANCELLED, "training cancelled while the kernel matrix was computed");
            break;
        }
        km->evals += (i1 - i0) * i1;
        if ((st = lower_rows(km, F, fb, i0, i1, err)) != NESVM_OK) break;
        /* the mirror, row j's columns [i0, i1) at a time: contiguous writes
         * (column by column, each value a cache line of its own: 8 s of 20,000
         * rows' 2e8 values went to it) */
        for (int64_t j = 0; j < i1; j++) {
            float *dst = km->K + j * n;
            for (int64_t a = j > i0 ? j : i0; a < i1; a++) dst[a] = km->K[a * n + j];
        }
    }
    nv_free(F);
    nv_free(fb);
    nv_free(km->blk);
    km->blk = NULL;
    km->blk_cap = 0;
    if (st != NESVM_OK) nv_kmat_free(km); /* after the message: it reads km->k */
    return st;
nomem:
    nv_kmat_free(km);
    return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the kernel matrix (%lld rows)",
                    (long long)n);
}

nesvm_status nv_kmat_init(nv_kmat *km, const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows, int64_t n,
                          double mem_mb, int threads, const nv_kwatch *watch, nesvm_error *err)
{
    return kmat_init(km, k, X, rows, n, mem_mb, threads, watch, 0, err);
}

nesvm_status nv_kmat_init_fast(nv_kmat *km, const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows,
                               int64_t n, double mem_mb, int threads, const nv_kwatch *watch, nesvm_error *err)
{
    return kmat_init(km, k, X, rows, n, mem_mb, threads, watch, 1, err);
}

nesvm_status nv_kmat_block(nv_kmat *km, const int64_t *ri, int64_t nr, const int64_t *ci,
                           int64_t nc, double *out, int64_t ldo, nesvm_error *err)
{
    if (nr == 0 || nc == 0) return NESVM_OK;
    if (!km->K) return compute_block(km, ri, nr, ci, 0, nc, out, ldo, err);
    const int64_t n = km->n;
    for (int64_t a = 0; a < nr; a++) {
        const float *row = km->K + (ri ? ri[a] : a) * n;
        double *o = out + a * ldo;
        for (int64_t b = 0; b < nc; b++) o[b] = (double)row[ci ? ci[b] : b];
    }
    return NESVM_OK;
}

nesvm_status nv_kmat_mul_exact(nv_kmat *km, const int64_t *ri, int64_t nr, const int64_t *ci, int64_t nc,
                               const double *V, int ncol, double *out, nesvm_error *err)
{
    float *K = km->K;
    km->K = NULL; /* the on-the-fly path: blocks of double-precision values */
    nesvm_status st = nv_kmat_mul(km, ri, nr, ci, nc, V, ncol, out, err);
    km->K = K;
    return st;
}

nesvm_status nv_kmat_mul(nv_kmat *km, const int64_t *ri, int64_t nr, const int64_t *ci, int64_t nc,
                         const double *V, int ncol, double *out, nesvm_error *err)
{
    if (nr == 0) return NESVM_OK;
    memset(out, 0, (size_t)nr * (size_t)ncol * sizeof *out);
    if (nc == 0 || ncol == 0) return NESVM_OK;
    const int64_t n = km->n;
    if (km->K) {
        const float *K = km->K;
        int threads = nv_threads(km->threads);
        (void)threads;
        /* many columns: scatter V into a dense n x ncol array and read whole
         * rows of K (contiguous, vectorized: several values a cycle) instead
         * of gathering (one a cycle); beyond an eighth of the row, the
         * gather touches most of its cache lines anyway */
        double *Vd = NULL;
        if (ci && nc * 8 >= n) {
            Vd = nv_calloc((size_t)n * (size_t)ncol, sizeof(double));
            if (Vd)
                for (int64_t b = 0; b < nc; b++)
                    for (int c = 0; c < ncol; c++) Vd[ci[b] * ncol + c] += V[b * ncol + c];
        }
        const int dense = Vd || !ci;
        const double *Vs = Vd ? Vd : V;
        const int64_t len = dense ? n : nc;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && nr * len > 65536)
#endif
        for (int64_t a = 0; a < nr; a++) {
            const float *row = K + (ri ? ri[a] : a) * n;
            double *o = out + a * ncol;
            if (dense && ncol == 1) {
                /* four partial sums: independent chains the compiler can
                 * keep in vector registers (a fixed order, so deterministic) */
                double p0 = 0, p1 = 0, p2 = 0, p3 = 0;
                int64_t b = 0;
                for (; b + 4 <= len; b += 4) {
                    p0 += (double)row[b] * Vs[b];
                    p1 += (double)row[b + 1] * Vs[b + 1];
                    p2 += (double)row[b + 2] * Vs[b + 2];
                    p3 += (double)row[b + 3] * Vs[b + 3];
                }
                for (; b < len; b++) p0 += (double)row[b] * Vs[b];
                o[0] = (p0 + p1) + (p2 + p3);
                continue;
            }
            if (ncol == 1) { /* few columns, gathered: four chains as well */
                double p0 = 0, p1 = 0, p2 = 0, p3 = 0;
                int64_t b = 0;
                for (; b + 4 <= len; b += 4) {
                    p0 += (double)row[ci[b]] * Vs[b];
                    p1 += (double)row[ci[b + 1]] * Vs[b + 1];
                    p2 += (double)row[ci[b + 2]] * Vs[b + 2];
                    p3 += (double)row[ci[b + 3]] * Vs[b + 3];
                }
                for (; b < len; b++) p0 += (double)row[ci[b]] * Vs[b];
                o[0] = (p0 + p1) + (p2 + p3);
                continue;
            }
            for (int c0 = 0; c0 < ncol; c0 += 4) {
                int w = ncol - c0 < 4 ? ncol - c0 : 4;
                double acc[4] = {0, 0, 0, 0};
                for (int64_t b = 0; b < len; b++) {
                    double kv = (double)row[dense ? b : ci[b]];
                    const double *v = Vs + b * ncol + c0;
                    for (int c = 0; c < w; c++) acc[c] += kv * v[c];
                }
                for (int c = 0; c < w; c++) o[c0 + c] = acc[c];
            }
        }
        nv_free(Vd);
        return NESVM_OK;
    }
    /* on the fly: column chunks of at most BLOCK_DOUBLES kernel values */
    int64_t cb = BLOCK_DOUBLES / nr;
    if (cb < 16) cb = 16;
    if (cb > nc) cb = nc;
    if (!grow_blk(km, (size_t)nr * (size_t)cb))
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for a kernel block (%lld x %lld)",
                        (long long)nr, (long long)cb);
    for (int64_t c0 = 0; c0 < nc; c0 += cb) {
        int64_t w = nc - c0 < cb ? nc - c0 : cb;
        nesvm_status st = compute_block(km, ri, nr, ci ? ci + c0 : NULL, c0, w, km->blk, w, err);
        if (st != NESVM_OK) return st;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nr, ncol, (int)w, 1.0, km->blk,
                    (int)w, V + c0 * ncol, ncol, 1.0, out, ncol);
    }
    return NESVM_OK;
}

nesvm_status nv_kmat_gather(const nv_kmat *src, const int64_t *pos, int64_t m, nv_kmat *dst, nesvm_error *err)
{
    NV_ASSERT(src->K && m <= src->n); /* a stored matrix, and a subset of its positions */
    size_t mm = (size_t)(m ? m : 1);
    int ok = alloc_core(dst, &src->k, src->X, m, src->threads);
    if (ok) dst->K = nv_malloc_array(mm * mm, sizeof(float));
    if (!ok || !dst->K) {
        nv_kmat_free(dst);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the kernel matrix (%lld rows)", (long long)m);
    }
    for (int64_t a = 0; a < m; a++) {
        dst->rows[a] = src->rows[pos[a]];
        dst->sq[a] = src->sq[pos[a]];
        const float *row = src->K + pos[a] * src->n;
        float *o = dst->K + a * m;
        for (int64_t b = 0; b < m; b++) o[b] = row[pos[b]];
    }
    return NESVM_OK;
}
