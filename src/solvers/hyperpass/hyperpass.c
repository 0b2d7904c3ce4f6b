/*
 * hyperpass.c - Hyperpass: a primal cutting-plane solver for the linear SVM
 * with an exact line search, shrinking and a certified gap
 * (../shared/papers/hyperpass-primal-cutting-plane.txt, Algorithms 1 and 2).
 *
 * Problem (hinge.h; model files: c_svm_hinge_l2_regularized_bias):
 *
 *     min_w  P(w) = 1/2 ||w||^2 + sum_i c_i max(0, 1 - y_i <z_i, w>)
 *
 * and epsilon-SVR's tube (svr_epsilon_insensitive_l2_regularized_bias,
 * LIBLINEAR's -s 13 -B) as the same problem over 2n samples with thresholds
 * t_i in place of 1 (nv_tube_split); every margin m_i kept below is then
 * y_i <z_i, w> + 1 - t_i, and the constants of the cuts sum c_i t_i.
 *
 * the paper's f(w) = lambda/2 ||w||^2 + 1/N sum_i hinge_i times 1/lambda when
 * c_i = 1/(lambda N) (--lambda, or -c C: lambda = 1/(C N)).
 *
 * Iteration t, from w = w_{t-1}, the previous lower-bound minimizer w~ and
 * the previous lower bound v (w~_0 = 0, v_0 = 0):
 *   1. the lower bound g_t = 1/2||w||^2 + max(l1, l2, l3 + sum_{L_A} c_i hinge_i) (eq. 15):
 *        l1 = the cutting plane of the loss at w~ (eq. 11),
 *        l2 = v + 1/2 ||w~||^2 - <w~, w>: g2 = v + 1/2||w - w~||^2 keeps the previous
 *             bound's minimum (valid for any dual-feasible point of the last QP),
 *        l3 = the gradient of the loss's differentiable part at w_{t-1}, plus the
 *             samples L_A on the margin kept as hinges (eq. 14);
 *   2. its minimizer w~_t and v_t = the dual objective of the QP (eq. 16-17,
 *      hpqp.c): a certified lower bound on min P by weak duality;
 *   3. the exact line search from w_{t-1} towards w~_t (eq. 18-21, heap-ordered
 *      breakpoints): w_t;
 *   4. stop when P(w_t) - max_t v_t <= eps P(w_t) (relative, default 1e-3) or
 *      (P - v)/sum c_i < eps_abs (the paper's absolute gap, in f's units).
 *
 * Bookkeeping: the margins m_i at w_{t-1} and mt_i at w~ are kept, so the line
 * search gets y_i <z_i, w~ - w> = mt_i - m_i for free and w_t's margins by
 * m + eta (mt - m); the loss gradient on the samples with m_i < 1 is kept as a
 * vector updated row by row when samples change side.  Per iteration: one
 * product y_i <z_i, w~> per working sample, O(K^2 + K) row operations for the
 * QP's Gram matrix (K = |L_A| <= NV_HP_MAX_LA), and one row update per sample
 * changing side.  Every 64 iterations the margins and sums are recomputed
 * from scratch (rounding drift).
 *
 * Shrinking (Section 4.4, Algorithm 2 with the balls reused across
 * iterations as the paper sketches): a ball of centre c and radius R around a
 * past iterate.  Hyperplanes H_i farther than R from c are inactive: inside
 * the ball their hinge is a fixed linear function (or zero), gathered in a
 * vector sF and constant cF.  The working set is the 2^k hyperplanes nearest
 * to c; while w_{t-1}, w~_t and w_t stay inside the ball every quantity above
 * is exact with products on the working set only.  When a point leaves the
 * ball, the ball grows to the next 2^k (Algorithm 2's loop); when the iterates
 * drift away from c relative to their steps, the ball is re-centred on w_t
 * (one product per sample).  The lower bound stays certified: the
 * subgradients it uses are taken at points inside the ball, where they are
 * exact.
 */
#include "hyperpass.h"
#include "hpstate.h"
#include "../track.h"

#include <math.h>
#include <string.h>

static void hp_free(hp *s)
{
    nv_hinge_free(&s->h);
    nv_free(s->w);
    nv_free(s->m);
    nv_free(s->cls);
    nv_free(s->order);
    nv_free(s->Q);
    nv_free(s->chosen);
    nv_free(s->red);
}

