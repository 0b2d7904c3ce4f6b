/* hpline.c - Hyperpass's exact line search over the hinge's breakpoints
 * (hpline.h: nv_hp_line_search; the paper's Section 4.2).  Callers: the
 * Hyperpass iteration (hyperpass.c) and its tests. */
#include "hpline.h"

#include <math.h>

static void heap_down(double *he, int64_t *hi, int64_t L, int64_t k)
{
    for (;;) {
        int64_t a = 2 * k + 1, b = a + 1, s = k;
        if (a < L && he[a] < he[s]) s = a;
        if (b < L && he[b] < he[s]) s = b;
        if (s == k) return;
        double te = he[k];
        he[k] = he[s];
        he[s] = te;
        int64_t ti = hi[k];
        hi[k] = hi[s];
        hi[s] = ti;
        k = s;
    }
}

double nv_hp_line_search(int64_t na, const int64_t *act, const double *m, const double *dl,
                         const double *c, double A, double Bq, double *heta, int64_t *hidx,
                         int64_t *kink, int64_t *popped)
{
    *kink = -1;
    if (popped) *popped = 0;
    if (!(Bq > 0)) return 0.0;
    double S = 0;
    int64_t L = 0;
    for (int64_t k = 0; k < na; k++) {
        int64_t i = act ? act[k] : k;
        double di = dl[i], mi = m[i];
        if (di == 0) continue;
        if (mi < 1 || (mi == 1 && di < 0)) S += c[i] * di;
        double e = (1.0 - mi) / di;
        if (e > 0) {
            heta[L] = e;
            hidx[L] = i;
            L++;
        }
    }
    for (int64_t k = L / 2 - 1; k >= 0; k--) heap_down(heta, hidx, L, k);
    double lo = 0;
    int64_t last = -1, pops = 0;
    for (;;) {
        /* phi'(eta) = A + eta Bq - S on the current segment */
        double root = (S - A) / Bq;
        double next = L > 0 ? heta[0] : INFINITY;
        if (!(root > next)) { /* also a NaN root (overflowing data): the caller sees it */
            if (popped) *popped = pops;
            if (root <= lo) {
                *kink = last;
                return lo;
            }
            return root;
        }
        int64_t i = hidx[0];
        lo = heta[0];
        S -= c[i] * fabs(dl[i]);
        last = i;
        pops++;
        heta[0] = heta[L - 1];
        hidx[0] = hidx[L - 1];
        L--;
        heap_down(heta, hidx, L, 0);
    }
}
