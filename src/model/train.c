/*
 * train.c - the training driver: classes and their rows, the solver's
 * defaults, the kernel path, the binary sub-problems (binary, one-vs-one,
 * one-vs-rest) with their costs and warm starts, statistics and the model.
 *
 * Class order is the order of first appearance in the training data (as in
 * LIBSVM); for two classes the first label seen is the positive class.
 * One-vs-one trains k(k-1)/2 machines, class i (+1) against class j (-1) for
 * i < j; one-vs-rest trains k machines, class i (+1) against all others.
 */
#include "model_internal.h"
#include "train_ckpt.h"
#include "kplan.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

nesvm_status nv_label_classes(const double *labels, const int64_t *rows, int64_t n,
                              double **classes, int *nr_class, int *row_class, nesvm_error *err)
{
    *classes = NULL;
    *nr_class = 0;
    double *sorted = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    if (!sorted) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    for (int64_t i = 0; i < n; i++) sorted[i] = labels[rows ? rows[i] : i];
    qsort(sorted, (size_t)n, sizeof(double), cmp_double);
    int64_t u = 0;
    for (int64_t i = 0; i < n; i++)
        if (u == 0 || sorted[i] != sorted[u - 1]) sorted[u++] = sorted[i];
    if (u > NV_MAX_CLASSES) {
        nv_free(sorted);
        return nv_error(err, NESVM_ERR_DATA,
                        "%lld distinct labels in %lld rows: more than %d classes (are the labels "
                        "regression targets?)",
                        (long long)u, (long long)n, NV_MAX_CLASSES);
    }
    /* first-appearance order */
    int *order = nv_malloc_array((size_t)(u ? u : 1), sizeof(int));
    double *cls = nv_malloc_array((size_t)(u ? u : 1), sizeof(double));
    if (!order || !cls) {
        nv_free(sorted);
        nv_free(order);
        nv_free(cls);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    }
    for (int64_t j = 0; j < u; j++) order[j] = -1;
    int k = 0;
    for (int64_t i = 0; i < n; i++) {
        double l = labels[rows ? rows[i] : i];
        double *hit = bsearch(&l, sorted, (size_t)u, sizeof(double), cmp_double);
        int64_t j = hit - sorted;
        if (order[j] < 0) {
            order[j] = k;
            cls[k++] = l;
        }
        if (row_class) row_class[i] = order[j];
    }
    nv_free(sorted);
    nv_free(order);
    *classes = cls;
    *nr_class = k;
    return NESVM_OK;
}

/* Warm start: the starting point of the sub-model separating classes[i]
 * (+1) from classes[j] (-1; j < 0: the rest) taken from init's matching
 * sub-model, negated when init has the pair the other way round.  Returns 0
 * if init has no such sub-model. */
static int warm_point(const nesvm_model *init, const double *classes, int i, int j, int32_t d,
                      double *w0, double *b0)
{
    int ii = -1, jj = -1;
    for (int c = 0; c < init->nr_class; c++) {
        if (init->labels[c] == classes[i]) ii = c;
        if (j >= 0 && init->labels[c] == classes[j]) jj = c;
    }
    if (ii < 0 || (j >= 0 && jj < 0)) return 0;
    for (int s = 0; s < init->nsub; s++) {
        const nv_submodel *sm = &init->sub[s];
        double sign;
        if (sm->pos == ii && sm->neg == jj)
            sign = 1.0;
        else if (j >= 0 && sm->pos == jj && sm->neg == ii)
            sign = -1.0;
        else
            continue;
        int32_t dm = init->d < d ? init->d : d;
        for (int32_t k = 0; k < d; k++) w0[k] = k < dm ? sign * sm->w[k] : 0.0;
        *b0 = sign * sm->b;
        return 1;
    }
    return 0;
}

/* A full-kernel model trained on its expansion (one coefficient per training
 * row, stride n in wbuf): keep the rows where some sub-model has a non-zero
 * coefficient (at least one), and copy them as the basis. */
static nesvm_status compact_expansion(nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows,
                                      int64_t n, nesvm_error *err)
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
static nesvm_status compact_expansion_dist(nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                           const nv_comm *comm, nesvm_error *err)
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
    if (st == NESVM_OK && kall == 0 && comm->rank == 0) keep[kept++] = 0; /* an all-zero expansion still has a basis */
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
        for (int s = 0; s < nsub; s++) pre[j * npre + 1 + s] = m->wbuf[(size_t)s * (size_t)n + (size_t)keep[j]];
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

