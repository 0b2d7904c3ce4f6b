/* test_ws.c - the full-kernel C-SVM on a working set (expansion_ws.c)
 * against the same problem solved on the whole stored kernel matrix
 * (expansion.c): random problems, one where the working set grows several
 * times; certificates, objectives and the distance of the two solutions in
 * the RKHS norm (bounded by strong convexity through the gaps); the kernel
 * values it computes, bounded. */
#include "check.h"
#include <string.h>

#include "kernel/kernel.h"
#include "params/params_internal.h"
#include "solvers/nesvm/tuning.h"
#include "solvers/nesvm/nesvm_solver.h"
#include "solvers/nesvm/expansion_ws.h"
#include "toy.h"

#include <math.h>

/* (beta_a - beta_b)^T K (beta_a - beta_b) by the naive kernel. */
static double rkhs_dist2(const double *X, int64_t n, double gamma, const double *ba, const double *bb)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++) {
        double di = ba[i] - bb[i];
        if (di == 0) continue;
        for (int64_t j = 0; j < n; j++) {
            double dj = ba[j] - bb[j];
            if (dj == 0) continue;
            double e0 = X[2 * i] - X[2 * j], e1 = X[2 * i + 1] - X[2 * j + 1];
            s += di * dj * exp(-gamma * (e0 * e0 + e1 * e1));
        }
    }
    return s;
}

/* P(beta, b) of the whole problem by the naive kernel. */
static double primal(const double *X, const double *y, int64_t n, double gamma, double C, const double *beta,
                     double b)
{
    double R = 0, loss = 0;
    for (int64_t i = 0; i < n; i++) {
        double f = 0;
        for (int64_t j = 0; j < n; j++) {
            if (beta[j] == 0) continue;
            double e0 = X[2 * i] - X[2 * j], e1 = X[2 * i + 1] - X[2 * j + 1];
            f += beta[j] * exp(-gamma * (e0 * e0 + e1 * e1));
        }
        R += beta[i] * f;
        double r = 1 - y[i] * (f + b);
        if (r > 0) loss += C * r;
    }
    return 0.5 * R + loss;
}

