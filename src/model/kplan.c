/* kplan.c - the kernel plan of a training (kplan.h). */
#include "kplan.h"
#include "../solvers/nesvm/nesvm_solver.h"
#include "../solvers/smo/smo.h"

#include <math.h>
#include <string.h>

/* Is the plan's kernel positive semi-definite?  By its type, or for a
 * precomputed kernel by its matrix (not checked: taken as it is). */
static int plan_psd(const nv_kplan *kp)
{
    return kp->kk.type == NV_KERNEL_PRECOMPUTED ? kp->pc_psd != 0 : nv_kernel_psd(&kp->kk);
}

/* A full kernel's C-SVM with a kernel that is not positive semi-definite:
 * LIBSVM's dual by SMO on the column cache (a stationary point).  Not the
 * one-class SVM, nu-SVC or nu-SVR (whose losses are the hinge and the tube
 * too): refused, nv_kplan_check. */
static void plan_smo(nv_kplan *kp, const nesvm_params *params)
{
    kp->smo = nesvm_params_task(params) != NESVM_TASK_NOVELTY && !nv_params_nu_type(params) &&
              nv_smo_takes(nv_params_loss(params), nv_params_l1(params)) && !plan_psd(kp);
    if (kp->smo) kp->ws = 1, kp->shared_k = 0;
}

void nv_kplan_choose(nv_kplan *kp, const nv_solver *solver, const nesvm_params *params,
                     const nesvm_dataset *ds, int64_t n)
{
    memset(kp, 0, sizeof *kp);
    kp->solver = solver;
    kp->kstored = -1;
    kp->pc_psd = -1;
    kp->kernel = params->kernel != NV_KERNEL_LINEAR;
    kp->nbasis = nv_params_basis(params, n);
    kp->kk = (nv_kernel){params->kernel, params->gamma > 0 ? params->gamma : 1.0 / (ds->d > 0 ? ds->d : 1),
                         params->coef0, params->degree};
    const int dual_only = nesvm_params_task(params) == NESVM_TASK_NOVELTY || nv_params_nu_type(params);
    if (solver->train_columns) {
        kp->kind = NV_KPLAN_CACHE;
    } else if (dual_only && solver->train_expansion) {
        /* the one-class SVM, nu-SVC and nu-SVR: their duals on a working set
         * (expansion_wso.c, expansion_wsn.c), the linear kernel's too
         * (K = X X', folded into w by nv_kplan_train) */
        kp->kind = NV_KPLAN_EXPANSION;
        kp->ws = 1;
        kp->shared_k = 0;
        if (kp->nbasis >= n) kp->nbasis = 0; /* a basis of every row: the full kernel */
    } else if (!kp->kernel) {
        kp->kind = NV_KPLAN_LINEAR;
    } else if (solver->train_expansion && (kp->nbasis <= 0 || kp->nbasis >= n) &&
               (!nv_params_l1(params) || nv_params_newton(params))) {
        /* a full kernel is solved on its expansion coefficients with K as an
         * operator (stored or on the fly) */
        kp->kind = NV_KPLAN_EXPANSION;
        /* C-SVM by Newton or SMO, epsilon-SVR's tube by SMO: a working set
         * (expansion_ws.c) */
        kp->ws = nv_nesvm_ws_takes(params);
        kp->shared_k = (double)n * (double)n * sizeof(float) <= params->kernel_memory * 1048576.0;
        /* not convex: LIBSVM's dual by SMO on the column cache (a
         * precomputed matrix: once checked, nv_kplan_precomputed) */
        plan_smo(kp, params);
    } else {
        /* a reduced basis, LP-SVM with the Nesterov method, and the Newton
         * family's kernels go through kernel features (kernel.h) */
        kp->kind = NV_KPLAN_FEATURES;
    }
}

