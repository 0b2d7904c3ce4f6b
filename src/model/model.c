/*
 * model.c - the model object: allocation, accessors and prediction (the
 * training driver is train.c).
 *
 * A model's task (nesvm.h) decides what prediction returns: a classifier's
 * class labels, as below; a regression's one decision value; a novelty
 * model's +1 (decision value > 0) or -1 (svm-predict's rule for a one-class
 * model: -1 where the decision value is exactly 0).
 *
 * Class order is the order of first appearance in the training data (as in
 * LIBSVM); for two classes the first label seen is the positive class.
 * One-vs-one trains k(k-1)/2 machines, class i (+1) against class j (-1) for
 * i < j, and predicts by votes (ties go to the lower class index).
 * One-vs-rest trains k machines, class i (+1) against all others, and
 * predicts the class with the largest decision value; so does a joint
 * problem (multiclass cs, multinomial: train_joint.c), whose k sub-models
 * (i, -1) hold w_i and b_i, two classes included.
 */
#include "model_internal.h"

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
    m->labels = nv_calloc((size_t)(nr_class ? nr_class : 1), sizeof(double));
    m->sub = nv_calloc((size_t)nsub, sizeof(nv_submodel));
    if (ncoef > 0 && (size_t)nsub > SIZE_MAX / sizeof(double) / (size_t)ncoef) m->wbuf = NULL;
    else m->wbuf = nv_calloc((size_t)nsub * (size_t)ncoef + 1, sizeof(double));
    nesvm_status st = nesvm_params_create(&m->params, err);
    if (!m->labels || !m->sub || !m->wbuf || st != NESVM_OK) {
        nesvm_model_destroy(m);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for model (%d sub-models x %lld coefficients)",
                        nsub, (long long)ncoef);
    }
    for (int k = 0; k < nsub; k++) {
        m->sub[k].w = m->wbuf + (size_t)k * (size_t)ncoef;
        m->sub[k].nu_value = NAN;
    }
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
    nv_free(m->basis_rows);
    nv_free(m);
}

