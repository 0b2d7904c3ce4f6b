/* test_checkpoint.c - checkpoint and resume (nesvm_train_resumable), for
 * every solver: a training cancelled half-way writes a checkpoint; resumed
 * from it, it ends at the model of an uninterrupted run, to the solver's
 * tolerance (the certified gap: both primal values within eps of the
 * optimum), and exactly for GS-SVM and Pegasos; checkpoints from other data
 * or parameters, and damaged ones, are refused. */
#include "toy.h"
#include "model/checkpoint.h"

#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/nesvm_ckpt_XXXXXX";
static char ckpath[300], apath[300], bpath[300];

typedef struct counter {
    int64_t calls, stop_at;
} counter;

/* Counts the reports of training iterations: the working set's reports
 * while a round's kernel matrix is computed (iteration 0 before the first)
 * do not count, so that half the calls is half the training. */
static int count_cb(const nesvm_progress *p, void *user)
{
    CHECK_MSG(p->size == sizeof(nesvm_progress), "progress size %zu", p->size);
    counter *c = user;
    if (p->iteration == 0) return 0;
    c->calls++;
    return c->stop_at > 0 && c->calls >= c->stop_at;
}

static nesvm_params *make_params(const char *const *kv, const char *threads)
{
    nesvm_params *p = NULL;
    nesvm_params_create(&p, NULL);
    for (int i = 0; kv[i]; i += 2) CHECK_MSG(nesvm_params_set(p, kv[i], kv[i + 1], NULL) == NESVM_OK, "%s", kv[i]);
    nesvm_params_set(p, "threads", threads, NULL);
    return p;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = calloc(1, (size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) b[0] = 0;
    fclose(f);
    return b;
}

/* sub-model s's primal value, as the model file records it */
static double primal_of(const nesvm_model *m, int s)
{
    double primal = NAN;
    nesvm_model_training(m, s, NULL, NULL, &primal, NULL, NULL);
    return primal;
}

static void run_case(const char *name, const nesvm_dataset *ds, const char *const *kv, int exact, double eps)
{
    nesvm_error err = {0};
    nesvm_params *p = make_params(kv, "1");
    /* uninterrupted */
    counter c0 = {0, 0};
    nesvm_model *ma = NULL, *mb = NULL;
    nesvm_stats sa = NESVM_STATS_INIT, sb = NESVM_STATS_INIT;
    CHECK_MSG(nesvm_train_resumable(ds, p, NULL, NULL, count_cb, &c0, &ma, &sa, &err) == NESVM_OK, "%s: %s", name,
              err.message);
    if (!ma) {
        nesvm_params_destroy(p);
        return;
    }
    nesvm_model_save(ma, apath, NULL);
    /* the working sets' cases: trained in rounds, so that the cancel falls in one */
    if (strstr(name, "working set"))
        CHECK_MSG(sa.ws_rounds >= 2 && sa.kernel_matrix == 2, "%s: %lld rounds, kernel_matrix %d", name,
                  (long long)sa.ws_rounds, sa.kernel_matrix);
    /* cancelled half-way, with a checkpoint on stopping */
    unlink(ckpath);
    counter c1 = {0, c0.calls / 2 > 0 ? c0.calls / 2 : 1};
    nesvm_checkpoint_options save = {ckpath, 0, NULL};
    nesvm_model *mc = NULL;
    nesvm_status st = nesvm_train_resumable(ds, p, NULL, &save, count_cb, &c1, &mc, NULL, &err);
    CHECK_MSG(st == NESVM_ERR_CANCELLED && mc == NULL, "%s: cancel gave %d", name, (int)st);
    CHECK_MSG(access(ckpath, F_OK) == 0, "%s: no checkpoint written on cancel", name);
    /* resumed, with two threads (threads may differ) and saving further checkpoints */
    nesvm_params *p2 = make_params(kv, "2");
    nesvm_checkpoint_options resume = {ckpath, 0, ckpath};
    counter c2 = {0, 0};
    CHECK_MSG(nesvm_train_resumable(ds, p2, NULL, &resume, count_cb, &c2, &mb, &sb, &err) == NESVM_OK,
              "%s: resume: %s", name, err.message);
    if (mb) {
        CHECK_MSG(c2.calls < c0.calls, "%s: the resumed run took %lld iterations, the whole run %lld", name,
                  (long long)c2.calls, (long long)c0.calls);
        for (int s = 0; s < nesvm_model_submodels(ma); s++) {
            double pa = primal_of(ma, s), pb = primal_of(mb, s);
            CHECK_MSG(fabs(pa - pb) <= 2 * eps * fabs(pa) + 1e-12, "%s: sub-model %d primal %.17g vs %.17g", name, s,
                      pb, pa);
        }
        if (exact) {
            /* the same model: the same file but for the threads parameter
             * (2 is written; 1, the default, is not) */
            nesvm_model_save(mb, bpath, NULL);
            char *a = slurp(apath), *b = slurp(bpath);
            char *tb = b ? strstr(b, "\nparam threads 2\n") : NULL;
            if (tb) memmove(tb + 1, tb + 17, strlen(tb + 17) + 1);
            CHECK_MSG(a && b && tb && !strstr(a, "param threads") && strcmp(a, b) == 0,
                      "%s: the resumed model differs from the whole run's", name);
            free(a);
            free(b);
        }
    }
    /* a checkpoint written as each sub-model finishes (every: a nanosecond), the
     * run not interrupted: resuming from it retrains nothing and gives the whole
     * run's model, byte for byte (it once recorded the finished sub-model
     * before its bias and statistics were set) */
    {
        unlink(ckpath);
        nesvm_checkpoint_options often = {ckpath, 1e-9, NULL};
        nesvm_model *md = NULL, *me = NULL;
        CHECK_MSG(nesvm_train_resumable(ds, p, NULL, &often, NULL, NULL, &md, NULL, &err) == NESVM_OK,
                  "%s: checkpointed run: %s", name, err.message);
        nesvm_checkpoint_options from = {NULL, 0, ckpath};
        counter c3 = {0, 0};
        CHECK_MSG(nesvm_train_resumable(ds, p, NULL, &from, count_cb, &c3, &me, NULL, &err) == NESVM_OK,
                  "%s: resume from the last checkpoint: %s", name, err.message);
        if (me) {
            CHECK_MSG(c3.calls == 0, "%s: resuming a finished run took %lld iterations", name,
                      (long long)c3.calls);
            nesvm_model_save(me, bpath, NULL);
            char *a = slurp(apath), *b = slurp(bpath);
            CHECK_MSG(a && b && strcmp(a, b) == 0,
                      "%s: the model resumed from a finished run's checkpoint differs from the run's", name);
            free(a);
            free(b);
        }
        nesvm_model_destroy(md);
        nesvm_model_destroy(me);
    }
    nesvm_model_destroy(mb);
    nesvm_model_destroy(ma);
    nesvm_params_destroy(p2);
    nesvm_params_destroy(p);
}

int main(void)
{
    if (!mkdtemp(dir)) return 2;
    snprintf(ckpath, sizeof ckpath, "%s/ck", dir);
    snprintf(apath, sizeof apath, "%s/a.model", dir);
    snprintf(bpath, sizeof bpath, "%s/b.model", dir);
    /* a checkpoint written before the parameter restart existed (nesvm at
     * commit 0a56f8a: `train --method nesterov -e 1e-9`, bias and basis
     * resolved to 1 and 0) says `params 67c812e09d45f1f7`: it still resumes
     * with restart at its default, and not with restart 0 (and rows added
     * after restart leave it alone at their defaults, as model files do) */
    {
        nesvm_params *p = make_params((const char *const[]){"method", "nesterov", "eps", "1e-9", "bias", "1",
                                                            "basis", "0", NULL},
                                      "1");
        CHECK_MSG(nv_ckpt_params_hash(p) == UINT64_C(0x67c812e09d45f1f7), "params hash %016llx",
                  (unsigned long long)nv_ckpt_params_hash(p));
        nesvm_params_set(p, "restart", "0", NULL);
        CHECK(nv_ckpt_params_hash(p) != UINT64_C(0x67c812e09d45f1f7));
        nesvm_params_destroy(p);
    }
    toy bin, multi;
    make_toy(&bin, 160, 8, 0, 0, 42);
    make_toy(&multi, 150, 8, 1, 1, 43);
    for (int64_t i = 0; i < multi.n; i += 3) multi.y[i] = 2;
    struct {
        const char *name;
        const char *kv[16];
        int exact;
        double eps;
    } cases[] = {
        {"nesvm newton", {"solver", "nesvm", "eps", "1e-6", NULL}, 0, 1e-6},
        {"nesvm nesterov", {"solver", "nesvm", "method", "nesterov", "eps", "1e-4", NULL}, 0, 1e-4},
        {"nesvm nesterov restart 0", {"solver", "nesvm", "method", "nesterov", "restart", "0", "eps", "1e-4", NULL}, 0, 1e-4},
        {"nesvm lp", {"solver", "nesvm", "svm_type", "lp", "c", "0.5", "eps", "1e-5", NULL}, 0, 1e-5},
        /* LS-SVM by Nesterov's steps: Newton's exact step solves its quadratic
         * in one step, which leaves nothing to resume */
        {"nesvm ls", {"solver", "nesvm", "svm_type", "ls", "method", "nesterov", "eps", "1e-4", NULL}, 0, 1e-4},
        /* the dual method's state (alpha and the bias's multiplier) */
        {"nesvm dcd", {"solver", "nesvm", "method", "dcd", "c", "20", "eps", "1e-6", NULL}, 0, 1e-6},
        {"nesvm dcd no bias", {"solver", "nesvm", "method", "dcd", "bias", "0", "c", "20", "eps", "1e-6", NULL}, 0, 1e-6},
        {"nesvm rbf full", {"solver", "nesvm", "kernel", "rbf", "gamma", "0.2", "eps", "1e-6", NULL}, 0, 1e-6},
        {"nesvm rbf nesterov", {"solver", "nesvm", "kernel", "rbf", "gamma", "0.2", "method", "nesterov", "eps", "1e-3", NULL}, 0, 1e-3},
        {"nesvm rbf reduced", {"solver", "nesvm", "kernel", "rbf", "basis", "40", "eps", "1e-6", NULL}, 0, 1e-6},
        {"hyperpass", {"solver", "hyperpass", "eps", "1e-6", NULL}, 0, 1e-6},
        {"pegasos", {"solver", "pegasos", "eps", "1e-3", "batch", "16", NULL}, 1, 1e-3},
        {"ssvm", {"solver", "ssvm", "eps", "1e-10", NULL}, 0, 1e-8},
        {"nssvm rsvm", {"solver", "nssvm", "kernel", "rbf", "gamma", "0.2", "eps", "1e-10", NULL}, 0, 1e-8},
        {"gs", {"solver", "gs", "kernel", "rbf", "gamma", "0.2", NULL}, 1, 0},
        {"gs linear", {"solver", "gs", "max_iter", "60", NULL}, 1, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char nm[80];
        snprintf(nm, sizeof nm, "%s (binary)", cases[c].name);
        run_case(nm, bin.ds, cases[c].kv, cases[c].exact, cases[c].eps);
        snprintf(nm, sizeof nm, "%s (3 classes)", cases[c].name);
        run_case(nm, multi.ds, cases[c].kv, cases[c].exact, cases[c].eps);
    }

    /* the full-kernel C-SVM's working set: 3,000 rows with few support
     * vectors, so that the run is cancelled in a round whose set is a part
     * of the rows (the checkpoint holds all n coefficients) */
    {
        toy board;
        make_board(&board, 3000, 4, 0.0, 44);
        const char *kv[] = {"solver", "nesvm", "kernel", "rbf", "gamma", "40", "c", "100", "eps", "1e-6", NULL};
        run_case("nesvm rbf working set (binary)", board.ds, kv, 0, 1e-6);
        free_toy(&board);
    }
    /* epsilon-SVR's working set (expansion_wst.c): 3,000 rows of a smooth
     * target with noise, cancelled in a round whose held rows carry their
     * coefficients (the checkpoint holds all n), resumed from them */
    {
        toy reg;
        make_board(&reg, 3000, 3, 0.0, 45);
        uint64_t s = 46;
        for (int64_t i = 0; i < reg.n; i++)
            reg.y[i] = sin(6 * reg.X[2 * i]) + cos(4 * reg.X[2 * i + 1]) + (urand(&s) - 0.5);
        const char *kv[] = {"solver", "nesvm", "svm_type", "svr", "epsilon", "0.05", "kernel", "rbf", "gamma", "10",
                            "eps", "1e-6", NULL};
        run_case("nesvm rbf svr working set", reg.ds, kv, 0, 1e-6);
        free_toy(&reg);
    }

    /* refusals: other data, other parameters, a damaged file */
    {
        nesvm_error err = {0};
        const char *kv[] = {"solver", "gs", "kernel", "rbf", NULL};
        nesvm_params *p = make_params(kv, "1");
        counter c1 = {0, 5};
        nesvm_checkpoint_options save = {ckpath, 0, NULL};
        nesvm_model *m = NULL;
        CHECK(nesvm_train_resumable(multi.ds, p, NULL, &save, count_cb, &c1, &m, NULL, &err) == NESVM_ERR_CANCELLED);
        nesvm_checkpoint_options resume = {NULL, 0, ckpath};
        multi.y[1] = multi.y[1] > 0 ? -1 : 1; /* one label differs */
        CHECK(nesvm_train_resumable(multi.ds, p, NULL, &resume, NULL, NULL, &m, NULL, &err) == NESVM_ERR_ARG);
        CHECK_CONTAINS(err.message, "was made from other data (150 rows, 8 features, other values)");
        multi.y[1] = multi.y[1] > 0 ? -1 : 1;
        CHECK(nesvm_train_resumable(bin.ds, p, NULL, &resume, NULL, NULL, &m, NULL, &err) == NESVM_ERR_ARG);
        CHECK_CONTAINS(err.message, "was made from other data (150 rows, 8 features) than these (160 rows");
        nesvm_params_set(p, "gamma", "0.3", NULL);
        CHECK(nesvm_train_resumable(multi.ds, p, NULL, &resume, NULL, NULL, &m, NULL, &err) == NESVM_ERR_ARG);
        CHECK_CONTAINS(err.message, "was made with other parameters");
        nesvm_params_set(p, "gamma", "0", NULL);
        nesvm_params_set(p, "max_iter", "50", NULL); /* allowed to differ */
        CHECK_MSG(nesvm_train_resumable(multi.ds, p, NULL, &resume, NULL, NULL, &m, NULL, &err) == NESVM_OK, "%s",
                  err.message);
        nesvm_model_destroy(m);
        m = NULL;
        /* damaged: cut in half */
        char *t = slurp(ckpath);
        FILE *f = fopen(ckpath, "wb");
        fwrite(t, 1, strlen(t) / 2, f);
        fclose(f);
        free(t);
        CHECK(nesvm_train_resumable(multi.ds, p, NULL, &resume, NULL, NULL, &m, NULL, &err) == NESVM_ERR_ARG);
        CHECK_CONTAINS(err.message, "is damaged or not a checkpoint");
        /* an unwritable checkpoint stops the training with the reason */
        nesvm_checkpoint_options bad = {"/nonexistent-dir/ck", 0, NULL};
        counter c2 = {0, 3};
        CHECK(nesvm_train_resumable(multi.ds, p, NULL, &bad, count_cb, &c2, &m, NULL, &err) == NESVM_ERR_IO);
        CHECK_CONTAINS(err.message, "checkpoint: cannot create '/nonexistent-dir/ck'");
        nesvm_params_destroy(p);
    }
    unlink(ckpath);
    unlink(apath);
    unlink(bpath);
    rmdir(dir);
    free_toy(&bin);
    free_toy(&multi);
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}
