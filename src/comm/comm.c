/* comm.c - the serial communicator, and MPI's when the build has it
 * (comm.h). */
#include "comm.h"
#include "../core/internal.h"

#include <math.h>
#include <string.h>

#ifdef NESVM_WITH_MPI
#include <limits.h>
#include <mpi.h>
#endif

void nv_comm_serial(nv_comm *c)
{
    c->rank = 0;
    c->size = 1;
    c->mpi = NULL;
    c->stats = NULL;
}

#ifdef NESVM_WITH_MPI
/* Count one collective of `bytes` from this rank. */
static void count(const nv_comm *c, int64_t bytes)
{
    if (!c->stats) return;
    c->stats->calls++;
    c->stats->bytes += bytes;
}
#endif

int nv_comm_have_mpi(void)
{
#ifdef NESVM_WITH_MPI
    return 1;
#else
    return 0;
#endif
}

#ifndef NESVM_WITH_MPI
/* More than one rank in a build without MPI: only a hand-made nv_comm can. */
static nesvm_status no_mpi(const nv_comm *c, nesvm_error *err)
{
    return nv_error(err, NESVM_ERR_UNSUPPORTED, "a communicator of %d ranks without MPI", c->size);
}
#endif

#ifdef NESVM_WITH_MPI
static MPI_Comm comm_of(const nv_comm *c) { return *(const MPI_Comm *)c->mpi; }

static nesvm_status mpi_fail(nesvm_error *err, int code, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, msg, &len) != MPI_SUCCESS) snprintf(msg, sizeof msg, "error %d", code);
    return nv_error(err, NESVM_ERR_IO, "MPI %s failed: %s", what, msg);
}

/* In-place allreduce of n items of type t, in pieces MPI's int counts hold. */
static nesvm_status allreduce(const nv_comm *c, void *x, int64_t n, MPI_Datatype t, size_t item, MPI_Op op,
                              nesvm_error *err)
{
    char *p = x;
    count(c, n * (int64_t)item);
    while (n > 0) {
        int cnt = n > INT_MAX / 2 ? INT_MAX / 2 : (int)n;
        int rc = MPI_Allreduce(MPI_IN_PLACE, p, cnt, t, op, comm_of(c));
        if (rc != MPI_SUCCESS) return mpi_fail(err, rc, "Allreduce");
        p += (size_t)cnt * item;
        n -= cnt;
    }
    return NESVM_OK;
}
#endif

nesvm_status nv_comm_mpi(nv_comm *c, const void *mpi_comm, nesvm_error *err)
{
#ifdef NESVM_WITH_MPI
    (void)err;
    int rank = 0, size = 1;
    MPI_Comm_rank(*(const MPI_Comm *)mpi_comm, &rank);
    MPI_Comm_size(*(const MPI_Comm *)mpi_comm, &size);
    c->rank = rank;
    c->size = size;
    c->mpi = (void *)mpi_comm;
    c->stats = NULL;
    return NESVM_OK;
#else
    (void)mpi_comm;
    nv_comm_serial(c);
    return nv_error(err, NESVM_ERR_UNSUPPORTED,
                    "this nesvm was built without MPI: configure with -DNESVM_WITH_MPI=ON (Debian's libopenmpi-dev)");
#endif
}

nesvm_status nv_comm_sum(const nv_comm *c, double *x, int64_t n, nesvm_error *err)
{
    if (c->size == 1 || n == 0) return NESVM_OK;
#ifdef NESVM_WITH_MPI
    return allreduce(c, x, n, MPI_DOUBLE, sizeof(double), MPI_SUM, err);
#else
    (void)x;
    return no_mpi(c, err);
#endif
}

nesvm_status nv_comm_sum_i64(const nv_comm *c, int64_t *x, int64_t n, nesvm_error *err)
{
    if (c->size == 1 || n == 0) return NESVM_OK;
#ifdef NESVM_WITH_MPI
    return allreduce(c, x, n, MPI_INT64_T, sizeof(int64_t), MPI_SUM, err);
#else
    (void)x;
    return no_mpi(c, err);
#endif
}

nesvm_status nv_comm_max(const nv_comm *c, double *x, int64_t n, nesvm_error *err)
{
    if (c->size == 1 || n == 0) return NESVM_OK;
#ifdef NESVM_WITH_MPI
    return allreduce(c, x, n, MPI_DOUBLE, sizeof(double), MPI_MAX, err);
#else
    (void)x;
    return no_mpi(c, err);
#endif
}

nesvm_status nv_comm_exscan_i64(const nv_comm *c, int64_t *x, nesvm_error *err)
{
    if (c->size == 1) {
        *x = 0;
        return NESVM_OK;
    }
#ifdef NESVM_WITH_MPI
    int64_t in = *x, out = 0;
    count(c, (int64_t)sizeof in);
    int rc = MPI_Exscan(&in, &out, 1, MPI_INT64_T, MPI_SUM, comm_of(c));
    if (rc != MPI_SUCCESS) return mpi_fail(err, rc, "Exscan");
    *x = c->rank == 0 ? 0 : out; /* rank 0's result is undefined in MPI */
    return NESVM_OK;
#else
    return no_mpi(c, err);
#endif
}

