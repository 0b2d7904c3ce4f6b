/* test_api.c - public API contracts: borrowing, validation, determinism,
 * threads, cancellation, allocation failure, cross-validation, params. */
#include "../../src/model/model_internal.h"
#include "check.h"

#include <pthread.h>
#include <stdlib.h>

#define N 400
#define D 8

static double X[N * D], Y[N];
static int64_t INDPTR[N + 1];
static int32_t IND[N * D];
static double VAL[N * D];

static void make(void)
{
    uint64_t st = 17;
    int64_t nnz = 0;
    INDPTR[0] = 0;
    for (int i = 0; i < N; i++) {
        Y[i] = (i % 3 == 0) ? -1 : 1;
        for (int j = 0; j < D; j++) {
            double v = nv_rng_uniform(&st) < 0.6 ? (nv_rng_uniform(&st) - 0.5) * 2 + 0.3 * Y[i] : 0;
            X[i * D + j] = v;
            if (v != 0) {
                IND[nnz] = j;
                VAL[nnz++] = v;
            }
        }
        INDPTR[i + 1] = nnz;
    }
}

static nesvm_model *train(const nesvm_dataset *ds, const char *threads, nesvm_stats *stats)
{
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    nesvm_params_set(p, "threads", threads, NULL);
    nesvm_params_set(p, "eps", "1e-5", NULL);
    nesvm_model *m = NULL;
    nesvm_train(ds, p, NULL, NULL, &m, stats, NULL);
    nesvm_params_destroy(p);
    return m;
}

static int same_w(const nesvm_model *a, const nesvm_model *b)
{
    return a && b && memcmp(a->wbuf, b->wbuf, sizeof(double) * (size_t)a->d) == 0 &&
           memcmp(&a->sub[0].b, &b->sub[0].b, sizeof(double)) == 0;
}

typedef struct job {
    const nesvm_dataset *ds;
    nesvm_model *m;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    j->m = train(j->ds, "1", NULL);
    return NULL;
}

static int cancel_at_5(const nesvm_progress *p, void *user)
{
    /* the library's nesvm_progress says its size (nesvm.h, "Growing structs") */
    if (p->size != sizeof(nesvm_progress)) return 1;
    (*(int *)user)++;
    return p->iteration >= 5;
}

static int watch(const nesvm_progress *p, void *user)
{
    double *last = user;
    /* the best primal never increases and stays above the lower bound */
    if (p->best_primal > last[0] || p->lower_bound > p->best_primal + 1e-9) last[1] = 1;
    last[0] = p->best_primal;
    return 0;
}

/* The smallest smoothed objective reported at mu = at, and the number of
 * smoothing stages (changes of mu). */
typedef struct final_watch {
    double at, fmin;
    double last_mu;
    int stages;
} final_watch;

static int watch_final(const nesvm_progress *p, void *user)
{
    final_watch *f = user;
    if (p->mu != f->last_mu) f->stages++;
    f->last_mu = p->mu;
    if (fabs(p->mu - f->at) <= 1e-12 * f->at && p->smoothed < f->fmin) f->fmin = p->smoothed;
    return 0;
}

/* The class weights read back (nesvm_params_class_weight) in the order first
 * set, a weight set again in its place. */
static void check_class_weights(void)
{
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    double l = 0, w = 0;
    CHECK(nesvm_params_class_weight(p, 0, &l, &w) == 0 && l == 0 && w == 0);
    nesvm_params_set_class_weight(p, 3, 2.5, NULL);
    nesvm_params_set_class_weight(p, -1, 0.5, NULL);
    nesvm_params_set_class_weight(p, 3, 4, NULL);
    CHECK(nesvm_params_class_weight(p, 0, &l, &w) == 2 && l == 3 && w == 4);
    CHECK(nesvm_params_class_weight(p, 1, &l, NULL) == 2 && l == -1);
    CHECK(nesvm_params_class_weight(p, 2, &l, &w) == 2 && l == -1 && w == 4);
    CHECK(nesvm_params_class_weight(NULL, 0, &l, &w) == 0);
    nesvm_params_destroy(p);
}

/* The solver registry's public description (nesvm_solver_describe) against
 * what the solvers do: a C where parameter c applies, the memory parameter
 * applies with a kernel, kernel models refused exactly by the linear-only
 * solvers, a certificate exactly where a trained model has a gap, each loss
 * named in one of its problems; and its contract. */
