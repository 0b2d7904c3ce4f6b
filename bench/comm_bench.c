/* comm_bench.c - the allreduce cost on this machine (bench/scaling_row.py):
 * the median time of MPI_Allreduce (sum, doubles, in place) over `reps`
 * calls for each message size, printed by rank 0 as "doubles seconds".
 * Build: mpicc -O2 comm_bench.c -o comm_bench.  Run: mpirun -np P comm_bench. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int sizes[] = {1, 16, 256, 1570, 16384, 131072, 1048576};
    const int reps = 200;
    double *buf = calloc(1048576, sizeof(double)), *t = malloc(reps * sizeof(double));
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s], r = n > 100000 ? 20 : reps;
        for (int k = 0; k < r; k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            t[k] = MPI_Wtime() - t0;
        }
        qsort(t, r, sizeof(double), cmp);
        if (rank == 0) printf("%d %.9f\n", n, t[r / 2]);
    }
    free(buf);
    free(t);
    MPI_Finalize();
    return 0;
}
