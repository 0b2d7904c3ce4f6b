/*
 * cv.c - k-fold cross-validation, at one C or along a path of C values with
 * warm starts, the folds in parallel when threads allow, judged by the
 * figures of the task (metrics.c).
 *
 * Classification: rows of each class are shuffled (seeded) and dealt to
 * folds round-robin, continuing across classes, so every fold gets each
 * class in proportion and fold sizes differ by at most one.  Regression and
 * novelty: the rows are shuffled and dealt the same way, as one class.
 * Each fold is predicted by a model trained on the other folds; its
 * predictions against its labels become sums (nv_metric_sums) that add up
 * over the folds into the figures over every row.
 *
 * Along a path of C values, each fold's training starts from its solution at
 * the previous C (nv_path); along max_iter (GS-SVM's early stopping), a
 * fold's training that converged below the limit serves every larger limit.
 *
 * With params->threads T > 1, min(T, folds) folds train at once, each with
 * T / that many threads and that share of kernel_memory.  The progress
 * callback is still called from the calling thread only (nesvm.h): it reports
 * its own fold's trainings, and while it waits for the other threads' folds
 * it reports the latest progress one of them left, every 50 ms; a non-zero
 * return cancels every fold.
 *
 * Distributed (nesvm_cross_validate*_distributed): every rank holds the whole
 * data and draws the same folds; rank r trains the folds f with f mod P = r
 * (each with the threads above), and the sums and predictions are summed
 * over the ranks; a fold's failure on any rank is every rank's.
 */
#include "../model/model_internal.h"
#include "../model/train_targets.h"
#include "../comm/comm.h"
#include "metrics.h"

#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
/* the section that guards cv_job's shared fields */
#define NV_CV_CRITICAL _Pragma("omp critical(nv_cv)")
#else
#define NV_CV_CRITICAL
#endif

typedef struct cv_job {
    const nesvm_dataset *ds;
    const nesvm_params *params;
    int folds;
    const int *fold;        /* each row's fold */
    const char *name;       /* the parameter of the path (NULL: none, one training) */
    const double *cs;       /* its values */
    int ncs;
    int warm;               /* warm starts along the path (C) */
    int saturate;           /* max_iter: a training that converged serves the larger values */
    int par;                /* folds trained at once */
    int rank, size;         /* distributed: this rank's folds are f mod size = rank */
    nesvm_progress_fn progress;
    void *user;
    double *predicted;      /* ncs == 1: every row's predicted label, else NULL */
    double *decision;       /* novelty: ncs x n, every row's decision value (for the ROC
                             * AUC, not a sum); else NULL */
    nv_metric_sums *sums;   /* folds x ncs: the fold's predictions against its labels */
    int64_t *iterations;    /* folds x ncs */
    double *infeasible;     /* along svm_nu with nu-SVC: folds x ncs, 1 where the value is
                             * infeasible on the fold's training rows (not trained) or gives no
                             * classifier there (w = 0); else NULL */
    nesvm_status *status;   /* per fold */
    nesvm_error *errs;      /* per fold */
    /* shared between the threads (under the critical section "nv_cv") */
    int next;               /* the next fold to take */
    int taken;              /* folds taken */
    int finished;           /* folds done */
    int cancel;             /* the callback asked to stop */
    int have_last;
    nesvm_progress last;    /* a worker's latest progress */
} cv_job;

typedef struct cv_sink {
    cv_job *job;
    int caller;             /* on the calling thread */
} cv_sink;

static int is_cancelled(cv_job *job)
{
    int c;
NV_CV_CRITICAL
    c = job->cancel;
    return c;
}

static void set_cancel(cv_job *job)
{
NV_CV_CRITICAL
    job->cancel = 1;
}

/* A fold's progress: the caller's thread reports to the user; the others
 * leave it for the caller. */
static int cv_progress(const nesvm_progress *pg, void *user)
{
    cv_sink *s = user;
    cv_job *job = s->job;
    if (s->caller) {
        if (job->progress && job->progress(pg, job->user)) set_cancel(job);
    } else {
NV_CV_CRITICAL
        {
            job->last = *pg;
            job->have_last = 1;
        }
    }
    return is_cancelled(job);
}

