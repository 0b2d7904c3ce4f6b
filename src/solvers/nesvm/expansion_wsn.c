/*
 * expansion_wsn.c - nu-SVC and nu-SVR (LIBSVM's -s 1 and -s 4, in LIBSVM's
 * scaling) on a full kernel's working set: the dual by decomposition, each
 * round's sub-problem solved by the kernel SMO's nu mode (expansion_smon.c)
 * on a matrix of its rows only, as the one-class SVM (expansion_wso.c).  A
 * linear kernel takes the same path (K = X X').
 *
 * The problems, over the n rows with costs c_i (nu-SVC: the sample weights
 * s_i, 1 without them; nu-SVR: C s_i) and W = sum_i s_i, as m variables a
 * with signs and thresholds (nu-SVC: m = n, sign y_i, threshold 0; nu-SVR:
 * the tube's m = 2 n, variable k of sign +1 and threshold y_k, variable
 * n + k of sign -1 and threshold -y_k, both of row k and cost c_k), beta the
 * rows' sums of sign x a (nu-SVC: beta_i = y_i a_i; nu-SVR: a_k - a_{n+k}),
 * f = K beta and G_i = sign_i f_row(i) - t_i:
 *     dual    min_a  1/2 beta'K beta - t'a,   0 <= a_i <= c_i,
 *             each sign's sum of a = R = nu (sum_i c_i) / 2,
 * the nu-SVC primal (u = rho - b, v = rho + b)
 *     P = 1/2 beta'f + min_u [sum_{y=+1} s_i max(0, u - f_i) - R u]
 *                    + min_v [sum_{y=-1} s_i max(0, v + f_i) - R v],
 * the nu-SVR primal (u = b + e, v = b - e, r = y - f)
 *     P = 1/2 beta'f + min_u [sum c_k max(0, r_k - u) + R u]
 *                    + min_v [sum c_k max(0, v - r_k) - R v],
 * both P = 1/2 beta'f + sum_sign min_l [sum_{sign} c_i max(0, l - G_i) - l R]
 * (nu-SVC: l_+ = u, l_- = v; nu-SVR: l_+ = -u, l_- = v), each min the
 * one-class SVM's weighted quantile (nv_nu_quantile), and D = t'a - 1/2
 * beta'f <= P for every feasible a (expansion_smon.c's header).  Without
 * weights these are LIBSVM's problems: its printed obj is -D at the
 * optimum.  The model, as svm-train's: nu-SVC's ρ = (u + v) / 2 (LIBSVM's
 * r) and b = (v - u) / 2, the coefficients beta / rho and the bias b / rho
 * (the C-SVM of C = 1/rho); nu-SVR's beta and b = (u + v) / 2 as they are,
 * its half-width e = (u - v) / 2 (>= 0 for nu <= 1: u the upper nu/2
 * quantile of r, v the lower).
 *
 * The rounds (expansion_wso.c's): the rows with a free variable and the
 * worst violators of the optimality conditions at l (a_i = 0 with
 * G_i < l, a_i = c_i with G_i > l, free with G_i != l) make S, their
 * variables the SMO's sub-problem with the others held (nu-SVC: the held
 * margins h = K_{S,out} beta_out in its thresholds; nu-SVR: in its targets
 * y - h), each sign's sum of a_S kept; f updated by the columns of the
 * coefficients that changed; the certificate in double precision (with the
 * rounding of each sign's sum moved onto its variable with the most room).
 * Memory O(n) plus K_SS.
 */