static void check_solver_info(const nesvm_dataset *ds)
{
    static const char *const names[] = {"nesvm", "hyperpass", "pegasos", "ssvm", "nssvm", "gs"};
    const int ns = (int)(sizeof names / sizeof names[0]);
    CHECK(nesvm_solver_name(ns) == NULL && nesvm_solver_name(-1) == NULL);
    for (int k = 0; k < ns; k++) {
        CHECK_MSG(nesvm_solver_name(k) && strcmp(nesvm_solver_name(k), names[k]) == 0, "solver %d", k);
        nesvm_solver_info si = NESVM_SOLVER_INFO_INIT;
        nesvm_error err = {0};
        CHECK_MSG(nesvm_solver_describe(names[k], &si, &err) == NESVM_OK, "%s: %s", names[k], err.message);
        CHECK(si.size == sizeof si && strcmp(si.name, names[k]) == 0);
        /* nesvm has the regression models (ls-svr, svr) and the one-class SVM
         * too, hyperpass epsilon-SVR's tube, ssvm and nssvm its squared tube */
        const int reg = k == 0 || k == 1 || k == 3 || k == 4;
        CHECK_MSG(strcmp(si.tasks, k == 0 ? "classification regression novelty"
                                   : reg  ? "classification regression"
                                          : "classification") == 0,
                  "%s: tasks %s",
                  names[k], si.tasks);
        nesvm_params *p;
        nesvm_params_create(&p, NULL);
        nesvm_params_set(p, "solver", names[k], NULL);
        nesvm_params_set(p, "kernel", "rbf", NULL);
        CHECK_MSG(si.has_c == nesvm_params_applies(p, "c"), "%s: has_c %d", names[k], si.has_c);
        /* (the linear-only solvers' is kernel_memory, which they do not read) */
        CHECK_MSG(nesvm_params_applies(p, si.memory) == (strcmp(si.kernels, "none") != 0), "%s: memory %s",
                  names[k], si.memory);
        nesvm_params_set(p, "max_iter", "50", NULL);
        nesvm_model *m = NULL;
        nesvm_status st = nesvm_train(ds, p, NULL, NULL, &m, NULL, &err);
        CHECK_MSG((st == NESVM_OK) == (strcmp(si.kernels, "none") != 0), "%s: kernels %s, training: %s", names[k],
                  si.kernels, st == NESVM_OK ? "ok" : err.message);
        if (!m) {
            nesvm_params_set(p, "kernel", "linear", NULL);
            st = nesvm_train(ds, p, NULL, NULL, &m, NULL, &err);
        }
        CHECK_MSG(st == NESVM_OK && m, "%s: %s", names[k], err.message);
        if (m) {
            double gap;
            nesvm_model_training(m, 0, NULL, NULL, NULL, &gap, NULL);
            CHECK_MSG((!isnan(gap)) == (si.certificate != 0), "%s: certificate %d, gap %g", names[k], si.certificate, gap);
            /* each loss of losses is in the problem it solves with --loss LOSS
             * (and a loss-specific family's in the problem of an svm_type) */
            char losses[160];
            snprintf(losses, sizeof losses, "%s", si.losses);
            for (char *w = strtok(losses, " "); w; w = strtok(NULL, " ")) {
                int found = 0;
                for (int t = 0; t < NV_SVM_TYPES; t++)
                    found |= nv_solver_find(names[k])->problem[t] && strstr(nv_solver_find(names[k])->problem[t], w);
                nesvm_params *q;
                nesvm_params_create(&q, NULL);
                nesvm_params_set(q, "solver", names[k], NULL);
                nesvm_params_set(q, "loss", w, NULL);
                if (nv_loss_find(w)->tube) nesvm_params_set(q, "svm_type", "svr", NULL);
                if (nv_loss_find(w)->conj) nesvm_params_set(q, "svm_type", "logistic", NULL);
                char prob[64];
                found &= nv_solver_problem(nv_solver_find(names[k]), q, prob, sizeof prob, NULL) == NESVM_OK &&
                         strstr(prob, w) != NULL;
                nesvm_params_destroy(q);
                CHECK_MSG(found || !si.loss_specific, "%s: loss %s in none of its problems", names[k], w);
                if (!si.loss_specific) {
                    nesvm_params_create(&q, NULL);
                    nesvm_params_set(q, "loss", w, NULL);
                    if (nv_loss_find(w)->tube) nesvm_params_set(q, "svm_type", "svr", NULL); /* a regression's */
                    if (nv_loss_find(w)->conj) nesvm_params_set(q, "svm_type", "logistic", NULL);
                    CHECK_MSG(nv_solver_problem(nv_solver_find(names[k]), q, prob, sizeof prob, NULL) == NESVM_OK &&
                                  strstr(prob, w),
                              "%s: --loss %s gives no problem", names[k], w);
                    nesvm_params_destroy(q);
                }
            }
        }
        nesvm_model_destroy(m);
        nesvm_params_destroy(p);
    }
    nesvm_solver_info si = NESVM_SOLVER_INFO_INIT;
    CHECK(strcmp(si.losses, "") == 0);
    nesvm_solver_describe("nesvm", &si, NULL);
    CHECK(strcmp(si.losses, "hinge squared epsilon_insensitive logistic squared_hinge squared_epsilon_insensitive") == 0 &&
          strcmp(si.kernels, "expansion") == 0 &&
          !si.loss_specific);
    nesvm_solver_describe("gs", &si, NULL);
    CHECK(!si.has_c && !si.certificate && strcmp(si.losses, "") == 0 && strcmp(si.memory, "cache_size") == 0);
    nesvm_solver_describe("pegasos", &si, NULL);
    CHECK(!si.distributed && strcmp(si.losses, "hinge") == 0 && si.loss_specific);
    /* the contract: an unknown name, NULL, a size below the first version's;
     * a size of the first version's fields gets those and nothing after */
    nesvm_error err = {0};
    /* the message lists the registry's names (nesvm_solver_name), in order */
    char want[256] = "unknown solver 'svmlight' (available: ";
    for (int k = 0; nesvm_solver_name(k); k++) {
        strcat(want, k ? ", " : "");
        strcat(want, nesvm_solver_name(k));
    }
    strcat(want, ")");
    CHECK_MSG(nesvm_solver_describe("svmlight", &si, &err) == NESVM_ERR_ARG && strcmp(err.message, want) == 0,
              "%s", err.message);
    CHECK(nesvm_solver_describe(NULL, &si, NULL) == NESVM_ERR_ARG &&
          nesvm_solver_describe("gs", NULL, NULL) == NESVM_ERR_ARG);
    si.size = 0;
    CHECK(nesvm_solver_describe("gs", &si, &err) == NESVM_ERR_ARG && strstr(err.message, "NESVM_SOLVER_INFO_INIT"));
    struct {
        nesvm_solver_info si;
        char after[16];
    } big;
    memset(&big, 0x5a, sizeof big);
    big.si.size = sizeof big.si;
    CHECK(nesvm_solver_describe("gs", &big.si, NULL) == NESVM_OK && big.after[0] == 0x5a && big.si.certificate == 0);
}

