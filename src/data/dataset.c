/* dataset.c - dataset construction, wrapping, conversion, accessors. */
#include "dataset_internal.h"

#include <math.h>
#include <string.h>

static nesvm_dataset *alloc_ds(void)
{
    nesvm_dataset *ds = nv_calloc(1, sizeof *ds);
    return ds;
}

void nesvm_dataset_destroy(nesvm_dataset *ds)
{
    if (!ds) return;
    nv_free(ds->own_indptr);
    nv_free(ds->own_indices);
    nv_free(ds->own_values);
    nv_free(ds->own_labels);
    nv_free(ds);
}

int nv_csr_valid(int64_t n, int32_t d, const int64_t *indptr, const int32_t *indices, const int64_t *indices64)
{
    if (n < 0 || d < 0 || indptr[0] != 0) return 0;
    for (int64_t i = 0; i < n; i++) {
        if (indptr[i + 1] < indptr[i]) return 0;
        int64_t prev = -1;
        for (int64_t k = indptr[i]; k < indptr[i + 1]; k++) {
            const int64_t c = indices ? (int64_t)indices[k] : indices64[k];
            if (c <= prev || c >= d) return 0;
            prev = c;
        }
    }
    return 1;
}

nesvm_status nv_dataset_from_csr(int64_t n, int32_t d, int64_t *indptr, int32_t *indices,
                                 void *values, nesvm_precision prec, double *labels,
                                 nesvm_dataset **out, nesvm_error *err)
{
    /* every caller built the arrays from checked input (data files, model
     * files, scaled or copied rows) */
    NV_ASSERT(nv_csr_valid(n, d, indptr, indices, NULL));
    nesvm_dataset *ds = alloc_ds();
    if (!ds) {
        nv_free(indptr);
        nv_free(indices);
        nv_free(values);
        nv_free(labels);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory creating dataset");
    }
    ds->n = n;
    ds->d = d;
    ds->nnz = indptr[n];
    ds->storage = NESVM_STORAGE_CSR;
    ds->prec = prec;
    ds->indptr = ds->own_indptr = indptr;
    ds->indices = ds->own_indices = indices;
    ds->values = ds->own_values = values;
    ds->labels = ds->own_labels = labels;
    *out = ds;
    return NESVM_OK;
}

nesvm_status nv_dataset_convert(nesvm_dataset *ds, nesvm_storage storage, nesvm_precision prec,
                                double dense_threshold, nesvm_error *err)
{
    if (ds->storage != NESVM_STORAGE_CSR || !ds->own_values)
        return nv_error(err, NESVM_ERR_ARG, "conversion needs an owned CSR dataset");
    NV_ASSERT(ds->nnz == ds->indptr[ds->n] && ds->indices && !ds->indices64);
    if (storage == NESVM_STORAGE_AUTO) {
        double cells = (double)ds->n * (double)ds->d;
        storage = (cells > 0 && (double)ds->nnz >= dense_threshold * cells)
                      ? NESVM_STORAGE_DENSE
                      : NESVM_STORAGE_CSR;
    }
    if (storage == NESVM_STORAGE_DENSE) {
        size_t cells = (size_t)ds->n * (size_t)ds->d;
        if (ds->d > 0 && (size_t)ds->n > SIZE_MAX / 8 / (size_t)ds->d)
            return nv_error(err, NESVM_ERR_NOMEM, "dense matrix %lld x %d is too large",
                            (long long)ds->n, ds->d);
        size_t esz = prec == NESVM_FLOAT ? sizeof(float) : sizeof(double);
        void *dense = nv_calloc(cells ? cells : 1, esz);
        if (!dense)
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory for dense %lld x %d matrix",
                            (long long)ds->n, ds->d);
        for (int64_t i = 0; i < ds->n; i++) {
            for (int64_t k = ds->indptr[i]; k < ds->indptr[i + 1]; k++) {
                size_t cell = (size_t)i * (size_t)ds->d + (size_t)nv_idx(ds, k);
                if (prec == NESVM_FLOAT)
                    ((float *)dense)[cell] = (float)nv_val(ds, k);
                else
                    ((double *)dense)[cell] = nv_val(ds, k);
            }
        }
        nv_free(ds->own_values);
        nv_free(ds->own_indices);
        nv_free(ds->own_indptr);
        ds->own_indices = ds->own_indptr = NULL;
        ds->indices = NULL;
        ds->indptr = NULL;
        ds->values = ds->own_values = dense;
        ds->storage = NESVM_STORAGE_DENSE;
        ds->prec = prec;
        ds->nnz = (int64_t)cells;
        return NESVM_OK;
    }
    if (prec != ds->prec) {
        size_t esz = prec == NESVM_FLOAT ? sizeof(float) : sizeof(double);
        void *v = nv_malloc_array((size_t)(ds->nnz ? ds->nnz : 1), esz);
        if (!v) return nv_error(err, NESVM_ERR_NOMEM, "out of memory converting the values");
        for (int64_t k = 0; k < ds->nnz; k++) {
            if (prec == NESVM_FLOAT)
                ((float *)v)[k] = (float)nv_val(ds, k);
            else
                ((double *)v)[k] = nv_val(ds, k);
        }
        nv_free(ds->own_values);
        ds->values = ds->own_values = v;
        ds->prec = prec;
    }
    return NESVM_OK;
}

