/* test_multi.c - the joint multiclass problems' objective (src/solvers/nesvm/
 * multi.h): the values against a direct evaluation written here from the
 * problems' definitions, the gradient against central differences of F_mu,
 * Hessian-vector products against differences of the gradient, the
 * Hessian's diagonal against products with unit vectors, the line search's
 * phi and its derivatives against F_mu and differences, the smoothing's
 * bounds, weak duality of the balanced dual point across points, and the
 * solver's certified optimum (Crammer and Singer, the softmax, each bias),
 * on dense and CSR storage. */
#include "../../src/solvers/nesvm/multi.h"
#include "../../src/solvers/nesvm/nesvm_solver.h"
#include "check.h"

#include <stdlib.h>

#define NS 70
#define DIM 4
#define K 4

static double X[NS * DIM], Y[NS], COST[NS];
static int CLS[NS];
static int64_t IP[NS + 1];
static int32_t IX[NS * DIM];
static double VX[NS * DIM];

/* Four overlapping classes (centres on the axes), every class present;
 * costs from 0.5 to 1.5; entries of |x| < 0.3 dropped when sparse. */
static nesvm_dataset *setup(int csr, uint64_t seed)
{
    uint64_t s = seed;
    int64_t nz = 0;
    for (int i = 0; i < NS; i++) {
        CLS[i] = i % K;
        Y[i] = CLS[i] + 1;
        COST[i] = 0.5 + nv_rng_uniform(&s);
        IP[i] = nz;
        for (int j = 0; j < DIM; j++) {
            double v = (nv_rng_uniform(&s) - 0.5) * 2 + (j == CLS[i] ? 0.8 : 0.0);
            if (csr && fabs(v) < 0.3) v = 0;
            X[i * DIM + j] = v;
            if (v != 0) {
                IX[nz] = j;
                VX[nz++] = v;
            }
        }
    }
    IP[NS] = nz;
    nesvm_dataset *ds = NULL;
    if (csr)
        CHECK(nesvm_dataset_wrap_csr(NS, DIM, IP, IX, VX, Y, &ds, NULL) == NESVM_OK);
    else
        CHECK(nesvm_dataset_wrap_dense(NS, DIM, X, Y, &ds, NULL) == NESVM_OK);
    return ds;
}

/* P and F_mu written from the definitions (multi.h), with no code of
 * multi_obj.c: f_im = w_m.x_i + b_m, z_im = a e_im + f_im - f_iy. */
static void direct(const nv_multi_problem *mp, const double *theta, double mu, double *P, double *F)
{
    const int cs = mp->kind == NV_MULTI_CS;
    double r = 0;
    for (int j = 0; j < K * DIM; j++) r += 0.5 * theta[j] * theta[j];
    if (mp->bias == NV_MULTI_BIAS_REG)
        for (int m = 0; m < K; m++) r += 0.5 * theta[K * DIM + m] * theta[K * DIM + m] / (mp->B * mp->B);
    double lp = 0, lf = 0;
    for (int i = 0; i < NS; i++) {
        double f[K], z[K], zmax = -INFINITY;
        for (int m = 0; m < K; m++) {
            f[m] = mp->bias ? theta[K * DIM + m] : 0.0;
            for (int j = 0; j < DIM; j++) f[m] += theta[m * DIM + j] * X[i * DIM + j];
        }
        for (int m = 0; m < K; m++) {
            z[m] = (cs && m != CLS[i] ? 1.0 : 0.0) + f[m] - f[CLS[i]];
            if (z[m] > zmax) zmax = z[m];
        }
        double se = 0, se1 = 0;
        for (int m = 0; m < K; m++) {
            se += exp((z[m] - zmax) / mu);
            se1 += exp(z[m] - zmax);
        }
        lp += COST[i] * (cs ? zmax : zmax + log(se1));
        lf += COST[i] * (zmax + mu * log(se));
    }
    *P = r + lp;
    *F = r + lf;
}

static void eval_at(nv_mobj *o, const double *theta, double mu, nv_obj_eval *e)
{
    nv_mobj_margins(o, theta);
    nv_mobj_evaluate(o, theta, mu, e);
}

static void random_theta(double *theta, int bias, uint64_t *s, double scale)
{
    for (int j = 0; j < K * (DIM + 1); j++) theta[j] = (nv_rng_uniform(s) - 0.5) * scale;
    if (!bias)
        for (int m = 0; m < K; m++) theta[K * DIM + m] = 0;
}

