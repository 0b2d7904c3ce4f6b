/*
 * ssvm.h - the smoothing Newton family (not installed): SSVM (Lee and
 * Mangasarian) and NSSVM (Zhou et al., papers/nssvm-smoothing-newton-reduced.md).
 *
 * Problem (the paper's eq. 5; squared hinge with a regularized bias):
 *
 *   f(z) = 1/2 ||z||^2 + 1/2 sum_i c_i max(0, r_i)^2,   r_i = 1 - H_i z,
 *
 * H_i = y_i [a_i, B]: a_i the sample's features (linear: x_i; kernel: the row
 * K(x_i, basis) of the full or reduced kernel), B the bias feature (-B, 1 by
 * default; B <= 0: none).  c_i is the paper's C times the class weight, so
 * LIBLINEAR's -s 2 -B 1 solves the same problem with its -c equal to C/2.
 *
 * Smoothing (eq. 6-7), overflow-safe for any t:
 *   psi_p(t) = max(t, 0) + log(1 + exp(-p|t|)) / p
 *   phi_p(t) = int_{-inf}^t psi_p(u) du   (NSSVM's merit h_p, eq. 13-14)
 *
 *   SSVM   Newton on f_p(z) = 1/2||z||^2 + 1/2 sum c_i psi_p(r_i)^2 (eq. 8),
 *          Hessian I + H^T diag(c_i (psi'^2 + psi psi'')) H (eq. 9-10);
 *   NSSVM  Newton on G_p(z) = z - H^T (c o psi_p(r)) = 0 (eq. 12), Jacobian
 *          I + H^T diag(c_i psi'(r_i)) H (eq. 16-17), the gradient of h_p.
 * Both: Armijo steps 1, 1/2, 1/4, ... on the merit (f_p, h_p, or f itself
 * with --merit f, the paper's Remark 1), sigma = NV_SSVM_SIGMA.
 *
 * Newton systems (Section 5): the weights Lambda_ii below tau are pruned
 * (J = the rest, |J| = m~); the Hessian B = I + H_J^T Lambda_J H_J is
 *   scheme 1  formed from J (dsyrk) and factored (dpotrf): O(|J| D^2 + D^3);
 *   scheme 2  updated from the last Hessian formed, B += H^T (Lambda - Lambda_old) H
 *             over the rows whose weight changed (J0, |J0| = m^): O(|J0| D^2 + D^3);
 *   scheme 3  not formed: SMW (eq. 21/23/28), d = -g + H_J^T (Lambda_J^-1 +
 *             H_J H_J^T)^-1 H_J g: O(|J|^2 D + |J|^3);
 *   optimal   scheme 3 when |J| <= D (the paper's m~ <= m-bar), else scheme 2
 *             (scheme 1 when more rows changed than are active);
 *   cg        conjugate gradients on B with products through the rows (used by
 *             optimal when the dense matrices exceed kernel_memory: wide sparse
 *             data).
 * D = features + 1 (bias).  Dense matrices are bounded by kernel_memory MB.
 */
#ifndef NESVM_SSVM_H
#define NESVM_SSVM_H

#include "../hinge.h"

#define NV_SSVM_SIGMA 1e-4   /* Armijo's sufficient-decrease constant */
#define NV_SSVM_MAX_HALVINGS 60

/* SSVM and NSSVM (ssvm.c), the registry's train_binary:
 * 1/2 ||z||^2 + 1/2 sum_i c_i max(0, 1 - y_i <z_i, w>)^2, z_i = [x_i, B]. */
nesvm_status nv_ssvm_train(const nv_binary_problem *pb, const nesvm_params *p,
                           const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err);
nesvm_status nv_nssvm_train(const nv_binary_problem *pb, const nesvm_params *p,
                            const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err);

enum { NV_SCHEME_OPTIMAL = 0, NV_SCHEME_1 = 1, NV_SCHEME_2 = 2, NV_SCHEME_3 = 3, NV_SCHEME_CG = 4 };
enum { NV_MERIT_SMOOTH = 0, NV_MERIT_F = 1 };

/* The smoothing function and its derivatives (eq. 6-7) and its integral phi_p. */
double nv_psi(double p, double t);
double nv_psi1(double p, double t);
double nv_psi2(double p, double t);
double nv_phi(double p, double t);

typedef struct nv_ssvm {
    nv_hinge h;
    int nssvm;             /* 1: NSSVM, 0: SSVM */
    double p, tau;
    int64_t n, D;
    double budget;         /* bytes for dense matrices */
    double *z, *m;         /* point (D) and its margins H z (n) */
    double *g, *gf;        /* G_p (NSSVM) or grad f_p (SSVM), and grad f (D) */
    double *lam;           /* c_i Lambda_ii (0 where pruned), n */
    double *lam_old;       /* last iteration's lam (for |J0| in traces) */
    double *lam_B;         /* the weights the stored Hessian B holds */
    double *a;             /* n scratch */
    double *B, *Bf;        /* D x D Hessian (schemes 1-2) and its factor, or NULL */
    int B_valid;
    double *G;             /* gathered rows */
    size_t G_cap;
    double *M;             /* SMW's |J| x |J| matrix */
    size_t M_cap;
    double *cgw;           /* 4 D scratch for CG */
    int64_t *J;            /* active rows (n) */
    int64_t nJ, nJ0;       /* |J| and |J0| (weights changed since the last iteration) */
    double f, merit;       /* f(z) and the merit at z */
    double gnorm, gfnorm;
    double lower;          /* dual value at alpha = c o r_+ (a lower bound on min f) */
    int64_t nsv;           /* samples with r_i > 0 */
    int scheme_used;       /* 1, 2, 3 or 4 (cg) */
    int64_t cg_iters;
    /* data-parallel (the problem's comm, several ranks; else NULL): n, m, lam,
     * J are this rank's rows; z, g, gf, B and the direction are every
     * rank's.  nJ_all = |J| over the ranks (nJ: this rank's); red: 2 D +
     * NV_SSVM_NRED scratch for the evaluation's one reduction; a failed
     * collective's status and message (checked after each evaluation) */
    const nv_comm *comm;
    int64_t nJ_all;
    double *red;
    nesvm_status cst;
    nesvm_error cerr;
} nv_ssvm;
#define NV_SSVM_NRED 8

nesvm_status nv_ssvm_init(nv_ssvm *s, const nv_binary_problem *pb, const nesvm_params *prm,
                          int nssvm, nesvm_error *err);
void nv_ssvm_free(nv_ssvm *s);
/* Evaluate at s->z with margins s->m current: f, merit, gradients, the
 * Newton weights and J.  One or two X^T a. */
void nv_ssvm_eval(nv_ssvm *s);
/* The Newton direction d (D entries) at the evaluated point by `scheme`
 * (NV_SCHEME_*); cg_rtol: CG's relative residual.  Updates B for schemes
 * 1-2.  NOMEM when the scheme's dense matrices exceed the budget. */
nesvm_status nv_ssvm_direction(nv_ssvm *s, int scheme, double cg_rtol, double *d,
                               nesvm_error *err);

#endif
