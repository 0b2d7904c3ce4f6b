/*
 * fuzz_import.c - nesvm_model_import on arbitrary bytes (the input is a
 * LIBSVM or LIBLINEAR model file as it is; the format is told by its first
 * line).
 *
 * Checks:
 *   - a failed import returns a non-OK status with a message and no model;
 *   - a file of at most 1 MB never fails for want of memory (without
 *     injection): what an import allocates follows the file's values, not
 *     the largest feature index or the counts it claims;
 *   - allocation-failure injection (one input in four, by a hash of the
 *     input): the import is repeated with nv_alloc_fail_after(k) for
 *     k = 0, 1, ... until it succeeds (or 64 times); every injected import
 *     fails cleanly or succeeds, and a file the plain import refuses never
 *     imports under injection;
 *   - an imported model saves, the saved file loads, and saving that gives
 *     the same bytes;
 *   - an imported model exports back to the format it came from (where the
 *     model is representable there: every LIBLINEAR model, and every LIBSVM
 *     model but a linear-kernel classifier, which became a weight vector; a
 *     linear epsilon_svr goes back as w, one support vector), and that
 *     file imports again; a second export and import gives the same bytes
 *     (the first may drop support vectors without coefficients and regroup
 *     them by the signs of their coefficients); from LIBLINEAR, the weights
 *     are the same and the bias within 4 ulp (b goes out as the bias
 *     feature's weight b / B).
 */
#include "fuzz_common.h"

#include "core/internal.h"

#include <float.h>

static char *saved(const nesvm_model *m, const char *name, size_t *len)
{
    char p[300];
    fuzz_out_path(name, p, sizeof p);
    nesvm_error err = {0};
    nesvm_status st = nesvm_model_save(m, p, &err);
    FUZZ_CHECK(st == NESVM_OK, "an imported model does not save: %s", err.message);
    char *s = fuzz_slurp(p, len);
    FUZZ_CHECK(s != NULL, "cannot read a saved model back");
    return s;
}

static nesvm_status import_any(const char *path, nesvm_model **out, nesvm_error *err)
{
    return nesvm_model_import(path, NULL, out, err);
}

/* The largest INDEX of the input's INDEX:VALUE tokens (digits right before a
 * ':'), at most 2^40. */
