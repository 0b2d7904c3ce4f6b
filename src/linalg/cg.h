/*
 * cg.h - the one conjugate-gradient routine of the library (not installed):
 * (preconditioned) CG on A x = b from x = 0, for one right-hand side or for
 * two that share their operator products (the NESVM expansion's zone system).
 * Its callers: the linear truncated Newton (solvers/nesvm/newton.c), the
 * expansion's zone system and LP-SVM's Newton system (expansion.c,
 * expansion_lp.c), SSVM/NSSVM's CG scheme (solvers/newton/ssvm.c).
 *
 * The arithmetic is fixed (tests/golden/ holds the models it gives): sums
 * run sequentially over the entries, a column is stopped on breakdown
 * (p.Ap <= 0 or NaN) or when its residual meets the rule.
 */
#ifndef NESVM_CG_H
#define NESVM_CG_H

#include "../core/internal.h"

enum {
    NV_CG_NORM = 0,   /* stop when sqrt(r.r) <= tol sqrt(r0.r0) */
    NV_CG_SQUARED = 1 /* stop when r.r <= tol (r0.r0): tol is a squared tolerance */
};

typedef struct nv_cg_ops {
    void *ctx;
    int64_t n;   /* entries of one column */
    int ncol;    /* 1 or 2 columns; entry k of column c at k * ncol + c */
    /* ap = A p for every column at once */
    nesvm_status (*apply)(void *ctx, const double *p, double *ap);
    /* a.b of a single column (ncol 1); NULL: the plain sum over the column */
    double (*dot)(void *ctx, const double *a, const double *b);
    /* z = M^-1 r on column c; NULL: no preconditioner (z must be r) */
    void (*precond)(void *ctx, const double *r, double *z, int c);
    int64_t maxit; /* iterations (operator products) at most */
    double tol;
    int rule;      /* NV_CG_NORM or NV_CG_SQUARED */
} nv_cg_ops;

typedef struct nv_cg_result {
    int64_t applies;      /* operator products */
    int64_t completed[2]; /* iterations of each column that updated x fully */
    int breakdown[2];     /* the column stopped on p.Ap <= 0 */
} nv_cg_result;

/* Solve from x = 0: r holds b on entry (the residual on return); z, p, ap
 * are n * ncol work entries (z may be r itself when precond is NULL). */
nesvm_status nv_cg(const nv_cg_ops *ops, double *x, double *r, double *z, double *p, double *ap,
                   nv_cg_result *res);

#endif
