/* grid.c - `nesvm grid`: LIBSVM grid.py's search over log2 C and log2 gamma by
 * K-fold cross-validation (stratified for a classification), scored by the
 * task's metric (accuracy, or a regression's mean squared error; the
 * one-class SVM searches log2 nu in place of C), with a CSV
 * of every point that a rerun of the same search resumes (grid_csv.c), and an
 * optional heat map. */
#include "grid_csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm grid [options] DATA\n"
          "Search C and gamma as LIBSVM's grid.py does: every point of a grid of log2 C and\n"
          "log2 gamma is scored by stratified K-fold cross-validation (nesvm cv's folds:\n"
          "the same folds at every point), and the best is printed as 'C gamma accuracy'.\n"
          "A regression (--svm-type ls-svr) is scored by the cross-validation mean squared\n"
          "error (unstratified folds, as svm-train -v): the best is the smallest, printed\n"
          "as 'C gamma mse', and the CSV's last column is 'mse'. Epsilon-SVR (--svm-type\n"
          "svr, -s 3) is scored likewise, and -log2p searches its p as well.\n"
          "The one-class SVM (-s 2) and nu-SVC (-s 1) have no C: they search log2 nu\n"
          "(-log2nu) and gamma, printed as 'nu gamma accuracy' (one-class: the accuracy\n"
          "against DATA's labels, as svm-train -s 2 -v, +1 the inliers; 'nesvm cv' also\n"
          "gives a point's ROC AUC; nu-SVC: a nu infeasible on some fold's training rows\n"
          "or one without a classifier there (w = 0) has accuracy nan). nu-SVR (-s 4)\n"
          "searches C and gamma with nu fixed at -n, and -log2nu searches nu as well, as\n"
          "-log2p does epsilon-SVR's p (the last line 'C gamma nu mse').\n"
          "With the linear and precomputed kernels only C is searched. Along C each fold\n"
          "starts from its solution at the previous C (warm starts); with --threads N, N\n"
          "folds train at once.\n"
          "--solver gs has no C: it searches gamma and its number of basis functions\n"
          "(--max-iter, its early stopping) instead. Every gamma's points go to a CSV when\n"
          "they are scored; rerunning the same search (the same data, by a fingerprint of\n"
          "its values, and the same options) resumes from it. Takes every option of\n"
          "'nesvm train'.\n\n"
          "  -log2c BEGIN,END,STEP  log2 C from BEGIN to END by STEP (default -5,15,2);\n"
          "                       'null': no search over C (-c is used)\n"
          "  -log2g BEGIN,END,STEP  log2 gamma (default 3,-15,-2); 'null': no search (-g)\n"
          "  -log2n BEGIN,END,STEP  gs: log2 of the number of basis functions (default 4 to\n"
          "                       log2 of the training rows, by 1); 'null': --max-iter\n"
          "  -log2nu BEGIN,END,STEP  one-class and nu-SVC: log2 nu (default -7,0,1: nu\n"
          "                       from 1/128 to 1; every value <= 0); 'null': -n;\n"
          "                       nu-SVR: its third axis (default null: nu fixed at -n)\n"
          "  -log2p BEGIN,END,STEP  svr (-s 3): log2 of the tube's half-width p (-p), as\n"
          "                       LIBSVM's gridregression.py (default null: p fixed at -p;\n"
          "                       gridregression.py's -8,-1,1 makes the grid 8 times\n"
          "                       larger); each (gamma, p) pair is one warm-started C path,\n"
          "                       the CSV has the columns log2p and p, and the last line\n"
          "                       is 'C gamma p mse'\n"
          "  --cold               every point from zero, as grid.py (no warm starts)\n"
          "  --distributed        share each point's folds out over the processes of mpirun\n"
          "                       (MPI builds); rank 0 writes the CSV; the same results\n"
          "  -v K                 folds (default 5)\n"
          "  --out FILE           the CSV (default: DATA's file name + '.grid.csv', in the\n"
          "                       current folder); one of another search is overwritten,\n"
          "                       with a warning\n"
          "  --png FILE           a heat map of the accuracy (or mean squared error) over\n"
          "                       the grid (matplotlib, /usr/bin/python3); with -log2p,\n"
          "                       over C and gamma at the best point's p\n"
          "  -h, --help           this help\n\n",
          f);
    train_opts_help(f);
}

typedef struct range {
    int on;
    double begin, end, step;
} range;

