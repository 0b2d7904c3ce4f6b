/* linalg.c - X*w and X^T*a for CSR and dense storage, double and float. */
#include "linalg.h"

#include <cblas.h>
#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

nesvm_status nv_linalg_ws_init(nv_linalg_ws *ws, int threads, int32_t d, nesvm_error *err)
{
    ws->threads = nv_threads(threads);
    ws->d = d;
    ws->part = NULL;
    ws->min_work = NV_PAR_MIN_WORK;
    if (ws->threads > 1) {
        ws->part = nv_malloc_array((size_t)ws->threads * 2 * (size_t)(d ? d : 1), sizeof(double));
        if (!ws->part) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for work buffers");
    }
    return NESVM_OK;
}

void nv_linalg_ws_free(nv_linalg_ws *ws)
{
    nv_free(ws->part);
    ws->part = NULL;
}

double nv_dot(const double *a, const double *b, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* One row's dot product with w, for each storage/precision. */
#define DEFINE_ROW_OPS(SUFFIX, T)                                                              \
    static inline double csr_dot_##SUFFIX(const nesvm_dataset *X, int64_t r, const double *w)  \
    {                                                                                          \
        const T *v = (const T *)X->values;                                                     \
        double s = 0;                                                                          \
        if (X->indices64)                                                                      \
            for (int64_t k = X->indptr[r]; k < X->indptr[r + 1]; k++)                          \
                s += (double)v[k] * w[X->indices64[k]];                                        \
        else                                                                                   \
            for (int64_t k = X->indptr[r]; k < X->indptr[r + 1]; k++)                          \
                s += (double)v[k] * w[X->indices[k]];                                          \
        return s;                                                                              \
    }                                                                                          \
    static inline void csr_axpy_##SUFFIX(const nesvm_dataset *X, int64_t r, double a,          \
                                         double *out)                                          \
    {                                                                                          \
        const T *v = (const T *)X->values;                                                     \
        if (X->indices64)                                                                      \
            for (int64_t k = X->indptr[r]; k < X->indptr[r + 1]; k++)                          \
                out[X->indices64[k]] += a * (double)v[k];                                      \
        else                                                                                   \
            for (int64_t k = X->indptr[r]; k < X->indptr[r + 1]; k++)                          \
                out[X->indices[k]] += a * (double)v[k];                                        \
    }                                                                                          \
    static inline double dense_dot_##SUFFIX(const nesvm_dataset *X, int64_t r, const double *w) \
    {                                                                                          \
        const T *x = (const T *)X->values + (size_t)r * (size_t)X->d;                          \
        double s = 0;                                                                          \
        for (int32_t j = 0; j < X->d; j++) s += (double)x[j] * w[j];                           \
        return s;                                                                              \
    }                                                                                          \
    static inline void dense_axpy_##SUFFIX(const nesvm_dataset *X, int64_t r, double a,        \
                                           double *out)                                        \
    {                                                                                          \
        const T *x = (const T *)X->values + (size_t)r * (size_t)X->d;                          \
        for (int32_t j = 0; j < X->d; j++) out[j] += a * (double)x[j];                         \
    }

DEFINE_ROW_OPS(d, double)
DEFINE_ROW_OPS(f, float)

/* nv_row_dot_cols and nv_row_axpy_cols for one value type T and index type
 * IT: v, the row's len values; ix, their columns (NULL: a dense row, entry p
 * in column p).  Dot products two vectors at a time, entries two at a time:
 * four independent sums. */
