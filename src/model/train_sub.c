/*
 * train_sub.c - the training driver's sub-problems stage, one sub-problem
 * at a time (nv_sub_train, train_run.h): its warm start (a model, a path of
 * C values or a checkpoint), its share of the time limit, its training
 * through the kernel plan, its statistics and its solution along the path.
 */
#include "train_run.h"
#include "../solvers/track.h"

#include <math.h>
#include <string.h>

/* Warm start: the starting point of the sub-model separating classes[i]
 * (+1) from classes[j] (-1; j < 0: the rest) taken from init's matching
 * sub-model, negated when init has the pair the other way round; i < 0 (a
 * task other than classification): init's one sub-model.  Returns 0 if
 * init has no such sub-model. */
static int warm_point(const nesvm_model *init, const double *classes, int i, int j, int32_t d, double *w0,
                      double *b0)
{
    int ii = -1, jj = -1;
    for (int c = 0; i >= 0 && c < init->nr_class; c++) {
        if (init->labels[c] == classes[i]) ii = c;
        if (j >= 0 && init->labels[c] == classes[j]) jj = c;
    }
    if (i >= 0 && (ii < 0 || (j >= 0 && jj < 0))) return 0;
    for (int s = 0; s < init->nsub; s++) {
        const nv_submodel *sm = &init->sub[s];
        double sign;
        if (sm->pos == ii && sm->neg == jj)
            sign = 1.0;
        else if (j >= 0 && sm->pos == jj && sm->neg == ii)
            sign = -1.0;
        else
            continue;
        int32_t dm = init->d < d ? init->d : d;
        for (int32_t k = 0; k < d; k++) w0[k] = k < dm ? sign * sm->w[k] : 0.0;
        *b0 = sign * sm->b;
        return 1;
    }
    return 0;
}

int nv_init_fits(const nesvm_model *init, const nv_targets *t)
{
    if (init->task != t->task) return 0;
    if (t->task != NESVM_TASK_CLASSIFICATION) return 1; /* one sub-model each */
    const double *classes = t->classes;
    const int k = t->k, ovr = t->ovr;
    /* the same layout: a sub-model per pair, one per class (one-vs-rest or
     * joint: a joint problem starts from either's weights), or the one */
    int same = init->nr_class == k && (k == 2 && !t->joint ? !nv_params_joint(init->params)
                                                           : nv_params_argmax(init->params, k) == ovr);
    for (int c = 0; same && c < k; c++) {
        int hit = 0;
        for (int e = 0; e < init->nr_class; e++) hit |= init->labels[e] == classes[c];
        same = hit;
    }
    return same;
}

/* One sub-problem's result into the totals. */
static void stats_add(nesvm_stats *stats, const nv_binary_result *res)
{
    if (!stats) return;
    stats->iterations += res->iterations;
    stats->primal += res->primal;
    stats->lower_bound += res->lower_bound;
    if (!(res->gap <= stats->gap)) stats->gap = res->gap;
    if (res->exit_reason > stats->exit_reason) stats->exit_reason = res->exit_reason;
    stats->n_sv += res->n_sv;
    stats->dots += res->dots;
    stats->row_updates += res->axpys;
    stats->ws_rounds += res->rounds;
}

void nv_path_free(nv_path *p)
{
    for (int s = 0; s < p->nsub; s++) nv_free(p->w[s]);
    nv_free(p->w);
    nv_free(p->ncoef);
    nv_free(p->b);
    memset(p, 0, sizeof *p);
}

nesvm_status nv_path_keep(nv_path *p, int nsub, int s, const double *w, int64_t ncoef, double b,
                              nesvm_error *err)
{
    if (p->nsub != nsub) {
        nv_path_free(p);
        p->w = nv_malloc_array((size_t)nsub, sizeof(double *));
        p->ncoef = nv_malloc_array((size_t)nsub, sizeof(int64_t));
        p->b = nv_malloc_array((size_t)nsub, sizeof(double));
        if (!p->w || !p->ncoef || !p->b) {
            nv_path_free(p);
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        }
        for (int i = 0; i < nsub; i++) {
            p->w[i] = NULL;
            p->ncoef[i] = 0;
        }
        p->nsub = nsub;
    }
    if (p->ncoef[s] != ncoef) {
        nv_free(p->w[s]);
        p->ncoef[s] = 0;
        if (!(p->w[s] = nv_malloc_array((size_t)(ncoef ? ncoef : 1), sizeof(double))))
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        p->ncoef[s] = ncoef;
    }
    memcpy(p->w[s], w, (size_t)ncoef * sizeof(double));
    p->b[s] = b;
    return NESVM_OK;
}

