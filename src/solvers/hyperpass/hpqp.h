/*
 * hpqp.h - the small dense QP of Hyperpass's lower bound (not installed).
 *
 * Hyperpass (hyperpass.c) minimizes g_t = 1/2 ||w||^2 + max(l1, l2, l3 + sum_{i in LA}
 * c_i max(0, 1 - y_i <z_i, w>)) through its dual, eq. (16)-(17) of the paper.  With
 * beta = (alpha_1..alpha_K, gamma_1, gamma_2, gamma_3) it is
 *
 *   min  1/2 beta^T Q beta - r^T beta
 *   s.t. beta >= 0,  alpha_i <= c_i gamma_3,  gamma_1 + gamma_2 + gamma_3 <= 1
 *
 * with Q = A^T A PSD (possibly singular), n = K + 3 variables.  The solver
 * substitutes alpha_i = c_i u_i (so every variable lies in [0, 1]), scales the
 * objective, and runs a primal-dual interior-point method (Mehrotra's
 * predictor-corrector, dense Cholesky of Q + G^T W G) to a relative duality gap
 * of 1e-13.  The result is projected onto the feasible set exactly, so a lower
 * bound computed from it by weak duality is valid however the iterations end.
 */
#ifndef NESVM_HPQP_H
#define NESVM_HPQP_H

#include "../../core/internal.h"

/* Solve for beta (n = K + 3 entries).  Q is n x n column-major symmetric PSD,
 * r has n entries, c has K entries > 0.  *iters (may be NULL) receives the
 * interior-point iterations.  NESVM_ERR_NOMEM, or NESVM_OK with a feasible
 * beta (also when the iteration limit is reached: the best point so far). */
nesvm_status nv_hpqp_solve(int K, const double *Q, const double *r, const double *c, double *beta,
                           int *iters);

/* The first-order optimality defect of a feasible beta:
 *   g^T beta - min over the feasible set of g^T y,   g = Q beta - r,
 * where the minimum has the closed form min(0, g_g1, g_g2, g_g3 + sum_i c_i min(g_ai, 0)).
 * Zero exactly at the optimum (the QP is convex); used by the tests. */
double nv_hpqp_defect(int K, const double *Q, const double *r, const double *c,
                      const double *beta);

#endif
