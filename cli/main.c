/* main.c - `nesvm`: dispatch to subcommands. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "nesvm %s - fast support vector machine training\n\n"
            "Usage: nesvm COMMAND [options] ...\n\n"
            "Commands:\n"
            "  train     train a model:             nesvm train [options] DATA [MODEL]\n"
            "  predict   predict with a model:      nesvm predict [options] DATA MODEL [OUTPUT]\n"
            "  cv        cross-validate:            nesvm cv -v K [options] DATA\n"
            "  grid      search C and gamma (grid.py): nesvm grid [options] DATA\n"
            "  easy      scale, search, train, test (easy.py): nesvm easy [options] TRAIN [TEST]\n"
            "  scale     scale features (svm-scale): nesvm scale [options] DATA\n"
            "  info      describe a model file:     nesvm info MODEL\n"
            "  export    a model for LIBSVM/LIBLINEAR: nesvm export --format libsvm|liblinear MODEL OUT\n"
            "  import    a LIBSVM/LIBLINEAR model:  nesvm import [--format libsvm|liblinear] FILE MODEL\n"
            "  split     one file per process:      nesvm split -n N [--out PREFIX] DATA\n"
            "  params    list the training parameters: nesvm params [--markdown]\n\n"
            "'nesvm COMMAND --help' describes each command. Data files are in LIBSVM format.\n",
            nesvm_version());
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *c = argv[1];
    if (strcmp(c, "-h") == 0 || strcmp(c, "--help") == 0 || strcmp(c, "-?") == 0 || strcmp(c, "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(c, "--version") == 0 || strcmp(c, "version") == 0) {
        printf("nesvm %s\n", nesvm_version());
        return CLI_OK;
    }
    if (strcmp(c, "train") == 0) return cmd_train(argc - 1, argv + 1);
    if (strcmp(c, "predict") == 0) return cmd_predict(argc - 1, argv + 1);
    if (strcmp(c, "cv") == 0) return cmd_cv(argc - 1, argv + 1);
    if (strcmp(c, "grid") == 0) return cmd_grid(argc - 1, argv + 1);
    if (strcmp(c, "easy") == 0) return cmd_easy(argc - 1, argv + 1);
    if (strcmp(c, "export") == 0) return cmd_export(argc - 1, argv + 1);
    if (strcmp(c, "import") == 0) return cmd_import(argc - 1, argv + 1);
    if (strcmp(c, "split") == 0) return cmd_split(argc - 1, argv + 1);
    if (strcmp(c, "scale") == 0) return cmd_scale(argc - 1, argv + 1);
    if (strcmp(c, "info") == 0) return cmd_info(argc - 1, argv + 1);
    if (strcmp(c, "params") == 0) return cmd_params(argc - 1, argv + 1);
    fprintf(stderr, "nesvm: unknown command '%s'\nTry 'nesvm --help'.\n", c);
    return CLI_USAGE;
}

/* Output lost on standard output (a full disk, a closed pipe's EIO, ...) is
 * an error, whatever the command printed. */
int main(int argc, char **argv)
{
    /* Not a terminal: the output goes out in 64 KiB pieces, so that a help
     * text or a summary leaves in main's fflush, whose failure keeps its
     * errno (with stdio's 4 KiB a write failed midway and the reason was
     * gone by the end: "train --help > /dev/full", 12 KB, said "write error") */
    enum { OUT_BUF = 1 << 16 };
    char *out_buf = isatty(fileno(stdout)) ? NULL : malloc(OUT_BUF); /* stdout's until exit */
    if (out_buf) setvbuf(stdout, out_buf, _IOFBF, OUT_BUF); /* (glibc ignores a size without a buffer) */
    int rc = dispatch(argc, argv);
    errno = 0;
    /* a command that failed has said why (a write to '-' that failed among them) */
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == CLI_OK) {
        int e = errno;
        fprintf(stderr, "nesvm: error: cannot write to standard output: %s\n",
                e ? strerror(e) : "write error");
        return CLI_ERROR;
    }
    return rc;
}
