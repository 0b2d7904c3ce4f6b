/* objective.c - the smoothed objectives of C-SVM, LP-SVM and LS-SVM: values, gradients, dual bounds, line search, Lipschitz constants. */
#include "objective.h"

#include <math.h>
#include <string.h>

void nv_obj_free(nv_obj *o)
{
    nv_free(o->s);
    nv_free(o->m);
    nv_free(o->a);
    nv_free(o->vp); /* vn lies in vp's buffer */
    nv_free(o->a2);
    nv_free(o->v2);
    nv_free(o->colsum);
    nv_linalg_ws_free(&o->lw);
    memset(o, 0, sizeof *o);
}

/* What both inits set: the loss's instance and the targets' kind. */
static void obj_setup(nv_obj *o, const nv_binary_problem *pb, const nv_loss *loss, int l1, int bias)
{
    memset(o, 0, sizeof *o);
    o->pb = pb;
    o->inst = *loss;
    o->loss = &o->inst;
    o->l1 = l1;
    o->real = pb->target == NV_TARGET_REAL;
    o->tube = o->real && !nv_obj_shift(o);
    o->bias = bias;
    /* real targets are balanced by a shift (a conjugate on the whole line)
     * or, with a tube's symmetric domain, by rescaling one sign of alpha */
    NV_ASSERT(!o->real || (loss->target == NV_TARGET_REAL && (nv_obj_shift(o) || loss->lo == -loss->hi)));
}

nesvm_status nv_obj_init(nv_obj *o, const nv_binary_problem *pb, const nv_loss *loss, int l1,
                         int bias, int threads, nesvm_error *err)
{
    obj_setup(o, pb, loss, l1, bias);
    int64_t n = pb->n;
    int32_t d = pb->X->d;
    size_t nn = (size_t)(n ? n : 1), dd = (size_t)(d ? d : 1);
    nesvm_status st = nv_linalg_ws_init(&o->lw, threads, d, err);
    o->s = nv_malloc_array(nn, sizeof(double));
    o->m = nv_malloc_array(nn, sizeof(double));
    o->a = nv_malloc_array(nn, sizeof(double));
    o->vp = nv_malloc_array(2 * dd + NV_OBJ_NSUMS, sizeof(double));
    o->vn = o->vp ? o->vp + dd : NULL;
    int need_colsum = nv_obj_shift(o) && bias;
    if (need_colsum) o->colsum = nv_malloc_array(dd, sizeof(double));
    if (st == NESVM_OK && (!o->s || !o->m || !o->a || !o->vp || (need_colsum && !o->colsum)))
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the objective (n=%lld, d=%d)",
                      (long long)n, d);
    /* ranks meet before their first collective: one rank's failure stops all */
    if (nv_comm_many(pb->comm)) st = nv_comm_agree(pb->comm, st, err);
    if (st != NESVM_OK) {
        nv_obj_free(o);
        return st;
    }
    nv_row_norms(pb->X, pb->rows, n, o->s, o->m);
    double mx = 0;
    for (int64_t i = 0; i < n; i++) {
        NV_ASSERT(pb->cost[i] > 0); /* solver.h: C_i > 0 (the driver refuses costs below 1e-100) */
        double s = o->s[i];
        if (bias && s < 1) s = 1;
        if (s == 0) s = 1; /* an all-zero row without bias: constant loss */
        o->s[i] = s;
        double q = pb->cost[i] * (o->m[i] + (bias ? 1.0 : 0.0)) / (loss->smoothed ? s : 1.0);
        if (q > mx) mx = q;
    }
    o->n_all = n;
    if (nv_comm_many(pb->comm)) {
        double nm[2] = {(double)n, mx};
        st = nv_comm_sum(pb->comm, nm, 1, err);
        if (st == NESVM_OK) st = nv_comm_max(pb->comm, nm + 1, 1, err);
        if (st != NESVM_OK) {
            nv_obj_free(o);
            return st;
        }
        o->n_all = (int64_t)nm[0];
        mx = nm[1];
    }
    o->paper_lam = (double)o->n_all * mx;
    if (!isfinite(o->paper_lam)) {
        nv_obj_free(o);
        return nv_error(err, NESVM_ERR_NUMERIC,
                        "NESVM: a squared row norm overflows (feature values too large: scale the data)");
    }
    if (need_colsum) {
        for (int64_t i = 0; i < n; i++) o->a[i] = 1.0;
        nv_xta(pb->X, pb->rows, n, o->a, NULL, o->colsum, NULL, &o->lw);
        nv_obj_sum(o, o->colsum, d);
        if (o->cst != NESVM_OK) {
            st = nv_obj_comm_status(o, err);
            nv_obj_free(o);
            return st;
        }
    }
    return NESVM_OK;
}

