/* easy.c - `nesvm easy`: LIBSVM's easy.py in one command: scale the training
 * data, search C and gamma (nesvm grid), train with the best point, and scale
 * and predict the test data with the training data's ranges.  Each step is
 * the command of its own name, so its files and messages are that command's. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm easy [options] TRAIN [TEST]\n"
          "LIBSVM's easy.py in one command, with its files in the current folder:\n"
          "  1. scale TRAIN to [-1, 1]: TRAIN.scale, the ranges in TRAIN.range (nesvm scale);\n"
          "  2. search C and gamma by cross-validation: TRAIN.scale.grid.csv and the heat\n"
          "     map TRAIN.scale.png (nesvm grid; gs: gamma and the basis functions);\n"
          "  3. train with the best point: TRAIN.model (nesvm train);\n"
          "  4. with TEST: scale it with TRAIN's ranges (TEST.scale) and predict it\n"
          "     (TEST.predict), printing the accuracy (nesvm predict).\n"
          "A regression (--svm-type svr, -s 3, or ls-svr) searches the smallest\n"
          "cross-validation mean squared error and prints the test's mean squared error\n"
          "and squared correlation coefficient. Its targets are not scaled unless -y\n"
          "says so (easy.py, for classification, has no -y); -log2p searches\n"
          "epsilon-SVR's p with C and gamma (nesvm grid).\n"
          "The kernel is RBF unless -t says otherwise (linear for --multiclass cs and\n"
          "multinomial, which are linear problems). Every option of 'nesvm grid' goes to\n"
          "the search, and those of 'nesvm train' to the training as well; -b 1 also makes\n"
          "the prediction print probabilities.\n\n"
          "  -y YLOWER YUPPER     a regression: scale the targets to [YLOWER, YUPPER] too\n"
          "                       (svm-scale -y; saved in TRAIN.range, TEST's targets\n"
          "                       scaled alike): the search, the training and -p are in\n"
          "                       the scaled units (the CSV and heat map too), while\n"
          "                       TEST.predict, the test's mean squared error and the\n"
          "                       best line's CV MSE are in the original units\n"
          "  -q                   quiet: only the best point and the accuracy\n"
          "  -h, --help           this help ('nesvm grid --help' lists the options)\n",
          f);
}

/* An argument vector under construction (the strings are borrowed or owned
 * by the caller). */
typedef struct argvec {
    char *v[512];
    int n;
} argvec;

static int push(argvec *a, const char *s)
{
    if (a->n >= (int)(sizeof a->v / sizeof a->v[0]) - 1) return 0;
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
    return 1;
}

/* The file name of path in the current folder, with suffix. */
static char *local_name(const char *path, const char *suffix)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base) + strlen(suffix) + 1;
    char *s = malloc(len);
    if (s) snprintf(s, len, "%s%s", base, suffix);
    return s;
}

/* What easy's options say. */
typedef struct easy_opts {
    const char *pos[3];        /* TRAIN, TEST */
    int npos, quiet, kernel_given;
    int no_c;                  /* a solver without a C (gs): grid searches its basis functions */
    int prob;                  /* -b 1 */
    int reg;                   /* a regression: the search's score is the mean squared error */
    int p_on;                  /* -log2p searches epsilon-SVR's p */
    const char *ylo, *yhi;     /* -y YLOWER YUPPER (NULL: the targets are not scaled) */
    char kernel[16];
    argvec grid, train;        /* the options for grid (all) and for train (all but grid's own), as given */
} easy_opts;

/* The files of one run, in the current folder. */
typedef struct easy_files {
    char *scaled, *range, *csv, *png, *model, *tscaled, *tpred;
} easy_files;

/* ------------------------------------------------------------- options */
/* Read argv into e, checking each option as train and grid will (train's
 * options through a train_opts).  *help: -h/--help printed.  Fails
 * (printed: CLI_USAGE, or CLI_ERROR without memory) on a bad option, grid's
 * --out or --png, too many arguments or options. */
