/* test_gs.c - GS-SVM: the loss and stopping rule against an explicit kernel
 * matrix, a separable set with a closed-form hard-margin solution, kernel
 * columns against the naive kernel, the column cache, the cap, the bias,
 * the linear kernel. */
#include "check.h"

#include "kernel/kernel.h"
#include "linalg/linalg.h"
#include "toy.h"

#include <sys/resource.h>

/* Per-step losses from the progress callback. */
typedef struct {
    int64_t n;
    double loss[8192];
} steps;

static int on_step(const nesvm_progress *pg, void *user)
{
    steps *s = user;
    CHECK_MSG(pg->size == sizeof(nesvm_progress), "progress size %zu", pg->size);
    if (s->n < 8192) s->loss[s->n++] = pg->primal;
    return 0;
}

static nesvm_model *train_gs(const nesvm_dataset *ds, const char *const *kv, nesvm_stats *st, steps *rec)
{
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    CHECK(nesvm_params_set(p, "solver", "gs", NULL) == NESVM_OK);
    for (int k = 0; kv && kv[k]; k += 2) CHECK_MSG(nesvm_params_set(p, kv[k], kv[k + 1], NULL) == NESVM_OK, "%s", kv[k]);
    nesvm_model *m = NULL;
    nesvm_error err = {0};
    if (rec) rec->n = 0;
    CHECK_MSG(nesvm_train(ds, p, rec ? on_step : NULL, rec, &m, st, &err) == NESVM_OK, "%s", err.message);
    nesvm_params_destroy(p);
    return m;
}

static double rbf(const double *a, const double *b, int d, double gamma)
{
    double s = 0;
    for (int j = 0; j < d; j++) s += (a[j] - b[j]) * (a[j] - b[j]);
    return exp(-gamma * s);
}

/* alpha_i y_i for every training row from the model (basis rows matched by value). */
static void coef_by_row(const toy *t, const nesvm_model *m, double *beta)
{
    const nesvm_dataset *B = nesvm_model_basis(m);
    const double *c;
    int64_t nb;
    double b;
    int pos;
    nesvm_model_expansion(m, 0, &c, &nb, &b, &pos, NULL, NULL);
    double sg = nesvm_model_labels(m)[pos] == 1 ? 1 : -1;
    memset(beta, 0, sizeof(double) * (size_t)t->n);
    for (int64_t j = 0; j < nb; j++) {
        double e[64], v[64] = {0};
        for (int32_t q = 0; q < t->d; q++) {
            memset(e, 0, sizeof e);
            e[q] = 1;
            v[q] = nv_row_dot(B, j, e);
        }
        for (int64_t i = 0; i < t->n; i++) {
            int same = 1;
            for (int32_t q = 0; q < t->d && same; q++) same = v[q] == t->X[i * t->d + q];
            if (same) {
                beta[i] = sg * c[j];
                break;
            }
        }
    }
}

