/*
 * expansion_smo.h - the kernel SMO's state (not installed): expansion_smo.c
 * (the C-SVM, epsilon-SVR's tube, the one-class SVM) and expansion_smon.c
 * (its nu mode: nu-SVC and nu-SVR) share it.
 */
#ifndef NESVM_EXPANSION_SMO_H
#define NESVM_EXPANSION_SMO_H

#include "expansion.h"

#define SMO_TAU 1e-12

typedef struct ksmo {
    const float *K;     /* the stored matrix, row-major, ld columns */
    int64_t ld;
    const int64_t *pos; /* m positions into K (the tube's n + k: row k's) */
    int64_t n;          /* rows */
    int64_t m;          /* variables: n (the hinge), 2 n (the tube) */
    const double *y, *c; /* m signs and costs */
    const double *t;    /* m thresholds (the tube's), or NULL: 1 (the hinge) */
    const double *yr;   /* the tube: the n real targets, else NULL */
    double p;           /* the tube's half-width */
    double r, d0;       /* the tube in a working set (kp->keep_sum): sum beta, kept, and
                         * the offset of P and D (kp->d0); else 0 */
    int keep_sum;
    int bias;
    int tube;           /* epsilon-SVR's tube: m = 2 n variables */
    int oc;             /* the one-class SVM: y = +1, t = -h (kp->h, or 0), sum a kept at r */
    int nu;             /* nu-SVC, nu-SVR (expansion_smon.c): pair steps within a sign only,
                         * each sign's sum of a kept at nur[y > 0]; t = -y h (nu-SVC), the
                         * tube's thresholds with p = 0 (nu-SVR) */
    double nuw;         /* one-class: nu times the sum of the costs (a cold start's sum a);
                         * nu-SVC, nu-SVR: each sign's sum of a at a cold start */
    double nur[2];      /* nu mode: the kept sums of a over y = -1 and y = +1 */
    double ngmax[2], ngmin[2]; /* nu mode: the last step's violation interval per sign */
    double moved;       /* the sum of the pair steps' |s|: their rounding in G is at most
                         * 2 FLT_EPSILON max K_ii times it */
    double *a, *G, *kd; /* dual point, gradient Q a - t, diagonal of K (m each) */
    int64_t *act;       /* active variables (shrinking): the first nact */
    int64_t nact;
    double *zb;         /* 2 m scratch: breakpoints and weights for the bias */
} ksmo;

/* Variable i's threshold t_i (the hinge's 1) and row. */
static inline double thr(const ksmo *s, int64_t i) { return s->t ? s->t[i] : 1.0; }
static inline int64_t row_of(const ksmo *s, int64_t i) { return i < s->n ? i : i - s->n; }

static inline const float *krow(const ksmo *s, int64_t i) { return s->K + s->pos[i] * s->ld; }
static inline float kval(const float *row, const ksmo *s, int64_t t) { return row[s->pos[t]]; }

/* I_up: a_t can grow along y_t; I_low: it can shrink (smo.c). */
static inline int up(const ksmo *s, int64_t t) { return s->y[t] > 0 ? s->a[t] < s->c[t] : s->a[t] > 0; }
static inline int low(const ksmo *s, int64_t t) { return s->y[t] > 0 ? s->a[t] > 0 : s->a[t] < s->c[t]; }

/* ---- rows of the matrix (expansion_smok.c) */

/* G += coef * y (x) K[i, :] over the active variables (act[0..nact)). */
void nv_ksmo_grad_add(ksmo *s, int64_t i, double coef);
/* All variables active again: G of the shrunk ones rebuilt from the rows of
 * the non-zero a (G_t = -t_t + y_t sum_j y_j a_j K_jt). */
void nv_ksmo_unshrink(ksmo *s);

/* ---- the nu mode (expansion_smon.c) */

/* The start (G included): kp->a0, or beta0 made feasible (each sign's sum of
 * a brought to nuw / 2: scaled down where above, raised in row order where
 * below), or LIBSVM's (a_i = min(c_i, what is left of nuw / 2) in row order,
 * each sign; nu-SVR: both variables of a row together); G from the exact
 * margins f0 when a gives beta0 back, else from the rows. */
void nv_ksmo_nu_start(ksmo *s, const nv_kernel_problem *kp);
/* One pair step within a sign (LIBSVM's Solver_NU: the most violating pair
 * of each sign, second order, the better of the two).  Returns the larger
 * sign's violation (0: nothing moved); ngmax, ngmin: each sign's interval. */
double nv_ksmo_nu_step(ksmo *s);
/* The certificate at a (smo_evaluate's): P = 1/2 a'Qa + sum over the signs of
 * min_l [sum c_i max(0, l - G_i) - l r_sign] + d0, D = a't - 1/2 a'Qa + d0;
 * beta and the margins f (n rows each).  Returns the bias (l_- - l_+) / 2. */
double nv_ksmo_nu_evaluate(ksmo *s, double *beta, double *f, nv_obj_eval *e);

#endif
