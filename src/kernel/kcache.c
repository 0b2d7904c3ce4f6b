/* kcache.c - kernel column segments of the training rows with a least-recently-used cache (kernel.h). */
#include "kernel.h"
#include "../linalg/linalg.h"

#include <cblas.h>
#include <stdint.h>
#include <string.h>

nesvm_status nv_kcache_init(nv_kcache *c, const nv_kernel *k, const nesvm_dataset *X,
                            const int64_t *rows, int64_t n, const int *group, int ngroups,
                            double mem_mb, double copy_mb, int threads, nesvm_error *err)
{
    memset(c, 0, sizeof *c);
    c->k = *k;
    c->X = X;
    c->n = n;
    c->threads = threads;
    c->head = c->tail = -1;
    if (!group || ngroups < 1 || (double)n * (double)ngroups > NV_KCACHE_MAX_KEYS) ngroups = 1;
    c->ngroups = ngroups;
    size_t nn = (size_t)(n ? n : 1), keys = nn * (size_t)ngroups;
    double b = mem_mb * 1048576.0 / 8.0;
    c->budget = b >= 9e18 ? INT64_MAX : (int64_t)b;
    c->rows = nv_malloc_array(nn, sizeof(int64_t));
    c->sq = nv_malloc_array(nn, sizeof(double));
    c->within = nv_malloc_array(nn, sizeof(int64_t));
    c->order = nv_malloc_array(nn, sizeof(int64_t));
    c->gstart = nv_calloc((size_t)ngroups + 1, sizeof(int64_t));
    c->seg = nv_calloc(keys, sizeof(double *));
    c->prev = nv_malloc_array(keys, sizeof(int64_t));
    c->next = nv_malloc_array(keys, sizeof(int64_t));
    c->scratch = nv_malloc_array(nn, sizeof(double));
    c->out = nv_malloc_array(nn, sizeof(double));
    nesvm_status zst = nv_zrow_init(&c->z, X, NULL);
    int64_t longest = 1; /* the longest row: the room of the column's row */
    for (int64_t i = 0; i < n; i++) {
        const int64_t r = rows ? rows[i] : i;
        const int64_t len = X->storage == NESVM_STORAGE_DENSE ? X->d : X->indptr[r + 1] - X->indptr[r];
        if (len > longest) longest = len;
    }
    if (zst == NESVM_OK && !nv_zrow_reserve(&c->z, longest)) zst = NESVM_ERR_NOMEM;
    if (ngroups > 1) c->group = nv_malloc_array(nn, sizeof(int));
    if (zst != NESVM_OK || !c->rows || !c->sq || !c->within || !c->order || !c->gstart || !c->seg || !c->prev ||
        !c->next || !c->scratch || !c->out || (ngroups > 1 && !c->group)) {
        nv_kcache_free(c);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the kernel column cache (%lld rows)",
                        (long long)n);
    }
    for (int64_t i = 0; i < n; i++) {
        c->rows[i] = rows ? rows[i] : i;
        int g = ngroups > 1 ? group[i] : 0;
        NV_ASSERT(g >= 0 && g < ngroups);
        if (c->group) c->group[i] = g;
        c->within[i] = c->gstart[g + 1]++; /* counts first */
    }
    for (int g = 0; g < ngroups; g++) c->gstart[g + 1] += c->gstart[g];
    NV_ASSERT(c->gstart[0] == 0 && c->gstart[ngroups] == n); /* the groups partition the positions */
    for (int64_t i = 0; i < n; i++) c->order[c->gstart[c->group ? c->group[i] : 0] + c->within[i]] = i;
    nv_kernel_sqnorms(k, X, c->rows, n, c->sq);
    const size_t d = (size_t)X->d;
    const int dense_d = X->storage == NESVM_STORAGE_DENSE && X->prec == NESVM_DOUBLE;
    const double density = X->n > 0 && d > 0 ? (double)X->nnz / ((double)X->n * (double)d) : 0.0;
    /* (a precomputed kernel looks its values up: no products to speed up) */
    if ((ngroups > 1 || !dense_d) && density >= NV_KCACHE_COPY_DENSITY && d > 0 && k->type != NV_KERNEL_PRECOMPUTED &&
        (double)n * (double)d * 8.0 <= copy_mb * 1048576.0) {
        c->Xg = nv_malloc_array(nn * d, sizeof(double)); /* no room: read in place */
        if (c->Xg) {
            for (int64_t t = 0; t < n; t++) {
                double *dst = c->Xg + (size_t)t * d;
                memset(dst, 0, d * sizeof(double));
                nv_row_axpy(X, c->rows[c->order[t]], 1.0, dst);
            }
        }
    }
    return NESVM_OK;
}

void nv_kcache_free(nv_kcache *c)
{
    if (c->seg)
        for (int64_t key = c->head; key >= 0; key = c->next[key]) nv_free(c->seg[key]);
    nv_free(c->rows);
    nv_free(c->sq);
    nv_free(c->group);
    nv_free(c->within);
    nv_free(c->gstart);
    nv_free(c->order);
    nv_free(c->seg);
    nv_free(c->prev);
    nv_free(c->next);
    nv_free(c->scratch);
    nv_free(c->out);
    nv_zrow_free(&c->z);
    nv_free(c->Xg);
    nv_free(c->fill);
    memset(c, 0, sizeof *c);
}