#include "expansion_ws.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A training's arrays (n entries each unless said). */
typedef struct wsn_run {
    int64_t n, m;              /* rows, variables (nu-SVC n, nu-SVR 2 n) */
    int svr;
    double half;               /* R: each sign's sum of a */
    int64_t smax;              /* |S| at most: K_SS within kernel_memory */
    char *in;                  /* row in S */
    int64_t *S, *idx;          /* S (sorted), its positions */
    double *ys, *hs, *cs, *bs; /* S's targets (nu-SVC: signs; nu-SVR: y - h), held margins, costs, beta */
    double *as, *sdual;        /* 2 n: S's variables a at the start, the SMO's at the end */
    double *ws, *fs;           /* S's solution beta, K_SS beta_S */
    double *a, *sg, *tv, *cv;  /* m: the variables, their signs, thresholds and costs */
    double *G, *zb;            /* m: the gradient; 2 m: the quantiles' scratch */
    double *beta, *f, *fb;     /* the rows' beta, f = K fb in double, fb */
    double *wfull;             /* checkpoints: the whole point, or NULL */
    nv_ws_cand *cand;          /* 5 n: the violators of each sign and way, the free rows */
    nv_kmat fly;               /* products on a column cache's rows */
    nv_ws_cert cert;           /* its scratch: cols n, cval 2 n, d, g, ay n */
    double lam[2];             /* the last certificate's l_- and l_+ */
    double pscale;             /* its P's terms' magnitude (the degenerate test) */
} wsn_run;

static inline int64_t row_of(const wsn_run *w, int64_t v) { return v < w->n ? v : v - w->n; }

static void wsn_free(wsn_run *w)
{
    void *p[] = {w->in, w->S, w->idx, w->ys, w->hs, w->cs, w->bs, w->as, w->sdual, w->ws, w->fs, w->a,
                 w->sg, w->tv, w->cv, w->G, w->zb, w->beta, w->f, w->fb, w->wfull, w->cand, w->cert.cols,
                 w->cert.cval, w->cert.d, w->cert.g, w->cert.ay};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) nv_free(p[k]);
    nv_kmat_free(&w->fly);
}

static nesvm_status wsn_alloc(wsn_run *w, const nv_kernel_problem *kp, const nesvm_params *prm, int ckpt,
                              nesvm_error *err)
{
    const int64_t n = kp->n;
    const size_t nn = (size_t)(n ? n : 1), mm = (size_t)(w->m ? w->m : 1);
    const double fit = floor(sqrt(prm->kernel_memory * 1048576.0 / sizeof(float)));
    w->smax = fit >= (double)n ? n : (fit < 2 ? 2 : (int64_t)fit);
    w->in = nv_calloc(nn, 1);
    w->S = nv_malloc_array(nn, sizeof(int64_t));
    w->idx = nv_malloc_array(nn, sizeof(int64_t));
    double **vn[] = {&w->ys, &w->hs, &w->cs, &w->bs, &w->ws, &w->fs, &w->beta, &w->f, &w->fb};
    int bad = !w->in || !w->S || !w->idx;
    for (size_t k = 0; k < sizeof vn / sizeof vn[0]; k++) bad |= !(*vn[k] = nv_calloc(nn, sizeof(double)));
    double **vm[] = {&w->a, &w->sg, &w->tv, &w->cv, &w->G, &w->as, &w->sdual};
    for (size_t k = 0; k < sizeof vm / sizeof vm[0]; k++) bad |= !(*vm[k] = nv_calloc(mm, sizeof(double)));
    w->zb = nv_malloc_array(2 * mm, sizeof(double));
    w->wfull = ckpt ? nv_malloc_array(nn, sizeof(double)) : NULL;
    w->cand = nv_malloc_array(5 * nn, sizeof(nv_ws_cand));
    w->cert = (nv_ws_cert){kp, &w->fly, nv_malloc_array(nn, sizeof(int64_t)), nv_malloc_array(2 * nn, sizeof(double)),
                           nv_malloc_array(nn, sizeof(double)), nv_malloc_array(nn, sizeof(double)),
                           nv_malloc_array(nn, sizeof(double))};
    if (bad || !w->zb || (ckpt && !w->wfull) || !w->cand || !w->cert.cols || !w->cert.cval || !w->cert.d ||
        !w->cert.g || !w->cert.ay)
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the working set (n=%lld)", (long long)n);
    double csum = 0;
    for (int64_t v = 0; v < w->m; v++) {
        const int64_t i = row_of(w, v);
        w->sg[v] = w->svr ? (v < n ? 1.0 : -1.0) : kp->y[i];
        w->tv[v] = w->svr ? w->sg[v] * kp->y[i] : 0.0;
        w->cv[v] = kp->cost[i];
        if (v < n) csum += kp->cost[i];
    }
    w->half = 0.5 * prm->svm_nu * csum;
    if (!kp->kc) return NESVM_OK; /* products from kp->K's data */
    const nv_kcache *kc = kp->kc;
    return nv_kmat_init(&w->fly, &kc->k, kc->X, kc->rows, kc->n, 0.0, prm->threads, NULL, err);
}

