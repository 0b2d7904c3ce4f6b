/* toy.h - small synthetic two-class sets for the solver unit tests. */
#ifndef NESVM_TEST_TOY_H
#define NESVM_TEST_TOY_H

#include "check.h"
#include "core/internal.h"

#include <stdlib.h>

static inline double urand(uint64_t *s) { return nv_rng_uniform(s); }

typedef struct {
    int64_t n;
    int32_t d;
    double *X, *y;
    int64_t *ip;     /* CSR copy (sparse toys) */
    int32_t *ix;
    double *vx;
    nesvm_dataset *ds;
} toy;

/* Two overlapping Gaussian classes; most entries 0 with `zeros`; stored as
 * CSR with `csr`, else dense. */
static inline void make_toy(toy *t, int64_t n, int32_t d, int zeros, int csr, uint64_t seed)
{
    t->n = n;
    t->d = d;
    t->X = malloc(sizeof(double) * (size_t)(n * d));
    t->y = malloc(sizeof(double) * (size_t)n);
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) {
        t->y[i] = urand(&s) < 0.4 ? 1 : -1;
        for (int32_t j = 0; j < d; j++) {
            double g = 0;
            for (int k = 0; k < 4; k++) g += urand(&s) - 0.5;
            double v = g + (j < 3 ? 0.6 * t->y[i] : 0.0) + 0.2;
            if (zeros && urand(&s) < 0.8) v = 0;
            t->X[i * d + j] = v;
        }
    }
    t->ip = NULL;
    t->ix = NULL;
    t->vx = NULL;
    if (!csr) {
        nesvm_dataset_wrap_dense(n, d, t->X, t->y, &t->ds, NULL);
        return;
    }
    t->ip = malloc(sizeof(int64_t) * (size_t)(n + 1));
    t->ix = malloc(sizeof(int32_t) * (size_t)(n * d));
    t->vx = malloc(sizeof(double) * (size_t)(n * d));
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        t->ip[i] = k;
        for (int32_t j = 0; j < d; j++)
            if (t->X[i * d + j] != 0) {
                t->ix[k] = j;
                t->vx[k++] = t->X[i * d + j];
            }
    }
    t->ip[n] = k;
    CHECK(nesvm_dataset_wrap_csr(n, d, t->ip, t->ix, t->vx, t->y, &t->ds, NULL) == NESVM_OK);
    CHECK(nesvm_dataset_storage(t->ds) == NESVM_STORAGE_CSR);
}

/* n points uniform in [0, 1]^2 labelled by a q x q checkerboard (the NSSVM
 * paper's experiment), `flip` of the labels flipped at random: with flip = 0
 * and an RBF kernel, few support vectors among many rows (dense storage). */
static inline void make_board(toy *t, int64_t n, int q, double flip, uint64_t seed)
{
    t->n = n;
    t->d = 2;
    t->X = malloc(sizeof(double) * (size_t)n * 2);
    t->y = malloc(sizeof(double) * (size_t)n);
    t->ip = NULL;
    t->ix = NULL;
    t->vx = NULL;
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) {
        double a = urand(&s), b = urand(&s);
        t->X[2 * i] = a;
        t->X[2 * i + 1] = b;
        t->y[i] = ((int)(a * q) + (int)(b * q)) % 2 ? 1.0 : -1.0;
        if (urand(&s) < flip) t->y[i] = -t->y[i];
    }
    CHECK(nesvm_dataset_wrap_dense(n, 2, t->X, t->y, &t->ds, NULL) == NESVM_OK);
}

static inline void free_toy(toy *t)
{
    nesvm_dataset_destroy(t->ds);
    free(t->ip);
    free(t->ix);
    free(t->vx);
    free(t->X);
    free(t->y);
}

/* Per-iteration figures from the progress callback. */
typedef struct {
    int64_t n;
    double P[4096], lb[4096], res[4096];
    int scheme[4096];
} rec;

static inline int record(const nesvm_progress *pg, void *user)
{
    rec *r = user;
    if (!r) return 0;
    if (r->n < 4096) {
        r->P[r->n] = pg->primal;
        r->lb[r->n] = pg->lower_bound;
        r->res[r->n] = pg->residual;
        r->scheme[r->n] = pg->scheme;
        r->n++;
    }
    return 0;
}

static inline nesvm_model *train_rec(const nesvm_dataset *ds, const char *const *kv, nesvm_stats *st, rec *r)
{
    nesvm_params *p;
    nesvm_params_create(&p, NULL);
    for (int k = 0; kv[k]; k += 2) CHECK_MSG(nesvm_params_set(p, kv[k], kv[k + 1], NULL) == NESVM_OK, "%s", kv[k]);
    nesvm_model *m = NULL;
    nesvm_error err = {0};
    if (r) r->n = 0;
    CHECK_MSG(nesvm_train(ds, p, record, r, &m, st, &err) == NESVM_OK, "%s", err.message);
    nesvm_params_destroy(p);
    return m;
}

static inline nesvm_model *train(const nesvm_dataset *ds, const char *const *kv, nesvm_stats *st)
{
    return train_rec(ds, kv, st, NULL);
}

#endif