/* No model with a non-finite number leaves training: name the sub-model and
 * the options that differ from their defaults (the likely cause). */
static nesvm_status check_finite(const nesvm_model *m, const nesvm_params *p, nesvm_error *err)
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
        len += (size_t)snprintf(opts + len, sizeof opts - len, "%sweight of class %s %s", len ? ", " : "",
                                a, b);
    }
    return nv_error(err, NESVM_ERR_NUMERIC,
                    "training produced a non-finite %s in binary model %d: the problem is degenerate "
                    "for these option values (%s)",
                    isfinite(m->sub[s].b) ? "weight" : "bias", s, len ? opts : "all defaults");
}

/* Refuse, before any work, trainings whose size does not follow the data:
 * classes that look like regression targets, one-vs-one sub-models beyond
 * memory, and dense weights over a feature range the data barely use. */
static nesvm_status check_sizes(const nesvm_dataset *ds, int64_t n, int k, int64_t nsub, int ovr,
                                int kernel, nesvm_error *err)
{
    if (k > 1000 && (int64_t)k * 2 > n)
        return nv_error(err, NESVM_ERR_DATA,
                        "%d classes in %lld rows: most classes have a single row, so no classifier "
                        "can learn them (are the labels regression targets?)",
                        k, (long long)n);
    const double phys = nv_physical_memory();
    const double mb = 1048576.0;
    if (!kernel) {
        /* a linear solver keeps several dense vectors of d weights */
        const double vec = 8.0 * (double)ds->d;
        if (nv_dense_too_large(vec, ds->nnz, ds->n))
            return nv_error(err, NESVM_ERR_DATA,
                            "the largest feature index is %d but the data hold only %lld values: "
                            "every dense weight vector over %d features needs %.0f MB and a solver "
                            "keeps several; renumber the features to the ones used",
                            ds->d, (long long)ds->nnz, ds->d, vec / mb);
    }
    if (nsub > INT32_MAX)
        return nv_error(err, NESVM_ERR_DATA, "%d classes need %lld one-vs-one models: too many; use "
                        "--multiclass ovr", k, (long long)nsub);
    const double coef = kernel ? (double)n : (double)ds->d;
    const double need = (double)nsub * (coef + 1) * 8.0;
    if (phys > 0 && need > phys)
        return nv_error(err, NESVM_ERR_DATA,
                        "%d classes need %lld %s models of %.0f coefficients each: %.1f GB, more "
                        "than this machine's %.1f GB%s",
                        k, (long long)nsub, ovr ? "one-vs-rest" : "one-vs-one", coef, need / (1024 * mb),
                        phys / (1024 * mb), ovr ? "" : "; --multiclass ovr needs k models");
    return NESVM_OK;
}

/* The binary sub-problems in model order: binary (0, 1); one-vs-one (i, j)
 * for i < j; one-vs-rest (i, -1). */
typedef struct nv_pairs {
    int k, ovr, i, j, done;
} nv_pairs;

static void pairs_start(nv_pairs *p, int k, int ovr)
{
    p->k = k;
    p->ovr = ovr;
    p->i = 0;
    p->j = ovr ? -1 : 1;
    p->done = 0;
}

static int pairs_next(nv_pairs *p, int *i, int *j)
{
    if (p->done) return 0;
    *i = p->i;
    *j = p->j;
    if (p->k == 2) {
        p->done = 1;
    } else if (p->ovr) {
        if (++p->i == p->k) p->done = 1;
    } else if (++p->j == p->k) {
        p->i++;
        p->j = p->i + 1;
        if (p->j >= p->k) p->done = 1;
    }
    return 1;
}

/* A cost C_i is trained in [NV_COST_MIN, NV_COST_MAX]: below, the objective
 * underflows; above 1e15, 1/2 ||w||^2 falls below the rounding of C times
 * the loss (double precision's 2^-52 = 2.2e-16 relative): the problem is
 * numerically the hard-margin one, no solver reaches a certificate (at
 * C = 1e100 the model came out w = 0), and nesvm refuses it up front. */
