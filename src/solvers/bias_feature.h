/*
 * bias_feature.h - LIBLINEAR's bias for a solver whose problem has a free
 * bias or none (not installed): the bias as a constant feature B whose
 * weight the regularizer takes with w,
 *
 *   min_w,v  R(w, v) + sum_i c_i l(y_i, x_i.w + B v),   b = B v,
 *
 * R the problem's regularizer over (w, v): 1/2 ||w||^2 + 1/2 v^2, or
 * ||w||_1 + |v| (LIBLINEAR's -B B with -s 0, 5, 6, 7, and every other of its
 * types).  The problem is the solver's own without a bias on the rows
 * [x_i, B]: its certificate certifies this one.
 *
 * Called by NESVM's linear entry (nv_nesvm_linear_train) for bias_mode
 * regularized (nv_params_bias_feature).  Costs one copy of the
 * sub-problem's rows with the extra column (nv_dataset_with_const), freed
 * when it returns.
 */
#ifndef NESVM_BIAS_FEATURE_H
#define NESVM_BIAS_FEATURE_H

#include "solver.h"

/* Train pb (its rows, costs and start; w0, b0 in the model's units) with
 * the bias feature B = p->bias through fn, which gets the rows [x_i, B],
 * no free bias and the start (w0, b0 / B); res->w gets w (pb->X->d
 * entries) and res->b = B v.  The sink's checkpoints see (w, b) as well. */
nesvm_status nv_bias_feature_train(nv_train_binary_fn fn, const nv_binary_problem *pb, const nesvm_params *p,
                                   const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err);

#endif
