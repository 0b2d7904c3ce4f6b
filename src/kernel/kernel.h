/*
 * kernel.h - kernel functions, kernel blocks and kernel features (not
 * installed), shared by the kernel solvers: NESVM (full and reduced kernel),
 * SSVM/NSSVM (GSVM, RSVM) and GS-SVM (the column cache, kcache.c).
 *
 * Kernels use LIBSVM's numbering and parameter names:
 *   0 linear   K(u,v) = u.v
 *   1 poly     K(u,v) = (gamma u.v + coef0)^degree
 *   2 rbf      K(u,v) = exp(-gamma ||u - v||^2)
 *   3 sigmoid  K(u,v) = tanh(gamma u.v + coef0)
 *   4 precomputed  K(u,v) = u's value in the column of v's serial number
 *              (column 0 of a row; nesvm.h, nesvm_precomputed): a look-up
 * Every other kernel is a function of u.v and the squared norms, so a block
 * of K is one matrix product (BLAS dgemm for dense data, a scatter-and-dot
 * loop for sparse data) followed by an elementwise map.  The precomputed
 * kernel takes the same roads with its look-up for the product u.v, the
 * identity for the map and K(u,u) for the "squared norm" of u
 * (nv_kernel_sqnorms), so that every kernel path serves it unchanged.
 */
#ifndef NESVM_KERNEL_H
#define NESVM_KERNEL_H

#include "../data/dataset_internal.h"

enum { NV_KERNEL_LINEAR = 0, NV_KERNEL_POLY = 1, NV_KERNEL_RBF = 2, NV_KERNEL_SIGMOID = 3, NV_KERNEL_PRECOMPUTED = 4 };
/* how a reduced basis is chosen (nv_kfeat_build) */
enum { NV_BASIS_RANDOM = 0, NV_BASIS_GREEDY = 1 };
/* the penalty of the Newton family's kernel forms (param kernel_norm) */
enum { NV_KNORM_RKHS = 0, NV_KNORM_COEF = 1 };

typedef struct nv_kernel {
    int type;
    double gamma;  /* resolved (> 0) */
    double coef0;
    int degree;
} nv_kernel;

/* "linear", "poly", "rbf", "sigmoid", "precomputed" */
extern const char *const nv_kernel_names[5];

/* K from the dot product u.v and the squared norms ||u||^2, ||v||^2. */
double nv_kernel_value(const nv_kernel *k, double dot, double sqa, double sqb);

/* Is the kernel positive semi-definite on any data?  Linear, rbf, and poly
 * with coef0 >= 0 (a sum of powers of x.y with non-negative coefficients);
 * not the sigmoid kernel, nor poly with coef0 < 0, nor a precomputed kernel
 * (its matrix may be: nv_kernel_pc_psd). */
int nv_kernel_psd(const nv_kernel *k);

/*
 * Is the precomputed kernel's matrix over rows[0..n) of X (NULL: all)
 * positive semi-definite?  The rule (docs/solvers.md): it is when it is
 * symmetric (|K_ij - K_ji| <= tol) and K + tol I has a Cholesky
 * factorization (LAPACK dpotrf), tol = NV_PC_PSD_TOL n eps ||K||_inf (eps
 * the precision of X's values: double, or float): positive semi-definite up
 * to the rounding of its entries and of the factorization.  Otherwise *why says
 * what failed (an asymmetric pair, or the smallest eigenvalue, dsyevr, for
 * n up to NV_PC_EIG_MAX).  The check needs n^2 doubles: beyond mem_mb it
 * is not made, *psd is 0 and *why says so (the driver gives it the larger
 * of --kernel-memory and the data's own size).  Only out of memory fails.
 */
#define NV_PC_PSD_TOL 16.0
#define NV_PC_EIG_MAX 4000
nesvm_status nv_kernel_pc_psd(const nesvm_dataset *X, const int64_t *rows, int64_t n, double mem_mb, int threads,
                              int *psd, char *why, size_t why_size, nesvm_error *err);

