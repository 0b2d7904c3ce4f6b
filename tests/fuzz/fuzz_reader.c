/*
 * fuzz_reader.c - nesvm_dataset_read on arbitrary bytes.
 *
 * Input layout
 *   - plain: byte 0 is the control byte, byte 1 the allocation-failure count
 *     k; the file is the rest (bytes 2..).
 *   - gzip: an input starting with the gzip magic 1f 8b is the file as it
 *     is, and the control byte and k are the gzip header's MTIME bytes 4 and
 *     5, which zlib ignores (so mutating them never breaks the stream).
 * Control byte
 *   bits 0-1  storage: 0 auto, 1 csr, 2 dense, 3 auto with dense_threshold 0
 *             (every dataset dense)
 *   bit  2    float precision
 *   bit  3    threads 2 (the parallel parse runs on blocks of >= 1 MB:
 *             reached through gzip inputs that inflate to more)
 *   bit  4    allocation-failure injection: nv_alloc_fail_after(k)
 *   bit  5    min_features = k (as well)
 *   bit  6    max_line_bytes = 1 + k (short lines only)
 *   bit  7    a precomputed kernel's rows (LIBSVM's -t 4), for the reference
 *             read too: k even, training rows (NESVM_PRECOMPUTED_TRAIN); k
 *             odd, test rows with kernel_columns = k / 2
 *
 * Every input is read twice: a reference read (CSR, double, one thread, no
 * injection) and the read with the chosen options.  Checks:
 *   - a failed read returns a non-OK status with a message in err; with
 *     injection, no leak (LeakSanitizer) and no crash;
 *   - the chosen read succeeds exactly when the reference does, except for
 *     injected failures (NOMEM), float overflow in single precision (a
 *     value beyond FLT_MAX: an error of its own, which may come before the
 *     reference's error), and a dense matrix too large to allocate;
 *   - a failed chosen read without injection gives the reference's message
 *     (threads do not change messages);
 *   - on success: rows > 0, labels and values finite, CSR indices strictly
 *     ascending in [0, features), indptr consistent, the storage and
 *     precision asked for, features = max(largest index, min_features), and
 *     the same rows, labels and values as the reference (float values are
 *     the reference's rounded to float, dense cells the CSR entries);
 *   - precomputed training rows (on success): every row's column 0 a
 *     positive integer serial number, no two alike, m the largest, and
 *     every row giving the kernel values 1..w, w >= m, every column in
 *     order (a subset of a larger matrix's rows may be wider than m);
 *     test rows: every row's largest column at least kernel_columns.
 * Dense storage is asked for only when the reference has at most 2^22
 * cells (a one-line file "1 2000000000:1" would otherwise make every run
 * fill gigabytes; the allocation limit covers gzip-inflated sizes anyway).
 */
#include "fuzz_common.h"

#include "data/dataset_internal.h"

#include <float.h>

#define DENSE_MAX_CELLS (1 << 22)