void nv_obj_sum(nv_obj *o, double *x, int64_t n)
{
    if (!nv_comm_many(o->pb->comm) || o->cst != NESVM_OK) return;
    o->cst = nv_comm_sum(o->pb->comm, x, n, &o->cerr);
}

static void obj_max(nv_obj *o, double *x, int64_t n)
{
    if (!nv_comm_many(o->pb->comm) || o->cst != NESVM_OK) return;
    o->cst = nv_comm_max(o->pb->comm, x, n, &o->cerr);
}

nesvm_status nv_obj_comm_status(const nv_obj *o, nesvm_error *err)
{
    if (o->cst == NESVM_OK) return NESVM_OK;
    return nv_error(err, o->cst, "%s", o->cerr.message);
}

nesvm_status nv_obj_init_plain(nv_obj *o, const nv_binary_problem *pb, const nv_loss *loss, int l1,
                               int bias, nesvm_error *err)
{
    obj_setup(o, pb, loss, l1, bias);
    size_t nn = (size_t)(pb->n ? pb->n : 1);
    o->s = nv_malloc_array(nn, sizeof(double));
    o->m = nv_malloc_array(nn, sizeof(double));
    o->a = nv_malloc_array(nn, sizeof(double));
    if (!o->s || !o->m || !o->a) {
        nv_obj_free(o);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the objective (n=%lld)",
                        (long long)pb->n);
    }
    for (int64_t i = 0; i < pb->n; i++) o->s[i] = 1.0;
    o->n_all = pb->n;
    return NESVM_OK;
}

void nv_obj_margins(nv_obj *o, const double *w, double b)
{
    const nv_binary_problem *pb = o->pb;
    const double b0 = o->bias ? b : 0.0;
    int32_t j = 0;
    while (j < pb->X->d && w[j] == 0.0) j++;
    if (j == pb->X->d) { /* w = 0 (a cold start): every margin is b, as nv_xw gives it, with no pass */
        for (int64_t i = 0; i < pb->n; i++) o->m[i] = b0;
        return;
    }
    nv_xw(pb->X, pb->rows, pb->n, w, b0, o->m, &o->lw);
}

void nv_obj_evaluate(nv_obj *o, const double *w, double b, double mu, double nu, nv_obj_eval *e)
{
    nv_obj_margins(o, w, b);
    nv_obj_evaluate_at(o, w, mu, nu, e);
}

void nv_obj_huber(const double *w, int64_t d, double nu, double *R, double *Rs, int64_t *nnz)
{
    double r = 0, rs = 0;
    int64_t k = 0;
    for (int64_t j = 0; j < d; j++) {
        double a = fabs(w[j]);
        r += a;
        if (a >= nu) {
            rs += a - 0.5 * nu;
            k++;
        } else {
            rs += 0.5 * a * a / nu;
        }
    }
    *R = r;
    *Rs = rs;
    *nnz = k;
}

double nv_obj_best_bias(nv_obj *o, double *tmp, double mu, double nu, double b)
{
    const int64_t n = o->pb->n;
    for (int64_t i = 0; i < n; i++) tmp[i] = 1.0;
    double tb = nv_obj_line_search_q(o, tmp, mu, nu, NULL, NULL, 0, 0.0, 0.0);
    if (tb > 0) {
        for (int64_t i = 0; i < n; i++) o->m[i] += tb;
        b += tb;
    }
    return b;
}

/* The regularizer: R(w), its smoothed value, and the non-zero count. */
static void regularizer(const nv_obj *o, const double *w, double nu, double *R, double *Rs,
                        int64_t *nnz)
{
    const int32_t d = o->pb->X->d;
    int64_t k = 0;
    if (nv_obj_l1(o)) {
        nv_obj_huber(w, d, nu, R, Rs, nnz);
        return;
    } else {
        double ww = 0;
        for (int32_t j = 0; j < d; j++) {
            ww += w[j] * w[j];
            k += w[j] != 0;
        }
        *R = *Rs = 0.5 * ww;
    }
    *nnz = k;
}

