"""nesvm_build.py - the cffi (API mode) description of the C extension nesvm._nesvm.

The extension is compiled against include/nesvm.h and linked with the static
library libnesvm.a (so importing it needs no shared-library path), OpenBLAS,
LAPACKE, zlib and OpenMP from Debian's packages.  setup.py calls builder();
the declarations below are the part of nesvm.h the binding uses, with the
structs' layouts left to the compiler ("...;").  ctest python_cdef
(tests/python/cdef_check.py) checks that each agrees with nesvm.h.
"""
import os
import shlex
import subprocess

from cffi import FFI

CDEF = r"""
typedef enum nesvm_status {
    NESVM_OK = 0, NESVM_ERR_NOMEM = 1, NESVM_ERR_IO = 2, NESVM_ERR_PARSE = 3, NESVM_ERR_ARG = 4,
    NESVM_ERR_DATA = 5, NESVM_ERR_MODEL = 6, NESVM_ERR_NUMERIC = 7, NESVM_ERR_CANCELLED = 8,
    NESVM_ERR_UNSUPPORTED = 9
} nesvm_status;
typedef struct nesvm_error { nesvm_status status; char message[...]; ...; } nesvm_error;
const char *nesvm_version(void);
const char *nesvm_status_str(nesvm_status s);

typedef struct nesvm_dataset nesvm_dataset;
typedef enum nesvm_storage { NESVM_STORAGE_AUTO = 0, NESVM_STORAGE_CSR = 1, NESVM_STORAGE_DENSE = 2 } nesvm_storage;
typedef enum nesvm_precision { NESVM_DOUBLE = 0, NESVM_FLOAT = 1 } nesvm_precision;
typedef struct nesvm_read_options {
    nesvm_storage storage; nesvm_precision precision; double dense_threshold; size_t max_line_bytes;
    int32_t min_features; int threads; ...;
} nesvm_read_options;
void nesvm_read_options_init(nesvm_read_options *opt);
nesvm_status nesvm_dataset_read(const char *path, const nesvm_read_options *opt, nesvm_dataset **out,
                                nesvm_error *err);
nesvm_status nesvm_dataset_wrap_csr_ex(int64_t n_rows, int32_t n_features, const void *indptr, int indptr_bits,
                                       const void *indices, int index_bits, const void *values,
                                       nesvm_precision prec, const double *labels, nesvm_dataset **out,
                                       nesvm_error *err);
nesvm_status nesvm_dataset_wrap_dense_ex(int64_t n_rows, int32_t n_features, const void *values,
                                         nesvm_precision prec, const double *labels, nesvm_dataset **out,
                                         nesvm_error *err);
nesvm_status nesvm_dataset_set_weights(nesvm_dataset *ds, const double *weights, nesvm_error *err);
void nesvm_dataset_destroy(nesvm_dataset *ds);
int64_t nesvm_dataset_rows(const nesvm_dataset *ds);
int32_t nesvm_dataset_features(const nesvm_dataset *ds);
int64_t nesvm_dataset_nnz(const nesvm_dataset *ds);
nesvm_storage nesvm_dataset_storage(const nesvm_dataset *ds);
nesvm_precision nesvm_dataset_precision(const nesvm_dataset *ds);
const double *nesvm_dataset_labels(const nesvm_dataset *ds);
const void *nesvm_dataset_values(const nesvm_dataset *ds);
const int32_t *nesvm_dataset_indices(const nesvm_dataset *ds);
const int64_t *nesvm_dataset_indices64(const nesvm_dataset *ds);
const int64_t *nesvm_dataset_indptr(const nesvm_dataset *ds);
nesvm_status nesvm_dataset_write(const nesvm_dataset *ds, const char *path, nesvm_error *err);

typedef struct nesvm_params nesvm_params;
nesvm_status nesvm_params_create(nesvm_params **out, nesvm_error *err);
void nesvm_params_destroy(nesvm_params *p);
nesvm_status nesvm_params_set(nesvm_params *p, const char *name, const char *value, nesvm_error *err);
nesvm_status nesvm_params_get(const nesvm_params *p, const char *name, char *buf, size_t size,
                              nesvm_error *err);
int nesvm_params_applies(const nesvm_params *p, const char *name);
nesvm_status nesvm_params_set_class_weight(nesvm_params *p, double label, double weight, nesvm_error *err);
int nesvm_params_class_weight(const nesvm_params *p, int k, double *label, double *weight);

typedef struct nesvm_solver_info {
    size_t size; const char *name; int has_c; char losses[...]; int loss_specific; const char *tasks;
    const char *kernels; const char *memory; int distributed; int certificate; ...;
} nesvm_solver_info;
const char *nesvm_solver_name(int k);
nesvm_status nesvm_solver_describe(const char *name, nesvm_solver_info *info, nesvm_error *err);

typedef enum nesvm_exit {
    NESVM_EXIT_CONVERGED = 0, NESVM_EXIT_MAX_ITER = 1, NESVM_EXIT_TIME_LIMIT = 2, NESVM_EXIT_CANCELLED = 3,
    NESVM_EXIT_NUMERIC = 4, NESVM_EXIT_NO_MEMORY = 5, NESVM_EXIT_STALLED = 6,
    NESVM_EXIT_EPS_ABS = 7
} nesvm_exit;
const char *nesvm_exit_str(nesvm_exit e);
typedef struct nesvm_progress {
    size_t size; int submodel; int n_submodels; int64_t iteration; double elapsed; double primal;
    double best_primal; double lower_bound; double gap; ...;
} nesvm_progress;
typedef int (*nesvm_progress_fn)(const nesvm_progress *p, void *user);
typedef struct nesvm_stats {
    size_t size; int n_submodels; int64_t iterations; double seconds; double primal; double lower_bound;
    double gap; nesvm_exit exit_reason; int64_t n_sv; int64_t kernel_evals; ...;
} nesvm_stats;

typedef struct nesvm_model nesvm_model;
nesvm_status nesvm_train(const nesvm_dataset *ds, const nesvm_params *params, nesvm_progress_fn progress,
                         void *user, nesvm_model **out, nesvm_stats *stats, nesvm_error *err);
nesvm_status nesvm_train_warm(const nesvm_dataset *ds, const nesvm_params *params, const nesvm_model *init,
                              nesvm_progress_fn progress, void *user, nesvm_model **out, nesvm_stats *stats,
                              nesvm_error *err);
void nesvm_model_destroy(nesvm_model *m);
nesvm_status nesvm_model_save(const nesvm_model *m, const char *path, nesvm_error *err);
nesvm_status nesvm_model_load(const char *path, nesvm_model **out, nesvm_error *err);
nesvm_status nesvm_model_save_buffer(const nesvm_model *m, char **out, size_t *len, nesvm_error *err);
nesvm_status nesvm_model_load_buffer(const char *data, size_t len, nesvm_model **out, nesvm_error *err);
void nesvm_free(void *p);
int nesvm_model_classes(const nesvm_model *m);
const double *nesvm_model_labels(const nesvm_model *m);
int32_t nesvm_model_features(const nesvm_model *m);
int nesvm_model_submodels(const nesvm_model *m);
const char *nesvm_model_solver(const nesvm_model *m);
const char *nesvm_model_multiclass(const nesvm_model *m);
const char *nesvm_model_problem(const nesvm_model *m);
const char *nesvm_model_kernel(const nesvm_model *m);
const nesvm_params *nesvm_model_params(const nesvm_model *m);
const nesvm_dataset *nesvm_model_basis(const nesvm_model *m);
const int64_t *nesvm_model_basis_rows(const nesvm_model *m);
nesvm_status nesvm_model_expansion(const nesvm_model *m, int k, const double **beta, int64_t *nbasis,
                                   double *b, int *pos, int *neg, nesvm_error *err);
nesvm_status nesvm_model_training(const nesvm_model *m, int k, nesvm_exit *exit_reason, int64_t *iterations,
                                  double *primal, double *gap, nesvm_error *err);
typedef enum nesvm_cert { NESVM_CERT_MISSED = 0, NESVM_CERT_REACHED = 1, NESVM_CERT_NONE = 2 } nesvm_cert;
nesvm_cert nesvm_model_certified(const nesvm_model *m, int k);
double nesvm_model_nu_value(const nesvm_model *m, int k);
nesvm_status nesvm_model_predict(const nesvm_model *m, const nesvm_dataset *ds, int threads, double *labels,
                                 double *decision, nesvm_error *err);
nesvm_status nesvm_model_predict_proba(const nesvm_model *m, const nesvm_dataset *ds, int threads,
                                       double *labels, double *proba, nesvm_error *err);
int nesvm_model_has_probability(const nesvm_model *m);
nesvm_status nesvm_model_probability(const nesvm_model *m, int k, double *A, double *B, nesvm_error *err);
nesvm_status nesvm_cross_validate(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                  uint64_t seed, nesvm_progress_fn progress, void *user, double *predicted,
                                  double *accuracy, nesvm_error *err);
nesvm_status nesvm_cross_validate_path(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                       uint64_t seed, const char *name, const double *values, int n_values,
                                       int warm, nesvm_progress_fn progress, void *user, double *accuracy,
                                       int64_t *iterations, nesvm_error *err);
nesvm_status nesvm_model_export(const nesvm_model *m, const char *format, const char *path, nesvm_error *err);
nesvm_status nesvm_model_import(const char *path, const char *format, nesvm_model **out, nesvm_error *err);

extern "Python" int _nesvm_progress(const nesvm_progress *p, void *user);
"""


def _pkg_config(*names):
    out = subprocess.run(["pkg-config", "--libs"] + list(names), check=True, capture_output=True, text=True)
    return shlex.split(out.stdout)


def builder(include_dir, static_lib):
    """The FFI builder of nesvm._nesvm, linked with static_lib (libnesvm.a)."""
    ffi = FFI()
    ffi.cdef(CDEF)
    link = _pkg_config("lapacke", "openblas")
    libraries = [a[2:] for a in link if a.startswith("-l")] + ["z", "bz2", "lzma", "m"]
    library_dirs = [a[2:] for a in link if a.startswith("-L")]
    ffi.set_source(
        "nesvm._nesvm",
        '#include "nesvm.h"\n',
        include_dirs=[include_dir],
        extra_objects=[static_lib],
        libraries=libraries,
        library_dirs=library_dirs,
        extra_compile_args=["-O2", "-fopenmp"],
        extra_link_args=["-fopenmp"],
    )
    return ffi


if __name__ == "__main__":  # manual build in place: python3 nesvm_build.py INCLUDE_DIR LIBNESVM_A
    import sys

    builder(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])).compile(verbose=True)