/* The rows' beta from the variables. */
static void wsn_beta(wsn_run *w)
{
    for (int64_t i = 0; i < w->n; i++) w->beta[i] = w->sg[i] * w->a[i];
    for (int64_t v = w->n; v < w->m; v++) w->beta[v - w->n] += w->sg[v] * w->a[v];
}

/* The certificate at a with margins f = K beta (into res: primal,
 * lower_bound, gap; the quantiles into w->lam): P of the header, and D of a
 * made feasible, each sign's rounding (its sum - R) moved onto its
 * variable with the most room (D's change by K d, d the moved amounts on
 * their rows: one product).  D is taken as P less the gap's sum of
 * non-negative terms (expansion_smon.c's header) and the rounding's: the
 * same number as t'a - 1/2 beta'f, without the cancellation of P's and D's
 * large terms where both are near 0 (w near 0); a gap below 0 by less than
 * the terms' rounding is 0. */
static nesvm_status wsn_certify(wsn_run *w, nv_binary_result *res, nesvm_error *err)
{
    const int64_t n = w->n, m = w->m;
    double quad = 0, loss = 0, gap = 0, sum[2] = {0, 0};
    for (int64_t v = 0; v < m; v++) {
        w->G[v] = w->sg[v] * w->f[row_of(w, v)] - w->tv[v];
        sum[w->sg[v] > 0] += w->a[v];
    }
    for (int64_t i = 0; i < n; i++) quad += w->beta[i] * w->f[i];
    w->pscale = 0.5 * fabs(quad);
    for (int c = 0; c < 2; c++) {
        const double sign = c ? 1.0 : -1.0, l = nv_nu_quantile(w->G, w->cv, w->sg, sign, m, w->half, w->zb);
        w->lam[c] = l;
        for (int64_t v = 0; v < m; v++) {
            if (w->sg[v] != sign) continue;
            const double hinge = l > w->G[v] ? w->cv[v] * (l - w->G[v]) : 0.0;
            loss += hinge;
            gap += w->a[v] * (w->G[v] - l) + hinge;
            w->pscale += w->cv[v] * fabs(l - w->G[v]) + w->a[v] * fabs(w->G[v]);
        }
        loss -= l * w->half;
        gap += l * (sum[c] - w->half);
        w->pscale += fabs(l) * w->half;
    }
    const double P = 0.5 * quad + loss;
    double dD = 0;
    double *d = w->cert.d, *kd = w->cert.g;
    memset(d, 0, (size_t)n * sizeof(double));
    int moved = 0;
    for (int c = 0; c < 2; c++) {
        const double delta = sum[c] - w->half;
        if (delta == 0) continue;
        int64_t j = -1;
        double room = -1;
        for (int64_t v = 0; v < m; v++) {
            if ((w->sg[v] > 0) != c) continue;
            const double r = delta > 0 ? w->a[v] : w->cv[v] - w->a[v];
            if (r > room) {
                room = r;
                j = v;
            }
        }
        if (j < 0) continue;
        dD -= delta * w->tv[j];
        d[row_of(w, j)] -= delta * w->sg[j];
        moved = 1;
    }
    if (moved) {
        nesvm_status st = nv_ws_tube_mul(&w->cert, d, kd, err);
        if (st != NESVM_OK) return st;
        double df = 0, dkd = 0;
        for (int64_t i = 0; i < n; i++) {
            df += d[i] * w->f[i];
            dkd += d[i] * kd[i];
        }
        dD -= df + 0.5 * dkd;
    }
    gap -= dD; /* P - (D + dD) */
    if (gap < 0 && -gap <= 1e-12 * w->pscale) gap = 0;
    res->primal = P;
    res->lower_bound = P - gap;
    return nv_certify(P, res->lower_bound, &res->gap, err);
}

