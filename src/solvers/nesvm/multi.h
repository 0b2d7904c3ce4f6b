/*
 * multi.h - the joint multiclass problems (multiclass cs, multinomial): every
 * class's weight vector in one problem; their objective, its smoothing, its
 * dual and the certificate (multi_obj.c), minimized by truncated Newton
 * (multi.c).  Not installed.
 *
 * Rows i (n of them) with class y_i in [0, k) and cost C_i > 0 (C x class
 * weight x sample weight); decision values f_im = w_m.x_i + b_m (b = 0
 * without a bias); W = (w_0 .. w_{k-1}), k x d.
 *
 * Crammer and Singer's multiclass SVM (crammer_singer_svm_hinge_l2,
 * LIBLINEAR's -s 4):
 *
 *     P(W, b) = 1/2 sum_m ||w_m||^2 + R(b) + sum_i C_i max_m z_im,
 *     z_im = e_im + f_im - f_{i,y_i},   e_im = 1 - delta_{m,y_i},
 *
 * (z_{i,y_i} = 0: the loss is >= 0) without a bias (R = 0, b = 0, LIBLINEAR's
 * -s 4 without -B), or with -B B > 0 LIBLINEAR's constant feature B whose
 * weights u_m are regularized with W: b_m = B u_m, R(b) = sum_m b_m^2 / (2 B^2)
 * (crammer_singer_svm_hinge_l2_regularized_bias).
 *
 * The multinomial (softmax) logistic regression
 * (multinomial_logistic_regression_l2, scikit-learn's multi_class=
 * 'multinomial'):
 *
 *     P(W, b) = 1/2 sum_m ||w_m||^2 + sum_i C_i [log sum_m exp(f_im) - f_{i,y_i}]
 *
 * with a free bias (R = 0, unpenalized: scikit-learn's intercepts) or none
 * (-B 0).  The softmax does not change when every b_m moves by the same t:
 * the solver keeps sum_m b_m = 0 (the start's biases are centred, and so is
 * every step's).  (sum_m w_m = 0 at the optimum: the regularizer's.)
 *
 * One form for both: P = 1/2 ||W||^2 + R(b) + sum_i C_i L_i(f_i) with
 *
 *     L_i(f) = max_{p in the simplex} sum_m p_m z_im + rho H(p),
 *     z_im = a e_im + f_im - f_{i,y_i},   H(p) = -sum_m p_m log p_m,
 *
 * a = 1, rho = 0 for Crammer and Singer (the max), a = 0, rho = 1 for the
 * softmax (log sum_m exp(z_im) is that maximum, attained at p =
 * softmax(z_i)).  The smoothing: Crammer and Singer's max becomes
 * L_mu = mu log sum_m exp(z_im / mu), rho replaced by the width mu > 0,
 * which lies in [max_m z_im, max_m z_im + mu log k] (the entropy
 * prox-function on the simplex, as NESVM smooths the hinge); the softmax is
 * smooth already (mu = rho = 1: nothing is smoothed).  F_mu is P with L_mu.
 *
 * The dual (the certificate).  Any p_i in the simplex gives the dual point
 * alpha_im = C_i (delta_{m,y_i} - p_im): sum_m alpha_im = 0, alpha_im <= 0
 * for m != y_i, 0 <= alpha_{i,y_i} <= C_i.  With v_m = sum_i alpha_im x_i
 * and s_m = sum_i alpha_im, L_i(f) >= sum_m p_im z_im + rho H(p_i) gives
 * for every (W, b)
 *
 *     P(W, b) >= 1/2 ||W||^2 + R(b) - sum_m (w_m.v_m + b_m s_m)
 *                + sum_i C_i [a (1 - p_{i,y_i}) + rho H(p_i)]
 *             >= D(p) = sum_i C_i [a (1 - p_{i,y_i}) + rho H(p_i)]
 *                       - 1/2 sum_m ||v_m||^2 - T(s),
 *
 * minimizing over W (at w_m = v_m) and b: T = 0 without a bias, T = B^2/2
 * sum_m s_m^2 for the regularized bias (v_m extended by the feature's B s_m),
 * and for a free bias D = -infinity unless s_m = 0 for every m (the dual's
 * constraint).  For Crammer and Singer C_i (1 - p_{i,y_i}) = alpha_{i,y_i} =
 * -sum_{m != y_i} alpha_im: D is the dual of Crammer and Singer (Keerthi et
 * al. 2008's form), a concave quadratic over alpha; for the softmax it is the
 * entropy-regularized dual of logistic regression.  D_mu, the smoothed
 * problem's dual, is D with rho replaced by mu.
 *
 * The dual point of an iterate: p_i = softmax(z_i / mu), the smoothed max's
 * argmax distribution (the softmax's probabilities).  At the minimizer of
 * F_mu, W = V and F_mu = D_mu, and then P - D <= mu sum_i C_i H(p_i) <=
 * mu log k sum_i C_i (Crammer and Singer; the softmax's P - D closes).  A
 * free bias needs s_m = 0 exactly: p is balanced first (nv_mobj_evaluate),
 * the classes' excess mass S_m - N_m (S_m = sum_i C_i p_im, N_m = sum_i C_i
 * delta_{m,y_i}, which sum to the same) moved within each row from the
 * classes with an excess (each p_im scaled by 1 - (S_m - N_m)/S_m) to those
 * with a deficit (in proportion to their deficits): every row stays in the
 * simplex and every column meets N_m.  Near the optimum the gradient in b,
 * -s, is small and so is the change.  The certificate is the relative gap
 * (P - D) / |P| of the best primal value and the best D (track.h).
 *
 * Derivatives (Newton, multi.c): with p the raw softmax(z_i / mu),
 *     grad_{w_m} F = w_m - v_m,   grad_{b_m} F = R'(b_m) - s_m,
 * and the Hessian along (d_m, db_m): u_im = d_m.x_i + db_m,
 *     h_im = (C_i / mu) p_im (u_im - sum_l p_il u_il),
 *     (H)_{w_m} = d_m + sum_i h_im x_i,   (H)_{b_m} = R'' db_m + sum_i h_im
 * (R'' = 1/B^2 for the regularized bias, 0 for a free one: the b-block is
 * singular along the constant direction only, which the centring removes).
 *
 * Cost: an evaluation is one pass over X for the k margins (kept and
 * updated along the steps: linalg.h's nv_xw_k) and one for the k columns of
 * X^T A (nv_xta_k, rows whose k coefficients are 0 skipped: Crammer and
 * Singer's rows past the margin at a small mu); a Hessian-vector product the
 * same two; the line search O(n k) per trial, no pass over X.  Distributed: every sum over rows
 * (the losses, the entropies, S_m, v_m, s_m, the Hessian's and the line
 * search's sums) is completed over the ranks; W and b stay the same on
 * every rank.
 */
