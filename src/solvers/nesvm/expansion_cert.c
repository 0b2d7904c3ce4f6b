/*
 * expansion_cert.c - the full kernel's certificates in double precision
 * (expansion_ws.c's rounds, and a solve on a stored single-precision
 * matrix): the margins K beta from double-precision kernel columns, and
 * the dual value of a feasible dual point built from the solution, for the
 * C-SVM's hinge (sign targets) and epsilon-SVR's tube (real targets).
 */
#include "expansion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

nesvm_status nv_ws_margins(const nv_kernel_problem *kp, const double *beta, int64_t *cols, double *cval,
                           double *f, nesvm_error *err)
{
    nv_kcache *kc = kp->kc;
    const int64_t n = kp->n;
    int64_t nc = 0;
    for (int64_t i = 0; i < n; i++) {
        if (beta[i] == 0) continue;
        cval[nc] = beta[i];
        cols[nc++] = kp->pos ? kp->pos[i] : i;
    }
    /* a stored matrix (one-vs-one pairs sharing it) holds single precision:
     * the certificate's margins compute their values in double */
    if (!kc) return nv_kmat_mul_exact(kp->K, kp->pos, n, cols, nc, cval, 1, f, err);
    memset(f, 0, (size_t)n * sizeof(double));
    nesvm_status st = nv_kcache_fill(kc, cols, nc, kp->groups, kp->ngroups, err);
    for (int64_t c = 0; c < nc && st == NESVM_OK; c++) {
        const double *col;
        st = nv_kcache_column(kc, cols[c], kp->pos, kp->pos ? n : 0, kp->groups, kp->ngroups, &col, err);
        if (st != NESVM_OK) return st;
        const double bc = cval[c];
        for (int64_t a = 0; a < n; a++) f[a] += bc * col[a];
    }
    return st;
}

/* The dual value of the point a (ay = a y, its entries in [0, c]) made
 * feasible: with a free bias sum a_i y_i = 0 by scaling the larger class's
 * side down, then at its best along t a (t in [0, min c_i / a_i] keeps the
 * box and a'y = 0) for
 *     D(a) = sum a_i - 1/2 (a y)' K (a y)  <=  min P  (weak duality),
 * K (a y) from the double-precision columns (g). */
static nesvm_status dual_value(const nv_kernel_problem *kp, int bias, double *ay, int64_t *cols, double *cval,
                               double *g, double *D, nesvm_error *err)
{
    const int64_t n = kp->n;
    double side[2] = {0, 0};
    for (int64_t i = 0; i < n; i++) side[kp->y[i] > 0] += kp->y[i] * ay[i];
    if (bias && side[0] != side[1]) {
        const int big = side[1] > side[0];
        const double s = side[!big] / side[big];
        for (int64_t i = 0; i < n; i++)
            if ((kp->y[i] > 0) == big) ay[i] *= s;
    }
    nesvm_status st = nv_ws_margins(kp, ay, cols, cval, g, err);
    if (st != NESVM_OK) return st;
    double asum = 0, aqa = 0, tmax = INFINITY;
    for (int64_t i = 0; i < n; i++) {
        double a = kp->y[i] * ay[i];
        NV_ASSERT(a >= 0 && a <= kp->cost[i]); /* in the box (clipped, then scaled by at most 1) */
        asum += a;
        aqa += ay[i] * g[i];
        if (a > 0 && kp->cost[i] / a < tmax) tmax = kp->cost[i] / a;
    }
    double t = aqa > 0 ? asum / aqa : 1.0;
    t = t > tmax ? tmax : (t > 0 ? t : 0.0);
    *D = t * asum - 0.5 * t * t * aqa;
    return NESVM_OK;
}

/* The whole problem's certificate with double-precision kernel columns (the
 * sub-problems' K_SS is single precision: their P and bound are those of a
 * rounded kernel, which at C = 1e4 put the true gap at 2.5e-4 where theirs
 * said 1e-6).  f = K beta (margins).  P = 1/2 beta'f + sum c_i max(0, r_i),
 * against the better dual_value of two dual points: the sub-problem's own
 * (the one of its bound, extended by zeros: feasible here, and now valued
 * with double-precision columns), and a = y beta clipped to [0, c] (at the
 * smoothed optimum beta_i = y_i c_i u_i, u in [0, 1]).
 * Into res: primal P, lower_bound D, gap (nv_certify). */