static int parse_range(const char *v, range *r)
{
    if (strcmp(v, "null") == 0) {
        r->on = 0;
        return 1;
    }
    char buf[128];
    snprintf(buf, sizeof buf, "%s", v);
    char *a = buf, *b = strchr(a, ','), *c;
    if (!b) return 0;
    *b++ = '\0';
    c = strchr(b, ',');
    if (!c) return 0;
    *c++ = '\0';
    if (!cli_parse_double(a, &r->begin) || !cli_parse_double(b, &r->end) || !cli_parse_double(c, &r->step))
        return 0;
    if (r->step == 0 || (r->end - r->begin) / r->step < 0 || (r->end - r->begin) / r->step > 1000) return 0;
    r->on = 1;
    return 1;
}

/* The values of a range (one value, `fixed`, when it is off). */
static int range_values(const range *r, double fixed, double *out, int cap)
{
    if (!r->on) {
        out[0] = fixed;
        return 1;
    }
    int n = 0;
    for (int i = 0; n < cap; i++) {
        double v = r->begin + i * r->step;
        if ((r->step > 0 && v > r->end + 1e-9 * fabs(r->step)) || (r->step < 0 && v < r->end - 1e-9 * fabs(r->step)))
            break;
        out[n++] = v;
    }
    return n;
}

/* The search's settings: every parameter but the searched ones (the axis,
 * gamma, and the third axis's when it is searched: third, else NULL) and
 * threads, in table order, and the class weights (-wLABEL). */
static void settings(const nesvm_params *p, int folds, long long seed, int warm, const char *axis,
                     const char *third, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "# settings folds=%d seed=%lld warm=%d", folds, seed, warm);
    char v[64], l[32], w[32];
    int count;
    const nv_param_def *t = nv_param_table(&count);
    for (int i = 0; i < count && len < size; i++) {
        const char *n = t[i].name;
        if (strcmp(n, axis) == 0 || strcmp(n, "gamma") == 0 || strcmp(n, "threads") == 0 ||
            (third && strcmp(n, third) == 0))
            continue;
        nesvm_params_get(p, n, v, sizeof v, NULL);
        len += (size_t)snprintf(out + len, size - len, " %s=%s", n, v);
    }
    double label, weight;
    for (int k = 0; k < nesvm_params_class_weight(p, k, &label, &weight) && len < size; k++)
        len += (size_t)snprintf(out + len, size - len, " w%s=%s", fmt_num(label, l), fmt_num(weight, w));
}


/* The heat map of the CSV's scores (its header's last column: accuracy, or a
 * regression's mse, drawn reversed so that the best is bright in both); with
 * the column log2p, the points at log2 p = lp (the best point's), said in the
 * title. */
