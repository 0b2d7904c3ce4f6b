/* registry.c - the table of solver families and what each can do. */
#include "solver.h"
#include "gs/gs.h"
#include "hyperpass/hyperpass.h"
#include "nesvm/nesvm_solver.h"
#include "newton/ssvm.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define NESVM_USES "c eps eps_abs lambda mu nu continuation mu0 nu0 mu_star stage_eps method lipschitz " \
                   "basis basis_select kernel_memory restart loss epsilon svm_nu penalty"
#define NEWTON_USES "c eps eps_abs lambda basis basis_select kernel_memory smooth_p scheme tau merit kernel_norm " \
                    "basis_residual loss epsilon"

/* A precomputed kernel (kernel.h) reaches every kernel path, since each asks
 * for kernel values by rows and the matrix gives K between any two of its
 * rows: the full kernel's expansion (the working set, SMO, the Newton
 * operator, stored or on the fly) and kernel features (a reduced basis,
 * LP-SVM by Nesterov, GSVM/RSVM).  Which need the matrix positive
 * semi-definite: kplan.c (nv_kplan_precomputed). */
#define NESVM_PRECOMPUTED_PATHS "the full kernel's expansion (working set and SMO, or the Newton operator on the " \
                                "stored matrix) and kernel features (--basis M, LP-SVM by Nesterov)"
#define NEWTON_PRECOMPUTED_PATHS "kernel features (GSVM/RSVM, full or reduced basis)"

/* Each line: the positional fields of nv_solver up to `distributed`, then its
 * capabilities (solver.h; docs/solvers.md says why each family takes the
 * losses it takes). */
#define CLASSIFICATION .tasks = "classification"
/* SSVM and NSSVM's regression: the squared tube as two squared hinges (hinge.h) */
#define SSVM_SVR "svr_squared_epsilon_insensitive_l2_regularized_bias"
static const nv_solver solvers[] = {
    {"nesvm", {"c_svm_hinge_l2", "lp_svm_hinge_l1", "ls_svm_squared_l2", "ls_svr_squared_l2", "svr_epsilon_insensitive_l2",
               "one_class_svm_hinge_l2", "nu_svc_hinge_l2", "nu_svr_epsilon_insensitive_l2",
               "logistic_regression_logistic_l2"},
     nv_nesvm_linear_train,
     nv_nesvm_expansion_train, NULL, NV_KERNELS_NESVM, 1.0, NESVM_USES, "", 1, .has_c = 1,
     .loss = {"hinge", "hinge", "squared", "squared", "epsilon_insensitive", "hinge", "hinge", "epsilon_insensitive",
              "logistic"},
     .loss_specific = 0,
     .tasks = "classification regression novelty", .memory = "kernel_memory",
     .certificate = 1, .precomputed = NESVM_PRECOMPUTED_PATHS, .train_multi = nv_nesvm_multi_train},
    /* bias <= 0: no bias; bias B > 0: a constant feature B, regularized */
    {"hyperpass", {"c_svm_hinge_l2_regularized_bias", NULL, NULL, NULL, "svr_epsilon_insensitive_l2_regularized_bias"},
     nv_hyperpass_train, NULL, NULL, NV_KERNELS_NONE, -1.0, "c eps eps_abs lambda shrinking warm_start loss epsilon",
     "batch", 1, .has_c = 1, .loss = {"hinge", NULL, NULL, NULL, "epsilon_insensitive"}, .loss_specific = 1,
     .tasks = "classification regression", .memory = "kernel_memory", .certificate = 1},
    {"pegasos", {"c_svm_hinge_l2_regularized_bias", NULL, NULL}, nv_pegasos_train, NULL, NULL,
     NV_KERNELS_NONE, -1.0, "c eps eps_abs lambda batch loss", "", 0, .has_c = 1, .loss = {"hinge", NULL, NULL},
     .loss_specific = 1, CLASSIFICATION, .memory = "kernel_memory", .certificate = 1},
    {"ssvm", {"c_svm_squared_hinge_l2_regularized_bias", NULL, NULL, NULL, SSVM_SVR}, nv_ssvm_train, NULL, NULL,
     NV_KERNELS_RSVM, 1.0, NEWTON_USES, "", 1, .has_c = 1,
     .loss = {"squared_hinge", NULL, NULL, NULL, "squared_epsilon_insensitive"}, .loss_specific = 1,
     .tasks = "classification regression", .memory = "kernel_memory", .certificate = 1,
     .precomputed = NEWTON_PRECOMPUTED_PATHS},
    {"nssvm", {"c_svm_squared_hinge_l2_regularized_bias", NULL, NULL, NULL, SSVM_SVR}, nv_nssvm_train, NULL, NULL,
     NV_KERNELS_RSVM, 1.0, NEWTON_USES, "", 1, .has_c = 1,
     .loss = {"squared_hinge", NULL, NULL, NULL, "squared_epsilon_insensitive"}, .loss_specific = 1,
     .tasks = "classification regression", .memory = "kernel_memory", .certificate = 1,
     .precomputed = NEWTON_PRECOMPUTED_PATHS},
    /* kernel only: the expansion over the selected training rows; no C
     * (early stopping regularizes), no loss (the hard-margin dual), no gap */
    {"gs", {"svm_dual_greedy_stagewise", NULL, NULL}, NULL, NULL, nv_gs_train, NV_KERNELS_GS, -1.0,
     "kernel_memory cap cache_size loss", "", 1, .has_c = 0, .loss = {"", NULL, NULL}, .loss_specific = 1,
     CLASSIFICATION, .memory = "cache_size", .certificate = 0,
     .precomputed = "kernel columns looked up in the matrix (any matrix: no certificate to lose)"},
};
#define NSOLVERS ((int)(sizeof solvers / sizeof solvers[0]))