static int easy_options(int argc, char **argv, easy_opts *e, int *help)
{
    const char *cmd = "easy", *p;
    train_opts o;
    if (train_opts_init(&o, cmd) != CLI_OK) return CLI_ERROR;
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    int r, rc = CLI_OK;
    while (rc == CLI_OK && !*help && (r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (e->npos == 2) rc = cli_usage(cmd, "too many arguments ('%s')", p);
            else e->pos[e->npos++] = p;
            continue;
        }
        const int start = a.i - 1;
        int grid_only = 0, h = 1;
        if (strcmp(a.name, "h") == 0 && cli_h_is_shrinking(&a)) {
            h = train_opt_shrinking(&a, &o);
        } else if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            *help = 1;
            continue;
        } else if (strcmp(a.name, "out") == 0 || strcmp(a.name, "png") == 0) {
            rc = cli_usage(cmd, "easy names its files after TRAIN (TRAIN.scale.grid.csv, TRAIN.scale.png): "
                                "'%s' is nesvm grid's", argv[start]);
            continue;
        } else if (strcmp(a.name, "y") == 0) {
            const char *v = cli_value(&a), *v2 = v ? cli_value(&a) : NULL;
            double lo, hi;
            if (!v2) rc = CLI_USAGE;
            else if (!cli_parse_double(v, &lo) || !cli_parse_double(v2, &hi) || !(lo < hi))
                rc = cli_usage(cmd, "bad values '%s %s' for -y (expected YLOWER < YUPPER)", v, v2);
            e->ylo = v;
            e->yhi = v2;
            continue; /* easy's own: for nesvm scale */
        } else if (strcmp(a.name, "log2c") == 0 || strcmp(a.name, "log2g") == 0 ||
                   strcmp(a.name, "log2n") == 0 || strcmp(a.name, "log2p") == 0 || strcmp(a.name, "v") == 0) {
            grid_only = 1;
            const char *v = cli_value(&a);
            int on = 0;
            h = v && grid_check_value(cmd, a.name, v, &on) == CLI_OK ? 1 : -1;
            if (h > 0 && strcmp(a.name, "log2p") == 0) e->p_on = on;
        } else if (strcmp(a.name, "cold") == 0) {
            grid_only = 1;
        } else {
            const nv_param_def *d = cli_param(a.name);
            if (d && strcmp(d->name, "kernel") == 0) e->kernel_given = 1;
            h = train_opt(&a, &o);
        }
        if (h <= 0) {
            rc = h == 0 ? cli_usage(cmd, "unknown option '%s'", argv[start]) : CLI_USAGE;
            continue;
        }
        for (int k = start; k < a.i && rc == CLI_OK; k++)
            if (!push(&e->grid, argv[k]) || (!grid_only && !push(&e->train, argv[k])))
                rc = cli_usage(cmd, "too many options");
    }
    if (rc == CLI_OK && !*help) {
        char probability[8];
        e->quiet = o.quiet;
        e->no_c = !cli_params_solver(o.params).has_c;
        e->reg = nesvm_params_task(o.params) == NESVM_TASK_REGRESSION;
        if (e->p_on) rc = grid_check_p(cmd, o.params);
        char type[16];
        nesvm_params_get(o.params, "svm_type", type, sizeof type, NULL);
        if (rc == CLI_OK && nesvm_params_task(o.params) == NESVM_TASK_NOVELTY)
            rc = cli_usage(cmd, "easy searches C and gamma, and the one-class SVM has no C (its nu is -n): "
                                "scale with 'nesvm scale', search nu and gamma with 'nesvm grid -s 2'");
        if (rc == CLI_OK && cli_nu_svc(o.params))
            rc = cli_usage(cmd, "easy searches C and gamma, and nu-SVC has no C (its nu is -n): scale with 'nesvm "
                                "scale', search nu and gamma with 'nesvm grid -s 1'");
        if (rc == CLI_OK && e->ylo && !e->reg)
            rc = cli_usage(cmd,
                           "-y scales a regression's targets (--svm-type svr or ls-svr): svm_type %s learns a %s",
                           type, nesvm_task_str(nesvm_params_task(o.params)));
        nesvm_params_get(o.params, "probability", probability, sizeof probability, NULL);
        e->prob = strcmp(probability, "1") == 0;
        /* the joint multiclass problems are linear: easy searches their C */
        char mc[16];
        nesvm_params_get(o.params, "multiclass", mc, sizeof mc, NULL);
        if (!e->kernel_given && (strcmp(mc, "cs") == 0 || strcmp(mc, "multinomial") == 0)) {
            e->kernel_given = 1;
            snprintf(e->kernel, sizeof e->kernel, "linear");
        } else if (e->kernel_given) {
            nesvm_params_get(o.params, "kernel", e->kernel, sizeof e->kernel, NULL);
        }
        if (rc == CLI_OK && e->kernel_given && strcmp(e->kernel, "precomputed") == 0)
            rc = cli_usage(cmd, "easy scales the data, and a precomputed kernel's rows are its matrix, not features "
                                "to scale: run nesvm grid and nesvm train with -t precomputed");
    }
    train_opts_free(&o);
    return rc;
}

