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
    /* the same with single-precision products (the working set's large K_SS) */
    ticks_left = 3;
    CHECK(nv_kmat_init_fast(&km, &k, t.ds, NULL, 600, 4096, 1, &w, &err) == NESVM_ERR_CANCELLED && km.K == NULL);
    CHECK_MSG(ticks_left == 0 && strstr(err.message, "cancelled while the kernel matrix") != NULL, "%d %s",
              ticks_left, err.message);
    CHECK(nv_kmat_init_fast(&km, &k, t.ds, NULL, 600, 4096, 1, &past, &err) == NESVM_ERR_CANCELLED && km.K == NULL);
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

/* The nu problems' quantiles (nv_nu_quantile): over the entries of one sign
 * (y = sign; y NULL: all), l minimizes g(l) = sum c_i max(0, l - G_i) - r l
 * (checked on a grid), the middle of a flat stretch (LIBSVM's (ub + lb) / 2
 * without a free vector), the largest G where r is beyond the sum by
 * rounding, 0 without an entry; the other sign's entries never enter. */
static void nu_quantile(void)
{
    const double G[8] = {3, -7, 1, 40, 2, 9, 5, 2}, y[8] = {1, -1, 1, -1, 1, -1, 1, 1};
    const double one[8] = {1, 1, 1, 1, 1, 1, 1, 1}, w[8] = {1, 3, 2, 3, 1, 3, 1, 0.5};
    /* the +1 entries are nv_oc_rho's f = {3, 1, 2, 5, 2} and c = one or {1, 2, 1, 1, 0.5}: its answers */
    const double *cs[2] = {one, w};
    const double want[2][5] = {{1, 2, 2.5, 5, 5}, {1, 1.5, 2, 5, 5}};
    const double rs[2][5] = {{0.5, 2, 3, 5, 5 + 1e-13}, {0.5, 2, 3, 5.5, 5.5 + 1e-13}};
    double zb[16], gp[5], cp[5];
    for (int k = 0; k < 2; k++) {
        int np = 0;
        for (int i = 0; i < 8; i++)
            if (y[i] > 0) gp[np] = G[i], cp[np++] = cs[k][i];
        for (int t = 0; t < 5; t++) {
            const double r = rs[k][t], l = nv_nu_quantile(G, cs[k], y, 1.0, 8, r, zb);
            double best = INFINITY;
            for (int q = -2000; q <= 8000; q++) best = fmin(best, oc_g(gp, cp, np, r, q * 0.001));
            CHECK_MSG(l == want[k][t] && oc_g(gp, cp, np, r, l) <= best + 1e-12,
                      "weights %d, r %g: l %g (expected %g), g %g (grid's best %g)", k, r, l, want[k][t],
                      oc_g(gp, cp, np, r, l), best);
        }
    }
    /* the -1 entries {-7, 40, 9}, costs 3 each: r 3 is flat on [-7, 9], r 4 at 9 */
    CHECK(nv_nu_quantile(G, w, y, -1.0, 8, 3, zb) == 1 && nv_nu_quantile(G, w, y, -1.0, 8, 4, zb) == 9);
    CHECK(nv_nu_quantile(G, w, y, 2.0, 8, 1, zb) == 0 && nv_nu_quantile(G, one, NULL, 0, 0, 1, zb) == 0);
    CHECK(nv_nu_quantile(G, one, NULL, 0, 8, 3, zb) == 2); /* all: -7 1 2 2 3 5 9 40, the 3rd and 4th tie */
    /* nv_nu_fill: LIBSVM's start from zero (each sign in order, min(c_i, what is left)), a scaled-down
     * sign, a sign raised in order */
    double a[8] = {0}, c3[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    nv_nu_fill(a, y, c3, 8, 2.5);
    const double start[8] = {1, 1, 1, 1, 0.5, 0.5, 0, 0};
    for (int i = 0; i < 8; i++) CHECK_MSG(a[i] == start[i], "start: a[%d] = %g, expected %g", i, a[i], start[i]);
    double b[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    nv_nu_fill(b, y, c3, 8, 1.5); /* +1: five ones scaled to 1.5; -1: three ones scaled to 1.5 */
    CHECK(fabs(b[0] - 0.3) <= 1e-15 && fabs(b[1] - 0.5) <= 1e-15 && fabs(b[7] - 0.3) <= 1e-15);
}

/* nu-SVC's (svr 0: y = +-1, costs 1) or nu-SVR's (costs C) P at beta by the
 * naive kernel: 1/2 beta'f + sum over the signs of min_l [sum c max(0, l -
 * G) - l R], R = nu (sum c) / 2, the minimum at a breakpoint (G: nu-SVC y f
 * within each class; nu-SVR -r for the upper sign and r for the lower, r =
 * y - f); *D: its dual value (nu-SVR y'beta - 1/2 beta'f, nu-SVC -1/2
 * beta'f). */
static double nu_primal(const double *X, const double *y, int64_t n, double gamma, int svr, double C, double nu,
                        const double *beta, double *D)
{
    double *f = calloc((size_t)n, sizeof(double)), *G = malloc(sizeof(double) * 2 * (size_t)n);
    double quad = 0, lin = 0, P = 0;
    int *sg = malloc(sizeof(int) * 2 * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < n; j++) {
            if (beta[j] == 0) continue;
            const double e0 = X[2 * i] - X[2 * j], e1 = X[2 * i + 1] - X[2 * j + 1];
            f[i] += beta[j] * exp(-gamma * (e0 * e0 + e1 * e1));
        }
        quad += beta[i] * f[i];
        lin += y[i] * beta[i];
    }
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        if (svr) {
            G[m] = f[i] - y[i], sg[m++] = 1;
            G[m] = y[i] - f[i], sg[m++] = -1;
        } else {
            G[m] = y[i] * f[i], sg[m++] = y[i] > 0 ? 1 : -1;
        }
    }
    const double c = svr ? C : 1.0, R = 0.5 * nu * c * (double)n;
    for (int sign = -1; sign <= 1; sign += 2) {
        double best = INFINITY;
        for (int64_t k = 0; k < m; k++) {
            if (sg[k] != sign) continue;
            double v = -G[k] * R;
            for (int64_t i = 0; i < m; i++)
                if (sg[i] == sign && G[k] > G[i]) v += c * (G[k] - G[i]);
            best = fmin(best, v);
        }
        P += best;
    }
    *D = (svr ? lin : 0.0) - 0.5 * quad;
    free(f);
    free(G);
    free(sg);
    return 0.5 * quad + P;
}