/* The features' penalty is the RKHS norm (K_BB factored): NESVM's except
 * LP-SVM's L1 norm on the coefficients, the Newton family's unless
 * kernel_norm coef. */
static int features_rkhs(const nv_kplan *kp, const nesvm_params *params)
{
    return kp->solver->kernels == NV_KERNELS_NESVM ? !nv_params_l1(params)
                                                   : params->kernel_norm == NV_KNORM_RKHS;
}

nesvm_status nv_kplan_precomputed(nv_kplan *kp, const nesvm_params *params, const nesvm_dataset *ds,
                                  const int64_t *rows, int64_t n, const nv_comm *comm, nesvm_error *err)
{
    if (kp->kk.type != NV_KERNEL_PRECOMPUTED) return NESVM_OK;
    /* (each rank would check its own rows' serial numbers and block of K) */
    if (comm)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "a precomputed kernel is not trained distributed (--distributed): its serial numbers and "
                        "its matrix are checked over every row in one process");
    nesvm_status st = nv_pc_check_train(ds, rows, n, NULL, NULL, err);
    if (st != NESVM_OK) return st;
    /* GS-SVM has no certificate; the coefficient norm's problem is convex
     * for any matrix: no check needed */
    if (kp->kind == NV_KPLAN_CACHE || (kp->kind == NV_KPLAN_FEATURES && !features_rkhs(kp, params))) return NESVM_OK;
    /* its n^2 doubles within --kernel-memory, or within what the matrix
     * takes already as data (a dense double matrix: always) */
    const double data_mb = (double)ds->nnz * (ds->prec == NESVM_FLOAT ? 4.0 : 8.0) / 1048576.0;
    int psd = 0;
    st = nv_kernel_pc_psd(ds, rows, n, params->kernel_memory > data_mb ? params->kernel_memory : data_mb,
                          params->threads, &psd, kp->pc_why, sizeof kp->pc_why, err);
    if (st != NESVM_OK) return st;
    kp->pc_psd = psd;
    if (kp->kind == NV_KPLAN_EXPANSION) plan_smo(kp, params);
    return NESVM_OK;
}

