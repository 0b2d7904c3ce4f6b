/*
 * prob.c - probability estimates (param probability, `-b 1`).
 *
 * Training: after the model is trained, a stratified 5-fold cross-validation
 * on the same rows (the folds of nesvm_cross_validate, seeded by `seed`)
 * gives every row out-of-fold decision values of every sub-model (a fold's
 * model is matched to the full model's sub-models by their classes' labels).
 * For each sub-model, Platt's sigmoid
 *
 *     P(pos | f) = 1 / (1 + exp(A f + B))
 *
 * is fitted to the out-of-fold decision values of its rows (one-vs-one: the
 * rows of its two classes; one-vs-rest: every row) by maximum likelihood
 * with Platt's smoothed targets t+ = (N+ + 1)/(N+ + 2), t- = 1/(N- + 2):
 * Newton's method with a backtracking line search on
 *
 *     F(A, B) = sum_i w_i [t_i (A f_i + B) + log(1 + exp(-(A f_i + B)))],
 *
 * each row weighed by the weight its cost had in training, w_i = class
 * weight x sample weight (1 without weights; N+ and N- are then the weighted
 * counts), so that the probabilities follow the same weighted risk as the
 * decision values and their argmax keeps the costs' effect;
 * the formulation of Lin, Lin and Weng's note on Platt's probabilistic
 * outputs (numerically safe for any f).  The fitted A, B are stored in the
 * sub-model (`prob A B` in the model file).
 *
 * Prediction: binary, P(pos) from the sigmoid; one-vs-one, pairwise
 * coupling (Wu, Lin and Weng 2004, their second method): with r_ij the
 * sigmoid of pair (i, j) for class i (clipped to [1e-7, 1 - 1e-7]), p
 * minimizes p^T Q p = sum_i sum_{j != i} (r_ji p_i - r_ij p_j)^2 subject to
 * sum p = 1, Q_ii = sum_{j != i} r_ji^2, Q_ij = -r_ji r_ij: the (k + 1)
 * system [Q e; e^T 0] [p; -lambda] = [0; 1], solved by Gaussian elimination
 * with partial pivoting (Q is singular exactly when the r_ij are consistent,
 * r_ij = p_i / (p_i + p_j), where p^T Q p = 0); one-vs-rest (and Crammer
 * and Singer's joint model, whose k sub-models are fitted as one-vs-rest's),
 * each class's sigmoid normalized to sum 1.  The multinomial logistic
 * regression's probabilities are its own, the softmax of its k decision
 * values exp(f_c) / sum_l exp(f_l) (no fit; its sub-models' A = -1, B = 0 are
 * unused).  The predicted label is the argmax of
 * the probabilities (ties: the first class).
 */
#include "model_internal.h"

#include <math.h>
#include <string.h>

#define NV_PROB_FOLDS 5

void nv_stratified_folds(const int *cls, int64_t n, int k, int folds, uint64_t seed, int *fold,
                         int64_t *order)
{
    /* rows of each class in order, shuffled within the class (seeded), dealt
     * to folds round-robin continuing across classes */
    uint64_t rng = seed;
    int next = 0;
    int64_t pos = 0;
    for (int c = 0; c < k; c++) {
        int64_t start = pos;
        for (int64_t i = 0; i < n; i++)
            if (cls[i] == c) order[pos++] = i;
        for (int64_t i = pos - 1; i > start; i--) {
            int64_t j = start + (int64_t)(nv_rng_next(&rng) % (uint64_t)(i - start + 1));
            int64_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int64_t i = start; i < pos; i++) {
            fold[order[i]] = next;
            next = (next + 1) % folds;
        }
    }
    NV_ASSERT(pos == n); /* every row's class in [0, k): every row dealt to a fold */
}

/* log(1 + exp(-z)) without overflow */
static double log1pexp_neg(double z)
{
    return z >= 0 ? log1p(exp(-z)) : -z + log1p(exp(z));
}

double nv_platt_prob(double f, double A, double B)
{
    double z = A * f + B;
    /* 1 / (1 + exp(z)) without overflow */
    return z >= 0 ? exp(-z) / (1.0 + exp(-z)) : 1.0 / (1.0 + exp(z));
}