static void test_loss_and_stop(void)
{
    toy t;
    make_toy(&t, 200, 3, 0, 0, 71);
    const double gamma = 0.8;
    const char *kv[] = {"kernel", "rbf", "gamma", "0.8", NULL};
    nesvm_stats st = NESVM_STATS_INIT;
    steps rec;
    nesvm_model *m = train_gs(t.ds, kv, &st, &rec);
    CHECK(st.exit_reason == NESVM_EXIT_CONVERGED);
    CHECK(rec.n == st.iterations && rec.n > 10);
    /* the loss (eq. 10) decreases at every step */
    for (int64_t k = 1; k < rec.n; k++) CHECK_MSG(rec.loss[k] < rec.loss[k - 1], "step %lld", (long long)k);
    CHECK(rec.loss[0] < 0);
    /* the final loss and the stopping rule from the explicit kernel matrix */
    double *beta = malloc(sizeof(double) * (size_t)t.n), *f = calloc((size_t)t.n, sizeof(double));
    coef_by_row(&t, m, beta);
    int64_t nsv = 0;
    double loss = 0;
    for (int64_t i = 0; i < t.n; i++) {
        for (int64_t j = 0; j < t.n; j++) f[i] += beta[j] * rbf(t.X + i * 3, t.X + j * 3, 3, gamma);
        nsv += beta[i] != 0;
        /* alpha_i = beta_i y_i >= 0 */
        CHECK(beta[i] * t.y[i] >= 0);
    }
    for (int64_t i = 0; i < t.n; i++) loss += 0.5 * beta[i] * f[i] - beta[i] * t.y[i];
    CHECK(nsv == st.iterations);
    CHECK_REL(loss, st.primal, 1e-10);
    CHECK_REL(loss, rec.loss[rec.n - 1], 1e-10);
    /* Algorithm 1 step 3: every unselected sample has g_i = y_i f(x_i) - 1 >= 0 */
    for (int64_t i = 0; i < t.n; i++)
        if (beta[i] == 0) CHECK_MSG(t.y[i] * f[i] - 1 >= -1e-12, "g_%lld = %g", (long long)i, t.y[i] * f[i] - 1);
    /* decision values from the model = f */
    double *lab = malloc(sizeof(double) * (size_t)t.n), *dec = malloc(sizeof(double) * (size_t)t.n);
    CHECK(nesvm_model_predict(m, t.ds, 1, lab, dec, NULL) == NESVM_OK);
    int pos;
    nesvm_model_expansion(m, 0, NULL, NULL, NULL, &pos, NULL, NULL);
    double sg = nesvm_model_labels(m)[pos] == 1 ? 1 : -1;
    for (int64_t i = 0; i < t.n; i++) CHECK(fabs(sg * dec[i] - f[i]) <= 1e-10 * (1 + fabs(f[i])));
    /* max_iter caps the number of basis functions */
    const char *kv2[] = {"kernel", "rbf", "gamma", "0.8", "max_iter", "7", NULL};
    nesvm_model *m2 = train_gs(t.ds, kv2, &st, NULL);
    CHECK(st.exit_reason == NESVM_EXIT_MAX_ITER && st.iterations == 7 && st.n_sv == 7);
    CHECK_REL(st.primal, rec.loss[6], 1e-12); /* the same first 7 steps */
    /* the soft-margin cap: alpha_i <= C */
    const char *kv3[] = {"kernel", "rbf", "gamma", "0.8", "cap", "0.25", NULL};
    nesvm_model *m3 = train_gs(t.ds, kv3, &st, NULL);
    coef_by_row(&t, m3, beta);
    double amax = 0;
    for (int64_t i = 0; i < t.n; i++) amax = fmax(amax, fabs(beta[i]));
    CHECK_MSG(amax <= 0.25 * (1 + 1e-15) && amax >= 0.25 * (1 - 1e-15), "max alpha %g", amax);
    nesvm_model_destroy(m);
    nesvm_model_destroy(m2);
    nesvm_model_destroy(m3);
    free(beta);
    free(f);
    free(lab);
    free(dec);
    free_toy(&t);
}

/* Two points, one per class: the hard-margin solution is alpha_1 = alpha_2 =
 * 1/(1 - K12), loss -1/(1 - K12).  GS's loss is above that minimum and its
 * decision function separates the points; so does it on four separable
 * clusters (XOR), with every training point classified right. */
