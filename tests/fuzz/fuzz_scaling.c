/*
 * fuzz_scaling.c - nesvm_scaling_load on arbitrary bytes (the input is the
 * scaling file, svm-scale's parameter format, as it is).
 *
 * Checks:
 *   - a failed load returns a non-OK status with a message and no object;
 *   - on one input in four (by a hash of the input), the load is repeated
 *     with an allocation failing at k = 0, 1, ... until it succeeds: every
 *     injected load fails cleanly (message, no leak) or succeeds, and never
 *     succeeds when the plain load fails;
 *   - a loaded scaling saves, the saved file loads, and saving that gives
 *     the same bytes;
 *   - the loaded and the reloaded scaling give the same result (status,
 *     and rows, labels, indices and values bitwise) when applied to a few
 *     fixed rows (8 features, dense and CSR copies of the same data);
 *     scaled values and labels are finite.
 * A NUL byte anywhere must give a clean refusal (regressions/scaling/
 * nul_byte_line: the loader used to read before its line buffer).
 * A scaling of more than 2^20 features (the loader takes up to 2^24 in a
 * small file) is checked by the plain load alone: its injected loads,
 * saves and applies cost O(features) each, and under the sanitizers they
 * took 11 s for one input of 16,777,216 features, beyond libFuzzer's 10 s
 * timeout (regressions/scaling/many_features).
 */
#include "fuzz_common.h"

#include "data/dataset_internal.h"

#define N 4
#define D 8

static const double X[N][D] = {
    {0, 1, -1, 0.5, 2, 0, 0, 1e-3},
    {1, 0, 3, -2, 0, 0, 7, 0},
    {0, 0, 0, 0, 0, 0, 0, 0},
    {-4, 2.5, 0, 1, 1, 1, -7, 100},
};
static const double Y[N] = {1, -1, 2, 0.5};

static void same_dataset(const nesvm_dataset *a, const nesvm_dataset *b, const char *what)
{
    FUZZ_CHECK(a->n == b->n && a->d == b->d && a->nnz == b->nnz,
               "%s: %lld x %d (%lld stored) and %lld x %d (%lld stored)", what, (long long)a->n,
               a->d, (long long)a->nnz, (long long)b->n, b->d, (long long)b->nnz);
    FUZZ_CHECK(a->storage == NESVM_STORAGE_CSR && b->storage == NESVM_STORAGE_CSR &&
                   a->prec == NESVM_DOUBLE && b->prec == NESVM_DOUBLE,
               "%s: scaled data are not CSR double", what);
    FUZZ_CHECK(memcmp(a->labels, b->labels, (size_t)a->n * sizeof(double)) == 0, "%s: labels differ",
               what);
    FUZZ_CHECK(memcmp(a->indptr, b->indptr, (size_t)(a->n + 1) * sizeof(int64_t)) == 0,
               "%s: indptr differs", what);
    FUZZ_CHECK(memcmp(a->indices, b->indices, (size_t)a->nnz * sizeof(int32_t)) == 0,
               "%s: indices differ", what);
    FUZZ_CHECK(memcmp(a->values, b->values, (size_t)a->nnz * sizeof(double)) == 0,
               "%s: values differ", what);
    for (int64_t i = 0; i < a->n; i++) FUZZ_CHECK(isfinite(a->labels[i]), "%s: label %g", what, a->labels[i]);
    for (int64_t i = 0; i < a->n; i++) {
        int32_t prev = -1;
        for (int64_t k = a->indptr[i]; k < a->indptr[i + 1]; k++) {
            FUZZ_CHECK(a->indices[k] > prev && a->indices[k] < a->d, "%s: bad index %d", what,
                       a->indices[k]);
            FUZZ_CHECK(isfinite(nv_val(a, k)) && nv_val(a, k) != 0, "%s: scaled value %g", what,
                       nv_val(a, k));
            prev = a->indices[k];
        }
    }
}

