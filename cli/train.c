/* train.c - `nesvm train`: read data, train, save the model atomically. */
#include "cli.h"
#include "core/internal.h"

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
          "Hyperpass and Pegasos (--solver) solve c without a free bias:\n"
          "      min_w   1/2 ||w||^2 + sum_i C_i max(0, 1 - y_i w.z_i),\n"
          "  z_i = x_i, or [x_i, B] with -B B > 0 (b = B w_B, regularized).\n"
          "SSVM and NSSVM (--solver) solve the squared hinge with z_i = [x_i, B], B = 1:\n"
          "      min_w   1/2 ||w||^2 + 1/2 sum_i C_i max(0, 1 - y_i w.z_i)^2\n"
          "  (LIBLINEAR -s 2 -B 1 with its -c = C/2); with a kernel, x_i becomes\n"
          "  L^-1 [K(b_1, x_i) .. K(b_M, x_i)] over the basis, K_BB = L L^T, so that\n"
          "  ||w||^2 is the RKHS norm of f (--kernel-norm rkhs), or the paper's\n"
          "  [K(x_i, b_1) .. K(x_i, b_M)] with w the coefficients (--kernel-norm coef).\n\n",
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
          "                       (default 5); prints the best C (no model is written)\n"
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
 * LIBLINEAR prints it. */
static int find_c(const char *cmd, train_opts *o, nesvm_dataset *ds, FILE *info, progress_state *ps)
{
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
    double acc[200];
    nesvm_error err = {0};
    if (!o->quiet) fprintf(info, "Doing parameter search with %d-fold cross validation.\n", folds);
    if ((o->distributed ? nesvm_cross_validate_path_distributed(ds, o->params, folds, (uint64_t)o->seed, "c", cs, nc,
                                                                1, cli_mpi_comm(o), train_progress, ps, acc, NULL,
                                                                &err)
                        : nesvm_cross_validate_path(ds, o->params, folds, (uint64_t)o->seed, "c", cs, nc, 1,
                                                    train_progress, ps, acc, NULL, &err)) != NESVM_OK) {
        progress_end(ps);
        return run_error(cmd, ps, o->trace, &err);
    }
    progress_end(ps);
    int best = 0;
    for (int i = 0; i < nc; i++) {
        if (acc[i] > acc[best]) best = i;
        if (!o->quiet) fprintf(info, "log2c=%7.2f\trate=%g\n", log2(cs[i]), 100.0 * acc[i]);
    }
    fprintf(info, "Best C = %g  CV accuracy = %g%%\n", cs[best], 100.0 * acc[best]);
    return CLI_OK;
}

