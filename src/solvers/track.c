/* track.c - best point, certified gap, progress and stopping rules shared by the NESVM inner methods. */
#include "track.h"

#include <math.h>
#include <string.h>

double nv_track_rel(double num, double den)
{
    den = fabs(den);
    return num / (den > 1e-300 ? den : 1e-300);
}

nesvm_progress nv_progress_plain(const nv_progress_sink *sink, int64_t iteration, double t0, double objective,
                                 double step, int64_t n_sv)
{
    nesvm_progress pg;
    memset(&pg, 0, sizeof pg);
    pg.size = sizeof pg;
    pg.submodel = sink->submodel;
    pg.n_submodels = sink->n_submodels;
    pg.iteration = iteration;
    pg.elapsed = nv_now() - t0;
    pg.primal = pg.best_primal = pg.smoothed = objective;
    pg.lower_bound = pg.gap = pg.mu = pg.lipschitz = NAN;
    pg.n_sv = n_sv;
    pg.step = step;
    pg.residual = pg.grad_norm = NAN;
    return pg;
}

nesvm_status nv_certify(double P, double D, double *gap, nesvm_error *err)
{
    double g = nv_track_rel(P - D, P);
    *gap = g < 0 ? 0.0 : g;
    double scale = fmax(fabs(P), fabs(D));
    if (!(D - P > NV_CERT_SLACK * scale)) return NESVM_OK;
    *gap = NAN;
    return nv_error(err, NESVM_ERR_NUMERIC,
                    "the lower bound %.17g exceeds the primal objective %.17g: the certificate broke down in "
                    "floating point (scale the data, or use a smaller -c or -B)",
                    D, P);
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
    t->mu_best_d = NAN;
    t->fmu_prev = NAN;
    t->why = NESVM_EXIT_MAX_ITER;
    t->d_model = d;
}

nesvm_status nv_track_state(nv_track *t, const nv_progress_sink *sink, int64_t nstate, double **state,
                            const double **resume, const char *solver, nesvm_error *err)
{
    *state = NULL;
    *resume = NULL;
    if (!sink || (!sink->ckpt && !sink->resume)) return NESVM_OK;
    *state = nv_malloc_array((size_t)(nstate ? nstate : 1), sizeof(double));
    if (!*state) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    t->extra = *state;
    t->nextra = nstate;
    const nv_snapshot *rs = sink->resume;
    if (!rs || !rs->extra) return NESVM_OK;
    if (rs->nextra != nstate)
        return nv_error(err, NESVM_ERR_ARG, "the checkpoint's %s state does not fit this problem", solver);
    *resume = rs->extra;
    return NESVM_OK;
}

int nv_sink_report(const nv_progress_sink *sink, const nesvm_progress *pg, int report,
                   const nv_snapshot *snap)
{
    int stop = report && sink->fn ? sink->fn(pg, sink->user) != 0 : 0;
    if (sink->ckpt && sink->ckpt(sink->ckpt_ctx, snap, stop)) stop = 1;
    return stop;
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
    t->bbest = nv_params_bias(prm) ? pb->b0 : 0.0;
    t->comm = pb->comm;
    return t->bbest;
}

void nv_track_new_stage(nv_track *t)
{
    t->stage_iter = 0;
    t->stage_flat = 0;
    t->fmu_prev = NAN;
}

