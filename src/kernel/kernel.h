/*
 * kernel.h - kernel functions, kernel blocks and kernel features (not
 * installed), shared by the kernel solvers (NESVM now; the reduced-kernel
 * Newton solvers and GS-SVM later).
 *
 * Kernels use LIBSVM's numbering and parameter names:
 *   0 linear   K(u,v) = u.v
 *   1 poly     K(u,v) = (gamma u.v + coef0)^degree
 *   2 rbf      K(u,v) = exp(-gamma ||u - v||^2)
 *   3 sigmoid  K(u,v) = tanh(gamma u.v + coef0)
 * Every kernel is a function of u.v and the squared norms, so a block of K is
 * one matrix product (BLAS dgemm for dense data, a scatter-and-dot loop for
 * sparse data) followed by an elementwise map.
 */
#ifndef NESVM_KERNEL_H
#define NESVM_KERNEL_H

#include "../data/dataset_internal.h"

enum { NV_KERNEL_LINEAR = 0, NV_KERNEL_POLY = 1, NV_KERNEL_RBF = 2, NV_KERNEL_SIGMOID = 3 };
/* how a reduced basis is chosen (nv_kfeat_build) */
enum { NV_BASIS_RANDOM = 0, NV_BASIS_GREEDY = 1 };

typedef struct nv_kernel {
    int type;
    double gamma;  /* resolved (> 0) */
    double coef0;
    int degree;
} nv_kernel;

/* "linear", "poly", "rbf", "sigmoid" */
extern const char *const nv_kernel_names[4];

/* K from the dot product u.v and the squared norms ||u||^2, ||v||^2. */
double nv_kernel_value(const nv_kernel *k, double dot, double sqa, double sqb);

/* The error for a kernel with no positive K(x,x) on the basis. */
nesvm_status nv_kernel_psd_error(const nv_kernel *k, nesvm_error *err);

/* Squared norms of rows[0..n) of X (rows == NULL: 0..n-1). */
void nv_kernel_sqnorms(const nesvm_dataset *X, const int64_t *rows, int64_t n, double *out);

/*
 * out[i * ldo + j] = K(x_{xrows[i]}, z_{zrows[j]}) for i < nx, j < nz: x rows
 * from X, z rows from Z (a rows array may be NULL for 0..n-1); xsq and zsq are
 * those rows' squared norms.  Columns beyond a dataset's d are zero in it.
 * Dense x dense goes through BLAS dgemm in row blocks (BLAS threads as the
 * BLAS library is configured); otherwise each z row is scattered into a dense
 * buffer and dotted with the x rows, threaded over z rows with `threads`.
 * Deterministic for a given configuration.
 */
nesvm_status nv_kernel_block(const nv_kernel *k, const nesvm_dataset *X, const int64_t *xrows,
                             int64_t nx, const double *xsq, const nesvm_dataset *Z,
                             const int64_t *zrows, int64_t nz, const double *zsq, double *out,
                             int64_t ldo, int threads, nesvm_error *err);

/*
 * Kernel features: a dense n x r matrix Phi with Phi Phi^T = K (or K_nB for
 * LP-SVM), so that a linear solver on Phi solves the kernel problem.
 *
 *   basis B  all n rows (full kernel), or m of them: drawn at random (select
 *            NV_BASIS_RANDOM, seeded) or the pivots of a greedy pivoted
 *            Cholesky factorization of K (NV_BASIS_GREEDY: each row the one the
 *            Nystrom approximation so far fits worst; deterministic; n m more
 *            kernel values); a pivoted Cholesky factorization (LAPACK dpstrf) of K_BB
 *            keeps the r <= |B| pivots that are numerically independent:
 *            P^T K_BB P = U^T U with U upper triangular r x r;
 *   factor   (transform = 1) Phi = K_{n,B_r} U^{-1}, hence Phi Phi^T =
 *            K_{n,B_r} K_{B_r B_r}^{-1} K_{B_r,n}, which is K itself for the
 *            full kernel (up to dpstrf's tolerance) and the Nystrom
 *            approximation for a reduced basis; a weight vector v on Phi is
 *            the expansion f(x) = sum_k beta_k K(x, b_k) with beta = U^{-1} v
 *            and ||v||^2 = beta^T K_BB beta (the paper's penalty);
 *   plain    (transform = 0, LP-SVM) Phi = K_{n,B}, beta = v (the L1 norm
 *            is taken on the expansion coefficients).
 * The full kernel needs n^2 doubles for K_BB: mem_mb bounds it.
 */
typedef struct nv_kfeat {
    nv_kernel k;
    int64_t r;            /* basis size kept */
    int64_t *basis;       /* r row indices (into the rows given to nv_kfeat_build) */
    double *U;            /* r x r row-major upper factor (transform), else NULL */
    double *phi;          /* n x r row-major features */
    nesvm_dataset *X;     /* phi wrapped as a dense dataset (borrowed buffer) */
    int64_t evals;        /* kernel values computed */
} nv_kfeat;

