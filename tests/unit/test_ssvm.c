/* test_ssvm.c - SSVM/NSSVM: the smoothing function, gradients and Newton
 * directions against finite differences and an explicit Hessian, the schemes
 * against each other, and the kernel forms against explicit features. */
#include "check.h"

#include "kernel/kernel.h"
#include "model/model_internal.h"
#include "params/params_internal.h"
#include "solvers/newton/ssvm.h"
#include "toy.h"

#define PI2 9.8696044010893586

/* ------------------------------------------------------------ psi, phi */

/* Simpson's rule for int_a^b psi_p. */
static double psi_integral(double p, double a, double b)
{
    const int N = 20000;
    double h = (b - a) / N, s = nv_psi(p, a) + nv_psi(p, b);
    for (int k = 1; k < N; k++) s += (k % 2 ? 4 : 2) * nv_psi(p, a + k * h);
    return s * h / 3;
}

static void test_psi(void)
{
    const double ps[] = {0.5, 1, 10, 1e3, 1e8};
    for (int a = 0; a < 5; a++) {
        double p = ps[a];
        /* phi(0) = pi^2 / (12 p^2) (Lemma 2's proof) */
        CHECK_REL(nv_phi(p, 0) * p * p, PI2 / 12, 1e-14);
        for (int k = -40; k <= 40; k++) {
            double t = k / (8.0 * p) + (k % 3) * 0.01; /* around the kink, on its scale */
            double h = 1e-5 * fmax(1 / p, fabs(t));
            double fd1 = (nv_psi(p, t + h) - nv_psi(p, t - h)) / (2 * h);
            double fd2 = (nv_psi1(p, t + h) - nv_psi1(p, t - h)) / (2 * h);
            double fdp = (nv_phi(p, t + h) - nv_phi(p, t - h)) / (2 * h);
            CHECK_MSG(fabs(fd1 - nv_psi1(p, t)) <= 1e-6, "psi' p %g t %g: %.12g vs %.12g", p, t, fd1,
                      nv_psi1(p, t));
            CHECK_MSG(fabs(fd2 - nv_psi2(p, t)) <= 1e-6 * p, "psi'' p %g t %g: %.12g vs %.12g", p, t,
                      fd2, nv_psi2(p, t));
            CHECK_MSG(fabs(fdp - nv_psi(p, t)) <= 1e-6 * (1 / p + fabs(t)), "phi' p %g t %g: %.12g vs %.12g",
                      p, t, fdp, nv_psi(p, t));
            /* Lemma 2 and Lemma 5 */
            double mx = t > 0 ? t : 0;
            double e2 = nv_phi(p, t) - 0.5 * mx * mx, e5 = nv_psi(p, t) * nv_psi(p, t) - mx * mx;
            CHECK_MSG(e2 >= -1e-15 * (1 + t * t) && e2 <= PI2 / (6 * p * p) * (1 + 1e-12) + 1e-15 * t * t,
                      "Lemma 2 p %g t %g: %g", p, t, e2);
            CHECK_MSG(e5 >= -1e-15 * (1 + t * t) && e5 <= 1 / (p * p) * (1 + 1e-12) + 1e-15 * t * t,
                      "Lemma 5 p %g t %g: %g", p, t, e5);
        }
        /* phi against quadrature of psi (an independent integral) */
        if (p <= 10)
            for (double t = -2; t <= 2; t += 0.5) {
                double lo = -60 / p;
                CHECK_REL(nv_phi(p, t), nv_phi(p, lo) + psi_integral(p, lo, t), 1e-10);
            }
    }
    /* no overflow for |t| up to 1e300, whatever p */
    const double big[] = {1e300, 1e200, 1e10, 700, 1e-300};
    const double pb[] = {1, 1e8, 1e300};
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 3; b++)
            for (int sg = -1; sg <= 1; sg += 2) {
                double p = pb[b], t = sg * big[a];
                double v = nv_psi(p, t), v1 = nv_psi1(p, t), v2 = nv_psi2(p, t), ph = nv_phi(p, t);
                CHECK_MSG(isfinite(v) && isfinite(v1) && isfinite(v2) && v >= 0 && v1 >= 0 && v1 <= 1 && v2 >= 0,
                          "p %g t %g: %g %g %g", p, t, v, v1, v2);
                CHECK_MSG(isfinite(ph) || t * t > 1e300, "phi p %g t %g: %g", p, t, ph);
                if (p * fabs(t) > 800) {
                    CHECK(v == (t > 0 ? t : 0));
                    CHECK(v1 == (t > 0 ? 1 : 0));
                    CHECK(v2 == 0);
                }
            }
    CHECK(nv_psi(1, 1e300) == 1e300);
    CHECK(nv_psi(1e8, -1e300) == 0);
    CHECK_REL(nv_psi(1, 0), log(2.0), 1e-15);
    CHECK_REL(nv_psi2(4, 0), 1.0, 1e-15); /* p/4 */
}

/* ------------------------------------------------------------ the engine */

static nesvm_params *params_kv(const char *const *kv)
{
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    for (int k = 0; kv && kv[k]; k += 2)
        CHECK_MSG(nesvm_params_set(p, kv[k], kv[k + 1], NULL) == NESVM_OK, "%s", kv[k]);
    nv_params_resolve(p);
    return p;
}

