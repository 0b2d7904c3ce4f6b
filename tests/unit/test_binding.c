/* test_binding.c - the API a language binding needs (python/): models to and
 * from memory buffers, the wider wrap functions (32-bit indptr, float values)
 * and per-sample weights.  Truths: the model file's bytes, the same data
 * given through the plain double/64-bit wrap, the same problem written
 * without weights (rows removed, or C scaled). */
#include "../../src/model/model_internal.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>

#define N 300
#define D 6

static double X[N * D], Y[N];
static float XF[N * D];
static double XR[N * D]; /* X rounded to float, as double */
static int64_t IP64[N + 1];
static int32_t IP32[N + 1];
static int32_t IND[N * D];
static double VAL[N * D];
static float VALF[N * D];
static double VALR[N * D];

static void make(void)
{
    uint64_t st = 5;
    int64_t nnz = 0;
    IP64[0] = IP32[0] = 0;
    for (int i = 0; i < N; i++) {
        Y[i] = i % 3 == 0 ? 2 : i % 3 == 1 ? 7 : 4;
        for (int j = 0; j < D; j++) {
            double v = nv_rng_uniform(&st) < 0.7 ? (nv_rng_uniform(&st) - 0.5) * 2 + 0.4 * (Y[i] - 4) / 3 : 0;
            X[i * D + j] = v;
            XF[i * D + j] = (float)v;
            XR[i * D + j] = (double)(float)v;
            if (v != 0) {
                IND[nnz] = j;
                VAL[nnz] = v;
                VALF[nnz] = (float)v;
                VALR[nnz] = (double)(float)v;
                nnz++;
            }
        }
        IP64[i + 1] = nnz;
        IP32[i + 1] = (int32_t)nnz;
    }
}

static nesvm_model *train_kv(const nesvm_dataset *ds, const char *const *kv, nesvm_status *status)
{
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    for (int k = 0; kv && kv[k]; k += 2)
        CHECK_MSG(nesvm_params_set(p, kv[k], kv[k + 1], NULL) == NESVM_OK, "param %s", kv[k]);
    nesvm_model *m = NULL;
    nesvm_error err = {0};
    nesvm_status s = nesvm_train(ds, p, NULL, NULL, &m, NULL, &err);
    if (status) *status = s;
    else CHECK_MSG(s == NESVM_OK, "train: %s", err.message);
    nesvm_params_destroy(p);
    return m;
}

/* The model's text through the buffer API. */
static char *text(const nesvm_model *m, size_t *len)
{
    char *buf = NULL;
    size_t l = 0;
    CHECK(nesvm_model_save_buffer(m, &buf, &l, NULL) == NESVM_OK);
    if (len) *len = l;
    return buf;
}

/* Both models' texts equal, except the lines of the per-sub-model training
 * record (iterations, primal, gap), which may differ when only the solution
 * must agree: compared through decision values instead. */
static int same_text(const nesvm_model *a, const nesvm_model *b)
{
    char *ta = text(a, NULL), *tb = text(b, NULL);
    int same = ta && tb && strcmp(ta, tb) == 0;
    nesvm_free(ta);
    nesvm_free(tb);
    return same;
}

static double max_decision_diff(const nesvm_model *a, const nesvm_model *b, const nesvm_dataset *ds)
{
    int ns = nesvm_model_submodels(a);
    double *da = malloc(sizeof(double) * N * (size_t)ns), *db = malloc(sizeof(double) * N * (size_t)ns);
    double *la = malloc(sizeof(double) * N), *lb = malloc(sizeof(double) * N);
    CHECK(nesvm_model_predict(a, ds, 1, la, da, NULL) == NESVM_OK);
    CHECK(nesvm_model_predict(b, ds, 1, lb, db, NULL) == NESVM_OK);
    double worst = 0;
    for (int i = 0; i < N * ns; i++) worst = fmax(worst, fabs(da[i] - db[i]) / (1 + fabs(db[i])));
    free(da);
    free(db);
    free(la);
    free(lb);
    return worst;
}

