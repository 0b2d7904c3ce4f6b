/*
 * dcd.c - NESVM's dual method (method "dcd"): coordinate descent on the
 * dual of a linear model under the L2 norm, with shrinking (Hsieh, Chang,
 * Lin, Keerthi and Sundararajan 2008: the method of LIBLINEAR's -s 1, -s 3),
 * stopped by the same certificate as the primal methods.
 *
 * The problem min 1/2 ||w||^2 + sum_i c_i l(r_i), r_i = t_i - s_i (w.x_i + b)
 * (objective.h: s_i = y_i, t_i = 1 for labels; s_i = 1, t_i = y_i for real
 * targets) has the dual, for any loss whose conjugate is
 * l*(u) = q/2 u^2 + e |u| on [lo, hi] (loss.h),
 *     max  sum_i (alpha_i t_i - q/(2 c_i) alpha_i^2 - e |alpha_i|) - 1/2 ||w(alpha)||^2
 *     over c_i lo <= alpha_i <= c_i hi,   w(alpha) = sum_i alpha_i s_i x_i,
 * and with a free bias the constraint sum_i alpha_i s_i = 0.  One
 * coordinate step maximizes over alpha_i alone: with the residual r_i at
 * the current w (one x_i.w), the step is the soft threshold of
 * alpha_i + r_i / h_i at e / h_i, h_i = ||x_i||^2 + q / c_i, clipped to the
 * box; w moves by the change times s_i x_i (one axpy).  Cost per step: two
 * passes over x_i's values; no step depends on C beyond the box, which is
 * why the method does not slow down at large C where the dual is strictly
 * concave (features at least as many as rows: docs/solvers.md, "Choosing
 * the method").
 *
 * The free bias enters by the method of multipliers: b is the multiplier of
 * sum alpha_i s_i = 0, the coordinates maximize the augmented dual
 * (- b sigma - rho/2 sigma^2, sigma = sum alpha_i s_i, which adds rho to
 * h_i and rho s_i sigma to the step's gradient), and after every epoch
 * b += rho sigma: a proximal point method on b with weight 1/rho.  The
 * primal point at any time is (w, b + rho sigma).  rho is the mean
 * ||x_i||^2, a bias feature of the features' scale.
 *
 * Shrinking: a coordinate at a bound of its box whose gradient pushes past
 * the bound by more than the last epoch's largest violation leaves the
 * active set; when the active set is solved to the current tolerance, all
 * coordinates return and the tolerance shrinks tenfold.
 *
 * The certificate: after about n coordinate steps (at least one epoch),
 * w = X^T(alpha s) is recomputed exactly (one X^T*a), the margins (one X*w),
 * and nv_obj_evaluate_dual gives P at (w, b) and the dual value of the
 * balanced alpha's best multiple; the tracker stops at the certified gap.
 * Where the last full check's lower bound rose by less than a tenth of the
 * gap (the primal is what lags), a check evaluates P alone at the steps' w
 * (one X*w), the full one at least every NV_NESVM_DCD_FULL_EVERY checks.
 *
 * Memory: each coordinate's state in one 64-byte record; the coming steps'
 * records and rows prefetched (the random order's loads miss the caches).
 */
#include "nesvm_solver.h"
#include "../track.h"
#include "tuning.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* One coordinate's state and constants, packed so that a step on a random
 * coordinate reads one cache line, not one per array (a step's other
 * memory traffic is its row: at 200,000 rows, unpacked, those misses took
 * a fifth of the training time). */
typedef struct dcd_coord {
    double a;      /* alpha_i */
    double h;      /* the step's curvature ||x_i||^2 + q / c_i (+ rho) */
    double lo, hi; /* the box c_i [lo, hi] */
    double t, s;   /* the target t_i and the sign s_i */
    double c;      /* c_i */
    int64_t r;     /* the row in X */
} dcd_coord;

/* How many steps ahead the loop asks for a coordinate, its row's offset and
 * its row (each needs the one before to have arrived) */