/* H_i = y_i [x_i, B] as an explicit n x D matrix. */
static double *explicit_h(const toy *t, double B)
{
    int64_t D = t->d + 1;
    double *H = malloc(sizeof(double) * (size_t)(t->n * D));
    for (int64_t i = 0; i < t->n; i++) {
        for (int32_t j = 0; j < t->d; j++) H[i * D + j] = t->y[i] * t->X[i * t->d + j];
        H[i * D + t->d] = t->y[i] * B;
    }
    return H;
}

/* The merit h_p (NSSVM) or f_p (SSVM) at z, from explicit H. */
static double merit_explicit(const double *H, const toy *t, const double *c, double p, int nssvm,
                             const double *z)
{
    int64_t D = t->d + 1;
    double v = 0.5 * nv_dot(z, z, D);
    for (int64_t i = 0; i < t->n; i++) {
        double r = 1 - nv_dot(H + i * D, z, D);
        v += nssvm ? c[i] * nv_phi(p, r) : 0.5 * c[i] * nv_psi(p, r) * nv_psi(p, r);
    }
    return v;
}

static void set_point(nv_ssvm *s, const double *z)
{
    memcpy(s->z, z, (size_t)s->D * sizeof(double));
    nv_hinge_margins(&s->h, s->z, s->m);
    nv_ssvm_eval(s);
}

static void test_gradients_and_directions(void)
{
    /* n > D (schemes 1-2 natural) and n < D (SMW natural), dense and CSR */
    const int64_t ns[] = {80, 12};
    const int32_t ds[] = {7, 25};
    for (int shape = 0; shape < 2; shape++)
        for (int csr = 0; csr < 2; csr++)
            for (int nssvm = 0; nssvm < 2; nssvm++) {
                toy t;
                make_toy(&t, ns[shape], ds[shape], csr, csr, 40 + (uint64_t)shape);
                const int64_t n = t.n, D = t.d + 1;
                double *c = malloc(sizeof(double) * (size_t)n);
                uint64_t rs = 7;
                for (int64_t i = 0; i < n; i++) c[i] = 0.5 + 2 * urand(&rs);
                const char *kv[] = {"smooth_p", "5", "tau", "0", "bias", "1.5", NULL};
                nesvm_params *prm = params_kv(kv);
                nv_binary_problem pb = {t.ds, NULL, n, t.y, c, NULL, 0, NULL, NV_TARGET_SIGN};
                nv_ssvm s, s2;
                CHECK(nv_ssvm_init(&s, &pb, prm, nssvm, NULL) == NESVM_OK);
                CHECK(nv_ssvm_init(&s2, &pb, prm, nssvm, NULL) == NESVM_OK);
                double *H = explicit_h(&t, 1.5);
                double *z = malloc(sizeof(double) * (size_t)D), *zp = malloc(sizeof(double) * (size_t)D);
                double *d1 = malloc(sizeof(double) * (size_t)D), *d3 = malloc(sizeof(double) * (size_t)D);
                double *dc = malloc(sizeof(double) * (size_t)D), *Bd = malloc(sizeof(double) * (size_t)D);
                for (int64_t j = 0; j < D; j++) z[j] = 0.3 * (urand(&rs) - 0.5);
                set_point(&s, z);
                /* the gradient against finite differences of the merit */
                for (int64_t j = 0; j < D; j++) {
                    double h = 1e-6;
                    memcpy(zp, z, (size_t)D * sizeof(double));
                    zp[j] += h;
                    double fp = merit_explicit(H, &t, c, 5, nssvm, zp);
                    zp[j] -= 2 * h;
                    double fm = merit_explicit(H, &t, c, 5, nssvm, zp);
                    CHECK_MSG(fabs((fp - fm) / (2 * h) - s.g[j]) <= 1e-6 * (1 + fabs(s.g[j])),
                              "grad %lld: fd %.10g vs %.10g", (long long)j, (fp - fm) / (2 * h), s.g[j]);
                }
                CHECK_REL(s.merit, merit_explicit(H, &t, c, 5, nssvm, z), 1e-12);
                /* the directions of schemes 1, 3 and CG, and B d = -g with B built
                 * here from the weights' closed forms */
                CHECK(nv_ssvm_direction(&s, NV_SCHEME_1, 0, d1, NULL) == NESVM_OK);
                CHECK(s.scheme_used == NV_SCHEME_1);
                CHECK(nv_ssvm_direction(&s, NV_SCHEME_3, 0, d3, NULL) == NESVM_OK);
                CHECK(s.scheme_used == NV_SCHEME_3);
                CHECK(nv_ssvm_direction(&s, NV_SCHEME_CG, 1e-14, dc, NULL) == NESVM_OK);
                double dn = sqrt(nv_dot(d1, d1, D));
                for (int64_t j = 0; j < D; j++) {
                    CHECK_MSG(fabs(d1[j] - d3[j]) <= 1e-10 * dn, "SMW %lld: %.15g vs %.15g", (long long)j, d3[j], d1[j]);
                    CHECK_MSG(fabs(d1[j] - dc[j]) <= 1e-10 * dn, "CG %lld: %.15g vs %.15g", (long long)j, dc[j], d1[j]);
                }
                memcpy(Bd, d1, (size_t)D * sizeof(double));
                for (int64_t i = 0; i < n; i++) {
                    double r = 1 - nv_dot(H + i * D, z, D);
                    double q = nv_psi(5, r), q1 = nv_psi1(5, r);
                    double w = c[i] * (nssvm ? q1 : q1 * q1 + q * nv_psi2(5, r));
                    double hd = nv_dot(H + i * D, d1, D);
                    for (int64_t j = 0; j < D; j++) Bd[j] += w * hd * H[i * D + j];
                }
                for (int64_t j = 0; j < D; j++) CHECK_MSG(fabs(Bd[j] + s.g[j]) <= 1e-10 * (1 + s.gnorm), "Bd+g %lld", (long long)j);
                /* the Jacobian is the derivative of the gradient: (g(z + e d) - g(z - e d)) / 2e = B d */
                double e = 1e-6;
                for (int64_t j = 0; j < D; j++) zp[j] = z[j] + e * d1[j];
                set_point(&s2, zp);
                memcpy(Bd, s2.g, (size_t)D * sizeof(double));
                for (int64_t j = 0; j < D; j++) zp[j] = z[j] - e * d1[j];
                set_point(&s2, zp);
                for (int64_t j = 0; j < D; j++)
                    CHECK_MSG(fabs((Bd[j] - s2.g[j]) / (2 * e) + s.g[j]) <= 1e-5 * (1 + s.gnorm),
                              "Jacobian fd %lld", (long long)j);
                /* scheme 2: B updated from the last one at a new point = B formed afresh */
                for (int64_t j = 0; j < D; j++) z[j] += 0.5 * d1[j];
                set_point(&s, z);
                CHECK(s.nJ0 > 0);
                CHECK(nv_ssvm_direction(&s, NV_SCHEME_2, 0, d3, NULL) == NESVM_OK);
                CHECK(s.scheme_used == NV_SCHEME_2);
                set_point(&s2, z);
                CHECK(nv_ssvm_direction(&s2, NV_SCHEME_1, 0, d1, NULL) == NESVM_OK);
                dn = sqrt(nv_dot(d1, d1, D));
                for (int64_t j = 0; j < D; j++)
                    CHECK_MSG(fabs(d1[j] - d3[j]) <= 1e-10 * dn, "scheme 2 %lld: %.15g vs %.15g", (long long)j, d3[j], d1[j]);
                /* a budget too small for the scheme's matrices is a clear error */
                s.budget = 8;
                nesvm_error err = {0};
                CHECK(nv_ssvm_direction(&s, NV_SCHEME_1, 0, d1, &err) == NESVM_ERR_NOMEM);
                CHECK_CONTAINS(err.message, "raise --kernel-memory");
                CHECK(nv_ssvm_direction(&s, NV_SCHEME_OPTIMAL, 1e-14, dc, NULL) == NESVM_OK);
                CHECK(s.scheme_used == NV_SCHEME_CG); /* optimal falls back to CG */
                for (int64_t j = 0; j < D; j++) CHECK(fabs(dc[j] - d3[j]) <= 1e-9 * dn);
                nv_ssvm_free(&s);
                nv_ssvm_free(&s2);
                nesvm_params_destroy(prm);
                free(H);
                free(z);
                free(zp);
                free(d1);
                free(d3);
                free(dc);
                free(Bd);
                free(c);
                free_toy(&t);
            }
}

