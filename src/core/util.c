/* util.c - time, thread counts, atomic files. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

double nv_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int nv_threads(int threads)
{
#ifdef _OPENMP
    if (threads <= 0) threads = omp_get_num_procs();
    return threads < 1 ? 1 : threads;
#else
    (void)threads;
    return 1;
#endif
}

/* The process umask, read without changing it (umask(2) would race with
 * other threads): Linux reports it in /proc/self/status. */
static unsigned nv_umask(void)
{
    unsigned mask = 022;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return mask;
    char line[128];
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Umask:", 6) == 0) {
            mask = (unsigned)strtoul(line + 6, NULL, 8);
            break;
        }
    fclose(f);
    return mask;
}

nesvm_status nv_atomic_open(nv_atomic_file *af, const char *path, nesvm_error *err)
{
    memset(af, 0, sizeof *af);
    size_t len = strlen(path);
    af->final_path = nv_malloc(len + 1);
    af->tmp_path = nv_malloc(len + 16);
    if (!af->final_path || !af->tmp_path) {
        nv_free(af->final_path);
        nv_free(af->tmp_path);
        af->final_path = af->tmp_path = NULL;
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory opening '%s'", path);
    }
    memcpy(af->final_path, path, len + 1);
    snprintf(af->tmp_path, len + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(af->tmp_path);
    if (fd < 0) {
        int e = errno;
        nv_free(af->final_path);
        nv_free(af->tmp_path);
        af->final_path = af->tmp_path = NULL;
        return nv_error(err, NESVM_ERR_IO, "cannot create '%s': %s", path, strerror(e));
    }
    /* mkstemp creates 0600; give the file the mode a plain creat() would */
    fchmod(fd, (mode_t)(0666 & ~nv_umask()));
    af->fp = fdopen(fd, "w");
    if (!af->fp) {
        int e = errno;
        close(fd);
        unlink(af->tmp_path);
        nv_free(af->final_path);
        nv_free(af->tmp_path);
        af->final_path = af->tmp_path = NULL;
        return nv_error(err, NESVM_ERR_IO, "cannot create '%s': %s", path, strerror(e));
    }
    return NESVM_OK;
}

void nv_atomic_abort(nv_atomic_file *af)
{
    if (af->fp) fclose(af->fp);
    if (af->tmp_path) unlink(af->tmp_path);
    nv_free(af->tmp_path);
    nv_free(af->final_path);
    memset(af, 0, sizeof *af);
}

nesvm_status nv_atomic_commit(nv_atomic_file *af, nesvm_error *err)
{
    int bad = ferror(af->fp) || fflush(af->fp) != 0;
    int e = errno;
    if (!bad && fsync(fileno(af->fp)) != 0) {
        bad = 1;
        e = errno;
    }
    if (fclose(af->fp) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    af->fp = NULL;
    if (!bad && rename(af->tmp_path, af->final_path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        nv_error(err, NESVM_ERR_IO, "cannot write '%s': %s", af->final_path, strerror(e));
        nv_atomic_abort(af);
        return NESVM_ERR_IO;
    }
    /* make the rename durable */
    char *slash = strrchr(af->final_path, '/');
    int dfd;
    if (slash) {
        *slash = '\0';
        dfd = open(af->final_path[0] ? af->final_path : "/", O_RDONLY);
        *slash = '/';
    } else {
        dfd = open(".", O_RDONLY);
    }
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    nv_free(af->tmp_path);
    nv_free(af->final_path);
    memset(af, 0, sizeof *af);
    return NESVM_OK;
}
