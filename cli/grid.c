/* grid.c - `nesvm grid`: LIBSVM grid.py's search over log2 C and log2 gamma by
 * stratified K-fold cross-validation, with a CSV of every point that a rerun
 * of the same search resumes, and an optional heat map. */
#include "cli.h"
#include "core/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm grid [options] DATA\n"
          "Search C and gamma as LIBSVM's grid.py does: every point of a grid of log2 C and\n"
          "log2 gamma is scored by stratified K-fold cross-validation (nesvm cv's folds:\n"
          "the same folds at every point), and the best is printed as 'C gamma accuracy'.\n"
          "With the linear kernel only C is searched. Along C each fold starts from its\n"
          "solution at the previous C (warm starts); with --threads N, N folds train at once.\n"
          "--solver gs has no C: it searches gamma and its number of basis functions\n"
          "(--max-iter, its early stopping) instead. Every gamma's points go to a CSV when\n"
          "they are scored; rerunning the same search resumes from it. Takes every option\n"
          "of 'nesvm train'.\n\n"
          "  -log2c BEGIN,END,STEP  log2 C from BEGIN to END by STEP (default -5,15,2);\n"
          "                       'null': no search over C (-c is used)\n"
          "  -log2g BEGIN,END,STEP  log2 gamma (default 3,-15,-2); 'null': no search (-g)\n"
          "  -log2n BEGIN,END,STEP  gs: log2 of the number of basis functions (default 4 to\n"
          "                       log2 of the training rows, by 1); 'null': --max-iter\n"
          "  --cold               every point from zero, as grid.py (no warm starts)\n"
          "  --distributed        share each point's folds out over the processes of mpirun\n"
          "                       (MPI builds); rank 0 writes the CSV; the same results\n"
          "  -v K                 folds (default 5)\n"
          "  --out FILE           the CSV (default: DATA's file name + '.grid.csv', in the\n"
          "                       current folder)\n"
          "  --png FILE           a heat map of the accuracy over the grid (matplotlib,\n"
          "                       /usr/bin/python3)\n"
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

/* Every parameter but the searched ones and threads, in table order: what a
 * resumed CSV must match. */
static void signature(const nesvm_params *p, const char *data, int folds, long long seed, long long rows, int warm,
                      const char *axis, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "# nesvm grid data=%s rows=%lld folds=%d seed=%lld warm=%d", data, rows,
                                  folds, seed, warm);
    char v[64];
    for (int i = 0; nv_param_name(i) && len < size; i++) {
        const char *n = nv_param_name(i);
        if (strcmp(n, axis) == 0 || strcmp(n, "gamma") == 0 || strcmp(n, "threads") == 0) continue;
        nesvm_params_get(p, n, v, sizeof v, NULL);
        len += (size_t)snprintf(out + len, size - len, " %s=%s", n, v);
    }
}

