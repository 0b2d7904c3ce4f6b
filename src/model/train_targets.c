/*
 * train_targets.c - the training driver's targets stage (train_targets.h):
 * the classes and their rows, the refusals that follow from them, the
 * sub-problems in model order, and each sub-problem's rows, targets and
 * costs.
 *
 * Class order is the order of first appearance in the training data (as in
 * LIBSVM); for two classes the first label seen is the positive class.
 * One-vs-one trains k(k-1)/2 machines, class i (+1) against class j (-1) for
 * i < j; one-vs-rest trains k machines, class i (+1) against all others.
 */
#include "train_targets.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

nesvm_status nv_label_classes(const double *labels, const int64_t *rows, int64_t n, double **classes,
                              int *nr_class, int *row_class, nesvm_error *err)
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

/* A linear solver keeps several dense vectors of d weights: refuse a
 * feature range the data barely use. */
static nesvm_status check_dense(const nesvm_dataset *ds, int kernel, nesvm_error *err)
{
    const double vec = 8.0 * (double)ds->d;
    if (!kernel && nv_dense_too_large(vec, ds->nnz, ds->n))
        return nv_error(err, NESVM_ERR_DATA,
                        "the largest feature index is %d but the data hold only %lld values: "
                        "every dense weight vector over %d features needs %.0f MB and a solver "
                        "keeps several; renumber the features to the ones used",
                        ds->d, (long long)ds->nnz, ds->d, vec / 1048576.0);
    return NESVM_OK;
}

/* Refuse, before any work, trainings whose size does not follow the data:
 * classes that look like regression targets, one-vs-one sub-models beyond
 * memory, and dense weights over a feature range the data barely use. */
static nesvm_status check_sizes(const nesvm_dataset *ds, int64_t n, int k, int64_t nsub, int ovr, int joint,
                                int kernel, nesvm_error *err)
{
    if (k > 1000 && (int64_t)k * 2 > n)
        return nv_error(err, NESVM_ERR_DATA,
                        "%d classes in %lld rows: most classes have a single row, so no classifier "
                        "can learn them (are the labels regression targets?)",
                        k, (long long)n);
    const double phys = nv_physical_memory();
    const double mb = 1048576.0;
    nesvm_status st = check_dense(ds, kernel, err);
    if (st != NESVM_OK) return st;
    if (nsub > INT32_MAX)
        return nv_error(err, NESVM_ERR_DATA,
                        "%d classes need %lld one-vs-one models: too many; use "
                        "--multiclass ovr",
                        k, (long long)nsub);
    const double coef = kernel ? (double)n : (double)ds->d;
    const double need = (double)nsub * (coef + 1) * 8.0;
    if (phys > 0 && need > phys)
        return nv_error(err, NESVM_ERR_DATA,
                        "%d classes need %lld %s models of %.0f coefficients each: %.1f GB, more "
                        "than this machine's %.1f GB%s",
                        k, (long long)nsub, joint ? "joint" : ovr ? "one-vs-rest" : "one-vs-one", coef,
                        need / (1024 * mb), phys / (1024 * mb), ovr ? "" : "; --multiclass ovr needs k models");
    return NESVM_OK;
}

/* Classes that are not classes: many distinct labels, most not integers
 * (regression targets), or only one. */
static nesvm_status check_classes(const double *classes, int k, nesvm_error *err)
{
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
            return nv_error(
                err, NESVM_ERR_DATA,
                "the labels look like regression targets: %d distinct values, %d of them not integers "
                "(%s, ...); a classifier's labels name classes: for a regression use --svm-type svr (or ls-svr)",
                k, frac, lb);
        }
    }
    if (k < 2) {
        char lb[32];
        nv_format_double(classes[0], lb);
        return nv_error(err, NESVM_ERR_DATA,
                        "only one class (label %s) in the training data: a classifier needs at least two",
                        lb);
    }
    return NESVM_OK;
}

/* Classification's targets (nv_targets_find): the classes, their rows and
 * pairs. */
