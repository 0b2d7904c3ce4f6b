/* params.c - training parameters, set and read by name. */
#include "param_table.h"
#include "params_internal.h"
#include "../kernel/kernel.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Scale-like values (costs, smoothing, gamma, ...) live in [1e-100, 1e100]:
 * beyond it squares and products of them over- or underflow in double
 * precision, and training would fail (or stall) far from the option. */
#define VMIN 1e-100
#define VMAX 1e100
/* the smallest relative gap double precision certifies */
#define EPS_MIN 1e-15

static const char *const svm_type_words[] = {"c", "lp", "ls", "ls-svr", "svr", "one-class", "nu-svc", "nu-svr", "logistic", NULL};
/* One row per svm_type, in svm_type_words' order: the task it learns. */
static const nv_svm_type_def svm_types[] = {
    {"c", "C-SVM", NESVM_TASK_CLASSIFICATION, "hinge", 0},
    {"lp", "LP-SVM", NESVM_TASK_CLASSIFICATION, "hinge", 1},
    {"ls", "LS-SVM", NESVM_TASK_CLASSIFICATION, "squared", 0},
    {"ls-svr", "LS-SVR", NESVM_TASK_REGRESSION, "squared", 0},
    {"svr", "epsilon-SVR", NESVM_TASK_REGRESSION, "epsilon_insensitive", 0},
    /* LIBSVM's -s 2: the hinge of r = rho - f (loss.h's NV_TARGET_NONE) */
    {"one-class", "one-class SVM", NESVM_TASK_NOVELTY, "hinge", 0},
    /* LIBSVM's -s 1 and -s 4: the hinge with its margin rho, and the tube
     * with its half-width, each a variable of the problem (expansion_wsn.c) */
    {"nu-svc", "nu-SVC", NESVM_TASK_CLASSIFICATION, "hinge", 0},
    {"nu-svr", "nu-SVR", NESVM_TASK_REGRESSION, "epsilon_insensitive", 0},
    /* LIBLINEAR's -s 0 and -s 7: the log-likelihood, its probabilities
     * native (the model's sigmoid, no Platt fit: train_api.c) */
    {"logistic", "logistic regression", NESVM_TASK_CLASSIFICATION, "logistic", 0},
};
#define NSVM_TYPES ((int)(sizeof svm_types / sizeof svm_types[0]))
_Static_assert(sizeof svm_types / sizeof svm_types[0] == sizeof svm_type_words / sizeof svm_type_words[0] - 1,
               "one row of svm_types per word of svm_type");
/* The tasks' words (nesvm_task_str, model files), in nesvm_task's order. */
static const char *const task_words[] = {"classification", "regression", "novelty"};
#define NTASKS ((int)(sizeof task_words / sizeof task_words[0]))
static const char *const continuation_words[] = {"adaptive", "paper", NULL};
static const char *const multiclass_words[] = {"ovo", "ovr", "cs", "multinomial", NULL};
static const char *const penalty_words[] = {"l2", "l1", NULL};
static const char *const bias_mode_words[] = {"auto", "free", "regularized", NULL};
static const char *const method_words[] = {"newton", "nesterov", "dcd", "auto", "cd", NULL};
static const char *const lipschitz_words[] = {"power", "paper", NULL};
static const char *const kernel_words[] = {"linear", "poly", "rbf", "sigmoid", "precomputed", NULL};
static const char *const basis_select_words[] = {"random", "greedy", NULL};
static const char *const scheme_words[] = {"optimal", "1", "2", "3", "cg", NULL};
static const char *const merit_words[] = {"smooth", "f", NULL};
static const char *const kernel_norm_words[] = {"rkhs", "coef", NULL};

#define F(field) offsetof(struct nesvm_params, field)
#define RANGE "a number in [1e-100, 1e100]"

/* The order is the model files' (and the checkpoints' hash's): append new
 * rows at the end. */