/* x[0..n) summed over the ranks (distributed; a failure is kept in s->cst). */
static void hsum(hp *s, double *x, int64_t n)
{
    if (!s->h.comm || s->comm_st != NESVM_OK) return;
    s->comm_st = nv_comm_sum(s->h.comm, x, n, &s->comm_err);
}

static nesvm_status hp_alloc(hp *s, nesvm_error *err)
{
    size_t D = (size_t)(s->D ? s->D : 1), n = (size_t)(s->n ? s->n : 1);
    s->w = nv_malloc_array(10 * D, sizeof(double));
    s->m = nv_malloc_array(6 * n, sizeof(double));
    s->cls = nv_malloc_array(2 * n, 1);
    s->order = nv_malloc_array(3 * n, sizeof(int64_t));
    const size_t q = NV_HP_MAX_LA + 3;
    s->Q = nv_malloc_array(q * q + 3 * q, sizeof(double));
    if (s->h.comm) {
        s->chosen = nv_calloc(n, 1);
        s->red = nv_malloc_array(2 * D + 2, sizeof(double));
    }
    if (!s->w || !s->m || !s->cls || !s->order || !s->Q || (s->h.comm && (!s->chosen || !s->red)))
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for Hyperpass (%lld samples, %lld features)",
                        (long long)s->n, (long long)s->D);
    double *p = s->w;
    double **dv[] = {&s->w, &s->wt, &s->wn, &s->u1, &s->s3, &s->sS, &s->sF, &s->dir, &s->tmp, &s->cen};
    for (int k = 0; k < 10; k++) *dv[k] = p + (size_t)k * D;
    p = s->m;
    double **nvv[] = {&s->m, &s->mt, &s->dl, &s->dist, &s->sqn, &s->heta};
    for (int k = 0; k < 6; k++) *nvv[k] = p + (size_t)k * n;
    s->cst = s->cls + n;
    s->hidx = s->order + n;
    s->lbuf = s->hidx + n;
    s->r = s->Q + q * q;
    s->cc = s->r + q;
    s->beta = s->cc + q;
    return NESVM_OK;
}

static double sqdist(const double *a, const double *b, int64_t D)
{
    double s = 0;
    for (int64_t j = 0; j < D; j++) {
        double t = a[j] - b[j];
        s += t * t;
    }
    return s;
}

/* Is p strictly inside the ball (where the inactive rows' sides hold)? */
static int inside(const hp *s, const double *p)
{
    if (isinf(s->R)) return 1;
    return sqdist(p, s->cen, s->D) < s->R * s->R * (1.0 - 1e-12);
}

static double dist_at(const hp *s, int64_t k) { return k < s->n ? s->dist[s->order[k]] : INFINITY; }

/* Recompute the sums over the working set's samples on the loss side. */
static void rebuild_sums(hp *s)
{
    s->cS = 0;
    if (s->na == s->n) {
        for (int64_t i = 0; i < s->n; i++) {
            s->dl[i] = s->cls[i] == CLS_S ? s->h.c[i] : 0.0;
            s->cS += s->dl[i] * nv_hinge_thr(&s->h, i);
        }
        nv_hinge_xta(&s->h, s->dl, s->sS);
        return;
    }
    memset(s->sS, 0, (size_t)s->D * sizeof(double));
    for (int64_t k = 0; k < s->na; k++) {
        int64_t i = s->order[k];
        if (s->cls[i] == CLS_S) {
            nv_hinge_axpy(&s->h, i, s->h.c[i], s->sS);
            s->cS += s->h.c[i] * nv_hinge_thr(&s->h, i);
        }
    }
}

/* Sample i (in the working set) gets class from its margin; the loss-side sum follows. */
static void reclass(hp *s, int64_t i)
{
    int nc = cls_of(s->m[i]);
    if ((nc == CLS_S) != (s->cls[i] == CLS_S)) {
        double a = nc == CLS_S ? s->h.c[i] : -s->h.c[i];
        nv_hinge_axpy(&s->h, i, a, s->sS);
        s->cS += a * nv_hinge_thr(&s->h, i);
    }
    s->cls[i] = (signed char)nc;
}

static int cmp_dist_ctx_sort(const void *a, const void *b, const double *dist)
{
    double x = dist[*(const int64_t *)a], y = dist[*(const int64_t *)b];
    if (x < y) return -1;
    if (x > y) return 1;
    int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
    return (p > q) - (p < q);
}

