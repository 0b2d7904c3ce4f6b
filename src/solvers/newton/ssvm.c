/*
 * ssvm.c - SSVM and NSSVM: smoothing Newton-Armijo methods for the
 * squared-hinge SVM with a regularized bias (ssvm.h states the problem, the
 * merit functions and the Newton schemes).
 *
 * Per iteration: the margins of the Newton direction (one X*d), the gradient
 * G_p or grad f_p and grad f (two X^T a), the Newton system by the scheme
 * chosen, and Armijo trials on margins kept up to date (O(n) each, no
 * product).  Margins are recomputed from scratch every 8 iterations.
 *
 * Certificate: alpha = c o r_+ at z is dual feasible for the unsmoothed
 * problem, so D(alpha) = sum alpha_i - 1/2 ||H^T alpha||^2 - sum alpha_i^2/(2 c_i)
 * <= min f; H^T alpha = z - grad f is known, so the bound is free.
 *
 * Stopping: the certified relative gap (f - D)/f <= eps (exit "converged");
 * ||G_p(z)|| < eps_abs (the paper's rule, when eps_abs > 0; exit "eps-abs",
 * no certificate); max_iter, time limit, or an Armijo search that finds no
 * decrease in floating point (exit "stalled").
 */
#include "ssvm.h"
#include "../../linalg/cg.h"
#include "../track.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ smoothing */

#define NV_PI2_6 1.6449340668482264 /* pi^2 / 6 */

double nv_psi(double p, double t)
{
    double e = exp(-p * fabs(t));
    return (t > 0 ? t : 0.0) + log1p(e) / p;
}

double nv_psi1(double p, double t)
{
    double e = exp(-p * fabs(t));
    return (t >= 0 ? 1.0 : e) / (1.0 + e);
}

double nv_psi2(double p, double t)
{
    double e = exp(-p * fabs(t));
    if (e == 0) return 0.0;
    return p * e / ((1.0 + e) * (1.0 + e));
}

/* Li_2(w) = sum_k w^k / k^2 for 0 <= w <= 1/2. */
static double dilog_small(double w)
{
    double s = 0, t = w;
    for (int k = 1; k < 200 && t > 1e-18 * s; k++) {
        s += t / ((double)k * (double)k);
        t *= w;
    }
    return s;
}

/* Li_2(-u) for 0 <= u <= 1 by Landen's identity
 * Li_2(-u) = -Li_2(u/(1+u)) - 1/2 log(1+u)^2, with u/(1+u) <= 1/2. */
static double dilog_neg(double u)
{
    if (u == 0) return 0.0;
    double l = log1p(u);
    return -dilog_small(u / (1.0 + u)) - 0.5 * l * l;
}

/* phi_p(t) = int_{-inf}^t psi_p: -Li_2(-e^{pt}) / p^2 for t <= 0, and
 * t^2/2 + pi^2/(6p^2) + Li_2(-e^{-pt}) / p^2 for t > 0. */
double nv_phi(double p, double t)
{
    double u = exp(-p * fabs(t)), p2 = p * p;
    if (t <= 0) return -dilog_neg(u) / p2;
    return 0.5 * t * t + (NV_PI2_6 + dilog_neg(u)) / p2;
}

/* ------------------------------------------------------------ the engine */

nesvm_status nv_ssvm_init(nv_ssvm *s, const nv_binary_problem *pb, const nesvm_params *prm,
                          int nssvm, nesvm_error *err)
{
    memset(s, 0, sizeof *s);
    nesvm_status st = nv_hinge_init(&s->h, pb, prm, err);
    if (st != NESVM_OK) {
        nv_hinge_free(&s->h);
        return st;
    }
    s->comm = s->h.comm;
    s->nssvm = nssvm;
    s->p = prm->smooth_p;
    s->tau = prm->tau;
    s->n = pb->n;
    s->D = s->h.D;
    s->budget = prm->kernel_memory * 1048576.0;
    size_t n = (size_t)(s->n ? s->n : 1), D = (size_t)(s->D ? s->D : 1);
    s->z = nv_calloc(D, sizeof(double));
    s->g = nv_calloc(D, sizeof(double));
    s->gf = nv_calloc(D, sizeof(double));
    s->cgw = nv_calloc(4 * D, sizeof(double));
    s->m = nv_calloc(n, sizeof(double));
    s->lam = nv_calloc(n, sizeof(double));
    s->lam_old = nv_calloc(n, sizeof(double));
    s->lam_B = nv_calloc(n, sizeof(double));
    s->a = nv_calloc(n, sizeof(double));
    s->J = nv_calloc(n, sizeof(int64_t));
    if (s->comm) s->red = nv_calloc(2 * D + NV_SSVM_NRED, sizeof(double));
    if (!s->z || !s->g || !s->gf || !s->cgw || !s->m || !s->lam || !s->lam_old || !s->lam_B ||
        !s->a || !s->J || (s->comm && !s->red))
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (s->comm) st = nv_comm_agree(s->comm, st, err); /* before the collectives */
    if (st != NESVM_OK) nv_ssvm_free(s);
    return st;
}