/* ------------------------------------------------------------ training */

/* f at the model's sub-model 0 (positive class either label), C the paper's. */
static double sq_primal(const toy *t, const nesvm_model *m, double C)
{
    const double *w;
    double b;
    int pos;
    nesvm_model_linear(m, 0, &w, &b, &pos, NULL, NULL);
    double sg = nesvm_model_labels(m)[pos] == 1 ? 1.0 : -1.0;
    double v = 0.5 * (nv_dot(w, w, t->d) + b * b);
    for (int64_t i = 0; i < t->n; i++) {
        double f = b * sg;
        for (int32_t j = 0; j < t->d; j++) f += t->X[i * t->d + j] * w[j] * sg;
        double r = 1 - t->y[i] * f;
        if (r > 0) v += 0.5 * C * r * r;
    }
    return v;
}

static void test_schemes_same_z(void)
{
    const char *schemes[] = {"optimal", "1", "2", "3", "cg"};
    const char *ps[] = {"1e8", "10"};
    for (int csr = 0; csr < 2; csr++)
        for (int a = 0; a < 2; a++)
            for (int solver = 0; solver < 2; solver++) {
                toy t;
                make_toy(&t, 300, 10, csr, csr, 5);
                nesvm_model *ref = NULL;
                for (int k = 0; k < 5; k++) {
                    /* the smoothed problem solved tightly: the paper's rule ||G_p|| < eps_abs
                     * (ends "eps-abs": with p = 10 the unsmoothed gap stays at the smoothing
                     * error, which no certificate can hide; "converged" only where the gap
                     * reached eps) */
                    const char *kv[] = {"solver", solver ? "nssvm" : "ssvm", "smooth_p", ps[a], "scheme",
                                        schemes[k], "c", "3", "eps", "1e-15", "eps_abs", "1e-9", NULL};
                    nesvm_stats st = NESVM_STATS_INIT;
                    rec r;
                    nesvm_model *m = train_rec(t.ds, kv, &st, &r);
                    if (!m) continue;
                    CHECK_MSG(st.exit_reason == NESVM_EXIT_EPS_ABS ||
                                  (st.exit_reason == NESVM_EXIT_CONVERGED && st.gap <= 1e-15),
                              "exit %d scheme %s p %s gap %g", st.exit_reason, schemes[k], ps[a], st.gap);
                    CHECK(nesvm_model_certified(m, 0) ==
                          (st.exit_reason == NESVM_EXIT_CONVERGED ? NESVM_CERT_REACHED : NESVM_CERT_MISSED));
                    if (a == 1) CHECK_MSG(st.gap > 1e-4, "p 10: gap %g", st.gap); /* the smoothing error */
                    /* the scheme used is the one asked for (optimal: 2 or 3; 1 on the first step) */
                    for (int64_t it = 1; it < r.n; it++) {
                        int sc = r.scheme[it];
                        if (k == 0) CHECK(sc == 1 || sc == 2 || sc == 3);
                        else if (k == 2) CHECK(sc == 2 || (it == 1 && sc == 1));
                        else CHECK_MSG(sc == (k == 4 ? 4 : k), "scheme %d for %s", sc, schemes[k]);
                    }
                    CHECK(r.scheme[0] == 0);
                    /* the certificate: lower bound <= f at the end, gap tiny */
                    CHECK(st.lower_bound <= st.primal * (1 + 1e-14));
                    CHECK_REL(sq_primal(&t, m, 3), st.primal, 1e-12);
                    if (a == 0) CHECK_MSG(st.gap <= 1e-12, "gap %g", st.gap);
                    if (!ref) {
                        ref = m;
                        continue;
                    }
                    const double *w0, *w1;
                    double b0, b1;
                    nesvm_model_linear(ref, 0, &w0, &b0, NULL, NULL, NULL);
                    nesvm_model_linear(m, 0, &w1, &b1, NULL, NULL, NULL);
                    double nz = sqrt(nv_dot(w0, w0, t.d) + b0 * b0), dz = (b1 - b0) * (b1 - b0);
                    for (int32_t j = 0; j < t.d; j++) dz += (w1[j] - w0[j]) * (w1[j] - w0[j]);
                    CHECK_MSG(sqrt(dz) <= 1e-8 * nz, "scheme %s p %s: |dz| %g", schemes[k], ps[a], sqrt(dz));
                    nesvm_model_destroy(m);
                }
                nesvm_model_destroy(ref);
                free_toy(&t);
            }
}