/* The labels' scaling (svm-scale -y) read back and inverted: the ends map to
 * the ends, the middle to the middle; no -y or equal labels: no map. */
static void check_label_scaling(void)
{
    double x[3] = {0, 1, 2}, y[3] = {25, 346, 185.5}, same[3] = {4, 4, 4};
    nesvm_dataset *ds = NULL, *eq = NULL;
    nesvm_scaling *sc = NULL, *sx = NULL, *se = NULL;
    CHECK(nesvm_dataset_wrap_dense(3, 1, x, y, &ds, NULL) == NESVM_OK);
    CHECK(nesvm_dataset_wrap_dense(3, 1, x, same, &eq, NULL) == NESVM_OK);
    CHECK(nesvm_scaling_fit(ds, -1, 1, -1, 1, &sc, NULL) == NESVM_OK);
    CHECK(nesvm_scaling_fit(ds, -1, 1, 0, 0, &sx, NULL) == NESVM_OK);
    CHECK(nesvm_scaling_fit(eq, -1, 1, 0, 1, &se, NULL) == NESVM_OK);
    double lo = 0, hi = 0, mn = 0, mx = 0;
    CHECK(nesvm_scaling_labels(sc, &lo, &hi, &mn, &mx) == 1 && lo == -1 && hi == 1 && mn == 25 && mx == 346);
    CHECK(nesvm_scaling_unscale_label(sc, -1) == 25 && nesvm_scaling_unscale_label(sc, 1) == 346 &&
          nesvm_scaling_unscale_label(sc, 0) == 185.5 && nesvm_scaling_unscale_label(sc, 3) == 667);
    CHECK(nesvm_scaling_labels(sx, &lo, NULL, NULL, NULL) == 0 && lo == -1 &&
          nesvm_scaling_unscale_label(sx, 0.25) == 0.25);
    CHECK(nesvm_scaling_labels(se, NULL, NULL, NULL, NULL) == 0 && nesvm_scaling_unscale_label(se, 4) == 4);
    CHECK(nesvm_scaling_labels(NULL, NULL, NULL, NULL, NULL) == 0 && nesvm_scaling_unscale_label(NULL, 7) == 7);
    nesvm_scaling_destroy(sc);
    nesvm_scaling_destroy(sx);
    nesvm_scaling_destroy(se);
    nesvm_dataset_destroy(ds);
    nesvm_dataset_destroy(eq);
}

