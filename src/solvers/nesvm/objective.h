/*
 * objective.h - the smoothed primal objectives of the three NESVM models (not
 * installed).  With r_i = 1 - y_i (x_i.w + b) and c_i = C * weight(y_i):
 *
 *   C-SVM   P = 1/2 ||w||^2 + sum_i c_i max(0, r_i)       (c_svm_hinge_l2)
 *   LP-SVM  P = ||w||_1     + sum_i c_i max(0, r_i)       (lp_svm_hinge_l1)
 *   LS-SVM  P = 1/2 ||w||^2 + sum_i c_i r_i^2             (ls_svm_squared_l2)
 *
 * Smoothing (paper eq. 5-10 and 22-28): the hinge becomes c_i h_mu(r_i) with
 * the prox-function weighted by s_i = ||[x_i, 1]||_inf; the L1 norm becomes
 * sum_j l_nu(w_j), Huber's function with width nu (the paper writes mu for
 * the L1 smoothing and nu for the hinge's in Section III-B; here mu is always
 * the hinge's and nu the L1 norm's).  LS-SVM is smooth and is not smoothed.
 *
 * One evaluation costs one X*w (nv_obj_margins) and one X^T*a and gives P,
 * F = F_{mu,nu}, the gradient of F, and a lower bound D on min P from the
 * dual point alpha_i = c_i l'(r_i) (docs/solvers.md, "Certificates"):
 *
 *   C-SVM   D = sum a - 1/2 ||X^T(a y)||^2,  a = theta alpha in [0, c]
 *   LP-SVM  D = sum a,  a = theta alpha with a_i <= c_i, ||X^T(a y)||_inf <= 1
 *   LS-SVM  D = sum a - sum a_i^2/(4 c_i) - 1/2 ||X^T(a y)||^2,  a = theta alpha
 *
 * where, with a free bias, alpha is first balanced so that sum alpha_i y_i = 0
 * and theta is the best admissible multiple.  Dmu bounds min F likewise.
 * The optimizers (nesterov.c, newton.c) only consume this
 * interface.
 */
#ifndef NESVM_OBJECTIVE_H
#define NESVM_OBJECTIVE_H

#include "../solver.h"

#include <math.h>

typedef struct nv_obj {
    const nv_binary_problem *pb;
    const nv_loss *loss; /* the per-sample loss (loss/loss.h) */
    int l1;          /* the regularizer: 1 = ||w||_1 (LP-SVM), 0 = 1/2 ||w||^2 */
    int real;        /* real targets (pb->target NV_TARGET_REAL): s_i = 1, t_i = y_i */
    int tube;        /* real targets with a bounded domain (the epsilon-insensitive
                      * loss, u in [-1, 1]): balanced by the sign of alpha_i */
    nv_loss inst;    /* the loss's instance (its tube's half-width: nv_params_loss_inst) */
    int bias;
    nv_linalg_ws lw;
    double *s;       /* n smoothing scales s_i = max(||x_i||_inf, bias ? 1 : 0), 0 -> 1 */
    double *m;       /* n margins x_i.w + b */
    double *a;       /* n dual weights alpha_i = c_i l'(r_i) */
    double *vp, *vn; /* d: X^T (alpha y) split by label sign: X^T(alpha y) = vp - vn
                      * (one buffer: vn = vp + d, then NV_OBJ_NSUMS entries that
                      * carry the pass's sums in the same reduction over ranks) */
    double *colsum;  /* d: X^T 1 (LS-SVM with a bias: balancing alpha), else NULL */
    double *a2, *v2; /* n and 2d: a free bias's second dual point (objective.c,
                      * shifted_bound), allocated at its first use */
    double paper_lam;/* n max_i w_i ||[x_i 1]||^2 with w_i = c_i / s_i (hinge) or c_i (LS) */
    /* data-parallel (pb->comm of several ranks): n_all is the rows over every
     * rank (pb->n otherwise); a failed collective leaves its status in cst
     * and message in cerr, which the optimizers check after each evaluation */
    int64_t n_all;
    nesvm_status cst;
    nesvm_error cerr;
} nv_obj;
#define NV_OBJ_NSUMS 11

typedef struct nv_obj_eval {
    double P, Fmu;   /* unsmoothed and smoothed objective */
    double D, Dmu;   /* lower bounds on min P and on min F */
    double sp, sn;   /* sum of alpha over positive / negative samples */
    double gb;       /* dF/db (0 without bias) */
    int64_t nsv, nbound; /* samples with alpha_i != 0, and at the hinge's bound (u_i = 1) */
    int64_t nnz_w;   /* non-zero weights (|w_j| > nu for LP-SVM: outside Huber's zone) */
    double theta;    /* D's dual point is theta times the balanced alpha (nv_obj_balance) */
} nv_obj_eval;

