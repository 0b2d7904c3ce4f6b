/*
 * train_ckpt.h - the training driver's checkpoints (not installed): what
 * nesvm_train_resumable saves and restores around each binary sub-problem
 * (the file format is checkpoint.c's).
 */
#ifndef NESVM_TRAIN_CKPT_H
#define NESVM_TRAIN_CKPT_H

#include "model_internal.h"
#include "checkpoint.h"

typedef struct nv_ckctx {
    const nesvm_checkpoint_options *opt;
    nv_ckpt_head head;
    double *lower;        /* per sub-model: lower bound and support vectors */
    int64_t *nsv;
    const nesvm_model *m;
    int done;             /* sub-models finished */
    int64_t iter_offset;  /* iterations of the current sub-model before a resume */
    double last;          /* time of the last write */
    nesvm_status st;      /* a failed write, with its message */
    char msg[NESVM_ERROR_MESSAGE_SIZE];
    int resumed;
    nv_ckpt_file file;
} nv_ckctx;

/* The progress sink's checkpoint hook: write at intervals and when stopping. */
int nv_ckctx_hook(void *ctx, const nv_snapshot *snap, int stopping);
/* Set up for a training of m on these rows: check that the save path can be
 * written, read and check the resume file. */
nesvm_status nv_ckctx_begin(nv_ckctx *c, const nesvm_checkpoint_options *opt, const nesvm_dataset *ds,
                               const int64_t *rows, int64_t n, const nesvm_model *m, const nv_solver *solver,
                               nesvm_error *err);
/* Sub-model s as the checkpoint holds it (finished before the interruption). */
void nv_ckctx_restore(nv_ckctx *c, int s, nv_submodel *sm, nv_binary_result *res);
/* Sub-model s finished (call after its model is complete): record it. */
void nv_ckctx_finished(nv_ckctx *c, int s, const nv_binary_result *res);
void nv_ckctx_end(nv_ckctx *c);

#endif