/* -------------------------------------------------------------- search */
/* nesvm grid on the scaled training data (easy's files and kernel first: the
 * user's options come after and win), and easy.py's "Best ..." line (the CV
 * MSE times mse_unit: in the original units of scaled targets); the best
 * point's C (or max_iter), gamma and p (with -log2p; else "") as text into
 * cbuf, gbuf and pbuf (40 bytes).  Fails (printed) as grid does, or with too
 * many options. */
static int easy_search(const easy_opts *e, const easy_files *f, double mse_unit, char *cbuf, char *gbuf,
                       char *pbuf)
{
    argvec g = {{0}, 0};
    push(&g, "grid");
    push(&g, "--out");
    push(&g, f->csv);
    push(&g, "--png");
    push(&g, f->png);
    if (!e->kernel_given) {
        push(&g, "-t");
        push(&g, "rbf");
    }
    for (int k = 1; k < e->grid.n; k++) push(&g, e->grid.v[k]);
    push(&g, "-q");
    if (!push(&g, f->scaled)) return cli_usage("easy", "too many options");
    double best[4];
    int rc = grid_run(g.n, g.v, best);
    if (rc != CLI_OK) return rc;
    snprintf(cbuf, 40, "%.17g", best[0]);
    snprintf(gbuf, 40, "%.17g", best[1]);
    pbuf[0] = '\0';
    if (!isnan(best[3])) snprintf(pbuf, 40, "%.17g", best[3]);
    /* easy.py's line (a regression: the CV MSE, LIBLINEAR -C's words; with
     * -log2p, gridregression.py's p after gamma) */
    const char *what = e->reg ? "CV MSE" : "CV rate";
    const double score = e->reg ? best[2] * mse_unit : best[2];
    char ptxt[48] = "";
    if (pbuf[0]) snprintf(ptxt, sizeof ptxt, ", p=%s", pbuf);
    if (e->no_c) printf("Best max_iter=%s, g=%s%s %s=%g\n", cbuf, gbuf, ptxt, what, score);
    else if (strcmp(e->kernel, "linear") == 0) printf("Best c=%s%s %s=%g\n", cbuf, ptxt, what, score);
    else printf("Best c=%s, g=%s%s %s=%g\n", cbuf, gbuf, ptxt, what, score);
    return CLI_OK;
}

/* --------------------------------------------------------------- train */
/* nesvm train on the scaled training data with the best point (pbuf: p, or
 * "" when not searched) into the model.  Fails (printed) as train does, or
 * with too many options. */