/* clang-format off */
static const nv_param_def table[] = {
    {"solver", NV_PT_NAME, F(solver), "nesvm", 0, 0, 0, 0, NULL, "nesvm, hyperpass, pegasos, ssvm, nssvm or gs",
     NV_S_ALL, 0, "solver", "NAME", "nesvm: NESVM, every model, linear and kernel; hyperpass: cutting planes with exact line search, C-SVM, linear; pegasos: mini-batch subgradient steps, C-SVM, linear; ssvm, nssvm: smoothing Newton, squared hinge, linear and kernel (GSVM/RSVM); gs: greedy stagewise kernel SVM, no C"},
    {"svm_type", NV_PT_WORD, F(svm_type), "c", 0, 0, 0, 0, svm_type_words, "c, lp, ls, ls-svr, svr, one-class, nu-svc, nu-svr or logistic", NV_S_ALL, 0,
     "svm_type", "c|lp|ls|ls-svr|svr|one-class|nu-svc|nu-svr|logistic", "c: C-SVM, 1/2||w||^2 + C sum hinge; lp: LP-SVM, ||w||_1 + C sum hinge (sparse weights); ls: LS-SVM, 1/2||w||^2 + C sum (1 - y f(x))^2; ls-svr: least-squares regression (kernel ridge), 1/2||w||^2 + C sum (y - f(x))^2 on real targets; svr: epsilon-SVR, 1/2||w||^2 + C sum max(0, |y - f(x)| - p) (--loss squared_epsilon_insensitive: its square, LIBLINEAR's -s 11); one-class: the one-class SVM (LIBSVM's -s 2, labels ignored), 1/2||w||^2 + sum max(0, rho - w.x) - nu n rho, +1 where w.x > rho; nu-svc, nu-svr: LIBSVM's nu-SVC and nu-SVR (-s 1, -s 4), the margin rho and the tube's half-width variables of the problem (nesvm train --help); logistic: logistic regression, 1/2||w||^2 + C sum log(1 + exp(-y f(x))) (LIBLINEAR's -s 0 and -s 7), probabilities native"},
    {"c", NV_PT_REAL, F(c), "1", VMIN, VMAX, 0, 0, NULL, RANGE, NV_S_SOME, NV_W_C, "c", "C", "cost C in [1e-100, 1e100]"},
    {"eps", NV_PT_REAL, F(eps), "0.001", EPS_MIN, 1, NV_PF_HI_OPEN, 0, NULL,
     "a number in [1e-15, 1) (smaller gaps cannot be certified in double precision)", NV_S_SOME, 0, "e", "EPS",
     "stop at the certified relative duality gap EPS in [1e-15, 1) (pegasos: at least 1e-6; the C-SVM with a kernel that is not positive semi-definite: at LIBSVM's KKT tolerance EPS, no gap)"},
    {"eps_abs", NV_PT_REAL, F(eps_abs), "0", 0, INFINITY, 0, 0, NULL, "a number >= 0", NV_S_SOME, 0, "eps_abs",
     "E", "also stop at the papers' absolute rule: hyperpass, pegasos (P - lower bound) / sum_i C_i < E (a certificate); nesvm |F_mu(w_k+1) - F_mu(w_k)| < E, ssvm, nssvm ||G_p|| < E (no certificate: exit eps-abs); 0 = off"},
    {"mu", NV_PT_REAL, F(mu), "0", VMIN, VMAX, NV_PF_ZERO, 0, NULL,
     "0 (continuation) or a number in [1e-100, 1e100]", NV_S_SOME, 0, "mu", "MU",
     "fixed hinge smoothing; 0 = continuation"},
    {"nu", NV_PT_REAL, F(nu), "0", VMIN, VMAX, NV_PF_ZERO, 0, NULL,
     "0 (continuation) or a number in [1e-100, 1e100]", NV_S_SOME, NV_W_LP, "nu", "NU",
     "fixed L1 smoothing (LP-SVM); 0 = continuation"},
    {"continuation", NV_PT_WORD, F(continuation), "adaptive", 0, 0, 0, 0, continuation_words,
     "adaptive or paper", NV_S_SOME, 0, "continuation", "adaptive|paper",
     "how mu (and nu) shrink: adaptively from the gap, or homotopy NESVM's mu0/(t+1) (Algorithm 2)"},
    {"mu0", NV_PT_REAL, F(mu0), "0", VMIN, VMAX, NV_PF_ZERO, 0, NULL,
     "0 (default) or a number in [1e-100, 1e100]", NV_S_SOME, 0, "mu0", "MU0",
     "first stage's smoothing; 0 = the method's default"},
    {"nu0", NV_PT_REAL, F(nu0), "0", VMIN, VMAX, NV_PF_ZERO, 0, NULL,
     "0 (default) or a number in [1e-100, 1e100]", NV_S_SOME, NV_W_LP, "nu0", "NU0",
     "first stage's L1 smoothing (LP-SVM); 0 = the method's default"},
    {"mu_star", NV_PT_REAL, F(mu_star), "0", VMIN, VMAX, NV_PF_ZERO, 0, NULL,
     "0 (none) or a number in [1e-100, 1e100]", NV_S_SOME, 0, "mu_star", "MU",
     "last stage's mu; 0 = until the certified gap is EPS"},
    {"stage_eps", NV_PT_REAL, F(stage_eps), "0", 0, 1, NV_PF_HI_OPEN, 0, NULL,
     "a number in [0, 1) (0 = automatic)", NV_S_SOME, 0, "stage_eps", "E",
     "a stage ends at smoothed relative gap E; 0 = automatic"},
    {"max_iter", NV_PT_I64, F(max_iter), "100000", 1, INFINITY, 0, 0, NULL, "an integer > 0", NV_S_ALL, 0,
     "max_iter", "N", "iteration limit per binary problem (gs: at most N basis functions)"},
    {"time_limit", NV_PT_REAL, F(time_limit), "0", 0, INFINITY, 0, 0, NULL, "seconds >= 0 (0 = none)",
     NV_S_ALL, 0, "time_limit", "SEC", "stop the training (all its binary models; with -v, each fold's) after SEC seconds; 0 = none"},
    {"threads", NV_PT_INT, F(threads), "1", 0, 4096, 0, 0, NULL, "an integer in [0, 4096] (0 = all cores)",
     NV_S_ALL, 0, "threads", "N", "threads for reading and training (the CLI sets OpenBLAS's to it too); 0 = all cores"},
    {"seed", NV_PT_U64, F(seed), "1", 0, INFINITY, 0, 0, NULL, "a non-negative integer", NV_S_ALL, 0, "seed",
     "S", "random seed"},
    {"bias", NV_PT_REAL, F(bias), "auto", -INFINITY, VMAX, NV_PF_AUTO, NAN, NULL,
     "a number <= 1e100 (> 0: a bias, <= 0: none) or auto", NV_S_ALL, NV_W_COST, "", "B",
     "> 0: a bias; <= 0: none; auto: the solver's default (nesvm: a free bias; ssvm, nssvm: 1; hyperpass, pegasos, gs: none)"},
    {"multiclass", NV_PT_WORD, F(multiclass), "ovo", 0, 0, 0, 0, multiclass_words, "ovo, ovr, cs or multinomial",
     NV_S_ALL, 0, "multiclass", "ovo|ovr|cs|multinomial",
     "one-vs-one or one-vs-rest binary problems, or one joint problem of every class's weights: cs, Crammer and Singer's multiclass SVM (--svm-type c, LIBLINEAR's -s 4, no bias; -B B > 0: a constant feature B, regularized); multinomial, softmax logistic regression (--svm-type logistic, scikit-learn's multi_class='multinomial'; a free bias, -B 0 none); linear, solver nesvm"},
    {"method", NV_PT_WORD, F(method), "auto", 0, 0, 0, 0, method_words, "newton, nesterov, dcd, cd or auto",
     NV_S_SOME, 0, "method", "auto|newton|nesterov|dcd|cd", "how NESVM minimizes: truncated Newton on the smoothed objective, the paper's Nesterov steps (33)-(35), the exact problem's dual (linear, L2 norm, one process: coordinate descent; a full kernel's C-SVM or epsilon-SVR: SMO on the working set), cd: proximal Newton with coordinate descent over the features on the exact problem (linear, L1 norm, a differentiable loss, one process), or auto: cd where it applies, dcd for a full kernel's C-SVM or epsilon-SVR and where the Newton matrix does not fit, else newton"},
    {"lipschitz", NV_PT_WORD, F(lipschitz), "power", 0, 0, 0, 0, lipschitz_words, "power or paper",
     NV_S_SOME, 0, "lipschitz", "power|paper", "Nesterov step size from a power-iteration estimate, or eq. (48)"},
    {"progress_every", NV_PT_I64, F(progress_every), "1", 1, INFINITY, 0, 0, NULL, "an integer > 0",
     NV_S_ALL, 0, "", "N", "call the progress callback every N iterations"},
    {"kernel", NV_PT_WORD, F(kernel), "linear", 0, 0, NV_PF_LIBSVM_T, 0, kernel_words,
     "linear, poly, rbf, sigmoid, precomputed or 0-4", NV_S_ALL, 0, "t kernel", "K",
     "linear, poly, rbf, sigmoid, precomputed (the data are the kernel matrix: LIBSVM's 0:i format), or LIBSVM's 0-4"},
    {"gamma", NV_PT_REAL, F(gamma), "0", VMIN, VMAX, NV_PF_ZERO, 0, NULL,
     "0 (1/num_features) or a number in [1e-100, 1e100]", NV_S_ALL, NV_W_GAMMA, "g gamma", "G",
     "gamma of poly/rbf/sigmoid; 0 = 1/num_features"},
    {"degree", NV_PT_INT, F(degree), "3", 0, 1000, 0, 0, NULL, "an integer in [0, 1000]", NV_S_ALL,
     NV_W_POLY, "d degree", "D", "degree of poly"},
    {"coef0", NV_PT_REAL, F(coef0), "0", -VMAX, VMAX, 0, 0, NULL, "a number in [-1e100, 1e100]", NV_S_ALL,
     NV_W_COEF0, "r coef0", "R", "coef0 of poly/sigmoid"},
    {"basis", NV_PT_I64, F(basis), "auto", 0, INFINITY, NV_PF_AUTO, -1, NULL,
     "an integer >= 0 (0 = the full kernel) or auto", NV_S_SOME, NV_W_KERNEL, "basis", "M|auto",
     "reduced kernel of M basis vectors; 0 = the full kernel; auto: nesvm full, ssvm/nssvm 0.1 n clipped to [100, 1000] (RSVM's), doubled until --basis-residual with --kernel-norm rkhs (full when that reaches n)"},
    {"kernel_memory", NV_PT_REAL, F(kernel_memory), "4096", 0, INFINITY, NV_PF_LO_OPEN, 0, NULL,
     "megabytes > 0", NV_S_SOME, 0, "kernel_memory", "MB",
     "memory for kernel matrices; a full kernel that does not fit is computed on the fly; also bounds ssvm/nssvm's dense Newton matrices"},
    {"lambda", NV_PT_REAL, F(lambda), "0", VMIN, VMAX, NV_PF_ZERO, 0, NULL,
     "0 (use c) or a number in [1e-100, 1e100]", NV_S_SOME, NV_W_COST, "lambda", "L",
     "L > 0: C = 1/(L n) for each binary problem of n rows (the papers' lambda/2 ||w||^2 + mean hinge); 0 = use -c"},
    {"shrinking", NV_PT_INT, F(shrinking), "1", 0, 1, 0, 0, NULL, "0 or 1", NV_S_SOME, 0, "shrinking",
     "0|1", "hyperpass: line searches over a ball of the nearest hyperplanes"},
    {"batch", NV_PT_I64, F(batch), "1000", 1, INFINITY, 0, 0, NULL, "an integer > 0",
     NV_S_SOME, 0, "batch", "K", "pegasos: mini-batch size; one iteration is a pass of n/K steps"},
    {"warm_start", NV_PT_WARM, F(warm_pegasos), "none", 0, 0, 0, 0, NULL,
     "none or pegasos:ITER (ITER > 0)", NV_S_SOME, 0, "warm_start", "none|pegasos:ITER",
     "hyperpass: start from ITER Pegasos passes"},
    {"basis_select", NV_PT_WORD, F(basis_select), "random", 0, 0, 0, 0, basis_select_words,
     "random or greedy", NV_S_SOME, NV_W_KERNEL, "basis_select", "random|greedy",
     "reduced basis drawn at random (seeded) or the pivots of a greedy pivoted Cholesky of K"},
    {"smooth_p", NV_PT_REAL, F(smooth_p), "1e8", VMIN, VMAX, 0, 0, NULL, RANGE, NV_S_SOME, 0,
     "smooth_p", "P", "smoothing parameter p"},
    {"scheme", NV_PT_WORD, F(scheme), "optimal", 0, 0, 0, 0, scheme_words, "optimal, 1, 2, 3 or cg", NV_S_SOME,
     0, "scheme", "optimal|1|2|3|cg", "Newton system: optimal picks SMW (3) when |J| <= D, else the updated Hessian (2); 1 forms the Hessian each step; cg: conjugate gradients"},
    {"tau", NV_PT_REAL, F(tau), "1e-10", 0, 1, NV_PF_HI_OPEN, 0, NULL, "a number in [0, 1)", NV_S_SOME, 0,
     "tau", "T", "prune Newton weights below T"},
    {"merit", NV_PT_WORD, F(merit), "smooth", 0, 0, 0, 0, merit_words, "smooth or f", NV_S_SOME, 0, "merit",
     "smooth|f", "Armijo on the smoothed function or on f"},
    {"cap", NV_PT_REAL, F(cap), "0", VMIN, VMAX, NV_PF_ZERO, 0, NULL,
     "0 (none) or a number in [1e-100, 1e100]", NV_S_SOME, 0, "cap", "C",
     "soft margin: alpha_i <= C (times -w weights); 0 = none (the hard-margin dual)"},
    {"cache_size", NV_PT_REAL, F(cache_size), "100", 0, INFINITY, 0, 0, NULL,
     "megabytes >= 0 (0 = no cache)", NV_S_SOME, 0, "cache_size", "MB", "kernel column cache; 0 = none"},
    {"kernel_norm", NV_PT_WORD, F(kernel_norm), "rkhs", 0, 0, 0, 0, kernel_norm_words, "rkhs or coef", NV_S_SOME,
     NV_W_KERNEL, "kernel_norm", "rkhs|coef",
     "ssvm/nssvm kernels: penalize the RKHS norm beta^T K_BB beta (Nystrom features: the full kernel's problem as the basis grows) or the paper's ||beta||^2 (GSVM/RSVM)"},
    {"basis_residual", NV_PT_REAL, F(basis_residual), "0.15", 0, 1, NV_PF_LO_OPEN, 0, NULL,
     "a number in (0, 1]", NV_S_SOME, NV_W_KERNEL, "basis_residual", "R",
     "ssvm/nssvm, --basis auto with --kernel-norm rkhs: double the basis from RSVM's 0.1 n until the Nystrom residual (the share of the rows' squared RKHS norm outside the basis's span) is at most R"},
    {"probability", NV_PT_INT, F(probability), "0", 0, 1, 0, 0, NULL, "0 or 1", NV_S_ALL, 0, "b probability",
     "0|1", "1: probability estimates (Platt's sigmoid per binary model fitted by internal 5-fold cross-validation, pairwise coupling for one-vs-one), as LIBSVM's -b 1"},
    {"restart", NV_PT_INT, F(restart), "1", 0, 1, 0, 0, NULL, "0 or 1", NV_S_SOME, 0, "restart", "0|1",
     "nesvm --method nesterov: restart the estimate sequence when F_mu increases (adaptive restart); 0 = the paper's plain Algorithm 1"},
    {"loss", NV_PT_NAME, F(loss), "auto", 0, 0, 0, 0, NULL, "auto or a loss name", NV_S_SOME, 0, "loss", "NAME",
     "the loss: auto (the solver's for the svm_type: nesvm's hinge for c and lp, squared for ls and ls-svr, epsilon_insensitive for svr) or a loss by name (an unknown name lists them); nesvm takes any classifier's loss with --svm-type c (problem c_svm_LOSS_l2) and either tube with --svm-type svr (svr_LOSS_l2), the other solvers only their own"},
    {"epsilon", NV_PT_REAL, F(epsilon), "0.1", 0, VMAX, 0, 0, NULL, "a number in [0, 1e100]", NV_S_SOME, NV_W_SVR,
     "p epsilon", "P", "svr: the tube's half-width (LIBSVM's -p): residuals within P cost nothing"},
    {"svm_nu", NV_PT_REAL, F(svm_nu), "0.5", 0, 1, NV_PF_LO_OPEN, 0, NULL,
     "a number in (0, 1] (the n coefficients, each in [0, 1], sum to nu n: infeasible for nu > 1, LIBSVM's "
     "'specified nu is infeasible'; none but zero for nu <= 0)",
     NV_S_SOME, NV_W_NU, "n svm_nu", "NU",
     "one-class, nu-svc, nu-svr: LIBSVM's nu (-n), an upper bound on the fraction of training rows outside (one-class: "
     "decision value < 0; nu-svc: margin errors; nu-svr: outside the tube) and a lower bound on the fraction of "
     "support vectors"},
    {"penalty", NV_PT_WORD, F(penalty), "l2", 0, 0, 0, 0, penalty_words, "l2 or l1", NV_S_SOME, NV_W_PENALTY,
     "penalty", "l2|l1",
     "c, logistic: the regularizer, 1/2||w||^2 (l2) or ||w||_1 (l1: sparse weights; c with the hinge is LP-SVM, "
     "--loss squared_hinge LIBLINEAR's -s 5, logistic its -s 6)"},
    {"bias_mode", NV_PT_WORD, F(bias_mode), "auto", 0, 0, 0, 0, bias_mode_words, "auto, free or regularized",
     NV_S_ALL, NV_W_COST, "bias_mode", "auto|free|regularized",
     "with -B B > 0: free, an unregularized bias (scikit-learn's intercept; nesvm's default); regularized, a "
     "constant feature B whose weight the regularizer takes with w (LIBLINEAR's -B, --liblinear N -B B; hyperpass, "
     "pegasos, ssvm, nssvm, gs and --multiclass cs have no other); auto: the solver's"},
};
/* clang-format on */

