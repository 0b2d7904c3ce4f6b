/*
 * nesvm.h - the one public header of libnesvm.
 *
 * nesvm trains support vector machines with fast primal solvers.  This header
 * is the whole C API: opaque handles (dataset, params, model), one status
 * table, a caller-owned error object for detailed messages, a progress
 * callback that can cancel, and a statistics struct filled by every training.
 *
 * Conventions
 *   - Every fallible call returns nesvm_status (0 = NESVM_OK).  When `err` is
 *     non-NULL it receives the status and a message naming what went wrong
 *     (file, line, column and what was expected, for parse errors).
 *   - Objects come in _create/_destroy (or _read, _load, _train / _destroy)
 *     pairs; every _destroy(NULL) is a no-op.
 *   - The library never exits, aborts or prints.  It has no mutable global
 *     state.
 *
 * Thread safety
 *   - Distinct objects may be used from distinct threads at the same time:
 *     two trainings on two threads do not interfere.
 *   - A dataset and a model are read-only after creation; any number of
 *     threads may train from the same dataset or predict with the same model
 *     concurrently.
 *   - A params object must not be modified while a training that uses it is
 *     running.  A nesvm_error object must not be shared between threads.
 *   - The progress callback is called from the thread that called
 *     nesvm_train / nesvm_cross_validate, never from a worker thread.
 *   - With the same data, parameters, seed and thread count, training gives
 *     bit-identical models (threaded reductions sum partials in fixed order).
 */
#ifndef NESVM_H
#define NESVM_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(NESVM_STATIC_DEFINE)
#define NESVM_API
#elif defined(__GNUC__)
#define NESVM_API __attribute__((visibility("default")))
#else
#define NESVM_API
#endif

#define NESVM_VERSION_MAJOR 0
#define NESVM_VERSION_MINOR 1
#define NESVM_VERSION_PATCH 0

/** Version string of the library actually linked ("0.1.0"). */
NESVM_API const char *nesvm_version(void);

/* ------------------------------------------------------------------ status */

/** Status codes.  The numeric values are stable. */
typedef enum nesvm_status {
    NESVM_OK = 0,
    NESVM_ERR_NOMEM = 1,       /**< an allocation failed */
    NESVM_ERR_IO = 2,          /**< a file could not be opened, read or written */
    NESVM_ERR_PARSE = 3,       /**< malformed data file (message has line and column) */
    NESVM_ERR_ARG = 4,         /**< invalid argument or parameter value */
    NESVM_ERR_DATA = 5,        /**< data unusable for the request (empty, one class, ...) */
    NESVM_ERR_MODEL = 6,       /**< malformed or inconsistent model file */
    NESVM_ERR_NUMERIC = 7,     /**< the solver met a non-finite value */
    NESVM_ERR_CANCELLED = 8,   /**< the progress callback asked to stop */
    NESVM_ERR_UNSUPPORTED = 9  /**< valid request this build or solver cannot do */
} nesvm_status;

/** Short English description of a status code (never NULL). */
NESVM_API const char *nesvm_status_str(nesvm_status s);

#define NESVM_ERROR_MESSAGE_SIZE 512

/** Caller-owned error object.  Zero-initialise it or call nesvm_error_clear. */
typedef struct nesvm_error {
    nesvm_status status;
    char message[NESVM_ERROR_MESSAGE_SIZE];
} nesvm_error;

NESVM_API void nesvm_error_clear(nesvm_error *err);

/* ----------------------------------------------------------------- dataset */

typedef struct nesvm_dataset nesvm_dataset;

/** Storage layout of the feature matrix. */
typedef enum nesvm_storage {
    NESVM_STORAGE_AUTO = 0,  /**< dense when the fill ratio is high enough */
    NESVM_STORAGE_CSR = 1,
    NESVM_STORAGE_DENSE = 2  /**< row-major n x d */
} nesvm_storage;

typedef enum nesvm_precision {
    NESVM_DOUBLE = 0,
    NESVM_FLOAT = 1          /**< half the memory; products still accumulate in double */
} nesvm_precision;

typedef struct nesvm_read_options {
    nesvm_storage storage;       /**< default NESVM_STORAGE_AUTO */
    nesvm_precision precision;   /**< default NESVM_DOUBLE */
    double dense_threshold;      /**< AUTO picks dense when nnz >= threshold*n*d (default 0.5) */
    size_t max_line_bytes;       /**< longer lines are an error (default 64 MiB) */
    int32_t min_features;        /**< d is at least this (e.g. a model's d); default 0 */
    int threads;                 /**< parsing threads (0 = all cores); default 1 */
    int precomputed;             /**< NESVM_PRECOMPUTED_*: rows of a precomputed kernel (LIBSVM's
                                      -t 4); default NESVM_PRECOMPUTED_NONE */
    int32_t kernel_columns;      /**< NESVM_PRECOMPUTED_TEST: every row gives at least this many
                                      kernel values (nesvm_model_kernel_columns of the model
                                      that will predict them); default 0 */
} nesvm_read_options;

/**
 * Rows of a precomputed kernel (LIBSVM's -t 4 files).  A training row is
 * `LABEL 0:i 1:K(x_i,x_1) 2:K(x_i,x_2) ...`: index 0 holds the row's serial
 * number i (a positive integer, each row its own) and index j the kernel
 * value against the training row of serial number j; every row gives every
 * value 1..m, zeros too, in order, where m is the largest serial number (a
 * subset or a permutation of the rows of a larger matrix is a valid file, as
 * in LIBSVM).  A test row is `LABEL 0:ANY 1:K(x,x_1) ...`, its 0 value
 * unused.  Such a dataset keeps the file's indices as its columns: column 0
 * is the serial number, column j the kernel value against serial number j
 * (nesvm_dataset_from_kernel builds one from a matrix).  Every message names
 * the file's line.
 */
typedef enum nesvm_precomputed {
    NESVM_PRECOMPUTED_NONE = 0,  /**< ordinary features: index 0 is an error */
    NESVM_PRECOMPUTED_TRAIN = 1, /**< training rows: serial numbers checked, the matrix square */
    NESVM_PRECOMPUTED_TEST = 2   /**< test rows: at least kernel_columns values each */
} nesvm_precomputed;

/** Fill `opt` with the defaults. */
NESVM_API void nesvm_read_options_init(nesvm_read_options *opt);

/**
 * Read a LIBSVM/SVMlight text file: `<label> <index>:<value> ...` per line,
 * 1-based strictly ascending indices, tabs or spaces, CRLF, `#` comments.
 * `path` "-" reads standard input.  gzip, bzip2 and xz input is detected and
 * decompressed.  `opt` may be NULL (defaults).
 */
NESVM_API nesvm_status nesvm_dataset_read(const char *path, const nesvm_read_options *opt,
                                          nesvm_dataset **out, nesvm_error *err);