/* The free bias's second dual point (shifted_bound), for a curved loss that
 * is not smoothed (the logistic) on one process: the shift db minimizing
 * sum_i c_i l(r_i) at the margins m + db, by Newton's method on that one
 * variable (a pass of l and l'' per step, the step halved while the sum
 * grows).  At that shift the dual weights alpha_i = c_i l'(r_i) balance by
 * themselves (sum s_i alpha_i = 0 is the sum's derivative), where
 * nv_obj_balance would rescale one class's weights, which near the optimum
 * costs the bound more than the bias is off.  Any db gives a dual point (the
 * dual does not depend on b); 0 when nothing was gained. */
#define NV_OBJ_BIAS_NEWTON 12 /* its passes at most */
static double dual_bias_shift(nv_obj *o)
{
    const nv_binary_problem *pb = o->pb;
    const nv_loss *l = o->loss;
    double db = 0, best = 0, f = INFINITY, step = 0;
    for (int it = 0; it < NV_OBJ_BIAS_NEWTON; it++) {
        double v[4] = {0, 0, 0, 0}; /* sum c l, its derivative in db, its second, sum |alpha| */
        for (int64_t i = 0; i < pb->n; i++) {
            const double r = nv_obj_resid(o, i, o->m[i] + db), c = pb->cost[i];
            nv_loss_at at;
            l->at(l, r, c, 0.0, &at);
            v[0] += at.val;
            v[1] -= nv_obj_sign(o, i) * c * at.u;
            v[2] += l->curv(l, r, c, 0.0);
            v[3] += fabs(c * at.u);
        }
        if (!(v[0] <= f)) { /* not lower (or not a number): back half the step */
            if (it == 0) return 0.0;
            step *= 0.5;
            db = best + step;
            continue;
        }
        f = v[0];
        best = db;
        if (!(v[2] > 0) || fabs(v[1]) <= 1e-13 * v[3]) break;
        step = -v[1] / v[2];
        db = best + step;
    }
    return best;
}

/* The pass's sums over this rank's rows: the loss at each residual, the dual
 * weights alpha_i = c_i l_t'(r_i) with t = mu s_i, and their sums by class;
 * the dual weights at the margins shifted by db (dual_bias_shift; 0: at the
 * margins themselves), the loss at the margins either way. */
static void pass_local(nv_obj *o, double mu, double db, nv_obj_sums *q)
{
    const nv_binary_problem *pb = o->pb;
    const nv_loss *l = o->loss;
    const int64_t n = pb->n;
    memset(q, 0, sizeof *q);
    for (int64_t i = 0; i < n; i++) {
        double c = pb->cost[i], s = o->s[i];
        nv_loss_at at;
        const double sg = nv_obj_sign(o, i);
        l->at(l, nv_obj_resid(o, i, o->m[i]), c, mu * s, &at);
        if (db != 0) {
            const double val = at.val, sval = at.sval;
            l->at(l, nv_obj_resid(o, i, o->m[i] + db), c, mu * s, &at);
            at.val = val;
            at.sval = sval;
        }
        /* loss.h: u in the conjugate's domain, 0 in zone 0, at a bound of the
         * domain in zone 2 (NaN margins of a diverging run are the tracker's error) */
        NV_ASSERT(!(at.u < l->lo || at.u > l->hi) && (at.zone != 0 || at.u == 0) &&
                  (at.zone != 2 || at.u == l->lo || at.u == l->hi));
        q->loss += at.val;
        q->lmu += at.sval;
        q->nsv += at.zone != 0;
        q->nbound += at.zone == 2;
        if (fabs(at.u) > q->umax) q->umax = fabs(at.u); /* a tube's domain is symmetric */
        double alpha = c * at.u;
        o->a[i] = alpha;
        /* the smoothing's prox term c s u^2 (a smoothed loss) */
        double pq = l->smoothed ? c * s * at.u * at.u : 0.0;
        const double tg = o->real ? pb->y[i] : 1.0;
        if (nv_obj_group(o, i) > 0) {
            q->sp += alpha;
            q->qp += pq;
            if (o->real) q->at += alpha * tg;
        } else {
            q->sn += o->tube ? -alpha : alpha; /* a tube: |alpha| */
            q->qn += pq;
            if (o->real) *(o->tube ? &q->atn : &q->at) += alpha * tg;
        }
        q->sy += sg * tg;
    }
}