static void test_buffers(void)
{
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, D, X, Y, &ds, NULL) == NESVM_OK);
    const char *lin[] = {"eps", "1e-6", NULL};
    const char *rbf[] = {"kernel", "rbf", "gamma", "0.5", "c", "2", NULL};
    const char *red[] = {"solver", "nssvm", "kernel", "rbf", "basis", "40", NULL};
    const char *const *cases[] = {lin, rbf, red};
    for (int c = 0; c < 3; c++) {
        nesvm_model *m = train_kv(ds, cases[c], NULL);
        /* the buffer holds the file's bytes */
        const char *path = "test_binding.model";
        CHECK(nesvm_model_save(m, path, NULL) == NESVM_OK);
        FILE *f = fopen(path, "rb");
        char *file = calloc(1, 1 << 22);
        size_t flen = f ? fread(file, 1, (1 << 22) - 1, f) : 0;
        if (f) fclose(f);
        remove(path);
        size_t len = 0;
        char *buf = text(m, &len);
        CHECK_MSG(buf && len == flen && memcmp(buf, file, len) == 0 && buf[len] == '\0',
                  "case %d: buffer of %zu bytes, file of %zu", c, len, flen);
        /* loaded back: the same text and the same decision values, bit for bit */
        nesvm_model *m2 = NULL;
        nesvm_error err = {0};
        CHECK_MSG(nesvm_model_load_buffer(buf, len, &m2, &err) == NESVM_OK, "%s", err.message);
        CHECK(same_text(m, m2));
        CHECK(max_decision_diff(m, m2, ds) == 0);
        /* a damaged text: the loader's message, named <buffer> */
        char *bad = malloc(len);
        memcpy(bad, buf, len);
        memcpy(bad, "nesvm_modex", 11);
        nesvm_model *m3 = NULL;
        CHECK(nesvm_model_load_buffer(bad, len, &m3, &err) == NESVM_ERR_MODEL && m3 == NULL);
        CHECK_MSG(strncmp(err.message, "<buffer>:1:", 11) == 0, "message: %s", err.message);
        /* a truncated text, not NUL-terminated within len */
        CHECK(nesvm_model_load_buffer(buf, len / 2, &m3, &err) == NESVM_ERR_MODEL && m3 == NULL);
        free(bad);
        free(file);
        nesvm_free(buf);
        nesvm_model_destroy(m);
        nesvm_model_destroy(m2);
    }
    nesvm_model *m3 = NULL;
    CHECK(nesvm_model_load_buffer("", 0, &m3, NULL) == NESVM_ERR_MODEL);
    CHECK(nesvm_model_load_buffer(NULL, 3, &m3, NULL) == NESVM_ERR_ARG);
    CHECK(nesvm_model_save_buffer(NULL, NULL, NULL, NULL) == NESVM_ERR_ARG);
    nesvm_free(NULL);
    nesvm_dataset_destroy(ds);
}