#undef F
#undef RANGE

#define NPARAMS ((int)(sizeof table / sizeof table[0]))
_Static_assert(sizeof ((nesvm_params *)0)->loss == sizeof ((nesvm_params *)0)->solver,
               "NV_PT_NAME fields are char[32]");

const nv_param_def *nv_param_table(int *count)
{
    if (count) *count = NPARAMS;
    return table;
}

const char *nv_param_name(int i) { return i >= 0 && i < NPARAMS ? table[i].name : NULL; }

static int param_index(const char *name)
{
    for (int i = 0; i < NPARAMS; i++)
        if (strcmp(table[i].name, name) == 0) return i;
    return -1;
}

const nv_param_def *nv_param_find(const char *name)
{
    int i = param_index(name);
    return i < 0 ? NULL : &table[i];
}

int nv_param_condition(const nv_param_def *d, const nesvm_params *p)
{
    if ((d->when & NV_W_KERNEL) && p->kernel == NV_KERNEL_LINEAR) return 0;
    if ((d->when & NV_W_GAMMA) && (p->kernel == NV_KERNEL_LINEAR || p->kernel == NV_KERNEL_PRECOMPUTED)) return 0;
    if ((d->when & NV_W_POLY) && p->kernel != NV_KERNEL_POLY) return 0;
    if ((d->when & NV_W_COEF0) && p->kernel != NV_KERNEL_POLY && p->kernel != NV_KERNEL_SIGMOID) return 0;
    if ((d->when & NV_W_LP) && p->svm_type != NV_SVM_LP) return 0;
    if ((d->when & NV_W_SVR) && p->svm_type != NV_SVM_SVR) return 0;
    if ((d->when & NV_W_NU) && p->svm_type != NV_SVM_ONECLASS && !nv_params_nu_type(p)) return 0;
    if ((d->when & NV_W_C) && (p->svm_type == NV_SVM_ONECLASS || p->svm_type == NV_SVM_NUSVC)) return 0;
    if ((d->when & NV_W_PENALTY) && p->svm_type != NV_SVM_C && p->svm_type != NV_SVM_LOGISTIC) return 0;
    if ((d->when & NV_W_COST) && (p->svm_type == NV_SVM_ONECLASS || nv_params_nu_type(p))) return 0;
    return 1;
}