#define NV_COST_MIN 1e-100
#define NV_COST_MAX 1e15

/* Each class's cost C x weight (1 x weight with lambda: C = 1/(lambda n) is
 * set per sub-problem), refused outside [NV_COST_MIN, NV_COST_MAX]. */
static nesvm_status class_costs(const nesvm_params *params, const double *classes, int k, double *cw,
                                nesvm_error *err)
{
    for (int c = 0; c < k; c++) {
        cw[c] = (params->lambda > 0 ? 1.0 : params->c) * nv_params_class_weight(params, classes[c]);
        if (params->lambda > 0) continue; /* checked per binary problem (sub_build) */
        if (!(cw[c] >= NV_COST_MIN && cw[c] <= NV_COST_MAX)) {
            char lb[32], cb[32], wb[32];
            nv_format_double(classes[c], lb);
            nv_format_double(params->c, cb);
            nv_format_double(nv_params_class_weight(params, classes[c]), wb);
            return nv_error(err, NESVM_ERR_ARG,
                            "the cost of class %s, C x weight = %s x %s (-c and -w%s), is outside "
                            "[1e-100, 1e15], where the objective underflows or 1/2 ||w||^2 is lost in rounding",
                            lb, cb, wb, lb);
        }
    }
    return NESVM_OK;
}

/* Sub-problem (i, j): its rows, labels (+1: class i), costs and (GS-SVM) caps. */
static nesvm_status sub_build(nv_subproblem *sp, int i, int j, const nv_kplan *kp,
                              const nesvm_params *params, const double *classes, const double *cw,
                              const int *row_class, const int64_t *rows, int64_t n, const double *wts,
                              const nv_comm *comm, nesvm_error *err)
{
    nesvm_status st = NESVM_OK;
    int64_t cnt = 0;
    sp->i = i;
    sp->j = j;
    for (int64_t r = 0; r < n; r++) {
        int c = row_class[r];
        if (j >= 0 && c != i && c != j) continue;
        /* kernel paths index the training rows by position */
        sp->rows[cnt] = nv_kplan_positions(kp) ? r : (rows ? rows[r] : r);
        /* a sample weight multiplies its row's cost (and cap) */
        const double sw = wts ? wts[rows ? rows[r] : r] : 1.0;
        if (sp->cap)
            sp->cap[cnt] =
                params->cap > 0 ? params->cap * nv_params_class_weight(params, classes[c]) * sw : INFINITY;
        sp->y[cnt] = c == i ? 1.0 : -1.0;
        sp->cost[cnt] = cw[c] * sw;
        if (wts && params->lambda <= 0 && !(sp->cost[cnt] >= NV_COST_MIN && sp->cost[cnt] <= NV_COST_MAX)) {
            st = nv_error(err, NESVM_ERR_ARG,
                            "row %lld (counted from 1): its cost C x class weight x sample weight = %g x %g is "
                            "outside [1e-100, 1e15], where the objective underflows or 1/2 ||w||^2 is lost in rounding",
                            (long long)(rows ? rows[r] : r) + 1, cw[c], sw);
            break;
        }
        cnt++;
    }
    sp->n = cnt;
    /* distributed: a rank's refusal is every rank's, and lambda's n counts
     * the sub-problem's rows over every rank */
    int64_t cnt_all = cnt;
    if (comm) {
        st = nv_comm_agree(comm, st, err);
        if (st == NESVM_OK && params->lambda > 0) st = nv_comm_sum_i64(comm, &cnt_all, 1, err);
    }
    if (st != NESVM_OK) return st;
    if (params->lambda > 0) {
        int bad = 0;
        for (int64_t a = 0; a < cnt; a++) {
            sp->cost[a] /= params->lambda * (double)cnt_all;
            bad |= !(sp->cost[a] >= NV_COST_MIN && sp->cost[a] <= NV_COST_MAX);
        }
        if (bad) {
            char lb[32];
            nv_format_double(params->lambda, lb);
            st = nv_error(err, NESVM_ERR_ARG,
                          "lambda %s gives costs 1/(lambda n) x weight outside [1e-100, 1e15]"
                          " for a binary problem of %lld rows (--lambda, -w)",
                          lb, (long long)cnt_all);
        }
        if (comm) st = nv_comm_agree(comm, st, err);
    }
    return st;
}

