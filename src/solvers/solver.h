/*
 * solver.h - what every solver family implements (not installed).
 *
 * A binary problem is a row subset of a dataset with +-1 targets and a cost
 * per sample (C times the class weight).  A solver fills a binary result.
 * Solvers never read files, print or exit; they report through the progress
 * sink, which may cancel at an iteration boundary.
 */
#ifndef NESVM_SOLVER_H
#define NESVM_SOLVER_H

#include "../comm/comm.h"
#include "../linalg/linalg.h"
#include "../params/param_table.h"
#include "../params/params_internal.h"
#include "loss/loss.h"

typedef struct nv_binary_problem {
    const nesvm_dataset *X;
    const int64_t *rows; /* NULL = rows 0..n-1 */
    int64_t n;
    const double *y;     /* +1 / -1, n entries */
    const double *cost;  /* C_i > 0, n entries */
    const double *w0;    /* initial weights (X->d entries) or NULL for zero */
    double b0;           /* initial bias */
    /* data-parallel training (issue 21): the rows above are this rank's share
     * of the problem, and every sum over rows is completed over c's ranks;
     * w, b and every d-sized vector are the same on every rank.  NULL (or one
     * rank): the rows are the whole problem.  Solvers with the registry's
     * `distributed` flag honour it. */
    const nv_comm *comm;
    /* NV_TARGET_SIGN (0: y = +-1, residual 1 - y f) or NV_TARGET_REAL (y real,
     * residual y - f; loss/loss.h); the solvers that take real targets say
     * so in the registry */
    int target;
} nv_binary_problem;

typedef struct nv_binary_result {
    double *w;           /* X->d entries, allocated by the caller */
    double b;
    nesvm_exit exit_reason;
    int64_t iterations;
    double seconds;
    double primal;       /* unsmoothed objective at (w, b) */
    double lower_bound;  /* NaN if unknown */
    double gap;          /* relative, NaN if unknown */
    int64_t n_sv;
    int64_t dots;        /* row products y_i <x_i, v> (Hyperpass, Pegasos), else 0 */
    int64_t axpys;       /* row updates v += a x_i (Hyperpass, Pegasos), else 0 */
    int64_t kernel_evals; /* kernel values of matrices the solver built itself (the
                           * working set's K_SS), else 0 */
    int64_t rounds;       /* the working set's rounds (sub-problems solved), else 0 */
    double mu;            /* NESVM: the smoothing of the dual point that gave lower_bound
                           * (alpha_i = c_i l'(r_i) at that mu), else NaN or 0 */
    double *dual;         /* NULL, or the caller's buffer of n entries (expansion.c's
                           * C-SVM): a_i y_i of the dual point that gave lower_bound,
                           * feasible (0 <= a <= c, sum a_i y_i = 0 with a bias); the
                           * SMO on nu-SVC and nu-SVR (expansion_smo.c's nu mode): its m
                           * variables a (nu-SVR's 2 n: a_k, then a_{n+k}) at the end */
    double nu_value;      /* nu-SVC: the margin rho (LIBSVM's r: the model is scaled by
                           * 1/rho, the C-SVM of C = 1/rho); nu-SVR: the tube's half-width
                           * epsilon; else 0 (expansion_wsn.c) */
} nv_binary_result;

/* A binary problem on the expansion coefficients of a full kernel: n rows
 * given as positions into a kernel matrix operator, or (C-SVM by Newton, the
 * working set of expansion_ws.c) into a kernel column cache (kernel.h). */
