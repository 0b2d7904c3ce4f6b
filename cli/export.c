/* export.c - `nesvm export --format libsvm|liblinear MODEL OUT`: a nesvm model
 * as a LIBSVM (svm-predict) or LIBLINEAR (predict) model file, where the model
 * is representable there.
 *
 *   libsvm     kernel models, binary or one-vs-one.  decision_p(x) =
 *              sum_j coef_pj K(sv_j, x) - rho_p with rho_p = -b_p, the pairs in
 *              the same order ((0,1), (0,2), ..., positive for the first class),
 *              the labels in model order.  LIBSVM counts a support vector in
 *              the pairs of its own class only, so each basis vector must have
 *              non-zero coefficients in the pairs of one class only (true of the
 *              full kernel and GS-SVM, whose basis vectors are training rows;
 *              not of a reduced basis in a multiclass model): it is written in
 *              that class, with its coefficient of pair (c, d) in LIBSVM's row
 *              d - 1 (d > c) or d (d < c).
 *   liblinear  linear models, binary or one-vs-rest: w in nr_feature rows of
 *              one column per sub-model (one for binary), and the bias as a
 *              feature of value 1 whose weight is b.
 */
#include "cli.h"
#include "core/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm export --format libsvm|liblinear MODEL OUT\n"
          "Write MODEL (a nesvm model file) as a LIBSVM model (svm-predict reads it) or a\n"
          "LIBLINEAR model (its predict reads it), atomically, giving the same labels and\n"
          "decision values. libsvm: kernel models, binary or one-vs-one, whose basis\n"
          "vectors each serve the pairs of one class (the full kernel, GS-SVM; not a\n"
          "reduced basis with more than two classes). liblinear: linear models, binary\n"
          "or one-vs-rest. Other models are refused with the reason.\n\n"
          "  --format libsvm|liblinear  the target (required)\n"
          "  -h, --help           this help\n",
          f);
}

static void num(FILE *f, double v)
{
    char buf[32];
    nv_format_double(v, buf);
    fputs(buf, f);
}

