/*
 * train_joint.c - the training driver's sub-problems stage for a joint
 * multiclass problem (multiclass cs, multinomial; nv_joint_train,
 * train_run.h).  Not a set of binary sub-problems: one problem couples the k
 * classes' weight vectors (src/solvers/nesvm/multi.h states both), which
 * the solver's registry entry trains (train_multi).  Its solution is stored
 * as one-vs-rest's is, sub-model m = (class m, -1) with w_m and b_m, so that
 * prediction (the argmax of f_m), model files and exports read it as they
 * read a one-vs-rest model; each sub-model carries the joint problem's exit,
 * iterations, primal value and gap.
 *
 * The rows: every training row of positive weight, its class and its cost C
 * x class weight x sample weight (nv_sub_build's costs, with lambda's C =
 * 1/(lambda n)).  The bias (the model's resolved param bias B): Crammer and
 * Singer's none for B <= 0, LIBLINEAR's constant feature B regularized with
 * W for B > 0; the softmax's free (unpenalized) for B > 0, none for B <= 0.
 */
#include "train_run.h"
#include "../solvers/track.h"

#include <math.h>
#include <string.h>

/* The start from init's sub-models (class c's, (c, -1)), padded with zeros
 * or cut to d features; 0 when init lacks a class (nv_init_fits checked). */
static int warm_from_model(const nesvm_model *init, const nv_targets *t, int32_t d, double *w0, double *b0)
{
    for (int c = 0; c < t->k; c++) {
        int s = -1;
        for (int u = 0; u < init->nsub && s < 0; u++)
            if (init->sub[u].neg < 0 && init->sub[u].pos >= 0 &&
                init->labels[init->sub[u].pos] == t->classes[c])
                s = u;
        if (s < 0) return 0;
        const int32_t dm = init->d < d ? init->d : d;
        for (int32_t j = 0; j < d; j++)
            w0[(size_t)c * (size_t)d + (size_t)j] = j < dm ? init->sub[s].w[j] : 0.0;
        b0[c] = init->sub[s].b;
    }
    return 1;
}

nesvm_status nv_joint_train(nv_run *r)
{
    const nv_targets *t = &r->tg;
    const nesvm_dataset *ds = r->ds;
    nesvm_model *m = r->m;
    const int k = t->k;
    const int32_t d = ds->d;
    /* the plan's outputs: the shell of k sub-models of d weights each */
    NV_ASSERT(t->joint && m->nsub == k && m->ncoef == d && !m->basis);
    nesvm_status st = nv_sub_build(&r->sp, 0, -1, t, 0, r->params, r->cw, ds, r->rows, r->n, r->comm, r->err);
    if (st != NESVM_OK) {
        r->shared = r->comm != NULL;
        return st;
    }
    NV_ASSERT(r->sp.n == r->n);           /* j = -1: every row, in order (row_class indexes them) */
    const nesvm_params *mprm = m->params; /* resolved: the bias */
    nv_multi_problem mp = {ds,
                           r->sp.rows,
                           r->sp.n,
                           k,
                           t->row_class,
                           r->sp.cost,
                           mprm->multiclass == NV_CS ? NV_MULTI_CS : NV_MULTI_SOFTMAX,
                           NV_MULTI_BIAS_NONE,
                           0.0,
                           NULL,
                           NULL,
                           r->comm};
    if (mprm->bias > 0) {
        mp.bias = mprm->multiclass == NV_CS ? NV_MULTI_BIAS_REG : NV_MULTI_BIAS_FREE;
        mp.B = mprm->bias;
    }
    double *b = nv_calloc((size_t)k, sizeof(double));
    double *w0 = NULL, *b0 = NULL;
    nesvm_params *prm = NULL;
    if (!b) return nv_error(r->err, NESVM_ERR_NOMEM, "out of memory");
    /* a warm start: --init's model, or the path's last solution */
    nv_path *path = r->path;
    int from_path = path && path->nsub == k;
    for (int c = 0; from_path && c < k; c++) from_path = path->ncoef[c] == d;
    if (r->init || from_path) {
        w0 = nv_malloc_array((size_t)k * (size_t)(d ? d : 1), sizeof(double));
        b0 = nv_malloc_array((size_t)k, sizeof(double));
        if (!w0 || !b0) {
            st = nv_error(r->err, NESVM_ERR_NOMEM, "out of memory");
            goto out;
        }
        int have = 0;
        if (from_path) {
            for (int c = 0; c < k; c++) {
                memcpy(w0 + (size_t)c * (size_t)d, path->w[c], (size_t)d * sizeof(double));
                b0[c] = path->b[c];
            }
            have = 1;
        } else {
            have = warm_from_model(r->init, t, d, w0, b0);
        }
        mp.w0 = have ? w0 : NULL;
        mp.b0 = have ? b0 : NULL;
    }
    /* time_limit bounds the whole training: what is left of it (the ranks:
     * the least), at least a moment (one evaluation) */
    const nesvm_params *sprm = mprm;
    if (r->params->time_limit > 0) {
        double left = r->params->time_limit - (nv_now() - r->t0);
        if (r->comm) {
            left = -left;
            st = nv_comm_max(r->comm, &left, 1, r->err);
            left = -left;
        }
        if (st == NESVM_OK) st = nesvm_params_copy(mprm, &prm, r->err);
        if (st != NESVM_OK) goto out;
        prm->time_limit = left > 1e-9 ? left : 1e-9;
        sprm = prm;
    }
    nv_progress_sink sink = {r->progress, r->user, 0, 1, NULL, NULL, NULL};
    nv_multi_result res;
    memset(&res, 0, sizeof res);
    res.w = m->wbuf; /* sub-model c's w is wbuf + c d: the k x d matrix */
    res.b = b;
    st = r->solver->train_multi(&mp, sprm, &sink, &res, r->err);
    /* a gap is reported only for a certified bound (nv_certify) */
    NV_ASSERT(st != NESVM_OK || isnan(res.gap) ||
              (res.gap >= 0 && res.lower_bound - res.primal <=
                                   NV_CERT_SLACK * fmax(fabs(res.primal), fabs(res.lower_bound))));
    for (int c = 0; c < k; c++) {
        nv_submodel *sm = &m->sub[c];
        sm->pos = c;
        sm->neg = -1;
        sm->b = b[c];
        sm->exit_reason = res.exit_reason;
        sm->iterations = res.iterations;
        sm->primal = res.primal;
        sm->gap = res.gap;
        sm->nu_value = NAN;
    }
    if (r->stats) {
        r->stats->iterations = res.iterations;
        r->stats->primal = res.primal;
        r->stats->lower_bound = res.lower_bound;
        r->stats->gap = res.gap;
        r->stats->exit_reason = res.exit_reason;
        r->stats->n_sv = res.n_sv;
    }
    for (int c = 0; st == NESVM_OK && path && c < k; c++)
        st = nv_path_keep(path, k, c, m->sub[c].w, d, b[c], r->err);
out:
    nesvm_params_destroy(prm);
    nv_free(b);
    nv_free(w0);
    nv_free(b0);
    return st;
}
