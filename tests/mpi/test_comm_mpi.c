/* test_comm_mpi.c - the MPI communicator (src/comm) under mpirun -np 2 and 3:
 * every collective against its closed form over the ranks, minloc's ties and
 * NaN, a broadcast from the last rank, and nv_comm_agree with no, one and two
 * failing ranks (every rank leaves with the lowest failing rank's message).
 * Each rank counts its failed checks; rank 0 reports the total and the exit
 * status is non-zero on every rank if any rank failed. */
#include "comm/comm.h"
#include "core/internal.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failed = 0, passed = 0, rank_ = 0;

#define CHECK(cond)                                                                                 \
    do {                                                                                            \
        if (cond) passed++;                                                                         \
        else {                                                                                      \
            failed++;                                                                               \
            fprintf(stderr, "rank %d: %s:%d: CHECK failed: %s\n", rank_, __FILE__, __LINE__, #cond); \
        }                                                                                           \
    } while (0)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm world = MPI_COMM_WORLD;
    nv_comm c;
    nesvm_error err = {0};
    CHECK(nv_comm_mpi(&c, &world, &err) == NESVM_OK);
    rank_ = c.rank;
    const int P = c.size, r = c.rank;
    CHECK(P >= 2);
    /* sums and maxima: x_i = (r + 1) (i + 1) over 5 entries */
    double x[5], y[5];
    for (int i = 0; i < 5; i++) x[i] = y[i] = (r + 1.0) * (i + 1.0);
    CHECK(nv_comm_sum(&c, x, 5, &err) == NESVM_OK);
    CHECK(nv_comm_max(&c, y, 5, &err) == NESVM_OK);
    for (int i = 0; i < 5; i++) {
        CHECK(x[i] == (i + 1.0) * P * (P + 1) / 2.0);
        CHECK(y[i] == (i + 1.0) * P);
    }
    int64_t k[2] = {r, (int64_t)1 << 40};
    CHECK(nv_comm_sum_i64(&c, k, 2, &err) == NESVM_OK);
    CHECK(k[0] == (int64_t)P * (P - 1) / 2 && k[1] == (int64_t)P << 40);
    /* minloc: ranks >= 1 hold the minimum -1 at indices 100 - r; the lowest
     * index wins (the last rank's) */
    double v = r == 0 ? 5.0 : -1.0;
    int64_t ix = r == 0 ? 0 : 100 - r;
    CHECK(nv_comm_minloc(&c, &v, &ix, &err) == NESVM_OK);
    CHECK(v == -1.0 && ix == 100 - (P - 1));
    /* NaN counts as +infinity: rank 0's 2.0 wins */
    v = r == 0 ? 2.0 : NAN;
    ix = r;
    CHECK(nv_comm_minloc(&c, &v, &ix, &err) == NESVM_OK);
    CHECK(v == 2.0 && ix == 0);
    /* broadcast from the last rank */
    char buf[32];
    snprintf(buf, sizeof buf, "from rank %d", r);
    CHECK(nv_comm_bcast(&c, buf, sizeof buf, P - 1, &err) == NESVM_OK);
    char want[64];
    snprintf(want, sizeof want, "from rank %d", P - 1);
    CHECK(strcmp(buf, want) == 0);
    CHECK(nv_comm_bcast(&c, buf, sizeof buf, P, &err) == NESVM_ERR_ARG);
    /* agree: none failing; the last rank failing; ranks 1 and up failing (rank 1's) */
    memset(&err, 0, sizeof err);
    CHECK(nv_comm_agree(&c, NESVM_OK, &err) == NESVM_OK);
    nesvm_status st = NESVM_OK;
    if (r == P - 1) st = nv_error(&err, NESVM_ERR_PARSE, "shard.%d:7: bad label", r);
    st = nv_comm_agree(&c, st, &err);
    CHECK(st == NESVM_ERR_PARSE);
    snprintf(want, sizeof want, "rank %d: shard.%d:7: bad label", P - 1, P - 1);
    CHECK(strcmp(err.message, want) == 0);
    st = NESVM_OK;
    memset(&err, 0, sizeof err);
    if (r >= 1) st = nv_error(&err, r == 1 ? NESVM_ERR_IO : NESVM_ERR_DATA, "failure on rank %d", r);
    st = nv_comm_agree(&c, st, &err);
    CHECK(st == NESVM_ERR_IO);
    CHECK(strcmp(err.message, "rank 1: failure on rank 1") == 0);
    /* gather: rank r brings r + 1 values 10 r + i (rank 1: none at all when
     * P > 2 brings the count 0 case), concatenated in rank order with counts;
     * -0.0 stays a zero; the collectives are counted */
    {
        nv_comm_stats cs = {0, 0};
        c.stats = &cs;
        int64_t mine = (P > 2 && r == 1) ? 0 : r + 1;
        double v[8];
        for (int i = 0; i < mine; i++) v[i] = 10.0 * r + i;
        if (mine > 0 && r == 0) v[0] = -0.0;
        double *allv = NULL;
        int64_t total = 0, counts[8] = {0};
        CHECK(nv_comm_gather(&c, v, mine, &allv, &total, counts, &err) == NESVM_OK);
        int64_t want = 0, at = 0;
        int ok = 1;
        for (int q = 0; q < P; q++) {
            int64_t cq = (P > 2 && q == 1) ? 0 : q + 1;
            want += cq;
            ok &= counts[q] == cq;
            for (int i = 0; i < cq && at < total; i++, at++) ok &= allv && allv[at] == 10.0 * q + i;
        }
        CHECK(ok && total == want);
        /* two collectives: the counts (P int64) and the values (total doubles) */
        CHECK(cs.calls == 2 && cs.bytes == 8 * (int64_t)P + 8 * want);
        nv_free(allv);
        c.stats = NULL;
    }
    /* exclusive scan: rank r brings r + 1, gets r (r + 1) / 2 */
    {
        int64_t x = r + 1;
        CHECK(nv_comm_exscan_i64(&c, &x, &err) == NESVM_OK);
        CHECK(x == (int64_t)r * (r + 1) / 2);
    }
    /* the verdict of every rank */
    int64_t all[2] = {failed, passed};
    nv_comm_sum_i64(&c, all, 2, &err);
    if (r == 0) printf("%d ranks: %lld passed, %lld failed\n", P, (long long)all[1], (long long)all[0]);
    MPI_Finalize();
    return all[0] ? 1 : 0;
}