static void test_separable(void)
{
    double X[4] = {0.4, 0.1, -0.3, -0.2}, y[2] = {1, -1};
    nesvm_dataset *ds;
    nesvm_dataset_wrap_dense(2, 2, X, y, &ds, NULL);
    const char *kv[] = {"kernel", "rbf", "gamma", "2", NULL};
    nesvm_stats st = NESVM_STATS_INIT;
    nesvm_model *m = train_gs(ds, kv, &st, NULL);
    double k12 = rbf(X, X + 2, 2, 2);
    CHECK(st.primal >= -1 / (1 - k12) - 1e-12);
    CHECK(st.iterations == 2);
    double lab[2], dec[2];
    CHECK(nesvm_model_predict(m, ds, 1, lab, dec, NULL) == NESVM_OK);
    CHECK(lab[0] == 1 && lab[1] == -1);
    nesvm_model_destroy(m);
    nesvm_dataset_destroy(ds);
    /* XOR clusters */
    const int64_t n = 200;
    double *Z = malloc(sizeof(double) * (size_t)(2 * n)), *yz = malloc(sizeof(double) * (size_t)n);
    uint64_t s = 5;
    for (int64_t i = 0; i < n; i++) {
        int q = (int)(i % 4);
        double cx = q & 1 ? 1 : -1, cy = q & 2 ? 1 : -1;
        Z[2 * i] = cx + 0.3 * (urand(&s) - 0.5);
        Z[2 * i + 1] = cy + 0.3 * (urand(&s) - 0.5);
        yz[i] = cx * cy;
    }
    nesvm_dataset_wrap_dense(n, 2, Z, yz, &ds, NULL);
    m = train_gs(ds, kv, &st, NULL);
    double *l = malloc(sizeof(double) * (size_t)n);
    CHECK(nesvm_model_predict(m, ds, 1, l, NULL, NULL) == NESVM_OK);
    int ok = 0;
    for (int64_t i = 0; i < n; i++) ok += l[i] == yz[i];
    CHECK_MSG(ok == n, "%d of %lld", ok, (long long)n);
    CHECK(st.exit_reason == NESVM_EXIT_CONVERGED);
    nesvm_model_destroy(m);
    nesvm_dataset_destroy(ds);
    free(Z);
    free(yz);
    free(l);
}

