/* hpqp.c - the small dense QP of Hyperpass's lower bound (interior point). */
#include "hpqp.h"
#include "../../linalg/chol.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

/* The constraints G x <= h of the substituted problem (x = (u, gamma)):
 *   rows j < n        -x_j <= 0
 *   rows n + i        u_i - gamma_3 <= 0           (i < K)
 *   row  n + K        gamma_1 + gamma_2 + gamma_3 <= 1 */
static void g_mul(int K, const double *x, double *out)
{
    const int n = K + 3;
    for (int j = 0; j < n; j++) out[j] = -x[j];
    for (int i = 0; i < K; i++) out[n + i] = x[i] - x[n - 1];
    out[n + K] = x[n - 3] + x[n - 2] + x[n - 1];
}

static void gt_mul(int K, const double *v, double *out)
{
    const int n = K + 3;
    for (int j = 0; j < n; j++) out[j] = -v[j];
    for (int i = 0; i < K; i++) {
        out[i] += v[n + i];
        out[n - 1] -= v[n + i];
    }
    for (int j = n - 3; j < n; j++) out[j] += v[n + K];
}

static double h_of(int K, int row) { return row == 2 * K + 3 ? 1.0 : 0.0; }

/* largest a in (0, 1] with v + a dv >= 0 */
static double max_step(const double *v, const double *dv, int m)
{
    double a = 1.0;
    for (int k = 0; k < m; k++)
        if (dv[k] < 0 && -v[k] / dv[k] < a) a = -v[k] / dv[k];
    return a;
}

/* Dense kernels for the small systems (the Cholesky in linalg/chol.h): a
 * library call costs more than the work there, and a threaded BLAS wakes its
 * threads for every 5 x 5 factorization. */

/* b <- A^-1 b by LU with partial pivoting (A column-major, overwritten); 0 if
 * A is singular to working precision. */
static int lu_solve(int n, double *A, double *b)
{
    double amax = 0;
    for (size_t k = 0; k < (size_t)n * n; k++) amax = fmax(amax, fabs(A[k]));
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[(size_t)c * n + r]) > fabs(A[(size_t)c * n + p])) p = r;
        if (!(fabs(A[(size_t)c * n + p]) > 1e-14 * amax)) return 0;
        if (p != c) {
            for (int k = 0; k < n; k++) {
                double t = A[(size_t)k * n + c];
                A[(size_t)k * n + c] = A[(size_t)k * n + p];
                A[(size_t)k * n + p] = t;
            }
            double t = b[c];
            b[c] = b[p];
            b[p] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double f = A[(size_t)c * n + r] / A[(size_t)c * n + c];
            if (f == 0) continue;
            for (int k = c + 1; k < n; k++) A[(size_t)k * n + r] -= f * A[(size_t)k * n + c];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        double v = b[c];
        for (int k = c + 1; k < n; k++) v -= A[(size_t)k * n + c] * b[k];
        b[c] = v / A[(size_t)c * n + c];
    }
    return 1;
}

/* Factor M = Q + G^T W G, W = z/s (Cholesky, lower triangle; a growing
 * diagonal shift if rounding makes M indefinite).  Past BIG variables the
 * threaded LAPACK pays for itself. */
enum { BIG = NV_CHOL_SMALL };
static int newton_factor(int K, const double *Q, const double *s, const double *z, double *W, double *M)
{
    const int n = K + 3, m = 2 * K + 4;
    for (int k = 0; k < m; k++) W[k] = z[k] / s[k];
    double shift = 0;
    for (int attempt = 0; attempt < 6; attempt++) {
        memcpy(M, Q, (size_t)n * (size_t)n * sizeof *M);
        for (int j = 0; j < n; j++) M[(size_t)j * n + j] += W[j] + shift;
        for (int i = 0; i < K; i++) {
            double wv = W[n + i];
            M[(size_t)i * n + i] += wv;
            M[(size_t)(n - 1) * n + (n - 1)] += wv;
            M[(size_t)(n - 1) * n + i] -= wv;
            M[(size_t)i * n + (n - 1)] -= wv;
        }
        for (int a = n - 3; a < n; a++)
            for (int b = n - 3; b < n; b++) M[(size_t)a * n + b] += W[n + K];
        if (n >= BIG ? LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, M, n) == 0 : nv_chol(n, M)) return 1;
        double tr = 0;
        for (int j = 0; j < n; j++) tr += fabs(Q[(size_t)j * n + j]) + W[j];
        shift = shift > 0 ? shift * 100 : 1e-14 * (tr > 0 ? tr : 1.0);
    }
    return 0;
}

