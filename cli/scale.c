/* scale.c - `nesvm scale`: svm-scale compatible feature scaling. */
#include "cli.h"

#include <string.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm scale [options] DATA\n"
          "Scale each feature of DATA linearly to [lower, upper], as LIBSVM's svm-scale\n"
          "does, and write the scaled data to standard output (or -o FILE).\n\n"
          "Options:\n"
          "  -l LOWER             lower bound (default -1)\n"
          "  -u UPPER             upper bound (default +1)\n"
          "  -y YLOWER YUPPER     also scale labels to [YLOWER, YUPPER] (default: no)\n"
          "  -s FILE              save the scaling parameters to FILE ('-': standard\n"
          "                       output; the data then need -o FILE)\n"
          "  -r FILE              restore scaling parameters from FILE (e.g. for test data)\n"
          "  -o FILE              write the scaled data to FILE (atomically; '-' = stdout)\n"
          "  -h, --help           this help\n\n"
          "Parameter files use svm-scale's format, so files from either tool work in both.\n",
          f);
}

int cmd_scale(int argc, char **argv)
{
    const char *cmd = "scale";
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *data = NULL, *save = NULL, *restore = NULL, *out = NULL, *p, *v;
    double lower = -1, upper = 1, ylo = 0, yhi = 0;
    int r, have_y = 0, ranges = 0; /* ranges: -l, -u or -y given */
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (data) return cli_usage(cmd, "too many arguments ('%s')", p);
            data = p;
        } else if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            return CLI_OK;
        } else if (strcmp(a.name, "l") == 0 || strcmp(a.name, "u") == 0) {
            if (!(v = cli_value(&a))) return CLI_USAGE;
            double x;
            if (!cli_parse_double(v, &x)) return cli_usage(cmd, "bad value '%s' for -%s", v, a.name);
            if (a.name[0] == 'l') lower = x; else upper = x;
            ranges = 1;
        } else if (strcmp(a.name, "y") == 0) {
            const char *v2;
            if (!(v = cli_value(&a)) || !(v2 = cli_value(&a))) return CLI_USAGE;
            if (!cli_parse_double(v, &ylo) || !cli_parse_double(v2, &yhi) || !(ylo < yhi))
                return cli_usage(cmd, "bad values '%s %s' for -y (expected YLOWER < YUPPER)", v, v2);
            have_y = 1;
            ranges = 1;
        } else if (strcmp(a.name, "s") == 0) {
            if (!(save = cli_value(&a))) return CLI_USAGE;
        } else if (strcmp(a.name, "r") == 0) {
            if (!(restore = cli_value(&a))) return CLI_USAGE;
        } else if (strcmp(a.name, "o") == 0) {
            if (!(out = cli_value(&a))) return CLI_USAGE;
        } else {
            return cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]);
        }
    }
    if (!data) return cli_usage(cmd, "missing DATA file");
    if (!(lower < upper)) return cli_usage(cmd, "lower (%g) must be below upper (%g)", lower, upper);
    if (save && restore) return cli_usage(cmd, "-s and -r cannot be used together");
    if (restore && ranges) /* as svm-scale: the file's ranges win; but say so */
        fprintf(stderr, "nesvm %s: warning: -l, -u and -y are ignored with -r (the ranges come from '%s')\n",
                cmd, restore);
    if (save && strcmp(save, "-") == 0 && (!out || strcmp(out, "-") == 0))
        return cli_usage(cmd, "-s - writes the scaling parameters to standard output: give the "
                              "scaled data a file with -o FILE");
    nesvm_error err = {0};
    nesvm_dataset *ds = NULL, *scaled = NULL;
    nesvm_scaling *sc = NULL;
    nesvm_read_options ro;
    nesvm_read_options_init(&ro);
    ro.storage = NESVM_STORAGE_CSR;
    int rc = CLI_OK;
    if (restore) {
        if (nesvm_scaling_load(restore, &sc, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    }
    if (nesvm_dataset_read(data, &ro, &ds, &err) != NESVM_OK) {
        rc = cli_error(cmd, "%s", err.message);
        goto done;
    }
    if (!sc && nesvm_scaling_fit(ds, lower, upper, have_y ? ylo : 0, have_y ? yhi : 0, &sc, &err) != NESVM_OK) {
        rc = cli_error(cmd, "%s", err.message);
        goto done;
    }
    /* applied before the parameters are saved: a scaling that fails leaves no file */
    if (nesvm_scaling_apply(sc, ds, &scaled, &err) != NESVM_OK) {
        rc = cli_error(cmd, "%s", err.message);
        goto done;
    }
    if (save && nesvm_scaling_save(sc, save, &err) != NESVM_OK) {
        rc = cli_error(cmd, "%s", err.message);
        goto done;
    }
    if (nesvm_dataset_write(scaled, out ? out : "-", &err) != NESVM_OK) rc = cli_error(cmd, "%s", err.message);
done:
    nesvm_dataset_destroy(scaled);
    nesvm_dataset_destroy(ds);
    nesvm_scaling_destroy(sc);
    return rc;
}
