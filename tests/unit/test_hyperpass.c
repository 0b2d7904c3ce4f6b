/* test_hyperpass.c - Hyperpass's QP, exact line search, certificate, shrinking; Pegasos. */
#include "check.h"

#include "core/internal.h"
#include "solvers/hyperpass/hpqp.h"
#include "solvers/hyperpass/hpline.h"
#include "toy.h"
#include "dense_solve.h"

#include <stdlib.h>


/* ------------------------------------------------------------------- QP */

static double qp_value(int n, const double *Q, const double *r, const double *b)
{
    double v = 0;
    for (int a = 0; a < n; a++) {
        double t = 0;
        for (int c = 0; c < n; c++) t += Q[c * n + a] * b[c];
        v += b[a] * (0.5 * t - r[a]);
    }
    return v;
}

/* Constraint k of the QP as a row g (n entries) and right side h. */
static void qp_row(int K, int k, double *g, double *h, const double *c)
{
    const int n = K + 3;
    memset(g, 0, (size_t)n * sizeof *g);
    *h = 0;
    if (k < n) g[k] = -1; /* beta_k >= 0 */
    else if (k < n + K) { /* alpha_i - c_i gamma_3 <= 0 */
        g[k - n] = 1;
        g[n - 1] = -c[k - n];
    } else { /* gamma sum <= 1 */
        g[n - 3] = g[n - 2] = g[n - 1] = 1;
        *h = 1;
    }
}

/* Brute force: the minimizer on every face (equality-constrained KKT
 * system), the best feasible one.  Q positive definite. */
static double qp_brute(int K, const double *Q, const double *r, const double *c, double *best)
{
    const int n = K + 3, m = 2 * K + 4;
    double bestv = INFINITY;
    double g[16], h, A[32 * 32], rhs[32], x[16];
    for (unsigned mask = 0; mask < (1u << m); mask++) {
        int na = 0;
        for (int k = 0; k < m; k++) na += (mask >> k) & 1;
        if (na > n) continue;
        const int N = n + na;
        memset(A, 0, sizeof A);
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) A[a * N + b] = Q[b * n + a];
            rhs[a] = r[a];
        }
        int row = n;
        for (int k = 0; k < m; k++) {
            if (!((mask >> k) & 1)) continue;
            qp_row(K, k, g, &h, c);
            for (int a = 0; a < n; a++) A[row * N + a] = A[a * N + row] = g[a];
            rhs[row] = h;
            row++;
        }
        if (!dense_solve(N, A, rhs)) continue;
        memcpy(x, rhs, (size_t)n * sizeof *x);
        int feas = 1;
        for (int k = 0; k < m && feas; k++) {
            qp_row(K, k, g, &h, c);
            double gx = 0;
            for (int a = 0; a < n; a++) gx += g[a] * x[a];
            feas = gx <= h + 1e-10;
        }
        if (!feas) continue;
        double v = qp_value(n, Q, r, x);
        if (v < bestv) {
            bestv = v;
            memcpy(best, x, (size_t)n * sizeof *x);
        }
    }
    return bestv;
}

static void random_qp(uint64_t *s, int K, int d, double *Q, double *r, double *c)
{
    const int n = K + 3;
    static double A[80 * 80];
    for (int j = 0; j < n; j++)
        for (int t = 0; t < d; t++) A[j * d + t] = 2 * urand(s) - 1;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double v = 0;
            for (int t = 0; t < d; t++) v += A[a * d + t] * A[b * d + t];
            Q[b * n + a] = v;
        }
    for (int i = 0; i < K; i++) {
        r[i] = 1;
        c[i] = 0.1 + 2 * urand(s);
    }
    for (int j = K; j < n; j++) r[j] = 3 * urand(s) - 1;
}

static int feasible(int K, const double *b, const double *c)
{
    const int n = K + 3;
    double gs = 0;
    for (int j = 0; j < n; j++)
        if (b[j] < 0) return 0;
    for (int j = K; j < n; j++) gs += b[j];
    if (gs > 1 + 1e-15) return 0;
    for (int i = 0; i < K; i++)
        if (b[i] > c[i] * b[n - 1] * (1 + 1e-15)) return 0;
    return 1;
}