/**
 * Borrow caller-owned CSR arrays without copying.  Row i has its entries at
 * positions indptr[i] .. indptr[i+1]-1 of `indices` (0-based, strictly
 * ascending, < n_features) and `values`.  `labels` has n_rows entries.  The
 * arrays must outlive the dataset.  Values are validated (finite, indices in
 * range and ascending).
 */
NESVM_API nesvm_status nesvm_dataset_wrap_csr(int64_t n_rows, int32_t n_features,
                                              const int64_t *indptr, const int32_t *indices,
                                              const double *values, const double *labels,
                                              nesvm_dataset **out, nesvm_error *err);

/** Borrow a caller-owned dense row-major n_rows x n_features matrix. */
NESVM_API nesvm_status nesvm_dataset_wrap_dense(int64_t n_rows, int32_t n_features,
                                                const double *values, const double *labels,
                                                nesvm_dataset **out, nesvm_error *err);

/**
 * A dataset of a precomputed kernel's rows (kernel precomputed; see
 * nesvm_precomputed) from a dense row-major n_rows x n_cols matrix K of
 * kernel values: row i holds its serial number (i + 1 when `serials` is
 * non-zero: training rows, K the square matrix K(x_i, x_j); 0 otherwise:
 * rows to predict, K(x, x_j) against the n_cols training rows) in column 0,
 * then K's row i in columns 1..n_cols.  K and labels (NULL: zeros) are
 * copied into the dataset (n_rows x (n_cols + 1) doubles); values must be
 * finite.
 */
NESVM_API nesvm_status nesvm_dataset_from_kernel(int64_t n_rows, int32_t n_cols, const double *K,
                                                 const double *labels, int serials, nesvm_dataset **out,
                                                 nesvm_error *err);

/**
 * The same with more layouts, for bindings (numpy, scipy):
 *   - indptr of 32 bits (indptr_bits 32: widened into an array the dataset owns,
 *     n_rows + 1 entries) or 64 bits (borrowed);
 *   - column indices of 32 or 64 bits (index_bits; borrowed either way);
 *   - values of double or float precision (NESVM_FLOAT: borrowed as float; products
 *     still accumulate in double).
 * indices, values and labels are always borrowed, never copied.
 */
NESVM_API nesvm_status nesvm_dataset_wrap_csr_ex(int64_t n_rows, int32_t n_features,
                                                 const void *indptr, int indptr_bits,
                                                 const void *indices, int index_bits,
                                                 const void *values, nesvm_precision prec,
                                                 const double *labels, nesvm_dataset **out,
                                                 nesvm_error *err);
/** A dense row-major matrix of double or float values, borrowed. */
NESVM_API nesvm_status nesvm_dataset_wrap_dense_ex(int64_t n_rows, int32_t n_features,
                                                   const void *values, nesvm_precision prec,
                                                   const double *labels, nesvm_dataset **out,
                                                   nesvm_error *err);
/**
 * Per-sample weights (n_rows entries in [0, 1e100], borrowed: they must outlive
 * the dataset's use; NULL removes them).  Training multiplies each row's cost
 * C x class weight by its weight (GS-SVM's cap likewise); rows of weight 0 are
 * left out of training, exactly as if they were not in the data.  A refused
 * call leaves the weights set before.  GS-SVM weighs its cap (alpha_i <= cap x
 * weight_i); without a cap (the hard-margin dual) every positive weight gives the
 * same problem, and weight 0 still removes the row.
 */
NESVM_API nesvm_status nesvm_dataset_set_weights(nesvm_dataset *ds, const double *weights,
                                                 nesvm_error *err);
/** The weights set by nesvm_dataset_set_weights, or NULL. */
NESVM_API const double *nesvm_dataset_weights(const nesvm_dataset *ds);
/** The arrays behind a dataset (borrowed or owned; do not free): the values (double or
 * float, nesvm_dataset_precision; CSR entries or the dense row-major matrix), and for
 * CSR the column indices (32-bit; see nesvm_dataset_indices64) and the n_rows + 1 row
 * pointers (NULL for dense). */
NESVM_API const void *nesvm_dataset_values(const nesvm_dataset *ds);
NESVM_API const int32_t *nesvm_dataset_indices(const nesvm_dataset *ds);
/** A CSR dataset's 64-bit column indices (nesvm_dataset_wrap_csr_ex with index_bits 64),
 * else NULL (then nesvm_dataset_indices has them). */
NESVM_API const int64_t *nesvm_dataset_indices64(const nesvm_dataset *ds);
NESVM_API const int64_t *nesvm_dataset_indptr(const nesvm_dataset *ds);

NESVM_API void nesvm_dataset_destroy(nesvm_dataset *ds);

NESVM_API int64_t nesvm_dataset_rows(const nesvm_dataset *ds);
NESVM_API int32_t nesvm_dataset_features(const nesvm_dataset *ds);
NESVM_API int64_t nesvm_dataset_nnz(const nesvm_dataset *ds);
NESVM_API nesvm_storage nesvm_dataset_storage(const nesvm_dataset *ds);
NESVM_API nesvm_precision nesvm_dataset_precision(const nesvm_dataset *ds);
/** Pointer to the n_rows labels. */
NESVM_API const double *nesvm_dataset_labels(const nesvm_dataset *ds);

/**
 * Write a dataset as LIBSVM text to `path`, atomically.  Zero values are
 * omitted; numbers are written exactly (shortest round-trip form).
 */
NESVM_API nesvm_status nesvm_dataset_write(const nesvm_dataset *ds, const char *path,
                                           nesvm_error *err);
/** The same, to an open stream owned by the caller (e.g. stdout). */
NESVM_API nesvm_status nesvm_dataset_write_stream(const nesvm_dataset *ds, FILE *fp,
                                                  nesvm_error *err);

/* ----------------------------------------------------------------- scaling */

/**
 * Per-feature linear scaling in the manner of LIBSVM's svm-scale: feature j
 * is mapped from [min_j, max_j] to [lower, upper]; features with min == max
 * are left at 0 (omitted).  Optionally the labels are scaled too.
 */
typedef struct nesvm_scaling nesvm_scaling;

/** Compute the scaling from `ds`. y_lower == y_upper disables label scaling. */
NESVM_API nesvm_status nesvm_scaling_fit(const nesvm_dataset *ds, double lower, double upper,
                                         double y_lower, double y_upper,
                                         nesvm_scaling **out, nesvm_error *err);
/** Apply to `ds`, producing a new CSR dataset. */
NESVM_API nesvm_status nesvm_scaling_apply(const nesvm_scaling *sc, const nesvm_dataset *ds,
                                           nesvm_dataset **out, nesvm_error *err);
/** Save/load in svm-scale's parameter file format (`x`/`y` sections). */
NESVM_API nesvm_status nesvm_scaling_save(const nesvm_scaling *sc, const char *path,
                                          nesvm_error *err);