static nesvm_status find_classes(nv_targets *t, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                 int64_t n_all, const nesvm_params *params, int kernel, const nv_comm *comm,
                                 int *shared, nesvm_error *err)
{
    nesvm_status st = NESVM_OK;
    t->row_class = nv_malloc_array((size_t)(n ? n : 1), sizeof(int));
    if (!t->row_class) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (st == NESVM_OK) st = nv_label_classes(ds->labels, rows, n, &t->classes, &t->k, t->row_class, err);
    if (comm) {
        /* a rank's failure (memory, too many labels) reaches every rank */
        st = nv_comm_agree(comm, st, err);
        *shared = st != NESVM_OK;
        if (st == NESVM_OK) st = global_classes(comm, &t->classes, &t->k, t->row_class, n, err);
    }
    if (st == NESVM_OK) st = check_classes(t->classes, t->k, err);
    if (st != NESVM_OK) return st;
    const int k = t->k;
    t->joint = nv_params_joint(params);
    t->ovr = nv_params_argmax(params, k);
    /* 64-bit: k (k - 1) / 2 overflows int from k = 46,342 */
    const int64_t nsub = t->ovr ? k : k == 2 ? 1 : (int64_t)k * (k - 1) / 2;
    st = check_sizes(ds, n_all, k, nsub, t->ovr, t->joint, kernel, err);
    if (st == NESVM_OK) t->nsub = (int)nsub;
    return st;
}

nesvm_status nv_targets_find(nv_targets *t, nesvm_task task, const nesvm_dataset *ds, const int64_t *rows,
                             int64_t n, int64_t n_all, const nesvm_params *params, int kernel,
                             const nv_comm *comm, int *shared, nesvm_error *err)
{
    memset(t, 0, sizeof *t);
    t->task = task;
    if (task == NESVM_TASK_CLASSIFICATION)
        return find_classes(t, ds, rows, n, n_all, params, kernel, comm, shared, err);
    /* regression, novelty: one sub-problem on every row, no classes */
    if (params->probability)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "probability estimates (-b 1) are for classifiers: svm_type %s learns a %s",
                        nv_svm_type(params->svm_type)->word, nesvm_task_str(task));
    t->nsub = 1;
    return check_dense(ds, kernel, err);
}

void nv_targets_free(nv_targets *t)
{
    nv_free(t->classes);
    nv_free(t->row_class);
    memset(t, 0, sizeof *t);
}

void nv_pairs_start(nv_pairs *p, const nv_targets *t)
{
    const int classes = t->task == NESVM_TASK_CLASSIFICATION;
    p->k = t->k;
    p->ovr = t->ovr;
    p->i = classes ? 0 : -1;
    p->j = classes && !t->ovr ? 1 : -1;
    p->done = 0;
}

