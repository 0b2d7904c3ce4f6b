/*
 * fuzz_model.c - nesvm_model_load on arbitrary bytes (the input is the model
 * file as it is).
 *
 * Checks:
 *   - a failed load returns a non-OK status with a message and no model;
 *   - allocation-failure injection (on one input in four, chosen by a hash
 *     of the input so that the file's bytes stay a model file): the load is
 *     repeated with nv_alloc_fail_after(k) for k = 0, 1, ... until it
 *     succeeds (or 64 times); every injected load must fail cleanly (a
 *     message, no leak) or succeed with the same model, and a file the
 *     plain load refuses must never load under injection;
 *   - a loaded model saves (NESVM_OK: it holds only finite numbers), the
 *     saved file loads, and saving that gives the same bytes;
 *   - the loaded and the reloaded model predict the same labels and
 *     decision values (bitwise, NaN == NaN) on a few fixed rows built for
 *     the model's features (dense when there are few features, CSR with a
 *     handful of entries spread over them otherwise, plus features beyond
 *     the model's, which are ignored), with 1 and with 2 threads; every
 *     predicted label is one of the model's labels (a regression's is its
 *     decision value, a novelty model's the sign, +1 at 0); prediction never runs
 *     out of memory (a kernel model's basis with an index near 2^31 takes no
 *     buffer of that width: the replay test runs under ulimit -v).
 */
#include "fuzz_common.h"

#include "core/internal.h"

#define ROWS 5
#define DENSE_MAX_FEATURES 64
#define MAX_DATA_FEATURES (1 << 20)

typedef struct rows {
    nesvm_dataset *ds;
    double *values, *labels;
    int64_t *indptr;
    int32_t *indices;
} rows;

static double cell(int i, int64_t j)
{
    static const double base[ROWS] = {0.0, 1.0, -0.5, 0.25, 3.0};
    if (i == 0) return 0.0; /* an all-zero row */
    return base[i] * (double)((j % 7) + 1) / 4.0 + (i == 3 ? -1.0 : 0.0);
}

static void rows_build(rows *r, int32_t model_d)
{
    memset(r, 0, sizeof *r);
    int64_t d = (int64_t)model_d + 3; /* three features the model does not know */
    if (d > MAX_DATA_FEATURES) d = MAX_DATA_FEATURES;
    nesvm_error err = {0};
    nesvm_status st;
    r->labels = calloc(ROWS, sizeof(double));
    if (d <= DENSE_MAX_FEATURES) {
        r->values = calloc((size_t)(ROWS * d), sizeof(double));
        for (int i = 0; i < ROWS; i++)
            for (int64_t j = 0; j < d; j++) r->values[i * d + j] = cell(i, j);
        st = nesvm_dataset_wrap_dense(ROWS, (int32_t)d, r->values, r->labels, &r->ds, &err);
    } else {
        int64_t cols[6] = {0, 1, d / 3, d / 2, d - 2, d - 1};
        r->indptr = calloc(ROWS + 1, sizeof(int64_t));
        r->indices = calloc(ROWS * 6, sizeof(int32_t));
        r->values = calloc(ROWS * 6, sizeof(double));
        int64_t nnz = 0;
        for (int i = 0; i < ROWS; i++) {
            int64_t prev = -1;
            for (int c = 0; c < 6; c++) {
                if (cols[c] <= prev || i == 0) continue;
                r->indices[nnz] = (int32_t)cols[c];
                r->values[nnz++] = cell(i, cols[c]);
                prev = cols[c];
            }
            r->indptr[i + 1] = nnz;
        }
        st = nesvm_dataset_wrap_csr(ROWS, (int32_t)d, r->indptr, r->indices, r->values, r->labels,
                                    &r->ds, &err);
    }
    FUZZ_CHECK(st == NESVM_OK, "cannot build the test rows: %s", err.message);
}

static void rows_free(rows *r)
{
    nesvm_dataset_destroy(r->ds);
    free(r->values);
    free(r->labels);
    free(r->indptr);
    free(r->indices);
}

/* Predict the rows; returns the status, labels and decisions (caller frees). */
static nesvm_status predict(const nesvm_model *m, const nesvm_dataset *ds, int threads,
                            double **labels, double **dec, nesvm_error *err)
{
    size_t nsub = (size_t)nesvm_model_submodels(m);
    *labels = malloc(ROWS * sizeof(double));
    *dec = malloc(ROWS * nsub * sizeof(double));
    FUZZ_CHECK(*labels && *dec, "out of memory in the fuzz target (%zu sub-models)", nsub);
    return nesvm_model_predict(m, ds, threads, *labels, *dec, err);
}