struct nv_kmat;
struct nv_kcache;
typedef struct nv_kernel_problem {
    struct nv_kmat *K;   /* the matrix operator, or NULL with kc */
    const int64_t *pos;  /* n positions into K or kc (NULL: 0..n-1) */
    int64_t n;
    const double *y;
    const double *cost;
    const double *beta0; /* initial expansion (n entries) or NULL for the solver's start */
    double b0;
    struct nv_kcache *kc; /* the working set's columns (K == NULL), else NULL */
    const int *groups;   /* the kc groups pos lies in (NULL: all) */
    int ngroups;
    int ws;              /* C-SVM by Newton on a working set of K's rows (with K) */
    int target;          /* NV_TARGET_SIGN or NV_TARGET_REAL (nv_binary_problem) */
    const double *f0;    /* with beta0: K beta0 over the n rows in double precision
                          * (the working set's exact margins), or NULL */
    /* epsilon-SVR's working set (expansion_wst.c): 1 when the rows are part of
     * a larger problem whose other coefficients are held, so that the bias's
     * constraint keeps sum beta at beta0's (not 0) and the objective has the
     * bias's term b sum beta; the evaluations are offset by d0 (the held
     * coefficients' part of the whole dual), so that P and D are of the
     * whole problem's scale.  0 and 0 otherwise. */
    int keep_sum;
    double d0;
    /* the one-class SVM (target NV_TARGET_NONE, expansion_wso.c): the margins
     * h = K_{rows, held} a_held of the coefficients held outside these rows,
     * the linear term of its dual on them, or NULL (none: the whole problem);
     * its sum of a is always kept at beta0's (LIBSVM's start without one) */
    const double *h;
    /* nu-SVC and nu-SVR (expansion_wsn.c): the dual point to start from, its m
     * variables a (nu-SVC n, a_i = y_i beta0_i; nu-SVR 2 n, a_k - a_{n+k} =
     * beta0_k), whose sums per sign the SMO keeps; NULL: from beta0, or
     * LIBSVM's start.  h as the one-class SVM's (nu-SVC: y_i h_i is the
     * linear term; nu-SVR takes the held part in its targets y). */
    const double *a0;
} nv_kernel_problem;

/* A solver's state at an iteration boundary, for checkpoints: the point to
 * resume from in the result's units (w: the nv_binary_result's w entries, b),
 * the iterations done, and state beyond (w, b) that an exact continuation
 * needs (GS-SVM: the selection order; Pegasos: step count, random state,
 * permutation, current iterate), or none. */
typedef struct nv_snapshot {
    const double *w;
    int64_t nw;
    double b;
    int64_t iteration;
    const double *extra;
    int64_t nextra;
} nv_snapshot;

typedef struct nv_progress_sink {
    nesvm_progress_fn fn;
    void *user;
    int submodel, n_submodels;
    /* checkpoints (model.c): called by nv_sink_report with the snapshot and
     * whether the run stops here; returns non-zero to stop (a failed write) */
    int (*ckpt)(void *ctx, const nv_snapshot *snap, int stopping);
    void *ckpt_ctx;
    /* a checkpoint's state to continue from (NULL: a fresh start); solvers
     * that warm-start from (w, b) get it through the problem's w0/b0 */
    const nv_snapshot *resume;
} nv_progress_sink;

/* Report progress at an iteration boundary: calls the user's callback (when
 * this iteration is reported) and the checkpoint hook; non-zero = stop
 * (cancelled by the user, or a checkpoint could not be written). */
int nv_sink_report(const nv_progress_sink *sink, const nesvm_progress *pg, int report,
                   const nv_snapshot *snap);

typedef nesvm_status (*nv_train_binary_fn)(const nv_binary_problem *pb, const nesvm_params *p,
                                           const nv_progress_sink *sink, nv_binary_result *res,
                                           nesvm_error *err);

struct nv_kernel_problem;
struct nv_gs_problem;
/* A full kernel's expansion (NV_KERNELS_NESVM) and a kernel column cache's
 * problem (NV_KERNELS_GS). */
typedef nesvm_status (*nv_train_expansion_fn)(const struct nv_kernel_problem *kp, const nesvm_params *p,
                                              const nv_progress_sink *sink, nv_binary_result *res,
                                              nesvm_error *err);
typedef nesvm_status (*nv_train_columns_fn)(const struct nv_gs_problem *gp, const nesvm_params *p,
                                            const nv_progress_sink *sink, nv_binary_result *res,
                                            nesvm_error *err);

/* A joint multiclass problem (multiclass cs or multinomial): every class's
 * weight vector in one problem, not a set of binary ones.  The rows are a
 * row subset of a dataset (linear only), each with its class index in
 * [0, k) and its cost C_i > 0; the solution is k weight vectors w_m (row m
 * of a k x d matrix) and k biases b_m (docs/solvers.md, "Joint multiclass
 * problems"; the exact problems: nesvm/multi.h). */