/* the smoothing's error bounds: Theorem 1 (NSSVM) and Theorem 3 (SSVM), z*
 * from p = 1e8 (error below 1e-12 here) */
static void test_error_bounds(void)
{
    toy t;
    make_toy(&t, 200, 6, 0, 0, 9);
    const double C = 2;
    const char *kv0[] = {"solver", "nssvm", "c", "2", "eps", "1e-14", NULL};
    nesvm_stats st = NESVM_STATS_INIT;
    nesvm_model *ref = train(t.ds, kv0, &st);
    double fstar = sq_primal(&t, ref, C);
    const double *ws;
    double bs;
    nesvm_model_linear(ref, 0, &ws, &bs, NULL, NULL, NULL);
    const char *ps[] = {"0.3", "1", "3", "10", "100"};
    for (int a = 0; a < 5; a++)
        for (int nssvm = 0; nssvm < 2; nssvm++) {
            const char *kv[] = {"solver", nssvm ? "nssvm" : "ssvm", "c", "2", "smooth_p", ps[a], "eps", "1e-13", NULL};
            nesvm_model *m = train(t.ds, kv, &st);
            double p = atof(ps[a]);
            double bound = nssvm ? C * (double)t.n * PI2 / (6 * p * p) : C * (double)t.n / (2 * p * p);
            double df = sq_primal(&t, m, C) - fstar;
            const double *w;
            double b;
            nesvm_model_linear(m, 0, &w, &b, NULL, NULL, NULL);
            double dz = (b - bs) * (b - bs);
            for (int32_t j = 0; j < t.d; j++) dz += (w[j] - ws[j]) * (w[j] - ws[j]);
            CHECK_MSG(df >= -1e-10 && df <= bound, "%s p %g: f - f* = %g, bound %g", kv[1], p, df, bound);
            CHECK_MSG(dz <= bound, "%s p %g: |z - z*|^2 = %g, bound %g", kv[1], p, dz, bound);
            /* the bound is not vacuous here: small p moves the solution */
            if (a == 0) CHECK(df > 1e-6);
            nesvm_model_destroy(m);
        }
    nesvm_model_destroy(ref);
    free_toy(&t);
}

