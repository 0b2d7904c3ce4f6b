/* test_loss.c - every loss of the registry (loss.h) against independent
 * truths: its derivative and curvature against finite differences of its
 * value, the smoothed form against the definition
 * l_t(r) = max_{u in [lo, hi]} (u r - l*(u) - t/2 u^2) solved in closed form
 * from the conjugate's coefficients, the smoothing bound (Theorem 1's
 * analogue), Fenchel-Young's equality l(r) + l*(l'(r)) = r l'(r), the
 * directional derivatives of the line searches, and the dual's best multiple
 * against a scan; a tube loss (epsilon-SVR) also at two half-widths.  A new
 * loss is tested here by its registry line alone. */
#include "../../src/solvers/solver.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* argmax_{u in [lo, hi]} u r - q/2 u^2 - e |u| - t/2 u^2 (q + t > 0, or a
 * bounded domain when q + t = 0), and the maximum. */
static double smoothed_by_definition(const nv_loss *l, double r, double t, double *uout)
{
    if (l->conj) {
        /* a conjugate of its own (the logistic loss's): the maximizer solves
         * r = l*'(u) + t u, l*' increasing; bisection on [lo, hi] */
        double a = l->lo, b = l->hi, v, d1, d2;
        for (int k = 0; k < 200 && b - a > 0; k++) {
            double m = 0.5 * (a + b);
            if (m <= a || m >= b) break;
            l->conj(m, &v, &d1, &d2);
            if (r - d1 - t * m > 0) a = m;
            else b = m;
        }
        double u = 0.5 * (a + b);
        l->conj(u, &v, &d1, &d2);
        *uout = u;
        return u * r - v - 0.5 * t * u * u;
    }
    double k = l->conj_q + t, e = l->conj_e, u;
    if (k > 0) {
        u = r > e ? (r - e) / k : r < -e ? (r + e) / k : 0.0;
    } else {
        u = r > e ? l->hi : r < -e ? l->lo : 0.0;
    }
    if (u > l->hi) u = l->hi;
    if (u < l->lo) u = l->lo;
    *uout = u;
    return u * r - 0.5 * l->conj_q * u * u - e * fabs(u) - 0.5 * t * u * u;
}

static double val_at(const nv_loss *l, double r, double c, double t, int smoothed)
{
    nv_loss_at a;
    l->at(l, r, c, t, &a);
    return smoothed ? a.sval : a.val;
}

static void test_loss(const nv_loss *l)
{
    const double cs[] = {1.0, 0.3, 7.5};
    const double ts[] = {0.0, 0.05, 0.7};
    int fails0 = check_failed;
    for (int ci = 0; ci < 3; ci++)
        for (int ti = 0; ti < 3; ti++)
            for (int k = 0; k <= 80; k++) {
                const double c = cs[ci], t = l->smoothed ? ts[ti] : 0.0, r = -2.0 + 0.05 * k + 0.0013;
                nv_loss_at a;
                l->at(l, r, c, t, &a);
                /* the smoothed form by its definition (t = 0: the loss itself) */
                double u_def, v_def = smoothed_by_definition(l, r, t, &u_def);
                CHECK_MSG(fabs(a.sval - c * v_def) <= 1e-12 * (1 + fabs(a.sval)),
                          "%s r=%g t=%g: %.17g vs %.17g", l->name, r, t, a.sval, c * v_def);
                CHECK_MSG(fabs(a.u - u_def) <= 1e-12 * (1 + fabs(u_def)), "%s r=%g t=%g: u %.17g vs %.17g",
                          l->name, r, t, a.u, u_def);
                CHECK(a.u >= l->lo && a.u <= l->hi);
                CHECK(a.zone == (a.u == 0 ? 0 : (a.u == l->lo || a.u == l->hi) ? 2 : 1));
                /* the unsmoothed value and Theorem 1's analogue */
                double u0, v0 = smoothed_by_definition(l, r, 0.0, &u0);
                CHECK(fabs(a.val - c * v0) <= 1e-12 * (1 + fabs(a.val)));
                CHECK(a.sval <= a.val + 1e-12 && a.val - a.sval <= c * l->smooth_bound * t + 1e-12);
                if (!l->smoothed) CHECK(a.sval == a.val);
                /* Fenchel-Young at u0 = l'(r) */
                CHECK(fabs(a.val + nv_loss_conj(l, c * u0, c) - c * u0 * r) <= 1e-12 * (1 + fabs(a.val)));
                /* the derivative and curvature against central differences
                 * (away from the kinks: where the curvature changes nearby) */
                const double h = 1e-6;
                double cm = l->curv(l, r - h, c, t), cp = l->curv(l, r + h, c, t), cc = l->curv(l, r, c, t);
                int kink = cm != cc || cp != cc;
                if (!kink && (l->smoothed ? t > 0 : 1)) {
                    double fd = (val_at(l, r + h, c, t, 1) - val_at(l, r - h, c, t, 1)) / (2 * h);
                    CHECK_MSG(fabs(fd - c * a.u) <= 1e-6 * (1 + fabs(fd)), "%s r=%g: l' %g vs %g", l->name, r,
                              c * a.u, fd);
                    nv_loss_at ap, am;
                    l->at(l, r + h, c, t, &ap);
                    l->at(l, r - h, c, t, &am);
                    double fd2 = c * (ap.u - am.u) / (2 * h);
                    CHECK_MSG(fabs(fd2 - cc) <= 1e-5 * (1 + fabs(fd2)), "%s r=%g: l'' %g vs %g", l->name, r,
                              cc, fd2);
                }
                /* the line searches' directional terms */
                double s1 = 0.25, s2 = 0.5;
                l->dir(l, r, -0.7, c, t, &s1, &s2);
                CHECK(fabs(s1 - 0.25 - c * a.u * -0.7) <= 1e-12 * (1 + fabs(s1)));
                CHECK(fabs(s2 - 0.5 - cc * 0.49) <= 1e-12 * (1 + fabs(s2)));
                /* the Lipschitz constants' bound on the curvature */
                if (!l->smoothed) CHECK(cc <= c * l->curv_max + 1e-12);
                if (l->smoothed && t > 0) CHECK(cc <= c / t + 1e-12);
                if (l->sparse && r <= 0) CHECK(a.u == 0);
            }
    if (l->conj) {
        /* its own conjugate's derivatives against central differences, and
         * nv_loss_conj's c l*(alpha / c) */
        for (int k = 1; k < 100; k++) {
            const double u = k / 100.0, h = 1e-6;
            double v, d1, d2, vp, vm, g1, g2, x;
            l->conj(u, &v, &d1, &d2);
            l->conj(u + h, &vp, &g1, &x);
            l->conj(u - h, &vm, &g2, &x);
            CHECK_MSG(fabs((vp - vm) / (2 * h) - d1) <= 1e-6 * (1 + fabs(d1)), "%s l*'(%g)", l->name, u);
            CHECK_MSG(fabs((g1 - g2) / (2 * h) - d2) <= 1e-5 * (1 + fabs(d2)), "%s l*''(%g)", l->name, u);
            CHECK(fabs(nv_loss_conj(l, 2.5 * u, 2.5) - 2.5 * v) <= 1e-14 * (1 + fabs(v)));
        }
    }
    if (check_failed > fails0) fprintf(stderr, "loss %s: %d failures\n", l->name, check_failed - fails0);
}