nesvm_status nesvm_dataset_wrap_csr(int64_t n_rows, int32_t n_features, const int64_t *indptr,
                                    const int32_t *indices, const double *values,
                                    const double *labels, nesvm_dataset **out, nesvm_error *err)
{
    return nesvm_dataset_wrap_csr_ex(n_rows, n_features, indptr, 64, indices, 32, values, NESVM_DOUBLE, labels, out,
                                     err);
}

nesvm_status nesvm_dataset_wrap_csr_ex(int64_t n_rows, int32_t n_features, const void *indptr, int indptr_bits,
                                       const void *indices, int index_bits, const void *values,
                                       nesvm_precision prec, const double *labels, nesvm_dataset **out,
                                       nesvm_error *err)
{
    if (!out) return nv_error(err, NESVM_ERR_ARG, "out must not be NULL");
    *out = NULL;
    if (indptr_bits != 32 && indptr_bits != 64)
        return nv_error(err, NESVM_ERR_ARG, "indptr_bits is %d, expected 32 or 64", indptr_bits);
    if (index_bits != 32 && index_bits != 64)
        return nv_error(err, NESVM_ERR_ARG, "index_bits is %d, expected 32 or 64", index_bits);
    if (prec != NESVM_DOUBLE && prec != NESVM_FLOAT)
        return nv_error(err, NESVM_ERR_ARG, "unknown precision %d", (int)prec);
    if (n_rows < 0 || n_features < 0)
        return nv_error(err, NESVM_ERR_ARG, "negative dimensions %lld x %d", (long long)n_rows, n_features);
    if (!indptr || !labels) return nv_error(err, NESVM_ERR_ARG, "NULL array passed to nesvm_dataset_wrap_csr_ex");
    /* a 32-bit indptr is widened (n_rows + 1 entries); indices and values are borrowed */
    int64_t *wide = NULL;
    const int64_t *ip = indptr;
    if (indptr_bits == 32) {
        wide = nv_malloc_array((size_t)n_rows + 1, sizeof(int64_t));
        if (!wide) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the row pointers");
        for (int64_t i = 0; i <= n_rows; i++) wide[i] = ((const int32_t *)indptr)[i];
        ip = wide;
    }
    const int32_t *i32 = index_bits == 32 ? indices : NULL;
    const int64_t *i64 = index_bits == 64 ? indices : NULL;
    const float *fv = prec == NESVM_FLOAT ? values : NULL;
    const double *dv = prec == NESVM_DOUBLE ? values : NULL;
    nesvm_status st = NESVM_OK;
    if (ip[n_rows] > 0 && (!indices || !values))
        st = nv_error(err, NESVM_ERR_ARG, "NULL array passed to nesvm_dataset_wrap_csr_ex");
    else if (ip[0] != 0)
        st = nv_error(err, NESVM_ERR_ARG, "indptr[0] is %lld, expected 0", (long long)ip[0]);
    for (int64_t i = 0; st == NESVM_OK && i < n_rows; i++) {
        if (!isfinite(labels[i])) {
            st = nv_error(err, NESVM_ERR_ARG, "row %lld: label is not finite", (long long)i);
            break;
        }
        if (ip[i + 1] < ip[i]) {
            st = nv_error(err, NESVM_ERR_ARG, "indptr decreases at row %lld", (long long)i);
            break;
        }
        int64_t prev = -1;
        for (int64_t k = ip[i]; k < ip[i + 1]; k++) {
            const int64_t c = i64 ? i64[k] : (int64_t)i32[k];
            if (c <= prev || c >= n_features) {
                st = nv_error(err, NESVM_ERR_ARG, "row %lld: column %lld is out of range or not ascending",
                              (long long)i, (long long)c);
                break;
            }
            if (!isfinite(fv ? (double)fv[k] : dv[k])) {
                st = nv_error(err, NESVM_ERR_ARG, "row %lld column %lld: value is not finite", (long long)i,
                              (long long)c);
                break;
            }
            prev = c;
        }
    }
    nesvm_dataset *ds = NULL;
    if (st == NESVM_OK) {
        ds = alloc_ds();
        if (!ds) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory creating dataset");
    }
    if (st != NESVM_OK) {
        nv_free(wide);
        return st;
    }
    ds->n = n_rows;
    ds->d = n_features;
    ds->nnz = ip[n_rows];
    ds->storage = NESVM_STORAGE_CSR;
    ds->prec = prec;
    ds->indptr = ip;
    ds->indices = i32;
    ds->indices64 = i64;
    ds->values = values;
    ds->labels = labels;
    ds->own_indptr = wide;
    *out = ds;
    return NESVM_OK;
}

