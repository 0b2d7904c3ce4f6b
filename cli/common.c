/* common.c - option parsing, progress and trace output for the CLI. */
#include "cli.h"

#include <cblas.h> /* openblas_set_num_threads */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void cli_blas_threads(long long threads, int at_once)
{
    if (getenv("OPENBLAS_NUM_THREADS")) return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads <= 0) threads = cores > 0 ? cores : 1;
    if (at_once > 1) threads /= at_once < threads ? at_once : threads; /* the library's share */
    openblas_set_num_threads(threads < 1 ? 1 : threads > 4096 ? 4096 : (int)threads);
}

int cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "nesvm %s: error: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_ERROR;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "nesvm %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'nesvm %s --help'.\n", cmd);
    va_end(ap);
    return CLI_USAGE;
}

int cli_next(cli_args *a, const char **pos)
{
    a->inline_value = NULL;
    if (a->i >= a->argc) return -1;
    char *s = a->argv[a->i++];
    if (s[0] == '-' && s[1] == '-' && s[2] != '\0') {
        const char *eq = strchr(s + 2, '=');
        size_t len = eq ? (size_t)(eq - (s + 2)) : strlen(s + 2);
        if (len >= sizeof a->name) len = sizeof a->name - 1;
        memcpy(a->name, s + 2, len);
        a->name[len] = '\0';
        for (char *c = a->name; *c; c++)
            if (*c == '-') *c = '_';
        if (eq) a->inline_value = eq + 1;
        return 1;
    }
    if (s[0] == '-' && s[1] != '\0') {
        /* -? is the help, as --help (the peers' habit) */
        snprintf(a->name, sizeof a->name, "%s", strcmp(s, "-?") == 0 ? "help" : s + 1);
        return 1;
    }
    *pos = s;
    return 0;
}

const char *cli_value(cli_args *a)
{
    if (a->inline_value) return a->inline_value;
    if (a->i >= a->argc) {
        cli_usage(a->cmd, "option '%s%s' needs a value", strlen(a->name) > 1 && a->name[0] != 'w' ? "--" : "-",
                  a->name);
        return NULL;
    }
    return a->argv[a->i++];
}

/* The library's parsers: the CLI and nesvm_params_set read every number the
 * same way (no spaces, no locale; integers are plain decimal). */
int cli_parse_double(const char *s, double *out) { return nv_parse_finite(s, out); }

int cli_parse_int(const char *s, long long *out)
{
    int64_t v;
    if (!nv_parse_int64(s, &v)) return 0;
    *out = (long long)v;
    return 1;
}

const char *fmt_num(double x, char *buf)
{
    nv_format_double(x, buf);
    return buf;
}

int cli_read_precomputed(const nesvm_params *p)
{
    char kernel[32] = "";
    nesvm_params_get(p, "kernel", kernel, sizeof kernel, NULL);
    return strcmp(kernel, "precomputed") == 0 ? NESVM_PRECOMPUTED_TRAIN : NESVM_PRECOMPUTED_NONE;
}