/* Kernel columns: dense, CSR and float storage against the naive kernel. */
static void test_columns(void)
{
    for (int csr = 0; csr < 2; csr++) {
        toy t;
        make_toy(&t, 90, 6, csr, csr, 13);
        const nv_kernel ks[3] = {{NV_KERNEL_RBF, 0.3, 0, 3}, {NV_KERNEL_POLY, 0.5, 1, 3}, {NV_KERNEL_SIGMOID, 0.1, 0.2, 3}};
        int64_t rows[40];
        for (int a = 0; a < 40; a++) rows[a] = 2 * a + 1;
        for (int kk = 0; kk < 3; kk++)
            for (int threads = 1; threads <= 2; threads++) {
                nv_kcache c;
                CHECK(nv_kcache_init(&c, &ks[kk], t.ds, rows, 40, NULL, 1, 0, 0, threads, NULL) == NESVM_OK);
                for (int64_t p = 0; p < 40; p += 7) {
                    const double *col;
                    CHECK(nv_kcache_column(&c, p, NULL, 0, NULL, 0, &col, NULL) == NESVM_OK);
                    for (int64_t i = 0; i < 40; i++) {
                        const double *a = t.X + rows[i] * 6, *b = t.X + rows[p] * 6;
                        double dot = nv_dot(a, b, 6), want;
                        if (kk == 0) want = rbf(a, b, 6, 0.3);
                        else if (kk == 1) want = pow(0.5 * dot + 1, 3);
                        else want = tanh(0.1 * dot + 0.2);
                        CHECK_MSG(fabs(col[i] - want) <= 1e-12 * (1 + fabs(want)), "%.17g vs %.17g", col[i], want);
                    }
                    CHECK_REL(nv_kcache_diag(&c, p), kk == 0 ? 1.0 : kk == 1 ? pow(0.5 * nv_dot(t.X + rows[p] * 6, t.X + rows[p] * 6, 6) + 1, 3) : tanh(0.1 * nv_dot(t.X + rows[p] * 6, t.X + rows[p] * 6, 6) + 0.2), 1e-13);
                }
                CHECK(c.misses == 6 && c.hits == 0 && c.evals == 240 && c.asked == 240);
                nv_kcache_free(&c);
                /* three groups (position mod 3): a subset of groups 2 and 0 in
                 * descending order, and every position, from their segments */
                int grp[40];
                for (int a = 0; a < 40; a++) grp[a] = a % 3;
                /* copy: rows copied dense and grouped (1 MB allowed: the toy is 20% non-zero), or read in place */
                for (int copy = 0; copy < 2; copy++) {
                    CHECK(nv_kcache_init(&c, &ks[kk], t.ds, rows, 40, grp, 3, 1, copy, threads, NULL) == NESVM_OK);
                    CHECK(c.ngroups == 3 && (c.Xg != NULL) == copy);
                    int64_t sub[40];
                    int nsub = 0;
                    for (int a = 39; a >= 0; a--)
                        if (a % 3 != 1) sub[nsub++] = a;
                    const int gq[2] = {2, 0};
                    for (int pass = 0; pass < 2; pass++)
                        for (int64_t p = 1; p < 40; p += 9) {
                            const double *col;
                            CHECK(nv_kcache_column(&c, p, pass ? NULL : sub, pass ? 0 : nsub, pass ? NULL : gq, 2, &col,
                                                   NULL) == NESVM_OK);
                            for (int a = 0; a < (pass ? 40 : nsub); a++) {
                                int64_t i = pass ? a : sub[a];
                                const double *u = t.X + rows[i] * 6, *v = t.X + rows[p] * 6;
                                double dot = nv_dot(u, v, 6), want;
                                if (kk == 0) want = rbf(u, v, 6, 0.3);
                                else if (kk == 1) want = pow(0.5 * dot + 1, 3);
                                else want = tanh(0.1 * dot + 0.2);
                                CHECK_MSG(fabs(col[a] - want) <= 1e-12 * (1 + fabs(want)), "group %d: %.17g vs %.17g",
                                          pass, col[a], want);
                            }
                        }
                    /* pass 0: groups 2 and 0 (13 + 14 values) for 5 columns; pass 1:
                     * those from the cache, group 1 (13 values) computed */
                    CHECK(c.misses == 15 && c.hits == 10 && c.evals == 5 * 40 && c.asked == 5 * (27 + 40));
                    nv_kcache_free(&c);
                }
            }
        free_toy(&t);
    }
}

/* A few values at index 2^31 - 2 (issue 29): the cache's columns, kernel
 * blocks and a GS-SVM training take memory by the stored values, not by the
 * largest index (a vector of that width is 16 GB).  Outside AddressSanitizer
 * (which reserves terabytes of address space at start) the address space is
 * limited to 2 GB meanwhile, so such a vector fails to allocate; the values
 * are checked against sums over the few entries by hand. */
#if defined(__SANITIZE_ADDRESS__)
#define NV_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NV_TEST_ASAN 1
#endif
#endif
static void test_wide_index(void)
{
    /* rows: {0: 1, W: 1}, {0: 0.5}, {1: 1}, {2: 1, W: -2}, {0: 0.2, 1: 0.3}; W = 2^31 - 2 (0-based) */
    const int32_t W = INT32_MAX - 1;
    static int64_t ip[6] = {0, 2, 3, 4, 6, 8};
    static int32_t ix[8] = {0, INT32_MAX - 1, 0, 1, 2, INT32_MAX - 1, 0, 1};
    static double vx[8] = {1, 1, 0.5, 1, 1, -2, 0.2, 0.3}, lab[5] = {1, -1, 1, -1, 1};
    double dense[5][4] = {{1, 0, 0, 1}, {0.5, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, -2}, {0.2, 0.3, 0, 0}};
    nesvm_dataset *ds = NULL;
    CHECK(nesvm_dataset_wrap_csr(5, W + 1, ip, ix, vx, lab, &ds, NULL) == NESVM_OK);
    if (!ds) return;
#ifndef NV_TEST_ASAN
    struct rlimit old, lim;
    getrlimit(RLIMIT_AS, &old);
    lim = old;
    lim.rlim_cur = (rlim_t)2 << 30;
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < lim.rlim_cur) lim.rlim_cur = old.rlim_max;
    CHECK(setrlimit(RLIMIT_AS, &lim) == 0);