static void check_problem(const nesvm_dataset *ds, int kind, int bias, double mu, const char *what)
{
    enum { L = K * (DIM + 1) };
    nv_multi_problem mp = {ds, NULL, NS, K, CLS, COST, kind, bias, 2.0, NULL, NULL, NULL};
    nv_mobj o;
    CHECK(nv_mobj_init(&o, &mp, 1, NULL) == NESVM_OK);
    CHECK(nv_mobj_size(&o) == L);
    uint64_t s = 42;
    double theta[L], g[L], gp[L], gm[L], tp[L], tm[L], dir[L], hv[L], diag[L], unit[L], u[NS * K], U[NS * K];
    const double h = 1e-6, lmu = kind == NV_MULTI_CS ? mu : 1.0;
    double worst_d = -INFINITY, best_p = INFINITY;
    for (int trial = 0; trial < 3; trial++) {
        random_theta(theta, bias, &s, 1.5);
        nv_obj_eval e, ep, em;
        eval_at(&o, theta, lmu, &e);
        /* the values against the definitions; the smoothing's bounds */
        double P, F;
        direct(&mp, theta, lmu, &P, &F);
        CHECK_REL(e.P, P, 1e-12);
        CHECK_REL(e.Fmu, F, 1e-12);
        if (kind == NV_MULTI_CS)
            CHECK_MSG(e.P <= e.Fmu * (1 + 1e-14) && e.Fmu <= e.P + mu * log(K) * o.csum * (1 + 1e-12),
                      "%s: P %g F %g", what, e.P, e.Fmu);
        else
            CHECK_REL(e.P, e.Fmu, 1e-14);
        /* weak duality, and the smoothed problem's */
        CHECK_MSG(e.D <= e.P && e.Dmu <= e.Fmu && isfinite(e.D), "%s: D %g P %g Dmu %g F %g", what, e.D, e.P,
                  e.Dmu, e.Fmu);
        if (e.D > worst_d) worst_d = e.D;
        if (e.P < best_p) best_p = e.P;
        /* the gradient against central differences of F_mu */
        nv_mobj_grad(&o, theta, g);
        for (int j = 0; j < L; j++) {
            if (!bias && j >= K * DIM) {
                CHECK(g[j] == 0);
                continue;
            }
            memcpy(tp, theta, sizeof tp);
            memcpy(tm, theta, sizeof tm);
            tp[j] += h;
            tm[j] -= h;
            eval_at(&o, tp, lmu, &ep);
            eval_at(&o, tm, lmu, &em);
            const double fd = (ep.Fmu - em.Fmu) / (2 * h);
            CHECK_MSG(fabs(fd - g[j]) <= 1e-6 * (1 + fabs(g[j])), "%s: dF/dtheta_%d %.10g vs %.10g", what, j,
                      g[j], fd);
        }
        /* H dir against differences of the gradient along dir */
        random_theta(dir, bias, &s, 1.0);
        eval_at(&o, theta, lmu, &e);
        nv_mobj_hess_vec(&o, lmu, dir, hv, u);
        nv_mobj_hess_diag(&o, lmu, diag);
        for (int j = 0; j < L; j++) {
            tp[j] = theta[j] + h * dir[j];
            tm[j] = theta[j] - h * dir[j];
        }
        eval_at(&o, tp, lmu, &ep);
        nv_mobj_grad(&o, tp, gp);
        eval_at(&o, tm, lmu, &em);
        nv_mobj_grad(&o, tm, gm);
        for (int j = 0; j < L; j++) {
            const double fd = (gp[j] - gm[j]) / (2 * h);
            CHECK_MSG(fabs(fd - hv[j]) <= 1e-5 * (1 + fabs(hv[j])), "%s: (H d)_%d %.10g vs %.10g", what, j,
                      hv[j], fd);
        }
        /* the diagonal: e_j' H e_j (the bias entries where a bias is) */
        eval_at(&o, theta, lmu, &e);
        for (int j = 0; j < L; j += 3) {
            if (!bias && j >= K * DIM) continue;
            memset(unit, 0, sizeof unit);
            unit[j] = 1;
            nv_mobj_hess_vec(&o, lmu, unit, hv, u);
            const double want = hv[j] + (bias == NV_MULTI_BIAS_NONE && j >= K * DIM ? 1.0 : 0.0);
            CHECK_MSG(fabs(diag[j] - want) <= 1e-12 * (1 + fabs(want)) ||
                          (bias == NV_MULTI_BIAS_FREE && want == 0),
                      "%s: diag_%d %.12g vs %.12g", what, j, diag[j], want);
        }
        /* the line search's phi(t) = F_mu(theta + t dir), phi', phi'' */
        nv_mobj_dir_margins(&o, dir, U);
        const double ts[] = {0.0, 0.3, 1.7};
        for (int q = 0; q < 3; q++) {
            double phi, d1, d2, pa, pb, a1, b1, x2;
            nv_mobj_line(&o, theta, dir, U, lmu, ts[q], &phi, &d1, &d2);
            for (int j = 0; j < L; j++) tp[j] = theta[j] + ts[q] * dir[j];
            double Pd, Fd;
            direct(&mp, tp, lmu, &Pd, &Fd);
            CHECK_REL(phi, Fd, 1e-12);
            nv_mobj_line(&o, theta, dir, U, lmu, ts[q] + h, &pa, &a1, &x2);
            nv_mobj_line(&o, theta, dir, U, lmu, ts[q] - h, &pb, &b1, &x2);
            CHECK_MSG(fabs((pa - pb) / (2 * h) - d1) <= 1e-6 * (1 + fabs(d1)), "%s: phi' %g vs %g", what, d1,
                      (pa - pb) / (2 * h));
            CHECK_MSG(fabs((a1 - b1) / (2 * h) - d2) <= 1e-5 * (1 + fabs(d2)), "%s: phi'' %g vs %g", what, d2,
                      (a1 - b1) / (2 * h));
        }
        /* the exact line search: phi'(t*) ~ 0 along the descent direction -g */
        eval_at(&o, theta, lmu, &e);
        nv_mobj_grad(&o, theta, g);
        for (int j = 0; j < L; j++) dir[j] = -g[j];
        if (bias == NV_MULTI_BIAS_FREE) { /* the solver's centred direction */
            double c = 0;
            for (int m = 0; m < K; m++) c += dir[K * DIM + m] / K;
            for (int m = 0; m < K; m++) dir[K * DIM + m] -= c;
        }
        nv_mobj_dir_margins(&o, dir, U);
        const double t = nv_mobj_line_search(&o, theta, dir, U, lmu);
        double phi0, g0, phi, d1, d2;
        nv_mobj_line(&o, theta, dir, U, lmu, 0.0, &phi0, &g0, &d2);
        nv_mobj_line(&o, theta, dir, U, lmu, t, &phi, &d1, &d2);
        CHECK_MSG(t > 0 && phi < phi0 && fabs(d1) <= 1e-9 * fabs(g0), "%s: line search t %g phi' %g of %g",
                  what, t, d1, g0);
    }
    /* the solver: certified, and its P no worse than any point tried, its
     * bound no better than any point's P (weak duality across points) */
    /* Crammer and Singer: the dual method (auto's) and the smoothed max */
    for (int meth = 0; meth < (kind == NV_MULTI_CS ? 2 : 1); meth++) {
        nesvm_params *prm = NULL;
        CHECK(nesvm_params_create(&prm, NULL) == NESVM_OK);
        CHECK(nesvm_params_set(prm, "eps", "1e-9", NULL) == NESVM_OK);
        CHECK(nesvm_params_set(prm, "method", meth ? "newton" : "auto", NULL) == NESVM_OK);
        double w[K * DIM], b[K];
        nv_multi_result res = {w, b, 0, 0, 0, NAN, NAN, NAN, 0, NAN};
        nv_progress_sink sink = {NULL, NULL, 0, 1, NULL, NULL, NULL};
        nesvm_error err = {0};
        CHECK(nv_nesvm_multi_train(&mp, prm, &sink, &res, &err) == NESVM_OK);
        CHECK_MSG(res.exit_reason == NESVM_EXIT_CONVERGED && res.gap <= 1e-9, "%s (%s): exit %d gap %g", what,
                  meth ? "newton" : "auto", (int)res.exit_reason, res.gap);
        CHECK_MSG(res.lower_bound <= best_p && worst_d <= res.primal * (1 + 1e-12) && res.primal <= best_p,
                  "%s: P* %g D* %g, points' P %g D %g", what, res.primal, res.lower_bound, best_p, worst_d);
        /* the solution's P recomputed from its weights */
        double sol[L], Ps, Fs;
        memcpy(sol, w, sizeof w);
        memcpy(sol + K * DIM, b, sizeof b);
        direct(&mp, sol, 1.0, &Ps, &Fs);
        CHECK_REL(Ps, res.primal, 1e-12);
        if (bias == NV_MULTI_BIAS_FREE) { /* the softmax's centred biases */
            double c = 0;
            for (int m = 0; m < K; m++) c += b[m];
            CHECK_MSG(fabs(c) <= 1e-12 * (1 + fabs(b[0])), "%s: sum b %g", what, c);
        }
        if (bias == NV_MULTI_BIAS_NONE)
            for (int m = 0; m < K; m++) CHECK(b[m] == 0);
        nesvm_params_destroy(prm);
    }
    nv_mobj_free(&o);
}

int main(void)
{
    for (int csr = 0; csr < 2; csr++) {
        nesvm_dataset *ds = setup(csr, 7 + (uint64_t)csr);
        char what[64];
        const double mus[] = {0.5, 0.02};
        for (int q = 0; q < 2; q++) {
            snprintf(what, sizeof what, "cs %s mu %g", csr ? "csr" : "dense", mus[q]);
            check_problem(ds, NV_MULTI_CS, NV_MULTI_BIAS_NONE, mus[q], what);
            snprintf(what, sizeof what, "cs B %s mu %g", csr ? "csr" : "dense", mus[q]);
            check_problem(ds, NV_MULTI_CS, NV_MULTI_BIAS_REG, mus[q], what);
        }
        snprintf(what, sizeof what, "softmax %s", csr ? "csr" : "dense");
        check_problem(ds, NV_MULTI_SOFTMAX, NV_MULTI_BIAS_FREE, 1.0, what);
        snprintf(what, sizeof what, "softmax no bias %s", csr ? "csr" : "dense");
        check_problem(ds, NV_MULTI_SOFTMAX, NV_MULTI_BIAS_NONE, 1.0, what);
        nesvm_dataset_destroy(ds);
    }
    CHECK_DONE();
}
