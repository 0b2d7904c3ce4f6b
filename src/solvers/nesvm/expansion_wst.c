/*
 * expansion_wst.c - epsilon-SVR's full kernel on a working set: the tube's
 * dual by decomposition, each round's sub-problem solved by the kernel SMO
 * (expansion_smo.c) on a matrix of its rows only.
 *
 * The problem, over the n rows of a regression (real targets y):
 *     min_{beta, b}  P = 1/2 beta'K beta + sum_k c_k max(0, |y_k - f_k - b| - p),
 *     f = K beta,
 *     max_beta       D = sum_k (beta_k y_k - p |beta_k|) - 1/2 beta'K beta,
 *                    |beta_k| <= c_k  (sum beta = 0 with a bias).
 * A row inside the tube carries beta_k = 0, a row outside it beta_k = +-c_k
 * (at its bound), and only rows on the tube's edge are free.  With noisy
 * targets most rows are outside (Friedman #1, p = 0.1: 96% at the bound), so
 * a working set that must hold every non-zero coefficient (the C-SVM's,
 * expansion_ws.c) would hold almost every row.  Here the rows outside S keep
 * their coefficients, whatever they are (LIBSVM's decomposition, with a
 * large working set):
 *
 *   1. S = a random set of NV_NESVM_WS_INIT rows (a warm start: its free
 *      rows and its worst violators, as in 5.);
 *   2. the dual restricted to S, the others held, is the tube's dual on S
 *      with the targets y_S - h_S, h = K_{S,out} beta_out (the held
 *      coefficients' margins: f_S - K_SS beta_S), and the constraint sum
 *      beta_S = its current sum; the SMO solves it (nv_kernel_problem's
 *      keep_sum, its objective offset d0 by the held part of D, so that its
 *      relative gap is of the whole problem's scale) to NV_NESVM_WS_EPS times
 *      the caller's eps, warm from the current point and the exact margins;
 *   3. the margins f = K beta in double precision, updated by the columns of
 *      the coefficients that changed (n kernel values each, computed on the
 *      fly in blocks, not cached: most rows are support vectors);
 *   4. the certificate in double precision: P at the best bias for f (a
 *      weighted median over the 2n breakpoints y_k -+ p - f_k) against D of
 *      beta itself (expansion_cert.c).  gap <= eps ends the training;
 *   5. otherwise the next S: the free rows (0 < |beta_k| < c_k), then the
 *      rows that violate the optimality conditions at that bias most
 *      (beta_k = 0 outside the tube, beta_k = c_k inside its upper edge,
 *      beta_k = -c_k inside its lower edge), up to NV_NESVM_WS_TUBE_Q rows
 *      (and |S|^2 floats within kernel_memory).
 *
 * Each round raises D (the restricted dual's optimum is at least its start),
 * so rounds end when no row violates; a round whose certificate does not
 * improve on the best one for NV_NESVM_WS_TUBE_PATIENCE rounds ends
 * "stalled" (the rounding of the single-precision K_SS).  Kernel values:
 * the rounds' K_SS (|S|^2 / 2 each) plus n per change of a coefficient: about
 * n per support vector, LIBSVM's cost without its cache misses, in blocks by
 * dgemm; memory O(n) plus K_SS (NV_NESVM_WS_TUBE_Q^2 floats).
 */
#include "expansion_ws.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A training's arrays (n entries each unless said). */
typedef struct wst_run {
    int64_t n;
    double p;                   /* the tube's half-width */
    int64_t smax;               /* |S| at most: K_SS within kernel_memory */
    char *in;                   /* row in S */
    int64_t *S, *idx, *perm;    /* S (sorted), its positions, scratch */
    double *ys, *cs, *bs, *ws;  /* S's targets y - h, costs, start, solution */
    double *fs, *sdual;         /* S's margins K_SS beta_S, the sub-problem's dual point */
    double *beta, *f, *fb;      /* the whole expansion, f = K fb in double, fb */
    double *zb;                 /* 4 n: the whole problem's breakpoints */
    double *wfull;              /* checkpoints: the whole point, or NULL */
    nv_ws_cand *cand;           /* 3 n: the violators and the free rows */
    nv_kmat fly;                /* products on a column cache's rows */
    nv_ws_cert cert;            /* its scratch: cols n, cval 2 n, d, g, ay n */
} wst_run;

