/* params.c - training parameters, set and read by name. */
#include "params_internal.h"
#include "../solvers/solver.h"
#include "../solvers/ssvm.h"
#include "../kernel/kernel.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const nv_param_names[] = {
    "solver", "svm_type", "c", "eps", "eps_abs", "mu", "nu", "continuation", "mu0", "nu0",
    "mu_star", "stage_eps", "max_iter", "time_limit", "threads", "seed", "bias", "multiclass",
    "method", "lipschitz", "progress_every", "kernel", "gamma", "degree", "coef0", "basis",
    "kernel_memory", "lambda", "shrinking", "batch", "warm_start", "basis_select", "smooth_p",
    "scheme", "tau", "merit", "cap", "cache_size", NULL};

static const char *const svm_type_names[] = {"c", "lp", "ls"};
static const char *const continuation_names[] = {"adaptive", "paper"};
static const char *const kernel_names[] = {"linear", "poly", "rbf", "sigmoid"};
static const char *const scheme_names[] = {"optimal", "1", "2", "3", "cg"};
static const char *const merit_names[] = {"smooth", "f"};
static const char *const basis_select_names[] = {"random", "greedy"};

static int lookup(const char *const *names, int n, const char *v)
{
    for (int k = 0; k < n; k++)
        if (strcmp(names[k], v) == 0) return k;
    return -1;
}

