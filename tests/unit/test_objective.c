/* test_objective.c - the smoothed objectives of C-SVM, LP-SVM and LS-SVM:
 * value against a direct evaluation, gradient (finite differences), smoothing
 * bounds (Theorem 1), exact line search against a dense scan, Lipschitz
 * bounds, weak duality; the solver on a closed form. */
#include "../../src/solvers/nesvm/nesvm_solver.h"
#include "../../src/solvers/nesvm/objective.h"
#include "../../src/kernel/kernel.h"
#include "check.h"
#include "dense_solve.h"

#include <stdlib.h>

#define NS 60
#define DIM 5

static double X[NS * DIM], Y[NS], COST[NS];

static void setup(nv_binary_problem *pb, nesvm_dataset **ds, uint64_t seed)
{
    uint64_t st = seed;
    for (int i = 0; i < NS; i++) {
        Y[i] = i % 2 ? 1 : -1;
        COST[i] = Y[i] > 0 ? 0.7 : 1.3;
        for (int j = 0; j < DIM; j++) X[i * DIM + j] = (nv_rng_uniform(&st) - 0.5) * 3 + 0.4 * Y[i];
    }
    nesvm_dataset_wrap_dense(NS, DIM, X, Y, ds, NULL);
    nv_binary_problem p = {*ds, NULL, NS, Y, COST, NULL, 0, NULL, NV_TARGET_SIGN};
    *pb = p;
}

/* F_mu's gradient (w, and b with a bias) at (w, b) against central
 * differences of F_mu, and weak duality: D <= P, Dmu <= F_mu <= P. */
static void check_fd(nv_obj *o, const double *w, int d, double b, double mu, const char *what)
{
    enum { DMAX = 8 };
    NV_ASSERT(d <= DMAX);
    const double h = 1e-6;
    double g[DMAX], wp[DMAX], wm[DMAX];
    nv_obj_eval e, ep, em;
    nv_obj_evaluate(o, w, b, mu, 0, &e);
    nv_obj_grad(o, w, 0, g);
    for (int j = 0; j < d; j++) {
        memcpy(wp, w, (size_t)d * sizeof *w);
        memcpy(wm, w, (size_t)d * sizeof *w);
        wp[j] += h;
        wm[j] -= h;
        nv_obj_evaluate(o, wp, b, mu, 0, &ep);
        nv_obj_evaluate(o, wm, b, mu, 0, &em);
        CHECK_MSG(fabs((ep.Fmu - em.Fmu) / (2 * h) - g[j]) <= 1e-5 * (1 + fabs(g[j])), "%s: dF/dw%d %g vs %g", what,
                  j, g[j], (ep.Fmu - em.Fmu) / (2 * h));
    }
    if (o->bias) {
        nv_obj_evaluate(o, w, b + h, mu, 0, &ep);
        nv_obj_evaluate(o, w, b - h, mu, 0, &em);
        CHECK_MSG(fabs((ep.Fmu - em.Fmu) / (2 * h) - e.gb) <= 1e-5 * (1 + fabs(e.gb)), "%s: dF/db %g vs %g", what,
                  e.gb, (ep.Fmu - em.Fmu) / (2 * h));
    }
    CHECK_MSG(e.D <= e.P && e.Dmu <= e.Fmu && e.Fmu <= e.P && e.D > -INFINITY, "%s: D %g P %g", what, e.D, e.P);
}

/* Real targets (least squares on real values, r = y - f): the objective's
 * gradient against finite differences, and the linear and kernel solvers
 * against the normal equations:
 *   linear  min 1/2 ||w||^2 + sum c_i (y_i - x_i.w - b)^2 (b free):
 *           [I + 2 X'CX, 2 X'C1; 2 1'CX, 2 1'C1] [w; b] = [2 X'Cy; 2 1'Cy]
 *   kernel  min 1/2 beta'K beta + C sum (y_i - (K beta)_i)^2 (no bias):
 *           (K + I/(2C)) beta = y. */
