/* losses.c - the registry of losses: one line per loss (its file in this
 * folder defines it), and the loss and regularizer a training minimizes
 * (the svm_type's, params.c, or --loss; loss.h, solver.h).  Below the solver
 * families, which ask it. */
#include "../solver.h"

#include <string.h>

/* The losses, one file each. */
extern const nv_loss nv_loss_hinge, nv_loss_squared;
static const nv_loss *const losses[] = {
    &nv_loss_hinge,
    &nv_loss_squared,
};
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
    return t && t->l1;
}
