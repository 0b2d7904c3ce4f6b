/*
 * expansion_wso.c - the one-class SVM (Schoelkopf et al.; LIBSVM's -s 2,
 * in LIBSVM's scaling) on a full kernel's working set: the dual by
 * decomposition, each round's sub-problem solved by the kernel SMO
 * (expansion_smo.c) on a matrix of its rows only, as epsilon-SVR's tube
 * (expansion_wst.c).  A linear kernel takes the same path (K = X X').
 *
 * The problem, over the n rows (labels ignored), with costs c_i (the sample
 * weights, 1 without them) and W = sum_i c_i:
 *     dual    min_a  1/2 a'K a    s.t.  0 <= a_i <= c_i,  sum_i a_i = nu W,
 *     primal  min_{w, rho}  P = 1/2 ||w||^2 + sum_i c_i max(0, rho - w.phi(x_i)) - nu W rho,
 * w = sum_i a_i phi(x_i); the decision f(x) = sum_i a_i K(x_i, x) - rho,
 * +1 where f(x) > 0, else -1 (svm-predict's rule).  Without weights W = n:
 * LIBSVM's problem exactly (its printed obj is 1/2 a'K a = -P at the
 * optimum, its rho ours); nu in (0, 1] (params.c), so nu W <= W keeps the
 * dual feasible.  Weights act as repeated rows (a row of weight 2 is two
 * rows), as scikit-learn's OneClassSVM.
 *
 * The certificate: for a feasible a with margins f = K a (double
 * precision), D(a) = -1/2 a'f is a lower bound on P's minimum (weak
 * duality), and the best rho for w = sum a_i phi(x_i) minimizes the
 * piecewise linear sum_i c_i max(0, rho - f_i) - nu W rho, whose slope at
 * rho is sum_{f_i < rho} c_i - nu W: in closed form, the weighted
 * quantile
 *     rho = f_(k),  k the first in ascending f with c_(1) + ... + c_(k) >= nu W,
 * the middle of [f_(k), f_(k+1)] where the sum equals nu W (P is flat
 * there: LIBSVM's (ub + lb) / 2 when no coefficient is free; at nu = 1 the
 * interval is [max f, inf), LIBSVM's rho = inf, and oc_rho takes max f).
 * P(w, rho) - D(a) = sum_i [a_i (f_i - rho) + c_i max(0, rho - f_i)] >= 0
 * (each term: f_i >= rho, or (c_i - a_i)(rho - f_i)); the relative gap
 * (P - D) / |P| stops the training at eps, as every certified problem's.
 *
 * The rounds (expansion_wst.c's): the rows at a bound (a_i = 0 inside,
 * a_i = c_i outside the estimated support) are held outside S, the free
 * rows and the worst violators of the optimality conditions at rho
 * (a_i = 0 with f_i < rho, a_i = c_i with f_i > rho, free with f_i != rho)
 * make S;
 *   1. the start: LIBSVM's (a_i = min(c_i, what is left of nu W) in row
 *      order: the first floor(nu n) coefficients 1, the next the fraction),
 *      or a warm start clipped to the box with its sum brought to nu W;
 *      f = K a;
 *   2. the certificate (above); gap <= eps ends the training;
 *   3. S: the free rows and the violators (oc_select), at most
 *      max(NV_NESVM_WS_TUBE_Q, 2 |free|) rows within kernel_memory;
 *   4. the dual restricted to S, the others held, is the one-class dual
 *      on S with the linear term h_S = K_{S,out} a_out and sum a_S kept
 *      (nv_kernel_problem's h; its offset d0 the held part of D, so that
 *      the SMO's relative gap is of the whole problem's scale), solved by
 *      the SMO warm from the current point to NV_NESVM_WS_EPS eps;
 *   5. f updated by the columns of the coefficients that changed (n
 *      kernel values each, computed on the fly in tiles as the tube's);
 *      back to 2.
 * Each round lowers 1/2 a'K a (raises D); a lower bound that does not rise
 * for NV_NESVM_WS_TUBE_PATIENCE rounds ends "stalled" (the rounding of the
 * single-precision K_SS).  Memory O(n) plus K_SS.
 */