static void test_real_targets(void)
{
    enum { N = 40, P = 3 };
    double X[N * P], Y[N], COSTR[N];
    uint64_t st = 7;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < P; j++) X[i * P + j] = nv_rng_uniform(&st) * 2 - 1;
        Y[i] = 3.0 * X[i * P] - 2.0 * X[i * P + 1] + 0.5 + 0.3 * (nv_rng_uniform(&st) - 0.5);
        COSTR[i] = i % 3 ? 0.8 : 1.7;
    }
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, P, X, Y, &ds, NULL) == NESVM_OK);
    nv_binary_problem pb = {ds, NULL, N, Y, COSTR, NULL, 0, NULL, NV_TARGET_REAL};
    const nv_loss *sq = nv_loss_find("squared");
    CHECK(sq && sq->target == NV_TARGET_REAL);
    /* the gradient against finite differences, and weak duality */
    nv_obj o;
    CHECK(nv_obj_init(&o, &pb, sq, 0, 1, 1, NULL) == NESVM_OK);
    const double w[P] = {0.4, -0.3, 0.2}, b = 0.1;
    check_fd(&o, w, P, b, 0.0, "real targets");
    nv_obj_free(&o);
    /* the tubes (epsilon-SVR): the smoothed objective's gradient against
     * finite differences, with and without a bias, and weak duality of the
     * dual points (a tube's balancing rescales one sign of alpha) */
    const char *tubes[] = {"epsilon_insensitive", "squared_epsilon_insensitive"};
    for (int k = 0; k < 2; k++)
        for (int bias = 0; bias < 2; bias++) {
            const nv_loss *tl = nv_loss_find(tubes[k]);
            CHECK(tl && tl->tube && tl->conj_e == 0);
            const nv_loss inst = nv_loss_tube(tl, 0.3);
            CHECK(nv_obj_init(&o, &pb, &inst, 0, bias, 1, NULL) == NESVM_OK);
            CHECK(o.loss->conj_e == 0.3 && o.tube == (k == 0));
            check_fd(&o, w, P, bias ? b : 0.0, tl->smoothed ? 0.05 : 0.0, tubes[k]);
            /* the dual methods' evaluations (dcd.c): w = X^T alpha and P
             * there against direct sums; the primal half alone gives the
             * same P and no lower bound */
            double wd[P], wx[P] = {0}, Pd = 0;
            for (int i = 0; i < N; i++) {
                o.a[i] = (nv_rng_uniform(&st) * 2 - 1) * COSTR[i];
                if (i % 5 == 0) o.a[i] = 0;
                for (int j = 0; j < P; j++) wx[j] += o.a[i] * X[i * P + j];
            }
            const double bb = bias ? b : 0.0;
            nv_obj_eval ed, ep;
            nv_obj_evaluate_dual(&o, wd, bb, &ed);
            for (int j = 0; j < P; j++) {
                CHECK_MSG(fabs(wd[j] - wx[j]) <= 1e-13 * (1 + fabs(wx[j])), "%s: w%d %.17g want %.17g", tubes[k], j,
                          wd[j], wx[j]);
                Pd += 0.5 * wx[j] * wx[j];
            }
            for (int i = 0; i < N; i++) {
                double f = bb;
                for (int j = 0; j < P; j++) f += wd[j] * X[i * P + j];
                const double r = fmax(0.0, fabs(Y[i] - f) - 0.3);
                Pd += COSTR[i] * (k == 0 ? r : r * r);
            }
            nv_obj_evaluate_primal(&o, wd, bb, &ep);
            CHECK_MSG(fabs(ed.P - Pd) <= 1e-12 * Pd && fabs(ep.P - Pd) <= 1e-12 * Pd,
                      "%s bias %d: P %.17g and %.17g want %.17g", tubes[k], bias, ed.P, ep.P, Pd);
            CHECK(ed.D <= ed.P && isfinite(ed.D) && ep.D == -INFINITY && ep.nsv == ed.nsv && ep.nsv > 0);
            nv_obj_free(&o);
        }
    /* the closed form */
    double A[(P + 1) * (P + 1)], rhs[P + 1];
    memset(A, 0, sizeof A);
    memset(rhs, 0, sizeof rhs);
    for (int a = 0; a < P; a++) A[a * (P + 1) + a] = 1.0;
    for (int i = 0; i < N; i++) {
        double z[P + 1];
        for (int j = 0; j < P; j++) z[j] = X[i * P + j];
        z[P] = 1.0;
        for (int a = 0; a <= P; a++) {
            for (int c = 0; c <= P; c++) A[a * (P + 1) + c] += 2 * COSTR[i] * z[a] * z[c];
            rhs[a] += 2 * COSTR[i] * z[a] * Y[i];
        }
    }
    CHECK(dense_solve(P + 1, A, rhs));
    for (int method = 0; method < 2; method++) {
        nesvm_params *prm;
        nesvm_params_create(&prm, NULL);
        nesvm_params_set(prm, "svm_type", "ls", NULL);
        nesvm_params_set(prm, "bias", "1", NULL);
        nesvm_params_set(prm, "eps", "1e-10", NULL);
        nesvm_params_set(prm, "method", method ? "nesterov" : "newton", NULL);
        nesvm_params_set(prm, "max_iter", "1000000", NULL);
        double ws_[P];
        nv_binary_result res = {0};
        res.w = ws_;
        CHECK(nv_nesvm_linear_train(&pb, prm, NULL, &res, NULL) == NESVM_OK);
        CHECK_MSG(res.exit_reason == NESVM_EXIT_CONVERGED && res.gap <= 1e-10, "real targets, method %d: exit %d gap %g",
                  method, (int)res.exit_reason, res.gap);
        for (int j = 0; j < P; j++)
            CHECK_MSG(fabs(ws_[j] - rhs[j]) <= 1e-5 * (1 + fabs(rhs[j])), "method %d: w%d %.10g want %.10g", method, j,
                      ws_[j], rhs[j]);
        CHECK_MSG(fabs(res.b - rhs[P]) <= 1e-5 * (1 + fabs(rhs[P])), "method %d: b %.10g want %.10g", method, res.b,
                  rhs[P]);
        nesvm_params_destroy(prm);
    }
    /* the kernel expansion, RBF, no bias */
    {
        const double C = 2.0, gamma = 0.7;
        nv_kernel k = {NV_KERNEL_RBF, gamma, 0, 3};
        double K[N * N], beta[N], Ck[N];
        for (int i = 0; i < N; i++) {
            Ck[i] = C;
            for (int j = 0; j < N; j++) {
                double d2 = 0;
                for (int a = 0; a < P; a++) d2 += (X[i * P + a] - X[j * P + a]) * (X[i * P + a] - X[j * P + a]);
                K[i * N + j] = exp(-gamma * d2) + (i == j ? 1.0 / (2 * C) : 0.0);
            }
            beta[i] = Y[i];
        }
        CHECK(dense_solve(N, K, beta));
        nv_kmat km;
        nesvm_error err = {0};
        CHECK(nv_kmat_init(&km, &k, ds, NULL, N, 4096, 1, NULL, &err) == NESVM_OK);
        nesvm_params *prm;
        nesvm_params_create(&prm, NULL);
        nesvm_params_set(prm, "svm_type", "ls", NULL);
        nesvm_params_set(prm, "bias", "0", NULL);
        nesvm_params_set(prm, "eps", "1e-10", NULL);
        nv_params_resolve(prm);
        for (int method = 0; method < 2; method++) {
            nesvm_params_set(prm, "method", method ? "nesterov" : "newton", NULL);
            nesvm_params_set(prm, "max_iter", "1000000", NULL);
            double bk[N];
            nv_binary_result rk = {.w = bk};
            nv_kernel_problem kp = {&km, NULL, N, Y, Ck, NULL, 0, NULL, NULL, 0, 0, NV_TARGET_REAL, NULL, 0, 0, NULL, NULL};
            CHECK_MSG(nv_nesvm_kernel_train(&kp, prm, NULL, &rk, &err) == NESVM_OK, "%s", err.message);
            CHECK_MSG(rk.exit_reason == NESVM_EXIT_CONVERGED, "kernel, method %d: exit %d gap %g", method,
                      (int)rk.exit_reason, rk.gap);
            double worst = 0;
            for (int i = 0; i < N; i++) worst = fmax(worst, fabs(bk[i] - beta[i]) / (1 + fabs(beta[i])));
            /* the stored kernel is single precision */
            CHECK_MSG(worst <= 1e-4, "kernel, method %d: expansion off by %g", method, worst);
        }
        nesvm_params_destroy(prm);
        nv_kmat_free(&km);
    }
    nesvm_dataset_destroy(ds);
}

