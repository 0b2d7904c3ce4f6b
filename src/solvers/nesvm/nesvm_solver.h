/*
 * nesvm_solver.h - the NESVM family's entry points (not installed; the
 * public header is include/nesvm.h): the registry's train_binary
 * (nv_nesvm_linear_train) and train_expansion (nv_nesvm_expansion_train),
 * and the methods behind them.
 */
#ifndef NESVM_NESVM_SOLVER_H
#define NESVM_NESVM_SOLVER_H

#include "../solver.h"

/* The linear models (and kernel features) by Newton (newton.c) or Nesterov
 * (nesterov.c): nv_nesvm_linear_train sends method newton to
 * nv_nesvm_newton_train. */
nesvm_status nv_nesvm_newton_train(const nv_binary_problem *pb, const nesvm_params *p,
                                   const nv_progress_sink *sink, nv_binary_result *res,
                                   nesvm_error *err);
/* Does the exact Newton step's largest matrix (d x d) fit the memory the
 * step may use (the data's own storage, within newton.c's floor and cap)? */
int nv_nesvm_newton_exact(const nv_binary_problem *pb);
/* The exact hinge's active-set finish (pdas.c), tried at Newton's stage
 * ends: does it take this objective (the hinge under the L2 norm, sign
 * targets, one rank)?  From alpha in o->a and the margins of (w, *b) in
 * o->m, each iterate goes to tr; returns 1 when tr stopped the training
 * (*st, err set on an error), 0 when it gave up (o->m, o->a, o->vp/vn then
 * hold its last iterate's; w is scratch of d entries).  room: the bytes
 * its matrices may use. */
struct nv_track;
struct nv_obj;
int nv_nesvm_pdas_takes(const struct nv_obj *o);
int nv_nesvm_pdas(struct nv_obj *o, struct nv_track *tr, double room, double *w, double *b, nesvm_status *st,
                  nesvm_error *err);
/* The linear models' dual method (dcd.c): dual coordinate descent to the
 * certified gap, for the L2 norm on one process with NESVM's default
 * smoothing options (nv_nesvm_dcd_takes; the smoothed problem is not its). */
int nv_nesvm_dcd_takes(const nv_binary_problem *pb, const nesvm_params *p);
nesvm_status nv_nesvm_dcd_train(const nv_binary_problem *pb, const nesvm_params *p,
                                const nv_progress_sink *sink, nv_binary_result *res,
                                nesvm_error *err);
/* The L1 norm's method (cd.c): proximal Newton with coordinate descent
 * over the features on the exact problem, for a differentiable loss on one
 * process with NESVM's default smoothing options (nv_nesvm_cd_takes). */
int nv_nesvm_cd_takes(const nv_binary_problem *pb, const nesvm_params *p);
nesvm_status nv_nesvm_cd_train(const nv_binary_problem *pb, const nesvm_params *p,
                               const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err);
/* The method auto chooses for a linear problem (newton.c's or dcd.c's;
 * docs/solvers.md, "Choosing the method"); other methods as asked. */
int nv_nesvm_method(const nv_binary_problem *pb, const nesvm_params *p);
nesvm_status nv_nesvm_linear_train(const nv_binary_problem *pb, const nesvm_params *p,
                                   const nv_progress_sink *sink, nv_binary_result *res,
                                   nesvm_error *err);
/* The joint multiclass problems (multi.c, the registry's train_multi):
 * Crammer and Singer's SVM and the multinomial logistic regression by
 * truncated Newton, the former on its entropy-smoothed max with
 * continuation; multi.h states the problems, their duals and the
 * certificate. */
nesvm_status nv_nesvm_multi_train(const nv_multi_problem *mp, const nesvm_params *p,
                                  const nv_progress_sink *sink, nv_multi_result *res, nesvm_error *err);
/* The three models on a full kernel's expansion (expansion.c): C-SVM and
 * LS-SVM by Newton or Nesterov in the K metric, LP-SVM by Newton in the
 * Euclidean metric (not Nesterov); res->w gets the n expansion
 * coefficients. */
nesvm_status nv_nesvm_kernel_train(const nv_kernel_problem *kp, const nesvm_params *p,
                                   const nv_progress_sink *sink, nv_binary_result *res,
                                   nesvm_error *err);
/* NESVM's full-kernel entry (the registry's train_expansion,
 * expansion_ws.c): C-SVM by Newton on a working set when kp->kc or kp->ws
 * is set (the columns from kp->kc, or from the stored matrix kp->K; the
 * sub-problems go through nv_nesvm_kernel_train), else
 * nv_nesvm_kernel_train. */
nesvm_status nv_nesvm_expansion_train(const nv_kernel_problem *kp, const nesvm_params *p,
                                      const nv_progress_sink *sink, nv_binary_result *res,
                                      nesvm_error *err);
/* Does the working set take the problem these options ask for?  The hinge
 * under the L2 norm (its sub-problems by SMO or Newton, not Nesterov), and
 * epsilon-SVR's tube under the L2 norm where the kernel dual method takes it
 * (method auto or dcd, exact: nv_kx_smo_params; --method newton keeps the
 * whole matrix as an operator): their selection needs sparse duals, and
 * their double-precision certificates are their box duals (expansion_ws.c). */
int nv_nesvm_ws_takes(const nesvm_params *p);
/* Do these options ask for a problem the kernel dual method solves
 * (expansion_smo.c): the hinge under the L2 norm, exact (no fixed
 * smoothing)?  kplan.c refuses --method dcd on a full kernel otherwise. */
int nv_kx_smo_params(const nesvm_params *p);

#endif