static void test_wrap_ex(void)
{
    const char *kv[] = {"eps", "1e-6", NULL};
    nesvm_dataset *a, *b, *c, *d, *e;
    /* 32-bit indptr: the same dataset as 64-bit; indices and values borrowed */
    CHECK(nesvm_dataset_wrap_csr(N, D, IP64, IND, VAL, Y, &a, NULL) == NESVM_OK);
    CHECK(nesvm_dataset_wrap_csr_ex(N, D, IP32, 32, IND, 32, VAL, NESVM_DOUBLE, Y, &b, NULL) == NESVM_OK);
    CHECK(b->indices == IND && b->values == VAL && b->indptr != (const int64_t *)IP32);
    nesvm_model *ma = train_kv(a, kv, NULL), *mb = train_kv(b, kv, NULL);
    CHECK(same_text(ma, mb));
    /* float values (CSR and dense) train as the double data rounded to float */
    CHECK(nesvm_dataset_wrap_csr_ex(N, D, IP64, 64, IND, 32, VALF, NESVM_FLOAT, Y, &c, NULL) == NESVM_OK);
    CHECK(c->indptr == IP64 && c->values == VALF && nesvm_dataset_precision(c) == NESVM_FLOAT);
    CHECK(nesvm_dataset_wrap_dense_ex(N, D, XF, NESVM_FLOAT, Y, &d, NULL) == NESVM_OK);
    CHECK(d->values == XF && nesvm_dataset_storage(d) == NESVM_STORAGE_DENSE);
    CHECK(nesvm_dataset_wrap_csr(N, D, IP64, IND, VALR, Y, &e, NULL) == NESVM_OK);
    nesvm_model *mc = train_kv(c, kv, NULL), *md = train_kv(d, kv, NULL), *me = train_kv(e, kv, NULL);
    CHECK(same_text(mc, me));
    CHECK_MSG(max_decision_diff(md, me, e) <= 1e-12, "dense float %g", max_decision_diff(md, me, e));
    /* validation on the float and 32-bit paths */
    nesvm_error err = {0};
    nesvm_dataset *x = NULL;
    float bad[2] = {1.0f, 0.0f};
    bad[1] = bad[1] / bad[1]; /* NaN */
    double lab[1] = {1};
    CHECK(nesvm_dataset_wrap_dense_ex(1, 2, bad, NESVM_FLOAT, lab, &x, &err) == NESVM_ERR_ARG && !x);
    CHECK_MSG(strstr(err.message, "row 0 column 1: value is not finite") != NULL, "%s", err.message);
    int32_t ip_bad[2] = {0, 5};
    int32_t ix[5] = {0, 1, 2, 3, 3};
    float v5[5] = {1, 1, 1, 1, 1};
    CHECK(nesvm_dataset_wrap_csr_ex(1, 9, ip_bad, 32, ix, 32, v5, NESVM_FLOAT, lab, &x, &err) == NESVM_ERR_ARG && !x);
    CHECK_MSG(strstr(err.message, "not ascending") != NULL, "%s", err.message);
    CHECK(nesvm_dataset_wrap_csr_ex(1, 9, ip_bad, 16, ix, 32, v5, NESVM_FLOAT, lab, &x, &err) == NESVM_ERR_ARG);
    CHECK(nesvm_dataset_wrap_csr_ex(1, 9, ip_bad, 32, ix, 8, v5, NESVM_FLOAT, lab, &x, &err) == NESVM_ERR_ARG);
    CHECK_MSG(strstr(err.message, "index_bits is 8") != NULL, "%s", err.message);
    CHECK(nesvm_dataset_wrap_csr_ex(1, 9, ip_bad, 32, ix, 32, v5, (nesvm_precision)7, lab, &x, &err) == NESVM_ERR_ARG);
    nesvm_model *mm[] = {ma, mb, mc, md, me};
    for (int i = 0; i < 5; i++) nesvm_model_destroy(mm[i]);
    nesvm_dataset *dd[] = {a, b, c, d, e};
    for (int i = 0; i < 5; i++) nesvm_dataset_destroy(dd[i]);
}

/* The rows of weight w != 0 as their own dataset (dense). */
static nesvm_dataset *kept(const double *w, double *xs, double *ys)
{
    int64_t k = 0;
    for (int i = 0; i < N; i++)
        if (w[i] != 0) {
            memcpy(xs + k * D, X + i * D, sizeof(double) * D);
            ys[k++] = Y[i];
        }
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(k, D, xs, ys, &ds, NULL) == NESVM_OK);
    return ds;
}

