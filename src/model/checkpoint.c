/*
 * checkpoint.c - training checkpoints (nesvm.h, nesvm_train_resumable).
 *
 * A checkpoint is a text file, numbers as in model files (exact round trip):
 *
 *     nesvm_checkpoint 1
 *     data ROWS FEATURES HASH        FNV-1a of the labels and non-zero entries
 *     params HASH                    FNV-1a of the parameters (not threads,
 *                                    time_limit, max_iter, progress_every)
 *     solver NAME
 *     nr_submodel S
 *     ncoef C                        coefficients of a finished sub-model
 *     done K                         sub-models 0..K-1 are finished:
 *     sub I b B exit E iterations N primal P gap G lower L nsv V
 *     C numbers                      (its coefficients, 8 to a line)
 *     current I iteration N b B nw W nextra X     the interrupted one (or
 *     W numbers                                   "current none"): its point
 *     X numbers                                   and the solver's extra state
 *     end
 *
 * The driver (model.c) decides when to write, and what a resume restores.
 */
#include "model_internal.h"
#include "checkpoint.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NV_CKPT_VERSION 1

uint64_t nv_ckpt_params_hash(const nesvm_params *p)
{
    /* parameters added after checkpoints were (the rows from restart on) are
     * left out at their default, which is what every training did before
     * them (as model files leave them out): a checkpoint written before one
     * existed still resumes, and a new row changes no hash */
    const int later = nv_param_index("restart");
    uint64_t h = NV_FNV1A_START;
    char buf[64];
    for (int i = 0; nv_param_name(i); i++) {
        const char *name = nv_param_name(i);
        if (!strcmp(name, "threads") || !strcmp(name, "time_limit") || !strcmp(name, "max_iter") ||
            !strcmp(name, "progress_every"))
            continue;
        if (i >= later && nv_param_is_default(p, i)) continue;
        if (nesvm_params_get(p, name, buf, sizeof buf, NULL) != NESVM_OK) continue;
        h = nv_fnv1a(h, name, strlen(name) + 1);
        h = nv_fnv1a(h, buf, strlen(buf) + 1);
    }
    for (int k = 0; k < p->n_weights; k++) {
        h = nv_fnv1a(h, &p->weight_label[k], sizeof(double));
        h = nv_fnv1a(h, &p->weight[k], sizeof(double));
    }
    return h;
}

static void put_vec(FILE *f, const double *v, int64_t n)
{
    char num[32];
    for (int64_t j = 0; j < n; j++) {
        nv_format_double(v[j], num);
        fputs(num, f);
        fputc((j % 8 == 7 || j == n - 1) ? '\n' : ' ', f);
    }
}

nesvm_status nv_ckpt_write(const char *path, const nv_ckpt_head *hd, const nesvm_model *m, int done,
                           int cur, const nv_snapshot *snap, nesvm_error *err)
{
    nv_atomic_file af;
    nesvm_status st = nv_atomic_open(&af, path, err);
    if (st != NESVM_OK) return st;
    FILE *f = af.fp;
    char a[32], b[32], c[32], d[32];
    fprintf(f, "nesvm_checkpoint %d\ndata %lld %d %016" PRIx64 "\nparams %016" PRIx64 "\n", NV_CKPT_VERSION,
            (long long)hd->rows, hd->features, hd->data_hash, hd->params_hash);
    fprintf(f, "solver %s\nnr_submodel %d\nncoef %lld\ndone %d\n", hd->solver, hd->nsub, (long long)hd->ncoef,
            done);
    for (int s = 0; s < done; s++) {
        const nv_submodel *sm = &m->sub[s];
        nv_format_double(sm->b, a);
        nv_format_double(sm->primal, b);
        nv_format_double(sm->gap, c);
        nv_format_double(hd->lower[s], d);
        fprintf(f, "sub %d b %s exit %s iterations %lld primal %s gap %s lower %s nsv %lld\n", s, a,
                nesvm_exit_str(sm->exit_reason), (long long)sm->iterations, b, c, d, (long long)hd->nsv[s]);
        put_vec(f, sm->w, hd->ncoef);
    }
    if (snap) {
        nv_format_double(snap->b, a);
        fprintf(f, "current %d iteration %lld b %s nw %lld nextra %lld\n", cur, (long long)snap->iteration, a,
                (long long)snap->nw, (long long)snap->nextra);
        put_vec(f, snap->w, snap->nw);
        if (snap->nextra > 0) put_vec(f, snap->extra, snap->nextra);
    } else {
        fputs("current none\n", f);
    }
    fputs("end\n", f);
    return nv_atomic_commit(&af, err);
}

