/*
 * expansion.h - NESVM on a full kernel's expansion coefficients (not
 * installed): the workspace the three methods share.  expansion.c holds the
 * entry point (nv_nesvm_kernel_train) and the C-SVM and LS-SVM Newton method;
 * expansion_ops.c the shared products and evaluations; expansion_nesterov.c the Nesterov steps;
 * expansion_lp.c LP-SVM's Newton method.
 */
#ifndef NESVM_EXPANSION_H
#define NESVM_EXPANSION_H

#include "nesvm_solver.h"
#include "../track.h"
#include "tuning.h"
#include "../../kernel/kernel.h"

typedef struct kws {
    nv_kmat *K;
    int64_t n;
    int bias;
    int64_t *pos;          /* n positions into K */
    double *beta, *kb;     /* beta and K beta (n) */
    double *v, *kv;        /* dual bound: a' y and K (a' y) */
    double *r, *dir, *kd, *md; /* rvec, direction, K dir, margins of the direction */
    int64_t *cpos;         /* gathered support positions */
    double *cval;          /* gathered values (n x 2) */
    int64_t *zi, *zpos;    /* zone: indices and positions */
    double *zh;            /* zone curvatures */
    double *rhs, *sol;     /* nz x 2 */
    double *cg;            /* 4 x nz x 2 CG vectors and nz preconditioner */
    double *A;             /* nz x nz */
    size_t cap_a;
    int64_t nz;
    int cg_ncol;           /* the zone CG's columns (1 or 2) */
    nesvm_error *err;
    double *dual_out;   /* the result's dual buffer (nv_binary_result.dual), or NULL */
} kws;

/* After nv_track_iterate of evaluation e: when it raised the best lower bound
 * (above best_before), the dual point that gave it, theta v (e.theta, the
 * balanced alpha y in ws->v), into ws->dual_out. */
static inline void nv_kx_keep_dual(const kws *ws, const nv_obj_eval *e, double best_before, const nv_track *tr)
{
    if (!ws->dual_out || !(tr->best_d > best_before)) return;
    for (int64_t i = 0; i < ws->n; i++) ws->dual_out[i] = e->theta * ws->v[i];
}

/* Nesterov's work vectors (n each): prox-center beta* and K beta*, the
 * weighted gradient sum G and K G, K(alpha y), a 2n product, K 1 (LS-SVM
 * with a bias). */
typedef struct nws {
    double *bstar, *kbstar, *G, *KG, *kay, *k2, *k1;
} nws;

/* out[0..n) = K[pos, supp(x)] x over the problem's rows. */
nesvm_status nv_kx_kmul(kws *ws, const double *x, double *out);
/* Evaluate at the margins in o->m (beta, K beta in ws). */
nesvm_status nv_kx_evaluate(kws *ws, nv_obj *o, double mu, nv_obj_eval *e);
/* K beta and the margins from scratch (b the current bias). */
nesvm_status nv_kx_refresh(kws *ws, nv_obj *o, double b);
/* The evaluation of the Nesterov steps and LP-SVM (nws). */
nesvm_status nv_kx_evaluate_nesterov(kws *ws, nws *nw, nv_obj *o, double mu, double nu,
                                      nv_obj_eval *e);
/* C-SVM and LS-SVM by Nesterov's steps in the K metric (expansion_nesterov.c). */
nesvm_status nv_kx_nesterov_loop(kws *ws, nv_obj *obj, const nesvm_params *prm, nv_track *tr,
                                  double b, nesvm_error *err);
/* LP-SVM by Newton in the Euclidean metric on beta (expansion_lp.c). */
nesvm_status nv_kx_lp_newton_loop(kws *ws, nv_obj *obj, const nesvm_params *prm, nv_track *tr,
                                   double b, nesvm_error *err);
/* The exact C-SVM's dual by SMO on a stored matrix (expansion_smo.c): the
 * hinge under the L2 norm with sign targets, no fixed smoothing, K stored
 * (kp->K->K).  The result as nv_nesvm_kernel_train's, res->dual = a y; its
 * primal and bound are the single-precision matrix's (with kp->f0, of its
 * exact margins updated in single precision): the callers certify again in
 * double precision (expansion_ws.c's certify_double, certify_stored). */
