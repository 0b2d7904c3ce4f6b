/* interop_internal.h - models to and from LIBSVM and LIBLINEAR files, shared
 * by interop.c (nesvm_model_export and nesvm_model_import: the format and the
 * file), interop_text.c (the imported file's lines, the nesvm model text
 * written from them), interop_libsvm.c and interop_liblinear.c (one format
 * each, both ways: the mapping is in each file's opening comment).
 *
 * Import reads the other tool's file line by line into a nesvm model file's
 * text (model_io.c's format), which nesvm_model_load_buffer then reads and
 * checks as it checks every model file.  C is in neither file: the model
 * says c 1 (give -c when training from it).
 */
#ifndef NESVM_MODEL_INTEROP_INTERNAL_H
#define NESVM_MODEL_INTEROP_INTERNAL_H

#include "model_internal.h"

#include <stdio.h>

/* ---- export: one format each (f: the file being written) */
nesvm_status nv_libsvm_export(const nesvm_model *m, FILE *f, nesvm_error *err);
nesvm_status nv_liblinear_export(const nesvm_model *m, FILE *f, nesvm_error *err);
/* A number as the model files write it (nv_format_double). */
void nv_interop_num(FILE *f, double v);
/* An epsilon-SVR's problem name: 1 the tube (svr_epsilon_insensitive_l2,
 * NESVM's free bias, or with _regularized_bias, Hyperpass's), 2 the squared
 * tube (svr_squared_epsilon_insensitive_l2, or SSVM/NSSVM's with
 * _regularized_bias), 0 another problem. */
int nv_svr_problem(const char *problem);

/* ---- import: the other tool's file, a line at a time */
typedef struct imp_reader {
    FILE *f;
    const char *path;
    char *line;
    size_t cap;
    int64_t lineno;
    char **tok;  /* the line's tokens (grown as needed) */
    int ntok, tcap;
    int more;    /* tok could not grow to the line's tokens (out of memory) */
    int pending; /* the current line is to be read again */
    double size; /* the file's bytes: what its counts can claim */
} imp_reader;

/* A malformed line: NESVM_ERR_MODEL with the message, prefixed
 * "PATH:LINE" (needs `r`, the imp_reader, and `err` in scope). */
#define FAIL(...) (nv_error(err, NESVM_ERR_MODEL, __VA_ARGS__), nv_error_prefix(err, "%s:%lld", r->path, (long long)r->lineno))

/* The next line split at blanks: 1, 0 at the end of the file, -1 out of
 * memory (the line's tokens could not be held). */
int nv_imp_next(imp_reader *r);
/* The next non-empty header line: 1, or 0 at the line `end` that closes the
 * header, or -1 (the file ends first: *st says so). */
int nv_imp_header(imp_reader *r, const char *end, nesvm_status *st, nesvm_error *err);
/* n numbers from tokens 1..n of the line into out. */
nesvm_status nv_imp_numbers(imp_reader *r, int64_t n, double *out, nesvm_error *err);
/* nr_class's value into *k (once; 2 to 65535). */
nesvm_status nv_imp_nr_class(imp_reader *r, int *k, nesvm_error *err);
/* The k labels of a 'label' line, each once. */
nesvm_status nv_imp_labels(imp_reader *r, int k, double *label, nesvm_error *err);
/* The memory of a translated model, refused (with a message naming the file)
 * by the rules training follows (train.c's check_sizes): a linear kernel's
 * dense weight vector by the largest feature index, when the support vectors
 * hold few values (nv_dense_too_large), and the whole model with its text
 * beyond the machine's memory.  nsub sub-models of ncoef coefficients; nnz
 * and nsv: the support vectors' values and count (a LIBSVM model). */
nesvm_status nv_imp_budget(const imp_reader *r, int lin, int32_t d, int64_t nnz, int64_t nsv, int k, int64_t nsub,
                           int64_t ncoef, nesvm_error *err);

/* Support vectors: each line's "idx:val" tokens (from token `from`) appended
 * as a CSR row. */
typedef struct imp_svs {
    int64_t n, nnz, cap_rows, cap_nnz;
    int64_t *ptr;
    int32_t *idx;
    double *val;
    int32_t d;
} imp_svs;
nesvm_status nv_imp_sv(imp_reader *r, int from, imp_svs *sv, nesvm_error *err);
void nv_imp_svs_free(imp_svs *sv);

/* ---- import: the nesvm model file's text being written */
typedef struct imp_text {
    char *s;
    size_t len, cap;
    int oom; /* an append failed: the text is incomplete */
} imp_text;
void nv_imp_put(imp_text *t, const char *fmt, ...) NV_PRINTF(2, 3);
void nv_imp_put_num(imp_text *t, double v);
/* The model file's header lines, up to the parameters (c 1). */
void nv_imp_put_header(imp_text *t, const char *solver, const char *problem, const char *kernel,
                       const char *multiclass, int k,
                       const double *labels, int32_t d);
/* The header of an epsilon-SVR (task regression, svm_type svr, no classes)
 * with its parameters: bias (<= 0: none), the loss and the tube p (the
 * peer's; LIBLINEAR's files do not record p: its default 0.1 then); C 1 as
 * for the classifiers. */
void nv_imp_put_header_svr(imp_text *t, const char *problem, const char *kernel, double bias, const char *loss,
                           double p, int32_t d);
/* The header of an imported one-class SVM (solver nesvm, problem
 * one_class_svm_hinge_l2, task novelty) with its nu, in the current format. */
void nv_imp_put_header_oc(imp_text *t, const char *kernel, double nu, int32_t d);
/* Sub-model s: its header, bias, sigmoid (prob, or NULL) and the n
 * coefficients w under the line `what` ("w" or "beta"). */
void nv_imp_put_submodel(imp_text *t, int s, int pos, int neg, double b, const double *prob, const char *what,
                         const double *w, int64_t n);

/* ---- import: one format each, from the header's first line on */
nesvm_status nv_libsvm_import(imp_reader *r, imp_text *t, nesvm_error *err);
nesvm_status nv_liblinear_import(imp_reader *r, imp_text *t, nesvm_error *err);

#endif
