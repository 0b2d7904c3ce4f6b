/*
 * hyperpass.h - the entry points of Hyperpass and Pegasos (the registry's
 * train_binary; not installed).  Hyperpass's pieces: hpline.h (the line
 * search and the family's constants), hpstate.h (the state), hinge.h (the
 * problem's row operations).
 */
#ifndef NESVM_HYPERPASS_H
#define NESVM_HYPERPASS_H

#include "../solver.h"

/* Hyperpass (hyperpass.c) and Pegasos (pegasos.c): the hinge-loss SVM
 * without a free bias, 1/2 ||w||^2 + sum_i c_i max(0, 1 - y_i <z_i, w>), where
 * z_i = x_i, or [x_i, B] with a regularized bias feature B (bias > 0). */
nesvm_status nv_hyperpass_train(const nv_binary_problem *pb, const nesvm_params *p,
                                const nv_progress_sink *sink, nv_binary_result *res,
                                nesvm_error *err);
nesvm_status nv_pegasos_train(const nv_binary_problem *pb, const nesvm_params *p,
                              const nv_progress_sink *sink, nv_binary_result *res,
                              nesvm_error *err);

#endif
