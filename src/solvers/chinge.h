/*
 * chinge.h - the smoothed C-SVM hinge objective (not installed).
 *
 *   P(w,b)    = 1/2 ||w||^2 + sum_i c_i max(0, r_i),  r_i = 1 - y_i (x_i.w + b)
 *   F_mu(w,b) = 1/2 ||w||^2 + sum_i c_i h_mu(r_i)  (NESVM eq. 5-10, scale s_i)
 *
 * One evaluation costs one X*w and one X^T*a and yields P, F_mu, the gradient
 * of F_mu and a dual-feasible lower bound D (see nesvm_linear.c).  The
 * optimizer (Nesterov loop) only consumes this interface.
 */
#ifndef NESVM_CHINGE_H
#define NESVM_CHINGE_H

#include "solver.h"

typedef struct nv_chinge {
    const nv_binary_problem *pb;
    int bias;
    nv_linalg_ws lw;
    double *s;       /* n smoothing scales s_i = max(||x_i||_inf, bias ? 1 : 0), 0 -> 1 */
    double *m;       /* n margins x_i.w + b */
    double *a;       /* n dual weights alpha_i = c_i u_i */
    double *vp, *vn; /* d: X^T (alpha y) split by label sign: X^T(alpha y) = vp - vn */
    double paper_lam;/* n max_i c_i ||[x_i 1]||^2 / s_i (eq. 48 without the 1 and 1/mu) */
} nv_chinge;

typedef struct nv_chinge_eval {
    double P, Fmu;   /* unsmoothed and smoothed objective */
    double D, Dmu;   /* dual values of the feasible rescaling of alpha */
    double sp, sn;   /* sum of alpha over positive / negative samples */
    double gb;       /* dF_mu/db (0 without bias) */
    int64_t nsv, nbound; /* samples with r_i > 0, and with u_i = 1 */
} nv_chinge_eval;

nesvm_status nv_chinge_init(nv_chinge *o, const nv_binary_problem *pb, int bias, int threads,
                            nesvm_error *err);
void nv_chinge_free(nv_chinge *o);

/* Evaluate at (w, b) with smoothing mu; afterwards the gradient of F_mu is
 * g_w = w - (vp - vn), g_b = e->gb. */
void nv_chinge_evaluate(nv_chinge *o, const double *w, double b, double mu, nv_chinge_eval *e);

/* Margins only: o->m[i] = x_i.w + b (one X*w). */
void nv_chinge_margins(nv_chinge *o, const double *w, double b);
/* Everything else of nv_chinge_evaluate, from the margins already in o->m
 * (which the caller may have updated incrementally): one X^T*a. */
void nv_chinge_evaluate_at(nv_chinge *o, const double *w, double mu, nv_chinge_eval *e);

/* Exact line search along a direction p = (p_w, p_b) from the point whose
 * margins are in o->m: the t >= 0 minimizing phi(t) = F_mu(w + t p_w, b + t p_b),
 * given mp[i] = x_i.p_w + p_b, A = w.p_w and B = ||p_w||^2.  phi is a convex
 * piecewise quadratic; its derivative costs O(n) and no pass over X, and the
 * minimizer is found by Newton steps on phi' safeguarded by bisection, to
 * |phi'(t)| <= 1e-12 |phi'(0)|.  Returns 0 when p is not a descent direction. */
double nv_chinge_line_search(const nv_chinge *o, const double *mp, double mu, double A, double B);

/* lambda with L = 1 + lambda/mu a Lipschitz constant of grad F_mu:
 * kind NV_LIP_PAPER: eq. (48); NV_LIP_POWER: 1.1 x a 30-step power-iteration
 * estimate of lambda_max(Z^T diag(c_i/s_i) Z), Z = [X 1], capped by (48).
 * `tmp` is d scratch entries. */
double nv_chinge_lipschitz(nv_chinge *o, int kind, uint64_t seed, double *tmp);

#endif