#include "expansion_ws.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A training's arrays (n entries each unless said). */
typedef struct wso_run {
    int64_t n;
    double nuw;                /* nu W: the sum of a */
    int64_t smax;              /* |S| at most: K_SS within kernel_memory */
    char *in;                  /* row in S */
    int64_t *S, *idx;          /* S (sorted), its positions */
    double *hs, *cs, *bs, *ws; /* S's held margins h, costs, start, solution */
    double *fs, *sdual;        /* S's margins K_SS a_S, the sub-problem's dual point */
    double *a, *f, *fb;        /* the whole point, f = K fb in double, fb */
    double *zb;                /* 2 n: margins and weights for rho */
    double *wfull;             /* checkpoints: the whole point, or NULL */
    nv_ws_cand *cand;          /* 3 n: the violators and the free rows */
    nv_kmat fly;               /* products on a column cache's rows */
    nv_ws_cert cert;           /* its scratch: cols n, cval 2 n, d, g, ay n */
} wso_run;

static void wso_free(wso_run *w)
{
    nv_free(w->in);
    nv_free(w->S);
    nv_free(w->idx);
    nv_free(w->hs);
    nv_free(w->cs);
    nv_free(w->bs);
    nv_free(w->ws);
    nv_free(w->fs);
    nv_free(w->sdual);
    nv_free(w->a);
    nv_free(w->f);
    nv_free(w->fb);
    nv_free(w->zb);
    nv_free(w->wfull);
    nv_free(w->cand);
    nv_free(w->cert.cols);
    nv_free(w->cert.cval);
    nv_free(w->cert.d);
    nv_free(w->cert.g);
    nv_free(w->cert.ay);
    nv_kmat_free(&w->fly);
}

static nesvm_status wso_alloc(wso_run *w, const nv_kernel_problem *kp, const nesvm_params *prm, int ckpt,
                              nesvm_error *err)
{
    const int64_t n = kp->n;
    const size_t nn = (size_t)(n ? n : 1);
    double csum = 0;
    for (int64_t i = 0; i < n; i++) csum += kp->cost[i];
    w->n = n;
    w->nuw = prm->svm_nu * csum;
    const double fit = floor(sqrt(prm->kernel_memory * 1048576.0 / sizeof(float)));
    w->smax = fit >= (double)n ? n : (fit < 2 ? 2 : (int64_t)fit);
    w->in = nv_calloc(nn, 1);
    w->S = nv_malloc_array(nn, sizeof(int64_t));
    w->idx = nv_malloc_array(nn, sizeof(int64_t));
    w->hs = nv_malloc_array(nn, sizeof(double));
    w->cs = nv_malloc_array(nn, sizeof(double));
    w->bs = nv_malloc_array(nn, sizeof(double));
    w->ws = nv_malloc_array(nn, sizeof(double));
    w->fs = nv_malloc_array(nn, sizeof(double));
    w->sdual = nv_malloc_array(nn, sizeof(double));
    w->a = nv_calloc(nn, sizeof(double));
    w->f = nv_calloc(nn, sizeof(double));
    w->fb = nv_calloc(nn, sizeof(double));
    w->zb = nv_malloc_array(2 * nn, sizeof(double));
    w->wfull = ckpt ? nv_malloc_array(nn, sizeof(double)) : NULL;
    w->cand = nv_malloc_array(3 * nn, sizeof(nv_ws_cand));
    w->cert = (nv_ws_cert){kp, &w->fly, nv_malloc_array(nn, sizeof(int64_t)), nv_malloc_array(2 * nn, sizeof(double)),
                           nv_malloc_array(nn, sizeof(double)), nv_malloc_array(nn, sizeof(double)),
                           nv_malloc_array(nn, sizeof(double))};
    if (!w->in || !w->S || !w->idx || !w->hs || !w->cs || !w->bs || !w->ws || !w->fs || !w->sdual || !w->a ||
        !w->f || !w->fb || !w->zb || (ckpt && !w->wfull) || !w->cand || !w->cert.cols || !w->cert.cval ||
        !w->cert.d || !w->cert.g || !w->cert.ay)
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the working set (n=%lld)", (long long)n);
    if (!kp->kc) return NESVM_OK; /* products from kp->K's data */
    const nv_kcache *kc = kp->kc;
    return nv_kmat_init(&w->fly, &kc->k, kc->X, kc->rows, kc->n, 0.0, prm->threads, NULL, err);
}