#define COLS_J(p) ((size_t)(ix ? (int64_t)ix[p] : (p)))
#define DEFINE_COLS_OPS(NAME, T, IT)                                                                         \
    static void NAME##_dot(const T *v, const IT *ix, int64_t len, const double *W, size_t ld, const int *cl, \
                           int na, double *out)                                                              \
    {                                                                                                        \
        int c = 0;                                                                                           \
        for (; c + 1 < na; c += 2) {                                                                         \
            const double *w0 = W + (size_t)cl[c] * ld, *w1 = W + (size_t)cl[c + 1] * ld;                     \
            double s0 = 0, s1 = 0, t0 = 0, t1 = 0;                                                           \
            int64_t p = 0;                                                                                   \
            for (; p + 1 < len; p += 2) {                                                                    \
                const double a = (double)v[p], b = (double)v[p + 1];                                         \
                const size_t ja = COLS_J(p), jb = COLS_J(p + 1);                                             \
                s0 += a * w0[ja];                                                                            \
                s1 += a * w1[ja];                                                                            \
                t0 += b * w0[jb];                                                                            \
                t1 += b * w1[jb];                                                                            \
            }                                                                                                \
            if (p < len) {                                                                                   \
                s0 += (double)v[p] * w0[COLS_J(p)];                                                          \
                s1 += (double)v[p] * w1[COLS_J(p)];                                                          \
            }                                                                                                \
            out[c] = s0 + t0;                                                                                \
            out[c + 1] = s1 + t1;                                                                            \
        }                                                                                                    \
        if (c < na) {                                                                                        \
            const double *w0 = W + (size_t)cl[c] * ld;                                                       \
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                           \
            int64_t p = 0;                                                                                   \
            for (; p + 3 < len; p += 4) {                                                                    \
                s0 += (double)v[p] * w0[COLS_J(p)];                                                          \
                s1 += (double)v[p + 1] * w0[COLS_J(p + 1)];                                                  \
                s2 += (double)v[p + 2] * w0[COLS_J(p + 2)];                                                  \
                s3 += (double)v[p + 3] * w0[COLS_J(p + 3)];                                                  \
            }                                                                                                \
            for (; p < len; p++) s0 += (double)v[p] * w0[COLS_J(p)];                                         \
            out[c] = (s0 + s1) + (s2 + s3);                                                                  \
        }                                                                                                    \
    }                                                                                                        \
    static void NAME##_axpy(const T *v, const IT *ix, int64_t len, const double *W_a, const int *ch,         \
                            int nch, double *W, size_t ld)                                                   \
    {                                                                                                        \
        for (int c = 0; c < nch; c++) {                                                                      \
            const double ac = W_a[c]; /* in a register: the stores below cannot change it */                 \
            double *w0 = W + (size_t)ch[c] * ld;                                                             \
            for (int64_t p = 0; p < len; p++) w0[COLS_J(p)] += ac * (double)v[p];                            \
        }                                                                                                    \
    }

DEFINE_COLS_OPS(cols_d32, double, int32_t)
DEFINE_COLS_OPS(cols_d64, double, int64_t)
DEFINE_COLS_OPS(cols_f32, float, int32_t)
DEFINE_COLS_OPS(cols_f64, float, int64_t)
#undef COLS_J

/* FN(v, ix, len, ...) for row r: its values, columns (NULL: dense) and length. */
#define ROW_COLS_DISPATCH(X, r, FN, ...)                                                                     \
    do {                                                                                                     \
        const int dense = (X)->storage == NESVM_STORAGE_DENSE;                                               \
        const int64_t p0 = dense ? (r) * (int64_t)(X)->d : (X)->indptr[r];                                   \
        const int64_t len = dense ? (int64_t)(X)->d : (X)->indptr[(r) + 1] - p0;                             \
        if ((X)->prec == NESVM_FLOAT) {                                                                      \
            const float *v = (const float *)(X)->values + p0;                                                \
            if (!dense && (X)->indices64)                                                                    \
                cols_f64##FN(v, (X)->indices64 + p0, len, __VA_ARGS__);                                      \
            else                                                                                             \
                cols_f32##FN(v, dense ? NULL : (X)->indices + p0, len, __VA_ARGS__);                         \
        } else {                                                                                             \
            const double *v = (const double *)(X)->values + p0;                                              \
            if (!dense && (X)->indices64)                                                                    \
                cols_d64##FN(v, (X)->indices64 + p0, len, __VA_ARGS__);                                      \
            else                                                                                             \
                cols_d32##FN(v, dense ? NULL : (X)->indices + p0, len, __VA_ARGS__);                         \
        }                                                                                                    \
    } while (0)

