/* rowpack.c - rows of a dataset packed into doubles for sending between MPI
 * ranks, and a dataset from such packs (dataset_internal.h). */
#include "dataset_internal.h"

#include <string.h>

/* Row r's non-zero entries. */
static int64_t row_count(const nesvm_dataset *ds, int64_t r)
{
    int64_t k = 0;
    if (ds->storage == NESVM_STORAGE_DENSE) {
        for (int32_t j = 0; j < ds->d; j++) k += nv_val(ds, r * (int64_t)ds->d + j) != 0;
    } else {
        for (int64_t p = ds->indptr[r]; p < ds->indptr[r + 1]; p++) k += nv_val(ds, p) != 0;
    }
    return k;
}

int64_t nv_rows_pack_size(const nesvm_dataset *ds, const int64_t *rows, int64_t n)
{
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s += 2 + 2 * row_count(ds, rows ? rows[i] : i);
    return s;
}

int64_t nv_rows_pack(const nesvm_dataset *ds, const int64_t *rows, int64_t n, double *out)
{
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = rows ? rows[i] : i, k = 0, head = at;
        out[at] = ds->labels ? ds->labels[r] : 0.0;
        at += 2;
        if (ds->storage == NESVM_STORAGE_DENSE) {
            for (int32_t j = 0; j < ds->d; j++) {
                double v = nv_val(ds, r * (int64_t)ds->d + j);
                if (v == 0) continue;
                out[at++] = (double)j;
                out[at++] = v;
                k++;
            }
        } else {
            for (int64_t p = ds->indptr[r]; p < ds->indptr[r + 1]; p++) {
                double v = nv_val(ds, p);
                if (v == 0) continue;
                out[at++] = (double)nv_idx(ds, p);
                out[at++] = v;
                k++;
            }
        }
        out[head + 1] = (double)k;
    }
    return at;
}

nesvm_status nv_rows_unpack(const double *in, int64_t len, int32_t d, nesvm_dataset **out, nesvm_error *err)
{
    *out = NULL;
    int64_t n = 0, nnz = 0;
    for (int64_t at = 0; at + 1 < len; n++) {
        int64_t k = (int64_t)in[at + 1];
        nnz += k;
        at += 2 + 2 * k;
    }
    int64_t *ip;
    int32_t *ix;
    double *vx, *lb;
    if (!nv_csr_alloc(n, nnz, &ip, &ix, &vx, &lb))
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for %lld rows", (long long)n);
    ip[0] = 0;
    int64_t at = 0, q = 0;
    for (int64_t i = 0; i < n; i++) {
        lb[i] = in[at];
        int64_t k = (int64_t)in[at + 1];
        at += 2;
        for (int64_t e = 0; e < k; e++, q++) {
            ix[q] = (int32_t)in[at++];
            vx[q] = in[at++];
        }
        ip[i + 1] = q;
    }
    return nv_dataset_from_csr(n, d, ip, ix, vx, NESVM_DOUBLE, lb, out, err);
}