int nv_param_index(const char *name) { return param_index(name); }

const nv_svm_type_def *nv_svm_type(int svm_type)
{
    return svm_type >= 0 && svm_type < NSVM_TYPES ? &svm_types[svm_type] : NULL;
}

nesvm_task nesvm_params_task(const nesvm_params *p)
{
    const nv_svm_type_def *t = p ? nv_svm_type(p->svm_type) : NULL;
    return t ? t->task : NESVM_TASK_CLASSIFICATION;
}

const char *nesvm_task_str(nesvm_task t)
{
    return (int)t >= 0 && (int)t < NTASKS ? task_words[t] : "unknown";
}

int nv_task_parse(const char *word)
{
    for (int t = 0; t < NTASKS; t++)
        if (strcmp(task_words[t], word) == 0) return t;
    return -1;
}

static int word_index(const char *const *words, const char *v)
{
    for (int k = 0; words[k]; k++)
        if (strcmp(words[k], v) == 0) return k;
    return -1;
}

static int count_words(const char *const *words)
{
    int n = 0;
    while (words[n]) n++;
    return n;
}

static int in_range(const nv_param_def *d, double x)
{
    if (x == 0 && (d->flags & NV_PF_ZERO)) return 1;
    if (x < d->lo || x > d->hi) return 0;
    if ((d->flags & NV_PF_LO_OPEN) && x == d->lo) return 0;
    if ((d->flags & NV_PF_HI_OPEN) && x == d->hi) return 0;
    return 1;
}