static void wst_free(wst_run *w)
{
    nv_free(w->in);
    nv_free(w->S);
    nv_free(w->idx);
    nv_free(w->perm);
    nv_free(w->ys);
    nv_free(w->cs);
    nv_free(w->bs);
    nv_free(w->ws);
    nv_free(w->fs);
    nv_free(w->sdual);
    nv_free(w->beta);
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

static nesvm_status wst_alloc(wst_run *w, const nv_kernel_problem *kp, const nesvm_params *prm, int ckpt,
                              nesvm_error *err)
{
    const int64_t n = kp->n;
    const size_t nn = (size_t)(n ? n : 1);
    w->n = n;
    w->p = nv_params_loss_inst(prm).conj_e;
    const double fit = floor(sqrt(prm->kernel_memory * 1048576.0 / sizeof(float)));
    w->smax = fit >= (double)n ? n : (fit < 2 ? 2 : (int64_t)fit);
    w->in = nv_calloc(nn, 1);
    w->S = nv_malloc_array(nn, sizeof(int64_t));
    w->idx = nv_malloc_array(nn, sizeof(int64_t));
    w->perm = nv_malloc_array(nn, sizeof(int64_t));
    w->ys = nv_malloc_array(nn, sizeof(double));
    w->cs = nv_malloc_array(nn, sizeof(double));
    w->bs = nv_malloc_array(nn, sizeof(double));
    w->ws = nv_malloc_array(nn, sizeof(double));
    w->fs = nv_malloc_array(nn, sizeof(double));
    w->sdual = nv_malloc_array(nn, sizeof(double));
    w->beta = nv_calloc(nn, sizeof(double));
    w->f = nv_calloc(nn, sizeof(double));
    w->fb = nv_calloc(nn, sizeof(double));
    w->zb = nv_malloc_array(4 * nn, sizeof(double));
    w->wfull = ckpt ? nv_malloc_array(nn, sizeof(double)) : NULL;
    w->cand = nv_malloc_array(3 * nn, sizeof(nv_ws_cand));
    w->cert = (nv_ws_cert){kp, &w->fly, nv_malloc_array(nn, sizeof(int64_t)), nv_malloc_array(2 * nn, sizeof(double)),
                           nv_malloc_array(nn, sizeof(double)), nv_malloc_array(nn, sizeof(double)),
                           nv_malloc_array(nn, sizeof(double))};
    if (!w->in || !w->S || !w->idx || !w->perm || !w->ys || !w->cs || !w->bs || !w->ws || !w->fs || !w->sdual ||
        !w->beta || !w->f || !w->fb || !w->zb || (ckpt && !w->wfull) || !w->cand || !w->cert.cols ||
        !w->cert.cval || !w->cert.d || !w->cert.g || !w->cert.ay)
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the working set (n=%lld)", (long long)n);
    if (!kp->kc) return NESVM_OK; /* products from kp->K's data */
    const nv_kcache *kc = kp->kc;
    return nv_kmat_init(&w->fly, &kc->k, kc->X, kc->rows, kc->n, 0.0, prm->threads, NULL, err);
}

static int cmp_zb(const void *x, const void *y)
{
    const double a = ((const double *)x)[0], b = ((const double *)y)[0];
    return a < b ? -1 : a > b;
}

/* The best bias for the margins f: the weighted median of the breakpoints
 * y_k - p - f_k (weight c_k, where the loss's slope in b rises from -c_k to
 * 0) and y_k + p - f_k (from 0 to c_k); where the slope is 0 between two
 * breakpoints (the loss flat there: a constant target inside the tube) the
 * middle of that interval, whose loss does not hang on the rounding of an
 * end's. */
static double wst_bias(const nv_kernel_problem *kp, wst_run *w)
{
    const int64_t n = kp->n;
    double slope = 0;
    for (int64_t k = 0; k < n; k++) {
        w->zb[4 * k] = kp->y[k] - w->p - w->f[k];
        w->zb[4 * k + 2] = kp->y[k] + w->p - w->f[k];
        w->zb[4 * k + 1] = w->zb[4 * k + 3] = kp->cost[k];
        slope -= kp->cost[k];
    }
    qsort(w->zb, (size_t)(2 * n), 2 * sizeof(double), cmp_zb);
    for (int64_t k = 0; k < 2 * n; k++) {
        slope += w->zb[2 * k + 1];
        if (slope == 0 && k + 1 < 2 * n) return 0.5 * (w->zb[2 * k] + w->zb[2 * k + 2]);
        if (slope >= 0) return w->zb[2 * k];
    }
    return n > 0 ? w->zb[2 * (2 * n - 1)] : 0.0;
}

/* Row k's violation of the optimality conditions at the bias b, signed by
 * the way beta_k should move (0: none): with r = y_k - f_k - b, D's slope
 * along beta_k is r - p sign(beta_k) (between r - p and r + p at 0), which
 * must be 0 where beta_k is free, and may push only out of the box at a
 * bound (beta_k = c_k: r >= p; -c_k: r <= -p; 0: |r| <= p). */
static double wst_violation(const nv_kernel_problem *kp, const wst_run *w, int64_t k, double b)
{
    const double r = kp->y[k] - w->f[k] - b, bk = w->beta[k], ck = kp->cost[k], p = w->p;
    if (bk == 0) return r > p ? r - p : (r < -p ? r + p : 0.0);
    const double g = r - (bk > 0 ? p : -p);
    if (bk >= ck) return g < 0 ? g : 0.0;
    if (bk <= -ck) return g > 0 ? g : 0.0;
    return g;
}

/* Step 5: the next S, at most q = max(WS_TUBE_Q, 2 |free|) rows: the free
 * rows (0 < |beta_k| < c_k) that violate most, at most half of them, then
 * the worst violators alternately among those whose coefficient should
 * rise and those whose should fall (the sub-problem keeps sum beta_S: it
 * moves a row only against another), then the other free rows.  All rows
 * when 2 |free| is half of them or more (large C: most support vectors are
 * free) and their K_SS fits.  Returns |S|; *nv: the rows violating at all. */
static int64_t wst_select(const nv_kernel_problem *kp, wst_run *w, double b, int64_t *nv)
{
    const int64_t n = kp->n;
    int64_t nf = 0, nu = 0, nd = 0;
    *nv = 0;
    /* 3 n entries: rises, falls, free rows */
    nv_ws_cand *up = w->cand, *down = w->cand + n, *fr = w->cand + 2 * n;
    for (int64_t k = 0; k < n; k++) {
        const double v = wst_violation(kp, w, k, b), a = fabs(w->beta[k]);
        *nv += v != 0;
        if (a > 0 && a < kp->cost[k]) fr[nf++] = (nv_ws_cand){fabs(v), k};
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
    qsort(w->S, (size_t)ns, sizeof(int64_t), nv_cmp_i64);
    return ns;
}

/* Step 2's sub-problem on S, the others held, from the current point:
 * K_SS's product g = K_SS beta_S (sub->K's values: what the SMO's steps
 * read), the held coefficients' margins h = f_S - g into the targets
 * y_S - h, and the offset d0 = D - D_S of the held part of the dual. */
static nesvm_status wst_sub(const nv_kernel_problem *kp, wst_run *w, int64_t ns, nv_kernel_problem *sub,
                            nesvm_error *err)
{
    int64_t nc = 0;
    for (int64_t k = 0; k < ns; k++) {
        const int64_t i = w->S[k];
        w->cs[k] = kp->cost[i];
        w->bs[k] = w->beta[i];
        if (w->bs[k] == 0) continue;
        w->cert.cols[nc] = sub->pos ? sub->pos[k] : k;
        w->cert.cval[nc++] = w->bs[k];
    }
    nesvm_status st = nv_kmat_mul(sub->K, sub->pos, ns, w->cert.cols, nc, w->cert.cval, 1, w->fs, err);
    if (st != NESVM_OK) return st;
    double dall = 0, dsub = 0;
    for (int64_t i = 0; i < w->n; i++)
        dall += w->beta[i] * kp->y[i] - w->p * fabs(w->beta[i]) - 0.5 * w->beta[i] * w->f[i];
    for (int64_t k = 0; k < ns; k++) {
        const int64_t i = w->S[k];
        w->ys[k] = kp->y[i] - (w->f[i] - w->fs[k]);
        dsub += w->bs[k] * w->ys[k] - w->p * fabs(w->bs[k]) - 0.5 * w->bs[k] * w->fs[k];
    }
    sub->n = ns;
    sub->y = w->ys;
    sub->cost = w->cs;
    sub->beta0 = w->bs;
    sub->f0 = w->fs;
    sub->keep_sum = 1;
    sub->d0 = dall - dsub;
    return NESVM_OK;
}

/* Step 3 and 4: f updated by the columns of the coefficients that changed,
 * the best bias, the certificate (into res). */
static nesvm_status wst_check(const nv_kernel_problem *kp, wst_run *w, int bias, double *b, nv_binary_result *res,
                              nesvm_error *err)
{
    const int64_t n = kp->n;
    double *dv = w->cert.ay; /* scratch: nv_ws_certify_tube reads f and beta only */
    for (int64_t i = 0; i < n; i++) dv[i] = w->beta[i] - w->fb[i];
    nesvm_status st = nv_ws_tube_mul(&w->cert, dv, dv, err);
    if (st != NESVM_OK) return st;
    for (int64_t i = 0; i < n; i++) w->f[i] += dv[i];
    memcpy(w->fb, w->beta, (size_t)n * sizeof(double));
    *b = bias ? wst_bias(kp, w) : 0.0;
    return nv_ws_certify_tube(&w->cert, bias, w->p, w->beta, *b, w->beta, w->f, res, err);
}

/* After a cold start's first round: every row outside S whose residual at
 * the bias b (margins f of S's solution) lies beyond the tube gets its
 * bound, c_k sign(r_k), as most of them end (with noisy targets the rounds
 * would otherwise move them to it a round's worth at a time).  With a bias
 * sum beta = 0 again: the guesses of the larger side nearest the tube are
 * taken back, the last in part.  Any feasible point is a start: the rounds
 * correct the guesses that are wrong. */
static void wst_guess(const nv_kernel_problem *kp, wst_run *w, int bias, double b)
{
    const int64_t n = kp->n;
    double sum = 0;
    int64_t ng = 0;
    for (int64_t k = 0; k < n; k++) {
        const double r = kp->y[k] - w->f[k] - b;
        if (!w->in[k] && fabs(r) > w->p) {
            w->beta[k] = r > 0 ? kp->cost[k] : -kp->cost[k];
            w->cand[ng++] = (nv_ws_cand){-(fabs(r) - w->p), k}; /* nearest the tube first */
        }
        sum += w->beta[k];
    }
    if (!bias || sum == 0) return;
    qsort(w->cand, (size_t)ng, sizeof(nv_ws_cand), nv_ws_cmp_cand);
    for (int64_t j = 0; j < ng && sum != 0; j++) {
        const int64_t k = w->cand[j].i;
        if ((w->beta[k] > 0) != (sum > 0)) continue;
        if (fabs(w->beta[k]) <= fabs(sum)) {
            sum -= w->beta[k];
            w->beta[k] = 0;
        } else {
            w->beta[k] -= sum;
            sum = 0;
        }
    }
}

/* The start: beta0 (a warm start: clipped to the box, and with a bias sum
 * beta = 0 by scaling the larger sign's side down, as the decomposition
 * keeps the sum its start has) and its margins, or zero; S as step 1. */
static nesvm_status wst_start(const nv_kernel_problem *kp, const nesvm_params *prm, wst_run *w, int bias, double *b,
                              int64_t *ns, nesvm_error *err)
{
    const int64_t n = kp->n;
    *b = kp->beta0 && bias ? kp->b0 : 0.0;
    if (!kp->beta0) {
        *ns = nv_ws_first_set(kp, prm, NV_NESVM_WS_INIT < w->smax ? NV_NESVM_WS_INIT : w->smax, w->in, w->S,
                              w->perm);
        return NESVM_OK;
    }
    double side[2] = {0, 0};
    for (int64_t i = 0; i < n; i++) { /* in the box (a checkpoint's point is) */
        const double c = kp->cost[i], v = kp->beta0[i];
        w->beta[i] = v < -c ? -c : (v > c ? c : v);
        side[w->beta[i] > 0] += fabs(w->beta[i]);
    }
    if (bias && side[0] != side[1] && fabs(side[0] - side[1]) > 1e-12 * (side[0] + side[1])) {
        const int big = side[1] > side[0];
        const double s = side[!big] / side[big];
        for (int64_t i = 0; i < n; i++)
            if ((w->beta[i] > 0) == big && w->beta[i] != 0) w->beta[i] *= s;
    }
    nesvm_status st = nv_ws_tube_mul(&w->cert, w->beta, w->f, err);
    if (st != NESVM_OK) return st;
    memcpy(w->fb, w->beta, (size_t)n * sizeof(double));
    int64_t nv;
    *ns = wst_select(kp, w, *b, &nv);
    if (*ns == 0) *ns = nv_ws_first_set(kp, prm, 1, w->in, w->S, w->perm); /* optimal already: one row */
    return NESVM_OK;
}

nesvm_status nv_ws_tube_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                              nv_binary_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int64_t n = kp->n;
    const int bias = nv_params_bias(prm);
    const size_t nn = (size_t)(n ? n : 1);
    NV_ASSERT(kp->target == NV_TARGET_REAL && nv_kx_smo_params(prm)); /* nv_nesvm_ws_takes */
    wst_run w;
    memset(&w, 0, sizeof w);
    memset(res->w, 0, nn * sizeof(double));
    res->b = 0;
    res->iterations = 0;
    res->primal = res->lower_bound = res->gap = NAN;
    res->exit_reason = NESVM_EXIT_MAX_ITER;
    double b = 0, best_d = -INFINITY;
    int64_t ns = 0, iters = 0, since_best = 0;
    nesvm_status st = wst_alloc(&w, kp, prm, sink && sink->ckpt, err);
    if (st == NESVM_OK) st = wst_start(kp, prm, &w, bias, &b, &ns, err);
    nv_ws_tick tick = {sink, t0, {0}, 0};
    while (st == NESVM_OK) {
        /* 2. the sub-problem on S: its matrix, the held rows' part */
        for (int64_t k = 0; k < ns; k++) w.idx[k] = kp->pos ? kp->pos[w.S[k]] : w.S[k];
        nv_kmat km;
        memset(&km, 0, sizeof km);
        nv_kernel_problem sub = {kp->K, w.idx, ns, NULL, NULL, NULL, b, NULL, NULL, 0, 0, NV_TARGET_REAL, NULL, 0, 0, NULL, NULL};
        if (nv_ws_sub_matrix(kp, prm, sink, w.idx, ns, w.beta, b, iters, t0, &tick, &km, res, &st, err)) break;
        if (st == NESVM_OK && km.n > 0) {
            sub.K = &km;
            sub.pos = NULL;
        }
        if (st == NESVM_OK && !sub.K->K)
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the working set's kernel matrix (%lld rows)",
                          (long long)ns);
        if (st == NESVM_OK) st = wst_sub(kp, &w, ns, &sub, err);
        /* S's sub-problem to a tenth of the whole gap (to WS_EPS eps in the end) */
        nesvm_params cp = *prm;
        cp.eps = ns == n ? prm->eps : prm->eps * NV_NESVM_WS_EPS;
        if (ns < n && 0.1 * res->gap > cp.eps) cp.eps = 0.1 * res->gap;
        else if (ns < n && isnan(res->gap) && cp.eps < NV_NESVM_DCD_TOL0) cp.eps = NV_NESVM_DCD_TOL0;
        cp.max_iter = prm->max_iter - iters;
        if (prm->time_limit > 0) cp.time_limit = prm->time_limit - (nv_now() - t0);
        if (st == NESVM_OK && (cp.max_iter <= 0 || (prm->time_limit > 0 && cp.time_limit <= 0))) {
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
        if (st == NESVM_OK) st = nv_nesvm_kernel_train(&sub, &cp, sink ? &ssink : NULL, &r, err);
        res->kernel_evals += km.evals;
        nv_kmat_free(&km);
        if (st != NESVM_OK) break;
        res->rounds++;
        iters += r.iterations;
        res->exit_reason = r.exit_reason;
        for (int64_t k = 0; k < ns; k++) w.beta[w.S[k]] = w.ws[k];
        /* 3 and 4. the margins, the best bias, the certificate (a cold start's
         * first round whose support vectors are mostly at their bounds: with
         * the guesses of the rows beyond the tube) */
        int64_t nsv = 0, nbd = 0;
        for (int64_t k = 0; k < ns; k++) {
            nsv += w.ws[k] != 0;
            nbd += fabs(w.ws[k]) >= w.cs[k];
        }
        if (res->rounds == 1 && !kp->beta0 && ns < n && nbd >= NV_NESVM_WS_TUBE_GUESS * (double)nsv && nsv > 0) {
            st = wst_check(kp, &w, bias, &b, res, err);
            if (st != NESVM_OK) break;
            wst_guess(kp, &w, bias, b);
        }
        st = wst_check(kp, &w, bias, &b, res, err);
        if (st != NESVM_OK) break;
        if (res->gap <= prm->eps) {
            res->exit_reason = NESVM_EXIT_CONVERGED;
            break;
        }
        if (r.exit_reason != NESVM_EXIT_CONVERGED) break; /* the limits, inside the round */
        /* 5. the next S; no violator left, or a lower bound that no longer
         * rises (each round's can only rise but for the rounding of the
         * sub-problems' K_SS): stalled */
        since_best = res->lower_bound > best_d + 1e-12 * fabs(best_d) ? 0 : since_best + 1;
        if (res->lower_bound > best_d) best_d = res->lower_bound;
        int64_t nv = 0;
        ns = wst_select(kp, &w, b, &nv);
        if (ns == 0 || since_best >= NV_NESVM_WS_TUBE_PATIENCE) {
            res->exit_reason = NESVM_EXIT_STALLED;
            break;
        }
    }
    if (st == NESVM_ERR_NOMEM) res->exit_reason = NESVM_EXIT_NO_MEMORY;
    else if (st != NESVM_OK && st != NESVM_ERR_CANCELLED) res->exit_reason = NESVM_EXIT_NUMERIC;
    if (w.beta) memcpy(res->w, w.beta, nn * sizeof(double));
    res->b = b;
    res->iterations = iters;
    res->n_sv = 0;
    for (int64_t i = 0; w.beta && i < n; i++) res->n_sv += w.beta[i] != 0;
    res->kernel_evals += w.fly.evals;
    res->seconds = nv_now() - t0;
    wst_free(&w);
    return st;
}