nesvm_status nv_ws_certify_hinge(const nv_kernel_problem *kp, int bias, const double *beta, double b,
                                 const double *sub_ay, const double *f, int64_t *cols, double *cval, double *ay,
                                 double *g, nv_binary_result *res, nesvm_error *err)
{
    const int64_t n = kp->n;
    double quad = 0, loss = 0, best = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        double ri = 1.0 - kp->y[i] * (f[i] + b);
        if (ri > 0) loss += kp->cost[i] * ri;
        quad += beta[i] * f[i];
    }
    const double P = 0.5 * quad + loss;
    nesvm_status st = NESVM_OK;
    for (int k = 0; k < 2 && st == NESVM_OK; k++) {
        for (int64_t i = 0; i < n; i++) {
            double a = kp->y[i] * (k == 0 ? sub_ay[i] : beta[i]);
            ay[i] = (a < 0 ? 0.0 : (a > kp->cost[i] ? kp->cost[i] : a)) * kp->y[i];
        }
        double D = -INFINITY;
        st = dual_value(kp, bias, ay, cols, cval, g, &D, err);
        if (st == NESVM_OK && D > best) best = D;
    }
    if (st != NESVM_OK) return st;
    res->primal = P;
    res->lower_bound = best;
    return nv_certify(P, best, &res->gap, err);
}

/* The certificate of a solve on a stored (single-precision) kernel matrix,
 * again with double-precision kernel values: one pass of nv_kmat_mul_exact
 * over the columns of beta and of the dual point d = a y of the solver's
 * bound (res->dual) gives m = K beta and g = K d, and with the loss l (loss.h)
 *   L2 norm  P = 1/2 beta'm + sum c_i l(r_i),  D = sum a t - sum c_i l*(a_i/c_i) - 1/2 d'g
 *   L1 norm  P = ||beta||_1 + sum c_i l(r_i),  D = the best multiple theta <= 1/max(1, ||g||_inf)
 *            of sum a - sum c_i l*(a_i/c_i) (the hinge: sum a / max(1, ||g||_inf))
 * (r_i = 1 - y_i (m_i + b), a = y d, t = 1 for sign targets; r_i = y_i - m_i - b,
 * a = d, t = y for real ones; the L1 dual point scaled into ||K(a y)||_inf <= 1).
 * The solver's own P and bound are the rounded kernel's: on small problems
 * they claimed eps = 1e-3 where the gap was 1.01e-3.  A training that
 * converged on the rounded kernel but not here ends "stalled".  The loss is
 * the training's instance (a tube's half-width: with the registry's e = 0
 * an epsilon-SVR's P read 1152.5 where its optimum is 924.71). */
nesvm_status nv_kx_certify_stored(const nv_kernel_problem *kp, const nesvm_params *prm, nv_binary_result *res,
                                  nesvm_error *err)
{
    const int64_t n = kp->n;
    const int bias = nv_params_bias(prm);
    size_t nn = (size_t)(n ? n : 1);
    int64_t *cols = nv_malloc_array(nn, sizeof(int64_t));
    double *V = nv_malloc_array(2 * nn, sizeof(double)), *out = nv_malloc_array(2 * nn, sizeof(double));
    nesvm_status st = cols && V && out ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    int64_t nc = 0;
    for (int64_t i = 0; st == NESVM_OK && i < n; i++) {
        if (res->w[i] == 0 && res->dual[i] == 0) continue;
        cols[nc] = kp->pos ? kp->pos[i] : i;
        V[2 * nc] = res->w[i];
        V[2 * nc + 1] = res->dual[i];
        nc++;
    }
    if (st == NESVM_OK) st = nv_kmat_mul_exact(kp->K, kp->pos, n, cols, nc, V, 2, out, err);
    if (st == NESVM_OK) {
        const double b = bias ? res->b : 0.0;
        const nv_loss inst = nv_params_loss_inst(prm), *l = &inst;
        const int l1 = nv_params_l1(prm);
        /* the residual and the dual point a_i (its target term a_i t_i) by
         * the target's kind: 1 - y f and a = y d (signs), y - f and a = d (reals) */
        const int real = kp->target == NV_TARGET_REAL;
        double reg = 0, loss = 0, asum = 0, aa = 0, ae = 0, dg = 0, ginf = 0;
        for (int64_t i = 0; i < n; i++) {
            const double m = out[2 * i], g = out[2 * i + 1];
            const double ri = real ? kp->y[i] - (m + b) : 1.0 - kp->y[i] * (m + b);
            const double a = real ? res->dual[i] : kp->y[i] * res->dual[i];
            reg += l1 ? fabs(res->w[i]) : 0.5 * res->w[i] * m;
            loss += kp->cost[i] * nv_loss_value(l, ri, 1.0);
            asum += real ? a * kp->y[i] : a;
            aa += nv_loss_conj(l, a, kp->cost[i]);
            ae += l->conj_e * fabs(a);
            dg += res->dual[i] * g;
            if (fabs(g) > ginf) ginf = fabs(g);
        }
        const double P = reg + loss;
        double D, th;
        if (!l1)
            D = asum - aa - 0.5 * dg;
        else if (l->conj_q == 0) /* linear in theta: the largest admissible */
            D = (asum - aa) / (ginf > 1 ? ginf : 1.0);
        else /* theta (asum - ae) - theta^2 (aa - ae): the conjugate's two parts */
            D = nv_loss_dual_scale(asum - ae, 2.0 * (aa - ae), 0.0, 1.0 / (ginf > 1 ? ginf : 1.0), &th);
        res->primal = P;
        res->lower_bound = D;
        st = nv_certify(P, D, &res->gap, err);
        if (st != NESVM_OK) res->exit_reason = NESVM_EXIT_NUMERIC;
        else if (res->exit_reason == NESVM_EXIT_CONVERGED && res->gap > prm->eps)
            res->exit_reason = NESVM_EXIT_STALLED;
    }
    nv_free(cols);
    nv_free(V);
    nv_free(out);
    return st;
}