void nv_row_dot_cols(const nesvm_dataset *X, int64_t r, const double *W, size_t ld, const int *cl, int na,
                     double *out)
{
    NV_ASSERT(r >= 0 && r < X->n);
    if (X->blas_rows) {
        const double *x = (const double *)X->values + (size_t)r * (size_t)X->d;
        for (int c = 0; c < na; c++) out[c] = cblas_ddot(X->d, x, 1, W + (size_t)cl[c] * ld, 1);
        return;
    }
    ROW_COLS_DISPATCH(X, r, _dot, W, ld, cl, na, out);
}

void nv_row_axpy_cols(const nesvm_dataset *X, int64_t r, const double *a, const int *ch, int nch, double *W,
                      size_t ld)
{
    NV_ASSERT(r >= 0 && r < X->n);
    if (X->blas_rows) {
        const double *x = (const double *)X->values + (size_t)r * (size_t)X->d;
        for (int c = 0; c < nch; c++) cblas_daxpy(X->d, a[c], x, 1, W + (size_t)ch[c] * ld, 1);
        return;
    }
    if (nch > 0) ROW_COLS_DISPATCH(X, r, _axpy, a, ch, nch, W, ld);
}

static inline double row_dot(const nesvm_dataset *X, int64_t r, const double *w)
{
    NV_ASSERT(r >= 0 && r < X->n);
    if (X->blas_rows)
        return cblas_ddot(X->d, (const double *)X->values + (size_t)r * (size_t)X->d, 1, w, 1);
    if (X->storage == NESVM_STORAGE_DENSE)
        return X->prec == NESVM_FLOAT ? dense_dot_f(X, r, w) : dense_dot_d(X, r, w);
    return X->prec == NESVM_FLOAT ? csr_dot_f(X, r, w) : csr_dot_d(X, r, w);
}

static inline void row_axpy(const nesvm_dataset *X, int64_t r, double a, double *out)
{
    NV_ASSERT(r >= 0 && r < X->n);
    if (X->blas_rows) {
        cblas_daxpy(X->d, a, (const double *)X->values + (size_t)r * (size_t)X->d, 1, out, 1);
        return;
    }
    if (X->storage == NESVM_STORAGE_DENSE) {
        if (X->prec == NESVM_FLOAT)
            dense_axpy_f(X, r, a, out);
        else
            dense_axpy_d(X, r, a, out);
    } else {
        if (X->prec == NESVM_FLOAT)
            csr_axpy_f(X, r, a, out);
        else
            csr_axpy_d(X, r, a, out);
    }
}

double nv_row_dot(const nesvm_dataset *X, int64_t r, const double *w) { return row_dot(X, r, w); }

void nv_row_axpy(const nesvm_dataset *X, int64_t r, double a, double *out) { row_axpy(X, r, a, out); }

void nv_row_prefetch_start(const nesvm_dataset *X, int64_t r)
{
    if (X->storage != NESVM_STORAGE_DENSE) __builtin_prefetch(&X->indptr[r]);
}

void nv_row_prefetch_row(const nesvm_dataset *X, int64_t r)
{
    const size_t vs = X->prec == NESVM_FLOAT ? sizeof(float) : sizeof(double);
    const char *v;
    int64_t len;
    if (X->storage == NESVM_STORAGE_DENSE) {
        v = (const char *)X->values + (size_t)r * (size_t)X->d * vs;
        len = X->d;
    } else {
        const int64_t p = X->indptr[r];
        len = X->indptr[r + 1] - p;
        v = (const char *)X->values + (size_t)p * vs;
        const char *ix = X->indices64 ? (const char *)(X->indices64 + p) : (const char *)(X->indices + p);
        __builtin_prefetch(ix);
        if (len * (X->indices64 ? 8 : 4) > 64) __builtin_prefetch(ix + 64);
    }
    /* the first two lines: the hardware's stream prefetcher takes the rest */
    __builtin_prefetch(v);
    if ((size_t)len * vs > 64) __builtin_prefetch(v + 64);
}