static int export_libsvm(const char *cmd, const nesvm_model *m, FILE *f)
{
    const nesvm_dataset *B = nesvm_model_basis(m);
    if (!B) return cli_error(cmd, "a linear model has no support vectors for LIBSVM: use --format liblinear");
    if (strcmp(nesvm_model_multiclass(m), "ovr") == 0 && nesvm_model_classes(m) > 2)
        return cli_error(cmd, "LIBSVM's models are one-vs-one: a one-vs-rest model cannot be written for it");
    const int k = nesvm_model_classes(m), ns = nesvm_model_submodels(m);
    int64_t nb = nesvm_dataset_rows(B);
    const nesvm_params *p = nesvm_model_params(m);
    char kern[16], g[64], d[64], r[64];
    nesvm_params_get(p, "kernel", kern, sizeof kern, NULL);
    nesvm_params_get(p, "gamma", g, sizeof g, NULL);
    nesvm_params_get(p, "degree", d, sizeof d, NULL);
    nesvm_params_get(p, "coef0", r, sizeof r, NULL);
    /* each basis vector's class: the one class common to the pairs where it is non-zero */
    int *cls = malloc(sizeof(int) * (size_t)(nb ? nb : 1));
    double *coef = calloc((size_t)(k - 1) * (size_t)(nb ? nb : 1), sizeof(double));
    double *rho = malloc(sizeof(double) * (size_t)ns);
    int rc = CLI_OK;
    if (!cls || !coef || !rho) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    for (int64_t j = 0; j < nb; j++) cls[j] = -1;
    for (int s = 0; s < ns && rc == CLI_OK; s++) {
        const double *beta;
        int64_t n;
        double b;
        int pos, neg;
        nesvm_model_expansion(m, s, &beta, &n, &b, &pos, &neg, NULL);
        rho[s] = -b;
        for (int64_t j = 0; j < nb; j++) {
            if (beta[j] == 0) continue;
            if (k == 2) {
                cls[j] = beta[j] > 0 ? pos : neg;
                continue;
            }
            int c = cls[j];
            if (c == -1) {
                /* the first pair: either class for now, settled by another pair or the sign */
                cls[j] = -2 - (pos * k + neg);
            } else if (c <= -2) {
                int pp = (-2 - c) / k, pn = (-2 - c) % k;
                int common = pp == pos || pp == neg ? pp : pn == pos || pn == neg ? pn : -1;
                if (common < 0) {
                    rc = cli_error(cmd, "basis vector %lld serves pairs (%d, %d) and (%d, %d), of no common class: "
                                        "LIBSVM counts a support vector in its own class's pairs only (a reduced "
                                        "basis with more than two classes cannot be written for it)",
                                   (long long)j + 1, pp, pn, pos, neg);
                    break;
                }
                cls[j] = common;
            } else if (c != pos && c != neg) {
                rc = cli_error(cmd, "basis vector %lld serves a pair without its class %d: LIBSVM counts a support "
                                    "vector in its own class's pairs only (a reduced basis with more than two "
                                    "classes cannot be written for it)",
                               (long long)j + 1, c);
                break;
            }
        }
    }
    if (rc != CLI_OK) goto done;
    /* vectors seen in one pair only: their class by the sign (positive: the pair's first) */
    for (int s = 0; s < ns && k > 2; s++) {
        const double *beta;
        int64_t n;
        int pos, neg;
        nesvm_model_expansion(m, s, &beta, &n, NULL, &pos, &neg, NULL);
        for (int64_t j = 0; j < nb; j++)
            if (cls[j] == -2 - (pos * k + neg)) cls[j] = beta[j] > 0 ? pos : neg;
    }
    /* the coefficients in LIBSVM's layout */
    for (int s = 0; s < ns; s++) {
        const double *beta;
        int64_t n;
        int pos, neg;
        nesvm_model_expansion(m, s, &beta, &n, NULL, &pos, &neg, NULL);
        for (int64_t j = 0; j < nb; j++) {
            if (beta[j] == 0 || cls[j] < 0) continue;
            int c = cls[j], other = c == pos ? neg : pos;
            if (k == 2) other = 1 - c;
            int row = other > c ? other - 1 : other;
            coef[(size_t)row * (size_t)nb + (size_t)j] = beta[j];
        }
    }
    int64_t total = 0;
    int64_t *count = calloc((size_t)k, sizeof(int64_t));
    if (!count) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    for (int64_t j = 0; j < nb; j++)
        if (cls[j] >= 0) {
            count[cls[j]]++;
            total++;
        }
    fprintf(f, "svm_type c_svc\nkernel_type %s\n", strcmp(kern, "poly") == 0 ? "polynomial" : kern);
    if (strcmp(kern, "poly") == 0) fprintf(f, "degree %s\n", d);
    fprintf(f, "gamma %s\n", g);
    if (strcmp(kern, "poly") == 0 || strcmp(kern, "sigmoid") == 0) fprintf(f, "coef0 %s\n", r);
    fprintf(f, "nr_class %d\ntotal_sv %lld\nrho", k, (long long)total);
    for (int s = 0; s < ns; s++) {
        fputc(' ', f);
        num(f, rho[s]);
    }
    fputs("\nlabel", f);
    for (int c = 0; c < k; c++) {
        fputc(' ', f);
        num(f, nesvm_model_labels(m)[c]);
    }
    fputs("\nnr_sv", f);
    for (int c = 0; c < k; c++) fprintf(f, " %lld", (long long)count[c]);
    fputs("\nSV\n", f);
    const int64_t *ip = nesvm_dataset_indptr(B);
    const int32_t *ix = nesvm_dataset_indices(B);
    const double *vx = nesvm_dataset_values(B);
    for (int c = 0; c < k; c++)
        for (int64_t j = 0; j < nb; j++) {
            if (cls[j] != c) continue;
            for (int row = 0; row < k - 1; row++) {
                num(f, coef[(size_t)row * (size_t)nb + (size_t)j]);
                fputc(' ', f);
            }
            for (int64_t q = ip[j]; q < ip[j + 1]; q++) {
                fprintf(f, "%d:", ix[q] + 1);
                num(f, vx[q]);
                fputc(' ', f);
            }
            fputc('\n', f);
        }
    free(count);
done:
    free(cls);
    free(coef);
    free(rho);
    return rc;
}