double nv_oc_rho(const double *f, const double *c, int64_t n, double nuw, double *zb)
{
    return nv_nu_quantile(f, c, NULL, 0.0, n, nuw, zb); /* over every row */
}

/* Row k's violation of the optimality conditions at rho, signed by the way
 * a_k should move (0: none): the Lagrangian's slope along a_k is rho - f_k,
 * which must be 0 where a_k is free and may push only out of the box at a
 * bound (a_k = 0: f_k >= rho; a_k = c_k: f_k <= rho). */
static double oc_violation(const nv_kernel_problem *kp, const wso_run *w, int64_t k, double rho)
{
    const double v = rho - w->f[k], ak = w->a[k];
    if (ak <= 0) return v > 0 ? v : 0.0;
    if (ak >= kp->cost[k]) return v < 0 ? v : 0.0;
    return v;
}

/* Step 3: the next S, as expansion_wst.c's (wst_select): at most
 * q = max(WS_TUBE_Q, 2 |free|) rows, the free rows that violate most (at
 * most half), then the worst violators alternately among those whose
 * coefficient should rise and those whose should fall (the sub-problem
 * keeps sum a_S: it moves a row only against another), then the other free
 * rows; all rows when 2 |free| is WS_FULL of them or more and their K_SS
 * fits.  And always the two rows of the SMO's most violating pair among the
 * bounded ones, the smallest margin at 0 and the largest at c_k, which may
 * lie exactly at rho (no violation at rho: with one free row below rho,
 * its only partner is the bounded row that rho is the margin of).  Returns
 * |S|; *nv: the rows violating at all. */
static int64_t oc_select(const nv_kernel_problem *kp, wso_run *w, double rho, int64_t *nv)
{
    const int64_t n = kp->n;
    int64_t nf = 0, nu = 0, nd = 0;
    *nv = 0;
    nv_ws_cand *up = w->cand, *down = w->cand + n, *fr = w->cand + 2 * n;
    int64_t lo0 = -1, hic = -1; /* the smallest margin at 0, the largest at c */
    for (int64_t k = 0; k < n; k++) {
        const double v = oc_violation(kp, w, k, rho);
        *nv += v != 0;
        if (w->a[k] <= 0 && (lo0 < 0 || w->f[k] < w->f[lo0])) lo0 = k;
        if (w->a[k] >= kp->cost[k] && (hic < 0 || w->f[k] > w->f[hic])) hic = k;
        if (w->a[k] > 0 && w->a[k] < kp->cost[k]) fr[nf++] = (nv_ws_cand){fabs(v), k};
        else if (v > 0) up[nu++] = (nv_ws_cand){v, k};
        else if (v < 0) down[nd++] = (nv_ws_cand){-v, k};
    }
    if (2 * nf >= NV_NESVM_WS_FULL * (double)n && n <= w->smax) {
        for (int64_t k = 0; k < n; k++) w->S[k] = k;
        memset(w->in, 1, (size_t)n);
        return n;
    }
    int64_t q = 2 * nf > NV_NESVM_WS_TUBE_Q ? 2 * nf : NV_NESVM_WS_TUBE_Q;
    if (q > w->smax) q = w->smax;
    qsort(fr, (size_t)nf, sizeof(nv_ws_cand), nv_ws_cmp_cand);
    qsort(up, (size_t)nu, sizeof(nv_ws_cand), nv_ws_cmp_cand);
    qsort(down, (size_t)nd, sizeof(nv_ws_cand), nv_ws_cmp_cand);
    int64_t ns = 0, iu = 0, id = 0, jf = 0;
    while (ns < q / 2 && jf < nf) w->S[ns++] = fr[jf++].i;
    while (ns < q && (iu < nu || id < nd)) /* alternately */
        if (id >= nd || (iu < nu && iu <= id)) w->S[ns++] = up[iu++].i;
        else w->S[ns++] = down[id++].i;
    while (ns < q && jf < nf) w->S[ns++] = fr[jf++].i;
    memset(w->in, 0, (size_t)(n > 0 ? n : 1));
    for (int64_t k = 0; k < ns; k++) w->in[w->S[k]] = 1;
    const int64_t pair[2] = {lo0, hic};
    for (int e = 0; e < 2; e++)
        if (pair[e] >= 0 && !w->in[pair[e]] && ns < w->smax) {
            w->in[pair[e]] = 1;
            w->S[ns++] = pair[e];
        }
    qsort(w->S, (size_t)ns, sizeof(int64_t), nv_cmp_i64);
    return ns;
}

