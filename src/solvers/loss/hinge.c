/* hinge.c - the hinge loss l(r) = max(0, r) (C-SVM, LP-SVM; loss.h).
 *
 * Smoothed (NESVM's eq. 5-10, prox-function t/2 u^2 on u in [0, 1]):
 *   l_t(r) = 0 (r <= 0),  r^2 / (2t) (0 < r < t),  r - t/2 (r >= t),
 * l_t' = clip(r/t, 0, 1), l_t'' = 1/t inside the zone; l - l_t <= t/2.
 * Conjugate: l*(u) = 0 on [0, 1]. */
#include "loss.h"

#include <stddef.h>

static void hinge_at(const nv_loss *l, double r, double c, double t, nv_loss_at *o)
{
    (void)l;
    o->val = o->sval = o->u = 0;
    o->zone = 0;
    if (r > 0) {
        o->val = c * r;
        if (r >= t) {
            o->u = 1.0;
            o->sval = c * (r - 0.5 * t);
            o->zone = 2;
        } else {
            o->u = r / t;
            o->sval = c * r * o->u * 0.5;
            o->zone = 1;
        }
    }
}

static double hinge_curv(const nv_loss *l, double r, double c, double t)
{
    (void)l;
    return (r > 0 && r < t) ? c / t : 0.0;
}

static void hinge_dir(const nv_loss *l, double r, double dr, double c, double t, double *s1, double *s2)
{
    (void)l;
    if (r <= 0) return;
    if (r >= t) {
        *s1 += c * dr;
    } else {
        double q = c * dr / t;
        *s1 += q * r;
        *s2 += q * dr;
    }
}

const nv_loss nv_loss_hinge = {"hinge", NV_TARGET_SIGN, 1, 1, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0,
                               hinge_at, hinge_curv, hinge_dir, 0, NULL, 0};