static void test_weights(void)
{
    static double W[N], ones[N], twos[N], xs[N * D], ys[N];
    for (int i = 0; i < N; i++) {
        W[i] = i % 5 == 0 ? 0 : 1;
        ones[i] = 1;
        twos[i] = 2;
    }
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, D, X, Y, &ds, NULL) == NESVM_OK);
    nesvm_dataset *sub = kept(W, xs, ys);
    const char *lin[] = {"eps", "1e-6", NULL};
    const char *lin_c2[] = {"eps", "1e-6", "c", "2", NULL};
    const char *rbf[] = {"kernel", "rbf", "gamma", "0.5", NULL};
    const char *rbf_c2[] = {"kernel", "rbf", "gamma", "0.5", "c", "2", NULL};
    const char *hp[] = {"solver", "hyperpass", NULL};
    const char *hp_c2[] = {"solver", "hyperpass", "c", "2", NULL};
    const char *ns[] = {"solver", "nssvm", "kernel", "rbf", "basis", "40", NULL};
    const char *ns_c2[] = {"solver", "nssvm", "kernel", "rbf", "basis", "40", "c", "2", NULL};
    const char *gs[] = {"solver", "gs", "kernel", "rbf", "cap", "1", NULL};
    const char *gs_c2[] = {"solver", "gs", "kernel", "rbf", "cap", "2", NULL};
    const char *const *plain[] = {lin, rbf, hp, ns, gs};
    const char *const *doubled[] = {lin_c2, rbf_c2, hp_c2, ns_c2, gs_c2};
    for (int c = 0; c < 5; c++) {
        /* weight 0 = the row removed: the same model text, byte for byte */
        CHECK(nesvm_dataset_set_weights(ds, W, NULL) == NESVM_OK);
        nesvm_model *mw = train_kv(ds, plain[c], NULL), *ms = train_kv(sub, plain[c], NULL);
        CHECK_MSG(same_text(mw, ms), "case %d: weight 0 differs from removing the rows", c);
        /* all weights 1 = no weights; all weights 2 = C (GS: the cap) doubled */
        CHECK(nesvm_dataset_set_weights(ds, ones, NULL) == NESVM_OK);
        nesvm_model *m1 = train_kv(ds, plain[c], NULL);
        CHECK(nesvm_dataset_set_weights(ds, twos, NULL) == NESVM_OK);
        nesvm_model *m2 = train_kv(ds, plain[c], NULL);
        CHECK(nesvm_dataset_set_weights(ds, NULL, NULL) == NESVM_OK && nesvm_dataset_weights(ds) == NULL);
        nesvm_model *m0 = train_kv(ds, plain[c], NULL), *mc2 = train_kv(ds, doubled[c], NULL);
        CHECK_MSG(same_text(m1, m0), "case %d: weights 1 differ from none", c);
        /* the texts differ in param c; the solutions agree bit for bit */
        CHECK_MSG(max_decision_diff(m2, mc2, ds) == 0, "case %d: weights 2 vs C x 2: %g", c,
                  max_decision_diff(m2, mc2, ds));
        nesvm_model *mm[] = {mw, ms, m1, m2, m0, mc2};
        for (int i = 0; i < 6; i++) nesvm_model_destroy(mm[i]);
    }
    /* an integer weight is the row repeated: the same optimum, for every solver
     * that solves a convex problem to a certified tolerance (the linear ones and
     * the full kernel; a reduced basis is drawn from the rows, so repeating
     * them draws another; GS-SVM's greedy path and Pegasos's random steps are
     * not the optimum of the problem, so weights and repeats give other paths) */
    {
        static double w3[N], xr[2 * N * D], yr[2 * N];
        int64_t k = 0;
        for (int i = 0; i < N; i++) {
            w3[i] = i % 4 == 0 ? 2 : 1;
            for (int r = 0; r < (int)w3[i]; r++) {
                memcpy(xr + k * D, X + i * D, sizeof(double) * D);
                yr[k++] = Y[i];
            }
        }
        nesvm_dataset *rep;
        CHECK(nesvm_dataset_wrap_dense(k, D, xr, yr, &rep, NULL) == NESVM_OK);
        CHECK(nesvm_dataset_set_weights(ds, w3, NULL) == NESVM_OK);
        const char *t_nesvm[] = {"eps", "1e-9", NULL};
        const char *t_nesterov[] = {"method", "nesterov", "eps", "1e-7", NULL};
        const char *t_hp[] = {"solver", "hyperpass", "eps", "1e-9", NULL};
        const char *t_ssvm[] = {"solver", "ssvm", "eps", "1e-9", NULL};
        const char *t_nssvm[] = {"solver", "nssvm", "eps", "1e-9", NULL};
        const char *t_rbf[] = {"kernel", "rbf", "gamma", "0.3", "eps", "1e-9", NULL};
        const char *t_rbf_ls[] = {"kernel", "rbf", "gamma", "0.3", "svm_type", "ls", "eps", "1e-9", NULL};
        const char *const *tight[] = {t_nesvm, t_nesterov, t_hp, t_ssvm, t_nssvm, t_rbf, t_rbf_ls};
        const double tol[] = {1e-7, 1e-5, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7};
        for (int c = 0; c < 7; c++) {
            nesvm_model *mw = train_kv(ds, tight[c], NULL), *mr = train_kv(rep, tight[c], NULL);
            double pw = 0, pr = 0;
            for (int s = 0; mw && mr && s < nesvm_model_submodels(mw); s++) {
                double a, b;
                nesvm_model_training(mw, s, NULL, NULL, &a, NULL, NULL);
                nesvm_model_training(mr, s, NULL, NULL, &b, NULL, NULL);
                pw += a;
                pr += b;
            }
            CHECK_MSG(fabs(pw - pr) <= tol[c] * pr, "case %d: weight 2 vs repeated rows: primal %.12g vs %.12g", c,
                      pw, pr);
            double dd = mw && mr ? max_decision_diff(mw, mr, ds) : 1;
            CHECK_MSG(dd <= 1e-3, "case %d: weight 2 vs repeated rows: decision values differ by %g", c, dd);
            nesvm_model_destroy(mw);
            nesvm_model_destroy(mr);
        }
        nesvm_dataset_destroy(rep);
    }
    /* bad weights; GS-SVM without a cap; every weight 0; a cost out of range */
    nesvm_error err = {0};
    static double badw[N];
    for (int i = 0; i < N; i++) badw[i] = 1;
    badw[7] = -1;
    CHECK(nesvm_dataset_set_weights(ds, ones, NULL) == NESVM_OK);
    /* refused: the weights set before stay */
    CHECK(nesvm_dataset_set_weights(ds, badw, &err) == NESVM_ERR_ARG && nesvm_dataset_weights(ds) == ones);
    CHECK_MSG(strstr(err.message, "row 8 (counted from 1): sample weight -1 is not a number in [0, 1e100]") != NULL, "%s",
              err.message);
    badw[7] = 0.0 / 0.0;
    CHECK(nesvm_dataset_set_weights(ds, badw, &err) == NESVM_ERR_ARG);
    CHECK(nesvm_dataset_set_weights(ds, ones, NULL) == NESVM_OK);
    /* GS-SVM without a cap: every positive weight is the same hard-margin problem */
    const char *gsnocap[] = {"solver", "gs", "kernel", "rbf", NULL};
    nesvm_status st;
    static double pos[N];
    for (int i = 0; i < N; i++) pos[i] = i % 2 ? 3 : 0.5;
    CHECK(nesvm_dataset_set_weights(ds, pos, NULL) == NESVM_OK);
    nesvm_model *m = train_kv(ds, gsnocap, &st), *m0;
    CHECK(nesvm_dataset_set_weights(ds, NULL, NULL) == NESVM_OK);
    m0 = train_kv(ds, gsnocap, NULL);
    CHECK(st == NESVM_OK && same_text(m, m0));
    nesvm_model_destroy(m);
    nesvm_model_destroy(m0);
    CHECK(nesvm_dataset_values(ds) == X && nesvm_dataset_indices(ds) == NULL && nesvm_dataset_indptr(ds) == NULL);
    static double zeros[N];
    CHECK(nesvm_dataset_set_weights(ds, zeros, NULL) == NESVM_OK);
    m = train_kv(ds, lin, &st);
    CHECK(st == NESVM_ERR_DATA && m == NULL);
    /* what is wrong: the weights, not the data (issue 29) */
    CHECK(nesvm_train(ds, NULL, NULL, NULL, &m, NULL, &err) == NESVM_ERR_DATA && m == NULL);
    CHECK_MSG(strcmp(err.message, "every row's sample weight is 0, and a row of weight 0 is left out: no row to train on") == 0,
              "%s", err.message);
    static double huge[N];
    for (int i = 0; i < N; i++) huge[i] = i == 3 ? 1e100 : 1;
    CHECK(nesvm_dataset_set_weights(ds, huge, NULL) == NESVM_OK);
    const char *bigc[] = {"c", "10", NULL};
    m = train_kv(ds, bigc, &st);
    CHECK(st == NESVM_ERR_ARG && m == NULL);
    /* the row counted from 1 (row index 3) */
    nesvm_params *pc;
    nesvm_params_create(&pc, NULL);
    nesvm_params_set(pc, "c", "10", NULL);
    CHECK(nesvm_train(ds, pc, NULL, NULL, &m, NULL, &err) == NESVM_ERR_ARG && m == NULL);
    nesvm_params_destroy(pc);
    CHECK_MSG(strstr(err.message, "row 4 (counted from 1): its cost C x class weight x sample weight = 10 x 1e+100 is "
                                  "outside [1e-100, 1e15]") != NULL, "%s", err.message);
    nesvm_dataset_destroy(sub);
    nesvm_dataset_destroy(ds);
}