static void test_qp(void)
{
    uint64_t s = 7;
    double Q[70 * 70], r[70], c[70], beta[70], bb[70];
    int worst_brute = 0;
    for (int trial = 0; trial < 200; trial++) {
        int K = trial % 4, n = K + 3;
        random_qp(&s, K, n + 2, Q, r, c); /* d > n: Q positive definite */
        CHECK(nv_hpqp_solve(K, Q, r, c, beta, NULL) == NESVM_OK);
        CHECK(feasible(K, beta, c));
        double vb = qp_brute(K, Q, r, c, bb), vs = qp_value(n, Q, r, beta);
        double scale = 1 + fabs(vb);
        if (!(fabs(vs - vb) <= 1e-10 * scale)) worst_brute++;
        CHECK_MSG(fabs(vs - vb) <= 1e-10 * scale, "trial %d K %d: %.17g vs brute force %.17g", trial, K, vs, vb);
        for (int j = 0; j < n; j++) CHECK_MSG(fabs(beta[j] - bb[j]) <= 1e-7 * (1 + fabs(bb[j])),
                                              "trial %d beta[%d] %.17g vs %.17g", trial, j, beta[j], bb[j]);
    }
    (void)worst_brute;
    /* larger and singular instances (d < n): the closed-form optimality defect */
    for (int trial = 0; trial < 60; trial++) {
        int K = 5 + trial, n = K + 3, d = trial % 2 ? 3 : n + 5;
        random_qp(&s, K, d, Q, r, c);
        CHECK(nv_hpqp_solve(K, Q, r, c, beta, NULL) == NESVM_OK);
        CHECK(feasible(K, beta, c));
        double q = 0;
        for (int a = 0; a < n * n; a++) q = fmax(q, fabs(Q[a]));
        CHECK_MSG(nv_hpqp_defect(K, Q, r, c, beta) <= 1e-9 * (q + 3), "trial %d K %d d %d: defect %g", trial,
                  K, d, nv_hpqp_defect(K, Q, r, c, beta));
    }
    /* the defect is a real test: a feasible non-optimal point has one */
    random_qp(&s, 2, 7, Q, r, c);
    double zero[5] = {0, 0, 0, 0, 0};
    nv_hpqp_solve(2, Q, r, c, beta, NULL);
    CHECK(qp_value(5, Q, r, beta) < qp_value(5, Q, r, zero) - 1e-9 ? nv_hpqp_defect(2, Q, r, c, zero) > 1e-9 : 1);
}

/* ---------------------------------------------------------- line search */

static double phi(int64_t n, const double *m, const double *dl, const double *c, double A, double Bq,
                  double eta)
{
    double v = A * eta + 0.5 * Bq * eta * eta;
    for (int64_t i = 0; i < n; i++) {
        double t = 1 - m[i] - eta * dl[i];
        if (t > 0) v += c[i] * t;
    }
    return v;
}

