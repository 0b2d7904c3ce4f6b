/* params_internal.h - the params object (not installed). */
#ifndef NESVM_PARAMS_INTERNAL_H
#define NESVM_PARAMS_INTERNAL_H

#include "../core/internal.h"

/* multiclass: binary sub-problems one-vs-one or one-vs-rest, or one joint
 * problem of every class's weight vector (Crammer and Singer's SVM, the
 * multinomial logistic regression), kept as k sub-models like one-vs-rest's */
enum { NV_OVO = 0, NV_OVR = 1, NV_CS = 2, NV_MULTINOMIAL = 3 };
enum { NV_LIP_POWER = 0, NV_LIP_PAPER = 1 };
/* NESVM's method (the words' order); auto resolves per problem
 * (nv_nesvm_linear_train; newton for kernels) */
enum { NV_METHOD_NEWTON = 0, NV_METHOD_NESTEROV = 1, NV_METHOD_DCD = 2, NV_METHOD_AUTO = 3, NV_METHOD_CD = 4 };
/* Does NESVM's method on a full kernel's expansion run Newton (newton, or
 * auto, which is newton there)? */

enum {
    NV_SVM_C = 0,
    NV_SVM_LP = 1,
    NV_SVM_LS = 2,
    NV_SVM_LSSVR = 3,
    NV_SVM_SVR = 4,
    NV_SVM_ONECLASS = 5,
    NV_SVM_NUSVC = 6,
    NV_SVM_NUSVR = 7,
    NV_SVM_LOGISTIC = 8,
    NV_SVM_TYPES = 9
};
/* What each svm_type is (params.c: one row per svm_type, in the order of
 * its words): its word, its name in messages, and the task it learns
 * (nesvm.h: the driver finds classes for classification, keeps real targets
 * for regression, ignores the labels for novelty). */
typedef struct nv_svm_type_def {
    const char *word; /* "c" */
    const char *name; /* "C-SVM" */
    nesvm_task task;
    const char *loss; /* the loss its problem minimizes (solvers/loss/losses.c) */
    int l1;           /* its regularizer: 1 = ||w||_1, 0 = 1/2 ||w||^2 */
} nv_svm_type_def;
/* svm_type's row (NULL out of range). */
const nv_svm_type_def *nv_svm_type(int svm_type);
/* A task's word in model files (nesvm_task_str) back to the task: -1 for
 * another word. */
int nv_task_parse(const char *word);
enum { NV_CONT_ADAPTIVE = 0, NV_CONT_PAPER = 1 };
enum { NV_PENALTY_L2 = 0, NV_PENALTY_L1 = 1 };
/* bias_mode: the solver's (auto), unregularized, or a constant feature B
 * regularized with w (the words' order) */
enum { NV_BIAS_AUTO = 0, NV_BIAS_FREE = 1, NV_BIAS_REG = 2 };

