/* test_cv.c - cross-validation along a path of C values (select/cv.c): a cold
 * path against a loop of nesvm_cross_validate calls at each C; warm-started
 * solutions against cold ones (objective within the certified gaps);
 * folds in parallel against folds one after another; the progress callback's
 * thread and cancellation; the argument checks. */
#include "../../src/model/model_internal.h"
#include "check.h"

#include <pthread.h>
#include <stdlib.h>

#define N 300
#define D 5

static double X[N * D], Y[N], Y3[N];

static void make(void)
{
    uint64_t st = 77;
    for (int i = 0; i < N; i++) {
        Y[i] = i % 2 ? 1 : -1;
        Y3[i] = (double)(i % 3);
        for (int j = 0; j < D; j++)
            X[i * D + j] = (nv_rng_uniform(&st) - 0.5) * 2 + (j == 0 ? 0.6 * Y[i] : 0) + (j == 1 ? 0.5 * Y3[i] : 0) +
                           (j == 2 ? 0.4 * Y[i] * X[i * D] : 0);
    }
}

static nesvm_params *params_kv(const char *const *kv)
{
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    for (int k = 0; kv && kv[k]; k += 2)
        CHECK_MSG(nesvm_params_set(p, kv[k], kv[k + 1], NULL) == NESVM_OK, "%s=%s", kv[k], kv[k + 1]);
    return p;
}

/* The configurations the path serves: every solver that takes C, linear and
 * each kernel plan (full expansion, reduced features, SSVM's features). */
static const char *const configs[][12] = {
    {"solver", "nesvm", NULL},
    {"solver", "nesvm", "method", "newton", NULL},
    {"solver", "ssvm", NULL},
    {"solver", "nssvm", NULL},
    {"solver", "hyperpass", NULL},
    {"solver", "nesvm", "kernel", "rbf", "gamma", "0.5", NULL},
    {"solver", "nesvm", "kernel", "rbf", "gamma", "0.5", "method", "nesterov", NULL},
    {"solver", "nesvm", "kernel", "rbf", "gamma", "0.5", "basis", "40", NULL},
    {"solver", "ssvm", "kernel", "rbf", "gamma", "0.5", NULL},
    {"solver", "nssvm", "kernel", "rbf", "gamma", "0.5", "kernel_norm", "coef", NULL},
};
#define NCONF (int)(sizeof configs / sizeof configs[0])

static const double path_c[] = {0.125, 0.5, 2, 8, 32};
#define NC 5

/* The path's length for a configuration: Nesterov's method on a full kernel
 * takes 1e4 iterations per fold at C 8 here; it stops at C 2. */
static int conf_nc(int c)
{
    for (int k = 0; configs[c][k]; k += 2)
        if (strcmp(configs[c][k + 1], "nesterov") == 0) return 3;
    return NC;
}

static void conf_name(int c, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; configs[c][k] && len < size; k += 2)
        len += (size_t)snprintf(buf + len, size - len, "%s=%s ", configs[c][k], configs[c][k + 1]);
}

/* A cold path equals nesvm_cross_validate at each C; a warm path gives the
 * same accuracies but for rows on which two solutions within the tolerance
 * may differ (at most 2% of the rows here). */