double nv_row_dot_sparse(const nesvm_dataset *X, int64_t r, const int32_t *zi, const double *zv, int64_t zn)
{
    double s = 0;
    if (X->storage == NESVM_STORAGE_DENSE) {
        const int64_t o = r * (int64_t)X->d;
        for (int64_t e = 0; e < zn && zi[e] < X->d; e++) s += nv_val(X, o + zi[e]) * zv[e];
        return s;
    }
    int64_t p = X->indptr[r], pe = X->indptr[r + 1], e = 0;
    while (p < pe && e < zn) {
        const int64_t a = nv_idx(X, p), b = zi[e];
        if (a == b) s += nv_val(X, p++) * zv[e++];
        else if (a < b) p++;
        else e++;
    }
    return s;
}

static int worth_threads(const nesvm_dataset *X, int64_t n, const nv_linalg_ws *ws)
{
    if (ws->threads <= 1 || X->n == 0) return 0;
    double per_row = X->storage == NESVM_STORAGE_DENSE ? (double)X->d
                                                       : (double)X->nnz / (double)X->n;
    return (double)n * per_row >= ws->min_work;
}

void nv_xw(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *w, double b,
           double *out, const nv_linalg_ws *ws)
{
    int par = worth_threads(X, n, ws);
    (void)par;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(ws->threads) if (par)
#endif
    for (int64_t i = 0; i < n; i++) {
        int64_t r = rows ? rows[i] : i;
        out[i] = row_dot(X, r, w) + b;
    }
}

static void xta_range(const nesvm_dataset *X, const int64_t *rows, int64_t lo, int64_t hi,
                      const double *a, const double *split, double *outp, double *outn)
{
    for (int64_t i = lo; i < hi; i++) {
        if (a[i] == 0.0) continue;
        int64_t r = rows ? rows[i] : i;
        double *o = (split && split[i] <= 0) ? outn : outp;
        row_axpy(X, r, a[i], o);
    }
}

void nv_xta(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *a,
            const double *split, double *outp, double *outn, nv_linalg_ws *ws)
{
    size_t d = (size_t)X->d;
    if (!worth_threads(X, n, ws) || !ws->part) {
        memset(outp, 0, d * sizeof *outp);
        if (split) memset(outn, 0, d * sizeof *outn);
        xta_range(X, rows, 0, n, a, split, outp, outn);
        return;
    }
    NV_ASSERT(ws->d >= X->d); /* ws->part holds 2 d doubles a thread */
#ifdef _OPENMP
    int parts = split ? 2 : 1;
#pragma omp parallel num_threads(ws->threads)
    {
        int t = omp_get_thread_num();
        int T = omp_get_num_threads();
        double *pp = ws->part + (size_t)t * 2 * d;
        double *pn = pp + d;
        memset(pp, 0, (size_t)parts * d * sizeof *pp);
        int64_t lo = n * t / T, hi = n * (t + 1) / T;
        xta_range(X, rows, lo, hi, a, split, pp, pn);
#pragma omp barrier
        /* fixed-order reduction over threads, parallel over features */
        int64_t jlo = (int64_t)d * t / T, jhi = (int64_t)d * (t + 1) / T;
        for (int64_t j = jlo; j < jhi; j++) {
            double sp = 0, sn = 0;
            for (int u = 0; u < T; u++) {
                sp += ws->part[(size_t)u * 2 * d + (size_t)j];
                if (split) sn += ws->part[(size_t)u * 2 * d + d + (size_t)j];
            }
            outp[j] = sp;
            if (split) outn[j] = sn;
        }
    }
#endif
}

/* Rows [lo, hi) of a row sum (nv_rows_sum's range) for nv_xtdx. */
typedef struct xtdx_ctx {
    const nesvm_dataset *X;
    const int64_t *rows;
    const double *h, *v;
    double b;
    double *t;
} xtdx_ctx;

static void xtdx_range(const void *ctx, int64_t lo, int64_t hi, double *out)
{
    const xtdx_ctx *c = ctx;
    for (int64_t i = lo; i < hi; i++) {
        int64_t r = c->rows ? c->rows[i] : i;
        double s = row_dot(c->X, r, c->v) + c->b; /* the row is in cache for its axpy */
        s *= c->h[i];
        c->t[i] = s;
        if (s != 0.0) row_axpy(c->X, r, s, out);
    }
}