/* ------------------------------------------------------------------ the tube */

/* Tiles of the on-the-fly product: TILE_R rows x TILE_C columns (1 MB of
 * doubles, within the caches while they are computed, mapped and used). */
#define TILE_R 128
#define TILE_C 512

/* out[0..n) = K[rows, cols[0..nc)] cval on the fly (c->fly's rows), tile by
 * tile: each tile's kernel values (nv_kernel_block_fast: dgemm and the
 * kernel's map, the RBF kernel's exponential vectorized) go into out at
 * once, where a 64 MB block of nv_kmat_mul leaves the caches three times.
 * Friedman #1, 20,000 rows: 13 ns a value so, 8 ns by tiles with the C
 * library's exp (56% of the training in it), about 3 ns with kfast.c's. */
static nesvm_status tube_mul_fly(nv_ws_cert *c, int64_t nc, double *out, nesvm_error *err)
{
    const nv_kernel_problem *kp = c->kp;
    const nv_kmat *km = c->fly;
    const int64_t n = kp->n;
    memset(out, 0, (size_t)n * sizeof(double));
    if (nc == 0) return NESVM_OK;
    int64_t xr[TILE_R], zr[TILE_C];
    double xs[TILE_R], zs[TILE_C];
    double *buf = nv_malloc_array((size_t)TILE_R * TILE_C, sizeof(double));
    if (!buf) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel buffers");
    nesvm_status st = NESVM_OK;
    for (int64_t c0 = 0; c0 < nc && st == NESVM_OK; c0 += TILE_C) {
        const int64_t w = nc - c0 < TILE_C ? nc - c0 : TILE_C;
        for (int64_t b = 0; b < w; b++) {
            zr[b] = km->rows[c->cols[c0 + b]];
            zs[b] = km->sq[c->cols[c0 + b]];
        }
        for (int64_t r0 = 0; r0 < n && st == NESVM_OK; r0 += TILE_R) {
            const int64_t h = n - r0 < TILE_R ? n - r0 : TILE_R;
            for (int64_t a = 0; a < h; a++) {
                const int64_t p = kp->pos ? kp->pos[r0 + a] : r0 + a;
                xr[a] = km->rows[p];
                xs[a] = km->sq[p];
            }
            st = nv_kernel_block_fast(&km->k, km->X, xr, h, xs, km->X, zr, w, zs, buf, w, km->threads, err);
            for (int64_t a = 0; st == NESVM_OK && a < h; a++) {
                /* four partial sums: independent chains (a fixed order) */
                const double *row = buf + a * w, *v = c->cval + c0;
                double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                int64_t b = 0;
                for (; b + 4 <= w; b += 4) {
                    s0 += row[b] * v[b];
                    s1 += row[b + 1] * v[b + 1];
                    s2 += row[b + 2] * v[b + 2];
                    s3 += row[b + 3] * v[b + 3];
                }
                for (; b < w; b++) s0 += row[b] * v[b];
                out[r0 + a] += (s0 + s1) + (s2 + s3);
            }
        }
    }
    c->fly->evals += n * nc;
    nv_free(buf);
    return st;
}

nesvm_status nv_ws_tube_mul(nv_ws_cert *c, const double *v, double *out, nesvm_error *err)
{
    const nv_kernel_problem *kp = c->kp;
    const int64_t n = kp->n;
    int64_t nc = 0;
    for (int64_t i = 0; i < n; i++) {
        if (v[i] == 0) continue;
        c->cval[nc] = v[i];
        c->cols[nc++] = kp->pos ? kp->pos[i] : i;
    }
    if (kp->K) return nv_kmat_mul_exact(kp->K, kp->pos, n, c->cols, nc, c->cval, 1, out, err);
    return tube_mul_fly(c, nc, out, err);
}