/* qsort has no context argument in C11: a merge sort of the order by distance. */
static void sort_by_dist(int64_t *o, int64_t *tmp, int64_t n, const double *dist)
{
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                tmp[k++] = cmp_dist_ctx_sort(&o[b], &o[a], dist) < 0 ? o[b++] : o[a++];
            while (a < mid) tmp[k++] = o[a++];
            while (b < hi) tmp[k++] = o[b++];
        }
        memcpy(o, tmp, (size_t)n * sizeof *o);
    }
}

/* Grow the working set to the 2^k nearest hyperplanes with radius > need.
 * New samples get their margin at w (when w moved from the centre) and at
 * wt_at (when given). */
static void grow(hp *s, double need, const double *wt_at)
{
    int64_t target = s->na < 8 ? 16 : 2 * s->na;
    if (target > s->n) target = s->n;
    while (target < s->n && !(dist_at(s, target) > need)) {
        target *= 2;
        if (target > s->n) target = s->n;
    }
    for (int64_t k = s->na; k < target; k++) {
        int64_t i = s->order[k];
        if (s->moved) s->m[i] = nv_hinge_point_dot(&s->h, i, s->w);
        if (wt_at) s->mt[i] = nv_hinge_point_dot(&s->h, i, wt_at);
        if (s->cst[i]) {
            nv_hinge_axpy(&s->h, i, -s->h.c[i], s->sF);
            s->cF -= s->h.c[i] * nv_hinge_thr(&s->h, i);
        }
        s->cls[i] = CLS_I;
        reclass(s, i);
    }
    s->na = target;
    s->R = dist_at(s, s->na);
}

/* Centre a new ball on w: every margin at w (one product per sample), the
 * distances to the hyperplanes sorted, and an empty working set. */
static void recenter(hp *s)
{
    if (s->na < s->n || s->moved) nv_hinge_point_margins(&s->h, s->w, s->m); /* else all are current */
    for (int64_t i = 0; i < s->n; i++) {
        s->cst[i] = s->m[i] < 1.0;
        s->dist[i] = s->sqn[i] > 0 ? fabs(1.0 - s->m[i]) / sqrt(s->sqn[i]) : INFINITY;
        s->order[i] = i;
        s->dl[i] = s->cst[i] ? s->h.c[i] : 0.0;
    }
    sort_by_dist(s->order, s->hidx, s->n, s->dist);
    /* the order is by distance to the centre: the working set (its first na)
     * is the nearest hyperplanes, and the ball's radius is the next distance */
    for (int64_t k = 1; k < s->n; k++)
        NV_ASSERT(!(s->dist[s->order[k]] < s->dist[s->order[k - 1]]) || isnan(s->dist[s->order[k - 1]]));
    s->cF = 0;
    for (int64_t i = 0; i < s->n; i++) s->cF += s->dl[i] * nv_hinge_thr(&s->h, i);
    nv_hinge_xta(&s->h, s->dl, s->sF);
    memset(s->sS, 0, (size_t)s->D * sizeof(double));
    s->cS = 0;
    memcpy(s->cen, s->w, (size_t)s->D * sizeof(double));
    s->na = 0;
    s->R = dist_at(s, 0);
    s->moved = 0;
}

/* Drop the working set back to no ball: every sample works. */
static void no_ball(hp *s)
{
    nv_hinge_point_margins(&s->h, s->w, s->m);
    for (int64_t i = 0; i < s->n; i++) {
        s->order[i] = i;
        s->cls[i] = (signed char)cls_of(s->m[i]);
    }
    s->na = s->n;
    s->R = INFINITY;
    memset(s->sF, 0, (size_t)s->D * sizeof(double));
    s->cF = 0;
    rebuild_sums(s);
}

/* Margins at p of every working sample (threaded without a ball). */
static void work_margins(hp *s, const double *p, double *out)
{
    if (s->na == s->n) {
        nv_hinge_point_margins(&s->h, p, out);
        return;
    }
    for (int64_t k = 0; k < s->na; k++) {
        int64_t i = s->order[k];
        out[i] = nv_hinge_point_dot(&s->h, i, p);
    }
}

