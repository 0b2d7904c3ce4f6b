/* util.c - time, thread counts, output files. */
#define _XOPEN_SOURCE 700
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t nv_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h ^= c[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}
#ifdef _OPENMP
#include <omp.h>
#endif

double nv_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

nesvm_status nv_read_file(const char *path, const char *what, char **out, size_t *len, nesvm_error *err)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return nv_error(err, NESVM_ERR_IO, "cannot open %s '%s': %s", what, path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = nv_malloc(cap);
    while (buf) {
        if (n == cap) {
            char *nb = nv_realloc_array(buf, cap * 2, 1);
            if (!nb) {
                nv_free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        errno = 0;
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int rerr = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (!buf) return nv_error(err, NESVM_ERR_NOMEM, "out of memory reading %s '%s'", what, path);
    if (rerr) {
        nv_free(buf);
        return nv_error(err, NESVM_ERR_IO, "cannot read %s '%s': %s", what, path, strerror(rerr));
    }
    *out = buf;
    *len = n;
    return NESVM_OK;
}

size_t nv_utf8_bom(const void *buf, size_t len)
{
    const unsigned char *b = buf;
    return len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0;
}

int nv_dense_too_large(double bytes, int64_t nnz, int64_t rows)
{
    const double data = 12.0 * (double)nnz + 16.0 * (double)rows;
    return bytes > 256.0 * 1048576.0 && bytes > 64.0 * data;
}

double nv_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0.0;
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

/* ---- output files
 *
 * Regular files (and new paths) are replaced atomically: the text goes to a
 * temporary file in the same folder, named ".NAME.nesvm-tmp-PID-XXXXXX", which
 * is flushed, synced and renamed over NAME; a failure removes it.  Stale
 * temporaries of that pattern left by a killed process (its PID no longer
 * runs) are removed on the next save of the same NAME.  A symbolic link is
 * followed: the file it points to is replaced, in that file's folder, and the
 * link stays; a link to nothing is refused.  Devices, FIFOs and sockets are
 * written directly (never replaced, never removed), and "-" is standard
 * output. */

#define NV_TMP_TAG ".nesvm-tmp-"
#define NV_TMP_BASE_MAX 180 /* bytes of NAME kept in a temporary's name */

static void free_paths(nv_atomic_file *af)
{
    nv_free(af->tmp_path);
    nv_free(af->final_path);
    af->tmp_path = af->final_path = NULL;
}

static char *dup_str(const char *s)
{
    size_t len = strlen(s);
    char *d = nv_malloc(len + 1);
    if (d) memcpy(d, s, len + 1);
    return d;
}

/* The temporary-name prefix ".NAME.nesvm-tmp-" of path's base name, and the
 * folder part of path ("" for the current folder, "/" kept). */
static void tmp_prefix(const char *path, char *prefix, size_t size, size_t *dirlen)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    *dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t blen = strlen(base);
    if (blen > NV_TMP_BASE_MAX) blen = NV_TMP_BASE_MAX;
    snprintf(prefix, size, ".%.*s" NV_TMP_TAG, (int)blen, base);
}

/* Remove temporaries of path's pattern whose writer no longer runs. */
static void clean_stale(const char *path)
{
    char prefix[NV_TMP_BASE_MAX + 32];
    size_t dirlen;
    tmp_prefix(path, prefix, sizeof prefix, &dirlen);
    char *dir = nv_malloc(dirlen + 2);
    if (!dir) return;
    if (dirlen) memcpy(dir, path, dirlen);
    dir[dirlen] = '\0';
    DIR *d = opendir(dirlen ? dir : ".");
    if (!d) {
        nv_free(dir);
        return;
    }
    size_t plen = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, plen) != 0) continue;
        char *end;
        long pid = strtol(e->d_name + plen, &end, 10);
        if (pid <= 0 || *end != '-' || strlen(end) != 7) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* still running */
        size_t len = dirlen + strlen(e->d_name) + 1;
        char *full = nv_malloc(len);
        if (!full) break;
        snprintf(full, len, "%s%s", dir, e->d_name);
        unlink(full);
        nv_free(full);
    }
    closedir(d);
    nv_free(dir);
}

static nesvm_status open_direct(nv_atomic_file *af, const char *path, nesvm_error *err)
{
    /* path may be af->final_path: the message is made before it is freed */
    int fd = open(path, O_WRONLY | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        nv_error(err, NESVM_ERR_IO, "cannot open '%s' for writing: %s", path, strerror(e));
        free_paths(af);
        return NESVM_ERR_IO;
    }
    af->fp = fdopen(fd, "w");
    if (!af->fp) {
        close(fd);
        nv_error(err, NESVM_ERR_NOMEM, "cannot open '%s': out of memory", path);
        free_paths(af);
        return NESVM_ERR_NOMEM;
    }
    af->direct = 1;
    return NESVM_OK;
}