int train_opts_init(train_opts *o, const char *cmd)
{
    memset(o, 0, sizeof *o);
    nesvm_read_options_init(&o->read);
    nesvm_error err = {0};
    if (nesvm_params_create(&o->params, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    o->seed = 1;
    o->ck.every = 60;
    o->liblinear = -1;
    return CLI_OK;
}

void train_opts_free(train_opts *o) { nesvm_params_destroy(o->params); }

/* One option of --help from the parameter table: its spellings and value
 * ("-t, --kernel K"), then its help and default, wrapped at 80 columns under
 * column 23. */
static void help_param(FILE *f, const char *name)
{
    const nv_param_def *d = nv_param_find(name);
    char head[96], text[1024];
    cli_param_spelling(d, ", ", head, sizeof head);
    size_t n = strlen(head);
    snprintf(head + n, sizeof head - n, " %s", d->metavar);
    snprintf(text, sizeof text, "%s (default %s)", d->help, d->def);
    int col = fprintf(f, "  %s", head);
    if (col < 23) col += fprintf(f, "%*s", 23 - col, "");
    else col += fprintf(f, "  ");
    int first = 1;
    for (char *w = text; *w;) {
        size_t k = strcspn(w, " ");
        if (!first && col + 1 + (int)k > 80) {
            col = fprintf(f, "\n%23s", "") - 1;
            first = 1;
        }
        col += fprintf(f, "%s%.*s", first ? "" : " ", (int)k, w);
        first = 0;
        w += k;
        while (*w == ' ') w++;
    }
    fputc('\n', f);
}

static void help_params(FILE *f, const char *const *names)
{
    for (int i = 0; names[i]; i++) help_param(f, names[i]);
}

void train_opts_help(FILE *f)
{
    /* the options of the parameter table, in sections; the CLI's own ones
     * (-w, -B, --storage, --float, --trace, -q) written here */
    static const char *const problem1[] = {"c", NULL};
    static const char *const problem2[] = {"lambda", NULL};
    static const char *const problem2b[] = {"bias_mode", NULL};
    static const char *const problem3[] = {"eps", "solver", "svm_type", "loss", "penalty", "epsilon", "svm_nu", "mu", "nu", "continuation", "mu0", "nu0",
                                           "mu_star", "stage_eps", "eps_abs", "method", "lipschitz", "restart", "multiclass",
                                           NULL};
    static const char *const hyperpass[] = {"shrinking", "warm_start", "batch", NULL};
    static const char *const gs[] = {"cap", "cache_size", NULL};
    static const char *const newton[] = {"smooth_p", "scheme", "tau", "merit", "kernel_norm", "basis_residual", NULL};
    static const char *const kernel[] = {"kernel", "gamma", "degree", "coef0", "basis", "basis_select",
                                         "kernel_memory", NULL};
    static const char *const general[] = {"max_iter", "time_limit", "threads", "seed", "probability", NULL};
    fputs("Problem and solver:\n", f);
    help_params(f, problem1);
    fputs("  -w<label> W          multiply C by W for samples of class <label> (as LIBSVM);\n"
          "                       each cost C x W must stay in [1e-100, 1e15]\n",
          f);
    help_params(f, problem2);
    fputs("  -B B                 B > 0: a bias. nesvm: free, unregularized (default;\n"
          "                       --bias-mode regularized: LIBLINEAR's feature B);\n"
          "                       hyperpass, pegasos, ssvm, nssvm: a constant feature B,\n"
          "                       regularized (LIBLINEAR's -B; ssvm/nssvm default 1).\n"
          "                       B <= 0: no bias (hyperpass, pegasos: default)\n",
          f);
    help_params(f, problem2b);
    help_params(f, problem3);
    fputs("Hyperpass and Pegasos (--eps-abs E: stop at gap E in the papers' units,\n"
          "(P - lower bound) / sum_i C_i):\n",
          f);
    help_params(f, hyperpass);
    fputs("GS-SVM (--solver gs; --max-iter N: at most N basis functions; -B B > 0:\n"
          "the kernel K + B^2, a bias B^2 sum alpha_i y_i; default none, as the paper):\n",
          f);
    help_params(f, gs);
    fputs("SSVM and NSSVM (smoothing Newton; -e E: stop at ||G_p|| <= E ||G_p(0)||,\n"
          "--eps-abs E: at ||G_p|| < E, the paper's rule):\n",
          f);
    help_params(f, newton);
    fputs("Kernel (LIBSVM's names; the model stores the basis vectors and coefficients;\n"
          "a full kernel is solved on its expansion with K as an operator; a reduced\n"
          "basis, and LP-SVM with nesterov, on kernel features Phi, Phi Phi^T = K):\n",
          f);
    help_params(f, kernel);
    fputs("  -m MB                LIBSVM's -m: --cache-size for gs, --kernel-memory for the\n"
          "                       other solvers\n",
          f);
    fputs("Limits and threads:\n", f);
    help_params(f, general);
    fputs("Data:\n"
          "  --storage auto|csr|dense  matrix layout (default auto: dense if >= 50% non-zero)\n"
          "  --float              store feature values as float (half the memory)\n"
          "  -W FILE              sample weights, one per line (LIBLINEAR's -W): each row's\n"
          "                       C is multiplied by its weight (one-class, nu-SVC: the\n"
          "                       bound on its coefficient, as a repeated row); 0 leaves\n"
          "                       the row out\n"
          "LIBSVM and LIBLINEAR habits:\n"
          "  -s 0|1|2|3|4         LIBSVM's -s: C-SVC (0), nu-SVC (1: --svm-type nu-svc,\n"
          "                       with -n NU), one-class SVM (2: --svm-type one-class,\n"
          "                       with -n NU), epsilon-SVR (3: --svm-type svr), nu-SVR (4:\n"
          "                       --svm-type nu-svr, with -n NU and -c C)\n"
          "  --liblinear N        train and cv: LIBLINEAR's -s N (0-7, 11-13) with its bias\n"
          "                       convention (no bias unless -B B > 0, then a feature B\n"
          "                       regularized with w), its C and one-vs-rest: 0/7:\n"
          "                       logistic regression, 5: L1-regularized squared hinge,\n"
          "                       6: L1-regularized logistic regression, 1/2: squared\n"
          "                       hinge, 3: hinge, 11/12: squared tube, 13: tube (with -B:\n"
          "                       --bias-mode regularized), 4: Crammer and Singer's\n"
          "                       multiclass SVM (--multiclass cs)\n"
          "  -h 0|1               shrinking (hyperpass); -h alone is this help\n"
          "Output:\n"
          "  --trace FILE         write one CSV row per iteration to FILE\n"
          "  -q                   quiet: no progress, no summary\n"
          "Every option of the parameter table: 'nesvm params'. An option the chosen\n"
          "solver, kernel or model does not use is accepted with a warning.\n",
          f);
}

/* Is `name` one of the space-separated words of `list`? */
static int has_word(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *w = list; *w;) {
        size_t k = strcspn(w, " ");
        if (k == n && strncmp(w, name, n) == 0) return 1;
        w += k;
        while (*w == ' ') w++;
    }
    return 0;
}

const nv_param_def *cli_param(const char *option)
{
    int count;
    const nv_param_def *t = nv_param_table(&count);
    for (int i = 0; i < count; i++)
        if (has_word(t[i].cli, option)) return &t[i];
    return NULL;
}

const char *cli_param_spelling(const nv_param_def *d, const char *sep, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const char *w = d->cli; *w && n + 1 < size;) {
        size_t k = strcspn(w, " ");
        int wrote = snprintf(buf + n, size - n, "%s%s", n ? sep : "", k == 1 ? "-" : "--");
        if (wrote < 0 || (size_t)wrote >= size - n) break;
        n += (size_t)wrote;
        for (size_t j = 0; j < k && n + 1 < size; j++) buf[n++] = w[j] == '_' ? '-' : w[j];
        buf[n] = '\0';
        w += k;
        while (*w == ' ') w++;
    }
    if (!buf[0]) snprintf(buf, size, "%s", d->name);
    return buf;
}