/* loss: the instance (nv_params_loss_inst: a tube's half-width set); copied */
nesvm_status nv_obj_init(nv_obj *o, const nv_binary_problem *pb, const nv_loss *loss, int l1, int bias,
                         int threads, nesvm_error *err);
void nv_obj_free(nv_obj *o);

/* Is the loss smoothed (the hinge: C-SVM, LP-SVM)?  The regularizer the L1
 * norm (LP-SVM)?  Is the dual point balanced by a shift (a loss whose
 * conjugate's domain is the whole line: the squared loss) rather than by
 * rescaling one side (a bounded domain)? */
static inline int nv_obj_smoothed(const nv_obj *o) { return o->loss->smoothed; }
static inline int nv_obj_l1(const nv_obj *o) { return o->l1; }
static inline int nv_obj_shift(const nv_obj *o) { return o->loss->lo == -INFINITY; }
/* Is the loss a quadratic (a quadratic conjugate on the whole line: the
 * squared loss), so that Newton's model of the objective is exact? */
static inline int nv_obj_quadratic(const nv_obj *o) { return nv_obj_shift(o) && o->loss->conj_e == 0; }
/* Has the problem sparse duals under an L2 norm (the hinge's C-SVM): samples
 * past the margin carry no weight (coarse starts, polishing)? */
static inline int nv_obj_sparse_l2(const nv_obj *o) { return o->loss->sparse && !o->l1; }
/* The balanced dual coefficient of sample i, a'_i y_i (nv_obj_balance). */
/* The sample's sign s_i and residual r_i = t_i - s_i m_i at margin m: sign
 * targets s_i = y_i, t_i = 1 (r = 1 - y m); real targets s_i = 1, t_i = y_i
 * (r = y - m).  The dual coefficient of sample i is alpha_i s_i. */
static inline double nv_obj_sign(const nv_obj *o, int64_t i) { return o->real ? 1.0 : o->pb->y[i]; }
static inline double nv_obj_resid(const nv_obj *o, int64_t i, double m)
{
    return o->real ? o->pb->y[i] - m : 1.0 - o->pb->y[i] * m;
}
/* The group that balancing rescales sample i with (nv_obj_balance): its
 * label's sign, or with a tube (o->tube) the sign of its alpha_i. */
static inline double nv_obj_group(const nv_obj *o, int64_t i)
{
    return o->tube ? (o->a[i] < 0 ? -1.0 : 1.0) : nv_obj_sign(o, i);
}
static inline double nv_obj_dual_coef(const nv_obj *o, int64_t i, double rp, double rn, double t)
{
    double y = nv_obj_sign(o, i);
    return nv_obj_shift(o) ? y * o->a[i] - t : y * o->a[i] * (nv_obj_group(o, i) > 0 ? rp : rn);
}

/* An objective over margins only, for solvers that compute the margins and
 * the dual quadratic term themselves (kernel expansions): pb->X may be NULL,
 * s_i = 1, and only nv_obj_pass / _balance / _finish and the line search
 * may be used. */
nesvm_status nv_obj_init_plain(nv_obj *o, const nv_binary_problem *pb, const nv_loss *loss, int l1, int bias,
                               nesvm_error *err);

/* The pieces of an evaluation.  nv_obj_pass: the per-sample sums at the
 * margins in o->m, and alpha in o->a. */
typedef struct nv_obj_sums {
    double loss, lmu;      /* sum c_i l(r_i), unsmoothed and smoothed */
    double sp, sn;         /* sum of |alpha| over the positive / negative group
                            * (nv_obj_group: the labels, or alpha's sign) */
    double qp, qn;         /* hinge: sum c_i s_i u_i^2 by class */
    double umax, sy;       /* largest u_i; sum s_i t_i (the shift's term) */
    double at, atn;        /* real targets: sum alpha_i t_i (with a tube: over
                            * the positive group, atn over the negative) */
    int64_t nsv, nbound;
} nv_obj_sums;
void nv_obj_pass(nv_obj *o, double mu, nv_obj_sums *q);
/* x[0..n) summed over the problem's ranks (nothing with one rank); a failure
 * is kept in o->cst. */
void nv_obj_sum(nv_obj *o, double *x, int64_t n);
/* The objective's collective failure (NESVM_OK if none) into err. */
nesvm_status nv_obj_comm_status(const nv_obj *o, nesvm_error *err);
/* The balanced dual point a' (free bias): alpha_i times rp or rn by its
 * group (nv_obj_group) for a bounded domain, alpha_i - t y_i for a domain
 * on the whole line (LS-SVM, the squared tube). */
void nv_obj_balance(const nv_obj *o, const nv_obj_sums *q, double *rp, double *rn, double *t);
/* The evaluation from the sums, vv = ||X^T(a' y)||^2 (the penalty's metric),
 * vinf = ||X^T(a' y)||_inf (LP-SVM), and the regularizer's value R, smoothed
 * value Rs and non-zero count. */