static int take_fold(cv_job *job)
{
    int f;
NV_CV_CRITICAL
    {
        while (job->next < job->folds && job->next % job->size != job->rank) job->next++;
        f = job->cancel || job->next >= job->folds ? -1 : job->next++;
        if (f >= 0) job->taken++;
    }
    return f;
}

/* Fold f: train on the other folds along the path, predict fold f. */
static nesvm_status run_fold(cv_job *job, int f, int caller, int64_t *train, int64_t *test, double *pred,
                             nesvm_error *err)
{
    const nesvm_dataset *ds = job->ds;
    int64_t ntr = 0, nte = 0;
    for (int64_t i = 0; i < ds->n; i++) {
        if (job->fold[i] == f) test[nte++] = i;
        else train[ntr++] = i;
    }
    /* rows dealt round-robin with folds <= n: every fold predicts a row, and
     * this rank trains its own folds */
    NV_ASSERT(f >= 0 && f < job->folds && f % job->size == job->rank && nte > 0 && ntr + nte == ds->n);
    nesvm_params *p = NULL;
    nesvm_status st = nesvm_params_copy(job->params, &p, err);
    if (st != NESVM_OK) return st;
    if (job->par > 1) {
        int T = nv_threads(job->params->threads) / job->par;
        p->threads = T > 1 ? T : 1;
        p->kernel_memory = job->params->kernel_memory / job->par;
    }
    nv_path path;
    memset(&path, 0, sizeof path);
    cv_sink sink = {job, caller};
    int converged = 0, shared = 0;
    nv_targets tg; /* nu-SVC along nu: the training rows' classes, for nu's feasibility */
    memset(&tg, 0, sizeof tg);
    if (job->infeasible)
        st = nv_targets_find(&tg, NESVM_TASK_CLASSIFICATION, ds, train, ntr, ntr, job->params,
                             job->params->kernel != NV_KERNEL_LINEAR, NULL, &shared, err);
    for (int c = 0; c < job->ncs && st == NESVM_OK; c++) {
        const int feasible = job->infeasible ? nv_targets_nu_feasible(&tg, ds, train, ntr, job->cs[c]) : 1;
        if (feasible < 0) {
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
            break;
        }
        if (!feasible) { /* nesvm_train would refuse it: no figures */
            job->infeasible[(size_t)f * job->ncs + c] = 1;
            memset(&job->sums[(size_t)f * job->ncs + c], 0, sizeof(nv_metric_sums));
            job->iterations[(size_t)f * job->ncs + c] = 0;
            continue;
        }
        if (job->name) {
            if (converged && job->cs[c] >= job->cs[c - 1]) { /* the same model again */
                job->sums[(size_t)f * job->ncs + c] = job->sums[(size_t)f * job->ncs + c - 1];
                job->iterations[(size_t)f * job->ncs + c] = 0;
                continue;
            }
            char v[40];
            snprintf(v, sizeof v, "%.17g", job->cs[c]);
            nesvm_params_set(p, job->name, v, NULL); /* checked before */
        }
        nesvm_model *m = NULL;
        nesvm_stats stats;
        memset(&stats, 0, sizeof stats);
        stats.size = sizeof stats;
        st = nv_train_rows(ds, train, ntr, p, NULL, NULL, job->warm ? &path : NULL, cv_progress, &sink, &m,
                           &stats, err);
        if (st == NESVM_ERR_DATA && job->infeasible) {
            /* nu-SVC without a classifier at this nu (w = 0: the classes' reduced
             * hulls meet, expansion_wsn.c): no figures, as an infeasible nu */
            job->infeasible[(size_t)f * job->ncs + c] = 1;
            memset(&job->sums[(size_t)f * job->ncs + c], 0, sizeof(nv_metric_sums));
            job->iterations[(size_t)f * job->ncs + c] = 0;
            if (err) nesvm_error_clear(err);
            st = NESVM_OK;
            continue;
        }
        if (st != NESVM_OK) {
            if (job->name) nv_error_prefix(err, "%s %.17g", job->name, job->cs[c]);
            nv_error_prefix(err, "fold %d of %d", f + 1, job->folds);
            break;
        }
        /* (a novelty's decision values: after the labels, nte more entries) */
        st = nv_predict_rows(m, ds, test, nte, p->threads, pred, job->decision ? pred + nte : NULL, err);
        nesvm_model_destroy(m);
        if (st != NESVM_OK) break;
        nv_metric_sums *sum = &job->sums[(size_t)f * job->ncs + c];
        memset(sum, 0, sizeof *sum);
        for (int64_t t = 0; t < nte; t++) {
            if (job->predicted) job->predicted[test[t]] = pred[t];
            if (job->decision) job->decision[(size_t)c * (size_t)ds->n + (size_t)test[t]] = pred[nte + t];
            nv_metric_add(sum, ds->labels[test[t]], pred[t]);
        }
        job->iterations[(size_t)f * job->ncs + c] = stats.iterations;
        converged = job->saturate && stats.exit_reason == NESVM_EXIT_CONVERGED;
    }
    nv_targets_free(&tg);
    nv_path_free(&path);
    nesvm_params_destroy(p);
    return st;
}

