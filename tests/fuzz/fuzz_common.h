/*
 * fuzz_common.h - helpers shared by the libFuzzer targets of nesvm.
 *
 * The library's readers take paths, so each run writes its input to a memfd
 * made once per process and hands the library "/proc/self/fd/N" (no disk
 * I/O, nothing left behind).  Outputs (model and scaling saves, which are
 * atomic: a temporary in the same folder, then a rename) go to a folder made
 * once per process under /dev/shm (or $TMPDIR, or /tmp), removed at exit.
 *
 * A failed check prints what went wrong and aborts: libFuzzer saves the
 * input as a crash.
 */
#ifndef NESVM_FUZZ_COMMON_H
#define NESVM_FUZZ_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nesvm.h"

/* Sanitizer defaults baked into every target (the environment can still
 * override them): an allocation the library cannot get must come back as
 * NULL so that the library's own NESVM_ERR_NOMEM path runs, and nothing
 * above 512 MB is ever handed out (a file claiming 2^31 features in dense
 * storage is refused by the allocator, not by the machine). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1:max_allocation_size_mb=512:detect_leaks=1";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
    return "print_stacktrace=1:halt_on_error=1";
}

#define FUZZ_CHECK(cond, ...)                                                                  \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "\nFUZZ CHECK FAILED at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

/* A failed call must say what failed. */
#define FUZZ_CHECK_ERROR(st, err)                                                              \
    FUZZ_CHECK((err).message[0] != '\0' && (err).status == (st),                              \
               "status %d (%s) with err.status %d and message '%s'", (int)(st),                \
               nesvm_status_str(st), (int)(err).status, (err).message)

static int fuzz_in_fd = -1;
static char fuzz_in_path[64];
static char fuzz_dir[256];

static inline void fuzz_cleanup(void)
{
    if (!fuzz_dir[0]) return;
    DIR *d = opendir(fuzz_dir);
    if (d) {
        struct dirent *e;
        char p[512];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            snprintf(p, sizeof p, "%s/%s", fuzz_dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(fuzz_dir);
    fuzz_dir[0] = '\0';
}

/* The folder for this process's output files. */
static inline const char *fuzz_tmpdir(void)
{
    if (fuzz_dir[0]) return fuzz_dir;
    const char *bases[3] = {"/dev/shm", getenv("TMPDIR"), "/tmp"};
    for (int i = 0; i < 3; i++) {
        if (!bases[i] || !bases[i][0]) continue;
        snprintf(fuzz_dir, sizeof fuzz_dir, "%s/nesvm-fuzz-XXXXXX", bases[i]);
        if (mkdtemp(fuzz_dir)) {
            atexit(fuzz_cleanup);
            return fuzz_dir;
        }
    }
    fprintf(stderr, "fuzz: cannot create a temporary folder: %s\n", strerror(errno));
    abort();
}

/* A path in the output folder. */
static inline const char *fuzz_out_path(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", fuzz_tmpdir(), name);
    return buf;
}

/* Write data to the input memfd (truncated first); returns a path for it. */
static inline const char *fuzz_input_path(const uint8_t *data, size_t size)
{
    if (fuzz_in_fd < 0) {
        fuzz_in_fd = memfd_create("nesvm-fuzz-input", MFD_CLOEXEC);
        if (fuzz_in_fd < 0) {
            fprintf(stderr, "fuzz: memfd_create: %s\n", strerror(errno));
            abort();
        }
        snprintf(fuzz_in_path, sizeof fuzz_in_path, "/proc/self/fd/%d", fuzz_in_fd);
    }
    if (ftruncate(fuzz_in_fd, 0) != 0) abort();
    size_t off = 0;
    while (off < size) {
        ssize_t w = pwrite(fuzz_in_fd, data + off, size - off, (off_t)off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) abort();
        off += (size_t)w;
    }
    return fuzz_in_path;
}

/* Read a whole (small) file; NULL if it cannot be read. */
static inline char *fuzz_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Bitwise equality of doubles, except that every NaN equals every NaN. */
static inline int fuzz_same_double(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* FNV-1a, to derive choices from inputs whose bytes are all meaningful. */
static inline uint64_t fuzz_hash(const uint8_t *data, size_t size)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < size; i++) {
        h ^= data[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

/* A model reader: nesvm_model_load, or a wrapper with that signature. */
typedef nesvm_status (*fuzz_model_reader)(const char *path, nesvm_model **out, nesvm_error *err);
void nv_alloc_fail_after(long n); /* core/internal.h */

/* Allocation failures injected into reading path: with the k-th allocation
 * failing, k = 0, 1, ... until a read succeeds (or 64 times), every read
 * fails cleanly (a message, no model) or succeeds, and a file the plain read
 * refused (status st, message msg) never reads. */
static inline void fuzz_inject_model_reads(fuzz_model_reader read, const char *path, nesvm_status st,
                                           const char *msg)
{
    for (long k = 0; k < 64; k++) {
        nesvm_error ierr = {0};
        nesvm_model *mi = NULL;
        nv_alloc_fail_after(k);
        nesvm_status ist = read(path, &mi, &ierr);
        nv_alloc_fail_after(-1);
        if (ist == NESVM_OK) {
            FUZZ_CHECK(st == NESVM_OK, "reads with an allocation failing at %ld, but not without (%s)", k, msg);
            nesvm_model_destroy(mi);
            break;
        }
        FUZZ_CHECK_ERROR(ist, ierr);
        FUZZ_CHECK(mi == NULL, "a failed read left a model");
        if (st != NESVM_OK && ist != NESVM_ERR_NOMEM && ist == st && strcmp(ierr.message, msg) == 0)
            break; /* the injection came too late to matter */
    }
}

#endif
