/* squared.c - the squared loss l(r) = r^2 (LS-SVM; loss.h).
 *
 * Smooth (never smoothed): l' = 2r, l'' = 2.  It takes a real target,
 * r = y - f (least squares); with a sign target r = 1 - y f and
 * r^2 = (y - f)^2, least squares on the labels.
 * Conjugate: l*(u) = u^2 / 4 on the whole line (q = 1/2). */
#include "loss.h"

#include <stddef.h>

#include <math.h>

static void squared_at(const nv_loss *l, double r, double c, double t, nv_loss_at *o)
{
    (void)l;
    (void)t;
    o->val = o->sval = c * r * r;
    o->u = 2.0 * r;
    o->zone = r != 0;
}

static double squared_curv(const nv_loss *l, double r, double c, double t)
{
    (void)l;
    (void)r;
    (void)t;
    return 2.0 * c;
}

static void squared_dir(const nv_loss *l, double r, double dr, double c, double t, double *s1, double *s2)
{
    (void)l;
    (void)t;
    double q = 2.0 * c * dr;
    *s1 += q * r;
    *s2 += q * dr;
}

const nv_loss nv_loss_squared = {"squared", NV_TARGET_REAL, 0, 0, 0.0, 2.0, -INFINITY, INFINITY, 0.5, 0.0,
                                 squared_at, squared_curv, squared_dir, 0, NULL, 0};