static int plot(const char *cmd, const char *csv, const char *png)
{
    static const char *const script =
        "import sys, csv\n"
        "import matplotlib; matplotlib.use('Agg')\n"
        "import matplotlib.pyplot as plt\n"
        "rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith('#'))]\n"
        "xname = rows[0][0]; rows = rows[1:]\n"
        "lc = sorted({float(r[0]) for r in rows}); lg = sorted({float(r[1]) for r in rows})\n"
        "acc = {(float(r[0]), float(r[1])): float(r[4]) for r in rows}\n"
        "Z = [[acc.get((c, g), float('nan')) for c in lc] for g in lg]\n"
        "fig, ax = plt.subplots(figsize=(6, 4.5))\n"
        "hc = (lc[-1] - lc[0]) / (len(lc) - 1) / 2 if len(lc) > 1 else .5\n"
        "hg = (lg[-1] - lg[0]) / (len(lg) - 1) / 2 if len(lg) > 1 else .5\n"
        "im = ax.imshow(Z, origin='lower', aspect='auto', cmap='viridis',\n"
        "               extent=[lc[0] - hc, lc[-1] + hc, lg[0] - hg, lg[-1] + hg])\n"
        "fig.colorbar(im, ax=ax, label='cross-validation accuracy (%)')\n"
        "ax.set_xlabel('log2 C' if xname == 'log2c' else 'log2 basis functions (max_iter)')\n"
        "ax.set_ylabel('log2 gamma'); ax.set_title(sys.argv[3])\n"
        "fig.tight_layout(); fig.savefig(sys.argv[2], dpi=100)\n";
    pid_t pid = fork();
    if (pid < 0) return cli_error(cmd, "cannot start /usr/bin/python3 for --png: %s", strerror(errno));
    if (pid == 0) {
        /* matplotlib's traceback is not shown: the message below says what failed */
        FILE *null = freopen("/dev/null", "w", stderr);
        (void)null;
        execl("/usr/bin/python3", "python3", "-c", script, csv, png, "nesvm grid", (char *)NULL);
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

/* The value of -log2c, -log2g, -log2n or -v into its range or the folds;
 * CLI_USAGE after printing why not. */
static int grid_value(const char *cmd, const char *name, const char *v, range *rc, range *rg, range *rn, int *folds)
{
    if (strcmp(name, "v") == 0) {
        long long k;
        if (!cli_parse_int(v, &k) || k < 2 || k > 1000000)
            return cli_usage(cmd, "bad value '%s' for -v (expected an integer >= 2)", v);
        *folds = (int)k;
        return CLI_OK;
    }
    range *t = name[4] == 'c' ? rc : name[4] == 'g' ? rg : rn;
    if (!parse_range(v, t))
        return cli_usage(cmd, "bad value '%s' for -%s (expected BEGIN,END,STEP with STEP towards END, "
                              "at most 1000 steps, or null)", v, name);
    if (t == rn && rn->on && (rn->begin < 0 || rn->end < 0 || rn->begin > 40 || rn->end > 40))
        return cli_usage(cmd, "bad value '%s' for -log2n (log2 of a number of basis functions: 0 to 40)", v);
    return CLI_OK;
}

int grid_check_value(const char *cmd, const char *name, const char *value)
{
    range r[3];
    int folds;
    return grid_value(cmd, name, value, &r[0], &r[1], &r[2], &folds);
}

int grid_run(int argc, char **argv, double *best_out)
{
    const char *cmd = "grid";
    train_opts o;
    if (train_opts_init(&o, cmd) != CLI_OK) return CLI_ERROR;
    int status = cli_mpi_early(cmd, &o, argc, argv);
    if (status != CLI_OK) {
        train_opts_free(&o);
        return status;
    }
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *data = NULL, *p, *out = NULL, *png = NULL, *v;
    range rc = {1, -5, 15, 2}, rg = {1, 3, -15, -2}, rn = {1, 4, 0, 1};
    int folds = 5, r, rn_given = 0, warm = 1;
    char *csv_default = NULL;
    nesvm_dataset *ds = NULL;
    double *acc = NULL, *vals = NULL, *pacc = NULL;
    unsigned char *have = NULL;
    int *idx = NULL;
    FILE *f = NULL;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (data) {
                status = cli_usage(cmd, "too many arguments ('%s')", p);
                goto done;
            }
            data = p;
            continue;
        }
        if (strcmp(a.name, "h") == 0 && cli_h_is_shrinking(&a)) {
            if (train_opt_shrinking(&a, &o) < 0) {
                status = CLI_USAGE;
                goto done;
            }
            continue;
        }
        if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            goto done;
        }
        if (strcmp(a.name, "log2c") == 0 || strcmp(a.name, "log2g") == 0 || strcmp(a.name, "log2n") == 0 ||
            strcmp(a.name, "v") == 0) {
            if (!(v = cli_value(&a)) || grid_value(cmd, a.name, v, &rc, &rg, &rn, &folds) != CLI_OK) {
                status = CLI_USAGE;
                goto done;
            }
            rn_given |= a.name[4] == 'n';
            continue;
        }
        if (strcmp(a.name, "cold") == 0) {
            warm = 0;
            continue;
        }
        if (strcmp(a.name, "distributed") == 0) {
            o.distributed = 1;
            continue;
        }
        if (strcmp(a.name, "out") == 0 || strcmp(a.name, "png") == 0) {
            if (!(v = cli_value(&a))) {
                status = CLI_USAGE;
                goto done;
            }
            if (a.name[0] == 'o') out = v;
            else png = v;
            continue;
        }
        int h = train_opt(&a, &o);
        if (h <= 0) {
            status = h == 0 ? cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]) : CLI_USAGE;
            goto done;
        }
    }
    if (!data) {
        status = cli_usage(cmd, "missing DATA file");
        goto done;
    }
    char kernel[16], solver[32];
    nesvm_params_get(o.params, "kernel", kernel, sizeof kernel, NULL);
    nesvm_params_get(o.params, "solver", solver, sizeof solver, NULL);
    const int gs = strcmp(solver, "gs") == 0;
    /* the first axis: C, or GS-SVM's number of basis functions */
    const char *axis = gs ? "max_iter" : "c", *an = gs ? "log2n" : "log2c";
    range *ra = gs ? &rn : &rc;
    if (strcmp(kernel, "linear") == 0) rg.on = 0;
    if (!ra->on && !rg.on) {
        status = cli_usage(cmd, "nothing to search: %s",
                           strcmp(kernel, "linear") != 0 ? (gs ? "-log2n and -log2g are null" : "-log2c and -log2g are null")
                           : gs ? "the linear kernel has no gamma and -log2n is null"
                                : "the linear kernel has no gamma and -log2c is null");
        goto done;
    }
    if (!out) {
        const char *base = strrchr(data, '/');
        base = base ? base + 1 : data;
        size_t len = strlen(base) + 10;
        csv_default = malloc(len);
        if (!csv_default) {
            status = cli_error(cmd, "out of memory");
            goto done;
        }
        snprintf(csv_default, len, "%s.grid.csv", base);
        out = csv_default;
    }
    if (o.distributed && (status = check_distributed(cmd, &o, data)) == CLI_OK && !o.mpi)
        status = cli_mpi_begin(cmd, &o);
    if (status != CLI_OK) goto done;
    /* distributed: every process reads the data and trains its share of each
     * point's folds; rank 0 reads and writes the CSV */
    const int root = cli_mpi_rank(&o) == 0;
    cli_warn_ignored(cmd, o.params);
    nesvm_error err = {0};
    nesvm_status rst = nesvm_dataset_read(data, &o.read, &ds, &err);
    if (o.distributed) rst = cli_mpi_agree(&o, rst, &err);
    if (rst != NESVM_OK) {
        status = cli_error(cmd, "%s", err.message);
        goto done;
    }
    const long long rows = (long long)nesvm_dataset_rows(ds);
    if (gs && !rn_given) /* up to every training row of a fold: GS-SVM has converged by then */
        rn.end = fmax(rn.begin, ceil(log2((double)rows * (folds - 1) / folds)));
    char cur[64];
    double a0, g0;
    nesvm_params_get(o.params, axis, cur, sizeof cur, NULL);
    cli_parse_double(cur, &a0);
    nesvm_params_get(o.params, "gamma", cur, sizeof cur, NULL);
    cli_parse_double(cur, &g0);
    double as[1001], gv[1001];
    int na = range_values(ra, a0 > 0 ? log2(a0) : 0, as, 1001), ng = range_values(&rg, g0 > 0 ? log2(g0) : 0, gv, 1001);
    /* resume: the rows of a CSV written by the same search */
    char sig[4096];
    signature(o.params, data, folds, o.seed, rows, warm, axis, sig, sizeof sig);
    int n = na * ng, resumed = 0;
    acc = malloc(sizeof(double) * (size_t)n);
    have = calloc((size_t)n, 1);
    vals = malloc(sizeof(double) * (size_t)na);
    pacc = malloc(sizeof(double) * (size_t)na);
    idx = malloc(sizeof(int) * (size_t)na);
    if (!acc || !have || !vals || !pacc || !idx) {
        status = cli_error(cmd, "out of memory");
        goto done;
    }
    f = root ? fopen(out, "r") : NULL;
    if (f) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t len = getline(&line, &cap, f);
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (len >= 0 && strcmp(line, sig) == 0) {
            if (getline(&line, &cap, f) < 0) { /* the header */
            }
            while ((len = getline(&line, &cap, f)) > 0) {
                double la, lg, cc, gg, ac;
                if (sscanf(line, "%lf,%lf,%lf,%lf,%lf", &la, &lg, &cc, &gg, &ac) != 5) continue;
                for (int i = 0; i < na; i++)
                    for (int j = 0; j < ng; j++)
                        if (fabs(as[i] - la) < 1e-9 && fabs(gv[j] - lg) < 1e-9 && !have[i * ng + j]) {
                            have[i * ng + j] = 1;
                            acc[i * ng + j] = ac;
                            resumed++;
                        }
            }
            fclose(f);
            free(line);
            f = fopen(out, "a");
        } else {
            /* another search's CSV (other data, folds or options): started afresh */
            fclose(f);
            free(line);
            f = NULL;
        }
    }
    if (!f && root) {
        f = fopen(out, "w");
        if (f) fprintf(f, "%s\n%s,log2g,%s,gamma,accuracy\n", sig, an, axis);
    }
    if (!f && root) status = cli_error(cmd, "cannot write '%s': %s", out, strerror(errno));
    if (o.distributed) {
        /* rank 0's verdict and resumed points to every process */
        status = cli_mpi_bcast_rc(&o, status);
        if (status == CLI_OK && (cli_mpi_bcast(&o, have, (size_t)n) != CLI_OK ||
                                 cli_mpi_bcast(&o, acc, sizeof(double) * (size_t)n) != CLI_OK ||
                                 cli_mpi_bcast(&o, &resumed, sizeof resumed) != CLI_OK))
            status = cli_error(cmd, "--distributed: MPI broadcast failed");
    }
    if (status != CLI_OK) goto done;
    if (!o.quiet && resumed) printf("resumed %d of %d points from %s\n", resumed, n, out);
    /* the path in ascending order: each fold warm-starts from the smaller C */
    for (int i = 0; i < na; i++) idx[i] = i;
    for (int i = 1; i < na; i++)
        for (int t = i; t > 0 && as[idx[t]] < as[idx[t - 1]]; t--) {
            int s = idx[t];
            idx[t] = idx[t - 1];
            idx[t - 1] = s;
        }
    for (int i = 0; i < na; i++) vals[i] = ra->on ? exp2(as[idx[i]]) : a0;
    int best = -1;
    long long iters = 0, trained = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int j = 0; j < ng && status == CLI_OK; j++) {
        char gtxt[40];
        snprintf(gtxt, sizeof gtxt, "%.17g", exp2(gv[j]));
        int missing = 0;
        for (int i = 0; i < na; i++) missing += !have[i * ng + j];
        if (missing) {
            if (rg.on) nesvm_params_set(o.params, "gamma", gtxt, NULL);
            int64_t it[1001];
            if ((o.distributed ? nesvm_cross_validate_path_distributed(ds, o.params, folds, (uint64_t)o.seed, axis,
                                                                       vals, na, warm, cli_mpi_comm(&o), NULL, NULL,
                                                                       pacc, it, &err)
                               : nesvm_cross_validate_path(ds, o.params, folds, (uint64_t)o.seed, axis, vals, na,
                                                           warm, NULL, NULL, pacc, it, &err)) != NESVM_OK) {
                status = rg.on ? cli_error(cmd, "log2g %g: %s", gv[j], err.message) : cli_error(cmd, "%s", err.message);
                break;
            }
            for (int i = 0; i < na; i++) {
                iters += it[i];
                trained += it[i] > 0;
            }
            /* the row's new points, in the order of -log2c */
            for (int i = 0; i < na; i++) {
                int k = i * ng + j;
                if (have[k]) continue;
                int pos = 0;
                while (idx[pos] != i) pos++;
                acc[k] = 100.0 * pacc[pos];
                char atxt[40];
                snprintf(atxt, sizeof atxt, "%.17g", exp2(as[i]));
                if (f) fprintf(f, "%.17g,%.17g,%s,%s,%.17g\n", as[i], gv[j], ra->on ? atxt : "", rg.on ? gtxt : "", acc[k]);
            }
            for (int i = 0; i < na; i++) have[i * ng + j] = 1;
            if (f) fflush(f);
        }
        /* grid.py's choice: the best rate; among equal rates at one gamma, the smallest C */
        for (int i = 0; i < na; i++) {
            int k = i * ng + j;
            if (best < 0 || acc[k] > acc[best] || (acc[k] == acc[best] && k % ng == best % ng && as[i] < as[best / ng]))
                best = k;
            if (!o.quiet) {
                char at[64] = "", bt[64] = "";
                if (ra->on) {
                    snprintf(at, sizeof at, "%s %g", an, as[i]);
                    snprintf(bt, sizeof bt, "%s %g", an, as[best / ng]);
                }
                if (rg.on) {
                    size_t la = strlen(at), lb = strlen(bt);
                    snprintf(at + la, sizeof at - la, "%slog2g %g", la ? " " : "", gv[j]);
                    snprintf(bt + lb, sizeof bt - lb, "%slog2g %g", lb ? " " : "", gv[best % ng]);
                }
                printf("%s: %g%% (best: %s, %g%%)\n", at, acc[k], bt, acc[best]);
            }
        }
    }
    if (f && fclose(f) != 0 && status == CLI_OK) status = cli_error(cmd, "cannot write '%s': %s", out, strerror(errno));
    f = NULL;
    if (o.distributed) status = cli_mpi_bcast_rc(&o, status);
    if (status == CLI_OK && best >= 0) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (!o.quiet)
            printf("%lld points scored, %lld iterations in %.3g s (%s)\n", trained, iters,
                   (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
                   gs ? "trainings that converged serve the larger --max-iter"
                      : warm ? "warm starts along C" : "cold starts");
        /* grid.py's last line: best C (gs: basis functions), gamma and rate */
        if (best_out) { /* the caller prints it */
            best_out[0] = ra->on ? exp2(as[best / ng]) : a0;
            best_out[1] = rg.on ? exp2(gv[best % ng]) : g0;
            best_out[2] = acc[best];
        } else {
            printf("%.17g %.17g %g\n", ra->on ? exp2(as[best / ng]) : a0, rg.on ? exp2(gv[best % ng]) : g0,
                   acc[best]);
        }
        if (png && root) status = plot(cmd, out, png);
        if (o.distributed) status = cli_mpi_bcast_rc(&o, status);
    }
done:
    if (f) fclose(f);
    free(acc);
    free(have);
    free(vals);
    free(pacc);
    free(idx);
    nesvm_dataset_destroy(ds);
    free(csv_default);
    cli_mpi_end(&o);
    train_opts_free(&o);
    return status;
}

int cmd_grid(int argc, char **argv) { return grid_run(argc, argv, NULL); }