/* One Newton direction for the residuals, M factored (newton_factor); rc is
 * the complementarity target. */
static void direction(int K, const double *M, const double *s, const double *z, const double *rd,
                      const double *rp, const double *rc, double *t, double *dx, double *ds, double *dz)
{
    const int n = K + 3, m = 2 * K + 4;
    for (int k = 0; k < m; k++) t[k] = (z[k] * rp[k] - rc[k]) / s[k];
    gt_mul(K, t, dx);
    for (int j = 0; j < n; j++) dx[j] = -rd[j] - dx[j];
    if (n >= BIG)
        LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, 1, M, n, dx, n);
    else
        nv_chol_solve(n, M, dx);
    g_mul(K, dx, t);
    for (int k = 0; k < m; k++) {
        ds[k] = -rp[k] - t[k];
        dz[k] = (z[k] * (rp[k] + t[k]) - rc[k]) / s[k];
    }
}

static double qp_obj(int n, const double *Q, const double *q, const double *x)
{
    double o = 0;
    for (int a = 0; a < n; a++) {
        double v = 0;
        for (int b = 0; b < n; b++) v += Q[(size_t)b * n + a] * x[b];
        o += x[a] * (0.5 * v + q[a]);
    }
    return o;
}

/* Crossover: the constraints the interior point leaves active (s_k <= z_k)
 * fix a face; the QP restricted to it is solved exactly (dense LU of its KKT
 * system) and replaces x when it is feasible and no worse.  Interior points
 * stop a little inside the faces; without this the nonsmooth objective the
 * QP bounds would pay that distance to first order. */
static void crossover(int K, const double *Qs, const double *q, const double *s, const double *z,
                      double *x)
{
    const int n = K + 3;
    int var[64 + 3 + 1];
    int *map = n <= 64 ? var : nv_malloc_array((size_t)n, sizeof(int));
    double *T = nv_malloc_array((size_t)n * (size_t)n + (size_t)(n + 1) * (size_t)(n + 1) + 3 * (size_t)(n + 1),
                                sizeof(double));
    if (!map || !T) goto out;
    /* map[j]: the reduced variable of x_j, -1 = fixed at 0; tied u_i = gamma_3 */
    int p = 0;
    const int g3 = n - 1;
    for (int j = n - 3; j < n; j++) map[j] = s[j] <= z[j] ? -1 : p++;
    int nfg = p;
    for (int i = 0; i < K; i++) {
        if (s[i] <= z[i]) map[i] = -1;                 /* u_i = 0 */
        else if (s[n + i] <= z[n + i]) map[i] = map[g3]; /* u_i = gamma_3 */
        else map[i] = p++;
    }
    if (p == 0) goto out;
    const int eq = s[n + K] <= z[n + K] && nfg > 0;
    const int P = p + eq;
    double *H = T + (size_t)n * n, *rhs = H + (size_t)P * P, *xc = rhs + P + 1;
    memset(H, 0, (size_t)P * P * sizeof *H);
    memset(rhs, 0, (size_t)P * sizeof *rhs);
    for (int a = 0; a < n; a++) {
        if (map[a] < 0) continue;
        rhs[map[a]] -= q[a];
        for (int b = 0; b < n; b++)
            if (map[b] >= 0) H[(size_t)map[b] * P + map[a]] += Qs[(size_t)b * n + a];
    }
    if (eq) { /* gamma's on the simplex: sum of the free ones = 1 */
        for (int j = n - 3; j < n; j++)
            if (map[j] >= 0) H[(size_t)p * P + map[j]] = H[(size_t)map[j] * P + p] = 1.0;
        rhs[p] = 1.0;
    }
    if (!lu_solve(P, H, rhs)) goto out;
    for (int j = 0; j < n; j++) xc[j] = map[j] < 0 ? 0.0 : rhs[map[j]];
    /* feasible (to rounding) and no worse */
    double gs = 0;
    for (int j = 0; j < n; j++)
        if (!isfinite(xc[j]) || xc[j] < -1e-12) goto out;
    for (int j = n - 3; j < n; j++) gs += xc[j];
    if (gs > 1 + 1e-12) goto out;
    for (int i = 0; i < K; i++)
        if (xc[i] > xc[g3] + 1e-12) goto out;
    if (qp_obj(n, Qs, q, xc) <= qp_obj(n, Qs, q, x)) memcpy(x, xc, (size_t)n * sizeof *x);
out:
    if (map != var) nv_free(map);
    nv_free(T);
}