nesvm_status nesvm_dataset_wrap_dense_ex(int64_t n_rows, int32_t n_features, const void *values,
                                         nesvm_precision prec, const double *labels, nesvm_dataset **out,
                                         nesvm_error *err)
{
    if (prec == NESVM_DOUBLE) return nesvm_dataset_wrap_dense(n_rows, n_features, values, labels, out, err);
    if (!out) return nv_error(err, NESVM_ERR_ARG, "out must not be NULL");
    *out = NULL;
    if (prec != NESVM_FLOAT) return nv_error(err, NESVM_ERR_ARG, "unknown precision %d", (int)prec);
    if (n_rows < 0 || n_features < 0)
        return nv_error(err, NESVM_ERR_ARG, "negative dimensions %lld x %d", (long long)n_rows, n_features);
    if (!labels || (n_rows * (int64_t)n_features > 0 && !values))
        return nv_error(err, NESVM_ERR_ARG, "NULL array passed to nesvm_dataset_wrap_dense_ex");
    const float *fv = values;
    for (int64_t i = 0; i < n_rows; i++) {
        if (!isfinite(labels[i]))
            return nv_error(err, NESVM_ERR_ARG, "row %lld: label is not finite", (long long)i);
        for (int32_t j = 0; j < n_features; j++)
            if (!isfinite(fv[i * n_features + j]))
                return nv_error(err, NESVM_ERR_ARG, "row %lld column %d: value is not finite", (long long)i, j);
    }
    nesvm_dataset *ds = alloc_ds();
    if (!ds) return nv_error(err, NESVM_ERR_NOMEM, "out of memory creating dataset");
    ds->n = n_rows;
    ds->d = n_features;
    ds->nnz = n_rows * (int64_t)n_features;
    ds->storage = NESVM_STORAGE_DENSE;
    ds->prec = NESVM_FLOAT;
    ds->values = values;
    ds->labels = labels;
    *out = ds;
    return NESVM_OK;
}