/* x[0..n) summed over the ranks (distributed; a failure is kept in s->cst). */
static void ssum(nv_ssvm *s, double *x, int64_t n)
{
    if (!s->comm || s->cst != NESVM_OK) return;
    s->cst = nv_comm_sum(s->comm, x, n, &s->cerr);
}

void nv_ssvm_free(nv_ssvm *s)
{
    nv_hinge_free(&s->h);
    nv_free(s->z);
    nv_free(s->g);
    nv_free(s->gf);
    nv_free(s->cgw);
    nv_free(s->m);
    nv_free(s->lam);
    nv_free(s->lam_old);
    nv_free(s->lam_B);
    nv_free(s->a);
    nv_free(s->J);
    nv_free(s->red);
    nv_free(s->B);
    nv_free(s->Bf);
    nv_free(s->G);
    nv_free(s->M);
    memset(s, 0, sizeof *s);
}

/* Sample i's threshold: r_i = t_i - m_i (1 for a classification; a tube's
 * halves, nv_tube_split). */
static inline double thr(const nv_ssvm *s, int64_t i) { return s->h.t ? s->h.t[i] : 1.0; }

/* The merit's loss part over this rank's rows at margins m (r = t - m). */
static double merit_loss(const nv_ssvm *s, int merit, const double *m, double step, const double *hd)
{
    const double p = s->p, *c = s->h.c;
    double sum = 0;
    for (int64_t i = 0; i < s->n; i++) {
        double r = thr(s, i) - (hd ? m[i] + step * hd[i] : m[i]);
        if (merit == NV_MERIT_F) {
            if (r > 0) sum += c[i] * r * r;
        } else if (s->nssvm) {
            sum += 2.0 * c[i] * nv_phi(p, r);
        } else {
            double q = nv_psi(p, r);
            sum += c[i] * q * q;
        }
    }
    return sum;
}

/* The merit at margins m and point z (||z||^2 = zz), over every rank. */
static double merit_at(nv_ssvm *s, int merit, const double *m, double step, const double *hd, double zz)
{
    double sum = merit_loss(s, merit, m, step, hd);
    ssum(s, &sum, 1);
    return 0.5 * zz + 0.5 * sum;
}

