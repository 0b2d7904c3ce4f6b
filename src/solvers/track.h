/*
 * track.h - bookkeeping shared by the NESVM inner methods (not installed):
 * best point, best lower bound, certified gap, progress reports and the
 * stopping rules of docs/solvers.md.  The optimizer evaluates an iterate and
 * hands the evaluation to nv_track_iterate, which says whether to stop.
 */
#ifndef NESVM_TRACK_H
#define NESVM_TRACK_H

#include "nesvm/objective.h"

typedef struct nv_track {
    const nesvm_params *prm;
    const nv_progress_sink *sink;
    double t0;
    int32_t d;
    double *wbest;       /* d entries, owned by the caller */
    double bbest, best_p, best_d;
    double mu_best_d;    /* the mu of best_d's evaluation (its dual point's smoothing) */
    int64_t nsv_best, iter;
    int64_t stage_iter;  /* evaluations since the current mu stage began */
    /* checkpoints: the result's w has d_model entries (d by default); with
     * B > 0 the tracked point holds the bias as a feature, b = B w[d_model];
     * extra is the solver's state beyond the point (nv_snapshot) */
    int32_t d_model;
    double B;
    const double *extra;
    int64_t nextra;
    double fmu_prev;     /* F_mu at the previous evaluation of this stage */
    int stage_flat;      /* the paper's rule (eps_abs) held at the last
                          * evaluation of a stage that is not the final
                          * one of a homotopy to mu_star:
                          * the stage is done (nv_sched_stage_done), not the
                          * training (nv_track_iterate) */
    nesvm_exit why;
    /* data-parallel: the ranks stop together (a cancel or time limit on one
     * rank is every rank's); set by nv_track_start from the problem */
    const nv_comm *comm;
} nv_track;

void nv_track_init(nv_track *t, const nesvm_params *prm, const nv_progress_sink *sink,
                   int32_t d, double *wbest, double t0);
/* nv_track_init, plus the starting point: w = the problem's w0 (or 0),
 * wbest = w; returns the starting b (the problem's b0, or 0 without bias). */
double nv_track_start(nv_track *t, const nv_binary_problem *pb, const nesvm_params *prm,
                      const nv_progress_sink *sink, double *w, double *wbest, double t0);
/* A new mu stage begins: the paper's |F_mu change| rule restarts. */
void nv_track_new_stage(nv_track *t);

/* Extra figures an inner method reports (NaN / 0 when it has none).
 * final_stage: the smoothing will not shrink further, so a solved smoothed
 * problem (smoothed gap <= eps) ends the training. */
typedef struct nv_track_info {
    double mu, lipschitz, step;
    int64_t inner;
    int final_stage;
    /* Newton schemes (ssvm, nssvm; 0, 0, 0, NaN, NaN for the others): |J|,
     * |J0|, the scheme of the last step (0 = none yet), ||G_p|| and ||grad f|| */
    int64_t n_active, n_changed;
    int scheme;
    double residual, grad_norm;
} nv_track_info;

/* Record the evaluated iterate (w, b).  Returns 1 when training must stop:
 * t->why says why; on an error status (numeric trouble, cancellation) *st
 * and err are set. */
int nv_track_iterate(nv_track *t, const nv_obj_eval *e, const double *w, double b,
                     const nv_track_info *info, nesvm_status *st, nesvm_error *err);

/* Checkpoints of a solver with state beyond its point: when the sink saves
 * or resumes, *state gets nstate entries (attached to the snapshots t
 * reports; the solver fills it before each nv_track_iterate) and *resume the
 * checkpoint's state to continue from (NULL: none); a resumed state of
 * another size is an error naming the solver. */
nesvm_status nv_track_state(nv_track *t, const nv_progress_sink *sink, int64_t nstate, double **state,
                            const double **resume, const char *solver, nesvm_error *err);

/* The progress report of a solver without a certificate (GS-SVM, SMO for a
 * kernel that is not positive semi-definite): its objective at iteration
 * `iteration`, the last step and the support vectors; bounds, gap, mu and
 * the Newton figures NaN. */
nesvm_progress nv_progress_plain(const nv_progress_sink *sink, int64_t iteration, double t0, double objective,
                                 double step, int64_t n_sv);

/* Relative size num/|den| with a floor on |den|. */
double nv_track_rel(double num, double den);

/* The certificate: the relative gap (P - D)/|P| of a primal value P over a
 * lower bound D, 0 where D exceeds P by rounding.  A bound above P by more
 * than rounding (a relative NV_CERT_SLACK) is no bound: the arithmetic broke
 * down (a huge -c or -B) or the problem is not convex (a kernel that is not
 * positive semi-definite).  Returns NESVM_OK, or NESVM_ERR_NUMERIC with a
 * message naming both values (the caller's exit reason is then numeric). */