#ifndef NESVM_MULTI_H
#define NESVM_MULTI_H

#include "objective.h"

/* The threads' partial sums of the transposed products take at most this
 * many bytes (threads x d x k doubles); beyond, that product runs on one
 * thread. */
#define NV_MOBJ_PART_MEM 268435456.0

typedef struct nv_mobj {
    const nv_multi_problem *mp;
    int32_t d;
    int k;
    int64_t n;       /* this rank's rows */
    double a, rho;   /* the form above: 1, 0 (CS) or 0, 1 (softmax) */
    int bias;        /* NV_MULTI_BIAS_* */
    double B2;       /* B^2 (the regularized bias), else 0 */
    nv_linalg_ws lw;
    double *M;       /* n x k margins f_im (row-major) */
    double *P;       /* n x k: the raw dual point p_im of the last evaluation */
    double *V;       /* k x d: v_m of the raw p (the gradient's) */
    double *Vb;      /* k x d: v_m of the balanced p (the certificate's) */
    double *s;       /* k: s_m of the raw p */
    double *Sx;      /* k x d: sum_{i: y_i = m} C_i x_i (free bias: the balance's v), else NULL */
    double *N;       /* k: sum_{i: y_i = m} C_i over every rank */
    double csum;     /* sum_i C_i over every rank */
    double *q;       /* 2 k + 5 scratch: an evaluation's sums, a line search's row */
    double *Wt, *T;  /* d x k scratch: W transposed for nv_xw_k, nv_xta_k's result */
    double *A;       /* n x k scratch: the rows' coefficients of an X^T A */
    double *part;    /* the threads' partial sums of nv_xta_k, or NULL (one thread) */
    /* collectives: a failure's status and message (the optimizer checks
     * after each call, as objective.c's) */
    nesvm_status cst;
    nesvm_error cerr;
} nv_mobj;