void nv_ssvm_eval(nv_ssvm *s)
{
    const int64_t n = s->n, D = s->D;
    const double p = s->p, *c = s->h.c;
    /* grad f: z - H^T alpha, alpha = c o r_+ */
    double asum = 0, aq = 0, loss = 0;
    s->nsv = 0;
    for (int64_t i = 0; i < n; i++) {
        double r = thr(s, i) - s->m[i];
        double al = r > 0 ? c[i] * r : 0.0;
        s->a[i] = al;
        if (r > 0) {
            loss += c[i] * r * r;
            asum += al * thr(s, i);
            aq += al * r; /* alpha^2 / c */
            s->nsv++;
        }
    }
    nv_hinge_xta(&s->h, s->a, s->gf); /* H^T alpha */
    /* the smoothed gradient and the Newton weights */
    memcpy(s->lam_old, s->lam, (size_t)n * sizeof(double));
    s->nJ = 0;
    s->nJ0 = 0;
    for (int64_t i = 0; i < n; i++) {
        double r = thr(s, i) - s->m[i];
        double q = nv_psi(p, r), q1 = nv_psi1(p, r), w;
        if (s->nssvm) {
            s->a[i] = c[i] * q;
            w = q1;
        } else {
            s->a[i] = c[i] * q * q1;
            w = q1 * q1 + q * nv_psi2(p, r);
        }
        s->lam[i] = w >= s->tau ? c[i] * w : 0.0;
        if (s->lam[i] != 0) s->J[s->nJ++] = i;
        s->nJ0 += s->lam[i] != s->lam_old[i];
    }
    nv_hinge_xta(&s->h, s->a, s->g);
    double msum = merit_loss(s, NV_MERIT_SMOOTH, s->m, 0, NULL);
    s->nJ_all = s->nJ;
    if (s->comm) {
        /* one reduction: H^T alpha, the smoothed H^T a, and the sums */
        double *v = s->red;
        memcpy(v, s->gf, (size_t)D * sizeof(double));
        memcpy(v + D, s->g, (size_t)D * sizeof(double));
        double t[NV_SSVM_NRED] = {loss, asum, aq, (double)s->nsv, (double)s->nJ, (double)s->nJ0, msum, 0.0};
        memcpy(v + 2 * D, t, sizeof t);
        ssum(s, v, 2 * D + NV_SSVM_NRED);
        memcpy(s->gf, v, (size_t)D * sizeof(double));
        memcpy(s->g, v + D, (size_t)D * sizeof(double));
        const double *u = v + 2 * D;
        loss = u[0];
        asum = u[1];
        aq = u[2];
        s->nsv = (int64_t)u[3];
        s->nJ_all = (int64_t)u[4];
        s->nJ0 = (int64_t)u[5];
        msum = u[6];
    }
    double hah = nv_dot(s->gf, s->gf, D);
    s->lower = asum - 0.5 * hah - 0.5 * aq;
    for (int64_t j = 0; j < D; j++) s->gf[j] = s->z[j] - s->gf[j];
    double zz = nv_dot(s->z, s->z, D);
    s->f = 0.5 * zz + 0.5 * loss;
    for (int64_t j = 0; j < D; j++) s->g[j] = s->z[j] - s->g[j];
    s->gnorm = sqrt(nv_dot(s->g, s->g, D));
    s->gfnorm = sqrt(nv_dot(s->gf, s->gf, D));
    s->merit = 0.5 * zz + 0.5 * msum;
}

/* Rows idx[0..cnt) of H (y_i [a_i, B]) times scale[k] (NULL: 1) into out (cnt x D). */
static void gather(nv_ssvm *s, const int64_t *idx, int64_t cnt, const double *scale, double *out)
{
    const nv_hinge *h = &s->h;
    const int64_t D = s->D;
    (void)h;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(h->lw.threads) if (cnt * D > 1000000)
#endif
    for (int64_t k = 0; k < cnt; k++) {
        int64_t i = idx[k];
        int64_t r = h->rows ? h->rows[i] : i;
        double *o = out + (size_t)k * (size_t)D;
        double a = (scale ? scale[k] : 1.0) * h->y[i];
        memset(o, 0, (size_t)D * sizeof(double));
        nv_row_axpy(h->X, r, a, o);
        if (h->B > 0) o[h->d] = a * h->B;
    }
    s->h.axpys += cnt;
}

static int grow(void **buf, size_t *cap, size_t need)
{
    if (*cap >= need) return 1;
    nv_free(*buf);
    *buf = nv_malloc_array(need, sizeof(double));
    *cap = *buf ? need : 0;
    return *buf != NULL;
}

/* Rows of the gather chunk: at most 64 MB of gathered rows at a time. */
static int64_t chunk_rows(int64_t D)
{
    int64_t c = (int64_t)(8388608 / (D > 0 ? D : 1));
    return c < 16 ? 16 : c;
}

