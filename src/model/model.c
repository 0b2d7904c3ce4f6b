/*
 * model.c - training driver (binary, one-vs-one, one-vs-rest), prediction
 * and accessors.
 *
 * Class order is the order of first appearance in the training data (as in
 * LIBSVM); for two classes the first label seen is the positive class.
 * One-vs-one trains k(k-1)/2 machines, class i (+1) against class j (-1) for
 * i < j, and predicts by votes (ties go to the lower class index).
 * One-vs-rest trains k machines, class i (+1) against all others, and
 * predicts the class with the largest decision value.
 */
#include "model_internal.h"
#include "checkpoint.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

int nv_model_first_nonfinite(const nesvm_model *m)
{
    for (int s = 0; s < m->nsub; s++) {
        if (!isfinite(m->sub[s].b)) return s;
        for (int64_t j = 0; j < m->ncoef; j++)
            if (!isfinite(m->sub[s].w[j])) return s;
    }
    return -1;
}

nesvm_status nv_model_alloc(int nr_class, int nsub, int32_t d, int64_t ncoef, nesvm_model **out,
                            nesvm_error *err)
{
    *out = NULL;
    nesvm_model *m = nv_calloc(1, sizeof *m);
    if (!m) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for model");
    m->nr_class = nr_class;
    m->nsub = nsub;
    m->d = d;
    m->ncoef = ncoef;
    m->labels = nv_calloc((size_t)nr_class, sizeof(double));
    m->sub = nv_calloc((size_t)nsub, sizeof(nv_submodel));
    if (ncoef > 0 && (size_t)nsub > SIZE_MAX / sizeof(double) / (size_t)ncoef) m->wbuf = NULL;
    else m->wbuf = nv_calloc((size_t)nsub * (size_t)ncoef + 1, sizeof(double));
    nesvm_status st = nesvm_params_create(&m->params, err);
    if (!m->labels || !m->sub || !m->wbuf || st != NESVM_OK) {
        nesvm_model_destroy(m);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for model (%d sub-models x %lld coefficients)",
                        nsub, (long long)ncoef);
    }
    for (int k = 0; k < nsub; k++) m->sub[k].w = m->wbuf + (size_t)k * (size_t)ncoef;
    *out = m;
    return NESVM_OK;
}

void nesvm_model_destroy(nesvm_model *m)
{
    if (!m) return;
    nesvm_params_destroy(m->params);
    nv_free(m->labels);
    nv_free(m->sub);
    nv_free(m->wbuf);
    nesvm_dataset_destroy(m->basis);
    nv_free(m);
}

nv_kernel nv_model_kernel(const nesvm_model *m)
{
    nv_kernel k = {m->params->kernel, m->params->gamma, m->params->coef0, m->params->degree};
    return k;
}

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

/* ---- checkpoints (nesvm_train_resumable; checkpoint.c has the file) */
typedef struct nv_ckctx {
    const nesvm_checkpoint_options *opt;
    nv_ckpt_head head;
    double *lower;        /* per sub-model: lower bound and support vectors */
    int64_t *nsv;
    const nesvm_model *m;
    int done;             /* sub-models finished */
    int64_t iter_offset;  /* iterations of the current sub-model before a resume */
    double last;          /* time of the last write */
    nesvm_status st;      /* a failed write, with its message */
    char msg[NESVM_ERROR_MESSAGE_SIZE];
    int resumed;
    nv_ckpt_file file;
} nv_ckctx;

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
static int ckpt_hook(void *ctx, const nv_snapshot *snap, int stopping)
{
    nv_ckctx *c = ctx;
    if (!c->opt->save_path || c->st != NESVM_OK) return c->st != NESVM_OK;
    if (!stopping && !(c->opt->every > 0 && nv_now() - c->last >= c->opt->every)) return 0;
    return ckpt_write(c, snap);
}

