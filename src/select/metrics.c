/*
 * metrics.c - accuracy, and for a regression the mean squared error and
 * the squared correlation coefficient, as LIBSVM's svm-predict and
 * svm-train -v report them (their README's wording: "Mean squared error",
 * "Squared correlation coefficient"): over n rows with predictions p_i and
 * true values t_i,
 *
 *   accuracy = #{i : p_i = t_i} / n
 *   MSE      = (1/n) sum (p_i - t_i)^2
 *   SCC      = (n sum p_i t_i - sum p_i sum t_i)^2
 *              / ((n sum p_i^2 - (sum p_i)^2) (n sum t_i^2 - (sum t_i)^2))
 *
 * the square of Pearson's correlation of p and t, from the running sums
 * (so that folds and ranks add theirs).  SCC is NaN where the predictions
 * or the truths are constant (a zero factor in the denominator), where
 * LIBSVM's formula divides by zero.
 *
 * A one-class model is also judged by the ROC AUC of its decision values
 * against labels of two values (nesvm_roc_auc; nesvm predict and cv): not a
 * sum, so cross-validation keeps every row's decision value (cv.c).
 */
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void nv_metric_add(nv_metric_sums *s, double truth, double pred)
{
    const double e = pred - truth;
    s->rows += 1;
    s->correct += pred == truth;
    s->se += e * e;
    s->p += pred;
    s->t += truth;
    s->pp += pred * pred;
    s->tt += truth * truth;
    s->pt += pred * truth;
}

void nv_metric_merge(nv_metric_sums *a, const nv_metric_sums *b)
{
    a->rows += b->rows;
    a->correct += b->correct;
    a->se += b->se;
    a->p += b->p;
    a->t += b->t;
    a->pp += b->pp;
    a->tt += b->tt;
    a->pt += b->pt;
}

void nv_metrics_finish(const nv_metric_sums *s, nesvm_task task, nesvm_metrics *out)
{
    memset(out, 0, sizeof *out);
    out->task = task;
    out->rows = (int64_t)s->rows;
    out->correct = (int64_t)s->correct;
    out->accuracy = s->rows > 0 ? s->correct / s->rows : NAN;
    out->mse = out->scc = out->auc = NAN;
    if (task != NESVM_TASK_REGRESSION || !(s->rows > 0)) return;
    const double n = s->rows;
    out->mse = s->se / n;
    const double cov = n * s->pt - s->p * s->t;
    const double vp = n * s->pp - s->p * s->p, vt = n * s->tt - s->t * s->t;
    out->scc = vp > 0 && vt > 0 ? cov * cov / (vp * vt) : NAN;
}

nesvm_status nesvm_metrics_compute(nesvm_task task, const double *truth, const double *predicted, int64_t n,
                                   nesvm_metrics *out, nesvm_error *err)
{
    if (!out || n < 0 || (n > 0 && (!truth || !predicted)))
        return nv_error(err, NESVM_ERR_ARG, "NULL argument or negative n to nesvm_metrics_compute");
    nv_metric_sums s;
    memset(&s, 0, sizeof s);
    for (int64_t i = 0; i < n; i++) nv_metric_add(&s, truth[i], predicted[i]);
    nv_metrics_finish(&s, task, out);
    return NESVM_OK;
}

typedef struct scored {
    double score;
    int pos;
} scored;

static int cmp_scored(const void *a, const void *b)
{
    const double x = ((const scored *)a)->score, y = ((const scored *)b)->score;
    return x < y ? -1 : x > y;
}

nesvm_status nesvm_roc_auc(const double *labels, const double *scores, int64_t n, double *auc, double *positive,
                           nesvm_error *err)
{
    if (!auc || n < 0 || (n > 0 && (!labels || !scores)))
        return nv_error(err, NESVM_ERR_ARG, "NULL argument or negative n to nesvm_roc_auc");
    *auc = NAN;
    double lo = n ? labels[0] : 0, hi = lo;
    for (int64_t i = 0; i < n; i++) {
        if (labels[i] == lo || labels[i] == hi) continue;
        if (lo != hi) return NESVM_OK; /* a third label */
        if (labels[i] < lo) lo = labels[i];
        else hi = labels[i];
    }
    if (positive) *positive = hi;
    if (lo == hi) return NESVM_OK;
    scored *v = nv_malloc_array((size_t)n, sizeof *v);
    if (!v) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    for (int64_t i = 0; i < n; i++) v[i] = (scored){scores[i], labels[i] == hi};
    qsort(v, (size_t)n, sizeof *v, cmp_scored);
    double npos = 0, nneg = 0, wins = 0;
    for (int64_t i = 0; i < n;) { /* a run of tied scores at once */
        int64_t j = i;
        double p = 0, q = 0;
        for (; j < n && v[j].score == v[i].score; j++) p += v[j].pos, q += !v[j].pos;
        wins += p * nneg + 0.5 * p * q;
        npos += p;
        nneg += q;
        i = j;
    }
    nv_free(v);
    *auc = wins / (npos * nneg);
    return NESVM_OK;
}
