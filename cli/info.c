/* info.c - `nesvm info MODEL`: what a model file holds. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm info MODEL\n"
          "Print a model's solver, classes, features and, per binary sub-model, the classes\n"
          "it separates, how its training ended, its bias, ||w|| and non-zero weights.\n"
          "  -h, --help           this help\n",
          f);
}

int cmd_info(int argc, char **argv)
{
    const char *cmd = "info";
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *path = NULL, *p;
    int r;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (path) return cli_usage(cmd, "too many arguments ('%s')", p);
            path = p;
        } else if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            return CLI_OK;
        } else {
            return cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]);
        }
    }
    if (!path) return cli_usage(cmd, "missing MODEL file");
    nesvm_error err = {0};
    nesvm_model *m = NULL;
    if (nesvm_model_load(path, &m, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    char buf[32];
    int k = nesvm_model_classes(m);
    const double *labels = nesvm_model_labels(m);
    printf("model       %s\n", path);
    const char *problem = nesvm_model_problem(m);
    /* NESVM's C-SVM with --loss L is c_svm_L_l2 */
    char cwhat[96];
    size_t plen = strlen(problem);
    if (strncmp(problem, "c_svm_", 6) == 0 && plen > 9 && strcmp(problem + plen - 3, "_l2") == 0)
        snprintf(cwhat, sizeof cwhat, "C-SVM: L2 + %.*s loss", (int)(plen - 9), problem + 6);
    else if (strncmp(problem, "svr_", 4) == 0 && strstr(problem, "_l2")) {
        /* epsilon-SVR's svr_LOSS_l2 (and _regularized_bias: Hyperpass's,
         * SSVM/NSSVM's), its tube's half-width in param epsilon */
        char eps[32] = "?";
        nesvm_params_get(nesvm_model_params(m), "epsilon", eps, sizeof eps, NULL);
        const int rb = plen > 17 && strcmp(problem + plen - 17, "_regularized_bias") == 0;
        snprintf(cwhat, sizeof cwhat, "epsilon-SVR: L2 + %.*s loss, tube %s%s", (int)(strstr(problem, "_l2") - problem - 4),
                 problem + 4, eps, rb ? ", regularized bias" : "");
    } else if (strcmp(problem, "one_class_svm_hinge_l2") == 0) {
        char nu[32] = "?";
        nesvm_params_get(nesvm_model_params(m), "svm_nu", nu, sizeof nu, NULL);
        snprintf(cwhat, sizeof cwhat, "one-class SVM: L2 + hinge of rho - f, nu %s", nu);
    } else if (strcmp(problem, "nu_svc_hinge_l2") == 0 || strcmp(problem, "nu_svr_epsilon_insensitive_l2") == 0) {
        char nu[32] = "?";
        nesvm_params_get(nesvm_model_params(m), "svm_nu", nu, sizeof nu, NULL);
        if (problem[5] == 'c')
            snprintf(cwhat, sizeof cwhat, "nu-SVC: L2 + hinge of rho - y f, nu %s, scaled by 1/rho", nu);
        else
            snprintf(cwhat, sizeof cwhat, "nu-SVR: L2 + tube of half-width epsilon, nu %s", nu);
    } else if (strncmp(problem, "crammer_singer_svm_hinge_l2", 27) == 0) {
        snprintf(cwhat, sizeof cwhat, "Crammer and Singer's multiclass SVM: L2 + multiclass hinge, %s",
                 problem[27] ? "regularized bias" : "no bias");
    } else if (strcmp(problem, "multinomial_logistic_regression_l2") == 0) {
        char bias[32] = "?";
        nesvm_params_get(nesvm_model_params(m), "bias", bias, sizeof bias, NULL);
        snprintf(cwhat, sizeof cwhat, "softmax logistic regression: L2 + multinomial log-loss, %s",
                 strtod(bias, NULL) > 0 ? "free bias" : "no bias");
    } else
        snprintf(cwhat, sizeof cwhat, "%s", problem);
    const char *what = strcmp(problem, "lp_svm_hinge_l1") == 0   ? "LP-SVM: L1 norm + hinge loss"
                       : strcmp(problem, "ls_svm_squared_l2") == 0 ? "LS-SVM: L2 + squared loss"
                       : strcmp(problem, "ls_svr_squared_l2") == 0 ? "LS-SVR: L2 + squared loss on real targets"
                       : strcmp(problem, "c_svm_squared_hinge_l2_regularized_bias") == 0
                           ? "L2 + squared hinge loss, regularized bias"
                       : strcmp(problem, "c_svm_hinge_l2_regularized_bias") == 0 ? "C-SVM: L2 + hinge loss, regularized bias"
                       : strcmp(problem, "svm_dual_greedy_stagewise") == 0
                           ? "hard-margin dual, greedy stagewise"
                           : cwhat;
    printf("solver      %s (problem %s, %s)\n", nesvm_model_solver(m), problem, what);
    const nesvm_dataset *basis = nesvm_model_basis(m);
    if (basis) {
        printf("kernel      %s, %lld basis vectors\n", nesvm_model_kernel(m),
               (long long)nesvm_dataset_rows(basis));
        char norm[16];
        if (nesvm_params_applies(nesvm_model_params(m), "kernel_norm") == 1 &&
            nesvm_params_get(nesvm_model_params(m), "kernel_norm", norm, sizeof norm, NULL) == NESVM_OK)
            printf("penalty     %s\n", strcmp(norm, "coef") == 0 ? "||beta||^2 + b^2 (kernel_norm coef, GSVM/RSVM's)"
                                                                 : "beta^T K_BB beta + b^2, the RKHS norm (kernel_norm rkhs)");
    } else
        printf("kernel      linear\n");
    const nesvm_task task = nesvm_model_task(m);
    if (task == NESVM_TASK_CLASSIFICATION) {
        printf("multiclass  %s\n", nesvm_model_multiclass(m));
        printf("classes     %d:", k);
        for (int c = 0; c < k; c++) printf(" %s", fmt_num(labels[c], buf));
        putchar('\n');
    } else {
        printf("task        %s\n", nesvm_task_str(task));
    }
    printf("features    %d\nsub-models  %d%s\n", nesvm_model_features(m), nesvm_model_submodels(m),
           cli_model_joint(m) ? " (one per class, one joint training)" : "");
    const int joint = cli_model_joint(m);
    for (int s = 0; s < nesvm_model_submodels(m); s++) {
        const double *w;
        int64_t nc = 0;
        double b;
        int pos, neg;
        nesvm_model_expansion(m, s, &w, &nc, &b, &pos, &neg, NULL);
        double nrm = 0;
        long long nz = 0;
        for (int64_t j = 0; j < nc; j++) {
            nrm += w[j] * w[j];
            nz += w[j] != 0;
        }
        if (pos < 0) {
            printf("  [%d] %s", s, nesvm_task_str(task));
        } else if (joint) {
            printf("  [%d] class %s", s, fmt_num(labels[pos], buf));
        } else {
            printf("  [%d] %s vs ", s, fmt_num(labels[pos], buf));
            if (neg < 0) printf("rest");
            else printf("%s", fmt_num(labels[neg], buf));
        }
        nesvm_exit ex;
        int64_t iters;
        double primal, gap;
        nesvm_model_training(m, s, &ex, &iters, &primal, &gap, NULL);
        /* a one-class model's offset is rho = -b (LIBSVM's) */
        const char *bw = task == NESVM_TASK_NOVELTY ? "rho" : "b";
        const double bv = task == NESVM_TASK_NOVELTY ? -b : b;
        if (basis)
            printf(": %s %.6g, ||beta|| %.6g, non-zero coefficients %lld", bw, bv, sqrt(nrm), nz);
        else
            printf(": %s %.6g, ||w|| %.6g, non-zero weights %lld", bw, bv, sqrt(nrm), nz);
        /* nu-SVC's margin (LIBSVM's "C = 1/rho"), nu-SVR's half-width (its "epsilon") */
        const double nv = nesvm_model_nu_value(m, s);
        const int nusvc = strcmp(problem, "nu_svc_hinge_l2") == 0;
        if (nusvc || strcmp(problem, "nu_svr_epsilon_insensitive_l2") == 0) {
            if (isnan(nv)) printf(", %s unknown (not in the file)", nusvc ? "rho" : "epsilon");
            else if (nusvc) printf(", rho %.6g (C = 1/rho = %.6g)", nv, 1.0 / nv);
            else printf(", epsilon %.6g", nv);
        }
        putchar('\n');
        if (joint && s + 1 < nesvm_model_submodels(m)) continue; /* one training: after the last class */
        nesvm_cert cert = nesvm_model_certified(m, s);
        printf("      %s: %s after %lld iterations, primal %.10g, relative gap %.3g%s\n",
               joint ? "joint training" : "training",
               nesvm_exit_str(ex), (long long)iters, primal, gap,
               cert == NESVM_CERT_REACHED ? ", certified"
               : cert == NESVM_CERT_NONE  ? " (no certificate: the solver's own stopping rule)"
                                          : ", NOT certified: stopped before its certificate");
    }
    nesvm_model_destroy(m);
    return CLI_OK;
}