/* One sub-problem's result into the totals. */
static void stats_add(nesvm_stats *stats, const nv_binary_result *res)
{
    if (!stats) return;
    stats->iterations += res->iterations;
    stats->primal += res->primal;
    stats->lower_bound += res->lower_bound;
    if (!(res->gap <= stats->gap)) stats->gap = res->gap;
    if (res->exit_reason > stats->exit_reason) stats->exit_reason = res->exit_reason;
    stats->n_sv += res->n_sv;
    stats->dots += res->dots;
    stats->row_updates += res->axpys;
}

void nv_path_free(nv_path *p)
{
    for (int s = 0; s < p->nsub; s++) nv_free(p->w[s]);
    nv_free(p->w);
    nv_free(p->ncoef);
    nv_free(p->b);
    memset(p, 0, sizeof *p);
}

/* Sub-model s's solution (w: ncoef entries) into the path of nsub sub-models. */
static nesvm_status path_keep(nv_path *p, int nsub, int s, const double *w, int64_t ncoef, double b,
                              nesvm_error *err)
{
    if (p->nsub != nsub) {
        nv_path_free(p);
        p->w = nv_malloc_array((size_t)nsub, sizeof(double *));
        p->ncoef = nv_malloc_array((size_t)nsub, sizeof(int64_t));
        p->b = nv_malloc_array((size_t)nsub, sizeof(double));
        if (!p->w || !p->ncoef || !p->b) {
            nv_path_free(p);
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        }
        for (int i = 0; i < nsub; i++) {
            p->w[i] = NULL;
            p->ncoef[i] = 0;
        }
        p->nsub = nsub;
    }
    if (p->ncoef[s] != ncoef) {
        nv_free(p->w[s]);
        p->ncoef[s] = 0;
        if (!(p->w[s] = nv_malloc_array((size_t)(ncoef ? ncoef : 1), sizeof(double))))
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        p->ncoef[s] = ncoef;
    }
    memcpy(p->w[s], w, (size_t)ncoef * sizeof(double));
    p->b[s] = b;
    return NESVM_OK;
}

/* Data-parallel training: this rank's classes (k of them, row_class
 * indexing them) become every rank's, in the order of first appearance over
 * the ranks in rank order, which is the serial order of the concatenated
 * data; row_class is renumbered. */
static nesvm_status global_classes(const nv_comm *comm, double **classes, int *k, int *row_class, int64_t n,
                                   nesvm_error *err)
{
    double *all = NULL;
    int64_t total = 0;
    nesvm_status st = nv_comm_gather(comm, *classes, *k, &all, &total, NULL, err);
    if (st != NESVM_OK) return st;
    double *cls = nv_malloc_array((size_t)(total ? total : 1), sizeof(double));
    int *map = nv_malloc_array((size_t)(*k ? *k : 1), sizeof(int));
    if (!cls || !map) {
        nv_free(all);
        nv_free(cls);
        nv_free(map);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    }
    /* first appearance; at most NV_MAX_CLASSES per rank, so quadratic is fine */
    int g = 0;
    for (int64_t a = 0; a < total; a++) {
        int hit = 0;
        for (int c = 0; c < g && !hit; c++) hit = cls[c] == all[a];
        if (!hit) cls[g++] = all[a];
    }
    for (int c = 0; c < *k; c++)
        for (int e = 0; e < g; e++)
            if (cls[e] == (*classes)[c]) {
                map[c] = e;
                break;
            }
    for (int64_t i = 0; i < n; i++) row_class[i] = map[row_class[i]];
    nv_free(all);
    nv_free(map);
    nv_free(*classes);
    *classes = cls;
    *k = g;
    return NESVM_OK;
}

/* Does the warm-start model have this training's classes and scheme? */
static int init_fits(const nesvm_model *init, const double *classes, int k, int ovr)
{
    int same = init->nr_class == k && (k == 2 || (init->params->multiclass == NV_OVR) == ovr);
    for (int c = 0; same && c < k; c++) {
        int hit = 0;
        for (int e = 0; e < init->nr_class; e++) hit |= init->labels[e] == classes[c];
        same = hit;
    }
    return same;
}

