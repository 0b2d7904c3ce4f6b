/* hinge.c - row operations of the hinge-loss SVM without a free bias (Hyperpass, Pegasos), and the
 * tube as two hinges (Hyperpass, SSVM, NSSVM). */
#include "hinge.h"

#include <math.h>
#include <string.h>

nesvm_status nv_hinge_init(nv_hinge *h, const nv_binary_problem *pb, const nesvm_params *prm,
                           nesvm_error *err)
{
    memset(h, 0, sizeof *h);
    h->X = pb->X;
    h->rows = pb->rows;
    h->n = pb->n;
    h->y = pb->y;
    h->c = pb->cost;
    h->d = pb->X->d;
    h->B = nv_params_bias(prm) ? prm->bias : 0.0;
    h->D = h->d + (h->B > 0);
    h->comm = nv_comm_many(pb->comm) ? pb->comm : NULL;
    for (int64_t i = 0; i < h->n; i++) h->csum += h->c[i];
    h->ay = nv_malloc_array((size_t)(h->n ? h->n : 1), sizeof(double));
    nesvm_status st = h->ay ? nv_linalg_ws_init(&h->lw, prm->threads, h->d, err)
                            : nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (h->comm) {
        st = nv_comm_agree(h->comm, st, err);
        if (st == NESVM_OK) st = nv_comm_sum(h->comm, &h->csum, 1, err);
    }
    return st;
}

void nv_hinge_free(nv_hinge *h)
{
    nv_free(h->ay);
    nv_linalg_ws_free(&h->lw);
    h->ay = NULL;
}

nesvm_status nv_tube_split_init(nv_tube_split *s, const nv_binary_problem *pb, double e, nesvm_error *err)
{
    memset(s, 0, sizeof *s);
    const int64_t n = pb->n;
    const size_t m = (size_t)(n > 0 ? 2 * n : 1);
    s->rows = nv_malloc_array(m, sizeof(int64_t));
    s->y = nv_malloc_array(m, sizeof(double));
    s->c = nv_malloc_array(m, sizeof(double));
    s->t = nv_malloc_array(m, sizeof(double));
    if (!s->rows || !s->y || !s->c || !s->t) {
        nv_tube_split_free(s);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    }
    for (int64_t k = 0; k < n; k++) {
        const int64_t r = pb->rows ? pb->rows[k] : k;
        s->rows[k] = s->rows[n + k] = r;
        s->y[k] = 1.0;
        s->y[n + k] = -1.0;
        s->c[k] = s->c[n + k] = pb->cost[k];
        s->t[k] = pb->y[k] - e;
        s->t[n + k] = -(pb->y[k] + e);
    }
    s->pb = *pb;
    s->pb.rows = s->rows;
    s->pb.n = 2 * n;
    s->pb.y = s->y;
    s->pb.cost = s->c;
    s->pb.target = NV_TARGET_SIGN;
    return NESVM_OK;
}

void nv_tube_split_free(nv_tube_split *s)
{
    nv_free(s->rows);
    nv_free(s->y);
    nv_free(s->c);
    nv_free(s->t);
    memset(s, 0, sizeof *s);
}

void nv_hinge_start(const nv_hinge *h, const nv_binary_problem *pb, double *w)
{
    if (pb->w0)
        memcpy(w, pb->w0, (size_t)h->d * sizeof *w);
    else
        memset(w, 0, (size_t)h->d * sizeof *w);
    if (h->B > 0) w[h->d] = pb->w0 ? pb->b0 / h->B : 0.0;
}

void nv_hinge_result(const nv_hinge *h, const double *w, double *out, double *b)
{
    memcpy(out, w, (size_t)h->d * sizeof *out);
    *b = h->B > 0 ? h->B * w[h->d] : 0.0;
}

void nv_hinge_margins(nv_hinge *h, const double *w, double *out)
{
    nv_xw(h->X, h->rows, h->n, w, h->B > 0 ? h->B * w[h->d] : 0.0, out, &h->lw);
    for (int64_t i = 0; i < h->n; i++) out[i] *= h->y[i];
    h->dots += h->n;
}

double nv_hinge_dot(nv_hinge *h, int64_t i, const double *w)
{
    int64_t r = h->rows ? h->rows[i] : i;
    double s = nv_row_dot(h->X, r, w) + (h->B > 0 ? h->B * w[h->d] : 0.0);
    h->dots++;
    return h->y[i] * s;
}

void nv_hinge_point_margins(nv_hinge *h, const double *w, double *out)
{
    nv_hinge_margins(h, w, out);
    if (h->t)
        for (int64_t i = 0; i < h->n; i++) out[i] += 1.0 - h->t[i];
}

double nv_hinge_point_dot(nv_hinge *h, int64_t i, const double *w)
{
    return nv_hinge_dot(h, i, w) + (h->t ? 1.0 - h->t[i] : 0.0);
}

void nv_hinge_axpy(nv_hinge *h, int64_t i, double a, double *out)
{
    int64_t r = h->rows ? h->rows[i] : i;
    double ay = a * h->y[i];
    nv_row_axpy(h->X, r, ay, out);
    if (h->B > 0) out[h->d] += ay * h->B;
    h->axpys++;
}

void nv_hinge_xta(nv_hinge *h, const double *a, double *out)
{
    double sb = 0;
    int64_t k = 0;
    for (int64_t i = 0; i < h->n; i++) {
        h->ay[i] = a[i] * h->y[i];
        sb += h->ay[i];
        k += a[i] != 0;
    }
    nv_xta(h->X, h->rows, h->n, h->ay, NULL, out, NULL, &h->lw);
    if (h->B > 0) out[h->d] = h->B * sb;
    h->axpys += k;
}

void nv_hinge_sqnorms(const nv_hinge *h, double *out)
{
    nv_row_norms(h->X, h->rows, h->n, NULL, out);
    if (h->B > 0)
        for (int64_t i = 0; i < h->n; i++) out[i] += h->B * h->B;
}

double nv_hinge_primal(const nv_hinge *h, const double *w, const double *m)
{
    double loss = 0;
    for (int64_t i = 0; i < h->n; i++)
        if (m[i] < 1) loss += h->c[i] * (1.0 - m[i]);
    return 0.5 * nv_dot(w, w, h->D) + loss;
}