/* The sums into / out of NV_OBJ_NSUMS doubles (counts are exact below 2^53). */
static void sums_pack(const nv_obj_sums *q, double *v)
{
    double t[NV_OBJ_NSUMS] = {q->loss, q->lmu, q->sp, q->sn, q->qp, q->qn, q->sy,
                              (double)q->nsv, (double)q->nbound, q->at, q->atn};
    memcpy(v, t, sizeof t);
}

static void sums_unpack(const double *v, nv_obj_sums *q)
{
    q->loss = v[0];
    q->lmu = v[1];
    q->sp = v[2];
    q->sn = v[3];
    q->qp = v[4];
    q->qn = v[5];
    q->sy = v[6];
    q->nsv = (int64_t)v[7];
    q->nbound = (int64_t)v[8];
    q->at = v[9];
    q->atn = v[10];
}

void nv_obj_pass(nv_obj *o, double mu, nv_obj_sums *q)
{
    pass_local(o, mu, 0.0, q);
    if (!nv_comm_many(o->pb->comm)) return;
    double v[NV_OBJ_NSUMS];
    sums_pack(q, v);
    nv_obj_sum(o, v, NV_OBJ_NSUMS);
    sums_unpack(v, q);
    obj_max(o, &q->umax, 1);
}

void nv_obj_balance(const nv_obj *o, const nv_obj_sums *q, double *rp, double *rn, double *t)
{
    *rp = *rn = 1;
    *t = 0;
    if (!o->bias) return;
    if (nv_obj_shift(o)) {
        /* alpha' = alpha - t y with t = sum alpha_i y_i / n: sum alpha'_i y_i = 0 */
        *t = o->n_all > 0 ? (q->sp - q->sn) / (double)o->n_all : 0.0;
    } else if (q->sp > q->sn) {
        *rp = q->sn / q->sp; /* rescale one class so that sum alpha_i y_i = 0 */
    } else if (q->sn > q->sp) {
        *rn = q->sp / q->sn;
    }
    /* a bounded domain's dual weights are not negative (lo >= 0): rescaling
     * shrinks one side, never flips or grows it */
    NV_ASSERT(*rp >= 0 && *rp <= 1 && *rn >= 0 && *rn <= 1);
}

/* sum_i c_i l*(theta a'_i / c_i) of the balanced dual point a' (rp, rn,
 * t: nv_obj_balance) and its first two derivatives in theta, over every
 * rank; a loss with its own conjugate (l->conj). */
static double conj_sum(nv_obj *o, double rp, double rn, double t, double theta, double *d1, double *d2)
{
    const nv_binary_problem *pb = o->pb;
    const nv_loss *l = o->loss;
    double v[3] = {0, 0, 0};
    for (int64_t i = 0; i < pb->n; i++) {
        const double c = pb->cost[i];
        const double a = (o->a[i] - t * nv_obj_sign(o, i)) * (nv_obj_group(o, i) > 0 ? rp : rn);
        if (a == 0) {
            double f, g, h;
            l->conj(0.0, &f, &g, &h);
            v[0] += c * f;
            continue;
        }
        double f, g, h;
        l->conj(theta * a / c, &f, &g, &h);
        v[0] += c * f;
        v[1] += a * g;
        v[2] += a * a / c * h;
    }
    nv_obj_sum(o, v, 3);
    *d1 = v[1];
    *d2 = v[2];
    return v[0];
}

/* The best multiple theta in (0, tmax] of the balanced dual point for a
 * loss with its own conjugate: D(theta) = theta S - C(theta) - theta^2/2 K
 * is concave; Newton steps from theta = min(1, tmax), each kept inside
 * [theta / 4, tmax], until a step moves theta by less than 1e-12 of it (the
 * solvers' points are near theta = 1, where one or two steps do; a point far
 * from the optimum may take more: at most 30), the best D seen kept.  Each
 * step is a pass over the rows (and a reduction over the ranks). */
static double conj_dual(nv_obj *o, double rp, double rn, double t, double S, double K, double tmax,
                        double *theta)
{
    double th = tmax < 1 ? tmax : 1.0, best = -INFINITY, bth = th;
    for (int k = 0; k < 30; k++) {
        double d1, d2;
        const double C = conj_sum(o, rp, rn, t, th, &d1, &d2);
        const double D = th * S - C - 0.5 * th * th * K;
        if (D > best) {
            best = D;
            bth = th;
        }
        const double g = S - d1 - th * K, h = -d2 - K;
        if (!(h < 0) || !isfinite(g)) break;
        double nt = th - g / h;
        if (nt > tmax) nt = tmax;
        if (nt < 0.25 * th) nt = 0.25 * th;
        if (fabs(nt - th) <= 1e-12 * th) break;
        th = nt;
    }
    *theta = bth;
    return best;
}