/* nv_loss_dual_scale against a scan of theta. */
static void test_dual_scale(void)
{
    const double Ss[] = {2.0, 0.5, -1.0}, Ks[] = {0.0, 1.0, 4.0}, tm[] = {0.3, 1.0, INFINITY};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int m = 0; m < 3; m++)
                for (int whole = 0; whole < 2; whole++) {
                    /* [0, tmax], or (whole, with tmax infinite) the whole line */
                    double S = Ss[a], K = Ks[b], tmax = tm[m], tmin = whole ? -INFINITY : 0.0, th;
                    if (whole && isfinite(tmax)) continue;
                    if (!isfinite(tmax) && K == 0 && (whole || S > 0)) continue; /* unbounded: no maximum */
                    double D = nv_loss_dual_scale(S, K, tmin, tmax, &th);
                    CHECK(fabs(D - (th * S - 0.5 * th * th * K)) <= 1e-12);
                    CHECK(th >= tmin && th <= tmax);
                    double lo = whole ? -10.0 : 0.0, hi = isfinite(tmax) ? tmax : 10.0, best = -INFINITY;
                    for (int k = 0; k <= 200000; k++) {
                        double x = lo + (hi - lo) * k / 200000.0, v = x * S - 0.5 * x * x * K;
                        if (v > best) best = v;
                    }
                    CHECK_MSG(D >= best - 1e-9 && D <= best + 1e-9, "S=%g K=%g tmax=%g: %g vs scan %g", S, K,
                              tmax, D, best);
                }
}

int main(void)
{
    int n = 0;
    for (const nv_loss *l; (l = nv_loss_at_index(n)); n++) {
        CHECK(nv_loss_find(l->name) == l);
        test_loss(l);
        /* a tube's instances (nv_loss_tube: its half-width e is conj_e) */
        const double es[] = {0.3, 1.5};
        for (int k = 0; k < 2; k++) {
            nv_loss inst = nv_loss_tube(l, es[k]);
            CHECK(inst.conj_e == (l->tube ? es[k] : l->conj_e));
            if (l->tube) test_loss(&inst);
        }
    }
    CHECK(nv_loss_find("epsilon_insensitive") && nv_loss_find("epsilon_insensitive")->tube &&
          nv_loss_find("squared_epsilon_insensitive") && !nv_loss_find("hinge")->tube);
    CHECK(n >= 2 && nv_loss_find("hinge") && nv_loss_find("squared") && !nv_loss_find("nope"));
    test_dual_scale();
    /* the params' instance: the svm_type's loss (or --loss) with -p as its
     * tube's half-width, the classifier's hinge untouched by -p */
    nesvm_params *prm = NULL;
    CHECK(nesvm_params_create(&prm, NULL) == NESVM_OK && nesvm_params_set(prm, "epsilon", "0.25", NULL) == NESVM_OK);
    nv_loss hinge = nv_params_loss_inst(prm);
    CHECK(strcmp(hinge.name, "hinge") == 0 && hinge.conj_e == 0 && !hinge.tube);
    CHECK(nesvm_params_set(prm, "svm_type", "svr", NULL) == NESVM_OK);
    nv_loss tube = nv_params_loss_inst(prm);
    CHECK(strcmp(tube.name, "epsilon_insensitive") == 0 && tube.conj_e == 0.25 && tube.tube);
    CHECK(nesvm_params_set(prm, "loss", "squared_epsilon_insensitive", NULL) == NESVM_OK);
    CHECK(nv_params_loss_inst(prm).conj_e == 0.25 && nv_params_loss_inst(prm).curv_max > 0);
    nesvm_params_destroy(prm);
    printf("%d losses; %d passed, %d failed\n", n, check_passed, check_failed);
    return check_failed != 0;
}
