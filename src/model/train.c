/*
 * train.c - the training driver: one training in five stages over one run
 * context (nv_run, train_run.h), as docs/architecture.md lists them:
 *
 *   1. admit         the rows of positive sample weight, the refusals of the
 *                    solver and the kernel plan it chooses, empty data;
 *   2. targets       by the task of params' svm_type: a classification's
 *                    classes, their rows and pairs, a regression's real
 *                    targets or a novelty's unlabeled rows, each with one
 *                    sub-problem; the sizes they need (train_targets.c);
 *   3. plan          the kernel plan built, the model shell, its basis, the
 *                    costs, the checkpoint context;
 *   4. sub-problems  each binary sub-problem built, warm-started, trained,
 *                    counted and kept along the path (train_sub.c); a
 *                    joint multiclass problem (multiclass cs, multinomial)
 *                    in one training instead (train_joint.c);
 *   5. finish        a full kernel's expansion compacted, no non-finite
 *                    number, the kernel's statistics (train_finish.c).
 *
 * Distributed (nv_train_distributed), a failure on one rank must reach the
 * others, which would otherwise wait in the next collective.  Every rank
 * leaves train_rows by its one exit, where one that failed alone meets the
 * others in nv_comm_agree; so every local failure is followed by an
 * nv_comm_agree before any other collective.  nv_run.shared: the failure
 * came out of an agreement (all ranks know it), and the exit does not agree
 * again.
 */
#include "train_run.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- 1. admit */

/* The rows of positive sample weight: rows of weight 0 are left out, as if
 * not in the data (GS-SVM without a cap: the hard-margin dual, alpha_i <=
 * infinity x weight_i, is the same problem for every positive weight). */
static nesvm_status admit_weights(nv_run *r)
{
    if (!r->ds->weights) return NESVM_OK;
    r->wrows = nv_malloc_array((size_t)(r->n ? r->n : 1), sizeof(int64_t));
    if (!r->wrows) return nv_error(r->err, NESVM_ERR_NOMEM, "out of memory");
    int64_t kept = 0;
    for (int64_t a = 0; a < r->n; a++) {
        int64_t row = r->rows ? r->rows[a] : a;
        NV_ASSERT(row >= 0 && row < r->ds->n); /* the callers' training rows are the dataset's */
        if (r->ds->weights[row] > 0) r->wrows[kept++] = row;
    }
    r->rows = r->wrows;
    r->n = kept;
    return NESVM_OK;
}

/* What the solver cannot train, known from the parameters alone: another
 * solver than those of the registry's `distributed` flag on several ranks,
 * checkpoints on several ranks, a kernel for a linear solver. */