/* The error for a (positive semi-definite) kernel with no positive K(x,x)
 * on the basis: rows of zeros under poly with coef0 0. */
nesvm_status nv_kernel_psd_error(const nv_kernel *k, nesvm_error *err);

/* Squared norms of rows[0..n) of X (rows == NULL: 0..n-1); under a
 * precomputed kernel k (NULL: none) K(x,x) instead, the row's value at its
 * own serial number (0 for a row without a valid one: a test row). */
void nv_kernel_sqnorms(const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows, int64_t n, double *out);

/*
 * One row z against the rows of a dataset X (kernel columns): its entries
 * (indices ascending), and, when the memory rule allows a dense vector of
 * X->d entries (nv_dense_too_large: not for a few values at a huge index),
 * the row scattered into z, zero elsewhere, for dot products that read it
 * directly (BLAS for dense rows).  Without z, dot products merge index lists.
 * Set a row, take its dot products, clear it (only the entries it set are
 * zeroed again: the cost follows the row, not X->d).
 */
typedef struct nv_zrow {
    double *z;      /* X->d entries, or NULL: merged dot products */
    int32_t *idx;   /* the row's entries */
    double *val;
    int64_t nnz, cap;
    int32_t d;      /* X->d: entries at or beyond it meet no row of X */
} nv_zrow;
nesvm_status nv_zrow_init(nv_zrow *zr, const nesvm_dataset *X, nesvm_error *err);
/* Room for rows of up to n entries (0: out of memory); a set within it
 * cannot fail. */
int nv_zrow_reserve(nv_zrow *zr, int64_t n);
/* Row r of D or a packed row (nv_rows_pack: label,
 * count, index-value pairs); 0: out of memory (nothing set). */
int nv_zrow_set(nv_zrow *zr, const nesvm_dataset *D, int64_t r);
int nv_zrow_set_packed(nv_zrow *zr, const double *packed);
void nv_zrow_clear(nv_zrow *zr);
/* x_r . z */
double nv_zrow_dot(const nv_zrow *zr, const nesvm_dataset *X, int64_t r);
/* K(x_r, z) with squared norms xsq and zsq (nv_kernel_sqnorms): the map of
 * x_r . z, or a precomputed kernel's look-up of z's serial number in x_r. */
double nv_kernel_zrow(const nv_kernel *k, const nv_zrow *zr, const nesvm_dataset *X, int64_t r, double xsq,
                      double zsq);
void nv_zrow_free(nv_zrow *zr);

/*
 * out[i * ldo + j] = K(x_{xrows[i]}, z_{zrows[j]}) for i < nx, j < nz: x rows
 * from X, z rows from Z (a rows array may be NULL for 0..n-1); xsq and zsq are
 * those rows' squared norms.  Columns beyond a dataset's d are zero in it.
 * When either side is dense, or X is CSR with at least NV_KCACHE_COPY_DENSITY
 * of its entries non-zero (and Z's rows fit 256 MB as a dense block), both
 * go through BLAS dgemm in row blocks, CSR rows densified (BLAS threads as the
 * BLAS library is configured); otherwise each z row is scattered into a dense
 * buffer (nv_zrow: merged instead when the widths are far beyond the stored
 * values) and dotted with the x rows, threaded over z rows with `threads`.
 * Deterministic for a given configuration.
 */
nesvm_status nv_kernel_block(const nv_kernel *k, const nesvm_dataset *X, const int64_t *xrows,
                             int64_t nx, const double *xsq, const nesvm_dataset *Z,
                             const int64_t *zrows, int64_t nz, const double *zsq, double *out,
                             int64_t ldo, int threads, nesvm_error *err);
/* nv_kernel_block with the RBF kernel's exponential computed by kfast.c's
 * vectorized polynomial (within 1 ulp of exp; xsq and zsq required): for
 * products of many values that are not the model's own (epsilon-SVR's
 * working-set margins and certificate, expansion_wst.c).  Other kernels:
 * nv_kernel_block. */