void nv_rows_sum(nv_linalg_ws *ws, int64_t n, double per_row, int32_t d,
                 void (*range)(const void *ctx, int64_t lo, int64_t hi, double *out), const void *ctx,
                 double *out)
{
    const size_t dd = (size_t)d;
    if (ws->threads <= 1 || !ws->part || (double)n * per_row < ws->min_work) {
        memset(out, 0, dd * sizeof *out);
        range(ctx, 0, n, out);
        return;
    }
    NV_ASSERT(ws->d >= d);
#ifdef _OPENMP
#pragma omp parallel num_threads(ws->threads)
    {
        int th = omp_get_thread_num();
        int T = omp_get_num_threads();
        double *pp = ws->part + (size_t)th * 2 * dd;
        memset(pp, 0, dd * sizeof *pp);
        int64_t lo = n * th / T, hi = n * (th + 1) / T;
        range(ctx, lo, hi, pp);
#pragma omp barrier
        /* nv_xta's fixed-order reduction over threads */
        int64_t jlo = (int64_t)d * th / T, jhi = (int64_t)d * (th + 1) / T;
        for (int64_t j = jlo; j < jhi; j++) {
            double sp = 0;
            for (int u = 0; u < T; u++) sp += ws->part[(size_t)u * 2 * dd + (size_t)j];
            out[j] = sp;
        }
    }
#endif
}

void nv_xtdx(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *h, const double *v, double b,
             double *t, double *outp, nv_linalg_ws *ws)
{
    const xtdx_ctx c = {X, rows, h, v, b, t};
    const double per_row = X->n == 0 ? 0.0
                           : X->storage == NESVM_STORAGE_DENSE ? (double)X->d
                                                                : (double)X->nnz / (double)X->n;
    nv_rows_sum(ws, n, per_row, X->d, xtdx_range, &c, outp);
}

void nv_row_norms(const nesvm_dataset *X, const int64_t *rows, int64_t n, double *inf_norm,
                  double *sq_norm)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t r = rows ? rows[i] : i;
        double mx = 0, sq = 0;
        if (X->storage == NESVM_STORAGE_DENSE) {
            size_t base = (size_t)r * (size_t)X->d;
            for (int32_t j = 0; j < X->d; j++) {
                double v = nv_val(X, (int64_t)(base + (size_t)j));
                double av = fabs(v);
                if (av > mx) mx = av;
                sq += v * v;
            }
        } else {
            for (int64_t k = X->indptr[r]; k < X->indptr[r + 1]; k++) {
                double v = nv_val(X, k);
                double av = fabs(v);
                if (av > mx) mx = av;
                sq += v * v;
            }
        }
        if (inf_norm) inf_norm[i] = mx;
        if (sq_norm) sq_norm[i] = sq;
    }
}

void nv_row_dense_float(const nesvm_dataset *X, int64_t r, float scale, float *dst)
{
    const int32_t d = X->d;
    if (X->storage == NESVM_STORAGE_DENSE) {
        const int64_t off = r * (int64_t)d;
        for (int32_t j = 0; j < d; j++) dst[j] = scale * (float)nv_val(X, off + j);
        return;
    }
    memset(dst, 0, (size_t)d * sizeof *dst);
    for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++) dst[nv_idx(X, p)] = scale * (float)nv_val(X, p);
}

void nv_col_sq(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *a,
               double *out)
{
    memset(out, 0, (size_t)X->d * sizeof *out);
    for (int64_t i = 0; i < n; i++) {
        int64_t r = rows ? rows[i] : i;
        if (X->storage == NESVM_STORAGE_DENSE) {
            size_t base = (size_t)r * (size_t)X->d;
            for (int32_t j = 0; j < X->d; j++) {
                double v = nv_val(X, (int64_t)(base + (size_t)j));
                out[j] += a[i] * v * v;
            }
        } else {
            for (int64_t k = X->indptr[r]; k < X->indptr[r + 1]; k++) {
                double v = nv_val(X, k);
                out[nv_idx(X, k)] += a[i] * v * v;
            }
        }
    }
}