/* T (D x D, upper triangle) += sum over rows idx of sign * w_k H_i^T H_i, w_k = wt[k] > 0. */
static nesvm_status syrk_rows(nv_ssvm *s, double *T, const int64_t *idx, int64_t cnt, const double *wt,
                              double sign, nesvm_error *err)
{
    const int64_t D = s->D, ch = chunk_rows(D);
    double *sc = nv_malloc_array((size_t)(ch), sizeof(double));
    if (!sc) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    size_t need = (size_t)(cnt < ch ? cnt : ch) * (size_t)D;
    if (need && !grow((void **)&s->G, &s->G_cap, need)) {
        nv_free(sc);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the Newton system");
    }
    for (int64_t k0 = 0; k0 < cnt; k0 += ch) {
        int64_t k1 = k0 + ch < cnt ? k0 + ch : cnt;
        for (int64_t k = k0; k < k1; k++) sc[k - k0] = sqrt(wt[k]);
        gather(s, idx + k0, k1 - k0, sc, s->G);
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)D, (int)(k1 - k0), sign, s->G, (int)D,
                    1.0, T, (int)D);
    }
    nv_free(sc);
    return NESVM_OK;
}

static nesvm_status need_bytes(const nv_ssvm *s, double bytes, int scheme, nesvm_error *err)
{
    if (bytes <= s->budget) return NESVM_OK;
    return nv_error(err, NESVM_ERR_NOMEM,
                    "Newton scheme %d needs %.3g MB of dense matrices (D = %lld, |J| = %lld), more than "
                    "the budget of %.3g MB: raise --kernel-memory or use --scheme optimal",
                    scheme, bytes / 1048576.0, (long long)s->D, (long long)s->nJ, s->budget / 1048576.0);
}

/* Distributed: the upper triangle of T (D x D) summed over the ranks, in one
 * reduction of D (D + 1) / 2 values; every rank first agrees on st (a
 * rank that could not form its part). */
static nesvm_status sum_upper(nv_ssvm *s, double *T, nesvm_status st, nesvm_error *err)
{
    const int64_t D = s->D;
    double *pk = NULL;
    if (st == NESVM_OK && !(pk = nv_malloc_array((size_t)(D * (D + 1) / 2 + 1), sizeof(double))))
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the Newton system");
    st = nv_comm_agree(s->comm, st, err);
    if (st != NESVM_OK) {
        nv_free(pk);
        return st;
    }
    int64_t at = 0;
    for (int64_t i = 0; i < D; i++)
        for (int64_t j = i; j < D; j++) pk[at++] = T[i * D + j];
    st = nv_comm_sum(s->comm, pk, at, err);
    at = 0;
    for (int64_t i = 0; i < D; i++)
        for (int64_t j = i; j < D; j++) T[i * D + j] = pk[at++];
    nv_free(pk);
    return st;
}

/* Schemes 1 and 2: update or form B, factor, solve.  Distributed, each rank
 * forms its rows' part (of B, or of B's update) and the parts are summed:
 * B = I + sum over every rank's J. */
