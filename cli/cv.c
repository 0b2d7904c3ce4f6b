/* cv.c - `nesvm cv -v K`: stratified K-fold cross-validation. */
#include "cli.h"

#include <string.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm cv -v K [options] DATA\n"
          "Stratified K-fold cross-validation: each fold is predicted by a model trained\n"
          "on the other folds (folds drawn with --seed). Prints\n"
          "'Cross Validation Accuracy = X%' (a regression: 'Cross Validation Mean squared\n"
          "error = X' and 'Cross Validation Squared correlation coefficient = Y', over\n"
          "unstratified folds, as svm-train -v; a one-class SVM: the accuracy against the\n"
          "labels over unstratified folds, then 'Cross Validation ROC AUC = A' of the\n"
          "decision values when the labels take two values, the larger the inliers).\n"
          "With --threads N, min(N, K) folds train at once, each with its share of the\n"
          "threads and of --kernel-memory. Takes every option of 'nesvm train'.\n\n",
          f);
    train_opts_help(f);
    fputs("  -v K                 number of folds (default 5)\n"
          "  --distributed        share the folds out over the processes of mpirun (MPI\n"
          "                       builds): each reads all of DATA and trains the folds f\n"
          "                       with f mod N = its rank; the same result\n"
          "  --metrics            also per-class precision, recall, F1 and support, and the\n"
          "                       confusion matrix (rows: true label, columns: predicted)\n"
          "  -h, --help           this help\n",
          f);
}

/* nesvm cv's options and run (o initialised; the caller frees it). */
static int cv_command(const char *cmd, int argc, char **argv, train_opts *o)
{
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *data = NULL, *p;
    int r;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (data) return cli_usage(cmd, "too many arguments ('%s')", p);
            data = p;
            continue;
        }
        if (strcmp(a.name, "h") == 0 && cli_h_is_shrinking(&a)) {
            if (train_opt_shrinking(&a, o) < 0) return CLI_USAGE;
            continue;
        }
        if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            return CLI_OK;
        }
        if (strcmp(a.name, "distributed") == 0) {
            o->distributed = 1;
            continue;
        }
        int h = train_opt(&a, o);
        if (h <= 0) {
            if (h == 0) return cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]);
            return CLI_USAGE;
        }
    }
    if (!data) return cli_usage(cmd, "missing DATA file");
    if (train_opts_liblinear(cmd, o) != CLI_OK) return CLI_USAGE;
    int rc = o->distributed ? check_distributed(cmd, o, data) : CLI_OK;
    if (rc == CLI_OK && o->distributed && !o->mpi) rc = cli_mpi_begin(cmd, o);
    if (rc == CLI_OK) rc = run_training(cmd, o, data, NULL);
    return rc;
}

int cmd_cv(int argc, char **argv)
{
    const char *cmd = "cv";
    train_opts o;
    if (train_opts_init(&o, cmd) != CLI_OK) return CLI_ERROR;
    o.folds = 5;
    int rc = cli_mpi_early(cmd, &o, argc, argv);
    if (rc == CLI_OK) rc = cv_command(cmd, argc, argv, &o);
    cli_mpi_end(&o);
    train_opts_free(&o);
    return rc;
}