nesvm_status nesvm_params_create(nesvm_params **out, nesvm_error *err)
{
    if (!out) return nv_error(err, NESVM_ERR_ARG, "out must not be NULL");
    nesvm_params *p = nv_calloc(1, sizeof *p);
    *out = p;
    if (!p) return nv_error(err, NESVM_ERR_NOMEM, "out of memory creating params");
    strcpy(p->solver, "nesvm");
    p->c = 1.0;
    p->eps = 1e-3;
    p->eps_abs = 0.0;
    p->svm_type = NV_SVM_C;
    p->mu = 0.0;
    p->nu = 0.0;
    p->continuation = NV_CONT_ADAPTIVE;
    p->max_iter = 100000;
    p->time_limit = 0.0;
    p->threads = 1;
    p->seed = 1;
    p->bias = NAN;
    p->lambda = 0.0;
    p->shrinking = 1;
    p->batch = 1000;
    p->warm_pegasos = 0;
    p->multiclass = NV_OVO;
    p->method = NV_METHOD_NEWTON;
    p->lipschitz = NV_LIP_POWER;
    p->progress_every = 1;
    p->kernel = 0;
    p->gamma = 0.0;
    p->degree = 3;
    p->coef0 = 0.0;
    p->basis = -1;
    p->basis_select = NV_BASIS_RANDOM;
    p->kernel_memory = 4096.0;
    p->smooth_p = 1e8;
    p->scheme = NV_SCHEME_OPTIMAL;
    p->tau = 1e-10;
    p->merit = NV_MERIT_SMOOTH;
    p->cap = 0.0;
    p->cache_size = 100.0;
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

/* Scale-like values (costs, smoothing, gamma, ...) live in [1e-100, 1e100]:
 * beyond it squares and products of them over- or underflow in double
 * precision, and training would fail (or stall) far from the option. */
#define NV_VALUE_MIN 1e-100
#define NV_VALUE_MAX 1e100
#define IN_RANGE(d) ((d) >= NV_VALUE_MIN && (d) <= NV_VALUE_MAX)
#define ZERO_OR_RANGE(d) ((d) == 0 || IN_RANGE(d))
/* the smallest relative gap double precision certifies */
#define NV_EPS_MIN 1e-15

static int parse_num(const char *v, double *out) { return nv_parse_finite(v, out); }

static int parse_int(const char *v, int64_t *out) { return nv_parse_int64(v, out); }

nesvm_status nesvm_params_set(nesvm_params *p, const char *name, const char *value,
                              nesvm_error *err)
{
    if (!p || !name || !value) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_params_set");
    double d = 0;
    int64_t i = 0;
#define NEED_NUM(cond, what)                                                                   \
    do {                                                                                       \
        if (!parse_num(value, &d) || !(cond))                                                  \
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for %s: expected %s",      \
                            value, name, what);                                                \
    } while (0)
#define NEED_INT(cond, what)                                                                   \
    do {                                                                                       \
        if (!parse_int(value, &i) || !(cond))                                                  \
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for %s: expected %s",      \
                            value, name, what);                                                \
    } while (0)
    if (strcmp(name, "solver") == 0) {
        if (!nv_solver_find(value))
            return nv_error(err, NESVM_ERR_ARG, "unknown solver '%s' (available: %s)", value,
                            nv_solver_names());
        snprintf(p->solver, sizeof p->solver, "%s", value);
    } else if (strcmp(name, "c") == 0) {
        NEED_NUM(IN_RANGE(d), "a number in [1e-100, 1e100]");
        p->c = d;
    } else if (strcmp(name, "eps") == 0) {
        NEED_NUM(d >= NV_EPS_MIN && d < 1,
                 "a number in [1e-15, 1) (smaller gaps cannot be certified in double precision)");
        p->eps = d;
    } else if (strcmp(name, "eps_abs") == 0) {
        NEED_NUM(d >= 0, "a number >= 0");
        p->eps_abs = d;
    } else if (strcmp(name, "svm_type") == 0) {
        int k = lookup(svm_type_names, 3, value);
        if (k < 0)
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for svm_type: expected c, lp or ls", value);
        p->svm_type = k;
    } else if (strcmp(name, "mu") == 0) {
        NEED_NUM(ZERO_OR_RANGE(d), "0 (continuation) or a number in [1e-100, 1e100]");
        p->mu = d;
    } else if (strcmp(name, "nu") == 0) {
        NEED_NUM(ZERO_OR_RANGE(d), "0 (continuation) or a number in [1e-100, 1e100]");
        p->nu = d;
    } else if (strcmp(name, "continuation") == 0) {
        int k = lookup(continuation_names, 2, value);
        if (k < 0)
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for continuation: expected adaptive or paper", value);
        p->continuation = k;
    } else if (strcmp(name, "mu0") == 0) {
        NEED_NUM(ZERO_OR_RANGE(d), "0 (default) or a number in [1e-100, 1e100]");
        p->mu0 = d;
    } else if (strcmp(name, "nu0") == 0) {
        NEED_NUM(ZERO_OR_RANGE(d), "0 (default) or a number in [1e-100, 1e100]");
        p->nu0 = d;
    } else if (strcmp(name, "mu_star") == 0) {
        NEED_NUM(ZERO_OR_RANGE(d), "0 (none) or a number in [1e-100, 1e100]");
        p->mu_star = d;
    } else if (strcmp(name, "stage_eps") == 0) {
        NEED_NUM(d >= 0 && d < 1, "a number in [0, 1) (0 = automatic)");
        p->stage_eps = d;
    } else if (strcmp(name, "max_iter") == 0) {
        NEED_INT(i > 0, "an integer > 0");
        p->max_iter = i;
    } else if (strcmp(name, "time_limit") == 0) {
        NEED_NUM(d >= 0, "seconds >= 0 (0 = none)");
        p->time_limit = d;
    } else if (strcmp(name, "threads") == 0) {
        NEED_INT(i >= 0 && i <= 4096, "an integer in [0, 4096] (0 = all cores)");
        p->threads = (int)i;
    } else if (strcmp(name, "seed") == 0) {
        NEED_INT(i >= 0, "a non-negative integer");
        p->seed = (uint64_t)i;
    } else if (strcmp(name, "bias") == 0) {
        if (strcmp(value, "auto") == 0)
            p->bias = NAN;
        else {
            NEED_NUM(d <= NV_VALUE_MAX, "a number <= 1e100 (> 0: a bias, <= 0: none) or auto");
            p->bias = d;
        }
    } else if (strcmp(name, "lambda") == 0) {
        NEED_NUM(ZERO_OR_RANGE(d), "0 (use c) or a number in [1e-100, 1e100]");
        p->lambda = d;
    } else if (strcmp(name, "shrinking") == 0) {
        NEED_INT(i == 0 || i == 1, "0 or 1");
        p->shrinking = (int)i;
    } else if (strcmp(name, "batch") == 0) {
        NEED_INT(i > 0, "an integer > 0");
        p->batch = i;
    } else if (strcmp(name, "warm_start") == 0) {
        if (strcmp(value, "none") == 0)
            p->warm_pegasos = 0;
        else if (strncmp(value, "pegasos:", 8) == 0 && parse_int(value + 8, &i) && i > 0)
            p->warm_pegasos = i;
        else
            return nv_error(err, NESVM_ERR_ARG,
                            "invalid value '%s' for warm_start: expected none or pegasos:ITER (ITER > 0)",
                            value);
    } else if (strcmp(name, "multiclass") == 0) {
        if (strcmp(value, "ovo") == 0)
            p->multiclass = NV_OVO;
        else if (strcmp(value, "ovr") == 0)
            p->multiclass = NV_OVR;
        else
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for multiclass: expected ovo or ovr", value);
    } else if (strcmp(name, "method") == 0) {
        if (strcmp(value, "newton") == 0)
            p->method = NV_METHOD_NEWTON;
        else if (strcmp(value, "nesterov") == 0)
            p->method = NV_METHOD_NESTEROV;
        else
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for method: expected newton or nesterov", value);
    } else if (strcmp(name, "lipschitz") == 0) {
        if (strcmp(value, "power") == 0)
            p->lipschitz = NV_LIP_POWER;
        else if (strcmp(value, "paper") == 0)
            p->lipschitz = NV_LIP_PAPER;
        else
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for lipschitz: expected power or paper", value);
    } else if (strcmp(name, "kernel") == 0) {
        int k = lookup(kernel_names, 4, value);
        if (k < 0) { /* LIBSVM's -t numbers */
            int64_t t;
            if (parse_int(value, &t) && t >= 0 && t <= 3) k = (int)t;
        }
        if (k < 0)
            return nv_error(err, NESVM_ERR_ARG,
                            "invalid value '%s' for kernel: expected linear, poly, rbf, sigmoid or 0-3", value);
        p->kernel = k;
    } else if (strcmp(name, "gamma") == 0) {
        NEED_NUM(ZERO_OR_RANGE(d), "0 (1/num_features) or a number in [1e-100, 1e100]");
        p->gamma = d;
    } else if (strcmp(name, "degree") == 0) {
        NEED_INT(i >= 0 && i <= 1000, "an integer in [0, 1000]");
        p->degree = (int)i;
    } else if (strcmp(name, "coef0") == 0) {
        NEED_NUM(fabs(d) <= NV_VALUE_MAX, "a number in [-1e100, 1e100]");
        p->coef0 = d;
    } else if (strcmp(name, "basis") == 0) {
        if (strcmp(value, "auto") == 0)
            p->basis = -1;
        else {
            NEED_INT(i >= 0, "an integer >= 0 (0 = the full kernel) or auto");
            p->basis = i;
        }
    } else if (strcmp(name, "basis_select") == 0) {
        int k = lookup(basis_select_names, 2, value);
        if (k < 0)
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for basis_select: expected random or greedy",
                            value);
        p->basis_select = k;
    } else if (strcmp(name, "smooth_p") == 0) {
        NEED_NUM(IN_RANGE(d), "a number in [1e-100, 1e100]");
        p->smooth_p = d;
    } else if (strcmp(name, "scheme") == 0) {
        int k = lookup(scheme_names, 5, value);
        if (k < 0)
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for scheme: expected optimal, 1, 2, 3 or cg",
                            value);
        p->scheme = k;
    } else if (strcmp(name, "tau") == 0) {
        NEED_NUM(d >= 0 && d < 1, "a number in [0, 1)");
        p->tau = d;
    } else if (strcmp(name, "cap") == 0) {
        NEED_NUM(ZERO_OR_RANGE(d), "0 (none) or a number in [1e-100, 1e100]");
        p->cap = d;
    } else if (strcmp(name, "cache_size") == 0) {
        NEED_NUM(d >= 0, "megabytes >= 0 (0 = no cache)");
        p->cache_size = d;
    } else if (strcmp(name, "merit") == 0) {
        int k = lookup(merit_names, 2, value);
        if (k < 0)
            return nv_error(err, NESVM_ERR_ARG, "invalid value '%s' for merit: expected smooth or f", value);
        p->merit = k;
    } else if (strcmp(name, "kernel_memory") == 0) {
        NEED_NUM(d > 0, "megabytes > 0");
        p->kernel_memory = d;
    } else if (strcmp(name, "progress_every") == 0) {
        NEED_INT(i > 0, "an integer > 0");
        p->progress_every = i;
    } else {
        return nv_error(err, NESVM_ERR_ARG, "unknown parameter '%s'", name);
    }
#undef NEED_NUM
#undef NEED_INT
    return NESVM_OK;
}

nesvm_status nesvm_params_get(const nesvm_params *p, const char *name, char *buf, size_t size,
                              nesvm_error *err)
{
    if (!p || !name || !buf || size == 0)
        return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_params_get");
    char num[32];
    const char *s = num;
    if (strcmp(name, "solver") == 0) s = p->solver;
    else if (strcmp(name, "c") == 0) nv_format_double(p->c, num);
    else if (strcmp(name, "eps") == 0) nv_format_double(p->eps, num);
    else if (strcmp(name, "eps_abs") == 0) nv_format_double(p->eps_abs, num);
    else if (strcmp(name, "svm_type") == 0) s = svm_type_names[p->svm_type];
    else if (strcmp(name, "mu") == 0) nv_format_double(p->mu, num);
    else if (strcmp(name, "nu") == 0) nv_format_double(p->nu, num);
    else if (strcmp(name, "continuation") == 0) s = continuation_names[p->continuation];
    else if (strcmp(name, "mu0") == 0) nv_format_double(p->mu0, num);
    else if (strcmp(name, "nu0") == 0) nv_format_double(p->nu0, num);
    else if (strcmp(name, "mu_star") == 0) nv_format_double(p->mu_star, num);
    else if (strcmp(name, "stage_eps") == 0) nv_format_double(p->stage_eps, num);
    else if (strcmp(name, "max_iter") == 0) snprintf(num, sizeof num, "%" PRId64, p->max_iter);
    else if (strcmp(name, "time_limit") == 0) nv_format_double(p->time_limit, num);
    else if (strcmp(name, "threads") == 0) snprintf(num, sizeof num, "%d", p->threads);
    else if (strcmp(name, "seed") == 0) snprintf(num, sizeof num, "%" PRIu64, p->seed);
    else if (strcmp(name, "bias") == 0) {
        if (isnan(p->bias)) s = "auto";
        else nv_format_double(p->bias, num);
    }
    else if (strcmp(name, "lambda") == 0) nv_format_double(p->lambda, num);
    else if (strcmp(name, "shrinking") == 0) snprintf(num, sizeof num, "%d", p->shrinking);
    else if (strcmp(name, "batch") == 0) snprintf(num, sizeof num, "%" PRId64, p->batch);
    else if (strcmp(name, "warm_start") == 0) {
        if (p->warm_pegasos > 0) snprintf(num, sizeof num, "pegasos:%" PRId64, p->warm_pegasos);
        else s = "none";
    }
    else if (strcmp(name, "multiclass") == 0) s = p->multiclass == NV_OVR ? "ovr" : "ovo";
    else if (strcmp(name, "method") == 0) s = p->method == NV_METHOD_NESTEROV ? "nesterov" : "newton";
    else if (strcmp(name, "lipschitz") == 0) s = p->lipschitz == NV_LIP_PAPER ? "paper" : "power";
    else if (strcmp(name, "progress_every") == 0) snprintf(num, sizeof num, "%" PRId64, p->progress_every);
    else if (strcmp(name, "kernel") == 0) s = kernel_names[p->kernel];
    else if (strcmp(name, "gamma") == 0) nv_format_double(p->gamma, num);
    else if (strcmp(name, "degree") == 0) snprintf(num, sizeof num, "%d", p->degree);
    else if (strcmp(name, "coef0") == 0) nv_format_double(p->coef0, num);
    else if (strcmp(name, "basis") == 0) {
        if (p->basis < 0) s = "auto";
        else snprintf(num, sizeof num, "%" PRId64, p->basis);
    }
    else if (strcmp(name, "basis_select") == 0) s = basis_select_names[p->basis_select];
    else if (strcmp(name, "smooth_p") == 0) nv_format_double(p->smooth_p, num);
    else if (strcmp(name, "scheme") == 0) s = scheme_names[p->scheme];
    else if (strcmp(name, "tau") == 0) nv_format_double(p->tau, num);
    else if (strcmp(name, "merit") == 0) s = merit_names[p->merit];
    else if (strcmp(name, "cap") == 0) nv_format_double(p->cap, num);
    else if (strcmp(name, "cache_size") == 0) nv_format_double(p->cache_size, num);
    else if (strcmp(name, "kernel_memory") == 0) nv_format_double(p->kernel_memory, num);
    else return nv_error(err, NESVM_ERR_ARG, "unknown parameter '%s'", name);
    if (strlen(s) + 1 > size) return nv_error(err, NESVM_ERR_ARG, "buffer too small for %s", name);
    strcpy(buf, s);
    return NESVM_OK;
}

nesvm_status nesvm_params_set_class_weight(nesvm_params *p, double label, double weight,
                                           nesvm_error *err)
{
    if (!p) return nv_error(err, NESVM_ERR_ARG, "params must not be NULL");
    if (!isfinite(label) || !(weight >= NV_VALUE_MIN && weight <= NV_VALUE_MAX))
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

void nv_params_resolve(nesvm_params *p)
{
    const nv_solver *s = nv_solver_find(p->solver);
    if (isnan(p->bias)) p->bias = s ? s->bias : 1.0;
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

double nv_params_class_weight(const nesvm_params *p, double label)
{
    for (int k = 0; k < p->n_weights; k++)
        if (p->weight_label[k] == label) return p->weight[k];
    return 1.0;
}
