/*
 * loss.h - a loss is one object (not installed).
 *
 * A solver minimizes R(w) + sum_i c_i l(r_i) over a model f; r_i is the
 * sample's residual, which the target kind defines:
 *
 *   NV_TARGET_SIGN  y_i = +-1:   r_i = 1 - y_i f(x_i)  (classification)
 *   NV_TARGET_REAL  y_i real:    r_i = y_i - f(x_i)    (regression)
 *   NV_TARGET_NONE  no target:   r_i = rho - f(x_i)    (novelty)
 *
 * The loss l is convex and known through
 *   - its value, first derivative and curvature (generalized Hessian where l
 *     has a kink) at r;
 *   - NESVM's smoothed form (papers/nesvm, eq. 5-10) with width t = mu s_i:
 *         l_t(r) = max_{u in dom} ( u r - l*(u) - t/2 u^2 ),
 *     a convex function with l_t'' <= 1/t, l_t <= l <= l_t + bound t
 *     (Theorem 1's analogue, bound = max_{u in dom} u^2 / 2); a loss that is
 *     already smooth (`smoothed` 0) is never smoothed: t is ignored;
 *   - its conjugate l*(u) on the domain [lo, hi], which the certificates'
 *     dual bounds use: for a dual point alpha_i = c_i u_i (u_i in dom) the
 *     dual value is sum_i (alpha_i target_i - c_i l*(alpha_i / c_i)) - R*(.);
 *     the losses here have l*(u) = q/2 u^2 + e |u| on the domain (conj_q,
 *     conj_e), which gives the dual's best multiple of a point in closed form
 *     (nv_loss_dual_scale).
 * Every per-sample operation takes the sample's cost c_i and returns c_i
 * times the loss's quantity, in the one order of floating-point operations
 * the solvers rely on (two evaluations in two solvers agree to the bit).
 *
 * Instances: one file each in this folder (hinge.c, squared.c, ...), one
 * line each in the registry of losses (losses.c: nv_loss_find).  Who
 * takes which loss is the registry's (nv_solver.losses) and
 * docs/solvers.md's "Losses".
 */
#ifndef NESVM_LOSS_H
#define NESVM_LOSS_H

typedef enum nv_target {
    NV_TARGET_SIGN = 0, /* +-1 labels: classification */
    NV_TARGET_REAL = 1, /* real values: regression */
    NV_TARGET_NONE = 2  /* no target: novelty */
} nv_target;

/* One sample's loss at residual r, cost c, smoothing width t. */
typedef struct nv_loss_at {
    double val;  /* c l(r) */
    double sval; /* c l_t(r) (= val for a loss that is not smoothed) */
    double u;    /* l_t'(r), in the conjugate's domain: the dual point is c u */
    int zone;    /* 0: u = 0 (the sample carries no dual weight); 1: inside the
                  * smoothing zone or the loss's curved part (curvature > 0);
                  * 2: u at a bound of the domain, past the zone (curvature 0) */
} nv_loss_at;

typedef struct nv_loss nv_loss;
struct nv_loss {
    const char *name;    /* as written in problem names and --loss */
    nv_target target;    /* the target it takes: SIGN, or REAL (which takes signs
                          * too: a sign is a real number), or NONE */
    int smoothed;        /* 1: not differentiable, NESVM smooths it; 0: smooth */
    int sparse;          /* 1: l'(r) = 0 for r <= 0 (samples past the margin carry
                          * no dual weight: working sets, polishing apply) */
    double smooth_bound; /* l(r) - l_t(r) <= smooth_bound t for every r */
    double curv_max;     /* smooth losses: sup l'' (the Lipschitz constant's loss
                          * factor); smoothed losses: 0 (l_t'' <= 1/t) */
    double lo, hi;       /* the conjugate's domain (the range of l'), may be infinite */
    double conj_q, conj_e; /* l*(u) = conj_q/2 u^2 + conj_e |u| on [lo, hi] */

    /* c l(r), c l_t(r), l_t'(r) and the zone, at once (nv_loss_at); l is
     * the instance (its tube's half-width conj_e). */
    void (*at)(const nv_loss *l, double r, double c, double t, nv_loss_at *out);
    /* c l_t''(r): the curvature (0 outside the zone; t = 0: the generalized
     * Hessian of l). */
    double (*curv)(const nv_loss *l, double r, double c, double t);
    /* Along a direction dr of the residual: s1 += c l_t'(r) dr and
     * s2 += c l_t''(r) dr^2 (the exact line searches). */
    void (*dir)(const nv_loss *l, double r, double dr, double c, double t, double *s1, double *s2);
    int tube;            /* 1: a regression's epsilon-insensitive tube, of
                          * half-width conj_e, the instance's (nv_loss_tube); the
                          * registry's instance has e = 0.  Its domain is
                          * [-1, 1] or the whole line. */
    /* A conjugate that is not conj_q/2 u^2 + conj_e |u| (conj_q = conj_e =
     * 0 then): l*(u), l*'(u) and l*''(u) at u in [lo, hi] (the logistic
     * loss's entropy); NULL for the quadratic form.  nv_loss_conj and the
     * NESVM certificate's best multiple read it (objective.c); the dual
     * coordinate method and the kernel expansions take only the quadratic
     * form. */
    void (*conj)(double u, double *v, double *d1, double *d2);
    /* 1: l'' > 0 everywhere and smooth (the logistic loss): Newton's
     * quadratic model of the objective holds far from the point, so its CG
     * needs no budget of passes (newton.c); 0: a piecewise loss (kinks,
     * flat parts, a smoothing zone), whose model holds only nearby */
    int curved;
};

/* c l(r): the unsmoothed weighted loss. */
static inline double nv_loss_value(const nv_loss *l, double r, double c)
{
    nv_loss_at a;
    l->at(l, r, c, 0.0, &a);
    return a.val;
}

/* The instance of l a training minimizes: a tube loss (l->tube) with the
 * half-width e >= 0 (the svm_type's epsilon, -p), any other l as it is. */
static inline nv_loss nv_loss_tube(const nv_loss *l, double e)
{
    nv_loss k = *l;
    if (k.tube) k.conj_e = e;
    return k;
}

/* c l*(alpha / c), the conjugate term of a dual point alpha, which the
 * caller keeps in the domain scaled by c (alpha / c in [lo, hi]; not
 * checked: a point feasible by construction may be off by a rounding). */
double nv_loss_conj(const nv_loss *l, double alpha, double c);

/* The dual's best multiple theta of a balanced dual point, whose value is
 *   D(theta) = theta S - theta^2/2 K,  tmin <= theta <= tmax
 * (tmin 0 for a domain bounded below, as the hinge's [0, 1] and the squared
 * hinge's [0, inf); -INFINITY and INFINITY for the whole line), with
 * S = sum alpha_i target_i - sum conj_e |alpha_i|, K = sum conj_q
 * alpha_i^2 / c_i + the regularizer's quadratic term (and the smoothing's
 * prox term for the smoothed dual).  Both ends infinite: the unconstrained
 * maximum S^2 / (2K) (0 when K = 0).  Returns D, theta into *theta. */
double nv_loss_dual_scale(double S, double K, double tmin, double tmax, double *theta);

/* The registry's losses (losses.c): by name, or the i-th (NULL past the
 * last). */
const nv_loss *nv_loss_find(const char *name);
const nv_loss *nv_loss_at_index(int i);

#endif