enum {
    NV_MULTI_CS = 0,      /* Crammer and Singer: max_m (1 - delta_{m,y} + f_m - f_y) */
    NV_MULTI_SOFTMAX = 1  /* multinomial logistic: log sum_m exp(f_m) - f_y */
};
enum {
    NV_MULTI_BIAS_NONE = 0, /* f_m = w_m.x */
    NV_MULTI_BIAS_FREE = 1, /* f_m = w_m.x + b_m, b free (sum_m b_m = 0: the softmax's is) */
    NV_MULTI_BIAS_REG = 2   /* a constant feature B regularized with w: b_m^2 / (2 B^2) */
};
typedef struct nv_multi_problem {
    const nesvm_dataset *X;
    const int64_t *rows; /* NULL = rows 0..n-1 */
    int64_t n;
    int k;               /* classes, 2 or more */
    const int *cls;      /* n class indices in [0, k) */
    const double *cost;  /* n costs C_i > 0 */
    int kind;            /* NV_MULTI_CS or NV_MULTI_SOFTMAX */
    int bias;            /* NV_MULTI_BIAS_* */
    double B;            /* NV_MULTI_BIAS_REG: the feature's value */
    const double *w0;    /* k x d initial weights, or NULL for zero */
    const double *b0;    /* k initial biases, or NULL for zero */
    /* data-parallel: these rows are this rank's share, every sum over rows
     * is completed over c's ranks, W and b the same on every rank */
    const nv_comm *comm;
} nv_multi_problem;

typedef struct nv_multi_result {
    double *w;           /* k x d, allocated by the caller */
    double *b;           /* k, allocated by the caller */
    nesvm_exit exit_reason;
    int64_t iterations;
    double seconds;
    double primal;       /* the unsmoothed objective at (W, b) */
    double lower_bound;  /* the best dual value of a feasible dual point */
    double gap;          /* relative, NaN if unknown */
    int64_t n_sv;        /* rows with non-zero dual coefficients */
    double mu;           /* Crammer and Singer: the smoothing of the dual point that gave
                          * lower_bound; the softmax: NaN */
} nv_multi_result;

typedef nesvm_status (*nv_train_multi_fn)(const nv_multi_problem *mp, const nesvm_params *p,
                                          const nv_progress_sink *sink, nv_multi_result *res,
                                          nesvm_error *err);

/* A solver family's registry entry: everything the driver needs to know of
 * it (the driver never checks a solver's name). */
typedef struct nv_solver {
    const char *name;
    /* the exact problem for each svm_type (NV_SVM_C, _LP, _LS, _LSSVR), as
     * written in model files; NULL where the solver has no such model */
    const char *problem[NV_SVM_TYPES];
    nv_train_binary_fn train_binary;       /* the linear path (and kernel features) */
    nv_train_expansion_fn train_expansion; /* a full kernel's expansion, or NULL */
    nv_train_columns_fn train_columns;     /* on kernel columns (GS-SVM), or NULL */
    int kernels;         /* NV_KERNELS_*: how it trains kernel models */
    double bias;         /* the default bias (params bias "auto") */
    /* the parameters it reads beyond those every solver reads (param_table.h:
     * NV_S_SOME rows), space-separated; uses_warm: read only with a
     * warm_start (hyperpass: Pegasos's batch) */
    const char *uses;
    const char *uses_warm;
    /* 1: its train_binary and train_columns run data-parallel over MPI ranks
     * (nv_binary_problem.comm, nv_gs_problem.comm); train_expansion never
     * does (the driver refuses a full kernel's expansion) */
    int distributed;
    /* ---- capabilities (nesvm_solver_describe tells programs; the CLI, grid,
     * easy and the Python estimators ask instead of comparing names) */
    int has_c;           /* 1: a cost C (c, lambda, class weights); 0: none (gs: early
                          * stopping, max_iter, is its regularizer) */
    /* the loss minimized for each svm_type, beside problem[]: "hinge",
     * "squared_hinge", "squared" (least squares), "" for none (gs: the
     * hard-margin dual); NULL where problem[] is */
    const char *loss[NV_SVM_TYPES];
    /* 1: the method is specific to its loss (Hyperpass's cutting planes and
     * Pegasos's subgradient of the hinge, SSVM/NSSVM's p-smoothing of the plus
     * function, GS-SVM's hard-margin dual); 0: a smoothed loss enters as a
     * value, derivative and curvature (NESVM) */
    int loss_specific;
    const char *tasks;   /* the tasks it solves, space-separated: "classification" */
    const char *memory;  /* the parameter bounding its kernel memory (LIBSVM's -m) */
    int certificate;     /* 1: a duality gap certifies its results; 0: its own
                          * stopping rule, no gap (gs) */
    /* how it trains a precomputed kernel (kernel precomputed, LIBSVM's -t
     * 4: kernel.h), in words for docs and messages; NULL: it does not (the
     * linear solvers) */
    const char *precomputed;
    /* the joint multiclass problems (multiclass cs, multinomial: linear, its
     * problem names in nv_solver_problem), or NULL: it does not solve them */
    nv_train_multi_fn train_multi;
} nv_solver;
enum {
    NV_KERNELS_NONE = 0,  /* linear models only */
    NV_KERNELS_NESVM = 1, /* NESVM's: the RKHS norm (expansion or transformed features) */
    NV_KERNELS_RSVM = 2,  /* kernel features always (GSVM full / RSVM reduced), b^2 regularized:
                           * the RKHS norm (features K(x, B) U^-1) or, with kernel_norm
                           * coef, ||beta||^2 (features K(x, B)) */
    NV_KERNELS_GS = 3     /* kernel only, on kernel columns (nv_gs_train; no train_binary) */
};

