/*
 * tuning.h - the NESVM family's tuning constants, in one place (the linear
 * Newton and Nesterov methods, newton.c and nesterov.c, and the expansion
 * methods of a full kernel, expansion.c).  Changing one changes results:
 * tests/golden/ holds the models they give.
 */
#ifndef NESVM_NESVM_TUNING_H
#define NESVM_NESVM_TUNING_H

/* Continuation (both): automatic continuation starts at mu = MU0 (nu = NU0
 * for LP-SVM) and shrinks mu by at most MU_MIN_FACTOR per stage. */
#define NV_NESVM_MU0 0.1
#define NV_NESVM_NU0 0.1
#define NV_NESVM_MU_MIN_FACTOR 0.2
/* Exact margins (linear) or K beta (expansion) recomputed every REFRESH
 * Newton iterations; K beta every REFRESH_NEST Nesterov steps. */
#define NV_NESVM_REFRESH 25
#define NV_NESVM_REFRESH_NEST 100
/* LP-SVM: curvature LP_DAMP/nu for weights outside Huber's zone. */
#define NV_NESVM_LP_DAMP 1e-3

/* Linear truncated Newton (newton.c): CG to relative residual CG_TOL, at
 * most CG_PASSES n rows touched per step but CG_MIN iterations at least, an
 * adaptive cap between CG_CAP_MIN and CG_MAX; the exact (BLAS-3) step
 * instead when the zone holds at most DIRECT_ZONE n rows, its buffers fit the
 * data's own storage (at least DIRECT_MEM_FLOOR bytes) and DIRECT_MEM, and
 * DIRECT_RATIO times the flops of CG at CG_MAX iterations cost more. */
#define NV_NESVM_CG_TOL 0.1
/* A curved loss's last Newton systems (newton.c, cg_tol): CG stops once the
 * linear model's next gradient is CG_GAP_SAFETY times what the certificate
 * needs, at a relative residual of CG_TOL_MAX at most. */
#define NV_NESVM_CG_GAP_SAFETY 0.5
#define NV_NESVM_CG_TOL_MAX 0.5
/* A curved loss's subsampled-Hessian preconditioner (newton.c, sketch_build):
 * SKETCH_ROWS d zone rows in blocks of SKETCH_BLOCK, d at most SKETCH_DMAX,
 * its flops at most SKETCH_RATIO CG steps'. */
#define NV_NESVM_SKETCH_ROWS 8
#define NV_NESVM_SKETCH_BLOCK 256
#define NV_NESVM_SKETCH_DMAX 4096
#define NV_NESVM_SKETCH_RATIO 50.0
#define NV_NESVM_CG_PASSES 4.0
#define NV_NESVM_CG_MIN 2
#define NV_NESVM_CG_MAX 250
#define NV_NESVM_CG_CAP_MIN 8
#define NV_NESVM_DIRECT_MEM 1073741824.0
#define NV_NESVM_DIRECT_MEM_FLOOR 67108864.0
#define NV_NESVM_DIRECT_RATIO 8.0
#define NV_NESVM_DIRECT_ZONE 0.5

/* Dual coordinate descent (dcd.c): the active set is first solved to a
 * largest violation of DCD_TOL0, then ten times less each time the whole
 * set is; the certificate after about n steps and at least every
 * DCD_CHECK_MAX epochs; a warm start's dual point is the smoothed loss's
 * derivative at mu = DCD_WARM_MU. */
#define NV_NESVM_DCD_TOL0 0.1
#define NV_NESVM_DCD_CHECK_MAX 50
/* ... and a check's lower bound (one more pass, X^T*a) at least every
 * DCD_FULL_EVERY checks, and whenever it rose by a tenth of the gap at the
 * last one; the others evaluate P alone (dcd.c). */
#define NV_NESVM_DCD_FULL_EVERY 4
#define NV_NESVM_DCD_WARM_MU 0.01

/* The active-set finish (pdas.c): at most PDAS_MAX iterations, given up
 * after PDAS_PATIENCE without a smaller certified gap; G's ridge PDAS_RIDGE
 * times its mean diagonal. */
#define NV_NESVM_PDAS_MAX 50
#define NV_NESVM_PDAS_PATIENCE 3
#define NV_NESVM_PDAS_RIDGE 1e-10

/* Expansion (expansion.c): the zone's system by Cholesky within ZONE_MEM
 * bytes, else CG to ZONE_CG_TOL in at most ZONE_CG_MAX iterations; LP-SVM's
 * CG at most LP_CG_MAX iterations; C-SVM problems of COARSE_MIN rows or more
 * start from a solution on 1/COARSE_FACTOR of their rows to gap COARSE_EPS. */
#define NV_NESVM_ZONE_MEM 1073741824.0
#define NV_NESVM_ZONE_CG_TOL 1e-6
#define NV_NESVM_ZONE_CG_MAX 200
#define NV_NESVM_LP_CG_MAX 100
#define NV_NESVM_COARSE_MIN 4096
#define NV_NESVM_COARSE_FACTOR 4
#define NV_NESVM_COARSE_EPS 1e-2
/* The working set (expansion_ws.c): WS_INIT rows at first (and up to as
 * many join a round when that many violate), each sub-problem solved to
 * WS_EPS times the caller's eps, rows with a zero coefficient beyond margin
 * 1 + WS_DROP leave; all rows once S and its violators reach WS_FULL n. */
#define NV_NESVM_WS_INIT 1000
#define NV_NESVM_WS_EPS 0.5
#define NV_NESVM_WS_DROP 0.1
#define NV_NESVM_WS_FULL 0.5
/* ... and its K_SS's products in single precision (nv_kmat_init_fast) from
 * WS_FLOAT_FLOPS products' worth (|S|^2 d: there the products are most of
 * the matrix's time; Fashion-MNIST T-shirt/Shirt, 12,000 rows: 4.2 s ->
 * 2.5 s of 9.3 s, measured by hand); smaller ones keep double products. */
#define NV_NESVM_WS_FLOAT_FLOPS 4e9
/* epsilon-SVR's working set (expansion_wst.c): at most max(WS_TUBE_Q, 2
 * free rows) rows a round; the rows beyond the tube guessed at their
 * bounds after a cold start's first round when WS_TUBE_GUESS of its support
 * vectors are; a lower bound that has not risen for WS_TUBE_PATIENCE rounds
 * ends it "stalled". */
#define NV_NESVM_WS_TUBE_Q 2000
#define NV_NESVM_WS_TUBE_GUESS 0.9
#define NV_NESVM_WS_TUBE_PATIENCE 5

/* The L1 norm's coordinate descent (cd.c): a model not solved after cycles
 * that cost as much as its Gram matrix over the curved rows is finished on
 * that matrix, [X_A 1]^T diag(h) [X_A 1] (BLAS: about CD_GRAM_SPEED of its
 * flops in the time of one column entry's visit, measured on this project's
 * machine: 43), of at most CD_GRAM_MAX features and within the memory of the
 * Newton matrix; on it the model is solved to CD_GRAM_ETA times the outer
 * violation in at most CD_GRAM_CYCLES cycles. */
#define NV_CD_GRAM_SPEED 43.0
#define NV_CD_GRAM_MAX 4096
#define NV_CD_GRAM_ETA 1e-2
#define NV_CD_GRAM_CYCLES 500

#endif