nesvm_solver_info cli_solver_info(const char *name)
{
    nesvm_solver_info si = NESVM_SOLVER_INFO_INIT;
    if (nesvm_solver_describe(name, &si, NULL) != NESVM_OK) {
        /* not a registered name (the library gives none such): a solver with a C */
        si.name = "";
        si.has_c = si.certificate = 1;
        si.memory = "kernel_memory";
    }
    return si;
}

nesvm_solver_info cli_params_solver(const nesvm_params *p)
{
    char solver[32] = "";
    nesvm_params_get(p, "solver", solver, sizeof solver, NULL);
    return cli_solver_info(solver); /* si.name is the registry's string, not this buffer */
}

int cli_nu_svc(const nesvm_params *p)
{
    char type[16] = "";
    nesvm_params_get(p, "svm_type", type, sizeof type, NULL);
    return strcmp(type, "nu-svc") == 0;
}

void cli_warn_ignored(const char *cmd, const nesvm_params *p)
{
    char solver[32], opt[64], list[160];
    nesvm_params_get(p, "solver", solver, sizeof solver, NULL);
    for (int k = 0; nesvm_params_ignored(p, k); k++) {
        const nv_param_def *d = nv_param_find(nesvm_params_ignored(p, k));
        const char *why;
        const struct nv_solver *s = nv_solver_find(solver);
        if (s && !nv_solver_uses(s, d->name, p))
            why = nv_solver_users(d->name, list, sizeof list);
        else if (d->when & NV_W_POLY)
            why = "the poly kernel";
        else if (d->when & NV_W_COEF0)
            why = "the poly and sigmoid kernels";
        else if (d->when & NV_W_GAMMA)
            why = "the poly, rbf and sigmoid kernels";
        else if (d->when & NV_W_KERNEL)
            why = "the poly, rbf, sigmoid and precomputed kernels";
        else if (d->when & NV_W_SVR)
            why = "--svm-type svr";
        else if (d->when & NV_W_NU)
            why = "--svm-type one-class, nu-svc and nu-svr";
        else if (d->when & NV_W_C)
            why = "every --svm-type but one-class and nu-svc (whose costs are the sample weights)";
        else if (d->when & NV_W_PENALTY)
            why = "--svm-type c and logistic (lp is always l1, the others l2)";
        else if (d->when & NV_W_COST)
            why = "every --svm-type but one-class, nu-svc and nu-svr (whose costs are the sample weights or C, "
                  "their offsets part of their problems)";
        else
            why = "--svm-type lp";
        fprintf(stderr, "nesvm %s: warning: %s is ignored here (solver %s): it applies to %s\n", cmd,
                strcmp(d->name, "bias") == 0 ? "-B" : cli_param_spelling(d, "/", opt, sizeof opt), solver, why);
    }
}

