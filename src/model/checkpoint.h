/* checkpoint.h - training checkpoints: file I/O and fingerprints (not installed). */
#ifndef NESVM_CHECKPOINT_H
#define NESVM_CHECKPOINT_H

#include "model_internal.h"

/* What identifies a training: its data, parameters, solver and sizes. */
typedef struct nv_ckpt_head {
    int64_t rows;
    int32_t features;
    uint64_t data_hash, params_hash;
    const char *solver;
    int nsub;
    int64_t ncoef;         /* coefficients per finished sub-model */
    const double *lower;   /* writing: lower bound per finished sub-model */
    const int64_t *nsv;    /* writing: support vectors per finished sub-model */
} nv_ckpt_head;

typedef struct nv_ckpt_sub {
    double b, primal, gap, lower;
    int exit_reason;
    int64_t iterations, nsv;
} nv_ckpt_sub;

typedef struct nv_ckpt_file {
    nv_ckpt_head head;
    char solver[32];
    int done;              /* finished sub-models */
    nv_ckpt_sub *sub;      /* done entries */
    double *w;             /* done * ncoef coefficients */
    int cur;               /* the interrupted sub-model (== done), or -1 */
    nv_snapshot snap;      /* its state (points into cur_w, cur_extra) */
    double *cur_w, *cur_extra;
} nv_ckpt_file;

uint64_t nv_ckpt_params_hash(const nesvm_params *p);
/* Write sub-models 0..done-1 of m and the snapshot of sub-model cur (NULL:
 * none) to path, atomically. */
nesvm_status nv_ckpt_write(const char *path, const nv_ckpt_head *hd, const nesvm_model *m, int done,
                           int cur, const nv_snapshot *snap, nesvm_error *err);
nesvm_status nv_ckpt_read(const char *path, nv_ckpt_file *c, nesvm_error *err);
void nv_ckpt_free(nv_ckpt_file *c);

#endif