const nv_solver *nv_solver_at(int i) { return i >= 0 && i < NSOLVERS ? &solvers[i] : NULL; }

const nv_solver *nv_solver_find(const char *name)
{
    for (size_t i = 0; i < sizeof solvers / sizeof solvers[0]; i++)
        if (strcmp(solvers[i].name, name) == 0) return &solvers[i];
    return NULL;
}

const char *nv_solver_names(char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < NSOLVERS; k++) {
        int w = snprintf(buf + n, size - n, "%s%s", k ? ", " : "", solvers[k].name);
        if (w < 0 || (size_t)w >= size - n) break;
        n += (size_t)w;
    }
    return buf;
}

/* The joint multiclass problems (multiclass cs, multinomial): the solver's
 * train_multi, Crammer and Singer's with the C-SVM, the softmax with
 * logistic regression, each with its own loss. */
static nesvm_status joint_problem(const nv_solver *s, const nesvm_params *p, char *buf, size_t size,
                                  nesvm_error *err)
{
    const int cs = p->multiclass == NV_CS, t = p->svm_type;
    const char *word = cs ? "cs" : "multinomial";
    if (!s->train_multi)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "solver %s trains binary problems only: --multiclass %s (one joint problem of every "
                        "class's weights) takes --solver nesvm",
                        s->name, word);
    if (cs && t != NV_SVM_C)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--multiclass cs is Crammer and Singer's multiclass SVM, a C-SVM of the hinge loss: it "
                        "takes --svm-type c (LIBLINEAR's -s 4), not %s",
                        nv_svm_type(t) ? nv_svm_type(t)->word : "this one");
    if (!cs && t != NV_SVM_LOGISTIC)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--multiclass multinomial is logistic regression's softmax over the classes: it takes "
                        "--svm-type logistic, not %s",
                        nv_svm_type(t) ? nv_svm_type(t)->word : "this one");
    if (p->penalty == NV_PENALTY_L1)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--multiclass %s is L2-regularized (1/2 sum_m ||w_m||^2): drop --penalty l1, or use "
                        "--multiclass ovr for the L1 norm's one-vs-rest models",
                        word);
    const char *own = cs ? "hinge" : "logistic";
    if (strcmp(p->loss, "auto") != 0 && strcmp(p->loss, own) != 0)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--multiclass %s has its own loss (%s, over every class at once): drop --loss %s", word,
                        cs ? "the multiclass hinge max_m (1 - delta_m,y + f_m - f_y)"
                           : "the softmax's log sum_m exp(f_m) - f_y",
                        p->loss);
    if (cs)
        snprintf(buf, size, "%s", p->bias > 0 ? "crammer_singer_svm_hinge_l2_regularized_bias"
                                              : "crammer_singer_svm_hinge_l2");
    else
        snprintf(buf, size, "multinomial_logistic_regression_l2");
    return NESVM_OK;
}