NESVM_API nesvm_status nesvm_scaling_load(const char *path, nesvm_scaling **out,
                                          nesvm_error *err);
NESVM_API void nesvm_scaling_destroy(nesvm_scaling *sc);
/** The number of features the scaling has ranges for (its largest index; 0 for NULL). */
NESVM_API int32_t nesvm_scaling_features(const nesvm_scaling *sc);
/** Whether the scaling maps the labels (svm-scale -y): 1 with the labels' range when it was
 * fitted (*y_min < *y_max) and their scaled range (*y_lower < *y_upper); 0 when it does not (no
 * -y, every label equal at fit time, or NULL), the outputs then left as they are (each may be
 * NULL). */
NESVM_API int nesvm_scaling_labels(const nesvm_scaling *sc, double *y_lower, double *y_upper,
                                   double *y_min, double *y_max);
/** A value in the scaled labels' units (a scaled label, or a regression's prediction made on
 * them) back in the original units: the inverse of the labels' map, y_lower to y_min and
 * y_upper to y_max; v itself when the scaling does not map the labels. */
NESVM_API double nesvm_scaling_unscale_label(const nesvm_scaling *sc, double v);

/* ------------------------------------------------------------------ params */

typedef struct nesvm_params nesvm_params;

NESVM_API nesvm_status nesvm_params_create(nesvm_params **out, nesvm_error *err);
NESVM_API void nesvm_params_destroy(nesvm_params *p);
NESVM_API nesvm_status nesvm_params_copy(const nesvm_params *src, nesvm_params **out,
                                         nesvm_error *err);

/**
 * Set a parameter by name from its text value.  The parameters, their
 * defaults, valid values and the solvers, kernels and models they apply to
 * are in docs/parameters.md (generated from the one parameter table by
 * `nesvm params --markdown`; `nesvm params` prints it).  The main ones:
 *   solver       "nesvm" (NESVM: every model, linear and kernel), "hyperpass"
 *                and "pegasos" (the C-SVM without a free bias, LIBLINEAR's -s 3
 *                problem, linear), "ssvm" and "nssvm" (smoothing Newton: the
 *                squared hinge with a regularized bias, LIBLINEAR's -s 2 -B 1
 *                with its c = C/2; linear, full or reduced kernel), "gs"
 *                (GS-SVM: greedy stagewise, kernel)            [nesvm]
 *   svm_type     "c" (C-SVM), "lp" (LP-SVM, L1 norm), "ls" (LS-SVM),
 *                "ls-svr", "svr" (epsilon-SVR), "one-class" (with svm_nu) [c]
 *   c, eps       the cost C and the relative gap to stop at    [1, 1e-3]
 *   kernel       "linear", "poly", "rbf", "sigmoid" (or LIBSVM's 0-3), with
 *                gamma, degree and coef0                       [linear]
 *   multiclass   "ovo" or "ovr" (binary sub-problems), or one joint
 *                problem of every class's weights: "cs" (Crammer and
 *                Singer, svm_type c), "multinomial" (svm_type logistic);
 *                a joint model has a sub-model per class (two classes too),
 *                as one-vs-rest's                              [ovo]
 * Unknown names and bad values return NESVM_ERR_ARG with a message ("invalid
 * value 'V' for NAME: expected ..."); the parameter keeps its value.
 */
NESVM_API nesvm_status nesvm_params_set(nesvm_params *p, const char *name, const char *value,
                                        nesvm_error *err);
/** Write the current value of `name` as text into buf (size bytes). */
NESVM_API nesvm_status nesvm_params_get(const nesvm_params *p, const char *name, char *buf,
                                        size_t size, nesvm_error *err);
/**
 * Does parameter `name` take part in training with p's solver, kernel and
 * model (1), or is it ignored (0; for example `cap` with any solver but gs,
 * `gamma` with the linear kernel, `nu` unless svm_type is lp)?  -1 for an
 * unknown name.
 */
NESVM_API int nesvm_params_applies(const nesvm_params *p, const char *name);
/**
 * The k-th (from 0) parameter given by nesvm_params_set that p's solver,
 * kernel or model ignores (nesvm_params_applies() == 0), or NULL past the
 * last.  The CLI warns about each.
 */
NESVM_API const char *nesvm_params_ignored(const nesvm_params *p, int k);
/** Per-class weight: C for samples labelled `label` is multiplied by `weight` (> 0). */
NESVM_API nesvm_status nesvm_params_set_class_weight(nesvm_params *p, double label,
                                                     double weight, nesvm_error *err);
/**
 * The number of class weights p holds; with 0 <= k < that number, *label and
 * *weight (either may be NULL) get the k-th, in the order first set.  0 for NULL.
 */
NESVM_API int nesvm_params_class_weight(const nesvm_params *p, int k, double *label, double *weight);

/* ----------------------------------------------------------------- solvers */

/**
 * What a solver family can do, from the solver registry, so that a program
 * asks rather than compares names.  The strings are the library's (static).
 * A growing struct, the caller's, as nesvm_stats: set `size` before the call
 * (`nesvm_solver_info si = NESVM_SOLVER_INFO_INIT;`).
 */
typedef struct nesvm_solver_info {
    size_t size;        /**< set by the caller: sizeof(nesvm_solver_info) */
    const char *name;   /**< "nesvm", "hyperpass", "pegasos", "ssvm", "nssvm", "gs" */
    int has_c;          /**< 1: a cost C (c, lambda, class weights); 0: none (gs: early
                             stopping, max_iter, is its regularizer) */
    char losses[160];   /**< the losses it minimizes, space-separated, its svm_types' in
                             their order, then (a family not specific to its loss) every
                             other loss --loss may name: "hinge squared epsilon_insensitive
                             squared_hinge squared_epsilon_insensitive" (nesvm: the hinge
                             for c and lp, least squares for ls and ls-svr, the tube for
                             svr, any classifier's loss with --svm-type c, either tube
                             with --svm-type svr), "hinge" (hyperpass,
                             pegasos), "squared_hinge" (ssvm, nssvm); "" for none (gs: the
                             hard-margin dual) */
    int loss_specific;  /**< 1: the method is specific to its loss (cutting planes, the
                             p-smoothing of the plus function, a hard-margin dual) */
    const char *tasks;  /**< the tasks it solves, space-separated: "classification" */
    const char *kernels; /**< how it trains kernel models: "none" (linear models only),
                             "expansion" (the full kernel's expansion or a basis's features
                             in the RKHS norm), "features" (kernel features of a basis),
                             "columns" (every model on kernel columns, the linear one too) */
    const char *memory; /**< the parameter bounding its kernel memory (LIBSVM's -m):
                             "kernel_memory", or "cache_size" (gs) */
    int distributed;    /**< 1: nesvm_train_distributed trains its linear models */
    int certificate;    /**< 1: a duality gap certifies its models (nesvm_model_certified);
                             0: its own stopping rule (gs) */
    /* new fields go here, at the end */
} nesvm_solver_info;

