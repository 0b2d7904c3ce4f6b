/*
 * expansion_ws.h - what the two working sets share (not installed): the
 * C-SVM's (expansion_ws.c) and epsilon-SVR's tube (expansion_wst.c).  Their
 * rounds solve a sub-problem on the rows of S through nv_nesvm_kernel_train;
 * these (expansion_wsc.c) report its progress and checkpoints in the whole
 * problem's units, draw the first set and compute the rounds' K_SS.
 */
#ifndef NESVM_EXPANSION_WS_H
#define NESVM_EXPANSION_WS_H

#include "expansion.h"

/* The last progress reported, sent again (with the time since the start)
 * between the blocks of a round's K_SS, so that the progress line moves and
 * a cancel is heard while a large matrix is computed. */
typedef struct nv_ws_tick {
    const nv_progress_sink *outer;
    double t0;
    nesvm_progress last;
    int have;
} nv_ws_tick;
int nv_ws_tick_fn(void *ctx);

/* The sub-problems' progress and checkpoints, in the whole problem's units:
 * iterations and time continue across rounds, and a checkpoint's point has
 * n coefficients (base's outside S: the C-SVM's zeros, the tube's held
 * coefficients). */
typedef struct nv_ws_sink {
    const nv_progress_sink *outer;
    int64_t iter0;       /* iterations of the earlier rounds */
    double t0_shift;     /* seconds from the training's start to this round's */
    const int64_t *S;    /* this round's rows */
    int64_t ns, n;
    double *wfull;       /* n: the point in the whole problem's units */
    const double *base;  /* n: the whole point the sub-problem started from */
    nv_ws_tick *tick;
} nv_ws_sink;
/* The sub-problem's sink into *sub, reporting through w to w->outer. */
void nv_ws_sub_sink(nv_ws_sink *w, nv_progress_sink *sub);

/* Rows by descending key (ties: lower index first). */
typedef struct nv_ws_cand {
    double r;
    int64_t i;
} nv_ws_cand;
int nv_ws_cmp_cand(const void *a, const void *b);

/* The first working set: the rows with a warm start's non-zero coefficient,
 * then rows at random (partial Fisher-Yates, seeded) up to m, then (signs)
 * one row of each class if a class is still missing; in[] marks them.
 * Returns |S| (S sorted). */
int64_t nv_ws_first_set(const nv_kernel_problem *kp, const nesvm_params *prm, int64_t m, char *in, int64_t *S,
                        int64_t *perm);

/* S's kernel matrix K_SS into km (idx: S's positions, overwritten with
 * dataset rows on a column cache): computed from the column cache's rows
 * (kp->kc, watched for the time limit and the callback's cancel), or S's
 * rows gathered from the stored matrix when they fit kernel_memory (km
 * left empty: the sub-problem reads the stored matrix).  Returns 1 when the
 * training stops here (res->exit_reason: the time limit, *st NESVM_OK; or the
 * callback's cancel, *st NESVM_ERR_CANCELLED, after the stop's checkpoint of
 * (beta, b)), else 0 with *st the status. */
int nv_ws_sub_matrix(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                     int64_t *idx, int64_t ns, const double *beta, double b, int64_t iters, double t0,
                     nv_ws_tick *tick, nv_kmat *km, nv_binary_result *res, nesvm_status *st, nesvm_error *err);

/* The one-class SVM on a working set (expansion_wso.c), its only path. */
nesvm_status nv_ws_oc_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                            nv_binary_result *res, nesvm_error *err);
/* The one-class SVM's best rho for the margins f (n rows, costs c, sum of a
 * nuw): the weighted quantile of expansion_wso.c's header (zb: 2 n
 * scratch). */
double nv_oc_rho(const double *f, const double *c, int64_t n, double nuw, double *zb);

/* nu-SVC (target sign) and nu-SVR (target real) on a working set
 * (expansion_wsn.c), their only path: res->w and res->b the model's (nu-SVC
 * scaled by 1/rho), res->nu_value rho or epsilon; NESVM_ERR_DATA where
 * nu-SVC's optimum is w = 0. */
nesvm_status nv_ws_nu_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                            nv_binary_result *res, nesvm_error *err);

/* epsilon-SVR's tube on a working set (expansion_wst.c). */
nesvm_status nv_ws_tube_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                              nv_binary_result *res, nesvm_error *err);

#endif