static nesvm_status admit_solver(const nv_run *r)
{
    const nv_solver *solver = r->solver;
    if (r->comm && !solver->distributed) {
        char names[256];
        size_t len = 0;
        names[0] = '\0';
        for (int i = 0; nv_solver_at(i); i++) {
            const nv_solver *o = nv_solver_at(i);
            if (!o->distributed) continue;
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", o->name);
            if (len >= sizeof names) len = sizeof names - 1;
        }
        return nv_error(
            r->err, NESVM_ERR_UNSUPPORTED,
            "solver %s does not train distributed over MPI ranks (--distributed); those that do: %s",
            solver->name, names);
    }
    if (r->comm && r->ckopt && (r->ckopt->save_path || r->ckopt->resume_path))
        return nv_error(r->err, NESVM_ERR_UNSUPPORTED,
                        "checkpoints are not written or resumed by distributed trainings (--distributed)");
    if (r->params->kernel == NV_KERNEL_PRECOMPUTED && !solver->precomputed) {
        char names[256];
        size_t len = 0;
        names[0] = '\0';
        for (int i = 0; nv_solver_at(i); i++) {
            if (!nv_solver_at(i)->precomputed) continue;
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", nv_solver_at(i)->name);
            if (len >= sizeof names) len = sizeof names - 1;
        }
        return nv_error(r->err, NESVM_ERR_UNSUPPORTED,
                        "solver %s trains linear models only: it does not take a precomputed kernel; those that "
                        "do: %s",
                        solver->name, names);
    }
    char problem[64]; /* a novelty, nu-SVC, nu-SVR, a joint problem: before a kernel plan for a problem the
                       * solver lacks */
    nesvm_status st = nesvm_params_task(r->params) == NESVM_TASK_NOVELTY || nv_params_nu_type(r->params) ||
                              nv_params_joint(r->params)
                          ? nv_solver_problem(solver, r->params, problem, sizeof problem, r->err)
                          : NESVM_OK;
    if (st != NESVM_OK) return st;
    if (nv_params_joint(r->params)) {
        const char *word = r->params->multiclass == NV_CS ? "cs" : "multinomial";
        if (r->kernel)
            return nv_error(r->err, NESVM_ERR_UNSUPPORTED,
                            "--multiclass %s trains linear models only (kernel %s): use --multiclass ovr or ovo "
                            "for kernels",
                            word, nv_kernel_names[r->params->kernel]);
        if (r->ckopt && (r->ckopt->save_path || r->ckopt->resume_path))
            return nv_error(r->err, NESVM_ERR_UNSUPPORTED,
                            "checkpoints are not written or resumed for the joint problem of --multiclass %s",
                            word);
        const int m = r->params->method, cs = r->params->multiclass == NV_CS;
        if (m == NV_METHOD_NESTEROV && cs)
            return nv_error(r->err, NESVM_ERR_UNSUPPORTED,
                            "--multiclass cs is trained by Newton's method or by coordinate ascent on its dual "
                            "(--method newton or dcd; auto: dcd on one process): not --method nesterov");
        if (m == NV_METHOD_CD)
            return nv_error(r->err, NESVM_ERR_UNSUPPORTED,
                            "--method cd trains binary linear models under the L1 norm: --multiclass %s is trained "
                            "by --method newton%s",
                            word, cs ? " or dcd" : "");
        if ((m == NV_METHOD_NESTEROV || m == NV_METHOD_DCD) && !cs)
            return nv_error(r->err, NESVM_ERR_UNSUPPORTED,
                            "--multiclass multinomial is trained by Newton's method only: drop --method %s",
                            m == NV_METHOD_NESTEROV ? "nesterov" : "dcd");
    }
    if (r->kernel && solver->kernels == NV_KERNELS_NONE)
        return nv_error(r->err, NESVM_ERR_UNSUPPORTED,
                        "solver %s trains linear models only (kernel %s): use --solver nesvm, ssvm or "
                        "nssvm for kernels",
                        solver->name, nv_kernel_names[r->params->kernel]);
    return NESVM_OK;
}

/* Stage 1.  In: the inputs.  Out: r->rows and r->n (the rows of positive
 * weight), r->n_all (over every rank), r->kp chosen and checked (no
 * allocation).  Fails on: an unknown solver, memory, what the solver cannot
 * train (admit_solver), no row to train on, a kernel plan whose problem is
 * not convex (nv_kplan_check), NESVM's full kernel on several ranks. */
static nesvm_status stage_admit(nv_run *r)
{
    if (!r->solver) return nv_error(r->err, NESVM_ERR_ARG, "unknown solver '%s'", r->params->solver);
    const int64_t n_given = r->n;
    nesvm_status st = admit_weights(r);
    if (st == NESVM_OK) st = admit_solver(r);
    if (st != NESVM_OK) return st;
    /* rows over every rank: those kept, and those given (before the rows of weight 0 left out) */
    int64_t counts[2] = {r->n, n_given};
    if (r->comm) {
        st = nv_comm_agree(r->comm, st, r->err);
        if (st == NESVM_OK) st = nv_comm_sum_i64(r->comm, counts, 2, r->err);
        if (st != NESVM_OK) {
            r->shared = 1;
            return st;
        }
    }
    r->n_all = counts[0];
    if (r->n_all == 0)
        return counts[1] > 0
                   ? nv_error(r->err, NESVM_ERR_DATA,
                              "every row's sample weight is 0, and a row of weight 0 is left out: no "
                              "row to train on")
                   : nv_error(r->err, NESVM_ERR_DATA, "no training data");
    /* the basis size follows every rank's rows */
    nv_kplan_choose(&r->kp, r->solver, r->params, r->ds, r->n_all);
    st = nv_kplan_precomputed(&r->kp, r->params, r->ds, r->rows, r->n, r->comm, r->err);
    if (st == NESVM_OK) st = nv_kplan_check(&r->kp, r->params, r->err);
    if (st != NESVM_OK) return st;
    if (r->comm && r->kp.kind == NV_KPLAN_EXPANSION)
        return nv_error(
            r->err, NESVM_ERR_UNSUPPORTED,
            "NESVM's full kernel (an expansion over every training row) is not trained distributed "
            "(--distributed): give a reduced basis (--basis M), or use --solver gs, ssvm or nssvm");
    return NESVM_OK;
}