static void check_dataset(const nesvm_dataset *ds, const nesvm_dataset *ref,
                          nesvm_storage want_storage, nesvm_precision want_prec, int32_t min_features)
{
    FUZZ_CHECK(ds->n > 0, "rows %lld", (long long)ds->n);
    FUZZ_CHECK(ds->d >= 0 && ds->d >= min_features, "features %d (min_features %d)", ds->d,
               min_features);
    FUZZ_CHECK(ds->storage == NESVM_STORAGE_CSR || ds->storage == NESVM_STORAGE_DENSE,
               "storage %d", (int)ds->storage);
    if (want_storage != NESVM_STORAGE_AUTO)
        FUZZ_CHECK(ds->storage == want_storage, "storage %d, asked for %d", (int)ds->storage,
                   (int)want_storage);
    FUZZ_CHECK(ds->prec == want_prec, "precision %d, asked for %d", (int)ds->prec, (int)want_prec);
    FUZZ_CHECK(nesvm_dataset_rows(ds) == ds->n && nesvm_dataset_features(ds) == ds->d &&
                   nesvm_dataset_nnz(ds) == ds->nnz && nesvm_dataset_labels(ds) == ds->labels,
               "accessors disagree with the dataset");
    for (int64_t i = 0; i < ds->n; i++)
        FUZZ_CHECK(isfinite(ds->labels[i]), "label %lld is %g", (long long)i, ds->labels[i]);
    if (ds->storage == NESVM_STORAGE_CSR) {
        FUZZ_CHECK(ds->indptr[0] == 0, "indptr[0] = %lld", (long long)ds->indptr[0]);
        FUZZ_CHECK(ds->indptr[ds->n] == ds->nnz, "indptr[n] = %lld, nnz %lld",
                   (long long)ds->indptr[ds->n], (long long)ds->nnz);
        int32_t maxidx = -1;
        for (int64_t i = 0; i < ds->n; i++) {
            FUZZ_CHECK(ds->indptr[i + 1] >= ds->indptr[i], "indptr decreases at row %lld",
                       (long long)i);
            int32_t prev = -1;
            for (int64_t k = ds->indptr[i]; k < ds->indptr[i + 1]; k++) {
                int32_t j = ds->indices[k];
                FUZZ_CHECK(j > prev && j < ds->d, "row %lld: index %d after %d, features %d",
                           (long long)i, j, prev, ds->d);
                FUZZ_CHECK(isfinite(nv_val(ds, k)), "row %lld: value %g", (long long)i,
                           nv_val(ds, k));
                prev = j;
                if (j > maxidx) maxidx = j;
            }
        }
        int32_t want_d = maxidx + 1 > min_features ? maxidx + 1 : min_features;
        FUZZ_CHECK(ds->d == want_d, "features %d, largest index %d, min_features %d", ds->d,
                   maxidx + 1, min_features);
    } else {
        FUZZ_CHECK(ds->nnz == ds->n * (int64_t)ds->d, "dense nnz %lld for %lld x %d",
                   (long long)ds->nnz, (long long)ds->n, ds->d);
        for (int64_t k = 0; k < ds->nnz; k++)
            FUZZ_CHECK(isfinite(nv_val(ds, k)), "cell %lld: value %g", (long long)k, nv_val(ds, k));
    }
    if (!ref) return;

    /* the same data as the reference (CSR, double) */
    FUZZ_CHECK(ds->n == ref->n && ds->d == ref->d, "%lld x %d, reference %lld x %d",
               (long long)ds->n, ds->d, (long long)ref->n, ref->d);
    FUZZ_CHECK(memcmp(ds->labels, ref->labels, (size_t)ds->n * sizeof(double)) == 0,
               "labels differ from the reference");
    if (ds->storage == NESVM_STORAGE_CSR) {
        FUZZ_CHECK(ds->nnz == ref->nnz, "nnz %lld, reference %lld", (long long)ds->nnz,
                   (long long)ref->nnz);
        FUZZ_CHECK(memcmp(ds->indptr, ref->indptr, (size_t)(ds->n + 1) * sizeof(int64_t)) == 0,
                   "indptr differs from the reference");
        FUZZ_CHECK(memcmp(ds->indices, ref->indices, (size_t)ds->nnz * sizeof(int32_t)) == 0,
                   "indices differ from the reference");
    }
    for (int64_t i = 0; i < ref->n; i++) {
        int64_t k0 = ref->indptr[i], k1 = ref->indptr[i + 1];
        int32_t next = 0; /* dense: the cells before the next entry must be zero */
        for (int64_t k = k0; k <= k1; k++) {
            int32_t j = k < k1 ? ref->indices[k] : ds->d;
            if (ds->storage == NESVM_STORAGE_DENSE) {
                for (; next < j; next++) {
                    double z = nv_val(ds, i * (int64_t)ds->d + next);
                    FUZZ_CHECK(z == 0 && !signbit(z), "row %lld cell %d: %g where no entry is",
                               (long long)i, next, z);
                }
                next = j + 1;
            }
            if (k == k1) break;
            double rv = ((const double *)ref->values)[k];
            int64_t pos = ds->storage == NESVM_STORAGE_DENSE ? i * (int64_t)ds->d + j : k;
            if (ds->prec == NESVM_FLOAT) {
                float want = (float)rv, got = ((const float *)ds->values)[pos];
                FUZZ_CHECK(memcmp(&want, &got, sizeof want) == 0,
                           "row %lld feature %d: float %a, reference %a", (long long)i, j + 1,
                           (double)got, rv);
            } else {
                double got = ((const double *)ds->values)[pos];
                FUZZ_CHECK(memcmp(&rv, &got, sizeof rv) == 0,
                           "row %lld feature %d: %a, reference %a", (long long)i, j + 1, got, rv);
            }
        }
    }
}

