/*
 * comm.h - the seam between the solvers and the processes they run on (not
 * installed): sums, maxima, arg-minima, broadcasts and the agreement on a
 * failure, over every rank of a communicator.
 *
 * The serial communicator (one rank) makes every call a no-op, so code written
 * against this seam runs unchanged in a build without MPI.  With
 * NESVM_WITH_MPI, nv_comm_mpi wraps an MPI communicator; the library never
 * calls MPI_Init or MPI_Finalize (the program does).  Data-parallel training
 * (issue 21) gives each rank its rows: the products X w stay local, X^T u and
 * the objective's sums become local work plus nv_comm_sum.
 *
 * Every call is collective: each rank of the communicator makes the same calls
 * in the same order with the same sizes.  A failure on one rank must still
 * reach the collectives the others are in: ranks meet at nv_comm_agree, which
 * gives every rank the first failing rank's status and message, so that all
 * stop together instead of waiting for each other.
 */
#ifndef NESVM_COMM_H
#define NESVM_COMM_H

#include "nesvm.h"

#include <stddef.h>
#include <stdint.h>

/* What the collectives of a communicator moved: calls, and bytes each rank
 * contributed (a count the scaling report divides by iterations). */
typedef struct nv_comm_stats {
    int64_t calls, bytes;
} nv_comm_stats;

typedef struct nv_comm {
    int rank, size;
    void *mpi; /* MPI_Comm (a copy, owned by the caller) when size > 1 or wrapped; else NULL */
    nv_comm_stats *stats; /* counts of the collectives (owned by the caller), or NULL */
} nv_comm;

/* Is c more than one rank?  (NULL: the serial case.) */
static inline int nv_comm_many(const struct nv_comm *c) { return c && c->size > 1; }

/* One process: rank 0 of 1. */
void nv_comm_serial(nv_comm *c);

/* Does this build have MPI? */
int nv_comm_have_mpi(void);

/* Wrap an MPI communicator (a pointer to an MPI_Comm, which must outlive c):
 * NESVM_ERR_UNSUPPORTED in a build without MPI. */
nesvm_status nv_comm_mpi(nv_comm *c, const void *mpi_comm, nesvm_error *err);

/* x[0..n) becomes the sum (max) over the ranks, elementwise, on every rank.
 * Ranks add in rank order within MPI's reduction; a sum can differ from the
 * serial one in its last bits. */
nesvm_status nv_comm_sum(const nv_comm *c, double *x, int64_t n, nesvm_error *err);
nesvm_status nv_comm_sum_i64(const nv_comm *c, int64_t *x, int64_t n, nesvm_error *err);
nesvm_status nv_comm_max(const nv_comm *c, double *x, int64_t n, nesvm_error *err);
/* *x becomes the sum of the ranks' *x before this one (0 on rank 0): a rank's
 * first row when each brings its row count. */
nesvm_status nv_comm_exscan_i64(const nv_comm *c, int64_t *x, nesvm_error *err);

/* The smallest *value over the ranks and the smallest *index among the ranks
 * that hold it (the serial tie rule "lowest index" when indices are global),
 * on every rank.  NaN counts as +infinity (and comes back as it). */
nesvm_status nv_comm_minloc(const nv_comm *c, double *value, int64_t *index, nesvm_error *err);

/* Every rank's n items (n may differ by rank) concatenated in rank order,
 * on every rank: *all (nv_malloc'ed, nv_free; *total entries) and, when
 * counts is not NULL, counts[r] = rank r's n (size entries). */
nesvm_status nv_comm_gather(const nv_comm *c, const double *x, int64_t n, double **all, int64_t *total,
                            int64_t *counts, nesvm_error *err);

/* bytes of buf from rank root to every rank. */
nesvm_status nv_comm_bcast(const nv_comm *c, void *buf, size_t bytes, int root, nesvm_error *err);

/* Every rank brings its status (and err's message when it is not OK); every
 * rank leaves with NESVM_OK if all were OK, else with the status and message
 * of the lowest failing rank, prefixed "rank R: " when there is more than one
 * rank. */
nesvm_status nv_comm_agree(const nv_comm *c, nesvm_status st, nesvm_error *err);

#endif