/* "1 vs -1" or "3 vs rest": sub-model k's classes (into buf). */
static const char *submodel_name(const nesvm_model *m, int k, char *buf, size_t size)
{
    int pos = 0, neg = -1;
    nesvm_model_expansion(m, k, NULL, NULL, NULL, &pos, &neg, NULL);
    const double *lab = nesvm_model_labels(m);
    if (neg < 0)
        snprintf(buf, size, "%.17g vs rest", lab[pos]);
    else
        snprintf(buf, size, "%.17g vs %.17g", lab[pos], lab[neg]);
    return buf;
}

int cli_model_joint(const nesvm_model *m)
{
    const char *mc = nesvm_model_multiclass(m);
    return mc && (strcmp(mc, "cs") == 0 || strcmp(mc, "multinomial") == 0);
}

int cli_warn_uncertified(const char *cmd, const nesvm_model *m)
{
    /* a joint problem's sub-models share one training: one warning */
    int nsub = cli_model_joint(m) ? 1 : nesvm_model_submodels(m), missed = 0, worst = -1;
    double worst_gap = -1;
    for (int k = 0; k < nsub; k++) {
        if (nesvm_model_certified(m, k) != NESVM_CERT_MISSED) continue;
        double gap;
        nesvm_model_training(m, k, NULL, NULL, NULL, &gap, NULL);
        double g = isnan(gap) ? INFINITY : gap;
        if (missed++ == 0 || g > worst_gap) {
            worst = k;
            worst_gap = g;
        }
    }
    if (!missed) return 0;
    nesvm_exit ex;
    double gap;
    char eps[32], name[96] = "";
    nesvm_model_training(m, worst, &ex, NULL, NULL, &gap, NULL);
    nesvm_params_get(nesvm_model_params(m), "eps", eps, sizeof eps, NULL);
    if (nsub > 1) submodel_name(m, worst, name, sizeof name); /* a regression's one model has no classes */
    const int oc = nesvm_model_task(m) == NESVM_TASK_NOVELTY;
    const char *hint = ex == NESVM_EXIT_MAX_ITER     ? "raise --max-iter"
                       : ex == NESVM_EXIT_TIME_LIMIT ? "raise --time-limit"
                       : ex == NESVM_EXIT_STALLED && oc
                           ? "no decrease was left in double precision: a one-class problem whose optimum is "
                             "w = 0 (with the linear kernel: the origin inside the rows' convex hull) has no "
                             "relative gap; use -t rbf, or data away from the origin"
                       : ex == NESVM_EXIT_STALLED ? "no decrease was left in double precision: a smaller -c "
                                                    "or -B, or scaled data"
                                                  : "see docs/solvers.md";
    char gtxt[40]; /* a sub-model the time limit left unstarted has none */
    if (isnan(gap))
        snprintf(gtxt, sizeof gtxt, "unknown");
    else
        snprintf(gtxt, sizeof gtxt, "%.3g", gap);
    if (nsub == 1)
        fprintf(stderr, "nesvm %s: warning: the training stopped before its certificate (exit %s, relative "
                        "gap %s, -e %s): the model is saved but may be far from the optimum (%s)\n",
                cmd, nesvm_exit_str(ex), gtxt, eps, hint);
    else
        fprintf(stderr, "nesvm %s: warning: %d of %d binary models stopped before their certificate (the "
                        "worst, %s: exit %s, relative gap %s, -e %s): the model is saved but may be far "
                        "from the optimum (%s)\n",
                cmd, missed, nsub, name, nesvm_exit_str(ex), gtxt, eps, hint);
    return missed;
}