/* Weighted counts of the positive and negative rows. */
static void wcounts(const int *pos, const double *w, int64_t n, double *np, double *nn)
{
    *np = *nn = 0;
    for (int64_t i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        if (pos[i]) *np += wi;
        else *nn += wi;
    }
}

double nv_platt_objective(const double *f, const int *pos, const double *w, int64_t n, double A, double B)
{
    double np, nn;
    wcounts(pos, w, n, &np, &nn);
    const double hi = (np + 1.0) / (np + 2.0), lo = 1.0 / (nn + 2.0);
    double F = 0;
    for (int64_t i = 0; i < n; i++) {
        double z = A * f[i] + B, t = pos[i] ? hi : lo;
        F += (w ? w[i] : 1.0) * (t * z + log1pexp_neg(z));
    }
    return F;
}

void nv_platt_fit(const double *f, const int *pos, const double *w, int64_t n, double *A, double *B)
{
    double np, nn;
    wcounts(pos, w, n, &np, &nn);
    const double hi = (np + 1.0) / (np + 2.0), lo = 1.0 / (nn + 2.0);
    double a = 0.0, b = log((nn + 1.0) / (np + 1.0));
    double F = nv_platt_objective(f, pos, w, n, a, b);
    for (int it = 0; it < 100; it++) {
        /* gradient and Hessian (ridge 1e-12 on the diagonal) */
        double g1 = 0, g2 = 0, h11 = 1e-12, h22 = 1e-12, h21 = 0;
        for (int64_t i = 0; i < n; i++) {
            double z = a * f[i] + b, t = pos[i] ? hi : lo;
            double p = z >= 0 ? exp(-z) / (1.0 + exp(-z)) : 1.0 / (1.0 + exp(z)); /* 1/(1+e^z) */
            double wi = w ? w[i] : 1.0, q = 1.0 - p, d1 = wi * (t - p), d2 = wi * p * q;
            g1 += f[i] * d1;
            g2 += d1;
            h11 += f[i] * f[i] * d2;
            h22 += d2;
            h21 += f[i] * d2;
        }
        if (fabs(g1) < 1e-5 * (np + nn) / (double)(n ? n : 1) && fabs(g2) < 1e-5 * (np + nn) / (double)(n ? n : 1))
            break;
        double det = h11 * h22 - h21 * h21;
        double dA = -(h22 * g1 - h21 * g2) / det, dB = -(-h21 * g1 + h11 * g2) / det;
        double slope = g1 * dA + g2 * dB, step = 1.0;
        while (step >= 1e-10) {
            double na = a + step * dA, nb = b + step * dB, nF = nv_platt_objective(f, pos, w, n, na, nb);
            if (nF < F + 1e-4 * step * slope) {
                a = na;
                b = nb;
                F = nF;
                break;
            }
            step /= 2;
        }
        if (step < 1e-10) break; /* no decrease possible in floating point */
    }
    *A = a;
    *B = b;
}

int nv_prob_couple(int k, const double *r, double *p, double *M)
{
    /* M: the (k + 1) x (k + 1) system, row-major, right-hand side in p[0..k] */
    const int K = k + 1;
    for (int i = 0; i < k; i++) {
        double d = 0;
        for (int j = 0; j < k; j++) {
            if (j == i) continue;
            d += r[j * k + i] * r[j * k + i];
            M[i * K + j] = -r[j * k + i] * r[i * k + j];
        }
        M[i * K + i] = d;
        M[i * K + k] = 1.0;
        M[k * K + i] = 1.0;
        p[i] = 0.0;
    }
    M[k * K + k] = 0.0;
    p[k] = 1.0;
    for (int c = 0; c < K; c++) {
        int piv = c;
        for (int i = c + 1; i < K; i++)
            if (fabs(M[i * K + c]) > fabs(M[piv * K + c])) piv = i;
        if (!(fabs(M[piv * K + c]) > 0)) return -1;
        if (piv != c) {
            for (int j = 0; j < K; j++) {
                double t = M[c * K + j];
                M[c * K + j] = M[piv * K + j];
                M[piv * K + j] = t;
            }
            double t = p[c];
            p[c] = p[piv];
            p[piv] = t;
        }
        for (int i = c + 1; i < K; i++) {
            double f = M[i * K + c] / M[c * K + c];
            if (f == 0) continue;
            for (int j = c; j < K; j++) M[i * K + j] -= f * M[c * K + j];
            p[i] -= f * p[c];
        }
    }
    for (int i = K - 1; i >= 0; i--) {
        double s = p[i];
        for (int j = i + 1; j < K; j++) s -= M[i * K + j] * p[j];
        p[i] = s / M[i * K + i];
    }
    double s = 0;
    /* p >= 0 in exact arithmetic (Wu, Lin and Weng's Theorem); clip rounding */
    s = 0;
    for (int i = 0; i < k; i++) {
        if (p[i] < 0) p[i] = 0;
        s += p[i];
    }
    for (int i = 0; i < k; i++) p[i] /= s;
    return 0;
}