int run_training(const char *cmd, train_opts *o, const char *data, const char *model_path)
{
    nesvm_error err = {0};
    nesvm_dataset *ds = NULL;
    nesvm_model *init = NULL;
    if (o->init && o->folds > 0) return cli_usage(cmd, "--init cannot be combined with -v");
    if ((o->ck.save_path || o->ck.resume_path) && o->folds > 0)
        return cli_usage(cmd, "--checkpoint and --resume cannot be combined with -v");
    if (o->init && o->ck.resume_path)
        return cli_usage(cmd, "--init and --resume cannot be combined (a checkpoint holds its own start)");
    if (is_stdout(o->ck.save_path)) return cli_usage(cmd, "--checkpoint needs a file, not standard output");
    if (o->find_c) {
        char kernel[16], solver[32];
        nesvm_params_get(o->params, "kernel", kernel, sizeof kernel, NULL);
        nesvm_params_get(o->params, "solver", solver, sizeof solver, NULL);
        if (strcmp(solver, "gs") == 0)
            return cli_usage(cmd, "-C searches C, and gs has none: 'nesvm grid --solver gs' searches its gamma "
                                  "and basis functions");
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
    const int dist = o->distributed;
    /* distributed training: each process reads its share of the rows;
     * distributed cross-validation (-v, -C): each reads them all and trains
     * its share of the folds */
    const int shares = dist && o->folds == 0 && !o->find_c;
    if (o->m_value) {
        /* LIBSVM's -m: the kernel column cache of gs, the kernel memory of the others */
        char solver[32];
        nesvm_params_get(o->params, "solver", solver, sizeof solver, NULL);
        nesvm_error perr = {0};
        if (nesvm_params_set(o->params, strcmp(solver, "gs") == 0 ? "cache_size" : "kernel_memory", o->m_value,
                             &perr) != NESVM_OK)
            return cli_usage(cmd, "%s", perr.message);
    }
    cli_warn_ignored(cmd, o->params);
    /* the summary goes to stderr when an output takes standard output */
    FILE *info = is_stdout(model_path) || is_stdout(o->trace) ? stderr : stdout;
    if (o->init) {
        nesvm_status ist = nesvm_model_load(o->init, &init, &err);
        if (dist) ist = cli_mpi_agree(o, ist, &err); /* every rank loads it */
        if (ist != NESVM_OK) {
            nesvm_model_destroy(init);
            return cli_error(cmd, "warm-start model: %s", err.message);
        }
    }
    double t_read = nv_now();
    nesvm_status rst = shares ? nesvm_dataset_read_distributed(data, &o->read, cli_mpi_comm(o), &ds, &err)
                              : nesvm_dataset_read(data, &o->read, &ds, &err);
    if (dist && !shares) rst = cli_mpi_agree(o, rst, &err);
    if (rst != NESVM_OK) {
        nesvm_dataset_destroy(ds);
        nesvm_model_destroy(init);
        return cli_error(cmd, "%s", err.message);
    }
    t_read = nv_now() - t_read;
    double *weights = NULL;
    if (o->weights) {
        int rcw = shares ? shared_weights(cmd, o, nesvm_dataset_rows(ds), &weights)
                         : read_weights(cmd, o->weights, nesvm_dataset_rows(ds), &weights);
        if (rcw != CLI_OK) {
            nesvm_dataset_destroy(ds);
            nesvm_model_destroy(init);
            return CLI_ERROR;
        }
        if (nesvm_dataset_set_weights(ds, weights, &err) != NESVM_OK) {
            free(weights);
            nesvm_dataset_destroy(ds);
            nesvm_model_destroy(init);
            return cli_error(cmd, "%s: %s", o->weights, err.message);
        }
    }
    /* distributed: every rank's share (rank 0's storage) */
    const long long rows_all = (long long)(shares ? cli_mpi_sum(o, nesvm_dataset_rows(ds)) : nesvm_dataset_rows(ds));
    const long long nnz_all = (long long)(shares ? cli_mpi_sum(o, nesvm_dataset_nnz(ds)) : nesvm_dataset_nnz(ds));
    if (!o->quiet) {
        fprintf(info, "read %lld rows, %d features, %lld stored entries (%s, %s) in %.3f s", rows_all,
                nesvm_dataset_features(ds), nnz_all,
                nesvm_dataset_storage(ds) == NESVM_STORAGE_DENSE ? "dense" : "csr",
                nesvm_dataset_precision(ds) == NESVM_FLOAT ? "float" : "double", t_read);
        if (shares)
            fprintf(info, ", over %d processes (%lld rows on rank 0)", cli_mpi_size(o),
                    (long long)nesvm_dataset_rows(ds));
        else if (dist)
            fprintf(info, ", by each of %d processes (the folds shared out)", cli_mpi_size(o));
        fputc('\n', info);
    }
    struct { progress_state ps; } rs;
    memset(&rs, 0, sizeof rs);
    rs.ps.tty = !o->quiet && isatty(fileno(stderr));
    nv_atomic_file trace = {0};
    if (o->trace) {
        /* distributed: rank 0 writes it (the others' progress is the same) */
        int trc = cli_mpi_rank(o) == 0 ? open_trace(cmd, o->trace, &trace) : CLI_OK;
        if (dist) {
            nesvm_error terr = {0};
            if (trc != CLI_OK) snprintf(terr.message, sizeof terr.message, "cannot open the trace");
            trc = cli_mpi_agree(o, trc == CLI_OK ? NESVM_OK : NESVM_ERR_IO, &terr) == NESVM_OK ? CLI_OK : CLI_ERROR;
        }
        if (trc != CLI_OK) {
            nesvm_dataset_destroy(ds);
            nesvm_model_destroy(init);
            free(weights);
            return CLI_ERROR;
        }
        rs.ps.trace = trace.fp;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    int rc = CLI_OK;
    if (o->find_c) {
        rc = find_c(cmd, o, ds, info, &rs.ps);
    } else if (o->folds > 0) {
        double *pred = malloc(sizeof(double) * (size_t)(nesvm_dataset_rows(ds) + 1));
        double acc = 0;
        if (!pred) {
            rc = cli_error(cmd, "out of memory");
        } else if ((dist ? nesvm_cross_validate_distributed(ds, o->params, o->folds, (uint64_t)o->seed,
                                                            cli_mpi_comm(o), train_progress, &rs.ps, pred, &acc,
                                                            &err)
                         : nesvm_cross_validate(ds, o->params, o->folds, (uint64_t)o->seed, train_progress,
                                                &rs.ps, pred, &acc, &err)) != NESVM_OK) {
            progress_end(&rs.ps);
            rc = run_error(cmd, &rs.ps, o->trace, &err);
        } else {
            progress_end(&rs.ps);
            nesvm_metrics cvm; /* the task's figures, over pred (acc is their accuracy) */
            nesvm_metrics_compute(nesvm_params_task(o->params), nesvm_dataset_labels(ds), pred,
                                  nesvm_dataset_rows(ds), &cvm, NULL);
            cli_print_scores(info, 1, &cvm);
            if (o->metrics && cvm.task != NESVM_TASK_REGRESSION &&
                print_metrics(info, nesvm_dataset_labels(ds), pred, nesvm_dataset_rows(ds)) != 0)
                rc = cli_error(cmd, "out of memory");
        }
        free(pred);
    } else {
        nesvm_model *m = NULL;
        nesvm_stats stats = NESVM_STATS_INIT;
        nesvm_status tst = dist ? nesvm_train_distributed(ds, o->params, init, cli_mpi_comm(o), train_progress,
                                                          &rs.ps, &m, &stats, &err)
                                : nesvm_train_resumable(ds, o->params, init, &o->ck, train_progress, &rs.ps,
                                                        &m, &stats, &err);
        if (tst != NESVM_OK) {
            progress_end(&rs.ps);
            rc = run_error(cmd, &rs.ps, o->trace, &err);
            /* cancelled (not failed): the checkpoint on stopping was written */
            if (interrupted && o->ck.save_path && tst == NESVM_ERR_CANCELLED)
                fprintf(stderr, "nesvm %s: the training's state is saved in '%s': continue it with "
                                "--resume %s\n", cmd, o->ck.save_path, o->ck.save_path);
        } else {
            progress_end(&rs.ps);
            /* the trace is complete before the model is saved, and renamed into
             * place after it: a failure on either side leaves neither half */
            if (trace.fp && nv_atomic_finish(&trace, &err) != NESVM_OK)
                rc = cli_error(cmd, "%s", err.message);
            /* distributed: rank 0 writes the model (every rank holds it) */
            if (rc == CLI_OK && cli_mpi_rank(o) == 0 && nesvm_model_save(m, model_path, &err) != NESVM_OK)
                rc = cli_error(cmd, "%s", err.message);
            if (rc == CLI_OK && (trace.fp || trace.tmp_path) && nv_atomic_commit(&trace, &err) != NESVM_OK)
                rc = cli_error(cmd, "%s", err.message);
            if (dist) rc = cli_mpi_bcast_rc(o, rc);
            /* even with -q: a model short of its certificate must not pass unnoticed */
            if (rc == CLI_OK && cli_mpi_rank(o) == 0) cli_warn_uncertified(cmd, m);
            if (rc == CLI_OK && !o->quiet) {
                fprintf(info, "classes %d, binary models %d, iterations %lld, time %.3f s\n",
                       nesvm_model_classes(m), stats.n_submodels, (long long)stats.iterations,
                       stats.seconds);
                if (strcmp(nesvm_model_solver(m), "gs") == 0) {
                    /* GS-SVM has no primal: its objective is the dual loss (10) */
                    fprintf(info, "dual loss %.10g, support vectors %lld, exit %s (GS-SVM's own stopping rule: "
                                  "no certificate)\n",
                            stats.primal, (long long)stats.n_sv, nesvm_exit_str(stats.exit_reason));
                } else if (stats.kernel_matrix == 4) {
                    /* no certificate: a stationary point of a problem that is not convex */
                    fprintf(info, "dual objective %.10g (LIBSVM's obj), support vectors %lld, exit %s: a "
                                  "stationary point, no certificate (the %s kernel is not positive "
                                  "semi-definite)\n",
                            stats.primal, (long long)stats.n_sv, nesvm_exit_str(stats.exit_reason),
                            nesvm_model_kernel(m));
                } else {
                    fprintf(info, "primal objective %.10g, relative gap %.3g, support vectors %lld, exit %s\n",
                           stats.primal, stats.gap, (long long)stats.n_sv,
                           nesvm_exit_str(stats.exit_reason));
                    fprintf(info, "lower bound %.17g\n", stats.lower_bound);
                }
                long long nnz = 0, all = 0;
                for (int k = 0; k < nesvm_model_submodels(m); k++) {
                    const double *w;
                    int64_t nc = 0;
                    nesvm_model_expansion(m, k, &w, &nc, NULL, NULL, NULL, NULL);
                    for (int64_t j = 0; j < nc; j++) nnz += w[j] != 0;
                    all += nc;
                }
                if (nesvm_model_basis(m)) {
                    fprintf(info, "kernel %s, basis %lld vectors, non-zero coefficients %lld of %lld\n",
                           nesvm_model_kernel(m), (long long)nesvm_dataset_rows(nesvm_model_basis(m)),
                           nnz, all);
                    if (stats.kernel_matrix == 2 || stats.kernel_matrix == 4)
                        fprintf(info, "kernel evaluations %lld, %s: kernel columns computed %lld, "
                               "cache hits %lld\n",
                               (long long)stats.kernel_evals, stats.kernel_matrix == 2 ? "working set" : "SMO",
                               (long long)stats.kernel_columns, (long long)stats.cache_hits);
                    else if (stats.kernel_columns == 0)
                        fprintf(info, "kernel evaluations %lld, %s\n", (long long)stats.kernel_evals,
                               stats.kernel_matrix == 1   ? "kernel matrix stored (single precision)"
                               : stats.kernel_matrix == 3 ? "working set, kernel matrix stored (single precision)"
                               : stats.kernel_matrix == 0 ? "kernel matrix computed on the fly"
                                                          : "kernel features");
                    if (stats.basis > 0 && !isnan(stats.basis_residual))
                        fprintf(info, "Nystrom residual %.3g (the share of the rows' squared RKHS norm "
                                "outside the basis's span)%s\n",
                                stats.basis_residual,
                                stats.basis_capped ? "; the automatic basis stopped at --kernel-memory"
                                : stats.basis_sizes > 1 ? "; the automatic basis grew" : "");
                } else
                    fprintf(info, "non-zero weights %lld of %lld\n", nnz, all);
                if (stats.kernel_columns > 0 && stats.kernel_matrix != 2 && stats.kernel_matrix != 4) /* GS-SVM's */
                    fprintf(info, "kernel evaluations %lld (%lld without the cache), kernel columns computed "
                           "%lld, cache hits %lld\n",
                           (long long)stats.kernel_evals, (long long)stats.kernel_asked,
                           (long long)stats.kernel_columns, (long long)stats.cache_hits);
                if (stats.dots > 0)
                    fprintf(info, "row products %lld (%.1f per row), row updates %lld\n",
                           (long long)stats.dots,
                           (double)stats.dots / (double)nesvm_dataset_rows(ds),
                           (long long)stats.row_updates);
                if (dist)
                    fprintf(info, "distributed over %d processes: %lld collectives, %lld bytes reduced or "
                            "broadcast per process (%.0f per iteration)\n",
                            cli_mpi_size(o), (long long)stats.comm_calls, (long long)stats.comm_bytes,
                            stats.iterations > 0 ? (double)stats.comm_bytes / (double)stats.iterations : 0.0);
                fprintf(info, "model saved to %s\n", is_stdout(model_path) ? "standard output" : model_path);
            }
        }
        nesvm_model_destroy(m);
    }
    if (trace.fp || trace.tmp_path) {
        /* cross-validation's trace, or a failed run's (removed) */
        if (rc == CLI_OK) {
            if (nv_atomic_commit(&trace, &err) != NESVM_OK) rc = cli_error(cmd, "%s", err.message);
        } else {
            nv_atomic_abort(&trace);
        }
    }
    nesvm_dataset_destroy(ds);
    free(weights);
    nesvm_model_destroy(init);
    if (interrupted && rc != CLI_OK) return 128 + (int)interrupted;
    return rc;
}

/* --distributed's refusals, before MPI starts (so every build gives them). */
int check_distributed(const char *cmd, const train_opts *o, const char *data)
{
    if (o->ck.save_path || o->ck.resume_path)
        return cli_usage(cmd, "--distributed trainings write no checkpoints (--checkpoint, --resume)");
    if (strcmp(data, "-") == 0)
        return cli_usage(cmd, "--distributed reads a file (each process its share), not standard input");
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
