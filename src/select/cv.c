/*
 * cv.c - stratified k-fold cross-validation.
 *
 * Rows of each class are shuffled (seeded) and dealt to folds round-robin,
 * continuing across classes, so every fold gets each class in proportion and
 * fold sizes differ by at most one.  Each fold is predicted by a model
 * trained on the other folds.
 */
#include "../model/model_internal.h"

#include <string.h>

nesvm_status nesvm_cross_validate(const nesvm_dataset *ds, const nesvm_params *params, int folds,
                                  uint64_t seed, nesvm_progress_fn progress, void *user,
                                  double *predicted, double *accuracy, nesvm_error *err)
{
    if (!ds || !predicted) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_cross_validate");
    int64_t n = ds->n;
    if (folds < 2) return nv_error(err, NESVM_ERR_ARG, "cross-validation needs at least 2 folds (got %d)", folds);
    if (folds > n)
        return nv_error(err, NESVM_ERR_ARG, "%d folds but only %lld rows", folds, (long long)n);
    double *classes = NULL;
    int k = 0;
    int *cls = nv_malloc_array((size_t)n, sizeof(int));
    int *fold = nv_malloc_array((size_t)n, sizeof(int));
    int64_t *order = nv_malloc_array((size_t)n, sizeof(int64_t));
    int64_t *train = nv_malloc_array((size_t)n, sizeof(int64_t));
    int64_t *test = nv_malloc_array((size_t)n, sizeof(int64_t));
    double *pred = nv_malloc_array((size_t)n, sizeof(double));
    nesvm_status st = NESVM_OK;
    if (!cls || !fold || !order || !train || !test || !pred) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    st = nv_label_classes(ds->labels, NULL, n, &classes, &k, cls, err);
    if (st != NESVM_OK) goto done;
    /* rows of each class shuffled (seeded) and dealt to folds round-robin */
    nv_stratified_folds(cls, n, k, folds, seed, fold, order);
    int64_t correct = 0;
    for (int f = 0; f < folds; f++) {
        int64_t ntr = 0, nte = 0;
        for (int64_t i = 0; i < n; i++) {
            if (fold[i] == f) test[nte++] = i;
            else train[ntr++] = i;
        }
        nesvm_model *m = NULL;
        st = nv_train_rows(ds, train, ntr, params, NULL, NULL, progress, user, &m, NULL, err);
        if (st != NESVM_OK) {
            nv_error_prefix(err, "fold %d of %d", f + 1, folds);
            goto done;
        }
        st = nv_predict_rows(m, ds, test, nte, params ? params->threads : 1, pred, NULL, err);
        nesvm_model_destroy(m);
        if (st != NESVM_OK) goto done;
        for (int64_t t = 0; t < nte; t++) {
            predicted[test[t]] = pred[t];
            if (pred[t] == ds->labels[test[t]]) correct++;
        }
    }
    if (accuracy) *accuracy = (double)correct / (double)n;
done:
    nv_free(classes);
    nv_free(cls);
    nv_free(fold);
    nv_free(order);
    nv_free(train);
    nv_free(test);
    nv_free(pred);
    return st;
}