static nesvm_status ckpt_begin(nv_ckctx *c, const nesvm_checkpoint_options *opt, const nesvm_dataset *ds,
                               const int64_t *rows, int64_t n, const nesvm_model *m, const nv_solver *solver,
                               nesvm_error *err)
{
    c->opt = opt;
    c->m = m;
    c->last = nv_now();
    c->head = (nv_ckpt_head){n, ds->d, nv_ckpt_data_hash(ds, rows, n), nv_ckpt_params_hash(m->params),
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
static void ckpt_restore(nv_ckctx *c, int s, nv_submodel *sm, nv_binary_result *res)
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
static void ckpt_finished(nv_ckctx *c, int s, const nv_binary_result *res)
{
    c->lower[s] = res->lower_bound;
    c->nsv[s] = res->n_sv;
    c->done = s + 1;
    c->iter_offset = 0;
    if (c->opt->save_path && c->st == NESVM_OK && c->opt->every > 0 && nv_now() - c->last >= c->opt->every)
        ckpt_write(c, NULL);
}

static void ckpt_end(nv_ckctx *c)
{
    nv_free(c->lower);
    nv_free(c->nsv);
    nv_ckpt_free(&c->file);
    memset(c, 0, sizeof *c);
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
        st = ckpt_begin(&ck, ckopt, ds, rows, n, m, solver, err);
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
                sink.ckpt = ckpt_hook;
                sink.ckpt_ctx = &ck;
                ck.done = s;
                ck.iter_offset = 0;
                if (ck.resumed && s < ck.file.done) { /* finished before the interruption */
                    ckpt_restore(&ck, s, sm, &res);
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
            if (trained && st == NESVM_OK && ck.opt) ckpt_finished(&ck, s, &res);
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
    ckpt_end(&ck);
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

/* Decision values of a kernel model: dec[i * nsub + s] = sum_k beta_sk
 * K(x_i, b_k) + b_s, with K computed in row blocks of at most 64 MB against
 * the basis and multiplied by all sub-models' coefficients at once (dgemm). */
static nesvm_status kernel_decisions(const nesvm_model *m, const nesvm_dataset *ds,
                                     const int64_t *rows, int64_t n, int threads, double *dec,
                                     nesvm_error *err)
{
    const nv_kernel k = nv_model_kernel(m);
    const int64_t nb = m->ncoef;
    const int nsub = m->nsub;
    int64_t bs = nb > 0 ? 8388608 / nb : n;
    if (bs < 16) bs = 16;
    if (bs > n) bs = n;
    double *zsq = nv_malloc_array((size_t)(nb ? nb : 1), sizeof(double));
    double *xsq = nv_malloc_array((size_t)(bs ? bs : 1), sizeof(double));
    double *Kb = nv_malloc_array((size_t)(bs ? bs : 1) * (size_t)(nb ? nb : 1), sizeof(double));
    int64_t *idx = nv_malloc_array((size_t)(bs ? bs : 1), sizeof(int64_t));
    nesvm_status st = NESVM_OK;
    if (!zsq || !xsq || !Kb || !idx) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory for kernel prediction (basis %lld)",
                      (long long)nb);
        goto out;
    }
    nv_kernel_sqnorms(m->basis, NULL, nb, zsq);
    for (int64_t i0 = 0; i0 < n && st == NESVM_OK; i0 += bs) {
        int64_t cnt = n - i0 < bs ? n - i0 : bs;
        for (int64_t i = 0; i < cnt; i++) idx[i] = rows ? rows[i0 + i] : i0 + i;
        nv_kernel_sqnorms(ds, idx, cnt, xsq);
        st = nv_kernel_block(&k, ds, idx, cnt, xsq, m->basis, NULL, nb, zsq, Kb, nb, threads, err);
        if (st != NESVM_OK) break;
        double *dd = dec + i0 * nsub;
        if (nb > 0)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)cnt, nsub, (int)nb, 1.0, Kb,
                        (int)nb, m->wbuf, (int)m->ncoef, 0.0, dd, nsub);
        else
            memset(dd, 0, (size_t)cnt * (size_t)nsub * sizeof(double));
        for (int64_t i = 0; i < cnt; i++)
            for (int s = 0; s < nsub; s++) dd[i * nsub + s] += m->sub[s].b;
    }
out:
    nv_free(zsq);
    nv_free(xsq);
    nv_free(Kb);
    nv_free(idx);
    return st;
}