/* bias_mode against the bias the solver's problem has (with one: B > 0):
 * the loss-specific families' and Crammer and Singer's is a constant
 * feature B regularized with w, and nothing else; NESVM's binary problems
 * take either (bias_feature.h); the multinomial's is free. */
/* The bias p->bias stands for (auto: the solver's; Crammer and Singer's SVM
 * has none by default, LIBLINEAR's -s 4). */
static double resolved_bias(const nv_solver *s, const nesvm_params *p)
{
    return !isnan(p->bias) ? p->bias : p->multiclass == NV_CS ? -1.0 : s ? s->bias : 1.0;
}

static nesvm_status bias_mode_check(const nv_solver *s, const nesvm_params *p, nesvm_error *err)
{
    if (!(resolved_bias(s, p) > 0) || p->bias_mode == NV_BIAS_AUTO) return NESVM_OK;
    const int feature_only = s->loss_specific || p->multiclass == NV_CS;
    if (p->bias_mode == NV_BIAS_FREE && feature_only)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--bias-mode free: %s's bias is a constant feature B regularized with w, its only one: "
                        "a free bias takes --solver nesvm%s, or drop --bias-mode",
                        p->multiclass == NV_CS ? "--multiclass cs" : s->name,
                        p->multiclass == NV_CS ? " --multiclass ovr" : "");
    if (p->bias_mode == NV_BIAS_REG && p->multiclass == NV_MULTINOMIAL)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--bias-mode regularized: --multiclass multinomial has free intercepts (scikit-learn's) "
                        "or none (-B 0); --multiclass ovr takes a regularized bias");
    return NESVM_OK;
}

nesvm_status nv_solver_problem(const nv_solver *s, const nesvm_params *p, char *buf, size_t size,
                               nesvm_error *err)
{
    const int t = p->svm_type;
    nesvm_status st = bias_mode_check(s, p, err);
    if (st != NESVM_OK) return st;
    if (nv_params_joint(p)) return joint_problem(s, p, buf, size, err);
    const char *fixed = t >= 0 && t < NV_SVM_TYPES ? s->problem[t] : NULL;
    if (!fixed)
        return nv_error(err, NESVM_ERR_UNSUPPORTED, "solver %s has no %s model", s->name,
                        nv_svm_type(t) ? nv_svm_type(t)->name : "such");
    const int named = strcmp(p->loss, "auto") != 0;
    if (s->loss_specific) {
        /* the method is its loss's: --loss may only name it */
        if (named && strcmp(p->loss, s->loss[t]) != 0) {
            if (!s->loss[t][0])
                return nv_error(err, NESVM_ERR_UNSUPPORTED,
                                "solver %s minimizes no loss (early stopping on the hard-margin dual): drop --loss %s",
                                s->name, p->loss);
            return nv_error(err, NESVM_ERR_UNSUPPORTED,
                            "solver %s minimizes the %s loss only (its method is that loss's): --loss %s takes "
                            "--solver nesvm",
                            s->name, s->loss[t], p->loss);
        }
        snprintf(buf, size, "%s", fixed);
        return NESVM_OK;
    }
    /* the loss as an object (NESVM): the svm_type's own, with svm_type c
     * any loss of the registry but the tubes (c_svm_LOSS_l2), with svm_type
     * svr either tube (svr_LOSS_l2) */
    const nv_loss *l = nv_params_loss(p);
    if (!l) return nv_error(err, NESVM_ERR_ARG, "unknown loss '%s'", p->loss);
    const int svr = t == NV_SVM_SVR;
    if (named && strcmp(l->name, s->loss[t]) != 0 && t != NV_SVM_C && !(svr && l->tube))
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--svm-type %s is the %s loss (%s): --loss %s takes --svm-type c", nv_svm_type(t)->word,
                        s->loss[t], fixed, p->loss);
    if (l->tube && !svr && t != NV_SVM_NUSVR)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "the %s loss is a regression's (a tube around real targets): it takes --svm-type svr",
                        l->name);
    if (l->conj && t != NV_SVM_LOGISTIC)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "the %s loss is logistic regression's (its probabilities native): --svm-type logistic",
                        l->name);
    if (l->target == NV_TARGET_NONE)
        return nv_error(err, NESVM_ERR_UNSUPPORTED, "the %s loss takes no target: it has no classifier", l->name);
    if (nv_params_l1(p) && t != NV_SVM_LP) {
        /* --penalty l1: the C-SVM's loss under the L1 norm (the hinge's is
         * LP-SVM's problem), logistic regression's */
        if (t == NV_SVM_C && strcmp(l->name, "hinge") == 0)
            snprintf(buf, size, "%s", s->problem[NV_SVM_LP]);
        else
            snprintf(buf, size, "%s_%s_l1", t == NV_SVM_LOGISTIC ? "logistic_regression" : "c_svm", l->name);
    } else if (strcmp(l->name, s->loss[t]) == 0) {
        snprintf(buf, size, "%s", fixed);
    } else {
        snprintf(buf, size, "%s_%s_l2", svr ? "svr" : "c_svm", l->name);
    }
    /* the bias a feature regularized with w, where the problem has one */
    if (nv_params_bias_feature(p)) {
        size_t k = strlen(buf);
        snprintf(buf + k, k < size ? size - k : 0, "_regularized_bias");
    }
    return NESVM_OK;
}

