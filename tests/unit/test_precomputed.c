/* test_precomputed.c - precomputed kernels (kernel precomputed, LIBSVM's -t 4)
 * through the C API: nesvm_dataset_from_kernel, the training driver's checks
 * of serial numbers, prediction's width check, the positive semi-definite
 * rule (nesvm_stats.kernel_psd), model files ("sv 0:i"), and the reader's
 * line numbers when it parses a large file on several threads.  Truths: the
 * same problem trained on the data with the rbf kernel (the matrix computed
 * here as nesvm's own kernel does), and the exact messages. */
#include "../../src/kernel/kernel.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N 80
#define D 4
#define GAMMA 0.5

static double X[N * D], Y[N], K[N * N];

static void make(void)
{
    uint64_t st = 11;
    for (int i = 0; i < N; i++) {
        Y[i] = i % 2 ? 1 : -1;
        for (int j = 0; j < D; j++) X[i * D + j] = nv_rng_uniform(&st) - 0.5 + (j == 0 ? 0.4 * Y[i] : 0);
    }
    /* nesvm's rbf: exp(-gamma (|x|^2 + |z|^2 - 2 x.z)), the diagonal exactly 1 */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double si = 0, sj = 0, dot = 0;
            for (int e = 0; e < D; e++) {
                si += X[i * D + e] * X[i * D + e];
                sj += X[j * D + e] * X[j * D + e];
                dot += X[i * D + e] * X[j * D + e];
            }
            const double d2 = si + sj - 2 * dot;
            K[i * N + j] = exp(-GAMMA * (d2 > 0 ? d2 : 0));
        }
}

static nesvm_model *train(const nesvm_dataset *ds, const char *kernel, const char *svm_type, nesvm_stats *stats,
                          nesvm_status *status, nesvm_error *err)
{
    nesvm_params *p = NULL;
    nesvm_params_create(&p, NULL);
    nesvm_params_set(p, "kernel", kernel, NULL);
    if (strcmp(kernel, "rbf") == 0) nesvm_params_set(p, "gamma", "0.5", NULL);
    nesvm_params_set(p, "svm_type", svm_type, NULL);
    nesvm_params_set(p, "eps", "1e-8", NULL);
    nesvm_model *m = NULL;
    *status = nesvm_train(ds, p, NULL, NULL, &m, stats, err);
    nesvm_params_destroy(p);
    return m;
}

/* The precomputed matrix trains the rbf kernel's model: the same decision values. */
static void test_same_as_rbf(void)
{
    nesvm_dataset *pc = NULL, *test = NULL, *raw = NULL;
    nesvm_error err = {0};
    CHECK(nesvm_dataset_from_kernel(N, N, K, Y, 1, &pc, &err) == NESVM_OK);
    CHECK(nesvm_dataset_from_kernel(N, N, K, Y, 0, &test, &err) == NESVM_OK);
    CHECK(nesvm_dataset_wrap_dense(N, D, X, Y, &raw, &err) == NESVM_OK);
    CHECK(nesvm_dataset_features(pc) == N + 1);
    const char *types[] = {"c", "ls", "svr"};
    for (int t = 0; t < 3; t++) {
        nesvm_status s1, s2;
        nesvm_stats st = NESVM_STATS_INIT;
        nesvm_model *a = train(pc, "precomputed", types[t], &st, &s1, &err);
        CHECK_MSG(s1 == NESVM_OK, "%s: %s", types[t], err.message);
        CHECK(st.kernel_psd == 1 && st.kernel_note[0] == '\0');
        nesvm_model *b = train(raw, "rbf", types[t], NULL, &s2, &err);
        CHECK(s2 == NESVM_OK);
        CHECK(nesvm_model_kernel_columns(a) > 1 && nesvm_model_kernel_columns(a) <= N);
        CHECK(nesvm_model_kernel_columns(b) == 0);
        double la[N], lb[N], da[N], db[N];
        if (a && b && nesvm_model_predict(a, test, 1, la, da, &err) == NESVM_OK &&
            nesvm_model_predict(b, raw, 1, lb, db, &err) == NESVM_OK) {
            double worst = 0;
            for (int i = 0; i < N; i++) worst = fmax(worst, fabs(da[i] - db[i]));
            CHECK_MSG(worst < 1e-9, "%s: decision values differ by %g", types[t], worst);
        } else {
            CHECK_MSG(0, "predict: %s", err.message);
        }
        /* the support vectors are serial numbers: the model file says "sv 0:i" */
        char *buf = NULL;
        size_t len = 0;
        CHECK(a && nesvm_model_save_buffer(a, &buf, &len, &err) == NESVM_OK);
        CHECK(buf && strstr(buf, "\nkernel precomputed\n") && strstr(buf, "\nsv 0:") && !strstr(buf, "param gamma"));
        nesvm_model *back = NULL;
        CHECK(buf && nesvm_model_load_buffer(buf, len, &back, &err) == NESVM_OK);
        double lc[N], dc[N];
        CHECK(back && nesvm_model_predict(back, test, 1, lc, dc, &err) == NESVM_OK && memcmp(dc, da, sizeof da) == 0);
        nesvm_free(buf);
        nesvm_model_destroy(back);
        nesvm_model_destroy(a);
        nesvm_model_destroy(b);
    }
    nesvm_dataset_destroy(pc);
    nesvm_dataset_destroy(test);
    nesvm_dataset_destroy(raw);
}

