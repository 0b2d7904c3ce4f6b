/* kcache.c - kernel columns of the training rows with a least-recently-used cache (kernel.h). */
#include "kernel.h"
#include "../linalg/linalg.h"

#include <cblas.h>
#include <string.h>

nesvm_status nv_kcache_init(nv_kcache *c, const nv_kernel *k, const nesvm_dataset *X,
                            const int64_t *rows, int64_t n, double mem_mb, int threads,
                            nesvm_error *err)
{
    memset(c, 0, sizeof *c);
    c->k = *k;
    c->X = X;
    c->n = n;
    c->threads = threads;
    c->head = c->tail = -1;
    size_t nn = (size_t)(n ? n : 1);
    double cols = mem_mb * 1048576.0 / (8.0 * (double)nn);
    c->nslots = cols >= (double)n ? n : cols >= 1 ? (int64_t)cols : 0;
    c->rows = nv_malloc_array(nn, sizeof(int64_t));
    c->sq = nv_malloc_array(nn, sizeof(double));
    c->slot_of = nv_malloc_array(nn, sizeof(int64_t));
    size_t ns = (size_t)(c->nslots ? c->nslots : 1);
    c->store = nv_malloc_array(ns * nn, sizeof(double));
    c->key = nv_malloc_array(ns, sizeof(int64_t));
    c->prev = nv_malloc_array(ns, sizeof(int64_t));
    c->next = nv_malloc_array(ns, sizeof(int64_t));
    c->z = nv_malloc_array((size_t)(X->d ? X->d : 1), sizeof(double));
    if (!c->z || !c->rows || !c->sq || !c->slot_of || !c->store || !c->key || !c->prev || !c->next) {
        nv_kcache_free(c);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the kernel column cache (%lld rows)",
                        (long long)n);
    }
    for (int64_t i = 0; i < n; i++) {
        c->rows[i] = rows ? rows[i] : i;
        c->slot_of[i] = -1;
    }
    nv_kernel_sqnorms(X, c->rows, n, c->sq);
    return NESVM_OK;
}

void nv_kcache_free(nv_kcache *c)
{
    nv_free(c->rows);
    nv_free(c->sq);
    nv_free(c->slot_of);
    nv_free(c->store);
    nv_free(c->key);
    nv_free(c->prev);
    nv_free(c->next);
    nv_free(c->z);
    memset(c, 0, sizeof *c);
}

static void unlink_slot(nv_kcache *c, int64_t s)
{
    if (c->prev[s] >= 0) c->next[c->prev[s]] = c->next[s];
    else c->head = c->next[s];
    if (c->next[s] >= 0) c->prev[c->next[s]] = c->prev[s];
    else c->tail = c->prev[s];
}

static void push_front(nv_kcache *c, int64_t s)
{
    c->prev[s] = -1;
    c->next[s] = c->head;
    if (c->head >= 0) c->prev[c->head] = s;
    c->head = s;
    if (c->tail < 0) c->tail = s;
}

nesvm_status nv_kcache_column(nv_kcache *c, int64_t pos, const double **col, nesvm_error *err)
{
    const int64_t n = c->n;
    int64_t s = c->slot_of[pos];
    if (s >= 0) {
        c->hits++;
        unlink_slot(c, s);
        push_front(c, s);
        *col = c->store + (size_t)s * (size_t)n;
        return NESVM_OK;
    }
    if (c->nslots == 0) {
        s = 0;
    } else if (c->used < c->nslots) {
        s = c->used++;
        push_front(c, s);
    } else {
        s = c->tail; /* evict the least recently used */
        if (c->key[s] >= 0) c->slot_of[c->key[s]] = -1;
        unlink_slot(c, s);
        push_front(c, s);
    }
    if (c->nslots) {
        c->key[s] = pos;
        c->slot_of[pos] = s;
    }
    double *out = c->store + (size_t)s * (size_t)n;
    c->misses++;
    c->evals += n;
    /* x_pos scattered into a dense vector, then one dot product per row
     * (threaded): one read of X per column, CSR or dense alike */
    double *z = c->z;
    memset(z, 0, (size_t)(c->X->d ? c->X->d : 1) * sizeof(double));
    nv_row_axpy(c->X, c->rows[pos], 1.0, z);
    const double sqp = c->sq[pos];
    const nv_kernel *k = &c->k;
    /* dense double rows: BLAS ddot (vectorized; the plain loop is one long
     * dependent chain of additions) */
    const int dense_d = c->X->storage == NESVM_STORAGE_DENSE && c->X->prec == NESVM_DOUBLE;
    const double *V = (const double *)c->X->values;
    const int d = c->X->d;
    int par = c->threads > 1 && (double)n * (double)(c->X->storage == NESVM_STORAGE_DENSE ? c->X->d : c->X->nnz / (c->X->n ? c->X->n : 1)) >= NV_PAR_MIN_WORK;
    (void)par;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(c->threads) if (par)
#endif
    for (int64_t i = 0; i < n; i++) out[i] = nv_kernel_value(k, dense_d ? cblas_ddot(d, V + (size_t)c->rows[i] * (size_t)d, 1, z, 1) : nv_row_dot(c->X, c->rows[i], z), c->sq[i], sqp);
    *col = out;
    (void)err;
    return NESVM_OK;
}

double nv_kcache_diag(const nv_kcache *c, int64_t pos)
{
    return nv_kernel_value(&c->k, c->sq[pos], c->sq[pos], c->sq[pos]);
}