static double clip_r(double r)
{
    const double lo = 1e-7;
    return r < lo ? lo : r > 1 - lo ? 1 - lo : r;
}

nesvm_status nv_prob_rows(const nesvm_model *m, const double *dec, int64_t n, double *proba, double *labels,
                          nesvm_error *err)
{
    const int k = m->nr_class, ns = m->nsub;
    const int ovr = nv_params_argmax(m->params, k); /* one-vs-rest or a joint problem */
    const int softmax = m->params->multiclass == NV_MULTINOMIAL;
    /* a classifier with sigmoids (nesvm_model_predict_proba checks both), a
     * sub-model per pair or class */
    NV_ASSERT(m->has_prob && k >= 2 && ns == (ovr ? k : k == 2 ? 1 : (int64_t)k * (k - 1) / 2));
    double *r = NULL, *Q = NULL, *pk = NULL;
    if (k > 2 && !ovr) {
        r = nv_malloc_array((size_t)k * (size_t)k, sizeof(double));
        Q = nv_malloc_array((size_t)(k + 1) * (size_t)(k + 1), sizeof(double));
        pk = nv_malloc_array((size_t)(k + 1), sizeof(double));
        if (!r || !Q || !pk) {
            nv_free(r);
            nv_free(Q);
            nv_free(pk);
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory for probabilities (%d classes)", k);
        }
    }
    for (int64_t i = 0; i < n; i++) {
        const double *d = dec + i * ns;
        double *p = proba + i * k;
        if (softmax) {
            /* the multinomial model's own: exp(f_c) / sum_l exp(f_l) */
            double fmax = -INFINITY, sum = 0;
            for (int c = 0; c < ns; c++)
                if (d[c] > fmax) fmax = d[c];
            for (int c = 0; c < ns; c++) {
                p[m->sub[c].pos] = exp(d[c] - fmax);
                sum += p[m->sub[c].pos];
            }
            for (int c = 0; c < k; c++) p[c] /= sum;
        } else if (k == 2 && !ovr) {
            const nv_submodel *s = &m->sub[0];
            double pp = nv_platt_prob(d[0], s->prob_a, s->prob_b);
            p[s->pos] = pp;
            p[1 - s->pos] = 1 - pp;
        } else if (ovr) {
            double sum = 0;
            for (int c = 0; c < ns; c++) {
                const nv_submodel *s = &m->sub[c];
                p[s->pos] = nv_platt_prob(d[c], s->prob_a, s->prob_b);
                sum += p[s->pos];
            }
            for (int c = 0; c < k; c++) p[c] = sum > 0 ? p[c] / sum : 1.0 / k;
        } else {
            for (int c = 0; c < ns; c++) {
                const nv_submodel *s = &m->sub[c];
                double rij = clip_r(nv_platt_prob(d[c], s->prob_a, s->prob_b));
                r[s->pos * k + s->neg] = rij;
                r[s->neg * k + s->pos] = 1 - rij;
            }
            if (nv_prob_couple(k, r, pk, Q) != 0)
                for (int c = 0; c < k; c++) pk[c] = 1.0 / k; /* a singular system: not reached */
            memcpy(p, pk, (size_t)k * sizeof(double));
        }
        if (labels) {
            int best = 0;
            for (int c = 1; c < k; c++)
                if (p[c] > p[best]) best = c;
            labels[i] = m->labels[best];
        }
    }
    nv_free(r);
    nv_free(Q);
    nv_free(pk);
    return NESVM_OK;
}