/* -------------------------------------------------------------- 2. targets */

/* Stage 2.  In: the admitted rows, the task of params' svm_type.  Out:
 * r->tg, what the sub-problems learn: a classification's classes with each
 * row's class and the pairs they make, or a regression's or novelty's one
 * sub-problem (train_targets.h).  Fails on: memory, one class, labels that
 * look like regression targets, more than NV_MAX_CLASSES labels, sizes
 * beyond memory, probability estimates for another task than
 * classification; distributed, a rank's failure to find its classes is
 * every rank's (r->shared). */
static nesvm_status stage_targets(nv_run *r)
{
    return nv_targets_find(&r->tg, nesvm_params_task(r->params), r->ds, r->rows, r->n, r->n_all, r->params,
                           r->kernel, r->comm, &r->shared, r->err);
}

/* ----------------------------------------------------------------- 3. plan */

/* The model shell: labels, the parameters it is trained with (resolved:
 * bias, gamma, basis), its basis (kernel features), its problem, its
 * multiclass scheme. */
static nesvm_status plan_model(nv_run *r)
{
    const nv_targets *t = &r->tg;
    nesvm_model *m = NULL;
    nesvm_status st =
        nv_model_alloc(t->k, t->nsub, r->ds->d, nv_kplan_ncoef(&r->kp, r->ds, r->n), &r->m, r->err);
    if (st != NESVM_OK) return st;
    m = r->m;
    m->task = t->task;
    if (t->k) memcpy(m->labels, t->classes, (size_t)t->k * sizeof(double));
    nesvm_params_destroy(m->params);
    m->params = NULL;
    st = nesvm_params_copy(r->params, &m->params, r->err);
    if (st != NESVM_OK) return st;
    nv_params_resolve(m->params);
    /* resolved (a precomputed kernel has none: 0, not written) */
    if (r->kernel && r->params->kernel != NV_KERNEL_PRECOMPUTED) m->params->gamma = r->kp.kk.gamma;
    m->params->basis = r->kp.nbasis;
    st = nv_kplan_basis(&r->kp, r->ds, r->rows, m, r->err);
    if (st != NESVM_OK) return st;
    st = nv_solver_problem(r->solver, r->params, m->problem, sizeof m->problem, r->err);
    if (st != NESVM_OK) return st;
    m->params->multiclass = t->joint ? r->params->multiclass : t->ovr ? NV_OVR : NV_OVO;
    return NESVM_OK;
}

/* Stage 3.  In: the admitted rows, r->tg, r->kp chosen.  Out: r->kp built
 * (the kernel, once for every sub-problem), r->w0 (a warm start's buffer),
 * r->m (the model shell, with the task), r->sp's buffers, r->cw (the
 * costs), the statistics' header, r->ck (checkpoints).  Fails on: a warm
 * start for a kernel model or from a model of another task or other
 * classes, memory, a solver without this svm_type, a cost outside
 * [1e-100, 1e15], a checkpoint that cannot be written or resumed; then
 * every rank agrees (r->shared). */
