/* registry.c - the table of solver families. */
#include "solver.h"

#include <math.h>
#include <string.h>

static const nv_solver solvers[] = {
    {"nesvm", {"c_svm_hinge_l2", "lp_svm_hinge_l1", "ls_svm_squared_l2"}, nv_nesvm_linear_train,
     nv_nesvm_kernel_train, NULL, NV_KERNELS_NESVM, 1.0},
    /* bias <= 0: no bias; bias B > 0: a constant feature B, regularized */
    {"hyperpass", {"c_svm_hinge_l2_regularized_bias", NULL, NULL}, nv_hyperpass_train, NULL, NULL,
     NV_KERNELS_NONE, -1.0},
    {"pegasos", {"c_svm_hinge_l2_regularized_bias", NULL, NULL}, nv_pegasos_train, NULL, NULL,
     NV_KERNELS_NONE, -1.0},
    {"ssvm", {"c_svm_squared_hinge_l2_regularized_bias", NULL, NULL}, nv_ssvm_train, NULL, NULL,
     NV_KERNELS_RSVM, 1.0},
    {"nssvm", {"c_svm_squared_hinge_l2_regularized_bias", NULL, NULL}, nv_nssvm_train, NULL, NULL,
     NV_KERNELS_RSVM, 1.0},
    /* kernel only: the expansion over the selected training rows */
    {"gs", {"svm_dual_greedy_stagewise", NULL, NULL}, NULL, NULL, nv_gs_train, NV_KERNELS_GS, -1.0},
};

const nv_solver *nv_solver_find(const char *name)
{
    for (size_t i = 0; i < sizeof solvers / sizeof solvers[0]; i++)
        if (strcmp(solvers[i].name, name) == 0) return &solvers[i];
    return NULL;
}

const char *nv_solver_names(void) { return "nesvm, hyperpass, pegasos, ssvm, nssvm, gs"; }

const char *nv_solver_problem(const nv_solver *s, const nesvm_params *p)
{
    return (p->svm_type >= 0 && p->svm_type < 3) ? s->problem[p->svm_type] : NULL;
}

void nv_params_resolve(nesvm_params *p)
{
    const nv_solver *s = nv_solver_find(p->solver);
    if (isnan(p->bias)) p->bias = s ? s->bias : 1.0;
}

int64_t nv_params_basis(const nesvm_params *p, int64_t n)
{
    if (p->basis >= 0) return p->basis;
    const nv_solver *s = nv_solver_find(p->solver);
    if (!s || s->kernels != NV_KERNELS_RSVM) return 0;
    int64_t m = n / 10;
    if (m < 100) m = 100;
    if (m > 1000) m = 1000;
    return m >= n ? 0 : m;
}