static int plot(const char *cmd, const char *csv, const char *png, const char *lp)
{
    static const char *const script =
        "import sys, csv\n"
        "import matplotlib; matplotlib.use('Agg')\n"
        "import matplotlib.pyplot as plt\n"
        "rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith('#'))]\n"
        "xname, metric, title = rows[0][0], rows[0][-1], sys.argv[3]\n"
        "if rows[0][2] in ('log2p', 'log2nu'):\n"
        "    t = rows[0][2][4:]\n"
        "    title += ' at log2 %s = %g (the best %s)' % (t, float(sys.argv[4]), t)\n"
        "    rows = [r for r in rows if r is rows[0] or abs(float(r[2]) - float(sys.argv[4])) < 1e-9]\n"
        "rows = rows[1:]\n"
        "lc = sorted({float(r[0]) for r in rows}); lg = sorted({float(r[1]) for r in rows})\n"
        "acc = {(float(r[0]), float(r[1])): float(r[-1]) for r in rows}\n"
        "Z = [[acc.get((c, g), float('nan')) for c in lc] for g in lg]\n"
        "fig, ax = plt.subplots(figsize=(6, 4.5))\n"
        "hc = (lc[-1] - lc[0]) / (len(lc) - 1) / 2 if len(lc) > 1 else .5\n"
        "hg = (lg[-1] - lg[0]) / (len(lg) - 1) / 2 if len(lg) > 1 else .5\n"
        "cmap = 'viridis_r' if metric == 'mse' else 'viridis'\n"
        "im = ax.imshow(Z, origin='lower', aspect='auto', cmap=cmap,\n"
        "               extent=[lc[0] - hc, lc[-1] + hc, lg[0] - hg, lg[-1] + hg])\n"
        "fig.colorbar(im, ax=ax, label='cross-validation mean squared error (lower is better)'\n"
        "             if metric == 'mse' else 'cross-validation accuracy (%)')\n"
        "ax.set_xlabel({'log2c': 'log2 C', 'log2nu': 'log2 nu'}.get(xname, 'log2 basis functions (max_iter)'))\n"
        "ax.set_ylabel('log2 gamma'); ax.set_title(title)\n"
        "fig.tight_layout(); fig.savefig(sys.argv[2], dpi=100)\n";
    pid_t pid = fork();
    if (pid < 0) return cli_error(cmd, "cannot start /usr/bin/python3 for --png: %s", strerror(errno));
    if (pid == 0) {
        /* matplotlib's traceback is not shown: the message below says what failed */
        FILE *null = freopen("/dev/null", "w", stderr);
        (void)null;
        execl("/usr/bin/python3", "python3", "-c", script, csv, png, "nesvm grid", lp, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return cli_error(cmd, "--png %s: /usr/bin/python3 with matplotlib did not draw it (exit %d: a folder that "
                              "does not exist or cannot be written, or no python3-matplotlib)",
                         png, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return CLI_OK;
}

/* The value of -log2c, -log2g, -log2n, -log2p or -v into its range (r: C,
 * gamma, n, p) or the folds; CLI_USAGE after printing why not. */
static int grid_value(const char *cmd, const char *name, const char *v, range r[5], int *folds)
{
    if (strcmp(name, "v") == 0) {
        long long k;
        if (!cli_parse_int(v, &k) || k < 2 || k > 1000000)
            return cli_usage(cmd, "bad value '%s' for -v (expected an integer >= 2)", v);
        *folds = (int)k;
        return CLI_OK;
    }
    range *t = &r[strcmp(name, "log2nu") == 0 ? 4
                  : name[4] == 'c'           ? 0
                  : name[4] == 'g'           ? 1
                  : name[4] == 'n'           ? 2
                                             : 3],
          *rn = &r[2];
    if (!parse_range(v, t))
        return cli_usage(cmd, "bad value '%s' for -%s (expected BEGIN,END,STEP with STEP towards END, "
                              "at most 1000 steps, or null)", v, name);
    if (t == rn && rn->on && (rn->begin < 0 || rn->end < 0 || rn->begin > 40 || rn->end > 40))
        return cli_usage(cmd, "bad value '%s' for -log2n (log2 of a number of basis functions: 0 to 40)", v);
    if (t == &r[4] && t->on && (t->begin > 0 || t->end > 0 || t->begin < -50 || t->end < -50))
        return cli_usage(cmd, "bad value '%s' for -log2nu (log2 of nu in (0, 1]: -50 to 0)", v);
    return CLI_OK;
}

int grid_check_value(const char *cmd, const char *name, const char *value, int *on)
{
    range r[5] = {{0, 0, 0, 0}};
    int folds, rc = grid_value(cmd, name, value, r, &folds);
    if (on && rc == CLI_OK) *on = r[0].on || r[1].on || r[2].on || r[3].on || r[4].on; /* the one set */
    return rc;
}

int grid_check_p(const char *cmd, const nesvm_params *params)
{
    char type[16];
    nesvm_params_get(params, "svm_type", type, sizeof type, NULL);
    if (strcmp(type, "svr") == 0) return CLI_OK;
    return cli_usage(cmd,
                     "-log2p searches epsilon-SVR's tube half-width (-p): it needs --svm-type svr (or -s 3), "
                     "not svm_type %s",
                     type);
}

/* One search (grid_run's state): the options, the data, the grid, the
 * scores and the CSV. */
typedef struct grid_search {
    const char *cmd;
    train_opts o;
    const char *data, *out, *png;
    range r[5];       /* -log2c, -log2g, -log2n, -log2p, -log2nu */
    range *rg, *rp;   /* gamma's and the third axis's: &r[1], and &r[3] (epsilon-SVR's p) or
                       * &r[4] (nu-SVR's nu) */
    const char *tp, *tn, *tc; /* the third axis: its parameter ("epsilon", "svm_nu"), option
                               * ("log2p", "log2nu") and column ("p", "nu") */
    range *ra;        /* the first axis's: rc, rn for a solver without C, rnu for one-class */
    int folds, rn_given, rnu_given, warm, no_c, root; /* no_c: no C (gs: max_iter; one-class: svm_nu) */
    int nu_svc;       /* nu-SVC: a nu infeasible on a fold scores NaN (nan in the CSV) */
    const char *axis, *an; /* the first axis: "c" and "log2c", "max_iter" and "log2n", or
                            * "svm_nu" and "log2nu" */
    char *csv_default;
    nesvm_dataset *ds;
    long long rows;
    double a0, g0, p0;           /* the axis's, gamma's and p's values when not searched */
    double as[1001], gv[1001], pv[1001]; /* log2 of the axis's, gamma's and p's values */
    int na, ng, np, nq;          /* the values of each; nq = ng np (gamma, p) pairs, each one path */
    int n, resumed;              /* n = na nq points (point i nq + q: value i of the axis, pair q =
                                    jg np + jp), resumed of them from the CSV */
    int reg;                     /* a regression: scored by the mean squared error (lower is better) */
    double *score, *vals;        /* per point: accuracy (%), or MSE; a path's values */
    nesvm_metrics *pm;           /* a path's figures */
    unsigned char *have;         /* per point: scored (here or in the CSV) */
    int *idx;                    /* the path's order: the axis's values ascending */
    grid_csv csv;
    char sets[8192], header[80];
    int best;                    /* the best point so far (-1: none) */
    long long iters, trained;
    struct timespec t0;
} grid_search;

/* ------------------------------------------------------------ options */
/* Read argv into s (train's options into s->o).  *help: -h/--help printed.
 * Fails (CLI_USAGE, printed) on an unknown option, a bad value, a second DATA. */
static int grid_options(grid_search *s, int argc, char **argv, int *help)
{
    const char *cmd = s->cmd, *p, *v;
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    int r;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (s->data) return cli_usage(cmd, "too many arguments ('%s')", p);
            s->data = p;
            continue;
        }
        if (strcmp(a.name, "h") == 0 && cli_h_is_shrinking(&a)) {
            if (train_opt_shrinking(&a, &s->o) < 0) return CLI_USAGE;
            continue;
        }
        if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            *help = 1;
            return CLI_OK;
        }
        if (strcmp(a.name, "log2c") == 0 || strcmp(a.name, "log2g") == 0 || strcmp(a.name, "log2n") == 0 ||
            strcmp(a.name, "log2p") == 0 || strcmp(a.name, "log2nu") == 0 || strcmp(a.name, "v") == 0) {
            if (!(v = cli_value(&a)) || grid_value(cmd, a.name, v, s->r, &s->folds) != CLI_OK)
                return CLI_USAGE;
            s->rn_given |= strcmp(a.name, "log2n") == 0;
            s->rnu_given |= strcmp(a.name, "log2nu") == 0;
            continue;
        }
        if (strcmp(a.name, "cold") == 0) {
            s->warm = 0;
            continue;
        }
        if (strcmp(a.name, "distributed") == 0) {
            s->o.distributed = 1;
            continue;
        }
        if (strcmp(a.name, "out") == 0 || strcmp(a.name, "png") == 0) {
            if (!(v = cli_value(&a))) return CLI_USAGE;
            if (a.name[0] == 'o') s->out = v;
            else s->png = v;
            continue;
        }
        int h = train_opt(&a, &s->o);
        if (h <= 0) return h == 0 ? cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]) : CLI_USAGE;
    }
    return CLI_OK;
}