static nesvm_status dense_direction(nv_ssvm *s, int scheme, double *d, nesvm_error *err)
{
    const int64_t n = s->n, D = s->D;
    nesvm_status st = need_bytes(s, 2.0 * (double)D * (double)D * 8.0, scheme, err);
    if (st != NESVM_OK) return st;
    if (!s->B) {
        s->B = nv_malloc_array((size_t)D * (size_t)D, sizeof(double));
        s->Bf = nv_malloc_array((size_t)D * (size_t)D, sizeof(double));
        s->B_valid = 0;
    }
    int64_t *idx = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    double *wt = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    if (!s->B || !s->Bf || !idx || !wt) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the Hessian");
    if (s->comm) st = nv_comm_agree(s->comm, st, err);
    if (st != NESVM_OK) {
        nv_free(idx);
        nv_free(wt);
        return st;
    }
    for (int attempt = 0; attempt < 2 && st == NESVM_OK; attempt++) {
        int rebuild = scheme == NV_SCHEME_1 || !s->B_valid || attempt > 0;
        if (rebuild) {
            memset(s->B, 0, (size_t)D * (size_t)D * sizeof(double));
            if (!s->comm)
                for (int64_t j = 0; j < D; j++) s->B[j * D + j] = 1.0;
            for (int64_t k = 0; k < s->nJ; k++) wt[k] = s->lam[s->J[k]];
            st = syrk_rows(s, s->B, s->J, s->nJ, wt, 1.0, err);
            if (s->comm) {
                st = sum_upper(s, s->B, st, err);
                for (int64_t j = 0; j < D; j++) s->B[j * D + j] += 1.0;
            }
        } else {
            /* distributed: the update is summed in Bf (rewritten below) */
            double *T = s->comm ? s->Bf : s->B;
            if (s->comm) memset(T, 0, (size_t)D * (size_t)D * sizeof(double));
            /* the rows whose weight changed since B was formed: increases, then decreases */
            for (int sg = 0; sg < 2 && st == NESVM_OK; sg++) {
                int64_t cnt = 0;
                for (int64_t i = 0; i < n; i++) {
                    double u = s->lam[i] - s->lam_B[i];
                    if (sg == 0 ? u > 0 : u < 0) {
                        idx[cnt] = i;
                        wt[cnt++] = fabs(u);
                    }
                }
                if (cnt) st = syrk_rows(s, T, idx, cnt, wt, sg == 0 ? 1.0 : -1.0, err);
            }
            if (s->comm) {
                st = sum_upper(s, T, st, err);
                for (int64_t i = 0; i < D; i++)
                    for (int64_t j = i; j < D; j++) s->B[i * D + j] += T[i * D + j];
            }
        }
        if (st != NESVM_OK) break;
        memcpy(s->lam_B, s->lam, (size_t)n * sizeof(double));
        s->B_valid = 1;
        memcpy(s->Bf, s->B, (size_t)D * (size_t)D * sizeof(double));
        lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', (lapack_int)D, s->Bf, (lapack_int)D);
        if (info == 0) {
            for (int64_t j = 0; j < D; j++) d[j] = -s->g[j];
            LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'U', (lapack_int)D, 1, s->Bf, (lapack_int)D, d, 1);
            s->scheme_used = rebuild ? NV_SCHEME_1 : NV_SCHEME_2;
            break;
        }
        s->B_valid = 0; /* an updated B that drifted: form it afresh */
        if (attempt == 1 || rebuild)
            st = nv_error(err, NESVM_ERR_NUMERIC,
                          "the Newton matrix is not positive definite (LAPACK dpotrf info %d): "
                          "check the data scale", (int)info);
        if (rebuild) break;
    }
    nv_free(idx);
    nv_free(wt);
    return st;
}

/* Scheme 3: SMW on the active rows. */
/* Distributed: every rank's active rows (and their weights) in rank order,
 * the serial J's order, into s->G (k x D) and lamJ (k). */
static nesvm_status gather_active(nv_ssvm *s, int64_t k, double *lamJ, nesvm_error *err)
{
    const int64_t D = s->D, kl = s->nJ;
    double *lw = nv_malloc_array((size_t)(kl ? kl : 1), sizeof(double));
    nesvm_status st = lw ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (st == NESVM_OK) {
        gather(s, s->J, kl, NULL, s->G);
        for (int64_t a = 0; a < kl; a++) lw[a] = s->lam[s->J[a]];
    }
    st = nv_comm_agree(s->comm, st, err);
    double *rows = NULL, *lams = NULL;
    int64_t nr = 0, nl = 0;
    if (st == NESVM_OK) st = nv_comm_gather(s->comm, s->G, kl * D, &rows, &nr, NULL, err);
    if (st == NESVM_OK) st = nv_comm_gather(s->comm, lw, kl, &lams, &nl, NULL, err);
    if (st == NESVM_OK && (nr != k * D || nl != k))
        st = nv_error(err, NESVM_ERR_NUMERIC, "the ranks' active rows do not add up (%lld of %lld)",
                      (long long)nl, (long long)k);
    if (st == NESVM_OK) {
        memcpy(s->G, rows, (size_t)(k * D) * sizeof(double));
        memcpy(lamJ, lams, (size_t)k * sizeof(double));
    }
    nv_free(rows);
    nv_free(lams);
    nv_free(lw);
    return st;
}