nesvm_status nv_kfeat_build(const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows,
                            int64_t n, int64_t m, int transform, int select, uint64_t seed,
                            double mem_mb, int threads, nv_kfeat *out, nesvm_error *err);
/* beta (r entries) of the expansion whose feature weights are v. */
void nv_kfeat_coef(const nv_kfeat *f, const double *v, double *beta);
void nv_kfeat_free(nv_kfeat *f);

/*
 * The kernel matrix of n training rows as an operator, for the solvers that
 * work on the expansion coefficients beta directly (nesvm_kernel.c):
 *   stored   when n^2 floats fit mem_mb, K is computed once (its lower
 *            triangle in row blocks, dgemm for dense data) and kept in
 *            single precision; products then read it;
 *   on the fly  otherwise every product recomputes the kernel values it
 *            needs, in blocks of at most 64 MB (nv_kernel_block), so memory
 *            stays O(n) whatever n is, at the price of kernel evaluations.
 * Positions are 0..n-1 (the order of the rows given to nv_kmat_init).
 * A kernel with no positive K(x,x) is an error (nv_kernel_psd_error).
 */
typedef struct nv_kmat {
    nv_kernel k;
    const nesvm_dataset *X;
    int64_t n;
    int64_t *rows;      /* n dataset rows */
    double *sq;         /* n squared norms */
    float *K;           /* n x n row-major, or NULL: on the fly */
    int threads;
    int64_t evals;      /* kernel values computed so far (the stored matrix counts once) */
    int64_t *xr, *zr;   /* scratch: dataset rows of a block */
    double *xs, *zs;    /* scratch: their squared norms */
    double *blk;        /* scratch: one kernel block */
    size_t blk_cap;
} nv_kmat;

nesvm_status nv_kmat_init(nv_kmat *km, const nv_kernel *k, const nesvm_dataset *X,
                          const int64_t *rows, int64_t n, double mem_mb, int threads,
                          nesvm_error *err);
void nv_kmat_free(nv_kmat *km);
/* out (nr x ncol, row-major) = K[ri, ci] V with V nc x ncol row-major;
 * ri / ci are positions (NULL: 0..n-1, then nr / nc must be n). */
nesvm_status nv_kmat_mul(nv_kmat *km, const int64_t *ri, int64_t nr, const int64_t *ci, int64_t nc,
                         const double *V, int ncol, double *out, nesvm_error *err);
/* out[a * ldo + b] = K[ri[a], ci[b]]. */
nesvm_status nv_kmat_block(nv_kmat *km, const int64_t *ri, int64_t nr, const int64_t *ci,
                           int64_t nc, double *out, int64_t ldo, nesvm_error *err);
/* K[i, i]. */
double nv_kmat_diag(const nv_kmat *km, int64_t i);

/*
 * Kernel columns with an LRU cache (GS-SVM): column j is K(x_i, x_j) for
 * every training position i (0..n-1, the rows given to nv_kcache_init),
 * computed from the squared norms (precomputed) and one dot product per row
 * with x_j scattered into a dense vector (CSR and dense rows alike; threaded
 * over rows with `threads` when the column is large enough)
 * and kept in a least-recently-used cache of mem_mb megabytes (LIBSVM's -m;
 * 0 = no cache).  Counters: hits, misses (columns computed) and kernel values
 * computed.  A returned column stays valid until the next call.
 */
typedef struct nv_kcache {
    nv_kernel k;
    const nesvm_dataset *X;
    int64_t n;
    int64_t *rows;        /* n dataset rows */
    double *sq;           /* n squared norms */
    int threads;
    int64_t nslots;       /* columns the cache holds (0: none) */
    double *store;        /* nslots x n, or one scratch column */
    int64_t *slot_of;     /* n: position -> slot or -1 */
    int64_t *key;         /* nslots: slot -> position or -1 */
    int64_t *prev, *next; /* LRU list over slots; head = most recent */
    int64_t head, tail, used;
    double *z;            /* X->d scratch: the column's row, dense */
    int64_t hits, misses, evals;
} nv_kcache;

nesvm_status nv_kcache_init(nv_kcache *c, const nv_kernel *k, const nesvm_dataset *X,
                            const int64_t *rows, int64_t n, double mem_mb, int threads,
                            nesvm_error *err);
void nv_kcache_free(nv_kcache *c);
/* *col = the n values K(x_i, x_pos), i = 0..n-1. */
nesvm_status nv_kcache_column(nv_kcache *c, int64_t pos, const double **col, nesvm_error *err);
/* K(x_pos, x_pos). */
double nv_kcache_diag(const nv_kcache *c, int64_t pos);

#endif