/* The driver's checks of a dataset built through the API, and predict's width. */
static void test_refusals(void)
{
    static double V[3 * 4] = {1, 1.0, 0.5, 0.2, 1, 0.5, 1.0, 0.1, 3, 0.2, 0.1, 1.0}; /* serials 1, 1, 3 */
    static double L[3] = {1, -1, 1};
    nesvm_dataset *ds = NULL;
    nesvm_error err = {0};
    nesvm_status s;
    CHECK(nesvm_dataset_wrap_dense(3, 4, V, L, &ds, &err) == NESVM_OK);
    nesvm_model *m = train(ds, "precomputed", "c", NULL, &s, &err);
    CHECK(s == NESVM_ERR_DATA && !m);
    CHECK_MSG(strcmp(err.message, "training row 2: serial number 1 is repeated (training row 1 has it too)") == 0,
              "%s", err.message);
    V[4] = 2.5;
    m = train(ds, "precomputed", "c", NULL, &s, &err);
    CHECK_MSG(s == NESVM_ERR_DATA && strstr(err.message, "training row 2: serial number 2.5 is not an integer"), "%s",
              err.message);
    V[4] = 4; /* beyond the 3 kernel columns */
    m = train(ds, "precomputed", "c", NULL, &s, &err);
    CHECK_MSG(s == NESVM_ERR_DATA && strstr(err.message, "training row 1: the row's kernel values end at index 3, and "
                                                         "serial number 4 (training row 2) needs its column"),
              "%s", err.message);
    V[4] = 2;
    m = train(ds, "precomputed", "c", NULL, &s, &err);
    CHECK_MSG(s == NESVM_OK && m, "%s", err.message);
    /* a narrower dataset to predict: refused, not read as zeros */
    nesvm_dataset *narrow = NULL;
    CHECK(nesvm_dataset_from_kernel(1, 2, K, NULL, 0, &narrow, &err) == NESVM_OK);
    double lab[1];
    if (m && nesvm_model_kernel_columns(m) == 3) {
        CHECK(nesvm_model_predict(m, narrow, 1, lab, NULL, &err) == NESVM_ERR_DATA);
        CHECK_MSG(strstr(err.message, "the rows' kernel values end at column 2, and the model's support vectors reach "
                                      "serial number 3"),
                  "%s", err.message);
    }
    /* and for probabilities */
    nesvm_params *pp = NULL;
    nesvm_params_create(&pp, NULL);
    nesvm_params_set(pp, "kernel", "precomputed", NULL);
    nesvm_params_set(pp, "probability", "1", NULL);
    nesvm_model *mp = NULL;
    nesvm_dataset *big = NULL, *narrow2 = NULL;
    double pr[2 * N];
    CHECK(nesvm_dataset_from_kernel(N, N, K, Y, 1, &big, &err) == NESVM_OK);
    CHECK_MSG(nesvm_train(big, pp, NULL, NULL, &mp, NULL, &err) == NESVM_OK, "%s", err.message);
    CHECK(nesvm_dataset_from_kernel(1, 2, K, NULL, 0, &narrow2, &err) == NESVM_OK);
    CHECK(mp && nesvm_model_predict_proba(mp, narrow2, 1, lab, pr, &err) == NESVM_ERR_DATA &&
          strstr(err.message, "the rows' kernel values end at column 2, and the model's support vectors reach"));
    nesvm_model_destroy(mp);
    nesvm_params_destroy(pp);
    nesvm_dataset_destroy(big);
    nesvm_dataset_destroy(narrow2);
    /* a linear solver refuses it by name */
    nesvm_params *p = NULL;
    nesvm_params_create(&p, NULL);
    nesvm_params_set(p, "kernel", "precomputed", NULL);
    nesvm_params_set(p, "solver", "hyperpass", NULL);
    nesvm_model *h = NULL;
    CHECK(nesvm_train(ds, p, NULL, NULL, &h, NULL, &err) == NESVM_ERR_UNSUPPORTED && !h);
    CHECK_MSG(strstr(err.message, "solver hyperpass trains linear models only: it does not take a precomputed kernel"),
              "%s", err.message);
    nesvm_params_destroy(p);
    nesvm_model_destroy(m);
    nesvm_dataset_destroy(narrow);
    nesvm_dataset_destroy(ds);
    CHECK(nesvm_dataset_from_kernel(2, 2, NULL, NULL, 1, &ds, &err) == NESVM_ERR_ARG);
}

