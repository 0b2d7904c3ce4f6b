/* test_objective.c - smoothed hinge: value, gradient (finite differences),
 * Theorem 1 bounds, Lipschitz bounds, weak duality; the solver on a closed form. */
#include "../../src/solvers/chinge.h"
#include "check.h"

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
    nv_binary_problem p = {*ds, NULL, NS, Y, COST, NULL, 0};
    *pb = p;
}

int main(void)
{
    nesvm_dataset *ds;
    nv_binary_problem pb;
    setup(&pb, &ds, 3);
    uint64_t st = 99;
    for (int bias = 0; bias <= 1; bias++) {
        nv_chinge o;
        CHECK(nv_chinge_init(&o, &pb, bias, 1, NULL) == NESVM_OK);
        for (int trial = 0; trial < 20; trial++) {
            double mu = trial % 2 ? 0.3 : 0.05;
            double w[DIM], b = bias ? nv_rng_uniform(&st) - 0.5 : 0;
            for (int j = 0; j < DIM; j++) w[j] = (nv_rng_uniform(&st) - 0.5) * 2;
            nv_chinge_eval e;
            nv_chinge_evaluate(&o, w, b, mu, &e);
            /* value against a direct evaluation of eq. (10) */
            double P = 0, F = 0, slack = 0;
            for (int j = 0; j < DIM; j++) P += 0.5 * w[j] * w[j];
            F = P;
            for (int i = 0; i < NS; i++) {
                double m = b * bias, s = bias ? 1 : 0;
                for (int j = 0; j < DIM; j++) {
                    m += X[i * DIM + j] * w[j];
                    s = fmax(s, fabs(X[i * DIM + j]));
                }
                double r = 1 - Y[i] * m;
                P += COST[i] * fmax(0, r);
                double h = r <= 0 ? 0 : (r >= mu * s ? r - mu * s / 2 : r * r / (2 * mu * s));
                F += COST[i] * h;
                slack += COST[i] * mu * s / 2;
            }
            CHECK_REL(e.P, P, 1e-12);
            CHECK_REL(e.Fmu, F, 1e-12);
            /* Theorem 1: F_mu <= P <= F_mu + mu/2 sum c_i s_i */
            CHECK(e.Fmu <= e.P + 1e-12 && e.P <= e.Fmu + slack + 1e-12);
            /* exact line search along a random direction against a dense scan
             * of F_mu evaluated from scratch (o->m holds the margins at w, b) */
            {
                double p[DIM], pb_ = bias ? nv_rng_uniform(&st) - 0.5 : 0, mp[NS], A = 0, B = 0;
                for (int j = 0; j < DIM; j++) {
                    p[j] = (nv_rng_uniform(&st) - 0.5) * 2;
                    A += w[j] * p[j];
                    B += p[j] * p[j];
                }
                for (int i = 0; i < NS; i++) {
                    mp[i] = pb_;
                    for (int j = 0; j < DIM; j++) mp[i] += X[i * DIM + j] * p[j];
                }
                double ts = nv_chinge_line_search(&o, mp, mu, A, B);
                double wt[DIM];
                nv_chinge_eval et;
                double f0 = e.Fmu, fbest = INFINITY, tbest = 0;
                for (int k = 0; k <= 4000; k++) {
                    double t = (ts > 0 ? 3 * ts : 3.0) * k / 4000.0;
                    for (int j = 0; j < DIM; j++) wt[j] = w[j] + t * p[j];
                    nv_chinge_evaluate(&o, wt, b + t * pb_, mu, &et);
                    if (et.Fmu < fbest) {
                        fbest = et.Fmu;
                        tbest = t;
                    }
                }
                for (int j = 0; j < DIM; j++) wt[j] = w[j] + ts * p[j];
                nv_chinge_evaluate(&o, wt, b + ts * pb_, mu, &et);
                if (tbest == 0) {
                    /* the direction ascends: the search must return 0 */
                    CHECK_MSG(ts == 0, "ascent direction but t = %g", ts);
                } else {
                    CHECK_MSG(et.Fmu <= fbest + 1e-12 * fabs(fbest) && et.Fmu <= f0,
                              "line search t=%g F=%.15g, scan t=%g F=%.15g", ts, et.Fmu, tbest,
                              fbest);
                }
                nv_chinge_evaluate(&o, w, b, mu, &e); /* restore margins and e */
            }
            /* gradient against central finite differences */
            double g[DIM + 1], h = 1e-6;
            for (int j = 0; j < DIM; j++) g[j] = w[j] - (o.vp[j] - o.vn[j]);
            g[DIM] = e.gb;
            double maxerr = 0;
            for (int j = 0; j <= (bias ? DIM : DIM - 1); j++) {
                double wp[DIM], wm[DIM], bp = b, bm = b;
                memcpy(wp, w, sizeof wp);
                memcpy(wm, w, sizeof wm);
                if (j < DIM) { wp[j] += h; wm[j] -= h; }
                else { bp += h; bm -= h; }
                nv_chinge_eval ep, em;
                nv_chinge_evaluate(&o, wp, bp, mu, &ep);
                nv_chinge_evaluate(&o, wm, bm, mu, &em);
                double fd = (ep.Fmu - em.Fmu) / (2 * h);
                maxerr = fmax(maxerr, fabs(fd - g[j]) / fmax(1, fabs(g[j])));
            }
            CHECK_MSG(maxerr < 1e-5, "gradient error %g (bias %d, mu %g)", maxerr, bias, mu);
            nv_chinge_evaluate(&o, w, b, mu, &e); /* restore vp/vn */
        }
        /* Lipschitz: ||g(w1) - g(w2)|| <= L ||w1 - w2|| for both constants; power <= paper */
        double tmp[DIM];
        double lam_pow = nv_chinge_lipschitz(&o, NV_LIP_POWER, 1, tmp);
        double lam_pap = nv_chinge_lipschitz(&o, NV_LIP_PAPER, 1, tmp);
        CHECK(lam_pow > 0 && lam_pow <= lam_pap);
        double worst = 0;
        for (int trial = 0; trial < 2000; trial++) {
            double mu = 0.1, w1[DIM], w2[DIM], b1 = 0, b2 = 0, g1[DIM + 1], g2[DIM + 1];
            double scale = trial % 3 == 0 ? 1e-3 : 0.5;
            for (int j = 0; j < DIM; j++) {
                w1[j] = (nv_rng_uniform(&st) - 0.5) * 0.6;
                w2[j] = w1[j] + (nv_rng_uniform(&st) - 0.5) * scale;
            }
            if (bias) { b1 = nv_rng_uniform(&st) - 0.5; b2 = b1 + (nv_rng_uniform(&st) - 0.5) * scale; }
            nv_chinge_eval e;
            nv_chinge_evaluate(&o, w1, b1, mu, &e);
            for (int j = 0; j < DIM; j++) g1[j] = w1[j] - (o.vp[j] - o.vn[j]);
            g1[DIM] = e.gb;
            nv_chinge_evaluate(&o, w2, b2, mu, &e);
            for (int j = 0; j < DIM; j++) g2[j] = w2[j] - (o.vp[j] - o.vn[j]);
            g2[DIM] = e.gb;
            double dg = 0, dw = 0;
            for (int j = 0; j <= DIM; j++) dg += (g1[j] - g2[j]) * (g1[j] - g2[j]);
            for (int j = 0; j < DIM; j++) dw += (w1[j] - w2[j]) * (w1[j] - w2[j]);
            dw += (b1 - b2) * (b1 - b2);
            if (dw > 0) worst = fmax(worst, sqrt(dg / dw));
        }
        CHECK_MSG(worst <= 1 + lam_pow / 0.1, "observed %g > L %g", worst, 1 + lam_pow / 0.1);
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
                    for (int c = 0; c < q; c++) M[a][c] += COST[i] / s * z[a] * z[c];
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
            nv_chinge_eval e;
            nv_chinge_evaluate(&o, w, b, 0.05 + nv_rng_uniform(&st), &e);
            minP = fmin(minP, e.P);
            maxD = fmax(maxD, e.D);
            CHECK(e.Dmu <= e.Fmu + 1e-9);
        }
        CHECK(maxD <= minP);
        nv_chinge_free(&o);
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
            nv_binary_problem p2 = {d2, NULL, 2, y2, c2, NULL, 0};
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
    CHECK_DONE();
}