static nesvm_status stage_plan(nv_run *r)
{
    const nesvm_params *params = r->params;
    const nesvm_dataset *ds = r->ds;
    const nv_targets *t = &r->tg;
    /* the earlier stages' outputs: the admitted rows, the targets (a
     * classification's classes and each row's class) */
    NV_ASSERT(t->nsub >= 1 &&
              (t->task != NESVM_TASK_CLASSIFICATION || (t->k >= 2 && t->classes && t->row_class)));
    nesvm_status st = NESVM_OK;
    if (r->init && (r->kernel || r->init->basis))
        return nv_error(r->err, NESVM_ERR_UNSUPPORTED, "warm starts are for linear models (kernel %s)",
                        nv_kernel_names[r->kernel ? params->kernel : r->init->params->kernel]);
    if (r->init && r->kp.kind == NV_KPLAN_EXPANSION) /* the one-class SVM's, nu-SVC's, nu-SVR's linear kernel */
        return nv_error(r->err, NESVM_ERR_UNSUPPORTED,
                        "warm starts (--init) are for models trained on their weights: the %s trains its dual's "
                        "coefficients, one a row, even with the linear kernel",
                        nv_svm_type(params->svm_type)->name);
    st = nv_kplan_build(&r->kp, params, ds, r->rows, r->n, t->k, t->ovr, t->row_class, r->comm, r->err);
    if (st != NESVM_OK) return st;
    if (r->init) {
        if (r->init->task != t->task)
            return nv_error(
                r->err, NESVM_ERR_ARG,
                "the warm-start model does not fit this training: it is a %s model, and svm_type %s "
                "learns a %s",
                nesvm_task_str(r->init->task), nv_svm_type(params->svm_type)->word, nesvm_task_str(t->task));
        if (!nv_init_fits(r->init, t))
            return nv_error(r->err, NESVM_ERR_ARG,
                            "the warm-start model does not fit this training: it has %d classes (%s), "
                            "the data %d (%s), and the class labels must be the same",
                            r->init->nr_class, nesvm_model_multiclass(r->init), t->k,
                            t->joint ? (params->multiclass == NV_CS ? "cs" : "multinomial") : t->ovr ? "ovr" : "ovo");
        r->w0 = nv_malloc_array((size_t)(ds->d ? ds->d : 1), sizeof(double));
        if (!r->w0) return nv_error(r->err, NESVM_ERR_NOMEM, "out of memory");
    }
    st = plan_model(r);
    if (st != NESVM_OK) return st;
    /* the sub-problems' buffers and the classes' costs */
    r->sp.rows = nv_malloc_array((size_t)r->n, sizeof(int64_t));
    r->sp.y = nv_malloc_array((size_t)r->n, sizeof(double));
    r->sp.cost = nv_malloc_array((size_t)r->n, sizeof(double));
    r->sp.cap = r->kp.capv;
    r->cw = nv_malloc_array((size_t)(t->k ? t->k : 1), sizeof(double));
    if (!r->sp.rows || !r->sp.y || !r->sp.cost || !r->cw)
        return nv_error(r->err, NESVM_ERR_NOMEM, "out of memory");
    st = nv_targets_costs(t, params, r->cw, r->err);
    if (st == NESVM_OK) st = nv_targets_nu_check(t, params, ds, r->rows, r->n, r->err);
    if (st != NESVM_OK) return st;
    if (r->stats) {
        r->stats->n_submodels = t->nsub;
        r->stats->exit_reason = NESVM_EXIT_CONVERGED;
    }
    if (r->ckopt && (r->ckopt->save_path || r->ckopt->resume_path)) {
        st = nv_ckctx_begin(&r->ck, r->ckopt, ds, r->rows, r->n, r->m, r->solver, r->err);
        if (st != NESVM_OK) return st;
    }
    if (r->comm && (st = nv_comm_agree(r->comm, st, r->err)) != NESVM_OK) r->shared = 1;
    return st;
}

/* --------------------------------------------------------- 4. sub-problems */

/* Stage 4.  In: everything above.  Out: every sub-model of r->m trained (or
 * restored from a checkpoint), the statistics summed, r->path updated.
 * Stops at the first failure: a sub-problem's cost out of range (every rank
 * agrees: r->shared), or its training's (nv_sub_train). */
static nesvm_status stage_subproblems(nv_run *r)
{
    /* the plan's outputs: the model shell with a sub-model for each
     * sub-problem, its buffers and the costs */
    NV_ASSERT(r->m && r->m->nsub == r->tg.nsub && r->m->task == r->tg.task && r->sp.rows && r->sp.y &&
              r->sp.cost && r->cw);
    nesvm_status st = NESVM_OK;
    nv_pairs pairs;
    nv_pairs_start(&pairs, &r->tg);
    int i, j;
    for (int s = 0; st == NESVM_OK && nv_pairs_next(&pairs, &i, &j); s++) {
        st = nv_sub_build(&r->sp, i, j, &r->tg, nv_kplan_positions(&r->kp), r->params, r->cw, r->ds, r->rows,
                          r->n, r->comm, r->err);
        if (st != NESVM_OK) {
            r->shared = r->comm != NULL;
            break;
        }
        st = nv_sub_train(r, s);
    }
    return st;
}

/* --------------------------------------------------------------- 5. finish */

/* Stage 5, after the sub-problems whatever their status st.  Out: a full
 * kernel's expansion (NESVM's, GS-SVM's) compacted to the rows it uses, the
 * kernel's counters in the statistics.  Fails on: memory, a collective
 * (distributed compaction), a non-finite number in the model. */