nesvm_status nv_kernel_block_fast(const nv_kernel *k, const nesvm_dataset *X, const int64_t *xrows, int64_t nx,
                                  const double *xsq, const nesvm_dataset *Z, const int64_t *zrows, int64_t nz,
                                  const double *zsq, double *out, int64_t ldo, int threads, nesvm_error *err);
/* x[j] = exp(x[j]) for x[j] <= 0 by kfast.c's polynomial (the unit test's). */
void nv_exp_block(double *x, int64_t n);

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
    /* distributed (nv_kfeat_build_dist): basis[] holds global positions,
     * bdata the basis rows gathered from their ranks (owned), bpos[a] the
     * row of bdata of basis a, and brow[a] its global dataset row; else NULL */
    nesvm_dataset *bdata;
    int64_t *bpos, *brow;
} nv_kfeat;

nesvm_status nv_kfeat_build(const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows,
                            int64_t n, int64_t m, int transform, int select, uint64_t seed,
                            double mem_mb, int threads, nv_kfeat *out, nesvm_error *err);
/* The bytes nv_kfeat_build needs for n rows and basis m (m <= 0 or >= n:
 * the full kernel), checked against its mem_mb. */
double nv_kfeat_bytes(int64_t n, int64_t m, int transform, int select);
/* The Nystrom approximation's relative error on the n rows the features
 * were built on (transform only; 0 otherwise):
 *   sum_i (K_ii - ||phi_i||^2) / sum_i K_ii,
 * over the rows with K_ii > 0; ||phi_i||^2 = k_iB^T K_BB^-1 k_iB is the
 * squared norm of x_i's projection on the span of the basis in the RKHS, so
 * this is the share of the rows' squared RKHS norm the basis misses (0 for
 * the full kernel, 1 for a basis orthogonal to every row). */
double nv_kfeat_residual(const nv_kfeat *f, const nesvm_dataset *X, const int64_t *rows, int64_t n);
/*
 * nv_kfeat_build over the ranks of c (data-parallel training): this rank
 * holds positions pos_offset .. pos_offset + n - 1 of the n_all training
 * rows (dataset rows row_offset + rows[i]).  The basis is the serial one:
 * every position (m <= 0 or m >= n_all), m of them drawn as the serial
 * draw does, or (select NV_BASIS_GREEDY) the greedy pivots, one at a time
 * over every rank's rows; its rows are gathered onto every rank (bdata), so
 * K_BB, its factor and U are every rank's, and phi holds this rank's n rows.
 */
struct nv_comm;
nesvm_status nv_kfeat_build_dist(const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows, int64_t n,
                                 int64_t pos_offset, int64_t row_offset, int64_t n_all, int64_t m, int transform,
                                 int select, uint64_t seed, double mem_mb, int threads, const struct nv_comm *c,
                                 nv_kfeat *out, nesvm_error *err);
/* f->X: the n x r features phi wrapped as a dense dataset (0: out of memory). */
int nv_kfeat_wrap(nv_kfeat *f, int64_t n);
/* nv_kfeat_residual over every rank's rows. */
nesvm_status nv_kfeat_residual_dist(const nv_kfeat *f, const nesvm_dataset *X, const int64_t *rows, int64_t n,
                                    const struct nv_comm *c, double *out, nesvm_error *err);

/* beta (r entries) of the expansion whose feature weights are v. */
void nv_kfeat_coef(const nv_kfeat *f, const double *v, double *beta);
void nv_kfeat_free(nv_kfeat *f);

/*
 * The kernel matrix of n training rows as an operator, for the solvers that
 * work on the expansion coefficients beta directly (expansion.c):
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

/* A long kernel computation's watch (NULL: none): between the stored
 * matrix's row blocks it stops at deadline (an nv_now() time, 0: none) and
 * calls tick (NULL: none), whose non-zero return stops it too (a cancel): both
 * with NESVM_ERR_CANCELLED, km freed.  So a time limit holds inside the n^2
 * kernel values of a large matrix, and the progress line moves and Ctrl-C
 * works while they are computed (12,000 rows: about 7 s). */