/* Parse value for row d into p (p unchanged on failure). */
static nesvm_status set_row(nesvm_params *p, const nv_param_def *d, const char *value, nesvm_error *err)
{
    char *field = (char *)p + d->offset;
    double x;
    int64_t i;
    if ((d->flags & NV_PF_AUTO) && strcmp(value, "auto") == 0) {
        if (d->type == NV_PT_REAL) *(double *)field = d->auto_value;
        else *(int64_t *)field = (int64_t)d->auto_value;
        return NESVM_OK;
    }
    switch (d->type) {
    case NV_PT_REAL:
        if (!nv_parse_finite(value, &x) || !in_range(d, x)) break;
        *(double *)field = x;
        return NESVM_OK;
    case NV_PT_INT:
    case NV_PT_I64:
    case NV_PT_U64:
        if (!nv_parse_int64(value, &i) || !in_range(d, (double)i)) break;
        if (d->type == NV_PT_INT) *(int *)field = (int)i;
        else if (d->type == NV_PT_I64) *(int64_t *)field = i;
        else *(uint64_t *)field = (uint64_t)i;
        return NESVM_OK;
    case NV_PT_WORD: {
        int k = word_index(d->words, value);
        if (k < 0 && (d->flags & NV_PF_LIBSVM_T) && nv_parse_int64(value, &i) && i >= 0 &&
            i < count_words(d->words))
            k = (int)i; /* LIBSVM's -t numbers */
        if (k < 0) break;
        *(int *)field = k;
        return NESVM_OK;
    }
    case NV_PT_NAME:
        /* the registry checks the name (nesvm_params_set, solvers/registry.c) */
        if (!value[0] || strlen(value) >= sizeof p->solver) break;
        snprintf(field, sizeof p->solver, "%s", value); /* every name field is char[32] */
        return NESVM_OK;
    case NV_PT_WARM:
        if (strcmp(value, "none") == 0) {
            *(int64_t *)field = 0;
            return NESVM_OK;
        }
        if (strncmp(value, "pegasos:", 8) == 0 && nv_parse_int64(value + 8, &i) && i > 0) {
            *(int64_t *)field = i;
            return NESVM_OK;
        }
        break;
    }
    return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for %s: expected %s", value, d->name, d->expect);
}

