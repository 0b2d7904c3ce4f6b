/* export.c - `nesvm export --format libsvm|liblinear MODEL OUT` and
 * `nesvm import [--format libsvm|liblinear] FILE MODEL`: models to and from
 * LIBSVM's and LIBLINEAR's files (the library's model/interop.c). */
#include "cli.h"

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
          "reduced basis with more than two classes), and epsilon-SVR (epsilon_svr,\n"
          "svm-train -s 3) and the one-class SVM (one_class, svm-train -s 2), kernel or\n"
          "linear (w as one support vector); the file has no line for the tube p or nu.\n"
          "liblinear: linear models, binary or one-vs-rest (logistic regression as\n"
          "L2R_LR or L1R_LR, whose -b 1 probabilities are nesvm's; the L1 squared hinge\n"
          "as L1R_L2LOSS_SVC), Crammer and Singer's (--multiclass cs: MCSVM_CS, -s 4)\n"
          "and linear epsilon-SVR (-s 13; -s 11 for the squared tube, which LIBSVM\n"
          "lacks); not the multinomial model (LIBLINEAR has no softmax model).\n"
          "Other models are refused with the reason.\n\n"
          "  --format libsvm|liblinear  the target (required)\n"
          "  -h, --help           this help\n",
          f);
}

/* The arguments of export and import: two files and --format; -1 to go on,
 * else the exit status (help printed, or a usage error). */
static int format_args(const char *cmd, int argc, char **argv, void (*help)(FILE *), const char *pos[2],
                       const char **format)
{
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *p;
    int npos = 0, r;
    *format = NULL;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (npos == 2) return cli_usage(cmd, "too many arguments ('%s')", p);
            pos[npos++] = p;
        } else if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            help(stdout);
            return CLI_OK;
        } else if (strcmp(a.name, "format") == 0) {
            if (!(*format = cli_value(&a))) return CLI_USAGE;
            if (strcmp(*format, "libsvm") != 0 && strcmp(*format, "liblinear") != 0)
                return cli_usage(cmd, "bad value '%s' for --format (expected libsvm or liblinear)", *format);
        } else {
            return cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]);
        }
    }
    if (npos < 2) pos[0] = NULL;
    return -1;
}

int cmd_export(int argc, char **argv)
{
    const char *cmd = "export", *pos[2], *format;
    int rc0 = format_args(cmd, argc, argv, usage, pos, &format);
    if (rc0 >= 0) return rc0;
    if (!format) return cli_usage(cmd, "--format libsvm|liblinear is required");
    if (!pos[0]) return cli_usage(cmd, "expected MODEL and OUT");
    nesvm_error err = {0};
    nesvm_model *m = NULL;
    if (nesvm_model_load(pos[0], &m, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    int rc = CLI_OK;
    if (nesvm_model_export(m, format, pos[1], &err) != NESVM_OK) rc = cli_error(cmd, "%s", err.message);
    nesvm_model_destroy(m);
    return rc;
}

static void import_usage(FILE *f)
{
    fputs("Usage: nesvm import [--format libsvm|liblinear] FILE MODEL\n"
          "Read FILE, a LIBSVM or LIBLINEAR model, and write it as the nesvm model MODEL\n"
          "(atomically), which predicts as the tool that wrote FILE does:\n"
          "  libsvm     svm-train -s 0 (C-SVC) models, every kernel (precomputed: the\n"
          "             support vectors' serial numbers 0:i), binary or one-vs-one,\n"
          "             with probA/probB when trained with -b 1:\n"
          "             solver nesvm (the same C-SVC problem); -s 3 (epsilon_svr): solver\n"
          "             nesvm, --svm-type svr, b = -rho, p 0.1 (not in the file), no -b 1;\n"
          "             -s 2 (one_class): solver nesvm, --svm-type one-class, b = -rho\n"
          "             (finite: not -n 1's inf), nu 0.5 (not in the file); a linear\n"
          "             kernel becomes a weight vector\n"
          "  liblinear  -s 1 and -s 2 (squared hinge: solver nssvm) and -s 3 (hinge: solver\n"
          "             hyperpass), binary or one-vs-rest; LIBLINEAR's bias feature -B B\n"
          "             becomes the regularized bias B; -s 11, 12, 13 (SVR: solver nesvm,\n"
          "             --svm-type svr, the bias feature's weight a free bias, p 0.1);\n"
          "             -s 0, 6, 7 (logistic regression, -s 6 --penalty l1) and -s 5\n"
          "             (--penalty l1 --loss squared_hinge): solver nesvm, the bias\n"
          "             feature's weight a free bias, logistic probabilities native\n"
          "             -s 4 (MCSVM_CS: --multiclass cs, the bias feature -B B its\n"
          "             regularized bias)\n"
          "Neither file holds C: the model says c 1. A linear model warm-starts\n"
          "'nesvm train --init MODEL' (give the solver and -c of the next training).\n\n"
          "  --format libsvm|liblinear  the source (default: told by FILE's first line)\n"
          "  -h, --help           this help\n",
          f);
}

int cmd_import(int argc, char **argv)
{
    const char *cmd = "import", *pos[2], *format;
    int rc0 = format_args(cmd, argc, argv, import_usage, pos, &format);
    if (rc0 >= 0) return rc0;
    if (!pos[0]) return cli_usage(cmd, "expected FILE and MODEL");
    nesvm_error err = {0};
    nesvm_model *m = NULL;
    if (nesvm_model_import(pos[0], format, &m, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    int rc = CLI_OK;
    if (nesvm_model_save(m, pos[1], &err) != NESVM_OK) rc = cli_error(cmd, "%s", err.message);
    nesvm_model_destroy(m);
    return rc;
}