/** Initializer of a nesvm_solver_info: `nesvm_solver_info si = NESVM_SOLVER_INFO_INIT;`. */
#define NESVM_SOLVER_INFO_INIT {.size = sizeof(nesvm_solver_info)}

/** The name of the registry's k-th solver (from 0), NULL past the last. */
NESVM_API const char *nesvm_solver_name(int k);
/**
 * Describe solver `name` into *info (the fields that fit in info->size).
 * NESVM_ERR_ARG for an unknown name ("unknown solver 'X' (available: ...)"),
 * NULL arguments or a size below the first version's.
 */
NESVM_API nesvm_status nesvm_solver_describe(const char *name, nesvm_solver_info *info,
                                             nesvm_error *err);

/* ------------------------------------------------------------------- tasks */

/**
 * What a training learns, decided by the problem type (params svm_type):
 * each svm_type belongs to one task, which decides what training makes of
 * the labels, what prediction returns and which figures cross-validation
 * and `nesvm predict` report (nesvm_metrics).  Every svm_type of this
 * version is a classification (c, lp, ls), a regression (ls-svr, svr) or a
 * novelty (one-class).
 */
typedef enum nesvm_task {
    NESVM_TASK_CLASSIFICATION = 0, /**< the labels name classes: one binary sub-model (two
                                        classes), or one-vs-one or one-vs-rest pairs; prediction
                                        gives a class label */
    NESVM_TASK_REGRESSION = 1,     /**< the labels are real targets: one model, whose decision
                                        value is the prediction */
    NESVM_TASK_NOVELTY = 2         /**< the labels are ignored: one model trained on every row;
                                        prediction gives +1 (decision value > 0) or -1, as
                                        svm-predict's one-class models */
} nesvm_task;

/** "classification", "regression" or "novelty" (the words of model files); "unknown" for
 * another value. */
NESVM_API const char *nesvm_task_str(nesvm_task t);
/** The task of p's svm_type (NULL: classification). */
NESVM_API nesvm_task nesvm_params_task(const nesvm_params *p);

/* ---------------------------------------------------------------- progress */

/** Why a solver stopped. */
typedef enum nesvm_exit {
    NESVM_EXIT_CONVERGED = 0,
    NESVM_EXIT_MAX_ITER = 1,
    NESVM_EXIT_TIME_LIMIT = 2,
    NESVM_EXIT_CANCELLED = 3,
    NESVM_EXIT_NUMERIC = 4,
    NESVM_EXIT_NO_MEMORY = 5,
    NESVM_EXIT_STALLED = 6, /**< no further decrease is possible in floating point */
    NESVM_EXIT_EPS_ABS = 7  /**< stopped by eps_abs where it is the paper's rule, not a certificate
                                 (NESVM's change of F_mu, SSVM/NSSVM's ||G_p||), with the
                                 relative gap still above eps */
} nesvm_exit;

NESVM_API const char *nesvm_exit_str(nesvm_exit e);

/** What a solver reports at an iteration.  NaN marks a figure it does not know. */
/*
 * Growing structs.  nesvm_progress and nesvm_stats only ever gain fields at
 * their end, and carry their size first, so that a program built against an
 * older nesvm.h keeps working with a newer library:
 *   - nesvm_progress is the library's: `size` is sizeof(nesvm_progress) as
 *     the library knows it; a field F exists when
 *     offsetof(nesvm_progress, F) < p->size.
 *   - nesvm_stats is the caller's: set `size` before the call
 *     (`nesvm_stats st = NESVM_STATS_INIT;`); the library writes the fields
 *     that fit in it (NESVM_ERR_ARG when it is below the first version's).
 */
typedef struct nesvm_progress {
    size_t size;            /**< sizeof(nesvm_progress) in the library (see above) */
    int submodel;           /**< index of the binary problem being trained */
    int n_submodels;
    int64_t iteration;      /**< 1-based */
    double elapsed;         /**< seconds since this binary training started */
    double primal;          /**< objective of the original (unsmoothed) problem at the iterate */
    double best_primal;     /**< best primal seen so far */
    double smoothed;        /**< smoothed objective F_mu at the iterate */
    double lower_bound;     /**< best known lower bound on the optimum, or NaN */
    double gap;             /**< relative gap (best_primal - lower_bound)/|best_primal|, or NaN */
    double mu;              /**< smoothing parameter in use */
    double lipschitz;       /**< Lipschitz constant (inverse step) in use */
    int64_t n_sv;           /**< samples with non-zero dual weight */
    int64_t n_bounded;      /**< samples at the upper bound (u = 1) */
    double step;            /**< line-search step length of the last step (method newton;
                                 hyperpass: eta along w~ - w; pegasos: eta_t), or NaN */
    int64_t inner;          /**< conjugate-gradient iterations of the last step (method newton;
                                 hyperpass: interior-point iterations of the lower bound's QP), or 0 */
    int64_t n_active;       /**< ssvm, nssvm: |J|, samples with a Newton weight >= tau (m~) */
    int64_t n_changed;      /**< ssvm, nssvm: |J0|, samples whose weight changed (m^) */
    int scheme;             /**< ssvm, nssvm: Newton scheme of the last step (1, 2, 3, 4 = cg;
                                 0 before the first step and for other solvers) */
    double residual;        /**< ssvm: ||grad f_p||, nssvm: ||G_p||; NaN for other solvers */
    double grad_norm;       /**< ssvm, nssvm: ||grad f|| of the unsmoothed problem; else NaN */
    /* new fields go here, at the end (see "Growing structs" above) */
} nesvm_progress;

/** Return non-zero to cancel the training at this iteration boundary. */
typedef int (*nesvm_progress_fn)(const nesvm_progress *p, void *user);

