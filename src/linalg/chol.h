/*
 * chol.h - dense Cholesky factorization and solve for small systems (not
 * installed).  Below NV_CHOL_SMALL rows a LAPACK call costs more than the
 * work, and a threaded BLAS wakes its threads for every small factorization
 * (measured: 24 classes, 276 one-vs-one pairs of 80 rows, 40% of the
 * training time with two OpenBLAS threads); used by Hyperpass's QP and
 * NESVM's zone systems.
 */
#ifndef NESVM_CHOL_H
#define NESVM_CHOL_H

#include <stddef.h>

#define NV_CHOL_SMALL 96

/* In-place Cholesky M = L L^T of a symmetric n x n matrix, L stored by rows
 * (L[i][k] at M[i n + k], k <= i: every inner product is contiguous); 0 if M
 * is not positive definite. */
int nv_chol(int n, double *M);
/* b <- (L L^T)^-1 b, L from nv_chol. */
void nv_chol_solve(int n, const double *L, double *b);

#endif