/* --------------------------------------------------------------- plan */
/* The axes (the solver's C, or its basis functions when it has none; no gamma
 * for the linear kernel), the CSV's path, MPI.  Fails (printed) without DATA,
 * with nothing to search, with --out -, or when --distributed cannot start. */
static int grid_plan(grid_search *s)
{
    const char *cmd = s->cmd;
    if (!s->data) return cli_usage(cmd, "missing DATA file");
    char kernel[16];
    nesvm_params_get(s->o.params, "kernel", kernel, sizeof kernel, NULL);
    /* a solver without a C (gs): its number of basis functions (max_iter)
     * instead; the one-class SVM and nu-SVC: their nu; nu-SVR: C, with nu
     * as the third axis (epsilon-SVR's is p) */
    char type[16];
    nesvm_params_get(s->o.params, "svm_type", type, sizeof type, NULL);
    const int nu = nesvm_params_task(s->o.params) == NESVM_TASK_NOVELTY || strcmp(type, "nu-svc") == 0;
    const int nusvr = strcmp(type, "nu-svr") == 0;
    s->nu_svc = strcmp(type, "nu-svc") == 0;
    const int no_c = s->no_c = nu || !cli_params_solver(s->o.params).has_c;
    s->axis = nu ? "svm_nu" : no_c ? "max_iter" : "c";
    s->an = nu ? "log2nu" : no_c ? "log2n" : "log2c";
    s->ra = nu ? &s->r[4] : no_c ? &s->r[2] : &s->r[0];
    if (!nu && !nusvr && s->rnu_given)
        return cli_usage(cmd, "-log2nu searches nu: it needs --svm-type one-class, nu-svc or nu-svr (-s 2, 1 or "
                              "4), not svm_type %s",
                         type);
    if (s->rp->on && grid_check_p(cmd, s->o.params) != CLI_OK) return CLI_USAGE;
    if (nusvr) { /* nu the third axis, searched only when -log2nu is given */
        s->rp = &s->r[4];
        s->rp->on = s->rnu_given && s->rp->on;
        s->tp = "svm_nu", s->tn = "log2nu", s->tc = "nu";
    }
    /* (the linear and precomputed kernels have no gamma) */
    const int no_g = strcmp(kernel, "linear") == 0 || strcmp(kernel, "precomputed") == 0;
    if (no_g) s->rg->on = 0;
    char why[80];
    snprintf(why, sizeof why, "the %s kernel has no gamma and -%s is null", kernel, s->an);
    char both[64];
    snprintf(both, sizeof both, "-%s and -log2g are null", s->an);
    if (!s->ra->on && !s->rg->on && !s->rp->on) return cli_usage(cmd, "nothing to search: %s", !no_g ? both : why);
    if (!s->out) {
        const char *base = strrchr(s->data, '/');
        base = base ? base + 1 : s->data;
        size_t len = strlen(base) + 10;
        s->csv_default = malloc(len);
        if (!s->csv_default) return cli_error(cmd, "out of memory");
        snprintf(s->csv_default, len, "%s.grid.csv", base);
        s->out = s->csv_default;
    }
    if (strcmp(s->out, "-") == 0) /* read back to resume */
        return cli_usage(cmd, "--out needs a file, not standard output: the CSV is read back to resume "
                              "the search");
    s->csv.path = s->out;
    int status = CLI_OK;
    if (s->o.distributed && (status = check_distributed(cmd, &s->o, s->data)) == CLI_OK && !s->o.mpi)
        status = cli_mpi_begin(cmd, &s->o);
    return status;
}