nesvm_status nv_kplan_check(const nv_kplan *kp, const nesvm_params *params, nesvm_error *err)
{
    if (kp->kind == NV_KPLAN_EXPANSION &&
        (nesvm_params_task(params) == NESVM_TASK_NOVELTY || nv_params_nu_type(params))) {
        const char *name = nv_svm_type(params->svm_type)->name;
        if (!nv_nesvm_ws_takes(params))
            return nv_error(err, NESVM_ERR_UNSUPPORTED,
                            "the %s is solved exactly by the kernel SMO on a working set: --method auto or dcd, "
                            "without a fixed smoothing (--mu, --mu-star, --continuation paper)",
                            name);
        if (kp->nbasis > 0)
            return nv_error(err, NESVM_ERR_UNSUPPORTED,
                            "the %s trains on the full kernel, not a reduced basis: drop --basis %lld (or give "
                            "--basis 0)",
                            name, (long long)kp->nbasis);
    }
    /* (LP-SVM's L1 norm does not reach a full kernel's expansion with dcd:
     * its kernels go through features, nv_kplan_choose) */
    if (kp->kind == NV_KPLAN_EXPANSION && params->method == NV_METHOD_DCD && !nv_kx_smo_params(params))
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--method dcd on a full kernel solves the C-SVM with the hinge or epsilon-SVR's tube under "
                        "the L2 norm, exact (SMO): not --loss %s, not a fixed smoothing (--mu, --mu-star, "
                        "--continuation paper); use --method newton",
                        nv_params_loss(params)->name);
    if (kp->kind == NV_KPLAN_EXPANSION && params->method == NV_METHOD_CD)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--method cd trains linear models (and kernel features, --basis M) under the L1 norm: not a "
                        "full kernel's expansion; use --method newton");
    if (kp->kind == NV_KPLAN_EXPANSION && nv_params_bias_feature(params))
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "--bias-mode regularized: a full kernel's expansion has a free bias (LIBSVM's rho) or none; "
                        "a regularized bias takes kernel features (--basis M) or a linear model");
    if (!kp->kernel || plan_psd(kp) || kp->kind == NV_KPLAN_CACHE || kp->smo) return NESVM_OK;
    if (kp->kind == NV_KPLAN_FEATURES && !features_rkhs(kp, params)) return NESVM_OK;
    /* the model named by its svm_type (and its loss when --loss chose one) */
    char what[96];
    if (kp->kind != NV_KPLAN_EXPANSION)
        snprintf(what, sizeof what, "a problem on kernel features under the RKHS norm");
    else if (strcmp(params->loss, "auto") != 0)
        snprintf(what, sizeof what, "the %s with the %s loss", nv_svm_type(params->svm_type)->name, params->loss);
    else
        snprintf(what, sizeof what, "the %s", nv_svm_type(params->svm_type)->name);
    if (kp->kk.type == NV_KERNEL_PRECOMPUTED)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "the precomputed kernel matrix is not positive semi-definite (%s): with it, %s is not "
                        "convex and has no certificate; give a positive semi-definite matrix (its values to 17 "
                        "digits: fewer can break it), or keep this one with the C-SVM's full kernel (LIBSVM's "
                        "dual, a stationary point), --solver ssvm or nssvm with --kernel-norm coef, or --solver gs",
                        kp->pc_why, what);
    return nv_error(err, NESVM_ERR_UNSUPPORTED,
                    "the %s kernel%s is not positive semi-definite: with it, %s is not convex and has no "
                    "certificate; use -t rbf or -t poly with -r >= 0, or keep this kernel with the C-SVM's "
                    "full kernel (LIBSVM's dual, a stationary point), --solver ssvm or nssvm with "
                    "--kernel-norm coef, or --solver gs",
                    nv_kernel_names[kp->kk.type], kp->kk.type == NV_KERNEL_POLY ? " with coef0 < 0" : "", what);
}

/* GS-SVM's bias feature B (K + B^2) is refused beyond the rows' largest
 * norm in the kernel's space, sqrt(max K(x,x)) over every rank: each greedy
 * step sets one coefficient alpha ~ 1/(K_ii + B^2) for good, so a larger B
 * leaves the kernel part tiny beside b = B^2 sum alpha_i y_i (at -B 10 on
 * heart_scale the model predicted one class, for every B up to 1e100). */
static nesvm_status gs_bias_check(const nv_kplan *kp, const nesvm_params *params, int64_t n, const nv_comm *comm,
                                  nesvm_error *err)
{
    if (!nv_params_bias(params)) return NESVM_OK;
    double dmax = 0;
    for (int64_t a = 0; a < n; a++) {
        double v = nv_kcache_diag(&kp->kc, a);
        if (v > dmax) dmax = v;
    }
    nesvm_status st = comm ? nv_comm_max(comm, &dmax, 1, err) : NESVM_OK;
    if (st != NESVM_OK || params->bias * params->bias <= dmax) return st;
    return nv_error(err, NESVM_ERR_ARG,
                    "-B %g with --solver gs exceeds the rows' largest norm in the %s kernel's space, "
                    "sqrt(max K(x,x)) = %.6g: GS-SVM sets each coefficient once, so the bias B^2 sum alpha_i y_i "
                    "would outweigh the kernel part (a model that predicts one class); use -B %.6g or less, or "
                    "-B 0 (the paper's GS-SVM has no bias)",
                    params->bias, nv_kernel_names[kp->kk.type], sqrt(dmax), sqrt(dmax));
}