static void unlink_key(nv_kcache *c, int64_t s)
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

/* out[t] = K(x_{pos[t]}, z) for t < len (pos NULL: t), z set in zr with
 * squared norm sqp: one dot product per row (threaded); G, when given, holds
 * those rows as dense doubles in the same order (the cache's copy). */
static void column_rows(const nv_kcache *c, const nv_zrow *zr, double sqp, const int64_t *pos, int64_t len,
                        const double *G, double *out)
{
    const nesvm_dataset *X = c->X;
    const nv_kernel *k = &c->k;
    /* dense double rows: BLAS ddot (vectorized; the plain loop is one long
     * dependent chain of additions) */
    const int dense_d = X->storage == NESVM_STORAGE_DENSE && X->prec == NESVM_DOUBLE && zr->z;
    const double *V = (const double *)X->values, *z = zr->z;
    const int d = X->d;
    int par = c->threads > 1 &&
              (double)len * (double)(X->storage == NESVM_STORAGE_DENSE ? X->d : X->nnz / (X->n ? X->n : 1)) >=
                  NV_PAR_MIN_WORK;
    (void)par;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(c->threads) if (par)
#endif
    for (int64_t t = 0; t < len; t++) {
        int64_t i = pos ? pos[t] : t, r = c->rows[i];
        if (k->type == NV_KERNEL_PRECOMPUTED) { /* a look-up, no product */
            out[t] = nv_kernel_zrow(k, zr, X, r, c->sq[i], sqp);
            continue;
        }
        double dot = G && z   ? cblas_ddot(d, G + (size_t)t * (size_t)d, 1, z, 1)
                     : dense_d ? cblas_ddot(d, V + (size_t)r * (size_t)d, 1, z, 1)
                               : nv_zrow_dot(zr, X, r);
        out[t] = nv_kernel_value(k, dot, c->sq[i], sqp);
    }
}

/* out[t] = K(x_{order[g0 + t]}, x_pos) for t < len: x_pos set as the cache's
 * row (scattered into a dense vector, or its entries), then one dot product
 * per row; one read of those rows, CSR or dense alike. */
static void compute_segment(nv_kcache *c, int64_t pos, int64_t g0, int64_t len, double *out)
{
    const nesvm_dataset *X = c->X;
    nv_zrow_set(&c->z, X, c->rows[pos]); /* within the room reserved by nv_kcache_init */
    column_rows(c, &c->z, c->sq[pos], c->order + g0, len, c->Xg ? c->Xg + (size_t)g0 * (size_t)X->d : NULL, out);
    nv_zrow_clear(&c->z);
}

void nv_kcache_external(nv_kcache *c, const nv_zrow *zr, double zsq, const int64_t *pos, int64_t npos, double *out)
{
    column_rows(c, zr, zsq, pos, npos, NULL, out);
    c->misses++;
    c->evals += npos;
    c->asked += npos;
}

/* Cache segment key (pos, g) holding buf (len doubles), evicting the least
 * recently used segments first; 0 if it cannot be kept (then buf is not
 * taken over). */
static int keep_segment(nv_kcache *c, int64_t key, int64_t len, double *buf)
{
    if (len > c->budget) return 0;
    while (c->used + len > c->budget && c->tail >= 0) {
        int64_t old = c->tail;
        unlink_key(c, old);
        c->used -= c->gstart[old % c->ngroups + 1] - c->gstart[old % c->ngroups];
        nv_free(c->seg[old]);
        c->seg[old] = NULL;
    }
    if (c->used + len > c->budget) return 0;
    NV_ASSERT(c->used >= 0 && !c->seg[key]);
    c->seg[key] = buf;
    c->used += len;
    push_front(c, key);
    return 1;
}

/* Segment (pos, g), from the cache or computed (and cached when it fits). */
static const double *segment(nv_kcache *c, int64_t pos, int g)
{
    NV_ASSERT(pos >= 0 && pos < c->n && g >= 0 && g < c->ngroups);
    const int64_t key = pos * c->ngroups + g, g0 = c->gstart[g], len = c->gstart[g + 1] - g0;
    if (c->seg[key]) {
        c->hits++;
        unlink_key(c, key);
        push_front(c, key);
        return c->seg[key];
    }
    c->misses++;
    c->evals += len;
    double *buf = len > 0 && len <= c->budget ? nv_malloc_array((size_t)len, sizeof(double)) : NULL;
    if (buf && !keep_segment(c, key, len, buf)) {
        nv_free(buf);
        buf = NULL;
    }
    if (!buf) buf = c->scratch; /* no cache, too long for it, or no memory: not kept */
    compute_segment(c, pos, g0, len, buf);
    return buf;
}