/* Variable v's violation of the optimality conditions at its sign's l,
 * signed by the way a_v should move (0: none): F's slope along a_v less
 * l, G_v - l, must be 0 where a_v is free and may push only out of the box
 * at a bound. */
static double wsn_violation(const wsn_run *w, int64_t v)
{
    const double x = w->lam[w->sg[v] > 0] - w->G[v], av = w->a[v];
    if (av <= 0) return x > 0 ? x : 0.0;
    if (av >= w->cv[v]) return x < 0 ? x : 0.0;
    return x;
}

/* S's row: added once. */
static void wsn_add(wsn_run *w, int64_t *ns, int64_t i)
{
    if (w->in[i] || *ns >= w->smax) return;
    w->in[i] = 1;
    w->S[(*ns)++] = i;
}

/* The next S, as expansion_wso.c's (oc_select): at most q = max(WS_TUBE_Q,
 * 2 |free|) rows, the rows with a free variable that violate most (at most
 * half), then the worst violators in turn among those of each sign whose
 * variable should rise and fall (the sub-problem keeps each sign's sum: it
 * moves a variable only against another of its sign), then the other free
 * rows; all rows when 2 |free| is WS_FULL of them or more and their K_SS
 * fits; and always the rows of each sign's most violating pair among the
 * bounded variables (the smallest G at 0, the largest at c).  Returns |S|;
 * *nv: the variables violating at all. */
static int64_t wsn_select(wsn_run *w, int64_t *nv)
{
    const int64_t n = w->n;
    int64_t cnt[5] = {0, 0, 0, 0, 0}; /* lists 2 sign + rise, then the free rows */
    nv_ws_cand *list[5];
    for (int l = 0; l < 5; l++) list[l] = w->cand + l * n;
    int64_t lo0[2] = {-1, -1}, hic[2] = {-1, -1};
    *nv = 0;
    for (int64_t i = 0; i < n; i++) w->fs[i] = -1; /* scratch: each row's free violation, -1 none */
    for (int64_t v = 0; v < w->m; v++) {
        const double x = wsn_violation(w, v);
        const int c = w->sg[v] > 0;
        const int64_t i = row_of(w, v);
        *nv += x != 0;
        if (w->a[v] <= 0 && (lo0[c] < 0 || w->G[v] < w->G[lo0[c]])) lo0[c] = v;
        if (w->a[v] >= w->cv[v] && (hic[c] < 0 || w->G[v] > w->G[hic[c]])) hic[c] = v;
        if (w->a[v] > 0 && w->a[v] < w->cv[v]) {
            if (fabs(x) > w->fs[i]) w->fs[i] = fabs(x);
        } else if (x != 0) {
            const int l = 2 * c + (x > 0);
            list[l][cnt[l]++] = (nv_ws_cand){fabs(x), i};
        }
    }
    for (int64_t i = 0; i < n; i++)
        if (w->fs[i] >= 0) list[4][cnt[4]++] = (nv_ws_cand){w->fs[i], i};
    memset(w->in, 0, (size_t)(n > 0 ? n : 1));
    int64_t ns = 0;
    if (2 * cnt[4] >= NV_NESVM_WS_FULL * (double)n && n <= w->smax) {
        for (int64_t i = 0; i < n; i++) wsn_add(w, &ns, i);
        return ns;
    }
    int64_t q = 2 * cnt[4] > NV_NESVM_WS_TUBE_Q ? 2 * cnt[4] : NV_NESVM_WS_TUBE_Q;
    if (q > w->smax) q = w->smax;
    for (int l = 0; l < 5; l++) qsort(list[l], (size_t)cnt[l], sizeof(nv_ws_cand), nv_ws_cmp_cand);
    int64_t at[5] = {0, 0, 0, 0, 0};
    while (ns < q / 2 && at[4] < cnt[4]) wsn_add(w, &ns, list[4][at[4]++].i);
    for (int l = 0, left = 1; ns < q && left; l = (l + 1) % 4) { /* in turn */
        if (at[l] < cnt[l]) wsn_add(w, &ns, list[l][at[l]++].i);
        if (l == 3) left = at[0] < cnt[0] || at[1] < cnt[1] || at[2] < cnt[2] || at[3] < cnt[3];
    }
    while (ns < q && at[4] < cnt[4]) wsn_add(w, &ns, list[4][at[4]++].i);
    const int64_t pair[4] = {lo0[0], hic[0], lo0[1], hic[1]};
    for (int e = 0; e < 4; e++)
        if (pair[e] >= 0) wsn_add(w, &ns, row_of(w, pair[e]));
    qsort(w->S, (size_t)ns, sizeof(int64_t), nv_cmp_i64);
    return ns;
}