void nv_obj_finish(nv_obj *o, const nv_obj_sums *q, double rp, double rn, double t,
                   double vv, double vinf, double R, double Rs, int64_t nnz_w, double mu, double nu,
                   nv_obj_eval *e)
{
    const nv_binary_problem *pb = o->pb;
    const nv_loss *l = o->loss;
    e->nnz_w = nnz_w;
    e->sp = q->sp;
    e->sn = q->sn;
    e->gb = o->bias ? -(q->sp - q->sn) : 0.0;
    e->nsv = q->nsv;
    e->nbound = q->nbound;
    /* The dual point theta a', a' the balanced alpha: D(theta) = theta S -
     * theta^2/2 K (loss.h, nv_loss_dual_scale), S = sum a' - conj_e sum |a'|,
     * K = sum conj_q a'^2 / c + ||X^T(a' y)||^2 (L2) or 0 with theta <=
     * 1/||X^T(a' y)||_inf (L1); the smoothed dual adds mu sum c s u^2 (and nu
     * ||.||^2 for the L1 norm's Huber smoothing) to K. */
    double S = (o->tube ? rp * q->at + rn * q->atn : o->real ? q->at : rp * q->sp + rn * q->sn) - t * q->sy, Qc = 0;
    if (l->conj_q != 0 || l->conj_e != 0) {
        double E = 0;
        for (int64_t i = 0; i < pb->n; i++) {
            const double sg = nv_obj_sign(o, i);
            double a = (o->a[i] - t * sg) * (nv_obj_group(o, i) > 0 ? rp : rn);
            Qc += l->conj_q * a * a / pb->cost[i];
            E += fabs(a);
        }
        double qe[2] = {Qc, E};
        nv_obj_sum(o, qe, 2);
        Qc = qe[0];
        if (l->conj_e != 0) S -= l->conj_e * qe[1];
    }
    /* the domain's bound: theta u_i <= hi for every sample */
    double umax = (rp > rn ? rp : rn) * q->umax;
    double tmax = !isfinite(l->hi) ? INFINITY : umax > 0 ? l->hi / umax : 1.0;
    double qq = rp * rp * q->qp + rn * rn * q->qn;
    double K, Kmu;
    if (nv_obj_l1(o)) {
        if (vinf > 0 && 1.0 / vinf < tmax) tmax = 1.0 / vinf;
        K = Qc;
        Kmu = nu * vv + mu * qq + Qc;
    } else {
        K = Qc + vv;
        Kmu = K + mu * qq;
    }
    double thm;
    /* theta >= 0 keeps a domain bounded below (the hinge's, the squared
     * hinge's); the whole line (the squared loss, balanced by a shift) takes
     * any theta */
    const double tmin = isfinite(l->lo) ? 0.0 : -INFINITY;
    if (l->conj) {
        /* a conjugate of its own (the logistic loss's entropy): D(theta) =
         * theta S - sum c l*(theta a'/c) - theta^2/2 K, concave, by
         * safeguarded Newton steps from theta = 1 (the gap's own point:
         * at the optimum theta = 1) */
        e->D = conj_dual(o, rp, rn, t, S, K, tmax, &e->theta);
        e->Dmu = e->D;
        e->P = R + q->loss;
        e->Fmu = Rs + q->lmu;
        return;
    }
    e->D = nv_loss_dual_scale(S, K, tmin, tmax, &e->theta);
    e->Dmu = l->smoothed ? nv_loss_dual_scale(S, Kmu, tmin, tmax, &thm) : e->D;
    e->P = R + q->loss;
    e->Fmu = Rs + q->lmu;
}

/* X^T(alpha s) by sign into vp/vn, alpha from o->a. */
static void xta_alpha(nv_obj *o)
{
    const nv_binary_problem *pb = o->pb;
    const int32_t d = pb->X->d;
    if (o->tube) { /* every s_i = 1, by alpha's sign: vn = X^T |alpha| over alpha < 0 */
        nv_xta(pb->X, pb->rows, pb->n, o->a, o->a, o->vp, o->vn, &o->lw);
        for (int32_t j = 0; j < d; j++) o->vn[j] = -o->vn[j];
    } else if (o->real) { /* every s_i = 1: X^T alpha in vp */
        nv_xta(pb->X, pb->rows, pb->n, o->a, NULL, o->vp, NULL, &o->lw);
        memset(o->vn, 0, (size_t)(d ? d : 1) * sizeof(double));
    } else {
        nv_xta(pb->X, pb->rows, pb->n, o->a, pb->y, o->vp, o->vn, &o->lw);
    }
}

