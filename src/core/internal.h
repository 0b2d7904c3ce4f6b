/*
 * internal.h - helpers shared by every module of libnesvm (not installed).
 *
 * Allocation: every allocation of the library goes through nv_malloc /
 * nv_calloc / nv_realloc, which check size overflow and can be made to fail
 * on purpose from tests (nv_alloc_fail_after, thread-local, so concurrent
 * trainings on other threads are unaffected).
 */
#ifndef NESVM_CORE_INTERNAL_H
#define NESVM_CORE_INTERNAL_H

#include "nesvm.h"
#include "atomic.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define NV_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define NV_HIDDEN __attribute__((visibility("hidden")))
#else
#define NV_PRINTF(a, b)
#define NV_HIDDEN
#endif

/* ---- internal invariants: asserted in debug builds only
 * NV_ASSERT(cond) states a fact about the library's own state that holds
 * whatever the input: sizes that agree, indices and positions in range,
 * counts that are not negative.  It never checks user input (files,
 * arguments, parameters), which gets a status and a message as always.
 *
 * Debug builds (NDEBUG not defined: CMAKE_BUILD_TYPE=Debug, the ASan build
 * of scripts/test.sh): a false condition is a bug in nesvm, and
 * nv_assert_fail writes the condition, file, line and function to stderr
 * and calls abort().  This is the one exception to "the library never
 * exits, aborts or prints" (docs/architecture.md): debug builds only,
 * invariants only, never on user input.
 * Release builds (NDEBUG, as CMake's Release and RelWithDebInfo define it):
 * NV_ASSERT compiles to nothing and does not evaluate its argument (sizeof
 * of an int expression), so a condition may cost a loop; it never aborts.
 * NV_ASSERTS_ON is 1 in debug builds, 0 in release builds. */
#ifndef NDEBUG
#define NV_ASSERTS_ON 1
#define NV_ASSERT(cond) ((cond) ? (void)0 : nv_assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
#define NV_ASSERTS_ON 0
#define NV_ASSERT(cond) ((void)sizeof(!(cond)))
#endif
_Noreturn void nv_assert_fail(const char *cond, const char *file, int line, const char *func);
/* NV_ASSERTS_ON as the library was compiled (the unit test compares it with
 * the build type). */
int nv_asserts_on(void);

/* ---- errors */
/* Record status and a formatted message in err (if non-NULL); returns status. */
nesvm_status nv_error(nesvm_error *err, nesvm_status s, const char *fmt, ...) NV_PRINTF(3, 4);
/* Same as nv_error, prefixing the existing message: "prefix: old message". */
nesvm_status nv_error_prefix(nesvm_error *err, const char *fmt, ...) NV_PRINTF(2, 3);

/* ---- allocation */
void *nv_malloc(size_t size);
void *nv_calloc(size_t n, size_t size);
void *nv_malloc_array(size_t n, size_t size); /* overflow-checked n*size */
void *nv_realloc_array(void *p, size_t n, size_t size);
void nv_free(void *p);
/* Test hook: the n-th allocation from now (0 = the next) on this thread fails;
 * a negative n disables injection. */
void nv_alloc_fail_after(long n);

/* ---- fingerprints */
/* FNV-1a (64 bits) of n bytes at p, continuing from h (NV_FNV1A_START to begin). */
#define NV_FNV1A_START UINT64_C(0xcbf29ce484222325)
uint64_t nv_fnv1a(uint64_t h, const void *p, size_t n);

/* ---- time */
double nv_now(void); /* monotonic seconds */

/* qsort comparator for int64_t. */
static inline int nv_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* ---- numbers: locale-independent, exact round trip */
/* Parse a decimal or hex floating number (also "inf"/"nan").  Returns the
 * pointer past the number, or NULL if none was recognised at s. */
const char *nv_parse_double(const char *s, const char *end, double *out);
/* Parse a whole string as a decimal integer: an optional sign and digits,
 * nothing else (no spaces, exponent or hex), within int64.  1 on success.
 * The one integer syntax of the library and the CLI. */
int nv_parse_int64(const char *s, int64_t *out);
/* Parse a whole string as a finite number (nv_parse_double, no spaces). */
int nv_parse_finite(const char *s, double *out);
/* Shortest text that reads back to exactly x; buf needs 32 bytes. */
int nv_format_double(double x, char *buf);

/* ---- output files: nv_atomic_file and its calls are in atomic.h */

/* ---- random numbers: splitmix64, state owned by the caller */
static inline uint64_t nv_rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
/* uniform in [0, 1) */
static inline double nv_rng_uniform(uint64_t *state)
{
    return (double)(nv_rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- whole files */
/* Read a file into *out (nv_free it), *len bytes; `what` names it in messages
 * ("cannot open model 'PATH': ..."). */
nesvm_status nv_read_file(const char *path, const char *what, char **out, size_t *len, nesvm_error *err);
/* The bytes of a UTF-8 byte-order mark (EF BB BF) at the start of
 * buf[0..len): 3, or 0.  Some editors open every text file with one; the
 * readers of data, model, scaling, weight and imported model files skip it
 * there (and only there: it is not text). */
size_t nv_utf8_bom(const void *buf, size_t len);

/* ---- memory */
/* Bytes of physical memory (0 when unknown). */
double nv_physical_memory(void);
/* The one rule for memory sized by a largest feature index rather than by
 * the stored values (dense weight vectors, per-feature ranges, scatter
 * buffers): 1 when `bytes` of it exceed both 256 MB and 64 times the data's
 * own size (12 bytes per stored value, 16 per row), so that a few values at a
 * huge index cannot claim gigabytes.  Callers refuse with a clear error (a
 * dense vector that is needed) or take a path whose memory follows the
 * stored values (sparse dot products). */
int nv_dense_too_large(double bytes, int64_t nnz, int64_t rows);

/* ---- threads */
/* Number of threads to use for a request of `threads` (0 = all cores). */
int nv_threads(int threads);

#endif