static int easy_train(const easy_opts *e, const easy_files *f, const char *cbuf, const char *gbuf,
                      const char *pbuf)
{
    const int lin = strcmp(e->kernel, "linear") == 0;
    argvec t = {{0}, 0};
    push(&t, "train");
    if (!e->kernel_given) {
        push(&t, "-t");
        push(&t, "rbf");
    }
    for (int k = 1; k < e->train.n; k++) push(&t, e->train.v[k]);
    push(&t, e->no_c ? "--max-iter" : "-c");
    push(&t, cbuf);
    if (!lin) {
        push(&t, "-g");
        push(&t, gbuf);
    }
    if (pbuf[0]) {
        push(&t, "-p");
        push(&t, pbuf);
    }
    push(&t, "-q");
    push(&t, f->scaled);
    if (!push(&t, f->model)) return cli_usage("easy", "too many options");
    return cmd_train(t.n, t.v);
}

/* ------------------------------------------------------------- predict */
/* The test's prediction with scaled targets (-y): the model's predictions of
 * TEST.scale mapped back to the original units (sc's labels' map inverted)
 * into TEST.predict, and the mean squared error and squared correlation
 * coefficient against TEST's targets in those units, in svm-predict's words.
 * Fails (printed) on the model, the data, memory, the file. */
static int easy_predict_unscaled(const easy_files *f, const nesvm_scaling *sc)
{
    const char *cmd = "easy";
    nesvm_error err = {0};
    nesvm_model *m = NULL;
    nesvm_dataset *ds = NULL;
    double *pred = NULL, *truth = NULL;
    nesvm_read_options ro;
    nesvm_read_options_init(&ro);
    int rc = CLI_OK;
    if (nesvm_model_load(f->model, &m, &err) != NESVM_OK ||
        nesvm_dataset_read(f->tscaled, &ro, &ds, &err) != NESVM_OK) {
        rc = cli_error(cmd, "%s", err.message);
        goto done;
    }
    const int64_t n = nesvm_dataset_rows(ds);
    pred = malloc(sizeof(double) * (size_t)(n + 1));
    truth = malloc(sizeof(double) * (size_t)(n + 1));
    if (!pred || !truth) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    if (nesvm_model_predict(m, ds, 1, pred, NULL, &err) != NESVM_OK) {
        rc = cli_error(cmd, "%s", err.message);
        goto done;
    }
    const double *scaled = nesvm_dataset_labels(ds);
    for (int64_t i = 0; i < n; i++) {
        pred[i] = nesvm_scaling_unscale_label(sc, pred[i]);
        truth[i] = nesvm_scaling_unscale_label(sc, scaled[i]);
    }
    nv_atomic_file af;
    char buf[32];
    if (nv_atomic_open(&af, f->tpred, &err) != NESVM_OK) {
        rc = cli_error(cmd, "%s", err.message);
        goto done;
    }
    for (int64_t i = 0; i < n; i++) {
        fputs(fmt_num(pred[i], buf), af.fp);
        fputc('\n', af.fp);
    }
    if (nv_atomic_commit(&af, &err) != NESVM_OK) {
        rc = cli_error(cmd, "%s", err.message);
        goto done;
    }
    nesvm_metrics mt;
    nesvm_metrics_compute(NESVM_TASK_REGRESSION, truth, pred, n, &mt, NULL);
    cli_print_scores(stdout, 0, &mt);
done:
    free(pred);
    free(truth);
    nesvm_dataset_destroy(ds);
    nesvm_model_destroy(m);
    return rc;
}

/* 1. TRAIN scaled (its targets too with -y: then their map into *sc, from
 * TRAIN.range).  Fails (printed) as nesvm scale does, or on the range file. */