/* --------------------------------------------------------------- data */
/* Read DATA (distributed: every process reads it all and trains its share of
 * each point's folds; rank 0 reads and writes the CSV), the grid's values,
 * the settings line, the arrays.  Fails (printed) on the data or memory. */
static int grid_read(grid_search *s)
{
    const char *cmd = s->cmd;
    s->root = cli_mpi_rank(&s->o) == 0;
    cli_warn_ignored(cmd, s->o.params);
    cli_blas_threads(s->o.read.threads, s->folds);
    nesvm_error err = {0};
    s->o.read.precomputed = cli_read_precomputed(s->o.params);
    nesvm_status rst = nesvm_dataset_read(s->data, &s->o.read, &s->ds, &err);
    if (s->o.distributed) rst = cli_mpi_agree(&s->o, rst, &err);
    if (rst != NESVM_OK) return cli_error(cmd, "%s", err.message);
    s->rows = (long long)nesvm_dataset_rows(s->ds);
    if (s->ra == &s->r[2] && !s->rn_given) /* up to every training row of a fold: GS-SVM has converged by then */
        s->r[2].end = fmax(s->r[2].begin, ceil(log2((double)s->rows * (s->folds - 1) / s->folds)));
    char cur[64];
    nesvm_params_get(s->o.params, s->axis, cur, sizeof cur, NULL);
    cli_parse_double(cur, &s->a0);
    nesvm_params_get(s->o.params, "gamma", cur, sizeof cur, NULL);
    cli_parse_double(cur, &s->g0);
    nesvm_params_get(s->o.params, s->tp, cur, sizeof cur, NULL);
    cli_parse_double(cur, &s->p0);
    s->na = range_values(s->ra, s->a0 > 0 ? log2(s->a0) : 0, s->as, 1001);
    s->ng = range_values(s->rg, s->g0 > 0 ? log2(s->g0) : 0, s->gv, 1001);
    s->np = range_values(s->rp, s->p0 > 0 ? log2(s->p0) : 0, s->pv, 1001);
    s->nq = s->ng * s->np;
    settings(s->o.params, s->folds, s->o.seed, s->warm, s->axis, s->rp->on ? s->tp : NULL, s->sets,
             sizeof s->sets);
    s->reg = nesvm_params_task(s->o.params) == NESVM_TASK_REGRESSION;
    const char *metric = s->reg ? "mse" : "accuracy";
    if (s->rp->on)
        snprintf(s->header, sizeof s->header, "%s,log2g,%s,%s,gamma,%s,%s", s->an, s->tn, s->axis, s->tc, metric);
    else
        snprintf(s->header, sizeof s->header, "%s,log2g,%s,gamma,%s", s->an, s->axis, metric);
    s->n = s->na * s->nq;
    s->score = malloc(sizeof(double) * (size_t)s->n);
    s->have = calloc((size_t)s->n, 1);
    s->vals = malloc(sizeof(double) * (size_t)s->na);
    s->pm = malloc(sizeof(nesvm_metrics) * (size_t)s->na);
    s->idx = malloc(sizeof(int) * (size_t)s->na);
    if (!s->score || !s->have || !s->vals || !s->pm || !s->idx) return cli_error(cmd, "out of memory");
    return CLI_OK;
}

/* ------------------------------------------------------------- resume */
/* The CSV's first lines (the data by its fingerprint, the settings, the
 * header) and the points of a CSV written by the same search; the CSV saved
 * once now, so that a path that cannot be written is found before the
 * search.  Distributed: rank 0's verdict and points to every process.
 * Fails (printed) on a damaged CSV, an unwritable path, memory, MPI. */
