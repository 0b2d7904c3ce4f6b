/*
 * hyperpass.h - the entry points of Hyperpass and Pegasos (the registry's
 * train_binary), and pieces of the Hyperpass solver that the tests reach (not
 * installed).
 */
#ifndef NESVM_HYPERPASS_H
#define NESVM_HYPERPASS_H

#include "../hinge.h"

#include <math.h>

/* Hyperpass (hyperpass.c) and Pegasos (pegasos.c): the hinge-loss SVM
 * without a free bias, 1/2 ||w||^2 + sum_i c_i max(0, 1 - y_i <z_i, w>), where
 * z_i = x_i, or [x_i, B] with a regularized bias feature B (bias > 0). */
nesvm_status nv_hyperpass_train(const nv_binary_problem *pb, const nesvm_params *p,
                                const nv_progress_sink *sink, nv_binary_result *res,
                                nesvm_error *err);
nesvm_status nv_pegasos_train(const nv_binary_problem *pb, const nesvm_params *p,
                              const nv_progress_sink *sink, nv_binary_result *res,
                              nesvm_error *err);

/* Margins within this distance of 1 count as on the margin: such samples form
 * the set L_A of the next lower bound (kept exactly as hinges there).  A
 * sample the exact line search stops on gets margin exactly 1. */
#define NV_HP_MARGIN_TOL 1e-9
static inline int nv_hp_on_margin(double m) { return m >= 1.0 - NV_HP_MARGIN_TOL && m <= 1.0 + NV_HP_MARGIN_TOL; }

/* At most this many samples of L_A enter the QP (the closest to the margin);
 * the others join the linear part of g3, which stays a lower bound. */
#define NV_HP_MAX_LA 64
/* The final step's band (nv_hp_bound_at) holds at most this many samples. */
#define NV_HP_FINISH_LA 256
/* Pegasos refuses relative gaps below this: a gap eps takes about 1/eps passes. */
#define NV_PEGASOS_EPS_MIN 1e-6

/*
 * The exact line search of Section 4.2: the eta >= 0 minimizing
 *
 *   phi(eta) = A eta + Bq eta^2 / 2 + sum_{k < na} c_i max(0, 1 - m_i - eta dl_i),
 *   i = act[k] (act NULL: i = k),
 *
 * (phi(eta) - phi(0) without its constant part: A = <w, p> plus the slope of any
 * linear part, Bq = ||p||^2 > 0, dl_i = y_i <z_i, p>).  phi is convex and
 * piecewise quadratic with breakpoints eta_i = (1 - m_i)/dl_i; they are visited
 * in increasing order through a binary heap built in O(L) (L breakpoints), so
 * only the breakpoints before the minimizer are ever ordered.  A sample with
 * m_i == 1 exactly is on its hinge: it is active after 0 iff dl_i < 0.
 * heta/hidx hold na entries.  *kink receives the sample whose breakpoint is the
 * minimizer (-1 when phi' vanishes inside a segment); *popped (may be NULL)
 * the breakpoints ordered.
 */
double nv_hp_line_search(int64_t na, const int64_t *act, const double *m, const double *dl,
                         const double *c, double A, double Bq, double *heta, int64_t *hidx,
                         int64_t *kink, int64_t *popped);

#endif
