/*
 * linalg.h - the hot products of every linear solver (not installed).
 *
 * Both products work on a row subset of a dataset: rows[0..n) (rows == NULL
 * means rows 0..n-1).  They are threaded with OpenMP over contiguous row
 * blocks; the transposed product sums per-thread partial vectors in thread
 * order, so results depend only on the thread count, never on scheduling.
 */
#ifndef NESVM_LINALG_H
#define NESVM_LINALG_H

#include "../data/dataset_internal.h"

/* Threads pay off only for products of at least this many stored entries:
 * below it a parallel region costs more than it saves, and on a loaded
 * machine a region waits for a descheduled thread. */
#define NV_PAR_MIN_WORK 1048576.0

typedef struct nv_linalg_ws {
    int threads;
    int32_t d;
    double *part;     /* threads * 2 * d partial sums (threads > 1) */
    double min_work;  /* NV_PAR_MIN_WORK; tests lower it to exercise threads */
} nv_linalg_ws;

nesvm_status nv_linalg_ws_init(nv_linalg_ws *ws, int threads, int32_t d, nesvm_error *err);
void nv_linalg_ws_free(nv_linalg_ws *ws);

/* out[i] = x_{rows[i]} . w + b, for i < n (w has X->d entries). */
void nv_xw(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *w, double b,
           double *out, const nv_linalg_ws *ws);

/*
 * Transposed product.  With split == NULL: outp = sum_i a[i] x_{rows[i]}.
 * With split != NULL: rows with split[i] > 0 accumulate into outp, the others
 * into outn.  Rows with a[i] == 0 are skipped.  Outputs have X->d entries.
 */
void nv_xta(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *a,
            const double *split, double *outp, double *outn, nv_linalg_ws *ws);

/* The weighted Gram product of a truncated Newton step in one pass over the
 * rows: t[i] = h[i] (x_{rows[i]} . v + b) and outp = sum_i t[i] x_{rows[i]}
 * (X->d entries; rows with t[i] == 0 skipped), each row read once for both
 * (nv_xw then nv_xta read X twice).  Bit for bit nv_xw, the product by h
 * and nv_xta's sum, at every thread count (the same row blocks and
 * reduction). */
void nv_xtdx(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *h, const double *v, double b,
             double *t, double *outp, nv_linalg_ws *ws);

/* A sum over rows in row blocks: out (d entries) = the sum of what
 * range(ctx, lo, hi, part) adds to a zeroed part for rows [lo, hi) of
 * [0, n).  Threaded as nv_xta (blocks by thread, partial sums reduced in
 * thread order: the result depends on the thread count only) when n
 * per_row stored entries reach ws->min_work.  For products over a row set:
 * nv_xtdx, fmat.c's. */
void nv_rows_sum(nv_linalg_ws *ws, int64_t n, double per_row, int32_t d,
                 void (*range)(const void *ctx, int64_t lo, int64_t hi, double *out), const void *ctx,
                 double *out);

/* Per-row infinity norm and squared 2-norm of x_{rows[i]} (either may be NULL). */
void nv_row_norms(const nesvm_dataset *X, const int64_t *rows, int64_t n, double *inf_norm,
                  double *sq_norm);

/* dst[0..d) = scale x_r as dense floats (each value rounded to float, then
 * multiplied in float); callers: the logistic Newton method's sketch rows
 * (newton.c) and the working set's float rows for sgemm (kmat.c). */
void nv_row_dense_float(const nesvm_dataset *X, int64_t r, float scale, float *dst);

/* out[j] = sum_i a[i] x_{rows[i], j}^2 (the diagonal of X^T diag(a) X). */
void nv_col_sq(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *a,
               double *out);

double nv_dot(const double *a, const double *b, int64_t n);

/*
 * k columns at once (the joint multiclass problems: one pass over X for k
 * weight vectors instead of k passes).  Wt is d x k row-major (Wt[j k + m]:
 * feature j of column m).
 *   nv_xw_k:  out[i k + m] = x_{rows[i]} . Wt[., m] + b[m] (b NULL: 0), for i < n;
 *   nv_xta_k: out[j k + m] = sum_i A[i k + m] x_{rows[i], j} (squares: x^2),
 *             rows whose k entries of A are all 0 skipped; part: the threads'
 *             partial sums (ws->threads x d x k entries; NULL: one thread),
 *             reduced in thread order.
 */
void nv_xw_k(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *Wt, int k, const double *b,
             double *out, const nv_linalg_ws *ws);
void nv_xta_k(const nesvm_dataset *X, const int64_t *rows, int64_t n, const double *A, int k, int squares,
              double *out, double *part, const nv_linalg_ws *ws);

/* One row r of X against na of the vectors w_m stored one after another in
 * W (w_m's entry j at W[m ld + j], ld >= d): out[c] = x_r . w_{cl[c]}, and
 * w_{ch[c]} += a[c] x_r for nch of them.  For the joint problems' dual
 * coordinate steps (multi_dcd.c), which touch a few of the k vectors of one
 * row at a time: a vector's entries lie together, so a row touches the cache
 * lines of the vectors it uses only, and the dot products run two vectors at
 * a time with independent sums (one sum per vector per stored entry would
 * chain through memory). */
void nv_row_dot_cols(const nesvm_dataset *X, int64_t r, const double *W, size_t ld, const int *cl, int na,
                     double *out);
void nv_row_axpy_cols(const nesvm_dataset *X, int64_t r, const double *a, const int *ch, int nch, double *W,
                      size_t ld);
/* One row r of X (a dataset row index): x_r . w, and out += a x_r (d entries). */
double nv_row_dot(const nesvm_dataset *X, int64_t r, const double *w);
void nv_row_axpy(const nesvm_dataset *X, int64_t r, double a, double *out);
/* Prefetch hints for a coming nv_row_dot/nv_row_axpy on row r, for loops
 * that visit rows in a random order (dcd.c) and whose time is otherwise the
 * memory's latency: _start, some steps ahead, the row's offset (CSR); _row,
 * fewer steps ahead (after _start's line has arrived), the row's first
 * values and indices (dense: its first values).  Hints only: no effect on
 * any result. */
void nv_row_prefetch_start(const nesvm_dataset *X, int64_t r);
void nv_row_prefetch_row(const nesvm_dataset *X, int64_t r);
/* x_r . z for a sparse z of zn entries (indices zi ascending, values zv),
 * without a dense vector: a merge of the two index lists for CSR rows
 * (O(nnz(x_r) + zn)), z's entries read from a dense row (those at or beyond
 * X->d are zero in it).  For data whose largest index is far beyond their
 * stored values (nv_dense_too_large), where a dense z would not be. */
double nv_row_dot_sparse(const nesvm_dataset *X, int64_t r, const int32_t *zi, const double *zv, int64_t zn);

#endif