static void one(int64_t n, int q, double flip, double C, double gamma, uint64_t seed, int64_t min_rounds)
{
    toy t;
    make_board(&t, n, q, flip, seed);
    const double *X = t.X, *y = t.y;
    const nesvm_dataset *ds = t.ds;
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    nv_params_resolve(p);
    p->eps = 1e-6;
    double *cost = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) cost[i] = C;
    nv_kernel k = {NV_KERNEL_RBF, gamma, 0, 3};
    nesvm_error err = {0};

    /* the whole problem on the stored matrix */
    nv_kmat km;
    CHECK(nv_kmat_init(&km, &k, ds, NULL, n, 4096, 1, NULL, &err) == NESVM_OK && km.K);
    double *ba = calloc((size_t)n, sizeof(double)), *bb = calloc((size_t)n, sizeof(double));
    nv_binary_result ra = {.w = ba}, rb = {.w = bb};
    nv_kernel_problem pa = {&km, NULL, n, y, cost, NULL, 0, NULL, NULL, 0, 0, NV_TARGET_SIGN, NULL, 0, 0, NULL, NULL};
    CHECK_MSG(nv_nesvm_kernel_train(&pa, p, NULL, &ra, &err) == NESVM_OK, "%s", err.message);
    CHECK(ra.exit_reason == NESVM_EXIT_CONVERGED && ra.gap <= 1e-6);

    /* the same on a working set of kernel columns */
    nv_kcache kc;
    CHECK(nv_kcache_init(&kc, &k, ds, NULL, n, NULL, 1, 4096, 4096, 1, &err) == NESVM_OK);
    nv_kernel_problem pb = {NULL, NULL, n, y, cost, NULL, 0, &kc, NULL, 0, 0, NV_TARGET_SIGN, NULL, 0, 0, NULL, NULL};
    CHECK_MSG(nv_nesvm_expansion_train(&pb, p, NULL, &rb, &err) == NESVM_OK, "%s", err.message);
    /* the working set certifies in double precision (issue 29): converged means a
     * gap <= 1e-6 of the kernel itself; a sub-problem certified on its single-
     * precision K_SS whose gap in double is just above ends "stalled" */
    CHECK_MSG((rb.exit_reason == NESVM_EXIT_CONVERGED && rb.gap <= 1e-6) ||
                  (rb.exit_reason == NESVM_EXIT_STALLED && rb.gap <= 2e-6),
              "exit %d gap %g", rb.exit_reason, rb.gap);
    CHECK_MSG(rb.rounds >= min_rounds, "n %lld: %lld rounds, want >= %lld", (long long)n, (long long)rb.rounds,
              (long long)min_rounds);

    /* its certificate holds for the whole problem: P evaluated here, in
     * double precision, against its lower bound (and the other's); the
     * matrices are single precision (relative error 6e-8 per value) */
    double Pa = primal(X, y, n, gamma, C, ba, ra.b), Pb = primal(X, y, n, gamma, C, bb, rb.b);
    CHECK_REL(Pb, rb.primal, 1e-12); /* the working set's P is in double precision */
    CHECK_REL((Pb - rb.lower_bound) / Pb, rb.gap, 1e-6);
    CHECK_MSG(rb.lower_bound <= Pa * (1 + 1e-6) && ra.lower_bound <= Pb * (1 + 1e-6), "bounds %.17g %.17g, P %.17g %.17g",
              rb.lower_bound, ra.lower_bound, Pa, Pb);
    CHECK_MSG((Pb - rb.lower_bound) <= 2e-6 * Pb, "gap %g", (Pb - rb.lower_bound) / Pb);
    /* P is 1-strongly convex in w = sum beta_i k(x_i, .) (b at its best):
     * 1/2 ||w_a - w_b||^2 <= (P_a - P*) + (P_b - P*) <= both gaps (the
     * single-precision matrix: 1e-6 of P besides) */
    double lo = ra.lower_bound > rb.lower_bound ? ra.lower_bound : rb.lower_bound;
    double d2 = rkhs_dist2(X, n, gamma, ba, bb);
    CHECK_MSG(0.5 * d2 <= (Pa - lo) + (Pb - lo) + 2e-6 * Pa, "||w_a - w_b||^2 = %g, gaps %g %g", d2, Pa - lo,
              Pb - lo);
    int64_t same = 0, nsv = 0;
    for (int64_t i = 0; i < n; i++) nsv += bb[i] != 0;
    /* the same labels on a grid */
    for (int g = 0; g < 400; g++) {
        double u = (g % 20 + 0.5) / 20, v = (g / 20 + 0.5) / 20, fa = ra.b, fb = rb.b;
        for (int64_t j = 0; j < n; j++) {
            double e = exp(-gamma * ((X[2 * j] - u) * (X[2 * j] - u) + (X[2 * j + 1] - v) * (X[2 * j + 1] - v)));
            fa += ba[j] * e;
            fb += bb[j] * e;
        }
        same += (fa > 0) == (fb > 0) || fabs(fa) < 1e-3;
    }
    CHECK_MSG(same == 400, "%lld of 400 grid labels agree", (long long)same);
    /* kernel values: whole columns of the coefficients ever non-zero, and
     * the rounds' matrices; far below the stored matrix's n^2 / 2 when the
     * support vectors are few */
    int64_t evals = kc.evals + rb.kernel_evals;
    CHECK(kc.evals == n * kc.misses);
    if (min_rounds >= 3)
        CHECK_MSG(evals <= n * n / 4 && kc.misses <= 2 * nsv,
                  "n %lld: %lld kernel values (%lld columns, %lld in the rounds' matrices), %lld support vectors",
                  (long long)n, (long long)evals, (long long)kc.misses, (long long)rb.kernel_evals, (long long)nsv);
    printf("# n %lld C %g: %lld rounds, %lld support vectors, %lld kernel values (stored matrix %lld), P %.10g / %.10g\n",
           (long long)n, C, (long long)rb.rounds, (long long)nsv, (long long)evals, (long long)km.evals, Pb, Pa);
    nv_kcache_free(&kc);
    nv_kmat_free(&km);
    free(ba);
    free(bb);
    free(cost);
    nesvm_params_destroy(p);
    free_toy(&t);
}

