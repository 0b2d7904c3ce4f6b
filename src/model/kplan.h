/*
 * kplan.h - the kernel plan of a training (not installed): how the kernel is
 * held, chosen once per training and shared by its binary sub-problems.
 *
 *   NV_KPLAN_LINEAR     no kernel: the solver runs on the data (its weight
 *                       vector is the model);
 *   NV_KPLAN_CACHE      GS-SVM, every kernel (linear too): one kernel column
 *                       cache over all training rows, in per-class segments
 *                       for one-vs-one (kcache.c); the model is the expansion
 *                       over the training rows (folded into w for linear);
 *   NV_KPLAN_EXPANSION  NESVM with a full kernel (C-SVM and LS-SVM, and LP-SVM
 *                       by Newton): the expansion coefficients; C-SVM by
 *                       Newton on a working set (expansion_ws.c) with one
 *                       kernel column cache over all rows (per-class segments
 *                       for one-vs-one), the others with the kernel matrix as
 *                       an operator (kmat.c), one stored matrix for all
 *                       sub-problems when it fits --kernel-memory, else one
 *                       per sub-problem (stored or on the fly);
 *   NV_KPLAN_FEATURES   a reduced basis, LP-SVM by Nesterov, and SSVM/NSSVM's
 *                       kernels: kernel features Phi (kernel.c) on which the
 *                       solver's linear path runs; the model is the basis and
 *                       its coefficients.
 */
#ifndef NESVM_KPLAN_H
#define NESVM_KPLAN_H

#include "model_internal.h"

typedef enum { NV_KPLAN_LINEAR, NV_KPLAN_CACHE, NV_KPLAN_EXPANSION, NV_KPLAN_FEATURES } nv_kplan_kind;

typedef struct nv_kplan {
    nv_kplan_kind kind;
    const nv_solver *solver;
    int kernel;           /* a kernel other than linear */
    int64_t nbasis;       /* the reduced basis size (0: none) */
    int shared_k;         /* EXPANSION: one kernel matrix for every sub-problem */
    int ws;               /* EXPANSION: C-SVM by Newton on a working set (kc) */
    int smo;              /* EXPANSION: C-SVM with a kernel that is not positive
                           * semi-definite: its dual by SMO on kc (smo.c), a
                           * stationary point without a certificate */
    nv_kernel kk;         /* the kernel, gamma resolved */
    int pc_psd;           /* a precomputed kernel's matrix (nv_kplan_precomputed): 1
                           * positive semi-definite, 0 not (pc_why says why), -1 not
                           * checked (the plan does not need it) */
    char pc_why[200];
    nv_kcache kc;         /* CACHE, and EXPANSION's working set */
    nv_kmat km;           /* EXPANSION, shared_k */
    nv_kfeat kf;          /* FEATURES */
    double *v;            /* a sub-problem's coefficients (expansion or features) */
    double *capv;         /* CACHE: a sub-problem's per-sample caps */
    int64_t *krows;       /* EXPANSION without shared_k: a sub-problem's data rows */
    int kstored;          /* EXPANSION: 1 all matrices stored, 0 one on the fly, 2 working
                           * set; -1 none */
    int64_t kevals;       /* EXPANSION: kernel values of the per-sub-problem matrices */
    int basis_sizes;      /* FEATURES: basis sizes built (more than 1: grown, basis_residual) */
    double basis_residual;/* FEATURES with the RKHS norm: the basis's Nystrom residual */
    int residual_known;   /* basis_residual is the current basis's */
    int basis_capped;     /* FEATURES grown: stopped by kernel_memory above basis_residual */
} nv_kplan;

/* A binary sub-problem as the driver builds it: sub_rows index the training
 * rows by position (CACHE, EXPANSION, FEATURES) or are data rows (LINEAR). */
typedef struct nv_subproblem {
    int i, j;             /* classes: i (+1) against j (-1; -1: the rest) */
    int64_t *rows;
    int64_t n;
    double *y, *cost, *cap;
} nv_subproblem;

/* Choose the plan (no allocation): the solver's kernel path, the basis size
 * for n rows, the kernel with gamma resolved over ds's features. */
void nv_kplan_choose(nv_kplan *kp, const nv_solver *solver, const nesvm_params *params,
                     const nesvm_dataset *ds, int64_t n);
/* A precomputed kernel's plan (others: nothing to do): the serial numbers
 * of the training rows rows[0..n) (NULL: all) checked (nv_pc_check_train),
 * and its matrix checked positive semi-definite (nv_kernel_pc_psd) where the
 * plan needs it: the full kernel's expansion and kernel features under the
 * RKHS norm, whose certificates hold for such matrices only; a C-SVM on one
 * that is not goes to SMO as the sigmoid kernel does.  Not distributed. */
nesvm_status nv_kplan_precomputed(nv_kplan *kp, const nesvm_params *params, const nesvm_dataset *ds,
                                  const int64_t *rows, int64_t n, const nv_comm *comm, nesvm_error *err);
/* Refuse a plan whose problem is not convex and has no solver for a
 * stationary point: a kernel that is not positive semi-definite
 * (nv_kernel_psd) with the LP-SVM or LS-SVM on the full kernel, or with
 * kernel features under the RKHS norm (their factor of K_BB needs it). */
nesvm_status nv_kplan_check(const nv_kplan *kp, const nesvm_params *params, nesvm_error *err);
/* Build it over the training rows (k classes, row_class: each row's class;
 * comm, several ranks: data-parallel, FEATURES only, a random basis). */
nesvm_status nv_kplan_build(nv_kplan *kp, const nesvm_params *params, const nesvm_dataset *ds,
                            const int64_t *rows, int64_t n, int k, int ovr, const int *row_class,
                            const nv_comm *comm, nesvm_error *err);
/* Do sub-problems index rows by position (not data rows)? */
static inline int nv_kplan_positions(const nv_kplan *kp) { return kp->kind != NV_KPLAN_LINEAR; }
/* Coefficients per sub-model of the model. */
int64_t nv_kplan_ncoef(const nv_kplan *kp, const nesvm_dataset *ds, int64_t n);
/* Coefficients of a sub-problem of n_sub rows as the solver sees them (a
 * checkpoint's resume point must have as many). */
int64_t nv_kplan_sub_ncoef(const nv_kplan *kp, const nesvm_dataset *ds, int64_t n_sub);
/* FEATURES: the basis rows into the model. */
nesvm_status nv_kplan_basis(const nv_kplan *kp, const nesvm_dataset *ds, const int64_t *rows,
                            nesvm_model *m, nesvm_error *err);
/* Train sub-problem sp into sub-model sm (its coefficients) and res, through
 * the solver's registry entry; pb holds the start (w0, b0: a warm start, a
 * path's last solution or a checkpoint's point, in the solver's units; GS-SVM
 * resumes through the sink). */
nesvm_status nv_kplan_train(nv_kplan *kp, const nv_solver *solver, const nesvm_dataset *ds,
                            const int64_t *rows, int64_t n, const nv_subproblem *sp,
                            nv_binary_problem *pb, const nesvm_params *prm,
                            const nv_progress_sink *sink, nv_binary_result *res, nv_submodel *sm,
                            nesvm_error *err);
/* The kernel counters into the statistics. */
void nv_kplan_stats(const nv_kplan *kp, nesvm_stats *stats);
void nv_kplan_free(nv_kplan *kp);

#endif