/* The sub-problem on S, the others held, from the current point: fs =
 * K_SS beta_S (sub->K's values: what the SMO's steps read), the held
 * margins h = f_S - fs (nu-SVC: sub->h; nu-SVR: in the targets y_S - h),
 * S's variables as the start (sub->a0: a_S, then nu-SVR's a_{n+S}), the
 * offset d0 = D - D_S of the held part of the dual. */
static nesvm_status wsn_sub(const nv_kernel_problem *kp, wsn_run *w, int64_t ns, nv_kernel_problem *sub,
                            nesvm_error *err)
{
    const int64_t n = w->n;
    int64_t nc = 0;
    for (int64_t k = 0; k < ns; k++) {
        const int64_t i = w->S[k];
        w->cs[k] = kp->cost[i];
        w->bs[k] = w->beta[i];
        w->as[k] = w->a[i];
        if (w->svr) w->as[ns + k] = w->a[n + i];
        if (w->bs[k] == 0) continue;
        w->cert.cols[nc] = sub->pos ? sub->pos[k] : k;
        w->cert.cval[nc++] = w->bs[k];
    }
    nesvm_status st = nv_kmat_mul(sub->K, sub->pos, ns, w->cert.cols, nc, w->cert.cval, 1, w->fs, err);
    if (st != NESVM_OK) return st;
    double dall = 0, dsub = 0;
    for (int64_t v = 0; v < w->m; v++) dall += w->a[v] * w->tv[v];
    for (int64_t i = 0; i < n; i++) dall -= 0.5 * w->beta[i] * w->f[i];
    for (int64_t k = 0; k < ns; k++) {
        const int64_t i = w->S[k];
        const double h = w->f[i] - w->fs[k];
        w->hs[k] = h;
        w->ys[k] = w->svr ? kp->y[i] - h : kp->y[i];
        dsub += w->svr ? w->bs[k] * w->ys[k] - 0.5 * w->bs[k] * w->fs[k] : -w->bs[k] * (0.5 * w->fs[k] + h);
    }
    sub->n = ns;
    sub->y = w->ys;
    sub->cost = w->cs;
    sub->beta0 = w->bs;
    sub->f0 = w->fs;
    sub->h = w->svr ? NULL : w->hs;
    sub->a0 = w->as;
    sub->d0 = dall - dsub;
    return NESVM_OK;
}

/* f updated by the columns of the coefficients that changed, the
 * certificate (into res). */
