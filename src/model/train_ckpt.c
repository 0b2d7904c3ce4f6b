/* train_ckpt.c - the training driver's checkpoints (train_ckpt.h). */
#include "train_ckpt.h"

#include <string.h>

static int ckpt_write(nv_ckctx *c, const nv_snapshot *snap)
{
    nesvm_error e = {0};
    nv_snapshot sn;
    if (snap) {
        sn = *snap;
        sn.iteration += c->iter_offset;
    }
    if (nv_ckpt_write(c->opt->save_path, &c->head, c->m, c->done, c->done, snap ? &sn : NULL, &e) !=
        NESVM_OK) {
        c->st = NESVM_ERR_IO;
        snprintf(c->msg, sizeof c->msg, "checkpoint: %.480s", e.message);
        return 1;
    }
    c->last = nv_now();
    return 0;
}

/* The solvers' hook: write when the interval has passed, or when stopping. */
int nv_ckctx_hook(void *ctx, const nv_snapshot *snap, int stopping)
{
    nv_ckctx *c = ctx;
    if (!c->opt->save_path || c->st != NESVM_OK) return c->st != NESVM_OK;
    if (!stopping && !(c->opt->every > 0 && nv_now() - c->last >= c->opt->every)) return 0;
    return ckpt_write(c, snap);
}

nesvm_status nv_ckctx_begin(nv_ckctx *c, const nesvm_checkpoint_options *opt, const nesvm_dataset *ds,
                               const int64_t *rows, int64_t n, const nesvm_model *m, const nv_solver *solver,
                               nesvm_error *err)
{
    c->opt = opt;
    c->m = m;
    c->last = nv_now();
    c->head = (nv_ckpt_head){n, ds->d, nv_dataset_hash(ds, rows, n), nv_ckpt_params_hash(m->params),
                             solver->name, m->nsub, m->ncoef, NULL, NULL};
    c->lower = nv_calloc((size_t)m->nsub, sizeof(double));
    c->nsv = nv_calloc((size_t)m->nsub, sizeof(int64_t));
    if (!c->lower || !c->nsv) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    c->head.lower = c->lower;
    c->head.nsv = c->nsv;
    if (opt->save_path) {
        /* a checkpoint that cannot be written is found now, not after an hour */
        nv_atomic_file af;
        nesvm_error e = {0};
        if (nv_atomic_open(&af, opt->save_path, &e) != NESVM_OK)
            return nv_error(err, NESVM_ERR_IO, "checkpoint: %.480s", e.message);
        nv_atomic_abort(&af);
    }
    if (!opt->resume_path) return NESVM_OK;
    nesvm_status st = nv_ckpt_read(opt->resume_path, &c->file, err);
    if (st != NESVM_OK) return st;
    const nv_ckpt_head *h = &c->file.head;
    const char *path = opt->resume_path;
    if (h->rows != n || h->features != ds->d || h->data_hash != c->head.data_hash)
        return nv_error(err, NESVM_ERR_ARG,
                        "checkpoint '%s' was made from other data (%lld rows, %d features%s) than these "
                        "(%lld rows, %d features): resume with the data it was made from",
                        path, (long long)h->rows, h->features,
                        h->rows == n && h->features == ds->d ? ", other values" : "", (long long)n, ds->d);
    if (strcmp(h->solver, solver->name) != 0)
        return nv_error(err, NESVM_ERR_ARG,
                        "checkpoint '%s' was made with other parameters (solver %s; this training: %s): "
                        "resume with the same options (only --threads, --time-limit, --max-iter may differ)",
                        path, h->solver, solver->name);
    if (h->params_hash != c->head.params_hash)
        return nv_error(err, NESVM_ERR_ARG,
                        "checkpoint '%s' was made with other parameters (the same solver, %s, with other "
                        "option values): resume with the same options (only --threads, --time-limit, "
                        "--max-iter may differ)",
                        path, solver->name);
    if (h->nsub != m->nsub || h->ncoef != m->ncoef)
        return nv_error(err, NESVM_ERR_ARG,
                        "checkpoint '%s' does not fit this training (%d sub-models of %lld coefficients; "
                        "this training: %d of %lld)",
                        path, h->nsub, (long long)h->ncoef, m->nsub, (long long)m->ncoef);
    c->resumed = 1;
    return NESVM_OK;
}

/* Sub-model s as the checkpoint holds it (finished before the interruption). */
void nv_ckctx_restore(nv_ckctx *c, int s, nv_submodel *sm, nv_binary_result *res)
{
    const nv_ckpt_sub *cs = &c->file.sub[s];
    memcpy(sm->w, c->file.w + (size_t)s * (size_t)c->file.head.ncoef, (size_t)c->file.head.ncoef * sizeof(double));
    res->b = cs->b;
    res->exit_reason = (nesvm_exit)cs->exit_reason;
    res->iterations = cs->iterations;
    res->primal = cs->primal;
    res->gap = cs->gap;
    res->lower_bound = cs->lower;
    res->n_sv = cs->nsv;
    c->lower[s] = cs->lower;
    c->nsv[s] = cs->nsv;
}

/* Sub-model s is finished (its coefficients are in the model): a checkpoint
 * then, when one is due, records it. */
void nv_ckctx_finished(nv_ckctx *c, int s, const nv_binary_result *res)
{
    c->lower[s] = res->lower_bound;
    c->nsv[s] = res->n_sv;
    c->done = s + 1;
    c->iter_offset = 0;
    if (c->opt->save_path && c->st == NESVM_OK && c->opt->every > 0 && nv_now() - c->last >= c->opt->every)
        ckpt_write(c, NULL);
}

void nv_ckctx_end(nv_ckctx *c)
{
    nv_free(c->lower);
    nv_free(c->nsv);
    nv_ckpt_free(&c->file);
    memset(c, 0, sizeof *c);
}
