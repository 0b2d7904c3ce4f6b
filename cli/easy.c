/* easy.c - `nesvm easy`: LIBSVM's easy.py in one command: scale the training
 * data, search C and gamma (nesvm grid), train with the best point, and scale
 * and predict the test data with the training data's ranges.  Each step is
 * the command of its own name, so its files and messages are that command's. */
#include "cli.h"

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
          "The kernel is RBF unless -t says otherwise. Every option of 'nesvm grid' goes to\n"
          "the search, and those of 'nesvm train' to the training as well; -b 1 also makes\n"
          "the prediction print probabilities.\n\n"
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

int cmd_easy(int argc, char **argv)
{
    const char *cmd = "easy";
    const char *pos[3] = {NULL, NULL, NULL};
    int npos = 0, quiet = 0, kernel_given = 0, r;
    /* the options for grid (all) and for train (all but grid's own), as given */
    argvec grid = {{0}, 0}, train = {{0}, 0};
    push(&grid, "grid");
    push(&train, "train");
    train_opts o;
    if (train_opts_init(&o, cmd) != CLI_OK) return CLI_ERROR;
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *p;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (npos == 2) {
                train_opts_free(&o);
                return cli_usage(cmd, "too many arguments ('%s')", p);
            }
            pos[npos++] = p;
            continue;
        }
        const int start = a.i - 1;
        int grid_only = 0, h = 1;
        if (strcmp(a.name, "h") == 0 && cli_h_is_shrinking(&a)) {
            h = train_opt_shrinking(&a, &o);
        } else if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            train_opts_free(&o);
            return CLI_OK;
        } else if (strcmp(a.name, "out") == 0 || strcmp(a.name, "png") == 0) {
            train_opts_free(&o);
            return cli_usage(cmd, "easy names its files after TRAIN (TRAIN.scale.grid.csv, TRAIN.scale.png): "
                                  "'%s' is nesvm grid's", argv[start]);
        } else if (strcmp(a.name, "log2c") == 0 || strcmp(a.name, "log2g") == 0 || strcmp(a.name, "log2n") == 0 ||
                   strcmp(a.name, "v") == 0) {
            grid_only = 1;
            const char *v = cli_value(&a);
            h = v && grid_check_value(cmd, a.name, v) == CLI_OK ? 1 : -1;
        } else if (strcmp(a.name, "cold") == 0) {
            grid_only = 1;
        } else {
            const nv_param_def *d = cli_param(a.name);
            if (d && strcmp(d->name, "kernel") == 0) kernel_given = 1;
            h = train_opt(&a, &o);
        }
        if (h <= 0) {
            train_opts_free(&o);
            return h == 0 ? cli_usage(cmd, "unknown option '%s'", argv[start]) : CLI_USAGE;
        }
        for (int k = start; k < a.i; k++)
            if (!push(&grid, argv[k]) || (!grid_only && !push(&train, argv[k]))) {
                train_opts_free(&o);
                return cli_usage(cmd, "too many options");
            }
    }
    quiet = o.quiet;
    char kernel[16] = "rbf", probability[8];
    /* a solver without a C (gs): grid searched its number of basis functions */
    const int gs = !cli_params_solver(o.params).has_c;
    nesvm_params_get(o.params, "probability", probability, sizeof probability, NULL);
    if (kernel_given) nesvm_params_get(o.params, "kernel", kernel, sizeof kernel, NULL);
    train_opts_free(&o);
    const int prob = strcmp(probability, "1") == 0;
    if (npos == 0) return cli_usage(cmd, "missing TRAIN file");
    const char *tr = pos[0], *te = pos[1];
    char *scaled = local_name(tr, ".scale"), *range = local_name(tr, ".range"), *csv = local_name(tr, ".scale.grid.csv"),
         *png = local_name(tr, ".scale.png"), *model = local_name(tr, ".model"),
         *tscaled = te ? local_name(te, ".scale") : NULL, *tpred = te ? local_name(te, ".predict") : NULL;
    int rc = CLI_OK;
    char cbuf[40], gbuf[40];
    if (!scaled || !range || !csv || !png || !model || (te && (!tscaled || !tpred))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    if (!quiet) printf("Scaling training data...\n");
    {
        char *sv[] = {"scale", "-l", "-1", "-u", "1", "-s", range, "-o", scaled, (char *)tr, NULL};
        rc = cmd_scale(10, sv);
    }
    if (rc != CLI_OK) goto done;
    if (!quiet) printf("Cross validation...\n");
    /* easy's files and kernel first: the user's options come after and win */
    argvec g = {{0}, 0};
    push(&g, "grid");
    push(&g, "--out");
    push(&g, csv);
    push(&g, "--png");
    push(&g, png);
    if (!kernel_given) {
        push(&g, "-t");
        push(&g, "rbf");
    }
    for (int k = 1; k < grid.n; k++) push(&g, grid.v[k]);
    push(&g, "-q");
    if (!push(&g, scaled)) {
        rc = cli_usage(cmd, "too many options");
        goto done;
    }
    double best[3];
    rc = grid_run(g.n, g.v, best);
    if (rc != CLI_OK) goto done;
    const int lin = strcmp(kernel, "linear") == 0;
    snprintf(cbuf, sizeof cbuf, "%.17g", best[0]);
    snprintf(gbuf, sizeof gbuf, "%.17g", best[1]);
    /* easy.py's line */
    if (gs) printf("Best max_iter=%s, g=%s CV rate=%g\n", cbuf, gbuf, best[2]);
    else if (lin) printf("Best c=%s CV rate=%g\n", cbuf, best[2]);
    else printf("Best c=%s, g=%s CV rate=%g\n", cbuf, gbuf, best[2]);
    if (!quiet) printf("Training...\n");
    argvec t = {{0}, 0};
    push(&t, "train");
    if (!kernel_given) {
        push(&t, "-t");
        push(&t, "rbf");
    }
    for (int k = 1; k < train.n; k++) push(&t, train.v[k]);
    push(&t, gs ? "--max-iter" : "-c");
    push(&t, cbuf);
    if (!lin) {
        push(&t, "-g");
        push(&t, gbuf);
    }
    push(&t, "-q");
    push(&t, scaled);
    if (!push(&t, model)) {
        rc = cli_usage(cmd, "too many options");
        goto done;
    }
    rc = cmd_train(t.n, t.v);
    if (rc != CLI_OK) goto done;
    if (!quiet) printf("Output model: %s\n", model);
    if (!te) goto done;
    if (!quiet) printf("Scaling testing data...\n");
    {
        char *sv[] = {"scale", "-r", range, "-o", tscaled, (char *)te, NULL};
        rc = cmd_scale(6, sv);
    }
    if (rc != CLI_OK) goto done;
    if (!quiet) printf("Testing...\n");
    {
        char *pv[] = {"predict", prob ? "-b" : tscaled, prob ? "1" : model, prob ? tscaled : tpred, prob ? model : NULL,
                      prob ? tpred : NULL, NULL};
        rc = cmd_predict(prob ? 6 : 4, pv);
    }
    if (rc == CLI_OK && !quiet) printf("Output prediction: %s\n", tpred);
done:
    free(scaled);
    free(range);
    free(csv);
    free(png);
    free(model);
    free(tscaled);
    free(tpred);
    return rc;
}
