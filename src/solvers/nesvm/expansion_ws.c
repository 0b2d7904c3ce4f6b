/*
 * expansion_ws.c - the full-kernel C-SVM on a working set: kernel work that
 * grows with the support vectors, not with n^2.
 *
 * The problem is expansion.c's, over all n rows of the binary problem:
 *     min_{beta, b}  P(beta, b) = 1/2 beta^T K beta + sum_i c_i max(0, r_i),
 *     r_i = 1 - y_i ((K beta)_i + b),
 * and NESVM's smoothed objective F_mu with the same continuation.  At the
 * optimum of F_mu, beta_i = y_i c_i u_i with u_i = median(r_i / mu, 0, 1):
 * beta vanishes on every sample beyond the margin (r_i <= 0).  So:
 *
 *   1. S = a random set of NV_NESVM_WS_INIT rows (both classes; with a warm
 *      start also the rows whose coefficient is not zero);
 *   2. solve the problem restricted to S (its rows and its coefficients, the
 *      others held at zero) with expansion.c's Newton method on K_SS (a
 *      stored matrix of |S|^2 values), warm-started from the previous round,
 *      to NV_NESVM_WS_EPS times the caller's eps;
 *   3. the margins of all n rows from the columns of the coefficients that
 *      are not zero (about the support vectors: n x |supp| kernel values,
 *      computed in blocks and kept in the column cache, so that a column is
 *      computed once across rounds and, one-vs-one, across the pairs that
 *      share its class);
 *   4. certify on the whole problem in double precision (certify_double):
 *      P(beta, b) over all n rows from the double-precision margins, against
 *      the dual value D of a feasible dual point built from beta (box, and
 *      sum a_i y_i = 0), K (a y) from the same columns.  gap = (P - D) / |P|
 *      <= eps ends the training;
 *   5. otherwise the rows outside S with r_i > 0 (violators) join S (the
 *      worst first, at most max(|S|, WS_INIT)), the rows of S whose
 *      coefficient is zero and whose margin is beyond 1 + NV_NESVM_WS_DROP
 *      leave it (each row leaves at most once, so the rounds end), and the
 *      next round starts at 2.  When S and its violators would reach
 *      NV_NESVM_WS_FULL of the rows, S becomes all rows: the whole problem,
 *      warm-started, with its own certificate.
 *
 * When no row outside S violates its margin the restricted optimum is the
 * whole problem's (the rows outside contribute neither loss nor gradient),
 * so the certificate closes as the sub-problem's does, up to the rounding of
 * its single-precision K_SS: a gap in double precision still above eps then
 * ends the training "stalled" (at C = 1e4 and eps 1e-6 on small problems).
 * Kernel values: the
 * rounds' K_SS (about |S|^2 / 2 each; none when K_SS is gathered from a
 * stored matrix shared by one-vs-one pairs) plus n per column of a
 * coefficient that was ever non-zero.  K_SS is stored in single precision
 * (as expansion.c's matrices); the certificate of step 4 uses only the
 * double-precision columns (the property test tests/oracle/test_certificate.py
 * found the sub-problem's bound, of the rounded kernel, claiming 1e-6 where
 * the true gap was 2.5e-4).
 */
#include "expansion_ws.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A working-set training's arrays (n entries each unless said). */
typedef struct ws_run {
    char *in, *left;           /* row in S; row left S once (never leaves again) */
    int64_t *S, *tmp, *idx;    /* S (sorted), scratch, S's positions */
    double *ys, *cs, *bs, *ws; /* S's labels, costs, warm start, solution */
    double *beta, *f;          /* the whole expansion and its margins K beta */
    double *cval, *ay, *g;     /* 2 n scratch for products; the certificate's */
    double *sdual, *sub_ay;    /* the sub-problem's dual point, and spread over n */
    double *fs;                /* S's margins K beta in double precision (the sub-problem's f0) */
    double *wfull;             /* checkpoints: the whole point, or NULL */
    nv_ws_cand *cand;          /* rows outside S violating their margins */
} ws_run;

static void ws_free(ws_run *w)
{
    nv_free(w->in);
    nv_free(w->left);
    nv_free(w->S);
    nv_free(w->tmp);
    nv_free(w->idx);
    nv_free(w->ys);
    nv_free(w->cs);
    nv_free(w->bs);
    nv_free(w->ws);
    nv_free(w->beta);
    nv_free(w->f);
    nv_free(w->cval);
    nv_free(w->ay);
    nv_free(w->g);
    nv_free(w->sdual);
    nv_free(w->sub_ay);
    nv_free(w->fs);
    nv_free(w->wfull);
    nv_free(w->cand);
}

