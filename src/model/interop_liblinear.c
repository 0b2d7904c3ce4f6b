/* interop_liblinear.c - models to and from LIBLINEAR's model files (train,
 * predict); interop_internal.h has the common ground.
 *
 * Export: linear models, binary or one-vs-rest: w in nr_feature rows of one
 * column per sub-model (one for binary), and the bias as LIBLINEAR's bias
 * feature: of value B and weight b / B for a regularized bias feature B, of
 * value 1 and weight b for a free bias, none without a bias.  Crammer and
 * Singer's joint model (multiclass cs) as MCSVM_CS (-s 4): a column per
 * class, two classes too, which LIBLINEAR's predict reads as the argmax of
 * w_m.x + b_m, nesvm's rule; the multinomial model is refused (LIBLINEAR
 * has none).
 *
 * Epsilon-SVR (task regression): L2R_L1LOSS_SVR_DUAL (-s 13) for the tube,
 * L2R_L2LOSS_SVR (-s 11) for the squared tube, one column of w, no label
 * line, the bias as for a classifier.  Imported, LIBLINEAR's -s 11/12/13
 * become nesvm's svr models (solver nesvm, the loss by the solver type) with
 * the bias feature's weight as a free bias b = B w_B: the predictions are
 * LIBLINEAR's, the problem of a later training nesvm's (its bias free).
 *
 * Logistic regression (-s 0, 6, 7) and the L1-regularized squared hinge
 * (-s 5) both ways: nesvm's logistic_regression_logistic_l2 / _l1 and
 * c_svm_squared_hinge_l1 are L2R_LR, L1R_LR and L1R_L2LOSS_SVC (L2R_LR_DUAL
 * imported as L2R_LR), the bias a free one (value 1, weight b) when the
 * model has one, or LIBLINEAR's feature B (weight b / B) for the problems
 * with it (_regularized_bias, bias_mode regularized), which the import of a
 * model with bias B > 0 gives; imported logistic models carry their native
 * probabilities (prob -1 0: liblinear-predict -b 1's).
 *
 * Import: solver_type L2R_L2LOSS_SVC_DUAL, L2R_L2LOSS_SVC (-s 1, 2):
 * Import: solver_type MCSVM_CS (-s 4): nesvm's Crammer and Singer model
 * (multiclass cs, a sub-model (c, -1) per column, the regularized bias
 * feature's problem for B > 0); L2R_L2LOSS_SVC_DUAL, L2R_L2LOSS_SVC (-s 1, 2):
 * nssvm's problem, the squared hinge with a regularized bias;
 * L2R_L1LOSS_SVC_DUAL (-s 3): hyperpass's, the hinge with a regularized
 * bias.  Binary: one sub-model, pos label[0]; more classes: one-vs-rest,
 * column c is class c against the rest.  With bias B >= 0, the bias
 * feature's weight w_B gives b = B w_B and param bias B; with bias < 0, no
 * bias.
 */
#include "interop_internal.h"

#include <math.h>
#include <string.h>

/* ---- export */

/* The bias as LIBLINEAR's feature: B (or -1 without a bias) and the divisor
 * of b for its weight (a regularized feature B: b / B; a free bias: value 1,
 * weight b). */
static double bias_feature(const nesvm_model *m, double *div)
{
    char bv[64];
    double B = 1;
    nesvm_params_get(nesvm_model_params(m), "bias", bv, sizeof bv, NULL);
    nv_parse_finite(bv, &B);
    *div = strstr(nesvm_model_problem(m), "regularized_bias") ? B : 1.0;
    return B > 0 ? B : -1.0;
}

/* An epsilon-SVR: -s 13 (the tube) or -s 11 (the squared tube), one column. */
static nesvm_status svr_export(const nesvm_model *m, FILE *f, nesvm_error *err)
{
    const char *problem = nesvm_model_problem(m);
    /* (nesvm_model_export refused the other regressions) */
    const char *solver = nv_svr_problem(problem) == 1 ? "L2R_L1LOSS_SVR_DUAL" : "L2R_L2LOSS_SVR";
    (void)err;
    const int32_t d = nesvm_model_features(m);
    double div, B = bias_feature(m, &div);
    fprintf(f, "solver_type %s\nnr_class 2\nnr_feature %d\nbias ", solver, d);
    nv_interop_num(f, B);
    fputs("\nw\n", f);
    const double *w;
    double b;
    nesvm_model_linear(m, 0, &w, &b, NULL, NULL, NULL);
    for (int32_t j = 0; j < d + (B > 0); j++) {
        nv_interop_num(f, j < d ? w[j] : b / div);
        fputs(" \n", f);
    }
    return NESVM_OK;
}