/* The value of row d as text (buf: 32 bytes at least); returns the text. */
static const char *get_row(const nesvm_params *p, const nv_param_def *d, char *buf)
{
    const char *field = (const char *)p + d->offset;
    switch (d->type) {
    case NV_PT_REAL: {
        double x = *(const double *)field;
        if ((d->flags & NV_PF_AUTO) && isnan(x)) return "auto";
        nv_format_double(x, buf);
        return buf;
    }
    case NV_PT_INT:
        snprintf(buf, 32, "%d", *(const int *)field);
        return buf;
    case NV_PT_I64: {
        int64_t v = *(const int64_t *)field;
        if ((d->flags & NV_PF_AUTO) && v == (int64_t)d->auto_value) return "auto";
        snprintf(buf, 32, "%" PRId64, v);
        return buf;
    }
    case NV_PT_U64:
        snprintf(buf, 32, "%" PRIu64, *(const uint64_t *)field);
        return buf;
    case NV_PT_WORD:
        return d->words[*(const int *)field];
    case NV_PT_NAME:
        return field;
    case NV_PT_WARM: {
        int64_t v = *(const int64_t *)field;
        if (v <= 0) return "none";
        snprintf(buf, 32, "pegasos:%" PRId64, v);
        return buf;
    }
    }
    return "";
}