static nesvm_status smw_direction(nv_ssvm *s, double *d, nesvm_error *err)
{
    const int64_t D = s->D, k = s->nJ_all;
    for (int64_t j = 0; j < D; j++) d[j] = -s->g[j];
    s->scheme_used = NV_SCHEME_3;
    if (k == 0) return NESVM_OK;
    nesvm_status st = need_bytes(s, ((double)k * (double)D + (double)k * (double)k) * 8.0, 3, err);
    if (st != NESVM_OK) return st;
    /* M holds k x k, then u (k), then (distributed) the active weights (k) */
    if (!grow((void **)&s->G, &s->G_cap, (size_t)k * (size_t)D) ||
        !grow((void **)&s->M, &s->M_cap, (size_t)k * (size_t)k + 2 * (size_t)k))
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the SMW system");
    double *M = s->M, *u = s->M + (size_t)k * (size_t)k, *lamJ = u + k;
    if (s->comm) {
        st = nv_comm_agree(s->comm, st, err);
        if (st == NESVM_OK) st = gather_active(s, k, lamJ, err);
    } else if (st == NESVM_OK) {
        gather(s, s->J, k, NULL, s->G);
        for (int64_t a = 0; a < k; a++) lamJ[a] = s->lam[s->J[a]];
    }
    if (st != NESVM_OK) return st;
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)k, (int)D, 1.0, s->G, (int)D, 0.0, M,
                (int)k);
    /* the active rows' weights c_i w_i with w_i >= tau, not 0: 1/lam is M's diagonal shift */
    for (int64_t a = 0; a < k; a++) NV_ASSERT(lamJ[a] > 0);
    for (int64_t a = 0; a < k; a++) M[a * k + a] += 1.0 / lamJ[a];
    cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)k, (int)D, 1.0, s->G, (int)D, s->g, 1, 0.0, u, 1);
    lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', (lapack_int)k, M, (lapack_int)k);
    if (info != 0)
        return nv_error(err, NESVM_ERR_NUMERIC,
                        "the SMW matrix is not positive definite (LAPACK dpotrf info %d): check the data scale",
                        (int)info);
    LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'U', (lapack_int)k, 1, M, (lapack_int)k, u, 1);
    cblas_dgemv(CblasRowMajor, CblasTrans, (int)k, (int)D, 1.0, s->G, (int)D, u, 1, 1.0, d, 1);
    return NESVM_OK;
}

/* out = B v = v + sum_{i in J} lam_i (H_i v) H_i, through the rows (of
 * every rank: one reduction of D). */
static void hess_vec(nv_ssvm *s, const double *v, double *out)
{
    if (s->comm)
        memset(out, 0, (size_t)s->D * sizeof(double));
    else
        memcpy(out, v, (size_t)s->D * sizeof(double));
    for (int64_t k = 0; k < s->nJ; k++) {
        int64_t i = s->J[k];
        double t = s->lam[i] * nv_hinge_dot(&s->h, i, v);
        if (t != 0) nv_hinge_axpy(&s->h, i, t, out);
    }
    if (s->comm) {
        ssum(s, out, s->D);
        for (int64_t j = 0; j < s->D; j++) out[j] += v[j];
    }
}

/* Conjugate gradients on B d = -g to relative residual rtol. */
static nesvm_status cg_apply(void *ctx, const double *q, double *Bq)
{
    hess_vec(ctx, q, Bq);
    return NESVM_OK;
}

static void cg_direction(nv_ssvm *s, double rtol, double *d)
{
    const int64_t D = s->D;
    double *r = s->cgw, *q = s->cgw + D, *Bq = s->cgw + 2 * D;
    for (int64_t j = 0; j < D; j++) r[j] = -s->g[j];
    s->scheme_used = NV_SCHEME_CG;
    /* unpreconditioned: z is r; stop at ||r||^2 <= rtol^2 ||r0||^2 */
    nv_cg_ops ops = {s, D, 1, cg_apply, NULL, NULL, 2 * D + 50, rtol * rtol, NV_CG_SQUARED};
    nv_cg_result cr;
    nv_cg(&ops, d, r, r, q, Bq, &cr);
    s->cg_iters = cr.completed[0];
}