/* The end of an evaluation whose sums over this rank's rows are in q and
 * whose dual point is in o->a, X^T(alpha s) in vp/vn: the sums over the
 * ranks, the balanced dual point's value and the regularizer at w. */
static void evaluate_tail(nv_obj *o, const double *w, double mu, double nu, nv_obj_sums q, nv_obj_eval *e)
{
    const nv_binary_problem *pb = o->pb;
    const int32_t d = pb->X->d;
    if (nv_comm_many(pb->comm)) {
        /* one reduction: X^T(alpha y) by sign and the pass's sums (vn = vp + d) */
        double *sums = o->vn + (d ? d : 1);
        sums_pack(&q, sums);
        if (!d) o->vp[0] = o->vn[0] = 0;
        nv_obj_sum(o, o->vp, 2 * (int64_t)(d ? d : 1) + NV_OBJ_NSUMS);
        sums_unpack(sums, &q);
        obj_max(o, &q.umax, 1);
    }
    double rp, rn, t;
    nv_obj_balance(o, &q, &rp, &rn, &t);
    double vv = 0, vinf = 0;
    for (int32_t j = 0; j < d; j++) {
        double v = rp * o->vp[j] - rn * o->vn[j] - (o->colsum ? t * o->colsum[j] : 0.0);
        vv += v * v;
        if (fabs(v) > vinf) vinf = fabs(v);
    }
    double R, Rs;
    int64_t nnz;
    regularizer(o, w, nu, &R, &Rs, &nnz);
    nv_obj_finish(o, &q, rp, rn, t, vv, vinf, R, Rs, nnz, mu, nu, e);
}

/* A free bias's second lower bound, near the end (a relative gap <= 0.1):
 * the dual at the alphas of the margins shifted by dual_bias_shift, in
 * o->a2 and o->v2 (X^T(alpha' y) by sign: one more pass over X), e->D the
 * larger of the two.  The solver's quantities (o->a, vp, vn, e->gb: the
 * gradient) stay the unshifted point's.  One process (the shift's sums and
 * the pass would need their own reductions); a missing buffer skips it. */
#define NV_OBJ_SHIFT_GAP 0.1
static void shifted_bound(nv_obj *o, const double *w, double mu, double nu, nv_obj_eval *e)
{
    const nv_binary_problem *pb = o->pb;
    const int32_t d = pb->X->d;
    if (!o->bias || o->l1 || nv_obj_shift(o) || !o->loss->curved || o->loss->smoothed ||
        nv_comm_many(pb->comm) || !(e->P - e->D <= NV_OBJ_SHIFT_GAP * fabs(e->P)))
        return;
    if (!o->a2) o->a2 = nv_malloc_array((size_t)(pb->n ? pb->n : 1), sizeof(double));
    if (!o->v2) o->v2 = nv_malloc_array(2 * (size_t)(d ? d : 1), sizeof(double));
    if (!o->a2 || !o->v2) return;
    const double db = dual_bias_shift(o);
    if (db == 0) return;
    double *a = o->a, *vp = o->vp, *vn = o->vn;
    o->a = o->a2;
    o->vp = o->v2;
    o->vn = o->v2 + (d ? d : 1);
    nv_obj_sums q;
    nv_obj_eval e2;
    pass_local(o, mu, db, &q);
    xta_alpha(o);
    evaluate_tail(o, w, mu, nu, q, &e2);
    o->a = a;
    o->vp = vp;
    o->vn = vn;
    if (e2.D > e->D) {
        e->D = e2.D;
        e->Dmu = e2.Dmu > e->Dmu ? e2.Dmu : e->Dmu;
    }
}

void nv_obj_evaluate_at(nv_obj *o, const double *w, double mu, double nu, nv_obj_eval *e)
{
    nv_obj_sums q;
    pass_local(o, mu, 0.0, &q);
    xta_alpha(o);
    evaluate_tail(o, w, mu, nu, q, e);
    shifted_bound(o, w, mu, nu, e);
}

/* The dual methods' pass over the margins in o->m and the dual point in
 * o->a: the loss at each residual and alpha's sums (evaluate_tail's q). */