/* The fold model's sub-model for the full model's sub-model s, and the sign
 * that turns its decision values into s's orientation; -1 if it has none
 * (a class absent from the fold's training rows). */
static int match_sub(const nesvm_model *full, int s, const nesvm_model *fm, double *sign)
{
    const nv_submodel *a = &full->sub[s];
    double lp = full->labels[a->pos], ln = a->neg >= 0 ? full->labels[a->neg] : 0;
    for (int t = 0; t < fm->nsub; t++) {
        const nv_submodel *b = &fm->sub[t];
        double bp = fm->labels[b->pos], bn = b->neg >= 0 ? fm->labels[b->neg] : 0;
        if (a->neg < 0 || full->nr_class == 2) {
            /* one-vs-rest (or binary): the fold's sub-model with the same positive class,
             * or a binary fold model with the classes the other way round */
            if (fm->nr_class == 2 && full->nr_class == 2) {
                if (bp == lp) { *sign = 1; return t; }
                if (b->neg >= 0 && bn == lp) { *sign = -1; return t; }
            } else if (b->neg < 0 && bp == lp) {
                *sign = 1;
                return t;
            }
        } else if (b->neg >= 0) {
            if (bp == lp && bn == ln) { *sign = 1; return t; }
            if (bp == ln && bn == lp) { *sign = -1; return t; }
        }
    }
    return -1;
}

/* The folds over every rank's rows, drawn as one process draws them on the
 * concatenated rows: this rank's n rows get fold[0..n); *n_all the rows. */
static nesvm_status folds_dist(const nv_comm *comm, const int *cls, int64_t n, int k, uint64_t seed, int *fold,
                               int64_t *n_all, int *nf, nesvm_error *err)
{
    double *mine = nv_malloc_array((size_t)(n ? n : 1), sizeof(double)), *all = NULL;
    int64_t total = 0, off = n;
    nesvm_status st = mine ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory for probability estimates");
    for (int64_t a = 0; mine && a < n; a++) mine[a] = (double)cls[a];
    st = nv_comm_agree(comm, st, err);
    if (st == NESVM_OK) st = nv_comm_gather(comm, mine, n, &all, &total, NULL, err);
    if (st == NESVM_OK) st = nv_comm_exscan_i64(comm, &off, err);
    int *ca = NULL, *fa = NULL;
    int64_t *order = NULL;
    if (st == NESVM_OK) {
        ca = nv_malloc_array((size_t)(total ? total : 1), sizeof(int));
        fa = nv_malloc_array((size_t)(total ? total : 1), sizeof(int));
        order = nv_malloc_array((size_t)(total ? total : 1), sizeof(int64_t));
        if (!ca || !fa || !order) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for probability estimates");
    }
    st = nv_comm_agree(comm, st, err);
    if (st == NESVM_OK) {
        for (int64_t a = 0; a < total; a++) ca[a] = (int)all[a];
        *nf = NV_PROB_FOLDS < total ? NV_PROB_FOLDS : (int)total;
        nv_stratified_folds(ca, total, k, *nf, seed, fa, order);
        memcpy(fold, fa + off, (size_t)n * sizeof(int));
        *n_all = total;
    }
    nv_free(mine);
    nv_free(all);
    nv_free(ca);
    nv_free(fa);
    nv_free(order);
    return st;
}

