/* test_determinism.c - the same data, parameters, seed and thread count give
 * byte-identical model files, for every solver; two trainings running at
 * once in two threads of one process give the models of sequential runs (no
 * shared mutable state).  DESIGN.md: "Determinism". */
#include "toy.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/nesvm_det_XXXXXX";

/* Configurations: every solver family, linear and kernel, binary and 3 classes. */
static const char *const configs[][16] = {
    {"solver", "nesvm", NULL},
    {"solver", "nesvm", "method", "nesterov", "eps", "1e-4", NULL},
    {"solver", "nesvm", "svm_type", "lp", "c", "0.5", NULL},
    {"solver", "nesvm", "kernel", "rbf", "gamma", "0.2", NULL},
    {"solver", "nesvm", "kernel", "rbf", "basis", "40", "seed", "7", NULL},
    {"solver", "hyperpass", "warm_start", "pegasos:3", "seed", "3", NULL},
    {"solver", "pegasos", "eps", "1e-2", "batch", "16", "seed", "5", NULL},
    {"solver", "ssvm", NULL},
    {"solver", "nssvm", "kernel", "rbf", "gamma", "0.2", "basis_select", "greedy", NULL},
    {"solver", "nssvm", "kernel", "rbf", "gamma", "0.2", "seed", "11", NULL},
    {"solver", "gs", "kernel", "rbf", "gamma", "0.2", "max_iter", "60", NULL},
};
#define NCONF ((int)(sizeof configs / sizeof configs[0]))

typedef struct job {
    const nesvm_dataset *ds;
    const char *const *kv;
    const char *threads;
    char path[256];
    int ok;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    nesvm_params *p = NULL;
    nesvm_model *m = NULL;
    j->ok = nesvm_params_create(&p, NULL) == NESVM_OK;
    for (int i = 0; j->ok && j->kv[i]; i += 2) j->ok = nesvm_params_set(p, j->kv[i], j->kv[i + 1], NULL) == NESVM_OK;
    if (j->ok) j->ok = nesvm_params_set(p, "threads", j->threads, NULL) == NESVM_OK;
    if (j->ok) j->ok = nesvm_train(j->ds, p, NULL, NULL, &m, NULL, NULL) == NESVM_OK;
    if (j->ok) j->ok = nesvm_model_save(m, j->path, NULL) == NESVM_OK;
    nesvm_model_destroy(m);
    nesvm_params_destroy(p);
    return NULL;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    fclose(f);
    return b;
}

static int same_file(const char *a, const char *b)
{
    size_t la = 0, lb = 0;
    char *x = slurp(a, &la), *y = slurp(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

int main(void)
{
    if (!mkdtemp(dir)) return 2;
    toy bin, multi;
    make_toy(&bin, 150, 8, 0, 0, 42);
    make_toy(&multi, 150, 8, 1, 1, 43);
    /* a third class for the multiclass set */
    for (int64_t i = 0; i < multi.n; i += 3) multi.y[i] = 2;
    const nesvm_dataset *sets[2] = {bin.ds, multi.ds};
    const char *threads[2] = {"1", "2"};
    for (int c = 0; c < NCONF; c++)
        for (int s = 0; s < 2; s++)
            for (int t = 0; t < 2; t++) {
                /* two sequential runs, then two at once in two threads */
                job j[4];
                for (int r = 0; r < 4; r++) {
                    j[r] = (job){sets[s], configs[c], threads[t], "", 0};
                    snprintf(j[r].path, sizeof j[r].path, "%s/m%d.model", dir, r);
                }
                run_job(&j[0]);
                run_job(&j[1]);
                pthread_t th[2];
                for (int r = 0; r < 2; r++) pthread_create(&th[r], NULL, run_job, &j[2 + r]);
                for (int r = 0; r < 2; r++) pthread_join(th[r], NULL);
                int ok = j[0].ok && j[1].ok && j[2].ok && j[3].ok;
                CHECK_MSG(ok, "config %d (%s %s), set %d, threads %s: a training failed", c, configs[c][0],
                          configs[c][1], s, threads[t]);
                if (!ok) continue;
                CHECK_MSG(same_file(j[0].path, j[1].path), "config %d (solver %s), set %d, threads %s: "
                          "two sequential runs differ", c, configs[c][1], s, threads[t]);
                CHECK_MSG(same_file(j[0].path, j[2].path) && same_file(j[0].path, j[3].path),
                          "config %d (solver %s), set %d, threads %s: concurrent runs differ from sequential",
                          c, configs[c][1], s, threads[t]);
                for (int r = 0; r < 4; r++) unlink(j[r].path);
            }
    free_toy(&bin);
    free_toy(&multi);
    rmdir(dir);
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}