nesvm_status nesvm_dataset_from_kernel(int64_t n_rows, int32_t n_cols, const double *K, const double *labels,
                                       int serials, nesvm_dataset **out, nesvm_error *err)
{
    if (!out) return nv_error(err, NESVM_ERR_ARG, "out must not be NULL");
    *out = NULL;
    if (n_rows < 0 || n_cols < 0 || n_cols == INT32_MAX || (n_rows * (int64_t)n_cols > 0 && !K))
        return nv_error(err, NESVM_ERR_ARG, "nesvm_dataset_from_kernel: a %lld x %d matrix at %p", (long long)n_rows,
                        n_cols, (const void *)K);
    const int64_t w = (int64_t)n_cols + 1;
    double *vals = nv_malloc_array((size_t)(n_rows ? n_rows : 1) * (size_t)w, sizeof(double));
    double *lb = nv_calloc((size_t)(n_rows ? n_rows : 1), sizeof(double));
    nesvm_status st = vals && lb ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory creating dataset");
    for (int64_t i = 0; st == NESVM_OK && i < n_rows; i++) {
        vals[i * w] = serials ? (double)(i + 1) : 0.0; /* column 0: the serial number */
        if (n_cols) memcpy(vals + i * w + 1, K + i * (int64_t)n_cols, (size_t)n_cols * sizeof(double));
        lb[i] = labels ? labels[i] : 0.0;
    }
    if (st == NESVM_OK) st = nesvm_dataset_wrap_dense(n_rows, (int32_t)w, vals, lb, out, err); /* checks finite */
    if (st != NESVM_OK) {
        nv_free(vals);
        nv_free(lb);
        return st;
    }
    (*out)->own_values = vals;
    (*out)->own_labels = lb;
    return NESVM_OK;
}

nesvm_status nesvm_dataset_set_weights(nesvm_dataset *ds, const double *weights, nesvm_error *err)
{
    if (!ds) return nv_error(err, NESVM_ERR_ARG, "NULL dataset passed to nesvm_dataset_set_weights");
    if (weights)
        for (int64_t i = 0; i < ds->n; i++)
            if (!(weights[i] >= 0 && weights[i] <= 1e100))
                return nv_error(err, NESVM_ERR_ARG,
                                "row %lld (counted from 1): sample weight %g is not a number in [0, 1e100]",
                                (long long)i + 1, weights[i]);
    ds->weights = weights;
    return NESVM_OK;
}

const double *nesvm_dataset_weights(const nesvm_dataset *ds) { return ds ? ds->weights : NULL; }
const void *nesvm_dataset_values(const nesvm_dataset *ds) { return ds ? ds->values : NULL; }
const int32_t *nesvm_dataset_indices(const nesvm_dataset *ds)
{
    return ds && ds->storage == NESVM_STORAGE_CSR ? ds->indices : NULL;
}
const int64_t *nesvm_dataset_indices64(const nesvm_dataset *ds)
{
    return ds && ds->storage == NESVM_STORAGE_CSR ? ds->indices64 : NULL;
}
const int64_t *nesvm_dataset_indptr(const nesvm_dataset *ds)
{
    return ds && ds->storage == NESVM_STORAGE_CSR ? ds->indptr : NULL;
}

nesvm_status nesvm_dataset_wrap_dense(int64_t n_rows, int32_t n_features, const double *values,
                                      const double *labels, nesvm_dataset **out,
                                      nesvm_error *err)
{
    if (!out) return nv_error(err, NESVM_ERR_ARG, "out must not be NULL");
    *out = NULL;
    if (n_rows < 0 || n_features < 0)
        return nv_error(err, NESVM_ERR_ARG, "negative dimensions %lld x %d", (long long)n_rows,
                        n_features);
    if (!labels || (n_rows * (int64_t)n_features > 0 && !values))
        return nv_error(err, NESVM_ERR_ARG, "NULL array passed to nesvm_dataset_wrap_dense");
    for (int64_t i = 0; i < n_rows; i++) {
        if (!isfinite(labels[i]))
            return nv_error(err, NESVM_ERR_ARG, "row %lld: label is not finite", (long long)i);
        for (int32_t j = 0; j < n_features; j++)
            if (!isfinite(values[i * n_features + j]))
                return nv_error(err, NESVM_ERR_ARG, "row %lld column %d: value is not finite",
                                (long long)i, j);
    }
    nesvm_dataset *ds = alloc_ds();
    if (!ds) return nv_error(err, NESVM_ERR_NOMEM, "out of memory creating dataset");
    ds->n = n_rows;
    ds->d = n_features;
    ds->nnz = n_rows * (int64_t)n_features;
    ds->storage = NESVM_STORAGE_DENSE;
    ds->prec = NESVM_DOUBLE;
    ds->values = values;
    ds->labels = labels;
    *out = ds;
    return NESVM_OK;
}

