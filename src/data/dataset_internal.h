/* dataset_internal.h - the dataset object (not installed). */
#ifndef NESVM_DATASET_INTERNAL_H
#define NESVM_DATASET_INTERNAL_H

#include "../core/internal.h"

struct nesvm_dataset {
    int64_t n;              /* rows */
    int32_t d;              /* features (columns) */
    int64_t nnz;            /* stored entries (n*d when dense) */
    nesvm_storage storage;  /* CSR or DENSE, never AUTO */
    nesvm_precision prec;
    /* CSR: row i is [indptr[i], indptr[i+1]) of indices/values (0-based columns) */
    const int64_t *indptr;
    const int32_t *indices;
    const int64_t *indices64; /* instead of indices: 64-bit column indices (borrowed from
                               * nesvm_dataset_wrap_csr_ex); exactly one is set (CSR) */
    const void *values;     /* double or float, CSR values or dense n*d row-major */
    const double *labels;
    const double *weights;  /* per-row sample weights (borrowed; NULL = all 1) */
    int blas_rows;          /* dense double rows taken by BLAS ddot/daxpy (internal
                             * feature matrices; user data keeps the loops that give
                             * CSR and dense storage identical sums) */
    /* buffers owned by the dataset (NULL when borrowed) */
    void *own_indptr, *own_indices, *own_values, *own_labels;
};

/* 1 when the arrays are an n x d CSR matrix: indptr[0] = 0, rows that do
 * not shrink, columns (32-bit, or 64-bit when indices is NULL) in [0, d)
 * and strictly ascending within each row.  For NV_ASSERT on matrices the
 * library built from checked input: a pass over every entry. */
int nv_csr_valid(int64_t n, int32_t d, const int64_t *indptr, const int32_t *indices, const int64_t *indices64);

/* Build an owned CSR dataset; values are double or float as prec says (takes
 * ownership of the arrays on success and on failure). */
nesvm_status nv_dataset_from_csr(int64_t n, int32_t d, int64_t *indptr, int32_t *indices,
                                 void *values, nesvm_precision prec, double *labels,
                                 nesvm_dataset **out, nesvm_error *err);
/* Convert storage/precision of an owned CSR dataset in place (values are
 * rounded to float at most once). */
nesvm_status nv_dataset_convert(nesvm_dataset *ds, nesvm_storage storage, nesvm_precision prec,
                                double dense_threshold, nesvm_error *err);
/* An owned CSR copy (double values) of rows[0..n) of ds, with their labels. */
nesvm_status nv_dataset_copy_rows(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                  nesvm_dataset **out, nesvm_error *err);
/* An owned copy of rows[0..n) of ds (rows NULL: the first n) with one more
 * column, d, of the constant B: LIBLINEAR's bias feature [x_i, B]
 * (solvers/bias_feature.h).  The storage and precision are ds's, the labels
 * copied (0 without). */
nesvm_status nv_dataset_with_const(const nesvm_dataset *ds, const int64_t *rows, int64_t n, double B,
                                   nesvm_dataset **out, nesvm_error *err);
/* FNV-1a fingerprint of rows[0..n) of ds (rows NULL: the first n rows): their
 * labels, non-zero entries and weights; the same for CSR and dense storage.
 * Checkpoints and nesvm grid's CSV record it to recognise their data. */
uint64_t nv_dataset_hash(const nesvm_dataset *ds, const int64_t *rows, int64_t n);
/* Column of stored entry k (CSR), whichever width the indices have; hot
 * loops branch once per row on ds->indices64 instead. */
static inline int64_t nv_idx(const nesvm_dataset *ds, int64_t k)
{
    return ds->indices64 ? ds->indices64[k] : (int64_t)ds->indices[k];
}
/* Value of stored entry k (CSR) or cell k (dense) as double. */
static inline double nv_val(const nesvm_dataset *ds, int64_t k)
{
    return ds->prec == NESVM_FLOAT ? (double)((const float *)ds->values)[k]
                                   : ((const double *)ds->values)[k];
}

/* Precomputed kernels (precomputed.c; nesvm.h, nesvm_precomputed): column 0
 * of a row is its serial number, column j its kernel value against serial
 * number j.  nv_row_value: row r's value in column col (0 where the row
 * stores none, or col is outside [0, d)); nv_pc_serial: row r's serial
 * number, or 0 when column 0 is not an integer in [1, 2^31 - 1]. */