static int easy_scale(const easy_opts *e, const easy_files *f, const char *tr, nesvm_scaling **sc)
{
    char *sv[] = {"scale", "-l", "-1", "-u", "1", "-s", f->range, "-o", f->scaled, (char *)tr,
                  NULL, NULL, NULL, NULL};
    int sn = 10;
    if (e->ylo) { /* before TRAIN: -y's values are options' */
        sv[9] = "-y";
        sv[10] = (char *)e->ylo;
        sv[11] = (char *)e->yhi;
        sv[12] = (char *)tr;
        sn = 13;
    }
    int rc = cmd_scale(sn, sv);
    if (rc != CLI_OK || !e->ylo) return rc;
    nesvm_error err = {0};
    return nesvm_scaling_load(f->range, sc, &err) == NESVM_OK ? CLI_OK : cli_error("easy", "%s", err.message);
}

int cmd_easy(int argc, char **argv)
{
    const char *cmd = "easy";
    easy_opts e;
    memset(&e, 0, sizeof e);
    snprintf(e.kernel, sizeof e.kernel, "rbf");
    push(&e.grid, "grid");
    push(&e.train, "train");
    int help = 0, rc = easy_options(argc, argv, &e, &help);
    if (rc != CLI_OK || help) return rc;
    if (e.npos == 0) return cli_usage(cmd, "missing TRAIN file");
    const char *tr = e.pos[0], *te = e.pos[1];
    const int quiet = e.quiet, prob = e.prob;
    easy_files f = {local_name(tr, ".scale"), local_name(tr, ".range"), local_name(tr, ".scale.grid.csv"),
                    local_name(tr, ".scale.png"), local_name(tr, ".model"), te ? local_name(te, ".scale") : NULL,
                    te ? local_name(te, ".predict") : NULL};
    char cbuf[40], gbuf[40], pbuf[40];
    nesvm_scaling *sc = NULL;
    if (!f.scaled || !f.range || !f.csv || !f.png || !f.model || (te && (!f.tscaled || !f.tpred))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    /* 1. scale TRAIN */
    if (!quiet) printf("Scaling training data...\n");
    if ((rc = easy_scale(&e, &f, tr, &sc)) != CLI_OK) goto done;
    /* 2. search (a scaled target's MSE is the original's over the map's slope squared) */
    if (!quiet) printf("Cross validation...\n");
    double lo, hi, mn, mx, unit = 1;
    if (nesvm_scaling_labels(sc, &lo, &hi, &mn, &mx)) unit = (mx - mn) / (hi - lo) * ((mx - mn) / (hi - lo));
    if ((rc = easy_search(&e, &f, unit, cbuf, gbuf, pbuf)) != CLI_OK) goto done;
    /* 3. train */
    if (!quiet) printf("Training...\n");
    if ((rc = easy_train(&e, &f, cbuf, gbuf, pbuf)) != CLI_OK) goto done;
    if (!quiet) printf("Output model: %s\n", f.model);
    if (!te) goto done;
    /* 4. scale TEST with TRAIN's ranges (its targets too with -y), predict it */
    if (!quiet) printf("Scaling testing data...\n");
    char *tv[] = {"scale", "-r", f.range, "-o", f.tscaled, (char *)te, NULL};
    if ((rc = cmd_scale(6, tv)) != CLI_OK) goto done;
    if (!quiet) printf("Testing...\n");
    char *pv[] = {"predict", prob ? "-b" : f.tscaled, prob ? "1" : f.model, prob ? f.tscaled : f.tpred,
                  prob ? f.model : NULL, prob ? f.tpred : NULL, NULL};
    rc = sc ? easy_predict_unscaled(&f, sc) : cmd_predict(prob ? 6 : 4, pv);
    if (rc == CLI_OK && !quiet) printf("Output prediction: %s\n", f.tpred);
done:
    nesvm_scaling_destroy(sc);
    free(f.scaled);
    free(f.range);
    free(f.csv);
    free(f.png);
    free(f.model);
    free(f.tscaled);
    free(f.tpred);
    return rc;
}