/* Each basis vector is the training row nesvm_model_basis_rows names: full
 * kernel, reduced basis, GS-SVM, with zero-weight rows left out; NULL for a
 * linear model and after a reload. */
static void test_basis_rows(void)
{
    static double W[N];
    for (int i = 0; i < N; i++) W[i] = i % 4 == 1 ? 0 : 1;
    nesvm_dataset *ds;
    CHECK(nesvm_dataset_wrap_dense(N, D, X, Y, &ds, NULL) == NESVM_OK);
    CHECK(nesvm_dataset_set_weights(ds, W, NULL) == NESVM_OK);
    const char *full[] = {"kernel", "rbf", "gamma", "0.5", NULL};
    const char *red[] = {"solver", "ssvm", "kernel", "rbf", "basis", "30", NULL};
    const char *gs[] = {"solver", "gs", "kernel", "rbf", "cap", "1", NULL};
    const char *lin[] = {NULL};
    const char *const *cases[] = {full, red, gs};
    for (int c = 0; c < 3; c++) {
        nesvm_model *m = train_kv(ds, cases[c], NULL);
        const int64_t *br = nesvm_model_basis_rows(m);
        const nesvm_dataset *B = nesvm_model_basis(m);
        CHECK(br != NULL && B != NULL);
        int bad = 0;
        for (int64_t j = 0; br && j < nesvm_dataset_rows(B); j++) {
            bad |= br[j] < 0 || br[j] >= N || W[br[j]] == 0;
            for (int q = 0; q < D && !bad; q++) {
                double e[D] = {0};
                e[q] = 1;
                bad |= nv_row_dot(B, j, e) != X[br[j] * D + q];
            }
        }
        CHECK_MSG(!bad, "case %d: a basis vector is not the row named", c);
        size_t len;
        char *t = text(m, &len);
        nesvm_model *m2 = NULL;
        CHECK(nesvm_model_load_buffer(t, len, &m2, NULL) == NESVM_OK && nesvm_model_basis_rows(m2) == NULL);
        nesvm_free(t);
        nesvm_model_destroy(m2);
        nesvm_model_destroy(m);
    }
    nesvm_model *ml = train_kv(ds, lin, NULL);
    CHECK(nesvm_model_basis_rows(ml) == NULL);
    nesvm_model_destroy(ml);
    nesvm_dataset_destroy(ds);
}

