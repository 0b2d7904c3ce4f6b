/* bias_feature.c - LIBLINEAR's regularized bias as a constant feature B, for a solver without one. */
#include "bias_feature.h"

#include "../params/params_internal.h"

#include <string.h>

/* The checkpoints' view of the augmented problem's point: (w, b = B v). */
typedef struct bf_ctx {
    const nv_progress_sink *outer;
    int32_t d;
    double B;
} bf_ctx;

static int bf_ckpt(void *ctx, const nv_snapshot *snap, int stopping)
{
    const bf_ctx *c = ctx;
    nv_snapshot s = *snap;
    if (snap->w && snap->nw == (int64_t)c->d + 1) {
        s.nw = c->d;
        s.b = c->B * snap->w[c->d];
    }
    return c->outer->ckpt(c->outer->ckpt_ctx, &s, stopping);
}

nesvm_status nv_bias_feature_train(nv_train_binary_fn fn, const nv_binary_problem *pb, const nesvm_params *p,
                                   const nv_progress_sink *sink, nv_binary_result *res, nesvm_error *err)
{
    const int32_t d = pb->X->d;
    nesvm_dataset *Z = NULL;
    nesvm_params *q = NULL;
    double *w0 = NULL, *w = NULL;
    nesvm_status st = nv_dataset_with_const(pb->X, pb->rows, pb->n, p->bias, &Z, err);
    if (st == NESVM_OK) st = nesvm_params_copy(p, &q, err);
    if (st == NESVM_OK) {
        w = nv_calloc((size_t)d + 1, sizeof(double));
        w0 = pb->w0 ? nv_malloc_array((size_t)d + 1, sizeof(double)) : NULL;
        if (!w || (pb->w0 && !w0)) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for the bias feature's weights (d=%d)", d);
    }
    if (nv_comm_many(pb->comm)) st = nv_comm_agree(pb->comm, st, err); /* before the solver's collectives */
    if (st != NESVM_OK) {
        res->exit_reason = st == NESVM_ERR_NOMEM ? NESVM_EXIT_NO_MEMORY : NESVM_EXIT_NUMERIC;
        goto out;
    }
    /* the feature's value as stored (float data: B rounded to float) */
    const double B = Z->prec == NESVM_FLOAT ? (double)(float)p->bias : p->bias;
    q->bias = 0; /* the problem without a bias, on [x_i, B] */
    nv_binary_problem zb = *pb;
    zb.X = Z;
    zb.rows = NULL;
    zb.b0 = 0;
    if (pb->w0) {
        memcpy(w0, pb->w0, (size_t)d * sizeof(double));
        w0[d] = pb->b0 / B;
        zb.w0 = w0;
    }
    bf_ctx ctx = {sink, d, B};
    nv_progress_sink zs;
    if (sink) {
        zs = *sink;
        if (sink->ckpt) {
            zs.ckpt = bf_ckpt;
            zs.ckpt_ctx = &ctx;
        }
    }
    nv_binary_result zr = *res;
    zr.w = w;
    st = fn(&zb, q, sink ? &zs : NULL, &zr, err);
    double *rw = res->w;
    *res = zr;
    res->w = rw;
    memcpy(rw, w, (size_t)d * sizeof(double));
    res->b = B * w[d];
out:
    nv_free(w);
    nv_free(w0);
    nesvm_params_destroy(q);
    nesvm_dataset_destroy(Z);
    return st;
}
