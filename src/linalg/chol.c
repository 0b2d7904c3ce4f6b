/* chol.c - dense Cholesky for small systems (chol.h). */
#include "chol.h"
#include "../core/internal.h"

#include <math.h>

int nv_chol(int n, double *M)
{
    for (int j = 0; j < n; j++) {
        double *Lj = M + (size_t)j * n;
        double d = Lj[j];
        for (int k = 0; k < j; k++) d -= Lj[k] * Lj[k];
        if (!(d > 0)) return 0;
        d = sqrt(d);
        Lj[j] = d;
        for (int i = j + 1; i < n; i++) {
            double *Li = M + (size_t)i * n;
            double v = Li[j];
            for (int k = 0; k < j; k++) v -= Li[k] * Lj[k];
            Li[j] = v / d;
        }
    }
    return 1;
}

void nv_chol_solve(int n, const double *L, double *b)
{
    for (int i = 0; i < n; i++) {
        const double *Li = L + (size_t)i * n;
        NV_ASSERT(Li[i] > 0); /* a factor nv_chol or dpotrf made */
        double v = b[i];
        for (int k = 0; k < i; k++) v -= Li[k] * b[k];
        b[i] = v / Li[i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double v = b[i];
        for (int k = i + 1; k < n; k++) v -= L[(size_t)k * n + i] * b[k];
        b[i] = v / L[(size_t)i * n + i];
    }
}
