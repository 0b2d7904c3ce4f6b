/*
 * metrics.h - the figures a prediction is judged by (not installed): the
 * sums that make them, which add up over rows, folds and ranks, and the
 * figures of a task from them (nesvm_metrics, nesvm.h).
 */
#ifndef NESVM_METRICS_H
#define NESVM_METRICS_H

#include "../core/internal.h"

/* Sums over rows of a prediction p against its truth t: rows, rows with
 * p == t, (p - t)^2, p, t, p^2, t^2, p t.  Doubles only (no padding), so
 * that an array of them sums over the ranks as doubles. */
typedef struct nv_metric_sums {
    double rows, correct, se, p, t, pp, tt, pt;
} nv_metric_sums;

#define NV_METRIC_SUMS_LEN ((int)(sizeof(nv_metric_sums) / sizeof(double)))

/* One row's prediction into s. */
void nv_metric_add(nv_metric_sums *s, double truth, double pred);
/* b's sums into a. */
void nv_metric_merge(nv_metric_sums *a, const nv_metric_sums *b);
/* The figures of `task` from the sums. */
void nv_metrics_finish(const nv_metric_sums *s, nesvm_task task, nesvm_metrics *out);

#endif