typedef struct nv_kwatch {
    double deadline;
    int (*tick)(void *ctx);
    void *ctx;
} nv_kwatch;
nesvm_status nv_kmat_init(nv_kmat *km, const nv_kernel *k, const nesvm_dataset *X,
                          const int64_t *rows, int64_t n, double mem_mb, int threads, const nv_kwatch *watch,
                          nesvm_error *err);
/* nv_kmat_init with the stored values' products u.v in single precision
 * (sgemm on a float copy of the rows, about twice dgemm's speed; then each
 * value from its product in double, the diagonal exact).  A value then
 * carries the float product's error besides its rounding to float: on
 * Fashion-MNIST with the RBF kernel at gamma 0.02 about 1e-5 relative near
 * K = 1, against 6e-8.  So it is for solvers whose certificate reads the
 * kernel in double precision elsewhere (the working set's K_SS:
 * expansion_ws.c certifies from double columns), never for a certificate
 * read off this matrix.  Rows too sparse for a dense product, more columns
 * than rows, a precomputed kernel, or no room for the float rows (n d
 * floats): as nv_kmat_init. */
nesvm_status nv_kmat_init_fast(nv_kmat *km, const nv_kernel *k, const nesvm_dataset *X, const int64_t *rows,
                               int64_t n, double mem_mb, int threads, const nv_kwatch *watch, nesvm_error *err);
void nv_kmat_free(nv_kmat *km);
/* nv_kmat_mul with the kernel values computed in double precision even where
 * the matrix is stored (in single precision): for certificates that must
 * hold for the kernel itself. */
nesvm_status nv_kmat_mul_exact(nv_kmat *km, const int64_t *ri, int64_t nr, const int64_t *ci, int64_t nc,
                               const double *V, int ncol, double *out, nesvm_error *err);
/* out (nr x ncol, row-major) = K[ri, ci] V with V nc x ncol row-major;
 * ri / ci are positions (NULL: 0..n-1, then nr / nc must be n). */
nesvm_status nv_kmat_mul(nv_kmat *km, const int64_t *ri, int64_t nr, const int64_t *ci, int64_t nc,
                         const double *V, int ncol, double *out, nesvm_error *err);
/* out[a * ldo + b] = K[ri[a], ci[b]]. */
nesvm_status nv_kmat_block(nv_kmat *km, const int64_t *ri, int64_t nr, const int64_t *ci,
                           int64_t nc, double *out, int64_t ldo, nesvm_error *err);
/* K[i, i]. */
double nv_kmat_diag(const nv_kmat *km, int64_t i);
/* dst = the stored matrix of the positions pos[0..m) of src (which must be
 * stored): m^2 values copied, none computed; products on a few rows of a
 * large matrix then read contiguous rows instead of gathering. */
nesvm_status nv_kmat_gather(const nv_kmat *src, const int64_t *pos, int64_t m, nv_kmat *dst, nesvm_error *err);

/*
 * Kernel columns with an LRU cache (GS-SVM).  The n training positions
 * (the rows given to nv_kcache_init) fall into groups: one, or the classes
 * of a one-vs-one training.  The cache holds column segments: segment
 * (j, g) is K(x_i, x_j) for the positions i of group g.  A one-vs-one pair
 * asks for the segments of its two classes, so x_j's segment over its own
 * class serves every pair x_j is selected in, and no pair computes the
 * rows of the other classes.  Values come from the squared norms
 * (precomputed) and one dot product per row with x_j (nv_zrow: scattered
 * into a dense vector, BLAS ddot for dense double rows, or merged for a few
 * values at a huge index; threaded over rows with `threads` when the segment
 * is large enough).  Segments are kept least-recently-used
 * within mem_mb megabytes (LIBSVM's -m; 0 = no cache).  Counters: hits and
 * misses (segments), evals (values computed) and asked (values requested:
 * what a run without the cache computes).
 */