nesvm_status nv_prob_train(nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                           const nesvm_params *params, const nv_comm *comm, nesvm_progress_fn progress, void *user,
                           nesvm_error *err)
{
    const int k = m->nr_class, ns = m->nsub;
    if (!nv_comm_many(comm)) comm = NULL;
    nesvm_status st = NESVM_OK;
    nesvm_params *fp = NULL;
    int *fold = nv_malloc_array((size_t)(n ? n : 1), sizeof(int));
    int *cls = nv_malloc_array((size_t)(n ? n : 1), sizeof(int));
    int64_t *train = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    int64_t *test = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    double *dec = nv_malloc_array((size_t)(n ? n : 1) * (size_t)ns, sizeof(double));
    unsigned char *have = nv_calloc((size_t)(n ? n : 1) * (size_t)ns, 1);
    double *fd = nv_malloc_array((size_t)(n ? n : 1) * (size_t)ns, sizeof(double));
    double *lab = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    double *f = nv_malloc_array(2 * (size_t)(n ? n : 1), sizeof(double)); /* distributed: then pos as doubles */
    double *fw = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    int *pos = nv_malloc_array((size_t)(n ? n : 1), sizeof(int));
    if (!fold || !cls || !train || !test || !dec || !have || !fd || !lab || !f || !fw || !pos)
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for probability estimates");
    if (comm) st = nv_comm_agree(comm, st, err);
    if (st != NESVM_OK) goto done;
    /* each row's class in the full model's order */
    for (int64_t a = 0; a < n; a++) {
        double y = ds->labels[rows ? rows[a] : a];
        cls[a] = -1;
        for (int c = 0; c < k; c++)
            if (m->labels[c] == y) cls[a] = c;
        NV_ASSERT(cls[a] >= 0); /* the model was trained on these rows: its classes are their labels */
    }
    int nf = NV_PROB_FOLDS < n ? NV_PROB_FOLDS : (int)n;
    int64_t n_all = n;
    if (comm) {
        st = folds_dist(comm, cls, n, k, params->seed, fold, &n_all, &nf, err);
        if (st != NESVM_OK) goto done;
    } else {
        nv_stratified_folds(cls, n, k, nf, params->seed, fold, train);
    }
    st = nesvm_params_copy(params, &fp, err);
    if (comm) st = nv_comm_agree(comm, st, err);
    if (st != NESVM_OK) goto done;
    fp->probability = 0;
    for (int fo = 0; fo < nf; fo++) {
        int64_t ntr = 0, nte = 0;
        for (int64_t a = 0; a < n; a++) {
            int64_t r = rows ? rows[a] : a;
            if (fold[a] == fo) test[nte++] = a;
            else train[ntr++] = r;
        }
        int64_t nte_all = nte; /* distributed: the fold's rows over every rank */
        if (comm && (st = nv_comm_sum_i64(comm, &nte_all, 1, err)) != NESVM_OK) goto done;
        if (nte_all == 0) continue;
        nesvm_model *fm = NULL;
        nesvm_error ferr = {0};
        /* a fold whose training rows hold one class trains nothing: its rows keep no value */
        nesvm_status fst = comm ? nv_train_distributed(ds, train, ntr, fp, NULL, comm, progress, user, &fm, NULL, &ferr)
                                : nv_train_rows(ds, train, ntr, fp, NULL, NULL, NULL, progress, user, &fm, NULL, &ferr);
        if (fst == NESVM_ERR_DATA) continue;
        if (fst != NESVM_OK) {
            st = fst;
            if (err) *err = ferr;
            nv_error_prefix(err, "probability estimates, fold %d of %d", fo + 1, nf);
            goto done;
        }
        for (int64_t t = 0; t < nte; t++) train[t] = rows ? rows[test[t]] : test[t];
        st = nv_predict_rows(fm, ds, train, nte, params->threads, lab, fd, err);
        if (comm) st = nv_comm_agree(comm, st, err);
        if (st == NESVM_OK) {
            for (int s = 0; s < ns; s++) {
                double sign;
                int t = match_sub(m, s, fm, &sign);
                if (t < 0) continue;
                for (int64_t q = 0; q < nte; q++) {
                    dec[test[q] * ns + s] = sign * fd[q * fm->nsub + t];
                    have[test[q] * ns + s] = 1;
                }
            }
        }
        nesvm_model_destroy(fm);
        if (st != NESVM_OK) goto done;
    }
    /* one sigmoid per sub-model, on its rows' out-of-fold values */
    for (int s = 0; s < ns; s++) {
        nv_submodel *sm = &m->sub[s];
        int64_t cnt = 0, np = 0, nn = 0;
        for (int64_t a = 0; a < n; a++) {
            int c = cls[a];
            int in = sm->neg < 0 || k == 2 ? 1 : (c == sm->pos || c == sm->neg);
            if (!in) continue;
            if (c == sm->pos) np++;
            else nn++;
            if (!have[a * ns + s]) continue;
            int64_t r = rows ? rows[a] : a;
            f[cnt] = dec[a * ns + s];
            fw[cnt] = nv_params_class_weight(params, m->labels[c]) * (ds->weights ? ds->weights[r] : 1.0);
            pos[cnt++] = c == sm->pos;
        }
        if (comm) {
            /* the sigmoid on every rank's values, in rank order: the same fit everywhere */
            double *ga[3] = {NULL, NULL, NULL}, *pd = f + cnt; /* pos as doubles after f's values */
            int64_t tot[3] = {0, 0, 0}, cn[2] = {np, nn};
            for (int64_t q = 0; q < cnt; q++) pd[q] = pos[q];
            st = nv_comm_gather(comm, f, cnt, &ga[0], &tot[0], NULL, err);
            if (st == NESVM_OK) st = nv_comm_gather(comm, pd, cnt, &ga[1], &tot[1], NULL, err);
            if (st == NESVM_OK) st = nv_comm_gather(comm, fw, cnt, &ga[2], &tot[2], NULL, err);
            if (st == NESVM_OK) st = nv_comm_sum_i64(comm, cn, 2, err);
            int *gp = st == NESVM_OK ? nv_malloc_array((size_t)(tot[0] ? tot[0] : 1), sizeof(int)) : NULL;
            if (st == NESVM_OK && !gp) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for probability estimates");
            st = nv_comm_agree(comm, st, err);
            if (st == NESVM_OK) {
                for (int64_t q = 0; q < tot[0]; q++) gp[q] = (int)ga[1][q];
                np = cn[0];
                nn = cn[1];
                if (tot[0] > 0) nv_platt_fit(ga[0], gp, ga[2], tot[0], &sm->prob_a, &sm->prob_b);
            }
            const int64_t gathered = tot[0];
            nv_free(gp);
            for (int q = 0; q < 3; q++) nv_free(ga[q]);
            if (st != NESVM_OK) goto done;
            if (gathered > 0) continue;
            sm->prob_a = 0;
            sm->prob_b = log(((double)nn + 1.0) / ((double)np + 1.0));
        } else if (cnt > 0) {
            nv_platt_fit(f, pos, fw, cnt, &sm->prob_a, &sm->prob_b);
        } else {
            /* no out-of-fold value: the class prior */
            sm->prob_a = 0;
            sm->prob_b = log(((double)nn + 1.0) / ((double)np + 1.0));
        }
    }
    m->has_prob = 1;
done:
    nesvm_params_destroy(fp);
    nv_free(fold);
    nv_free(cls);
    nv_free(train);
    nv_free(test);
    nv_free(dec);
    nv_free(have);
    nv_free(fd);
    nv_free(lab);
    nv_free(f);
    nv_free(fw);
    nv_free(pos);
    return st;
}