/* nu-SVC and nu-SVR on a working set of kernel columns (expansion_wsn.c:
 * rounds of at most mem's K_SS) against the SMO's nu mode on the whole
 * stored matrix from LIBSVM's start: both certified, their P the naive
 * kernel's, weak duality both ways, the RKHS distance within the gaps; the
 * SMO's point feasible (each sign's sum R); warm starts from the solution
 * (one round) and from an infeasible point (made feasible: the same
 * optimum). */
static void nu_ws(int svr, int64_t n, double nu, double C, double gamma, double mem, uint64_t seed, int64_t min_rounds)
{
    toy t;
    make_board(&t, n, 3, 0.1, seed);
    double *X = t.X, *y = t.y;
    uint64_t s = seed * 5 + 3;
    for (int64_t i = 0; svr && i < n; i++) y[i] = sin(6 * X[2 * i]) + cos(4 * X[2 * i + 1]) + (urand(&s) - 0.5);
    nesvm_params *prm, *pw;
    nesvm_params_create(&prm, NULL);
    char v[32];
    nesvm_params_set(prm, "svm_type", svr ? "nu-svr" : "nu-svc", NULL);
    snprintf(v, sizeof v, "%.17g", nu);
    nesvm_params_set(prm, "svm_nu", v, NULL);
    nesvm_params_set(prm, "eps", "1e-6", NULL);
    nesvm_params_copy(prm, &pw, NULL);
    snprintf(v, sizeof v, "%.17g", mem);
    nesvm_params_set(prm, "kernel_memory", v, NULL);
    nesvm_params_set(pw, "kernel_memory", "4096", NULL);
    nv_params_resolve(prm);
    nv_params_resolve(pw);
    CHECK(nv_nesvm_ws_takes(prm));
    const int target = svr ? NV_TARGET_REAL : NV_TARGET_SIGN;
    const int64_t m = svr ? 2 * n : n;
    double *cost = malloc(sizeof(double) * (size_t)n), *a = calloc((size_t)m, sizeof(double));
    double *ba = calloc((size_t)n, sizeof(double)), *bb = calloc((size_t)n, sizeof(double));
    double *bc = calloc((size_t)n, sizeof(double));
    for (int64_t i = 0; i < n; i++) cost[i] = svr ? C : 1.0;
    nv_kernel k = {NV_KERNEL_RBF, gamma, 0, 3};
    nesvm_error err = {0};
    /* the whole problem: the SMO's nu mode on the stored matrix, LIBSVM's start */
    nv_kmat km;
    CHECK(nv_kmat_init(&km, &k, t.ds, NULL, n, 4096, 1, NULL, &err) == NESVM_OK && km.K);
    nv_binary_result ra = {.w = ba, .dual = a};
    nv_kernel_problem pa = {&km, NULL, n, y, cost, NULL, 0, NULL, NULL, 0, 0, target, NULL, 0, 0, NULL, NULL};
    CHECK_MSG(nv_kx_smo_train(&pa, pw, NULL, &ra, &err) == NESVM_OK, "%s", err.message);
    double sum[2] = {0, 0}, R = 0.5 * nu * (svr ? C : 1.0) * (double)n;
    for (int64_t i = 0; i < m; i++) {
        sum[svr ? i < n : y[i] > 0] += a[i];
        CHECK(a[i] >= 0 && a[i] <= cost[i < n ? i : i - n]);
    }
    CHECK_MSG(fabs(sum[0] - R) <= 1e-12 * R && fabs(sum[1] - R) <= 1e-12 * R, "sums %.17g %.17g, R %.17g", sum[0],
              sum[1], R);
    /* the working set on kernel columns: nu-SVC's model scaled by 1/rho */
    nv_kcache kc;
    CHECK(nv_kcache_init(&kc, &k, t.ds, NULL, n, NULL, 1, mem, mem, 1, &err) == NESVM_OK);
    nv_binary_result rb = {.w = bb};
    nv_kernel_problem pb = {NULL, NULL, n, y, cost, NULL, 0, &kc, NULL, 0, 1, target, NULL, 0, 0, NULL, NULL};
    CHECK_MSG(nv_nesvm_expansion_train(&pb, prm, NULL, &rb, &err) == NESVM_OK, "%s", err.message);
    CHECK_MSG(rb.exit_reason == NESVM_EXIT_CONVERGED && rb.gap <= 1e-6 && rb.rounds >= min_rounds,
              "exit %d gap %g rounds %lld", rb.exit_reason, rb.gap, (long long)rb.rounds);
    CHECK(svr ? fabs(rb.nu_value) < 10 : rb.nu_value > 0);
    for (int64_t i = 0; !svr && i < n; i++) bb[i] *= rb.nu_value; /* the problem's beta */
    double Da, Db, Pa = nu_primal(X, y, n, gamma, svr, C, nu, ba, &Da), Pb = nu_primal(X, y, n, gamma, svr, C, nu, bb, &Db);
    CHECK_MSG(fabs(Pb - rb.primal) <= 1e-9 * fabs(Pb) + 1e-12, "P %.17g, naive %.17g", rb.primal, Pb);
    CHECK_MSG(rb.lower_bound <= Pa + 1e-12 * fabs(Pa) && Da <= Pb + 1e-12 * fabs(Pb) && Db <= rb.primal * (1 + 1e-12),
              "bound %.17g, P %.17g; D %.17g %.17g", rb.lower_bound, Pa, Da, Db);
    const double lo = fmax(rb.lower_bound, Da), d2 = rkhs_dist2(X, n, gamma, ba, bb);
    CHECK_MSG(0.5 * d2 <= (Pa - lo) + (Pb - lo) + 1e-9 * fabs(Pa), "||w_a - w_b||^2 = %g, gaps %g %g", d2, Pa - lo,
              Pb - lo);
    /* warm: from its own solution (one round), from a point halved on one sign and beyond a bound */
    nv_binary_result rc = {.w = bc};
    nv_kernel_problem pc = pb;
    pc.beta0 = bb;
    CHECK_MSG(nv_nesvm_expansion_train(&pc, prm, NULL, &rc, &err) == NESVM_OK, "%s", err.message);
    CHECK_MSG(rc.exit_reason == NESVM_EXIT_CONVERGED && rc.rounds <= 1, "warm: exit %d, %lld rounds", rc.exit_reason,
              (long long)rc.rounds);
    for (int64_t i = 0; i < n; i++) bc[i] = bb[i] > 0 ? 0.5 * bb[i] : bb[i];
    bc[0] = 5 * cost[0];
    double *bd = calloc((size_t)n, sizeof(double));
    nv_binary_result rd = {.w = bd};
    pc.beta0 = bc;
    CHECK_MSG(nv_nesvm_expansion_train(&pc, prm, NULL, &rd, &err) == NESVM_OK, "%s", err.message);
    CHECK_MSG(rd.exit_reason == NESVM_EXIT_CONVERGED && rd.lower_bound <= Pb * (1 + 1e-12) + 1e-12 &&
                  rb.lower_bound <= rd.primal + 1e-12 * fabs(rd.primal),
              "warm from an infeasible point: exit %d, P %.17g, bound %.17g (cold P %.17g)", rd.exit_reason,
              rd.primal, rd.lower_bound, Pb);
    printf("# nu-%s n %lld nu %g C %g mem %g: %lld rounds, P %.10g (whole %.10g), %s %.6g\n", svr ? "SVR" : "SVC",
           (long long)n, nu, C, mem, (long long)rb.rounds, Pb, Pa, svr ? "epsilon" : "rho", rb.nu_value);
    nv_kcache_free(&kc);
    nv_kmat_free(&km);
    free(cost);
    free(a);
    free(ba);
    free(bb);
    free(bc);
    free(bd);
    nesvm_params_destroy(prm);
    nesvm_params_destroy(pw);
    free_toy(&t);
}