int nv_param_is_default(const nesvm_params *p, int i)
{
    if (!p || i < 0 || i >= NPARAMS) return 0;
    nesvm_params d; /* row i at its default; the other fields unused */
    memset(&d, 0, sizeof d);
    if (set_row(&d, &table[i], table[i].def, NULL) != NESVM_OK) return 0;
    char a[32], b[32];
    return strcmp(get_row(p, &table[i], a), get_row(&d, &table[i], b)) == 0;
}

nesvm_status nesvm_params_create(nesvm_params **out, nesvm_error *err)
{
    if (!out) return nv_error(err, NESVM_ERR_ARG, "out must not be NULL");
    nesvm_params *p = nv_calloc(1, sizeof *p);
    *out = p;
    if (!p) return nv_error(err, NESVM_ERR_NOMEM, "out of memory creating params");
    /* the defaults, through the parser: the table is their one place */
    for (int i = 0; i < NPARAMS; i++)
        if (set_row(p, &table[i], table[i].def, NULL) != NESVM_OK) {
            nv_free(p);
            *out = NULL;
            return nv_error(err, NESVM_ERR_ARG, "the default of %s does not parse", table[i].name);
        }
    return NESVM_OK;
}

void nesvm_params_destroy(nesvm_params *p)
{
    if (!p) return;
    nv_free(p->weight_label);
    nv_free(p->weight);
    nv_free(p);
}