/* Step 4's sub-problem on S, the others held, from the current point:
 * K_SS's product fs = K_SS a_S (sub->K's values: what the SMO's steps
 * read), the held coefficients' margins h = f_S - fs, and the offset
 * d0 = D - D_S of the held part of the dual (D_S = -1/2 a_S'fs - a_S'h). */
static nesvm_status oc_sub(const nv_kernel_problem *kp, wso_run *w, int64_t ns, nv_kernel_problem *sub,
                           nesvm_error *err)
{
    int64_t nc = 0;
    for (int64_t k = 0; k < ns; k++) {
        const int64_t i = w->S[k];
        w->cs[k] = kp->cost[i];
        w->bs[k] = w->a[i];
        if (w->bs[k] == 0) continue;
        w->cert.cols[nc] = sub->pos ? sub->pos[k] : k;
        w->cert.cval[nc++] = w->bs[k];
    }
    nesvm_status st = nv_kmat_mul(sub->K, sub->pos, ns, w->cert.cols, nc, w->cert.cval, 1, w->fs, err);
    if (st != NESVM_OK) return st;
    double dall = 0, dsub = 0;
    for (int64_t i = 0; i < w->n; i++) dall -= 0.5 * w->a[i] * w->f[i];
    for (int64_t k = 0; k < ns; k++) {
        const int64_t i = w->S[k];
        w->hs[k] = w->f[i] - w->fs[k];
        dsub -= w->bs[k] * (0.5 * w->fs[k] + w->hs[k]);
    }
    sub->n = ns;
    sub->y = kp->y; /* +1 (the SMO's one-class mode takes its own) */
    sub->cost = w->cs;
    sub->beta0 = w->bs;
    sub->f0 = w->fs;
    sub->h = w->hs;
    sub->d0 = dall - dsub;
    return NESVM_OK;
}

/* Step 2: the certificate at a with margins f = K a and the best rho (into
 * *rho): P(w, rho) against D of a made feasible, its sum's rounding moved
 * onto the coefficient with the most room (the change of a'K a by its
 * column: -2 delta f_j + delta^2 K_jj).  Into res: primal, lower_bound,
 * gap (nv_certify). */
static nesvm_status oc_certify(const nv_kernel_problem *kp, wso_run *w, double *rho, nv_binary_result *res,
                               nesvm_error *err)
{
    const int64_t n = kp->n;
    *rho = nv_oc_rho(w->f, kp->cost, n, w->nuw, w->zb);
    double quad = 0, loss = 0, sum = 0;
    for (int64_t i = 0; i < n; i++) {
        quad += w->a[i] * w->f[i];
        if (*rho > w->f[i]) loss += kp->cost[i] * (*rho - w->f[i]);
        sum += w->a[i];
    }
    const double P = 0.5 * quad + loss - w->nuw * *rho;
    const double delta = sum - w->nuw;
    double dquad = 0;
    if (delta != 0) {
        int64_t j = -1;
        double room = -1;
        for (int64_t i = 0; i < n; i++) {
            const double r = delta > 0 ? w->a[i] : kp->cost[i] - w->a[i];
            if (r > room) {
                room = r;
                j = i;
            }
        }
        double *col = w->cert.ay;
        memset(col, 0, (size_t)n * sizeof(double));
        col[j] = 1.0;
        nesvm_status st = nv_ws_tube_mul(&w->cert, col, col, err);
        if (st != NESVM_OK) return st;
        dquad = -2.0 * delta * w->f[j] + delta * delta * col[j];
    }
    res->primal = P;
    res->lower_bound = -0.5 * (quad + dquad);
    return nv_certify(P, res->lower_bound, &res->gap, err);
}

