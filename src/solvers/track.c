/* track.c - best point, certified gap, progress and stopping rules shared by the NESVM inner methods. */
#include "track.h"

#include <math.h>
#include <string.h>

double nv_track_rel(double num, double den)
{
    den = fabs(den);
    return num / (den > 1e-300 ? den : 1e-300);
}

void nv_track_init(nv_track *t, const nesvm_params *prm, const nv_progress_sink *sink,
                   int32_t d, double *wbest, double t0)
{
    memset(t, 0, sizeof *t);
    t->prm = prm;
    t->sink = sink;
    t->t0 = t0;
    t->d = d;
    t->wbest = wbest;
    t->best_p = INFINITY;
    t->best_d = -INFINITY;
    t->fmu_prev = NAN;
    t->why = NESVM_EXIT_MAX_ITER;
}

double nv_track_start(nv_track *t, const nv_binary_problem *pb, const nesvm_params *prm,
                      const nv_progress_sink *sink, double *w, double *wbest, double t0)
{
    const int32_t d = pb->X->d;
    if (pb->w0)
        memcpy(w, pb->w0, (size_t)d * sizeof *w);
    else
        memset(w, 0, (size_t)d * sizeof *w);
    nv_track_init(t, prm, sink, d, wbest, t0);
    memcpy(wbest, w, (size_t)d * sizeof *w);
    t->bbest = prm->bias ? pb->b0 : 0.0;
    return t->bbest;
}

void nv_track_new_stage(nv_track *t)
{
    t->stage_iter = 0;
    t->fmu_prev = NAN;
}

int nv_track_iterate(nv_track *t, const nv_chinge_eval *e, const double *w, double b,
                     const nv_track_info *info, nesvm_status *st, nesvm_error *err)
{
    const nesvm_params *prm = t->prm;
    if (!isfinite(e->P) || !isfinite(e->Fmu) || !isfinite(e->D)) {
        t->why = NESVM_EXIT_NUMERIC;
        *st = nv_error(err, NESVM_ERR_NUMERIC,
                       "NESVM: non-finite objective at iteration %lld (check the data scale)",
                       (long long)t->iter + 1);
        return 1;
    }
    if (e->P < t->best_p) {
        t->best_p = e->P;
        memcpy(t->wbest, w, (size_t)t->d * sizeof *w);
        t->bbest = b;
        t->nsv_best = e->nsv;
    }
    if (e->D > t->best_d) t->best_d = e->D;
    t->iter++;
    double gap = nv_track_rel(t->best_p - t->best_d, t->best_p);
    if (gap < 0) gap = 0;
    const nv_progress_sink *sink = t->sink;
    if (sink && sink->fn && (t->iter % prm->progress_every == 0 || t->iter == 1)) {
        nesvm_progress pg = {sink->submodel, sink->n_submodels, t->iter, nv_now() - t->t0,
                             e->P, t->best_p, e->Fmu, t->best_d, gap, info->mu,
                             info->lipschitz, e->nsv, e->nbound, info->step, info->inner};
        if (sink->fn(&pg, sink->user)) {
            t->why = NESVM_EXIT_CANCELLED;
            *st = nv_error(err, NESVM_ERR_CANCELLED, "training cancelled at iteration %lld",
                           (long long)t->iter);
            return 1;
        }
    }
    int stop = 0;
    if (gap <= prm->eps) {
        t->why = NESVM_EXIT_CONVERGED;
        stop = 1;
    } else if (prm->mu > 0 && nv_track_rel(e->Fmu - e->Dmu, e->Fmu) <= prm->eps) {
        t->why = NESVM_EXIT_CONVERGED; /* the fixed-mu smoothed problem is solved */
        stop = 1;
    } else if (prm->eps_abs > 0 && t->stage_iter > 0 && fabs(e->Fmu - t->fmu_prev) < prm->eps_abs) {
        t->why = NESVM_EXIT_CONVERGED;
        stop = 1;
    } else if (t->iter >= prm->max_iter) {
        t->why = NESVM_EXIT_MAX_ITER;
        stop = 1;
    } else if (prm->time_limit > 0 && nv_now() - t->t0 >= prm->time_limit) {
        t->why = NESVM_EXIT_TIME_LIMIT;
        stop = 1;
    }
    t->fmu_prev = e->Fmu;
    t->stage_iter++;
    return stop;
}

void nv_track_result(const nv_track *t, nv_binary_result *res)
{
    res->exit_reason = t->why;
    res->iterations = t->iter;
    res->primal = t->best_p;
    res->lower_bound = t->best_d;
    res->gap = isfinite(t->best_p) ? nv_track_rel(t->best_p - t->best_d, t->best_p) : NAN;
    if (res->gap < 0) res->gap = 0;
    res->n_sv = t->nsv_best;
    memcpy(res->w, t->wbest, (size_t)t->d * sizeof *res->w);
    res->b = t->bbest;
}

double nv_mu_shrink(const nv_chinge_eval *e, double eps, double best_p, double min_factor)
{
    double smooth_part = (e->P - e->D) - (e->Fmu - e->Dmu);
    double f = smooth_part > 0 ? 0.5 * eps * fabs(best_p) / smooth_part : min_factor;
    return f < min_factor ? min_factor : (f > 0.5 ? 0.5 : f);
}