/* The rule: a matrix that is not positive semi-definite sends the C-SVM to
 * SMO (no certificate: nesvm_model_certified says none) and is refused for
 * the LS-SVM; an asymmetric one likewise; a PSD one of rank 1 passes. */
static void test_psd_rule(void)
{
    double S[N * N], R[N * N], A[N * N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double dot = 0;
            for (int e = 0; e < D; e++) dot += X[i * D + e] * X[j * D + e];
            S[i * N + j] = tanh(2 * dot - 1); /* the sigmoid kernel: indefinite here */
            R[i * N + j] = X[i * D] * X[j * D];  /* rank 1 */
            A[i * N + j] = K[i * N + j] + (i < j ? 1e-3 : 0);
        }
    nesvm_error err = {0};
    nesvm_dataset *ds = NULL;
    nesvm_status s;
    nesvm_stats st = NESVM_STATS_INIT;
    CHECK(nesvm_dataset_from_kernel(N, N, S, Y, 1, &ds, &err) == NESVM_OK);
    nesvm_model *m = train(ds, "precomputed", "c", &st, &s, &err);
    CHECK_MSG(s == NESVM_OK && st.kernel_psd == 0 && st.kernel_matrix == 4, "%s", err.message);
    CHECK_MSG(strncmp(st.kernel_note, "its smallest eigenvalue is -", 28) == 0, "%s", st.kernel_note);
    CHECK(m && nesvm_model_certified(m, 0) == NESVM_CERT_NONE);
    nesvm_model_destroy(m);
    m = train(ds, "precomputed", "ls", NULL, &s, &err);
    CHECK(s == NESVM_ERR_UNSUPPORTED && !m);
    CHECK_MSG(strstr(err.message, "the precomputed kernel matrix is not positive semi-definite (its smallest "
                                  "eigenvalue is -"),
              "%s", err.message);
    nesvm_dataset_destroy(ds);
    CHECK(nesvm_dataset_from_kernel(N, N, A, Y, 1, &ds, &err) == NESVM_OK);
    int psd = -1;
    char why[200];
    CHECK(nv_kernel_pc_psd(ds, NULL, N, 100, 1, &psd, why, sizeof why, &err) == NESVM_OK && psd == 0);
    CHECK_MSG(strstr(why, "it is not symmetric: K(x_2,x_1) = 0.64734567266621312 but K(x_1,x_2) = 0.64834567266621312"), "%s", why);
    CHECK(nv_kernel_pc_psd(ds, NULL, N, 0.01, 1, &psd, why, sizeof why, &err) == NESVM_OK && psd == 0);
    CHECK_MSG(strstr(why, "not checked: its 80 x 80 doubles exceed --kernel-memory"), "%s", why);
    nesvm_dataset_destroy(ds);
    CHECK(nesvm_dataset_from_kernel(N, N, R, Y, 1, &ds, &err) == NESVM_OK);
    CHECK(nv_kernel_pc_psd(ds, NULL, N, 100, 1, &psd, why, sizeof why, &err) == NESVM_OK);
    CHECK_MSG(psd == 1, "a rank-1 matrix: %s", why);
    nesvm_dataset_destroy(ds);
}