/* Step 5 and 2: f updated by the columns of the coefficients that changed,
 * the certificate (into res, rho into *rho). */
static nesvm_status oc_check(const nv_kernel_problem *kp, wso_run *w, double *rho, nv_binary_result *res,
                             nesvm_error *err)
{
    const int64_t n = kp->n;
    double *dv = w->cert.ay;
    for (int64_t i = 0; i < n; i++) dv[i] = w->a[i] - w->fb[i];
    nesvm_status st = nv_ws_tube_mul(&w->cert, dv, dv, err);
    if (st != NESVM_OK) return st;
    for (int64_t i = 0; i < n; i++) w->f[i] += dv[i];
    memcpy(w->fb, w->a, (size_t)n * sizeof(double));
    return oc_certify(kp, w, rho, res, err);
}

/* Step 1: LIBSVM's start, or beta0 clipped to the box with its sum brought
 * to nu W (scaled down when above; raised in row order where there is room
 * when below); f = K a. */
static nesvm_status oc_start(const nv_kernel_problem *kp, wso_run *w, nesvm_error *err)
{
    const int64_t n = kp->n;
    double sum = 0;
    for (int64_t i = 0; i < n && kp->beta0; i++) {
        const double c = kp->cost[i], v = kp->beta0[i];
        w->a[i] = v < 0 ? 0.0 : (v > c ? c : v);
        sum += w->a[i];
    }
    if (sum > w->nuw) {
        const double s = w->nuw / sum;
        for (int64_t i = 0; i < n; i++) w->a[i] *= s;
    } else {
        double left = w->nuw - sum;
        for (int64_t i = 0; i < n && left > 0; i++) {
            const double room = kp->cost[i] - w->a[i], add = room < left ? room : left;
            w->a[i] += add;
            left -= add;
        }
    }
    nesvm_status st = nv_ws_tube_mul(&w->cert, w->a, w->f, err);
    if (st == NESVM_OK) memcpy(w->fb, w->a, (size_t)n * sizeof(double));
    return st;
}

/* Step 4: the SMO on S's sub-problem (sub: its rows, matrix and held part),
 * its solution into a; r: its result. */
static nesvm_status oc_round(const nesvm_params *prm, const nv_progress_sink *sink, wso_run *w, int64_t ns, nv_kernel_problem *sub, double t0, int64_t iters,
                             nv_ws_tick *tick, double gap, nv_binary_result *r, nesvm_error *err)
{
    nesvm_params cp = *prm;
    cp.eps = ns == w->n ? prm->eps : prm->eps * NV_NESVM_WS_EPS;
    if (ns < w->n && 0.1 * gap > cp.eps) cp.eps = 0.1 * gap;
    cp.max_iter = prm->max_iter - iters;
    if (prm->time_limit > 0) cp.time_limit = prm->time_limit - (nv_now() - t0);
    nv_ws_sink wsk = {sink, iters, nv_now() - t0, w->S, ns, w->n, w->wfull, w->a, tick};
    nv_progress_sink ssink;
    if (sink) nv_ws_sub_sink(&wsk, &ssink);
    memset(r, 0, sizeof *r);
    r->w = w->ws;
    r->dual = w->sdual;
    nesvm_status st = nv_nesvm_kernel_train(sub, &cp, sink ? &ssink : NULL, r, err);
    if (st == NESVM_OK)
        for (int64_t k = 0; k < ns; k++) w->a[w->S[k]] = w->ws[k];
    return st;
}

