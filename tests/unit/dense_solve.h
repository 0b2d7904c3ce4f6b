/* dense_solve.h - a small dense solve for the unit tests' closed forms:
 * Gaussian elimination with partial pivoting (an independent truth, not
 * the library's LAPACK or Cholesky paths). */
#ifndef NESVM_TEST_DENSE_SOLVE_H
#define NESVM_TEST_DENSE_SOLVE_H

#include <math.h>

/* A x = b for the N x N row-major A (overwritten); x into b; 0 if singular. */
static inline int dense_solve(int N, double *A, double *b)
{
    for (int c = 0; c < N; c++) {
        int p = c;
        for (int r = c + 1; r < N; r++)
            if (fabs(A[r * N + c]) > fabs(A[p * N + c])) p = r;
        if (fabs(A[p * N + c]) < 1e-12) return 0;
        for (int k = 0; k < N; k++) {
            double t = A[c * N + k];
            A[c * N + k] = A[p * N + k];
            A[p * N + k] = t;
        }
        double t = b[c];
        b[c] = b[p];
        b[p] = t;
        for (int r = c + 1; r < N; r++) {
            double f = A[r * N + c] / A[c * N + c];
            for (int k = c; k < N; k++) A[r * N + k] -= f * A[c * N + k];
            b[r] -= f * b[c];
        }
    }
    for (int c = N - 1; c >= 0; c--) {
        for (int k = c + 1; k < N; k++) b[c] -= A[c * N + k] * b[k];
        b[c] /= A[c * N + c];
    }
    return 1;
}

#endif