/* Apply sa and sb to the same data; the results must agree. */
static void same_apply(const nesvm_scaling *sa, const nesvm_scaling *sb, const nesvm_dataset *ds,
                       const char *what)
{
    nesvm_error ea = {0}, eb = {0};
    nesvm_dataset *ra = NULL, *rb = NULL;
    nesvm_status a = nesvm_scaling_apply(sa, ds, &ra, &ea);
    nesvm_status b = nesvm_scaling_apply(sb, ds, &rb, &eb);
    FUZZ_CHECK(a == b, "%s: apply gives %d ('%s') and %d ('%s')", what, (int)a, ea.message, (int)b,
               eb.message);
    if (a == NESVM_OK) {
        same_dataset(ra, rb, what);
    } else {
        FUZZ_CHECK_ERROR(a, ea);
        FUZZ_CHECK(strcmp(ea.message, eb.message) == 0, "%s: messages '%s' and '%s'", what,
                   ea.message, eb.message);
    }
    nesvm_dataset_destroy(ra);
    nesvm_dataset_destroy(rb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_path(data, size);
    uint64_t h = fuzz_hash(data, size);

    nesvm_error err = {0};
    nesvm_scaling *sc = NULL;
    nesvm_status st = nesvm_scaling_load(path, &sc, &err);
    if (st != NESVM_OK) {
        FUZZ_CHECK_ERROR(st, err);
        FUZZ_CHECK(sc == NULL, "a failed load left a scaling");
    } else {
        FUZZ_CHECK(sc != NULL, "OK without a scaling");
        if (nesvm_scaling_features(sc) > (1 << 20)) {
            nesvm_scaling_destroy(sc);
            return 0;
        }
    }
    if ((h & 3) == 0) {
        for (long k = 0; k < 64; k++) {
            nesvm_error ierr = {0};
            nesvm_scaling *si = NULL;
            nv_alloc_fail_after(k);
            nesvm_status ist = nesvm_scaling_load(path, &si, &ierr);
            nv_alloc_fail_after(-1);
            if (ist == NESVM_OK) {
                FUZZ_CHECK(st == NESVM_OK, "loads with an allocation failing at %ld, but not "
                           "without (%s)", k, err.message);
                nesvm_scaling_destroy(si);
                break;
            }
            FUZZ_CHECK_ERROR(ist, ierr);
            FUZZ_CHECK(si == NULL, "a failed load left a scaling");
            if (ist != NESVM_ERR_NOMEM) {
                FUZZ_CHECK(ist == st && strcmp(ierr.message, err.message) == 0,
                           "injected failure at %ld gave '%s', the plain load '%s'", k,
                           ierr.message, err.message);
                break;
            }
        }
    }
    if (st != NESVM_OK) return 0;

    char pa[300], pb[300];
    fuzz_out_path("a.scale", pa, sizeof pa);
    fuzz_out_path("b.scale", pb, sizeof pb);
    st = nesvm_scaling_save(sc, pa, &err);
    FUZZ_CHECK(st == NESVM_OK, "a loaded scaling does not save: %s", err.message);
    nesvm_scaling *sc2 = NULL;
    st = nesvm_scaling_load(pa, &sc2, &err);
    FUZZ_CHECK(st == NESVM_OK, "a saved scaling does not load: %s", err.message);
    st = nesvm_scaling_save(sc2, pb, &err);
    FUZZ_CHECK(st == NESVM_OK, "a reloaded scaling does not save: %s", err.message);
    size_t la = 0, lb = 0;
    char *a = fuzz_slurp(pa, &la), *b = fuzz_slurp(pb, &lb);
    FUZZ_CHECK(a && b, "cannot read the saved scalings back");
    FUZZ_CHECK(la == lb && memcmp(a, b, la) == 0,
               "the second save differs from the first (%zu and %zu bytes):\n%.*s\n----\n%.*s", la, lb,
               (int)(la > 400 ? 400 : la), a, (int)(lb > 400 ? 400 : lb), b);
    free(a);
    free(b);

    /* the same rows, dense and CSR */
    nesvm_dataset *dense = NULL, *csr = NULL;
    int64_t indptr[N + 1] = {0};
    int32_t indices[N * D];
    double values[N * D];
    int64_t nnz = 0;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < D; j++)
            if (X[i][j] != 0) {
                indices[nnz] = j;
                values[nnz++] = X[i][j];
            }
        indptr[i + 1] = nnz;
    }
    FUZZ_CHECK(nesvm_dataset_wrap_dense(N, D, &X[0][0], Y, &dense, &err) == NESVM_OK, "%s", err.message);
    FUZZ_CHECK(nesvm_dataset_wrap_csr(N, D, indptr, indices, values, Y, &csr, &err) == NESVM_OK, "%s",
               err.message);
    same_apply(sc, sc2, dense, "dense rows");
    same_apply(sc, sc2, csr, "CSR rows");
    same_apply(sc, sc, csr, "CSR rows (the same scaling twice)");
    /* dense and CSR storage of the same data scale alike */
    {
        nesvm_dataset *r1 = NULL, *r2 = NULL;
        nesvm_error e1 = {0}, e2 = {0};
        nesvm_status s1 = nesvm_scaling_apply(sc, dense, &r1, &e1);
        nesvm_status s2 = nesvm_scaling_apply(sc, csr, &r2, &e2);
        FUZZ_CHECK(s1 == s2, "dense rows give %d ('%s'), CSR rows %d ('%s')", (int)s1, e1.message,
                   (int)s2, e2.message);
        if (s1 == NESVM_OK) same_dataset(r1, r2, "dense vs CSR rows");
        nesvm_dataset_destroy(r1);
        nesvm_dataset_destroy(r2);
    }
    nesvm_dataset_destroy(dense);
    nesvm_dataset_destroy(csr);
    nesvm_scaling_destroy(sc);
    nesvm_scaling_destroy(sc2);
    return 0;
}