/* The tube's dual value at the point d (|d_k| <= c_k, in place) made
 * feasible and at its best multiple:
 *     D(t d) = t (sum d_k y_k - p sum |d_k|) - t^2/2 d'K d  <=  min P,
 * t in [0, min c_k / |d_k|], with a free bias sum d = 0 first.  Kd: K d
 * when the caller knows it (d is the solution beta and f its margins), else
 * NULL.  Balanced by moving the rounding's sum onto the one entry with the
 * most room (K d then differs from Kd by one column), or, where no entry
 * has the room (or Kd is not known), by scaling the larger sign's side
 * down and one product of all of d's columns. */
static nesvm_status tube_dual(nv_ws_cert *c, int bias, double p, double *d, const double *Kd, double *D,
                              nesvm_error *err)
{
    const nv_kernel_problem *kp = c->kp;
    const int64_t n = kp->n;
    double *g = c->g;
    double delta = 0, side[2] = {0, 0};
    for (int64_t k = 0; k < n; k++) {
        delta += d[k];
        side[d[k] > 0] += fabs(d[k]);
    }
    int64_t j = -1;
    double room = 0;
    if (bias && delta != 0 && Kd)
        for (int64_t k = 0; k < n; k++) {
            const double r = kp->cost[k] - fabs(d[k]);
            if (r > room && fabs(d[k] - delta) <= kp->cost[k]) {
                room = r;
                j = k;
            }
        }
    nesvm_status st = NESVM_OK;
    if (!bias || delta == 0 || j >= 0) {
        if (Kd) memcpy(g, Kd, (size_t)n * sizeof(double));
        else st = nv_ws_tube_mul(c, d, g, err);
        if (st == NESVM_OK && j >= 0) { /* d_j -= delta: g -= delta K[:, j] */
            double *col = c->ay;
            memset(col, 0, (size_t)n * sizeof(double));
            col[j] = -delta;
            st = nv_ws_tube_mul(c, col, col, err);
            for (int64_t k = 0; st == NESVM_OK && k < n; k++) g[k] += col[k];
            d[j] -= delta;
        }
    } else {
        const int big = side[1] > side[0];
        const double s = side[!big] / side[big];
        for (int64_t k = 0; k < n; k++)
            if ((d[k] > 0) == big) d[k] *= s;
        st = nv_ws_tube_mul(c, d, g, err);
    }
    if (st != NESVM_OK) return st;
    double lin = 0, quad = 0, tmax = INFINITY;
    for (int64_t k = 0; k < n; k++) {
        NV_ASSERT(fabs(d[k]) <= kp->cost[k]); /* in the box (clipped, then moved within it or scaled down) */
        lin += d[k] * kp->y[k] - p * fabs(d[k]);
        quad += d[k] * g[k];
        if (d[k] != 0 && kp->cost[k] / fabs(d[k]) < tmax) tmax = kp->cost[k] / fabs(d[k]);
    }
    double t = quad > 0 ? lin / quad : 1.0;
    t = t > tmax ? tmax : (t > 0 ? t : 0.0);
    *D = t * lin - 0.5 * t * t * quad;
    return NESVM_OK;
}

nesvm_status nv_ws_certify_tube(nv_ws_cert *c, int bias, double p, const double *beta, double b,
                                const double *sub_d, const double *f, nv_binary_result *res, nesvm_error *err)
{
    const nv_kernel_problem *kp = c->kp;
    const int64_t n = kp->n;
    double quad = 0, loss = 0, best = -INFINITY;
    for (int64_t k = 0; k < n; k++) {
        const double r = fabs(kp->y[k] - (f[k] + b)) - p;
        if (r > 0) loss += kp->cost[k] * r;
        quad += beta[k] * f[k];
    }
    const double P = 0.5 * quad + loss;
    /* the sub-problem's dual point (extended by zeros), and beta itself, each
     * clipped to the box; the same point once (the SMO's dual point is beta) */
    nesvm_status st = NESVM_OK;
    int same = 1;
    for (int64_t k = 0; k < n && same; k++) same = sub_d[k] == beta[k];
    for (int w = same; w < 2 && st == NESVM_OK; w++) {
        const double *src = w == 0 ? sub_d : beta;
        int differs = 0;
        for (int64_t k = 0; k < n; k++) {
            const double ck = kp->cost[k], v = src[k];
            c->d[k] = v < -ck ? -ck : (v > ck ? ck : v);
            differs |= c->d[k] != beta[k];
        }
        double D = -INFINITY;
        st = tube_dual(c, bias, p, c->d, differs ? NULL : f, &D, err);
        if (st == NESVM_OK && D > best) best = D;
    }
    if (st != NESVM_OK) return st;
    res->primal = P;
    res->lower_bound = best;
    return nv_certify(P, best, &res->gap, err);
}
