/* rowpack.c - rows of a dataset packed into doubles for sending between MPI
 * ranks, and a dataset from such packs (dataset_internal.h). */
#include "dataset_internal.h"
#include "../comm/comm.h"

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
    NV_ASSERT(at == nv_rows_pack_size(ds, rows, n)); /* what the caller allocated */
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
    NV_ASSERT(q == nnz && at <= len);
    return nv_dataset_from_csr(n, d, ip, ix, vx, NESVM_DOUBLE, lb, out, err);
}

nesvm_status nv_rows_gather(const struct nv_comm *c, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                            const double *pre, int npre, double **pre_all, nesvm_dataset **out, int64_t *total,
                            nesvm_error *err)
{
    *pre_all = NULL;
    *out = NULL;
    *total = 0;
    /* this rank's part: per row its npre values, then the packed row */
    const int64_t len = n * npre + nv_rows_pack_size(ds, rows, n);
    double *pack = nv_malloc_array((size_t)(len ? len : 1), sizeof(double)), *all = NULL, *rowbuf = NULL;
    nesvm_status st = pack ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory for %lld rows", (long long)n);
    for (int64_t i = 0, at = 0; pack && i < n; i++) {
        memcpy(pack + at, pre + i * npre, (size_t)npre * sizeof(double));
        at += npre;
        at += nv_rows_pack(ds, rows ? &rows[i] : &i, 1, pack + at);
    }
    st = nv_comm_agree(c, st, err);
    int64_t got = 0;
    if (st == NESVM_OK) st = nv_comm_gather(c, pack, len, &all, &got, NULL, err);
    /* every rank splits the same concatenation: the prefixes, and the rows */
    int64_t rows_all = 0;
    for (int64_t at = 0; st == NESVM_OK && at < got; rows_all++) at += npre + 2 + 2 * (int64_t)all[at + npre + 1];
    double *pa = NULL;
    if (st == NESVM_OK) {
        rowbuf = nv_malloc_array((size_t)(got ? got : 1), sizeof(double));
        pa = nv_malloc_array((size_t)(rows_all ? rows_all : 1) * (size_t)(npre ? npre : 1), sizeof(double));
        if (!rowbuf || !pa) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for %lld rows", (long long)rows_all);
    }
    if (st == NESVM_OK) {
        int64_t at = 0, r = 0;
        for (int64_t i = 0; i < rows_all; i++) {
            memcpy(pa + i * npre, all + at, (size_t)npre * sizeof(double));
            at += npre;
            const int64_t w = 2 + 2 * (int64_t)all[at + 1];
            memcpy(rowbuf + r, all + at, (size_t)w * sizeof(double));
            r += w;
            at += w;
        }
        st = nv_rows_unpack(rowbuf, r, ds->d, out, err);
    }
    st = nv_comm_agree(c, st, err);
    if (st == NESVM_OK) {
        *pre_all = pa;
        *total = rows_all;
    } else {
        nv_free(pa);
        nesvm_dataset_destroy(*out);
        *out = NULL;
    }
    nv_free(pack);
    nv_free(all);
    nv_free(rowbuf);
    return st;
}
