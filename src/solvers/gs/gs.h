/*
 * gs.h - GS-SVM's entry point (not installed): the registry's train_columns.
 */
#ifndef NESVM_GS_H
#define NESVM_GS_H

#include "../solver.h"

/* GS-SVM (gs.c): greedy stagewise minimization of the hard-margin dual over
 * the n training positions of a kernel column cache (nv_gs_problem,
 * solver.h); res->w gets the n expansion coefficients alpha_i y_i (0 for
 * unselected samples). */
nesvm_status nv_gs_train(const nv_gs_problem *gp, const nesvm_params *p, const nv_progress_sink *sink,
                         nv_binary_result *res, nesvm_error *err);

#endif