/* Make the ball contain p: grow it (Algorithm 2), or drop it when that would
 * take most samples (then every sample works, with fresh margins at w and,
 * when wt_at is given, at wt_at).  Returns 0 when the ball was dropped. */
static int cover(hp *s, const double *p, const double *wt_at)
{
    while (!inside(s, p)) {
        double need = sqrt(sqdist(p, s->cen, s->D)) * (1.0 + 1e-9);
        int64_t lo = s->na, hi = s->n; /* first k with dist > need */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (dist_at(s, mid) > need) hi = mid;
            else lo = mid + 1;
        }
        if (lo > s->n / 2) {
            no_ball(s);
            if (wt_at) work_margins(s, wt_at, s->mt);
            return 0;
        }
        grow(s, need, wt_at);
    }
    return 1;
}

/* P at w from this rank's margins m, over every rank. */
static double primal_all(hp *s, const double *w, const double *m)
{
    if (!s->h.comm) return nv_hinge_primal(&s->h, w, m);
    double loss = 0;
    for (int64_t i = 0; i < s->n; i++)
        if (m[i] < 1) loss += s->h.c[i] * (1.0 - m[i]);
    hsum(s, &loss, 1);
    return 0.5 * nv_dot(w, w, s->D) + loss;
}

/* ---------------------------------------------------------- the iteration */

/* The training's state beyond the solver's (hp): the best point, the
 * checkpoint state, the lower bounds, the tracker, the shrinking's clock. */
typedef struct hp_run {
    const nv_binary_problem *pb;
    const nesvm_params *prm;
    const nv_comm *comm;  /* distributed: this rank's samples */
    double *wbest, *state;
    double v, vbest, P, n_all;
    nesvm_params tp;      /* the tracker's parameters */
    nv_track tr;
    int64_t last_center, backoff;
} hp_run;
enum { HP_V, HP_VBEST, HP_BEST_P, HP_NSV, HP_STATE };

/* The working memory, and the refusals (on every rank before a collective).
 * On failure everything is freed. */
static nesvm_status hp_open(hp *s, hp_run *r, nesvm_error *err)
{
    nesvm_status st = nv_hinge_init(&s->h, r->pb, r->prm, err);
    s->n = r->pb->n;
    s->D = s->h.D;
    r->comm = s->h.comm;
    if (st == NESVM_OK) st = hp_alloc(s, err);
    r->wbest = st == NESVM_OK ? nv_malloc_array((size_t)(s->D ? s->D : 1), sizeof(double)) : NULL;
    if (st == NESVM_OK && !r->wbest) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (r->comm && st == NESVM_OK && r->prm->warm_pegasos > 0)
        st = nv_error(err, NESVM_ERR_UNSUPPORTED,
                      "Hyperpass's warm start by Pegasos (--warm-start pegasos:ITER) is not distributed "
                      "(--distributed): drop it");
    if (r->comm) st = nv_comm_agree(r->comm, st, err); /* before the collectives */
    if (st != NESVM_OK) {
        nv_free(r->wbest);
        r->wbest = NULL;
        hp_free(s);
    }
    return st;
}

/* The start: w from the problem's warm start (or Pegasos), w~_0 = 0,
 * v_0 = 0, the tracker, and a checkpoint's state when resuming. */