nesvm_status nv_comm_minloc(const nv_comm *c, double *value, int64_t *index, nesvm_error *err)
{
    double v = isnan(*value) ? INFINITY : *value;
    if (c->size == 1) {
        *value = v;
        return NESVM_OK;
    }
#ifdef NESVM_WITH_MPI
    /* two reductions: the smallest value, then the smallest index among the
     * ranks that hold it (as the largest -index; -INT64_MAX: not a holder) */
    double m = v;
    nesvm_status st = allreduce(c, &m, 1, MPI_DOUBLE, sizeof(double), MPI_MIN, err);
    if (st != NESVM_OK) return st;
    int64_t neg = v == m ? -*index : -INT64_MAX;
    st = allreduce(c, &neg, 1, MPI_INT64_T, sizeof(int64_t), MPI_MAX, err);
    if (st != NESVM_OK) return st;
    *value = m;
    *index = -neg;
    return NESVM_OK;
#else
    (void)index;
    return no_mpi(c, err);
#endif
}

nesvm_status nv_comm_bcast(const nv_comm *c, void *buf, size_t bytes, int root, nesvm_error *err)
{
    if (c->size == 1 || bytes == 0) return NESVM_OK;
    if (root < 0 || root >= c->size)
        return nv_error(err, NESVM_ERR_ARG, "broadcast from rank %d of %d", root, c->size);
#ifdef NESVM_WITH_MPI
    char *p = buf;
    count(c, (int64_t)bytes);
    while (bytes > 0) {
        int cnt = bytes > (size_t)INT_MAX ? INT_MAX : (int)bytes;
        int rc = MPI_Bcast(p, cnt, MPI_BYTE, root, comm_of(c));
        if (rc != MPI_SUCCESS) return mpi_fail(err, rc, "Bcast");
        p += cnt;
        bytes -= (size_t)cnt;
    }
    return NESVM_OK;
#else
    (void)buf;
    return no_mpi(c, err);
#endif
}

nesvm_status nv_comm_gather(const nv_comm *c, const double *x, int64_t n, double **all, int64_t *total,
                            int64_t *counts, nesvm_error *err)
{
    *all = NULL;
    *total = 0;
    int64_t *cnt = nv_malloc_array((size_t)c->size, sizeof(int64_t));
    if (!cnt) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    for (int r = 0; r < c->size; r++) cnt[r] = r == c->rank ? n : 0;
    nesvm_status st = nv_comm_sum_i64(c, cnt, c->size, err);
    int64_t tot = 0, before = 0;
    for (int r = 0; st == NESVM_OK && r < c->size; r++) {
        if (r < c->rank) before += cnt[r];
        tot += cnt[r];
    }
    double *buf = NULL;
    if (st == NESVM_OK) {
        buf = nv_malloc_array((size_t)(tot ? tot : 1), sizeof(double));
        if (!buf) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for %lld gathered values", (long long)tot);
    }
    /* one sum: each rank's values in its own slot, zeros elsewhere (x + 0 is
     * x, so the gather is exact; -0 comes back as +0) */
    if (st == NESVM_OK) {
        memset(buf, 0, (size_t)(tot ? tot : 1) * sizeof(double));
        if (n) memcpy(buf + before, x, (size_t)n * sizeof(double));
        st = nv_comm_sum(c, buf, tot, err);
    }
    if (st == NESVM_OK) {
        *all = buf;
        *total = tot;
        if (counts) memcpy(counts, cnt, (size_t)c->size * sizeof(int64_t));
    } else {
        nv_free(buf);
    }
    nv_free(cnt);
    return st;
}

nesvm_status nv_comm_agree(const nv_comm *c, nesvm_status st, nesvm_error *err)
{
    if (c->size == 1) return st;
    /* the lowest failing rank (size: none) */
    double first = st != NESVM_OK ? -(double)c->rank : -(double)c->size;
    nesvm_error local;
    memset(&local, 0, sizeof local);
    nesvm_status cst = nv_comm_max(c, &first, 1, &local);
    if (cst != NESVM_OK) {
        if (err) *err = local;
        return cst;
    }
    int r = (int)-first;
    if (r >= c->size) return NESVM_OK;
    /* its status and message to every rank */
    struct {
        int status;
        char message[sizeof local.message];
    } m;
    memset(&m, 0, sizeof m);
    if (r == c->rank) {
        m.status = (int)st;
        if (err) memcpy(m.message, err->message, sizeof m.message);
    }
    cst = nv_comm_bcast(c, &m, sizeof m, r, &local);
    if (cst != NESVM_OK) {
        if (err) *err = local;
        return cst;
    }
    m.message[sizeof m.message - 1] = '\0';
    return nv_error(err, (nesvm_status)m.status, "rank %d: %s", r, m.message);
}