nesvm_status nv_kplan_build(nv_kplan *kp, const nesvm_params *params, const nesvm_dataset *ds,
                            const int64_t *rows, int64_t n, int k, int ovr, const int *row_class,
                            const nv_comm *comm, nesvm_error *err)
{
    nesvm_status st = NESVM_OK;
    switch (kp->kind) {
    case NV_KPLAN_LINEAR:
        return NESVM_OK;
    case NV_KPLAN_CACHE: {
        /* one column cache over all rows, shared by the sub-problems;
         * one-vs-one: column segments per class (kernel.h) */
        int ovo = k > 2 && !ovr;
        st = nv_kcache_init(&kp->kc, &kp->kk, ds, rows, n, ovo ? row_class : NULL, ovo ? k : 1,
                            params->cache_size, params->kernel_memory, params->threads, err);
        if (st != NESVM_OK) return st;
        st = gs_bias_check(kp, params, n, comm, err);
        if (st != NESVM_OK) return st;
        kp->v = nv_malloc_array((size_t)n, sizeof(double));
        kp->capv = nv_malloc_array((size_t)n, sizeof(double));
        if (!kp->v || !kp->capv) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        return NESVM_OK;
    }
    case NV_KPLAN_EXPANSION: {
        const int ovo = k > 2 && !ovr;
        /* the working set's columns: from one matrix over all rows for one-vs-one
         * when it can be stored (every row serves k - 1 pairs, each pair is a
         * fraction of the rows, and a pair's working set is most of them);
         * otherwise from one column cache over all rows (per-class segments
         * for one-vs-one, as GS-SVM's) within kernel_memory */
        if (kp->ws && !(kp->shared_k && ovo)) kp->shared_k = 0;
        if (kp->ws && !kp->shared_k) {
            st = nv_kcache_init(&kp->kc, &kp->kk, ds, rows, n, ovo ? row_class : NULL, ovo ? k : 1,
                                params->kernel_memory, params->kernel_memory, params->threads, err);
            if (st != NESVM_OK) return st;
            kp->kstored = kp->smo ? 4 : 2;
        }
        /* one kernel matrix over all rows when it can be stored, else one per
         * sub-problem (one-vs-one sub-problems are smaller; each is stored or
         * computed on the fly by its own size) */
        if (kp->shared_k) {
            nv_kwatch watch = {params->time_limit > 0 ? nv_now() + params->time_limit : 0, NULL, NULL};
            st = nv_kmat_init(&kp->km, &kp->kk, ds, rows, n, params->kernel_memory, params->threads, &watch, err);
            if (st != NESVM_OK) return st;
            kp->kstored = kp->km.K == NULL ? 0 : kp->ws ? 3 : 1;
        }
        kp->v = nv_malloc_array((size_t)n, sizeof(double));
        kp->krows = nv_malloc_array((size_t)n, sizeof(int64_t));
        if (!kp->v || !kp->krows) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        return NESVM_OK;
    }
    case NV_KPLAN_FEATURES: {
        /* NESVM's penalty is the RKHS norm (transformed features, except
         * LP-SVM's L1 norm on the coefficients); the Newton family's is the
         * RKHS norm too by default, or GSVM/RSVM's ||beta||^2 (kernel_norm coef) */
        int transform = features_rkhs(kp, params);
        /* the Newton family's automatic basis with the RKHS norm: from RSVM's
         * 0.1 n, doubled until the Nystrom residual is at most basis_residual
         * (or the full kernel, or the next size would not fit kernel_memory);
         * the random draws are nested (one permutation's prefixes) */
        const int grow = transform && kp->solver->kernels == NV_KERNELS_RSVM && params->basis < 0;
        /* distributed: this rank's first position and dataset row, and the
         * rows over every rank (the basis sizes follow them) */
        int64_t pos_off = 0, row_off = 0, N = n;
        if (comm) {
            double mine[2] = {(double)n, (double)ds->n}, *all = NULL;
            int64_t tot = 0;
            st = nv_comm_gather(comm, mine, 2, &all, &tot, NULL, err);
            if (st != NESVM_OK) return st;
            N = 0;
            for (int r = 0; r < comm->size; r++) {
                if (r < comm->rank) {
                    pos_off += (int64_t)all[2 * r];
                    row_off += (int64_t)all[2 * r + 1];
                }
                N += (int64_t)all[2 * r];
            }
            nv_free(all);
        }
        int64_t evals = 0;
        for (;;) {
            st = comm ? nv_kfeat_build_dist(&kp->kk, ds, rows, n, pos_off, row_off, N, kp->nbasis, transform,
                                            params->basis_select, params->seed, params->kernel_memory,
                                            params->threads, comm, &kp->kf, err)
                      : nv_kfeat_build(&kp->kk, ds, rows, n, kp->nbasis, transform, params->basis_select,
                                       params->seed, params->kernel_memory, params->threads, &kp->kf, err);
            if (st != NESVM_OK) return st;
            kp->basis_sizes++;
            evals += kp->kf.evals;
            if (!grow || kp->nbasis <= 0 || kp->nbasis >= N) break;
            if (comm) {
                st = nv_kfeat_residual_dist(&kp->kf, ds, rows, n, comm, &kp->basis_residual, err);
                if (st != NESVM_OK) return st;
            } else {
                kp->basis_residual = nv_kfeat_residual(&kp->kf, ds, rows, n);
            }
            kp->residual_known = 1;
            if (kp->basis_residual <= params->basis_residual) break;
            int64_t next = kp->nbasis > N / 2 ? 0 : 2 * kp->nbasis;
            if (next >= N) next = 0;
            /* (distributed: a rank without the memory stops every rank's growth) */
            double nbx = (double)(next > 0 ? next : N); /* distributed: K_BB and this rank's features */
            double over = (comm ? (nbx * nbx + (double)n * nbx) * 8.0
                                : nv_kfeat_bytes(n, next, transform, params->basis_select)) >
                          params->kernel_memory * 1048576.0;
            if (comm && (st = nv_comm_max(comm, &over, 1, err)) != NESVM_OK) return st;
            if (over > 0) {
                kp->basis_capped = 1;
                break;
            }
            nv_kfeat_free(&kp->kf);
            kp->nbasis = next;
            kp->residual_known = 0;
        }
        kp->kf.evals = evals;
        if (!kp->residual_known) {
            if (comm) {
                st = nv_kfeat_residual_dist(&kp->kf, ds, rows, n, comm, &kp->basis_residual, err);
                if (st != NESVM_OK) return st;
            } else {
                kp->basis_residual = nv_kfeat_residual(&kp->kf, ds, rows, n);
            }
        }
        kp->v = nv_malloc_array((size_t)kp->kf.r, sizeof(double));
        if (!kp->v) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        return NESVM_OK;
    }
    }
    return NESVM_OK;
}