typedef struct nv_kcache {
    nv_kernel k;
    const nesvm_dataset *X;
    int64_t n;
    int64_t *rows;        /* n dataset rows */
    double *sq;           /* n squared norms */
    int threads;
    int ngroups;          /* groups of positions (segments per column) */
    int *group;           /* n: position -> group (NULL with one group) */
    int64_t *within;      /* n: position -> index within its group */
    int64_t *gstart;      /* ngroups + 1: group g is order[gstart[g] .. gstart[g+1]) */
    int64_t *order;       /* n positions, stably sorted by group */
    int64_t budget;       /* doubles the cache may hold */
    int64_t used;         /* doubles held */
    double **seg;         /* n * ngroups: segment (j, g) at j * ngroups + g, or NULL */
    int64_t *prev, *next; /* LRU list over cached keys; head = most recent */
    int64_t head, tail;
    double *scratch;      /* n: a segment that is not cached */
    double *out;          /* n: a column gathered for a subset of positions */
    nv_zrow z;            /* the column's row */
    double *Xg;           /* the rows as dense doubles in `order` (each group
                           * contiguous), or NULL: read in place */
    double *fill;         /* nv_kcache_fill's block, kept between calls */
    size_t fill_cap;
    int64_t hits, misses, evals, asked;
} nv_kcache;

/* Segments per column are capped: with more than NV_KCACHE_MAX_KEYS
 * (position, group) keys the cache keeps whole columns (one group). */
#define NV_KCACHE_MAX_KEYS 16777216
/* group: n group numbers in [0, ngroups) (NULL or ngroups <= 1: one group).
 * The rows are copied as dense doubles in group order (Xg) when the copy
 * takes at most copy_mb megabytes, the data are at least
 * NV_KCACHE_COPY_DENSITY non-zero, and they are not already dense doubles in
 * one group: a group's rows are scattered through X, and reading them in
 * place defeats the hardware prefetcher; CSR dot products are chains of
 * dependent additions.  Measured on 12,000 Fashion-MNIST rows (ten classes,
 * one-vs-one, 1 thread): 13.1 s from CSR, 12.3 s dense in place, 4.8 s
 * from the copy. */
#define NV_KCACHE_COPY_DENSITY 0.1
nesvm_status nv_kcache_init(nv_kcache *c, const nv_kernel *k, const nesvm_dataset *X,
                            const int64_t *rows, int64_t n, const int *group, int ngroups,
                            double mem_mb, double copy_mb, int threads, nesvm_error *err);
void nv_kcache_free(nv_kcache *c);
/* *col[a] = K(x_{sub[a]}, x_pos) for a < nsub, where sub's positions all lie
 * in the groups groups[0..ng) (sub == NULL: every position in order, nsub = n,
 * and groups may be NULL).  The column stays valid until the next call. */
nesvm_status nv_kcache_column(nv_kcache *c, int64_t pos, const int64_t *sub, int64_t nsub,
                              const int *groups, int ng, const double **col, nesvm_error *err);
/* Compute the segments of the columns pos[0..npos) over the groups
 * groups[0..ng) (NULL: all) that are not cached, in batches of one kernel
 * block each (nv_kernel_block: dgemm for dense data, where a column at a
 * time is one dot product per row), and cache them (least-recently-used
 * eviction; those beyond the budget are left to nv_kcache_column). */
nesvm_status nv_kcache_fill(nv_kcache *c, const int64_t *pos, int64_t npos, const int *groups, int ng,
                            nesvm_error *err);
/* K(x_pos, x_pos). */
double nv_kcache_diag(const nv_kcache *c, int64_t pos);
/* out[a] = K(x_{pos[a]}, z) for a < npos (pos NULL: 0..npos-1) of a row z
 * that is not among the cache's (set in zr, nv_zrow_init'ed for the cache's
 * X; squared norm zsq: a row from another MPI rank); not cached, counted as
 * a column computed. */
void nv_kcache_external(nv_kcache *c, const nv_zrow *zr, double zsq, const int64_t *pos, int64_t npos, double *out);

#endif