/* The registry's i-th entry, NULL past the last. */
const nv_solver *nv_solver_at(int i);
/* The registry: NULL if no solver has this name. */
const nv_solver *nv_solver_find(const char *name);
/* "nesvm, hyperpass, ...": every registered name, for messages. */
const char *nv_solver_names(char *buf, size_t size);
/* Does solver s read parameter `name` (given p's warm start)? */
int nv_solver_uses(const nv_solver *s, const char *name, const nesvm_params *p);
/* The solvers that read `name`: "pegasos, and hyperpass with --warm-start
 * pegasos:ITER" (into buf). */
const char *nv_solver_users(const char *name, char *buf, size_t size);
/* The problem a solver solves with these parameters, as model files name it,
 * into buf: its problem for the svm_type (svm_type and loss: NESVM's
 * c_svm_LOSS_l2 for a loss other than the svm_type's); a joint multiclass
 * problem's (crammer_singer_svm_hinge_l2, with _regularized_bias for a bias
 * B > 0; multinomial_logistic_regression_l2); an error naming why when it
 * cannot (no such model, a loss its method is not, a loss with svm_type lp
 * or ls, a joint problem the solver or the svm_type does not have). */
nesvm_status nv_solver_problem(const nv_solver *s, const nesvm_params *p, char *buf, size_t size,
                               nesvm_error *err);

/* The problem of a solver on kernel columns (the registry's train_columns:
 * GS-SVM, gs/gs.h): the n training positions of a kernel column cache. */
struct nv_kcache;
typedef struct nv_gs_problem {
    struct nv_kcache *kc;
    const int64_t *pos;  /* n positions into kc (NULL: 0..n-1) */
    const int *groups;   /* the kc groups pos lies in (NULL with pos NULL) */
    int ngroups;
    int64_t n;
    const double *y;
    const double *cap;   /* per-sample bound on alpha (INFINITY: hard margin) */
    double B2;           /* B^2 added to the kernel for a bias, else 0 */
    /* data-parallel (several ranks): the n positions are this rank's; each
     * step's arg-min is found over the ranks (nv_comm_minloc) and the chosen
     * row is broadcast, whose kernel column each rank computes for its rows;
     * res->w gets this rank's coefficients */
    const nv_comm *comm;
} nv_gs_problem;

/* Each family's entry points are in its own header: nesvm/nesvm_solver.h,
 * hyperpass/hyperpass.h (Hyperpass and Pegasos), newton/ssvm.h (SSVM and
 * NSSVM), gs/gs.h, smo/smo.h; registry.c includes them. */

/* The loss and the regularizer a NESVM training minimizes: --loss, or the
 * svm_type's (params.c: C-SVM hinge and L2, LP-SVM hinge and L1, LS-SVM and
 * LS-SVR squared and L2); NULL / 0 for an unknown svm_type or loss. */
const nv_loss *nv_params_loss(const nesvm_params *p);
/* The instance a training minimizes: nv_params_loss's loss with its tube's
 * half-width (-p, nv_loss_tube); every solver's objective takes it.  The
 * params must have a known loss (the registry checked them). */
nv_loss nv_params_loss_inst(const nesvm_params *p);
/* "hinge, squared, ...": every registered loss, for messages (losses.c). */
const char *nv_loss_names(char *buf, size_t size);
int nv_params_l1(const nesvm_params *p);

/* The solver's defaults (this registry's entries) for parameters left to
 * "auto": bias 1 for nesvm (a free bias) and ssvm/nssvm (a regularized
 * feature 1, the paper's H_i = y_i [x_i 1]), none for hyperpass and pegasos
 * (as the paper and LIBLINEAR's default). */
void nv_params_resolve(nesvm_params *p);
/* The reduced basis size for n training rows: params basis, or for "auto" the
 * solver's default (nesvm: 0, the full kernel; ssvm, nssvm: RSVM's 0.1 n
 * clipped to [100, 1000]; 0 when that reaches n). */
int64_t nv_params_basis(const nesvm_params *p, int64_t n);

#endif