#define NV_CERT_SLACK 1e-8
nesvm_status nv_certify(double P, double D, double *gap, nesvm_error *err);

/*
 * The smoothing schedule (docs/solvers.md, "Continuation").  mu smooths the
 * hinge, nu the L1 norm (LP-SVM); both move together.
 *   fixed     mu > 0 given (and nu > 0 for LP-SVM), or LS-SVM (nothing to
 *             smooth): one stage, which is final;
 *   adaptive  (default) a stage ends when the smoothed gap F - D_F is at most
 *             a quarter of the true gap P - D (what remains is smoothing
 *             error); mu and nu then shrink by the factor that should bring
 *             that error to eps/2, clamped to [min_factor, 1/2];
 *   paper     homotopy NESVM (Algorithm 2): mu_t = mu0/(t+1), nu_t = nu0/(t+1);
 *             a stage ends when its smoothed relative gap is <= stage_eps
 *             (0: the adaptive rule above).
 * With mu_star > 0 the schedule stops at mu = mu_star (clamped), which is the
 * final stage; otherwise the certified gap alone ends the training.
 */
#define NV_SCHED_WARM_TRIES 8 /* nv_sched_warm */
#define NV_SCHED_FAR_GAP 0.5  /* nv_sched_warm_far */
typedef struct nv_sched {
    int mode;            /* NV_SCHED_FIXED, _ADAPTIVE, _PAPER */
    double mu, nu;       /* current values */
    double mu0, nu0;
    double mu_star, stage_eps, min_factor;
    /* a warm start's tries (nv_sched_warm, read once by nv_sched_warm_far) */
    int warm_tries;
    double warm_mu0, warm_cost[NV_SCHED_WARM_TRIES];
    int64_t t;           /* stage index */
    int final;
} nv_sched;
enum { NV_SCHED_FIXED = 0, NV_SCHED_ADAPTIVE = 1, NV_SCHED_PAPER = 2 };

/* mu_default/nu_default: the method's first mu and nu when mu0/nu0 are 0;
 * smoothed: the loss is smoothed (loss.h); l1: the L1 norm (smoothed by
 * Huber's nu).  Nothing smoothed: one fixed stage with mu = nu = 0. */
void nv_sched_init(nv_sched *s, const nesvm_params *prm, int smoothed, int l1, double mu_default,
                   double nu_default, double min_factor);
/* Is the current stage done (time to shrink)? Never for a final stage;
 * always when the paper's rule held at t's last evaluation (t->stage_flat). */
int nv_sched_stage_done(const nv_sched *s, const nv_track *t, const nv_obj_eval *e);
/* Move to the next stage. */
void nv_sched_next(nv_sched *s, const nv_obj_eval *e, double eps, double best_p);
/* A warm start at (w, b): start the schedule at the mu among mu0 / 4^k,
 * k = 0..NV_SCHED_WARM_TRIES-1, whose smoothed dual point gives the best
 * lower bound there (a near-optimal start certifies at a small mu, so a large
 * mu0 would first pull it away from the optimum), and keep each try's
 * smoothing cost P - Fmu at (w, b) for nv_sched_warm_far.  One X^T*a per
 * try; leaves the margins of (w, b) in o->m. */
void nv_sched_warm(nv_sched *s, nv_obj *o, const double *w, double b);
/* Once, after the warm start's first evaluation (and the exact active set's
 * attempt, whose lower bounds are better than a smoothed dual point's where
 * the start sits on the hinge's kinks): P the start's objective, D the best
 * lower bound so far.  A start far from the optimum (a few dual epochs,
 * another C's solution far away), told by a relative gap (P - D) / P over
 * NV_SCHED_FAR_GAP, moves the schedule up to the smallest try whose smoothing
 * costs at least a quarter of the gap P - D: at a smaller mu Newton creeps
 * from kink to kink (2,000 rows, C = 1, from 3 dual epochs: 478 iterations
 * against 39 cold).  Below that gap the start counts as near: a near-optimal
 * start's lower bound is poor on the kinks too (breast_cancer_scale, C = 1 ->
 * 1.3: 4.7%), and lifting mu there cost 27 iterations where 20 did (unit_api:
 * 21 where 8 did).  Returns 1 when it moved mu (a new stage for the caller). */
int nv_sched_warm_far(nv_sched *s, double p, double d);

/* Fill res from the best point (res->w has d entries). */
void nv_track_result(const nv_track *t, nv_binary_result *res);

/* The L1 norm (LP-SVM, --penalty l1): weights below 1e-6 of the largest,
 * else those inside Huber's zone (|w_j| < nu), belong to the L1 norm's kink;
 * set them to 0 in the best point when that keeps the certified gap within
 * eps or lowers P (one or two X*w).  Other models: nothing. */
void nv_track_sparsify(nv_track *t, nv_obj *o, double nu, double *tmp);

#endif