static nesvm_status hp_begin(hp *s, hp_run *r, const nv_progress_sink *sink, double t0, nesvm_error *err)
{
    const nesvm_params *prm = r->prm;
    const int64_t n = s->n, D = s->D;
    nesvm_status st = NESVM_OK;
    /* distributed: no ball (its working set is chosen by distances over
     * every sample); every rank's samples work in every iteration */
    s->shrink = prm->shrinking && !r->comm;
    /* kfin below: the band's size follows every rank's samples */
    r->n_all = (double)n;
    hsum(s, &r->n_all, 1);
    nv_hinge_sqnorms(&s->h, s->sqn);
    nv_hinge_start(&s->h, r->pb, s->w);
    if (prm->warm_pegasos > 0) {
        st = nv_pegasos_run(&s->h, prm, prm->warm_pegasos, s->w, err);
        if (st != NESVM_OK) return st;
    }
    memset(s->wt, 0, (size_t)D * sizeof(double)); /* w~_0 = 0, v_0 = 0 */
    for (int64_t i = 0; i < n; i++) s->mt[i] = 1.0 - nv_hinge_thr(&s->h, i); /* w~'s margins (shifted) */
    no_ball(s);
    r->v = r->vbest = 0;
    double P0 = nv_hp_loss_at(s, s->m, s->w);
    hsum(s, &P0, 1);
    r->P = 0.5 * nv_dot(s->w, s->w, D) + P0;

    /* the tracker's eps_abs is NESVM's rule; Hyperpass's is the absolute gap */
    r->tp = *prm;
    r->tp.eps_abs = 0;
    nv_track *tr = &r->tr;
    nv_track_init(tr, &r->tp, sink, (int32_t)D, r->wbest, t0);
    tr->d_model = s->h.d; /* checkpoints: w and b = B w[d] */
    tr->B = s->h.B;
    tr->comm = r->comm; /* the ranks stop together */
    memcpy(r->wbest, s->w, (size_t)D * sizeof(double));
    tr->best_p = r->P;
    tr->best_d = 0;
    /* checkpoints: the state a continuation needs beyond the best point (the
     * lower bound's aggregate cut (w~, v), the iterate, the best values); the
     * working set and the ball are rebuilt from them */
    const int64_t nstate = HP_STATE + 3 * D;
    const double *x;
    st = nv_track_state(tr, sink, nstate, &r->state, &x, "Hyperpass", err);
    if (st != NESVM_OK) return st;
    if (x) {
        memcpy(s->w, x + HP_STATE, (size_t)D * sizeof(double));
        memcpy(s->wt, x + HP_STATE + D, (size_t)D * sizeof(double));
        memcpy(r->wbest, x + HP_STATE + 2 * D, (size_t)D * sizeof(double));
        r->v = x[HP_V];
        r->vbest = x[HP_VBEST];
        no_ball(s);
        nv_hinge_point_margins(&s->h, s->wt, s->mt);
        tr->best_p = x[HP_BEST_P];
        tr->best_d = r->vbest;
        tr->nsv_best = (int64_t)x[HP_NSV];
    }
    r->last_center = 0;
    r->backoff = 1;
    return NESVM_OK;
}

/* Step 3: the exact line search from w towards w~_t (s->wn), inside the
 * ball (growing it while the step leaves it: Algorithm 2), or collectively
 * over the ranks.  *dropped is set when the ball had to grow. */
static nesvm_status hp_line_step(hp *s, const nv_comm *comm, double *eta_out, int64_t *kink_out, int *dropped,
                                 nesvm_error *err)
{
    const int64_t n = s->n, D = s->D;
    double eta;
    int64_t kink;
    for (;;) {
        for (int64_t k = 0; k < s->na; k++) {
            int64_t i = s->order[k];
            s->dl[i] = s->mt[i] - s->m[i];
        }
        double A = nv_dot(s->w, s->dir, D) - (isinf(s->R) ? 0.0 : nv_dot(s->sF, s->dir, D));
        double Bq = nv_dot(s->dir, s->dir, D);
        if (comm) {
            /* the breakpoints stay on their ranks: collective bracketing */
            double kink_at;
            nesvm_status st = nv_hp_line_search_dist(&s->h, s->m, s->dl, A, Bq, &eta, &kink_at, err);
            kink = -1;
            /* this rank's samples on the minimizer's breakpoint go on the margin */
            for (int64_t i = 0; st == NESVM_OK && !isnan(kink_at) && i < n; i++)
                if (s->dl[i] != 0 && (1.0 - s->m[i]) / s->dl[i] == kink_at) s->heta[i] = 1.0;
                else s->heta[i] = 0.0;
            if (st == NESVM_OK && isnan(kink_at)) memset(s->heta, 0, (size_t)(n ? n : 1) * sizeof(double));
            *eta_out = eta;
            *kink_out = kink;
            return st;
        }
        eta = nv_hp_line_search(s->na, s->na == n ? NULL : s->order, s->m, s->dl, s->h.c, A, Bq, s->heta,
                                s->hidx, &kink, NULL);
        if (isinf(s->R)) break;
        for (int64_t j = 0; j < D; j++) s->tmp[j] = s->w[j] + eta * s->dir[j];
        if (inside(s, s->tmp)) break;
        *dropped |= !cover(s, s->tmp, s->wn); /* Algorithm 2: a larger ball, search again */
    }
    *eta_out = eta;
    *kink_out = kink;
    return NESVM_OK;
}