static void test_path_vs_loop(const double *y, int iconf)
{
    char name[200];
    conf_name(iconf, name, sizeof name);
    const int nc = conf_nc(iconf);
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, D, X, y, &ds, NULL) == NESVM_OK);
    nesvm_params *p = params_kv(configs[iconf]);
    double cold[NC], warm[NC], loop[NC];
    int64_t it_cold[NC], it_warm[NC];
    nesvm_error err = {0};
    CHECK_MSG(nesvm_cross_validate_path(ds, p, 4, 9, "c", path_c, nc, 0, NULL, NULL, cold, it_cold, &err) == NESVM_OK,
              "%s: %s", name, err.message);
    CHECK_MSG(nesvm_cross_validate_path(ds, p, 4, 9, "c", path_c, nc, 1, NULL, NULL, warm, it_warm, &err) == NESVM_OK,
              "%s: %s", name, err.message);
    static double pred[N];
    int64_t sum_cold = 0, sum_warm = 0;
    for (int c = 0; c < nc; c++) {
        char v[40];
        snprintf(v, sizeof v, "%.17g", path_c[c]);
        nesvm_params_set(p, "c", v, NULL);
        CHECK(nesvm_cross_validate(ds, p, 4, 9, NULL, NULL, pred, &loop[c], &err) == NESVM_OK);
        CHECK_MSG(cold[c] == loop[c], "%s C %g: cold path %.6f, nesvm_cross_validate %.6f", name, path_c[c], cold[c],
                  loop[c]);
        CHECK_MSG(fabs(warm[c] - cold[c]) <= 0.02, "%s C %g: warm %.4f cold %.4f", name, path_c[c], warm[c], cold[c]);
        CHECK(it_cold[c] > 0 && it_warm[c] > 0);
        if (c > 0) {
            sum_cold += it_cold[c];
            sum_warm += it_warm[c];
        }
    }
    CHECK_MSG(it_warm[0] == it_cold[0], "%s: the path's first C is a cold start (%lld vs %lld)", name,
              (long long)it_warm[0], (long long)it_cold[0]);
    CHECK_MSG(sum_warm < sum_cold, "%s: warm starts took %lld iterations after the first C, cold %lld", name,
              (long long)sum_warm, (long long)sum_cold);
    printf("# %-60s iterations after the first C: cold %6lld warm %6lld (%.2fx)\n", name, (long long)sum_cold,
           (long long)sum_warm, (double)sum_warm / (double)sum_cold);
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

/* Warm-started and cold trainings on the same rows reach the same objective
 * within their certified gaps, and predict alike. */
static void test_warm_solutions(const double *y, int iconf)
{
    char name[200];
    conf_name(iconf, name, sizeof name);
    const int nc = conf_nc(iconf);
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, D, X, y, &ds, NULL) == NESVM_OK);
    nesvm_params *p = params_kv(configs[iconf]);
    /* Nesterov's method on a full kernel needs 1e5 iterations for 1e-5 here */
    const double eps = p->method == NV_METHOD_NESTEROV && p->kernel != NV_KERNEL_LINEAR ? 1e-3 : 1e-5;
    p->eps = eps;
    nv_path path;
    memset(&path, 0, sizeof path);
    static double dw[N * 3], dc[N * 3];
    for (int c = 0; c < nc; c++) {
        nesvm_params *pc;
        nesvm_params_copy(p, &pc, NULL);
        pc->c = path_c[c];
        nesvm_model *mw = NULL, *mc = NULL;
        nesvm_stats sw, sc;
        memset(&sw, 0, sizeof sw);
        memset(&sc, 0, sizeof sc);
        sw.size = sc.size = sizeof sw;
        nesvm_error err = {0};
        CHECK_MSG(nv_train_rows(ds, NULL, N, pc, NULL, NULL, &path, NULL, NULL, &mw, &sw, &err) == NESVM_OK, "%s",
                  err.message);
        CHECK_MSG(nv_train_rows(ds, NULL, N, pc, NULL, NULL, NULL, NULL, NULL, &mc, &sc, &err) == NESVM_OK, "%s",
                  err.message);
        if (mw && mc) {
            /* each sub-model within eps (relative) of its optimum: the sums
             * agree to 2 eps of the larger */
            double scale = fabs(sc.primal) > fabs(sw.primal) ? fabs(sc.primal) : fabs(sw.primal);
            CHECK_MSG(fabs(sw.primal - sc.primal) <= 2 * eps * scale + 1e-12, "%s C %g: primal warm %.12g cold %.12g",
                      name, path_c[c], sw.primal, sc.primal);
            static double lw[N], lc[N];
            CHECK(nesvm_model_predict(mw, ds, 1, lw, dw, NULL) == NESVM_OK);
            CHECK(nesvm_model_predict(mc, ds, 1, lc, dc, NULL) == NESVM_OK);
            int differ = 0;
            for (int i = 0; i < N; i++) differ += lw[i] != lc[i];
            CHECK_MSG(differ <= 3, "%s C %g: %d of %d labels differ", name, path_c[c], differ, N);
        }
        nesvm_model_destroy(mw);
        nesvm_model_destroy(mc);
        nesvm_params_destroy(pc);
    }
    CHECK(path.nsub >= 1);
    nv_path_free(&path);
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