static void test_line_search(void)
{
    uint64_t s = 11;
    enum { N = 60 };
    double m[N], dl[N], c[N], he[N];
    int64_t hi[N], kink;
    for (int trial = 0; trial < 300; trial++) {
        for (int i = 0; i < N; i++) {
            m[i] = i % 7 == 0 ? 1.0 : 4 * urand(&s) - 1.5; /* some exactly on the margin */
            dl[i] = i % 11 == 0 ? 0.0 : 4 * urand(&s) - 2;
            c[i] = 0.1 + urand(&s);
        }
        if (trial % 3 == 0) { /* ties: several samples share one breakpoint */
            for (int i = 1; i < 6; i++) {
                m[i] = 0.5;
                dl[i] = 0.5;
            }
        }
        double Bq = 0.01 + 3 * urand(&s), A = -20 * urand(&s);
        double eta = nv_hp_line_search(N, NULL, m, dl, c, A, Bq, he, hi, &kink, NULL);
        CHECK(eta >= 0);
        double f = phi(N, m, dl, c, A, Bq, eta), top = 3 * eta + 2, fmin = INFINITY;
        for (int k = 0; k <= 20000; k++) fmin = fmin < phi(N, m, dl, c, A, Bq, top * k / 20000) ? fmin : phi(N, m, dl, c, A, Bq, top * k / 20000);
        CHECK_MSG(f <= fmin + 1e-12 * (1 + fabs(fmin)), "trial %d: phi(eta*) %.17g > scan %.17g", trial, f, fmin);
        /* one-sided derivatives: phi'(eta+) >= 0 >= phi'(eta-) */
        double h = 1e-7 * (1 + eta);
        CHECK_MSG(phi(N, m, dl, c, A, Bq, eta + h) >= f - 1e-9 * h, "trial %d: right slope", trial);
        if (eta > h) CHECK_MSG(phi(N, m, dl, c, A, Bq, eta - h) >= f - 1e-9 * h, "trial %d: left slope", trial);
        if (kink >= 0) /* the minimizer is that sample's breakpoint: it lands on its margin */
            CHECK_MSG(fabs(m[kink] + eta * dl[kink] - 1) <= 1e-12, "trial %d: kink sample margin %.17g", trial,
                      m[kink] + eta * dl[kink]);
    }
    /* a minimizer exactly at a tied breakpoint: phi'(1-) < 0 < phi'(1+) */
    double m2[3] = {0.5, 0.5, 3}, d2[3] = {0.5, 0.5, 0}, c2[3] = {1, 1, 1};
    double eta = nv_hp_line_search(3, NULL, m2, d2, c2, 0.25, 0.25, he, hi, &kink, NULL);
    CHECK_REL(eta, 1.0, 1e-15);
    CHECK(kink == 0 || kink == 1);
    /* the tolerance that makes a sample part of L_A */
    CHECK(nv_hp_on_margin(1.0));
    CHECK(nv_hp_on_margin(1.0 + 0.5 * NV_HP_MARGIN_TOL) && nv_hp_on_margin(1.0 - 0.5 * NV_HP_MARGIN_TOL));
    CHECK(!nv_hp_on_margin(1.0 + 2 * NV_HP_MARGIN_TOL) && !nv_hp_on_margin(1.0 - 2 * NV_HP_MARGIN_TOL));
    /* no descent: eta = 0 */
    double m3[2] = {2, 2}, d3[2] = {1, 1}, c3[2] = {1, 1};
    CHECK(nv_hp_line_search(2, NULL, m3, d3, c3, 1.0, 1.0, he, hi, &kink, NULL) == 0.0);
}

/* ------------------------------------------------------------- solvers */

/* P of sub-model 0 of m (whose positive class may be either label). */
static double primal_of(const toy *t, const nesvm_model *m, double B, double C)
{
    const double *w;
    double b;
    int pos;
    nesvm_model_linear(m, 0, &w, &b, &pos, NULL, NULL);
    double sg = nesvm_model_labels(m)[pos] == 1 ? 1.0 : -1.0;
    double v = 0.5 * nv_dot(w, w, t->d) + (B > 0 ? 0.5 * (b / B) * (b / B) : 0);
    for (int64_t i = 0; i < t->n; i++) {
        double f = b * sg;
        for (int32_t j = 0; j < t->d; j++) f += t->X[i * t->d + j] * w[j] * sg;
        double r = 1 - t->y[i] * f;
        if (r > 0) v += C * r;
    }
    return v;
}