/* One thread's share: folds until none is left; the caller's thread then
 * reports the others' progress until they finish. */
static void cv_worker(cv_job *job, int caller)
{
    const int64_t n = job->ds->n;
    int64_t *train = nv_malloc_array((size_t)n, sizeof(int64_t));
    int64_t *test = nv_malloc_array((size_t)n, sizeof(int64_t));
    /* a fold's labels, then a novelty's decision values */
    double *pred = nv_malloc_array((size_t)n * (job->decision ? 2 : 1), sizeof(double));
    int f;
    while ((f = take_fold(job)) >= 0) {
        if (!train || !test || !pred)
            job->status[f] = nv_error(&job->errs[f], NESVM_ERR_NOMEM, "out of memory");
        else
            job->status[f] = run_fold(job, f, caller, train, test, pred, &job->errs[f]);
NV_CV_CRITICAL
        {
            job->finished++;
            /* one fold's failure stops the others */
            if (job->status[f] != NESVM_OK) job->cancel = 1;
        }
    }
    nv_free(train);
    nv_free(test);
    nv_free(pred);
    if (!caller) return;
    for (;;) {
        int done, have;
        nesvm_progress pg;
NV_CV_CRITICAL
        {
            done = job->finished >= job->taken; /* every fold taken has finished */
            have = job->have_last;
            pg = job->last;
            job->have_last = 0;
        }
        if (done) break;
        if (have && job->progress && job->progress(&pg, job->user)) set_cancel(job);
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* Each row's fold: stratified by class for a classification (the rows of
 * each class shuffled and dealt round-robin, continuing across classes),
 * else the rows shuffled and dealt round-robin, as one class. */
static nesvm_status draw_folds(const nesvm_dataset *ds, nesvm_task task, int folds, uint64_t seed, int *fold,
                               nesvm_error *err)
{
    const int64_t n = ds->n;
    double *classes = NULL;
    int k = 1;
    int *cls = nv_malloc_array((size_t)(n ? n : 1), sizeof(int));
    int64_t *order = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    nesvm_status st = cls && order ? NESVM_OK : nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (st == NESVM_OK && task == NESVM_TASK_CLASSIFICATION)
        st = nv_label_classes(ds->labels, NULL, n, &classes, &k, cls, err);
    else if (st == NESVM_OK)
        memset(cls, 0, (size_t)n * sizeof(int));
    if (st == NESVM_OK) nv_stratified_folds(cls, n, k, folds, seed, fold, order);
    nv_free(classes);
    nv_free(cls);
    nv_free(order);
    return st;
}

/* The folds of ds, and every fold trained along the path of parameter name
 * (NULL: params as they are, ncs 1): metrics[c] (ncs entries) are the
 * figures of params' task over every row at value c. */
static nesvm_status cross_validate(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                   uint64_t seed, const char *name, const double *cs, int ncs, int warm,
                                   const nv_comm *comm, nesvm_progress_fn progress, void *user,
                                   double *predicted, nesvm_metrics *metrics, int64_t *iterations,
                                   nesvm_error *err)
{
    int64_t n = ds->n;
    if (!nv_comm_many(comm)) comm = NULL;
    if (folds < 2) return nv_error(err, NESVM_ERR_ARG, "cross-validation needs at least 2 folds (got %d)", folds);
    if (folds > n) return nv_error(err, NESVM_ERR_ARG, "%d folds but only %lld rows", folds, (long long)n);
    nesvm_params *defaults = NULL;
    if (!params) {
        nesvm_status st = nesvm_params_create(&defaults, err);
        if (st != NESVM_OK) return st;
        params = defaults;
    }
    const nesvm_task task = nesvm_params_task(params);
    cv_job job;
    memset(&job, 0, sizeof job);
    int *fold = nv_malloc_array((size_t)n, sizeof(int));
    /* zeros where other ranks' folds go (their sum is exact) */
    if (task == NESVM_TASK_NOVELTY) job.decision = nv_calloc((size_t)ncs * (size_t)n, sizeof(double));
    const int nu_path = name && strcmp(name, "svm_nu") == 0 && params->svm_type == NV_SVM_NUSVC;
    if (nu_path) job.infeasible = nv_calloc((size_t)folds * (size_t)ncs, sizeof(double));
    job.sums = nv_calloc((size_t)folds * (size_t)ncs, sizeof(nv_metric_sums));
    job.iterations = nv_malloc_array((size_t)folds * (size_t)ncs, sizeof(int64_t));
    job.status = nv_malloc_array((size_t)folds, sizeof(nesvm_status));
    job.errs = nv_malloc_array((size_t)folds, sizeof(nesvm_error));
    nesvm_status st = NESVM_OK;
    if (!fold || !job.sums || !job.iterations || !job.status || !job.errs ||
        (task == NESVM_TASK_NOVELTY && !job.decision) || (nu_path && !job.infeasible))
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (st == NESVM_OK) st = draw_folds(ds, task, folds, seed, fold, err);
    if (comm) st = nv_comm_agree(comm, st, err);
    if (st != NESVM_OK) goto done;
    for (int f = 0; f < folds; f++) {
        job.status[f] = NESVM_OK;
        memset(&job.errs[f], 0, sizeof job.errs[f]);
    }
    job.ds = ds;
    job.params = params;
    job.folds = folds;
    job.fold = fold;
    job.name = name;
    job.cs = cs;
    job.ncs = ncs;
    job.warm = warm && name && strcmp(name, "c") == 0;
    job.saturate = name && strcmp(name, "max_iter") == 0;
    job.progress = progress;
    job.user = user;
    job.predicted = predicted;
    job.rank = comm ? comm->rank : 0;
    job.size = comm ? comm->size : 1;
    /* distributed: zeros where other ranks' folds go (their sum is exact) */
    if (comm) {
        memset(job.iterations, 0, (size_t)folds * (size_t)ncs * sizeof(int64_t));
        if (predicted) memset(predicted, 0, (size_t)n * sizeof(double));
    }
    const int mine = (folds - job.rank + job.size - 1) / job.size; /* this rank's folds */
    int T = nv_threads(params->threads);
    job.par = T < mine ? T : mine;
    if (job.par < 1) job.par = 1;
#ifdef _OPENMP
    if (job.par > 1) {
#pragma omp parallel num_threads(job.par)
        cv_worker(&job, omp_get_thread_num() == 0);
    } else
#endif
    {
        job.par = 1;
        cv_worker(&job, 1);
    }
    NV_ASSERT(job.finished == job.taken); /* the caller's thread waited for every fold taken */
    /* the first fold that failed (a fold stopped by another's failure says
     * cancelled: the cause is reported instead) */
    for (int f = 0; f < folds && st == NESVM_OK; f++)
        if (job.status[f] != NESVM_OK && job.status[f] != NESVM_ERR_CANCELLED) {
            st = job.status[f];
            if (err) *err = job.errs[f];
        }
    for (int f = 0; f < folds && st == NESVM_OK; f++)
        if (job.status[f] != NESVM_OK) {
            st = job.status[f];
            if (err) *err = job.errs[f];
        }
    if (comm) {
        st = nv_comm_agree(comm, st, err);
        if (st == NESVM_OK)
            st = nv_comm_sum(comm, (double *)job.sums, (int64_t)folds * ncs * NV_METRIC_SUMS_LEN, err);
        if (st == NESVM_OK) st = nv_comm_sum_i64(comm, job.iterations, (int64_t)folds * ncs, err);
        if (st == NESVM_OK && predicted) st = nv_comm_sum(comm, predicted, n, err);
        if (st == NESVM_OK && job.decision) st = nv_comm_sum(comm, job.decision, (int64_t)ncs * n, err);
        if (st == NESVM_OK && job.infeasible) st = nv_comm_sum(comm, job.infeasible, (int64_t)folds * ncs, err);
    }
    if (st == NESVM_OK)
        for (int c = 0; c < ncs; c++) {
            nv_metric_sums total;
            memset(&total, 0, sizeof total);
            if (iterations) iterations[c] = 0;
            for (int f = 0; f < folds; f++) {
                nv_metric_merge(&total, &job.sums[(size_t)f * ncs + c]);
                if (iterations) iterations[c] += job.iterations[(size_t)f * ncs + c];
            }
            nv_metrics_finish(&total, task, &metrics[c]);
            int infeasible = 0;
            for (int f = 0; job.infeasible && f < folds; f++) infeasible |= job.infeasible[(size_t)f * ncs + c] != 0;
            if (infeasible) { /* not trained on some fold: no figures */
                nv_metric_sums none;
                memset(&none, 0, sizeof none);
                nv_metrics_finish(&none, task, &metrics[c]);
            }
            if (job.decision && st == NESVM_OK)
                st = nesvm_roc_auc(ds->labels, job.decision + (size_t)c * (size_t)n, n, &metrics[c].auc, NULL,
                                   err);
        }
done:
    nv_free(fold);
    nv_free(job.sums);
    nv_free(job.iterations);
    nv_free(job.status);
    nv_free(job.errs);
    nv_free(job.decision);
    nv_free(job.infeasible);
    nesvm_params_destroy(defaults);
    return st;
}

static nesvm_status cv_one(const nesvm_dataset *ds, const nesvm_params *params, int folds, uint64_t seed,
                           const nv_comm *comm, nesvm_progress_fn progress, void *user, double *predicted,
                           nesvm_metrics *metrics, nesvm_error *err)
{
    if (!ds) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_cross_validate");
    nesvm_metrics m;
    memset(&m, 0, sizeof m);
    nesvm_status st = cross_validate(ds, params, folds, seed, NULL, NULL, 1, 0, comm, progress, user,
                                     predicted, &m, NULL, err);
    if (st == NESVM_OK && metrics) *metrics = m;
    return st;
}

nesvm_status nesvm_cross_validate(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                  uint64_t seed, nesvm_progress_fn progress, void *user,
                                  double *predicted, double *accuracy, nesvm_error *err)
{
    if (!predicted) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_cross_validate");
    nesvm_metrics m;
    memset(&m, 0, sizeof m);
    nesvm_status st = cv_one(ds, params, folds, seed, NULL, progress, user, predicted, &m, err);
    if (st == NESVM_OK && accuracy) *accuracy = m.accuracy;
    return st;
}

static nesvm_status cv_path(const nesvm_dataset *ds, const nesvm_params *params, int folds, uint64_t seed,
                            const char *name, const double *values, int n_values, int warm,
                            const nv_comm *comm, nesvm_progress_fn progress, void *user,
                            nesvm_metrics *metrics, int64_t *iterations, nesvm_error *err)
{
    if (!ds || !name || !values || !metrics)
        return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_cross_validate_path");
    if (n_values < 1)
        return nv_error(err, NESVM_ERR_ARG, "the path of %s has %d values: give at least one", name, n_values);
    /* every value checked before any training */
    nesvm_params *check = NULL;
    nesvm_status st = params ? nesvm_params_copy(params, &check, err) : nesvm_params_create(&check, err);
    for (int c = 0; c < n_values && st == NESVM_OK; c++) {
        char v[40];
        snprintf(v, sizeof v, "%.17g", values[c]);
        st = nesvm_params_set(check, name, v, err);
        if (st != NESVM_OK) nv_error_prefix(err, "value %d of the path", c + 1);
    }
    nesvm_params_destroy(check);
    if (st != NESVM_OK) return st;
    return cross_validate(ds, params, folds, seed, name, values, n_values, warm, comm, progress, user, NULL,
                          metrics, iterations, err);
}

/* cv_path's accuracies (the calls that report them alone). */
static nesvm_status cv_path_accuracy(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                     uint64_t seed, const char *name, const double *values, int n_values,
                                     int warm, const nv_comm *comm, nesvm_progress_fn progress, void *user,
                                     double *accuracy, int64_t *iterations, nesvm_error *err)
{
    if (!accuracy) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_cross_validate_path");
    nesvm_metrics *m = nv_malloc_array((size_t)(n_values > 0 ? n_values : 1), sizeof(nesvm_metrics));
    if (!m) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    nesvm_status st = cv_path(ds, params, folds, seed, name, values, n_values, warm, comm, progress, user, m,
                              iterations, err);
    if (st == NESVM_OK)
        for (int c = 0; c < n_values; c++) accuracy[c] = m[c].accuracy;
    nv_free(m);
    return st;
}

nesvm_status nesvm_cross_validate_path(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                       uint64_t seed, const char *name, const double *values, int n_values,
                                       int warm, nesvm_progress_fn progress, void *user, double *accuracy,
                                       int64_t *iterations, nesvm_error *err)
{
    return cv_path_accuracy(ds, params, folds, seed, name, values, n_values, warm, NULL, progress, user,
                            accuracy, iterations, err);
}

/* The MPI communicator behind mpi_comm (a build without MPI: UNSUPPORTED). */
static nesvm_status cv_comm(const void *mpi_comm, nv_comm *c, nesvm_error *err)
{
    if (!mpi_comm) return nv_error(err, NESVM_ERR_ARG, "mpi_comm must not be NULL");
    return nv_comm_mpi(c, mpi_comm, err);
}

nesvm_status nesvm_cross_validate_distributed(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                              uint64_t seed, const void *mpi_comm, nesvm_progress_fn progress,
                                              void *user, double *predicted, double *accuracy, nesvm_error *err)
{
    nv_comm c;
    nesvm_status st = cv_comm(mpi_comm, &c, err);
    if (st != NESVM_OK) return st;
    if (!predicted) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_cross_validate");
    nesvm_metrics m;
    memset(&m, 0, sizeof m);
    st = cv_one(ds, params, folds, seed, &c, progress, user, predicted, &m, err);
    if (st == NESVM_OK && accuracy) *accuracy = m.accuracy;
    return st;
}

nesvm_status nesvm_cross_validate_path_distributed(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                                   uint64_t seed, const char *name, const double *values,
                                                   int n_values, int warm, const void *mpi_comm,
                                                   nesvm_progress_fn progress, void *user, double *accuracy,
                                                   int64_t *iterations, nesvm_error *err)
{
    nv_comm c;
    nesvm_status st = cv_comm(mpi_comm, &c, err);
    if (st != NESVM_OK) return st;
    return cv_path_accuracy(ds, params, folds, seed, name, values, n_values, warm, &c, progress, user,
                            accuracy, iterations, err);
}

/* The communicator of the metrics calls: none (mpi_comm NULL), or mpi_comm's. */
static nesvm_status cv_comm_opt(const void *mpi_comm, nv_comm *c, const nv_comm **out, nesvm_error *err)
{
    *out = NULL;
    if (!mpi_comm) return NESVM_OK;
    nesvm_status st = nv_comm_mpi(c, mpi_comm, err);
    if (st == NESVM_OK) *out = c;
    return st;
}

nesvm_status nesvm_cross_validate_metrics(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                          uint64_t seed, const void *mpi_comm, nesvm_progress_fn progress,
                                          void *user, double *predicted, nesvm_metrics *metrics,
                                          nesvm_error *err)
{
    nv_comm c;
    const nv_comm *comm;
    nesvm_status st = cv_comm_opt(mpi_comm, &c, &comm, err);
    if (st != NESVM_OK) return st;
    if (!metrics) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_cross_validate_metrics");
    return cv_one(ds, params, folds, seed, comm, progress, user, predicted, metrics, err);
}

nesvm_status nesvm_cross_validate_path_metrics(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                               uint64_t seed, const char *name, const double *values,
                                               int n_values, int warm, const void *mpi_comm,
                                               nesvm_progress_fn progress, void *user, nesvm_metrics *metrics,
                                               int64_t *iterations, nesvm_error *err)
{
    nv_comm c;
    const nv_comm *comm;
    nesvm_status st = cv_comm_opt(mpi_comm, &c, &comm, err);
    if (st != NESVM_OK) return st;
    return cv_path(ds, params, folds, seed, name, values, n_values, warm, comm, progress, user, metrics,
                   iterations, err);
}