int64_t nesvm_dataset_rows(const nesvm_dataset *ds) { return ds ? ds->n : 0; }
int32_t nesvm_dataset_features(const nesvm_dataset *ds) { return ds ? ds->d : 0; }
int64_t nesvm_dataset_nnz(const nesvm_dataset *ds) { return ds ? ds->nnz : 0; }
nesvm_storage nesvm_dataset_storage(const nesvm_dataset *ds)
{
    return ds ? ds->storage : NESVM_STORAGE_CSR;
}
nesvm_precision nesvm_dataset_precision(const nesvm_dataset *ds)
{
    return ds ? ds->prec : NESVM_DOUBLE;
}
const double *nesvm_dataset_labels(const nesvm_dataset *ds) { return ds ? ds->labels : NULL; }

int nv_csr_alloc(int64_t n, int64_t nnz, int64_t **ip, int32_t **ix, double **vx, double **lb)
{
    *ip = nv_malloc_array((size_t)n + 1, sizeof(int64_t));
    *ix = nv_malloc_array((size_t)(nnz ? nnz : 1), sizeof(int32_t));
    *vx = nv_malloc_array((size_t)(nnz ? nnz : 1), sizeof(double));
    *lb = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    if (*ip && *ix && *vx && *lb) return 1;
    nv_free(*ip);
    nv_free(*ix);
    nv_free(*vx);
    nv_free(*lb);
    *ip = NULL;
    *ix = NULL;
    *vx = *lb = NULL;
    return 0;
}

nesvm_status nv_dataset_copy_rows(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                  nesvm_dataset **out, nesvm_error *err)
{
    *out = NULL;
    int64_t nnz = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = rows[i];
        if (ds->storage == NESVM_STORAGE_DENSE) {
            for (int32_t j = 0; j < ds->d; j++) nnz += nv_val(ds, r * (int64_t)ds->d + j) != 0;
        } else {
            nnz += ds->indptr[r + 1] - ds->indptr[r];
        }
    }
    int64_t *ip;
    int32_t *ix;
    double *vx, *lb;
    if (!nv_csr_alloc(n, nnz, &ip, &ix, &vx, &lb))
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory copying %lld rows", (long long)n);
    int64_t k = 0;
    ip[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = rows[i];
        if (ds->storage == NESVM_STORAGE_DENSE) {
            for (int32_t j = 0; j < ds->d; j++) {
                double v = nv_val(ds, r * (int64_t)ds->d + j);
                if (v != 0) {
                    ix[k] = j;
                    vx[k++] = v;
                }
            }
        } else {
            for (int64_t p = ds->indptr[r]; p < ds->indptr[r + 1]; p++) {
                ix[k] = (int32_t)nv_idx(ds, p);
                vx[k++] = nv_val(ds, p);
            }
        }
        ip[i + 1] = k;
        lb[i] = ds->labels ? ds->labels[r] : 0.0;
    }
    return nv_dataset_from_csr(n, ds->d, ip, ix, vx, NESVM_DOUBLE, lb, out, err);
}