struct nesvm_params {
    char solver[32];
    double c;
    double eps;
    double eps_abs;
    int svm_type;        /* NV_SVM_C, NV_SVM_LP, NV_SVM_LS, NV_SVM_LSSVR, NV_SVM_SVR, NV_SVM_ONECLASS,
                          * NV_SVM_NUSVC, NV_SVM_NUSVR, NV_SVM_LOGISTIC */
    double mu;           /* hinge smoothing; 0 = continuation */
    double nu;           /* L1 smoothing (LP-SVM); 0 = continuation */
    int continuation;    /* NV_CONT_ADAPTIVE, NV_CONT_PAPER */
    double mu0, nu0;     /* first stage's mu and nu; 0 = the method's default */
    double mu_star;      /* continuation ends at this mu; 0 = when the gap certifies eps */
    double stage_eps;    /* a stage ends at this smoothed gap; 0 = automatic */
    int64_t max_iter;
    double time_limit;
    int threads;
    uint64_t seed;
    double bias;         /* > 0: a bias (nesvm: free; hyperpass, pegasos: a constant
                          * feature of this value, regularized, as LIBLINEAR's -B);
                          * <= 0: none; NaN: the solver's default (resolved by training) */
    double lambda;       /* > 0: C = 1/(lambda n) per binary problem of n rows; 0 = use c */
    int shrinking;       /* hyperpass: line searches over a ball of hyperplanes */
    int64_t batch;       /* pegasos: mini-batch size */
    int64_t warm_pegasos;/* hyperpass: Pegasos iterations (epochs) first; 0 = none */
    int multiclass;
    int method;
    int lipschitz;
    int64_t progress_every;
    int kernel;          /* NV_KERNEL_* (kernel/kernel.h); linear = the weight-vector path */
    double gamma;        /* 0 = 1/num_features */
    int degree;
    double coef0;
    int64_t basis;       /* reduced basis size; 0 = the full kernel; -1 = the solver's
                          * default (nv_params_basis) */
    int basis_select;    /* NV_BASIS_RANDOM, NV_BASIS_GREEDY (kernel/kernel.h) */
    double smooth_p;     /* ssvm, nssvm: the smoothing parameter p */
    int scheme;          /* ssvm, nssvm: NV_SCHEME_* (solvers/newton/ssvm.h) */
    double tau;          /* ssvm, nssvm: Newton weights below tau are pruned */
    int merit;           /* ssvm, nssvm: NV_MERIT_* (line-search function) */
    double cap;          /* gs: alpha_i <= cap C_i-weight (soft margin); 0 = none */
    double epsilon;      /* svm_type svr: the tube's half-width (LIBSVM's -p) */
    double cache_size;   /* gs: kernel column cache, MB (LIBSVM's -m) */
    double kernel_memory;/* MB for kernel matrices */
    int kernel_norm;     /* ssvm, nssvm kernels: NV_KNORM_RKHS (beta^T K_BB beta, Nystrom
                          * features) or NV_KNORM_COEF (||beta||^2, GSVM/RSVM's) */
    double basis_residual;/* ssvm, nssvm, basis auto with kernel_norm rkhs: the basis doubles
                          * until the Nystrom residual is at most this */
    int probability;     /* 1: fit Platt sigmoids by internal 5-fold CV (model/prob.c) */
    int restart;         /* nesvm, method nesterov: 1 = restart the estimate sequence when
                          * F_mu increases (adaptive restart); 0 = the paper's Algorithm 1 */
    char loss[32];       /* "auto" (the solver's for the svm_type) or a loss of the
                          * registry (solvers/loss/losses.c); the solvers check it */
    double svm_nu;       /* svm_type one-class: LIBSVM's nu in (0, 1], sum a = nu x the
                          * rows' total weight (expansion_wso.c); nu-svc, nu-svr: each
                          * sign's sum of a is nu/2 x the total cost (expansion_wsn.c) */
    int penalty;         /* NV_PENALTY_L2 or NV_PENALTY_L1 (svm_type c and logistic; lp is
                          * always l1): nv_params_l1 */
    int bias_mode;       /* NV_BIAS_AUTO, NV_BIAS_FREE or NV_BIAS_REG (with bias > 0):
                          * nv_params_bias_feature */
    int n_weights;
    double *weight_label;
    double *weight;
    uint64_t set_mask;   /* bit i: parameter i of the table given by nesvm_params_set */
};

/* Does the model have a bias?  (p->bias resolved: see nv_params_resolve.) */
static inline int nv_params_bias(const nesvm_params *p) { return p->bias > 0; }
/* Does a solver whose bias is free by default (NESVM's binary problems) get
 * it as a constant feature B regularized with w instead (bias_mode
 * regularized: LIBLINEAR's -B; solvers/bias_feature.h)? */
static inline int nv_params_bias_feature(const nesvm_params *p)
{
    /* (one-class, nu-SVC and nu-SVR: their offsets are their problems', free) */
    /* (bias auto, NaN until nv_params_resolve: NESVM's, 1) */
    return !(p->bias <= 0) && p->bias_mode == NV_BIAS_REG && p->svm_type != NV_SVM_ONECLASS &&
           p->svm_type != NV_SVM_NUSVC && p->svm_type != NV_SVM_NUSVR;
}
static inline int nv_params_newton(const nesvm_params *p)
{
    return p->method == NV_METHOD_NEWTON || p->method == NV_METHOD_AUTO;
}
/* nu-SVC or nu-SVR (LIBSVM's -s 1 and -s 4: expansion_wsn.c)? */
static inline int nv_params_nu_type(const nesvm_params *p)
{
    return p->svm_type == NV_SVM_NUSVC || p->svm_type == NV_SVM_NUSVR;
}
/* Is the multiclass scheme a joint problem (cs, multinomial)? */
static inline int nv_params_joint(const nesvm_params *p)
{
    return p->multiclass == NV_CS || p->multiclass == NV_MULTINOMIAL;
}
/* Does a classifier of k classes predict the argmax of its k sub-models'
 * decision values (one-vs-rest with more than two classes, a joint problem
 * with any number), rather than by votes or the one sub-model's sign? */
static inline int nv_params_argmax(const nesvm_params *p, int k)
{
    return (p->multiclass == NV_OVR && k > 2) || nv_params_joint(p);
}
/* The solver's defaults for "auto" values (bias, basis) are the registry's:
 * nv_params_resolve and nv_params_basis in solvers/solver.h. */

/* C multiplier for a label (1 if not set). */
double nv_params_class_weight(const nesvm_params *p, double label);
/* The name of parameter i of the table (param_table.h), NULL past the last:
 * model files and checkpoints list them in this order. */
const char *nv_param_name(int i);

#endif