/** Filled by every training call; totals over binary sub-problems. */
typedef struct nesvm_stats {
    size_t size;            /**< set by the caller: sizeof(nesvm_stats) (NESVM_STATS_INIT) */
    int n_submodels;
    int64_t iterations;     /**< total over sub-problems */
    double seconds;         /**< wall time of the whole training */
    double primal;          /**< sum over sub-problems of the final unsmoothed primal */
    double lower_bound;     /**< sum of lower bounds, NaN if any is unknown */
    double gap;             /**< largest relative gap of a sub-problem, NaN if unknown */
    nesvm_exit exit_reason; /**< worst exit reason of the sub-problems */
    int64_t n_sv;           /**< support vectors summed over sub-problems */
    int64_t kernel_evals;   /**< kernel values computed (kernel models; 0 for linear ones) */
    int kernel_matrix;      /**< full kernel, expansion (C-SVM, LS-SVM, LP-SVM by Newton): 1 if
                                 the kernel matrix was stored (single precision, within
                                 kernel_memory), 0 if it was computed on the fly; C-SVM by Newton
                                 (a working set, docs/solvers.md): 2 on cached kernel columns,
                                 3 on a stored matrix shared by one-vs-one pairs; 4: the C-SVM
                                 with a kernel that is not positive semi-definite (sigmoid, poly
                                 with coef0 < 0), LIBSVM's dual by SMO on cached kernel columns,
                                 a stationary point without a certificate; -1 otherwise
                                 (linear models, reduced basis, Nesterov's LP-SVM: kernel
                                 features) */
    int64_t dots;           /**< row products y_i <x_i, v> computed (hyperpass, pegasos; 0 for
                                 nesvm): the paper's cost measure, dots / rows = passes */
    int64_t row_updates;    /**< row updates v += a x_i (hyperpass, pegasos; 0 for nesvm) */
    int64_t kernel_columns; /**< gs, and nesvm's working set on columns (kernel_matrix 2): kernel
                                 columns computed (cache misses; one-vs-one: column segments, one
                                 per class of the pair); else 0 */
    int64_t cache_hits;     /**< the same: kernel columns (segments) found in the cache; else 0 */
    int64_t kernel_asked;   /**< gs: kernel values asked for, what a training without the
                                 cache computes (the GS-SVM paper's K2); else 0 */
    int64_t basis;          /**< kernel features (reduced basis, GSVM/RSVM): the basis rows kept;
                                 else 0 */
    double basis_residual;  /**< the same, with the RKHS norm: the Nystrom residual of the basis on
                                 the training rows, sum (K_ii - ||phi_i||^2) / sum K_ii (0 for the
                                 full kernel); NaN for the coefficient norm (kernel_norm coef,
                                 NESVM's LP-SVM); else 0 */
    int basis_sizes;        /**< the same: basis sizes tried (more than 1: the automatic basis grew) */
    int basis_capped;       /**< the same: 1 if the automatic basis stopped growing at
                                 kernel_memory with its residual above basis_residual */
    int64_t comm_calls;     /**< nesvm_train_distributed: collective calls this rank made (MPI
                                 reductions and broadcasts); else 0 */
    int64_t comm_bytes;     /**< the same: bytes this rank contributed to them; else 0 */
    int64_t ws_rounds;      /**< nesvm's working set (kernel_matrix 2 or 3): its rounds (sub-problems
                                 solved), summed over sub-problems; else 0 */
    int kernel_psd;         /**< a precomputed kernel whose matrix the training checked (the
                                 full kernel's expansion, kernel features under the RKHS norm:
                                 docs/solvers.md): 1 positive semi-definite (the certificates
                                 hold), 0 not (kernel_note says why; the C-SVM was solved by
                                 SMO without a certificate); -1 not checked, or another kernel */
    char kernel_note[200];  /**< kernel_psd 0: why ("its smallest eigenvalue is -0.52 ..."); else "" */
    /* new fields go here, at the end (see "Growing structs" above) */
} nesvm_stats;

/** Initializer of a nesvm_stats: `nesvm_stats st = NESVM_STATS_INIT;`. */
#define NESVM_STATS_INIT {.size = sizeof(nesvm_stats)}

/* ------------------------------------------------------------------- model */

typedef struct nesvm_model nesvm_model;

/**
 * Train a (binary or multiclass) model on `ds`.  `progress` may be NULL.
 * `stats` may be NULL.  Two or more distinct labels are required.
 */
NESVM_API nesvm_status nesvm_train(const nesvm_dataset *ds, const nesvm_params *params,
                                   nesvm_progress_fn progress, void *user,
                                   nesvm_model **out, nesvm_stats *stats, nesvm_error *err);

/**
 * nesvm_train, starting every binary sub-model from `init`'s weights and bias
 * instead of zero (a warm start, e.g. along a path of C values in model
 * selection).  `init` must have the same class labels and, with more than two
 * classes, the same multiclass scheme; its features are padded with zeros or
 * cut to the data's.  `init` may be NULL (cold start).
 */
NESVM_API nesvm_status nesvm_train_warm(const nesvm_dataset *ds, const nesvm_params *params,
                                        const nesvm_model *init, nesvm_progress_fn progress,
                                        void *user, nesvm_model **out, nesvm_stats *stats,
                                        nesvm_error *err);

/**
 * Checkpoints: with save_path set, training writes its state to that file
 * (atomically, as models are) every `every` seconds (<= 0: only when it
 * stops early) and whenever the progress callback cancels it.  With
 * resume_path set, training continues from a checkpoint written by a training
 * of the same data and parameters (threads, time_limit, max_iter and
 * progress_every may differ; anything else is refused with
 * NESVM_ERR_ARG and a message saying what differs): finished sub-models are
 * taken as they are, and the interrupted one continues from its saved point,
 * ending at the same model as an uninterrupted run to the solver's tolerance
 * (GS-SVM and Pegasos continue exactly: the same model).  A checkpoint that
 * cannot be written stops the training with NESVM_ERR_IO.  Both paths may be
 * the same file.
 */
typedef struct nesvm_checkpoint_options {
    const char *save_path;   /**< write checkpoints here (NULL: none) */
    double every;            /**< seconds between checkpoints (<= 0: on stopping only) */
    const char *resume_path; /**< continue from this checkpoint (NULL: start afresh) */
} nesvm_checkpoint_options;

/** nesvm_train_warm with checkpoints (`ck` may be NULL: no checkpoints). */
NESVM_API nesvm_status nesvm_train_resumable(const nesvm_dataset *ds, const nesvm_params *params,
                                             const nesvm_model *init,
                                             const nesvm_checkpoint_options *ck,
                                             nesvm_progress_fn progress, void *user,
                                             nesvm_model **out, nesvm_stats *stats,
                                             nesvm_error *err);

/*
 * Distributed training (docs/scaling.md): data-parallel by rows over the
 * ranks of an MPI communicator, each rank holding its share of the rows.
 * These calls are in every build; a build without MPI (configure with
 * -DNESVM_WITH_MPI=ON) returns NESVM_ERR_UNSUPPORTED.  `mpi_comm` points to
 * an MPI_Comm (nesvm.h does not include mpi.h); the program calls MPI_Init
 * and MPI_Finalize.  Every rank of the communicator makes the same calls in
 * the same order, and every rank gets the same status and message: a failure
 * on one rank is every rank's, its message prefixed "rank R: ".
 */

/** Does this build have MPI (nesvm_*_distributed work)? */
NESVM_API int nesvm_have_mpi(void);

/**
 * This rank's share of a LIBSVM-format file.  A regular file `path` is cut
 * into as many equal byte ranges as ranks, moved to line starts, and each
 * rank reads the lines that start in its range (a plain file: compressed
 * input has no byte ranges); messages name the whole file's line numbers.
 * Otherwise the ranks read their own files path.0 ... path.{P-1}, as `nesvm
 * split` writes them (path.P must not exist).  Every rank's dataset has the
 * same feature count: the largest over the ranks, or opt->min_features.  A
 * rank whose range holds no data line is an error (use fewer ranks).
 */
