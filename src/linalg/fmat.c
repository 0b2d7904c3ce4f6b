/* fmat.c - a float copy of a problem's rows for the products that tolerate
 * float rounding (the logistic Newton's CG and sketch; fmat.h). */
#include "fmat.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Row r's stored entries: [*p0, *p0 + *len) of X's values (dense: d). */
static void row_span(const nesvm_dataset *X, int64_t r, int64_t *p0, int64_t *len)
{
    if (X->storage == NESVM_STORAGE_DENSE) {
        *p0 = r * (int64_t)X->d;
        *len = X->d;
    } else {
        *p0 = X->indptr[r];
        *len = X->indptr[r + 1] - *p0;
    }
}

double nv_fmat_bytes(const nesvm_dataset *X, const int64_t *rows, int64_t n)
{
    double nnz = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t p0, len;
        row_span(X, rows ? rows[i] : i, &p0, &len);
        nnz += (double)len;
    }
    return nnz * (double)(sizeof(float) + sizeof(uint16_t)) + (double)sizeof(int64_t) * (double)(n + 1);
}

void nv_fmat_free(nv_fmat *F)
{
    nv_free(F->ptr);
    nv_free(F->val);
    nv_free(F->col);
    memset(F, 0, sizeof *F);
}

nesvm_status nv_fmat_build(nv_fmat *F, const nesvm_dataset *X, const int64_t *rows, int64_t n,
                           nesvm_error *err)
{
    NV_ASSERT(X->d <= NV_FMAT_D_MAX);
    memset(F, 0, sizeof *F);
    F->n = n;
    F->d = X->d;
    int64_t cap = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t p0, len;
        row_span(X, rows ? rows[i] : i, &p0, &len);
        cap += len;
    }
    const size_t c = (size_t)(cap ? cap : 1);
    F->ptr = nv_malloc_array((size_t)n + 1, sizeof *F->ptr);
    F->val = nv_malloc_array(c, sizeof *F->val);
    F->col = nv_malloc_array(c, sizeof *F->col);
    if (!F->ptr || !F->val || !F->col) {
        nv_fmat_free(F);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for a float copy of the data (%lld values)",
                        (long long)cap);
    }
    const int dense = X->storage == NESVM_STORAGE_DENSE;
    int64_t q = 0;
    F->ptr[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t p0, len;
        row_span(X, rows ? rows[i] : i, &p0, &len);
        for (int64_t k = 0; k < len; k++) {
            const double x = nv_val(X, p0 + k);
            if (x == 0.0) continue;
            if (!(fabs(x) <= FLT_MAX)) {
                nv_fmat_free(F);
                return nv_error(err, NESVM_ERR_NUMERIC,
                                "a value beyond float's range (row %lld) for the float copy", (long long)i);
            }
            const int64_t j = dense ? k : nv_idx(X, p0 + k);
            F->val[q] = (float)x;
            F->col[q++] = (uint16_t)j;
        }
        F->ptr[i + 1] = q;
    }
    return NESVM_OK;
}

/* The weighted Gram product's rows [lo, hi). */
static void xtdx_rows(const nv_fmat *F, const int64_t *idx, const double *h, const double *v, double b,
                      double *t, int64_t lo, int64_t hi, double *out)
{
    const uint16_t *col = F->col;
    const float *val = F->val;
    for (int64_t k = lo; k < hi; k++) {
        const int64_t i = idx ? idx[k] : k, e = F->ptr[i + 1];
        int64_t p = F->ptr[i];
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (; p + 3 < e; p += 4) {
            s0 += (double)val[p] * v[col[p]];
            s1 += (double)val[p + 1] * v[col[p + 1]];
            s2 += (double)val[p + 2] * v[col[p + 2]];
            s3 += (double)val[p + 3] * v[col[p + 3]];
        }
        for (; p < e; p++) s0 += (double)val[p] * v[col[p]];
        const double s = ((s0 + s1) + (s2 + s3) + b) * h[k];
        t[k] = s;
        if (s != 0.0)
            for (p = F->ptr[i]; p < e; p++) out[col[p]] += s * (double)val[p];
    }
}

typedef struct fmat_xtdx_ctx {
    const nv_fmat *F;
    const int64_t *idx;
    const double *h, *v;
    double b;
    double *t;
} fmat_xtdx_ctx;

static void xtdx_range(const void *ctx, int64_t lo, int64_t hi, double *out)
{
    const fmat_xtdx_ctx *c = ctx;
    xtdx_rows(c->F, c->idx, c->h, c->v, c->b, c->t, lo, hi, out);
}

void nv_fmat_xtdx(const nv_fmat *F, const int64_t *idx, int64_t n, const double *h, const double *v, double b,
                  double *t, double *out, nv_linalg_ws *ws)
{
    const fmat_xtdx_ctx c = {F, idx, h, v, b, t};
    const double per_row = F->n > 0 ? (double)F->ptr[F->n] / (double)F->n : 0.0;
    nv_rows_sum(ws, n, per_row, F->d, xtdx_range, &c, out);
}

void nv_fmat_col_sq(const nv_fmat *F, const int64_t *idx, int64_t n, const double *h, double *out)
{
    memset(out, 0, (size_t)F->d * sizeof *out);
    for (int64_t k = 0; k < n; k++) {
        const int64_t i = idx ? idx[k] : k;
        for (int64_t p = F->ptr[i]; p < F->ptr[i + 1]; p++) {
            const double x = F->val[p];
            out[F->col[p]] += h[k] * x * x;
        }
    }
}

void nv_fmat_row(const nv_fmat *F, int64_t i, float scale, float *a)
{
    memset(a, 0, (size_t)F->d * sizeof *a);
    for (int64_t p = F->ptr[i]; p < F->ptr[i + 1]; p++) a[F->col[p]] = scale * F->val[p];
}