nesvm_status nv_ssvm_direction(nv_ssvm *s, int scheme, double cg_rtol, double *d, nesvm_error *err)
{
    const double D = (double)s->D, k = (double)s->nJ_all;
    s->cg_iters = 0;
    if (scheme == NV_SCHEME_OPTIMAL) {
        int dense_ok = 2.0 * D * D * 8.0 <= s->budget;
        int smw_ok = (k * D + k * k) * 8.0 <= s->budget;
        if (k <= D - 1 && smw_ok) return smw_direction(s, d, err);
        if (dense_ok) {
            /* scheme 2 from the stored B, unless more rows changed than are active */
            double changed = 0;
            if (s->B_valid) {
                for (int64_t i = 0; i < s->n; i++) changed += s->lam[i] != s->lam_B[i];
                ssum(s, &changed, 1);
            }
            return dense_direction(s, s->B_valid && changed <= k ? NV_SCHEME_2 : NV_SCHEME_1, d, err);
        }
        if (smw_ok) return smw_direction(s, d, err);
        cg_direction(s, cg_rtol, d);
        return NESVM_OK;
    }
    if (scheme == NV_SCHEME_1 || scheme == NV_SCHEME_2) return dense_direction(s, scheme, d, err);
    if (scheme == NV_SCHEME_3) return smw_direction(s, d, err);
    cg_direction(s, cg_rtol, d);
    return NESVM_OK;
}

/* ------------------------------------------------------------ training */

