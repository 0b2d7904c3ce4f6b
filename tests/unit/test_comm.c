/* test_comm.c - the serial communicator (src/comm): every collective leaves
 * its input as it is, minloc maps NaN to +infinity, agree returns the rank's
 * own status and message; without MPI, wrapping an MPI communicator says how
 * to build with it. */
#include "comm/comm.h"
#include "core/internal.h"
#include "check.h"

int main(void)
{
    nv_comm c;
    nv_comm_serial(&c);
    CHECK(c.rank == 0 && c.size == 1 && c.mpi == NULL);
    double x[3] = {1.5, -2, 3};
    int64_t k[2] = {4, -5};
    nesvm_error err = {0};
    CHECK(nv_comm_sum(&c, x, 3, &err) == NESVM_OK && x[0] == 1.5 && x[1] == -2 && x[2] == 3);
    CHECK(nv_comm_max(&c, x, 3, &err) == NESVM_OK && x[0] == 1.5 && x[1] == -2 && x[2] == 3);
    CHECK(nv_comm_sum_i64(&c, k, 2, &err) == NESVM_OK && k[0] == 4 && k[1] == -5);
    int64_t ex = 7; /* one rank: nothing before it */
    CHECK(nv_comm_exscan_i64(&c, &ex, &err) == NESVM_OK && ex == 0);
    double v = 0.25;
    int64_t ix = 9;
    CHECK(nv_comm_minloc(&c, &v, &ix, &err) == NESVM_OK && v == 0.25 && ix == 9);
    v = NAN;
    CHECK(nv_comm_minloc(&c, &v, &ix, &err) == NESVM_OK && v == INFINITY && ix == 9);
    char buf[4] = "abc";
    CHECK(nv_comm_bcast(&c, buf, 4, 0, &err) == NESVM_OK && strcmp(buf, "abc") == 0);
    CHECK(nv_comm_agree(&c, NESVM_OK, &err) == NESVM_OK);
    nv_error(&err, NESVM_ERR_DATA, "row 3 is bad");
    CHECK(nv_comm_agree(&c, NESVM_ERR_DATA, &err) == NESVM_ERR_DATA);
    CHECK_CONTAINS(err.message, "row 3 is bad");
    CHECK(strstr(err.message, "rank") == NULL); /* one rank: no prefix */
    if (!nv_comm_have_mpi()) {
        nv_comm m;
        int fake = 0;
        CHECK(nv_comm_mpi(&m, &fake, &err) == NESVM_ERR_UNSUPPORTED);
        CHECK_CONTAINS(err.message, "built without MPI: configure with -DNESVM_WITH_MPI=ON");
        CHECK(m.size == 1);
    }
    CHECK_DONE();
}