/* nv_train_rows, and with comm (several ranks) the data-parallel training
 * of nv_train_distributed. */
static nesvm_status train_rows(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                               const nesvm_params *params, const nesvm_model *init,
                               const nesvm_checkpoint_options *ckopt, nv_path *path, const nv_comm *comm,
                               nesvm_progress_fn progress, void *user, nesvm_model **out,
                               nesvm_stats *stats, nesvm_error *err)
{
    if (!nv_comm_many(comm)) comm = NULL;
    /* Distributed, a failure on one rank must reach the others, which would
     * otherwise wait in the next collective.  Every rank leaves through
     * `done`, where one that failed alone meets the others in nv_comm_agree;
     * so every local failure is followed by an nv_comm_agree before any other
     * collective.  shared: the failure came out of an agreement (all ranks
     * know it). */
    int shared = 0;
    double t0 = nv_now();
    nesvm_params *defaults = NULL;
    if (!params) {
        nesvm_status st = nesvm_params_create(&defaults, err);
        if (st != NESVM_OK) return st;
        params = defaults;
    }
    const nv_solver *solver = nv_solver_find(params->solver);
    nesvm_model *m = NULL;
    double *classes = NULL, *w0 = NULL, *cw = NULL;
    int *row_class = NULL;
    int64_t *wrows = NULL; /* the rows of positive sample weight */
    nv_subproblem sp;
    memset(&sp, 0, sizeof sp);
    nv_kplan kp;
    memset(&kp, 0, sizeof kp);
    kp.kstored = -1;
    nv_ckctx ck;
    memset(&ck, 0, sizeof ck);
    nesvm_params *rparams = NULL;
    const int kernel = params->kernel != NV_KERNEL_LINEAR;
    nesvm_status st = NESVM_OK;
    int k = 0;
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->kernel_matrix = -1;
    }
    if (!solver) {
        st = nv_error(err, NESVM_ERR_ARG, "unknown solver '%s'", params->solver);
        goto done;
    }
    /* sample weights: rows of weight 0 are left out, as if not in the data
     * (GS-SVM without a cap: the hard-margin dual, alpha_i <= infinity x
     * weight_i, is the same problem for every positive weight) */
    const int64_t n_given = n;
    if (ds->weights) {
        wrows = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
        if (!wrows) {
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
            goto done;
        }
        int64_t kept = 0;
        for (int64_t a = 0; a < n; a++) {
            int64_t r = rows ? rows[a] : a;
            if (ds->weights[r] > 0) wrows[kept++] = r;
        }
        rows = wrows;
        n = kept;
    }
    if (comm && !solver->distributed) {
        char names[256];
        size_t len = 0;
        names[0] = '\0';
        for (int i = 0; nv_solver_at(i); i++) {
            const nv_solver *o = nv_solver_at(i);
            if (!o->distributed) continue;
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", o->name);
            if (len >= sizeof names) len = sizeof names - 1;
        }
        st = nv_error(err, NESVM_ERR_UNSUPPORTED,
                      "solver %s does not train distributed over MPI ranks (--distributed); those that do: %s",
                      solver->name, names);
        goto done;
    }
    if (comm && ckopt && (ckopt->save_path || ckopt->resume_path)) {
        st = nv_error(err, NESVM_ERR_UNSUPPORTED,
                      "checkpoints are not written or resumed by distributed trainings (--distributed)");
        goto done;
    }
    if (kernel && solver->kernels == NV_KERNELS_NONE) {
        st = nv_error(err, NESVM_ERR_UNSUPPORTED,
                      "solver %s trains linear models only (kernel %s): use --solver nesvm, ssvm or "
                      "nssvm for kernels",
                      solver->name, nv_kernel_names[params->kernel]);
        goto done;
    }
    /* rows over every rank: those kept, and those given (before the rows of weight 0 left out) */
    int64_t counts[2] = {n, n_given};
    if (comm) {
        st = nv_comm_agree(comm, st, err);
        if (st == NESVM_OK) st = nv_comm_sum_i64(comm, counts, 2, err);
        if (st != NESVM_OK) {
            shared = 1;
            goto done;
        }
    }
    const int64_t n_all = counts[0];
    if (n_all == 0) {
        st = counts[1] > 0 ? nv_error(err, NESVM_ERR_DATA,
                                      "every row's sample weight is 0, and a row of weight 0 is left out: no row to "
                                      "train on")
                           : nv_error(err, NESVM_ERR_DATA, "no training data");
        goto done;
    }
    nv_kplan_choose(&kp, solver, params, ds, n_all); /* the basis size follows every rank's rows */
    st = nv_kplan_check(&kp, params, err);
    if (st != NESVM_OK) goto done;
    if (comm && kp.kind == NV_KPLAN_EXPANSION) {
        st = nv_error(err, NESVM_ERR_UNSUPPORTED,
                      "NESVM's full kernel (an expansion over every training row) is not trained distributed "
                      "(--distributed): give a reduced basis (--basis M), or use --solver gs, ssvm or nssvm");
        goto done;
    }
    /* the classes */
    row_class = nv_malloc_array((size_t)(n ? n : 1), sizeof(int));
    if (!row_class) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (st == NESVM_OK) st = nv_label_classes(ds->labels, rows, n, &classes, &k, row_class, err);
    if (comm) {
        /* a rank's failure (memory, too many labels) reaches every rank */
        st = nv_comm_agree(comm, st, err);
        shared = st != NESVM_OK;
        if (st == NESVM_OK) st = global_classes(comm, &classes, &k, row_class, n, err);
    }
    if (st != NESVM_OK) goto done;
    /* many distinct labels, most not integers: regression targets, not classes */
    if (k >= 10) {
        int frac = 0, ex = -1;
        for (int c = 0; c < k; c++)
            if (classes[c] != floor(classes[c])) {
                frac++;
                if (ex < 0) ex = c;
            }
        if (2 * frac > k) {
            char lb[32];
            nv_format_double(classes[ex], lb);
            st = nv_error(err, NESVM_ERR_DATA,
                          "the labels look like regression targets: %d distinct values, %d of them not integers "
                          "(%s, ...); nesvm trains classifiers, whose labels name classes",
                          k, frac, lb);
            goto done;
        }
    }
    if (k < 2) {
        char lb[32];
        nv_format_double(classes[0], lb);
        st = nv_error(err, NESVM_ERR_DATA,
                      "only one class (label %s) in the training data: a classifier needs at least two",
                      lb);
        goto done;
    }
    const int ovr = params->multiclass == NV_OVR && k > 2;
    /* 64-bit: k (k - 1) / 2 overflows int from k = 46,342 */
    const int64_t nsub64 = k == 2 ? 1 : (ovr ? k : (int64_t)k * (k - 1) / 2);
    st = check_sizes(ds, n_all, k, nsub64, ovr, kernel, err);
    if (st != NESVM_OK) goto done;
    const int nsub = (int)nsub64;
    if (init && (kernel || init->basis)) {
        st = nv_error(err, NESVM_ERR_UNSUPPORTED, "warm starts are for linear models (kernel %s)",
                      nv_kernel_names[kernel ? params->kernel : init->params->kernel]);
        goto done;
    }

    /* the kernel, once for every sub-problem */
    st = nv_kplan_build(&kp, params, ds, rows, n, k, ovr, row_class, comm, err);
    if (st != NESVM_OK) goto done;
    if (init) {
        if (!init_fits(init, classes, k, ovr)) {
            st = nv_error(err, NESVM_ERR_ARG,
                          "the warm-start model does not fit this training: it has %d classes (%s), "
                          "the data %d (%s), and the class labels must be the same",
                          init->nr_class, init->params->multiclass == NV_OVR ? "ovr" : "ovo", k,
                          ovr ? "ovr" : "ovo");
            goto done;
        }
        w0 = nv_malloc_array((size_t)(ds->d ? ds->d : 1), sizeof(double));
        if (!w0) {
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
            goto done;
        }
    }

    /* the model shell, its parameters resolved */
    st = nv_model_alloc(k, nsub, ds->d, nv_kplan_ncoef(&kp, ds, n), &m, err);
    if (st != NESVM_OK) goto done;
    memcpy(m->labels, classes, (size_t)k * sizeof(double));
    nesvm_params_destroy(m->params);
    m->params = NULL;
    st = nesvm_params_copy(params, &m->params, err);
    if (st != NESVM_OK) goto done;
    nv_params_resolve(m->params);
    if (kernel) m->params->gamma = kp.kk.gamma; /* resolved */
    m->params->basis = kp.nbasis;
    st = nv_kplan_basis(&kp, ds, rows, m, err);
    if (st != NESVM_OK) goto done;
    st = nv_solver_problem(solver, params, m->problem, sizeof m->problem, err);
    if (st != NESVM_OK) goto done;
    m->params->multiclass = ovr ? NV_OVR : NV_OVO;

    /* the sub-problems' buffers and the classes' costs */
    sp.rows = nv_malloc_array((size_t)n, sizeof(int64_t));
    sp.y = nv_malloc_array((size_t)n, sizeof(double));
    sp.cost = nv_malloc_array((size_t)n, sizeof(double));
    sp.cap = kp.capv;
    cw = nv_malloc_array((size_t)k, sizeof(double));
    if (!sp.rows || !sp.y || !sp.cost || !cw) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    st = class_costs(params, classes, k, cw, err);
    if (st != NESVM_OK) goto done;
    if (stats) {
        stats->n_submodels = nsub;
        stats->exit_reason = NESVM_EXIT_CONVERGED;
    }
    if (ckopt && (ckopt->save_path || ckopt->resume_path)) {
        st = nv_ckctx_begin(&ck, ckopt, ds, rows, n, m, solver, err);
        if (st != NESVM_OK) goto done;
    }

    if (comm && (st = nv_comm_agree(comm, st, err)) != NESVM_OK) {
        shared = 1;
        goto done;
    }
    nv_pairs pairs;
    pairs_start(&pairs, k, ovr);
    int i, j;
    for (int s = 0; st == NESVM_OK && pairs_next(&pairs, &i, &j); s++) {
        st = sub_build(&sp, i, j, &kp, params, classes, cw, row_class, rows, n, ds->weights, comm, err);
        if (st != NESVM_OK) {
            shared = comm != NULL;
            break;
        }
        nv_submodel *sm = &m->sub[s];
        sm->pos = i;
        sm->neg = j;
        nv_binary_problem pb = {kp.kind == NV_KPLAN_FEATURES ? kp.kf.X : ds, sp.rows, sp.n, sp.y, sp.cost, NULL, 0.0, comm, NV_TARGET_SIGN};
        if (init && warm_point(init, classes, i, j, ds->d, w0, &pb.b0)) pb.w0 = w0;
        nv_binary_result res;
        memset(&res, 0, sizeof res);
        int trained = 0; /* 0: restored from a checkpoint */
        res.w = nv_kplan_positions(&kp) ? kp.v : sm->w;
        nv_progress_sink sink = {progress, user, s, nsub, NULL, NULL, NULL};
        const nesvm_params *sprm = m->params; /* this sub-model's parameters */
        int64_t offset = 0;                   /* iterations done before a resume */
        const nv_snapshot *rs = NULL;
        if (ck.opt) {
            sink.ckpt = nv_ckctx_hook;
            sink.ckpt_ctx = &ck;
            ck.done = s;
            ck.iter_offset = 0;
            if (ck.resumed && s < ck.file.done) { /* finished before the interruption */
                nv_ckctx_restore(&ck, s, sm, &res);
                goto finished;
            }
            if (ck.resumed && s == ck.file.cur) {
                rs = &ck.file.snap;
                const int64_t want = nv_kplan_sub_ncoef(&kp, ds, sp.n);
                if (rs->nw != want) {
                    st = nv_error(err, NESVM_ERR_ARG,
                                  "checkpoint '%s': sub-model %d holds %lld coefficients where this "
                                  "training has %lld",
                                  ckopt->resume_path, s, (long long)rs->nw, (long long)want);
                    break;
                }
                sink.resume = rs;
                pb.w0 = rs->w;
                pb.b0 = rs->b;
                if (kp.kind != NV_KPLAN_CACHE) { /* GS-SVM counts its steps itself */
                    offset = rs->iteration;
                    ck.iter_offset = offset;
                    st = nesvm_params_copy(m->params, &rparams, err);
                    if (st != NESVM_OK) break;
                    rparams->max_iter = m->params->max_iter > offset ? m->params->max_iter - offset : 1;
                    sprm = rparams;
                }
            }
        }
        /* time_limit bounds the whole training: each sub-problem gets what is
         * left of it, and those that find none left keep a zero model (exit
         * time-limit, which nesvm_model_certified reports) */
        if (params->time_limit > 0 && st == NESVM_OK) {
            double left = params->time_limit - (nv_now() - t0);
            if (comm) { /* the ranks decide together: the least time left */
                left = -left;
                st = nv_comm_max(comm, &left, 1, err);
                left = -left;
                if (st != NESVM_OK) break;
            }
            if (left <= 0) {
                res.exit_reason = NESVM_EXIT_TIME_LIMIT;
                res.primal = res.lower_bound = res.gap = NAN;
                nesvm_params_destroy(rparams); /* a resume's parameters */
                rparams = NULL;
                goto finished;
            }
            if (!rparams) st = nesvm_params_copy(sprm, &rparams, err);
            if (st != NESVM_OK) break;
            rparams->time_limit = left;
            sprm = rparams;
        }
        const int64_t ncoef = nv_kplan_sub_ncoef(&kp, ds, sp.n);
        if (!rs && path && path->nsub == nsub && kp.kind != NV_KPLAN_CACHE && path->ncoef[s] == ncoef) {
            pb.w0 = path->w[s];
            pb.b0 = path->b[s];
        }
        st = nv_kplan_train(&kp, solver, ds, rows, n, &sp, &pb, sprm, &sink, &res, sm, err);
        if (st == NESVM_OK && path && kp.kind != NV_KPLAN_CACHE) st = path_keep(path, nsub, s, res.w, ncoef, res.b, err);
        if (ck.st != NESVM_OK) /* a checkpoint could not be written: that stopped it */
            st = nv_error(err, ck.st, "%s", ck.msg);
        nesvm_params_destroy(rparams);
        rparams = NULL;
        res.iterations += offset;
        trained = 1;
    finished:
        sm->b = res.b;
        sm->exit_reason = res.exit_reason;
        sm->iterations = res.iterations;
        sm->primal = res.primal;
        sm->gap = res.gap;
        /* after sm is complete: a checkpoint written now records this sub-model */
        if (trained && st == NESVM_OK && ck.opt) nv_ckctx_finished(&ck, s, &res);
        stats_add(stats, &res);
    }
    if ((kp.kind == NV_KPLAN_EXPANSION || (kp.kind == NV_KPLAN_CACHE && kp.kernel)) && st == NESVM_OK)
        st = comm ? compact_expansion_dist(m, ds, rows, n, comm, err) : compact_expansion(m, ds, rows, n, err);
    if (st == NESVM_OK) st = check_finite(m, params, err);
    if (stats) nv_kplan_stats(&kp, stats);