nesvm_status nv_ws_oc_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                            nv_binary_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int64_t n = kp->n;
    const size_t nn = (size_t)(n ? n : 1);
    NV_ASSERT(kp->target == NV_TARGET_NONE && nv_kx_smo_params(prm)); /* kplan.c's check */
    wso_run w;
    memset(&w, 0, sizeof w);
    memset(res->w, 0, nn * sizeof(double));
    res->b = 0;
    res->iterations = 0;
    res->primal = res->lower_bound = res->gap = NAN;
    res->exit_reason = NESVM_EXIT_MAX_ITER;
    double rho = 0, best_d = -INFINITY;
    int64_t iters = 0, since_best = 0;
    nesvm_status st = wso_alloc(&w, kp, prm, sink && sink->ckpt, err);
    if (st == NESVM_OK) st = oc_start(kp, &w, err);
    if (st == NESVM_OK) st = oc_certify(kp, &w, &rho, res, err);
    /* the dual's scale for the stall rule: the start's 1/2 a'K a (a degenerate
     * problem, w* ~ 0, has a lower bound near 0 that rises by rounding only) */
    const double dscale = st == NESVM_OK ? fabs(res->lower_bound) : 0.0;
    nv_ws_tick tick = {sink, t0, {0}, 0};
    while (st == NESVM_OK) {
        if (res->gap <= prm->eps) {
            res->exit_reason = NESVM_EXIT_CONVERGED;
            break;
        }
        /* 3. the next S; no violator left, or a lower bound that no longer
         * rises (the rounding of the sub-problems' K_SS): stalled */
        since_best = res->lower_bound > best_d + 1e-12 * fmax(fabs(best_d), dscale) ? 0 : since_best + 1;
        if (res->lower_bound > best_d) best_d = res->lower_bound;
        int64_t nv = 0, ns = oc_select(kp, &w, rho, &nv);
        if (nv == 0 || ns < 2 || since_best > NV_NESVM_WS_TUBE_PATIENCE) {
            res->exit_reason = NESVM_EXIT_STALLED;
            break;
        }
        if (iters >= prm->max_iter || (prm->time_limit > 0 && nv_now() - t0 >= prm->time_limit)) {
            res->exit_reason = iters >= prm->max_iter ? NESVM_EXIT_MAX_ITER : NESVM_EXIT_TIME_LIMIT;
            break;
        }
        /* 4. the sub-problem on S: its matrix, the held rows' part, the SMO */
        for (int64_t k = 0; k < ns; k++) w.idx[k] = kp->pos ? kp->pos[w.S[k]] : w.S[k];
        nv_kmat km;
        memset(&km, 0, sizeof km);
        nv_kernel_problem sub = {kp->K, w.idx, ns, NULL, NULL, NULL, -rho, NULL, NULL, 0, 0, NV_TARGET_NONE,
                                 NULL, 1, 0, NULL, NULL};
        if (nv_ws_sub_matrix(kp, prm, sink, w.idx, ns, w.a, -rho, iters, t0, &tick, &km, res, &st, err)) break;
        if (st == NESVM_OK && km.n > 0) {
            sub.K = &km;
            sub.pos = NULL;
        }
        if (st == NESVM_OK && !sub.K->K)
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the working set's kernel matrix (%lld rows)",
                          (long long)ns);
        if (st == NESVM_OK) st = oc_sub(kp, &w, ns, &sub, err);
        nv_binary_result r;
        if (st == NESVM_OK) st = oc_round(prm, sink, &w, ns, &sub, t0, iters, &tick, res->gap, &r, err);
        res->kernel_evals += km.evals;
        nv_kmat_free(&km);
        if (st != NESVM_OK) break;
        res->rounds++;
        iters += r.iterations;
        /* 5 and 2. the margins, rho, the certificate */
        st = oc_check(kp, &w, &rho, res, err);
        if (st == NESVM_OK && res->gap > prm->eps && r.exit_reason != NESVM_EXIT_CONVERGED &&
            r.exit_reason != NESVM_EXIT_STALLED) {
            res->exit_reason = r.exit_reason; /* the limits, inside the round */
            break;
        }
    }
    if (st == NESVM_ERR_NOMEM) res->exit_reason = NESVM_EXIT_NO_MEMORY;
    else if (st != NESVM_OK && st != NESVM_ERR_CANCELLED) res->exit_reason = NESVM_EXIT_NUMERIC;
    if (w.a) memcpy(res->w, w.a, nn * sizeof(double));
    res->b = -rho;
    res->iterations = iters;
    res->n_sv = 0;
    for (int64_t i = 0; w.a && i < n; i++) res->n_sv += w.a[i] != 0;
    res->kernel_evals += w.fly.evals;
    res->seconds = nv_now() - t0;
    wso_free(&w);
    return st;
}