/* One-vs-rest sub-model 0 = binary training on class 0 vs the rest. */
static void test_multiclass(void)
{
    const int64_t n = 240;
    const int32_t d = 4;
    double *X = malloc(sizeof(double) * (size_t)(n * d)), *y = malloc(sizeof(double) * (size_t)n);
    double *yb = malloc(sizeof(double) * (size_t)n);
    uint64_t s = 3;
    for (int64_t i = 0; i < n; i++) {
        int c = (int)(i % 3);
        y[i] = c + 1;
        yb[i] = c == 0 ? 1 : -1;
        for (int32_t j = 0; j < d; j++) X[i * d + j] = urand(&s) + (j == c ? 1.0 : 0.0);
    }
    nesvm_dataset *ds, *dsb;
    nesvm_dataset_wrap_dense(n, d, X, y, &ds, NULL);
    nesvm_dataset_wrap_dense(n, d, X, yb, &dsb, NULL);
    const char *kv[] = {"solver", "nssvm", "multiclass", "ovr", "eps", "1e-12", NULL};
    nesvm_stats st = NESVM_STATS_INIT;
    nesvm_model *m = train(ds, kv, &st), *mb = train(dsb, kv, &st);
    CHECK(nesvm_model_submodels(m) == 3);
    const double *w, *wb;
    double b, bb;
    int pos, posb;
    nesvm_model_linear(m, 0, &w, &b, &pos, NULL, NULL);
    nesvm_model_linear(mb, 0, &wb, &bb, &posb, NULL, NULL);
    double sg = nesvm_model_labels(mb)[posb] == 1 ? 1 : -1;
    CHECK(nesvm_model_labels(m)[pos] == 1);
    for (int32_t j = 0; j < d; j++) CHECK_REL(w[j], sg * wb[j], 1e-9);
    CHECK_REL(b, sg * bb, 1e-9);
    double *pred = malloc(sizeof(double) * (size_t)n);
    CHECK(nesvm_model_predict(m, ds, 1, pred, NULL, NULL) == NESVM_OK);
    int ok = 0;
    for (int64_t i = 0; i < n; i++) ok += pred[i] == y[i];
    CHECK_MSG(ok > n * 0.7, "accuracy %d / %lld", ok, (long long)n);
    /* one-vs-one too */
    const char *kv2[] = {"solver", "ssvm", NULL};
    nesvm_model *m2 = train(ds, kv2, &st);
    CHECK(nesvm_model_submodels(m2) == 3);
    nesvm_model_destroy(m);
    nesvm_model_destroy(mb);
    nesvm_model_destroy(m2);
    nesvm_dataset_destroy(ds);
    nesvm_dataset_destroy(dsb);
    free(pred);
    free(X);
    free(y);
    free(yb);
}

/* Cholesky K = L L^T of an r x r matrix (row-major, lower L in place). */
static int naive_chol(double *K, int64_t r)
{
    for (int64_t j = 0; j < r; j++) {
        double d = K[j * r + j];
        for (int64_t q = 0; q < j; q++) d -= K[j * r + q] * K[j * r + q];
        if (!(d > 0)) return 0;
        K[j * r + j] = sqrt(d);
        for (int64_t i = j + 1; i < r; i++) {
            double v = K[i * r + j];
            for (int64_t q = 0; q < j; q++) v -= K[i * r + q] * K[j * r + q];
            K[i * r + j] = v / K[j * r + j];
        }
    }
    return 1;
}

/* The rows of a model's basis as dense rows (CSR copies: read through dot
 * products with unit vectors). */
static double *basis_dense(const nesvm_dataset *B, int64_t nb, int32_t d)
{
    double *out = malloc(sizeof(double) * (size_t)(nb * d));
    for (int64_t j = 0; j < nb; j++)
        for (int32_t q = 0; q < d; q++) {
            double e[8] = {0};
            e[q] = 1;
            out[j * d + q] = nv_row_dot(B, j, e);
        }
    return out;
}

/* The kernel forms: the model's expansion over its basis equals linear SSVM
 * on explicit features, built here from the explicit kernel (GSVM with the
 * full kernel, RSVM with a reduced one, random or greedy):
 *   kernel_norm coef  features K(x_i, basis), beta = their weights;
 *   kernel_norm rkhs  features L^-1 K(basis, x_i) with K_BB = L L^T (a naive
 *                     Cholesky here), beta = L^-T w, so that the penalty is
 *                     beta^T K_BB beta. */
