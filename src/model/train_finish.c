/*
 * train_finish.c - the end of the training driver's finish stage
 * (train_run.h): a full kernel's expansion compacted to its support rows,
 * serial or over the ranks, and the refusal of a model holding a
 * non-finite number.
 */
#include "train_run.h"

#include <math.h>
#include <string.h>

/* A full-kernel model trained on its expansion (one coefficient per training
 * row, stride n in wbuf): keep the rows where some sub-model has a non-zero
 * coefficient (at least one), and copy them as the basis. */
static nesvm_status compact_expansion(nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                      nesvm_error *err)
{
    int64_t *keep = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    if (!keep) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    int64_t kept = 0;
    for (int64_t p = 0; p < n; p++) {
        int any = 0;
        for (int s = 0; s < m->nsub && !any; s++) any = m->wbuf[(size_t)s * (size_t)n + (size_t)p] != 0;
        if (any) keep[kept++] = p;
    }
    if (kept == 0) keep[kept++] = 0; /* an all-zero expansion still has a basis */
    /* in place: the destination never passes the source */
    for (int s = 0; s < m->nsub; s++) {
        for (int64_t j = 0; j < kept; j++)
            m->wbuf[(size_t)s * (size_t)kept + (size_t)j] = m->wbuf[(size_t)s * (size_t)n + (size_t)keep[j]];
        m->sub[s].w = m->wbuf + (size_t)s * (size_t)kept;
    }
    m->ncoef = kept;
    for (int64_t j = 0; j < kept; j++) keep[j] = rows ? rows[keep[j]] : keep[j];
    nesvm_status st = nv_dataset_copy_rows(ds, keep, kept, &m->basis, err);
    m->basis_rows = keep;
    return st;
}

/* compact_expansion over every rank's rows (distributed GS-SVM): each rank's
 * kept rows with their coefficients, gathered in rank order, which is the
 * serial order of the concatenated data; basis_rows count over every rank. */
static nesvm_status compact_expansion_dist(nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows,
                                           int64_t n, const nv_comm *comm, nesvm_error *err)
{
    const int nsub = m->nsub;
    int64_t *keep = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    int64_t *krow = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    double *all = NULL, *wb = NULL;
    int64_t kept = 0, offset = 0;
    nesvm_status st = keep && krow ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    for (int64_t p = 0; st == NESVM_OK && p < n; p++) {
        int any = 0;
        for (int s = 0; s < nsub && !any; s++) any = m->wbuf[(size_t)s * (size_t)n + (size_t)p] != 0;
        if (any) keep[kept++] = p;
    }
    /* this rank's first global row, and the kept rows over every rank */
    int64_t kall = kept;
    offset = n;
    st = nv_comm_agree(comm, st, err);
    if (st == NESVM_OK) st = nv_comm_exscan_i64(comm, &offset, err);
    if (st == NESVM_OK) st = nv_comm_sum_i64(comm, &kall, 1, err);
    if (st == NESVM_OK && kall == 0 && comm->rank == 0)
        keep[kept++] = 0; /* an all-zero expansion still has a basis */
    /* every rank's kept rows, each with its global row and nsub coefficients */
    double *pre = NULL;
    const int npre = 1 + nsub;
    if (st == NESVM_OK) {
        pre = nv_malloc_array((size_t)(kept ? kept : 1) * (size_t)npre, sizeof(double));
        if (!pre) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    }
    for (int64_t j = 0; pre && j < kept; j++) {
        krow[j] = rows ? rows[keep[j]] : keep[j];
        pre[j * npre] = (double)(offset + krow[j]);
        for (int s = 0; s < nsub; s++)
            pre[j * npre + 1 + s] = m->wbuf[(size_t)s * (size_t)n + (size_t)keep[j]];
    }
    st = nv_comm_agree(comm, st, err);
    int64_t K = 0;
    if (st == NESVM_OK) st = nv_rows_gather(comm, ds, krow, kept, pre, npre, &all, &m->basis, &K, err);
    int64_t *brows = NULL;
    if (st == NESVM_OK) {
        wb = nv_malloc_array((size_t)nsub * (size_t)(K ? K : 1), sizeof(double));
        brows = nv_malloc_array((size_t)(K ? K : 1), sizeof(int64_t));
        if (!wb || !brows) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the expansion");
    }
    for (int64_t j = 0; st == NESVM_OK && j < K; j++) {
        brows[j] = (int64_t)all[j * npre];
        for (int s = 0; s < nsub; s++) wb[(size_t)s * (size_t)K + (size_t)j] = all[j * npre + 1 + s];
    }
    st = nv_comm_agree(comm, st, err);
    if (st == NESVM_OK) {
        nv_free(m->wbuf);
        m->wbuf = wb;
        wb = NULL;
        for (int s = 0; s < nsub; s++) m->sub[s].w = m->wbuf + (size_t)s * (size_t)K;
        m->ncoef = K;
        m->basis_rows = brows;
        brows = NULL;
    }
    nv_free(brows);
    nv_free(keep);
    nv_free(krow);
    nv_free(pre);
    nv_free(all);
    nv_free(wb);
    return st;
}

nesvm_status nv_check_finite(const nesvm_model *m, const nesvm_params *p, nesvm_error *err)
{
    int s = nv_model_first_nonfinite(m);
    if (s < 0) return NESVM_OK;
    static const char *const names[] = {"c", "bias", "lambda", "gamma", "coef0", "degree", "mu",
                                        "nu", "mu0", "nu0", "mu_star", "smooth_p", "cap", NULL};
    nesvm_params *def = NULL;
    char opts[400] = "", a[48], b[48];
    size_t len = 0;
    if (nesvm_params_create(&def, NULL) == NESVM_OK) {
        for (int i = 0; names[i]; i++) {
            if (nesvm_params_get(p, names[i], a, sizeof a, NULL) != NESVM_OK ||
                nesvm_params_get(def, names[i], b, sizeof b, NULL) != NESVM_OK || strcmp(a, b) == 0)
                continue;
            int w = snprintf(opts + len, sizeof opts - len, "%s%s %s", len ? ", " : "", names[i], a);
            if (w < 0 || (size_t)w >= sizeof opts - len) break;
            len += (size_t)w;
        }
        nesvm_params_destroy(def);
    }
    for (int c = 0; c < p->n_weights && len + 40 < sizeof opts; c++) {
        nv_format_double(p->weight_label[c], a);
        nv_format_double(p->weight[c], b);
        len +=
            (size_t)snprintf(opts + len, sizeof opts - len, "%sweight of class %s %s", len ? ", " : "", a, b);
    }
    return nv_error(err, NESVM_ERR_NUMERIC,
                    "training produced a non-finite %s in binary model %d: the problem is degenerate "
                    "for these option values (%s)",
                    isfinite(m->sub[s].b) ? "weight" : "bias", s, len ? opts : "all defaults");
}

nesvm_status nv_compact_expansion(nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                  const nv_comm *comm, nesvm_error *err)
{
    return comm ? compact_expansion_dist(m, ds, rows, n, comm, err) : compact_expansion(m, ds, rows, n, err);
}