/* A precomputed kernel's rows (the reference: CSR, double) as the reader
 * promises them (nesvm.h, nesvm_precomputed). */
static void check_precomputed(const nesvm_dataset *ref, int mode, int32_t columns)
{
    const double *v = ref->values;
    if (mode == NESVM_PRECOMPUTED_TEST) {
        for (int64_t i = 0; i < ref->n; i++) {
            const int64_t k1 = ref->indptr[i + 1];
            FUZZ_CHECK(k1 > ref->indptr[i] && ref->indices[k1 - 1] >= columns,
                       "test row %lld ends before kernel column %d", (long long)i, columns);
        }
        return;
    }
    double m = 0;
    for (int64_t i = 0; i < ref->n; i++) {
        const int64_t k0 = ref->indptr[i];
        FUZZ_CHECK(ref->indptr[i + 1] > k0 && ref->indices[k0] == 0 && v[k0] >= 1 && v[k0] == floor(v[k0]),
                   "training row %lld: no positive integer serial number in column 0", (long long)i);
        for (int64_t j = 0; j < i; j++)
            FUZZ_CHECK(v[ref->indptr[j]] != v[k0], "rows %lld and %lld share serial number %g", (long long)j,
                       (long long)i, v[k0]);
        if (v[k0] > m) m = v[k0];
    }
    for (int64_t i = 0; i < ref->n; i++) {
        const int64_t k0 = ref->indptr[i], k1 = ref->indptr[i + 1];
        FUZZ_CHECK((double)(k1 - k0) >= m + 1 && ref->indices[k1 - 1] == (int32_t)(k1 - k0 - 1),
                   "training row %lld: columns 0..w (w >= %lld) expected, %lld entries up to %d", (long long)i,
                   (long long)m, (long long)(k1 - k0), ref->indices[k1 - 1]);
    }
}