NESVM_API nesvm_status nesvm_dataset_read_distributed(const char *path, const nesvm_read_options *opt,
                                                      const void *mpi_comm, nesvm_dataset **out,
                                                      nesvm_error *err);

/**
 * nesvm_train_warm on the rows of every rank's `ds` (the same feature count
 * on every rank), as if they were one dataset in rank order: every rank gets
 * the same model, which equals the single-process model within the solver's
 * tolerance (its objective within eps).  `params` and `init` (NULL: a cold
 * start) must be the same on every rank.  Solvers nesvm (linear models and
 * reduced bases), hyperpass, ssvm, nssvm (linear and kernel features) and gs
 * train distributed; pegasos and NESVM's full-kernel expansion are refused
 * with NESVM_ERR_UNSUPPORTED.  Probability estimates (params probability)
 * come from folds drawn over every rank's rows, each trained distributed, and
 * sigmoids fitted on every rank's out-of-fold values.  `progress` is called
 * on the ranks that give one (the CLI: rank 0); a cancel or time limit on
 * any rank stops every rank.  stats gains comm_calls and comm_bytes.
 */
NESVM_API nesvm_status nesvm_train_distributed(const nesvm_dataset *ds, const nesvm_params *params,
                                               const nesvm_model *init, const void *mpi_comm,
                                               nesvm_progress_fn progress, void *user, nesvm_model **out,
                                               nesvm_stats *stats, nesvm_error *err);

NESVM_API void nesvm_model_destroy(nesvm_model *m);

/** Save atomically (temporary file in the same folder, fsync, rename).
 * Output paths, here and in nesvm_dataset_write and nesvm_scaling_save: a
 * regular file (or a new path) is replaced atomically; a symbolic link has
 * the file it points to replaced (a dangling link is refused); a device,
 * FIFO or socket is written directly; "-" writes to standard output.  A
 * model holding a non-finite number is refused (NESVM_ERR_NUMERIC). */
NESVM_API nesvm_status nesvm_model_save(const nesvm_model *m, const char *path,
                                        nesvm_error *err);
/** Load and validate every field. */
NESVM_API nesvm_status nesvm_model_load(const char *path, nesvm_model **out, nesvm_error *err);
/** The model file's text in memory (for pickling): *out (free it with nesvm_free) holds
 * *len bytes and a terminating NUL. */
NESVM_API nesvm_status nesvm_model_save_buffer(const nesvm_model *m, char **out, size_t *len,
                                               nesvm_error *err);
/** Load a model from the text of a model file in memory (len bytes; messages name it
 * "<buffer>"). */
NESVM_API nesvm_status nesvm_model_load_buffer(const char *data, size_t len, nesvm_model **out,
                                               nesvm_error *err);
/** Free memory the library returned (nesvm_model_save_buffer). NULL is a no-op. */
NESVM_API void nesvm_free(void *p);

/** The task the model learned (nesvm_task; a model file without a task line is a
 * classifier).  NESVM_TASK_CLASSIFICATION for NULL. */
NESVM_API nesvm_task nesvm_model_task(const nesvm_model *m);
/** The number of classes: 2 or more for a classifier, 0 for the other tasks. */
NESVM_API int nesvm_model_classes(const nesvm_model *m);
/** Class labels, in model order (nesvm_model_classes entries): the order in which the
 * classes first appear in the training rows, as LIBSVM's.  One-vs-one sub-models come
 * in the order (0,1), (0,2), ..., (0,k-1), (1,2), ..., pos the first; one-vs-rest
 * sub-model c is class c against the rest; a binary model's one sub-model has pos 0.
 * Regression and novelty models have no classes and one sub-model. */
NESVM_API const double *nesvm_model_labels(const nesvm_model *m);
NESVM_API int32_t nesvm_model_features(const nesvm_model *m);
NESVM_API int nesvm_model_submodels(const nesvm_model *m);
/** Solver name ("nesvm", "hyperpass", "pegasos", "ssvm", "nssvm" or "gs") and multiclass
 * scheme ("ovo", "ovr", or a joint problem's "cs", "multinomial"). */
NESVM_API const char *nesvm_model_solver(const nesvm_model *m);
NESVM_API const char *nesvm_model_multiclass(const nesvm_model *m);
/**
 * Binary sub-model k of a linear model: its weight vector (nesvm_model_features
 * entries, do not free), bias, and the classes it separates (indices into the label
 * array; decision > 0 votes for `pos`; `neg` is -1 for one-vs-rest; both are -1 for
 * a model that is not a classifier).  Kernel models: NESVM_ERR_UNSUPPORTED (see
 * nesvm_model_expansion).
 */
NESVM_API nesvm_status nesvm_model_linear(const nesvm_model *m, int k, const double **w,
                                          double *b, int *pos, int *neg, nesvm_error *err);

/** The exact problem solved: "c_svm_hinge_l2", "lp_svm_hinge_l1", "ls_svm_squared_l2"
 * (nesvm), "c_svm_hinge_l2_regularized_bias" (hyperpass, pegasos) or
 * "c_svm_squared_hinge_l2_regularized_bias" (ssvm, nssvm) or "svm_dual_greedy_stagewise" (gs). */
NESVM_API const char *nesvm_model_problem(const nesvm_model *m);
/** Kernel name: "linear", "poly", "rbf" or "sigmoid" (its parameters: nesvm_params_get
 * on nesvm_model_params). */
NESVM_API const char *nesvm_model_kernel(const nesvm_model *m);
/** The parameters the model was trained with, as its file lists them (gamma and basis
 * resolved), owned by the model: read them with nesvm_params_get; NULL for NULL. */
NESVM_API const nesvm_params *nesvm_model_params(const nesvm_model *m);
/** A kernel model's basis vectors (rows of a dataset; do not destroy), or NULL for a
 * linear model. */
NESVM_API const nesvm_dataset *nesvm_model_basis(const nesvm_model *m);
/** For a kernel model trained in this process: basis vector j is row
 * nesvm_model_basis_rows(m)[j] of the training dataset (ascending for the full
 * kernel and GS-SVM; in pivot order for a reduced basis).  NULL for a linear model
 * and for a model loaded from a file or buffer (files do not record it). */
NESVM_API const int64_t *nesvm_model_basis_rows(const nesvm_model *m);
/**
 * Binary sub-model k as an expansion: decision(x) = sum_j beta[j] K(x, basis_j) + b over
 * the nbasis basis vectors (nesvm_model_basis).  For a linear model beta is the weight
 * vector and nbasis the number of features.
 */
NESVM_API nesvm_status nesvm_model_expansion(const nesvm_model *m, int k, const double **beta,
                                             int64_t *nbasis, double *b, int *pos, int *neg,
                                             nesvm_error *err);