#define DCD_AHEAD_COORD 16
#define DCD_AHEAD_START 10
#define DCD_AHEAD_ROW 5

typedef struct dcd {
    nv_obj *o;
    int64_t n;
    dcd_coord *cd; /* n coordinates, 64-byte aligned inside cd_raw */
    void *cd_raw;
    double *w;
    int64_t *idx;
    double b, rho, sigma;
    double q, e, lo, hi; /* the conjugate's terms and domain */
    uint64_t rng;
} dcd;

/* A check: the exact w = X^T(alpha s), the margins and the certificate of
 * (w, b + rho sigma) (full), or only P at the steps' own w and b (not full:
 * the tracker keeps the last lower bound); to the tracker; 1 when training
 * stops. */
static int dcd_check(dcd *s, nv_track *tr, int64_t epochs, int64_t active, int full, nesvm_status *st,
                     nesvm_error *err)
{
    nv_obj *o = s->o;
    double sigma = 0;
    for (int64_t i = 0; i < s->n; i++) {
        o->a[i] = s->cd[i].a;
        sigma += s->cd[i].a * s->cd[i].s;
    }
    if (full) s->sigma = sigma; /* the steps' running sum, exact again */
    const double b = o->bias ? s->b + s->rho * s->sigma : 0.0;
    nv_obj_eval e;
    if (full) {
        nv_obj_evaluate_dual(o, s->w, b, &e);
    } else {
        nv_obj_evaluate_primal(o, s->w, b, &e);
        e.D = e.Dmu = tr->best_d;
    }
    nv_track_info info = {0.0, NAN, NAN, epochs, 1, active, 0, 0, NAN, NAN};
    return nv_track_iterate(tr, &e, s->w, b, &info, st, err);
}

/* One coordinate step on sample i; returns its projected gradient (the
 * violation of its optimality condition: 0 when optimal) into *pg and
 * whether it may leave the active set under the bound m_old. */
static int dcd_step(dcd *s, int64_t i, double m_old, double *pg)
{
    const nv_obj *o = s->o;
    dcd_coord *cd = &s->cd[i];
    const double c = cd->c, sg = cd->s, a = cd->a, lo = cd->lo, hi = cd->hi;
    /* the gradient of the smooth part: r_i - q alpha / c - rho s_i sigma */
    double g = cd->t - sg * (nv_row_dot(o->pb->X, cd->r, s->w) + s->b) - s->q * a / c;
    if (o->bias) g -= s->rho * sg * s->sigma;
    /* the violation: the gradient net of e |alpha| and of the box */
    double v;
    if (a > 0 || (a == 0 && g > s->e)) v = g - s->e;
    else if (a < 0 || g < -s->e) v = g + s->e;
    else v = 0.0;
    int shrink = 0;
    if (a <= lo && v <= 0) {
        shrink = v < -m_old;
        v = 0;
    } else if (a >= hi && v >= 0) {
        shrink = v > m_old;
        v = 0;
    } else if (a == 0 && v == 0 && s->e > 0) {
        shrink = fabs(g) < s->e - m_old;
    }
    *pg = v;
    if (shrink) return 1;
    if (v == 0 || !(cd->h > 0)) return 0;
    double z = a + g / cd->h;
    if (s->e > 0) {
        double th = s->e / cd->h;
        z = z > th ? z - th : (z < -th ? z + th : 0.0);
    }
    z = z < lo ? lo : (z > hi ? hi : z);
    double dl = z - a;
    if (dl != 0) {
        cd->a = z;
        nv_row_axpy(o->pb->X, cd->r, dl * sg, s->w);
        s->sigma += dl * sg;
    }
    return 0;
}

/* The starting dual point: 0, or from a warm start's margins the smoothed
 * loss's derivative (the dual point NESVM's first stage would certify
 * with); w = X^T(alpha s) follows at the first check. */
