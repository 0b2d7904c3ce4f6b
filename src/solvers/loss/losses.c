/* losses.c - the registry of losses: one line per loss (its file in this
 * folder defines it), and the loss and regularizer a training minimizes
 * (the svm_type's, params.c, or --loss; loss.h, solver.h).  Below the solver
 * families, which ask it. */
#include "../solver.h"

#include <string.h>

/* The losses: one line each, X(NAME) for the nv_loss_NAME its file in this
 * folder defines; the order is `nesvm params`'s and the messages'. */
#define NV_LOSSES(X) \
    X(hinge)         \
    X(squared)       \
    X(squared_hinge)         \
    X(epsilon_insensitive)   \
    X(squared_epsilon_insensitive) \
    X(logistic)

#define NV_LOSS_DECLARE(name) extern const nv_loss nv_loss_##name;
#define NV_LOSS_ENTRY(name) &nv_loss_##name,
NV_LOSSES(NV_LOSS_DECLARE)
static const nv_loss *const losses[] = {NV_LOSSES(NV_LOSS_ENTRY)};
#define NLOSSES ((int)(sizeof losses / sizeof losses[0]))

const nv_loss *nv_loss_at_index(int i) { return i >= 0 && i < NLOSSES ? losses[i] : NULL; }

const nv_loss *nv_loss_find(const char *name)
{
    for (int i = 0; i < NLOSSES; i++)
        if (strcmp(losses[i]->name, name) == 0) return losses[i];
    return NULL;
}

const nv_loss *nv_params_loss(const nesvm_params *p)
{
    if (strcmp(p->loss, "auto") != 0) return nv_loss_find(p->loss);
    const nv_svm_type_def *t = nv_svm_type(p->svm_type);
    return t ? nv_loss_find(t->loss) : NULL;
}

nv_loss nv_params_loss_inst(const nesvm_params *p)
{
    return nv_loss_tube(nv_params_loss(p), p->epsilon);
}

const char *nv_loss_names(char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < NLOSSES; k++) {
        int w = snprintf(buf + n, size - n, "%s%s", k ? ", " : "", losses[k]->name);
        if (w < 0 || (size_t)w >= size - n) break;
        n += (size_t)w;
    }
    return buf;
}

int nv_params_l1(const nesvm_params *p)
{
    const nv_svm_type_def *t = nv_svm_type(p->svm_type);
    return t && (t->l1 || (p->penalty == NV_PENALTY_L1 &&
                           (p->svm_type == NV_SVM_C || p->svm_type == NV_SVM_LOGISTIC)));
}