int64_t nv_kplan_ncoef(const nv_kplan *kp, const nesvm_dataset *ds, int64_t n)
{
    if ((kp->kind == NV_KPLAN_EXPANSION && kp->kernel) || (kp->kind == NV_KPLAN_CACHE && kp->kernel)) return n;
    if (kp->kind == NV_KPLAN_FEATURES) return kp->kf.r;
    return ds->d;
}

int64_t nv_kplan_sub_ncoef(const nv_kplan *kp, const nesvm_dataset *ds, int64_t n_sub)
{
    if (kp->kind == NV_KPLAN_CACHE || kp->kind == NV_KPLAN_EXPANSION) return n_sub;
    if (kp->kind == NV_KPLAN_FEATURES) return kp->kf.r;
    return ds->d;
}

nesvm_status nv_kplan_basis(const nv_kplan *kp, const nesvm_dataset *ds, const int64_t *rows,
                            nesvm_model *m, nesvm_error *err)
{
    if (kp->kind != NV_KPLAN_FEATURES) return NESVM_OK;
    int64_t *brows = nv_malloc_array((size_t)kp->kf.r, sizeof(int64_t));
    if (!brows) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (kp->kf.bdata) { /* distributed: the gathered rows, every rank's */
        memcpy(brows, kp->kf.brow, (size_t)kp->kf.r * sizeof(int64_t));
        nesvm_status st = nv_dataset_copy_rows(kp->kf.bdata, kp->kf.bpos, kp->kf.r, &m->basis, err);
        m->basis_rows = brows;
        return st;
    }
    for (int64_t a = 0; a < kp->kf.r; a++) brows[a] = rows ? rows[kp->kf.basis[a]] : kp->kf.basis[a];
    for (int64_t a = 0; a < kp->kf.r; a++) NV_ASSERT(brows[a] >= 0 && brows[a] < ds->n); /* training rows */
    nesvm_status st = nv_dataset_copy_rows(ds, brows, kp->kf.r, &m->basis, err);
    m->basis_rows = brows;
    return st;
}