static void dcd_start(dcd *s, const nv_binary_problem *pb, const double *w0, double b0)
{
    nv_obj *o = s->o;
    for (int64_t i = 0; i < s->n; i++) s->cd[i].a = 0;
    s->b = b0;
    if (!w0) return;
    nv_obj_margins(o, w0, b0);
    for (int64_t i = 0; i < s->n; i++) {
        nv_loss_at at;
        o->loss->at(o->loss, nv_obj_resid(o, i, o->m[i]), pb->cost[i], NV_NESVM_DCD_WARM_MU * o->s[i], &at);
        s->cd[i].a = pb->cost[i] * at.u;
    }
}

int nv_nesvm_dcd_takes(const nv_binary_problem *pb, const nesvm_params *prm)
{
    /* the smoothing options ask for the smoothed problem, which the dual
     * method does not solve; the L1 norm's dual is not a box */
    const nv_loss *l = nv_params_loss(prm);
    return !nv_params_l1(prm) && !nv_comm_many(pb->comm) && prm->mu == 0 && prm->mu_star == 0 &&
           prm->continuation == NV_CONT_ADAPTIVE && l && !l->conj;
}

nesvm_status nv_nesvm_dcd_train(const nv_binary_problem *pb, const nesvm_params *prm,
                                const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int32_t d = pb->X->d;
    const int64_t n = pb->n;
    const int bias = nv_params_bias(prm);
    if (!nv_nesvm_dcd_takes(pb, prm)) {
        res->exit_reason = NESVM_EXIT_NUMERIC;
        return nv_error(err, NESVM_ERR_ARG,
                        "--method dcd solves the linear problem under the L2 norm on one process: "
                        "not LP-SVM, not logistic regression, not over MPI, not a fixed smoothing (--mu, "
                        "--mu-star, --continuation paper); use --method newton");
    }
    nv_obj obj;
    const nv_loss inst = nv_params_loss_inst(prm);
    nesvm_status st = nv_obj_init(&obj, pb, &inst, 0, bias, prm->threads, err);
    if (st != NESVM_OK) {
        res->exit_reason = st == NESVM_ERR_NOMEM ? NESVM_EXIT_NO_MEMORY : NESVM_EXIT_NUMERIC;
        return st;
    }
    dcd s;
    memset(&s, 0, sizeof s);
    s.o = &obj;
    s.n = n;
    s.q = obj.loss->conj_q;
    s.e = obj.loss->conj_e;
    s.lo = obj.loss->lo;
    s.hi = obj.loss->hi;
    s.rng = prm->seed ^ UINT64_C(0xDCD);
    const size_t nn = (size_t)(n ? n : 1);
    double *wbest = nv_malloc_array((size_t)d + 1, sizeof(double));
    double *state = NULL;
    double *hh = nv_malloc_array(nn, sizeof(double));
    s.cd_raw = nv_malloc_array(nn + 1, sizeof(dcd_coord)); /* one more: room to align */
    s.idx = nv_malloc_array(nn, sizeof(int64_t));
    s.w = nv_malloc_array((size_t)d + 1, sizeof(double));
    if (!wbest || !hh || !s.cd_raw || !s.idx || !s.w) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the dual method's work arrays (n=%lld, d=%d)",
                      (long long)n, d);
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    s.cd = (dcd_coord *)(((uintptr_t)s.cd_raw + 63) & ~(uintptr_t)63);
    nv_row_norms(pb->X, pb->rows, n, NULL, hh);
    double qsum = 0;
    for (int64_t i = 0; i < n; i++) qsum += hh[i];
    s.rho = bias && n > 0 ? (qsum > 0 ? qsum / (double)n : 1.0) : 0.0;
    for (int64_t i = 0; i < n; i++) {
        const double c = pb->cost[i];
        s.cd[i] = (dcd_coord){0.0, hh[i] + s.q / c + s.rho, c * s.lo, c * s.hi,
                              obj.real ? pb->y[i] : 1.0, nv_obj_sign(&obj, i), c, pb->rows ? pb->rows[i] : i};
        s.idx[i] = i;
    }
    nv_free(hh);
    hh = NULL;
    nv_track tr;
    double b0 = nv_track_start(&tr, pb, prm, sink, s.w, wbest, t0);
    dcd_start(&s, pb, pb->w0, b0);
    /* checkpoints: alpha and the multiplier b */
    const double *resume;
    st = nv_track_state(&tr, sink, n + 1, &state, &resume, "dual coordinate descent", err);
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NUMERIC;
        goto out;
    }
    if (resume) {
        for (int64_t i = 0; i < n; i++) s.cd[i].a = resume[i];
        s.b = resume[n];
    }
    int64_t active = n, epochs = 0;
    double m_old = INFINITY, tol = NV_NESVM_DCD_TOL0, work = 0;
    if (state) {
        for (int64_t i = 0; i < n; i++) state[i] = s.cd[i].a;
        state[n] = s.b;
    }
    if (dcd_check(&s, &tr, epochs, active, 1, &st, err)) goto done;
    int since_full = 0;      /* checks since the last full one */
    double d_gain = INFINITY; /* the lower bound's rise at the last full check */
    while (1) {
        /* a random order of the active coordinates */
        for (int64_t k = 0; k + 1 < active; k++) {
            int64_t j = k + (int64_t)(nv_rng_next(&s.rng) % (uint64_t)(active - k));
            int64_t t = s.idx[k];
            s.idx[k] = s.idx[j];
            s.idx[j] = t;
        }
        double m = 0;
        for (int64_t k = 0; k < active; k++) {
            /* ahead of the steps (the order is random): the coordinates, then
             * their rows' offsets, then their rows */
            if (k + DCD_AHEAD_COORD < active) __builtin_prefetch(&s.cd[s.idx[k + DCD_AHEAD_COORD]]);
            if (k + DCD_AHEAD_START < active) nv_row_prefetch_start(pb->X, s.cd[s.idx[k + DCD_AHEAD_START]].r);
            if (k + DCD_AHEAD_ROW < active) nv_row_prefetch_row(pb->X, s.cd[s.idx[k + DCD_AHEAD_ROW]].r);
            double pg;
            if (dcd_step(&s, s.idx[k], m_old, &pg)) {
                active--;
                int64_t t = s.idx[k];
                s.idx[k] = s.idx[active];
                s.idx[active] = t;
                k--;
                continue;
            }
            if (fabs(pg) > m) m = fabs(pg);
        }
        epochs++;
        work += (double)active;
        const int bmoved = bias && s.b + s.rho * s.sigma != s.b;
        if (bias) s.b += s.rho * s.sigma;
        if (m <= tol) {
            /* the active set is solved: bring every coordinate back, and
             * ask for more once the whole set is solved */
            if (active == n) tol *= 0.1;
            active = n;
            m_old = INFINITY;
        } else {
            m_old = m;
        }
        if (work >= (double)n || epochs % NV_NESVM_DCD_CHECK_MAX == 0) {
            work = 0;
            if (state) {
                for (int64_t i = 0; i < n; i++) state[i] = s.cd[i].a;
                state[n] = s.b;
            }
            /* the lower bound when it moved by at least a tenth of the gap
             * at the last full check (else the gap is the primal's to close:
             * P alone, one pass instead of two), and every few checks */
            const double gap = tr.best_p - tr.best_d;
            const int full = since_full + 1 >= NV_NESVM_DCD_FULL_EVERY || !(d_gain < 0.1 * gap);
            const double d_before = tr.best_d;
            if (dcd_check(&s, &tr, epochs, active, full, &st, err)) break;
            if (full) {
                d_gain = tr.best_d - d_before;
                since_full = 0;
            } else {
                since_full++;
            }
            if (m == 0 && active == n && !bmoved) {
                /* every coordinate optimal: nothing moves any more */
                tr.why = NESVM_EXIT_STALLED;
                break;
            }
        }
    }
done:
    nv_track_result(&tr, res);
out:
    res->seconds = nv_now() - t0;
    nv_free(state);
    nv_free(wbest);
    nv_free(hh);
    nv_free(s.cd_raw);
    nv_free(s.idx);
    nv_free(s.w);
    nv_obj_free(&obj);
    return st;
}