nv_kernel nv_model_kernel(const nesvm_model *m)
{
    nv_kernel k = {m->params->kernel, m->params->gamma, m->params->coef0, m->params->degree};
    return k;
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
    NV_ASSERT(m->basis->n == nb); /* a coefficient per basis vector (stride ncoef in wbuf) */
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
    nv_kernel_sqnorms(&k, m->basis, NULL, nb, zsq);
    for (int64_t i0 = 0; i0 < n && st == NESVM_OK; i0 += bs) {
        int64_t cnt = n - i0 < bs ? n - i0 : bs;
        for (int64_t i = 0; i < cnt; i++) idx[i] = rows ? rows[i0 + i] : i0 + i;
        nv_kernel_sqnorms(&k, ds, idx, cnt, xsq);
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

/* Each row's prediction from its decision values (dec: n x nsub) by the
 * model's task: a classifier's class label (two classes: pos where the
 * decision value is > 0; one-vs-rest: the largest decision value;
 * one-vs-one: the most votes, ties to the lower class index), a
 * regression's decision value, a novelty model's +1 where the decision
 * value is > 0, else -1 (svm-predict's one-class rule).  votes: nr_class scratch entries. */
static void decide(const nesvm_model *m, const double *dec, int64_t n, int *votes, double *labels)
{
    const int nsub = m->nsub;
    if (m->task != NESVM_TASK_CLASSIFICATION) {
        for (int64_t i = 0; i < n; i++)
            labels[i] = m->task == NESVM_TASK_REGRESSION ? dec[i * nsub] : dec[i * nsub] > 0 ? 1.0 : -1.0;
        return;
    }
    const int ovr = nv_params_argmax(m->params, m->nr_class); /* one-vs-rest, or a joint problem */
    /* a classifier's sub-models name its classes (as training and the model
     * reader leave them): the labels and votes they index */
    for (int s = 0; s < nsub; s++)
        NV_ASSERT(m->nr_class >= 2 && m->sub[s].pos >= 0 && m->sub[s].pos < m->nr_class &&
                  (ovr ? m->sub[s].neg == -1 : m->sub[s].neg >= 0 && m->sub[s].neg < m->nr_class));
    for (int64_t i = 0; i < n; i++) {
        const double *di = dec + i * nsub;
        int best = 0;
        if (m->nr_class == 2 && !ovr) {
            best = di[0] > 0 ? m->sub[0].pos : m->sub[0].neg;
        } else if (ovr) { /* the largest decision value (ties: the first sub-model) */
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
}

nesvm_status nv_predict_rows(const nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows,
                             int64_t n, int threads, double *labels, double *decision,
                             nesvm_error *err)
{
    int nsub = m->nsub;
    double *dec = decision;
    double *own_dec = NULL;
    /* a linear model reads the rows through a weight vector as wide as the
     * data, zero beyond the model's features; for a few values at a huge
     * index (nv_dense_too_large) the rows are read entry by entry instead */
    const int narrow = !m->basis && ds->d > m->d && nv_dense_too_large(8.0 * (double)ds->d, ds->nnz, ds->n);
    double *wpad = nv_calloc((size_t)(ds->d && !narrow && !m->basis ? ds->d : 1), sizeof(double));
    double *col = nv_malloc_array((size_t)(n ? n : 1), sizeof(double));
    int *votes = nv_calloc((size_t)(m->nr_class ? m->nr_class : 1), sizeof(int));
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
        /* a linear model: one weight per feature */
        NV_ASSERT(m->ncoef == m->d);
        int32_t dm = m->d < ds->d ? m->d : ds->d; /* features beyond the model's are ignored */
        nv_linalg_ws lw = {nv_threads(threads), ds->d, NULL, NV_PAR_MIN_WORK}; /* X*w needs no buffers */
        for (int s = 0; s < nsub; s++) {
            if (narrow) { /* CSR: the entries below the model's width */
                const double *w = m->sub[s].w;
                for (int64_t i = 0; i < n; i++) {
                    const int64_t r = rows ? rows[i] : i;
                    double v = 0;
                    for (int64_t p = ds->indptr[r]; p < ds->indptr[r + 1] && nv_idx(ds, p) < dm; p++)
                        v += nv_val(ds, p) * w[nv_idx(ds, p)];
                    dec[i * nsub + s] = v + m->sub[s].b; /* as nv_xw */
                }
                continue;
            }
            memcpy(wpad, m->sub[s].w, (size_t)dm * sizeof(double));
            nv_xw(ds, rows, n, wpad, m->sub[s].b, col, &lw);
            for (int64_t i = 0; i < n; i++) dec[i * nsub + s] = col[i];
        }
    }
    decide(m, dec, n, votes, labels);
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
    nesvm_status st = nv_model_check_width(m, ds, err);
    return st != NESVM_OK ? st : nv_predict_rows(m, ds, NULL, ds->n, threads, labels, decision, err);
}

nesvm_status nv_model_check_width(const nesvm_model *m, const nesvm_dataset *ds, nesvm_error *err)
{
    /* a precomputed kernel's rows: a value at every support vector's serial
     * number (the reader checks each line of a file: NESVM_PRECOMPUTED_TEST) */
    const int64_t cols = nesvm_model_kernel_columns(m);
    if (cols == 0 || ds->d - 1 >= cols) return NESVM_OK; /* (0: not a precomputed kernel) */
    return nv_error(err, NESVM_ERR_DATA,
                    "the rows' kernel values end at column %lld, and the model's support vectors reach serial "
                    "number %lld: a row to predict gives K(x,x_j) for every training row j up to it",
                    (long long)(ds->d > 0 ? ds->d - 1 : 0), (long long)cols);
}

int64_t nesvm_model_kernel_columns(const nesvm_model *m)
{
    return m && m->params->kernel == NV_KERNEL_PRECOMPUTED ? nv_pc_columns(m->basis) : 0;
}

nesvm_task nesvm_model_task(const nesvm_model *m) { return m ? m->task : NESVM_TASK_CLASSIFICATION; }
int nesvm_model_classes(const nesvm_model *m) { return m ? m->nr_class : 0; }
const double *nesvm_model_labels(const nesvm_model *m) { return m ? m->labels : NULL; }
int32_t nesvm_model_features(const nesvm_model *m) { return m ? m->d : 0; }
int nesvm_model_submodels(const nesvm_model *m) { return m ? m->nsub : 0; }
const char *nesvm_model_solver(const nesvm_model *m) { return m ? m->params->solver : NULL; }
const char *nesvm_model_multiclass(const nesvm_model *m)
{
    if (!m) return NULL;
    switch (m->params->multiclass) {
    case NV_OVR: return "ovr";
    case NV_CS: return "cs";
    case NV_MULTINOMIAL: return "multinomial";
    default: return "ovo";
    }
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

double nesvm_model_nu_value(const nesvm_model *m, int k)
{
    if (!m || k < 0 || k >= m->nsub || !nv_params_nu_type(m->params)) return NAN;
    return m->sub[k].nu_value;
}

nesvm_cert nesvm_model_certified(const nesvm_model *m, int k)
{
    if (!m || k < 0 || k >= m->nsub) return NESVM_CERT_MISSED;
    /* a solver without a certificate (the registry's: GS-SVM, whose
     * max_iter is its regularizer) has none to miss, whatever its exit */
    const nv_solver *s = nv_solver_find(m->params->solver);
    if (s && !s->certificate) return NESVM_CERT_NONE;
    const nv_submodel *sm = &m->sub[k];
    if (sm->exit_reason != NESVM_EXIT_CONVERGED) return NESVM_CERT_MISSED;
    if (isnan(sm->gap)) return NESVM_CERT_NONE;
    /* the solvers stop at a relative gap <= eps (the file keeps it to 17
     * digits), or, with eps_abs, where eps_abs certifies an absolute gap
     * (Hyperpass, Pegasos; the other solvers' eps_abs stops are
     * NESVM_EXIT_EPS_ABS) */
    return sm->gap <= m->params->eps * (1 + 1e-9) || m->params->eps_abs > 0 ? NESVM_CERT_REACHED
                                                                               : NESVM_CERT_MISSED;
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
const nesvm_params *nesvm_model_params(const nesvm_model *m) { return m ? m->params : NULL; }
const int64_t *nesvm_model_basis_rows(const nesvm_model *m) { return m ? m->basis_rows : NULL; }