int nv_track_iterate(nv_track *t, const nv_obj_eval *e, const double *w, double b,
                     const nv_track_info *info, nesvm_status *st, nesvm_error *err)
{
    const nesvm_params *prm = t->prm;
    if (!isfinite(e->P) || !isfinite(e->Fmu) || !isfinite(e->D)) {
        t->why = NESVM_EXIT_NUMERIC;
        *st = nv_error(err, NESVM_ERR_NUMERIC,
                       "non-finite objective at iteration %lld (check the data scale)",
                       (long long)t->iter + 1);
        return 1;
    }
    if (e->P < t->best_p) {
        t->best_p = e->P;
        memcpy(t->wbest, w, (size_t)t->d * sizeof *w);
        t->bbest = b;
        t->nsv_best = e->nsv;
    }
    if (e->D > t->best_d) {
        t->best_d = e->D;
        t->mu_best_d = info->mu;
    }
    t->iter++;
    double gap;
    *st = nv_certify(t->best_p, t->best_d, &gap, err);
    if (*st != NESVM_OK) {
        t->why = NESVM_EXIT_NUMERIC;
        return 1;
    }
    const nv_progress_sink *sink = t->sink;
    int cancel = 0;
    if (sink && (sink->fn || sink->ckpt)) {
        nesvm_progress pg = {sizeof(nesvm_progress), sink->submodel, sink->n_submodels, t->iter, nv_now() - t->t0,
                             e->P, t->best_p, e->Fmu, t->best_d, gap, info->mu,
                             info->lipschitz, e->nsv, e->nbound, info->step, info->inner,
                             info->n_active, info->n_changed, info->scheme,
                             info->residual, info->grad_norm};
        /* the best point so far, in the result's units (hinge solvers keep the
         * bias as a feature B: b = B w[d]) */
        nv_snapshot snap = {t->wbest, t->d_model, t->B > 0 ? t->B * t->wbest[t->d_model] : t->bbest,
                            t->iter, t->extra, t->nextra};
        cancel = nv_sink_report(sink, &pg, t->iter % prm->progress_every == 0 || t->iter == 1, &snap);
    }
    int timeout = prm->time_limit > 0 && nv_now() - t->t0 >= prm->time_limit;
    if (nv_comm_many(t->comm)) {
        /* one rank's clock or callback decides for all */
        double f[2] = {cancel, timeout};
        nesvm_status cst = nv_comm_max(t->comm, f, 2, err);
        if (cst != NESVM_OK) {
            t->why = NESVM_EXIT_NUMERIC;
            *st = cst;
            return 1;
        }
        cancel = f[0] > 0;
        timeout = f[1] > 0;
    }
    if (cancel) {
        t->why = NESVM_EXIT_CANCELLED;
        *st = nv_error(err, NESVM_ERR_CANCELLED, "training cancelled at iteration %lld",
                       (long long)t->iter);
        return 1;
    }
    /* the paper's rule (Algorithm 1) ends one NESVM run.  In a homotopy to a
     * last mu_star (Algorithm 2, or the adaptive schedule with mu_star) that
     * is one stage: the training ends in the final stage, and before it the
     * schedule moves on (nv_sched_stage_done) until mu = mu_star.  Without
     * mu_star no stage is known to be the last: the rule ends the training. */
    int flat = prm->eps_abs > 0 && t->stage_iter > 0 && fabs(e->Fmu - t->fmu_prev) < prm->eps_abs;
    int flat_stop = flat && (info->final_stage || !(prm->mu_star > 0));
    t->stage_flat = flat && !flat_stop;
    int stop = 0;
    if (gap <= prm->eps) {
        t->why = NESVM_EXIT_CONVERGED;
        stop = 1;
    } else if (info->final_stage && nv_track_rel(e->Fmu - e->Dmu, e->Fmu) <= prm->eps) {
        t->why = NESVM_EXIT_CONVERGED; /* the fixed-mu smoothed problem is solved */
        stop = 1;
    } else if (flat_stop) {
        t->why = NESVM_EXIT_EPS_ABS; /* the paper's rule: no certificate (gap > eps here) */
        stop = 1;
    } else if (t->iter >= prm->max_iter) {
        t->why = NESVM_EXIT_MAX_ITER;
        stop = 1;
    } else if (timeout) {
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
    res->gap = NAN;
    if (isfinite(t->best_p)) nv_certify(t->best_p, t->best_d, &res->gap, NULL);
    res->n_sv = t->nsv_best;
    res->mu = t->mu_best_d;
    memcpy(res->w, t->wbest, (size_t)t->d * sizeof *res->w);
    res->b = t->bbest;
}

void nv_sched_init(nv_sched *s, const nesvm_params *prm, int smoothed, int l1, double mu_default,
                   double nu_default, double min_factor)
{
    memset(s, 0, sizeof *s);
    s->mu0 = prm->mu0 > 0 ? prm->mu0 : mu_default;
    s->nu0 = prm->nu0 > 0 ? prm->nu0 : nu_default;
    s->mu_star = prm->mu_star;
    s->stage_eps = prm->stage_eps;
    s->min_factor = min_factor;
    s->mode = prm->continuation == NV_CONT_PAPER ? NV_SCHED_PAPER : NV_SCHED_ADAPTIVE;
    if (!smoothed && !l1) {
        s->mode = NV_SCHED_FIXED; /* nothing is smoothed */
        s->mu0 = s->nu0 = 0;
    } else if (prm->mu > 0 && (!l1 || prm->nu > 0)) {
        s->mode = NV_SCHED_FIXED;
        s->mu0 = prm->mu;
        s->nu0 = prm->nu;
    } else if (prm->mu > 0 || prm->nu > 0) {
        /* LP-SVM with one of mu, nu fixed: start from it, the other follows */
        if (prm->mu > 0) s->mu0 = prm->mu;
        if (prm->nu > 0) s->nu0 = prm->nu;
    }
    s->mu = s->mu0;
    s->nu = s->nu0;
    s->final = s->mode == NV_SCHED_FIXED;
    if (!s->final && s->mu_star > 0 && s->mu <= s->mu_star) {
        s->nu *= s->mu_star / s->mu;
        s->mu = s->mu_star;
        s->final = 1;
    }
    /* what is smoothed has a positive width: the steps divide by mu and nu
     * (L = 1/nu + lambda/mu, s->nu *= mu / s->mu) */
    NV_ASSERT((!smoothed || s->mu > 0) && (!l1 || s->nu > 0));
}

int nv_sched_stage_done(const nv_sched *s, const nv_track *t, const nv_obj_eval *e)
{
    if (s->final) return 0;
    if (t->stage_flat) return 1;
    if (s->stage_eps > 0) return nv_track_rel(e->Fmu - e->Dmu, e->Fmu) <= s->stage_eps;
    return (e->Fmu - e->Dmu) <= 0.25 * (e->P - e->D);
}

void nv_sched_next(nv_sched *s, const nv_obj_eval *e, double eps, double best_p)
{
    if (s->final) return;
    double mu;
    if (s->mode == NV_SCHED_PAPER) {
        s->t++;
        mu = s->mu0 / (double)(s->t + 1);
    } else {
        /* what remains of the gap once the smoothed problem is solved is
         * smoothing error, proportional to mu: aim it at eps/2 */
        double smooth_part = (e->P - e->D) - (e->Fmu - e->Dmu);
        double f = smooth_part > 0 ? 0.5 * eps * fabs(best_p) / smooth_part : s->min_factor;
        f = f < s->min_factor ? s->min_factor : (f > 0.5 ? 0.5 : f);
        mu = s->mu * f;
    }
    if (s->mu_star > 0 && mu <= s->mu_star) {
        mu = s->mu_star;
        s->final = 1;
    }
    if (!(mu > 1e-12)) { /* below this the smoothing is lost in rounding */
        mu = 1e-12;
        s->final = 1;
    }
    s->nu *= mu / s->mu;
    s->mu = mu;
}

void nv_sched_warm(nv_sched *s, nv_obj *o, const double *w, double b)
{
    nv_obj_margins(o, w, b);
    s->warm_tries = 0;
    if (s->final) return;
    double best_d = -INFINITY, best_mu = s->mu, mu = s->mu;
    for (int k = 0; k < NV_SCHED_WARM_TRIES; k++, mu *= 0.25) {
        if (s->mu_star > 0 && mu < s->mu_star) break;
        nv_obj_eval e;
        nv_obj_evaluate_at(o, w, mu, s->nu * mu / s->mu, &e);
        s->warm_cost[k] = e.P - e.Fmu;
        s->warm_tries = k + 1;
        if (e.D > best_d) {
            best_d = e.D;
            best_mu = mu;
        }
    }
    s->warm_mu0 = s->mu;
    s->nu *= best_mu / s->mu;
    s->mu = best_mu;
    if (s->mode == NV_SCHED_PAPER) s->t = (int64_t)floor(s->mu0 / best_mu + 0.5) - 1;
}

int nv_sched_warm_far(nv_sched *s, double p, double d)
{
    int tries = s->warm_tries;
    s->warm_tries = 0;
    if (tries == 0 || s->final || !(p - d > NV_SCHED_FAR_GAP * fabs(p))) return 0;
    /* the last try k of the first run whose smoothing costs at least a
     * quarter of the gap (k = 0 if none) */
    double quarter = 0.25 * (p - d);
    int k = 0;
    while (k + 1 < tries && s->warm_cost[k + 1] >= quarter) k++;
    double mu = s->warm_mu0 * pow(0.25, k);
    if (!(mu > s->mu)) return 0;
    s->nu *= mu / s->mu;
    s->mu = mu;
    if (s->mode == NV_SCHED_PAPER) s->t = (int64_t)floor(s->mu0 / mu + 0.5) - 1;
    return 1;
}

/* The best point with its weights below `cut` in magnitude set to 0, kept
 * when that lowers P or keeps the certified gap within eps (one X*w);
 * returns whether it was kept.  No weight below cut: nothing, 0. */
static int sparsify_at(nv_track *t, nv_obj *o, double nu, double cut, double *tmp)
{
    int changed = 0;
    for (int32_t j = 0; j < t->d; j++) {
        tmp[j] = fabs(t->wbest[j]) < cut ? 0.0 : t->wbest[j];
        changed |= tmp[j] != t->wbest[j];
    }
    if (!changed) return 0;
    nv_obj_eval e;
    nv_obj_evaluate(o, tmp, t->bbest, nu, nu, &e);
    if (!(e.P <= t->best_p || nv_track_rel(e.P - t->best_d, e.P) <= t->prm->eps)) return 0;
    t->best_p = e.P;
    memcpy(t->wbest, tmp, (size_t)t->d * sizeof *tmp);
    t->nsv_best = e.nsv;
    return 1;
}

void nv_track_sparsify(nv_track *t, nv_obj *o, double nu, double *tmp)
{
    if (!nv_obj_l1(o) || !isfinite(t->best_p)) return;
    /* first the weights below 1e-6 of the largest (the continuation's last
     * nu may sit below a weight whose optimum is 0: wine's -s 6 left 9.5e-7
     * where liblinear-train has 0), then Huber's zone alone; each kept only
     * where the certificate allows */
    double wmax = 0;
    for (int32_t j = 0; j < t->d; j++) wmax = fmax(wmax, fabs(t->wbest[j]));
    const double cut = 1e-6 * wmax;
    if (cut > nu && sparsify_at(t, o, nu, cut, tmp)) return;
    sparsify_at(t, o, nu, nu, tmp);
}
