/*
 * track.h - bookkeeping shared by the NESVM inner methods (not installed):
 * best point, best lower bound, certified gap, progress reports and the
 * stopping rules of docs/solvers.md.  The optimizer evaluates an iterate and
 * hands the evaluation to nv_track_iterate, which says whether to stop.
 */
#ifndef NESVM_TRACK_H
#define NESVM_TRACK_H

#include "chinge.h"

typedef struct nv_track {
    const nesvm_params *prm;
    const nv_progress_sink *sink;
    double t0;
    int32_t d;
    double *wbest;       /* d entries, owned by the caller */
    double bbest, best_p, best_d;
    int64_t nsv_best, iter;
    int64_t stage_iter;  /* evaluations since the current mu stage began */
    double fmu_prev;     /* F_mu at the previous evaluation of this stage */
    nesvm_exit why;
} nv_track;

void nv_track_init(nv_track *t, const nesvm_params *prm, const nv_progress_sink *sink,
                   int32_t d, double *wbest, double t0);
/* nv_track_init, plus the starting point: w = the problem's w0 (or 0),
 * wbest = w; returns the starting b (the problem's b0, or 0 without bias). */
double nv_track_start(nv_track *t, const nv_binary_problem *pb, const nesvm_params *prm,
                      const nv_progress_sink *sink, double *w, double *wbest, double t0);
/* A new mu stage begins: the paper's |F_mu change| rule restarts. */
void nv_track_new_stage(nv_track *t);

/* Extra figures an inner method reports (NaN / 0 when it has none). */
typedef struct nv_track_info {
    double mu, lipschitz, step;
    int64_t inner;
} nv_track_info;

/* Record the evaluated iterate (w, b).  Returns 1 when training must stop:
 * t->why says why; on an error status (numeric trouble, cancellation) *st
 * and err are set. */
int nv_track_iterate(nv_track *t, const nv_chinge_eval *e, const double *w, double b,
                     const nv_track_info *info, nesvm_status *st, nesvm_error *err);

/* Relative size num/|den| with a floor on |den|. */
double nv_track_rel(double num, double den);

/* Automatic continuation: once the smoothed gap F_mu - D_mu is at most a
 * quarter of the true gap P - D, what remains is smoothing error and mu is
 * multiplied by this factor, chosen to bring that error to eps/2 and clamped
 * to [min_factor, 1/2]. */
double nv_mu_shrink(const nv_chinge_eval *e, double eps, double best_p, double min_factor);
static inline int nv_mu_stage_done(const nv_chinge_eval *e)
{
    return (e->Fmu - e->Dmu) <= 0.25 * (e->P - e->D);
}

/* Fill res from the best point (res->w has d entries). */
void nv_track_result(const nv_track *t, nv_binary_result *res);

#endif