static nesvm_status ws_alloc(ws_run *w, int64_t n, int ckpt, nesvm_error *err)
{
    size_t nn = (size_t)(n ? n : 1);
    w->in = nv_calloc(nn, 1);
    w->left = nv_calloc(nn, 1);
    w->S = nv_malloc_array(nn, sizeof(int64_t));
    w->tmp = nv_malloc_array(nn, sizeof(int64_t));
    w->idx = nv_malloc_array(nn, sizeof(int64_t));
    w->ys = nv_malloc_array(nn, sizeof(double));
    w->cs = nv_malloc_array(nn, sizeof(double));
    w->bs = nv_malloc_array(nn, sizeof(double));
    w->ws = nv_malloc_array(nn, sizeof(double));
    w->beta = nv_calloc(nn, sizeof(double));
    w->f = nv_malloc_array(nn, sizeof(double));
    w->cval = nv_malloc_array(2 * nn, sizeof(double));
    w->ay = nv_malloc_array(nn, sizeof(double));
    w->g = nv_malloc_array(nn, sizeof(double));
    w->sdual = nv_malloc_array(nn, sizeof(double));
    w->sub_ay = nv_malloc_array(nn, sizeof(double));
    w->fs = nv_malloc_array(nn, sizeof(double));
    w->wfull = ckpt ? nv_malloc_array(nn, sizeof(double)) : NULL;
    w->cand = nv_malloc_array(nn, sizeof(nv_ws_cand));
    if (!w->in || !w->left || !w->S || !w->tmp || !w->idx || !w->ys || !w->cs || !w->bs || !w->ws || !w->beta ||
        !w->f || !w->cval || !w->ay || !w->g || !w->sdual || !w->sub_ay || !w->fs || !w->cand || (ckpt && !w->wfull))
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the working set (n=%lld)", (long long)n);
    return NESVM_OK;
}

/* Step 5: the violators join (the worst first, at most max(|S|, WS_INIT)),
 * settled rows leave (once); when most rows would be in S, all are.
 * Returns the new |S|. */
static int64_t ws_update_set(const nv_kernel_problem *kp, ws_run *w, int64_t ns, int64_t nv, double b)
{
    const int64_t n = kp->n;
    if (ns + nv >= NV_NESVM_WS_FULL * (double)n) {
        for (int64_t i = 0; i < n; i++) w->S[i] = i;
        return n;
    }
    qsort(w->cand, (size_t)nv, sizeof(nv_ws_cand), nv_ws_cmp_cand);
    int64_t add = nv, cap = ns > NV_NESVM_WS_INIT ? ns : NV_NESVM_WS_INIT;
    if (add > cap) add = cap;
    int64_t keep = 0;
    for (int64_t k = 0; k < ns; k++) {
        int64_t i = w->S[k];
        if (w->beta[i] == 0 && !w->left[i] && 1.0 - kp->y[i] * (w->f[i] + b) < -NV_NESVM_WS_DROP) {
            w->left[i] = 1;
            w->in[i] = 0;
            continue;
        }
        w->S[keep++] = i;
    }
    ns = keep;
    for (int64_t k = 0; k < add; k++) {
        w->in[w->cand[k].i] = 1;
        w->S[ns++] = w->cand[k].i;
    }
    qsort(w->S, (size_t)ns, sizeof(int64_t), nv_cmp_i64);
    return ns;
}

/* Steps 3 and 4 after a round: every row's margin, the violators outside S
 * into w->cand (*nv of them), and the whole problem's certificate in double
 * precision into res. */
static nesvm_status ws_check(const nv_kernel_problem *kp, ws_run *w, int bias, int64_t ns, double b,
                             nv_binary_result *res, int64_t *nv, nesvm_error *err)
{
    const int64_t n = kp->n;
    nesvm_status st = nv_ws_margins(kp, w->beta, w->tmp, w->cval, w->f, err);
    if (st != NESVM_OK) return st;
    *nv = 0;
    for (int64_t i = 0; i < n; i++) {
        double ri = 1.0 - kp->y[i] * (w->f[i] + b);
        if (!w->in[i] && ri > 0) w->cand[(*nv)++] = (nv_ws_cand){ri, i};
    }
    memset(w->sub_ay, 0, (size_t)n * sizeof(double));
    for (int64_t k = 0; k < ns; k++) w->sub_ay[w->S[k]] = w->sdual[k];
    return nv_ws_certify_hinge(kp, bias, w->beta, b, w->sub_ay, w->f, w->tmp, w->cval, w->ay, w->g, res, err);
}