/* LIBLINEAR's solver type for a classifier's problem: its own where it has
 * one (liblinear-predict -b 1 takes the logistic ones), else the L2 hinge's
 * (a linear model predicts by w.x + b whatever trained it). */
static const char *liblinear_type(const char *problem)
{
    static const char *const map[][2] = {
        {"c_svm_squared_hinge_l2_regularized_bias", "L2R_L2LOSS_SVC"},
        {"logistic_regression_logistic_l2", "L2R_LR"},
        {"logistic_regression_logistic_l1", "L1R_LR"},
        {"c_svm_squared_hinge_l1", "L1R_L2LOSS_SVC"},
    };
    /* NESVM's problems with LIBLINEAR's bias feature (bias_mode regularized)
     * are LIBLINEAR's of the same name */
    static const char suffix[] = "_regularized_bias";
    size_t n = strlen(problem), k = sizeof suffix - 1;
    if (n > k && strcmp(problem + n - k, suffix) == 0 && strncmp(problem, "c_svm_squared_hinge_l2", n - k) != 0)
        n -= k;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strlen(map[i][0]) == n && strncmp(problem, map[i][0], n) == 0) return map[i][1];
    return "L2R_L1LOSS_SVC_DUAL";
}

nesvm_status nv_liblinear_export(const nesvm_model *m, FILE *f, nesvm_error *err)
{
    if (nesvm_model_basis(m))
        return nv_error(err, NESVM_ERR_UNSUPPORTED, "a %s-kernel model cannot be written for LIBLINEAR (linear models only): use --format "
                              "libsvm", nesvm_model_kernel(m));
    if (nesvm_model_task(m) == NESVM_TASK_REGRESSION) return svr_export(m, f, err);
    const int k = nesvm_model_classes(m), ns = nesvm_model_submodels(m);
    const char *mc = nesvm_model_multiclass(m);
    if (strcmp(mc, "multinomial") == 0)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "LIBLINEAR has no multinomial logistic regression (its -s 0 is one-vs-rest, its "
                        "probabilities each class's sigmoid normalized): a multinomial model cannot be written for it");
    /* Crammer and Singer's: MCSVM_CS, a column per class (two classes too) */
    const int cs = strcmp(mc, "cs") == 0, cols = k == 2 && !cs ? 1 : k;
    if (k > 2 && strcmp(mc, "ovr") != 0 && !cs)
        return nv_error(err, NESVM_ERR_UNSUPPORTED, "LIBLINEAR's multiclass models are one-vs-rest: train with --multiclass ovr to export "
                              "a model of %d classes", k);
    const int32_t d = nesvm_model_features(m);
    const char *solver = cs ? "MCSVM_CS" : liblinear_type(nesvm_model_problem(m));
    fprintf(f, "solver_type %s\nnr_class %d\nlabel", solver, k);
    for (int c = 0; c < k; c++) {
        fputc(' ', f);
        nv_interop_num(f, nesvm_model_labels(m)[c]);
    }
    /* the bias: none when the model has none (param bias <= 0); LIBLINEAR's
     * feature of value B with weight b / B for a regularized bias feature B
     * (hyperpass, pegasos, ssvm, nssvm), of value 1 with weight b for a free
     * bias (nesvm) */
    double B;
    const int has_bias = bias_feature(m, &B) > 0;
    fputs("\nnr_feature ", f);
    fprintf(f, "%d\nbias ", d);
    nv_interop_num(f, has_bias ? B : -1);
    fputs("\nw\n", f);
    /* the columns in label order: one-vs-rest sub-model c is class c's */
    for (int32_t j = 0; j < d + has_bias; j++) {
        for (int c = 0; c < cols; c++) {
            int s = 0;
            for (; s < ns; s++) {
                int pos;
                nesvm_model_linear(m, s, NULL, NULL, &pos, NULL, NULL);
                if (cols == 1 || pos == c) break;
            }
            NV_ASSERT(s < ns); /* one-vs-rest, Crammer and Singer: a sub-model for each class */
            const double *ws;
            double b;
            int pos;
            nesvm_model_linear(m, s, &ws, &b, &pos, NULL, NULL);
            /* binary: LIBLINEAR's one column is positive for label[0] */
            double sign = cols == 1 && pos != 0 ? -1 : 1;
            nv_interop_num(f, sign * (j < d ? ws[j] : b / B));
            fputc(' ', f);
        }
        fputc('\n', f);
    }
    return NESVM_OK;
}

/* ---- import */