static nesvm_status train(const nv_binary_problem *pb0, const nesvm_params *prm, int nssvm,
                          const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err)
{
    double t0 = nv_now();
    /* a regression: its squared tube is two squared hinges with thresholds
     * over twice the samples (hinge.h) */
    const nv_binary_problem *pb = pb0;
    nv_tube_split split;
    memset(&split, 0, sizeof split);
    nesvm_status st = NESVM_OK;
    if (pb0->target == NV_TARGET_REAL) {
        st = nv_tube_split_init(&split, pb0, prm->epsilon, err);
        if (nv_comm_many(pb0->comm)) st = nv_comm_agree(pb0->comm, st, err);
        if (st != NESVM_OK) {
            nv_tube_split_free(&split);
            return st;
        }
        pb = &split.pb;
    }
    nv_ssvm s;
    st = nv_ssvm_init(&s, pb, prm, nssvm, err);
    if (st != NESVM_OK) {
        nv_tube_split_free(&split);
        return st;
    }
    s.h.t = split.t;
    const int64_t n = s.n, D = s.D;
    double *d = nv_malloc_array((size_t)(D ? D : 1), sizeof(double));
    double *hd = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    double *wbest = nv_malloc_array((size_t)(D ? D : 1), sizeof(double));
    if (!d || !hd || !wbest) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (s.comm) st = nv_comm_agree(s.comm, st, err); /* before the collectives */
    if (st != NESVM_OK) goto out;
    /* the relative rule's scale: ||G_p(0)|| (margins 0) */
    for (int64_t i = 0; i < n; i++) {
        double q = nv_psi(s.p, thr(&s, i));
        hd[i] = s.h.c[i] * (nssvm ? q : q * nv_psi1(s.p, thr(&s, i)));
    }
    nv_hinge_xta(&s.h, hd, d);
    ssum(&s, d, D);
    const double g0 = sqrt(nv_dot(d, d, D));
    nv_hinge_start(&s.h, pb, s.z);
    nv_hinge_margins(&s.h, s.z, s.m);

    nesvm_params tp = *prm; /* the tracker reports and enforces limits; the rules are ours */
    tp.eps = -1;
    tp.eps_abs = 0;
    nv_track tr;
    nv_track_init(&tr, &tp, sink, (int32_t)D, wbest, t0);
    tr.comm = s.comm; /* the ranks stop together */
    tr.d_model = s.h.d; /* checkpoints: w and b = B w[d] */
    tr.B = s.h.B;
    double best_lower = -INFINITY, step = NAN;
    int scheme = NV_SCHEME_OPTIMAL, last_scheme = 0;
    int64_t last_cg = 0, flat = 0;
    nesvm_exit why = NESVM_EXIT_MAX_ITER;
    for (int64_t k = 0;; k++) {
        nv_ssvm_eval(&s);
        if (s.cst != NESVM_OK) {
            st = nv_error(err, s.cst, "%s", s.cerr.message);
            break;
        }
        if (!isfinite(s.f) || !isfinite(s.merit) || !isfinite(s.gnorm)) {
            why = NESVM_EXIT_NUMERIC;
            st = nv_error(err, NESVM_ERR_NUMERIC,
                          "non-finite objective at iteration %lld (check the data scale and -B)",
                          (long long)k);
            break;
        }
        if (s.lower > best_lower) best_lower = s.lower;
        nv_obj_eval e;
        memset(&e, 0, sizeof e);
        e.P = s.f;
        e.Fmu = s.merit;
        e.D = e.Dmu = best_lower;
        e.nsv = s.nsv;
        nv_track_info info = {1.0 / s.p, NAN, step, last_cg, 0, s.nJ, s.nJ0, last_scheme, s.gnorm, s.gfnorm};
        if (nv_track_iterate(&tr, &e, s.z, 0.0, &info, &st, err)) {
            why = tr.why;
            break;
        }
        /* converged: the certified gap; the paper's rule ||G_p|| < eps_abs stops
         * short of it (no certificate) */
        if (nv_track_rel(s.f - best_lower, s.f) <= prm->eps) {
            why = NESVM_EXIT_CONVERGED;
            break;
        }
        if (prm->eps_abs > 0 && s.gnorm < prm->eps_abs) {
            why = NESVM_EXIT_EPS_ABS;
            break;
        }
        st = nv_ssvm_direction(&s, prm->scheme == NV_SCHEME_OPTIMAL ? scheme : prm->scheme,
                               fmin(0.1, sqrt(s.gnorm / (g0 > 0 ? g0 : 1.0))), d, err);
        if (st != NESVM_OK) break;
        last_scheme = s.scheme_used;
        last_cg = s.cg_iters;
        /* Armijo on the merit along d, on margins m + lambda H d */
        nv_hinge_margins(&s.h, d, hd);
        int merit = prm->merit;
        double slope = nv_dot(merit == NV_MERIT_F ? s.gf : s.g, d, D);
        if (!(slope < 0)) { /* not a descent direction of f: use the smooth merit */
            merit = NV_MERIT_SMOOTH;
            slope = nv_dot(s.g, d, D);
        }
        double zz = nv_dot(s.z, s.z, D), zd = nv_dot(s.z, d, D), dd = nv_dot(d, d, D);
        double m0 = merit == NV_MERIT_F ? s.f : s.merit;
        double lam = 1.0, mt = m0;
        int ok = 0;
        /* 4 ulps of slack: near the solution the decrease is below rounding */
        for (int h = 0; h < NV_SSVM_MAX_HALVINGS && slope < 0; h++, lam *= 0.5) {
            mt = merit_at(&s, merit, s.m, lam, hd, zz + 2.0 * lam * zd + lam * lam * dd);
            if (mt <= m0 + NV_SSVM_SIGMA * lam * slope + 4e-16 * fabs(m0)) {
                ok = 1;
                break;
            }
        }
        flat = mt < m0 ? 0 : flat + 1;
        if (!ok || lam * sqrt(dd) <= 1e-16 * sqrt(zz) || flat >= 5) {
            why = NESVM_EXIT_STALLED;
            break;
        }
        step = lam;
        for (int64_t j = 0; j < D; j++) s.z[j] += lam * d[j];
        if ((k + 1) % 8 == 0)
            nv_hinge_margins(&s.h, s.z, s.m);
        else
            for (int64_t i = 0; i < n; i++) s.m[i] += lam * hd[i];
    }
    if (st == NESVM_OK) {
        res->exit_reason = why;
        res->iterations = tr.iter;
        res->primal = s.f;
        res->lower_bound = best_lower;
        st = nv_certify(s.f, best_lower, &res->gap, err);
        if (st != NESVM_OK) res->exit_reason = NESVM_EXIT_NUMERIC;
        res->n_sv = s.nsv;
        nv_hinge_result(&s.h, s.z, res->w, &res->b);
        res->dots = s.h.dots;
        res->axpys = s.h.axpys;
    }
out:
    res->seconds = nv_now() - t0;
    nv_free(d);
    nv_free(hd);
    nv_free(wbest);
    nv_ssvm_free(&s);
    nv_tube_split_free(&split);
    return st;
}

nesvm_status nv_ssvm_train(const nv_binary_problem *pb, const nesvm_params *p,
                           const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err)
{
    return train(pb, p, 0, sink, res, err);
}

nesvm_status nv_nssvm_train(const nv_binary_problem *pb, const nesvm_params *p,
                            const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err)
{
    return train(pb, p, 1, sink, res, err);
}