#endif
    const nv_kernel k = {NV_KERNEL_RBF, 0.5, 0, 3};
    double want[5][5];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) want[i][j] = rbf(dense[i], dense[j], 4, 0.5);
    const int grp[5] = {0, 1, 0, 1, 0};
    for (int threads = 1; threads <= 2; threads++)
        for (int ng = 1; ng <= 2; ng++) {
            nv_kcache c;
            nesvm_error err = {0};
            nesvm_status st = nv_kcache_init(&c, &k, ds, NULL, 5, ng > 1 ? grp : NULL, ng, 1, 1, threads, &err);
            CHECK_MSG(st == NESVM_OK, "cache: %s", err.message);
            if (st != NESVM_OK) continue;
            CHECK(c.z.z == NULL); /* no dense row of 2^31 entries */
            for (int64_t p = 0; p < 5; p++) {
                const double *col;
                CHECK(nv_kcache_column(&c, p, NULL, 0, NULL, 0, &col, NULL) == NESVM_OK);
                for (int i = 0; i < 5; i++)
                    CHECK_MSG(fabs(col[i] - want[i][p]) <= 1e-14, "K(%d, %d) = %.17g, want %.17g", i, (int)p, col[i],
                              want[i][p]);
            }
            /* a row from elsewhere (another rank's), as nv_rows_pack sends it */
            const double packed[] = {1, 2, 0, 1, (double)W, 1};
            nv_zrow zr;
            CHECK(nv_zrow_init(&zr, ds, NULL) == NESVM_OK && nv_zrow_set_packed(&zr, packed));
            double col[5];
            nv_kcache_external(&c, &zr, 2.0, NULL, 5, col);
            for (int i = 0; i < 5; i++) CHECK(fabs(col[i] - want[i][0]) <= 1e-14);
            nv_zrow_free(&zr);
            nv_kcache_free(&c);
            /* a kernel block of the rows against themselves */
            double sq[5], blk[25];
            nv_kernel_sqnorms(NULL, ds, NULL, 5, sq);
            st = nv_kernel_block(&k, ds, NULL, 5, sq, ds, NULL, 5, sq, blk, 5, threads, &err);
            CHECK_MSG(st == NESVM_OK, "block: %s", err.message);
            for (int i = 0; st == NESVM_OK && i < 25; i++) CHECK(fabs(blk[i] - want[i / 5][i % 5]) <= 1e-14);
        }
    /* a GS-SVM training and its decision values: those of the same training
     * on the four columns in use (the same kernel values) */
    const char *kv[] = {"kernel", "rbf", "gamma", "0.5", NULL};
    nesvm_stats stt = NESVM_STATS_INIT;
    nesvm_dataset *narrow = NULL;
    CHECK(nesvm_dataset_wrap_dense(5, 4, &dense[0][0], lab, &narrow, NULL) == NESVM_OK);
    nesvm_model *m = train_gs(ds, kv, &stt, NULL), *mn = narrow ? train_gs(narrow, kv, &stt, NULL) : NULL;
    CHECK(m != NULL && mn != NULL);
    if (m && mn) {
        double pred[5], dec[5], predn[5], decn[5];
        nesvm_error err = {0};
        CHECK_MSG(nesvm_model_predict(m, ds, 1, pred, dec, &err) == NESVM_OK, "predict: %s", err.message);
        CHECK(nesvm_model_predict(mn, narrow, 1, predn, decn, NULL) == NESVM_OK);
        for (int i = 0; i < 5; i++)
            CHECK_MSG(pred[i] == predn[i] && fabs(dec[i] - decn[i]) <= 1e-12, "row %d: %.17g vs %.17g", i, dec[i],
                      decn[i]);
    }
    nesvm_model_destroy(m);
    nesvm_model_destroy(mn);
    nesvm_dataset_destroy(narrow);