int main(void)
{
    make();
    nesvm_error err = {0};
    nesvm_dataset *csr = NULL, *dense = NULL;
    CHECK(nesvm_dataset_wrap_csr(N, D, INDPTR, IND, VAL, Y, &csr, &err) == NESVM_OK);
    CHECK(nesvm_dataset_wrap_dense(N, D, X, Y, &dense, &err) == NESVM_OK);
    /* borrowed, not copied */
    CHECK(nesvm_dataset_labels(csr) == Y && csr->values == VAL && csr->indptr == INDPTR);
    CHECK(nesvm_dataset_labels(dense) == Y && dense->values == X);
    CHECK(nesvm_dataset_nnz(csr) == INDPTR[N] && nesvm_dataset_nnz(dense) == N * D);

    /* wrap validation */
    {
        int64_t ip[3] = {0, 2, 3};
        int32_t ix[3] = {1, 0, 5};
        double v[3] = {1, 2, 3}, y2[2] = {1, -1};
        nesvm_dataset *bad = NULL;
        CHECK(nesvm_dataset_wrap_csr(2, 4, ip, ix, v, y2, &bad, &err) == NESVM_ERR_ARG);
        CHECK_CONTAINS(err.message, "row 0: column 0 is out of range or not ascending");
        ix[1] = 3;
        CHECK(nesvm_dataset_wrap_csr(2, 4, ip, ix, v, y2, &bad, &err) == NESVM_ERR_ARG);
        CHECK_CONTAINS(err.message, "row 1: column 5");
        ix[2] = 2;
        v[1] = NAN;
        CHECK(nesvm_dataset_wrap_csr(2, 4, ip, ix, v, y2, &bad, &err) == NESVM_ERR_ARG);
        CHECK_CONTAINS(err.message, "not finite");
        v[1] = 1;
        y2[1] = INFINITY;
        CHECK(nesvm_dataset_wrap_csr(2, 4, ip, ix, v, y2, &bad, &err) == NESVM_ERR_ARG);
        CHECK(bad == NULL);
        double dv[2] = {1, NAN}, dy[2] = {1, -1};
        CHECK(nesvm_dataset_wrap_dense(2, 1, dv, dy, &bad, &err) == NESVM_ERR_ARG);
    }

    /* CSR and dense storage train the same problem to the same objective */
    nesvm_stats s1 = NESVM_STATS_INIT, s2 = NESVM_STATS_INIT;
    nesvm_model *m1 = train(csr, "1", &s1), *m2 = train(dense, "1", &s2);
    CHECK(m1 && m2);
    CHECK_REL(s1.primal, s2.primal, 1e-5);
    CHECK(s1.gap <= 1e-5 && s1.exit_reason == NESVM_EXIT_CONVERGED && s1.iterations > 0);
    CHECK(s1.lower_bound <= s2.primal + 1e-9 && s2.lower_bound <= s1.primal + 1e-9);

    /* growing structs: a caller's nesvm_stats gets what fits its size; a bigger
     * one (a newer header) keeps its tail; no size is refused */
    {
        struct {
            nesvm_stats st;
            unsigned char tail[16];
        } big;
        memset(&big, 0xAB, sizeof big);
        big.st.size = sizeof big;
        nesvm_model *mb = train(csr, "1", &big.st);
        CHECK(mb && big.st.size == sizeof big && big.st.primal == s1.primal &&
              big.st.iterations == s1.iterations);
        int untouched = 1;
        for (size_t k = 0; k < sizeof big.tail; k++) untouched &= big.tail[k] == 0xAB;
        CHECK_MSG(untouched, "the library wrote past sizeof(nesvm_stats)");
        nesvm_model_destroy(mb);
        nesvm_stats none;
        memset(&none, 0, sizeof none);
        nesvm_params *pp;
        nesvm_params_create(&pp, NULL);
        nesvm_model *mn = NULL;
        CHECK(nesvm_train(csr, pp, NULL, NULL, &mn, &none, &err) == NESVM_ERR_ARG && mn == NULL);
        CHECK_CONTAINS(err.message, "nesvm_stats.size is 0");
        nesvm_params_destroy(pp);
    }

    /* determinism: same threads -> bit-identical; two threads concurrently == serial */
    nesvm_model *m3 = train(csr, "1", NULL);
    CHECK(same_w(m1, m3));
    nesvm_model *t2a = train(csr, "2", NULL), *t2b = train(csr, "2", NULL);
    CHECK(same_w(t2a, t2b));
    job jobs[2] = {{csr, NULL}, {csr, NULL}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, run_job, &jobs[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    CHECK(same_w(jobs[0].m, m1) && same_w(jobs[1].m, m1));
    nesvm_model_destroy(jobs[0].m);
    nesvm_model_destroy(jobs[1].m);
    nesvm_model_destroy(m3);
    nesvm_model_destroy(t2a);
    nesvm_model_destroy(t2b);

    /* cancellation through the progress callback */
    {
        int calls = 0;
        nesvm_model *m = (nesvm_model *)1;
        nesvm_params *p;
        nesvm_params_create(&p, NULL);
        nesvm_params_set(p, "eps", "1e-9", NULL);
        CHECK(nesvm_train(csr, p, cancel_at_5, &calls, &m, NULL, &err) == NESVM_ERR_CANCELLED);
        CHECK(m == NULL && calls == 5);
        CHECK_CONTAINS(err.message, "cancelled at iteration 5");
        double last[2] = {INFINITY, 0};
        CHECK(nesvm_train(csr, p, watch, last, &m, NULL, &err) == NESVM_OK);
        CHECK(last[1] == 0);
        nesvm_model_destroy(m);
        /* limits */
        nesvm_stats st = NESVM_STATS_INIT;
        nesvm_params_set(p, "max_iter", "7", NULL);
        CHECK(nesvm_train(csr, p, NULL, NULL, &m, &st, &err) == NESVM_OK);
        CHECK(st.iterations == 7 && st.exit_reason == NESVM_EXIT_MAX_ITER);
        nesvm_model_destroy(m);
        nesvm_params_destroy(p);
    }

    /* allocation failure at every allocation of a training: a clean NOMEM */
    {
        int ok = 1, reached = 0;
        for (long k = 0; k < 200; k++) {
            nesvm_model *m = (nesvm_model *)1;
            nv_alloc_fail_after(k);
            nesvm_status st = nesvm_train(csr, NULL, NULL, NULL, &m, NULL, &err);
            nv_alloc_fail_after(-1);
            if (st == NESVM_OK) {
                nesvm_model_destroy(m);
                reached = 1;
                break;
            }
            if (st != NESVM_ERR_NOMEM || m != NULL) ok = 0;
        }
        CHECK(ok && reached);
    }

    /* one class, empty data */
    {
        double y1[3] = {4, 4, 4}, x1[3] = {1, 2, 3};
        nesvm_dataset *one;
        nesvm_dataset_wrap_dense(3, 1, x1, y1, &one, NULL);
        nesvm_model *m = NULL;
        CHECK(nesvm_train(one, NULL, NULL, NULL, &m, NULL, &err) == NESVM_ERR_DATA);
        CHECK_CONTAINS(err.message, "only one class (label 4)");
        nesvm_dataset_destroy(one);
        nesvm_dataset_wrap_dense(0, 1, x1, y1, &one, NULL);
        CHECK(nesvm_train(one, NULL, NULL, NULL, &m, NULL, &err) == NESVM_ERR_DATA);
        nesvm_dataset_destroy(one);
    }

    /* cross-validation: stratified folds, deterministic by seed */
    {
        double pred[N], pred2[N], acc, acc2;
        CHECK(nesvm_cross_validate(csr, NULL, 5, 3, NULL, NULL, pred, &acc, &err) == NESVM_OK);
        CHECK(nesvm_cross_validate(csr, NULL, 5, 3, NULL, NULL, pred2, &acc2, &err) == NESVM_OK);
        CHECK(acc == acc2 && memcmp(pred, pred2, sizeof pred) == 0);
        int correct = 0, valid = 1;
        for (int i = 0; i < N; i++) {
            correct += pred[i] == Y[i];
            if (pred[i] != 1 && pred[i] != -1) valid = 0;
        }
        CHECK(valid && fabs(acc - correct / (double)N) < 1e-15);
        CHECK(acc > 0.6);
        CHECK(nesvm_cross_validate(csr, NULL, 1, 3, NULL, NULL, pred, &acc, &err) == NESVM_ERR_ARG);
        CHECK(nesvm_cross_validate(csr, NULL, N + 1, 3, NULL, NULL, pred, &acc, &err) == NESVM_ERR_ARG);
    }

    /* warm start: the same optimum as a cold start, fewer iterations from a
     * nearby C, permuted class order handled, mismatched classes rejected */
    {
        nesvm_params *p;
        nesvm_params_create(&p, NULL);
        nesvm_params_set(p, "eps", "1e-6", NULL);
        nesvm_model *a = NULL, *cold = NULL, *warm = NULL;
        nesvm_stats sa = NESVM_STATS_INIT, sc = NESVM_STATS_INIT, sw = NESVM_STATS_INIT;
        CHECK(nesvm_train(csr, p, NULL, NULL, &a, &sa, &err) == NESVM_OK);
        nesvm_params_set(p, "c", "1.3", NULL);
        CHECK(nesvm_train(csr, p, NULL, NULL, &cold, &sc, &err) == NESVM_OK);
        CHECK(nesvm_train_warm(csr, p, a, NULL, NULL, &warm, &sw, &err) == NESVM_OK);
        CHECK_MSG(fabs(sw.primal - sc.primal) <= 2e-6 * sc.primal, "warm %.12g cold %.12g",
                  sw.primal, sc.primal);
        CHECK_MSG(2 * sw.iterations < sc.iterations, "warm %lld cold %lld iterations",
                  (long long)sw.iterations, (long long)sc.iterations);
        nesvm_model *cold2 = NULL;
        CHECK(nesvm_train_warm(csr, p, NULL, NULL, NULL, &cold2, NULL, &err) == NESVM_OK);
        CHECK(same_w(cold, cold2)); /* init NULL: a cold start */
        nesvm_model_destroy(cold2);
        nesvm_model_destroy(warm);
        /* three classes, rows in another order (so another class order) */
        double y3[N], y3r[N], xr[N * D];
        for (int i = 0; i < N; i++) y3[i] = Y[i] > 0 ? (i % 2 ? 7 : 5) : 3;
        for (int i = 0; i < N; i++) {
            y3r[i] = y3[(i + 1) % N];
            memcpy(xr + i * D, X + (i + 1) % N * D, sizeof(double) * D);
        }
        nesvm_dataset *d3, *d3r;
        nesvm_dataset_wrap_dense(N, D, X, y3, &d3, NULL);
        nesvm_dataset_wrap_dense(N, D, xr, y3r, &d3r, NULL);
        for (int ovr = 0; ovr < 2; ovr++) {
            nesvm_params_set(p, "multiclass", ovr ? "ovr" : "ovo", NULL);
            nesvm_model *m3 = NULL, *m3w = NULL, *m3c = NULL;
            nesvm_stats s3 = NESVM_STATS_INIT, s3w = NESVM_STATS_INIT, s3c = NESVM_STATS_INIT;
            CHECK(nesvm_train(d3, p, NULL, NULL, &m3, &s3, &err) == NESVM_OK);
            CHECK(m3 && m3->labels[0] != y3r[0]); /* the class orders differ */
            CHECK(nesvm_train(d3r, p, NULL, NULL, &m3c, &s3c, &err) == NESVM_OK);
            CHECK(nesvm_train_warm(d3r, p, m3, NULL, NULL, &m3w, &s3w, &err) == NESVM_OK);
            CHECK_MSG(fabs(s3w.primal - s3c.primal) <= 2e-6 * s3c.primal &&
                          2 * s3w.iterations < s3c.iterations,
                      "ovr %d: warm %.12g (%lld its) cold %.12g (%lld its)", ovr, s3w.primal,
                      (long long)s3w.iterations, s3c.primal, (long long)s3c.iterations);
            /* a model of other classes cannot start this training */
            nesvm_model *bad = NULL;
            CHECK(nesvm_train_warm(d3, p, a, NULL, NULL, &bad, NULL, &err) == NESVM_ERR_ARG && !bad);
            CHECK_CONTAINS(err.message, "warm-start model does not fit");
            nesvm_model_destroy(m3);
            nesvm_model_destroy(m3w);
            nesvm_model_destroy(m3c);
        }
        nesvm_dataset_destroy(d3);
        nesvm_dataset_destroy(d3r);
        nesvm_model_destroy(a);
        nesvm_model_destroy(cold);
        nesvm_params_destroy(p);
    }

    /* homotopy NESVM (continuation paper, mu0 -> mu_star) reaches the same
     * smoothed objective as plain NESVM at mu_star, for every model */
    {
        const char *types[] = {"c", "lp", "ls"};
        for (int t = 0; t < 3; t++)
            for (int method = 0; method < 2; method++) {
                double fmin[2];
                for (int hom = 0; hom < 2; hom++) {
                    nesvm_params *p;
                    nesvm_params_create(&p, NULL);
                    nesvm_params_set(p, "svm_type", types[t], NULL);
                    nesvm_params_set(p, "method", method ? "nesterov" : "newton", NULL);
                    /* LP-SVM's smoothed problem is not strongly convex:
                     * Newton stalls in rounding below about 1e-8 */
                    nesvm_params_set(p, "eps", t == 1 ? "1e-7" : "1e-9", NULL);
                    nesvm_params_set(p, "max_iter", "3000000", NULL);
                    if (hom) {
                        nesvm_params_set(p, "continuation", "paper", NULL);
                        nesvm_params_set(p, "mu0", "1", NULL);
                        nesvm_params_set(p, "nu0", "1", NULL);
                        nesvm_params_set(p, "mu_star", "0.05", NULL);
                    } else {
                        nesvm_params_set(p, "mu", "0.05", NULL);
                        nesvm_params_set(p, "nu", "0.05", NULL);
                    }
                    final_watch fw = {t == 2 ? 0.0 : 0.05, INFINITY, -1, 0}; /* LS: mu = 0 */
                    nesvm_model *m = NULL;
                    nesvm_stats s = NESVM_STATS_INIT;
                    CHECK(nesvm_train(csr, p, watch_final, &fw, &m, &s, &err) == NESVM_OK);
                    CHECK_MSG(s.exit_reason == NESVM_EXIT_CONVERGED, "type %s method %d hom %d: %s",
                              types[t], method, hom, nesvm_exit_str(s.exit_reason));
                    /* the paper's schedule visits mu0/(t+1) = 1, 1/2, ..., 0.05 */
                    if (hom && t != 2) CHECK_MSG(fw.stages >= 19, "%d stages", fw.stages);
                    fmin[hom] = fw.fmin;
                    nesvm_model_destroy(m);
                    nesvm_params_destroy(p);
                }
                CHECK_MSG(fabs(fmin[0] - fmin[1]) <= (t == 1 ? 1e-6 : 1e-8) * fabs(fmin[0]),
                          "type %s method %d: plain F %.12g, homotopy F %.12g", types[t], method,
                          fmin[0], fmin[1]);
            }
    }

    /* params: names, values, errors */
    {
        nesvm_params *p;
        char buf[64];
        nesvm_params_create(&p, NULL);
        CHECK(nesvm_params_set(p, "c", "0", &err) == NESVM_ERR_ARG);
        CHECK_CONTAINS(err.message, "invalid value '0' for c");
        CHECK(nesvm_params_set(p, "c", "2.5", &err) == NESVM_OK);
        CHECK(nesvm_params_get(p, "c", buf, sizeof buf, &err) == NESVM_OK && strcmp(buf, "2.5") == 0);
        CHECK(nesvm_params_set(p, "nope", "1", &err) == NESVM_ERR_ARG);
        CHECK_CONTAINS(err.message, "unknown parameter 'nope'");
        CHECK(nesvm_params_set(p, "solver", "libsvm", &err) == NESVM_ERR_ARG);
        CHECK(nesvm_params_set(p, "max_iter", "1.5", &err) == NESVM_ERR_ARG);
        CHECK(nesvm_params_set(p, "eps", "nan", &err) == NESVM_ERR_ARG);
        CHECK(nesvm_params_set_class_weight(p, 1, 0, &err) == NESVM_ERR_ARG);
        for (int i = 0; nv_param_name(i); i++)
            CHECK(nesvm_params_get(p, nv_param_name(i), buf, sizeof buf, &err) == NESVM_OK);
        nesvm_params_destroy(p);
        /* the defaults, as nesvm.h documents them (the table sets them through
         * the parser: a wrong default text would change them) */
        static const char *const defaults[][2] = {
            {"solver", "nesvm"}, {"svm_type", "c"}, {"c", "1"}, {"eps", "0.001"}, {"eps_abs", "0"},
            {"mu", "0"}, {"nu", "0"}, {"continuation", "adaptive"}, {"mu0", "0"}, {"nu0", "0"},
            {"mu_star", "0"}, {"stage_eps", "0"}, {"max_iter", "100000"}, {"time_limit", "0"},
            {"threads", "1"}, {"seed", "1"}, {"bias", "auto"}, {"multiclass", "ovo"}, {"method", "auto"},
            {"lipschitz", "power"}, {"progress_every", "1"}, {"kernel", "linear"}, {"gamma", "0"},
            {"degree", "3"}, {"coef0", "0"}, {"basis", "auto"}, {"kernel_memory", "4096"}, {"lambda", "0"},
            {"shrinking", "1"}, {"batch", "1000"}, {"warm_start", "none"}, {"basis_select", "random"},
            {"smooth_p", "100000000"}, {"scheme", "optimal"}, {"tau", "1e-10"}, {"merit", "smooth"},
            {"cap", "0"}, {"cache_size", "100"}, {"kernel_norm", "rkhs"}, {"basis_residual", "0.15"},
            {"probability", "0"}, {"restart", "1"}, {"loss", "auto"}, {"epsilon", "0.1"}, {"svm_nu", "0.5"},
            {"penalty", "l2"}, {"bias_mode", "auto"}};
        nesvm_params_create(&p, NULL);
        int nd = (int)(sizeof defaults / sizeof defaults[0]);
        for (int i = 0; i < nd; i++) {
            CHECK_MSG(nesvm_params_get(p, defaults[i][0], buf, sizeof buf, &err) == NESVM_OK &&
                          strcmp(buf, defaults[i][1]) == 0,
                      "default of %s: '%s', expected '%s'", defaults[i][0], buf, defaults[i][1]);
            CHECK_MSG(nv_param_name(i) && strcmp(nv_param_name(i), defaults[i][0]) == 0,
                      "parameter %d is %s, expected %s (model files list them in this order)", i,
                      nv_param_name(i) ? nv_param_name(i) : "(none)", defaults[i][0]);
        }
        CHECK(nv_param_name(nd) == NULL);
        /* which parameters each solver, kernel and model uses */
        CHECK(nesvm_params_applies(p, "c") == 1 && nesvm_params_applies(p, "mu") == 1);
        CHECK(nesvm_params_applies(p, "cap") == 0 && nesvm_params_applies(p, "cache_size") == 0);
        CHECK(nesvm_params_applies(p, "shrinking") == 0 && nesvm_params_applies(p, "smooth_p") == 0);
        CHECK(nesvm_params_applies(p, "restart") == 1);
        CHECK(nesvm_params_applies(p, "gamma") == 0 && nesvm_params_applies(p, "nu") == 0);
        CHECK(nesvm_params_applies(p, "nope") == -1);
        nesvm_params_set(p, "svm_type", "lp", NULL);
        CHECK(nesvm_params_applies(p, "nu") == 1 && nesvm_params_applies(p, "nu0") == 1);
        nesvm_params_set(p, "solver", "gs", NULL);
        CHECK(nesvm_params_applies(p, "cap") == 1 && nesvm_params_applies(p, "cache_size") == 1);
        CHECK(nesvm_params_applies(p, "c") == 0 && nesvm_params_applies(p, "eps") == 0);
        CHECK(nesvm_params_applies(p, "gamma") == 0);
        nesvm_params_set(p, "kernel", "rbf", NULL);
        CHECK(nesvm_params_applies(p, "gamma") == 1 && nesvm_params_applies(p, "degree") == 0 &&
              nesvm_params_applies(p, "coef0") == 0);
        nesvm_params_set(p, "kernel", "1", NULL); /* LIBSVM's -t 1: poly */
        CHECK(nesvm_params_applies(p, "degree") == 1 && nesvm_params_applies(p, "coef0") == 1);
        nesvm_params_set(p, "solver", "hyperpass", NULL);
        CHECK(nesvm_params_applies(p, "shrinking") == 1 && nesvm_params_applies(p, "batch") == 0);
        CHECK(nesvm_params_applies(p, "restart") == 0);
        nesvm_params_set(p, "warm_start", "pegasos:3", NULL);
        CHECK(nesvm_params_applies(p, "batch") == 1);
        nesvm_params_set(p, "solver", "pegasos", NULL);
        CHECK(nesvm_params_applies(p, "batch") == 1 && nesvm_params_applies(p, "shrinking") == 0);
        nesvm_params_set(p, "solver", "nssvm", NULL);
        CHECK(nesvm_params_applies(p, "smooth_p") == 1 && nesvm_params_applies(p, "basis") == 1 &&
              nesvm_params_applies(p, "kernel_memory") == 1 && nesvm_params_applies(p, "mu") == 0);
        nesvm_params_destroy(p);
        /* the registry's `uses` lists name parameters of the table that are
         * not used by every solver, and each such parameter has a user */
        {
            int count;
            const nv_param_def *t = nv_param_table(&count);
            int used[64] = {0};
            for (int k = 0; nv_solver_at(k); k++) {
                const nv_solver *sv = nv_solver_at(k);
                for (int pass = 0; pass < 2; pass++) {
                    char list[400];
                    snprintf(list, sizeof list, "%s", pass ? sv->uses_warm : sv->uses);
                    for (char *w = strtok(list, " "); w; w = strtok(NULL, " ")) {
                        const nv_param_def *d = nv_param_find(w);
                        CHECK_MSG(d && d->solvers == NV_S_SOME, "solver %s uses '%s': not a per-solver parameter",
                                  sv->name, w);
                        if (d) used[nv_param_index(w)] = 1;
                    }
                }
            }
            for (int i = 0; i < count; i++)
                CHECK_MSG(t[i].solvers == NV_S_ALL || used[i], "parameter %s: no solver uses it", t[i].name);
        }
        /* the ignored ones among those given, in table order */
        nesvm_params_create(&p, NULL);
        CHECK(nesvm_params_ignored(p, 0) == NULL);
        nesvm_params_set(p, "cap", "1", NULL);
        nesvm_params_set(p, "c", "2", NULL);
        nesvm_params_set(p, "shrinking", "0", NULL);
        nesvm_params_set(p, "gamma", "0.5", NULL);
        CHECK(nesvm_params_set(p, "batch", "0", NULL) == NESVM_ERR_ARG); /* refused: not "given" */
        const char *ig0 = nesvm_params_ignored(p, 0), *ig1 = nesvm_params_ignored(p, 1),
                   *ig2 = nesvm_params_ignored(p, 2);
        CHECK(ig0 && strcmp(ig0, "gamma") == 0 && ig1 && strcmp(ig1, "shrinking") == 0 && ig2 &&
              strcmp(ig2, "cap") == 0 && nesvm_params_ignored(p, 3) == NULL);
        nesvm_params *q = NULL;
        nesvm_params_copy(p, &q, NULL);
        CHECK(q && nesvm_params_ignored(q, 2) && nesvm_params_ignored(q, 3) == NULL);
        nesvm_params_destroy(q);
        nesvm_params_destroy(p);
        nesvm_params_destroy(NULL);
        nesvm_model_destroy(NULL);
        nesvm_dataset_destroy(NULL);
        nesvm_scaling_destroy(NULL);
        CHECK(strcmp(nesvm_status_str(NESVM_ERR_PARSE), "malformed data") == 0);
        CHECK(strcmp(nesvm_exit_str(NESVM_EXIT_MAX_ITER), "max-iter") == 0);
    }
    check_class_weights();
    check_label_scaling();
    check_solver_info(csr);
    nesvm_model_destroy(m1);
    nesvm_model_destroy(m2);
    nesvm_dataset_destroy(csr);
    nesvm_dataset_destroy(dense);
    CHECK_DONE();
}