/* A file of more than a megabyte read by four threads: the lines named by
 * the checks after the parse are the file's (each thread's piece counts its
 * lines from its start). */
static void test_reader_lines(void)
{
    enum { M = 300 };
    char path[] = "/tmp/nesvm_pc_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# a precomputed kernel\n\n");
    for (int i = 0; i < M; i++) {
        fprintf(f, "%d 0:%d", i % 2 ? 1 : -1, i == M - 10 ? 7 : i + 1); /* line 2 + 290 repeats serial 7 */
        for (int j = 0; j < M; j++) fprintf(f, " %d:%.17g", j + 1, 1.0 / (1 + i + j));
        fputc('\n', f);
    }
    fclose(f);
    nesvm_read_options o;
    nesvm_read_options_init(&o);
    o.threads = 4;
    o.precomputed = NESVM_PRECOMPUTED_TRAIN;
    nesvm_dataset *ds = NULL;
    nesvm_error err = {0};
    char want[256];
    snprintf(want, sizeof want, "%s:%d: serial number 7 is repeated (%s:9 has it too)", path, 2 + M - 9, path);
    CHECK(nesvm_dataset_read(path, &o, &ds, &err) == NESVM_ERR_DATA && !ds);
    CHECK_MSG(strcmp(err.message, want) == 0, "%s (expected %s)", err.message, want);
    /* as test rows: no serial number checked, the width against kernel_columns */
    o.precomputed = NESVM_PRECOMPUTED_TEST;
    o.kernel_columns = M;
    CHECK_MSG(nesvm_dataset_read(path, &o, &ds, &err) == NESVM_OK && nesvm_dataset_rows(ds) == M &&
                  nesvm_dataset_features(ds) == M + 1,
              "%s", err.message);
    nesvm_dataset_destroy(ds);
    ds = NULL;
    o.kernel_columns = M + 1;
    CHECK(nesvm_dataset_read(path, &o, &ds, &err) == NESVM_ERR_PARSE);
    snprintf(want, sizeof want, "%s:3:", path);
    CHECK_MSG(strncmp(err.message, want, strlen(want)) == 0 &&
                  strstr(err.message, "the row's kernel values end at index 300, and the model's support vectors "
                                      "reach serial number 301"),
              "%s", err.message);
    o.precomputed = 3;
    CHECK(nesvm_dataset_read(path, &o, &ds, &err) == NESVM_ERR_ARG);
    unlink(path);
}

int main(void)
{
    make();
    test_same_as_rbf();
    test_refusals();
    test_psd_rule();
    test_reader_lines();
    CHECK_DONE();
}