/* Folds in parallel (threads 2: two folds at once, one thread each) give what
 * folds one after another with one thread give, row by row. */
static void test_parallel_folds(const double *y, int iconf)
{
    char name[200];
    conf_name(iconf, name, sizeof name);
    const int nc = conf_nc(iconf);
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, D, X, y, &ds, NULL) == NESVM_OK);
    nesvm_params *p = params_kv(configs[iconf]);
    static double p1[N], p2[N];
    double a1, a2, w1[NC], w2[NC];
    nesvm_params_set(p, "threads", "1", NULL);
    CHECK(nesvm_cross_validate(ds, p, 5, 3, NULL, NULL, p1, &a1, NULL) == NESVM_OK);
    CHECK(nesvm_cross_validate_path(ds, p, 5, 3, "c", path_c, nc, 1, NULL, NULL, w1, NULL, NULL) == NESVM_OK);
    nesvm_params_set(p, "threads", "2", NULL);
    CHECK(nesvm_cross_validate(ds, p, 5, 3, NULL, NULL, p2, &a2, NULL) == NESVM_OK);
    CHECK(nesvm_cross_validate_path(ds, p, 5, 3, "c", path_c, nc, 1, NULL, NULL, w2, NULL, NULL) == NESVM_OK);
    CHECK_MSG(a1 == a2, "%s: accuracy %.6f serial, %.6f parallel", name, a1, a2);
    CHECK_MSG(memcmp(p1, p2, sizeof p1) == 0, "%s: predictions differ", name);
    for (int c = 0; c < nc; c++) CHECK_MSG(w1[c] == w2[c], "%s C %g: %.6f vs %.6f", name, path_c[c], w1[c], w2[c]);
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

typedef struct watch {
    pthread_t caller;
    long calls, other_thread, stop_after;
} watch;

static int watch_cb(const nesvm_progress *pg, void *user)
{
    (void)pg;
    watch *w = user;
    w->calls++;
    if (!pthread_equal(pthread_self(), w->caller)) w->other_thread++;
    return w->stop_after > 0 && w->calls >= w->stop_after;
}

static void test_callback(void)
{
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, D, X, Y3, &ds, NULL) == NESVM_OK);
    const char *kv[] = {"kernel", "rbf", "gamma", "0.5", "threads", "2", "eps", "1e-6", NULL};
    nesvm_params *p = params_kv(kv);
    watch w = {pthread_self(), 0, 0, 0};
    static double pred[N];
    double acc[NC];
    nesvm_error perr = {0};
    CHECK_MSG(nesvm_cross_validate_path(ds, p, 5, 1, "c", path_c, NC, 1, watch_cb, &w, acc, NULL, &perr) ==
                  NESVM_OK,
              "%s", perr.message);
    CHECK(w.calls > 0);
    CHECK_MSG(w.other_thread == 0, "%ld of %ld progress calls from a worker thread", w.other_thread, w.calls);
    /* cancelled at the first report: every fold stops, the status says so
     * (Nesterov's method: each fold would take 1e4 iterations, so the
     * caller's first report comes long before the folds could finish) */
    nesvm_params_set(p, "method", "nesterov", NULL);
    for (int t = 1; t <= 2; t++) {
        nesvm_params_set(p, "threads", t == 1 ? "1" : "2", NULL);
        watch stop = {pthread_self(), 0, 0, 1};
        nesvm_error err = {0};
        CHECK_MSG(nesvm_cross_validate(ds, p, 5, 1, watch_cb, &stop, pred, NULL, &err) == NESVM_ERR_CANCELLED,
                  "threads %d: %s", t, err.message);
        CHECK_MSG(strstr(err.message, "cancelled") != NULL, "%s", err.message);
        CHECK(stop.other_thread == 0);
    }
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