nesvm_status nv_dataset_with_const(const nesvm_dataset *ds, const int64_t *rows, int64_t n, double B,
                                   nesvm_dataset **out, nesvm_error *err)
{
    *out = NULL;
    if (ds->d >= INT32_MAX)
        return nv_error(err, NESVM_ERR_ARG, "%d features leave no column for the bias feature", ds->d);
    const int32_t d = ds->d, d1 = d + 1;
    const int dense = ds->storage == NESVM_STORAGE_DENSE, flt = ds->prec == NESVM_FLOAT;
    const size_t esz = flt ? sizeof(float) : sizeof(double);
    int64_t nnz = 0;
    for (int64_t i = 0; i < n && !dense; i++) {
        const int64_t r = rows ? rows[i] : i;
        nnz += ds->indptr[r + 1] - ds->indptr[r] + 1;
    }
    const size_t cells = dense ? (size_t)n * (size_t)d1 : (size_t)nnz;
    if (dense && (size_t)n > SIZE_MAX / esz / (size_t)d1)
        return nv_error(err, NESVM_ERR_NOMEM, "dense matrix %lld x %d is too large", (long long)n, d1);
    nesvm_dataset *o = alloc_ds();
    void *vals = nv_malloc_array(cells ? cells : 1, esz);
    double *lb = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    int64_t *ip = dense ? NULL : nv_malloc_array((size_t)n + 1, sizeof(int64_t));
    int32_t *ix = dense ? NULL : nv_malloc_array(cells ? cells : 1, sizeof(int32_t));
    if (!o || !vals || !lb || (!dense && (!ip || !ix))) {
        nv_free(o);
        nv_free(vals);
        nv_free(lb);
        nv_free(ip);
        nv_free(ix);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the data with a bias feature (%lld rows)",
                        (long long)n);
    }
    int64_t k = 0;
    if (ip) ip[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t r = rows ? rows[i] : i;
        lb[i] = ds->labels ? ds->labels[r] : 0.0;
        if (dense) {
            /* the row's values as they are stored, then B */
            memcpy((char *)vals + (size_t)i * d1 * esz, (const char *)ds->values + (size_t)r * d * esz,
                   (size_t)d * esz);
            k = i * (int64_t)d1 + d;
        } else {
            for (int64_t p = ds->indptr[r]; p < ds->indptr[r + 1]; p++, k++) {
                ix[k] = (int32_t)nv_idx(ds, p);
                if (flt)
                    ((float *)vals)[k] = ((const float *)ds->values)[p];
                else
                    ((double *)vals)[k] = ((const double *)ds->values)[p];
            }
            ix[k] = d;
        }
        if (flt)
            ((float *)vals)[k] = (float)B;
        else
            ((double *)vals)[k] = B;
        k++;
        if (ip) ip[i + 1] = k;
    }
    o->n = n;
    o->d = d1;
    o->nnz = (int64_t)cells;
    o->storage = ds->storage;
    o->prec = ds->prec;
    o->blas_rows = ds->blas_rows;
    o->indptr = o->own_indptr = ip;
    o->indices = o->own_indices = ix;
    o->values = o->own_values = vals;
    o->labels = o->own_labels = lb;
    NV_ASSERT(dense || nv_csr_valid(n, d1, ip, ix, NULL));
    *out = o;
    return NESVM_OK;
}

/* The checkpoints' and nesvm grid's fingerprint of the data: FNV-1a of the
 * row count, the features and each row's label, non-zero entries (column and
 * value as double, so CSR and dense storage agree) and weight. */
uint64_t nv_dataset_hash(const nesvm_dataset *ds, const int64_t *rows, int64_t n)
{
    uint64_t h = nv_fnv1a(NV_FNV1A_START, &n, sizeof n);
    h = nv_fnv1a(h, &ds->d, sizeof ds->d);
    for (int64_t a = 0; a < n; a++) {
        int64_t i = rows ? rows[a] : a;
        double y = ds->labels[i];
        h = nv_fnv1a(h, &y, sizeof y);
        if (ds->storage == NESVM_STORAGE_DENSE) {
            for (int32_t j = 0; j < ds->d; j++) {
                double v = nv_val(ds, i * (int64_t)ds->d + j);
                if (v == 0) continue;
                h = nv_fnv1a(h, &j, sizeof j);
                h = nv_fnv1a(h, &v, sizeof v);
            }
        } else {
            for (int64_t k = ds->indptr[i]; k < ds->indptr[i + 1]; k++) {
                double v = nv_val(ds, k);
                if (v == 0) continue;
                int32_t j = (int32_t)nv_idx(ds, k);
                h = nv_fnv1a(h, &j, sizeof j);
                h = nv_fnv1a(h, &v, sizeof v);
            }
        }
        if (ds->weights) h = nv_fnv1a(h, &ds->weights[i], sizeof ds->weights[i]);
        h = nv_fnv1a(h, "\n", 1);
    }
    return h;
}
