/* An outside program using the installed library: trains on a tiny set. */
#include <nesvm.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    double x[4] = {1, 2, -1, -2}, y[4] = {1, 1, -1, -1};
    nesvm_error err = {0};
    nesvm_dataset *ds;
    nesvm_model *m;
    if (nesvm_dataset_wrap_dense(4, 1, x, y, &ds, &err) || nesvm_train(ds, NULL, NULL, NULL, &m, NULL, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    double pred[4];
    nesvm_model_predict(m, ds, 1, pred, NULL, &err);
    int ok = pred[0] == 1 && pred[3] == -1 && strcmp(nesvm_version(), "0.1.0") == 0;
    printf("%s\n", ok ? "consumer ok" : "consumer wrong");
    nesvm_model_destroy(m);
    nesvm_dataset_destroy(ds);
    return ok ? 0 : 1;
}
