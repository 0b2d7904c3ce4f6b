/* cli.h - shared pieces of the `nesvm` command-line tool. */
#ifndef NESVM_CLI_H
#define NESVM_CLI_H

#include "nesvm.h"
#include "tool/tool.h"

#include <stdio.h>

/* Exit statuses of the tool. */
enum { CLI_OK = 0, CLI_ERROR = 1, CLI_USAGE = 2 };

int cmd_train(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_cv(int argc, char **argv);
int cmd_grid(int argc, char **argv);
/* nesvm grid; best_out (4 entries: C or --max-iter, gamma, accuracy in % or a
 * regression's mean squared error, and epsilon-SVR's p when -log2p searched it,
 * else NaN) receives the best point instead of its line being printed (NULL:
 * printed) */
int grid_run(int argc, char **argv, double *best_out);
/* A value of nesvm grid's -log2c, -log2g, -log2n, -log2p or -v (name without
 * '-'): CLI_OK, or CLI_USAGE after printing why not (as cmd); *on (may be
 * NULL): a range that searches (not 'null'). */
int grid_check_value(const char *cmd, const char *name, const char *value, int *on);
/* -log2p's problem: CLI_OK for epsilon-SVR (svm_type svr), else CLI_USAGE
 * after printing why not (as cmd). */
int grid_check_p(const char *cmd, const nesvm_params *params);
int cmd_easy(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_scale(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_params(int argc, char **argv);

/* Report an error "nesvm CMD: message" on stderr; returns CLI_ERROR. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Report a usage error with a pointer to --help; returns CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* OpenBLAS's threads follow --threads (0: every core), shared by the
 * at_once trainings (folds) that run together as the library runs them:
 * OpenBLAS's own default is every core, under a "one thread" run too.
 * OPENBLAS_NUM_THREADS, when set, is the user's word and stays. */
void cli_blas_threads(long long threads, int at_once);

/* Argument cursor: walks argv, splitting "--name=value". */
typedef struct cli_args {
    int argc, i;
    char **argv;
    const char *cmd;
    const char *inline_value; /* value given as --name=value */
    char name[64];
} cli_args;

/* Next option name into a->name ("c", "w1", "solver", ...); returns 1 for an
 * option, 0 for a positional argument (stored in *pos), -1 at the end. */
int cli_next(cli_args *a, const char **pos);
/* The option's value (next argv or inline); NULL after printing a usage error. */
const char *cli_value(cli_args *a);
int cli_parse_double(const char *s, double *out);
int cli_parse_int(const char *s, long long *out);

/* The parameter of a command-line option name ("c", "t", "kernel", "cache_size"), or NULL. */
const nv_param_def *cli_param(const char *option);
/* An option's spellings joined by sep, "-t/--kernel" (into buf). */
const char *cli_param_spelling(const nv_param_def *d, const char *sep, char *buf, size_t size);
/* The solver registry's description of solver `name` (nesvm_solver_describe), a
 * name the library gave (the params' solver, a model's): the CLI asks it
 * what a solver can do (a C, its memory parameter, a certificate) rather
 * than comparing names. */
nesvm_solver_info cli_solver_info(const char *name);
/* The same for p's solver. */
nesvm_solver_info cli_params_solver(const nesvm_params *p);
/* Is p's svm_type nu-svc (no C to search: grid, easy and train -C refuse it)? */
int cli_nu_svc(const nesvm_params *p);
/* A warning on stderr for each given option the solver, kernel or model ignores. */
void cli_warn_ignored(const char *cmd, const nesvm_params *p);

/* A model whose binary models did not all reach their certificate
 * (nesvm_model_certified): one warning on stderr, printed even with -q, naming
 * how many missed it and the worst one (exit reason, gap against eps).
 * Returns the number that missed it. */
int cli_warn_uncertified(const char *cmd, const nesvm_model *m);
/* Is m the solution of one joint multiclass problem (multiclass cs or
 * multinomial), whose sub-models share one training? */
int cli_model_joint(const nesvm_model *m);

/* Options shared by train and cv. */
typedef struct train_opts {
    nesvm_params *params;
    nesvm_read_options read;
    int quiet;
    int folds;          /* -v K: cross-validate */
    const char *trace;
    const char *init;   /* train --init MODEL: warm start */
    nesvm_checkpoint_options ck; /* train --checkpoint FILE, --checkpoint-every, --resume FILE */
    long long seed;
    const char *m_value; /* -m MB (LIBSVM's): cache_size for gs, kernel_memory for the others */
    const char *weights; /* -W FILE (LIBLINEAR's): one sample weight per line */
    int metrics;         /* cv --metrics: per-class precision, recall, F1 and the confusion matrix */
    int find_c;          /* train -C (LIBLINEAR's): search C by cross-validation, no model */
    int c_given;         /* -c given (with -C: the first C) */
    int liblinear;       /* --liblinear N: LIBLINEAR's -s N (train, cv); -1: not given */
    int distributed;     /* train --distributed: data-parallel over MPI ranks */
    void *mpi;           /* the same: the MPI state (distributed.c), NULL before cli_mpi_begin */
} train_opts;

/* train --distributed (distributed.c): MPI_Init and the world communicator
 * into o->mpi (a build without MPI: an error, printed); ranks other than 0
 * print nothing (every failure reaches rank 0 through cli_mpi_agree).
 * cli_mpi_end finalizes MPI.  cli_mpi_rank/_size: 0 and 1 before begin. */
int cli_mpi_begin(const char *cmd, train_opts *o);
void cli_mpi_end(train_opts *o);
/* Under mpirun (an MPI build and --distributed among the arguments), MPI
 * starts before the options are read, so that a bad option is reported once
 * (by rank 0), not by every process. */
int cli_mpi_early(const char *cmd, train_opts *o, int argc, char **argv);
/* --distributed's refusals (train.c), before MPI starts. */
int check_distributed(const char *cmd, const train_opts *o, const char *data);
/* How to read training data under p's kernel: NESVM_PRECOMPUTED_TRAIN for
 * a precomputed kernel, else NESVM_PRECOMPUTED_NONE. */
int cli_read_precomputed(const nesvm_params *p);
int cli_mpi_rank(const train_opts *o);
int cli_mpi_size(const train_opts *o);
/* The MPI_Comm (a pointer for nesvm_*_distributed). */
const void *cli_mpi_comm(const train_opts *o);
/* Every rank's status and message: the lowest failing rank's on every rank
 * (prefixed "rank R: "), NESVM_OK if none failed. */
nesvm_status cli_mpi_agree(const train_opts *o, nesvm_status st, nesvm_error *err);
/* x summed over the ranks (the rows of every rank's share). */
int64_t cli_mpi_sum(const train_opts *o, int64_t x);
/* x summed over the ranks before this one (this rank's first row). */
int64_t cli_mpi_offset(const train_opts *o, int64_t x);
/* Rank 0's bytes of buf on every rank (CLI_OK, or CLI_ERROR). */
int cli_mpi_bcast(const train_opts *o, void *buf, size_t bytes);
/* Rank 0's rc on every rank. */
int cli_mpi_bcast_rc(const train_opts *o, int rc);

/* `-h 0|1` (LIBSVM's shrinking) rather than -h (help)?  1 when the next
 * argument is 0 or 1: it is then taken as the value. */
int cli_h_is_shrinking(cli_args *a);
/* Set shrinking from -h's value: 1 handled, -1 error printed. */
int train_opt_shrinking(cli_args *a, train_opts *o);

/* Handle an option shared by train and cv: 1 handled, 0 not ours, -1 error printed. */
int train_opt(cli_args *a, train_opts *o);
int train_opts_init(train_opts *o, const char *cmd);
void train_opts_free(train_opts *o);
void train_opts_help(FILE *f);

/* --liblinear N's problem onto the params, once every option is read (train,
 * cv): LIBLINEAR's -s N with its bias convention (no bias unless -B B > 0, then
 * a regularized feature B) and its one-vs-rest; CLI_OK, or CLI_USAGE after
 * printing why not (a type nesvm lacks, a conflicting option). */
int train_opts_liblinear(const char *cmd, train_opts *o);

/* Read DATA and train (saving to model_path) or cross-validate (o->folds > 0). */
int run_training(const char *cmd, train_opts *o, const char *data, const char *model_path);

/* Progress: trace file (CSV) and a status line on a terminal. */
typedef struct progress_state {
    FILE *trace;
    int trace_errno; /* the first write error of the trace (stops the run) */
    int tty;
    double last_print;
} progress_state;
/* Non-zero (cancel) once the trace cannot be written. */
int progress_cb(const nesvm_progress *p, void *user);
void progress_end(progress_state *ps);

/* Format a double for output (shortest round-trip). */
const char *fmt_num(double x, char *buf);

/* The figures of a prediction as svm-predict prints them (cv: as svm-train
 * -v prints them): "Accuracy = X% (correct/total)", or for a regression
 * "Mean squared error = X (regression)" and "Squared correlation
 * coefficient = Y (regression)" (predict.c). */
void cli_print_scores(FILE *f, int cv, const nesvm_metrics *m);

#endif
