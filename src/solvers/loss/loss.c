/* loss.c - what every loss shares: its conjugate term and the dual's best
 * multiple (loss.h).  Callers: the NESVM objective's certificate
 * (nesvm/objective.c) and the kernel expansions' recertification
 * (nesvm/expansion_ws.c). */
#include "loss.h"
#include "../../core/internal.h"

#include <math.h>

double nv_loss_conj(const nv_loss *l, double alpha, double c)
{
    /* (q/2 a) a / c: the order that keeps c l*(a/c) = a^2/(4c) exact for
     * the squared loss's q = 1/2 (scaling by a power of two is exact) */
    NV_ASSERT(c > 0); /* a sample's cost (solver.h: C_i > 0) */
    if (l->conj) {
        double v, d1, d2;
        l->conj(alpha / c, &v, &d1, &d2);
        return c * v;
    }
    double v = 0.5 * l->conj_q * alpha * alpha / c;
    if (l->conj_e != 0) v += l->conj_e * fabs(alpha);
    return v;
}

double nv_loss_dual_scale(double S, double K, double tmin, double tmax, double *theta)
{
    if (!isfinite(tmin) && !isfinite(tmax)) {
        /* the whole line: the unconstrained maximum */
        *theta = K > 0 ? S / K : 0.0;
        return K > 0 ? 0.5 * S * S / K : 0.0;
    }
    /* D is concave in theta: its maximizer S/K, kept in [tmin, tmax]; with
     * K = 0 the end S points to (0 where that end is infinite: then S = 0,
     * or the dual would be unbounded) */
    NV_ASSERT(tmax >= tmin); /* the callers' domain bounds (hi / umax, 1 / ||X^T(a y)||_inf) */
    double th = K > 0 ? S / K : S >= 0 ? (isfinite(tmax) ? tmax : 0.0) : (isfinite(tmin) ? tmin : 0.0);
    if (th > tmax) th = tmax;
    if (th < tmin) th = tmin;
    *theta = th;
    return K > 0 ? th * S - 0.5 * th * th * K : th * S;
}