/** How the training of binary sub-model k ended (any output may be NULL). */
NESVM_API nesvm_status nesvm_model_training(const nesvm_model *m, int k, nesvm_exit *exit_reason,
                                            int64_t *iterations, double *primal, double *gap,
                                            nesvm_error *err);

/**
 * nu-SVC and nu-SVR (svm_type nu-svc, nu-svr) sub-model k's figure beside its
 * coefficients, as svm-train prints it: nu-SVC's margin rho (the coefficients and the bias
 * are its problem's divided by rho: the model is the C-SVM's of C = 1/rho, LIBSVM's
 * "C = ..."), nu-SVR's tube half-width epsilon (LIBSVM's "epsilon = ...").  NaN for the
 * other models, a bad m or k, or where the model does not know it (a LIBSVM import, a
 * sub-model restored from a checkpoint).
 */
NESVM_API double nesvm_model_nu_value(const nesvm_model *m, int k);

/** What nesvm_model_certified says of a binary sub-model. */
typedef enum nesvm_cert {
    NESVM_CERT_MISSED = 0,  /**< it stopped before its certificate: at max_iter, a time limit,
                                 stalled in floating point, by --eps-abs (the papers' rule), or
                                 with a relative gap above eps.  The model is usable but may be
                                 far from the optimum: callers should warn (the CLI does on
                                 stderr, even with -q; Python raises a ConvergenceWarning). */
    NESVM_CERT_REACHED = 1, /**< its certified relative duality gap is within eps */
    NESVM_CERT_NONE = 2     /**< its solver has no certificate and stopped by its own rule:
                                 GS-SVM's greedy stop (early stopping is its regularizer), a
                                 stationary point of a kernel that is not positive
                                 semi-definite (docs/solvers.md), or an imported model */
} nesvm_cert;

/**
 * Did binary sub-model k reach its certificate?  Decided from its exit reason,
 * its relative gap and the eps it was trained with (also for models loaded
 * from files).  NESVM_CERT_MISSED for a bad m or k.
 */
NESVM_API nesvm_cert nesvm_model_certified(const nesvm_model *m, int k);

/**
 * Predict every row of `ds`.  `labels` (n_rows entries) receives the
 * predictions: a classifier's class labels (one-vs-one by votes, ties to the
 * lower class index; one-vs-rest by the largest decision value; two classes:
 * the first class where the decision value is > 0), a regression's real
 * values (its one sub-model's decision value), a novelty model's +1
 * (decision value >= 0) or -1.  `decision` (may be NULL) receives n_rows x
 * n_submodels decision values, row-major.  Features beyond the model's are
 * ignored.
 */
NESVM_API nesvm_status nesvm_model_predict(const nesvm_model *m, const nesvm_dataset *ds,
                                           int threads, double *labels, double *decision,
                                           nesvm_error *err);

/**
 * A precomputed kernel's model (kernel precomputed): the kernel values each
 * row to predict must give, its support vectors' largest serial number (a
 * test file's nesvm_read_options.kernel_columns; nesvm_model_predict refuses
 * a dataset with fewer kernel columns).  0 for the other kernels and NULL.
 */
NESVM_API int64_t nesvm_model_kernel_columns(const nesvm_model *m);

/**
 * Probability estimates of a model trained with param probability 1 (LIBSVM's
 * -b 1): `proba` (n_rows x nesvm_model_classes, row-major, in model label order)
 * and `labels` (may be NULL; the argmax of each row, ties to the first class).
 * Binary: Platt's sigmoid 1 / (1 + exp(A f + B)) of the decision value;
 * one-vs-one: pairwise coupling (Wu, Lin and Weng's second method); one-vs-rest:
 * the sigmoids normalized.  NESVM_ERR_UNSUPPORTED for a model without them.
 */
NESVM_API nesvm_status nesvm_model_predict_proba(const nesvm_model *m, const nesvm_dataset *ds,
                                                 int threads, double *labels, double *proba,
                                                 nesvm_error *err);
/** 1 if the model carries probability estimates. */
NESVM_API int nesvm_model_has_probability(const nesvm_model *m);
/** Sub-model k's sigmoid: P(its pos class | f) = 1 / (1 + exp(A f + B));
 * NESVM_ERR_UNSUPPORTED for a model without probability estimates. */
NESVM_API nesvm_status nesvm_model_probability(const nesvm_model *m, int k, double *A, double *B,
                                               nesvm_error *err);

/* ------------------------------------------- LIBSVM and LIBLINEAR model files */

/**
 * Write `m` as a LIBSVM model file ("libsvm": svm-predict reads it) or a
 * LIBLINEAR one ("liblinear": its predict reads it), atomically, giving the
 * same labels and decision values (and with probability estimates, LIBSVM's
 * probA/probB).  libsvm: kernel models, binary or one-vs-one, whose basis
 * vectors each serve the pairs of one class (the full kernel, GS-SVM; not a
 * reduced basis with more than two classes).  liblinear: linear models, binary
 * or one-vs-rest.  Other models: NESVM_ERR_UNSUPPORTED with the reason.
 */
NESVM_API nesvm_status nesvm_model_export(const nesvm_model *m, const char *format, const char *path,
                                         nesvm_error *err);
/**
 * Read a LIBSVM C-SVC model (svm-train -s 0, any kernel but precomputed) or a
 * LIBLINEAR model of -s 1, 2 or 3 as a nesvm model that predicts as the tool
 * that wrote it: LIBSVM's as solver nesvm (the same C-SVC problem),
 * LIBLINEAR's -s 1/2 as nssvm (squared hinge) and -s 3 as hyperpass (hinge),
 * both with LIBLINEAR's bias feature as a regularized bias.  `format` is
 * "libsvm", "liblinear" or NULL (told by the first line).  Neither file holds
 * C: the model says c 1.  A linear model can then warm-start nesvm_train_warm.
 */
NESVM_API nesvm_status nesvm_model_import(const char *path, const char *format, nesvm_model **out,
                                         nesvm_error *err);

/* --------------------------------------------------------- model selection */

/**
 * The figures a prediction is judged by, for its task (nesvm_task): the
 * accuracy for a classification and a novelty (against the labels, +1 and
 * -1 for novelty); for a regression also the mean squared error and the
 * squared correlation coefficient, as LIBSVM's svm-predict and svm-train -v
 * report them.  Over n rows with predictions p_i and true values t_i:
 *   accuracy = #{i : p_i = t_i} / n   (NaN for n = 0)
 *   mse      = (1/n) sum (p_i - t_i)^2
 *   scc      = (n sum p_i t_i - sum p_i sum t_i)^2
 *              / ((n sum p_i^2 - (sum p_i)^2) (n sum t_i^2 - (sum t_i)^2))
 * (NaN where the predictions or the true values are constant).  mse and scc
 * are NaN for the other tasks.
 */
