/*
 * smo.h - SMO's entry point (not installed).  The kernel plan
 * (src/model/kplan.c) calls it for NESVM's C-SVM when the kernel is not
 * positive semi-definite (nv_kernel_psd); it has no registry entry of its own.
 */
#ifndef NESVM_SMO_H
#define NESVM_SMO_H

#include "../solver.h"

/* The C-SVM's dual by SMO on kp->kc's columns (smo.c): LIBSVM's problem,
 * solved to a stationary point; no certificate (res->gap and lower_bound
 * NaN, res->primal the dual objective); res->w gets the n expansion
 * coefficients. */
nesvm_status nv_smo_train(const nv_kernel_problem *kp, const nesvm_params *p, const nv_progress_sink *sink,
                          nv_binary_result *res, nesvm_error *err);
/* Does SMO take this loss and regularizer?  The hinge under the L2 norm: its
 * dual is LIBSVM's C-SVC box QP. */
int nv_smo_takes(const nv_loss *loss, int l1);

#endif