static int set_param(cli_args *a, nesvm_params *p, const char *name, const char *value)
{
    nesvm_error err = {0};
    if (nesvm_params_set(p, name, value, &err) != NESVM_OK) {
        cli_usage(a->cmd, "%s", err.message);
        return -1;
    }
    return 1;
}

int cli_h_is_shrinking(cli_args *a)
{
    if (a->inline_value || a->i >= a->argc) return 0;
    const char *v = a->argv[a->i];
    return strcmp(v, "0") == 0 || strcmp(v, "1") == 0;
}

int train_opt_shrinking(cli_args *a, train_opts *o)
{
    const char *v = cli_value(a);
    if (!v) return -1;
    return set_param(a, o->params, "shrinking", v) > 0 ? 1 : -1;
}

/* What LIBLINEAR's types nesvm lacks are, for the refusal. */
static const char *liblinear_lacking(int t)
{
    switch (t) {
    case 21: return "one-class SVM";
    default: return NULL;
    }
}

static int liblinear_set(const char *cmd, nesvm_params *p, const char *name, const char *value)
{
    nesvm_error err = {0};
    if (nesvm_params_set(p, name, value, &err) == NESVM_OK) return CLI_OK;
    return cli_usage(cmd, "--liblinear: %s", err.message);
}

int train_opts_liblinear(const char *cmd, train_opts *o)
{
    const int t = o->liblinear;
    if (t < 0) return CLI_OK;
    const char *lacks = liblinear_lacking(t);
    if (lacks) return cli_usage(cmd, "--liblinear %d (LIBLINEAR's -s %d, %s) is not supported: nesvm trains "
                                     "LIBLINEAR's -s 0-7 and 11-13", t, t, lacks);
    if (!(t <= 7 || (t >= 11 && t <= 13)))
        return cli_usage(cmd, "bad value '%d' for --liblinear (LIBLINEAR has no -s %d; nesvm trains its -s 0-7 "
                              "and 11-13)", t, t);
    /* the problem is --liblinear's: no other spelling of it beside */
    char svm_type[16], solver[16], loss[40], bias[40], c[40], penalty[8], bmode[16];
    nesvm_params_get(o->params, "svm_type", svm_type, sizeof svm_type, NULL);
    nesvm_params_get(o->params, "solver", solver, sizeof solver, NULL);
    nesvm_params_get(o->params, "loss", loss, sizeof loss, NULL);
    nesvm_params_get(o->params, "bias", bias, sizeof bias, NULL);
    nesvm_params_get(o->params, "c", c, sizeof c, NULL);
    nesvm_params_get(o->params, "penalty", penalty, sizeof penalty, NULL);
    nesvm_params_get(o->params, "bias_mode", bmode, sizeof bmode, NULL);
    if (strcmp(svm_type, "c") != 0 || strcmp(solver, "nesvm") != 0 || strcmp(loss, "auto") != 0 ||
        strcmp(penalty, "l2") != 0 || strcmp(bmode, "auto") != 0)
        return cli_usage(cmd, "--liblinear %d sets the problem and the solver: drop -s, --svm-type, --solver, "
                              "--loss, --penalty and --bias-mode", t);
    /* LIBLINEAR's bias: none unless -B B > 0, then a feature B regularized with w */
    double B = 0;
    if (strcmp(bias, "auto") != 0 && !cli_parse_double(bias, &B)) B = 0;
    const int reg_bias = B > 0;
    if (t == 0 || (t >= 5 && t <= 7)) {
        /* logistic regression (-s 7: LIBLINEAR's dual method for -s 0's
         * problem), and the L1-regularized squared hinge (5) and logistic
         * regression (6): NESVM's problems of those names, with no bias or
         * the bias feature B (bias_mode regularized) */
        const int logistic = t != 5, l1 = t == 5 || t == 6;
        int rc = liblinear_set(cmd, o->params, "svm_type", logistic ? "logistic" : "c");
        if (rc == CLI_OK && !logistic) rc = liblinear_set(cmd, o->params, "loss", "squared_hinge");
        if (rc == CLI_OK && l1) rc = liblinear_set(cmd, o->params, "penalty", "l1");
        if (rc == CLI_OK) rc = liblinear_set(cmd, o->params, "multiclass", "ovr");
        if (rc == CLI_OK) rc = liblinear_set(cmd, o->params, reg_bias ? "bias_mode" : "bias", reg_bias ? "regularized" : "0");
        return rc;
    }
    if (t == 4) {
        /* Crammer and Singer's joint problem, LIBLINEAR's C; its bias a
         * constant feature B regularized with W (-B B > 0), else none */
        int rc = liblinear_set(cmd, o->params, "multiclass", "cs");
        if (rc == CLI_OK && !reg_bias) rc = liblinear_set(cmd, o->params, "bias", "0");
        return rc;
    }
    /* the squared hinge (1, 2), the hinge (3) and the tubes (11-13): NESVM's
     * problems, with no bias or the bias feature B as for 0/5/6/7 */
    const int squared = t != 3 && t != 13, svr = t >= 11;
    int rc = liblinear_set(cmd, o->params, svr ? "svm_type" : "multiclass", svr ? "svr" : "ovr");
    if (rc == CLI_OK && squared)
        rc = liblinear_set(cmd, o->params, "loss", svr ? "squared_epsilon_insensitive" : "squared_hinge");
    if (rc == CLI_OK && reg_bias) rc = liblinear_set(cmd, o->params, "bias_mode", "regularized");
    if (rc == CLI_OK && !reg_bias) rc = liblinear_set(cmd, o->params, "bias", "0");
    return rc;
}