nesvm_status nv_hpqp_solve(int K, const double *Q, const double *r, const double *c, double *beta,
                           int *iters)
{
    const int n = K + 3, m = 2 * K + 4;
    double *buf = nv_malloc_array((size_t)(2 * n * n + 6 * n + 11 * m), sizeof(double));
    if (!buf) return NESVM_ERR_NOMEM;
    double *Qs = buf, *M = Qs + (size_t)n * n, *x = M + (size_t)n * n, *q = x + n, *rd = q + n;
    double *dx = rd + n, *dxa = dx + n, *gx = dxa + n;
    double *s = gx + n, *z = s + m, *rp = z + m, *rc = rp + m, *W = rc + m, *t = W + m;
    double *ds = t + m, *dz = ds + m, *dsa = dz + m, *dza = dsa + m;
    /* x = (u, gamma), alpha_i = c_i u_i; scale the objective to O(1) */
    double sc = 0;
    for (int a = 0; a < n; a++) {
        double da = a < K ? c[a] : 1.0;
        q[a] = -da * r[a];
        for (int b = 0; b < n; b++) {
            double db = b < K ? c[b] : 1.0;
            Qs[(size_t)b * n + a] = da * db * Q[(size_t)b * n + a];
        }
        if (Qs[(size_t)a * n + a] > sc) sc = Qs[(size_t)a * n + a];
        if (fabs(q[a]) > sc) sc = fabs(q[a]);
    }
    if (!(sc > 0) || !isfinite(sc)) sc = 1.0;
    double qinf = 0;
    for (int a = 0; a < n; a++) {
        q[a] /= sc;
        if (fabs(q[a]) > qinf) qinf = fabs(q[a]);
        for (int b = 0; b < n; b++) Qs[(size_t)b * n + a] /= sc;
    }
    /* a strictly feasible start */
    for (int i = 0; i < K; i++) x[i] = 0.125;
    x[n - 3] = x[n - 2] = x[n - 1] = 0.25;
    g_mul(K, x, t);
    for (int k = 0; k < m; k++) {
        s[k] = h_of(K, k) - t[k];
        z[k] = 1.0;
    }
    int it = 0;
    for (; it < 100; it++) {
        /* residuals */
        for (int a = 0; a < n; a++) {
            double v = q[a];
            for (int b = 0; b < n; b++) v += Qs[(size_t)b * n + a] * x[b];
            rd[a] = v;
        }
        gt_mul(K, z, gx);
        double rdn = 0, xqx = 0, qx = 0, xsum = 0;
        for (int a = 0; a < n; a++) {
            xsum += fabs(x[a]);
            xqx += x[a] * (rd[a] - q[a]);
            qx += q[a] * x[a];
            rd[a] += gx[a];
            if (fabs(rd[a]) > rdn) rdn = fabs(rd[a]);
        }
        g_mul(K, x, t);
        double sz = 0;
        for (int k = 0; k < m; k++) {
            rp[k] = t[k] + s[k] - h_of(K, k);
            sz += s[k] * z[k];
        }
        double obj = 0.5 * xqx + qx;
        /* stationarity to rounding (|Q| <= 1, 0 <= x <= 1 after scaling) and
         * complementarity far below any gap the solver certifies */
        if (rdn <= 1e-11 * (1.0 + qinf + xsum) && sz <= 1e-13 * (1.0 + fabs(obj))) break;
        double mu = sz / m;
        /* predictor */
        for (int k = 0; k < m; k++) rc[k] = s[k] * z[k];
        if (!newton_factor(K, Qs, s, z, W, M)) break;
        direction(K, M, s, z, rd, rp, rc, t, dxa, dsa, dza);
        double ap = max_step(s, dsa, m), ad = max_step(z, dza, m);
        double aa = ap < ad ? ap : ad, mua = 0;
        for (int k = 0; k < m; k++) mua += (s[k] + aa * dsa[k]) * (z[k] + aa * dza[k]);
        mua /= m;
        double sigma = mua / mu;
        sigma = sigma * sigma * sigma;
        /* corrector */
        for (int k = 0; k < m; k++) rc[k] = s[k] * z[k] + dsa[k] * dza[k] - sigma * mu;
        direction(K, M, s, z, rd, rp, rc, t, dx, ds, dz);
        ap = max_step(s, ds, m);
        ad = max_step(z, dz, m);
        double a = 0.99 * (ap < ad ? ap : ad);
        if (a > 1) a = 1;
        for (int j = 0; j < n; j++) x[j] += a * dx[j];
        for (int k = 0; k < m; k++) {
            s[k] += a * ds[k];
            z[k] += a * dz[k];
        }
    }
    crossover(K, Qs, q, s, z, x);
    /* exact feasibility */
    double gs = 0;
    for (int j = n - 3; j < n; j++) {
        if (!(x[j] > 0)) x[j] = 0;
        gs += x[j];
    }
    if (gs > 1)
        for (int j = n - 3; j < n; j++) x[j] /= gs;
    for (int i = 0; i < K; i++) {
        double u = x[i] > 0 ? x[i] : 0.0;
        if (u > x[n - 1]) u = x[n - 1];
        beta[i] = c[i] * u;
    }
    for (int j = n - 3; j < n; j++) beta[j] = x[j];
    /* feasible whatever the iterations did (hpqp.h), so that the lower bound
     * holds: gamma >= 0 on the simplex (to the rounding of x / gs), and
     * 0 <= alpha_i <= c_i gamma_3 */
    NV_ASSERT(beta[n - 3] >= 0 && beta[n - 2] >= 0 && beta[n - 1] >= 0 &&
              beta[n - 3] + beta[n - 2] + beta[n - 1] <= 1 + 1e-12);
    for (int i = 0; i < K; i++) NV_ASSERT(beta[i] >= 0 && beta[i] <= c[i] * beta[n - 1]);
    if (iters) *iters = it;
    nv_free(buf);
    return NESVM_OK;
}

double nv_hpqp_defect(int K, const double *Q, const double *r, const double *c,
                      const double *beta)
{
    const int n = K + 3;
    double gb = 0, lin3 = 0, g[3];
    for (int a = 0; a < n; a++) {
        double v = -r[a];
        for (int b = 0; b < n; b++) v += Q[(size_t)b * n + a] * beta[b];
        gb += v * beta[a];
        if (a < K)
            lin3 += c[a] * (v < 0 ? v : 0.0);
        else
            g[a - K] = v;
    }
    double lo = 0;
    if (g[0] < lo) lo = g[0];
    if (g[1] < lo) lo = g[1];
    if (g[2] + lin3 < lo) lo = g[2] + lin3;
    return gb - lo;
}