void nv_params_resolve(nesvm_params *p)
{
    p->bias = resolved_bias(nv_solver_find(p->solver), p);
}

int64_t nv_params_basis(const nesvm_params *p, int64_t n)
{
    if (p->basis >= 0) return p->basis;
    const nv_solver *s = nv_solver_find(p->solver);
    if (!s || s->kernels != NV_KERNELS_RSVM) return 0;
    int64_t m = n / 10;
    if (m < 100) m = 100;
    if (m > 1000) m = 1000;
    return m >= n ? 0 : m;
}

/* Is `word` one of the space-separated words of `list`? */
static int in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *w = list; *w;) {
        size_t k = strcspn(w, " ");
        if (k == n && strncmp(w, word, n) == 0) return 1;
        w += k;
        while (*w == ' ') w++;
    }
    return 0;
}

int nv_solver_uses(const nv_solver *s, const char *name, const nesvm_params *p)
{
    const nv_param_def *d = nv_param_find(name);
    if (!d) return 0;
    if (d->solvers == NV_S_ALL || in_list(s->uses, name)) return 1;
    return p && p->warm_pegasos > 0 && in_list(s->uses_warm, name);
}

const char *nv_solver_users(const char *name, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int warm = 0; warm < 2; warm++)
        for (int k = 0; k < NSOLVERS; k++) {
            if (!in_list(warm ? solvers[k].uses_warm : solvers[k].uses, name)) continue;
            int w = warm ? snprintf(buf + n, size - n, "%s%s with --warm-start pegasos:ITER", n ? ", and " : "",
                                    solvers[k].name)
                         : snprintf(buf + n, size - n, "%s%s", n ? ", " : "", solvers[k].name);
            if (w < 0 || (size_t)w >= size - n) return buf;
            n += (size_t)w;
        }
    return buf;
}

/* The public setter: the registry knows the solver names. */
nesvm_status nesvm_params_set(nesvm_params *p, const char *name, const char *value, nesvm_error *err)
{
    if (p && name && value && strcmp(name, "solver") == 0 && !nv_solver_find(value)) {
        char names[160];
        return nv_error(err, NESVM_ERR_ARG, "unknown solver '%s' (available: %s)", value,
                        nv_solver_names(names, sizeof names));
    }
    if (p && name && value && strcmp(name, "loss") == 0 && strcmp(value, "auto") != 0 && !nv_loss_find(value)) {
        char names[160];
        return nv_error(err, NESVM_ERR_ARG, "unknown loss '%s' (available: auto, %s)", value,
                        nv_loss_names(names, sizeof names));
    }
    return nv_params_set(p, name, value, err);
}

