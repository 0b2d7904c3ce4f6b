/* train_api.c - the public training calls: nv_train_rows (train.c), then the
 * probability estimates (prob.c) when asked for; kept apart from train.c so
 * that prob.c's fold trainings call train.c without a cycle. */
#include "model_internal.h"

#include <stddef.h>
#include <string.h>

/* The caller's nesvm_stats must hold at least the first version's fields
 * (which end with kernel_asked). */
static nesvm_status check_stats(const nesvm_stats *stats, nesvm_error *err)
{
    const size_t v1 = offsetof(nesvm_stats, kernel_asked) + sizeof(int64_t);
    if (stats && stats->size < v1)
        return nv_error(err, NESVM_ERR_ARG,
                        "nesvm_stats.size is %zu: set it to sizeof(nesvm_stats) (NESVM_STATS_INIT)",
                        stats->size);
    return NESVM_OK;
}

/* The fields of full that fit the caller's stats. */
static void stats_out(nesvm_stats *stats, nesvm_stats *full)
{
    if (!stats) return;
    const size_t want = stats->size;
    full->size = want;
    memcpy(stats, full, want < sizeof *full ? want : sizeof *full);
}

/* Platt's sigmoids for the trained *out on out-of-fold decision values
 * (prob.c; comm: the folds over every rank's rows); the rows of weight 0
 * stay out, as in training.  On failure *out is destroyed. */
static nesvm_status train_probability(nesvm_model **out, const nesvm_dataset *ds, const nesvm_params *params,
                                      const nv_comm *comm, nesvm_progress_fn progress, void *user, nesvm_error *err)
{
    /* logistic regression's own probabilities are in the model (train.c) */
    if (params->svm_type == NV_SVM_LOGISTIC) return NESVM_OK;
    int64_t *keep = NULL, n = ds->n;
    nesvm_status st = NESVM_OK;
    if (ds->weights) {
        keep = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
        if (!keep) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        n = 0;
        for (int64_t i = 0; keep && i < ds->n; i++)
            if (ds->weights[i] > 0) keep[n++] = i;
    }
    if (comm) st = nv_comm_agree(comm, st, err);
    if (st == NESVM_OK) st = nv_prob_train(*out, ds, keep, n, params, comm, progress, user, err);
    nv_free(keep);
    if (st != NESVM_OK) {
        nesvm_model_destroy(*out);
        *out = NULL;
    }
    return st;
}

/* The public trainings: the caller's nesvm_stats gets the fields that fit its
 * size (nesvm.h, "Growing structs"). */
static nesvm_status train_public(const nesvm_dataset *ds, const nesvm_params *params, const nesvm_model *init,
                                 const nesvm_checkpoint_options *ck, nesvm_progress_fn progress, void *user,
                                 nesvm_model **out, nesvm_stats *stats, nesvm_error *err)
{
    if (!ds || !out) return nv_error(err, NESVM_ERR_ARG, "dataset and out must not be NULL");
    *out = NULL;
    nesvm_status st = check_stats(stats, err);
    if (st != NESVM_OK) return st;
    nesvm_stats full;
    st = nv_train_rows(ds, NULL, ds->n, params, init, ck, NULL, progress, user, out, stats ? &full : NULL, err);
    if (st == NESVM_OK && params && params->probability)
        st = train_probability(out, ds, params, NULL, progress, user, err);
    stats_out(stats, &full);
    return st;
}

nesvm_status nesvm_train(const nesvm_dataset *ds, const nesvm_params *params,
                         nesvm_progress_fn progress, void *user, nesvm_model **out,
                         nesvm_stats *stats, nesvm_error *err)
{
    return train_public(ds, params, NULL, NULL, progress, user, out, stats, err);
}

nesvm_status nesvm_train_warm(const nesvm_dataset *ds, const nesvm_params *params,
                              const nesvm_model *init, nesvm_progress_fn progress, void *user,
                              nesvm_model **out, nesvm_stats *stats, nesvm_error *err)
{
    return train_public(ds, params, init, NULL, progress, user, out, stats, err);
}

nesvm_status nesvm_train_resumable(const nesvm_dataset *ds, const nesvm_params *params,
                                   const nesvm_model *init, const nesvm_checkpoint_options *ck,
                                   nesvm_progress_fn progress, void *user, nesvm_model **out,
                                   nesvm_stats *stats, nesvm_error *err)
{
    return train_public(ds, params, init, ck, progress, user, out, stats, err);
}

int nesvm_have_mpi(void) { return nv_comm_have_mpi(); }

nesvm_status nesvm_train_distributed(const nesvm_dataset *ds, const nesvm_params *params,
                                     const nesvm_model *init, const void *mpi_comm,
                                     nesvm_progress_fn progress, void *user, nesvm_model **out,
                                     nesvm_stats *stats, nesvm_error *err)
{
    if (!ds || !out || !mpi_comm)
        return nv_error(err, NESVM_ERR_ARG, "dataset, mpi_comm and out must not be NULL");
    *out = NULL;
    nesvm_status st = check_stats(stats, err);
    if (st != NESVM_OK) return st;
    nv_comm c;
    st = nv_comm_mpi(&c, mpi_comm, err);
    if (st != NESVM_OK) return st;
    nv_comm_stats cs = {0, 0};
    c.stats = &cs;
    nesvm_stats full;
    memset(&full, 0, sizeof full);
    /* every rank must hold the same features: the largest d and the smallest */
    double dd[2] = {(double)ds->d, -(double)ds->d};
    st = nv_comm_max(&c, dd, 2, err);
    if (st == NESVM_OK && dd[0] != -dd[1])
        st = nv_error(err, NESVM_ERR_ARG,
                      "the ranks' datasets have %.0f to %.0f features: every rank needs the same "
                      "feature count (nesvm_dataset_read_distributed gives it)",
                      -dd[1], dd[0]);
    if (st == NESVM_OK)
        st = nv_train_distributed(ds, NULL, ds->n, params, init, &c, progress, user, out, stats ? &full : NULL, err);
    if (st == NESVM_OK && params && params->probability)
        st = train_probability(out, ds, params, &c, progress, user, err);
    full.comm_calls = cs.calls;
    full.comm_bytes = cs.bytes;
    stats_out(stats, &full);
    return st;
}