static nesvm_status wsn_check(wsn_run *w, nv_binary_result *res, nesvm_error *err)
{
    const int64_t n = w->n;
    double *dv = w->cert.ay;
    for (int64_t i = 0; i < n; i++) dv[i] = w->beta[i] - w->fb[i];
    nesvm_status st = nv_ws_tube_mul(&w->cert, dv, dv, err);
    if (st != NESVM_OK) return st;
    for (int64_t i = 0; i < n; i++) w->f[i] += dv[i];
    memcpy(w->fb, w->beta, (size_t)n * sizeof(double));
    return wsn_certify(w, res, err);
}

/* The start: LIBSVM's (each sign's a_i = min(c_i, what is left of R) in
 * row order; nu-SVR: both variables of a row alike), or beta0's variables
 * clipped to the box with each sign's sum brought to R (nv_nu_fill); f =
 * K beta. */
static nesvm_status wsn_start(const nv_kernel_problem *kp, wsn_run *w, nesvm_error *err)
{
    for (int64_t v = 0; v < w->m && kp->beta0; v++) {
        const double x = w->sg[v] * kp->beta0[row_of(w, v)];
        w->a[v] = x < 0 ? 0.0 : (x > w->cv[v] ? w->cv[v] : x);
    }
    nv_nu_fill(w->a, w->sg, w->cv, w->m, w->half);
    wsn_beta(w);
    nesvm_status st = nv_ws_tube_mul(&w->cert, w->beta, w->f, err);
    if (st == NESVM_OK) memcpy(w->fb, w->beta, (size_t)w->n * sizeof(double));
    return st;
}

/* The SMO on S's sub-problem (sub: its rows, matrix and held part), its
 * variables into a and beta; r: its result. */
static nesvm_status wsn_round(const nesvm_params *prm, const nv_progress_sink *sink, wsn_run *w, int64_t ns,
                              nv_kernel_problem *sub, double t0, int64_t iters, nv_ws_tick *tick, double gap,
                              nv_binary_result *r, nesvm_error *err)
{
    nesvm_params cp = *prm;
    cp.eps = ns == w->n ? prm->eps : prm->eps * NV_NESVM_WS_EPS;
    if (ns < w->n && 0.1 * gap > cp.eps) cp.eps = 0.1 * gap;
    cp.max_iter = prm->max_iter - iters;
    if (prm->time_limit > 0) cp.time_limit = prm->time_limit - (nv_now() - t0);
    nv_ws_sink wsk = {sink, iters, nv_now() - t0, w->S, ns, w->n, w->wfull, w->beta, tick};
    nv_progress_sink ssink;
    if (sink) nv_ws_sub_sink(&wsk, &ssink);
    memset(r, 0, sizeof *r);
    r->w = w->ws;
    r->dual = w->sdual;
    nesvm_status st = nv_nesvm_kernel_train(sub, &cp, sink ? &ssink : NULL, r, err);
    if (st != NESVM_OK) return st;
    for (int64_t k = 0; k < ns; k++) {
        const int64_t i = w->S[k];
        w->a[i] = w->sdual[k];
        if (w->svr) w->a[w->n + i] = w->sdual[ns + k];
        w->beta[i] = w->svr ? w->a[i] - w->a[w->n + i] : w->sg[i] * w->a[i];
    }
    return NESVM_OK;
}

/* The model from the last certificate (w->lam): nu-SVC's beta / rho and
 * b / rho with rho = (u + v) / 2 and b = (v - u) / 2 (a training stopped by
 * its iteration or time limit: the model where rho > 0, else refused as
 * such), refused where the optimum is w = 0 (rho = 0: C = 1/rho infinite; nu below the smallest
 * nu of a separating optimum, where the classes' hulls reduced by the box
 * 1/R still meet), which a primal value not below 0 beyond rounding cannot
 * exclude (at the optimum P = -1/2 ||w||^2, and rho >= ||w||^2 / (nu W) > 0
 * where that is < 0); nu-SVR's beta and b = (u + v) / 2, with e = (u - v)
 * / 2. */