static int export_liblinear(const char *cmd, const nesvm_model *m, FILE *f)
{
    if (nesvm_model_basis(m))
        return cli_error(cmd, "a %s-kernel model cannot be written for LIBLINEAR (linear models only): use --format "
                              "libsvm", nesvm_model_kernel(m));
    const int k = nesvm_model_classes(m), ns = nesvm_model_submodels(m);
    if (k > 2 && strcmp(nesvm_model_multiclass(m), "ovr") != 0)
        return cli_error(cmd, "LIBLINEAR's multiclass models are one-vs-rest: train with --multiclass ovr to export "
                              "a model of %d classes", k);
    const int32_t d = nesvm_model_features(m);
    const char *solver = strcmp(nesvm_model_problem(m), "c_svm_squared_hinge_l2_regularized_bias") == 0
                             ? "L2R_L2LOSS_SVC"
                             : "L2R_L1LOSS_SVC_DUAL";
    fprintf(f, "solver_type %s\nnr_class %d\nlabel", solver, k);
    for (int c = 0; c < k; c++) {
        fputc(' ', f);
        num(f, nesvm_model_labels(m)[c]);
    }
    /* the columns in label order: one-vs-rest sub-model c is class c's */
    fprintf(f, "\nnr_feature %d\nbias 1\nw\n", d);
    for (int32_t j = 0; j <= d; j++) {
        for (int c = 0; c < (k == 2 ? 1 : k); c++) {
            int s = 0;
            for (; s < ns; s++) {
                int pos;
                nesvm_model_linear(m, s, NULL, NULL, &pos, NULL, NULL);
                if (k == 2 || pos == c) break;
            }
            const double *ws;
            double b;
            int pos;
            nesvm_model_linear(m, s, &ws, &b, &pos, NULL, NULL);
            /* binary: LIBLINEAR's one column is positive for label[0] */
            double sign = k == 2 && pos != 0 ? -1 : 1;
            num(f, sign * (j < d ? ws[j] : b));
            fputc(' ', f);
        }
        fputc('\n', f);
    }
    return CLI_OK;
}

int cmd_export(int argc, char **argv)
{
    const char *cmd = "export";
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *pos[2], *p, *format = NULL;
    int npos = 0, r;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (npos == 2) return cli_usage(cmd, "too many arguments ('%s')", p);
            pos[npos++] = p;
        } else if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            return CLI_OK;
        } else if (strcmp(a.name, "format") == 0) {
            if (!(format = cli_value(&a))) return CLI_USAGE;
            if (strcmp(format, "libsvm") != 0 && strcmp(format, "liblinear") != 0)
                return cli_usage(cmd, "bad value '%s' for --format (expected libsvm or liblinear)", format);
        } else {
            return cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]);
        }
    }
    if (!format) return cli_usage(cmd, "--format libsvm|liblinear is required");
    if (npos < 2) return cli_usage(cmd, "expected MODEL and OUT");
    nesvm_error err = {0};
    nesvm_model *m = NULL;
    if (nesvm_model_load(pos[0], &m, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    nv_atomic_file af;
    if (nv_atomic_open(&af, pos[1], &err) != NESVM_OK) {
        nesvm_model_destroy(m);
        return cli_error(cmd, "%s", err.message);
    }
    int rc = strcmp(format, "libsvm") == 0 ? export_libsvm(cmd, m, af.fp) : export_liblinear(cmd, m, af.fp);
    if (rc == CLI_OK) {
        if (nv_atomic_commit(&af, &err) != NESVM_OK) rc = cli_error(cmd, "%s", err.message);
    } else {
        nv_atomic_abort(&af);
    }
    nesvm_model_destroy(m);
    return rc;
}