/* One sub-problem's training under way (nv_sub_train). */
typedef struct sub_job {
    nv_run *r;
    int s;
    nv_submodel *sm;
    nv_binary_problem pb;
    nv_binary_result res;
    nv_progress_sink sink;
    const nesvm_params *sprm; /* this sub-model's parameters */
    nesvm_params *rparams;    /* owned: sprm when a resume or the time limit changes them */
    int64_t offset;           /* iterations done before a resume */
    const nv_snapshot *rs;    /* the checkpoint's point to resume from, or NULL */
} sub_job;

/* Checkpoints: the sink writes them; a sub-problem finished before the
 * interruption is taken from the checkpoint (*restored), the interrupted
 * one continues from its saved point. */
static nesvm_status sub_checkpoint(sub_job *j, int *restored)
{
    nv_run *r = j->r;
    nv_ckctx *ck = &r->ck;
    *restored = 0;
    if (!ck->opt) return NESVM_OK;
    j->sink.ckpt = nv_ckctx_hook;
    j->sink.ckpt_ctx = ck;
    ck->done = j->s;
    ck->iter_offset = 0;
    if (ck->resumed && j->s < ck->file.done) { /* finished before the interruption */
        nv_ckctx_restore(ck, j->s, j->sm, &j->res);
        *restored = 1;
        return NESVM_OK;
    }
    if (!ck->resumed || j->s != ck->file.cur) return NESVM_OK;
    j->rs = &ck->file.snap;
    const int64_t want = nv_kplan_sub_ncoef(&r->kp, r->ds, r->sp.n);
    if (j->rs->nw != want)
        return nv_error(r->err, NESVM_ERR_ARG,
                        "checkpoint '%s': sub-model %d holds %lld coefficients where this "
                        "training has %lld",
                        r->ckopt->resume_path, j->s, (long long)j->rs->nw, (long long)want);
    j->sink.resume = j->rs;
    j->pb.w0 = j->rs->w;
    j->pb.b0 = j->rs->b;
    if (r->kp.kind == NV_KPLAN_CACHE) return NESVM_OK; /* GS-SVM counts its steps itself */
    j->offset = j->rs->iteration;
    ck->iter_offset = j->offset;
    nesvm_status st = nesvm_params_copy(r->m->params, &j->rparams, r->err);
    if (st != NESVM_OK) return st;
    j->rparams->max_iter = r->m->params->max_iter > j->offset ? r->m->params->max_iter - j->offset : 1;
    j->sprm = j->rparams;
    return NESVM_OK;
}

/* time_limit bounds the whole training: each sub-problem gets what is left
 * of it, and one that finds none left (*none_left) keeps a zero model (exit
 * time-limit, which nesvm_model_certified reports). */
static nesvm_status sub_time(sub_job *j, int *none_left)
{
    nv_run *r = j->r;
    *none_left = 0;
    if (!(r->params->time_limit > 0)) return NESVM_OK;
    nesvm_status st = NESVM_OK;
    double left = r->params->time_limit - (nv_now() - r->t0);
    if (r->comm) { /* the ranks decide together: the least time left */
        left = -left;
        st = nv_comm_max(r->comm, &left, 1, r->err);
        left = -left;
        if (st != NESVM_OK) return st;
    }
    if (left <= 0) {
        j->res.exit_reason = NESVM_EXIT_TIME_LIMIT;
        j->res.primal = j->res.lower_bound = j->res.gap = NAN;
        nesvm_params_destroy(j->rparams); /* a resume's parameters */
        j->rparams = NULL;
        *none_left = 1;
        return NESVM_OK;
    }
    if (!j->rparams) st = nesvm_params_copy(j->sprm, &j->rparams, r->err);
    if (st != NESVM_OK) return st;
    j->rparams->time_limit = left;
    j->sprm = j->rparams;
    return NESVM_OK;
}

/* Train it: from the path's last solution when there is one (and no resume
 * point), through the kernel plan; keep the solution along the path. */