#ifndef NV_TEST_ASAN
    CHECK(setrlimit(RLIMIT_AS, &old) == 0);
#endif
    nesvm_dataset_destroy(ds);
}

/* The LRU cache: hits, evictions, and the same model with or without it. */
static void test_cache(void)
{
    toy t;
    make_toy(&t, 50, 3, 0, 0, 3);
    nv_kernel k = {NV_KERNEL_RBF, 0.5, 0, 3};
    nv_kcache c;
    /* room for 2 columns of 50 doubles */
    CHECK(nv_kcache_init(&c, &k, t.ds, NULL, 50, NULL, 1, 2 * 50 * 8 / 1048576.0, 0, 1, NULL) == NESVM_OK);
    CHECK(c.budget == 100);
    const double *col;
    double first;
    nv_kcache_column(&c, 3, NULL, 0, NULL, 0, &col, NULL);
    first = col[10];
    nv_kcache_column(&c, 4, NULL, 0, NULL, 0, &col, NULL);
    nv_kcache_column(&c, 3, NULL, 0, NULL, 0, &col, NULL); /* hit; 4 is now least recent */
    CHECK(c.hits == 1 && c.misses == 2 && col[10] == first);
    nv_kcache_column(&c, 5, NULL, 0, NULL, 0, &col, NULL); /* evicts 4 */
    nv_kcache_column(&c, 3, NULL, 0, NULL, 0, &col, NULL); /* still there */
    CHECK(c.hits == 2 && c.misses == 3 && col[10] == first);
    nv_kcache_column(&c, 4, NULL, 0, NULL, 0, &col, NULL); /* recomputed */
    CHECK(c.misses == 4);
    nv_kcache_free(&c);
    /* segments of different lengths: groups of 10 and 40 positions, room for
     * 50 values; the 40-long segment evicts until it fits */
    int grp[50];
    for (int a = 0; a < 50; a++) grp[a] = a < 10 ? 0 : 1;
    CHECK(nv_kcache_init(&c, &k, t.ds, NULL, 50, grp, 2, 50 * 8 / 1048576.0, 0, 1, NULL) == NESVM_OK);
    const int g0[1] = {0}, g1[1] = {1};
    int64_t q0[10], q1[40];
    for (int a = 0; a < 10; a++) q0[a] = a;
    for (int a = 0; a < 40; a++) q1[a] = 10 + a;
    nv_kcache_column(&c, 1, q0, 10, g0, 1, &col, NULL);
    nv_kcache_column(&c, 2, q0, 10, g0, 1, &col, NULL);
    nv_kcache_column(&c, 3, q0, 10, g0, 1, &col, NULL);
    CHECK(c.used == 30 && c.misses == 3);
    nv_kcache_column(&c, 1, q0, 10, g0, 1, &col, NULL); /* hit: 2 is now least recent */
    nv_kcache_column(&c, 1, q1, 40, g1, 1, &col, NULL); /* 40 more: evicts 2 and 3 */
    CHECK(c.used == 50 && c.hits == 1 && c.misses == 4);
    nv_kcache_column(&c, 1, q0, 10, g0, 1, &col, NULL);
    CHECK(c.hits == 2);
    nv_kcache_column(&c, 3, q0, 10, g0, 1, &col, NULL); /* recomputed, evicts the 40 */
    CHECK(c.misses == 5 && c.used == 20);
    nv_kcache_column(&c, 2, q0, 10, g0, 1, &col, NULL);
    CHECK(c.misses == 6 && c.used == 30 && c.evals == 5 * 10 + 40);
    nv_kcache_free(&c);
    free_toy(&t);
    /* three classes, one-vs-one: the cache serves the sub-problems that share a class */
    const int64_t n = 150;
    double *X = malloc(sizeof(double) * (size_t)(2 * n)), *y = malloc(sizeof(double) * (size_t)n);
    uint64_t s = 9;
    for (int64_t i = 0; i < n; i++) {
        y[i] = (double)(i % 3);
        X[2 * i] = y[i] + urand(&s);
        X[2 * i + 1] = urand(&s);
    }
    nesvm_dataset *ds;
    nesvm_dataset_wrap_dense(n, 2, X, y, &ds, NULL);
    const char *on[] = {"kernel", "rbf", "gamma", "1", NULL};
    const char *off[] = {"kernel", "rbf", "gamma", "1", "cache_size", "0", NULL};
    nesvm_stats s1 = NESVM_STATS_INIT, s2 = NESVM_STATS_INIT;
    nesvm_model *m1 = train_gs(ds, on, &s1, NULL), *m2 = train_gs(ds, off, &s2, NULL);
    CHECK(s1.cache_hits > 0 && s2.cache_hits == 0);
    CHECK(s1.kernel_columns + s1.cache_hits == s2.kernel_columns);
    CHECK(s1.kernel_evals < s2.kernel_evals);
    /* each pair asks its two classes' 100 rows per basis function; without
     * the cache all of it is computed */
    CHECK(s1.kernel_asked == 100 * s1.n_sv && s2.kernel_asked == s1.kernel_asked);
    CHECK(s2.kernel_evals == s2.kernel_asked);
    CHECK(nesvm_model_submodels(m1) == 3);
    for (int sm = 0; sm < 3; sm++) {
        const double *c1, *c2;
        int64_t n1, n2;
        double b1, b2;
        nesvm_model_expansion(m1, sm, &c1, &n1, &b1, NULL, NULL, NULL);
        nesvm_model_expansion(m2, sm, &c2, &n2, &b2, NULL, NULL, NULL);
        CHECK(n1 == n2 && b1 == b2);
        for (int64_t j = 0; j < n1 && n1 == n2; j++) CHECK(c1[j] == c2[j]);
    }
    nesvm_model_destroy(m1);
    nesvm_model_destroy(m2);
    nesvm_dataset_destroy(ds);
    free(X);
    free(y);
}