nesvm_status nv_kplan_train(nv_kplan *kp, const nv_solver *solver, const nesvm_dataset *ds,
                            const int64_t *rows, int64_t n, const nv_subproblem *sp,
                            nv_binary_problem *pb, const nesvm_params *prm,
                            const nv_progress_sink *sink, nv_binary_result *res, nv_submodel *sm,
                            nesvm_error *err)
{
    const int64_t cnt = sp->n;
    nesvm_status st = NESVM_OK;
    /* the sub-problem's rows: positions among the n training rows, or data rows (linear) */
    NV_ASSERT(cnt >= 0 && cnt <= n);
    for (int64_t a = 0; a < cnt; a++)
        NV_ASSERT(sp->rows[a] >= 0 && sp->rows[a] < (nv_kplan_positions(kp) ? n : ds->n));
    switch (kp->kind) {
    case NV_KPLAN_CACHE: {
        double B = nv_params_bias(prm) ? prm->bias : 0.0;
        /* every row (binary, one-vs-rest): whole columns in row order */
        int pair[2] = {sp->i, sp->j};
        nv_gs_problem gp = {&kp->kc, cnt == n ? NULL : sp->rows, cnt == n ? NULL : pair, 2, cnt, sp->y, sp->cap,
                            B * B, nv_comm_many(pb->comm) ? pb->comm : NULL};
        st = solver->train_columns(&gp, prm, sink, res, err);
        if (kp->kernel) {
            for (int64_t a = 0; a < cnt; a++) sm->w[sp->rows[a]] = kp->v[a];
        } else {
            /* linear kernel: w = sum_a beta_a x_a (distributed: over every rank's rows) */
            memset(sm->w, 0, (size_t)ds->d * sizeof(double));
            for (int64_t a = 0; a < cnt; a++)
                if (kp->v[a] != 0) nv_row_axpy(ds, rows ? rows[sp->rows[a]] : sp->rows[a], kp->v[a], sm->w);
            if (st == NESVM_OK && gp.comm) st = nv_comm_sum(gp.comm, sm->w, ds->d, err);
        }
        return st;
    }
    case NV_KPLAN_EXPANSION: {
        int pair[2] = {sp->i, sp->j};
        nv_kernel_problem kpb = {&kp->km, sp->rows, cnt, sp->y, sp->cost, pb->w0, pb->b0,
                                 NULL, NULL, 0, 0, pb->target, NULL, 0, 0, NULL, NULL};
        nv_kmat own;
        memset(&own, 0, sizeof own);
        kpb.ws = kp->ws;
        if (kp->ws && !kp->shared_k) {
            kpb.K = NULL;
            kpb.kc = &kp->kc;
            kpb.pos = cnt == n ? NULL : sp->rows;
            kpb.groups = cnt == n ? NULL : pair;
            kpb.ngroups = cnt == n ? 0 : 2;
        } else if (!kp->shared_k) {
            for (int64_t a = 0; a < cnt; a++) kp->krows[a] = rows ? rows[sp->rows[a]] : sp->rows[a];
            nv_kwatch watch = {prm->time_limit > 0 ? nv_now() + prm->time_limit : 0, NULL, NULL};
            st = nv_kmat_init(&own, &kp->kk, ds, kp->krows, cnt, prm->kernel_memory, prm->threads, &watch, err);
            kpb.K = &own;
            kpb.pos = NULL;
            if (st == NESVM_OK && kp->kstored != 0) kp->kstored = own.K != NULL;
            if (st == NESVM_ERR_CANCELLED && watch.deadline > 0 && nv_now() >= watch.deadline) {
                /* the time limit ran out in the matrix: a zero model */
                memset(kp->v, 0, (size_t)cnt * sizeof(double));
                res->b = 0;
                res->exit_reason = NESVM_EXIT_TIME_LIMIT;
                res->primal = res->lower_bound = res->gap = NAN;
                for (int64_t a = 0; a < cnt; a++) sm->w[sp->rows[a]] = 0;
                return NESVM_OK;
            }
        }
        if (st == NESVM_OK) st = kp->smo ? nv_smo_train(&kpb, prm, sink, res, err)
                                         : solver->train_expansion(&kpb, prm, sink, res, err);
        if (!kp->shared_k) kp->kevals += own.evals + res->kernel_evals;
        nv_kmat_free(&own);
        if (!kp->kernel) { /* the one-class SVM's linear kernel: w = sum_a beta_a x_a */
            memset(sm->w, 0, (size_t)ds->d * sizeof(double));
            for (int64_t a = 0; a < cnt; a++)
                if (kp->v[a] != 0) nv_row_axpy(ds, rows ? rows[sp->rows[a]] : sp->rows[a], kp->v[a], sm->w);
            return st;
        }
        for (int64_t a = 0; a < cnt; a++) sm->w[sp->rows[a]] = kp->v[a];
        return st;
    }
    case NV_KPLAN_FEATURES:
        st = solver->train_binary(pb, prm, sink, res, err);
        nv_kfeat_coef(&kp->kf, kp->v, sm->w);
        return st;
    case NV_KPLAN_LINEAR:
        return solver->train_binary(pb, prm, sink, res, err);
    }
    return st;
}

