/*
 * train_predict.c - the nesvm C library in one page: read a LIBSVM-format
 * file, set parameters by name, train, predict, save the model.
 *
 *   cc train_predict.c $(pkg-config --cflags --libs nesvm) -o train_predict
 *   ./train_predict /usr/share/doc/liblinear-tools/examples/heart_scale heart.model
 *
 * Every call returns a status; on failure err.message says what and where.
 * The library never prints: this program does.
 */
#include <nesvm.h>

#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, const nesvm_error *err)
{
    fprintf(stderr, "train_predict: %s: %s\n", what, err->message);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s DATA MODEL\n", argv[0]);
        return 2;
    }
    nesvm_error err = {0};
    nesvm_read_options ro;
    nesvm_read_options_init(&ro);
    nesvm_dataset *ds = NULL;
    if (nesvm_dataset_read(argv[1], &ro, &ds, &err) != NESVM_OK) return fail("read", &err);

    /* parameters by name, as `nesvm train -c 1 -e 0.001` (docs/parameters.md) */
    nesvm_params *p = NULL;
    if (nesvm_params_create(&p, &err) != NESVM_OK || nesvm_params_set(p, "c", "1", &err) != NESVM_OK ||
        nesvm_params_set(p, "eps", "0.001", &err) != NESVM_OK)
        return fail("params", &err);

    nesvm_model *m = NULL;
    nesvm_stats stats = NESVM_STATS_INIT;
    if (nesvm_train(ds, p, NULL, NULL, &m, &stats, &err) != NESVM_OK) return fail("train", &err);

    int64_t n = nesvm_dataset_rows(ds);
    double *pred = malloc((size_t)n * sizeof *pred);
    if (!pred) return 1;
    if (nesvm_model_predict(m, ds, 1, pred, NULL, &err) != NESVM_OK) return fail("predict", &err);
    const double *y = nesvm_dataset_labels(ds);
    int64_t right = 0;
    for (int64_t i = 0; i < n; i++) right += pred[i] == y[i];
    printf("classes %d, iterations %lld, training accuracy %.4f%% (%lld/%lld)\n", nesvm_model_classes(m),
           (long long)stats.iterations, 100.0 * (double)right / (double)n, (long long)right, (long long)n);

    if (nesvm_model_save(m, argv[2], &err) != NESVM_OK) return fail("save", &err);
    free(pred);
    nesvm_model_destroy(m);
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
    return 0;
}