static nesvm_status wsn_model(const nesvm_params *prm, const wsn_run *w, nv_binary_result *res, nesvm_error *err)
{
    const int64_t n = w->n;
    const double b = 0.5 * (w->lam[0] - w->lam[1]);
    if (w->svr) {
        memcpy(res->w, w->beta, (size_t)n * sizeof(double));
        res->b = b;
        res->nu_value = -0.5 * (w->lam[0] + w->lam[1]);
        return NESVM_OK;
    }
    const double rho = 0.5 * (w->lam[0] + w->lam[1]);
    res->nu_value = rho;
    /* stopped by a limit before the certificate: the point is no evidence of
     * w* = 0; its model where rho > 0 (the caller warns that it is not
     * certified), else no model at all */
    const int limit = res->exit_reason == NESVM_EXIT_MAX_ITER || res->exit_reason == NESVM_EXIT_TIME_LIMIT;
    if (limit && !(rho > 0)) {
        char nb[32];
        nv_format_double(prm->svm_nu, nb);
        return nv_error(err, NESVM_ERR_DATA,
                        "nu-SVC with nu %s stopped at its %s before its certificate (relative gap %.3g), at a "
                        "point with no classifier (margin rho %.3g, not above 0): raise %s",
                        nb, res->exit_reason == NESVM_EXIT_MAX_ITER ? "iteration limit" : "time limit", res->gap,
                        rho, res->exit_reason == NESVM_EXIT_MAX_ITER ? "--max-iter" : "--time-limit");
    }
    if (!limit && (!(rho > 0) || !(res->primal < -1e-12 * w->pscale))) {
        char nb[32];
        nv_format_double(prm->svm_nu, nb);
        return nv_error(err, NESVM_ERR_DATA,
                        "nu-SVC with nu %s has no classifier here: its optimum is w = 0, or too near it to tell "
                        "(the classes' reduced convex hulls meet; primal %.3g, not below 0, margin rho %.3g), so "
                        "the model's scale 1/rho (LIBSVM's C) is infinite or meaningless; a larger nu (-n) "
                        "shrinks the hulls towards the classes' means",
                        nb, res->primal, rho);
    }
    for (int64_t i = 0; i < n; i++) res->w[i] = w->beta[i] / rho;
    res->b = b / rho;
    return NESVM_OK;
}

/* One round: S's matrix, its sub-problem, the SMO; into *r.  Returns 1 when
 * the training stops in K_SS (res->exit_reason), else 0 with *st. */
static int wsn_step(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink, wsn_run *w,
                    int64_t ns, double t0, int64_t iters, nv_ws_tick *tick, nv_binary_result *res,
                    nv_binary_result *r, nesvm_status *st, nesvm_error *err)
{
    for (int64_t k = 0; k < ns; k++) w->idx[k] = kp->pos ? kp->pos[w->S[k]] : w->S[k];
    nv_kmat km;
    memset(&km, 0, sizeof km);
    nv_kernel_problem sub = {kp->K, w->idx, ns, NULL, NULL, NULL, 0.0, NULL, NULL, 0, 0, kp->target,
                             NULL, 0, 0, NULL, NULL};
    if (nv_ws_sub_matrix(kp, prm, sink, w->idx, ns, w->beta, 0.0, iters, t0, tick, &km, res, st, err)) {
        nv_kmat_free(&km);
        return 1;
    }
    if (*st == NESVM_OK && km.n > 0) {
        sub.K = &km;
        sub.pos = NULL;
    }
    if (*st == NESVM_OK && !sub.K->K)
        *st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the working set's kernel matrix (%lld rows)",
                       (long long)ns);
    if (*st == NESVM_OK) *st = wsn_sub(kp, w, ns, &sub, err);
    if (*st == NESVM_OK) *st = wsn_round(prm, sink, w, ns, &sub, t0, iters, tick, res->gap, r, err);
    res->kernel_evals += km.evals;
    nv_kmat_free(&km);
    return 0;
}