void nv_obj_finish(nv_obj *o, const nv_obj_sums *q, double rp, double rn, double t,
                   double vv, double vinf, double R, double Rs, int64_t nnz_w, double mu, double nu,
                   nv_obj_eval *e);

/* Margins only: o->m[i] = x_i.w + b (one X*w). */
void nv_obj_margins(nv_obj *o, const double *w, double b);
/* Evaluate at (w, b) from the margins in o->m (which the caller may have
 * updated incrementally): one X^T*a.  Afterwards nv_obj_grad gives the
 * gradient of F. */
void nv_obj_evaluate_at(nv_obj *o, const double *w, double mu, double nu, nv_obj_eval *e);
void nv_obj_evaluate(nv_obj *o, const double *w, double b, double mu, double nu, nv_obj_eval *e);
/* The dual methods' evaluation (dcd.c; one rank, the L2 norm): with the
 * dual point alpha given in o->a (each alpha_i / c_i in the loss's domain),
 * w = X^T(alpha s) exactly (d entries into w; one X^T*a), the margins of
 * (w, b) (one X*w), and the unsmoothed problem's P there and D at the
 * balanced alpha's best multiple. */
void nv_obj_evaluate_dual(nv_obj *o, double *w, double b, nv_obj_eval *e);
/* The same evaluation's primal half, at a given w (no X^T*a: one X*w): P and
 * the counts of alpha (o->a); D and Dmu -inf.  For the dual methods' checks
 * whose lower bound is not moving (dcd.c): the tracker keeps the last. */
void nv_obj_evaluate_primal(nv_obj *o, const double *w, double b, nv_obj_eval *e);
/* g (d entries) = the w-part of grad F at the last evaluation (dF/db is e->gb). */
void nv_obj_grad(const nv_obj *o, const double *w, double nu, double *g);

/* Curvature of the per-sample loss at margin residual r: c_i l_t''(r) with
 * t = mu s_i (0 off the hinge's smoothing zone, 2 c_i for the squared loss). */
static inline double nv_obj_curv(const nv_obj *o, int64_t i, double r, double mu)
{
    return o->loss->curv(o->loss, r, o->pb->cost[i], mu * o->s[i]);
}

/* Exact line search along p = (p_w, p_b) from the point (w, .) whose margins
 * are in o->m: the t >= 0 minimizing phi(t) = F(w + t p_w, b + t p_b), given
 * mp[i] = x_i.p_w + p_b.  p_w == NULL means p_w = 0 (a step in b alone).
 * phi is convex and piecewise quadratic; phi' costs O(n + d) and no pass over
 * X; the minimizer is found by Newton steps on phi' safeguarded by bisection,
 * to |phi'(t)| <= 1e-12 |phi'(0)|.  Returns 0 when p is not a descent
 * direction. */
double nv_obj_line_search(nv_obj *o, const double *mp, double mu, double nu, const double *w,
                          const double *p);
/* The same with the L2 regularizer's terms given: R'(t) = A + t B (reg != 0;
 * reg == 0: a step in b alone).  LP-SVM's L1 norm still reads w and p. */
double nv_obj_line_search_q(nv_obj *o, const double *mp, double mu, double nu,
                            const double *w, const double *p, int reg, double A, double B);

/* LP-SVM's L1 norm of w (d entries): R = ||w||_1, Rs = sum_j l_nu(w_j)
 * (Huber), nnz = entries outside Huber's zone. */
void nv_obj_huber(const double *w, int64_t d, double nu, double *R, double *Rs, int64_t *nnz);
/* Exact minimization of F over b alone at the margins in o->m, which are
 * updated (no pass over X); tmp is n scratch entries.  Afterwards
 * sum alpha_i y_i = 0 up to rounding, so the certificate needs no rescaling
 * of alpha (which on badly scaled data ruins the lower bound).  Returns the
 * new b. */
double nv_obj_best_bias(nv_obj *o, double *tmp, double mu, double nu, double b);

/* lambda, the loss part of the Lipschitz constant of grad F:
 *   C-SVM L = 1 + lambda/mu,  LP-SVM L = 1/nu + lambda/mu,  LS-SVM L = 1 + 2 lambda
 * (nv_obj_lipschitz_L).  lambda bounds lambda_max(Z^T diag(w_i) Z), Z = [X 1],
 * w_i = c_i/s_i (hinge) or c_i (LS): kind NV_LIP_PAPER gives the paper's
 * n max_i w_i ||z_i||^2 (eq. 48, 52; for LS-SVM eq. 56 with the factor n its
 * sum needs), NV_LIP_POWER 1.1 x a 30-step power-iteration estimate, capped
 * by the paper's.  `tmp` is d scratch entries. */
double nv_obj_lipschitz(nv_obj *o, int kind, uint64_t seed, double *tmp);
double nv_obj_lipschitz_L(const nv_obj *o, double lambda, double mu, double nu);

#endif
