/* distributed.c - `nesvm train --distributed`: MPI's start and end, and the
 * ranks' agreement on failures (the training itself is
 * nesvm_train_distributed; run_training in train.c drives it). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#ifdef NESVM_WITH_MPI
#include <mpi.h>
#endif

typedef struct cli_mpi {
#ifdef NESVM_WITH_MPI
    MPI_Comm world;
#endif
    nv_comm comm;
} cli_mpi;

int cli_mpi_begin(const char *cmd, train_opts *o)
{
#ifdef NESVM_WITH_MPI
    int provided = 0;
    /* only the main thread calls MPI (OpenMP threads compute between calls) */
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return cli_error(cmd, "--distributed: MPI_Init failed");
    cli_mpi *m = calloc(1, sizeof *m);
    nesvm_error err = {0};
    if (!m) {
        MPI_Finalize();
        return cli_error(cmd, "out of memory");
    }
    m->world = MPI_COMM_WORLD;
    if (nv_comm_mpi(&m->comm, &m->world, &err) != NESVM_OK) {
        free(m);
        MPI_Finalize();
        return cli_error(cmd, "%s", err.message);
    }
    o->mpi = m;
    if (m->comm.rank != 0) {
        /* one voice: rank 0 prints the agreed messages and the summary */
        o->quiet = 1;
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) {
            /* nothing to silence them with: they print as rank 0 does */
        }
    }
    return CLI_OK;
#else
    (void)o;
    return cli_error(cmd, "--distributed: this nesvm was built without MPI; build it with "
                          "cmake -DNESVM_WITH_MPI=ON (Debian's libopenmpi-dev) and run it under mpirun");
#endif
}

int cli_mpi_early(const char *cmd, train_opts *o, int argc, char **argv)
{
    int early = 0;
    for (int i = 1; i < argc; i++) early |= strcmp(argv[i], "--distributed") == 0;
    return early && nesvm_have_mpi() ? cli_mpi_begin(cmd, o) : CLI_OK;
}

void cli_mpi_end(train_opts *o)
{
    if (!o->mpi) return;
#ifdef NESVM_WITH_MPI
    MPI_Finalize();
#endif
    free(o->mpi);
    o->mpi = NULL;
}

int cli_mpi_rank(const train_opts *o) { return o->mpi ? ((const cli_mpi *)o->mpi)->comm.rank : 0; }

int cli_mpi_size(const train_opts *o) { return o->mpi ? ((const cli_mpi *)o->mpi)->comm.size : 1; }

const void *cli_mpi_comm(const train_opts *o)
{
#ifdef NESVM_WITH_MPI
    return o->mpi ? (const void *)&((const cli_mpi *)o->mpi)->world : NULL;
#else
    (void)o;
    return NULL;
#endif
}

nesvm_status cli_mpi_agree(const train_opts *o, nesvm_status st, nesvm_error *err)
{
    if (!o->mpi) return st;
    return nv_comm_agree(&((const cli_mpi *)o->mpi)->comm, st, err);
}

int64_t cli_mpi_sum(const train_opts *o, int64_t x)
{
    if (!o->mpi) return x;
    nesvm_error err = {0};
    nv_comm_sum_i64(&((const cli_mpi *)o->mpi)->comm, &x, 1, &err);
    return x;
}

int cli_mpi_bcast_rc(const train_opts *o, int rc)
{
    if (!o->mpi) return rc;
    nesvm_error err = {0};
    if (nv_comm_bcast(&((const cli_mpi *)o->mpi)->comm, &rc, sizeof rc, 0, &err) != NESVM_OK) return CLI_ERROR;
    return rc;
}

int cli_mpi_bcast(const train_opts *o, void *buf, size_t bytes)
{
    if (!o->mpi) return CLI_OK;
    nesvm_error err = {0};
    return nv_comm_bcast(&((const cli_mpi *)o->mpi)->comm, buf, bytes, 0, &err) == NESVM_OK ? CLI_OK : CLI_ERROR;
}

int64_t cli_mpi_offset(const train_opts *o, int64_t x)
{
    if (!o->mpi) return 0;
    nesvm_error err = {0};
    return nv_comm_exscan_i64(&((const cli_mpi *)o->mpi)->comm, &x, &err) == NESVM_OK ? x : -1;
}