/* The move to w_t = w + eta (w~_t - w), its margins and classes; w~_t
 * becomes the kept minimizer; every 64 iterations the margins and sums are
 * recomputed (rounding drift). */
static void hp_move(hp *s, hp_run *r, int64_t t, double eta, int64_t kink)
{
    const int64_t n = s->n, D = s->D;
    if (eta > 0) {
        for (int64_t j = 0; j < D; j++) s->w[j] += eta * s->dir[j];
        for (int64_t k = 0; k < s->na; k++) {
            int64_t i = s->order[k];
            s->m[i] += eta * s->dl[i];
        }
        if (kink >= 0) s->m[kink] = 1.0; /* on its hinge exactly */
        if (r->comm)
            for (int64_t i = 0; i < n; i++)
                if (s->heta[i] != 0) s->m[i] = 1.0;
        s->moved = 1;
    }
    for (int64_t k = 0; k < s->na; k++) reclass(s, s->order[k]);
    double *sw = s->wt;
    s->wt = s->wn;
    s->wn = sw;
    if (t % 64 == 0) {
        if (s->shrink && !isinf(s->R)) {
            recenter(s);
            grow(s, sqrt(sqdist(s->wt, s->w, D)) * 2.0, s->wt);
            r->last_center = t;
        } else {
            work_margins(s, s->w, s->m);
            work_margins(s, s->wt, s->mt);
            for (int64_t k = 0; k < s->na; k++) {
                int64_t i = s->order[k];
                s->cls[i] = (signed char)cls_of(s->m[i]);
            }
            rebuild_sums(s);
        }
    }
}

/* Step 4: P(w_t), the report, the checkpoint state and the stopping rules;
 * returns non-zero to stop (st says whether with an error). */
static int hp_report(hp *s, hp_run *r, double eta, int qp_iters, nesvm_status *st, nesvm_error *err)
{
    const int64_t D = s->D;
    double ln[2] = {nv_hp_loss_at(s, s->m, s->w), 0.0}; /* loss and support vectors, every rank's */
    for (int64_t k = 0; k < s->na; k++) ln[1] += s->cls[s->order[k]] != CLS_I;
    hsum(s, ln, 2);
    if (s->comm_st != NESVM_OK) {
        *st = nv_error(err, s->comm_st, "%s", s->comm_err.message);
        return 1;
    }
    r->P = 0.5 * nv_dot(s->w, s->w, D) + ln[0];
    nv_obj_eval e;
    memset(&e, 0, sizeof e);
    e.P = e.Fmu = r->P;
    e.D = e.Dmu = r->vbest;
    e.nsv = (int64_t)ln[1];
    nv_track_info info = {NAN, NAN, eta, qp_iters, 0, 0, 0, 0, NAN, NAN};
    nv_track *tr = &r->tr;
    if (r->state) { /* the state after this iteration, as nv_track_iterate will leave it */
        int better = e.P < tr->best_p;
        r->state[HP_V] = r->v;
        r->state[HP_VBEST] = r->vbest;
        r->state[HP_BEST_P] = better ? e.P : tr->best_p;
        r->state[HP_NSV] = (double)(better ? e.nsv : tr->nsv_best);
        memcpy(r->state + HP_STATE, s->w, (size_t)D * sizeof(double));
        memcpy(r->state + HP_STATE + D, s->wt, (size_t)D * sizeof(double));
        memcpy(r->state + HP_STATE + 2 * D, better ? s->w : r->wbest, (size_t)D * sizeof(double));
    }
    if (nv_track_iterate(tr, &e, s->w, 0.0, &info, st, err)) return 1;
    if (r->prm->eps_abs > 0 && (r->P - r->vbest) / s->h.csum < r->prm->eps_abs) {
        tr->why = NESVM_EXIT_CONVERGED;
        return 1;
    }
    if (!(r->P - r->vbest > 1e-15 * fabs(r->P))) {
        tr->why = NESVM_EXIT_CONVERGED;
        return 1;
    }
    return 0;
}

/* Shrinking: a ball that failed (dropped within a few iterations) doubles
 * the wait before the next one; one that lasted halves it.  A new ball
 * around w reaching twice the distance to w~, when the iterates have drifted
 * from the centre (or there is no ball). */
