/*
 * train_targets.h - the training driver's targets (not installed): what the
 * binary sub-problems learn, found once per training (the classes, their
 * rows and their one-vs-one or one-vs-rest pairs), and each sub-problem's
 * rows, targets and costs.  Apart from train.c so that unit tests call it
 * directly.
 */
#ifndef NESVM_TRAIN_TARGETS_H
#define NESVM_TRAIN_TARGETS_H

#include "kplan.h"

typedef struct nv_targets {
    nesvm_task task; /* what the sub-problems learn (the params' svm_type's) */
    /* classification: the k classes, in first-appearance order over every
     * rank (owned); else NULL */
    double *classes;
    int k; /* classification: 2 or more; else 0 */
    /* classification: each training row's class index (n entries; owned);
     * else NULL */
    int *row_class;
    /* the sub-models' layout (i, -1), one per class: one-vs-rest (more than
     * two classes and multiclass ovr) or a joint problem (any k) */
    int ovr;
    int joint; /* a joint problem (multiclass cs, multinomial): one training of k sub-models */
    int nsub;  /* sub-models: 1 (two classes, and the other tasks), k (ovr, joint) or k (k - 1) / 2 */
} nv_targets;

/* The targets of a training for `task` on rows (NULL: all; n of them here,
 * n_all over every rank):
 *   classification  the classes and each row's class (distributed: agreed
 *                   over the ranks), refusing one class, labels that look
 *                   like regression targets, and too many sub-models for
 *                   memory; its sub-problems are the classes' pairs;
 *   regression      no classes: one sub-problem whose targets are the
 *                   labels, real numbers;
 *   novelty         no classes: one sub-problem on every row, the labels
 *                   ignored;
 * every task refusing dense weights over a feature range the data barely
 * use, and the tasks other than classification probability estimates.
 * *shared is set when a failure came out of an agreement (every rank knows
 * it; see train.c).  t is zeroed first; nv_targets_free. */
nesvm_status nv_targets_find(nv_targets *t, nesvm_task task, const nesvm_dataset *ds, const int64_t *rows,
                             int64_t n, int64_t n_all, const nesvm_params *params, int kernel,
                             const nv_comm *comm, int *shared, nesvm_error *err);
void nv_targets_free(nv_targets *t);

/* The sub-problems in model order: two classes (0, 1); one-vs-one (i, j)
 * for i < j; one-vs-rest and a joint problem's sub-models (i, -1); the
 * other tasks' one sub-problem (-1, -1).  nv_pairs_next gives the next one's classes, 0 past the last. */
typedef struct nv_pairs {
    int k, ovr, i, j, done;
} nv_pairs;
void nv_pairs_start(nv_pairs *p, const nv_targets *t);
int nv_pairs_next(nv_pairs *p, int *i, int *j);

/* A cost C_i is trained in [NV_COST_MIN, NV_COST_MAX]: below, the objective
 * underflows; above 1e15, 1/2 ||w||^2 falls below the rounding of C times
 * the loss (double precision's 2^-52 = 2.2e-16 relative): the problem is
 * numerically the hard-margin one, no solver reaches a certificate (at
 * C = 1e100 the model came out w = 0), and nesvm refuses it up front. */
#define NV_COST_MIN 1e-100
#define NV_COST_MAX 1e15

/* Each class's cost C x weight (1 x weight with lambda: C = 1/(lambda n) is
 * set per sub-problem, nv_sub_build) into cw (k entries); the other tasks'
 * one cost C (class weights are for classes) into cw[0].  Refused outside
 * [NV_COST_MIN, NV_COST_MAX]. */
nesvm_status nv_targets_costs(const nv_targets *t, const nesvm_params *params, double *cw, nesvm_error *err);

/* Sub-problem (i, j) into sp (whose buffers hold n rows): its rows
 * (positions among the training rows when `positions`, else data rows), its
 * targets y (classification: +1 for class i, -1 for class j or the rest;
 * regression: the row's label; novelty: +1, a target the loss ignores), its
 * costs (cw x the row's sample weight; with lambda, divided by lambda times
 * the sub-problem's rows over every rank) and, when sp->cap is set, GS-SVM's
 * caps.  Refuses a cost outside [NV_COST_MIN, NV_COST_MAX]; distributed, a
 * rank's refusal is every rank's (the failure comes out of an agreement). */
nesvm_status nv_sub_build(nv_subproblem *sp, int i, int j, const nv_targets *t, int positions,
                          const nesvm_params *params, const double *cw, const nesvm_dataset *ds,
                          const int64_t *rows, int64_t n, const nv_comm *comm, nesvm_error *err);

/* nu-SVC (svm_type nu-svc): refuse, before any training, a nu that no
 * sub-problem's dual can meet: nu W / 2 above either class's total weight
 * (LIBSVM's "specified nu is infeasible"), naming the pair, nu and the
 * largest feasible nu.  Other svm_types: NESVM_OK. */
nesvm_status nv_targets_nu_check(const nv_targets *t, const nesvm_params *params, const nesvm_dataset *ds,
                                 const int64_t *rows, int64_t n, nesvm_error *err);
/* Does nv_targets_nu_check accept nu for a classification's targets on
 * these rows (nu W / 2 <= min(W_i, W_j) for every sub-problem, W = W_i +
 * W_j, W a class's weight; one-vs-rest: the rest's)?  1 yes, 0 no, -1 out
 * of memory.  (Cross-validation along nu: cv.c.) */
int nv_targets_nu_feasible(const nv_targets *t, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                           double nu);

#endif
