/*
 * train.c - the training driver: classes and their rows, the solver's
 * defaults, the kernel path, the binary sub-problems (binary, one-vs-one,
 * one-vs-rest) with their costs and warm starts, statistics and the model.
 *
 * Class order is the order of first appearance in the training data (as in
 * LIBSVM); for two classes the first label seen is the positive class.
 * One-vs-one trains k(k-1)/2 machines, class i (+1) against class j (-1) for
 * i < j; one-vs-rest trains k machines, class i (+1) against all others.
 */
#include "model_internal.h"
#include "train_ckpt.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

nesvm_status nv_label_classes(const double *labels, const int64_t *rows, int64_t n,
                              double **classes, int *nr_class, int *row_class, nesvm_error *err)
{
    *classes = NULL;
    *nr_class = 0;
    double *sorted = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    if (!sorted) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    for (int64_t i = 0; i < n; i++) sorted[i] = labels[rows ? rows[i] : i];
    qsort(sorted, (size_t)n, sizeof(double), cmp_double);
    int64_t u = 0;
    for (int64_t i = 0; i < n; i++)
        if (u == 0 || sorted[i] != sorted[u - 1]) sorted[u++] = sorted[i];
    if (u > NV_MAX_CLASSES) {
        nv_free(sorted);
        return nv_error(err, NESVM_ERR_DATA,
                        "%lld distinct labels in %lld rows: more than %d classes (are the labels "
                        "regression targets?)",
                        (long long)u, (long long)n, NV_MAX_CLASSES);
    }
    /* first-appearance order */
    int *order = nv_malloc_array((size_t)(u ? u : 1), sizeof(int));
    double *cls = nv_malloc_array((size_t)(u ? u : 1), sizeof(double));
    if (!order || !cls) {
        nv_free(sorted);
        nv_free(order);
        nv_free(cls);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    }
    for (int64_t j = 0; j < u; j++) order[j] = -1;
    int k = 0;
    for (int64_t i = 0; i < n; i++) {
        double l = labels[rows ? rows[i] : i];
        double *hit = bsearch(&l, sorted, (size_t)u, sizeof(double), cmp_double);
        int64_t j = hit - sorted;
        if (order[j] < 0) {
            order[j] = k;
            cls[k++] = l;
        }
        if (row_class) row_class[i] = order[j];
    }
    nv_free(sorted);
    nv_free(order);
    *classes = cls;
    *nr_class = k;
    return NESVM_OK;
}

/* Warm start: the starting point of the sub-model separating classes[i]
 * (+1) from classes[j] (-1; j < 0: the rest) taken from init's matching
 * sub-model, negated when init has the pair the other way round.  Returns 0
 * if init has no such sub-model. */