int nv_pairs_next(nv_pairs *p, int *i, int *j)
{
    if (p->done) return 0;
    *i = p->i;
    *j = p->j;
    /* model order (train_targets.h): classes i < j, or (i, -1) one-vs-rest,
     * or (-1, -1) for the other tasks */
    NV_ASSERT(p->k == 0 ? *i == -1 && *j == -1
                        : *i >= 0 && *i < p->k && (p->ovr ? *j == -1 : *j > *i && *j < p->k));
    if (p->k <= 2 && !p->ovr) { /* two classes, or the other tasks' one sub-problem */
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

nesvm_status nv_targets_costs(const nv_targets *t, const nesvm_params *params, double *cw, nesvm_error *err)
{
    if (t->task != NESVM_TASK_CLASSIFICATION) {
        double label, weight;
        if (nesvm_params_class_weight(params, 0, &label, &weight)) {
            char lb[32];
            nv_format_double(label, lb);
            return nv_error(err, NESVM_ERR_ARG,
                            "class weights (-w%s) are a classifier's: a %s has no classes (sample weights: -W FILE)",
                            lb, nesvm_task_str(t->task));
        }
        /* the one-class SVM has no C: its costs are the sample weights (LIBSVM's C = 1);
         * nu-SVR's C is -c (lambda does not apply) */
        const int lambda = params->lambda > 0 && !nv_params_nu_type(params);
        cw[0] = lambda || t->task == NESVM_TASK_NOVELTY ? 1.0 : params->c;
        if (lambda || t->task == NESVM_TASK_NOVELTY || (cw[0] >= NV_COST_MIN && cw[0] <= NV_COST_MAX))
            return NESVM_OK;
        char cb[32];
        nv_format_double(params->c, cb);
        return nv_error(err, NESVM_ERR_ARG,
                        "the cost C = %s (-c) is outside [1e-100, 1e15], where the objective underflows "
                        "or 1/2 ||w||^2 is lost in rounding",
                        cb);
    }
    const double *classes = t->classes;
    if (params->svm_type == NV_SVM_NUSVC) { /* no C: the box is the sample weights (LIBSVM's -s 1: C = 1) */
        double label, weight;
        if (nesvm_params_class_weight(params, 0, &label, &weight)) {
            char lb[32];
            nv_format_double(label, lb);
            return nv_error(err, NESVM_ERR_ARG,
                            "class weights (-w%s) are not nu-SVC's: its coefficients' box is the sample weights "
                            "and its sums are nu's (LIBSVM's -s 1 ignores -w); give sample weights (-W FILE) or "
                            "use the C-SVM (-s 0)",
                            lb);
        }
        for (int c = 0; c < t->k; c++) cw[c] = 1.0;
        return NESVM_OK;
    }
    for (int c = 0; c < t->k; c++) {
        cw[c] = (params->lambda > 0 ? 1.0 : params->c) * nv_params_class_weight(params, classes[c]);
        if (params->lambda > 0) continue; /* checked per binary problem (nv_sub_build) */
        if (!(cw[c] >= NV_COST_MIN && cw[c] <= NV_COST_MAX)) {
            char lb[32], cb[32], wb[32];
            nv_format_double(classes[c], lb);
            nv_format_double(params->c, cb);
            nv_format_double(nv_params_class_weight(params, classes[c]), wb);
            return nv_error(
                err, NESVM_ERR_ARG,
                "the cost of class %s, C x weight = %s x %s (-c and -w%s), is outside "
                "[1e-100, 1e15], where the objective underflows or 1/2 ||w||^2 is lost in rounding",
                lb, cb, wb, lb);
        }
    }
    return NESVM_OK;
}

/* With lambda, the costs of a sub-problem of cnt rows here (cnt_all over
 * every rank) become C = 1/(lambda cnt_all) x weight, refused outside
 * [NV_COST_MIN, NV_COST_MAX]. */
static nesvm_status lambda_costs(double *cost, int64_t cnt, int64_t cnt_all, double lambda, nesvm_error *err)
{
    int bad = 0;
    for (int64_t a = 0; a < cnt; a++) {
        cost[a] /= lambda * (double)cnt_all;
        bad |= !(cost[a] >= NV_COST_MIN && cost[a] <= NV_COST_MAX);
    }
    if (!bad) return NESVM_OK;
    char lb[32];
    nv_format_double(lambda, lb);
    return nv_error(err, NESVM_ERR_ARG,
                    "lambda %s gives costs 1/(lambda n) x weight outside [1e-100, 1e15]"
                    " for a binary problem of %lld rows (--lambda, -w)",
                    lb, (long long)cnt_all);
}

nesvm_status nv_sub_build(nv_subproblem *sp, int i, int j, const nv_targets *t, int positions,
                          const nesvm_params *params, const double *cw, const nesvm_dataset *ds,
                          const int64_t *rows, int64_t n, const nv_comm *comm, nesvm_error *err)
{
    const double *wts = ds->weights;
    nesvm_status st = NESVM_OK;
    int64_t cnt = 0;
    sp->i = i;
    sp->j = j;
    const int classes = t->task == NESVM_TASK_CLASSIFICATION;
    for (int64_t r = 0; r < n; r++) {
        const int c = classes ? t->row_class[r] : 0; /* the other tasks: every row, cw[0] */
        NV_ASSERT(c >= 0 && c < (classes ? t->k : 1)); /* indexes cw and t->classes */
        if (j >= 0 && c != i && c != j) continue;
        const int64_t row = rows ? rows[r] : r;
        /* kernel paths index the training rows by position */
        sp->rows[cnt] = positions ? r : row;
        /* a sample weight multiplies its row's cost (and cap) */
        const double sw = wts ? wts[row] : 1.0;
        if (sp->cap)
            sp->cap[cnt] =
                params->cap > 0
                    ? params->cap * (classes ? nv_params_class_weight(params, t->classes[c]) : 1.0) * sw
                    : INFINITY;
        sp->y[cnt] = classes                            ? (c == i ? 1.0 : -1.0)
                     : t->task == NESVM_TASK_REGRESSION ? ds->labels[row]
                                                        : 1.0;
        sp->cost[cnt] = cw[c] * sw;
        if (wts && params->lambda <= 0 && !(sp->cost[cnt] >= NV_COST_MIN && sp->cost[cnt] <= NV_COST_MAX)) {
            st = nv_error(
                err, NESVM_ERR_ARG,
                "row %lld (counted from 1): its cost C x class weight x sample weight = %g x %g is "
                "outside [1e-100, 1e15], where the objective underflows or 1/2 ||w||^2 is lost in rounding",
                (long long)row + 1, cw[c], sw);
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
    /* (the one-class SVM and nu-SVC have no C; nu-SVR's is -c) */
    if (params->lambda > 0 && t->task != NESVM_TASK_NOVELTY && !nv_params_nu_type(params)) {
        st = lambda_costs(sp->cost, cnt, cnt_all, params->lambda, err);
        if (comm) st = nv_comm_agree(comm, st, err);
    }
    return st;
}

nesvm_status nv_targets_nu_check(const nv_targets *t, const nesvm_params *params, const nesvm_dataset *ds,
                                 const int64_t *rows, int64_t n, nesvm_error *err)
{
    if (params->svm_type != NV_SVM_NUSVC || t->task != NESVM_TASK_CLASSIFICATION) return NESVM_OK;
    double *wc = nv_calloc((size_t)t->k, sizeof(double)), all = 0;
    if (!wc) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    for (int64_t r = 0; r < n; r++) {
        const int64_t row = rows ? rows[r] : r;
        const double sw = ds->weights ? ds->weights[row] : 1.0;
        wc[t->row_class[r]] += sw;
        all += sw;
    }
    nv_pairs pairs;
    nv_pairs_start(&pairs, t);
    int i, j;
    nesvm_status st = NESVM_OK;
    while (st == NESVM_OK && nv_pairs_next(&pairs, &i, &j)) {
        /* each sign's coefficients, each in [0, s_i], sum to nu W / 2 (LIBSVM's
         * test: nu (n_i + n_j) / 2 > min(n_i, n_j) is infeasible) */
        const double wi = wc[i], wj = j >= 0 ? wc[j] : all - wc[i], w = wi + wj, lo = wi < wj ? wi : wj;
        if (!(params->svm_nu * w / 2 > lo)) continue;
        char nb[32], li[32], lj[32];
        nv_format_double(params->svm_nu, nb);
        nv_format_double(t->classes[i], li);
        if (j >= 0) nv_format_double(t->classes[j], lj);
        else snprintf(lj, sizeof lj, "the rest");
        st = nv_error(err, NESVM_ERR_ARG,
                      "specified nu is infeasible (LIBSVM's words): nu-SVC of classes %s and %s with nu %s needs "
                      "each class's coefficients, each at most its row's weight, to sum to nu W / 2 = %.6g (W = "
                      "%.6g, both classes' rows or weights), more than class %s's %.6g; the largest feasible nu "
                      "for them is %.6g (-n)",
                      li, lj, nb, params->svm_nu * w / 2, w, wi < wj ? li : lj, lo, floor(2 * lo / w * 1e6) / 1e6);
    }
    nv_free(wc);
    return st;
}

int nv_targets_nu_feasible(const nv_targets *t, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                           double nu)
{
    double *wc = nv_calloc((size_t)(t->k ? t->k : 1), sizeof(double)), all = 0;
    int ok = 1;
    if (!wc) return -1;
    for (int64_t r = 0; r < n; r++) {
        const double sw = ds->weights ? ds->weights[rows ? rows[r] : r] : 1.0;
        wc[t->row_class[r]] += sw;
        all += sw;
    }
    nv_pairs pairs;
    nv_pairs_start(&pairs, t);
    int i, j;
    while (nv_pairs_next(&pairs, &i, &j)) {
        const double wi = wc[i], wj = j >= 0 ? wc[j] : all - wc[i], w = wi + wj, lo = wi < wj ? wi : wj;
        if (nu * w / 2 > lo) ok = 0; /* nv_targets_nu_check's test */
    }
    nv_free(wc);
    return ok;
}