/* The watch of a long kernel matrix (issue 29, item 7): its tick between row
 * blocks (the progress line moves, a cancel is heard) and its deadline (the
 * time limit inside the n^2 values) stop it with NESVM_ERR_CANCELLED, the
 * matrix freed; a training with a time limit already spent keeps its start. */
static int ticks_left;
static int count_tick(void *ctx)
{
    (void)ctx;
    return --ticks_left <= 0;
}

static void watch(void)
{
    toy t;
    make_board(&t, 600, 3, 0.0, 21);
    nv_kernel k = {NV_KERNEL_RBF, 20, 0, 3};
    nesvm_error err = {0};
    nv_kmat km;
    ticks_left = 3;
    nv_kwatch w = {0, count_tick, NULL};
    CHECK(nv_kmat_init(&km, &k, t.ds, NULL, 600, 4096, 1, &w, &err) == NESVM_ERR_CANCELLED && km.K == NULL);
    CHECK_MSG(ticks_left == 0 && strstr(err.message, "cancelled while the kernel matrix") != NULL, "%d %s",
              ticks_left, err.message);
    ticks_left = 1000; /* a tick that never cancels: the same matrix as without a watch */
    CHECK(nv_kmat_init(&km, &k, t.ds, NULL, 600, 4096, 1, &w, &err) == NESVM_OK && km.K && ticks_left < 1000);
    nv_kmat_free(&km);
    nv_kwatch past = {nv_now() - 1, NULL, NULL};
    CHECK(nv_kmat_init(&km, &k, t.ds, NULL, 600, 4096, 1, &past, &err) == NESVM_ERR_CANCELLED && km.K == NULL);
    CHECK_MSG(strstr(err.message, "time limit ran out") != NULL, "%s", err.message);
    free_toy(&t);
}

/* epsilon-SVR's P(beta, b) = 1/2 beta'K beta + C sum max(0, |y - f - b| - p)
 * by the naive kernel, in double precision. */
static double tube_primal(const double *X, const double *y, int64_t n, double gamma, double C, double p,
                          const double *beta, double b)
{
    double R = 0, loss = 0;
    for (int64_t i = 0; i < n; i++) {
        double f = 0;
        for (int64_t j = 0; j < n; j++) {
            if (beta[j] == 0) continue;
            double e0 = X[2 * i] - X[2 * j], e1 = X[2 * i + 1] - X[2 * j + 1];
            f += beta[j] * exp(-gamma * (e0 * e0 + e1 * e1));
        }
        R += beta[i] * f;
        double r = fabs(y[i] - f - b) - p;
        if (r > 0) loss += C * r;
    }
    return 0.5 * R + loss;
}

/* epsilon-SVR's tube on the working set (expansion_wst.c) against the whole
 * problem on the stored matrix by Newton (the operator path, --method
 * newton, certified in double precision): the working set converged, its P
 * the naive kernel's, each lower bound below the other's P, the two
 * solutions within the gaps' distance in the RKHS norm (P is 1-strongly
 * convex in w); at least min_rounds rounds of at most `mem` MB matrices; a
 * warm start from its own solution ends in one round, from the solution at
 * C / 4 in fewer rounds than a cold start, at the same optimum. */