static void test_certificate_and_shrinking(void)
{
    /* dense values stored dense, the same stored as CSR, and a sparse set:
     * on it the lower bound's minimizer stays too far from the iterate for a
     * ball (it would hold more than half the samples), so shrinking only has to
     * cost nothing there */
    for (int kind = 0; kind < 3; kind++) {
        toy t;
        const int sparse = kind == 2;
        make_toy(&t, sparse ? 4000 : 1500, sparse ? 60 : 20, sparse, kind > 0, 3 + (uint64_t)sparse);
        /* reference: NESVM without a bias, to 1e-11 */
        nesvm_stats sr = NESVM_STATS_INIT, s1 = NESVM_STATS_INIT, s0 = NESVM_STATS_INIT;
        const char *ref[] = {"bias", "0", "c", "0.5", "eps", "1e-11", NULL};
        nesvm_model *mr = train(t.ds, ref, &sr);
        const char *on[] = {"solver", "hyperpass", "c", "0.5", "eps", "1e-4", "shrinking", "1", NULL};
        const char *off[] = {"solver", "hyperpass", "c", "0.5", "eps", "1e-4", "shrinking", "0", NULL};
        static rec r1, r0;
        nesvm_model *m1 = train_rec(t.ds, on, &s1, &r1), *m0 = train_rec(t.ds, off, &s0, &r0);
        /* every lower bound on the way is one (a ball's linear part must be exact) */
        for (int64_t k = 0; k < r1.n; k++)
            CHECK_MSG(r1.lb[k] <= sr.primal * (1 + 1e-13), "kind %d iteration %lld: bound %.17g > P* %.17g", kind,
                      (long long)k + 1, r1.lb[k], sr.primal);
        /* each P is that of an actual iterate and the line search never goes
         * up: a ball whose linear part is wrong shows as a jump when the ball
         * changes */
        for (int64_t k = 1; k < r1.n; k++)
            CHECK_MSG(r1.P[k] <= r1.P[k - 1] * (1 + 1e-12) && r1.P[k] >= sr.lower_bound * (1 - 1e-13),
                      "kind %d iteration %lld: P %.17g after %.17g (P* >= %.17g)", kind, (long long)k + 1, r1.P[k],
                      r1.P[k - 1], sr.lower_bound);
        /* shrinking changes which products are computed, not the iterates:
         * the same primal values until rounding differences grow */
        int64_t same = 0, close = 0;
        while (same < r1.n && same < r0.n && fabs(r1.P[same] - r0.P[same]) <= 1e-9 * r0.P[same]) same++;
        while (close < r1.n && close < r0.n && fabs(r1.P[close] - r0.P[close]) <= 1e-6 * r0.P[close]) close++;
        printf("kind %d: within 1e-6 for %lld iterations\n", kind, (long long)close);
        printf("kind %d: the same iterates for %lld of %lld iterations\n", kind, (long long)same, (long long)r0.n);
        CHECK_MSG(same >= 20, "kind %d: shrinking changes the iterates at iteration %lld", kind, (long long)same + 1);
        /* v <= P* <= P: the reference's primal bounds v, its lower bound bounds P */
        CHECK_MSG(s1.lower_bound <= sr.primal * (1 + 1e-13), "lower bound %.17g > P* %.17g", s1.lower_bound, sr.primal);
        CHECK_MSG(s1.primal >= sr.lower_bound * (1 - 1e-13), "primal %.17g < reference bound %.17g", s1.primal, sr.lower_bound);
        CHECK(s1.gap <= 1e-4 && s0.gap <= 1e-4);
        CHECK(s1.exit_reason == NESVM_EXIT_CONVERGED);
        /* the reported primal is the model's */
        const double *w1, *w0;
        double b1, b0;
        nesvm_model_linear(m1, 0, &w1, &b1, NULL, NULL, NULL);
        nesvm_model_linear(m0, 0, &w0, &b0, NULL, NULL, NULL);
        CHECK(b1 == 0 && b0 == 0);
        CHECK_REL(primal_of(&t, m1, 0, 0.5), s1.primal, 1e-12);
        /* shrinking: the same w with fewer row products */
        double dn = 0, wn = 0;
        for (int32_t j = 0; j < t.d; j++) {
            dn += (w1[j] - w0[j]) * (w1[j] - w0[j]);
            wn += w0[j] * w0[j];
        }
        CHECK_MSG(sqrt(dn / wn) <= 1e-8, "kind %d: shrinking changes w by %g", kind, sqrt(dn / wn));
        if (sparse)
            CHECK_MSG(s1.dots < 1.1 * (double)s0.dots, "sparse: shrinking %lld row products, without %lld",
                      (long long)s1.dots, (long long)s0.dots);
        else
            CHECK_MSG(s1.dots < s0.dots / 2, "kind %d: shrinking %lld row products, without %lld", kind,
                      (long long)s1.dots, (long long)s0.dots);
        printf("kind %d: gaps %.3g / %.3g, %lld / %lld iterations, %.1f / %.1f products per row (shrinking on / off)\n", kind, s1.gap, s0.gap,
               (long long)s1.iterations, (long long)s0.iterations, (double)s1.dots / t.n, (double)s0.dots / t.n);
        /* Pegasos's warm start reaches the same optimum */
        nesvm_stats sw = NESVM_STATS_INIT;
        const char *warm[] = {"solver", "hyperpass", "c", "0.5", "eps", "1e-4", "warm_start", "pegasos:5", NULL};
        nesvm_model *mw = train(t.ds, warm, &sw);
        CHECK(sw.lower_bound <= sr.primal * (1 + 1e-13) && sw.gap <= 1e-4);
        nesvm_model_destroy(mw);
        nesvm_model_destroy(mr);
        nesvm_model_destroy(m1);
        nesvm_model_destroy(m0);
        free_toy(&t);
    }
}

/* -B b: a constant feature b, regularized: the same as training without a
 * bias on [X, b] (b = B w_{d+1}). */