static void test_arguments(void)
{
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, D, X, Y, &ds, NULL) == NESVM_OK);
    double acc[2], bad[2] = {1, 0}, inf[1] = {INFINITY};
    nesvm_error err = {0};
    CHECK(nesvm_cross_validate_path(ds, NULL, 3, 1, "c", NULL, 1, 1, NULL, NULL, acc, NULL, &err) == NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "NULL argument to nesvm_cross_validate_path");
    CHECK(nesvm_cross_validate_path(ds, NULL, 3, 1, "c", bad, 0, 1, NULL, NULL, acc, NULL, &err) == NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "the path of c has 0 values");
    CHECK(nesvm_cross_validate_path(ds, NULL, 3, 1, "c", bad, 2, 1, NULL, NULL, acc, NULL, &err) == NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "value 2 of the path: invalid value '0' for c");
    CHECK(nesvm_cross_validate_path(ds, NULL, 3, 1, "c", inf, 1, 1, NULL, NULL, acc, NULL, &err) == NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "value 1 of the path: invalid value 'inf' for c");
    CHECK(nesvm_cross_validate_path(ds, NULL, 1, 1, "c", bad, 1, 1, NULL, NULL, acc, NULL, &err) == NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "at least 2 folds");
    /* a failing training names its fold and C */
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    nesvm_params_set(p, "solver", "hyperpass", NULL);
    nesvm_params_set(p, "kernel", "rbf", NULL);
    CHECK(nesvm_cross_validate_path(ds, p, 3, 1, "c", bad, 1, 1, NULL, NULL, acc, NULL, &err) == NESVM_ERR_UNSUPPORTED);
    CHECK_CONTAINS(err.message, "fold 1 of 3: c 1: solver hyperpass trains linear models only");
    CHECK(nesvm_cross_validate_path(ds, NULL, 3, 1, "no_such", bad, 1, 1, NULL, NULL, acc, NULL, &err) ==
          NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "value 1 of the path: unknown parameter 'no_such'");
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

/* GS-SVM's early stopping along max_iter equals a loop of trainings at each
 * limit; once every fold converged, larger limits reuse its trainings. */
static void test_max_iter_path(void)
{
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, D, X, Y3, &ds, NULL) == NESVM_OK);
    const char *kv[] = {"solver", "gs", "kernel", "rbf", "gamma", "0.5", NULL};
    nesvm_params *p = params_kv(kv);
    const double lim[] = {2, 8, 32, 100000, 200000};
    double acc[5], loop;
    int64_t it[5];
    static double pred[N];
    nesvm_error err = {0};
    CHECK_MSG(nesvm_cross_validate_path(ds, p, 4, 2, "max_iter", lim, 5, 1, NULL, NULL, acc, it, &err) == NESVM_OK,
              "%s", err.message);
    for (int c = 0; c < 5; c++) {
        char v[40];
        snprintf(v, sizeof v, "%g", lim[c]);
        nesvm_params_set(p, "max_iter", v, NULL);
        CHECK(nesvm_cross_validate(ds, p, 4, 2, NULL, NULL, pred, &loop, NULL) == NESVM_OK);
        CHECK_MSG(acc[c] == loop, "max_iter %g: path %.6f, loop %.6f", lim[c], acc[c], loop);
    }
    CHECK(acc[0] < acc[3]); /* 2 basis functions per pair are too few */
    CHECK(it[3] > 0 && it[4] == 0); /* converged below 1e5: the last limit reuses it */
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

int main(void)
{
    make();
    for (int c = 0; c < NCONF; c++) {
        double t0 = nv_now();
        test_path_vs_loop(Y, c);
        test_path_vs_loop(Y3, c);
        test_warm_solutions(Y, c);
        test_warm_solutions(Y3, c);
        test_parallel_folds(Y3, c);
        printf("# %.2f s\n", nv_now() - t0);
    }
    test_callback();
    test_arguments();
    test_max_iter_path();
    CHECK_DONE();
}
