/* train.c - `nesvm train`: read data, train, save the model atomically. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set by SIGINT/SIGTERM (the signal's number); the progress callback then
 * cancels training cleanly and the command exits with 128 + the number. */
static volatile sig_atomic_t interrupted = 0;
static void on_signal(int sig) { interrupted = sig; }

static int train_progress(const nesvm_progress *p, void *user)
{
    return progress_cb(p, user) || interrupted ? 1 : 0;
}

/* The error of a run: a trace that could not be written explains a cancel. */
static int run_error(const char *cmd, const progress_state *ps, const char *trace, const nesvm_error *err)
{
    if (ps->trace_errno)
        return cli_error(cmd, "cannot write '%s': %s", trace, strerror(ps->trace_errno));
    return cli_error(cmd, "%s", err->message);
}

static void usage(FILE *f)
{
    fputs("Usage: nesvm train [options] DATA [MODEL]\n"
          "Train an SVM on DATA (LIBSVM format; '-' = stdin; .gz .bz2 .xz) and save it to\n"
          "MODEL (default: DATA's file name with '.model' appended, in the current folder).\n"
          "The model file is written atomically. With -v K, run K-fold cross-validation\n"
          "instead and print the accuracy (no model is written).\n\n"
          "Linear SVMs solved by NESVM (--svm-type), with r_i = 1 - y_i (w.x_i + b):\n"
          "  c   min_{w,b} 1/2 ||w||^2 + sum_i C_i max(0, r_i)    (default)\n"
          "  lp  min_{w,b} ||w||_1     + sum_i C_i max(0, r_i)\n"
          "  ls  min_{w,b} 1/2 ||w||^2 + sum_i C_i r_i^2\n"
          "  logistic  min_{w,b} 1/2 ||w||^2 + sum_i C_i log(1 + exp(r_i - 1))\n"
          "      (logistic regression: -b 1 probabilities are the model's own)\n"
          "  --penalty l1: ||w||_1 in place of 1/2 ||w||^2 for c and logistic\n"
          "      (sparse weights; c with the hinge is lp, --loss squared_hinge\n"
          "      LIBLINEAR's -s 5; logistic its -s 6)\n"
          "Hyperpass and Pegasos (--solver) solve c without a free bias:\n"
          "      min_w   1/2 ||w||^2 + sum_i C_i max(0, 1 - y_i w.z_i),\n"
          "  z_i = x_i, or [x_i, B] with -B B > 0 (b = B w_B, regularized).\n"
          "SSVM and NSSVM (--solver) solve the squared hinge with z_i = [x_i, B], B = 1:\n"
          "      min_w   1/2 ||w||^2 + 1/2 sum_i C_i max(0, 1 - y_i w.z_i)^2\n"
          "  (LIBLINEAR -s 2 -B 1 with its -c = C/2); with a kernel, x_i becomes\n"
          "  L^-1 [K(b_1, x_i) .. K(b_M, x_i)] over the basis, K_BB = L L^T, so that\n"
          "  ||w||^2 is the RKHS norm of f (--kernel-norm rkhs), or the paper's\n"
          "  [K(x_i, b_1) .. K(x_i, b_M)] with w the coefficients (--kernel-norm coef).\n"
          "The one-class SVM (--svm-type one-class, LIBSVM's -s 2; labels ignored), by\n"
          "the kernel SMO on a working set (any kernel, linear too), LIBSVM's scaling:\n"
          "      min_{w,rho} 1/2 ||w||^2 + sum_i W_i max(0, rho - w.phi(x_i)) - nu n rho\n"
          "  (W_i the sample weights, n their sum); +1 where w.phi(x) > rho.\n"
          "nu-SVC and nu-SVR (--svm-type nu-svc / nu-svr, LIBSVM's -s 1 / -s 4), the\n"
          "same way, LIBSVM's scaling (n the sum of W_i, f = w.phi(x)):\n"
          "  nu-svc  min 1/2 ||w||^2 + sum_i W_i max(0, rho - y_i (f_i + b)) - nu n rho,\n"
          "          the model (w, b) / rho (svm-train's C = 1/rho); each pair of classes\n"
          "          needs nu <= 2 min(n_+, n_-) / n (else 'specified nu is infeasible')\n"
          "  nu-svr  min 1/2 ||w||^2 + C sum_i W_i max(0, |y_i - f_i - b| - e) + C nu n e\n"
          "          over w, b and the tube's half-width e (svm-train's epsilon).\n\n",
          f);
    train_opts_help(f);
    fputs("  --init MODEL         warm start: begin from MODEL's weights (same classes)\n"
          "  --checkpoint FILE    save the training's state to FILE (atomically) every\n"
          "                       --checkpoint-every seconds and when interrupted (SIGINT,\n"
          "                       SIGTERM)\n"
          "  --checkpoint-every S seconds between checkpoints (default 60; 0: only when\n"
          "                       interrupted)\n"
          "  --resume FILE        continue from a checkpoint of the same data and options\n"
          "                       (--threads, --time-limit, --max-iter may differ)\n"
          "  -v K                 K-fold stratified cross-validation instead of training\n"
          "  -C                   LIBLINEAR's search for C (linear models): C doubling from\n"
          "                       -c, or by default from 2^floor(log2(1 / (n max ||x||^2))),\n"
          "                       to 1024, each fold warm-started along the path; -v K folds\n"
          "                       (default 5); prints the best C (no model is written);\n"
          "                       --svm-type svr also searches p as LIBLINEAR's -s 11 -C:\n"
          "                       p = max |y| k/20, k = 19..0, a C path at each\n"
          "  --distributed        data-parallel training over the processes of mpirun\n"
          "                       (MPI builds): each reads its share of DATA (equal byte\n"
          "                       ranges of one file, or its own file DATA.0 ... DATA.N-1\n"
          "                       from 'nesvm split'); rank 0 writes MODEL; linear models\n"
          "                       of --solver nesvm, hyperpass, ssvm, nssvm (the same\n"
          "                       model as one process; docs/scaling.md). With -v or -C,\n"
          "                       each process reads all of DATA and trains its share of\n"
          "                       the folds\n"
          "  -h, --help           this help\n\n"
          "Example: nesvm train -c 1 heart_scale heart.model\n"
          "         mpirun -np 4 nesvm train --distributed -c 1 big.svm big.model\n",
          f);
}

