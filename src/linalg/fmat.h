/*
 * fmat.h - a float copy of a problem's rows for the products that tolerate
 * float rounding (not installed).
 *
 * Its caller: the linear truncated Newton of a curved loss (the logistic's,
 * solvers/nesvm/newton.c), whose every row lies in the Hessian's zone.  Its
 * CG runs one weighted Gram product X^T diag(h) X v a step, and its
 * preconditioner samples rows of the same matrix; neither decides the model
 * (the gradient, the margins, the line search and the certificate keep the
 * user's values), so both may read a smaller copy:
 *   - only the non-zero values, as float, with 16-bit columns (d at most
 *     NV_FMAT_D_MAX): 6 bytes a value against CSR double data's 12, so a
 *     pass bound by the rows' stream takes about half the time (past 65,536
 *     features the product's vectors leave the cache and its gathers, not
 *     the stream, set its pace: on 100,000 features the copy was slower);
 *   - built from CSR and dense storage alike (zeros dropped), so both give
 *     the same copy and the same model (the CLI's `--storage` promise);
 *   - row sums in four independent chains (the user data's loops keep one
 *     chain, whose order CSR and dense storage share).
 * Rows are the problem's, in its order: row i of the copy is x_{rows[i]}.
 */
#ifndef NESVM_FMAT_H
#define NESVM_FMAT_H

#include "linalg.h"

#define NV_FMAT_D_MAX 65536 /* columns that fit 16 bits */

typedef struct nv_fmat {
    int64_t n;     /* rows */
    int32_t d;     /* columns, at most NV_FMAT_D_MAX */
    int64_t *ptr;  /* n + 1 row starts */
    float *val;    /* the non-zero values */
    uint16_t *col; /* their columns */
} nv_fmat;

/* Bytes nv_fmat_build would take for rows[0..n) of X (at most: a CSR
 * matrix's explicit zeros and a dense matrix's zeros are counted). */
double nv_fmat_bytes(const nesvm_dataset *X, const int64_t *rows, int64_t n);

/* Build the copy of rows[0..n) (rows NULL: 0..n-1) of X, whose d is at
 * most NV_FMAT_D_MAX; with F empty, NESVM_ERR_NOMEM when out of memory and
 * NESVM_ERR_NUMERIC when a value is beyond float's range. */
nesvm_status nv_fmat_build(nv_fmat *F, const nesvm_dataset *X, const int64_t *rows, int64_t n,
                           nesvm_error *err);
void nv_fmat_free(nv_fmat *F);

/* nv_xtdx on the copy: t[k] = h[k] (f_{idx[k]} . v + b) and
 * out = sum_k t[k] f_{idx[k]} for k < n (idx NULL: k itself), threaded as
 * nv_xtdx (the same row blocks and reduction: the result depends on the
 * thread count only). */
void nv_fmat_xtdx(const nv_fmat *F, const int64_t *idx, int64_t n, const double *h, const double *v, double b,
                  double *t, double *out, nv_linalg_ws *ws);

/* out[j] = sum_k h[k] f_{idx[k], j}^2 (the diagonal of F^T diag(h) F). */
void nv_fmat_col_sq(const nv_fmat *F, const int64_t *idx, int64_t n, const double *h, double *out);

/* a[0..d) = scale f_i (row i dense, in float). */
void nv_fmat_row(const nv_fmat *F, int64_t i, float scale, float *a);

#endif
