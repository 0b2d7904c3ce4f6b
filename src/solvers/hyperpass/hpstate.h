/*
 * hpstate.h - the Hyperpass solver's state, shared by the iteration
 * (hyperpass.c) and its lower bound (hplower.c); not installed.
 */
#ifndef NESVM_HPSTATE_H
#define NESVM_HPSTATE_H

#include "hpline.h"
#include "hpdist.h"
#include "hpqp.h"

/* A sample's class at w: S = on the loss side (m < 1, off the margin),
 * L = on the margin, I = inactive (m > 1). */
enum { CLS_S = 0, CLS_L = 1, CLS_I = 2 };

static inline int cls_of(double m)
{
    return nv_hp_on_margin(m) ? CLS_L : m < 1.0 ? CLS_S : CLS_I;
}

typedef struct hp {
    nv_hinge h;
    int64_t n, D;
    double *w, *wt, *wn, *u1, *s3, *sS, *sF, *dir, *tmp, *cen; /* D entries */
    double *m, *mt, *dl, *dist, *sqn, *heta;                   /* n entries */
    signed char *cls, *cst;                                    /* n entries */
    int64_t *order, *hidx, *lbuf;                              /* n entries */
    int64_t na;          /* working set: order[0..na) */
    double R;            /* ball radius (INFINITY: no ball) */
    double cS, cF;
    int moved;           /* w moved since the ball was centred (outside rows' m stale) */
    int shrink;
    int64_t la[NV_HP_MAX_LA];
    int K;
    double *Q, *r, *cc, *beta;
    /* distributed (h.comm set): chosen marks this rank's samples of L_A (n),
     * red holds one reduction's 2 D + 2 values; a failed collective's status
     * and message */
    unsigned char *chosen;
    double *red;
    nesvm_status comm_st;
    nesvm_error comm_err;
} hp;

/* The loss over the working set at margins mm plus the ball's linear part
 * at p (hplower.c). */
double nv_hp_loss_at(const hp *s, const double *mm, const double *p);

/* Steps 1-2: the lower bound's QP from the previous bound v; leaves w~_t in
 * s->wn and its value v_t in *vout (hplower.c).  _dist: over every rank's
 * samples (no ball): L_A chosen over the ranks and its rows sent to every
 * rank, so that the QP is the same on every rank. */
nesvm_status nv_hp_lower_bound(hp *s, double v, double *vout, int *qp_iters, nesvm_error *err);
nesvm_status nv_hp_lower_bound_dist(hp *s, double v, double *vout, int *qp_iters, nesvm_error *err);

#endif
