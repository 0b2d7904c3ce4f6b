/*
 * precomputed.c - rows of a precomputed kernel (LIBSVM's -t 4): column 0
 * holds each row's serial number, column j the kernel value against the
 * training row of serial number j (nesvm.h, nesvm_precomputed).
 *
 * The checks of a training set (nv_pc_check_train) are the reader's, which
 * names the file's lines, and the training driver's for datasets built
 * through the C API, which names rows; a matrix that is not square, a serial
 * number that is not a positive integer or is repeated is refused with the
 * same words either way.
 */
#include "dataset_internal.h"

#include <math.h>
#include <string.h>

double nv_row_value(const nesvm_dataset *ds, int64_t r, int64_t col)
{
    NV_ASSERT(r >= 0 && r < ds->n);
    if (col < 0 || col >= ds->d) return 0.0;
    if (ds->storage == NESVM_STORAGE_DENSE) return nv_val(ds, r * (int64_t)ds->d + col);
    int64_t lo = ds->indptr[r], hi = ds->indptr[r + 1];
    /* a precomputed row gives every column in order: entry col is column col */
    if (lo + col < hi && nv_idx(ds, lo + col) == col) return nv_val(ds, lo + col);
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2, c = nv_idx(ds, mid);
        if (c == col) return nv_val(ds, mid);
        if (c < col) lo = mid + 1;
        else hi = mid;
    }
    return 0.0;
}

int64_t nv_pc_serial(const nesvm_dataset *ds, int64_t r)
{
    const double s = nv_row_value(ds, r, 0);
    return s >= 1 && s <= INT32_MAX && s == floor(s) ? (int64_t)s : 0;
}

/* The kernel values row r gives: its stored entries after column 0 (the
 * reader's rows give every column in order), or every column but 0. */
static int64_t row_width(const nesvm_dataset *ds, int64_t r, int stored)
{
    if (!stored || ds->storage == NESVM_STORAGE_DENSE) return ds->d > 0 ? ds->d - 1 : 0;
    const int64_t len = ds->indptr[r + 1] - ds->indptr[r];
    return len > 0 ? len - 1 : 0;
}

/* Where row a is: "PATH:LINE" (the reader) or "training row A". */
static const char *where(char *buf, size_t size, const char *path, const int64_t *lines, int64_t a)
{
    if (lines) snprintf(buf, size, "%s:%lld", path, (long long)lines[a]);
    else snprintf(buf, size, "training row %lld", (long long)a + 1);
    return buf;
}

nesvm_status nv_pc_check_train(const nesvm_dataset *ds, const int64_t *rows, int64_t n, const char *path,
                               const int64_t *lines, nesvm_error *err)
{
    char w1[300], w2[300];
    /* 1. every serial number a positive integer; the largest */
    int64_t smax = 0, amax = -1;
    for (int64_t a = 0; a < n; a++) {
        const int64_t r = rows ? rows[a] : a, s = nv_pc_serial(ds, r);
        if (s == 0)
            return nv_error(err, NESVM_ERR_DATA,
                            "%s: serial number %.17g is not an integer from 1 to 2147483647 (0:i numbers "
                            "training row i: the column of its kernel values)",
                            where(w1, sizeof w1, path, lines, a), nv_row_value(ds, r, 0));
        if (s > smax) smax = s, amax = a;
    }
    /* 2. square: every row gives a kernel value at every serial number */
    for (int64_t a = 0; a < n; a++) {
        const int64_t r = rows ? rows[a] : a, wd = row_width(ds, r, lines != NULL);
        if (wd < smax)
            return nv_error(err, NESVM_ERR_DATA,
                            "%s: the row's kernel values end at index %lld, and serial number %lld (%s) needs its column: "
                            "a training matrix gives K(x_i,x_j) for every pair of its rows (it is square)",
                            where(w1, sizeof w1, path, lines, a), (long long)wd, (long long)smax,
                            where(w2, sizeof w2, path, lines, amax));
    }
    /* 3. no serial number twice (each at most smax <= a row's width <= d) */
    int64_t *seen = nv_malloc_array((size_t)smax + 1, sizeof(int64_t));
    if (!seen) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    for (int64_t s = 0; s <= smax; s++) seen[s] = -1;
    nesvm_status st = NESVM_OK;
    for (int64_t a = 0; a < n && st == NESVM_OK; a++) {
        const int64_t s = nv_pc_serial(ds, rows ? rows[a] : a);
        if (seen[s] >= 0)
            st = nv_error(err, NESVM_ERR_DATA, "%s: serial number %lld is repeated (%s has it too)",
                          where(w1, sizeof w1, path, lines, a), (long long)s,
                          where(w2, sizeof w2, path, lines, seen[s]));
        seen[s] = a;
    }
    nv_free(seen);
    return st;
}

int64_t nv_pc_columns(const nesvm_dataset *basis)
{
    int64_t m = 0;
    for (int64_t r = 0; basis && r < basis->n; r++) {
        const int64_t s = nv_pc_serial(basis, r);
        if (s > m) m = s;
    }
    return m;
}

nesvm_status nv_pc_trim(nesvm_dataset **basis, nesvm_error *err)
{
    const nesvm_dataset *B = *basis;
    int64_t *ip = NULL;
    int32_t *ix = NULL;
    double *vx = NULL, *lb = NULL;
    if (!nv_csr_alloc(B->n, B->n, &ip, &ix, &vx, &lb))
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    ip[0] = 0;
    for (int64_t r = 0; r < B->n; r++) {
        NV_ASSERT(nv_pc_serial(B, r) > 0); /* the training rows' serial numbers were checked */
        ix[r] = 0;
        vx[r] = (double)nv_pc_serial(B, r);
        lb[r] = B->labels ? B->labels[r] : 0.0;
        ip[r + 1] = r + 1;
    }
    nesvm_dataset *out = NULL;
    nesvm_status st = nv_dataset_from_csr(B->n, B->d, ip, ix, vx, NESVM_DOUBLE, lb, &out, err);
    if (st != NESVM_OK) return st;
    nesvm_dataset_destroy(*basis);
    *basis = out;
    return NESVM_OK;
}