/* ------------------------------------------------ k columns at once */

/* Row r's entries (j, v) for k columns: acc[m] += v Wt[j k + m] (dot), or
 * out[j k + m] += v^p a[m] (transposed, p = 1 or 2). */
static inline void row_dot_k(const nesvm_dataset *X, int64_t r, const double *Wt, int k, double *acc)
{
    if (X->storage == NESVM_STORAGE_DENSE) {
        const int64_t base = r * (int64_t)X->d;
        for (int32_t j = 0; j < X->d; j++) {
            const double v = nv_val(X, base + j);
            if (v == 0) continue;
            const double *wj = Wt + (size_t)j * (size_t)k;
            for (int m = 0; m < k; m++) acc[m] += v * wj[m];
        }
        return;
    }
    for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++) {
        const double v = nv_val(X, p);
        const double *wj = Wt + (size_t)nv_idx(X, p) * (size_t)k;
        for (int m = 0; m < k; m++) acc[m] += v * wj[m];
    }
}

static inline void row_axpy_k(const nesvm_dataset *X, int64_t r, const double *a, int k, int squares, double *out)
{
    if (X->storage == NESVM_STORAGE_DENSE) {
        const int64_t base = r * (int64_t)X->d;
        for (int32_t j = 0; j < X->d; j++) {
            double v = nv_val(X, base + j);
            if (v == 0) continue;
            if (squares) v *= v;
            double *o = out + (size_t)j * (size_t)k;
            for (int m = 0; m < k; m++) o[m] += v * a[m];
        }
        return;
    }
    for (int64_t p = X->indptr[r]; p < X->indptr[r + 1]; p++) {
        double v = nv_val(X, p);
        if (squares) v *= v;
        double *o = out + (size_t)nv_idx(X, p) * (size_t)k;
        for (int m = 0; m < k; m++) o[m] += v * a[m];
    }
}

void nv_xw_k(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *Wt, int k, const double *b,
             double *out, const nv_linalg_ws *ws)
{
    int par = worth_threads(X, n, ws);
    (void)par;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(ws->threads) if (par)
#endif
    for (int64_t i = 0; i < n; i++) {
        double *o = out + i * k;
        for (int m = 0; m < k; m++) o[m] = b ? b[m] : 0.0;
        row_dot_k(X, rows ? rows[i] : i, Wt, k, o);
    }
}

/* Rows lo..hi of nv_xta_k into out (d k entries, zeroed here). */
static void xta_k_range(const nesvm_dataset *X, const int64_t *rows, int64_t lo, int64_t hi, const double *A, int k,
                        int squares, double *out)
{
    memset(out, 0, (size_t)X->d * (size_t)k * sizeof *out);
    for (int64_t i = lo; i < hi; i++) {
        const double *a = A + i * k;
        int any = 0;
        for (int m = 0; m < k && !any; m++) any = a[m] != 0.0;
        if (any) row_axpy_k(X, rows ? rows[i] : i, a, k, squares, out);
    }
}

void nv_xta_k(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *A, int k, int squares,
              double *out, double *part, const nv_linalg_ws *ws)
{
    if (!worth_threads(X, n, ws) || !part) {
        xta_k_range(X, rows, 0, n, A, k, squares, out);
        return;
    }
#ifdef _OPENMP
    const size_t len = (size_t)X->d * (size_t)k;
#pragma omp parallel num_threads(ws->threads)
    {
        const int t = omp_get_thread_num(), T = omp_get_num_threads();
        double *pt = part + (size_t)t * len;
        xta_k_range(X, rows, n * t / T, n * (t + 1) / T, A, k, squares, pt);
#pragma omp barrier
        /* fixed-order reduction over the threads, parallel over the entries */
        const int64_t jlo = (int64_t)len * t / T, jhi = (int64_t)len * (t + 1) / T;
        for (int64_t j = jlo; j < jhi; j++) {
            double s = 0;
            for (int u = 0; u < T; u++) s += part[(size_t)u * len + (size_t)j];
            out[j] = s;
        }
    }
#else
    xta_k_range(X, rows, 0, n, A, k, squares, out);
#endif
}
