/* squared_hinge.c - the squared hinge l(r) = max(0, r)^2 (LIBLINEAR's L2-loss
 * SVM, -s 1/2; loss.h).
 *
 * Once differentiable (never smoothed): l' = 2 max(0, r), the generalized
 * Hessian 2 for r > 0, else 0.  Sparse duals: samples with r <= 0 carry no
 * weight.  Conjugate: l*(u) = u^2/4 on [0, inf) (q = 1/2). */
#include "loss.h"

#include <stddef.h>

#include <math.h>

static void squared_hinge_at(const nv_loss *l, double r, double c, double t, nv_loss_at *o)
{
    (void)l;
    (void)t;
    const double p = r > 0 ? r : 0.0;
    o->val = o->sval = c * p * p;
    o->u = 2.0 * p;
    o->zone = p > 0;
}

static double squared_hinge_curv(const nv_loss *l, double r, double c, double t)
{
    (void)l;
    (void)t;
    return r > 0 ? 2.0 * c : 0.0;
}

static void squared_hinge_dir(const nv_loss *l, double r, double dr, double c, double t, double *s1, double *s2)
{
    (void)l;
    (void)t;
    if (r <= 0) return;
    double q = 2.0 * c * dr;
    *s1 += q * r;
    *s2 += q * dr;
}

const nv_loss nv_loss_squared_hinge = {"squared_hinge", NV_TARGET_SIGN, 0, 1, 0.0, 2.0, 0.0, INFINITY, 0.5, 0.0,
                                       squared_hinge_at, squared_hinge_curv, squared_hinge_dir, 0, NULL, 0};