int nv_kx_smo_takes(const nv_kernel_problem *kp, const nesvm_params *prm);
/* Does nv_nesvm_kernel_train solve kp by the SMO (the method dcd, or auto,
 * where nv_kx_smo_takes)? */
int nv_kx_dual(const nv_kernel_problem *kp, const nesvm_params *prm);
nesvm_status nv_kx_smo_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                             nv_binary_result *res, nesvm_error *err);

/* The weighted quantile of the one-class SVM and the nu problems
 * (expansion_smon.c): over the entries i < m with y_i == sign (y NULL: all),
 * the l that minimizes sum_i c_i max(0, l - g_i) - r l, the first g in
 * ascending order where the sum of c reaches r, the middle of the interval
 * to the next g where the sum equals r (the sum flat there), the largest g
 * where r is beyond the sum by rounding; 0 without an entry.  zb: 2 m
 * scratch. */
double nv_nu_quantile(const double *g, const double *c, const double *y, double sign, int64_t m, double r,
                      double *zb);

/* The nu problems' feasible point (expansion_smon.c): a (m entries, each
 * in [0, c_i]) with each sign's sum (y_i = +-1) brought to `half`, scaled
 * down where above, raised in index order where below (from zero: LIBSVM's
 * start, a_i = min(c_i, what is left of half)). */
void nv_nu_fill(double *a, const double *y, const double *c, int64_t m, double half);

/* ---- expansion_cert.c: the certificates in double precision */

/* f[0..n) = K[:, supp(beta)] beta over the problem's rows: from the stored
 * matrix (values computed in double), or from the column cache (the missing
 * columns computed in blocks first).  cols: n scratch entries; cval: 2 n. */
nesvm_status nv_ws_margins(const nv_kernel_problem *kp, const double *beta, int64_t *cols, double *cval,
                           double *f, nesvm_error *err);
/* The C-SVM's working-set certificate (expansion_cert.c, above the function). */
nesvm_status nv_ws_certify_hinge(const nv_kernel_problem *kp, int bias, const double *beta, double b,
                                 const double *sub_ay, const double *f, int64_t *cols, double *cval, double *ay,
                                 double *g, nv_binary_result *res, nesvm_error *err);
/* A solve on a stored single-precision matrix certified again in double
 * precision (nv_nesvm_expansion_train). */
nesvm_status nv_kx_certify_stored(const nv_kernel_problem *kp, const nesvm_params *prm, nv_binary_result *res,
                                  nesvm_error *err);

/* epsilon-SVR's working set: products with double-precision kernel values
 * and no cache (most rows are support vectors: their columns would be n^2
 * doubles), from kp->K's data (nv_kmat_mul_exact) or, on kp->kc, from fly, an
 * on-the-fly nv_kmat over the cache's rows (kernel blocks by dgemm).
 * Scratch: cols n, cval 2 n, d, g and ay n each. */
typedef struct nv_ws_cert {
    const nv_kernel_problem *kp;
    nv_kmat *fly;
    int64_t *cols;
    double *cval, *d, *g, *ay;
} nv_ws_cert;
/* out[0..n) = K[:, supp(v)] v over the problem's rows (out may be v). */
nesvm_status nv_ws_tube_mul(nv_ws_cert *c, const double *v, double *out, nesvm_error *err);
/* The whole problem's certificate at (beta, b) with margins f = K beta:
 *     P = 1/2 beta'f + sum_k c_k max(0, |y_k - f_k - b| - p)
 * against the better dual value (the tube's dual, |d_k| <= c_k, sum d = 0
 * with a bias) of the sub-problem's dual point sub_d extended by zeros and
 * of beta, each clipped to the box.  Into res: primal, lower_bound, gap. */
nesvm_status nv_ws_certify_tube(nv_ws_cert *c, int bias, double p, const double *beta, double b,
                                const double *sub_d, const double *f, nv_binary_result *res, nesvm_error *err);

#endif