static void test_kernel_forms(void)
{
    toy t;
    make_toy(&t, 150, 3, 0, 0, 21);
    const char *bases[] = {"0", "40", "40"};
    const char *select[] = {"random", "random", "greedy"};
    const char *norms[] = {"coef", "rkhs"};
    for (int a = 0; a < 3; a++)
        for (int nm = 0; nm < 2; nm++) {
            const char *kv[] = {"solver", "nssvm", "kernel", "rbf", "gamma", "0.7", "basis", bases[a],
                                "basis_select", select[a], "kernel_norm", norms[nm], "c", "5", "eps", "1e-12",
                                NULL};
            nesvm_stats st = NESVM_STATS_INIT;
            nesvm_model *m = train(t.ds, kv, &st);
            const nesvm_dataset *B = nesvm_model_basis(m);
            int64_t nb = nesvm_dataset_rows(B);
            /* coef keeps every basis row; rkhs the numerically independent ones */
            const int64_t want = a == 0 ? 150 : 40;
            CHECK_MSG(nm == 1 ? nb <= want && nb >= want / 2 : nb == want, "basis %s %s %s: %lld rows",
                      bases[a], select[a], norms[nm], (long long)nb);
            CHECK(st.basis == nb);
            nv_kernel k = {NV_KERNEL_RBF, 0.7, 0, 3};
            double *F = malloc(sizeof(double) * (size_t)(t.n * nb));
            double *Kbb = malloc(sizeof(double) * (size_t)(nb * nb));
            double *bsq = malloc(sizeof(double) * (size_t)nb), *xsq = malloc(sizeof(double) * (size_t)t.n);
            double *Bd = basis_dense(B, nb, 3);
            for (int64_t j = 0; j < nb; j++) bsq[j] = nv_dot(Bd + j * 3, Bd + j * 3, 3);
            nv_kernel_sqnorms(NULL, t.ds, NULL, t.n, xsq);
            for (int64_t i = 0; i < t.n; i++)
                for (int64_t j = 0; j < nb; j++)
                    F[i * nb + j] = nv_kernel_value(&k, nv_dot(t.X + i * 3, Bd + j * 3, 3), xsq[i], bsq[j]);
            for (int64_t i = 0; i < nb; i++)
                for (int64_t j = 0; j < nb; j++)
                    Kbb[i * nb + j] = nv_kernel_value(&k, nv_dot(Bd + i * 3, Bd + j * 3, 3), bsq[i], bsq[j]);
            if (nm == 1) {
                CHECK_MSG(naive_chol(Kbb, nb), "basis %s %s: K_BB of the kept rows not positive definite",
                          bases[a], select[a]);
                for (int64_t i = 0; i < t.n; i++) /* forward substitution: phi_i = L^-1 k_iB */
                    for (int64_t j = 0; j < nb; j++) {
                        double v = F[i * nb + j];
                        for (int64_t q = 0; q < j; q++) v -= Kbb[j * nb + q] * F[i * nb + q];
                        F[i * nb + j] = v / Kbb[j * nb + j];
                    }
                /* the Nystrom residual, sum_i 1 - ||phi_i||^2 over n (rbf: K_ii = 1) */
                double res = 0;
                for (int64_t i = 0; i < t.n; i++) res += 1 - nv_dot(F + i * nb, F + i * nb, nb);
                res /= (double)t.n;
                CHECK_MSG(fabs(st.basis_residual - res) <= 1e-9, "basis %s %s: residual %g, explicit %g",
                          bases[a], select[a], st.basis_residual, res);
            } else {
                CHECK(isnan(st.basis_residual));
            }
            nesvm_dataset *fd;
            nesvm_dataset_wrap_dense(t.n, (int32_t)nb, F, t.y, &fd, NULL);
            const char *kvl[] = {"solver", "nssvm", "c", "5", "eps", "1e-12", NULL};
            nesvm_model *ml = train(fd, kvl, &st);
            const double *beta, *w;
            double b, bl;
            int64_t cnt;
            nesvm_model_expansion(m, 0, &beta, &cnt, &b, NULL, NULL, NULL);
            nesvm_model_linear(ml, 0, &w, &bl, NULL, NULL, NULL);
            CHECK(cnt == nb);
            /* the model's weights on the features: beta (coef) or L^T beta (rkhs) */
            double nz = sqrt(nv_dot(w, w, nb) + bl * bl), dz = (b - bl) * (b - bl);
            for (int64_t j = 0; j < nb; j++) {
                double v = beta[j];
                if (nm == 1) {
                    v = 0;
                    for (int64_t q = j; q < nb; q++) v += Kbb[q * nb + j] * beta[q];
                }
                dz += (v - w[j]) * (v - w[j]);
            }
            CHECK_MSG(sqrt(dz) <= 1e-8 * nz, "basis %s %s %s: |dz| %g of %g", bases[a], select[a], norms[nm],
                      sqrt(dz), nz);
            /* predictions through the model's kernel path equal the features' */
            double *d1 = malloc(sizeof(double) * (size_t)t.n), *d2 = malloc(sizeof(double) * (size_t)t.n);
            double *l1 = malloc(sizeof(double) * (size_t)t.n);
            CHECK(nesvm_model_predict(m, t.ds, 1, l1, d1, NULL) == NESVM_OK);
            CHECK(nesvm_model_predict(ml, fd, 1, l1, d2, NULL) == NESVM_OK);
            double worst = 0;
            for (int64_t i = 0; i < t.n; i++) worst = fmax(worst, fabs(d1[i] - d2[i]) / (1 + fabs(d2[i])));
            CHECK_MSG(worst <= 1e-8, "basis %s %s %s: decision values differ by %g", bases[a], select[a],
                      norms[nm], worst);
            free(d1);
            free(d2);
            free(l1);
            free(Bd);
            free(F);
            free(Kbb);
            free(bsq);
            free(xsq);
            nesvm_dataset_destroy(fd);
            nesvm_model_destroy(ml);
            nesvm_model_destroy(m);
        }
    free_toy(&t);
}

/* The automatic basis (ssvm/nssvm, basis auto, kernel_norm rkhs): sizes
 * 0.1 n clipped to [100, 1000], then doubled (the full kernel once that
 * reaches n), the first whose Nystrom residual, computed here from the
 * explicit kernel on that size's basis, is at most basis_residual; and the
 * last size that fits kernel_memory when none is. */
static double explicit_residual(const toy *t, const nv_kernel *k, const int64_t *basis, int64_t r)
{
    double *Kbb = malloc(sizeof(double) * (size_t)(r * r)), *kb = malloc(sizeof(double) * (size_t)r);
    for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < r; j++)
            Kbb[i * r + j] = nv_kernel_value(k, nv_dot(t->X + basis[i] * t->d, t->X + basis[j] * t->d, t->d),
                                             nv_dot(t->X + basis[i] * t->d, t->X + basis[i] * t->d, t->d),
                                             nv_dot(t->X + basis[j] * t->d, t->X + basis[j] * t->d, t->d));
    CHECK(naive_chol(Kbb, r));
    double res = 0;
    for (int64_t i = 0; i < t->n; i++) {
        const double *x = t->X + i * t->d, sx = nv_dot(x, x, t->d);
        for (int64_t j = 0; j < r; j++) {
            const double *z = t->X + basis[j] * t->d;
            double v = nv_kernel_value(k, nv_dot(x, z, t->d), sx, nv_dot(z, z, t->d));
            for (int64_t q = 0; q < j; q++) v -= Kbb[j * r + q] * kb[q];
            kb[j] = v / Kbb[j * r + j];
        }
        res += 1 - nv_dot(kb, kb, r);
    }
    free(Kbb);
    free(kb);
    return res / (double)t->n;
}