/* The logistic loss's certificate (its own conjugate, objective.c's
 * conj_dual): at random points, with and without a bias, under the L2 and L1
 * norms, D against the dual written out here and maximized over a dense scan
 * of theta:
 *   alpha_i = c_i sigma(-y_i f_i), balanced (the heavier class scaled down so
 *   that sum alpha y = 0) with a bias, v = X^T(alpha y),
 *   D(theta) = -sum_i c_i H(theta alpha_i / c_i) - theta^2/2 ||v||^2 (L2) or
 *   without the last term and theta ||v||_inf <= 1 (L1), theta alpha_i <= c_i,
 *   H(u) = u log u + (1 - u) log(1 - u);
 * D <= P, and the gradient against finite differences. */
static void test_logistic(nv_binary_problem *pb)
{
    const nv_loss *lg = nv_loss_find("logistic");
    uint64_t st = 7;
    for (int l1 = 0; l1 < 2; l1++)
        for (int bias = 0; bias < 2; bias++) {
            nv_obj o;
            CHECK(lg && nv_obj_init(&o, pb, lg, l1, bias, 1, NULL) == NESVM_OK);
            for (int trial = 0; trial < 8; trial++) {
                double w[DIM], b = bias ? nv_rng_uniform(&st) - 0.5 : 0.0, scale = trial < 4 ? 0.3 : 3.0;
                for (int j = 0; j < DIM; j++) w[j] = (nv_rng_uniform(&st) - 0.5) * scale;
                nv_obj_eval e;
                nv_obj_evaluate(&o, w, b, 0.0, 0.02, &e);
                double a[NS], sp = 0, sn = 0, P = 0;
                for (int i = 0; i < NS; i++) {
                    double f = b, m;
                    for (int j = 0; j < DIM; j++) f += X[i * DIM + j] * w[j];
                    m = Y[i] * f;
                    a[i] = COST[i] / (1 + exp(m));
                    P += COST[i] * log1p(exp(-m));
                    *(Y[i] > 0 ? &sp : &sn) += a[i];
                }
                for (int j = 0; j < DIM; j++) P += l1 ? fabs(w[j]) : 0.5 * w[j] * w[j];
                for (int i = 0; i < NS && bias; i++) a[i] *= Y[i] > 0 ? (sp > sn ? sn / sp : 1) : (sn > sp ? sp / sn : 1);
                double v[DIM] = {0}, vv = 0, vinf = 0, umax = 0;
                for (int i = 0; i < NS; i++) {
                    for (int j = 0; j < DIM; j++) v[j] += a[i] * Y[i] * X[i * DIM + j];
                    umax = fmax(umax, a[i] / COST[i]);
                }
                for (int j = 0; j < DIM; j++) {
                    vv += v[j] * v[j];
                    vinf = fmax(vinf, fabs(v[j]));
                }
                /* D is concave in theta: its maximum on [0, tmax] by ternary search */
                double lo = 0, hi = fmin(1.0 / umax, l1 ? 1.0 / vinf : INFINITY), Dt[2];
                for (int k = 0; k < 300; k++) {
                    double th[2] = {lo + (hi - lo) / 3, hi - (hi - lo) / 3};
                    for (int q = 0; q < 2; q++) {
                        Dt[q] = l1 ? 0.0 : -0.5 * th[q] * th[q] * vv;
                        for (int i = 0; i < NS; i++) {
                            double u = th[q] * a[i] / COST[i];
                            Dt[q] -= COST[i] * ((u > 0 ? u * log(u) : 0) + (u < 1 ? (1 - u) * log1p(-u) : 0));
                        }
                    }
                    if (Dt[0] < Dt[1]) lo = th[0];
                    else hi = th[1];
                }
                const double best = fmax(Dt[0], Dt[1]);
                CHECK_MSG(fabs(e.P - P) <= 1e-12 * P, "logistic l1 %d bias %d: P %.17g vs %.17g", l1, bias, e.P, P);
                /* the Newton steps in theta find the best multiple */
                CHECK_MSG(fabs(e.D - best) <= 1e-11 * fabs(best),
                          "logistic l1 %d bias %d trial %d: D %.17g, best %.17g", l1, bias, trial, e.D, best);
                CHECK(e.D <= e.P);
                if (!l1) check_fd(&o, w, DIM, b, 0.0, "logistic");
            }
            nv_obj_free(&o);
        }
}