static nesvm_status sub_solve(sub_job *j)
{
    nv_run *r = j->r;
    nv_path *path = r->path;
    const int s = j->s, nsub = r->tg.nsub;
    const int64_t ncoef = nv_kplan_sub_ncoef(&r->kp, r->ds, r->sp.n);
    if (!j->rs && path && path->nsub == nsub && r->kp.kind != NV_KPLAN_CACHE && path->ncoef[s] == ncoef) {
        j->pb.w0 = path->w[s];
        j->pb.b0 = path->b[s];
    }
    nesvm_status st = nv_kplan_train(&r->kp, r->solver, r->ds, r->rows, r->n, &r->sp, &j->pb, j->sprm,
                                     &j->sink, &j->res, j->sm, r->err);
    if (st == NESVM_OK && path && r->kp.kind != NV_KPLAN_CACHE)
        st = nv_path_keep(path, nsub, s, j->res.w, ncoef, j->res.b, r->err);
    if (r->ck.st != NESVM_OK) /* a checkpoint could not be written: that stopped it */
        st = nv_error(r->err, r->ck.st, "%s", r->ck.msg);
    nesvm_params_destroy(j->rparams);
    j->rparams = NULL;
    j->res.iterations += j->offset;
    return st;
}

nesvm_status nv_sub_train(nv_run *r, int s)
{
    const nv_kplan *kp = &r->kp;
    const nesvm_dataset *ds = r->ds;
    NV_ASSERT(s >= 0 && s < r->tg.nsub && r->sp.n >= 0 && r->sp.n <= r->n); /* a sub-model of the shell */
    sub_job j;
    memset(&j, 0, sizeof j);
    j.r = r;
    j.s = s;
    j.sm = &r->m->sub[s];
    j.sm->pos = r->sp.i;
    j.sm->neg = r->sp.j;
    j.pb.X = kp->kind == NV_KPLAN_FEATURES ? kp->kf.X : ds; /* w0 NULL, b0 0: a cold start */
    j.pb.rows = r->sp.rows;
    j.pb.n = r->sp.n;
    j.pb.y = r->sp.y;
    j.pb.cost = r->sp.cost;
    j.pb.comm = r->comm;
    /* the residual's form: 1 - y f (classes), y - f (regression) */
    j.pb.target = r->tg.task == NESVM_TASK_REGRESSION ? NV_TARGET_REAL
                  : r->tg.task == NESVM_TASK_NOVELTY  ? NV_TARGET_NONE
                                                      : NV_TARGET_SIGN;
    if (r->init && warm_point(r->init, r->tg.classes, r->sp.i, r->sp.j, ds->d, r->w0, &j.pb.b0))
        j.pb.w0 = r->w0;
    j.res.w = nv_kplan_positions(kp) ? kp->v : j.sm->w;
    j.sink = (nv_progress_sink){r->progress, r->user, s, r->tg.nsub, NULL, NULL, NULL};
    j.sprm = r->m->params;
    int restored = 0, none_left = 0;
    nesvm_status st = sub_checkpoint(&j, &restored);
    if (st == NESVM_OK && !restored) st = sub_time(&j, &none_left);
    if (st != NESVM_OK) { /* before any training: no statistics */
        nesvm_params_destroy(j.rparams);
        return st;
    }
    const int trained = !restored && !none_left;
    if (trained) st = sub_solve(&j);
    if (st == NESVM_ERR_DATA && r->params->svm_type == NV_SVM_NUSVC) { /* (nv_ws_nu_train: w = 0) the pair */
        char li[32], lj[32], msg[NESVM_ERROR_MESSAGE_SIZE];
        nv_format_double(r->tg.classes[r->sp.i], li);
        if (r->sp.j >= 0) nv_format_double(r->tg.classes[r->sp.j], lj);
        else snprintf(lj, sizeof lj, "the rest");
        snprintf(msg, sizeof msg, "%s", r->err->message);
        st = nv_error(r->err, st, "classes %s and %s: %s", li, lj, msg);
    }
    /* a gap is reported only for a certified bound (nv_certify): not negative,
     * and the bound not above the primal beyond rounding (NV_CERT_SLACK) */
    NV_ASSERT(!trained || st != NESVM_OK || isnan(j.res.gap) ||
              (j.res.gap >= 0 && j.res.lower_bound - j.res.primal <=
                                     NV_CERT_SLACK * fmax(fabs(j.res.primal), fabs(j.res.lower_bound))));
    nv_submodel *sm = j.sm;
    sm->b = j.res.b;
    sm->exit_reason = j.res.exit_reason;
    sm->iterations = j.res.iterations;
    sm->primal = j.res.primal;
    sm->gap = j.res.gap;
    sm->nu_value = trained && nv_params_nu_type(r->params) ? j.res.nu_value : NAN;
    /* after sm is complete: a checkpoint written now records this sub-model */
    if (trained && st == NESVM_OK && r->ck.opt) nv_ckctx_finished(&r->ck, s, &j.res);
    if (r->stats) stats_add(r->stats, &j.res);
    return st;
}