/* 64-bit column indices (scipy's int64 CSR) give the datasets, models, files,
 * scaling and checkpoint hashes of 32-bit ones, on sparse data (the kernels'
 * sparse loops) and on the dense-ish data (dgemm after densifying rows). */
#include "../../src/model/checkpoint.h"
static void test_indices64(void)
{
    enum { NS = 400, DS = 300 };
    static int64_t ip[NS + 1], ix64[NS * 12], ipd[N + 1];
    static int32_t ix32[NS * 12];
    static double v[NS * 12], ys[NS], ind64d[1];
    static int64_t IND64[N * D];
    (void)ind64d;
    uint64_t st = 9;
    int64_t nnz = 0;
    for (int i = 0; i < NS; i++) {
        ys[i] = i % 2 ? 1 : -1;
        int64_t c = (int64_t)(nv_rng_uniform(&st) * 20);
        while (c < DS && nnz < (int64_t)(i + 1) * 12) {
            ix64[nnz] = c;
            ix32[nnz] = (int32_t)c;
            v[nnz] = nv_rng_uniform(&st) + (ys[i] > 0 && c % 7 == 0 ? 0.5 : 0);
            nnz++;
            c += 1 + (int64_t)(nv_rng_uniform(&st) * 40);
        }
        ip[i + 1] = nnz;
    }
    for (int64_t k = 0; k < IP64[N]; k++) IND64[k] = IND[k];
    for (int i = 0; i <= N; i++) ipd[i] = IP64[i];
    struct {
        int64_t n;
        int32_t d;
        const int64_t *ip;
        const int32_t *i32;
        const int64_t *i64;
        const double *v, *y;
    } sets[] = {{NS, DS, ip, ix32, ix64, v, ys}, {N, D, ipd, IND, IND64, VAL, Y}};
    const char *lin[] = {"solver", "hyperpass", NULL};
    const char *rbf[] = {"kernel", "rbf", "gamma", "0.1", NULL};
    const char *ns[] = {"solver", "nssvm", "kernel", "rbf", "gamma", "0.1", "basis", "30", NULL};
    const char *gs[] = {"solver", "gs", "kernel", "rbf", "gamma", "0.1", NULL};
    const char *ne[] = {"kernel", "rbf", "gamma", "0.1", "method", "nesterov", "max_iter", "50", NULL};
    const char *const *cases[] = {lin, rbf, ns, gs, ne};
    for (int a = 0; a < 2; a++) {
        nesvm_dataset *d32, *d64;
        CHECK(nesvm_dataset_wrap_csr_ex(sets[a].n, sets[a].d, sets[a].ip, 64, sets[a].i32, 32, sets[a].v, NESVM_DOUBLE,
                                        sets[a].y, &d32, NULL) == NESVM_OK);
        CHECK(nesvm_dataset_wrap_csr_ex(sets[a].n, sets[a].d, sets[a].ip, 64, sets[a].i64, 64, sets[a].v, NESVM_DOUBLE,
                                        sets[a].y, &d64, NULL) == NESVM_OK);
        CHECK(nesvm_dataset_indices64(d64) == sets[a].i64 && nesvm_dataset_indices(d64) == NULL);
        CHECK(nesvm_dataset_indices64(d32) == NULL && nesvm_dataset_indices(d32) == sets[a].i32);
        for (int c = 0; c < 5; c++) {
            nesvm_model *m32 = train_kv(d32, cases[c], NULL), *m64 = train_kv(d64, cases[c], NULL);
            CHECK_MSG(same_text(m32, m64), "set %d case %d: 64-bit indices give another model", a, c);
            nesvm_model_destroy(m32);
            nesvm_model_destroy(m64);
        }
        /* the written files, the scaling and the checkpoint hash */
        CHECK(nesvm_dataset_write(d32, "test_binding32.txt", NULL) == NESVM_OK);
        CHECK(nesvm_dataset_write(d64, "test_binding64.txt", NULL) == NESVM_OK);
        FILE *f1 = fopen("test_binding32.txt", "rb"), *f2 = fopen("test_binding64.txt", "rb");
        int same = f1 && f2;
        for (int ch1 = 0, ch2 = 0; same && ch1 != EOF;) {
            ch1 = fgetc(f1);
            ch2 = fgetc(f2);
            same = ch1 == ch2;
        }
        if (f1) fclose(f1);
        if (f2) fclose(f2);
        remove("test_binding32.txt");
        remove("test_binding64.txt");
        CHECK_MSG(same, "set %d: written files differ", a);
        nesvm_scaling *sc;
        CHECK(nesvm_scaling_fit(d64, -1, 1, 0, 0, &sc, NULL) == NESVM_OK);
        nesvm_dataset *s32, *s64;
        CHECK(nesvm_scaling_apply(sc, d32, &s32, NULL) == NESVM_OK);
        CHECK(nesvm_scaling_apply(sc, d64, &s64, NULL) == NESVM_OK);
        CHECK(s32->nnz == s64->nnz && memcmp(s32->values, s64->values, sizeof(double) * (size_t)s32->nnz) == 0 &&
              memcmp(s32->indices, s64->indices, sizeof(int32_t) * (size_t)s32->nnz) == 0);
        CHECK(nv_dataset_hash(d32, NULL, sets[a].n) == nv_dataset_hash(d64, NULL, sets[a].n));
        nesvm_dataset_destroy(s32);
        nesvm_dataset_destroy(s64);
        nesvm_scaling_destroy(sc);
        nesvm_dataset_destroy(d32);
        nesvm_dataset_destroy(d64);
    }
    /* validation of 64-bit indices */
    int64_t bad_ix[2] = {1, (int64_t)1 << 40};
    double bv[2] = {1, 1}, lab[1] = {1};
    int64_t bip[2] = {0, 2};
    nesvm_dataset *x = NULL;
    nesvm_error err = {0};
    CHECK(nesvm_dataset_wrap_csr_ex(1, 5, bip, 64, bad_ix, 64, bv, NESVM_DOUBLE, lab, &x, &err) == NESVM_ERR_ARG && !x);
    CHECK_MSG(strstr(err.message, "row 0: column 1099511627776 is out of range or not ascending") != NULL, "%s",
              err.message);
}

int main(void)
{
    make();
    test_buffers();
    test_wrap_ex();
    test_weights();
    test_basis_rows();
    test_indices64();
    CHECK_DONE();
}