nesvm_status nv_kcache_column(nv_kcache *c, int64_t pos, const int64_t *sub, int64_t nsub,
                              const int *groups, int ng, const double **col, nesvm_error *err)
{
    (void)err;
    if (!sub) nsub = c->n;
    c->asked += nsub;
    if (c->ngroups == 1) {
        const double *s = segment(c, pos, 0); /* the whole column, in position order */
        if (!sub) {
            *col = s;
            return NESVM_OK;
        }
        for (int64_t a = 0; a < nsub; a++) c->out[a] = s[sub[a]];
        *col = c->out;
        return NESVM_OK;
    }
    /* one segment at a time, gathered before the next can evict it */
    if (!sub) {
        groups = NULL;
        ng = c->ngroups;
    }
    for (int q = 0; q < ng; q++) {
        int g = groups ? groups[q] : q;
        const double *s = segment(c, pos, g);
        if (!sub) {
            for (int64_t t = c->gstart[g]; t < c->gstart[g + 1]; t++) c->out[c->order[t]] = s[t - c->gstart[g]];
        } else {
            for (int64_t a = 0; a < nsub; a++)
                if (c->group[sub[a]] == g) c->out[a] = s[c->within[sub[a]]];
        }
    }
    *col = c->out;
    return NESVM_OK;
}

double nv_kcache_diag(const nv_kcache *c, int64_t pos)
{
    NV_ASSERT(pos >= 0 && pos < c->n);
    return nv_kernel_value(&c->k, c->sq[pos], c->sq[pos], c->sq[pos]);
}

nesvm_status nv_kcache_fill(nv_kcache *c, const int64_t *pos, int64_t npos, const int *groups, int ng,
                            nesvm_error *err)
{
    if (c->ngroups == 1) {
        groups = NULL;
        ng = 1;
    } else if (!groups) {
        ng = c->ngroups;
    }
    nesvm_status st = NESVM_OK;
    int64_t *miss = nv_malloc_array((size_t)(npos ? npos : 1), sizeof(int64_t));
    int64_t *crow = nv_malloc_array((size_t)(npos ? npos : 1), sizeof(int64_t));
    double *csq = nv_malloc_array((size_t)(npos ? npos : 1), sizeof(double));
    int64_t *grow_ = NULL;
    double *gsq = NULL, *blk = NULL;
    if (!miss || !crow || !csq) goto nomem;
    for (int q = 0; q < ng; q++) {
        const int g = groups ? groups[q] : q;
        const int64_t g0 = c->gstart[g], len = c->gstart[g + 1] - g0;
        if (len == 0) continue;
        /* the segments missing, as many as the budget keeps */
        int64_t nm = 0, room = c->budget / len;
        for (int64_t a = 0; a < npos && nm < room; a++)
            if (!c->seg[pos[a] * c->ngroups + g]) miss[nm++] = pos[a];
        if (nm == 0) continue;
        nv_free(grow_);
        nv_free(gsq);
        grow_ = nv_malloc_array((size_t)len, sizeof(int64_t));
        gsq = nv_malloc_array((size_t)len, sizeof(double));
        if (!grow_ || !gsq) goto nomem;
        for (int64_t t = 0; t < len; t++) {
            grow_[t] = c->rows[c->order[g0 + t]];
            gsq[t] = c->sq[c->order[g0 + t]];
        }
        /* batches of about 32 MB of kernel values: the group's rows against
         * nb columns in one block (dgemm for dense data), then each column
         * into its own segment */
        int64_t bs = 4194304 / len;
        if (bs < 1) bs = 1;
        if (bs > nm) bs = nm;
        if ((size_t)len * (size_t)bs > c->fill_cap) { /* kept: fresh pages cost a zeroing each */
            nv_free(c->fill);
            c->fill = nv_malloc_array((size_t)len * (size_t)bs, sizeof(double));
            c->fill_cap = c->fill ? (size_t)len * (size_t)bs : 0;
            if (!c->fill) goto nomem;
        }
        blk = c->fill;
        for (int64_t a0 = 0; a0 < nm; a0 += bs) {
            int64_t nb = nm - a0 < bs ? nm - a0 : bs;
            for (int64_t b = 0; b < nb; b++) {
                crow[b] = c->rows[miss[a0 + b]];
                csq[b] = c->sq[miss[a0 + b]];
            }
            st = nv_kernel_block(&c->k, c->X, grow_, len, gsq, c->X, crow, nb, csq, blk, nb, c->threads, err);
            if (st != NESVM_OK) goto out;
            c->misses += nb;
            c->evals += nb * len;
            for (int64_t b = 0; b < nb; b++) {
                double *buf = nv_malloc_array((size_t)len, sizeof(double));
                if (!buf) goto out; /* no memory to keep it: computed again when asked */
                for (int64_t t = 0; t < len; t++) buf[t] = blk[t * nb + b];
                if (!keep_segment(c, miss[a0 + b] * c->ngroups + g, len, buf)) {
                    nv_free(buf);
                    goto out;
                }
            }
        }
    }
    goto out;
nomem:
    st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel columns (%lld)", (long long)npos);
out:
    nv_free(miss);
    nv_free(crow);
    nv_free(csq);
    nv_free(grow_);
    nv_free(gsq);
    return st;
}