/* Step 2's sub-problem on S from the current point: its rows, labels,
 * costs, warm start and exact margins gathered. */
static nv_kernel_problem ws_sub_problem(const nv_kernel_problem *kp, ws_run *w, int64_t ns, double b, int warm,
                                        int have_f)
{
    for (int64_t k = 0; k < ns; k++) {
        int64_t i = w->S[k];
        NV_ASSERT(i >= 0 && i < kp->n && (k == 0 || w->S[k - 1] < i)); /* S: distinct rows, sorted */
        w->idx[k] = kp->pos ? kp->pos[i] : i;
        w->ys[k] = kp->y[i];
        w->cs[k] = kp->cost[i];
        w->bs[k] = w->beta[i];
        w->fs[k] = have_f ? w->f[i] : 0.0;
    }
    nv_kernel_problem sub = {kp->K, w->idx, ns, w->ys, w->cs, warm ? w->bs : NULL, b, NULL, NULL, 0, 0, kp->target,
                             have_f ? w->fs : NULL, 0, 0, NULL, NULL};
    return sub;
}

static nesvm_status ws_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                             nv_binary_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int64_t n = kp->n;
    const int bias = nv_params_bias(prm);
    size_t nn = (size_t)(n ? n : 1);
    NV_ASSERT(kp->target == NV_TARGET_SIGN); /* the hinge's working set (nv_nesvm_ws_takes): y = +-1 */
    ws_run w;
    memset(&w, 0, sizeof w);
    nesvm_status st = ws_alloc(&w, n, sink && sink->ckpt, err);
    memset(res->w, 0, nn * sizeof(double));
    res->b = 0;
    res->iterations = 0;
    res->primal = res->lower_bound = res->gap = NAN;
    res->exit_reason = NESVM_EXIT_MAX_ITER;
    if (st != NESVM_OK) {
        res->exit_reason = NESVM_EXIT_NO_MEMORY;
        goto out;
    }
    int64_t ns = nv_ws_first_set(kp, prm, NV_NESVM_WS_INIT, w.in, w.S, w.tmp);
    if (kp->beta0) memcpy(w.beta, kp->beta0, nn * sizeof(double));
    double b = kp->beta0 && bias ? kp->b0 : 0.0;
    int64_t iters = 0;
    int warm = kp->beta0 != NULL, have_f = 0;
    double last_gap = INFINITY;
    nv_ws_tick tick = {sink, t0, {0}, 0};
    while (1) {
        /* 2. the problem on S, from the current point: S's rows of the
         * stored matrix, or a matrix of S's rows */
        nv_kmat km;
        memset(&km, 0, sizeof km);
        nv_kernel_problem sub = ws_sub_problem(kp, &w, ns, b, warm, have_f);
        if (nv_ws_sub_matrix(kp, prm, sink, w.idx, ns, w.beta, b, iters, t0, &tick, &km, res, &st, err)) break;
        if (st != NESVM_OK) break;
        if (km.n > 0) {
            sub.K = &km;
            sub.pos = NULL;
        }
        nesvm_params cp = *prm;
        cp.eps = ns == n ? prm->eps : prm->eps * NV_NESVM_WS_EPS;
        cp.max_iter = prm->max_iter - iters;
        if (prm->time_limit > 0) cp.time_limit = prm->time_limit - (nv_now() - t0);
        if (cp.max_iter <= 0 || (prm->time_limit > 0 && cp.time_limit <= 0)) {
            res->exit_reason = cp.max_iter <= 0 ? NESVM_EXIT_MAX_ITER : NESVM_EXIT_TIME_LIMIT;
            nv_kmat_free(&km);
            break;
        }
        nv_ws_sink wsk = {sink, iters, nv_now() - t0, w.S, ns, n, w.wfull, w.beta, &tick};
        nv_progress_sink ssink;
        if (sink) nv_ws_sub_sink(&wsk, &ssink);
        nv_binary_result r;
        memset(&r, 0, sizeof r);
        r.w = w.ws;
        r.dual = w.sdual;
        memset(w.sdual, 0, (size_t)ns * sizeof(double));
        const int sub_dual = nv_kx_dual(&sub, &cp); /* the SMO: exact margins refine it */
        st = nv_nesvm_kernel_train(&sub, &cp, sink ? &ssink : NULL, &r, err);
        res->kernel_evals += km.evals;
        nv_kmat_free(&km);
        warm = 1;
        res->rounds++;
        iters += r.iterations;
        res->exit_reason = r.exit_reason;
        for (int64_t k = 0; k < ns; k++) w.beta[w.S[k]] = w.ws[k];
        b = bias ? r.b : 0.0;
        if (st != NESVM_OK) break;
        /* the sub-problem's dual point (solver.h, nv_binary_result.dual) in its box
         * 0 <= a <= c, to the rounding of theta a' */
        for (int64_t k = 0; k < ns; k++)
            NV_ASSERT(w.ys[k] * w.sdual[k] >= 0 && w.ys[k] * w.sdual[k] <= w.cs[k] * (1 + 1e-12));
        /* 3 and 4. every row's margin, the violators, the whole problem's
         * certificate in double precision */
        int64_t nv = 0;
        st = ws_check(kp, &w, bias, ns, b, res, &nv, err);
        have_f = st == NESVM_OK;
        if (st != NESVM_OK) {
            if (st != NESVM_ERR_NOMEM) res->exit_reason = NESVM_EXIT_NUMERIC;
            break;
        }
        if (res->gap <= prm->eps) {
            res->exit_reason = NESVM_EXIT_CONVERGED;
            break;
        }
        /* the whole problem, or no row outside S violates its margin (the
         * restricted optimum is the whole problem's): no round can add more.
         * A sub-problem certified on its single-precision matrix whose gap in
         * double precision is still above eps met the rounding of K_SS: the
         * SMO's steps add it up in its gradient (at C = 1e4, 4,000 rows of
         * Fashion-MNIST: P 3995.57 on the rounded matrix, 4007.33 in double),
         * so it solves S again from the exact margins (iterative refinement)
         * while that halves the gap; Newton's sub-problems (and a refinement
         * that no longer helps) end "stalled". */
        if (ns == n || nv == 0) {
            if (r.exit_reason != NESVM_EXIT_CONVERGED) break;
            if (sub_dual && res->gap < 0.5 * last_gap) {
                last_gap = res->gap;
                continue;
            }
            res->exit_reason = NESVM_EXIT_STALLED;
            break;
        }
        /* 5. the next S */
        ns = ws_update_set(kp, &w, ns, nv, b);
    }
    memcpy(res->w, w.beta, nn * sizeof(double));
    res->b = b;
    res->iterations = iters;
    res->n_sv = 0;
    for (int64_t i = 0; i < n; i++) res->n_sv += w.beta[i] != 0;
    if (st == NESVM_ERR_NOMEM) res->exit_reason = NESVM_EXIT_NO_MEMORY;