/* The unknowns in one vector theta of nv_mobj_size entries: W (k x d, row m
 * = w_m), then the k biases (0 without a bias). */
static inline int64_t nv_mobj_size(const nv_mobj *o) { return (int64_t)o->k * ((int64_t)o->d + 1); }

nesvm_status nv_mobj_init(nv_mobj *o, const nv_multi_problem *mp, int threads, nesvm_error *err);
void nv_mobj_free(nv_mobj *o);

/* o->M = the margins of theta (k X*w). */
void nv_mobj_margins(nv_mobj *o, const double *theta);

/* The evaluation at theta whose margins are in o->M, at smoothing mu (the
 * softmax: 1): P, Fmu, D, Dmu (the balanced dual point's), nsv (rows of
 * non-zero dual coefficients); o->P, o->V, o->s the raw dual point's (the
 * gradient's).  k X^T*a. */
void nv_mobj_evaluate(nv_mobj *o, const double *theta, double mu, nv_obj_eval *e);
/* The gradient of F_mu at the last evaluation (nv_mobj_size entries). */
void nv_mobj_grad(const nv_mobj *o, const double *theta, double *g);
/* hv = H dir, the Hessian of F_mu at the last evaluation (k X*w, k X^T*a);
 * u: n x k scratch. */
void nv_mobj_hess_vec(nv_mobj *o, double mu, const double *dir, double *hv, double *u);
/* The Hessian's diagonal at the last evaluation (the Jacobi
 * preconditioner; k passes over X's squares). */
void nv_mobj_hess_diag(nv_mobj *o, double mu, double *diag);
/* U (n x k) = the margins of the direction dir (k X*w). */
void nv_mobj_dir_margins(nv_mobj *o, const double *dir, double *U);
/* phi(t) = F_mu(theta + t dir), its first and second derivatives at t from
 * the margins M + t U (O(n k), no pass over X; summed over the ranks). */
void nv_mobj_line(nv_mobj *o, const double *theta, const double *dir, const double *U, double mu, double t,
                  double *phi, double *d1, double *d2);
/* The t >= 0 minimizing phi (safeguarded Newton on phi' in a bracket, to
 * |phi'(t)| <= 1e-12 |phi'(0)|); 0 when dir is not a descent direction. */
double nv_mobj_line_search(nv_mobj *o, const double *theta, const double *dir, const double *U, double mu);

/* Crammer and Singer's problem by coordinate ascent on its dual, a row's
 * block at a time (multi_dcd.c): does it take this problem and these
 * options (one process, no fixed smoothing: --mu, --mu-star, --continuation
 * paper ask for the smoothed problem)?  The training: as
 * nv_nesvm_multi_train, which sends --method dcd, and auto where it takes
 * the problem, here. */
int nv_nesvm_multi_dcd_takes(const nv_multi_problem *mp, const nesvm_params *prm);
nesvm_status nv_nesvm_multi_dcd_train(const nv_multi_problem *mp, const nesvm_params *prm,
                                      const nv_progress_sink *sink, nv_multi_result *res, nesvm_error *err);

#endif