nesvm_status nv_predict_rows(const nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows,
                             int64_t n, int threads, double *labels, double *decision,
                             nesvm_error *err)
{
    int nsub = m->nsub;
    double *dec = decision;
    double *own_dec = NULL;
    double *wpad = nv_calloc((size_t)(ds->d ? ds->d : 1), sizeof(double));
    double *col = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    int *votes = nv_calloc((size_t)m->nr_class, sizeof(int));
    if (!dec) dec = own_dec = nv_malloc_array((size_t)(n ? n : 1) * (size_t)nsub, sizeof(double));
    if (!wpad || !col || !votes || !dec) {
        nv_free(wpad);
        nv_free(col);
        nv_free(votes);
        nv_free(own_dec);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for prediction");
    }
    if (m->basis) {
        nesvm_status st = kernel_decisions(m, ds, rows, n, threads, dec, err);
        if (st != NESVM_OK) {
            nv_free(wpad);
            nv_free(col);
            nv_free(votes);
            nv_free(own_dec);
            return st;
        }
    } else {
        int32_t dm = m->d < ds->d ? m->d : ds->d; /* features beyond the model's are ignored */
        nv_linalg_ws lw = {nv_threads(threads), ds->d, NULL, NV_PAR_MIN_WORK}; /* X*w needs no buffers */
        for (int s = 0; s < nsub; s++) {
            memcpy(wpad, m->sub[s].w, (size_t)dm * sizeof(double));
            nv_xw(ds, rows, n, wpad, m->sub[s].b, col, &lw);
            for (int64_t i = 0; i < n; i++) dec[i * nsub + s] = col[i];
        }
    }
    int ovr = m->params->multiclass == NV_OVR && m->nr_class > 2;
    for (int64_t i = 0; i < n; i++) {
        const double *di = dec + i * nsub;
        int best = 0;
        if (m->nr_class == 2) {
            best = di[0] > 0 ? m->sub[0].pos : m->sub[0].neg;
        } else if (ovr) {
            for (int s = 1; s < nsub; s++)
                if (di[s] > di[best]) best = s;
            best = m->sub[best].pos;
        } else {
            memset(votes, 0, (size_t)m->nr_class * sizeof(int));
            for (int s = 0; s < nsub; s++) votes[di[s] > 0 ? m->sub[s].pos : m->sub[s].neg]++;
            for (int c = 1; c < m->nr_class; c++)
                if (votes[c] > votes[best]) best = c;
        }
        labels[i] = m->labels[best];
    }
    nv_free(wpad);
    nv_free(col);
    nv_free(votes);
    nv_free(own_dec);
    return NESVM_OK;
}

nesvm_status nesvm_model_predict(const nesvm_model *m, const nesvm_dataset *ds, int threads,
                                 double *labels, double *decision, nesvm_error *err)
{
    if (!m || !ds || !labels) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_predict");
    return nv_predict_rows(m, ds, NULL, ds->n, threads, labels, decision, err);
}

int nesvm_model_classes(const nesvm_model *m) { return m ? m->nr_class : 0; }
const double *nesvm_model_labels(const nesvm_model *m) { return m ? m->labels : NULL; }
int32_t nesvm_model_features(const nesvm_model *m) { return m ? m->d : 0; }
int nesvm_model_submodels(const nesvm_model *m) { return m ? m->nsub : 0; }
const char *nesvm_model_solver(const nesvm_model *m) { return m ? m->params->solver : NULL; }
const char *nesvm_model_multiclass(const nesvm_model *m)
{
    if (!m) return NULL;
    return m->params->multiclass == NV_OVR ? "ovr" : "ovo";
}

nesvm_status nesvm_model_linear(const nesvm_model *m, int k, const double **w, double *b,
                                int *pos, int *neg, nesvm_error *err)
{
    if (!m || k < 0 || k >= m->nsub)
        return nv_error(err, NESVM_ERR_ARG, "sub-model index %d out of range", k);
    if (m->basis)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "a %s-kernel model has no weight vector: use nesvm_model_expansion",
                        nv_kernel_names[m->params->kernel]);
    if (w) *w = m->sub[k].w;
    if (b) *b = m->sub[k].b;
    if (pos) *pos = m->sub[k].pos;
    if (neg) *neg = m->sub[k].neg;
    return NESVM_OK;
}

nesvm_status nesvm_model_training(const nesvm_model *m, int k, nesvm_exit *exit_reason,
                                  int64_t *iterations, double *primal, double *gap,
                                  nesvm_error *err)
{
    if (!m || k < 0 || k >= m->nsub)
        return nv_error(err, NESVM_ERR_ARG, "sub-model index %d out of range", k);
    if (exit_reason) *exit_reason = m->sub[k].exit_reason;
    if (iterations) *iterations = m->sub[k].iterations;
    if (primal) *primal = m->sub[k].primal;
    if (gap) *gap = m->sub[k].gap;
    return NESVM_OK;
}

nesvm_status nesvm_model_expansion(const nesvm_model *m, int k, const double **beta,
                                   int64_t *nbasis, double *b, int *pos, int *neg,
                                   nesvm_error *err)
{
    if (!m || k < 0 || k >= m->nsub)
        return nv_error(err, NESVM_ERR_ARG, "sub-model index %d out of range", k);
    if (beta) *beta = m->sub[k].w;
    if (nbasis) *nbasis = m->ncoef;
    if (b) *b = m->sub[k].b;
    if (pos) *pos = m->sub[k].pos;
    if (neg) *neg = m->sub[k].neg;
    return NESVM_OK;
}

const nesvm_dataset *nesvm_model_basis(const nesvm_model *m) { return m ? m->basis : NULL; }
const char *nesvm_model_kernel(const nesvm_model *m)
{
    return m ? nv_kernel_names[m->params->kernel] : NULL;
}

const char *nesvm_model_problem(const nesvm_model *m) { return m ? m->problem : NULL; }
