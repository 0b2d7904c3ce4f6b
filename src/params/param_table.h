/* param_table.h - the one table of training parameters (not installed).
 *
 * Every parameter is one row of nv_param_table (params.c): its name, type,
 * field, default (as text: nesvm_params_create sets each default through the
 * same parser as nesvm_params_set), valid range or words, the text of the
 * "expected ..." message, the solvers (and kernels, models) it applies to,
 * its command-line spellings and one line of help.  nesvm_params_set/get,
 * the defaults, the range checks, model files, checkpoints, the CLI's
 * options and warnings, `nesvm params` and docs/parameters.md all read it.
 *
 * Adding a parameter: a field in struct nesvm_params (params_internal.h), a
 * row here in params.c (in the order model files list them: append at the
 * end), and the code that uses it.
 */
#ifndef NESVM_PARAM_TABLE_H
#define NESVM_PARAM_TABLE_H

#include "nesvm.h"

#include <stddef.h>

typedef enum nv_ptype {
    NV_PT_REAL,   /* double */
    NV_PT_INT,    /* int */
    NV_PT_I64,    /* int64_t */
    NV_PT_U64,    /* uint64_t, set from a non-negative int64 */
    NV_PT_WORD,   /* int: the index of the value in `words` */
    NV_PT_NAME,   /* char[32]: a name the registry checks (a solver, a loss) */
    NV_PT_WARM    /* int64_t: "none" (0) or "pegasos:ITER" (ITER > 0) */
} nv_ptype;

/* Range flags (NV_PT_REAL, NV_PT_INT, NV_PT_I64, NV_PT_U64). */
enum {
    NV_PF_ZERO = 1,    /* 0 is accepted besides [lo, hi] (it means "default" or "off") */
    NV_PF_LO_OPEN = 2, /* lo itself is refused */
    NV_PF_HI_OPEN = 4, /* hi itself is refused */
    NV_PF_AUTO = 8,    /* the word "auto" sets auto_value (the solver's default) */
    NV_PF_LIBSVM_T = 16 /* a word parameter that also takes its index (LIBSVM's -t 0-3) */
};

/* Which solvers use a parameter: every one, or those whose registry entry
 * lists it (solvers/registry.c: `uses`). */
enum { NV_S_SOME = 0, NV_S_ALL = 1 };

/* Further conditions for a parameter to take part in training. */
enum {
    NV_W_KERNEL = 1,  /* a kernel other than linear */
    NV_W_POLY = 2,    /* the polynomial kernel */
    NV_W_COEF0 = 4,   /* the polynomial or sigmoid kernel */
    NV_W_LP = 8,      /* svm_type lp */
    NV_W_SVR = 16,    /* svm_type svr */
    NV_W_GAMMA = 32,  /* a kernel with gamma: poly, rbf or sigmoid (not linear, not precomputed) */
    NV_W_NU = 64,     /* svm_type one-class, nu-svc or nu-svr (LIBSVM's nu) */
    NV_W_COST = 128,  /* a bias and a C's lambda: every svm_type but one-class, nu-svc and
                       * nu-svr (whose offsets, rho and the bias, are part of their
                       * problems, free, and whose C is -c or none) */
    NV_W_C = 256,     /* a cost C: every svm_type but one-class and nu-svc (whose costs
                       * are the sample weights) */
    NV_W_PENALTY = 512 /* svm_type c or logistic (the others' regularizers are fixed) */
};

typedef struct nv_param_def {
    const char *name;         /* the API name (model files, nesvm_params_set) */
    nv_ptype type;
    size_t offset;            /* of the field in struct nesvm_params */
    const char *def;          /* the default, as text */
    double lo, hi;            /* the valid range (numbers) */
    unsigned flags;           /* NV_PF_* */
    double auto_value;        /* NV_PF_AUTO: the value "auto" stands for */
    const char *const *words; /* NV_PT_WORD: the values, NULL-terminated */
    const char *expect;       /* what the error message says is expected */
    unsigned solvers;         /* NV_S_ALL, or NV_S_SOME: the registry's `uses` say */
    unsigned when;            /* NV_W_*: and only then */
    const char *cli;          /* command-line names, space-separated ("t kernel"); "" none */
    const char *metavar;      /* the value in --help ("C", "N", "adaptive|paper") */
    const char *help;         /* one line */
} nv_param_def;

/* The table, and its length. */
const nv_param_def *nv_param_table(int *count);
/* A row by name, NULL if there is none. */
const nv_param_def *nv_param_find(const char *name);
/* The row's index (the bit of nesvm_params.set_mask), -1 if there is none. */
int nv_param_index(const char *name);
/* Do p's kernel and model meet the row's conditions (NV_W_*)?  Which
 * solvers use it is the registry's (nv_solver_uses, solvers/solver.h). */
int nv_param_condition(const nv_param_def *d, const nesvm_params *p);
/* Does row i of p hold the row's default?  Compared as nesvm_params_get
 * writes them, so "1e8" and 100000000 are one value, and a value resolved
 * from "auto" at training (bias, basis) is not the default.  Model files write
 * only the rows that do not (model_io.c). */
int nv_param_is_default(const nesvm_params *p, int i);
/* nesvm_params_set without the check of solver names (the registry's). */
nesvm_status nv_params_set(nesvm_params *p, const char *name, const char *value, nesvm_error *err);

#endif