done:
    if (comm && st != NESVM_OK && !shared) st = nv_comm_agree(comm, st, err);
    if (stats) stats->seconds = nv_now() - t0;
    nv_free(wrows);
    nv_ckctx_end(&ck);
    nesvm_params_destroy(rparams);
    nv_free(classes);
    nv_free(row_class);
    nv_free(sp.rows);
    nv_free(sp.y);
    nv_free(sp.cost);
    nv_free(cw);
    nv_free(w0);
    nv_kplan_free(&kp);
    nesvm_params_destroy(defaults);
    if (st != NESVM_OK) {
        nesvm_model_destroy(m);
        m = NULL;
    }
    *out = m;
    return st;
}

nesvm_status nv_train_rows(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                           const nesvm_params *params, const nesvm_model *init,
                           const nesvm_checkpoint_options *ckopt, nv_path *path, nesvm_progress_fn progress,
                           void *user, nesvm_model **out, nesvm_stats *stats, nesvm_error *err)
{
    return train_rows(ds, rows, n, params, init, ckopt, path, NULL, progress, user, out, stats, err);
}

nesvm_status nv_train_distributed(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                  const nesvm_params *params, const nesvm_model *init, const nv_comm *comm,
                                  nesvm_progress_fn progress, void *user, nesvm_model **out, nesvm_stats *stats,
                                  nesvm_error *err)
{
    return train_rows(ds, rows, n, params, init, NULL, NULL, comm, progress, user, out, stats, err);
}