int train_opt(cli_args *a, train_opts *o)
{
    const char *n = a->name;
    const char *v;
    /* the training parameters: their command-line names come from the table */
    const nv_param_def *d = cli_param(n);
    if (d) {
        if (!(v = cli_value(a))) return -1;
        int rc = set_param(a, o->params, d->name, v);
        long long iv;
        if (rc > 0 && strcmp(d->name, "seed") == 0) cli_parse_int(v, &o->seed);
        if (rc > 0 && strcmp(d->name, "threads") == 0 && cli_parse_int(v, &iv))
            o->read.threads = (int)iv; /* reading is threaded too */
        return rc;
    }
    if (n[0] == 'w' && n[1] != '\0' && strcmp(n, "weight") != 0) {
        double label, weight;
        if (!cli_parse_double(n + 1, &label)) {
            cli_usage(a->cmd, "bad class label in option '-%s'", n);
            return -1;
        }
        if (!(v = cli_value(a))) return -1;
        nesvm_error err = {0};
        if (!cli_parse_double(v, &weight) ||
            nesvm_params_set_class_weight(o->params, label, weight, &err) != NESVM_OK) {
            cli_usage(a->cmd, "bad weight '%s' for option '-%s' (expected a number in [1e-100, 1e100])", v, n);
            return -1;
        }
        return 1;
    }
    if (strcmp(n, "B") == 0) {
        double b;
        if (!(v = cli_value(a))) return -1;
        if (!cli_parse_double(v, &b)) {
            cli_usage(a->cmd, "bad value '%s' for -B (expected a number)", v);
            return -1;
        }
        return set_param(a, o->params, "bias", v);
    }
    if (strcmp(n, "q") == 0) {
        o->quiet = 1;
        return 1;
    }
    if (strcmp(n, "m") == 0) {
        /* checked by the parameter it sets, once the solver is known (run_training) */
        if (!(o->m_value = cli_value(a))) return -1;
        return 1;
    }
    if (strcmp(n, "metrics") == 0) {
        o->metrics = 1;
        return 1;
    }
    if (strcmp(n, "W") == 0) {
        if (!(o->weights = cli_value(a))) return -1;
        return 1;
    }
    if (strcmp(n, "s") == 0) {
        /* LIBSVM's -s (svm type) and LIBLINEAR's -s (solver type) share the letter:
         * 0 is C-SVC / L2-regularized logistic regression's number too, but C-SVC is
         * what both tools' users mean by it here */
        long long t;
        if (!(v = cli_value(a))) return -1;
        if (!cli_parse_int(v, &t) || t < 0) {
            cli_usage(a->cmd, "bad value '%s' for -s (expected 0, C-SVC, 1, nu-SVC, 2, one-class SVM, 3, epsilon-SVR, "
                              "or 4, nu-SVR)", v);
            return -1;
        }
        /* LIBSVM's types (LIBLINEAR's 1 to 4: --liblinear N, --solver hyperpass) */
        static const char *const type[] = {"c", "nu-svc", "one-class", "svr", "nu-svr"};
        if (t == 0) return 1;
        if (t <= 4) return set_param(a, o->params, "svm_type", type[t]);
        cli_usage(a->cmd, "-s %lld is not supported: nesvm trains LIBSVM's C-SVC (-s 0), nu-SVC (-s 1), one-class "
                          "SVM (-s 2), epsilon-SVR (-s 3) and nu-SVR (-s 4) with the solvers of --solver", t);
        return -1;
    }
    if (strcmp(n, "liblinear") == 0) {
        long long t;
        if (!(v = cli_value(a))) return -1;
        if (strcmp(a->cmd, "train") != 0 && strcmp(a->cmd, "cv") != 0) {
            cli_usage(a->cmd, "--liblinear is LIBLINEAR's train numbering, for nesvm train and cv: here use "
                              "--svm-type, --loss, --solver and -B");
            return -1;
        }
        if (!cli_parse_int(v, &t) || t < 0 || t > 100) {
            cli_usage(a->cmd, "bad value '%s' for --liblinear (expected LIBLINEAR's -s: 0-7 or 11-13)", v);
            return -1;
        }
        o->liblinear = (int)t;
        return 1;
    }
    if (strcmp(n, "v") == 0) {
        long long k;
        if (!(v = cli_value(a))) return -1;
        if (!cli_parse_int(v, &k) || k < 2 || k > 1000000) {
            cli_usage(a->cmd, "bad value '%s' for -v (expected an integer >= 2)", v);
            return -1;
        }
        o->folds = (int)k;
        return 1;
    }
    if (strcmp(n, "trace") == 0) {
        if (!(o->trace = cli_value(a))) return -1;
        return 1;
    }
    if (strcmp(n, "storage") == 0) {
        if (!(v = cli_value(a))) return -1;
        if (strcmp(v, "auto") == 0) o->read.storage = NESVM_STORAGE_AUTO;
        else if (strcmp(v, "csr") == 0) o->read.storage = NESVM_STORAGE_CSR;
        else if (strcmp(v, "dense") == 0) o->read.storage = NESVM_STORAGE_DENSE;
        else {
            cli_usage(a->cmd, "bad value '%s' for --storage (expected auto, csr or dense)", v);
            return -1;
        }
        return 1;
    }
    if (strcmp(n, "float") == 0) {
        o->read.precision = NESVM_FLOAT;
        return 1;
    }
    return 0;
}