static void hp_shrink(hp *s, hp_run *r, int64_t t, int dropped)
{
    const int64_t n = s->n, D = s->D;
    if (dropped) {
        r->backoff = t - r->last_center < 8 ? (r->backoff < 256 ? 2 * r->backoff : 256) : 1;
        r->last_center = t;
    }
    if (!(s->shrink && n > 256 && t - r->last_center >= r->backoff)) return;
    double step = sqrt(sqdist(s->wt, s->w, D));
    double drift = isinf(s->R) ? INFINITY : sqrt(sqdist(s->w, s->cen, D));
    /* without a ball every margin is current: count the ball first */
    int64_t in_ball = 0;
    if (isinf(s->R))
        for (int64_t i = 0; i < n; i++)
            in_ball += s->sqn[i] > 0 && fabs(1.0 - s->m[i]) <= 2.0 * step * sqrt(s->sqn[i]);
    if (in_ball > n / 2) {
        r->backoff = r->backoff < 256 ? 2 * r->backoff : 256;
        r->last_center = t;
    } else if (drift > 4.0 * step) {
        recenter(s);
        grow(s, 2.0 * step, s->wt);
        r->last_center = t;
        if (s->na > n / 2) {
            no_ball(s);
            r->backoff = r->backoff < 256 ? 2 * r->backoff : 256;
        }
    }
}

/* The finish: fresh margins at the best point, and the band's exact bound
 * (nv_hp_bound_at): samples whose side at the optimum is certain
 * (|m_i - 1| > rho ||z_i||, rho = sqrt(2 gap) bounds ||w - w*||) are fixed,
 * the rest kept as hinges; the exact minimum of that bound is w* itself when
 * the band holds every margin sample of w*.  Then the result. */
static nesvm_status hp_finish(hp *s, hp_run *r, nv_binary_result *res, nesvm_error *err)
{
    const int64_t n = s->n, D = s->D;
    const nv_comm *comm = r->comm;
    nv_track *tr = &r->tr;
    memcpy(s->w, r->wbest, (size_t)D * sizeof(double));
    nv_hinge_point_margins(&s->h, s->w, s->m);
    double Pf = primal_all(s, s->w, s->m);
    double vb;
    /* at most max(sqrt(2n), n/16) samples, in [32, 256]: the Gram matrix
     * costs at most a few passes */
    double kf = fmax(sqrt(2.0 * r->n_all), r->n_all / 16.0);
    int kfin = kf > NV_HP_FINISH_LA ? NV_HP_FINISH_LA : kf < 32 ? 32 : (int)kf;
    const double rho = sqrt(2.0 * fmax(Pf - r->vbest, 0.0)) * 1.01;
    nesvm_status st = comm ? nv_hp_bound_at_dist(&s->h, s->m, s->sqn, rho, kfin, &vb, s->wn, err)
                           : nv_hp_bound_at(&s->h, s->m, s->sqn, rho, kfin, &vb, s->wn, err);
    if (st == NESVM_OK) {
        if (vb > r->vbest) r->vbest = vb;
        nv_hinge_point_margins(&s->h, s->wn, s->mt);
        double Pn = primal_all(s, s->wn, s->mt);
        /* kept when lower, or equal to rounding: then it is the canonical
         * point (the band's exact minimizer, the same whatever the path) */
        if (Pn <= Pf + 1e-14 * fabs(Pf)) {
            Pf = Pn;
            memcpy(s->w, s->wn, (size_t)D * sizeof(double));
            memcpy(s->m, s->mt, (size_t)n * sizeof(double));
        }
    }
    /* the finish is the last iteration of the progress reports and traces */
    if (st == NESVM_OK) {
        nv_obj_eval e;
        memset(&e, 0, sizeof e);
        e.P = e.Fmu = Pf;
        e.D = e.Dmu = r->vbest;
        double nsv = 0;
        for (int64_t i = 0; i < n; i++) nsv += s->m[i] <= 1.0 + NV_HP_MARGIN_TOL;
        hsum(s, &nsv, 1);
        e.nsv = (int64_t)nsv;
        nv_track_info info = {NAN, NAN, NAN, 0, 0, 0, 0, 0, NAN, NAN};
        nesvm_exit why = tr->why;
        nv_track_iterate(tr, &e, s->w, 0.0, &info, &st, err);
        if (st == NESVM_OK && tr->why != NESVM_EXIT_CONVERGED) tr->why = why;
    }
    res->exit_reason = tr->why;
    res->iterations = tr->iter;
    res->primal = Pf;
    res->lower_bound = r->vbest;
    if (st == NESVM_OK) st = nv_certify(Pf, r->vbest, &res->gap, err);
    if (st != NESVM_OK) res->exit_reason = NESVM_EXIT_NUMERIC;
    double nsv = 0;
    for (int64_t i = 0; i < n; i++) nsv += s->m[i] <= 1.0 + NV_HP_MARGIN_TOL;
    hsum(s, &nsv, 1);
    res->n_sv = (int64_t)nsv;
    if (s->comm_st != NESVM_OK) st = nv_error(err, s->comm_st, "%s", s->comm_err.message);
    nv_hinge_result(&s->h, s->w, res->w, &res->b);
    res->dots = s->h.dots;
    res->axpys = s->h.axpys;
    return st;
}

