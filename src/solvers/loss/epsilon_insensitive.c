/* epsilon_insensitive.c - the epsilon-insensitive loss l(r) = max(0, |r| - e)
 * (epsilon-SVR: LIBSVM -s 3, LIBLINEAR -s 12/13; loss.h).  Its tube's
 * half-width e is the instance's conj_e (nv_loss_tube: -p).
 *
 * Two hinges, smoothed as NESVM smooths the hinge (prox-function t/2 u^2
 * on u in [-1, 1]; Theorem 1's bound carries over, l - l_t <= t/2):
 *   l_t(r) = 0 (|r| <= e),  (|r| - e)^2 / (2t) (e < |r| < e + t),
 *            |r| - e - t/2 (|r| >= e + t),
 * l_t' = sign(r) clip((|r| - e)/t, 0, 1), l_t'' = 1/t inside the two zones.
 * Conjugate: l*(u) = e |u| on [-1, 1]. */
#include "loss.h"

#include <stddef.h>

#include <math.h>

static void eps_at(const nv_loss *l, double r, double c, double t, nv_loss_at *o)
{
    const double a = fabs(r) - l->conj_e, sg = r < 0 ? -1.0 : 1.0;
    o->val = o->sval = o->u = 0;
    o->zone = 0;
    if (a > 0) {
        o->val = c * a;
        if (a >= t) {
            o->u = sg;
            o->sval = c * (a - 0.5 * t);
            o->zone = 2;
        } else {
            double v = a / t;
            o->u = sg * v;
            o->sval = c * a * v * 0.5;
            o->zone = 1;
        }
    }
}

static double eps_curv(const nv_loss *l, double r, double c, double t)
{
    double a = fabs(r) - l->conj_e;
    return (a > 0 && a < t) ? c / t : 0.0;
}

static void eps_dir(const nv_loss *l, double r, double dr, double c, double t, double *s1, double *s2)
{
    const double a = fabs(r) - l->conj_e, sg = r < 0 ? -1.0 : 1.0;
    if (a <= 0) return;
    if (a >= t) {
        *s1 += c * sg * dr;
    } else {
        double q = c * dr / t;
        *s1 += q * sg * a;
        *s2 += q * dr;
    }
}

const nv_loss nv_loss_epsilon_insensitive = {"epsilon_insensitive", NV_TARGET_REAL, 1, 0, 0.5, 0.0, -1.0, 1.0,
                                             0.0, 0.0, eps_at, eps_curv, eps_dir, 1, NULL, 0};
