/*
 * train_run.h - the training driver's run context (not installed): the
 * inputs of one training, what each of train.c's five stages produces, and
 * the failure state of a distributed training; with the parts of the stages
 * that live in train_sub.c (a sub-problem's training) and train_finish.c
 * (the model's compaction and finiteness).
 */
#ifndef NESVM_TRAIN_RUN_H
#define NESVM_TRAIN_RUN_H

#include "train_targets.h"
#include "train_ckpt.h"

typedef struct nv_run {
    /* inputs: train_rows' arguments */
    const nesvm_dataset *ds;
    /* the training rows (NULL: all); after admit, those of positive sample weight */
    const int64_t *rows;
    int64_t n;                  /* rows on this rank (after admit: of positive weight) */
    const nesvm_params *params; /* never NULL: the defaults when the caller gave none */
    const nesvm_model *init;    /* warm start (NULL: none) */
    const nesvm_checkpoint_options *ckopt;
    nv_path *path;       /* warm starts along a path of C (NULL: none) */
    const nv_comm *comm; /* several ranks, else NULL */
    nesvm_progress_fn progress;
    void *user;
    nesvm_stats *stats; /* NULL: none */
    nesvm_error *err;
    double t0;               /* when the training started */
    nesvm_params *defaults;  /* owned: params when the caller gave NULL */
    const nv_solver *solver; /* params' solver (admit refuses NULL) */
    int kernel;              /* a kernel other than linear */
    /* admit */
    int64_t *wrows; /* owned: the rows of positive sample weight */
    int64_t n_all;  /* the rows over every rank */
    /* targets */
    nv_targets tg;
    /* plan */
    nv_kplan kp;      /* chosen and checked by admit, built by plan */
    nesvm_model *m;   /* the model: a shell, filled by the sub-problems */
    double *w0;       /* warm start from init: a sub-model's weights */
    double *cw;       /* the costs: each class's, or the one of the other tasks */
    nv_subproblem sp; /* the sub-problems' buffers (n rows) */
    nv_ckctx ck;      /* checkpoints (ck.opt NULL: none) */
    /* failure state: a failure came out of an agreement over the ranks, so
     * every rank knows it (train.c, train_rows) */
    int shared;
} nv_run;

/* Does the warm-start model have this training's task, classes and scheme? */
int nv_init_fits(const nesvm_model *init, const nv_targets *t);
/* Sub-problem s (r->sp built, its classes sp.i and sp.j) into sub-model s:
 * its warm start (init, path, or a checkpoint's point), its share of the time
 * limit, its training through the kernel plan, its statistics into r->stats
 * and its solution into r->path.  A sub-problem finished before a resumed
 * checkpoint's interruption is taken from the checkpoint; one that finds no
 * time left keeps a zero model (exit time-limit).  Failures: the solver's,
 * a resume point of the wrong size, a checkpoint that could not be written,
 * memory. */
nesvm_status nv_sub_train(nv_run *r, int s);

/* Sub-model s's solution (w: ncoef entries, b) into the path of nsub
 * sub-models (allocated or resized as needed). */
nesvm_status nv_path_keep(nv_path *p, int nsub, int s, const double *w, int64_t ncoef, double b,
                          nesvm_error *err);

/* The sub-problems stage of a joint multiclass problem (multiclass cs,
 * multinomial; train_joint.c): every row with its class and cost in one
 * problem for the solver's train_multi, its k weight vectors and biases into
 * sub-models (i, -1) as one-vs-rest's, each with the joint problem's exit,
 * iterations, primal and gap; a warm start from init's or the path's
 * sub-models, the time limit, the statistics and the path.  Failures: the
 * solver's, a cost out of range (nv_sub_build), memory. */
nesvm_status nv_joint_train(nv_run *r);

/* A full-kernel model trained on its expansion (one coefficient per training
 * row, stride n in m->wbuf): keep the rows where some sub-model has a
 * non-zero coefficient (at least one) and copy them as the basis; comm:
 * over every rank's rows, gathered in rank order. */
nesvm_status nv_compact_expansion(nesvm_model *m, const nesvm_dataset *ds, const int64_t *rows, int64_t n,
                                  const nv_comm *comm, nesvm_error *err);
/* No model with a non-finite number leaves training: name the sub-model and
 * the options that differ from their defaults (the likely cause). */
nesvm_status nv_check_finite(const nesvm_model *m, const nesvm_params *p, nesvm_error *err);

#endif
