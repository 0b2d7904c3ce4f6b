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
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm grid [options] DATA\n"
          "Search C and gamma as LIBSVM's grid.py does: every point of a grid of log2 C and\n"
          "log2 gamma is scored by stratified K-fold cross-validation (nesvm cv's folds:\n"
          "the same folds at every point), and the best is printed as 'C gamma accuracy'.\n"
          "With the linear kernel only C is searched; with --solver gs (no C) only gamma.\n"
          "Every point goes to a CSV as it is scored; rerunning the same search resumes\n"
          "from it. Takes every option of 'nesvm train'.\n\n"
          "  -log2c BEGIN,END,STEP  log2 C from BEGIN to END by STEP (default -5,15,2);\n"
          "                       'null': no search over C (-c is used)\n"
          "  -log2g BEGIN,END,STEP  log2 gamma (default 3,-15,-2); 'null': no search (-g)\n"
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

/* Every parameter but c and gamma, in table order: what a resumed CSV must match. */
static void signature(const nesvm_params *p, const char *data, int folds, long long seed, long long rows, char *out,
                      size_t size)
{
    size_t len = (size_t)snprintf(out, size, "# nesvm grid data=%s rows=%lld folds=%d seed=%lld", data, rows, folds,
                                  seed);
    char v[64];
    for (int i = 0; nv_param_name(i) && len < size; i++) {
        const char *n = nv_param_name(i);
        if (strcmp(n, "c") == 0 || strcmp(n, "gamma") == 0 || strcmp(n, "threads") == 0) continue;
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
        "rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith('#'))][1:]\n"
        "lc = sorted({float(r[0]) for r in rows}); lg = sorted({float(r[1]) for r in rows})\n"
        "acc = {(float(r[0]), float(r[1])): float(r[4]) for r in rows}\n"
        "Z = [[acc.get((c, g), float('nan')) for c in lc] for g in lg]\n"
        "fig, ax = plt.subplots(figsize=(6, 4.5))\n"
        "hc = (lc[-1] - lc[0]) / (len(lc) - 1) / 2 if len(lc) > 1 else .5\n"
        "hg = (lg[-1] - lg[0]) / (len(lg) - 1) / 2 if len(lg) > 1 else .5\n"
        "im = ax.imshow(Z, origin='lower', aspect='auto', cmap='viridis',\n"
        "               extent=[lc[0] - hc, lc[-1] + hc, lg[0] - hg, lg[-1] + hg])\n"
        "fig.colorbar(im, ax=ax, label='cross-validation accuracy (%)')\n"
        "ax.set_xlabel('log2 C'); ax.set_ylabel('log2 gamma'); ax.set_title(sys.argv[3])\n"
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

int cmd_grid(int argc, char **argv)
{
    const char *cmd = "grid";
    train_opts o;
    if (train_opts_init(&o, cmd) != CLI_OK) return CLI_ERROR;
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *data = NULL, *p, *out = NULL, *png = NULL, *v;
    range rc = {1, -5, 15, 2}, rg = {1, 3, -15, -2};
    int folds = 5, r, status = CLI_OK;
    char *csv_default = NULL;
    nesvm_dataset *ds = NULL;
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
        if (strcmp(a.name, "log2c") == 0 || strcmp(a.name, "log2g") == 0) {
            if (!(v = cli_value(&a))) {
                status = CLI_USAGE;
                goto done;
            }
            if (!parse_range(v, a.name[4] == 'c' ? &rc : &rg)) {
                status = cli_usage(cmd, "bad value '%s' for -%s (expected BEGIN,END,STEP with STEP towards END, "
                                        "at most 1000 steps, or null)", v, a.name);
                goto done;
            }
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
        if (strcmp(a.name, "v") == 0) {
            long long k;
            if (!(v = cli_value(&a))) {
                status = CLI_USAGE;
                goto done;
            }
            if (!cli_parse_int(v, &k) || k < 2 || k > 1000000) {
                status = cli_usage(cmd, "bad value '%s' for -v (expected an integer >= 2)", v);
                goto done;
            }
            folds = (int)k;
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
    if (strcmp(kernel, "linear") == 0) rg.on = 0;
    if (strcmp(solver, "gs") == 0) rc.on = 0;
    if (!rc.on && !rg.on) {
        status = cli_usage(cmd, "nothing to search: %s", strcmp(kernel, "linear") == 0
                                                             ? "the linear kernel has no gamma and -log2c is null"
                                                             : "-log2c and -log2g are null");
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
    cli_warn_ignored(cmd, o.params);
    nesvm_error err = {0};
    if (nesvm_dataset_read(data, &o.read, &ds, &err) != NESVM_OK) {
        status = cli_error(cmd, "%s", err.message);
        goto done;
    }
    char cur[64];
    double c0, g0;
    nesvm_params_get(o.params, "c", cur, sizeof cur, NULL);
    cli_parse_double(cur, &c0);
    nesvm_params_get(o.params, "gamma", cur, sizeof cur, NULL);
    cli_parse_double(cur, &g0);
    double cs[1001], gs[1001];
    int nc = range_values(&rc, log2(c0), cs, 1001), ng = range_values(&rg, g0 > 0 ? log2(g0) : 0, gs, 1001);
    /* resume: the rows of a CSV written by the same search */
    char sig[4096];
    signature(o.params, data, folds, o.seed, (long long)nesvm_dataset_rows(ds), sig, sizeof sig);
    int n = nc * ng, resumed = 0;
    double *acc = malloc(sizeof(double) * (size_t)n);
    unsigned char *have = calloc((size_t)n, 1);
    if (!acc || !have) {
        free(acc);
        free(have);
        status = cli_error(cmd, "out of memory");
        goto done;
    }
    FILE *f = fopen(out, "r");
    if (f) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t len = getline(&line, &cap, f);
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (len >= 0 && strcmp(line, sig) == 0) {
            getline(&line, &cap, f); /* the header */
            while ((len = getline(&line, &cap, f)) > 0) {
                double lc, lg, cc, gg, ac;
                if (sscanf(line, "%lf,%lf,%lf,%lf,%lf", &lc, &lg, &cc, &gg, &ac) != 5) continue;
                for (int i = 0; i < nc; i++)
                    for (int j = 0; j < ng; j++)
                        if (fabs(cs[i] - lc) < 1e-9 && fabs(gs[j] - lg) < 1e-9 && !have[i * ng + j]) {
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
    if (!f) {
        f = fopen(out, "w");
        if (f) fprintf(f, "%s\nlog2c,log2g,c,gamma,accuracy\n", sig);
    }
    if (!f) {
        free(acc);
        free(have);
        status = cli_error(cmd, "cannot write '%s': %s", out, strerror(errno));
        goto done;
    }
    if (!o.quiet && resumed) printf("resumed %d of %d points from %s\n", resumed, n, out);
    double *pred = malloc(sizeof(double) * (size_t)(nesvm_dataset_rows(ds) + 1));
    int best = -1;
    for (int i = 0; i < nc && status == CLI_OK && pred; i++)
        for (int j = 0; j < ng && status == CLI_OK; j++) {
            int k = i * ng + j;
            char cv_[40], gv[40];
            snprintf(cv_, sizeof cv_, "%.17g", exp2(cs[i]));
            snprintf(gv, sizeof gv, "%.17g", exp2(gs[j]));
            if (!have[k]) {
                if (rc.on) nesvm_params_set(o.params, "c", cv_, NULL);
                if (rg.on) nesvm_params_set(o.params, "gamma", gv, NULL);
                double a_ = 0;
                if (nesvm_cross_validate(ds, o.params, folds, (uint64_t)o.seed, NULL, NULL, pred, &a_, &err) !=
                    NESVM_OK) {
                    status = cli_error(cmd, "log2c %g log2g %g: %s", cs[i], gs[j], err.message);
                    break;
                }
                acc[k] = 100.0 * a_;
                have[k] = 1;
                fprintf(f, "%.17g,%.17g,%s,%s,%.17g\n", cs[i], gs[j], rc.on ? cv_ : "", rg.on ? gv : "", acc[k]);
                fflush(f);
            }
            if (best < 0 || acc[k] > acc[best]) best = k;
            if (!o.quiet) {
                char at[64] = "", bt[64] = "";
                if (rc.on) {
                    snprintf(at, sizeof at, "log2c %g", cs[i]);
                    snprintf(bt, sizeof bt, "log2c %g", cs[best / ng]);
                }
                if (rg.on) {
                    size_t la = strlen(at), lb = strlen(bt);
                    snprintf(at + la, sizeof at - la, "%slog2g %g", la ? " " : "", gs[j]);
                    snprintf(bt + lb, sizeof bt - lb, "%slog2g %g", lb ? " " : "", gs[best % ng]);
                }
                printf("%s: %g%% (best: %s, %g%%)\n", at, acc[k], bt, acc[best]);
            }
        }
    if (!pred) status = cli_error(cmd, "out of memory");
    if (fclose(f) != 0 && status == CLI_OK) status = cli_error(cmd, "cannot write '%s': %s", out, strerror(errno));
    if (status == CLI_OK && best >= 0) {
        /* grid.py's last line: best C, gamma and rate */
        printf("%.17g %.17g %g\n", rc.on ? exp2(cs[best / ng]) : c0, rg.on ? exp2(gs[best % ng]) : g0, acc[best]);
        if (png) status = plot(cmd, out, png);
    }
    free(pred);
    free(acc);
    free(have);
done:
    nesvm_dataset_destroy(ds);
    free(csv_default);
    train_opts_free(&o);
    return status;
}