static nesvm_status stage_finish(nv_run *r, nesvm_status st)
{
    const nv_kplan *kp = &r->kp;
    if ((kp->kind == NV_KPLAN_EXPANSION || kp->kind == NV_KPLAN_CACHE) && kp->kernel && st == NESVM_OK)
        st = nv_compact_expansion(r->m, r->ds, r->rows, r->n, r->comm, r->err);
    if (st == NESVM_OK) st = nv_check_finite(r->m, r->params, r->err);
    /* logistic regression's probabilities are its own: P(pos | f) = 1 / (1 +
     * exp(-f)), Platt's sigmoid with A = -1, B = 0 (no fit: prob.c) */
    if (st == NESVM_OK && r->params->svm_type == NV_SVM_LOGISTIC) {
        r->m->has_prob = 1;
        for (int s = 0; s < r->m->nsub; s++) {
            r->m->sub[s].prob_a = -1.0;
            r->m->sub[s].prob_b = 0.0;
        }
    }
    /* a precomputed kernel's support vectors: their serial numbers */
    if (st == NESVM_OK && kp->kk.type == NV_KERNEL_PRECOMPUTED && r->m->basis) st = nv_pc_trim(&r->m->basis, r->err);
    if (r->stats) nv_kplan_stats(kp, r->stats);
    return st;
}

/* -------------------------------------------------------------- the driver */

static void run_free(nv_run *r)
{
    nv_free(r->wrows);
    nv_ckctx_end(&r->ck);
    nv_targets_free(&r->tg);
    nv_free(r->sp.rows);
    nv_free(r->sp.y);
    nv_free(r->sp.cost);
    nv_free(r->cw);
    nv_free(r->w0);
    nv_kplan_free(&r->kp);
    nesvm_params_destroy(r->defaults);
}

/* nv_train_rows, and with comm (several ranks) the data-parallel training
 * of nv_train_distributed: the five stages, and one exit. */
static nesvm_status train_rows(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                               const nesvm_params *params, const nesvm_model *init,
                               const nesvm_checkpoint_options *ckopt, nv_path *path, const nv_comm *comm,
                               nesvm_progress_fn progress, void *user, nesvm_model **out, nesvm_stats *stats,
                               nesvm_error *err)
{
    nv_run r;
    memset(&r, 0, sizeof r);
    r.t0 = nv_now();
    if (!params) {
        nesvm_status st = nesvm_params_create(&r.defaults, err);
        if (st != NESVM_OK) return st;
        params = r.defaults;
    }
    r.ds = ds;
    r.rows = rows;
    r.n = n;
    r.params = params;
    r.init = init;
    r.ckopt = ckopt;
    r.path = path;
    r.comm = nv_comm_many(comm) ? comm : NULL;
    r.progress = progress;
    r.user = user;
    r.stats = stats;
    r.err = err;
    r.solver = nv_solver_find(params->solver);
    r.kernel = params->kernel != NV_KERNEL_LINEAR;
    r.kp.kstored = -1;
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->kernel_matrix = -1;
        stats->kernel_psd = -1;
    }

    nesvm_status st = stage_admit(&r);
    if (st == NESVM_OK) st = stage_targets(&r);
    if (st == NESVM_OK) st = stage_plan(&r);
    if (st == NESVM_OK) st = stage_finish(&r, r.tg.joint ? nv_joint_train(&r) : stage_subproblems(&r));

    /* the one exit: a rank that failed alone meets the others here */
    if (r.comm && st != NESVM_OK && !r.shared) st = nv_comm_agree(r.comm, st, err);
    if (stats) stats->seconds = nv_now() - r.t0;
    run_free(&r);
    if (st != NESVM_OK) {
        nesvm_model_destroy(r.m);
        r.m = NULL;
    }
    *out = r.m;
    return st;
}

nesvm_status nv_train_rows(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                           const nesvm_params *params, const nesvm_model *init,
                           const nesvm_checkpoint_options *ckopt, nv_path *path, nesvm_progress_fn progress,
                           void *user, nesvm_model **out, nesvm_stats *stats, nesvm_error *err)
{
    return train_rows(ds, rows, n, params, init, ckopt, path, NULL, progress, user, out, stats, err);
}

nesvm_status nv_train_distributed(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                  const nesvm_params *params, const nesvm_model *init, const nv_comm *comm,
                                  nesvm_progress_fn progress, void *user, nesvm_model **out,
                                  nesvm_stats *stats, nesvm_error *err)
{
    return train_rows(ds, rows, n, params, init, NULL, NULL, comm, progress, user, out, stats, err);
}