nesvm_status nv_ws_nu_train(const nv_kernel_problem *kp, const nesvm_params *prm, const nv_progress_sink *sink,
                            nv_binary_result *res, nesvm_error *err)
{
    const double t0 = nv_now();
    const int64_t n = kp->n;
    const size_t nn = (size_t)(n ? n : 1);
    NV_ASSERT(nv_params_nu_type(prm) && nv_kx_smo_params(prm)); /* kplan.c's check */
    wsn_run w;
    memset(&w, 0, sizeof w);
    w.n = n;
    w.svr = kp->target == NV_TARGET_REAL;
    w.m = w.svr ? 2 * n : n;
    memset(res->w, 0, nn * sizeof(double));
    res->b = res->nu_value = 0;
    res->iterations = 0;
    res->primal = res->lower_bound = res->gap = NAN;
    res->exit_reason = NESVM_EXIT_MAX_ITER;
    double best_d = -INFINITY;
    int64_t iters = 0, since_best = 0;
    nesvm_status st = wsn_alloc(&w, kp, prm, sink && sink->ckpt, err);
    if (st == NESVM_OK) st = wsn_start(kp, &w, err);
    if (st == NESVM_OK) st = wsn_certify(&w, res, err);
    /* the dual's scale for the stall rule: the start's (a degenerate problem
     * has a lower bound near 0 that rises by rounding only) */
    const double dscale = st == NESVM_OK ? fabs(res->lower_bound) : 0.0;
    nv_ws_tick tick = {sink, t0, {0}, 0};
    while (st == NESVM_OK) {
        if (res->gap <= prm->eps) {
            res->exit_reason = NESVM_EXIT_CONVERGED;
            break;
        }
        since_best = res->lower_bound > best_d + 1e-12 * fmax(fabs(best_d), dscale) ? 0 : since_best + 1;
        if (res->lower_bound > best_d) best_d = res->lower_bound;
        int64_t nv = 0, ns = wsn_select(&w, &nv);
        if (nv == 0 || ns < 2 || since_best > NV_NESVM_WS_TUBE_PATIENCE) {
            res->exit_reason = NESVM_EXIT_STALLED;
            break;
        }
        if (iters >= prm->max_iter || (prm->time_limit > 0 && nv_now() - t0 >= prm->time_limit)) {
            res->exit_reason = iters >= prm->max_iter ? NESVM_EXIT_MAX_ITER : NESVM_EXIT_TIME_LIMIT;
            break;
        }
        nv_binary_result r;
        memset(&r, 0, sizeof r);
        if (wsn_step(kp, prm, sink, &w, ns, t0, iters, &tick, res, &r, &st, err) || st != NESVM_OK) break;
        res->rounds++;
        iters += r.iterations;
        st = wsn_check(&w, res, err);
        if (st == NESVM_OK && res->gap > prm->eps && r.exit_reason != NESVM_EXIT_CONVERGED &&
            r.exit_reason != NESVM_EXIT_STALLED) {
            res->exit_reason = r.exit_reason; /* the limits, inside the round */
            break;
        }
    }
    if (st == NESVM_ERR_NOMEM) res->exit_reason = NESVM_EXIT_NO_MEMORY;
    else if (st != NESVM_OK && st != NESVM_ERR_CANCELLED) res->exit_reason = NESVM_EXIT_NUMERIC;
    if (st == NESVM_OK) st = wsn_model(prm, &w, res, err);
    else if (w.beta) memcpy(res->w, w.beta, nn * sizeof(double));
    res->iterations = iters;
    res->n_sv = 0;
    for (int64_t i = 0; w.beta && i < n; i++) res->n_sv += w.beta[i] != 0;
    res->kernel_evals += w.fly.evals;
    res->seconds = nv_now() - t0;
    wsn_free(&w);
    return st;
}
