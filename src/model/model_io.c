/*
 * model_io.c - the text model format (docs/format.md), written atomically and
 * read back with every field validated.  Numbers are written with the
 * shortest text that reads back exactly and parsed without the C locale, so
 * files round-trip bit-exactly whatever the process locale.
 */
#include "model_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The format version written; every version from 1 on is read
 * (docs/format.md: 1 lists every parameter, 2 and 3 only those off their
 * default; 3 changed method's default to auto). */
#define NV_MODEL_VERSION 3


/* The model's text (docs/format.md) to f. */
static void write_model(const nesvm_model *m, FILE *f)
{
    char num[32], val[64];
    /* what the reader requires of the shape (docs/format.md): classes for a
     * classification only, a sub-model at least, a coefficient per basis vector */
    NV_ASSERT((m->task == NESVM_TASK_CLASSIFICATION ? m->nr_class >= 2 : m->nr_class == 0) && m->nsub >= 1 &&
              (!m->basis || (m->basis->n == m->ncoef && m->basis->indices)));
    fprintf(f, "nesvm_model %d\n", NV_MODEL_VERSION);
    fprintf(f, "solver %s\nproblem %s\nkernel %s\n", m->params->solver, m->problem,
            nv_kernel_names[m->params->kernel]);
    fprintf(f, "multiclass %s\nnr_class %d\nlabels", nesvm_model_multiclass(m), m->nr_class);
    for (int c = 0; c < m->nr_class; c++) {
        nv_format_double(m->labels[c], num);
        fprintf(f, " %s", num);
    }
    fprintf(f, "\nnr_feature %d\n", m->d);
    if (m->task != NESVM_TASK_CLASSIFICATION) fprintf(f, "task %s\n", nesvm_task_str(m->task));
    /* the parameters off their default, in the table's order (solver,
     * multiclass and kernel have their own lines): a missing one is the
     * default, so a new parameter changes no file trained without it; a
     * one-class, nu-SVC or nu-SVR model's nu always */
    for (int i = 0; nv_param_name(i); i++) {
        const char *name = nv_param_name(i);
        const int nu = (m->task == NESVM_TASK_NOVELTY || nv_params_nu_type(m->params)) && strcmp(name, "svm_nu") == 0;
        if (strcmp(name, "solver") == 0 || strcmp(name, "multiclass") == 0 || strcmp(name, "kernel") == 0 ||
            (nv_param_is_default(m->params, i) && !nu))
            continue;
        nesvm_params_get(m->params, name, val, sizeof val, NULL);
        fprintf(f, "param %s %s\n", name, val);
    }
    for (int i = 0; i < m->params->n_weights; i++) {
        nv_format_double(m->params->weight_label[i], num);
        nv_format_double(m->params->weight[i], val);
        fprintf(f, "class_weight %s %s\n", num, val);
    }
    if (m->basis) {
        /* basis vectors as sparse rows, 1-based indices, each line led by "sv";
         * a precomputed kernel's as their serial numbers "sv 0:i" (LIBSVM's) */
        const nesvm_dataset *B = m->basis;
        const int pc = m->params->kernel == NV_KERNEL_PRECOMPUTED;
        fprintf(f, "nr_basis %lld\nbasis\n", (long long)B->n);
        for (int64_t i = 0; i < B->n; i++) {
            fputs("sv", f);
            for (int64_t p = B->indptr[i]; p < B->indptr[i + 1]; p++) {
                /* indices ascending in 1..nr_feature, as read_basis reads them back */
                NV_ASSERT(B->indices[p] >= 0 && B->indices[p] < m->d &&
                          (p == B->indptr[i] || B->indices[p - 1] < B->indices[p]));
                nv_format_double(nv_val(B, p), num);
                fprintf(f, " %d:%s", B->indices[p] + !pc, num);
            }
            fputc('\n', f);
        }
    }
    fprintf(f, "nr_submodel %d\n", m->nsub);
    for (int s = 0; s < m->nsub; s++) {
        const nv_submodel *sm = &m->sub[s];
        fprintf(f, "submodel %d pos %d neg %d exit %s iterations %lld", s, sm->pos, sm->neg,
                nesvm_exit_str(sm->exit_reason), (long long)sm->iterations);
        nv_format_double(sm->primal, num);
        fprintf(f, " primal %s", num);
        nv_format_double(sm->gap, num);
        fprintf(f, " gap %s\n", num);
        nv_format_double(sm->b, num);
        fprintf(f, "b %s\n", num);
        if (nv_params_nu_type(m->params) && isfinite(sm->nu_value)) {
            nv_format_double(sm->nu_value, num);
            fprintf(f, "%s %s\n", m->params->svm_type == NV_SVM_NUSVC ? "nu_rho" : "nu_epsilon", num);
        }
        if (m->has_prob) {
            nv_format_double(sm->prob_a, num);
            nv_format_double(sm->prob_b, val);
            fprintf(f, "prob %s %s\n", num, val);
        }
        fprintf(f, "%s\n", m->basis ? "beta" : "w");
        for (int64_t j = 0; j < m->ncoef; j++) {
            nv_format_double(sm->w[j], num);
            fputs(num, f);
            fputc('\n', f);
        }
    }
    fputs("end\n", f);
}

nesvm_status nesvm_model_save(const nesvm_model *m, const char *path, nesvm_error *err)
{
    if (!m || !path) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_save");
    int bad = nv_model_first_nonfinite(m);
    if (bad >= 0)
        return nv_error(err, NESVM_ERR_NUMERIC,
                        "binary model %d holds a non-finite number: not saved to '%s'", bad, path);
    nv_atomic_file af;
    nesvm_status st = nv_atomic_open(&af, path, err);
    if (st != NESVM_OK) return st;
    write_model(m, af.fp);
    return nv_atomic_commit(&af, err);
}

nesvm_status nesvm_model_save_buffer(const nesvm_model *m, char **out, size_t *len, nesvm_error *err)
{
    if (!m || !out || !len) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_save_buffer");
    *out = NULL;
    *len = 0;
    int bad = nv_model_first_nonfinite(m);
    if (bad >= 0)
        return nv_error(err, NESVM_ERR_NUMERIC, "binary model %d holds a non-finite number: not saved", bad);
    char *mem = NULL;
    size_t mlen = 0;
    FILE *f = open_memstream(&mem, &mlen);
    if (!f) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the model text");
    write_model(m, f);
    int failed = ferror(f);
    if (fclose(f) != 0) failed = 1;
    /* the caller frees it with nesvm_free: a copy from the library's allocator */
    char *buf = failed || !mem ? NULL : nv_malloc(mlen + 1);
    if (buf) {
        memcpy(buf, mem, mlen);
        buf[mlen] = '\0';
    }
    free(mem);
    if (!buf) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the model text");
    *out = buf;
    *len = mlen;
    return NESVM_OK;
}

void nesvm_free(void *p) { nv_free(p); }

/* ---------------------------------------------------------------- loading */

typedef struct lexer {
    const char *path;
    char *p, *end;
    int64_t line;
    char **tok;
    int ntok, cap;
    nesvm_error *err;
} lexer;

/* Next non-empty line split into tokens; 0 at end of file. */
static int next_line(lexer *lx)
{
    while (lx->p < lx->end) {
        char *nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
        char *le = nl ? nl : lx->end;
        lx->line++;
        char *q = lx->p;
        lx->p = nl ? nl + 1 : lx->end;
        lx->ntok = 0;
        while (q < le) {
            while (q < le && (*q == ' ' || *q == '\t' || *q == '\r')) *q++ = '\0';
            if (q >= le) break;
            if (lx->ntok == lx->cap) {
                int ncap = lx->cap ? lx->cap * 2 : 16;
                char **nt = nv_realloc_array(lx->tok, (size_t)ncap, sizeof *nt);
                if (!nt) return -1;
                lx->tok = nt;
                lx->cap = ncap;
            }
            lx->tok[lx->ntok++] = q;
            while (q < le && *q != ' ' && *q != '\t' && *q != '\r') q++;
        }
        *le = '\0';
        if (lx->ntok > 0) return 1;
    }
    return 0;
}

static nesvm_status lerr(lexer *lx, const char *what)
{
    if (lx->line == 0) /* an empty file */
        return nv_error(lx->err, NESVM_ERR_MODEL, "%s: %s", lx->path, what);
    return nv_error(lx->err, NESVM_ERR_MODEL, "%s:%lld: %s", lx->path, (long long)lx->line, what);
}

static int tok_double(const char *t, double *out)
{
    const char *end = t + strlen(t);
    const char *q = nv_parse_double(t, end, out);
    return q == end;
}

static int tok_int(const char *t, long long lo, long long hi, long long *out)
{
    int64_t v;
    if (!nv_parse_int64(t, &v) || v < lo || v > hi) return 0;
    *out = (long long)v;
    return 1;
}

/* Expect a line "key <value...>" with exactly ntok tokens. */
static nesvm_status expect(lexer *lx, const char *key, int ntok)
{
    char msg[160];
    int r = next_line(lx);
    if (r <= 0) {
        snprintf(msg, sizeof msg, "expected '%s', found %s", key, r == 0 ? "end of file" : "a line it cannot hold (out of memory)");
        return lerr(lx, msg);
    }
    if (strcmp(lx->tok[0], key) != 0) {
        snprintf(msg, sizeof msg, "expected '%s', found '%.40s'", key, lx->tok[0]);
        return lerr(lx, msg);
    }
    if (ntok >= 0 && lx->ntok != ntok) {
        snprintf(msg, sizeof msg, "'%s' line needs %d value(s), found %d", key, ntok - 1, lx->ntok - 1);
        return lerr(lx, msg);
    }
    return NESVM_OK;
}

/* nb lines "sv j:v j:v ..." (1-based, strictly ascending j <= d, finite v)
 * into an owned CSR dataset; pc (a precomputed kernel): "sv 0:i" each, the
 * serial number i an integer in 1..d - 1. */
static nesvm_status read_basis(lexer *lx, long long nb, long long d, int pc, nesvm_dataset **out)
{
    char msg[200];
    size_t cap = 1024;
    int64_t nnz = 0;
    int64_t *ip = nv_malloc_array((size_t)nb + 1, sizeof(int64_t));
    int32_t *ix = nv_malloc_array(cap, sizeof(int32_t));
    double *vx = nv_malloc_array(cap, sizeof(double));
    double *lb = nv_calloc((size_t)nb, sizeof(double));
    nesvm_status st = NESVM_OK;
    if (!ip || !ix || !vx || !lb) goto nomem;
    ip[0] = 0;
    for (long long i = 0; i < nb; i++) {
        int r = next_line(lx);
        if (r < 0) goto nomem;
        if (r == 0 || strcmp(lx->tok[0], "sv") != 0) {
            snprintf(msg, sizeof msg, "expected basis vector %lld of %lld ('sv j:v ...')", i + 1, nb);
            st = lerr(lx, msg);
            goto fail;
        }
        long long prev = 0;
        if (pc && lx->ntok != 1 && (lx->ntok != 2 || strncmp(lx->tok[1], "0:", 2) != 0 || !tok_int(lx->tok[1] + 2, 1, d - 1, &prev))) {
            snprintf(msg, sizeof msg,
                     "basis vector %lld: expected its serial number 0:i, i in 1..%lld (a precomputed kernel's "
                     "support vector), found '%.40s'",
                     i + 1, d - 1, lx->ntok > 1 ? lx->tok[1] : "end of line");
            st = lerr(lx, msg);
            goto fail;
        }
        for (int t = 1; t < lx->ntok; t++) {
            char *c = strchr(lx->tok[t], ':');
            long long j = 1; /* a precomputed kernel's column 0, its serial number in prev */
            double v = (double)prev;
            if (c && !pc) *c = '\0';
            if (!pc && (!c || !tok_int(lx->tok[t], prev + 1, d, &j) || !tok_double(c + 1, &v) || !isfinite(v))) {
                if (c) *c = ':'; /* the whole entry in the message */
                snprintf(msg, sizeof msg,
                         "basis vector %lld: bad entry '%.40s' (expected index:value, indices "
                         "ascending in 1..%lld, finite values)", i + 1, lx->tok[t], d);
                st = lerr(lx, msg);
                goto fail;
            }
            if ((size_t)nnz == cap) {
                cap *= 2;
                int32_t *nix = nv_realloc_array(ix, cap, sizeof(int32_t));
                if (!nix) goto nomem;
                ix = nix;
                double *nvx = nv_realloc_array(vx, cap, sizeof(double));
                if (!nvx) goto nomem;
                vx = nvx;
            }
            ix[nnz] = (int32_t)(j - 1);
            vx[nnz++] = v;
            if (!pc) prev = j;
        }
        ip[i + 1] = nnz;
    }
    return nv_dataset_from_csr((int64_t)nb, (int32_t)d, ip, ix, vx, NESVM_DOUBLE, lb, out, lx->err);
nomem:
    st = nv_error(lx->err, NESVM_ERR_NOMEM, "out of memory reading the basis");
fail:
    nv_free(ip);
    nv_free(ix);
    nv_free(vx);
    nv_free(lb);
    return st;
}

/* ------------------------------------------------------- parse_model's parts */

/* What parse_model has read so far; parse_model frees what is left on failure.
 * Each part below reads one section of the file in its order (docs/format.md),
 * returns NESVM_OK or the error naming the line, and allocates only into it. */
typedef struct parse_state {
    lexer lx;
    size_t len;                /* the text's length, for the size checks */
    long long version, k, d, nbasis, nsub;
    int task;                  /* the task line's, classification without one */
    const nv_solver *solver;
    char problem[64];
    nesvm_params *prm;         /* moves into m */
    double *labels;
    nesvm_dataset *basis;      /* moves into m */
    nesvm_model *m;
} parse_state;

static nesvm_status lfail(lexer *lx, const char *fmt, ...) NV_PRINTF(2, 3);
static nesvm_status lfail(lexer *lx, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return lerr(lx, msg);
}

/* In the parts: `lx` is the state's lexer. */
#define FAIL(...) return lfail(lx, __VA_ARGS__)
#define TRY(x)                                                                                 \
    do {                                                                                       \
        nesvm_status st_ = (x);                                                                \
        if (st_ != NESVM_OK) return st_;                                                       \
    } while (0)

/* What a 'param' line missing from a file of format version V stands for: its
 * row's default in the parameter table, except the rows below for files of
 * version <= upto.  Format 1 lists every parameter of its day, so a missing
 * one predates the parameter; format 2 leaves out every row at its default.
 * A change that would give an omitted line another meaning (a new default; a
 * new row whose default is not what training did before it) raises
 * NV_MODEL_VERSION and adds a row here: the old meaning and the last version
 * that had it (docs/format.md, "Parameters").  Rows in increasing `upto`: of a
 * parameter's rows that apply, the first (the oldest meaning that fits) wins. */
static const struct {
    int upto;
    const char *name, *value;
} missing_params[] = {
    /* a format-1 file without it predates it: ssvm's and nssvm's kernel forms
     * penalized ||beta||^2 */
    {1, "kernel_norm", "coef"},
    /* format 2 and older: NESVM's method was newton unless listed (format 3's
     * default is auto, which picks newton or dcd per problem) */
    {2, "method", "newton"},
};

/* The lines from 'nesvm_model V' to 'nr_feature D'. */
static nesvm_status read_head(parse_state *ps)
{
    lexer *lx = &ps->lx;
    TRY(expect(lx, "nesvm_model", 2));
    if (!tok_int(lx->tok[1], 1, 1000000, &ps->version)) FAIL("bad format version '%.40s'", lx->tok[1]);
    if (ps->version > NV_MODEL_VERSION)
        FAIL("model format version %lld is not supported (this build reads versions 1 to %d)", ps->version,
             NV_MODEL_VERSION);
    TRY(nesvm_params_create(&ps->prm, lx->err));
    nesvm_params *prm = ps->prm;
    TRY(expect(lx, "solver", 2));
    ps->solver = nv_solver_find(lx->tok[1]);
    if (!ps->solver) FAIL("unknown solver '%.40s'", lx->tok[1]);
    snprintf(prm->solver, sizeof prm->solver, "%s", lx->tok[1]);
    TRY(expect(lx, "problem", 2));
    snprintf(ps->problem, sizeof ps->problem, "%s", lx->tok[1]);
    TRY(expect(lx, "kernel", 2));
    if (nesvm_params_set(prm, "kernel", lx->tok[1], NULL) != NESVM_OK || isdigit((unsigned char)lx->tok[1][0]))
        FAIL("unsupported kernel '%.40s' (expected linear, poly, rbf, sigmoid or precomputed)", lx->tok[1]);
    TRY(expect(lx, "multiclass", 2));
    if (nesvm_params_set(prm, "multiclass", lx->tok[1], NULL) != NESVM_OK)
        FAIL("bad multiclass scheme '%.40s' (expected ovo, ovr, cs or multinomial)", lx->tok[1]);
    TRY(expect(lx, "nr_class", 2));
    long long k;
    if (!tok_int(lx->tok[1], 0, NV_MAX_CLASSES, &k) || k == 1) /* 0: not a classifier (its task line) */
        FAIL("bad nr_class '%.40s' (expected an integer in [2, %d])", lx->tok[1], NV_MAX_CLASSES);
    ps->k = k;
    /* labels may be long: parse the raw line */
    int r = next_line(lx);
    if (r == 0) FAIL("expected 'labels', found end of file");
    if (lx->ntok < 1 || strcmp(lx->tok[0], "labels") != 0) FAIL("expected 'labels', found '%.40s'", lx->tok[0]);
    if (r < 0 || lx->ntok - 1 != k) FAIL("'labels' needs %lld values", k);
    ps->labels = nv_malloc_array((size_t)(k ? k : 1), sizeof(double));
    if (!ps->labels) return nv_error(lx->err, NESVM_ERR_NOMEM, "out of memory");
    for (int c = 0; c < k; c++) {
        if (!tok_double(lx->tok[c + 1], &ps->labels[c]) || !isfinite(ps->labels[c]))
            FAIL("bad label '%.40s'", lx->tok[c + 1]);
        for (int e = 0; e < c; e++)
            if (ps->labels[e] == ps->labels[c]) FAIL("label '%.40s' appears twice", lx->tok[c + 1]);
    }
    TRY(expect(lx, "nr_feature", 2));
    if (!tok_int(lx->tok[1], 0, INT32_MAX, &ps->d)) FAIL("bad nr_feature '%.40s'", lx->tok[1]);
    return NESVM_OK;
}

/* The 'param' and 'class_weight' lines, up to 'nr_basis' or 'nr_submodel'
 * (the current line when it returns). */
static nesvm_status read_params(parse_state *ps)
{
    lexer *lx = &ps->lx;
    nesvm_params *prm = ps->prm;
    for (size_t i = sizeof missing_params / sizeof missing_params[0]; i-- > 0;)
        if (ps->version <= missing_params[i].upto &&
            nesvm_params_set(prm, missing_params[i].name, missing_params[i].value, lx->err) != NESVM_OK)
            return NESVM_ERR_ARG; /* a bad row above: a bug */
    while (1) {
        int r = next_line(lx);
        if (r <= 0) FAIL("expected 'param', 'class_weight' or 'nr_submodel'");
        if (strcmp(lx->tok[0], "param") == 0) {
            if (lx->ntok != 3) FAIL("'param' needs a name and a value");
            if (strcmp(lx->tok[1], "solver") == 0 || strcmp(lx->tok[1], "multiclass") == 0 ||
                strcmp(lx->tok[1], "kernel") == 0)
                FAIL("param '%.40s' belongs in its own line", lx->tok[1]);
            nesvm_error perr_;
            if (nesvm_params_set(prm, lx->tok[1], lx->tok[2], &perr_) != NESVM_OK) FAIL("%.150s", perr_.message);
        } else if (strcmp(lx->tok[0], "class_weight") == 0) {
            double l, wgt;
            if (lx->ntok != 3 || !tok_double(lx->tok[1], &l) || !tok_double(lx->tok[2], &wgt))
                FAIL("'class_weight' needs a label and a weight");
            if (!isfinite(l)) FAIL("bad class_weight label '%.40s'", lx->tok[1]);
            if (nesvm_params_set_class_weight(prm, l, wgt, NULL) != NESVM_OK)
                FAIL("bad class weight '%.40s'", lx->tok[2]);
        } else if (strcmp(lx->tok[0], "task") == 0) {
            if (lx->ntok != 2 || (ps->task = nv_task_parse(lx->tok[1])) < 0)
                FAIL("unknown task '%.40s' (expected classification, regression or novelty)",
                     lx->ntok > 1 ? lx->tok[1] : "");
        } else if (strcmp(lx->tok[0], "nr_submodel") == 0 || strcmp(lx->tok[0], "nr_basis") == 0) {
            if ((ps->task == NESVM_TASK_CLASSIFICATION) != (ps->k > 0))
                FAIL("nr_class %lld does not fit the task %s (a classifier has 2 classes or more, "
                     "the other tasks none)",
                     ps->k, nesvm_task_str((nesvm_task)ps->task));
            return NESVM_OK;
        } else {
            FAIL("unexpected '%.40s' (expected 'param', 'class_weight' or 'nr_submodel')", lx->tok[0]);
        }
    }
}

/* A kernel model's 'nr_basis R', 'basis' and R basis vectors, then the
 * 'nr_submodel' line; a linear model has none.  Then the checks of the
 * problem and of the sub-model count against what the file has said. */
static nesvm_status read_basis_and_shape(parse_state *ps)
{
    lexer *lx = &ps->lx;
    const nesvm_params *prm = ps->prm;
    if ((strcmp(lx->tok[0], "nr_basis") == 0) != (prm->kernel != 0))
        FAIL("%s", prm->kernel ? "a kernel model needs 'nr_basis' and its basis vectors"
                               : "a linear model has no 'nr_basis'");
    if (prm->kernel) {
        if (lx->ntok != 2 || !tok_int(lx->tok[1], 1, INT32_MAX, &ps->nbasis))
            FAIL("bad nr_basis (expected an integer >= 1)");
        if (!(prm->gamma > 0) && prm->kernel != NV_KERNEL_PRECOMPUTED) FAIL("kernel models need param gamma > 0");
        /* every basis vector takes a line of at least three bytes ("sv\n") */
        if ((double)ps->nbasis * 3.0 > (double)ps->len)
            FAIL("nr_basis %lld cannot fit in a file of %zu bytes (truncated, or a wrong nr_basis)",
                 ps->nbasis, ps->len);
        TRY(expect(lx, "basis", 1));
        TRY(read_basis(lx, ps->nbasis, ps->d, ps->prm->kernel == NV_KERNEL_PRECOMPUTED, &ps->basis));
        TRY(expect(lx, "nr_submodel", 2));
    }
    char want_buf[64];
    const char *want_problem =
        nv_solver_problem(ps->solver, prm, want_buf, sizeof want_buf, NULL) == NESVM_OK ? want_buf : NULL;
    if (!want_problem || strcmp(ps->problem, want_problem) != 0)
        FAIL("problem '%.60s' does not match solver %s with svm_type %s (expected %s)", ps->problem,
             ps->solver->name, nv_svm_type(prm->svm_type)->word,
             want_problem ? want_problem : "none");
    if (lx->ntok != 2) FAIL("'nr_submodel' needs one value");
    const long long k = ps->k;
    /* one-vs-rest and the joint problems: one per class; one-vs-one: one per pair */
    const int argmax = k > 0 && nv_params_argmax(prm, (int)k);
    long long want = argmax ? k : k <= 2 ? 1 : k * (k - 1) / 2;
    if (!tok_int(lx->tok[1], 1, 1000000000, &ps->nsub) || ps->nsub != want)
        FAIL("nr_submodel is '%.40s', expected %lld for %lld classes (%s)", lx->tok[1], want, k,
             argmax && nv_params_joint(prm) ? (prm->multiclass == NV_CS ? "cs" : "multinomial")
             : argmax                       ? "ovr" : "ovo");
    /* every coefficient takes a line of at least two bytes, and every
     * sub-model three lines of at least 40 bytes together: a short file
     * cannot claim a huge model (no allocation before this check) */
    const double ncoef = (double)(prm->kernel ? ps->nbasis : ps->d);
    if ((double)ps->nsub * (ncoef * 2.0 + 40.0) > (double)ps->len)
        FAIL("%lld sub-models of %.0f coefficients cannot fit in a file of %zu bytes "
             "(truncated, or a wrong nr_feature/nr_basis)", ps->nsub, ncoef, ps->len);
    return NESVM_OK;
}

/* Sub-model s's 'submodel' line, 'b', the optional 'prob' and the 'w' or
 * 'beta' line; *want_pos and *want_neg are the classes it must have (the
 * order training writes), advanced to the next sub-model's. */
static nesvm_status read_submodel_head(parse_state *ps, int s, long long *want_pos, long long *want_neg)
{
    lexer *lx = &ps->lx;
    nesvm_model *m = ps->m;
    nv_submodel *sm = &m->sub[s];
    const long long k = ps->k;
    const int ovr = k > 0 && nv_params_argmax(m->params, (int)k); /* one-vs-rest or joint */
    TRY(expect(lx, "submodel", 14));
    long long idx, pos, neg, iv;
    if (!tok_int(lx->tok[1], 0, ps->nsub - 1, &idx) || idx != s)
        FAIL("submodel index '%.40s', expected %d", lx->tok[1], s);
    if (strcmp(lx->tok[2], "pos") || strcmp(lx->tok[4], "neg") || strcmp(lx->tok[6], "exit") ||
        strcmp(lx->tok[8], "iterations") || strcmp(lx->tok[10], "primal") || strcmp(lx->tok[12], "gap"))
        FAIL("malformed submodel line");
    if (!tok_int(lx->tok[3], k ? 0 : -1, k - 1, &pos) || !tok_int(lx->tok[5], -1, k - 1, &neg) || (k && pos == neg))
        FAIL("submodel %d: bad class indices pos %.20s neg %.20s", s, lx->tok[3], lx->tok[5]);
    if (k && (neg < 0) != ovr) FAIL("submodel %d: neg %lld does not fit the multiclass scheme", s, neg);
    if (pos != *want_pos || neg != *want_neg)
        FAIL("submodel %d: classes pos %lld neg %lld, expected pos %lld neg %lld (sub-models "
             "come in a fixed order)", s, pos, neg, *want_pos, *want_neg);
    if (ovr) {
        ++*want_pos;
    } else if (++*want_neg == k) {
        ++*want_pos;
        *want_neg = *want_pos + 1;
    }
    int ex = -1;
    for (int e = NESVM_EXIT_CONVERGED; e <= NESVM_EXIT_EPS_ABS; e++)
        if (strcmp(lx->tok[7], nesvm_exit_str((nesvm_exit)e)) == 0) ex = e;
    if (ex < 0) FAIL("submodel %d: unknown exit reason '%.40s'", s, lx->tok[7]);
    if (!tok_int(lx->tok[9], 0, INT64_MAX, &iv)) FAIL("submodel %d: bad iterations", s);
    sm->iterations = iv;
    if (!tok_double(lx->tok[11], &sm->primal) || !tok_double(lx->tok[13], &sm->gap))
        FAIL("submodel %d: bad primal or gap value", s);
    sm->pos = (int)pos;
    sm->neg = (int)neg;
    sm->exit_reason = (nesvm_exit)ex;
    TRY(expect(lx, "b", 2));
    if (!tok_double(lx->tok[1], &sm->b) || !isfinite(sm->b)) FAIL("submodel %d: bad bias '%.40s'", s, lx->tok[1]);
    /* an optional "nu_rho R" (nu-SVC: the margin, C = 1/R) or "nu_epsilon E"
     * (nu-SVR: the tube's half-width) line, then an optional "prob A B" line
     * (probability estimates): on every sub-model or none */
    const char *coefs = m->basis ? "beta" : "w";
    int r = next_line(lx);
    if (r <= 0) FAIL("expected '%s', found end of file", coefs);
    sm->nu_value = NAN;
    if (strcmp(lx->tok[0], "nu_rho") == 0 || strcmp(lx->tok[0], "nu_epsilon") == 0) {
        const int svc = strcmp(lx->tok[0], "nu_rho") == 0;
        if (m->params->svm_type != (svc ? NV_SVM_NUSVC : NV_SVM_NUSVR))
            FAIL("submodel %d: a '%s' line belongs to a %s model, not svm_type %s", s, lx->tok[0],
                 svc ? "nu-SVC" : "nu-SVR", nv_svm_type(m->params->svm_type)->word);
        if (lx->ntok != 2 || !tok_double(lx->tok[1], &sm->nu_value) || !isfinite(sm->nu_value) ||
            (svc && !(sm->nu_value > 0)))
            FAIL("submodel %d: bad '%s' line (expected one %s number)", s, lx->tok[0], svc ? "positive" : "finite");
        r = next_line(lx);
        if (r <= 0) FAIL("expected '%s', found end of file", coefs);
    }
    int has = strcmp(lx->tok[0], "prob") == 0;
    if (s == 0) m->has_prob = has;
    else if (has != m->has_prob)
        FAIL("submodel %d %s a 'prob' line and submodel 0 %s", s, has ? "has" : "lacks",
             has ? "does not" : "has one");
    if (has) {
        if (lx->ntok != 3 || !tok_double(lx->tok[1], &sm->prob_a) || !tok_double(lx->tok[2], &sm->prob_b) ||
            !isfinite(sm->prob_a) || !isfinite(sm->prob_b))
            FAIL("submodel %d: bad 'prob' line (expected two finite numbers A B)", s);
        r = next_line(lx);
        if (r <= 0) FAIL("expected '%s', found end of file", coefs);
    }
    if (strcmp(lx->tok[0], coefs) != 0 || lx->ntok != 1) FAIL("expected '%s', found '%.40s'", coefs, lx->tok[0]);
    return NESVM_OK;
}

/* Sub-model s's coefficients, one per line. */
static nesvm_status read_coefficients(parse_state *ps, int s)
{
    lexer *lx = &ps->lx;
    const nesvm_model *m = ps->m;
    double *w = m->sub[s].w, dv;
    for (int64_t j = 0; j < m->ncoef; j++) {
        int r = next_line(lx);
        if (r == 0)
            FAIL("submodel %d: file ends after %lld of %lld %s (truncated?)", s, (long long)j, (long long)m->ncoef,
                 m->basis ? "coefficients" : "weights");
        if (lx->ntok != 1)
            FAIL("submodel %d: %s %lld: expected one number per line, found %d", s,
                 m->basis ? "coefficient" : "weight", (long long)j + 1, lx->ntok);
        if (!tok_double(lx->tok[0], &dv) || !isfinite(dv))
            FAIL("submodel %d: %s %lld is not a finite number: '%.40s'", s, m->basis ? "coefficient" : "weight",
                 (long long)j + 1, lx->tok[0]);
        w[j] = dv;
    }
    return NESVM_OK;
}

/* The whole text: the parts in the file's order, the model built between the
 * shape check and the sub-models (nothing allocated by a claimed size before). */
static nesvm_status parse_sections(parse_state *ps)
{
    lexer *lx = &ps->lx;
    TRY(read_head(ps));
    TRY(read_params(ps));
    TRY(read_basis_and_shape(ps));
    const long long k = ps->k;
    TRY(nv_model_alloc((int)k, (int)ps->nsub, (int32_t)ps->d, ps->prm->kernel ? ps->nbasis : ps->d, &ps->m,
                       lx->err));
    nesvm_model *m = ps->m;
    m->basis = ps->basis;
    ps->basis = NULL;
    memcpy(m->labels, ps->labels, (size_t)k * sizeof(double));
    nesvm_params_destroy(m->params);
    m->params = ps->prm;
    ps->prm = NULL;
    snprintf(m->problem, sizeof m->problem, "%s", ps->problem);
    m->task = (nesvm_task)ps->task;
    /* the order training writes; the other tasks' one sub-model: pos -1 neg -1 */
    long long want_pos = k ? 0 : -1, want_neg = !k || nv_params_argmax(m->params, (int)k) ? -1 : 1;
    for (int s = 0; s < ps->nsub; s++) {
        TRY(read_submodel_head(ps, s, &want_pos, &want_neg));
        TRY(read_coefficients(ps, s));
    }
    TRY(expect(lx, "end", 1));
    if (next_line(lx) != 0) FAIL("unexpected content after 'end'");
    return NESVM_OK;
}

#undef FAIL
#undef TRY

/* Parse the model text buf[0..len) (consumed: nv_free'd here); `name` leads
 * the messages ("NAME:LINE: ..."). */
static nesvm_status parse_model(const char *name, char *buf, size_t len, nesvm_model **out, nesvm_error *err)
{
    parse_state ps;
    memset(&ps, 0, sizeof ps);
    ps.lx = (lexer){name, buf + nv_utf8_bom(buf, len), buf + len, 0, NULL, 0, 0, err};
    ps.len = len;
    nesvm_status st = parse_sections(&ps);
    if (st == NESVM_OK) {
        *out = ps.m;
        ps.m = NULL;
    }
    nesvm_dataset_destroy(ps.basis);
    nesvm_params_destroy(ps.prm);
    nesvm_model_destroy(ps.m);
    nv_free(ps.labels);
    nv_free(buf);
    nv_free(ps.lx.tok);
    return st;
}

nesvm_status nesvm_model_load(const char *path, nesvm_model **out, nesvm_error *err)
{
    if (!path || !out) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_load");
    *out = NULL;
    char *buf;
    size_t len;
    nesvm_status rst = nv_read_file(path, "model", &buf, &len, err);
    if (rst != NESVM_OK) return rst;
    return parse_model(path, buf, len, out, err);
}

nesvm_status nv_model_parse_owned(char *buf, size_t len, nesvm_model **out, nesvm_error *err)
{
    *out = NULL;
    return parse_model("<buffer>", buf, len, out, err);
}

nesvm_status nesvm_model_load_buffer(const char *data, size_t len, nesvm_model **out, nesvm_error *err)
{
    if (!data || !out) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_load_buffer");
    *out = NULL;
    char *buf = nv_malloc(len + 1);
    if (!buf) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the model text");
    memcpy(buf, data, len);
    buf[len] = '\0';
    return parse_model("<buffer>", buf, len, out, err);
}