nesvm_status nesvm_params_copy(const nesvm_params *src, nesvm_params **out, nesvm_error *err)
{
    if (!src || !out) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_params_copy");
    nesvm_params *p = nv_malloc(sizeof *p);
    *out = NULL;
    if (!p) return nv_error(err, NESVM_ERR_NOMEM, "out of memory copying params");
    *p = *src;
    p->weight_label = p->weight = NULL;
    if (src->n_weights > 0) {
        p->weight_label = nv_malloc_array((size_t)src->n_weights, sizeof(double));
        p->weight = nv_malloc_array((size_t)src->n_weights, sizeof(double));
        if (!p->weight_label || !p->weight) {
            nesvm_params_destroy(p);
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory copying params");
        }
        memcpy(p->weight_label, src->weight_label, (size_t)src->n_weights * sizeof(double));
        memcpy(p->weight, src->weight, (size_t)src->n_weights * sizeof(double));
    }
    *out = p;
    return NESVM_OK;
}

nesvm_status nv_params_set(nesvm_params *p, const char *name, const char *value, nesvm_error *err)
{
    if (!p || !name || !value) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_params_set");
    int i = param_index(name);
    if (i < 0) return nv_error(err, NESVM_ERR_ARG, "unknown parameter '%s'", name);
    nesvm_status st = set_row(p, &table[i], value, err);
    if (st == NESVM_OK) p->set_mask |= UINT64_C(1) << i;
    return st;
}

nesvm_status nesvm_params_get(const nesvm_params *p, const char *name, char *buf, size_t size,
                              nesvm_error *err)
{
    if (!p || !name || !buf || size == 0)
        return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_params_get");
    int i = param_index(name);
    if (i < 0) return nv_error(err, NESVM_ERR_ARG, "unknown parameter '%s'", name);
    char num[32];
    const char *s = get_row(p, &table[i], num);
    if (strlen(s) + 1 > size) return nv_error(err, NESVM_ERR_ARG, "buffer too small for %s", name);
    strcpy(buf, s);
    return NESVM_OK;
}

nesvm_status nesvm_params_set_class_weight(nesvm_params *p, double label, double weight,
                                           nesvm_error *err)
{
    if (!p) return nv_error(err, NESVM_ERR_ARG, "params must not be NULL");
    if (!isfinite(label) || !(weight >= VMIN && weight <= VMAX))
        return nv_error(err, NESVM_ERR_ARG, "class weight must be in [1e-100, 1e100] (label %g, weight %g)",
                        label, weight);
    for (int k = 0; k < p->n_weights; k++)
        if (p->weight_label[k] == label) {
            p->weight[k] = weight;
            return NESVM_OK;
        }
    double *l = nv_realloc_array(p->weight_label, (size_t)p->n_weights + 1, sizeof(double));
    if (!l) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    p->weight_label = l;
    double *w = nv_realloc_array(p->weight, (size_t)p->n_weights + 1, sizeof(double));
    if (!w) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    p->weight = w;
    p->weight_label[p->n_weights] = label;
    p->weight[p->n_weights] = weight;
    p->n_weights++;
    return NESVM_OK;
}

int nesvm_params_class_weight(const nesvm_params *p, int k, double *label, double *weight)
{
    if (!p) return 0;
    if (k >= 0 && k < p->n_weights) {
        if (label) *label = p->weight_label[k];
        if (weight) *weight = p->weight[k];
    }
    return p->n_weights;
}

double nv_params_class_weight(const nesvm_params *p, double label)
{
    for (int k = 0; k < p->n_weights; k++)
        if (p->weight_label[k] == label) return p->weight[k];
    return 1.0;
}