typedef struct nesvm_metrics {
    nesvm_task task;  /**< the task the figures are for */
    int64_t rows;     /**< rows compared */
    int64_t correct;  /**< rows whose prediction equals their label */
    double accuracy;  /**< correct / rows */
    double mse;       /**< regression: mean squared error; else NaN */
    double scc;       /**< regression: squared correlation coefficient; else NaN */
    double auc;       /**< novelty, from cross-validation: the ROC AUC of the decision values
                       *   (nesvm_roc_auc) when the labels take exactly two values; else NaN */
} nesvm_metrics;

/** The figures of `task` for n predictions against their true values (truth, predicted: n
 * entries each; NULL allowed for n = 0).  `auc` is NaN (labels alone carry no ranking:
 * nesvm_roc_auc takes the decision values). */
NESVM_API nesvm_status nesvm_metrics_compute(nesvm_task task, const double *truth, const double *predicted,
                                             int64_t n, nesvm_metrics *out, nesvm_error *err);

/** The ROC AUC of n scores (a one-class model's decision values) against labels of exactly
 * two values, the larger one the positives (the inliers): P(score of a positive > score of
 * a negative), ties counting 1/2 (the Mann-Whitney statistic).  *auc is NaN when the labels
 * do not take exactly two values; *positive (may be NULL) receives the positives' label.
 * Fails on NULL arguments, a negative n, or memory. */
NESVM_API nesvm_status nesvm_roc_auc(const double *labels, const double *scores, int64_t n, double *auc,
                                     double *positive, nesvm_error *err);


/**
 * Stratified k-fold cross-validation: every row gets the label predicted by a
 * model trained on the other folds.  Folds are drawn with `seed`.
 * `predicted` has n_rows entries.  `accuracy` (may be NULL) receives the
 * fraction of rows predicted correctly.  A task other than classification
 * draws plain folds and is judged by nesvm_cross_validate_metrics's figures
 * (or nesvm_metrics_compute on `predicted`).
 */
NESVM_API nesvm_status nesvm_cross_validate(const nesvm_dataset *ds, const nesvm_params *params,
                                            int folds, uint64_t seed,
                                            nesvm_progress_fn progress, void *user,
                                            double *predicted, double *accuracy,
                                            nesvm_error *err);

/**
 * Cross-validate every value of a path of one numeric parameter `name`
 * ("c", "max_iter", "gamma", ...): accuracy[i] (n_values entries) is the
 * fraction of rows predicted correctly with name = values[i], on the folds of
 * nesvm_cross_validate with the same `folds` and `seed`; every other
 * parameter is params' (NULL: the defaults).  Every value is checked as
 * nesvm_params_set would before any training.
 *
 * Along "c" with warm != 0, each fold's training at values[i] starts from its
 * own solution at values[i - 1] (every solver but gs, with any kernel: the
 * rows, kernel and basis stay the same along the path), so an ascending path
 * costs less than cold starts and gives the same solutions to the solver's
 * tolerance.  Along "max_iter" (GS-SVM's early stopping), a fold's training
 * that converged below the limit serves the larger limits that follow it.
 * `iterations` (may be NULL; n_values entries) receives the iterations at
 * each value summed over folds and sub-models (0 where a training was
 * reused).
 *
 * Both cross-validations train min(threads, folds) folds at once when
 * params' threads allow (each with its share of the threads and of
 * kernel_memory); the progress callback is still called from the calling
 * thread only, and cancels every fold.
 */
/* Along "svm_nu" with nu-SVC (svm_type nu-svc), a value that is infeasible on some
 * fold's training rows (nesvm_train's "specified nu is infeasible"), or whose
 * training there finds no classifier (NESVM_ERR_DATA: w = 0, a nu too small for
 * classes that overlap), has no figures: its accuracy (and every figure of the
 * metrics calls) is NaN, its metrics' rows 0. */
NESVM_API nesvm_status nesvm_cross_validate_path(const nesvm_dataset *ds, const nesvm_params *params,
                                                 int folds, uint64_t seed, const char *name,
                                                 const double *values, int n_values, int warm,
                                                 nesvm_progress_fn progress, void *user,
                                                 double *accuracy, int64_t *iterations,
                                                 nesvm_error *err);

/**
 * nesvm_cross_validate and nesvm_cross_validate_path reporting the figures
 * of params' task (nesvm_params_task) over every row, each predicted by the
 * model trained on the other folds: `metrics` (one entry; for the path,
 * n_values entries, one per value).  Classification draws stratified folds,
 * as the calls above; regression and novelty draw plain folds (the rows
 * shuffled with `seed` and dealt round-robin), as LIBSVM's svm-train -v.
 * For a classification, metrics.accuracy is the accuracy the calls above
 * give.  `mpi_comm` NULL: this process alone; else the folds shared out
 * over its ranks as nesvm_cross_validate_distributed does.  `predicted`
 * (may be NULL) receives every row's prediction.
 */
NESVM_API nesvm_status nesvm_cross_validate_metrics(const nesvm_dataset *ds, const nesvm_params *params,
                                                    int folds, uint64_t seed, const void *mpi_comm,
                                                    nesvm_progress_fn progress, void *user, double *predicted,
                                                    nesvm_metrics *metrics, nesvm_error *err);
NESVM_API nesvm_status nesvm_cross_validate_path_metrics(const nesvm_dataset *ds, const nesvm_params *params,
                                                         int folds, uint64_t seed, const char *name,
                                                         const double *values, int n_values, int warm,
                                                         const void *mpi_comm, nesvm_progress_fn progress,
                                                         void *user, nesvm_metrics *metrics,
                                                         int64_t *iterations, nesvm_error *err);

/**
 * nesvm_cross_validate and nesvm_cross_validate_path with the folds shared
 * out over the ranks of an MPI communicator (see nesvm_train_distributed for
 * mpi_comm and the collective rules): every rank holds the whole dataset
 * (the same rows in the same order) and draws the same folds; rank r trains
 * the folds f with f mod P = r, with params' threads; every rank gets every
 * row's prediction, the accuracies and the iteration counts, the same as the
 * single-process call's.  A fold's failure on any rank is every rank's.
 */
NESVM_API nesvm_status nesvm_cross_validate_distributed(const nesvm_dataset *ds, const nesvm_params *params,
                                                        int folds, uint64_t seed, const void *mpi_comm,
                                                        nesvm_progress_fn progress, void *user,
                                                        double *predicted, double *accuracy, nesvm_error *err);
NESVM_API nesvm_status nesvm_cross_validate_path_distributed(const nesvm_dataset *ds,
                                                             const nesvm_params *params, int folds,
                                                             uint64_t seed, const char *name,
                                                             const double *values, int n_values, int warm,
                                                             const void *mpi_comm, nesvm_progress_fn progress,
                                                             void *user, double *accuracy,
                                                             int64_t *iterations, nesvm_error *err);

#ifdef __cplusplus
}
#endif
#endif /* NESVM_H */