nesvm_status nv_liblinear_import(imp_reader *r, imp_text *t, nesvm_error *err)
{
    const char *solver = NULL, *problem = NULL, *svr = NULL; /* svr: the tube's loss */
    const char *extra = ""; /* param lines beyond the header's (the svm_type, loss, penalty) */
    int logistic = 0;       /* its probabilities native (prob -1 0) */
    int cs = 0; /* MCSVM_CS */
    int k = 0, have_label = 0;
    int64_t d = -1;
    double bias = -2, v, *label = NULL, *w = NULL, *col = NULL;
    nesvm_status st = NESVM_OK;
    int more;
    while ((more = nv_imp_header(r, "w", &st, err)) > 0) {
        const char *key = r->tok[0];
        if (strcmp(key, "solver_type") == 0) {
            if (r->ntok == 2 && (strcmp(r->tok[1], "L2R_L2LOSS_SVC_DUAL") == 0 || strcmp(r->tok[1], "L2R_L2LOSS_SVC") == 0)) {
                solver = "nssvm";
                problem = "c_svm_squared_hinge_l2_regularized_bias";
            } else if (r->ntok == 2 && strcmp(r->tok[1], "MCSVM_CS") == 0) {
                solver = "nesvm";
                problem = "crammer_singer_svm_hinge_l2"; /* _regularized_bias with B > 0: below */
                cs = 1;
            } else if (r->ntok == 2 && strcmp(r->tok[1], "L2R_L1LOSS_SVC_DUAL") == 0) {
                solver = "hyperpass";
                problem = "c_svm_hinge_l2_regularized_bias";
            } else if (r->ntok == 2 && (strcmp(r->tok[1], "L2R_L2LOSS_SVR") == 0 ||
                                        strcmp(r->tok[1], "L2R_L2LOSS_SVR_DUAL") == 0)) {
                solver = "nesvm";
                problem = "svr_squared_epsilon_insensitive_l2";
                svr = "squared_epsilon_insensitive";
            } else if (r->ntok == 2 && (strcmp(r->tok[1], "L2R_LR") == 0 || strcmp(r->tok[1], "L2R_LR_DUAL") == 0 ||
                                        strcmp(r->tok[1], "L1R_LR") == 0)) {
                const int l1 = strcmp(r->tok[1], "L1R_LR") == 0;
                solver = "nesvm";
                problem = l1 ? "logistic_regression_logistic_l1" : "logistic_regression_logistic_l2";
                extra = l1 ? "param svm_type logistic\nparam penalty l1\n" : "param svm_type logistic\n";
                logistic = 1;
            } else if (r->ntok == 2 && strcmp(r->tok[1], "L1R_L2LOSS_SVC") == 0) {
                solver = "nesvm";
                problem = "c_svm_squared_hinge_l1";
                extra = "param loss squared_hinge\nparam penalty l1\n";
            } else if (r->ntok == 2 && strcmp(r->tok[1], "L2R_L1LOSS_SVR_DUAL") == 0) {
                solver = "nesvm";
                problem = "svr_epsilon_insensitive_l2";
                svr = "epsilon_insensitive";
            } else {
                st = FAIL("solver_type %.40s: nesvm imports LIBLINEAR's logistic regressions (-s 0, 6, 7: L2R_LR, "
                           "L1R_LR, L2R_LR_DUAL), SVMs (-s 1, 2, 3, 5: L2R_L2LOSS_SVC_DUAL, L2R_L2LOSS_SVC, "
                           "L2R_L1LOSS_SVC_DUAL, L1R_L2LOSS_SVC; -s 4: MCSVM_CS) and SVRs (-s 11, 12, 13: "
                           "L2R_L2LOSS_SVR, L2R_L2LOSS_SVR_DUAL, L2R_L1LOSS_SVR_DUAL) only",
                           r->ntok > 1 ? r->tok[1] : "");
                goto done;
            }
        } else if (strcmp(key, "nr_class") == 0) {
            if ((st = nv_imp_nr_class(r, &k, err)) != NESVM_OK) goto done;
            if (!(label = nv_malloc_array((size_t)k, sizeof(double)))) {
                st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
                goto done;
            }
        } else if (strcmp(key, "label") == 0) {
            if (!k) {
                st = FAIL("'label' before 'nr_class'");
                goto done;
            }
            if ((st = nv_imp_labels(r, k, label, err)) != NESVM_OK) goto done;
            have_label = 1;
        } else if (strcmp(key, "nr_feature") == 0) {
            if ((st = nv_imp_numbers(r, 1, &v, err)) != NESVM_OK) goto done;
            if (v < 0 || v > INT32_MAX - 1 || v != floor(v)) {
                st = FAIL("nr_feature %.40s: expected a count of features", r->tok[1]);
                goto done;
            }
            d = (int64_t)v;
        } else if (strcmp(key, "bias") == 0) {
            if ((st = nv_imp_numbers(r, 1, &bias, err)) != NESVM_OK) goto done;
        } else {
            st = FAIL("unknown line '%.40s' in a LIBLINEAR model header", key);
            goto done;
        }
    }
    if (more < 0) goto done;
    /* a regression has no label line (and nr_class 2) */
    if (svr && (have_label || k != 2)) {
        st = FAIL("a LIBLINEAR regression (%s) has nr_class 2 and no label line", problem);
        goto done;
    }
    if (!solver || !k || (!have_label && !svr) || d < 0 || bias == -2) {
        st = FAIL("the header lacks %s", !solver ? "solver_type" : !k ? "nr_class" : !have_label && !svr ? "label"
                                           : d < 0 ? "nr_feature" : "bias");
        goto done;
    }
    const int nw = k == 2 && !cs ? 1 : k;
    const int64_t rows = d + (bias >= 0);
    if ((double)rows * 2.0 * nw > r->size) { /* a number and a blank each */
        st = FAIL("nr_feature %lld: %lld weight rows of %d value%s cannot fit in a file of %.0f bytes (truncated, "
                  "or a wrong nr_feature)", (long long)d, (long long)rows, nw, nw == 1 ? "" : "s", r->size);
        goto done;
    }
    if ((st = nv_imp_budget(r, 0, (int32_t)d, 0, 0, k, nw, d, err)) != NESVM_OK) goto done;
    w = nv_malloc_array((size_t)(rows ? rows : 1) * (size_t)nw, sizeof(double));
    col = nv_malloc_array((size_t)(d ? d : 1), sizeof(double));
    if (!w || !col) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int64_t j = 0; j < rows; j++) {
        int got = nv_imp_next(r);
        if (got <= 0) {
            st = got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                         : FAIL("the file ends after %lld of %lld weight rows (truncated?)", (long long)j,
                                (long long)rows);
            goto done;
        }
        if (r->ntok != nw) {
            st = FAIL("weight row %lld: expected %d value%s, found %d", (long long)j + 1, nw, nw == 1 ? "" : "s", r->ntok);
            goto done;
        }
        for (int c = 0; c < nw; c++)
            if (!nv_parse_finite(r->tok[c], &w[(size_t)j * (size_t)nw + (size_t)c])) {
                st = FAIL("weight row %lld: '%.40s' is not a finite number", (long long)j + 1, r->tok[c]);
                goto done;
            }
    }
    for (int got; (got = nv_imp_next(r)) != 0;)
        if (got < 0 || r->ntok) {
            st = got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                         : FAIL("more lines after the %lld weight rows", (long long)rows);
            goto done;
        }
    if (svr) {
        /* the bias feature's weight as a free bias (param bias 1) */
        nv_imp_put_header_svr(t, problem, "linear", bias >= 0 ? 1.0 : -1.0, svr, 0.1, (int32_t)d);
    } else {
        /* NESVM's problems (logistic regression, the L1 squared hinge) with
         * a bias: LIBLINEAR's feature B regularized with w (bias_mode
         * regularized), as Crammer and Singer's */
        const int feature = bias > 0 && (cs || strcmp(solver, "nesvm") == 0);
        char pname[64];
        snprintf(pname, sizeof pname, "%s%s", problem, feature ? "_regularized_bias" : "");
        nv_imp_put_header(t, solver, pname, "linear", cs ? "cs" : k > 2 ? "ovr" : "ovo", k, label, (int32_t)d);
        nv_imp_put(t, "param bias ");
        nv_imp_put_num(t, bias >= 0 ? bias : -1);
        nv_imp_put(t, "\n%s%s", extra, feature && !cs ? "param bias_mode regularized\n" : "");
    }
    nv_imp_put(t, "nr_submodel %d\n", nw);
    for (int c = 0; c < nw; c++) {
        for (int64_t j = 0; j < d; j++) col[j] = w[(size_t)j * (size_t)nw + (size_t)c];
        double b = bias >= 0 ? bias * w[(size_t)d * (size_t)nw + (size_t)c] : 0.0;
        static const double native[2] = {-1.0, 0.0}; /* P(pos | f) = 1 / (1 + exp(-f)) */
        nv_imp_put_submodel(t, c, svr ? -1 : c, svr || nw > 1 ? -1 : 1, b, logistic ? native : NULL, "w", col, d);
    }
    nv_imp_put(t, "end\n");
done:
    nv_free(label);
    nv_free(w);
    nv_free(col);
    return st;
}