/* -B B: the kernel K + B^2 and b = B^2 sum_i alpha_i y_i. */
static void test_bias(void)
{
    toy t;
    make_toy(&t, 120, 3, 0, 0, 17);
    /* B = 1: the rows' largest norm in the rbf kernel's space (K(x,x) = 1); beyond
     * it the bias is refused (issue 29: at B = 10 GS-SVM predicted one class) */
    {
        nesvm_params *p = NULL;
        nesvm_error err = {0};
        CHECK(nesvm_params_create(&p, NULL) == NESVM_OK);
        nesvm_model *bad = NULL;
        CHECK(nesvm_params_set(p, "solver", "gs", NULL) == NESVM_OK);
        CHECK(nesvm_params_set(p, "kernel", "rbf", NULL) == NESVM_OK);
        CHECK(nesvm_params_set(p, "bias", "1.01", NULL) == NESVM_OK);
        CHECK(nesvm_train(t.ds, p, NULL, NULL, &bad, NULL, &err) == NESVM_ERR_ARG && bad == NULL);
        CHECK_MSG(strstr(err.message, "sqrt(max K(x,x)) = 1") != NULL, "%s", err.message);
        nesvm_params_destroy(p);
    }
    const char *kv[] = {"kernel", "rbf", "gamma", "0.5", "bias", "1", NULL};
    nesvm_stats st = NESVM_STATS_INIT;
    nesvm_model *m = train_gs(t.ds, kv, &st, NULL);
    const double *c;
    int64_t nb;
    double b;
    nesvm_model_expansion(m, 0, &c, &nb, &b, NULL, NULL, NULL);
    double sum = 0;
    for (int64_t j = 0; j < nb; j++) sum += c[j];
    CHECK_REL(b, 1 * sum, 1e-12);
    CHECK(b != 0);
    /* the stopping rule holds with K + B^2: y_i f(x_i) >= 1 for the unselected */
    double *beta = malloc(sizeof(double) * (size_t)t.n), *lab = malloc(sizeof(double) * (size_t)t.n),
           *dec = malloc(sizeof(double) * (size_t)t.n);
    coef_by_row(&t, m, beta);
    CHECK(nesvm_model_predict(m, t.ds, 1, lab, dec, NULL) == NESVM_OK);
    int pos;
    nesvm_model_expansion(m, 0, NULL, NULL, NULL, &pos, NULL, NULL);
    double sg = nesvm_model_labels(m)[pos] == 1 ? 1 : -1;
    for (int64_t i = 0; i < t.n; i++)
        if (beta[i] == 0) CHECK(t.y[i] * sg * dec[i] >= 1 - 1e-12);
    free(beta);
    free(lab);
    free(dec);
    nesvm_model_destroy(m);
    free_toy(&t);
}