nesvm_status nv_atomic_open(nv_atomic_file *af, const char *path, nesvm_error *err)
{
    memset(af, 0, sizeof *af);
    if (!path || !path[0]) return nv_error(err, NESVM_ERR_ARG, "empty output path");
    if (strcmp(path, "-") == 0) {
        af->fp = stdout;
        af->direct = 2;
        return NESVM_OK;
    }
    struct stat lst, st;
    char *target = NULL;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        /* a link to a device, FIFO or socket (/dev/stdout to a pipe, whose
         * target has no path) is written through the link */
        if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
            af->final_path = dup_str(path);
            if (!af->final_path) return nv_error(err, NESVM_ERR_NOMEM, "out of memory opening '%s'", path);
            return open_direct(af, path, err);
        }
        target = realpath(path, NULL);
        if (!target || stat(target, &st) != 0) {
            int e = errno;
            free(target);
            return nv_error(err, NESVM_ERR_IO,
                            "'%s' is a symbolic link to a file that cannot be reached (%s): nesvm "
                            "replaces the file a link points to, so the target must exist",
                            path, strerror(e));
        }
    } else if (lstat(path, &lst) == 0) {
        st = lst;
    } else if (errno != ENOENT) {
        return nv_error(err, NESVM_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    } else {
        st.st_mode = S_IFREG; /* a new file */
    }
    af->final_path = dup_str(target ? target : path);
    free(target);
    if (!af->final_path) return nv_error(err, NESVM_ERR_NOMEM, "out of memory opening '%s'", path);
    if (S_ISDIR(st.st_mode)) {
        free_paths(af);
        return nv_error(err, NESVM_ERR_IO, "cannot write '%s': %s", path, strerror(EISDIR));
    }
    if (!S_ISREG(st.st_mode)) return open_direct(af, af->final_path, err);

    clean_stale(af->final_path);
    char prefix[NV_TMP_BASE_MAX + 32];
    size_t dirlen;
    tmp_prefix(af->final_path, prefix, sizeof prefix, &dirlen);
    size_t len = dirlen + strlen(prefix) + 40;
    af->tmp_path = nv_malloc(len);
    if (!af->tmp_path) {
        free_paths(af);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory opening '%s'", path);
    }
    snprintf(af->tmp_path, len, "%.*s%s%ld-XXXXXX", (int)dirlen, af->final_path, prefix,
             (long)getpid());
    int fd = mkstemp(af->tmp_path);
    if (fd < 0) {
        int e = errno;
        free_paths(af);
        return nv_error(err, NESVM_ERR_IO, "cannot create '%s': %s", path, strerror(e));
    }
    /* mkstemp creates 0600; give the file the mode a plain creat() would */
    fchmod(fd, (mode_t)(0666 & ~nv_umask()));
    af->fp = fdopen(fd, "w");
    if (!af->fp) {
        int e = errno;
        close(fd);
        unlink(af->tmp_path);
        free_paths(af);
        return nv_error(err, NESVM_ERR_IO, "cannot create '%s': %s", path, strerror(e));
    }
    return NESVM_OK;
}

void nv_atomic_abort(nv_atomic_file *af)
{
    if (af->fp && af->direct != 2) fclose(af->fp);
    if (af->tmp_path) unlink(af->tmp_path);
    free_paths(af);
    memset(af, 0, sizeof *af);
}

/* Flush (and for a temporary, sync and close) the stream; 0 or an errno. */
static int finish_stream(nv_atomic_file *af)
{
    errno = 0;
    int e = 0;
    if (fflush(af->fp) != 0 || ferror(af->fp)) e = errno ? errno : EIO;
    if (af->direct == 2) return e; /* standard output stays open */
    if (!e && !af->direct && fsync(fileno(af->fp)) != 0) e = errno;
    if (fclose(af->fp) != 0 && !e) e = errno ? errno : EIO;
    af->fp = NULL;
    return e;
}

nesvm_status nv_atomic_finish(nv_atomic_file *af, nesvm_error *err)
{
    if (!af->fp || af->direct) return NESVM_OK; /* direct streams finish in commit */
    int e = finish_stream(af);
    if (e) {
        nv_error(err, NESVM_ERR_IO, "cannot write '%s': %s", af->final_path, strerror(e));
        nv_atomic_abort(af);
        return NESVM_ERR_IO;
    }
    return NESVM_OK;
}

nesvm_status nv_atomic_commit(nv_atomic_file *af, nesvm_error *err)
{
    int e = af->fp ? finish_stream(af) : 0;
    if (!e && af->tmp_path && rename(af->tmp_path, af->final_path) != 0) e = errno;
    if (e) {
        nv_error(err, NESVM_ERR_IO, "cannot write '%s': %s",
                 af->direct == 2 ? "standard output" : af->final_path, strerror(e));
        nv_atomic_abort(af);
        return NESVM_ERR_IO;
    }
    if (af->tmp_path) {
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
    }
    free_paths(af);
    memset(af, 0, sizeof *af);
    return NESVM_OK;
}