static void test_auto_basis(void)
{
    toy t;
    make_toy(&t, 700, 5, 0, 0, 77);
    nv_kernel k = {NV_KERNEL_RBF, 1.0, 0, 3};
    /* the sizes auto tries on 700 rows: 100, 200, 400, then the full kernel */
    const int64_t sizes[] = {100, 200, 400, 0};
    double res[4];
    for (int a = 0; a < 4; a++) {
        nv_kfeat f;
        CHECK(nv_kfeat_build(&k, t.ds, NULL, t.n, sizes[a], 1, NV_BASIS_RANDOM, 5, 100, 1, &f, NULL) ==
              NESVM_OK);
        res[a] = a == 3 ? 0 : explicit_residual(&t, &k, f.basis, f.r);
        if (a < 3) CHECK_MSG(fabs(nv_kfeat_residual(&f, t.ds, NULL, t.n) - res[a]) <= 1e-9, "size %lld: %g vs %g",
                             (long long)sizes[a], nv_kfeat_residual(&f, t.ds, NULL, t.n), res[a]);
        nv_kfeat_free(&f);
    }
    /* the data must make the rule choose every size for some tolerance */
    CHECK_MSG(res[0] > res[1] && res[1] > res[2] && res[2] > 1e-3, "residuals %g %g %g", res[0], res[1], res[2]);
    for (int a = 0; a < 4; a++) {
        /* a tolerance between this size's residual and the previous one's */
        double tol = a == 0 ? 1.0 : a == 3 ? res[2] / 2 : sqrt(res[a] * res[a - 1]);
        char tb[32];
        snprintf(tb, sizeof tb, "%.17g", tol);
        const char *kv[] = {"solver", "nssvm", "kernel", "rbf", "gamma", "1", "seed", "5", "basis_residual", tb,
                            "c", "5", NULL};
        nesvm_stats st = NESVM_STATS_INIT;
        nesvm_model *m = train(t.ds, kv, &st);
        const int64_t want = a == 3 ? t.n : sizes[a];
        CHECK_MSG(st.basis_sizes == a + 1, "tol %g: %d sizes, expected %d", tol, st.basis_sizes, a + 1);
        CHECK_MSG(a == 3 ? st.basis <= t.n && st.basis > sizes[2] : st.basis == want,
                  "tol %g: basis %lld, expected %lld", tol, (long long)st.basis, (long long)want);
        CHECK_MSG(a == 3 ? st.basis_residual <= 1e-6 : fabs(st.basis_residual - res[a]) <= 1e-9,
                  "tol %g: residual %g, expected %g", tol, st.basis_residual, a == 3 ? 0 : res[a]);
        CHECK(st.basis_capped == 0);
        /* the model's basis size is recorded as its param basis */
        CHECK_MSG(m->params->basis == (a == 3 ? 0 : want), "param basis %lld", (long long)m->params->basis);
        nesvm_model_destroy(m);
    }
    /* kernel_memory that holds 200 basis rows (700 x 200 + 200^2 doubles =
     * 1.4 MB) but not 400 (3.5 MB): growth stops at 200, capped */
    {
        const char *kv[] = {"solver", "nssvm", "kernel", "rbf", "gamma", "1", "seed", "5", "basis_residual",
                            "1e-9", "kernel_memory", "2", "c", "5", NULL};
        nesvm_stats st = NESVM_STATS_INIT;
        nesvm_model *m = train(t.ds, kv, &st);
        CHECK_MSG(st.basis == 200 && st.basis_capped == 1 && st.basis_sizes == 2, "basis %lld capped %d sizes %d",
                  (long long)st.basis, st.basis_capped, st.basis_sizes);
        nesvm_model_destroy(m);
    }
    /* an explicit --basis, and the coefficient norm, do not grow */
    {
        const char *kv[] = {"solver", "ssvm", "kernel", "rbf", "gamma", "1", "seed", "5", "basis", "100", "c", "5",
                            NULL};
        nesvm_stats st = NESVM_STATS_INIT;
        nesvm_model *m = train(t.ds, kv, &st);
        CHECK(st.basis == 100 && st.basis_sizes == 1 && fabs(st.basis_residual - res[0]) <= 1e-9);
        nesvm_model_destroy(m);
        const char *kc[] = {"solver", "ssvm", "kernel", "rbf", "gamma", "1", "seed", "5", "kernel_norm", "coef",
                            "c", "5", NULL};
        st = (nesvm_stats)NESVM_STATS_INIT;
        m = train(t.ds, kc, &st);
        CHECK(st.basis == 100 && st.basis_sizes == 1 && isnan(st.basis_residual));
        nesvm_model_destroy(m);
    }
    free_toy(&t);
}