static void same_predictions(const nesvm_model *a, const nesvm_model *b, const nesvm_dataset *ds,
                             int ta, int tb)
{
    double *la, *da, *lb, *db;
    nesvm_error ea = {0}, eb = {0};
    nesvm_status sa = predict(a, ds, ta, &la, &da, &ea);
    nesvm_status sb = predict(b, ds, tb, &lb, &db, &eb);
    FUZZ_CHECK(sa == sb, "predict: status %d ('%s') and %d ('%s')", (int)sa, ea.message, (int)sb,
               eb.message);
    if (sa == NESVM_OK) {
        int nsub = nesvm_model_submodels(a), nc = nesvm_model_classes(a);
        const double *ml = nesvm_model_labels(a);
        for (int i = 0; i < ROWS; i++) {
            FUZZ_CHECK(fuzz_same_double(la[i], lb[i]), "row %d: label %a and %a (threads %d, %d)",
                       i, la[i], lb[i], ta, tb);
            const nesvm_task task = nesvm_model_task(a);
            if (task == NESVM_TASK_CLASSIFICATION) {
                int known = 0;
                for (int c = 0; c < nc; c++) known |= ml[c] == la[i];
                FUZZ_CHECK(known, "row %d: predicted label %g is not a class of the model", i, la[i]);
            } else { /* one sub-model: its decision value, or its side of 0 */
                FUZZ_CHECK(nc == 0 && nsub == 1, "a %s model with %d classes and %d sub-models",
                           nesvm_task_str(task), nc, nsub);
                const double want = task == NESVM_TASK_REGRESSION ? da[i] : da[i] >= 0 ? 1.0 : -1.0;
                FUZZ_CHECK(fuzz_same_double(la[i], want), "row %d: %s prediction %a for decision %a", i,
                           nesvm_task_str(task), la[i], da[i]);
            }
            for (int s = 0; s < nsub; s++)
                FUZZ_CHECK(fuzz_same_double(da[i * nsub + s], db[i * nsub + s]),
                           "row %d sub-model %d: decision %a and %a (threads %d, %d)", i, s,
                           da[i * nsub + s], db[i * nsub + s], ta, tb);
        }
    } else {
        /* memory follows the stored values: a model small enough to load
         * predicts a few small rows without running out of memory, whatever
         * its largest feature index */
        FUZZ_CHECK_ERROR(sa, ea);
        FUZZ_CHECK(0, "predict failed: %s", ea.message);
    }
    free(la);
    free(da);
    free(lb);
    free(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_path(data, size);
    uint64_t h = fuzz_hash(data, size);

    nesvm_error err = {0};
    nesvm_model *m = NULL;
    nesvm_status st = nesvm_model_load(path, &m, &err);
    if (st != NESVM_OK) {
        FUZZ_CHECK_ERROR(st, err);
        FUZZ_CHECK(m == NULL, "a failed load left a model");
    } else {
        FUZZ_CHECK(m != NULL, "OK without a model");
    }

    if ((h & 3) == 0) fuzz_inject_model_reads(nesvm_model_load, path, st, err.message);
    if (st != NESVM_OK) return 0;

    char pa[300], pb[300];
    fuzz_out_path("a.model", pa, sizeof pa);
    fuzz_out_path("b.model", pb, sizeof pb);
    st = nesvm_model_save(m, pa, &err);
    FUZZ_CHECK(st == NESVM_OK, "a loaded model does not save: %s", err.message);
    nesvm_model *m2 = NULL;
    st = nesvm_model_load(pa, &m2, &err);
    FUZZ_CHECK(st == NESVM_OK, "a saved model does not load: %s", err.message);
    st = nesvm_model_save(m2, pb, &err);
    FUZZ_CHECK(st == NESVM_OK, "a reloaded model does not save: %s", err.message);
    size_t la = 0, lb = 0;
    char *a = fuzz_slurp(pa, &la), *b = fuzz_slurp(pb, &lb);
    FUZZ_CHECK(a && b, "cannot read the saved models back");
    FUZZ_CHECK(la == lb && memcmp(a, b, la) == 0,
               "the second save differs from the first (%zu and %zu bytes)", la, lb);
    free(a);
    free(b);

    FUZZ_CHECK(nesvm_model_classes(m) == nesvm_model_classes(m2) &&
                   nesvm_model_features(m) == nesvm_model_features(m2) &&
                   nesvm_model_submodels(m) == nesvm_model_submodels(m2) &&
                   strcmp(nesvm_model_solver(m), nesvm_model_solver(m2)) == 0 &&
                   strcmp(nesvm_model_multiclass(m), nesvm_model_multiclass(m2)) == 0 &&
                   strcmp(nesvm_model_kernel(m), nesvm_model_kernel(m2)) == 0 &&
                   strcmp(nesvm_model_problem(m), nesvm_model_problem(m2)) == 0,
               "the reloaded model differs in its shape");

    rows r;
    rows_build(&r, nesvm_model_features(m));
    same_predictions(m, m2, r.ds, 1, 1);
    same_predictions(m, m, r.ds, 1, 2);
    rows_free(&r);
    nesvm_model_destroy(m);
    nesvm_model_destroy(m2);
    return 0;
}