/* The working set on rows wide enough that its last K_SS takes
 * single-precision products (|S|^2 d >= NV_NESVM_WS_FLOAT_FLOPS: n = 2,100
 * noisy rows of 1,000 features, every row in the last round): its
 * certificate is still the kernel's.  P at its point by the kernel in
 * double here equals the reported primal, and its lower bound is below the
 * primal of the stored matrix's solution (double products) and that one's
 * bound below its primal: each a bound on the same optimum. */
static void wide(void)
{
    enum { N = 2100, D = 1000 };
    const double C = 1, gamma = 0.002;
    CHECK((double)N * N * D >= NV_NESVM_WS_FLOAT_FLOPS);
    double *X = malloc(sizeof(double) * N * D), *y = malloc(sizeof(double) * N), *cost = malloc(sizeof(double) * N);
    uint64_t st = 77;
    for (int i = 0; i < N; i++) {
        double s = 0;
        for (int j = 0; j < D; j++) {
            X[i * D + j] = nv_rng_uniform(&st) < 0.5 ? 0 : nv_rng_uniform(&st);
            if (j < 10) s += X[i * D + j] - 0.25;
        }
        y[i] = (s + 0.6 * (nv_rng_uniform(&st) - 0.5) > 0) ? 1 : -1;
        cost[i] = C;
    }
    nesvm_dataset *ds;
    nesvm_dataset_wrap_dense(N, D, X, y, &ds, NULL);
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    nv_params_resolve(p);
    p->eps = 1e-3;
    nv_kernel k = {NV_KERNEL_RBF, gamma, 0, 3};
    nesvm_error err = {0};
    double *ba = calloc(N, sizeof(double)), *bb = calloc(N, sizeof(double));
    nv_binary_result ra = {.w = ba}, rb = {.w = bb};
    nv_kmat km;
    CHECK(nv_kmat_init(&km, &k, ds, NULL, N, 4096, 1, NULL, &err) == NESVM_OK && km.K);
    nv_kernel_problem pa = {&km, NULL, N, y, cost, NULL, 0, NULL, NULL, 0, 0, NV_TARGET_SIGN, NULL, 0, 0, NULL, NULL};
    CHECK_MSG(nv_nesvm_kernel_train(&pa, p, NULL, &ra, &err) == NESVM_OK, "%s", err.message);
    nv_kcache kc;
    CHECK(nv_kcache_init(&kc, &k, ds, NULL, N, NULL, 1, 4096, 4096, 1, &err) == NESVM_OK);
    nv_kernel_problem pb = {NULL, NULL, N, y, cost, NULL, 0, &kc, NULL, 0, 0, NV_TARGET_SIGN, NULL, 0, 0, NULL, NULL};
    CHECK_MSG(nv_nesvm_expansion_train(&pb, p, NULL, &rb, &err) == NESVM_OK, "%s", err.message);
    CHECK_MSG(rb.exit_reason == NESVM_EXIT_CONVERGED && rb.gap <= 1e-3 && rb.rounds >= 1, "exit %d gap %g rounds %lld",
              rb.exit_reason, rb.gap, (long long)rb.rounds);
    /* P of both points by the kernel in double precision */
    double P[2] = {0, 0};
    double *f = calloc(2 * N, sizeof(double)), *sq = malloc(sizeof(double) * N);
    for (int i = 0; i < N; i++) {
        sq[i] = 0;
        for (int c = 0; c < D; c++) sq[i] += X[i * D + c] * X[i * D + c];
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            if (ba[j] == 0 && bb[j] == 0) continue;
            double dot = 0;
            for (int c = 0; c < D; c++) dot += X[i * D + c] * X[j * D + c];
            double kv = exp(-gamma * (sq[i] + sq[j] - 2 * dot));
            f[i] += ba[j] * kv;
            f[N + i] += bb[j] * kv;
        }
    for (int s = 0; s < 2; s++) {
        const double *be = s ? bb : ba, b = s ? rb.b : ra.b;
        for (int i = 0; i < N; i++) {
            double r = 1 - y[i] * (f[s * N + i] + b);
            P[s] += 0.5 * be[i] * f[s * N + i] + (r > 0 ? C * r : 0);
        }
    }
    CHECK_MSG(fabs(P[1] - rb.primal) <= 1e-9 * P[1], "P %.17g, reported %.17g", P[1], rb.primal);
    CHECK_MSG(rb.lower_bound <= P[0] * (1 + 1e-9) && ra.lower_bound <= P[1] * (1 + 1e-6),
              "bounds %.17g %.17g, P %.17g %.17g", rb.lower_bound, ra.lower_bound, P[1], P[0]);
    printf("# wide: %lld rounds, P %.10g (stored matrix %.10g), gap %g\n", (long long)rb.rounds, P[1], P[0], rb.gap);
    free(f);
    free(sq);
    nv_kcache_free(&kc);
    nv_kmat_free(&km);
    free(ba);
    free(bb);
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
    free(X);
    free(y);
    free(cost);
}

int main(void)
{
    watch();
    oc_rho();
    nu_quantile();
    /* nu-SVC and nu-SVR: rounds of 512 rows (K_SS within 1 MB) against the whole matrix */
    nu_ws(0, 1200, 0.5, 1, 10, 1, 31, 2);
    nu_ws(0, 1200, 0.7, 1, 10, 1, 32, 2);
    nu_ws(1, 1000, 0.4, 3, 10, 1, 33, 2);
    nu_ws(1, 1000, 0.2, 30, 10, 1, 34, 2);
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
    wide();
    CHECK_DONE();
}
