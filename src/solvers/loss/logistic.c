/* logistic.c - the logistic loss l(r) = log(1 + exp(r - 1)) (logistic
 * regression, LIBLINEAR's -s 0 and -s 7; loss.h).
 *
 * With the residual r = 1 - y f it is the log-likelihood's log(1 + exp(-y f)).
 * Smooth everywhere (never smoothed): l' = sigma(r - 1) in (0, 1), l'' =
 * sigma (1 - sigma) <= 1/4.  Not sparse: every sample carries dual weight.
 * Conjugate on [0, 1]: l*(u) = u + u log u + (1 - u) log(1 - u) (0 log 0 =
 * 0), the dual's entropy; not the quadratic form of the other losses, so it
 * comes through `conj` (loss.h), with l*' = 1 + log(u / (1 - u)) and l*'' =
 * 1 / (u (1 - u)). */
#include "loss.h"

#include <math.h>

/* log(1 + exp(z)) without overflow, and sigma(z) = 1 / (1 + exp(-z)) */
static double softplus(double z) { return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z)); }
static double sigma(double z)
{
    if (z >= 0) return 1.0 / (1.0 + exp(-z));
    double e = exp(z);
    return e / (1.0 + e);
}

static void logistic_at(const nv_loss *l, double r, double c, double t, nv_loss_at *o)
{
    (void)l;
    (void)t;
    o->val = o->sval = c * softplus(r - 1.0);
    o->u = sigma(r - 1.0);
    o->zone = o->u > 0; /* 0 only where exp underflows (y f > 745) */
}

static double logistic_curv(const nv_loss *l, double r, double c, double t)
{
    (void)l;
    (void)t;
    const double u = sigma(r - 1.0), v = sigma(1.0 - r); /* 1 - u without cancellation */
    return c * u * v;
}

static void logistic_dir(const nv_loss *l, double r, double dr, double c, double t, double *s1, double *s2)
{
    (void)l;
    (void)t;
    const double u = sigma(r - 1.0), v = sigma(1.0 - r);
    *s1 += c * u * dr;
    *s2 += c * u * v * dr * dr;
}

static void logistic_conj(double u, double *v, double *d1, double *d2)
{
    u = u < 0 ? 0.0 : u > 1 ? 1.0 : u; /* a multiple of a point in [0, 1] off by a rounding */
    const double w = 1.0 - u;
    const double lu = u > 0 ? log(u) : -INFINITY, lw = w > 0 ? log1p(-u) : -INFINITY;
    *v = u + (u > 0 ? u * lu : 0.0) + (w > 0 ? w * lw : 0.0);
    *d1 = 1.0 + lu - lw;
    *d2 = u > 0 && w > 0 ? 1.0 / (u * w) : INFINITY;
}

const nv_loss nv_loss_logistic = {"logistic", NV_TARGET_SIGN, 0, 0, 0.0, 0.25, 0.0, 1.0, 0.0, 0.0,
                                  logistic_at, logistic_curv, logistic_dir, 0, logistic_conj, 1};