static int warm_point(const nesvm_model *init, const double *classes, int i, int j, int32_t d,
                      double *w0, double *b0)
{
    int ii = -1, jj = -1;
    for (int c = 0; c < init->nr_class; c++) {
        if (init->labels[c] == classes[i]) ii = c;
        if (j >= 0 && init->labels[c] == classes[j]) jj = c;
    }
    if (ii < 0 || (j >= 0 && jj < 0)) return 0;
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

/* A full-kernel model trained on its expansion (one coefficient per training
 * row, stride n in wbuf): keep the rows where some sub-model has a non-zero
 * coefficient (at least one), and copy them as the basis. */
static nesvm_status compact_expansion(nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows,
                                      int64_t n, nesvm_error *err)
{
    int64_t *keep = nv_malloc_array((size_t)(n ? n : 1), sizeof(int64_t));
    if (!keep) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    int64_t kept = 0;
    for (int64_t p = 0; p < n; p++) {
        int any = 0;
        for (int s = 0; s < m->nsub && !any; s++) any = m->wbuf[(size_t)s * (size_t)n + (size_t)p] != 0;
        if (any) keep[kept++] = p;
    }
    if (kept == 0) keep[kept++] = 0; /* an all-zero expansion still has a basis */
    /* in place: the destination never passes the source */
    for (int s = 0; s < m->nsub; s++) {
        for (int64_t j = 0; j < kept; j++)
            m->wbuf[(size_t)s * (size_t)kept + (size_t)j] = m->wbuf[(size_t)s * (size_t)n + (size_t)keep[j]];
        m->sub[s].w = m->wbuf + (size_t)s * (size_t)kept;
    }
    m->ncoef = kept;
    for (int64_t j = 0; j < kept; j++) keep[j] = rows ? rows[keep[j]] : keep[j];
    nesvm_status st = nv_dataset_copy_rows(ds, keep, kept, &m->basis, err);
    nv_free(keep);
    return st;
}

/* No model with a non-finite number leaves training: name the sub-model and
 * the options that differ from their defaults (the likely cause). */
static nesvm_status check_finite(const nesvm_model *m, const nesvm_params *p, nesvm_error *err)
{
    int s = nv_model_first_nonfinite(m);
    if (s < 0) return NESVM_OK;
    static const char *const names[] = {"c", "bias", "lambda", "gamma", "coef0", "degree", "mu",
                                        "nu", "mu0", "nu0", "mu_star", "smooth_p", "cap", NULL};
    nesvm_params *def = NULL;
    char opts[400] = "", a[48], b[48];
    size_t len = 0;
    if (nesvm_params_create(&def, NULL) == NESVM_OK) {
        for (int i = 0; names[i]; i++) {
            if (nesvm_params_get(p, names[i], a, sizeof a, NULL) != NESVM_OK ||
                nesvm_params_get(def, names[i], b, sizeof b, NULL) != NESVM_OK || strcmp(a, b) == 0)
                continue;
            int w = snprintf(opts + len, sizeof opts - len, "%s%s %s", len ? ", " : "", names[i], a);
            if (w < 0 || (size_t)w >= sizeof opts - len) break;
            len += (size_t)w;
        }
        nesvm_params_destroy(def);
    }
    for (int c = 0; c < p->n_weights && len + 40 < sizeof opts; c++) {
        nv_format_double(p->weight_label[c], a);
        nv_format_double(p->weight[c], b);
        len += (size_t)snprintf(opts + len, sizeof opts - len, "%sweight of class %s %s", len ? ", " : "",
                                a, b);
    }
    return nv_error(err, NESVM_ERR_NUMERIC,
                    "training produced a non-finite %s in binary model %d: the problem is degenerate "
                    "for these option values (%s)",
                    isfinite(m->sub[s].b) ? "weight" : "bias", s, len ? opts : "all defaults");
}

/* Refuse, before any work, trainings whose size does not follow the data:
 * classes that look like regression targets, one-vs-one sub-models beyond
 * memory, and dense weights over a feature range the data barely use. */
static nesvm_status check_sizes(const nesvm_dataset *ds, int64_t n, int k, int64_t nsub, int ovr,
                                int kernel, nesvm_error *err)
{
    if (k > 1000 && (int64_t)k * 2 > n)
        return nv_error(err, NESVM_ERR_DATA,
                        "%d classes in %lld rows: most classes have a single row, so no classifier "
                        "can learn them (are the labels regression targets?)",
                        k, (long long)n);
    const double phys = nv_physical_memory();
    const double mb = 1048576.0;
    if (!kernel) {
        /* a linear solver keeps several dense vectors of d weights */
        const double vec = 8.0 * (double)ds->d;
        const double data = 12.0 * (double)ds->nnz + 16.0 * (double)ds->n;
        if (vec > 256 * mb && vec > 64 * data)
            return nv_error(err, NESVM_ERR_DATA,
                            "the largest feature index is %d but the data hold only %lld values: "
                            "every dense weight vector over %d features needs %.0f MB and a solver "
                            "keeps several; renumber the features to the ones used",
                            ds->d, (long long)ds->nnz, ds->d, vec / mb);
    }
    if (nsub > INT32_MAX)
        return nv_error(err, NESVM_ERR_DATA, "%d classes need %lld one-vs-one models: too many; use "
                        "--multiclass ovr", k, (long long)nsub);
    const double coef = kernel ? (double)n : (double)ds->d;
    const double need = (double)nsub * (coef + 1) * 8.0;
    if (phys > 0 && need > phys)
        return nv_error(err, NESVM_ERR_DATA,
                        "%d classes need %lld %s models of %.0f coefficients each: %.1f GB, more "
                        "than this machine's %.1f GB%s",
                        k, (long long)nsub, ovr ? "one-vs-rest" : "one-vs-one", coef, need / (1024 * mb),
                        phys / (1024 * mb), ovr ? "" : "; --multiclass ovr needs k models");
    return NESVM_OK;
}

nesvm_status nv_train_rows(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                           const nesvm_params *params, const nesvm_model *init,
                           const nesvm_checkpoint_options *ckopt, nesvm_progress_fn progress,
                           void *user, nesvm_model **out, nesvm_stats *stats, nesvm_error *err)
{
    double t0 = nv_now();
    nesvm_params *defaults = NULL;
    if (!params) {
        nesvm_status st = nesvm_params_create(&defaults, err);
        if (st != NESVM_OK) return st;
        params = defaults;
    }
    const nv_solver *solver = nv_solver_find(params->solver);
    nesvm_model *m = NULL;
    double *classes = NULL;
    int *row_class = NULL;
    int64_t *sub_rows = NULL;
    double *y = NULL, *cost = NULL, *w0 = NULL, *v = NULL;
    nv_kfeat kf;
    memset(&kf, 0, sizeof kf);
    nv_kmat km;
    memset(&km, 0, sizeof km);
    int64_t *krows = NULL;
    double *capv = NULL;
    nv_kcache kc;
    memset(&kc, 0, sizeof kc);
    nv_ckctx ck;
    memset(&ck, 0, sizeof ck);
    nesvm_params *rparams = NULL;
    const int kernel = params->kernel != NV_KERNEL_LINEAR;
    const int gs = solver && solver->kernels == NV_KERNELS_GS;
    /* GS-SVM works on expansion coefficients for every kernel; with the
     * linear kernel they are folded into a weight vector at the end */
    const int expand = kernel || gs;
    /* a full kernel is solved on its expansion coefficients with K as an
     * operator (stored or on the fly); a reduced basis and LP-SVM with the
     * Nesterov method go through kernel features (kernel.h) */
    const int64_t nbasis = nv_params_basis(params, n);
    const int beta_space = kernel && solver && solver->kernels == NV_KERNELS_NESVM &&
                           (nbasis <= 0 || nbasis >= n) &&
                           (params->svm_type != NV_SVM_LP || params->method == NV_METHOD_NEWTON);
    nesvm_status st = NESVM_OK;
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->lower_bound = 0;
        stats->gap = 0;
        stats->kernel_matrix = -1;
    }
    if (!solver) {
        st = nv_error(err, NESVM_ERR_ARG, "unknown solver '%s'", params->solver);
        goto done;
    }
    if (kernel && solver->kernels == NV_KERNELS_NONE) {
        st = nv_error(err, NESVM_ERR_UNSUPPORTED,
                      "solver %s trains linear models only (kernel %s): use --solver nesvm, ssvm or "
                      "nssvm for kernels",
                      solver->name, nv_kernel_names[params->kernel]);
        goto done;
    }
    if (n == 0) {
        st = nv_error(err, NESVM_ERR_DATA, "no training data");
        goto done;
    }
    row_class = nv_malloc_array((size_t)n, sizeof(int));
    if (!row_class) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    int k;
    st = nv_label_classes(ds->labels, rows, n, &classes, &k, row_class, err);
    if (st != NESVM_OK) goto done;
    if (k < 2) {
        char lb[32];
        nv_format_double(classes[0], lb);
        st = nv_error(err, NESVM_ERR_DATA,
                      "only one class (label %s) in the training data: a classifier needs at least two",
                      lb);
        goto done;
    }
    int ovr = params->multiclass == NV_OVR && k > 2;
    /* 64-bit: k (k - 1) / 2 overflows int from k = 46,342 */
    const int64_t nsub64 = k == 2 ? 1 : (ovr ? k : (int64_t)k * (k - 1) / 2);
    st = check_sizes(ds, n, k, nsub64, ovr, kernel, err);
    if (st != NESVM_OK) goto done;
    const int nsub = (int)nsub64;
    if (init && (kernel || init->basis)) {
        st = nv_error(err, NESVM_ERR_UNSUPPORTED, "warm starts are for linear models (kernel %s)",
                      nv_kernel_names[kernel ? params->kernel : init->params->kernel]);
        goto done;
    }
    nv_kernel kk = {params->kernel, params->gamma > 0 ? params->gamma : 1.0 / (ds->d > 0 ? ds->d : 1),
                    params->coef0, params->degree};
    /* one kernel matrix over all rows when it can be stored, else one per
     * sub-problem (one-vs-one sub-problems are smaller; each is stored or
     * computed on the fly by its own size) */
    const int shared_k = beta_space && (double)n * (double)n * sizeof(float) <= params->kernel_memory * 1048576.0;
    int kstored = -1;
    int64_t kevals = 0;
    if (gs) {
        /* one column cache over all rows, shared by the sub-problems */
        /* one-vs-one: column segments per class (kernel.h) */
        int ovo = k > 2 && !ovr;
        st = nv_kcache_init(&kc, &kk, ds, rows, n, ovo ? row_class : NULL, ovo ? k : 1, params->cache_size,
                            params->kernel_memory, params->threads, err);
        if (st != NESVM_OK) goto done;
        v = nv_malloc_array((size_t)n, sizeof(double));
        capv = nv_malloc_array((size_t)n, sizeof(double));
        if (!v || !capv) {
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
            goto done;
        }
    } else if (beta_space) {
        if (shared_k) {
            st = nv_kmat_init(&km, &kk, ds, rows, n, params->kernel_memory, params->threads, err);
            if (st != NESVM_OK) goto done;
            kstored = km.K != NULL;
        }
        v = nv_malloc_array((size_t)n, sizeof(double));
        krows = nv_malloc_array((size_t)n, sizeof(int64_t));
        if (!v || !krows) {
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
            goto done;
        }
    } else if (kernel) {
        /* the kernel problem becomes a linear one on kernel features */
        /* NESVM's penalty is the RKHS norm (transformed features, except LP-SVM's
         * L1 norm on the coefficients); GSVM/RSVM's is ||beta||^2 (plain) */
        int transform = solver->kernels == NV_KERNELS_NESVM && params->svm_type != NV_SVM_LP;
        st = nv_kfeat_build(&kk, ds, rows, n, nbasis, transform, params->basis_select, params->seed,
                            params->kernel_memory, params->threads, &kf, err);
        if (st != NESVM_OK) goto done;
        v = nv_malloc_array((size_t)kf.r, sizeof(double));
        if (!v) {
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
            goto done;
        }
    }
    if (init) {
        int same = init->nr_class == k && (k == 2 || (init->params->multiclass == NV_OVR) == ovr);
        for (int c = 0; same && c < k; c++) {
            int hit = 0;
            for (int e = 0; e < k; e++) hit |= init->labels[e] == classes[c];
            same = hit;
        }
        if (!same) {
            st = nv_error(err, NESVM_ERR_ARG,
                          "the warm-start model does not fit this training: it has %d classes (%s), "
                          "the data %d (%s), and the class labels must be the same",
                          init->nr_class, init->params->multiclass == NV_OVR ? "ovr" : "ovo", k,
                          ovr ? "ovr" : "ovo");
            goto done;
        }
        w0 = nv_malloc_array((size_t)(ds->d ? ds->d : 1), sizeof(double));
        if (!w0) {
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
            goto done;
        }
    }
    st = nv_model_alloc(k, nsub, ds->d, beta_space || (gs && kernel) ? n : kernel ? kf.r : ds->d, &m, err);
    if (st != NESVM_OK) goto done;
    memcpy(m->labels, classes, (size_t)k * sizeof(double));
    nesvm_params_destroy(m->params);
    m->params = NULL;
    st = nesvm_params_copy(params, &m->params, err);
    if (st != NESVM_OK) goto done;
    nv_params_resolve(m->params);
    if (kernel) m->params->gamma = kk.gamma; /* resolved */
    m->params->basis = nbasis;
    if (kernel && !beta_space && !gs) {
        int64_t *brows = nv_malloc_array((size_t)kf.r, sizeof(int64_t));
        if (!brows) {
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
            goto done;
        }
        for (int64_t a = 0; a < kf.r; a++) brows[a] = rows ? rows[kf.basis[a]] : kf.basis[a];
        st = nv_dataset_copy_rows(ds, brows, kf.r, &m->basis, err);
        nv_free(brows);
        if (st != NESVM_OK) goto done;
    }
    const char *problem = nv_solver_problem(solver, params);
    if (!problem) {
        st = nv_error(err, NESVM_ERR_UNSUPPORTED, "solver %s has no %s model", solver->name,
                      params->svm_type == NV_SVM_LP ? "LP-SVM" : params->svm_type == NV_SVM_LS ? "LS-SVM" : "C-SVM");
        goto done;
    }
    snprintf(m->problem, sizeof m->problem, "%s", problem);
    if (k == 2) m->params->multiclass = NV_OVO;
    else m->params->multiclass = ovr ? NV_OVR : NV_OVO;

    sub_rows = nv_malloc_array((size_t)n, sizeof(int64_t));
    y = nv_malloc_array((size_t)n, sizeof(double));
    cost = nv_malloc_array((size_t)n, sizeof(double));
    if (!sub_rows || !y || !cost) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    double *cw = nv_malloc_array((size_t)k, sizeof(double));
    if (!cw) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    /* with lambda, C = 1/(lambda n) for each binary problem of n rows (below) */
    for (int c = 0; c < k; c++) {
        cw[c] = (params->lambda > 0 ? 1.0 : params->c) * nv_params_class_weight(params, classes[c]);
        if (params->lambda > 0) continue; /* checked per binary problem below */
        if (!(cw[c] >= 1e-100 && cw[c] <= 1e100)) {
            char lb[32], cb[32], wb[32];
            nv_format_double(classes[c], lb);
            nv_format_double(params->c, cb);
            nv_format_double(nv_params_class_weight(params, classes[c]), wb);
            st = nv_error(err, NESVM_ERR_ARG,
                          "the cost of class %s, C x weight = %s x %s (-c and -w%s), is outside "
                          "[1e-100, 1e100], where the objective over- or underflows",
                          lb, cb, wb, lb);
            nv_free(cw);
            goto done;
        }
    }

    if (stats) {
        stats->n_submodels = nsub;
        stats->exit_reason = NESVM_EXIT_CONVERGED;
    }
    if (ckopt && (ckopt->save_path || ckopt->resume_path)) {
        st = nv_ckctx_begin(&ck, ckopt, ds, rows, n, m, solver, err);
        if (st != NESVM_OK) {
            nv_free(cw);
            goto done;
        }
    }
    int s = 0;
    for (int i = 0; i < k && st == NESVM_OK; i++) {
        for (int j = ovr ? -1 : i + 1; j < (ovr ? 0 : k) && st == NESVM_OK; j++) {
            if (k == 2 && s == 1) break;
            int64_t cnt = 0;
            for (int64_t r = 0; r < n; r++) {
                int c = row_class[r];
                if (ovr || c == i || c == j) {
                    /* kernel features are indexed by position in rows */
                    sub_rows[cnt] = expand ? r : (rows ? rows[r] : r);
                    if (capv)
                        capv[cnt] = params->cap > 0 ? params->cap * nv_params_class_weight(params, classes[c])
                                                    : INFINITY;
                    y[cnt] = c == i ? 1.0 : -1.0;
                    cost[cnt] = cw[c];
                    cnt++;
                }
            }
            if (params->lambda > 0) {
                int bad = 0;
                for (int64_t a = 0; a < cnt; a++) {
                    cost[a] /= params->lambda * (double)cnt;
                    bad |= !(cost[a] >= 1e-100 && cost[a] <= 1e100);
                }
                if (bad) {
                    char lb[32];
                    nv_format_double(params->lambda, lb);
                    st = nv_error(err, NESVM_ERR_ARG,
                                  "lambda %s gives costs 1/(lambda n) x weight outside [1e-100, 1e100] "
                                  "for a binary problem of %lld rows (--lambda, -w)", lb, (long long)cnt);
                    break;
                }
            }
            nv_submodel *sm = &m->sub[s];
            sm->pos = i;
            sm->neg = ovr ? -1 : j;
            nv_binary_problem pb = {kernel ? kf.X : ds, sub_rows, cnt, y, cost, NULL, 0.0};
            if (init && warm_point(init, classes, i, ovr ? -1 : j, ds->d, w0, &pb.b0)) pb.w0 = w0;
            nv_binary_result res;
            memset(&res, 0, sizeof res);
            int trained = 0; /* 0: restored from a checkpoint */
            res.w = expand ? v : sm->w;
            nv_progress_sink sink = {progress, user, s, nsub, NULL, NULL, NULL};
            const nesvm_params *sp = m->params; /* this sub-model's parameters */
            int64_t offset = 0;                 /* iterations done before a resume */
            const nv_snapshot *rs = NULL;
            if (ck.opt) {
                sink.ckpt = nv_ckctx_hook;
                sink.ckpt_ctx = &ck;
                ck.done = s;
                ck.iter_offset = 0;
                if (ck.resumed && s < ck.file.done) { /* finished before the interruption */
                    nv_ckctx_restore(&ck, s, sm, &res);
                    goto finished;
                }
                if (ck.resumed && s == ck.file.cur) {
                    rs = &ck.file.snap;
                    const int64_t want = gs || beta_space ? cnt : kernel ? kf.r : ds->d;
                    if (rs->nw != want) {
                        st = nv_error(err, NESVM_ERR_ARG,
                                      "checkpoint '%s': sub-model %d holds %lld coefficients where this "
                                      "training has %lld",
                                      ckopt->resume_path, s, (long long)rs->nw, (long long)want);
                        break;
                    }
                    sink.resume = rs;
                    pb.w0 = rs->w;
                    pb.b0 = rs->b;
                    if (!gs) { /* GS-SVM counts its steps itself */
                        offset = rs->iteration;
                        ck.iter_offset = offset;
                        st = nesvm_params_copy(m->params, &rparams, err);
                        if (st != NESVM_OK) break;
                        rparams->max_iter = m->params->max_iter > offset ? m->params->max_iter - offset : 1;
                        sp = rparams;
                    }
                }
            }
            if (gs) {
                double B = nv_params_bias(m->params) ? m->params->bias : 0.0;
                /* every row (binary, one-vs-rest): whole columns in row order */
                int pair[2] = {i, j};
                nv_gs_problem gp = {&kc, cnt == n ? NULL : sub_rows, cnt == n ? NULL : pair, 2, cnt, y, capv, B * B};
                st = nv_gs_train(&gp, sp, &sink, &res, err);
                if (kernel) {
                    for (int64_t a = 0; a < cnt; a++) sm->w[sub_rows[a]] = v[a];
                } else {
                    /* linear kernel: w = sum_a beta_a x_a */
                    memset(sm->w, 0, (size_t)ds->d * sizeof(double));
                    for (int64_t a = 0; a < cnt; a++)
                        if (v[a] != 0)
                            nv_row_axpy(ds, rows ? rows[sub_rows[a]] : sub_rows[a], v[a], sm->w);
                }
            } else if (beta_space) {
                nv_kernel_problem kp = {&km, sub_rows, cnt, y, cost, rs ? rs->w : NULL, rs ? rs->b : 0.0};
                nv_kmat own;
                memset(&own, 0, sizeof own);
                if (!shared_k) {
                    for (int64_t a = 0; a < cnt; a++) krows[a] = rows ? rows[sub_rows[a]] : sub_rows[a];
                    st = nv_kmat_init(&own, &kk, ds, krows, cnt, params->kernel_memory, params->threads, err);
                    kp.K = &own;
                    kp.pos = NULL;
                    if (st == NESVM_OK && kstored != 0) kstored = own.K != NULL;
                }
                if (st == NESVM_OK) st = nv_nesvm_kernel_train(&kp, sp, &sink, &res, err);
                if (!shared_k) kevals += own.evals;
                nv_kmat_free(&own);
                for (int64_t a = 0; a < cnt; a++) sm->w[sub_rows[a]] = v[a];
            } else {
                st = solver->train_binary(&pb, sp, &sink, &res, err);
                if (kernel) nv_kfeat_coef(&kf, v, sm->w);
            }
            if (ck.st != NESVM_OK) /* a checkpoint could not be written: that stopped it */
                st = nv_error(err, ck.st, "%s", ck.msg);
            nesvm_params_destroy(rparams);
            rparams = NULL;
            res.iterations += offset;
            trained = 1;
        finished:
            sm->b = res.b;
            sm->exit_reason = res.exit_reason;
            sm->iterations = res.iterations;
            sm->primal = res.primal;
            sm->gap = res.gap;
            /* after sm is complete: a checkpoint written now records this sub-model */
            if (trained && st == NESVM_OK && ck.opt) nv_ckctx_finished(&ck, s, &res);
            if (stats) {
                stats->iterations += res.iterations;
                stats->primal += res.primal;
                stats->lower_bound += res.lower_bound;
                if (!(res.gap <= stats->gap)) stats->gap = res.gap;
                if (res.exit_reason > stats->exit_reason) stats->exit_reason = res.exit_reason;
                stats->n_sv += res.n_sv;
                stats->dots += res.dots;
                stats->row_updates += res.axpys;
            }
            s++;
        }
        if (k == 2) break;
    }
    nv_free(cw);
    if ((beta_space || (gs && kernel)) && st == NESVM_OK) st = compact_expansion(m, ds, rows, n, err);
    if (st == NESVM_OK) st = check_finite(m, params, err);
    if (stats && expand) {
        stats->kernel_evals = gs ? kc.evals : beta_space ? kevals + km.evals : kf.evals;
        stats->kernel_matrix = kstored;
        stats->kernel_columns = kc.misses;
        stats->cache_hits = kc.hits;
        stats->kernel_asked = kc.asked;
    }
done:
    if (stats) stats->seconds = nv_now() - t0;
    nv_ckctx_end(&ck);
    nesvm_params_destroy(rparams);
    nv_free(classes);
    nv_free(row_class);
    nv_free(sub_rows);
    nv_free(y);
    nv_free(cost);
    nv_free(w0);
    nv_free(v);
    nv_kfeat_free(&kf);
    nv_kmat_free(&km);
    nv_free(krows);
    nv_free(capv);
    nv_kcache_free(&kc);
    nesvm_params_destroy(defaults);
    if (st != NESVM_OK) {
        nesvm_model_destroy(m);
        m = NULL;
    }
    *out = m;
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
    /* the first version's fields end with kernel_asked */
    const size_t v1 = offsetof(nesvm_stats, kernel_asked) + sizeof(int64_t);
    if (stats && stats->size < v1)
        return nv_error(err, NESVM_ERR_ARG,
                        "nesvm_stats.size is %zu: set it to sizeof(nesvm_stats) (NESVM_STATS_INIT)",
                        stats->size);
    nesvm_stats full;
    nesvm_status st = nv_train_rows(ds, NULL, ds->n, params, init, ck, progress, user, out,
                                    stats ? &full : NULL, err);
    if (stats) {
        const size_t want = stats->size;
        full.size = want;
        memcpy(stats, &full, want < sizeof full ? want : sizeof full);
    }
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
