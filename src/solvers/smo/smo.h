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
/* The pair step of both SMOs (smo.c, and the kernel dual method's,
 * nesvm/expansion_smo.c): a_i += y_i s, a_j -= y_j s (y'a stays 0) with
 * s = the unconstrained step, clipped to the box 0 <= a <= c (the variable
 * that reaches its bound is set to it exactly).  Returns the step taken. */
static inline double nv_smo_pair_move(double *a, const double *y, const double *c, int64_t i, int64_t j, double s)
{
    const double smax_i = y[i] > 0 ? c[i] - a[i] : a[i];
    const double smax_j = y[j] > 0 ? a[j] : c[j] - a[j];
    const double smax = smax_i < smax_j ? smax_i : smax_j;
    if (s < smax) {
        a[i] += y[i] * s;
        a[j] -= y[j] * s;
        return s;
    }
    if (smax_i <= smax_j) a[i] = y[i] > 0 ? c[i] : 0.0;
    else a[i] += y[i] * smax;
    if (smax_j <= smax_i) a[j] = y[j] > 0 ? 0.0 : c[j];
    else a[j] -= y[j] * smax;
    return smax;
}

/* Does SMO take this loss and regularizer?  The hinge under the L2 norm: its
 * dual is LIBSVM's C-SVC box QP. */
int nv_smo_takes(const nv_loss *loss, int l1);

#endif