static int grid_resume(grid_search *s)
{
    const char *cmd = s->cmd;
    int status = CLI_OK;
    if (s->root) {
        char data_line[512];
        const uint64_t hash = nv_dataset_hash(s->ds, NULL, s->rows);
        const int features = (int)nesvm_dataset_features(s->ds);
        snprintf(data_line, sizeof data_line,
                 "# nesvm grid 2 rows=%lld features=%d fingerprint=%016llx data=%.300s", s->rows, features,
                 (unsigned long long)hash, s->data);
        const grid_id id = {s->rows, features, hash, s->sets, s->header, s->reg, s->rp->on, s->tc, s->nu_svc};
        const grid_have g = {s->as, s->gv, s->rp->on ? s->pv : NULL, s->na, s->ng, s->np, s->have, s->score,
                             &s->resumed};
        grid_csv *csv = &s->csv;
        struct stat st;
        if (!grid_csv_add(csv, data_line, strlen(data_line)) || !grid_csv_add(csv, "\n", 1) ||
            !grid_csv_add(csv, s->sets, strlen(s->sets)) || !grid_csv_add(csv, "\n", 1) ||
            !grid_csv_add(csv, s->header, strlen(s->header)) || !grid_csv_add(csv, "\n", 1))
            status = cli_error(cmd, "out of memory");
        else if (stat(s->out, &st) == 0 && S_ISREG(st.st_mode)) /* not a device or FIFO */
            status = grid_csv_resume(cmd, csv, &id, &g);
        /* a path that cannot be written is found now, not after the search */
        if (status == CLI_OK) status = grid_csv_save(cmd, csv);
    }
    if (s->o.distributed) {
        /* rank 0's verdict and resumed points to every process */
        status = cli_mpi_bcast_rc(&s->o, status);
        if (status == CLI_OK && (cli_mpi_bcast(&s->o, s->have, (size_t)s->n) != CLI_OK ||
                                 cli_mpi_bcast(&s->o, s->score, sizeof(double) * (size_t)s->n) != CLI_OK ||
                                 cli_mpi_bcast(&s->o, &s->resumed, sizeof s->resumed) != CLI_OK))
            status = cli_error(cmd, "--distributed: MPI broadcast failed");
    }
    if (status != CLI_OK) return status;
    if (!s->o.quiet && s->resumed) printf("resumed %d of %d points from %s\n", s->resumed, s->n, s->out);
    return CLI_OK;
}

/* ------------------------------------------------------------- search */
/* Where pair q is ("log2g G", "log2p P", both, or "" when neither is
 * searched), into out. */
static void pair_text(const grid_search *s, int q, char *out, size_t size)
{
    out[0] = '\0';
    if (s->rg->on) snprintf(out, size, "log2g %g", s->gv[q / s->np]);
    size_t len = strlen(out);
    if (s->rp->on) snprintf(out + len, size - len, "%s%s %g", len ? " " : "", s->tn, s->pv[q % s->np]);
}

/* Score pair q's points (gamma q / np, p q % np) the CSV did not have: the
 * first axis's values as one path (each fold warm-starts from the smaller
 * value), each new point added to the CSV in the order of the axis, which is
 * then saved (an interrupted search resumes from there).  Fails (printed) on
 * a training, memory, the CSV. */