static void tube(int64_t n, double C, double p, double gamma, int bias, double mem, uint64_t seed,
                 int64_t min_rounds)
{
    toy t;
    make_board(&t, n, 3, 0.0, seed);
    double *X = t.X, *y = t.y;
    uint64_t s = seed * 7 + 1;
    for (int64_t i = 0; i < n; i++) /* a smooth target and uniform noise */
        y[i] = sin(6 * X[2 * i]) + cos(4 * X[2 * i + 1]) + (urand(&s) - 0.5);
    nesvm_params *prm;
    nesvm_params_create(&prm, NULL);
    nesvm_params_set(prm, "svm_type", "svr", NULL);
    char pv[32], mv[32];
    snprintf(pv, sizeof pv, "%.17g", p);
    snprintf(mv, sizeof mv, "%.17g", mem);
    nesvm_params_set(prm, "epsilon", pv, NULL);
    nesvm_params_set(prm, "kernel_memory", mv, NULL);
    nesvm_params_set(prm, "bias", bias ? "1" : "0", NULL);
    nesvm_params_set(prm, "eps", "1e-6", NULL);
    nv_params_resolve(prm);
    CHECK(nv_nesvm_ws_takes(prm));
    double *cost = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) cost[i] = C;
    nv_kernel k = {NV_KERNEL_RBF, gamma, 0, 3};
    nesvm_error err = {0};
    size_t bytes = sizeof(double) * (size_t)n;
    double *ba = calloc(1, bytes), *bb = calloc(1, bytes), *bc = calloc(1, bytes), *bw = calloc(1, bytes);

    /* the whole problem by Newton on the stored matrix */
    nesvm_params *pn;
    nesvm_params_copy(prm, &pn, NULL);
    nesvm_params_set(pn, "method", "newton", NULL);
    nesvm_params_set(pn, "kernel_memory", "4096", NULL);
    nv_params_resolve(pn);
    CHECK(!nv_nesvm_ws_takes(pn));
    nv_kmat km;
    CHECK(nv_kmat_init(&km, &k, t.ds, NULL, n, 4096, 1, NULL, &err) == NESVM_OK && km.K);
    nv_binary_result ra = {.w = ba};
    nv_kernel_problem pa = {&km, NULL, n, y, cost, NULL, 0, NULL, NULL, 0, 0, NV_TARGET_REAL, NULL, 0, 0, NULL, NULL};
    CHECK_MSG(nv_nesvm_expansion_train(&pa, pn, NULL, &ra, &err) == NESVM_OK, "%s", err.message);
    /* (Newton's smoothed tube may stall short of 1e-6: its bound still is one) */
    CHECK_MSG(ra.gap <= 1e-3 && ra.rounds == 0, "exit %d gap %g", ra.exit_reason, ra.gap);

    /* the working set on kernel columns */
    nv_kcache kc;
    CHECK(nv_kcache_init(&kc, &k, t.ds, NULL, n, NULL, 1, mem, mem, 1, &err) == NESVM_OK);
    nv_binary_result rb = {.w = bb};
    nv_kernel_problem pb = {NULL, NULL, n, y, cost, NULL, 0, &kc, NULL, 0, 1, NV_TARGET_REAL, NULL, 0, 0, NULL, NULL};
    CHECK_MSG(nv_nesvm_expansion_train(&pb, prm, NULL, &rb, &err) == NESVM_OK, "%s", err.message);
    CHECK_MSG(rb.exit_reason == NESVM_EXIT_CONVERGED && rb.gap <= 1e-6, "exit %d gap %g", rb.exit_reason, rb.gap);
    CHECK_MSG(rb.rounds >= min_rounds, "n %lld: %lld rounds, want >= %lld", (long long)n, (long long)rb.rounds,
              (long long)min_rounds);
    CHECK(bias || rb.b == 0);
    double Pa = tube_primal(X, y, n, gamma, C, p, ba, ra.b), Pb = tube_primal(X, y, n, gamma, C, p, bb, rb.b);
    /* the working set's P is the kernel's, in double precision (to the
     * rounding of sums of C-sized terms) */
    CHECK_REL(Pb, rb.primal, 1e-10);
    CHECK_REL(Pa, ra.primal, 1e-10);
    CHECK_MSG(rb.lower_bound <= Pa * (1 + 1e-12) && ra.lower_bound <= Pb * (1 + 1e-12),
              "bounds %.17g %.17g, P %.17g %.17g", rb.lower_bound, ra.lower_bound, Pa, Pb);
    double lo = ra.lower_bound > rb.lower_bound ? ra.lower_bound : rb.lower_bound;
    double d2 = rkhs_dist2(X, n, gamma, ba, bb);
    CHECK_MSG(0.5 * d2 <= (Pa - lo) + (Pb - lo) + 1e-9 * Pa, "||w_a - w_b||^2 = %g, gaps %g %g", d2, Pa - lo, Pb - lo);
    int64_t nsv = 0, nfree = 0;
    for (int64_t i = 0; i < n; i++) {
        nsv += bb[i] != 0;
        nfree += bb[i] != 0 && fabs(bb[i]) < C;
        CHECK(fabs(bb[i]) <= C);
    }

    /* warm: from its own solution (one round), from C / 4's (fewer rounds) */
    nv_binary_result rc = {.w = bc};
    nv_kernel_problem pc = pb;
    pc.beta0 = bb;
    pc.b0 = rb.b;
    CHECK_MSG(nv_nesvm_expansion_train(&pc, prm, NULL, &rc, &err) == NESVM_OK, "%s", err.message);
    CHECK_MSG(rc.exit_reason == NESVM_EXIT_CONVERGED && rc.rounds == 1 && rc.primal <= rb.primal * (1 + 1e-12),
              "warm from the solution: exit %d, %lld rounds, P %.17g (cold %.17g)", rc.exit_reason,
              (long long)rc.rounds, rc.primal, rb.primal);
    double *c4 = malloc(bytes);
    for (int64_t i = 0; i < n; i++) c4[i] = C / 4;
    nv_binary_result rw = {.w = bw};
    nv_kernel_problem pw = pb;
    pw.cost = c4;
    CHECK(nv_nesvm_expansion_train(&pw, prm, NULL, &rw, &err) == NESVM_OK && rw.exit_reason == NESVM_EXIT_CONVERGED);
    memset(bc, 0, bytes);
    nv_binary_result rd = {.w = bc};
    pc.beta0 = bw;
    pc.b0 = rw.b;
    CHECK_MSG(nv_nesvm_expansion_train(&pc, prm, NULL, &rd, &err) == NESVM_OK, "%s", err.message);
    double Pd = tube_primal(X, y, n, gamma, C, p, bc, rd.b);
    CHECK_MSG(rd.exit_reason == NESVM_EXIT_CONVERGED && rd.gap <= 1e-6 && rd.rounds <= rb.rounds &&
                  rd.lower_bound <= Pb * (1 + 1e-12) && rb.lower_bound <= Pd * (1 + 1e-12),
              "warm from C/4: exit %d gap %g, %lld rounds (cold %lld), P %.17g, bound %.17g (cold P %.17g)",
              rd.exit_reason, rd.gap, (long long)rd.rounds, (long long)rb.rounds, Pd, rd.lower_bound, Pb);
    CHECK_REL(Pd, rd.primal, 1e-10);
    /* from a point whose sum is not 0 (every coefficient of one sign halved,
     * and one beyond its bound): made feasible, then the same optimum */
    double *bu = malloc(bytes);
    for (int64_t i = 0; i < n; i++) bu[i] = bb[i] > 0 ? 0.5 * bb[i] : bb[i];
    bu[0] = 3 * C;
    memset(bc, 0, bytes);
    nv_binary_result re = {.w = bc};
    pc.cost = cost;
    pc.beta0 = bu;
    CHECK_MSG(nv_nesvm_expansion_train(&pc, prm, NULL, &re, &err) == NESVM_OK, "%s", err.message);
    double Pe = tube_primal(X, y, n, gamma, C, p, bc, re.b);
    CHECK_MSG(re.exit_reason == NESVM_EXIT_CONVERGED && re.lower_bound <= Pb * (1 + 1e-12) &&
                  rb.lower_bound <= Pe * (1 + 1e-12),
              "warm from an infeasible point: exit %d gap %g, P %.17g, bound %.17g (cold P %.17g)", re.exit_reason,
              re.gap, Pe, re.lower_bound, Pb);
    free(bu);
    printf("# tube n %lld C %g p %g bias %d mem %g: %lld rounds (warm %lld), %lld support vectors (%lld free), "
           "P %.10g / %.10g\n",
           (long long)n, C, p, bias, mem, (long long)rb.rounds, (long long)rd.rounds, (long long)nsv, (long long)nfree,
           Pb, Pa);
    nv_kcache_free(&kc);
    nv_kmat_free(&km);
    free(ba);
    free(bb);
    free(bc);
    free(bw);
    free(c4);
    free(cost);
    nesvm_params_destroy(pn);
    nesvm_params_destroy(prm);
    free_toy(&t);
}