int progress_cb(const nesvm_progress *p, void *user)
{
    progress_state *ps = user;
    if (ps->trace) {
        fprintf(ps->trace,
                "%d,%lld,%.6f,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%lld,%lld,%.17g,%lld,"
                "%lld,%lld,%d,%.17g,%.17g\n",
                p->submodel, (long long)p->iteration, p->elapsed, p->primal, p->best_primal,
                p->smoothed, p->lower_bound, p->gap, p->mu, p->lipschitz, (long long)p->n_sv,
                (long long)p->n_bounded, p->step, (long long)p->inner, (long long)p->n_active,
                (long long)p->n_changed, p->scheme, p->residual, p->grad_norm);
        /* a trace that cannot be written stops the run at once, with the reason */
        if (ferror(ps->trace) && ps->trace_errno == 0) ps->trace_errno = errno ? errno : EIO;
    }
    if (ps->tty) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
        if (now - ps->last_print >= 0.1) {
            ps->last_print = now;
            fprintf(stderr, "\r  model %d/%d  iter %-8lld primal %-12.6g gap %-10.3g mu %-9.3g %.1fs   ",
                    p->submodel + 1, p->n_submodels, (long long)p->iteration, p->best_primal,
                    p->gap, p->mu, p->elapsed);
            fflush(stderr);
        }
    }
    return ps->trace_errno != 0;
}

void progress_end(progress_state *ps)
{
    if (ps->tty && ps->last_print > 0) fputs("\r\033[K", stderr);
}
