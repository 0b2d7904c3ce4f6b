/*
 * expansion_smok.c - the kernel SMO's two operations on rows of the stored
 * matrix that both of its modes use (expansion_smo.h): the gradient's update
 * by one row, and the return of the shrunk variables.  Called by
 * expansion_smo.c (the C-SVM and the tube) and expansion_smon.c (the nu
 * mode), each of which it serves without calling back.
 */
#include "expansion_smo.h"

void nv_ksmo_grad_add(ksmo *s, int64_t i, double coef)
{
    const float *row = krow(s, i);
    for (int64_t k = 0; k < s->nact; k++) {
        const int64_t t = s->act[k];
        s->G[t] += coef * s->y[t] * (double)kval(row, s, t);
    }
}

void nv_ksmo_unshrink(ksmo *s)
{
    const int64_t n = s->m, nact = s->nact;
    for (int64_t k = nact; k < n; k++) s->G[s->act[k]] = -thr(s, s->act[k]);
    for (int64_t j = 0; j < n && nact < n; j++) {
        if (s->a[j] == 0) continue;
        const float *row = krow(s, j);
        const double aj = s->a[j] * s->y[j];
        for (int64_t k = nact; k < n; k++) {
            const int64_t t = s->act[k];
            s->G[t] += aj * s->y[t] * (double)kval(row, s, t);
        }
    }
    s->nact = n;
}
