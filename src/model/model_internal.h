/* model_internal.h - the model object (not installed). */
#ifndef NESVM_MODEL_INTERNAL_H
#define NESVM_MODEL_INTERNAL_H

#include "../solvers/solver.h"
#include "../kernel/kernel.h"

/* The most classes a model can have (training and model files). */
#define NV_MAX_CLASSES 65536

typedef struct nv_submodel {
    int pos, neg;         /* class indices; neg = -1 for one-vs-rest */
    double b;
    double *w;            /* ncoef coefficients, in model->wbuf: the weight vector
                           * (linear) or the expansion's beta over the basis */
    nesvm_exit exit_reason;
    int64_t iterations;
    double primal, gap;
    double prob_a, prob_b;/* Platt's sigmoid P(pos | f) = 1 / (1 + exp(A f + B)) (prob.c) */
    double nu_value;      /* nu-SVC: the margin rho (the model is the problem's scaled by
                           * 1/rho, LIBSVM's C = 1/rho); nu-SVR: the tube's half-width
                           * epsilon; NaN otherwise, or unknown (a LIBSVM import, a
                           * sub-model restored from a checkpoint) */
} nv_submodel;

struct nesvm_model {
    nesvm_params *params; /* the parameters it was trained with */
    char problem[64];
    nesvm_task task;      /* what it learned: classification (classes, labels), regression
                           * or novelty (no classes: nr_class 0, one sub-model whose pos
                           * and neg are -1) */
    int nr_class;
    double *labels;
    int32_t d;
    int64_t ncoef;        /* coefficients per sub-model: d (linear) or the basis size */
    nesvm_dataset *basis; /* kernel models: the basis vectors (owned CSR), else NULL */
    int64_t *basis_rows;  /* trained kernel models: each basis vector's row in the training
                           * dataset; NULL when loaded from a file */
    int has_prob;         /* the sub-models carry Platt sigmoids (probability estimates) */
    int nsub;
    nv_submodel *sub;
    double *wbuf;         /* nsub * ncoef */
};

/* Allocate a model shell with nr_class labels (0: none), d features and
 * nsub sub-models of ncoef coefficients; its task is classification. */
nesvm_status nv_model_alloc(int nr_class, int nsub, int32_t d, int64_t ncoef, nesvm_model **out,
                            nesvm_error *err);
/* nesvm_model_load_buffer on a text it takes over (buf[len] must be '\0';
 * nv_free'd here, success or not): no copy of a large text. */
nesvm_status nv_model_parse_owned(char *buf, size_t len, nesvm_model **out, nesvm_error *err);
/* The first sub-model holding a non-finite bias or coefficient, or -1. */
int nv_model_first_nonfinite(const nesvm_model *m);
/* The model's kernel (params kernel, gamma, degree, coef0). */
nv_kernel nv_model_kernel(const nesvm_model *m);

/* Warm starts along a path of trainings on the same rows with the same
 * kernel and basis, which differ in C alone (model selection's C path): each
 * sub-model's solver coefficients (in the solver's units: weights, expansion
 * over the sub-problem's rows, or basis features) and bias from the last
 * training, the start of the next.  Zero-initialise; nv_path_free. */
typedef struct nv_path {
    int nsub;        /* sub-models held (0: none yet) */
    int64_t *ncoef;  /* nsub entries */
    double **w;      /* nsub vectors */
    double *b;
} nv_path;
void nv_path_free(nv_path *p);

/* Train on a row subset (rows == NULL: all rows), warm-started from init
 * (NULL: from zero) or from path (NULL: none; it then holds this training's
 * solution). */
nesvm_status nv_train_rows(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                           const nesvm_params *params, const nesvm_model *init,
                           const nesvm_checkpoint_options *ck, nv_path *path, nesvm_progress_fn progress,
                           void *user, nesvm_model **out, nesvm_stats *stats, nesvm_error *err);

/* Data-parallel training (issue 21): ds's rows (rows NULL: all n) are this rank's share,
 * with the same feature count d on every rank; every rank calls it and gets
 * the same model.  With one rank it is nv_train_rows. */
nesvm_status nv_train_distributed(const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                  const nesvm_params *params, const nesvm_model *init, const nv_comm *comm,
                                  nesvm_progress_fn progress, void *user, nesvm_model **out, nesvm_stats *stats,
                                  nesvm_error *err);

/* A precomputed kernel's model: ds gives kernel values up to the largest
 * serial number of its support vectors (the public predictions check it);
 * other models: always. */
nesvm_status nv_model_check_width(const nesvm_model *m, const nesvm_dataset *ds, nesvm_error *err);
/* Predict a row subset (rows == NULL: all rows). */
nesvm_status nv_predict_rows(const nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows,
                             int64_t n, int threads, double *labels, double *decision,
                             nesvm_error *err);

/* Probability estimates (prob.c): stratified folds (cls[i] in [0, k); the
 * folds of cross-validation), Platt's sigmoid, pairwise coupling, and the
 * sigmoids of a trained model fitted by internal 5-fold cross-validation. */
/* order: n scratch entries */
void nv_stratified_folds(const int *cls, int64_t n, int k, int folds, uint64_t seed, int *fold,
                         int64_t *order);
double nv_platt_prob(double f, double A, double B);
/* w: row weights (NULL: 1) */
double nv_platt_objective(const double *f, const int *pos, const double *w, int64_t n, double A, double B);
void nv_platt_fit(const double *f, const int *pos, const double *w, int64_t n, double *A, double *B);
/* p (k + 1 entries, the first k the probabilities) from r (k x k, r[i k + j] =
 * P(i | i or j)); M: (k + 1)^2 scratch; -1 if the system is singular */
int nv_prob_couple(int k, const double *r, double *p, double *M);
/* Probabilities (n x nr_class, model label order) and argmax labels from decision values. */
nesvm_status nv_prob_rows(const nesvm_model *m, const double *dec, int64_t n, double *proba, double *labels,
                          nesvm_error *err);
/* The fold trainings report to progress (a non-zero return cancels them).
 * comm (several ranks): the rows are this rank's share; the folds are drawn
 * over every rank's rows as one process draws them, each fold trained
 * distributed, and each sigmoid fitted on every rank's out-of-fold values
 * (gathered), so every rank gets the same model. */
nesvm_status nv_prob_train(nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                           const nesvm_params *params, const nv_comm *comm, nesvm_progress_fn progress, void *user,
                           nesvm_error *err);

/* Distinct labels in order of first appearance and each row's class index. */
nesvm_status nv_label_classes(const double *labels, const int64_t *rows, int64_t n,
                              double **classes, int *nr_class, int *row_class,
                              nesvm_error *err);

#endif