nesvm_status nv_hyperpass_train(const nv_binary_problem *pb, const nesvm_params *prm,
                                const nv_progress_sink *sink, nv_binary_result *res,
                                nesvm_error *err)
{
    hp s;
    memset(&s, 0, sizeof s);
    hp_run r;
    memset(&r, 0, sizeof r);
    r.pb = pb;
    r.prm = prm;
    double t0 = nv_now();
    /* a regression: the tube is two hinges with thresholds over twice the
     * samples (hinge.h); the margins kept are shifted by 1 - t_i, so that
     * every kink is at 1 (nv_hinge_point_margins) and the cuts' constants
     * are sums of c_i t_i */
    nv_tube_split split;
    memset(&split, 0, sizeof split);
    nesvm_status st = NESVM_OK;
    if (pb->target == NV_TARGET_REAL) {
        if (prm->warm_pegasos > 0)
            return nv_error(err, NESVM_ERR_UNSUPPORTED,
                            "Hyperpass's warm start by Pegasos (--warm-start pegasos:ITER) is a classifier's: drop it "
                            "for --svm-type svr");
        st = nv_tube_split_init(&split, pb, prm->epsilon, err);
        if (nv_comm_many(pb->comm)) st = nv_comm_agree(pb->comm, st, err);
        if (st != NESVM_OK) {
            nv_tube_split_free(&split);
            return st;
        }
        r.pb = &split.pb;
    }
    st = hp_open(&s, &r, err);
    if (st != NESVM_OK) {
        nv_tube_split_free(&split);
        return st;
    }
    s.h.t = split.t;
    const int64_t D = s.D;
    st = hp_begin(&s, &r, sink, t0, err);
    for (int64_t t = 1; st == NESVM_OK; t++) {
        /* 1-2. the lower bound g_t and its minimizer w~_t (into s.wn) */
        int qp_iters = 0;
        double vt = 0;
        st = r.comm ? nv_hp_lower_bound_dist(&s, r.v, &vt, &qp_iters, err) : nv_hp_lower_bound(&s, r.v, &vt, &qp_iters, err);
        if (st != NESVM_OK) break;
        if (!isfinite(vt)) {
            r.tr.why = NESVM_EXIT_NUMERIC;
            st = nv_error(err, NESVM_ERR_NUMERIC,
                          "non-finite lower bound at iteration %lld (check the data scale and -B)", (long long)t);
            break;
        }
        r.v = vt;
        if (r.v > r.vbest) r.vbest = r.v;
        /* margins at w~_t for the working set (the ball must contain w~_t) */
        int dropped = s.shrink && !cover(&s, s.wn, NULL);
        work_margins(&s, s.wn, s.mt);
        for (int64_t j = 0; j < D; j++) s.dir[j] = s.wn[j] - s.w[j];
        /* 3. the exact line search, and the move */
        double eta;
        int64_t kink;
        st = hp_line_step(&s, r.comm, &eta, &kink, &dropped, err);
        if (st != NESVM_OK) break;
        hp_move(&s, &r, t, eta, kink);
        /* 4. the primal, the report and the stopping rules */
        if (hp_report(&s, &r, eta, qp_iters, &st, err)) break;
        hp_shrink(&s, &r, t, dropped);
    }
    if (st == NESVM_OK) st = hp_finish(&s, &r, res, err);
    res->seconds = nv_now() - t0;
    nv_free(r.wbest);
    nv_free(r.state);
    hp_free(&s);
    nv_tube_split_free(&split);
    return st;
}
