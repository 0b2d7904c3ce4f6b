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
 */
#include "metrics.h"

#include <math.h>
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
    out->mse = out->scc = NAN;
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