out:
    res->seconds = nv_now() - t0;
    ws_free(&w);
    return st;
}

int nv_nesvm_ws_takes(const nesvm_params *p)
{
    const nv_loss *loss = nv_params_loss(p);
    if (nv_params_l1(p)) return 0;
    if (nesvm_params_task(p) == NESVM_TASK_NOVELTY || nv_params_nu_type(p)) /* the working set's SMO only */
        return (p->method == NV_METHOD_AUTO || p->method == NV_METHOD_DCD) && nv_kx_smo_params(p);
    if (loss == nv_loss_find("hinge")) return p->method != NV_METHOD_NESTEROV;
    return loss == nv_loss_find("epsilon_insensitive") &&
           (p->method == NV_METHOD_AUTO || p->method == NV_METHOD_DCD) && nv_kx_smo_params(p);
}

nesvm_status nv_nesvm_expansion_train(const nv_kernel_problem *kp, const nesvm_params *prm,
                                      const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err)
{
    if (kp->target == NV_TARGET_NONE) return nv_ws_oc_train(kp, prm, sink, res, err); /* kplan.c: kp->ws */
    if (nv_params_nu_type(prm)) return nv_ws_nu_train(kp, prm, sink, res, err);       /* kplan.c: kp->ws */
    if ((kp->kc || kp->ws) && kp->target == NV_TARGET_REAL) return nv_ws_tube_train(kp, prm, sink, res, err);
    if (kp->kc || kp->ws) return ws_train(kp, prm, sink, res, err);
    if (!kp->K->K) return nv_nesvm_kernel_train(kp, prm, sink, res, err); /* on the fly: double already */
    /* a stored matrix: the certificate again in double precision */
    const size_t nn = (size_t)(kp->n ? kp->n : 1);
    double *dual = nv_calloc(nn, sizeof(double));
    if (!dual) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    double *keep = res->dual;
    res->dual = dual;
    nesvm_status st = nv_nesvm_kernel_train(kp, prm, sink, res, err);
    if (st == NESVM_OK) st = nv_kx_certify_stored(kp, prm, res, err);
    res->dual = keep;
    nv_free(dual);
    return st;
}