static void test_bias_feature(void)
{
    toy t, ta;
    make_toy(&t, 600, 6, 0, 0, 9);
    memset(&ta, 0, sizeof ta);
    ta.n = t.n;
    ta.d = t.d + 1;
    ta.X = malloc(sizeof(double) * (size_t)(ta.n * ta.d));
    ta.y = malloc(sizeof(double) * (size_t)ta.n);
    for (int64_t i = 0; i < t.n; i++) {
        for (int32_t j = 0; j < t.d; j++) ta.X[i * ta.d + j] = t.X[i * t.d + j];
        ta.X[i * ta.d + t.d] = 2.0;
        ta.y[i] = t.y[i];
    }
    nesvm_dataset_wrap_dense(ta.n, ta.d, ta.X, ta.y, &ta.ds, NULL);
    nesvm_stats s1 = NESVM_STATS_INIT, s2 = NESVM_STATS_INIT;
    const char *b2[] = {"solver", "hyperpass", "c", "1", "eps", "1e-9", "bias", "2", NULL};
    const char *nb[] = {"solver", "hyperpass", "c", "1", "eps", "1e-9", NULL};
    nesvm_model *m1 = train(t.ds, b2, &s1), *m2 = train(ta.ds, nb, &s2);
    const double *w1, *w2;
    double b1, bb2;
    nesvm_model_linear(m1, 0, &w1, &b1, NULL, NULL, NULL);
    nesvm_model_linear(m2, 0, &w2, &bb2, NULL, NULL, NULL);
    for (int32_t j = 0; j < t.d; j++) CHECK_REL(w1[j], w2[j], 1e-7);
    CHECK_REL(b1, 2.0 * w2[t.d], 1e-7);
    CHECK(bb2 == 0);
    CHECK_REL(s1.primal, s2.primal, 1e-10);
    CHECK_REL(primal_of(&t, m1, 2.0, 1.0), s1.primal, 1e-12);
    /* the default for hyperpass is no bias; the model records bias -1 */
    nesvm_model_destroy(m1);
    nesvm_model_destroy(m2);
    free_toy(&t);
    free_toy(&ta);
}

/* Pegasos within 1e-2 of P* in the passes its theory needs: for f =
 * lambda/2||w||^2 + mean hinge with ||z_i|| <= R, Theorem 1 of Shalev-Shwartz
 * et al. bounds the error after T steps by (sqrt(lambda) + R)^2 (1 + ln T) /
 * (lambda T) for T steps (mini-batches of 50 here: 10 steps per pass). */
static void test_pegasos(void)
{
    toy t;
    make_toy(&t, 500, 5, 0, 0, 21);
    const double lambda = 0.002;
    double R = 0;
    for (int64_t i = 0; i < t.n; i++) R = fmax(R, sqrt(nv_dot(t.X + i * t.d, t.X + i * t.d, t.d)));
    nesvm_stats sr = NESVM_STATS_INIT, sp = NESVM_STATS_INIT;
    const char *ref[] = {"bias", "0", "lambda", "0.002", "eps", "1e-10", NULL};
    nesvm_model *mr = train(t.ds, ref, &sr);
    double fstar = sr.primal * lambda, eps = 1e-2 * fstar, G = (sqrt(lambda) + R) * (sqrt(lambda) + R);
    int64_t T = 1;
    while (G * (1 + log((double)T)) / (lambda * (double)T) > eps) T++;
    char maxit[32];
    int64_t passes = (T + 9) / 10; /* batches of 50 of 500 rows: 10 steps per pass */
    snprintf(maxit, sizeof maxit, "%lld", (long long)passes);
    const char *pg[] = {"solver", "pegasos", "lambda", "0.002", "eps", "1e-2", "batch", "50", "max_iter", maxit, NULL};
    nesvm_model *mp = train(t.ds, pg, &sp);
    printf("pegasos: %lld passes (theory: %lld), P %.10g, P* %.10g\n", (long long)sp.iterations,
           (long long)passes, sp.primal, sr.primal);
    CHECK(sp.iterations <= passes);
    CHECK_MSG(sp.primal <= sr.primal * (1 + 1e-2), "pegasos P %.17g vs P* %.17g", sp.primal, sr.primal);
    CHECK(sp.lower_bound <= sr.primal * (1 + 1e-13));
    CHECK(sp.exit_reason == NESVM_EXIT_CONVERGED);
    nesvm_model_destroy(mr);
    nesvm_model_destroy(mp);
    free_toy(&t);
}