/* Does the reference hold a value that overflows single precision? */
static int overflows_float(const nesvm_dataset *ref)
{
    for (int64_t k = 0; k < ref->nnz; k++)
        if (isinf((float)((const double *)ref->values)[k])) return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t ctl, k;
    const uint8_t *file;
    size_t file_size;
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        ctl = size > 4 ? data[4] : 0;
        k = size > 5 ? data[5] : 0;
        file = data;
        file_size = size;
    } else {
        if (size < 2) return 0;
        ctl = data[0];
        k = data[1];
        file = data + 2;
        file_size = size - 2;
    }
    const char *path = fuzz_input_path(file, file_size);

    nesvm_read_options opt;
    nesvm_read_options_init(&opt);
    if (ctl & 0x20) opt.min_features = k;
    if (ctl & 0x40) opt.max_line_bytes = (size_t)k + 1;
    if (ctl & 0x80) {
        opt.precomputed = k & 1 ? NESVM_PRECOMPUTED_TEST : NESVM_PRECOMPUTED_TRAIN;
        if (k & 1) opt.kernel_columns = k / 2;
    }

    /* reference: CSR, double, one thread */
    nesvm_read_options ropt = opt;
    ropt.storage = NESVM_STORAGE_CSR;
    ropt.precision = NESVM_DOUBLE;
    ropt.threads = 1;
    nesvm_error rerr = {0};
    nesvm_dataset *ref = NULL;
    nesvm_status rst = nesvm_dataset_read(path, &ropt, &ref, &rerr);
    if (rst != NESVM_OK) {
        FUZZ_CHECK_ERROR(rst, rerr);
        FUZZ_CHECK(ref == NULL, "a failed read left a dataset");
        FUZZ_CHECK(rst == NESVM_ERR_PARSE || rst == NESVM_ERR_DATA || rst == NESVM_ERR_IO,
                   "reference read: unexpected status %d: %s", (int)rst, rerr.message);
    } else {
        FUZZ_CHECK(ref != NULL, "OK without a dataset");
        check_dataset(ref, NULL, NESVM_STORAGE_CSR, NESVM_DOUBLE, opt.min_features);
        if (opt.precomputed) check_precomputed(ref, opt.precomputed, opt.kernel_columns);
    }

    /* the chosen read */
    switch (ctl & 3) {
    case 0: opt.storage = NESVM_STORAGE_AUTO; break;
    case 1: opt.storage = NESVM_STORAGE_CSR; break;
    case 2: opt.storage = NESVM_STORAGE_DENSE; break;
    default:
        opt.storage = NESVM_STORAGE_AUTO;
        opt.dense_threshold = 0;
        break;
    }
    if (opt.storage == NESVM_STORAGE_DENSE || opt.dense_threshold == 0) {
        if (ref && (double)ref->n * (double)ref->d > DENSE_MAX_CELLS) {
            opt.storage = NESVM_STORAGE_CSR;
            opt.dense_threshold = 0.5;
        }
    }
    opt.precision = (ctl & 4) ? NESVM_FLOAT : NESVM_DOUBLE;
    opt.threads = (ctl & 8) ? 2 : 1;
    int inject = (ctl & 0x10) != 0;
    nesvm_error err = {0};
    nesvm_dataset *ds = NULL;
    if (inject) nv_alloc_fail_after(k);
    nesvm_status st = nesvm_dataset_read(path, &opt, &ds, &err);
    nv_alloc_fail_after(-1);
    if (st != NESVM_OK) {
        FUZZ_CHECK_ERROR(st, err);
        FUZZ_CHECK(ds == NULL, "a failed read left a dataset");
        int float_overflow = opt.precision == NESVM_FLOAT && st == NESVM_ERR_PARSE &&
                             strstr(err.message, "overflows single precision") != NULL;
        if (inject && st == NESVM_ERR_NOMEM) {
            /* an injected failure */
        } else if (float_overflow && (rst != NESVM_OK || overflows_float(ref))) {
            /* in single precision, a value beyond FLT_MAX is an error of its own
             * (it may come before the reference's error) */
        } else if (rst != NESVM_OK) {
            FUZZ_CHECK(st == rst && strcmp(err.message, rerr.message) == 0,
                       "error differs from the reference read:\n  got       %d '%s'\n  reference %d '%s'",
                       (int)st, err.message, (int)rst, rerr.message);
        } else {
            int ok = (opt.precision == NESVM_FLOAT && st == NESVM_ERR_PARSE && overflows_float(ref)) ||
                     (st == NESVM_ERR_NOMEM && opt.storage != NESVM_STORAGE_CSR &&
                      (double)ref->n * (double)ref->d * 8 > 64.0 * 1048576);
            FUZZ_CHECK(ok, "the reference read succeeded, this one failed: %d '%s'", (int)st,
                       err.message);
        }
    } else {
        FUZZ_CHECK(ds != NULL, "OK without a dataset");
        FUZZ_CHECK(rst == NESVM_OK, "the reference read failed (%s) but this one succeeded",
                   rerr.message);
        FUZZ_CHECK(!(opt.precision == NESVM_FLOAT && overflows_float(ref)),
                   "a value beyond single precision was read as float");
        check_dataset(ds, ref, opt.storage, opt.precision, opt.min_features);
    }
    nesvm_dataset_destroy(ds);
    nesvm_dataset_destroy(ref);
    return 0;
}