/* The trace is written to a temporary file and renamed into place only when
 * the run succeeds, so a failed run leaves no partial trace (a device, FIFO
 * or '-' gets the rows as they come). */
static int open_trace(const char *cmd, const char *path, nv_atomic_file *af)
{
    nesvm_error err = {0};
    if (nv_atomic_open(af, path, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    fputs("submodel,iteration,seconds,primal,best_primal,smoothed,lower_bound,gap,mu,lipschitz,"
          "n_sv,n_bounded,step,inner,n_active,n_changed,scheme,residual,grad_norm\n",
          af->fp);
    return CLI_OK;
}

static int is_stdout(const char *path) { return path && strcmp(path, "-") == 0; }

/* -W FILE: one sample weight per line (LIBLINEAR's), as many as DATA has rows;
 * *out (free it) on success. */
static int read_weights(const char *cmd, const char *path, int64_t n, double **out)
{
    FILE *f = fopen(path, "r");
    if (!f) return cli_error(cmd, "cannot open weight file '%s': %s", path, strerror(errno));
    double *w = malloc(sizeof(double) * (size_t)(n ? n : 1));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int64_t k = 0, ln = 0;
    int rc = CLI_OK;
    if (!w) rc = cli_error(cmd, "out of memory");
    while (rc == CLI_OK && (len = getline(&line, &cap, f)) >= 0) {
        ln++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        char *s = line + (ln == 1 ? nv_utf8_bom(line, (size_t)len) : 0);
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '\0') {
            rc = cli_error(cmd, "%s:%lld: empty line (expected one weight per line)", path, (long long)ln);
            break;
        }
        double v;
        if (!cli_parse_double(s, &v) || v < 0 || v > 1e100) {
            rc = cli_error(cmd, "%s:%lld: bad weight '%.40s' (expected a number in [0, 1e100])", path, (long long)ln, s);
            break;
        }
        if (k == n) {
            rc = cli_error(cmd, "%s: more weights than the %lld rows of the data", path, (long long)n);
            break;
        }
        w[k++] = v;
    }
    if (rc == CLI_OK && ferror(f)) rc = cli_error(cmd, "cannot read weight file '%s': %s", path, strerror(errno));
    if (rc == CLI_OK && k != n)
        rc = cli_error(cmd, "%s: %lld weights for %lld rows of data (one per row)", path, (long long)k, (long long)n);
    if (rc == CLI_OK && n > 0) {
        int64_t pos = 0;
        for (int64_t i = 0; i < n; i++) pos += w[i] > 0;
        if (pos == 0)
            rc = cli_error(cmd, "%s: all %lld weights are 0, and a row of weight 0 is left out: no row to train on", path,
                           (long long)n);
    }
    free(line);
    fclose(f);
    if (rc != CLI_OK) {
        free(w);
        return rc;
    }
    *out = w;
    return CLI_OK;
}

/* cv --metrics: per class (labels in order of first appearance) precision,
 * recall, F1 and support, then the confusion matrix (rows: true labels,
 * columns: predicted). Precision of a class never predicted, and F1 with
 * precision + recall = 0, are printed as 0 (scikit-learn's zero_division=0). */
static int print_metrics(FILE *f, const double *truth, const double *pred, int64_t n)
{
    double *lab = malloc(sizeof(double) * (size_t)(n ? n : 1));
    int k = 0;
    if (!lab) return -1;
    for (int64_t i = 0; i < n; i++) {
        int c = 0;
        while (c < k && lab[c] != truth[i]) c++;
        if (c == k) lab[k++] = truth[i];
    }
    int64_t *cm = calloc((size_t)k * (size_t)k, sizeof(int64_t));
    if (!cm) {
        free(lab);
        return -1;
    }
    for (int64_t i = 0; i < n; i++) {
        int a = 0, b = 0;
        while (lab[a] != truth[i]) a++;
        while (b < k && lab[b] != pred[i]) b++;
        if (b < k) cm[a * k + b]++;
    }
    char buf[32];
    fprintf(f, "%-12s %10s %10s %10s %10s\n", "class", "precision", "recall", "f1", "support");
    for (int c = 0; c < k; c++) {
        int64_t tp = cm[c * k + c], col = 0, row = 0;
        for (int j = 0; j < k; j++) {
            col += cm[j * k + c];
            row += cm[c * k + j];
        }
        double p = col ? (double)tp / (double)col : 0, r = row ? (double)tp / (double)row : 0;
        double f1 = p + r > 0 ? 2 * p * r / (p + r) : 0;
        fprintf(f, "%-12s %10.4f %10.4f %10.4f %10lld\n", fmt_num(lab[c], buf), p, r, f1, (long long)row);
    }
    fprintf(f, "confusion matrix (rows: true label, columns: predicted)\n%-12s", "");
    for (int c = 0; c < k; c++) fprintf(f, " %10s", fmt_num(lab[c], buf));
    fputc('\n', f);
    for (int a = 0; a < k; a++) {
        fprintf(f, "%-12s", fmt_num(lab[a], buf));
        for (int b = 0; b < k; b++) fprintf(f, " %10lld", (long long)cm[a * k + b]);
        fputc('\n', f);
    }
    free(cm);
    free(lab);
    return 0;
}

/* The largest squared row norm of ds. */
static double max_sq_norm(const nesvm_dataset *ds)
{
    const int64_t n = nesvm_dataset_rows(ds), *ip = nesvm_dataset_indptr(ds);
    const int64_t d = nesvm_dataset_features(ds);
    const void *v = nesvm_dataset_values(ds);
    const int fl = nesvm_dataset_precision(ds) == NESVM_FLOAT;
    double best = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t a = ip ? ip[i] : i * d, b = ip ? ip[i + 1] : (i + 1) * d;
        double s = 0;
        for (int64_t k = a; k < b; k++) {
            double x = fl ? (double)((const float *)v)[k] : ((const double *)v)[k];
            s += x * x;
        }
        if (s > best) best = s;
    }
    return best;
}