/* The one-class SVM's best rho for margins f (expansion_wso.c's closed form,
 * nv_oc_rho): it minimizes g(rho) = sum c_i max(0, rho - f_i) - nuw rho, checked
 * against g on a fine grid, and takes the middle of a flat stretch (LIBSVM's
 * (ub + lb) / 2) and the largest margin at nuw = sum c (nu = 1). */
static double oc_g(const double *f, const double *c, int n, double nuw, double rho)
{
    double g = -nuw * rho;
    for (int i = 0; i < n; i++) g += rho > f[i] ? c[i] * (rho - f[i]) : 0.0;
    return g;
}

static void oc_rho(void)
{
    const double f[5] = {3, 1, 2, 5, 2}, one[5] = {1, 1, 1, 1, 1}, w[5] = {1, 2, 1, 1, 0.5};
    const double *cs[2] = {one, w};
    const double want[2][4] = {{1, 2, 2.5, 5}, {1, 1.5, 2, 5}}; /* flat stretches: their middles */
    const double nuws[2][4] = {{0.5, 2, 3, 5}, {0.5, 2, 3, 5.5}};
    double zb[10];
    for (int k = 0; k < 2; k++)
        for (int t = 0; t < 4; t++) {
            const double nuw = nuws[k][t], rho = nv_oc_rho(f, cs[k], 5, nuw, zb);
            double best = INFINITY;
            for (int q = 0; q <= 8000; q++) best = fmin(best, oc_g(f, cs[k], 5, nuw, q * 0.001));
            CHECK_MSG(rho == want[k][t] && oc_g(f, cs[k], 5, nuw, rho) <= best + 1e-12,
                      "weights %d, nu W %g: rho %g (expected %g), g %g (grid's best %g)", k, nuw, rho, want[k][t],
                      oc_g(f, cs[k], 5, nuw, rho), best);
        }
}

int main(void)
{
    watch();
    oc_rho();
    /* epsilon-SVR: most rows outside the tube, at their bounds (rounds of
     * 2,000 rows and the bound guess); a wide tube, few support vectors; K_SS
     * within 1 MB (rounds of 512 rows); no bias; large C (free support
     * vectors: the whole problem) */
    tube(3000, 1, 0.05, 10, 1, 4096, 21, 3);
    tube(3000, 10, 0.4, 10, 1, 4096, 22, 2);
    tube(1500, 1, 0.3, 10, 1, 1, 23, 3);
    tube(1500, 1, 0.1, 10, 0, 1, 24, 3);
    tube(800, 1000, 0.1, 10, 1, 4096, 25, 1);
    /* few support vectors among 4,000 rows: the set grows round by round */
    one(4000, 4, 0.0, 100, 40, 11, 3);
    one(3000, 3, 0.0, 1, 20, 12, 2);
    /* noisy labels: many support vectors, the whole problem in the end */
    one(2500, 4, 0.1, 10, 40, 13, 2);
    CHECK_DONE();
}