static int grid_score_pair(grid_search *s, int q)
{
    const char *cmd = s->cmd;
    const int na = s->na, nq = s->nq, jg = q / s->np, jp = q % s->np;
    int status = CLI_OK;
    nesvm_error err = {0};
    char gtxt[40], ptxt[40], where[80];
    snprintf(gtxt, sizeof gtxt, "%.17g", exp2(s->gv[jg]));
    snprintf(ptxt, sizeof ptxt, "%.17g", exp2(s->pv[jp]));
    if (s->rg->on) nesvm_params_set(s->o.params, "gamma", gtxt, NULL);
    if (s->rp->on) nesvm_params_set(s->o.params, s->tp, ptxt, NULL);
    int64_t it[1001];
    /* the task's figures along the path (distributed: the folds shared out) */
    const void *comm = s->o.distributed ? cli_mpi_comm(&s->o) : NULL;
    if (nesvm_cross_validate_path_metrics(s->ds, s->o.params, s->folds, (uint64_t)s->o.seed, s->axis, s->vals,
                                          na, s->warm, comm, NULL, NULL, s->pm, it, &err) != NESVM_OK) {
        pair_text(s, q, where, sizeof where);
        return where[0] ? cli_error(cmd, "%s: %s", where, err.message) : cli_error(cmd, "%s", err.message);
    }
    for (int i = 0; i < na; i++) {
        s->iters += it[i];
        s->trained += it[i] > 0;
    }
    /* the pair's new points, in the order of -log2c */
    for (int i = 0; i < na; i++) {
        int k = i * nq + q;
        if (s->have[k]) continue;
        int pos = 0;
        while (s->idx[pos] != i) pos++;
        s->score[k] = s->reg ? s->pm[pos].mse : 100.0 * s->pm[pos].accuracy;
        char atxt[40];
        snprintf(atxt, sizeof atxt, "%.17g", exp2(s->as[i]));
        char pt[240];
        const char *a = s->ra->on ? atxt : "", *g = s->rg->on ? gtxt : "";
        int len = s->rp->on ? snprintf(pt, sizeof pt, "%.17g,%.17g,%.17g,%s,%s,%s,%.17g\n", s->as[i],
                                       s->gv[jg], s->pv[jp], a, g, ptxt, s->score[k])
                            : snprintf(pt, sizeof pt, "%.17g,%.17g,%s,%s,%.17g\n", s->as[i], s->gv[jg], a, g,
                                       s->score[k]);
        if (s->root && status == CLI_OK && !grid_csv_add(&s->csv, pt, (size_t)len))
            status = cli_error(cmd, "out of memory");
    }
    for (int i = 0; i < na; i++) s->have[i * nq + q] = 1;
    /* the CSV after every pair: an interrupted search resumes from there */
    if (s->root && status == CLI_OK) status = grid_csv_save(cmd, &s->csv);
    if (s->o.distributed) status = cli_mpi_bcast_rc(&s->o, status);
    return status;
}

/* Point k's score is better than point b's: a higher accuracy, or a smaller
 * mean squared error (a regression; a number is better than NaN). */
static int grid_better(const grid_search *s, int k, int b)
{
    const double x = s->score[k], y = s->score[b];
    return (s->reg ? x < y : x > y) || (isnan(y) && !isnan(x)); /* (NaN: nu-SVC's infeasible nu) */
}

/* Pair q's points into the best one (grid.py's choice: the best rate, or the
 * smallest mean squared error; among equal scores at one pair of gamma and
 * p, the smallest C; across pairs, the first met), each printed with the
 * best so far. */
static void grid_note_pair(grid_search *s, int q)
{
    const int nq = s->nq;
    int best = s->best;
    for (int i = 0; i < s->na; i++) {
        int k = i * nq + q;
        if (best < 0 || grid_better(s, k, best) ||
            (s->score[k] == s->score[best] && k % nq == best % nq && s->as[i] < s->as[best / nq]))
            best = k;
        if (!s->o.quiet) {
            char at[128] = "", bt[128] = "", qt[80];
            if (s->ra->on) {
                snprintf(at, sizeof at, "%s %g", s->an, s->as[i]);
                snprintf(bt, sizeof bt, "%s %g", s->an, s->as[best / nq]);
            }
            size_t la = strlen(at), lb = strlen(bt);
            pair_text(s, q, qt, sizeof qt);
            if (qt[0]) snprintf(at + la, sizeof at - la, "%s%s", la ? " " : "", qt);
            pair_text(s, best % nq, qt, sizeof qt);
            if (qt[0]) snprintf(bt + lb, sizeof bt - lb, "%s%s", lb ? " " : "", qt);
            if (s->reg) /* svm-train -v's words */
                printf("%s: Cross Validation Mean squared error = %g (best: %s, %g)\n", at, s->score[k], bt,
                       s->score[best]);
            else if (isnan(s->score[k])) /* not trained: nesvm train refuses such a nu */
                printf("%s: no model on a fold's training rows: nu infeasible, or w = 0 (best: %s, %g%%)\n", at, bt,
                       s->score[best]);
            else
                printf("%s: %g%% (best: %s, %g%%)\n", at, s->score[k], bt, s->score[best]);
        }
    }
    s->best = best;
}

/* Every pair of gamma and p in turn (p the inner loop): its missing points
 * scored, its points noted.  Fails (printed) as grid_score_pair. */
static int grid_points(grid_search *s)
{
    const int na = s->na;
    /* the path in ascending order: each fold warm-starts from the smaller C */
    for (int i = 0; i < na; i++) s->idx[i] = i;
    for (int i = 1; i < na; i++)
        for (int t = i; t > 0 && s->as[s->idx[t]] < s->as[s->idx[t - 1]]; t--) {
            int x = s->idx[t];
            s->idx[t] = s->idx[t - 1];
            s->idx[t - 1] = x;
        }
    for (int i = 0; i < na; i++) s->vals[i] = s->ra->on ? exp2(s->as[s->idx[i]]) : s->a0;
    s->best = -1;
    clock_gettime(CLOCK_MONOTONIC, &s->t0);
    for (int q = 0; q < s->nq; q++) {
        int missing = 0;
        for (int i = 0; i < na; i++) missing += !s->have[i * s->nq + q];
        if (missing) {
            int status = grid_score_pair(s, q);
            if (status != CLI_OK) return status;
        }
        grid_note_pair(s, q);
    }
    return CLI_OK;
}