double nv_row_value(const nesvm_dataset *ds, int64_t r, int64_t col);
int64_t nv_pc_serial(const nesvm_dataset *ds, int64_t r);
/* The training rows rows[0..n) (NULL: all): every serial number a positive
 * integer, the matrix square (every row gives a kernel value at every
 * serial number: with lines, the reader's, its stored entries; else its d -
 * 1 columns), no serial number twice.  Messages name "path:LINE" (lines:
 * each row's line in the file) or "training row A". */
nesvm_status nv_pc_check_train(const nesvm_dataset *ds, const int64_t *rows, int64_t n, const char *path,
                               const int64_t *lines, nesvm_error *err);
/* The largest serial number of the rows of basis (NULL: 0): the kernel
 * values a row must give to be predicted by a model of these support
 * vectors. */
int64_t nv_pc_columns(const nesvm_dataset *basis);
/* A model's support vectors as LIBSVM keeps them: each row replaced by its
 * serial number alone (column 0; *basis freed and replaced). */
nesvm_status nv_pc_trim(nesvm_dataset **basis, nesvm_error *err);

/* The rows of the lines of a plain (uncompressed) LIBSVM file that start in
 * bytes [begin, end) (the line a range's first byte falls inside belongs to
 * the range before): the ranges [o_k, o_k+1) of any offsets 0 = o_0 <= o_1 <=
 * ... <= o_P = file size partition the file's rows, in order.  first_line is
 * the number of the range's first line in the file, for exact messages;
 * *lines (may be NULL) receives the lines the range holds (comments and empty
 * lines too), so that the next range starts at first_line + *lines.  A range
 * without data is NESVM_ERR_DATA; a compressed file, NESVM_ERR_UNSUPPORTED. */
nesvm_status nv_dataset_read_range(const char *path, const nesvm_read_options *opt, int64_t begin, int64_t end,
                                   int64_t first_line, int64_t *lines, nesvm_dataset **out, nesvm_error *err);

/* The arrays of an n-row CSR matrix of nnz entries with labels (nv_free
 * each, or hand them to nv_dataset_from_csr); 0 (and all NULL) when out of
 * memory. */
int nv_csr_alloc(int64_t n, int64_t nnz, int64_t **ip, int32_t **ix, double **vx, double **lb);

/* Rows sent between MPI ranks (rowpack.c): each row packed into doubles as
 * its label, its non-zero count k and k (index, value) pairs.  _size: the
 * doubles rows[0..n) (NULL: 0..n-1) take; _pack writes them and returns the
 * count; _unpack makes an owned CSR dataset of d features from a sequence of
 * packed rows (the concatenation of several packs is one). */
int64_t nv_rows_pack_size(const nesvm_dataset *ds, const int64_t *rows, int64_t n);
int64_t nv_rows_pack(const nesvm_dataset *ds, const int64_t *rows, int64_t n, double *out);
nesvm_status nv_rows_unpack(const double *in, int64_t len, int32_t d, nesvm_dataset **out, nesvm_error *err);
/* Every rank's rows[0..n) of ds (NULL: 0..n-1) gathered in rank order onto
 * every rank: *out an owned CSR dataset of ds->d features (*total rows), and
 * *pre_all the npre values each row brought from pre (row i's at
 * pre[i npre]) in the same order (nv_free).  Collective; a rank's failure is
 * every rank's. */
struct nv_comm;
nesvm_status nv_rows_gather(const struct nv_comm *c, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                            const double *pre, int npre, double **pre_all, nesvm_dataset **out, int64_t *total,
                            nesvm_error *err);

/* This rank's share of `path` over c's ranks (read_dist.c,
 * nesvm_dataset_read_distributed). */
struct nv_comm;
nesvm_status nv_dataset_read_distributed(const char *path, const nesvm_read_options *opt,
                                         const struct nv_comm *c, nesvm_dataset **out, nesvm_error *err);

/* The k-th of parts equal cut points of a file of `size` bytes (k = 0: 0,
 * k = parts: size), before moving to a line start: `nesvm split` and the
 * ranks of a distributed read cut alike. */
int64_t nv_range_cut(int64_t size, int64_t k, int64_t parts);

/* The first line start at or after byte `at` of the open file fd of `size`
 * bytes: `at` itself when byte at - 1 is a newline (or at is 0), else just
 * after the next newline (size if none).  The cut points of
 * nv_dataset_read_range and of `nesvm split`. */
nesvm_status nv_line_start(int fd, const char *name, int64_t at, int64_t size, int64_t *out, nesvm_error *err);

#endif
