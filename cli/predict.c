/* predict.c - `nesvm predict`: labels (and decision values) for a data file. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm predict [options] DATA MODEL [OUTPUT]\n"
          "Predict the rows of DATA (LIBSVM format; '-' = stdin; .gz .bz2 .xz) with MODEL,\n"
          "print 'Accuracy = X% (correct/total)' against DATA's labels, and write one\n"
          "predicted label per line to OUTPUT (atomically) when given; OUTPUT '-' is\n"
          "standard output (the accuracy then goes to standard error). A regression\n"
          "model predicts real values and prints 'Mean squared error = X (regression)'\n"
          "and 'Squared correlation coefficient = Y (regression)', as svm-predict; a\n"
          "one-class model predicts +1 (decision value > 0) or -1 and prints svm-predict's\n"
          "'Accuracy = X% (correct/total) (classification)' against the labels, then,\n"
          "when DATA has exactly two labels, 'ROC AUC = A' of the decision values with\n"
          "the larger label as the inliers (+1 against -1).\n\n"
          "Options:\n"
          "  --decision-values    after each label, write the decision value of every\n"
          "                       binary sub-model (in model order) to OUTPUT\n"
          "  -b, --probability 0|1  1: probability estimates (the model must be trained\n"
          "                       with -b 1): OUTPUT starts with 'labels L1 L2 ...' (model\n"
          "                       order) and each line is the label, the argmax of the\n"
          "                       probabilities, then the k probabilities, as svm-predict\n"
          "                       -b 1 (default 0)\n"
          "  --threads N          threads for reading and predicting (default 1; 0 = all cores)\n"
          "  -q                   quiet: do not print the accuracy\n"
          "  -h, --help           this help\n",
          f);
}

void cli_print_scores(FILE *f, int cv, const nesvm_metrics *m)
{
    if (m->task == NESVM_TASK_REGRESSION) {
        fprintf(f, "%sMean squared error = %g%s\n", cv ? "Cross Validation " : "", m->mse,
                cv ? "" : " (regression)");
        fprintf(f, "%sSquared correlation coefficient = %g%s\n", cv ? "Cross Validation " : "", m->scc,
                cv ? "" : " (regression)");
    } else if (cv) {
        fprintf(f, "Cross Validation Accuracy = %g%%\n", 100.0 * m->accuracy);
        /* a one-class model's, when the labels take two values */
        if (!isnan(m->auc)) fprintf(f, "Cross Validation ROC AUC = %g\n", m->auc);
    } else {
        /* a one-class model: svm-predict's line to the letter */
        fprintf(f, "Accuracy = %g%% (%lld/%lld)%s\n", 100.0 * (double)m->correct / (double)m->rows,
                (long long)m->correct, (long long)m->rows,
                m->task == NESVM_TASK_NOVELTY ? " (classification)" : "");
    }
}

int cmd_predict(int argc, char **argv)
{
    const char *cmd = "predict";
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *pos[3], *p, *v;
    int npos = 0, r, quiet = 0, want_dec = 0, prob = 0;
    long long threads = 1;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (npos == 3) return cli_usage(cmd, "too many arguments ('%s')", p);
            pos[npos++] = p;
        } else if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            return CLI_OK;
        } else if (strcmp(a.name, "q") == 0) {
            quiet = 1;
        } else if (strcmp(a.name, "decision_values") == 0) {
            want_dec = 1;
        } else if (strcmp(a.name, "b") == 0 || strcmp(a.name, "probability") == 0) {
            if (!(v = cli_value(&a))) return CLI_USAGE;
            if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
                return cli_usage(cmd, "bad value '%s' for -b (expected 0 or 1)", v);
            prob = v[0] == '1';
        } else if (strcmp(a.name, "threads") == 0) {
            if (!(v = cli_value(&a))) return CLI_USAGE;
            if (!cli_parse_int(v, &threads) || threads < 0 || threads > 4096)
                return cli_usage(cmd, "bad value '%s' for --threads", v);
        } else {
            return cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]);
        }
    }
    if (npos < 2) return cli_usage(cmd, "expected DATA and MODEL");
    if (prob && want_dec) return cli_usage(cmd, "-b 1 and --decision-values do not go together");
    cli_blas_threads(threads, 1);
    nesvm_error err = {0};
    nesvm_model *m = NULL;
    if (nesvm_model_load(pos[1], &m, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    nesvm_dataset *ds = NULL;
    nesvm_read_options ro;
    nesvm_read_options_init(&ro);
    ro.threads = (int)threads;
    /* a precomputed kernel's test rows: K against every support vector */
    if (strcmp(nesvm_model_kernel(m), "precomputed") == 0) {
        ro.precomputed = NESVM_PRECOMPUTED_TEST;
        ro.kernel_columns = (int32_t)nesvm_model_kernel_columns(m);
    }
    if (nesvm_dataset_read(pos[0], &ro, &ds, &err) != NESVM_OK) {
        nesvm_model_destroy(m);
        return cli_error(cmd, "%s", err.message);
    }
    int64_t n = nesvm_dataset_rows(ds);
    int nsub = nesvm_model_submodels(m), k = nesvm_model_classes(m);
    int width = prob ? k : nsub;
    double *labels = malloc(sizeof(double) * (size_t)(n + 1));
    double *dec = malloc(sizeof(double) * (size_t)(n + 1) * (size_t)width);
    int rc = CLI_OK;
    if (!labels || !dec) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    if ((prob ? nesvm_model_predict_proba(m, ds, (int)threads, labels, dec, &err)
              : nesvm_model_predict(m, ds, (int)threads, labels, dec, &err)) != NESVM_OK) {
        rc = cli_error(cmd, "%s", err.message);
        goto done;
    }
    if (npos == 3) {
        nv_atomic_file af;
        if (nv_atomic_open(&af, pos[2], &err) != NESVM_OK) {
            rc = cli_error(cmd, "%s", err.message);
            goto done;
        }
        char buf[32];
        if (prob) {
            fputs("labels", af.fp);
            for (int c = 0; c < k; c++) fprintf(af.fp, " %s", fmt_num(nesvm_model_labels(m)[c], buf));
            fputc('\n', af.fp);
        }
        for (int64_t i = 0; i < n; i++) {
            fputs(fmt_num(labels[i], buf), af.fp);
            if (want_dec || prob)
                for (int s = 0; s < width; s++) fprintf(af.fp, " %s", fmt_num(dec[i * width + s], buf));
            fputc('\n', af.fp);
        }
        if (nv_atomic_commit(&af, &err) != NESVM_OK) {
            rc = cli_error(cmd, "%s", err.message);
            goto done;
        }
    }
    if (!quiet) {
        FILE *info = npos == 3 && strcmp(pos[2], "-") == 0 ? stderr : stdout;
        nesvm_metrics mt;
        nesvm_metrics_compute(nesvm_model_task(m), nesvm_dataset_labels(ds), labels, n, &mt, NULL);
        cli_print_scores(info, 0, &mt);
        double inlier = 0, auc = NAN;
        if (nesvm_model_task(m) == NESVM_TASK_NOVELTY && !prob &&
            nesvm_roc_auc(nesvm_dataset_labels(ds), dec, n, &auc, &inlier, &err) != NESVM_OK) {
            rc = cli_error(cmd, "%s", err.message);
            goto done;
        }
        char lb[32];
        if (!isnan(auc)) fprintf(info, "ROC AUC = %g (decision values, inliers: label %s)\n", auc, fmt_num(inlier, lb));
    }
done:
    free(labels);
    free(dec);
    nesvm_dataset_destroy(ds);
    nesvm_model_destroy(m);
    return rc;
}