void nv_kplan_stats(const nv_kplan *kp, nesvm_stats *stats)
{
    if (kp->kind == NV_KPLAN_LINEAR) return;
    stats->kernel_evals = kp->kind == NV_KPLAN_CACHE       ? kp->kc.evals
                          : kp->kind == NV_KPLAN_EXPANSION ? kp->kevals + kp->km.evals + kp->kc.evals
                                                           : kp->kf.evals;
    stats->kernel_matrix = kp->kstored;
    if (kp->kk.type == NV_KERNEL_PRECOMPUTED && kp->pc_psd >= 0) {
        stats->kernel_psd = kp->pc_psd;
        snprintf(stats->kernel_note, sizeof stats->kernel_note, "%s", kp->pc_why);
    }
    stats->kernel_columns = kp->kc.misses;
    stats->cache_hits = kp->kc.hits;
    stats->kernel_asked = kp->kc.asked;
    if (kp->kind == NV_KPLAN_FEATURES) {
        stats->basis = kp->kf.r;
        stats->basis_residual = kp->kf.U ? kp->basis_residual : NAN;
        stats->basis_sizes = kp->basis_sizes;
        stats->basis_capped = kp->basis_capped;
    }
}

void nv_kplan_free(nv_kplan *kp)
{
    nv_kfeat_free(&kp->kf);
    nv_kmat_free(&kp->km);
    nv_kcache_free(&kp->kc);
    nv_free(kp->v);
    nv_free(kp->capv);
    nv_free(kp->krows);
    memset(kp, 0, sizeof *kp);
}