int main(void)
{
    nesvm_dataset *ds;
    nv_binary_problem pb;
    setup(&pb, &ds, 3);
    test_logistic(&pb);
    uint64_t st = 99;
    for (int tb = 0; tb < 6; tb++) {
        int type = tb / 2, bias = tb % 2;
        nv_obj o;
        const nv_loss *loss = nv_loss_find(type == NV_SVM_LS ? "squared" : "hinge");
        CHECK(loss && nv_obj_init(&o, &pb, loss, type == NV_SVM_LP, bias, 1, NULL) == NESVM_OK);
        for (int trial = 0; trial < 20; trial++) {
            double mu = trial % 2 ? 0.3 : 0.05, nu = trial % 3 ? 0.2 : 0.02;
            double w[DIM], b = bias ? nv_rng_uniform(&st) - 0.5 : 0;
            for (int j = 0; j < DIM; j++) w[j] = (nv_rng_uniform(&st) - 0.5) * 2;
            if (trial % 4 == 1) w[trial % DIM] = 0.5 * nu; /* inside Huber's zone */
            nv_obj_eval e;
            nv_obj_evaluate(&o, w, b, mu, nu, &e);
            /* value against a direct evaluation of eq. (10) and (28) */
            double P = 0, F = 0, slack = 0;
            for (int j = 0; j < DIM; j++) {
                double a = fabs(w[j]);
                if (type == NV_SVM_LP) {
                    P += a;
                    F += a >= nu ? a - nu / 2 : a * a / (2 * nu);
                    slack += nu / 2;
                } else {
                    P += 0.5 * w[j] * w[j];
                    F += 0.5 * w[j] * w[j];
                }
            }
            for (int i = 0; i < NS; i++) {
                double m = b * bias, s = bias ? 1 : 0;
                for (int j = 0; j < DIM; j++) {
                    m += X[i * DIM + j] * w[j];
                    s = fmax(s, fabs(X[i * DIM + j]));
                }
                double r = 1 - Y[i] * m;
                if (type == NV_SVM_LS) {
                    P += COST[i] * r * r;
                    F += COST[i] * r * r;
                    continue;
                }
                P += COST[i] * fmax(0, r);
                double h = r <= 0 ? 0 : (r >= mu * s ? r - mu * s / 2 : r * r / (2 * mu * s));
                F += COST[i] * h;
                slack += COST[i] * mu * s / 2;
            }
            CHECK_REL(e.P, P, 1e-12);
            CHECK_REL(e.Fmu, F, 1e-12);
            /* Theorem 1: F <= P <= F + mu/2 sum c_i s_i (+ nu/2 per weight) */
            CHECK(e.Fmu <= e.P + 1e-12 && e.P <= e.Fmu + slack + 1e-12);
            /* exact line search along a random direction against a dense scan
             * of F_mu evaluated from scratch (o->m holds the margins at w, b) */
            {
                double p[DIM], pb_ = bias ? nv_rng_uniform(&st) - 0.5 : 0, mp[NS];
                for (int j = 0; j < DIM; j++) p[j] = (nv_rng_uniform(&st) - 0.5) * 2;
                for (int i = 0; i < NS; i++) {
                    mp[i] = pb_;
                    for (int j = 0; j < DIM; j++) mp[i] += X[i * DIM + j] * p[j];
                }
                double ts = nv_obj_line_search(&o, mp, mu, nu, w, p);
                double wt[DIM];
                nv_obj_eval et;
                double f0 = e.Fmu, fbest = INFINITY, tbest = 0;
                for (int k = 0; k <= 4000; k++) {
                    double t = (ts > 0 ? 3 * ts : 3.0) * k / 4000.0;
                    for (int j = 0; j < DIM; j++) wt[j] = w[j] + t * p[j];
                    nv_obj_evaluate(&o, wt, b + t * pb_, mu, nu, &et);
                    if (et.Fmu < fbest) {
                        fbest = et.Fmu;
                        tbest = t;
                    }
                }
                for (int j = 0; j < DIM; j++) wt[j] = w[j] + ts * p[j];
                nv_obj_evaluate(&o, wt, b + ts * pb_, mu, nu, &et);
                if (tbest == 0) {
                    /* the direction ascends: the search must return 0 */
                    CHECK_MSG(ts == 0, "ascent direction but t = %g", ts);
                } else {
                    CHECK_MSG(et.Fmu <= fbest + 1e-12 * fabs(fbest) && et.Fmu <= f0,
                              "line search t=%g F=%.15g, scan t=%g F=%.15g", ts, et.Fmu, tbest,
                              fbest);
                }
                nv_obj_evaluate(&o, w, b, mu, nu, &e); /* restore margins and e */
            }
            /* gradient against central finite differences */
            double g[DIM + 1], h = 1e-6;
            nv_obj_grad(&o, w, nu, g);
            g[DIM] = e.gb;
            double maxerr = 0;
            for (int j = 0; j <= (bias ? DIM : DIM - 1); j++) {
                double wp[DIM], wm[DIM], bp = b, bm = b;
                memcpy(wp, w, sizeof wp);
                memcpy(wm, w, sizeof wm);
                if (j < DIM) { wp[j] += h; wm[j] -= h; }
                else { bp += h; bm -= h; }
                nv_obj_eval ep, em;
                nv_obj_evaluate(&o, wp, bp, mu, nu, &ep);
                nv_obj_evaluate(&o, wm, bm, mu, nu, &em);
                double fd = (ep.Fmu - em.Fmu) / (2 * h);
                maxerr = fmax(maxerr, fabs(fd - g[j]) / fmax(1, fabs(g[j])));
            }
            CHECK_MSG(maxerr < 1e-5, "gradient error %g (bias %d, mu %g)", maxerr, bias, mu);
            nv_obj_evaluate(&o, w, b, mu, nu, &e); /* restore vp/vn */
        }
        /* Lipschitz: ||g(w1) - g(w2)|| <= L ||w1 - w2|| for both constants; power <= paper */
        double tmp[DIM];
        double lam_pow = nv_obj_lipschitz(&o, NV_LIP_POWER, 1, tmp);
        double lam_pap = nv_obj_lipschitz(&o, NV_LIP_PAPER, 1, tmp);
        CHECK(lam_pow > 0 && lam_pow <= lam_pap);
        double worst = 0;
        for (int trial = 0; trial < 2000; trial++) {
            double mu = 0.1, nu = 0.1, w1[DIM], w2[DIM], b1 = 0, b2 = 0, g1[DIM + 1], g2[DIM + 1];
            double scale = trial % 3 == 0 ? 1e-3 : 0.5;
            for (int j = 0; j < DIM; j++) {
                w1[j] = (nv_rng_uniform(&st) - 0.5) * 0.6;
                w2[j] = w1[j] + (nv_rng_uniform(&st) - 0.5) * scale;
            }
            if (bias) { b1 = nv_rng_uniform(&st) - 0.5; b2 = b1 + (nv_rng_uniform(&st) - 0.5) * scale; }
            nv_obj_eval e;
            nv_obj_evaluate(&o, w1, b1, mu, nu, &e);
            nv_obj_grad(&o, w1, nu, g1);
            g1[DIM] = e.gb;
            nv_obj_evaluate(&o, w2, b2, mu, nu, &e);
            nv_obj_grad(&o, w2, nu, g2);
            g2[DIM] = e.gb;
            double dg = 0, dw = 0;
            for (int j = 0; j <= DIM; j++) dg += (g1[j] - g2[j]) * (g1[j] - g2[j]);
            for (int j = 0; j < DIM; j++) dw += (w1[j] - w2[j]) * (w1[j] - w2[j]);
            dw += (b1 - b2) * (b1 - b2);
            if (dw > 0) worst = fmax(worst, sqrt(dg / dw));
        }
        double Lpow = nv_obj_lipschitz_L(&o, lam_pow, 0.1, 0.1);
        CHECK_MSG(worst <= Lpow, "type %d: observed %g > L %g", type, worst, Lpow);
        /* the power estimate brackets the true lambda_max of Z^T diag(c_i/s_i) Z, computed
         * here from the explicit (DIM+1)x(DIM+1) matrix by 5000 dense power steps */
        {
            int q = DIM + bias;
            double M[DIM + 1][DIM + 1] = {{0}}, v[DIM + 1], t[DIM + 1], lam = 0;
            for (int i = 0; i < NS; i++) {
                double z[DIM + 1], s = bias ? 1 : 0;
                for (int j = 0; j < DIM; j++) {
                    z[j] = X[i * DIM + j];
                    s = fmax(s, fabs(z[j]));
                }
                z[DIM] = 1;
                for (int a = 0; a < q; a++)
                    for (int c = 0; c < q; c++)
                        M[a][c] += COST[i] / (type == NV_SVM_LS ? 1 : s) * z[a] * z[c];
            }
            for (int a = 0; a < q; a++) v[a] = 1.0 / (a + 1);
            for (int it = 0; it < 5000; it++) {
                double nrm = 0;
                for (int a = 0; a < q; a++) {
                    t[a] = 0;
                    for (int c = 0; c < q; c++) t[a] += M[a][c] * v[c];
                    nrm += t[a] * t[a];
                }
                nrm = sqrt(nrm);
                lam = nrm;
                for (int a = 0; a < q; a++) v[a] = t[a] / nrm;
            }
            CHECK_MSG(lam_pow >= lam * (1 - 1e-9) && lam_pow <= 1.1 * lam * (1 + 1e-9),
                      "power estimate %g vs lambda_max %g", lam_pow, lam);
        }
        /* weak duality: every lower bound is below every primal value */
        double minP = INFINITY, maxD = -INFINITY;
        for (int trial = 0; trial < 500; trial++) {
            double w[DIM], b = bias ? nv_rng_uniform(&st) - 0.5 : 0;
            for (int j = 0; j < DIM; j++) w[j] = (nv_rng_uniform(&st) - 0.5) * 2;
            nv_obj_eval e;
            double mu = 0.05 + nv_rng_uniform(&st), nu = 0.01 + nv_rng_uniform(&st);
            nv_obj_evaluate(&o, w, b, mu, nu, &e);
            minP = fmin(minP, e.P);
            maxD = fmax(maxD, e.D);
            CHECK(e.Dmu <= e.Fmu + 1e-9);
            CHECK(e.D <= e.P + 1e-9 && e.Dmu <= e.D + 1e-9);
        }
        CHECK(maxD <= minP);
        /* weak duality where it is tight: solve to a certified 1e-9 gap, then
         * no lower bound near the solution may exceed a primal value there
         * (an inflated bound, even by a few percent, fails this) */
        for (int method = 0; method < 2; method++) {
            nesvm_params *prm;
            nesvm_params_create(&prm, NULL);
            const char *types[] = {"c", "lp", "ls"};
            nesvm_params_set(prm, "svm_type", types[type], NULL);
            nesvm_params_set(prm, "bias", bias ? "1" : "0", NULL);
            /* LP-SVM's optimum is a vertex, where 1e-6 already takes mu and
             * nu near 1e-6; Nesterov's first-order steps stop at 1e-6 too */
            double eps = type == NV_SVM_LP || method ? 1e-6 : 1e-9;
            char eps_s[32];
            snprintf(eps_s, sizeof eps_s, "%g", eps);
            nesvm_params_set(prm, "eps", eps_s, NULL);
            nesvm_params_set(prm, "method", method ? "nesterov" : "newton", NULL);
            nesvm_params_set(prm, "max_iter", "2000000", NULL);
            double ws_[DIM];
            nv_binary_result res = {0};
            res.w = ws_;
            CHECK(nv_nesvm_linear_train(&pb, prm, NULL, &res, NULL) == NESVM_OK);
            CHECK_MSG(res.exit_reason == NESVM_EXIT_CONVERGED && res.gap <= eps,
                      "type %d bias %d method %d: exit %d gap %g after %lld iterations", type,
                      bias, method, (int)res.exit_reason, res.gap, (long long)res.iterations);
            nv_obj_eval e;
            nv_obj_evaluate(&o, ws_, res.b, 1e-3, 1e-3, &e);
            CHECK_REL(e.P, res.primal, 1e-12);
            double lo = res.lower_bound, hi = res.primal;
            for (int trial = 0; trial < 300; trial++) {
                double w[DIM], scale = trial % 2 ? 1e-2 : 1e-5;
                for (int j = 0; j < DIM; j++) w[j] = ws_[j] + (nv_rng_uniform(&st) - 0.5) * scale;
                double b = bias ? res.b + (nv_rng_uniform(&st) - 0.5) * scale : 0;
                nv_obj_evaluate(&o, w, b, 1e-4 + 1e-2 * nv_rng_uniform(&st),
                                1e-4 + 1e-2 * nv_rng_uniform(&st), &e);
                lo = fmax(lo, e.D);
                hi = fmin(hi, e.P);
            }
            CHECK_MSG(lo <= hi * (1 + 1e-12), "type %d bias %d: bound %.12g > primal %.12g", type,
                      bias, lo, hi);
            nesvm_params_destroy(prm);
        }
        nv_obj_free(&o);
    }
    nesvm_dataset_destroy(ds);

    /* closed form: x = +1 (y = +1), x = -1 (y = -1), no bias:
     * min 1/2 w^2 + 2C max(0, 1 - w)  ->  w = min(2C, 1) */
    {
        double x2[2] = {1, -1}, y2[2] = {1, -1}, c2[2];
        nesvm_dataset *d2;
        CHECK(nesvm_dataset_wrap_dense(2, 1, x2, y2, &d2, NULL) == NESVM_OK);
        const double Cs[] = {0.1, 0.25, 0.4, 2.0};
        for (int t = 0; t < 8; t++) {
            int method = t / 4;
            c2[0] = c2[1] = Cs[t % 4];
            nv_binary_problem p2 = {d2, NULL, 2, y2, c2, NULL, 0, NULL, NV_TARGET_SIGN};
            nesvm_params *prm;
            nesvm_params_create(&prm, NULL);
            nesvm_params_set(prm, "bias", "0", NULL);
            nesvm_params_set(prm, "eps", "1e-9", NULL);
            nesvm_params_set(prm, "method", method ? "nesterov" : "newton", NULL);
            double w = 0;
            nv_binary_result res = {0};
            res.w = &w;
            CHECK(nv_nesvm_linear_train(&p2, prm, NULL, &res, NULL) == NESVM_OK);
            double wstar = fmin(2 * Cs[t % 4], 1);
            double Pstar = 0.5 * wstar * wstar + 2 * Cs[t % 4] * fmax(0, 1 - wstar);
            CHECK_MSG(fabs(w - wstar) < 1e-4, "method %d C=%g w=%.10g want %.10g", method,
                      Cs[t % 4], w, wstar);
            CHECK_REL(res.primal, Pstar, 1e-8);
            CHECK(res.lower_bound <= Pstar + 1e-12);
            CHECK(res.exit_reason == NESVM_EXIT_CONVERGED);
            /* with a free bias the optimum value is unchanged */
            nesvm_params_set(prm, "bias", "1", NULL);
            CHECK(nv_nesvm_linear_train(&p2, prm, NULL, &res, NULL) == NESVM_OK);
            /* (b is not unique: any |b| <= 1 - w* is optimal) */
            CHECK_MSG(fabs(w - wstar) < 1e-4 && fabs(res.b) <= 1 - wstar + 1e-4, "bias: w %g b %g", w, res.b);
            CHECK_REL(res.primal, Pstar, 1e-8);
            nesvm_params_destroy(prm);
        }
        nesvm_dataset_destroy(d2);
    }
    test_real_targets();
    CHECK_DONE();
}