/* Pegasos's projection: after one step from 0 every sample is a violator, so
 * w = (n/k) sum_batch c_i y_i z_i; with a large C it is far outside the ball
 * of radius 1/sqrt(lambda) = sqrt(sum c_i) and lands on its surface. */
static void test_pegasos_projection(void)
{
    toy t;
    make_toy(&t, 200, 4, 0, 0, 31);
    double cost[200];
    for (int i = 0; i < 200; i++) cost[i] = 50.0;
    nv_binary_problem pb = {t.ds, NULL, 200, t.y, cost, NULL, 0.0, NULL, NV_TARGET_SIGN};
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    nesvm_params_set(p, "batch", "50", NULL);
    nv_hinge h;
    nv_pegasos pg;
    CHECK(nv_hinge_init(&h, &pb, p, NULL) == NESVM_OK);
    CHECK(nv_pegasos_init(&pg, &h, p, NULL) == NESVM_OK);
    double w[4] = {0, 0, 0, 0}, radius = sqrt(h.csum);
    for (int step = 0; step < 3; step++) {
        /* one pass = 4 steps; check the norm after each pass */
        nv_pegasos_epochs(&pg, &h, 1, w);
        double nw = sqrt(nv_dot(w, w, 4));
        CHECK_MSG(nw <= radius * (1 + 1e-12), "pass %d: ||w|| %.17g > %.17g", step + 1, nw, radius);
    }
    /* the first step alone: exactly on the sphere */
    nv_pegasos pg1;
    nesvm_params_set(p, "batch", "200", NULL); /* one step of every sample */
    CHECK(nv_pegasos_init(&pg1, &h, p, NULL) == NESVM_OK);
    double w1[4] = {0, 0, 0, 0};
    nv_pegasos_epochs(&pg1, &h, 1, w1);
    CHECK_REL(sqrt(nv_dot(w1, w1, 4)), radius, 1e-12);
    nv_pegasos_free(&pg);
    nv_pegasos_free(&pg1);
    nv_hinge_free(&h);
    nesvm_params_destroy(p);
    free_toy(&t);
}

/* Multiclass through the C API: three well-separated classes, one-vs-one and
 * one-vs-rest, every sub-model certified and every row predicted right. */
static void test_multiclass(void)
{
    enum { N = 300, Dm = 2 };
    static double X[N * Dm], y[N];
    uint64_t s = 5;
    for (int i = 0; i < N; i++) {
        int c = i % 3;
        double ang = 2.0944 * c;
        X[i * Dm] = 3 * cos(ang) + (urand(&s) - 0.5);
        X[i * Dm + 1] = 3 * sin(ang) + (urand(&s) - 0.5);
        y[i] = c + 1;
    }
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, Dm, X, y, &ds, NULL) == NESVM_OK);
    const char *const solvers[2] = {"hyperpass", "pegasos"};
    for (int sv = 0; sv < 2; sv++)
        for (int ovr = 0; ovr < 2; ovr++) {
            nesvm_stats st = NESVM_STATS_INIT;
            const char *eps = sv ? "1e-2" : "1e-3";
            const char *kv[] = {"solver", solvers[sv], "multiclass", ovr ? "ovr" : "ovo", "c", "1", "bias", "1",
                                "eps", eps, NULL};
            nesvm_model *m = train(ds, kv, &st);
            CHECK(m && nesvm_model_submodels(m) == 3 && st.n_submodels == 3);
            for (int k = 0; m && k < 3; k++) {
                double gap;
                nesvm_exit why;
                nesvm_model_training(m, k, &why, NULL, NULL, &gap, NULL);
                CHECK_MSG(why == NESVM_EXIT_CONVERGED && gap <= (sv ? 1e-2 : 1e-3), "%s %s sub-model %d: gap %g", solvers[sv],
                          ovr ? "ovr" : "ovo", k, gap);
            }
            double pred[N];
            int right = 0;
            CHECK(m && nesvm_model_predict(m, ds, 1, pred, NULL, NULL) == NESVM_OK);
            for (int i = 0; i < N; i++) right += pred[i] == y[i];
            CHECK_MSG(right == N, "%s %s: %d of %d right", solvers[sv], ovr ? "ovr" : "ovo", right, N);
            nesvm_model_destroy(m);
        }
    nesvm_dataset_destroy(ds);
}

int main(void)
{
    test_qp();
    test_line_search();
    test_certificate_and_shrinking();
    test_bias_feature();
    test_pegasos();
    test_multiclass();
    test_pegasos_projection();
    CHECK_DONE();
}