/* ------------------------------------------------------------- finish */
/* After the search (status: how it went): the CSV closed, every process told
 * the outcome, the summary and the best point (into best_out, or printed as
 * grid.py's last line), the heat map.  Fails (printed) on the CSV or --png. */
static int grid_finish(grid_search *s, int status, double *best_out)
{
    const int nq = s->nq, best = s->best;
    if (s->root && status == CLI_OK) status = grid_csv_close(s->cmd, &s->csv);
    if (s->o.distributed) status = cli_mpi_bcast_rc(&s->o, status);
    if (status != CLI_OK || best < 0) return status;
    if (isnan(s->score[best]))
        return cli_error(s->cmd, "no nu of the search gives a model on every fold's training rows: nu-SVC needs nu <= "
                                 "2 min(n_i, n_j) / (n_i + n_j) for every pair of classes, and a nu large enough for "
                                 "w != 0; 'nesvm cv -s 1 -n NU' says which at one of them");
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!s->o.quiet)
        printf("%lld points scored, %lld iterations in %.3g s (%s)\n", s->trained, s->iters,
               (double)(t1.tv_sec - s->t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - s->t0.tv_nsec),
               s->ra == &s->r[2] ? "trainings that converged serve the larger --max-iter"
               : s->warm && !s->no_c ? "warm starts along C" : "cold starts");
    /* grid.py's last line: best C (gs: basis functions), gamma and rate (a
     * regression: mean squared error); gridregression.py's with p searched:
     * C, gamma, p and mean squared error */
    const int jg = best % nq / s->np, jp = best % nq % s->np;
    const double bc = s->ra->on ? exp2(s->as[best / nq]) : s->a0, bg = s->rg->on ? exp2(s->gv[jg]) : s->g0;
    const double bp = exp2(s->pv[jp]);
    if (best_out) { /* the caller prints it */
        best_out[0] = bc;
        best_out[1] = bg;
        best_out[2] = s->score[best];
        best_out[3] = s->rp->on ? bp : NAN;
    } else if (s->rp->on) {
        printf("%.17g %.17g %.17g %g\n", bc, bg, bp, s->score[best]);
    } else {
        printf("%.17g %.17g %g\n", bc, bg, s->score[best]);
    }
    char lp[40];
    snprintf(lp, sizeof lp, "%.17g", s->pv[jp]);
    if (s->png && s->root) status = plot(s->cmd, s->out, s->png, lp);
    if (s->o.distributed) status = cli_mpi_bcast_rc(&s->o, status);
    return status;
}

int grid_run(int argc, char **argv, double *best_out)
{
    grid_search *s = calloc(1, sizeof *s);
    if (!s) return cli_error("grid", "out of memory");
    s->cmd = "grid";
    s->r[0] = (range){1, -5, 15, 2};
    s->r[1] = (range){1, 3, -15, -2};
    s->r[2] = (range){1, 4, 0, 1};
    s->r[3] = (range){0, -8, -1, 1};
    s->r[4] = (range){1, -7, 0, 1};
    s->rg = &s->r[1];
    s->rp = &s->r[3];
    s->tp = "epsilon", s->tn = "log2p", s->tc = "p";
    s->folds = 5;
    s->warm = 1;
    int status = train_opts_init(&s->o, s->cmd) != CLI_OK ? CLI_ERROR : cli_mpi_early(s->cmd, &s->o, argc, argv);
    int help = 0;
    if (status == CLI_OK) status = grid_options(s, argc, argv, &help);
    if (status == CLI_OK && !help) status = grid_plan(s);
    if (status == CLI_OK && !help) status = grid_read(s);
    if (status == CLI_OK && !help) status = grid_resume(s);
    if (status == CLI_OK && !help) status = grid_finish(s, grid_points(s), best_out);
    if (s->csv.streaming) nv_atomic_abort(&s->csv.af);
    free(s->csv.text);
    free(s->score);
    free(s->have);
    free(s->vals);
    free(s->pm);
    free(s->idx);
    nesvm_dataset_destroy(s->ds);
    free(s->csv_default);
    cli_mpi_end(&s->o);
    train_opts_free(&s->o);
    free(s);
    return status;
}

int cmd_grid(int argc, char **argv) { return grid_run(argc, argv, NULL); }