/* The greedy basis: the residual of the Nystrom approximation on the
 * training rows is at most the random basis's, and the first pivot is the
 * row with the largest K(x, x) (any, for rbf: the lowest index). */
static void test_greedy_basis(void)
{
    toy t;
    make_toy(&t, 200, 2, 0, 0, 33);
    nv_kernel k = {NV_KERNEL_RBF, 2.0, 0, 3};
    double tr[2];
    for (int sel = 0; sel < 2; sel++) {
        nv_kfeat f;
        CHECK(nv_kfeat_build(&k, t.ds, NULL, t.n, 20, 1, sel, 3, 100, 1, &f, NULL) == NESVM_OK);
        /* trace of K - Phi Phi^T: sum_i 1 - ||phi_i||^2 */
        tr[sel] = 0;
        for (int64_t i = 0; i < t.n; i++) tr[sel] += 1 - nv_dot(f.phi + i * f.r, f.phi + i * f.r, f.r);
        if (sel == NV_BASIS_GREEDY) CHECK(f.basis[0] == 0);
        nv_kfeat_free(&f);
    }
    CHECK_MSG(tr[NV_BASIS_GREEDY] < tr[NV_BASIS_RANDOM], "greedy %g random %g", tr[1], tr[0]);
    free_toy(&t);
    /* a smooth kernel on 3 features: greedy stops before 40 pivots only when
     * every residual K_ii - ||phi_i||^2 is at rounding level */
    make_toy(&t, 150, 3, 0, 0, 21);
    k.gamma = 0.7;
    nv_kfeat f;
    CHECK(nv_kfeat_build(&k, t.ds, NULL, t.n, 40, 1, NV_BASIS_GREEDY, 3, 100, 1, &f, NULL) == NESVM_OK);
    double worst = 0;
    for (int64_t i = 0; i < t.n; i++) worst = fmax(worst, 1 - nv_dot(f.phi + i * f.r, f.phi + i * f.r, f.r));
    CHECK_MSG(f.r == 40 || worst <= 1e-10, "greedy kept %lld, worst residual %g", (long long)f.r, worst);
    nv_kfeat_free(&f);
    free_toy(&t);
}

/* The greedy basis equals sequential greedy pivoting computed here naively
 * from the explicit kernel matrix (largest residual diagonal, lowest index on
 * ties; residuals <= 1e-12 of the largest diagonal end it). */
static void test_greedy_is_greedy(void)
{
    const int64_t sizes[] = {20, 45, 90};
    for (int a = 0; a < 3; a++) {
        toy t;
        make_toy(&t, 150, 3, 0, 0, 50 + (uint64_t)a);
        nv_kernel k = {NV_KERNEL_RBF, 0.3, 0, 3};
        const int64_t n = t.n, m = sizes[a];
        double *K = malloc(sizeof(double) * (size_t)(n * n)), *sq = malloc(sizeof(double) * (size_t)n);
        double *L = calloc((size_t)(n * m), sizeof(double)), *res = malloc(sizeof(double) * (size_t)n);
        int64_t *piv = malloc(sizeof(int64_t) * (size_t)m);
        nv_kernel_sqnorms(NULL, t.ds, NULL, n, sq);
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++)
                K[i * n + j] = nv_kernel_value(&k, nv_dot(t.X + i * 3, t.X + j * 3, 3), sq[i], sq[j]);
        double dmax = 0;
        for (int64_t i = 0; i < n; i++) dmax = fmax(dmax, res[i] = K[i * n + i]);
        int64_t r = 0;
        for (; r < m; r++) {
            int64_t p = -1;
            for (int64_t i = 0; i < n; i++)
                if (res[i] > 1e-12 * dmax && (p < 0 || res[i] > res[p])) p = i;
            if (p < 0) break;
            piv[r] = p;
            double inv = 1 / sqrt(res[p]);
            for (int64_t i = 0; i < n; i++) {
                double v = K[i * n + p];
                for (int64_t q = 0; q < r; q++) v -= L[i * m + q] * L[p * m + q];
                L[i * m + r] = v * inv;
            }
            for (int64_t i = 0; i < n; i++) res[i] -= L[i * m + r] * L[i * m + r];
            res[p] = 0;
        }
        nv_kfeat f;
        CHECK(nv_kfeat_build(&k, t.ds, NULL, n, m, 0, NV_BASIS_GREEDY, 1, 100, 1, &f, NULL) == NESVM_OK);
        CHECK_MSG(f.r == r, "m %lld: %lld pivots, naive %lld", (long long)m, (long long)f.r, (long long)r);
        /* the same set (f.basis is sorted) */
        int same = f.r == r;
        for (int64_t q = 0; q < r && same; q++) {
            int hit = 0;
            for (int64_t e = 0; e < f.r; e++) hit |= f.basis[e] == piv[q];
            same = hit;
        }
        CHECK_MSG(same, "m %lld: greedy basis differs from sequential greedy pivoting", (long long)m);
        nv_kfeat_free(&f);
        free(K);
        free(sq);
        free(L);
        free(res);
        free(piv);
        free_toy(&t);
    }
}

int main(void)
{
    test_psi();
    test_gradients_and_directions();
    test_schemes_same_z();
    test_error_bounds();
    test_multiclass();
    test_kernel_forms();
    test_auto_basis();
    test_greedy_basis();
    test_greedy_is_greedy();
    CHECK_DONE();
}