/* Distributed training's -W: rank 0 reads one weight per row of the whole
 * data and sends them; each process keeps those of its n rows (the rows
 * before it in rank order come first).  *out: free it. */
static int shared_weights(const char *cmd, const train_opts *o, int64_t n, double **out)
{
    const int64_t n_all = cli_mpi_sum(o, n), off = cli_mpi_offset(o, n); /* (-1: MPI failed, which aborts) */
    double *all = NULL;
    int rc = cli_mpi_rank(o) == 0 ? read_weights(cmd, o->weights, n_all, &all) : CLI_OK;
    rc = cli_mpi_bcast_rc(o, rc);
    if (rc != CLI_OK) return rc;
    if (cli_mpi_rank(o) != 0) all = malloc(sizeof(double) * (size_t)(n_all ? n_all : 1));
    double *mine = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nesvm_error err = {0};
    if (!all || !mine || off < 0)
        snprintf(err.message, sizeof err.message, "out of memory for %lld weights", (long long)n_all);
    if (cli_mpi_agree(o, all && mine && off >= 0 ? NESVM_OK : NESVM_ERR_NOMEM, &err) != NESVM_OK) {
        free(all);
        free(mine);
        return cli_error(cmd, "%s", err.message);
    }
    if (cli_mpi_bcast(o, all, sizeof(double) * (size_t)n_all) != CLI_OK) {
        free(all);
        free(mine);
        return cli_error(cmd, "--distributed: MPI broadcast failed");
    }
    memcpy(mine, all + off, sizeof(double) * (size_t)n);
    free(all);
    *out = mine;
    return CLI_OK;
}

/* train -C: LIBLINEAR's search for C along a warm-started path, printed as
 * LIBLINEAR prints it: the highest cross-validation accuracy, or for a
 * regression the smallest mean squared error (LIBLINEAR's words for its SVR);
 * the smallest C among equal scores.  An epsilon-SVR also searches its tube
 * p as LIBLINEAR's -s 11 -C does: p = max |y_i| k / 20 for k = 19 down to 0,
 * a C path at each, the first of equal scores kept (ls-svr has no p). */
