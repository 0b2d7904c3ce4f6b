/* kpsd.c - is a precomputed kernel's training matrix positive semi-definite? (kernel.h, nv_kernel_pc_psd) */
#include "kernel.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The smallest eigenvalue of the symmetric n x n matrix whose lower
 * triangle A holds (row-major; destroyed), or NAN if LAPACK fails. */
static double smallest_eigenvalue(double *A, int64_t n)
{
    double w[1] = {NAN};
    lapack_int m = 0, isuppz[2];
    lapack_int info = LAPACKE_dsyevr(LAPACK_ROW_MAJOR, 'N', 'I', 'L', (lapack_int)n, A, (lapack_int)n, 0.0, 0.0, 1,
                                     1, 0.0, &m, w, NULL, 1, isuppz);
    return info == 0 && m == 1 ? w[0] : NAN;
}

nesvm_status nv_kernel_pc_psd(const nesvm_dataset *X, const int64_t *rows, int64_t n, double mem_mb, int threads,
                              int *psd, char *why, size_t why_size, nesvm_error *err)
{
    *psd = 0;
    why[0] = '\0';
    if (n == 0) {
        *psd = 1;
        return NESVM_OK;
    }
    if ((double)n * (double)n * 8.0 > mem_mb * 1048576.0) {
        snprintf(why, why_size, "not checked: its %lld x %lld doubles exceed --kernel-memory %g MB", (long long)n,
                 (long long)n, mem_mb);
        return NESVM_OK;
    }
    const nv_kernel k = {NV_KERNEL_PRECOMPUTED, 1.0, 0.0, 0};
    double *K = nv_malloc_array((size_t)n * (size_t)n, sizeof(double));
    if (!K) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    nesvm_status st = nv_kernel_block(&k, X, rows, n, NULL, X, rows, n, NULL, K, n, threads, err);
    if (st != NESVM_OK) {
        nv_free(K);
        return st;
    }
    /* the tolerance: the rounding of the entries and of the factorization,
     * n eps ||K|| with ||K||_inf (the largest row sum, >= ||K||_2); eps the
     * entries' own (single precision: --float, numpy float32) */
    double dmax = 0, norm = 0;
    for (int64_t i = 0; i < n; i++) {
        double row = 0;
        for (int64_t j = 0; j < n; j++) row += fabs(K[i * n + j]);
        norm = fmax(norm, row);
        dmax = fmax(dmax, fabs(K[i * n + i]));
    }
    const double tol = NV_PC_PSD_TOL * (double)n * (X->prec == NESVM_FLOAT ? FLT_EPSILON : DBL_EPSILON) * norm;
    /* symmetric: the worst pair */
    double worst = 0;
    int64_t wi = 0, wj = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < i; j++) {
            const double a = fabs(K[i * n + j] - K[j * n + i]);
            if (a > worst) worst = a, wi = i, wj = j;
        }
    if (worst > tol) {
        const int64_t ri = rows ? rows[wi] : wi, rj = rows ? rows[wj] : wj;
        snprintf(why, why_size, "it is not symmetric: K(x_%lld,x_%lld) = %.17g but K(x_%lld,x_%lld) = %.17g",
                 (long long)nv_pc_serial(X, ri), (long long)nv_pc_serial(X, rj), K[wi * n + wj],
                 (long long)nv_pc_serial(X, rj), (long long)nv_pc_serial(X, ri), K[wj * n + wi]);
        nv_free(K);
        return NESVM_OK;
    }
    /* K + tol I = L L^T (lower triangle, row-major) */
    for (int64_t i = 0; i < n; i++) K[i * n + i] += tol;
    lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, K, (lapack_int)n);
    if (info == 0 && dmax > 0) {
        *psd = 1;
        nv_free(K);
        return NESVM_OK;
    }
    /* not positive semi-definite: its smallest eigenvalue, for the message */
    double lmin = NAN;
    if (n <= NV_PC_EIG_MAX) {
        st = nv_kernel_block(&k, X, rows, n, NULL, X, rows, n, NULL, K, n, threads, err);
        if (st != NESVM_OK) {
            nv_free(K);
            return st;
        }
        lmin = smallest_eigenvalue(K, n);
    }
    nv_free(K);
    if (dmax == 0)
        snprintf(why, why_size, "its diagonal is zero");
    else if (!isnan(lmin))
        snprintf(why, why_size, "its smallest eigenvalue is %.6g, below the tolerance %.3g", lmin, -tol);
    else
        snprintf(why, why_size, "its Cholesky factorization with tolerance %.3g breaks down at row %d", tol,
                 (int)info);
    return NESVM_OK;
}
