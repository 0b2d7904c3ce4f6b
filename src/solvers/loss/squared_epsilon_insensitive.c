/* squared_epsilon_insensitive.c - the squared epsilon-insensitive loss
 * l(r) = max(0, |r| - e)^2 (L2-loss SVR: LIBLINEAR -s 11, scikit-learn's
 * LinearSVR loss='squared_epsilon_insensitive'; loss.h).  Its tube's
 * half-width e is the instance's conj_e (nv_loss_tube: -p).
 *
 * Once differentiable (never smoothed): l' = 2 sign(r) (|r| - e)_+,
 * l'' = 2 outside the tube (the generalized Hessian; 0 inside).
 * Conjugate: l*(u) = u^2 / 4 + e |u| on the whole line (q = 1/2). */
#include "loss.h"

#include <stddef.h>

#include <math.h>

static void sqeps_at(const nv_loss *l, double r, double c, double t, nv_loss_at *o)
{
    (void)t;
    const double a = fabs(r) - l->conj_e;
    o->val = o->sval = o->u = 0;
    o->zone = 0;
    if (a > 0) {
        o->val = o->sval = c * a * a;
        o->u = (r < 0 ? -2.0 : 2.0) * a;
        o->zone = 1;
    }
}

static double sqeps_curv(const nv_loss *l, double r, double c, double t)
{
    (void)t;
    return fabs(r) - l->conj_e > 0 ? 2.0 * c : 0.0;
}

static void sqeps_dir(const nv_loss *l, double r, double dr, double c, double t, double *s1, double *s2)
{
    (void)t;
    const double a = fabs(r) - l->conj_e;
    if (a <= 0) return;
    double q = 2.0 * c * dr;
    *s1 += q * (r < 0 ? -a : a);
    *s2 += q * dr;
}

const nv_loss nv_loss_squared_epsilon_insensitive = {"squared_epsilon_insensitive", NV_TARGET_REAL, 0, 0, 0.0,
                                                     2.0, -INFINITY, INFINITY, 0.5, 0.0,
                                                     sqeps_at, sqeps_curv, sqeps_dir, 1, NULL, 0};