static int find_c(const char *cmd, train_opts *o, nesvm_dataset *ds, FILE *info, progress_state *ps)
{
    char svm_type[16];
    nesvm_params_get(o->params, "svm_type", svm_type, sizeof svm_type, NULL);
    const int with_p = strcmp(svm_type, "svr") == 0;
    const int folds = o->folds > 0 ? o->folds : 5;
    const int64_t n = nesvm_dataset_rows(ds);
    double start;
    if (o->c_given) {
        char v[64];
        nesvm_params_get(o->params, "c", v, sizeof v, NULL);
        cli_parse_double(v, &start);
    } else {
        double r2 = max_sq_norm(ds);
        start = r2 > 0 && n > 0 ? exp2(floor(log2(1.0 / ((double)n * r2)))) : 1.0;
    }
    double cs[200];
    int nc = 0;
    for (double c = start; nc < 200 && (nc == 0 || c <= 1024); c *= 2) cs[nc++] = c;
    double ymax = 0;
    const double *y = nesvm_dataset_labels(ds);
    for (int64_t i = 0; with_p && i < n; i++) ymax = fmax(ymax, fabs(y[i]));
    nesvm_metrics m[200], bm = {0};
    nesvm_error err = {0};
    if (!o->quiet) fprintf(info, "Doing parameter search with %d-fold cross validation.\n", folds);
    const void *comm = o->distributed ? cli_mpi_comm(o) : NULL; /* the folds shared out */
    const int reg = nesvm_params_task(o->params) == NESVM_TASK_REGRESSION;
    double bc = NAN, bp = NAN;
    for (int k = with_p ? 19 : 0; k >= 0; k--) {
        const double p = ymax * k / 20.0;
        char pv[40];
        snprintf(pv, sizeof pv, "%.17g", p);
        if (with_p && nesvm_params_set(o->params, "epsilon", pv, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
        if (nesvm_cross_validate_path_metrics(ds, o->params, folds, (uint64_t)o->seed, "c", cs, nc, 1, comm,
                                              train_progress, ps, m, NULL, &err) != NESVM_OK) {
            progress_end(ps);
            return run_error(cmd, ps, o->trace, &err);
        }
        progress_end(ps);
        for (int i = 0; i < nc; i++) {
            if (isnan(bc) || (reg ? m[i].mse < bm.mse || (isnan(bm.mse) && !isnan(m[i].mse))
                                  : m[i].accuracy > bm.accuracy)) {
                bm = m[i];
                bc = cs[i];
                bp = p;
            }
            if (o->quiet) continue;
            if (with_p) fprintf(info, "log2c=%7.2f\tp=%7.2f\tMean squared error=%g\n", log2(cs[i]), p, m[i].mse);
            else if (reg) fprintf(info, "log2c=%7.2f\tMean squared error=%g\n", log2(cs[i]), m[i].mse);
            else fprintf(info, "log2c=%7.2f\trate=%g\n", log2(cs[i]), 100.0 * m[i].accuracy);
        }
    }
    if (with_p) fprintf(info, "Best C = %g Best p = %g  CV MSE = %g\n", bc, bp, bm.mse);
    else if (reg) fprintf(info, "Best C = %g  CV MSE = %g\n", bc, bm.mse);
    else fprintf(info, "Best C = %g  CV accuracy = %g%%\n", bc, 100.0 * bm.accuracy);
    return CLI_OK;
}

/* One run of train or cv (run_training's state). */
typedef struct run {
    const char *cmd;
    train_opts *o;
    const char *data, *model_path;
    int dist;   /* --distributed */
    int shares; /* distributed training: each process reads its share of the rows (-v, -C: all of them,
                 * and trains its share of the folds) */
    FILE *info; /* the summary: stderr when an output takes standard output */
    nesvm_dataset *ds;
    nesvm_model *init;
    double *weights;
    progress_state ps;
    nv_atomic_file trace;
} run;

/* ----------------------------------------------------------------- refusals */
/* Options that cannot go together (-v with --init or checkpoints, -C with a
 * solver without C, a kernel, a MODEL or a warm start, two outputs on
 * standard output): CLI_USAGE, printed; else CLI_OK. */
static int run_refusals(const char *cmd, const train_opts *o, const char *model_path)
{
    if (o->init && o->folds > 0) return cli_usage(cmd, "--init cannot be combined with -v");
    if ((o->ck.save_path || o->ck.resume_path) && o->folds > 0)
        return cli_usage(cmd, "--checkpoint and --resume cannot be combined with -v");
    if (o->init && o->ck.resume_path)
        return cli_usage(cmd, "--init and --resume cannot be combined (a checkpoint holds its own start)");
    if (is_stdout(o->ck.save_path)) return cli_usage(cmd, "--checkpoint needs a file, not standard output");
    if (o->find_c) {
        char kernel[16];
        nesvm_params_get(o->params, "kernel", kernel, sizeof kernel, NULL);
        const nesvm_solver_info si = cli_params_solver(o->params);
        if (nesvm_params_task(o->params) == NESVM_TASK_NOVELTY)
            return cli_usage(cmd, "-C searches C, and the one-class SVM has none (its nu is -n): search nu "
                                  "with 'nesvm grid -s 2 -log2nu BEGIN,END,STEP'");
        if (cli_nu_svc(o->params))
            return cli_usage(cmd, "-C searches C, and nu-SVC has none (its nu is -n, its C = 1/rho an outcome): "
                                  "search nu with 'nesvm grid -s 1 -log2nu BEGIN,END,STEP'");
        if (!si.has_c)
            return cli_usage(cmd, "-C searches C, and %s has none: 'nesvm grid --solver %s' searches its gamma "
                                  "and basis functions", si.name, si.name);
        if (strcmp(kernel, "linear") != 0)
            return cli_usage(cmd, "-C searches C for linear models (LIBLINEAR's): with a kernel, 'nesvm grid' "
                                  "searches C and gamma");
        if (model_path)
            return cli_usage(cmd, "-C writes no model (it prints the best C): drop the MODEL argument");
        if (o->init || o->ck.save_path || o->ck.resume_path)
            return cli_usage(cmd, "-C cannot be combined with --init, --checkpoint or --resume");
    }
    if (is_stdout(model_path) && is_stdout(o->trace))
        return cli_usage(cmd, "the model and the trace cannot both go to standard output ('-')");
    return CLI_OK;
}

/* -------------------------------------------------------------------- input */
/* The warm-start model, the data (timed; distributed: every rank's share, or
 * all of it), the sample weights, and the line that says what was read.
 * Fails (CLI_ERROR, printed) on any of the three files; r's pointers are the
 * caller's to free either way. */
static int run_input(run *r)
{
    const char *cmd = r->cmd;
    train_opts *o = r->o;
    nesvm_error err = {0};
    if (o->init) {
        nesvm_status ist = nesvm_model_load(o->init, &r->init, &err);
        if (r->dist) ist = cli_mpi_agree(o, ist, &err); /* every rank loads it */
        if (ist != NESVM_OK) return cli_error(cmd, "warm-start model: %s", err.message);
    }
    double t_read = nv_now();
    o->read.precomputed = cli_read_precomputed(o->params);
    nesvm_status rst = r->shares ? nesvm_dataset_read_distributed(r->data, &o->read, cli_mpi_comm(o), &r->ds, &err)
                                 : nesvm_dataset_read(r->data, &o->read, &r->ds, &err);
    if (r->dist && !r->shares) rst = cli_mpi_agree(o, rst, &err);
    if (rst != NESVM_OK) return cli_error(cmd, "%s", err.message);
    t_read = nv_now() - t_read;
    const nesvm_dataset *ds = r->ds;
    if (o->weights) {
        int rcw = r->shares ? shared_weights(cmd, o, nesvm_dataset_rows(ds), &r->weights)
                            : read_weights(cmd, o->weights, nesvm_dataset_rows(ds), &r->weights);
        if (rcw != CLI_OK) return CLI_ERROR;
        if (nesvm_dataset_set_weights(r->ds, r->weights, &err) != NESVM_OK)
            return cli_error(cmd, "%s: %s", o->weights, err.message);
    }
    /* distributed: every rank's share (rank 0's storage) */
    const long long rows_all = (long long)(r->shares ? cli_mpi_sum(o, nesvm_dataset_rows(ds)) : nesvm_dataset_rows(ds));
    const long long nnz_all = (long long)(r->shares ? cli_mpi_sum(o, nesvm_dataset_nnz(ds)) : nesvm_dataset_nnz(ds));
    if (!o->quiet) {
        fprintf(r->info, "read %lld rows, %d features, %lld stored entries (%s, %s) in %.3f s", rows_all,
                nesvm_dataset_features(ds), nnz_all,
                nesvm_dataset_storage(ds) == NESVM_STORAGE_DENSE ? "dense" : "csr",
                nesvm_dataset_precision(ds) == NESVM_FLOAT ? "float" : "double", t_read);
        if (r->shares)
            fprintf(r->info, ", over %d processes (%lld rows on rank 0)", cli_mpi_size(o),
                    (long long)nesvm_dataset_rows(ds));
        else if (r->dist)
            fprintf(r->info, ", by each of %d processes (the folds shared out)", cli_mpi_size(o));
        fputc('\n', r->info);
    }
    return CLI_OK;
}

/* -------------------------------------------------------------------- trace */
/* The progress state, and --trace opened (distributed: by rank 0, the others'
 * progress being the same).  Fails (CLI_ERROR, printed) when it cannot be. */
static int run_open_trace(run *r)
{
    train_opts *o = r->o;
    r->ps.tty = !o->quiet && isatty(fileno(stderr));
    if (!o->trace) return CLI_OK;
    int trc = cli_mpi_rank(o) == 0 ? open_trace(r->cmd, o->trace, &r->trace) : CLI_OK;
    if (r->dist) {
        nesvm_error terr = {0};
        if (trc != CLI_OK) snprintf(terr.message, sizeof terr.message, "cannot open the trace");
        trc = cli_mpi_agree(o, trc == CLI_OK ? NESVM_OK : NESVM_ERR_IO, &terr) == NESVM_OK ? CLI_OK : CLI_ERROR;
    }
    if (trc != CLI_OK) return CLI_ERROR;
    r->ps.trace = r->trace.fp;
    return CLI_OK;
}

/* A run's trace still open (cross-validation's, or a failed run's): committed
 * when rc is CLI_OK (failing: printed, CLI_ERROR), else removed. */
static int run_close_trace(run *r, int rc)
{
    if (!r->trace.fp && !r->trace.tmp_path) return rc;
    nesvm_error err = {0};
    if (rc != CLI_OK) {
        nv_atomic_abort(&r->trace);
        return rc;
    }
    return nv_atomic_commit(&r->trace, &err) == NESVM_OK ? CLI_OK : cli_error(r->cmd, "%s", err.message);
}

/* ---------------------------------------------------------------------- -v */
/* K-fold cross-validation: its accuracy (and --metrics) printed.  Fails
 * (printed) on a training or memory. */
static int run_cv(run *r)
{
    train_opts *o = r->o;
    const nesvm_dataset *ds = r->ds;
    double *pred = malloc(sizeof(double) * (size_t)(nesvm_dataset_rows(ds) + 1));
    nesvm_metrics cvm; /* the task's figures (a one-class model's ROC AUC too) */
    nesvm_error err = {0};
    int rc = CLI_OK;
    if (!pred) {
        rc = cli_error(r->cmd, "out of memory");
    } else if (nesvm_cross_validate_metrics(ds, o->params, o->folds, (uint64_t)o->seed,
                                            r->dist ? cli_mpi_comm(o) : NULL, train_progress, &r->ps, pred, &cvm,
                                            &err) != NESVM_OK) {
        progress_end(&r->ps);
        rc = run_error(r->cmd, &r->ps, o->trace, &err);
    } else {
        progress_end(&r->ps);
        cli_print_scores(r->info, 1, &cvm);
        if (o->metrics && cvm.task != NESVM_TASK_REGRESSION &&
            print_metrics(r->info, nesvm_dataset_labels(ds), pred, nesvm_dataset_rows(ds)) != 0)
            rc = cli_error(r->cmd, "out of memory");
    }
    free(pred);
    return rc;
}

/* ------------------------------------------------------------------ summary */
/* nu-SVC's scale and nu-SVR's half-width, as svm-train prints them ("C =
 * 1/rho", "epsilon"): one figure, or their range over the binary models. */
static void print_nu(FILE *info, const nesvm_model *m)
{
    const char *problem = nesvm_model_problem(m);
    const int svc = strcmp(problem, "nu_svc_hinge_l2") == 0;
    if (!svc && strcmp(problem, "nu_svr_epsilon_insensitive_l2") != 0) return;
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < nesvm_model_submodels(m); k++) {
        const double v = nesvm_model_nu_value(m, k), x = svc ? 1.0 / v : v;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    if (!(lo <= hi)) return;
    if (nesvm_model_submodels(m) == 1)
        fprintf(info, svc ? "nu-SVC: margin rho %.6g, the model scaled by 1/rho: C = 1/rho = %.6g (svm-train's C)\n"
                          : "nu-SVR: epsilon = %.6g (the tube's half-width, svm-train's epsilon)\n",
                svc ? 1.0 / lo : lo, lo);
    else
        fprintf(info, "nu-SVC: C = 1/rho from %.6g to %.6g over the binary models (each the model's scale, "
                      "svm-train's C; nesvm info lists them)\n",
                lo, hi);
}

/* The training's summary: objective and certificate, the model's size, the
 * kernel's and the rows' work, the distributed collectives. */
static void print_summary(const run *r, const nesvm_model *m, const nesvm_stats *st)
{
    FILE *info = r->info;
    if (cli_model_joint(m))
        fprintf(info, "classes %d, one joint problem (%s), iterations %lld, time %.3f s\n", nesvm_model_classes(m),
                nesvm_model_problem(m), (long long)st->iterations, st->seconds);
    else if (nesvm_model_task(m) == NESVM_TASK_CLASSIFICATION)
        fprintf(info, "classes %d, binary models %d, iterations %lld, time %.3f s\n", nesvm_model_classes(m),
                st->n_submodels, (long long)st->iterations, st->seconds);
    else /* a regression has no classes */
        fprintf(info, "%s, iterations %lld, time %.3f s\n", nesvm_task_str(nesvm_model_task(m)),
                (long long)st->iterations, st->seconds);
    if (!cli_solver_info(nesvm_model_solver(m)).certificate) {
        /* GS-SVM, the one solver without a certificate, has no primal: its
         * objective is the dual loss (10) */
        fprintf(info, "dual loss %.10g, support vectors %lld, exit %s (GS-SVM's own stopping rule: "
                      "no certificate)\n",
                st->primal, (long long)st->n_sv, nesvm_exit_str(st->exit_reason));
    } else if (st->kernel_matrix == 4) {
        /* no certificate: a stationary point of a problem that is not convex */
        fprintf(info, "dual objective %.10g (LIBSVM's obj), support vectors %lld, exit %s: a "
                      "stationary point, no certificate (the %s kernel is not positive "
                      "semi-definite)\n",
                st->primal, (long long)st->n_sv, nesvm_exit_str(st->exit_reason), nesvm_model_kernel(m));
    } else if (isnan(st->primal) && st->exit_reason == NESVM_EXIT_TIME_LIMIT) { /* a sub-model never started */
        fprintf(info, "primal objective unknown: the time limit ran out before every binary model started; "
                      "support vectors %lld, exit %s\n", (long long)st->n_sv, nesvm_exit_str(st->exit_reason));
    } else {
        fprintf(info, "primal objective %.10g, relative gap %.3g, support vectors %lld, exit %s\n", st->primal,
                st->gap, (long long)st->n_sv, nesvm_exit_str(st->exit_reason));
        fprintf(info, "lower bound %.17g\n", st->lower_bound);
    }
    print_nu(info, m);
    long long nnz = 0, all = 0;
    for (int k = 0; k < nesvm_model_submodels(m); k++) {
        const double *w;
        int64_t nc = 0;
        nesvm_model_expansion(m, k, &w, &nc, NULL, NULL, NULL, NULL);
        for (int64_t j = 0; j < nc; j++) nnz += w[j] != 0;
        all += nc;
    }
    if (nesvm_model_basis(m)) {
        fprintf(info, "kernel %s, basis %lld vectors, non-zero coefficients %lld of %lld\n", nesvm_model_kernel(m),
                (long long)nesvm_dataset_rows(nesvm_model_basis(m)), nnz, all);
        if (st->kernel_matrix == 2)
            fprintf(info, "kernel evaluations %lld, working set (%lld round%s): kernel columns computed %lld, "
                          "cache hits %lld\n",
                    (long long)st->kernel_evals, (long long)st->ws_rounds, st->ws_rounds == 1 ? "" : "s",
                    (long long)st->kernel_columns, (long long)st->cache_hits);
        else if (st->kernel_matrix == 4)
            fprintf(info, "kernel evaluations %lld, SMO: kernel columns computed %lld, cache hits %lld\n",
                    (long long)st->kernel_evals, (long long)st->kernel_columns, (long long)st->cache_hits);
        else if (st->kernel_columns == 0)
            fprintf(info, "kernel evaluations %lld, %s\n", (long long)st->kernel_evals,
                    st->kernel_matrix == 1   ? "kernel matrix stored (single precision)"
                    : st->kernel_matrix == 3 ? "working set, kernel matrix stored (single precision)"
                    : st->kernel_matrix == 0 ? "kernel matrix computed on the fly"
                                             : "kernel features");
        if (st->kernel_psd >= 0) /* a precomputed kernel's matrix, checked */
            fprintf(info, "precomputed kernel matrix: %s%s\n",
                    st->kernel_psd ? "positive semi-definite (checked)" : "not positive semi-definite: ",
                    st->kernel_psd ? "" : st->kernel_note);
        if (st->basis > 0 && !isnan(st->basis_residual))
            fprintf(info, "Nystrom residual %.3g (the share of the rows' squared RKHS norm outside the basis's "
                          "span)%s\n",
                    st->basis_residual,
                    st->basis_capped ? "; the automatic basis stopped at --kernel-memory"
                    : st->basis_sizes > 1 ? "; the automatic basis grew" : "");
    } else
        fprintf(info, "non-zero weights %lld of %lld\n", nnz, all);
    if (st->kernel_columns > 0 && st->kernel_matrix != 2 && st->kernel_matrix != 4) /* GS-SVM's */
        fprintf(info, "kernel evaluations %lld (%lld without the cache), kernel columns computed %lld, cache "
                      "hits %lld\n",
                (long long)st->kernel_evals, (long long)st->kernel_asked, (long long)st->kernel_columns,
                (long long)st->cache_hits);
    if (st->dots > 0)
        fprintf(info, "row products %lld (%.1f per row), row updates %lld\n", (long long)st->dots,
                (double)st->dots / (double)nesvm_dataset_rows(r->ds), (long long)st->row_updates);
    if (r->dist)
        fprintf(info, "distributed over %d processes: %lld collectives, %lld bytes reduced or broadcast per "
                      "process (%.0f per iteration)\n",
                cli_mpi_size(r->o), (long long)st->comm_calls, (long long)st->comm_bytes,
                st->iterations > 0 ? (double)st->comm_bytes / (double)st->iterations : 0.0);
    fprintf(info, "model saved to %s\n", is_stdout(r->model_path) ? "standard output" : r->model_path);
}

/* -------------------------------------------------------------------- train */
/* Train (distributed, or resumable with checkpoints) and save the model, the
 * trace completed before the model and renamed into place after it (a failure
 * on either side leaves neither half); the certificate warning (even with -q)
 * and the summary.  Fails (printed) on the training or a file. */
static int run_train(run *r)
{
    const char *cmd = r->cmd;
    train_opts *o = r->o;
    nesvm_error err = {0};
    nesvm_model *m = NULL;
    nesvm_stats stats = NESVM_STATS_INIT;
    int rc = CLI_OK;
    nesvm_status tst = r->dist ? nesvm_train_distributed(r->ds, o->params, r->init, cli_mpi_comm(o), train_progress,
                                                         &r->ps, &m, &stats, &err)
                               : nesvm_train_resumable(r->ds, o->params, r->init, &o->ck, train_progress, &r->ps,
                                                       &m, &stats, &err);
    progress_end(&r->ps);
    if (tst != NESVM_OK) {
        rc = run_error(cmd, &r->ps, o->trace, &err);
        /* cancelled (not failed): the checkpoint on stopping was written */
        if (interrupted && o->ck.save_path && tst == NESVM_ERR_CANCELLED)
            fprintf(stderr, "nesvm %s: the training's state is saved in '%s': continue it with "
                            "--resume %s\n", cmd, o->ck.save_path, o->ck.save_path);
        nesvm_model_destroy(m);
        return rc;
    }
    if (r->trace.fp && nv_atomic_finish(&r->trace, &err) != NESVM_OK) rc = cli_error(cmd, "%s", err.message);
    /* distributed: rank 0 writes the model (every rank holds it) */
    if (rc == CLI_OK && cli_mpi_rank(o) == 0 && nesvm_model_save(m, r->model_path, &err) != NESVM_OK)
        rc = cli_error(cmd, "%s", err.message);
    if (rc == CLI_OK && (r->trace.fp || r->trace.tmp_path) && nv_atomic_commit(&r->trace, &err) != NESVM_OK)
        rc = cli_error(cmd, "%s", err.message);
    if (r->dist) rc = cli_mpi_bcast_rc(o, rc);
    /* even with -q: a model short of its certificate must not pass unnoticed */
    if (rc == CLI_OK && cli_mpi_rank(o) == 0) cli_warn_uncertified(cmd, m);
    if (rc == CLI_OK && !o->quiet) print_summary(r, m, &stats);
    nesvm_model_destroy(m);
    return rc;
}

int run_training(const char *cmd, train_opts *o, const char *data, const char *model_path)
{
    int rc = run_refusals(cmd, o, model_path);
    if (rc != CLI_OK) return rc;
    if (o->m_value) {
        /* LIBSVM's -m: the solver's memory parameter (the kernel column cache of
         * gs, the kernel memory of the others) */
        nesvm_error perr = {0};
        if (nesvm_params_set(o->params, cli_params_solver(o->params).memory, o->m_value, &perr) != NESVM_OK)
            return cli_usage(cmd, "%s", perr.message);
    }
    cli_warn_ignored(cmd, o->params);
    cli_blas_threads(o->read.threads, o->folds > 0 ? o->folds : o->find_c ? 5 : 1);
    run r;
    memset(&r, 0, sizeof r);
    r.cmd = cmd;
    r.o = o;
    r.data = data;
    r.model_path = model_path;
    r.dist = o->distributed;
    r.shares = r.dist && o->folds == 0 && !o->find_c;
    r.info = is_stdout(model_path) || is_stdout(o->trace) ? stderr : stdout;
    rc = run_input(&r);
    if (rc == CLI_OK) rc = run_open_trace(&r);
    if (rc == CLI_OK) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        rc = o->find_c ? find_c(cmd, o, r.ds, r.info, &r.ps) : o->folds > 0 ? run_cv(&r) : run_train(&r);
        rc = run_close_trace(&r, rc);
        if (interrupted && rc != CLI_OK) rc = 128 + (int)interrupted;
    }
    nesvm_dataset_destroy(r.ds);
    free(r.weights);
    nesvm_model_destroy(r.init);
    return rc;
}

/* --distributed's refusals, before MPI starts (so every build gives them). */
int check_distributed(const char *cmd, const train_opts *o, const char *data)
{
    if (o->ck.save_path || o->ck.resume_path)
        return cli_usage(cmd, "--distributed trainings write no checkpoints (--checkpoint, --resume)");
    if (strcmp(data, "-") == 0)
        return cli_usage(cmd, "--distributed reads a file (each process its share), not standard input");
    if (cli_read_precomputed(o->params))
        return cli_usage(cmd, "--distributed does not take a precomputed kernel (-t precomputed): its serial numbers "
                              "and its matrix are checked over every row in one process");
    return CLI_OK;
}

static int train_command(const char *cmd, int argc, char **argv, train_opts *op)
{
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *pos[3];
    int npos = 0, r;
    const char *p;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (npos == 2) {
                return cli_usage(cmd, "too many arguments ('%s')", p);
            }
            pos[npos++] = p;
            continue;
        }
        if (strcmp(a.name, "h") == 0 && cli_h_is_shrinking(&a)) {
            /* LIBSVM's -h 0|1: shrinking */
            if (train_opt_shrinking(&a, op) < 0) {
                return CLI_USAGE;
            }
            continue;
        }
        if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            return CLI_OK;
        }
        if (strcmp(a.name, "init") == 0 || strcmp(a.name, "checkpoint") == 0 || strcmp(a.name, "resume") == 0) {
            const char *val = cli_value(&a);
            if (!val) {
                return CLI_USAGE;
            }
            if (a.name[0] == 'i') op->init = val;
            else if (a.name[0] == 'c') op->ck.save_path = val;
            else op->ck.resume_path = val;
            continue;
        }
        if (strcmp(a.name, "C") == 0) {
            op->find_c = 1;
            continue;
        }
        if (strcmp(a.name, "distributed") == 0) {
            op->distributed = 1;
            continue;
        }
        if (strcmp(a.name, "c") == 0) op->c_given = 1;
        if (strcmp(a.name, "checkpoint_every") == 0) {
            const char *val = cli_value(&a);
            if (!val || !cli_parse_double(val, &op->ck.every) || op->ck.every < 0) {
                return val ? cli_usage(cmd, "bad value '%s' for --checkpoint-every (expected seconds >= 0)", val)
                           : CLI_USAGE;
            }
            continue;
        }
        int h = train_opt(&a, op);
        if (h < 0) {
            return CLI_USAGE;
        }
        if (h == 0) {
            return cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]);
        }
    }
    if (npos == 0) {
        return cli_usage(cmd, "missing DATA file");
    }
    if (train_opts_liblinear(cmd, op) != CLI_OK) return CLI_USAGE;
    char *model_path = NULL;
    if (npos == 2) {
        model_path = strdup(pos[1]);
    } else if (op->folds == 0 && !op->find_c) {
        const char *base = strrchr(pos[0], '/');
        base = base ? base + 1 : pos[0];
        if (strcmp(pos[0], "-") == 0) base = "stdin";
        size_t len = strlen(base) + 7;
        model_path = malloc(len);
        if (model_path) snprintf(model_path, len, "%s.model", base);
    }
    if (op->folds == 0 && !op->find_c && !model_path) {
        return cli_error(cmd, "out of memory");
    }
    int rc = op->distributed ? check_distributed(cmd, op, pos[0]) : CLI_OK;
    if (rc == CLI_OK && op->distributed && !op->mpi) rc = cli_mpi_begin(cmd, op);
    if (rc == CLI_OK) rc = run_training(cmd, op, pos[0], model_path);
    free(model_path);
    return rc;
}

int cmd_train(int argc, char **argv)
{
    const char *cmd = "train";
    train_opts o;
    if (train_opts_init(&o, cmd) != CLI_OK) return CLI_ERROR;
    /* under mpirun, MPI starts before the options are read, so that a bad
     * option is reported once (by rank 0), not once per process */
    int rc = cli_mpi_early(cmd, &o, argc, argv);
    if (rc == CLI_OK) rc = train_command(cmd, argc, argv, &o);
    cli_mpi_end(&o);
    train_opts_free(&o);
    return rc;
}
