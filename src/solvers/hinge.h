/*
 * hinge.h - the problem Hyperpass and Pegasos solve, and its row operations
 * (not installed).
 *
 *   P(w) = 1/2 ||w||^2 + sum_i c_i max(0, 1 - y_i <z_i, w>)
 *
 * with z_i = x_i (no bias) or z_i = [x_i, B] (bias B > 0: LIBLINEAR's -B, a
 * constant feature whose weight is regularized like the others).  With
 * c_i = 1/(lambda N) this is the paper's f(w) = lambda/2 ||w||^2 + 1/N sum hinge
 * divided by lambda.  A w here has D = d + (B > 0) entries; the model's bias
 * is b = B w[d].
 *
 * Every row operation is counted: `dots` (y_i <z_i, v>) and `axpys`
 * (v += a y_i z_i), the cost measure of the paper's Figure 5.
 */
#ifndef NESVM_HINGE_H
#define NESVM_HINGE_H

#include "solver.h"

typedef struct nv_hinge {
    const nesvm_dataset *X;
    const int64_t *rows;   /* dataset rows of the n samples (NULL: 0..n-1) */
    int64_t n;
    const double *y, *c;
    int32_t d;
    int64_t D;             /* d + 1 with a bias feature, else d */
    double B;              /* bias feature value, 0 = none */
    const double *t;       /* each sample's threshold: its loss is max(0, t_i - y_i <z_i, w>)
                            * (a tube's halves, nv_tube_split); NULL: 1, the hinge */
    double csum;           /* sum_i c_i (over every rank) */
    const nv_comm *comm;   /* data-parallel: the problem's ranks (pb->comm), else NULL */
    nv_linalg_ws lw;
    double *ay;            /* n scratch entries */
    int64_t dots, axpys;
} nv_hinge;

/* Distributed (pb->comm of several ranks), the ranks agree on a failure
 * here, and csum is the sum over every rank. */
nesvm_status nv_hinge_init(nv_hinge *h, const nv_binary_problem *pb, const nesvm_params *prm,
                           nesvm_error *err);
void nv_hinge_free(nv_hinge *h);

/* A regression's tube as two hinges: for e >= 0,
 *   max(0, |y - f| - e) = max(0, (y - e) - f) + max(0, f - (y + e)),
 * at most one term positive (and the squared tube the sum of the two squares),
 * so the problem over n real targets is the hinge problem over 2n samples:
 * sample k < n is row k with sign +1 and threshold y_k - e, sample n + k row
 * k with sign -1 and threshold -(y_k + e), both of cost c_k.  pb (a REAL
 * target) is copied into s->pb with the 2n samples (rows, signs, costs) and
 * s->t the thresholds (nv_hinge.t); the start w0/b0 and comm are pb's.  Used
 * by SSVM and NSSVM for the squared tube. */
typedef struct nv_tube_split {
    nv_binary_problem pb;
    int64_t *rows;
    double *y, *c, *t;
} nv_tube_split;
nesvm_status nv_tube_split_init(nv_tube_split *s, const nv_binary_problem *pb, double e, nesvm_error *err);
void nv_tube_split_free(nv_tube_split *s);

/* The starting point from pb->w0 / b0 (or 0): w has D entries. */
void nv_hinge_start(const nv_hinge *h, const nv_binary_problem *pb, double *w);
/* The model's (w, b) from a D-entry w: out has d entries. */
void nv_hinge_result(const nv_hinge *h, const double *w, double *out, double *b);

/* Sample i's threshold t_i (1 without h->t). */
static inline double nv_hinge_thr(const nv_hinge *h, int64_t i) { return h->t ? h->t[i] : 1.0; }
/* The margins of a point w shifted so that every sample's kink is at 1:
 * y_i <z_i, w> + 1 - t_i, the loss max(0, 1 - m_i) (Hyperpass keeps these;
 * without thresholds they are the plain margins).  Directions take the plain
 * products below. */
void nv_hinge_point_margins(nv_hinge *h, const double *w, double *out);
double nv_hinge_point_dot(nv_hinge *h, int64_t i, const double *w);

/* out[i] = y_i <z_i, w> for every sample (one threaded pass). */
void nv_hinge_margins(nv_hinge *h, const double *w, double *out);
/* y_i <z_i, w> for one sample. */
double nv_hinge_dot(nv_hinge *h, int64_t i, const double *w);
/* out += a y_i z_i. */
void nv_hinge_axpy(nv_hinge *h, int64_t i, double a, double *out);
/* out = sum_i a_i y_i z_i over every sample (rows with a_i = 0 are skipped). */
void nv_hinge_xta(nv_hinge *h, const double *a, double *out);
/* ||z_i||^2 of every sample. */
void nv_hinge_sqnorms(const nv_hinge *h, double *out);

/* P at w from its margins m. */
double nv_hinge_primal(const nv_hinge *h, const double *w, const double *m);

/* Keep in heap[0..*len) the at most kmax samples nearest the margin (key
 * |m_i - 1|, divided by ||z_i|| when sqn is given), a max-heap; returns the
 * sample this offer of i leaves out (i or the one evicted), -1 if none
 * (hpbound.c). */
int64_t nv_hp_nearest_offer(int64_t *heap, int64_t *len, int64_t kmax, int64_t i, const double *m,
                            const double *sqn);

/* A certified lower bound on min P from the margins m at a point: Hyperpass's
 * g3 there (hpbound.c) with the band |m_i - 1| <= rho ||z_i|| (sqn = the
 * ||z_i||^2; NULL: |m_i - 1| <= rho) as L_A, its kmax samples nearest the
 * margin kept as hinges and the others linearized, minimized exactly through
 * the QP's dual.  wout (D entries, may be NULL) receives the minimizer.  One
 * X^T a and O(kmax^2) row products. */
nesvm_status nv_hp_bound_at(nv_hinge *h, const double *m, const double *sqn, double rho, int kmax,
                            double *bound, double *wout, nesvm_error *err);

/* Pegasos (pegasos.c): mini-batch steps on P / sum c_i = lambda/2 ||w||^2 +
 * sum_i p_i hinge_i, lambda = 1 / sum c_i, p_i = c_i lambda. */
typedef struct nv_pegasos {
    int64_t t;         /* steps taken */
    int64_t k;         /* batch size */
    uint64_t rng;
    int64_t *perm;     /* n entries: this epoch's order */
    double *mb;        /* k margins */
} nv_pegasos;
nesvm_status nv_pegasos_init(nv_pegasos *pg, const nv_hinge *h, const nesvm_params *prm,
                             nesvm_error *err);
void nv_pegasos_free(nv_pegasos *pg);
/* `epochs` passes of ceil(n / k) steps each (one of the paper's Pegasos
 * iterations is one pass: n/k steps of k samples, drawn without replacement
 * within the pass). */
void nv_pegasos_epochs(nv_pegasos *pg, nv_hinge *h, int64_t epochs, double *w);
/* Hyperpass's warm start: `epochs` passes from w = 0 into w. */
nesvm_status nv_pegasos_run(nv_hinge *h, const nesvm_params *prm, int64_t epochs, double *w,
                            nesvm_error *err);

#endif