static int64_t largest_index(const uint8_t *data, size_t size)
{
    int64_t best = 0;
    for (size_t i = 0; i < size; i++) {
        if (data[i] != ':') continue;
        int64_t v = 0, scale = 1;
        for (size_t j = i; j > 0 && data[j - 1] >= '0' && data[j - 1] <= '9' && scale < ((int64_t)1 << 40); j--) {
            v += (int64_t)(data[j - 1] - '0') * scale;
            scale *= 10;
        }
        if (v > best) best = v;
    }
    return best;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A LIBSVM linear-kernel model becomes a dense weight vector per pair:
     * an index of 3e7 makes a correct import of 10^8 numbers (5 s without
     * sanitizers), past the fuzzer's timeout.  Such inputs are left out (the
     * CLI test imports a linear-kernel model), up to the index whose vector
     * takes 256 MB: beyond it a small file's import is refused at once
     * (nv_dense_too_large), and those inputs run. */
    const int64_t big = largest_index(data, size);
    if (memmem(data, size, "kernel_type linear", 18) && big > (1 << 20) && big <= (1 << 25)) return 0;
    const char *path = fuzz_input_path(data, size);
    uint64_t h = fuzz_hash(data, size);

    nesvm_error err = {0};
    nesvm_model *m = NULL;
    nesvm_status st = nesvm_model_import(path, NULL, &m, &err);
    if (st != NESVM_OK) {
        FUZZ_CHECK_ERROR(st, err);
        FUZZ_CHECK(m == NULL, "a failed import left a model");
        /* memory follows the file, not the numbers in it: a small file is
         * imported or refused for what it says, never for want of memory
         * (libFuzzer's malloc limit, the sanitizers' 512 MB allocations, or
         * the replay test's ulimit -v would show such an allocation) */
        FUZZ_CHECK(st != NESVM_ERR_NOMEM || size > (1 << 20), "a %zu-byte file ran out of memory: %s", size,
                   err.message);
    } else {
        FUZZ_CHECK(m != NULL, "OK without a model");
    }
    if ((h & 3) == 0) fuzz_inject_model_reads(import_any, path, st, err.message);
    if (st != NESVM_OK) return 0;

    /* save, load, save: the same bytes */
    size_t la = 0, lb = 0;
    char *a = saved(m, "a.model", &la);
    char pa[300];
    fuzz_out_path("a.model", pa, sizeof pa);
    nesvm_model *m2 = NULL;
    st = nesvm_model_load(pa, &m2, &err);
    FUZZ_CHECK(st == NESVM_OK, "an imported model's file does not load: %s", err.message);
    char *b = saved(m2, "b.model", &lb);
    FUZZ_CHECK(la == lb && memcmp(a, b, la) == 0, "the second save differs (%zu and %zu bytes)", la, lb);
    free(b);
    nesvm_model_destroy(m2);

    /* back to the tool's format and in again, twice: the first round may
     * drop support vectors without a coefficient and regroup them by the
     * class their coefficients' signs give (what export writes); from then
     * on the file and the model stay the same */
    /* the format: the keyword of the file's first line (which may follow
     * empty lines; an imported file has no other before it) */
    const char *kl = memmem(data, size, "svm_type", 8), *kb = memmem(data, size, "solver_type", 11);
    const int libsvm = kl && (!kb || kl < kb);
    if (!libsvm || nesvm_model_basis(m) || nesvm_model_task(m) == NESVM_TASK_REGRESSION) {
        const char *fmt = libsvm ? "libsvm" : "liblinear";
        nesvm_model *mr[3] = {m, NULL, NULL};
        char *text[3] = {NULL, NULL, NULL};
        size_t len[3] = {0, 0, 0};
        for (int round = 1; round <= 2; round++) {
            char pe[300];
            fuzz_out_path("e.orig", pe, sizeof pe);
            st = nesvm_model_export(mr[round - 1], fmt, pe, &err);
            if (st != NESVM_OK && round == 1 && libsvm && nesvm_model_classes(m) > 2 &&
                strstr(err.message, "LIBSVM counts a support vector in its own class's pairs only"))
                break; /* a support vector with coefficients in pairs of no common class */
            FUZZ_CHECK(st == NESVM_OK, "round %d: the model does not export back: %s", round, err.message);
            st = nesvm_model_import(pe, fmt, &mr[round], &err);
            FUZZ_CHECK(st == NESVM_OK, "round %d: an exported model does not import: %s", round, err.message);
            text[round] = saved(mr[round], round == 1 ? "c.model" : "d.model", &len[round]);
        }
        if (mr[2])
            FUZZ_CHECK(len[1] == len[2] && memcmp(text[1], text[2], len[1]) == 0,
                       "a second export and import changed the model (%zu and %zu bytes)", len[1], len[2]);
        if (!libsvm && mr[1]) { /* the weights as they are; b through b / B and back */
            FUZZ_CHECK(nesvm_model_submodels(mr[1]) == nesvm_model_submodels(m) &&
                           nesvm_model_features(mr[1]) == nesvm_model_features(m),
                       "export and import changed the model's shape");
            for (int s = 0; s < nesvm_model_submodels(m); s++) {
                const double *w1, *w3;
                double b1, b3;
                nesvm_model_linear(m, s, &w1, &b1, NULL, NULL, NULL);
                nesvm_model_linear(mr[1], s, &w3, &b3, NULL, NULL, NULL);
                FUZZ_CHECK(memcmp(w1, w3, sizeof(double) * (size_t)nesvm_model_features(m)) == 0,
                           "export and import changed sub-model %d's weights", s);
                FUZZ_CHECK(fabs(b1 - b3) <= 4 * DBL_EPSILON * fabs(b1),
                           "export and import changed sub-model %d's bias: %.17g to %.17g", s, b1, b3);
            }
        }
        for (int round = 1; round <= 2; round++) {
            nesvm_model_destroy(mr[round]);
            free(text[round]);
        }
    }
    free(a);
    nesvm_model_destroy(m);
    return 0;
}