nesvm_status nesvm_model_predict_proba(const nesvm_model *m, const nesvm_dataset *ds, int threads,
                                       double *labels, double *proba, nesvm_error *err)
{
    if (!m || !ds || !proba) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_predict_proba");
    if (m->task != NESVM_TASK_CLASSIFICATION)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "probability estimates are for classifiers: this is a %s model",
                        nesvm_task_str(m->task));
    if (!m->has_prob)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "the model has no probability estimates: train it with probability 1 (-b 1)");
    double *dec = nv_malloc_array((size_t)(ds->n ? ds->n : 1) * (size_t)m->nsub, sizeof(double));
    double *lab = nv_malloc_array((size_t)(ds->n ? ds->n : 1), sizeof(double));
    if (!dec || !lab) {
        nv_free(dec);
        nv_free(lab);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for prediction");
    }
    nesvm_status st = nv_model_check_width(m, ds, err);
    if (st == NESVM_OK) st = nv_predict_rows(m, ds, NULL, ds->n, threads, lab, dec, err);
    if (st == NESVM_OK) st = nv_prob_rows(m, dec, ds->n, proba, labels, err);
    nv_free(dec);
    nv_free(lab);
    return st;
}

int nesvm_model_has_probability(const nesvm_model *m) { return m ? m->has_prob : 0; }

nesvm_status nesvm_model_probability(const nesvm_model *m, int k, double *A, double *B, nesvm_error *err)
{
    if (!m || k < 0 || k >= m->nsub) return nv_error(err, NESVM_ERR_ARG, "sub-model index %d out of range", k);
    if (!m->has_prob)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "the model has no probability estimates: train it with probability 1 (-b 1)");
    if (A) *A = m->sub[k].prob_a;
    if (B) *B = m->sub[k].prob_b;
    return NESVM_OK;
}
