/*
 * hpdist.h - Hyperpass over MPI ranks (not installed): the pieces whose
 * serial versions need every sample at hand.  Each rank holds its samples
 * (nv_hinge over its rows, h->comm set); w, w~ and every D-vector are every
 * rank's.
 *
 *   - L_A, the samples nearest the margin that the lower bound keeps as
 *     hinges, is chosen over every rank (nv_hp_select_global) and its rows
 *     are sent to every rank in sparse form (nv_hp_rows), so that the small
 *     QP is the same everywhere;
 *   - the exact line search's breakpoints stay on their ranks: its minimizer
 *     is found by collective bracketing (nv_hp_line_search_dist), each round
 *     evaluating phi' at one candidate per rank (the median of its
 *     breakpoints in the bracket), which at least halves every rank's
 *     breakpoints in the bracket, so O(log n) rounds of two small reductions;
 *   - the final bound (nv_hp_bound_at's band) likewise (nv_hp_bound_at_dist).
 */
#ifndef NESVM_HPDIST_H
#define NESVM_HPDIST_H

#include "../hinge.h"

/* K rows y_i z_i (sparse: the bias feature is index d), their costs and thresholds. */
typedef struct nv_hp_rows {
    int K;
    int64_t *ptr;  /* K + 1 */
    int64_t *idx;
    double *val;
    double *cost;  /* K */
    double *thr;   /* K: nv_hinge_thr */
} nv_hp_rows;
void nv_hp_rows_free(nv_hp_rows *r);
double nv_hp_rows_dot(const nv_hp_rows *r, int a, const double *v);
void nv_hp_rows_axpy(const nv_hp_rows *r, int a, double s, double *out);
/* <row a, row b> */
double nv_hp_rows_dot2(const nv_hp_rows *r, int a, int b);

/* Of this rank's candidates cand[0..nc) and every other rank's, the kmax
 * nearest the margin (key |m_i - 1|, divided by ||z_i|| when sqn is given;
 * ties: lower rank, then this rank's order): chosen[i] = 1 for this rank's
 * chosen samples (the caller zeroes chosen's n entries), and every rank's
 * chosen rows in rank order into rows (nv_hp_rows_free). */
nesvm_status nv_hp_select_global(nv_hinge *h, const int64_t *cand, int64_t nc, const double *m,
                                 const double *sqn, int64_t kmax, unsigned char *chosen, nv_hp_rows *rows,
                                 nesvm_error *err);

/* nv_hp_line_search over every rank's samples (all n of this rank's work):
 * the same minimizer *eta; *kink_at receives the breakpoint the minimizer
 * sits on (NaN: inside a segment), whose samples the caller puts on the
 * margin. */
nesvm_status nv_hp_line_search_dist(nv_hinge *h, const double *m, const double *dl, double A, double Bq,
                                    double *eta, double *kink_at, nesvm_error *err);

/* nv_hp_bound_at over every rank's samples (n: every rank's). */
nesvm_status nv_hp_bound_at_dist(nv_hinge *h, const double *m, const double *sqn, double rho, int kmax,
                                 double *bound, double *wout, nesvm_error *err);

#endif