int nesvm_params_applies(const nesvm_params *p, const char *name)
{
    if (!p || !name) return -1;
    const nv_param_def *d = nv_param_find(name);
    if (!d) return -1;
    const nv_solver *s = nv_solver_find(p->solver);
    return s && nv_solver_uses(s, name, p) && nv_param_condition(d, p);
}

const char *nesvm_params_ignored(const nesvm_params *p, int k)
{
    if (!p) return NULL;
    int count;
    const nv_param_def *t = nv_param_table(&count);
    for (int i = 0; i < count; i++)
        if ((p->set_mask >> i & 1) && nesvm_params_applies(p, t[i].name) == 0 && k-- == 0) return t[i].name;
    return NULL;
}

/* ------------------------------------------------------ the public query */

const char *nesvm_solver_name(int k)
{
    const nv_solver *s = nv_solver_at(k);
    return s ? s->name : NULL;
}

/* How s trains kernel models, in nesvm_solver_info's words. */
static const char *kernels_word(int kernels)
{
    switch (kernels) {
    case NV_KERNELS_NESVM: return "expansion";
    case NV_KERNELS_RSVM: return "features";
    case NV_KERNELS_GS: return "columns";
    default: return "none";
    }
}

nesvm_status nesvm_solver_describe(const char *name, nesvm_solver_info *info, nesvm_error *err)
{
    if (!name || !info) return nv_error(err, NESVM_ERR_ARG, "name and info must not be NULL");
    const size_t v1 = offsetof(nesvm_solver_info, certificate) + sizeof(int);
    if (info->size < v1)
        return nv_error(err, NESVM_ERR_ARG,
                        "nesvm_solver_info.size is %zu: set it to sizeof(nesvm_solver_info) "
                        "(NESVM_SOLVER_INFO_INIT)",
                        info->size);
    const nv_solver *s = nv_solver_find(name);
    if (!s) {
        char names[160];
        return nv_error(err, NESVM_ERR_ARG, "unknown solver '%s' (available: %s)", name,
                        nv_solver_names(names, sizeof names));
    }
    nesvm_solver_info full = {.size = info->size, .name = s->name, .has_c = s->has_c,
                              .loss_specific = s->loss_specific, .tasks = s->tasks,
                              .kernels = kernels_word(s->kernels), .memory = s->memory,
                              .distributed = s->distributed, .certificate = s->certificate};
    /* the losses of the svm_types it solves, each once */
    size_t n = 0;
    for (int t = 0; t < NV_SVM_TYPES; t++) {
        const char *l = s->loss[t];
        int seen = !l || !l[0];
        for (int u = 0; u < t && !seen; u++) seen = s->loss[u] && strcmp(s->loss[u], l) == 0;
        if (seen) continue;
        int w = snprintf(full.losses + n, sizeof full.losses - n, "%s%s", n ? " " : "", l);
        if (w > 0 && (size_t)w < sizeof full.losses - n) n += (size_t)w;
    }
    /* a family that takes the loss as an object takes every registered one
     * (--loss), after its svm_types' own */
    for (int i = 0; !s->loss_specific && nv_loss_at_index(i); i++) {
        const char *l = nv_loss_at_index(i)->name;
        int seen = 0;
        for (int t = 0; t < NV_SVM_TYPES && !seen; t++) seen = s->loss[t] && strcmp(s->loss[t], l) == 0;
        if (seen) continue;
        int w = snprintf(full.losses + n, sizeof full.losses - n, "%s%s", n ? " " : "", l);
        if (w > 0 && (size_t)w < sizeof full.losses - n) n += (size_t)w;
    }
    memcpy(info, &full, info->size < sizeof full ? info->size : sizeof full);
    return NESVM_OK;
}