/* The linear kernel: the same steps as poly of degree 1 (gamma 1, coef0 0,
 * the same K), folded into a weight vector w = sum_j beta_j x_j. */
static void test_linear(void)
{
    for (int csr = 0; csr <= 1; csr++) {
        toy t;
        make_toy(&t, 150, 5, 1, csr, 23);
        const char *kl[] = {"bias", "1", NULL};
        const char *kp[] = {"kernel", "poly", "gamma", "1", "coef0", "0", "degree", "1", "bias", "1", NULL};
        nesvm_stats sl = NESVM_STATS_INIT, sp = NESVM_STATS_INIT;
        nesvm_model *ml = train_gs(t.ds, kl, &sl, NULL), *mp = train_gs(t.ds, kp, &sp, NULL);
        CHECK(nesvm_model_basis(ml) == NULL);
        CHECK(sl.kernel_columns == sp.kernel_columns && sl.kernel_columns > 0);
        CHECK(sl.iterations == sp.iterations);
        CHECK_REL(sl.primal, sp.primal, 1e-12);
        const double *wl, *cp;
        int64_t nl, np;
        double bl, bp;
        nesvm_model_expansion(ml, 0, &wl, &nl, &bl, NULL, NULL, NULL);
        nesvm_model_expansion(mp, 0, &cp, &np, &bp, NULL, NULL, NULL);
        CHECK(nl == t.d);
        CHECK_REL(bl, bp, 1e-12);
        double w[8] = {0};
        const nesvm_dataset *B = nesvm_model_basis(mp);
        for (int64_t j = 0; j < np; j++) nv_row_axpy(B, j, cp[j], w);
        for (int q = 0; q < t.d; q++) CHECK_MSG(fabs(wl[q] - w[q]) <= 1e-10 * (1 + fabs(w[q])), "w[%d] %g vs %g", q, wl[q], w[q]);
        double *dl = malloc(sizeof(double) * (size_t)t.n), *dp = malloc(sizeof(double) * (size_t)t.n),
               *lab = malloc(sizeof(double) * (size_t)t.n);
        CHECK(nesvm_model_predict(ml, t.ds, 1, lab, dl, NULL) == NESVM_OK);
        CHECK(nesvm_model_predict(mp, t.ds, 1, lab, dp, NULL) == NESVM_OK);
        for (int64_t i = 0; i < t.n; i++) CHECK(fabs(dl[i] - dp[i]) <= 1e-10 * (1 + fabs(dp[i])));
        free(dl);
        free(dp);
        free(lab);
        nesvm_model_destroy(ml);
        nesvm_model_destroy(mp);
        free_toy(&t);
    }
}

int main(void)
{
    test_loss_and_stop();
    test_separable();
    test_columns();
    test_cache();
    test_wide_index();
    test_bias();
    test_linear();
    CHECK_DONE();
}