/* ---------------------------------------------------------------- reading */

typedef struct tokens {
    const char *path;
    char *p, *end;
    nesvm_error *err;
} tokens;

static const char *next_tok(tokens *t)
{
    while (t->p < t->end && (*t->p == ' ' || *t->p == '\n' || *t->p == '\t' || *t->p == '\r')) t->p++;
    if (t->p >= t->end) return NULL;
    char *s = t->p;
    while (t->p < t->end && !(*t->p == ' ' || *t->p == '\n' || *t->p == '\t' || *t->p == '\r')) t->p++;
    if (t->p < t->end) *t->p++ = '\0';
    return s;
}

static nesvm_status bad(tokens *t, const char *what)
{
    return nv_error(t->err, NESVM_ERR_ARG, "checkpoint '%s' is damaged or not a checkpoint: %s", t->path, what);
}

static int want_word(tokens *t, const char *w)
{
    const char *s = next_tok(t);
    return s && strcmp(s, w) == 0;
}

static int get_i64(tokens *t, int64_t lo, int64_t hi, int64_t *out)
{
    const char *s = next_tok(t);
    int64_t v;
    if (!s || !nv_parse_int64(s, &v) || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static int get_num(tokens *t, double *out)
{
    const char *s = next_tok(t);
    if (!s) return 0;
    const char *end = s + strlen(s);
    return nv_parse_double(s, end, out) == end;
}

static int get_hex(tokens *t, uint64_t *out)
{
    const char *s = next_tok(t);
    if (!s || strlen(s) != 16) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        char ch = s[i];
        int dgt = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        if (dgt < 0) return 0;
        v = v << 4 | (uint64_t)dgt;
    }
    *out = v;
    return 1;
}

static int get_vec(tokens *t, double *v, int64_t n)
{
    for (int64_t j = 0; j < n; j++)
        if (!get_num(t, &v[j])) return 0;
    return 1;
}

void nv_ckpt_free(nv_ckpt_file *c)
{
    if (!c) return;
    nv_free(c->sub);
    nv_free(c->w);
    nv_free(c->cur_w);
    nv_free(c->cur_extra);
    memset(c, 0, sizeof *c);
}

nesvm_status nv_ckpt_read(const char *path, nv_ckpt_file *c, nesvm_error *err)
{
    memset(c, 0, sizeof *c);
    char *buf;
    size_t len;
    nesvm_status rst = nv_read_file(path, "checkpoint", &buf, &len, err);
    if (rst != NESVM_OK) return rst;
    tokens t = {path, buf, buf + len, err};
    nesvm_status st = NESVM_OK;
    int64_t v;
    const char *s;
#define NEED(cond, what)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            st = bad(&t, what);                                                                \
            goto fail;                                                                         \
        }                                                                                      \
    } while (0)
    NEED(want_word(&t, "nesvm_checkpoint") && get_i64(&t, NV_CKPT_VERSION, NV_CKPT_VERSION, &v),
         "no 'nesvm_checkpoint 1' header");
    NEED(want_word(&t, "data") && get_i64(&t, 0, INT64_MAX, &c->head.rows) && get_i64(&t, 0, INT32_MAX, &v) &&
             get_hex(&t, &c->head.data_hash),
         "bad 'data' line");
    c->head.features = (int32_t)v;
    NEED(want_word(&t, "params") && get_hex(&t, &c->head.params_hash), "bad 'params' line");
    NEED(want_word(&t, "solver") && (s = next_tok(&t)) != NULL && strlen(s) < sizeof c->solver, "bad 'solver' line");
    strcpy(c->solver, s);
    c->head.solver = c->solver;
    NEED(want_word(&t, "nr_submodel") && get_i64(&t, 1, INT32_MAX, &v), "bad 'nr_submodel' line");
    c->head.nsub = (int)v;
    NEED(want_word(&t, "ncoef") && get_i64(&t, 0, INT64_MAX / 16, &c->head.ncoef), "bad 'ncoef' line");
    NEED(want_word(&t, "done") && get_i64(&t, 0, c->head.nsub, &v), "bad 'done' line");
    c->done = (int)v;
    /* every coefficient takes at least two bytes: no huge allocation for a short file */
    NEED((double)(c->done ? c->done : 1) * (double)c->head.ncoef * 2.0 <= (double)len,
         "the file is too short for its sizes");
    c->sub = nv_calloc((size_t)(c->done ? c->done : 1), sizeof *c->sub);
    c->w = nv_malloc_array((size_t)(c->done ? c->done : 1) * (size_t)(c->head.ncoef ? c->head.ncoef : 1),
                           sizeof(double));
    if (!c->sub || !c->w) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory reading checkpoint '%s'", path);
        goto fail;
    }
    for (int k = 0; k < c->done; k++) {
        nv_ckpt_sub *sb = &c->sub[k];
        NEED(want_word(&t, "sub") && get_i64(&t, k, k, &v), "bad 'sub' line");
        NEED(want_word(&t, "b") && get_num(&t, &sb->b) && isfinite(sb->b), "bad sub-model bias");
        NEED(want_word(&t, "exit") && (s = next_tok(&t)) != NULL, "bad sub-model exit");
        sb->exit_reason = -1;
        for (int e = NESVM_EXIT_CONVERGED; e <= NESVM_EXIT_EPS_ABS; e++)
            if (strcmp(s, nesvm_exit_str((nesvm_exit)e)) == 0) sb->exit_reason = e;
        NEED(sb->exit_reason >= 0, "unknown exit reason");
        NEED(want_word(&t, "iterations") && get_i64(&t, 0, INT64_MAX, &sb->iterations), "bad iterations");
        NEED(want_word(&t, "primal") && get_num(&t, &sb->primal), "bad primal");
        NEED(want_word(&t, "gap") && get_num(&t, &sb->gap), "bad gap");
        NEED(want_word(&t, "lower") && get_num(&t, &sb->lower), "bad lower bound");
        NEED(want_word(&t, "nsv") && get_i64(&t, 0, INT64_MAX, &sb->nsv), "bad nsv");
        double *w = c->w + (size_t)k * (size_t)c->head.ncoef;
        NEED(get_vec(&t, w, c->head.ncoef), "bad or missing coefficients");
        for (int64_t j = 0; j < c->head.ncoef; j++) NEED(isfinite(w[j]), "a non-finite coefficient");
    }
    NEED(want_word(&t, "current"), "no 'current' line");
    s = next_tok(&t);
    NEED(s != NULL, "bad 'current' line");
    if (strcmp(s, "none") == 0) {
        c->cur = -1;
    } else {
        NEED(nv_parse_int64(s, &v) && v == c->done && v < c->head.nsub, "bad 'current' sub-model");
        c->cur = (int)v;
        nv_snapshot *sn = &c->snap;
        NEED(want_word(&t, "iteration") && get_i64(&t, 0, INT64_MAX, &sn->iteration), "bad iteration");
        NEED(want_word(&t, "b") && get_num(&t, &sn->b) && isfinite(sn->b), "bad current bias");
        NEED(want_word(&t, "nw") && get_i64(&t, 0, INT64_MAX / 16, &sn->nw), "bad nw");
        NEED(want_word(&t, "nextra") && get_i64(&t, 0, INT64_MAX / 16, &sn->nextra), "bad nextra");
        NEED(((double)sn->nw + (double)sn->nextra) * 2.0 <= (double)len, "the file is too short for its sizes");
        c->cur_w = nv_malloc_array((size_t)(sn->nw ? sn->nw : 1), sizeof(double));
        c->cur_extra = nv_malloc_array((size_t)(sn->nextra ? sn->nextra : 1), sizeof(double));
        if (!c->cur_w || !c->cur_extra) {
            st = nv_error(err, NESVM_ERR_NOMEM, "out of memory reading checkpoint '%s'", path);
            goto fail;
        }
        NEED(get_vec(&t, c->cur_w, sn->nw) && get_vec(&t, c->cur_extra, sn->nextra), "bad current state");
        for (int64_t j = 0; j < sn->nw; j++) NEED(isfinite(c->cur_w[j]), "a non-finite coefficient");
        sn->w = c->cur_w;
        sn->extra = sn->nextra > 0 ? c->cur_extra : NULL;
    }
    NEED(want_word(&t, "end") && next_tok(&t) == NULL, "no 'end', or content after it");
#undef NEED
    nv_free(buf);
    return NESVM_OK;
fail:
    nv_free(buf);
    nv_ckpt_free(c);
    return st;
}