static void dual_pass(const nv_obj *o, nv_obj_sums *q)
{
    const nv_binary_problem *pb = o->pb;
    const nv_loss *l = o->loss;
    memset(q, 0, sizeof *q);
    for (int64_t i = 0; i < pb->n; i++) {
        const double c = pb->cost[i], sg = nv_obj_sign(o, i), alpha = o->a[i];
        q->loss += nv_loss_value(l, nv_obj_resid(o, i, o->m[i]), c);
        q->nsv += alpha != 0;
        q->nbound += alpha != 0 && (alpha == c * l->lo || alpha == c * l->hi);
        if (fabs(alpha) / c > q->umax) q->umax = fabs(alpha) / c;
        const double tg = o->real ? pb->y[i] : 1.0;
        if (nv_obj_group(o, i) > 0) {
            q->sp += alpha;
            if (o->real) q->at += alpha * tg;
        } else {
            q->sn += o->tube ? -alpha : alpha;
            if (o->real) *(o->tube ? &q->atn : &q->at) += alpha * tg;
        }
        q->sy += sg * tg;
    }
    q->lmu = q->loss;
}

void nv_obj_evaluate_dual(nv_obj *o, double *w, double b, nv_obj_eval *e)
{
    const nv_binary_problem *pb = o->pb;
    xta_alpha(o);
    for (int32_t j = 0; j < pb->X->d; j++) w[j] = o->vp[j] - o->vn[j];
    nv_obj_margins(o, w, b);
    nv_obj_sums q;
    dual_pass(o, &q);
    evaluate_tail(o, w, 0.0, 0.0, q, e);
}

void nv_obj_evaluate_primal(nv_obj *o, const double *w, double b, nv_obj_eval *e)
{
    NV_ASSERT(!nv_obj_l1(o) && !nv_comm_many(o->pb->comm));
    nv_obj_margins(o, w, b);
    nv_obj_sums q;
    dual_pass(o, &q);
    double R, Rs;
    int64_t nnz;
    regularizer(o, w, 0.0, &R, &Rs, &nnz);
    memset(e, 0, sizeof *e);
    e->nnz_w = nnz;
    e->sp = q.sp;
    e->sn = q.sn;
    e->gb = o->bias ? -(q.sp - q.sn) : 0.0;
    e->nsv = q.nsv;
    e->nbound = q.nbound;
    e->P = e->Fmu = R + q.loss;
    e->D = e->Dmu = -INFINITY;
}

void nv_obj_grad(const nv_obj *o, const double *w, double nu, double *g)
{
    const int32_t d = o->pb->X->d;
    if (nv_obj_l1(o)) {
        for (int32_t j = 0; j < d; j++) {
            double z = w[j] / nu;
            z = z > 1 ? 1 : (z < -1 ? -1 : z);
            g[j] = z - (o->vp[j] - o->vn[j]);
        }
    } else {
        for (int32_t j = 0; j < d; j++) g[j] = w[j] - (o->vp[j] - o->vn[j]);
    }
}

double nv_obj_lipschitz_L(const nv_obj *o, double lambda, double mu, double nu)
{
    /* the regularizer's curvature (1, or Huber's 1/nu) plus the loss's:
     * lambda/mu smoothed (l_t'' <= 1/(mu s_i), folded into lambda's c_i/s_i),
     * else curv_max lambda */
    double reg = nv_obj_l1(o) ? 1.0 / nu : 1.0;
    return reg + (o->loss->smoothed ? lambda / mu : o->loss->curv_max * lambda);
}

double nv_obj_lipschitz(nv_obj *o, int kind, uint64_t seed, double *v)
{
    if (kind == NV_LIP_PAPER) return o->paper_lam;
    const nv_binary_problem *pb = o->pb;
    int64_t n = pb->n;
    int32_t d = pb->X->d;
    double vb = o->bias ? 1.0 : 0.0;
    uint64_t st = seed ^ UINT64_C(0x5EED);
    for (int32_t j = 0; j < d; j++) v[j] = 0.5 + nv_rng_uniform(&st);
    double lam = 0;
    for (int it = 0; it < 30; it++) {
        double nrm = sqrt(nv_dot(v, v, d) + vb * vb);
        if (nrm == 0) break;
        for (int32_t j = 0; j < d; j++) v[j] /= nrm;
        vb /= nrm;
        nv_xw(pb->X, pb->rows, n, v, vb, o->m, &o->lw);
        double sb = 0;
        for (int64_t i = 0; i < n; i++) {
            double wi = o->loss->smoothed ? pb->cost[i] / o->s[i] : pb->cost[i];
            o->a[i] = wi * o->m[i];
            sb += o->a[i];
        }
        nv_xta(pb->X, pb->rows, n, o->a, NULL, o->vp, NULL, &o->lw);
        o->vp[d] = sb; /* vn's space: X^T a and sum a in one reduction */
        nv_obj_sum(o, o->vp, (int64_t)d + 1);
        sb = o->vp[d];
        lam = nv_dot(v, o->vp, d) + (o->bias ? vb * sb : 0); /* Rayleigh quotient */
        memcpy(v, o->vp, (size_t)d * sizeof *v);
        vb = o->bias ? sb : 0;
    }
    double est = 1.1 * lam;
    return (est > 0 && est < o->paper_lam) ? est : o->paper_lam;
}

