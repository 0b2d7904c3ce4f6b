/* cg.c - the one conjugate-gradient routine (cg.h). */
#include "cg.h"

#include <math.h>
#include <string.h>

static double col_dot(const nv_cg_ops *o, const double *a, const double *b, int c)
{
    if (o->dot) return o->dot(o->ctx, a, b);
    double s = 0;
    for (int64_t k = 0; k < o->n; k++) {
        size_t j = (size_t)k * (size_t)o->ncol + (size_t)c;
        s += a[j] * b[j];
    }
    return s;
}

nesvm_status nv_cg(const nv_cg_ops *o, double *x, double *r, double *z, double *p, double *ap,
                   nv_cg_result *res)
{
    const int nc = o->ncol;
    const size_t stride = (size_t)nc;
    double rz[2] = {0, 0}, r0[2] = {0, 0};
    int live[2] = {0, 0};
    NV_ASSERT(nc == 1 || nc == 2); /* rz, r0, live: two columns at most */
    memset(res, 0, sizeof *res);
    for (int c = 0; c < nc; c++) {
        for (int64_t k = 0; k < o->n; k++) x[(size_t)k * stride + (size_t)c] = 0;
        if (o->precond) o->precond(o->ctx, r, z, c);
        for (int64_t k = 0; k < o->n; k++) {
            size_t j = (size_t)k * stride + (size_t)c;
            p[j] = z[j];
        }
        rz[c] = col_dot(o, r, z, c);
        r0[c] = col_dot(o, r, r, c);
        live[c] = r0[c] > 0;
    }
    for (int64_t it = 0; it < o->maxit && (live[0] || live[1]); it++) {
        nesvm_status st = o->apply(o->ctx, p, ap);
        res->applies++;
        if (st != NESVM_OK) return st;
        for (int c = 0; c < nc; c++) {
            if (!live[c]) continue;
            double pap = col_dot(o, p, ap, c);
            if (!(pap > 0)) {
                live[c] = 0;
                res->breakdown[c] = 1;
                continue;
            }
            double al = rz[c] / pap;
            for (int64_t k = 0; k < o->n; k++) {
                size_t j = (size_t)k * stride + (size_t)c;
                x[j] += al * p[j];
                r[j] -= al * ap[j];
            }
            double rr = col_dot(o, r, r, c);
            res->completed[c]++;
            if (o->rule == NV_CG_NORM ? sqrt(rr) <= o->tol * sqrt(r0[c]) : rr <= o->tol * r0[c]) {
                live[c] = 0;
                continue;
            }
            if (o->precond) o->precond(o->ctx, r, z, c);
            double rz2 = col_dot(o, r, z, c);
            double be = rz2 / rz[c];
            rz[c] = rz2;
            for (int64_t k = 0; k < o->n; k++) {
                size_t j = (size_t)k * stride + (size_t)c;
                p[j] = z[j] + be * p[j];
            }
        }
    }
    return NESVM_OK;
}