/* phi'(t) and phi''(t) for phi(t) = F(w + t p):
 *   phi'(t)  = R'(t) + sum_i c_i l'(r_i + t dr_i) dr_i,    dr_i = -y_i mp_i,
 *   phi''(t) = R''(t) + sum_i c_i l''(r_i + t dr_i) dr_i^2.
 * For the L2 norm R'(t) = A + t B with A = w.p, B = ||p||^2. */
static void phi_derivs(nv_obj *o, const double *mp, double mu, double nu, const double *w,
                       const double *p, int reg, double A, double B, double t, double *d1,
                       double *d2)
{
    const nv_binary_problem *pb = o->pb;
    double s1 = 0, s2 = 0;
    for (int64_t i = 0; i < pb->n; i++) {
        double dr = -nv_obj_sign(o, i) * mp[i];
        if (dr == 0) continue;
        double r = nv_obj_resid(o, i, o->m[i]) + t * dr;
        o->loss->dir(o->loss, r, dr, pb->cost[i], mu * o->s[i], &s1, &s2);
    }
    if (nv_comm_many(pb->comm)) {
        double s[2] = {s1, s2};
        nv_obj_sum(o, s, 2);
        s1 = s[0];
        s2 = s[1];
    }
    double r1 = 0, r2 = 0;
    if (reg && p && nv_obj_l1(o)) {
        const int64_t d = pb->X ? pb->X->d : pb->n; /* kernel expansions: n coefficients */
        for (int64_t j = 0; j < d; j++) {
            if (p[j] == 0) continue;
            double x = w[j] + t * p[j];
            if (x >= nu)
                r1 += p[j];
            else if (x <= -nu)
                r1 -= p[j];
            else {
                r1 += x / nu * p[j];
                r2 += p[j] * p[j] / nu;
            }
        }
    } else if (reg) {
        r1 = A + t * B;
        r2 = B;
    }
    *d1 = r1 + s1;
    *d2 = r2 + s2;
}

double nv_obj_line_search(nv_obj *o, const double *mp, double mu, double nu, const double *w,
                          const double *p)
{
    double A = 0, B = 0;
    if (p && !nv_obj_l1(o)) {
        const int32_t d = o->pb->X->d;
        A = nv_dot(w, p, d);
        B = nv_dot(p, p, d);
    }
    return nv_obj_line_search_q(o, mp, mu, nu, w, p, p != NULL, A, B);
}

double nv_obj_line_search_q(nv_obj *o, const double *mp, double mu, double nu,
                            const double *w, const double *p, int reg, double A, double B)
{
    double f1, f2;
    phi_derivs(o, mp, mu, nu, w, p, reg, A, B, 0.0, &f1, &f2);
    if (!(f1 < 0)) return 0.0;
    const double tol = 1e-12 * fabs(f1);
    double lo = 0, hi = INFINITY, t = 1.0;
    for (int it = 0; it < 100; it++) {
        phi_derivs(o, mp, mu, nu, w, p, reg, A, B, t, &f1, &f2);
        if (fabs(f1) <= tol) break;
        if (f1 < 0)
            lo = t;
        else
            hi = t;
        if (isfinite(hi) && hi - lo <= 1e-15 * hi) break;
        /* Newton on the piecewise-linear phi', kept inside the bracket */
        double tn = f2 > 0 ? t - f1 / f2 : NAN;
        if (!(tn > lo && tn < hi)) tn = isfinite(hi) ? 0.5 * (lo + hi) : 2.0 * t;
        t = tn;
    }
    return t;
}
