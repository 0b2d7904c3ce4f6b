/* interop.c - models to and from LIBSVM (svm-predict, svm-train) and
 * LIBLINEAR (predict, train) model files.
 *
 * Export: a nesvm model as the other tool's file, where the model is
 * representable there.
 *
 *   libsvm     kernel models, binary or one-vs-one.  decision_p(x) =
 *              sum_j coef_pj K(sv_j, x) - rho_p with rho_p = -b_p, the pairs in
 *              the same order ((0,1), (0,2), ..., positive for the first class),
 *              the labels in model order.  LIBSVM counts a support vector in
 *              the pairs of its own class only, so each basis vector must have
 *              non-zero coefficients in the pairs of one class only (true of the
 *              full kernel and GS-SVM, whose basis vectors are training rows;
 *              not of a reduced basis in a multiclass model): it is written in
 *              that class, with its coefficient of pair (c, d) in LIBSVM's row
 *              d - 1 (d > c) or d (d < c).
 *   liblinear  linear models, binary or one-vs-rest: w in nr_feature rows of
 *              one column per sub-model (one for binary), and the bias as
 *              LIBLINEAR's bias feature: of value B and weight b / B for a
 *              regularized bias feature B, of value 1 and weight b for a free
 *              bias, none without a bias.
 */
#include "model_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void num(FILE *f, double v)
{
    char buf[32];
    nv_format_double(v, buf);
    fputs(buf, f);
}

static nesvm_status export_libsvm(const nesvm_model *m, FILE *f, nesvm_error *err)
{
    const nesvm_dataset *B = nesvm_model_basis(m);
    if (!B) return nv_error(err, NESVM_ERR_UNSUPPORTED, "a linear model has no support vectors for LIBSVM: use --format liblinear");
    if (strcmp(nesvm_model_multiclass(m), "ovr") == 0 && nesvm_model_classes(m) > 2)
        return nv_error(err, NESVM_ERR_UNSUPPORTED, "LIBSVM's models are one-vs-one: a one-vs-rest model cannot be written for it");
    const int k = nesvm_model_classes(m), ns = nesvm_model_submodels(m);
    int64_t nb = nesvm_dataset_rows(B);
    const nesvm_params *p = nesvm_model_params(m);
    char kern[16], g[64], d[64], r[64];
    nesvm_params_get(p, "kernel", kern, sizeof kern, NULL);
    nesvm_params_get(p, "gamma", g, sizeof g, NULL);
    nesvm_params_get(p, "degree", d, sizeof d, NULL);
    nesvm_params_get(p, "coef0", r, sizeof r, NULL);
    /* each basis vector's class: the one class common to the pairs where it is non-zero */
    int *cls = malloc(sizeof(int) * (size_t)(nb ? nb : 1));
    double *coef = calloc((size_t)(k - 1) * (size_t)(nb ? nb : 1), sizeof(double));
    double *rho = malloc(sizeof(double) * (size_t)ns);
    nesvm_status rc = NESVM_OK;
    if (!cls || !coef || !rho) {
        rc = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int64_t j = 0; j < nb; j++) cls[j] = -1;
    for (int s = 0; s < ns && rc == NESVM_OK; s++) {
        const double *beta;
        int64_t n;
        double b;
        int pos, neg;
        nesvm_model_expansion(m, s, &beta, &n, &b, &pos, &neg, NULL);
        rho[s] = -b;
        for (int64_t j = 0; j < nb; j++) {
            if (beta[j] == 0) continue;
            if (k == 2) {
                cls[j] = beta[j] > 0 ? pos : neg;
                continue;
            }
            int c = cls[j];
            if (c == -1) {
                /* the first pair: either class for now, settled by another pair or the sign */
                cls[j] = -2 - (pos * k + neg);
            } else if (c <= -2) {
                int pp = (-2 - c) / k, pn = (-2 - c) % k;
                int common = pp == pos || pp == neg ? pp : pn == pos || pn == neg ? pn : -1;
                if (common < 0) {
                    rc = nv_error(err, NESVM_ERR_UNSUPPORTED, "basis vector %lld serves pairs (%d, %d) and (%d, %d), of no common class: "
                                        "LIBSVM counts a support vector in its own class's pairs only (a reduced "
                                        "basis with more than two classes cannot be written for it)",
                                   (long long)j + 1, pp, pn, pos, neg);
                    break;
                }
                cls[j] = common;
            } else if (c != pos && c != neg) {
                rc = nv_error(err, NESVM_ERR_UNSUPPORTED, "basis vector %lld serves a pair without its class %d: LIBSVM counts a support "
                                    "vector in its own class's pairs only (a reduced basis with more than two "
                                    "classes cannot be written for it)",
                               (long long)j + 1, c);
                break;
            }
        }
    }
    if (rc != NESVM_OK) goto done;
    /* vectors seen in one pair only: their class by the sign (positive: the pair's first) */
    for (int s = 0; s < ns && k > 2; s++) {
        const double *beta;
        int64_t n;
        int pos, neg;
        nesvm_model_expansion(m, s, &beta, &n, NULL, &pos, &neg, NULL);
        for (int64_t j = 0; j < nb; j++)
            if (cls[j] == -2 - (pos * k + neg)) cls[j] = beta[j] > 0 ? pos : neg;
    }
    /* the coefficients in LIBSVM's layout */
    for (int s = 0; s < ns; s++) {
        const double *beta;
        int64_t n;
        int pos, neg;
        nesvm_model_expansion(m, s, &beta, &n, NULL, &pos, &neg, NULL);
        for (int64_t j = 0; j < nb; j++) {
            if (beta[j] == 0 || cls[j] < 0) continue;
            int c = cls[j], other = c == pos ? neg : pos;
            if (k == 2) other = 1 - c;
            int row = other > c ? other - 1 : other;
            coef[(size_t)row * (size_t)nb + (size_t)j] = beta[j];
        }
    }
    int64_t total = 0;
    int64_t *count = calloc((size_t)k, sizeof(int64_t));
    if (!count) {
        rc = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int64_t j = 0; j < nb; j++)
        if (cls[j] >= 0) {
            count[cls[j]]++;
            total++;
        }
    fprintf(f, "svm_type c_svc\nkernel_type %s\n", strcmp(kern, "poly") == 0 ? "polynomial" : kern);
    if (strcmp(kern, "poly") == 0) fprintf(f, "degree %s\n", d);
    fprintf(f, "gamma %s\n", g);
    if (strcmp(kern, "poly") == 0 || strcmp(kern, "sigmoid") == 0) fprintf(f, "coef0 %s\n", r);
    fprintf(f, "nr_class %d\ntotal_sv %lld\nrho", k, (long long)total);
    for (int s = 0; s < ns; s++) {
        fputc(' ', f);
        num(f, rho[s]);
    }
    fputs("\nlabel", f);
    for (int c = 0; c < k; c++) {
        fputc(' ', f);
        num(f, nesvm_model_labels(m)[c]);
    }
    if (nesvm_model_has_probability(m))
        for (int t = 0; t < 2; t++) { /* svm-predict -b 1: the same sigmoids, pair by pair */
            fputs(t == 0 ? "\nprobA" : "\nprobB", f);
            for (int s = 0; s < ns; s++) {
                double pA, pB;
                nesvm_model_probability(m, s, &pA, &pB, NULL);
                fputc(' ', f);
                num(f, t == 0 ? pA : pB);
            }
        }
    fputs("\nnr_sv", f);
    for (int c = 0; c < k; c++) fprintf(f, " %lld", (long long)count[c]);
    fputs("\nSV\n", f);
    const int64_t *ip = nesvm_dataset_indptr(B);
    const int32_t *ix = nesvm_dataset_indices(B);
    const double *vx = nesvm_dataset_values(B);
    for (int c = 0; c < k; c++)
        for (int64_t j = 0; j < nb; j++) {
            if (cls[j] != c) continue;
            for (int row = 0; row < k - 1; row++) {
                num(f, coef[(size_t)row * (size_t)nb + (size_t)j]);
                fputc(' ', f);
            }
            for (int64_t q = ip[j]; q < ip[j + 1]; q++) {
                fprintf(f, "%d:", ix[q] + 1);
                num(f, vx[q]);
                fputc(' ', f);
            }
            fputc('\n', f);
        }
    free(count);
done:
    free(cls);
    free(coef);
    free(rho);
    return rc;
}

static nesvm_status export_liblinear(const nesvm_model *m, FILE *f, nesvm_error *err)
{
    if (nesvm_model_basis(m))
        return nv_error(err, NESVM_ERR_UNSUPPORTED, "a %s-kernel model cannot be written for LIBLINEAR (linear models only): use --format "
                              "libsvm", nesvm_model_kernel(m));
    const int k = nesvm_model_classes(m), ns = nesvm_model_submodels(m);
    if (k > 2 && strcmp(nesvm_model_multiclass(m), "ovr") != 0)
        return nv_error(err, NESVM_ERR_UNSUPPORTED, "LIBLINEAR's multiclass models are one-vs-rest: train with --multiclass ovr to export "
                              "a model of %d classes", k);
    const int32_t d = nesvm_model_features(m);
    const char *solver = strcmp(nesvm_model_problem(m), "c_svm_squared_hinge_l2_regularized_bias") == 0
                             ? "L2R_L2LOSS_SVC"
                             : "L2R_L1LOSS_SVC_DUAL";
    fprintf(f, "solver_type %s\nnr_class %d\nlabel", solver, k);
    for (int c = 0; c < k; c++) {
        fputc(' ', f);
        num(f, nesvm_model_labels(m)[c]);
    }
    /* the bias: none when the model has none (param bias <= 0); LIBLINEAR's
     * feature of value B with weight b / B for a regularized bias feature B
     * (hyperpass, pegasos, ssvm, nssvm), of value 1 with weight b for a free
     * bias (nesvm) */
    char bv[64];
    double B = 1;
    nesvm_params_get(nesvm_model_params(m), "bias", bv, sizeof bv, NULL);
    nv_parse_finite(bv, &B);
    const int has_bias = B > 0;
    if (strstr(nesvm_model_problem(m), "regularized_bias") == NULL) B = 1;
    fputs("\nnr_feature ", f);
    fprintf(f, "%d\nbias ", d);
    num(f, has_bias ? B : -1);
    fputs("\nw\n", f);
    /* the columns in label order: one-vs-rest sub-model c is class c's */
    for (int32_t j = 0; j < d + has_bias; j++) {
        for (int c = 0; c < (k == 2 ? 1 : k); c++) {
            int s = 0;
            for (; s < ns; s++) {
                int pos;
                nesvm_model_linear(m, s, NULL, NULL, &pos, NULL, NULL);
                if (k == 2 || pos == c) break;
            }
            const double *ws;
            double b;
            int pos;
            nesvm_model_linear(m, s, &ws, &b, &pos, NULL, NULL);
            /* binary: LIBLINEAR's one column is positive for label[0] */
            double sign = k == 2 && pos != 0 ? -1 : 1;
            num(f, sign * (j < d ? ws[j] : b / B));
            fputc(' ', f);
        }
        fputc('\n', f);
    }
    return NESVM_OK;
}


nesvm_status nesvm_model_export(const nesvm_model *m, const char *format, const char *path, nesvm_error *err)
{
    if (!m || !format || !path) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_export");
    const int libsvm = strcmp(format, "libsvm") == 0;
    if (!libsvm && strcmp(format, "liblinear") != 0)
        return nv_error(err, NESVM_ERR_ARG, "unknown model format '%s' (expected libsvm or liblinear)", format);
    if (m->task != NESVM_TASK_CLASSIFICATION)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "a %s model cannot be written for LIBSVM or LIBLINEAR: "
                        "nesvm exports classifiers",
                        nesvm_task_str(m->task));
    nv_atomic_file af;
    nesvm_status st = nv_atomic_open(&af, path, err);
    if (st != NESVM_OK) return st;
    st = libsvm ? export_libsvm(m, af.fp, err) : export_liblinear(m, af.fp, err);
    if (st == NESVM_OK) st = nv_atomic_commit(&af, err);
    else nv_atomic_abort(&af);
    return st;
}

/* ---- import
 *
 * The other tool's file is read line by line into a nesvm model file's text
 * (model_io.c's format), which nesvm_model_load_buffer then reads and checks
 * as it checks every model file.
 *
 *   libsvm     svm_type c_svc (svm-train -s 0), any kernel but precomputed:
 *              solver nesvm, problem c_svm_hinge_l2 (LIBSVM's C-SVC problem);
 *              pair p = (i, j), i < j in label order, is sub-model p with pos
 *              i, neg j, b = -rho_p, and the coefficients of class i's support
 *              vectors from column j - 1 and class j's from column i (0 for
 *              the others); the linear kernel becomes w = sum beta_j sv_j;
 *              probA/probB become each sub-model's sigmoid.
 *   liblinear  solver_type L2R_L2LOSS_SVC_DUAL, L2R_L2LOSS_SVC (-s 1, 2):
 *              nssvm's problem, the squared hinge with a regularized bias;
 *              L2R_L1LOSS_SVC_DUAL (-s 3): hyperpass's, the hinge with a
 *              regularized bias.  Binary: one sub-model, pos label[0];
 *              more classes: one-vs-rest, column c is class c against the
 *              rest.  With bias B >= 0, the bias feature's weight w_B gives
 *              b = B w_B and param bias B; with bias < 0, no bias.
 *
 * C is not in either file: the model says c 1 (give -c when training from it).
 */

typedef struct imp_reader {
    FILE *f;
    const char *path;
    char *line;
    size_t cap;
    int64_t lineno;
    char **tok;  /* the line's tokens (grown as needed) */
    int ntok, tcap;
    int more;    /* tok could not grow to the line's tokens (out of memory) */
    int pending; /* the current line is to be read again */
    double size; /* the file's bytes: what its counts can claim */
} imp_reader;

/* The next line split at blanks: 1, 0 at the end of the file, -1 out of
 * memory (the line's tokens could not be held). */
static int imp_next(imp_reader *r)
{
    if (r->pending) {
        r->pending = 0;
        return 1;
    }
    ssize_t len = getline(&r->line, &r->cap, r->f);
    if (len < 0) return 0;
    r->lineno++;
    r->ntok = 0;
    r->more = 0;
    char *save = NULL;
    char *start = r->line + (r->lineno == 1 ? nv_utf8_bom(r->line, (size_t)len) : 0);
    for (char *t = strtok_r(start, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (r->ntok == r->tcap) {
            int cap = r->tcap ? 2 * r->tcap : 256;
            char **tk = cap < INT32_MAX / 2 ? nv_realloc_array(r->tok, (size_t)cap, sizeof(char *)) : NULL;
            if (!tk) {
                r->more = 1;
                return -1;
            }
            r->tok = tk;
            r->tcap = cap;
        }
        r->tok[r->ntok++] = t;
    }
    return 1;
}

#define FAIL(...) (nv_error(err, NESVM_ERR_MODEL, __VA_ARGS__), nv_error_prefix(err, "%s:%lld", r->path, (long long)r->lineno))

/* The memory of a translated model, refused (with a message naming the file)
 * by the rules training follows (train.c's check_sizes): a linear kernel's
 * dense weight vector by the largest feature index, when the support vectors
 * hold few values (nv_dense_too_large), and the whole model with its text
 * beyond the machine's memory.  nsub sub-models of ncoef coefficients; nnz
 * and nsv: the support vectors' values and count (a LIBSVM model). */
static nesvm_status imp_budget(const imp_reader *r, int lin, int32_t d, int64_t nnz, int64_t nsv, int k, int64_t nsub,
                               int64_t ncoef, nesvm_error *err)
{
    const double mb = 1048576.0;
    if (lin && nv_dense_too_large(8.0 * (double)d, nnz, nsv)) {
        nv_error(err, NESVM_ERR_MODEL,
                 "the largest feature index is %d but the support vectors hold only %lld values: a linear-kernel "
                 "model becomes a dense weight vector over %d features (%.0f MB) for each pair of classes; "
                 "renumber the features to the ones used",
                 d, (long long)nnz, d, 8.0 * (double)d / mb);
        return nv_error_prefix(err, "%s", r->path);
    }
    /* 8 bytes a coefficient in the model, up to 25 in its text (which the loader reads) */
    const double need = (double)nsub * ((double)ncoef + 1.0) * (8.0 + 25.0), phys = nv_physical_memory();
    if (phys > 0 && need > phys) {
        nv_error(err, NESVM_ERR_MODEL,
                 "%d classes make %lld %s model%s of %lld coefficients: %.1f GB with the text it is read from, "
                 "more than this machine's %.1f GB",
                 k, (long long)nsub, k == 2 ? "binary" : nsub == k ? "one-vs-rest" : "one-vs-one", nsub == 1 ? "" : "s",
                 (long long)ncoef, need / (1024 * mb), phys / (1024 * mb));
        return nv_error_prefix(err, "%s", r->path);
    }
    return NESVM_OK;
}

/* The next non-empty header line: 1, or 0 at the line `end` that closes the
 * header, or -1 (the file ends first: *st says so). */
static int imp_header(imp_reader *r, const char *end, nesvm_status *st, nesvm_error *err)
{
    for (;;) {
        int got = imp_next(r);
        if (got <= 0) {
            *st = got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                          : FAIL("the file ends before '%s' (truncated?)", end);
            return -1;
        }
        if (r->ntok > 0) return strcmp(r->tok[0], end) != 0;
    }
}

/* n numbers from tokens 1..n of the line into out */
static nesvm_status imp_numbers(imp_reader *r, int64_t n, double *out, nesvm_error *err)
{
    if (r->more) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (r->ntok != n + 1)
        return FAIL("'%s' needs %lld value%s, found %d", r->tok[0], (long long)n, n == 1 ? "" : "s", r->ntok - 1);
    for (int64_t i = 0; i < n; i++)
        if (!nv_parse_finite(r->tok[i + 1], &out[i]))
            return FAIL("'%s': '%.40s' is not a finite number", r->tok[0], r->tok[i + 1]);
    return NESVM_OK;
}

/* nr_class's value into *k (once; 2 to 65535). */
static nesvm_status imp_nr_class(imp_reader *r, int *k, nesvm_error *err)
{
    double v;
    nesvm_status st = imp_numbers(r, 1, &v, err);
    if (st != NESVM_OK) return st;
    if (*k || v < 2 || v > 65535 || v != floor(v))
        return FAIL("nr_class %.40s: expected one value from 2 to 65535", r->tok[1]);
    *k = (int)v;
    return NESVM_OK;
}

/* The k labels of a 'label' line, each once. */
static nesvm_status imp_labels(imp_reader *r, int k, double *label, nesvm_error *err)
{
    nesvm_status st = imp_numbers(r, k, label, err);
    for (int c = 0; st == NESVM_OK && c < k; c++)
        for (int e = 0; e < c; e++)
            if (label[e] == label[c]) return FAIL("label '%.40s' appears twice", r->tok[c + 1]);
    return st;
}

/* A growable text buffer: the nesvm model file being written. */
typedef struct imp_text {
    char *s;
    size_t len, cap;
    int oom;
} imp_text;

/* Room for `more` bytes and a NUL after t->len (0 and t->oom set when there
 * is none). */
static int reserve(imp_text *t, size_t more)
{
    if (t->oom) return 0;
    if (t->s && t->len + more < t->cap) return 1;
    size_t cap = t->cap ? t->cap * 2 : 4096;
    while (cap <= t->len + more) cap *= 2;
    char *s = nv_realloc_array(t->s, cap, 1);
    if (!s) {
        t->oom = 1;
        return 0;
    }
    t->s = s;
    t->cap = cap;
    return 1;
}

static void put(imp_text *t, const char *fmt, ...) NV_PRINTF(2, 3);
static void put(imp_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) t->oom = 1;
    if (n < 0 || !reserve(t, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* A number and a separator, appended without printf (a weight vector can
 * have millions). */
static void put_num_sep(imp_text *t, double v, char sep)
{
    if (!reserve(t, 34)) return;
    t->len += (size_t)nv_format_double(v, t->s + t->len);
    if (sep) t->s[t->len++] = sep;
    t->s[t->len] = '\0';
}

static void put_num(imp_text *t, double v) { put_num_sep(t, v, 0); }

static void put_header(imp_text *t, const char *solver, const char *problem, const char *kernel, int ovr, int k,
                       const double *labels, int32_t d)
{
    put(t, "nesvm_model 1\nsolver %s\nproblem %s\nkernel %s\nmulticlass %s\nnr_class %d\nlabels", solver, problem,
        kernel, ovr ? "ovr" : "ovo", k);
    for (int c = 0; c < k; c++) {
        put(t, " ");
        put_num(t, labels[c]);
    }
    put(t, "\nnr_feature %d\nparam svm_type c\nparam c 1\n", (int)d);
}

static void put_submodel(imp_text *t, int s, int pos, int neg, double b, const double *prob, const char *what,
                         const double *w, int64_t n)
{
    put(t, "submodel %d pos %d neg %d exit converged iterations 0 primal nan gap nan\nb ", s, pos, neg);
    put_num(t, b);
    if (prob) {
        put(t, "\nprob ");
        put_num(t, prob[0]);
        put(t, " ");
        put_num(t, prob[1]);
    }
    put(t, "\n%s\n", what);
    for (int64_t j = 0; j < n; j++) put_num_sep(t, w[j], '\n');
}

/* A support vector's "idx:val" tokens (from token `from`) into the CSR arrays. */
typedef struct imp_svs {
    int64_t n, nnz, cap_rows, cap_nnz;
    int64_t *ptr;
    int32_t *idx;
    double *val;
    int32_t d;
} imp_svs;

static nesvm_status imp_sv(imp_reader *r, int from, imp_svs *sv, nesvm_error *err)
{
    if (r->more) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (sv->n + 2 > sv->cap_rows) {
        int64_t cap = sv->cap_rows ? 2 * sv->cap_rows : 256;
        int64_t *p = nv_realloc_array(sv->ptr, (size_t)cap, sizeof(int64_t));
        if (!p) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        sv->ptr = p;
        sv->cap_rows = cap;
    }
    if (sv->n == 0) sv->ptr[0] = 0;
    int64_t need = sv->nnz + (r->ntok - from);
    if (need > sv->cap_nnz) {
        int64_t cap = sv->cap_nnz ? 2 * sv->cap_nnz : 4096;
        while (cap < need) cap *= 2;
        int32_t *i = nv_realloc_array(sv->idx, (size_t)cap, sizeof(int32_t));
        if (!i) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        sv->idx = i;
        double *v = nv_realloc_array(sv->val, (size_t)cap, sizeof(double));
        if (!v) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        sv->val = v;
        sv->cap_nnz = cap;
    }
    int64_t last = 0;
    for (int t = from; t < r->ntok; t++) {
        char *colon = strchr(r->tok[t], ':');
        int64_t ix;
        double v;
        if (!colon) return FAIL("expected INDEX:VALUE, found '%.40s'", r->tok[t]);
        *colon = '\0';
        if (!nv_parse_int64(r->tok[t], &ix) || ix < 1 || ix > INT32_MAX - 1)
            return FAIL("bad feature index '%.40s' (expected 1 to %d)", r->tok[t], INT32_MAX - 1);
        if (ix <= last) return FAIL("feature indices not ascending (%lld after %lld)", (long long)ix, (long long)last);
        if (!nv_parse_finite(colon + 1, &v)) return FAIL("feature %lld: '%.40s' is not a finite number", (long long)ix, colon + 1);
        last = ix;
        sv->idx[sv->nnz] = (int32_t)(ix - 1);
        sv->val[sv->nnz++] = v;
        if ((int32_t)ix > sv->d) sv->d = (int32_t)ix;
    }
    sv->ptr[++sv->n] = sv->nnz;
    return NESVM_OK;
}

static nesvm_status import_libsvm(imp_reader *r, imp_text *t, nesvm_error *err)
{
    static const char *const kernels[][2] = {
        {"linear", "linear"}, {"polynomial", "poly"}, {"rbf", "rbf"}, {"sigmoid", "sigmoid"}};
    const char *kernel = NULL;
    double gamma = 0, degree = 3, coef0 = 0, v; /* degree, coef0: nesvm's defaults where the kernel has none */
    int have_gamma = 0, have_degree = 0, have_coef0 = 0;
    int k = 0, have_rho = 0, have_label = 0, have_nsv = 0, have_pa = 0, have_pb = 0;
    int64_t total = -1;
    double *rho = NULL, *label = NULL, *pa = NULL, *pb = NULL, *coef = NULL, *w = NULL;
    int64_t *nsv = NULL;
    int *svclass = NULL;
    imp_svs sv;
    memset(&sv, 0, sizeof sv);
    nesvm_status st = NESVM_OK;
    int64_t npair = 0;
#define NEED_K()                                                                                                \
    do {                                                                                                        \
        if (k == 0) {                                                                                           \
            st = FAIL("'%s' before 'nr_class'", r->tok[0]);                                                    \
            goto done;                                                                                          \
        }                                                                                                       \
    } while (0)
    int more;
    while ((more = imp_header(r, "SV", &st, err)) > 0) {
        const char *key = r->tok[0];
        if (strcmp(key, "svm_type") == 0) {
            if (r->ntok != 2 || strcmp(r->tok[1], "c_svc") != 0) {
                st = FAIL("svm_type %.40s: nesvm imports C-SVC models (svm-train -s 0) only", r->ntok > 1 ? r->tok[1] : "");
                goto done;
            }
        } else if (strcmp(key, "kernel_type") == 0) {
            for (int i = 0; r->ntok == 2 && i < 4; i++)
                if (strcmp(r->tok[1], kernels[i][0]) == 0) kernel = kernels[i][1];
            if (!kernel) {
                st = FAIL("kernel_type %.40s: nesvm has linear, polynomial, rbf and sigmoid kernels (not "
                           "precomputed)", r->ntok > 1 ? r->tok[1] : "");
                goto done;
            }
        } else if (strcmp(key, "gamma") == 0 || strcmp(key, "degree") == 0 || strcmp(key, "coef0") == 0) {
            if ((st = imp_numbers(r, 1, &v, err)) != NESVM_OK) goto done;
            if (key[0] == 'g') gamma = v, have_gamma = 1;
            else if (key[0] == 'd') degree = v, have_degree = 1;
            else coef0 = v, have_coef0 = 1;
        } else if (strcmp(key, "nr_class") == 0) {
            if ((st = imp_nr_class(r, &k, err)) != NESVM_OK) goto done;
            npair = (int64_t)k * (k - 1) / 2;
            if ((double)npair * 2.0 > r->size) { /* rho's values: a number and a blank each */
                st = FAIL("nr_class %d needs %lld rho values (one per pair of classes), more than a file of %.0f "
                          "bytes holds (a wrong nr_class?)", k, (long long)npair, r->size);
                goto done;
            }
            rho = nv_malloc_array((size_t)npair, sizeof(double));
            pa = nv_malloc_array((size_t)npair, sizeof(double));
            pb = nv_malloc_array((size_t)npair, sizeof(double));
            label = nv_malloc_array((size_t)k, sizeof(double));
            nsv = nv_malloc_array((size_t)k, sizeof(int64_t));
            if (!rho || !pa || !pb || !label || !nsv) {
                st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
                goto done;
            }
        } else if (strcmp(key, "total_sv") == 0) {
            if ((st = imp_numbers(r, 1, &v, err)) != NESVM_OK) goto done;
            if (v < 1 || v > 1e12 || v != floor(v)) {
                st = FAIL("total_sv %.40s: expected a positive integer", r->tok[1]);
                goto done;
            }
            total = (int64_t)v;
        } else if (strcmp(key, "rho") == 0 || strcmp(key, "probA") == 0 || strcmp(key, "probB") == 0) {
            NEED_K();
            double *dst = key[0] == 'r' ? rho : key[4] == 'A' ? pa : pb;
            if ((st = imp_numbers(r, npair, dst, err)) != NESVM_OK) goto done;
            if (key[0] == 'r') have_rho = 1;
            else if (key[4] == 'A') have_pa = 1;
            else have_pb = 1;
        } else if (strcmp(key, "label") == 0) {
            NEED_K();
            if ((st = imp_labels(r, k, label, err)) != NESVM_OK) goto done;
            have_label = 1;
        } else if (strcmp(key, "nr_sv") == 0) {
            NEED_K();
            double *tmp = nv_malloc_array((size_t)k, sizeof(double));
            if (!tmp) {
                st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
                goto done;
            }
            st = imp_numbers(r, k, tmp, err);
            for (int c = 0; st == NESVM_OK && c < k; c++) {
                if (tmp[c] < 0 || tmp[c] > 1e12 || tmp[c] != floor(tmp[c]))
                    st = FAIL("nr_sv: '%.40s' is not a count", r->tok[c + 1]);
                else
                    nsv[c] = (int64_t)tmp[c];
            }
            nv_free(tmp);
            if (st != NESVM_OK) goto done;
            have_nsv = 1;
        } else {
            st = FAIL("unknown line '%.40s' in a LIBSVM model header", key);
            goto done;
        }
    }
    if (more < 0) goto done;
    if (!kernel || !k || total < 0 || !have_rho || !have_label || !have_nsv) {
        st = FAIL("the header lacks %s", !kernel ? "kernel_type" : !k ? "nr_class" : total < 0 ? "total_sv"
                                           : !have_rho ? "rho" : !have_label ? "label" : "nr_sv");
        goto done;
    }
    /* the lines svm-train writes for each kernel (no defaults: a model
     * without one is not the model that was trained) */
    {
        const int poly = strcmp(kernel, "poly") == 0, lin = strcmp(kernel, "linear") == 0;
        const char *missing = !lin && !have_gamma                                     ? "gamma"
                              : poly && !have_degree                                  ? "degree"
                              : (poly || strcmp(kernel, "sigmoid") == 0) && !have_coef0 ? "coef0"
                                                                                      : NULL;
        if (missing) {
            st = FAIL("the header lacks '%s', which a LIBSVM %s-kernel model needs (svm-train writes %s)", missing,
                      poly ? "polynomial" : kernel,
                      poly ? "degree, gamma and coef0" : strcmp(kernel, "rbf") == 0 ? "gamma" : "gamma and coef0");
            goto done;
        }
    }
    if (have_pa != have_pb) {
        st = FAIL("the header has %s without %s", have_pa ? "probA" : "probB", have_pa ? "probB" : "probA");
        goto done;
    }
    int64_t sum = 0;
    for (int c = 0; c < k; c++) sum += nsv[c];
    if (sum != total) {
        st = FAIL("nr_sv sums to %lld, total_sv is %lld", (long long)sum, (long long)total);
        goto done;
    }
    if ((double)total * 2.0 * (k - 1) > r->size) { /* k - 1 coefficients and blanks a support vector */
        st = FAIL("total_sv %lld: as many support vectors of %d coefficient%s cannot fit in a file of %.0f bytes "
                  "(truncated, or a wrong total_sv)", (long long)total, k - 1, k == 2 ? "" : "s", r->size);
        goto done;
    }
    coef = nv_malloc_array((size_t)total * (size_t)(k - 1), sizeof(double));
    svclass = nv_malloc_array((size_t)total, sizeof(int));
    if (!coef || !svclass) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int c = 0, j = 0; c < k; c++)
        for (int64_t q = 0; q < nsv[c]; q++) svclass[j++] = c;
    for (int64_t j = 0; j < total; j++) {
        int got = imp_next(r);
        if (got <= 0) {
            st = got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                         : FAIL("the file ends after %lld of %lld support vectors (truncated?)", (long long)j,
                                (long long)total);
            goto done;
        }
        if (r->ntok < k - 1) {
            st = FAIL("support vector %lld: expected %d coefficients before its entries", (long long)j + 1, k - 1);
            goto done;
        }
        for (int c = 0; c < k - 1; c++)
            if (!nv_parse_finite(r->tok[c], &coef[(size_t)j * (size_t)(k - 1) + (size_t)c])) {
                st = FAIL("support vector %lld: coefficient '%.40s' is not a finite number", (long long)j + 1, r->tok[c]);
                goto done;
            }
        if ((st = imp_sv(r, k - 1, &sv, err)) != NESVM_OK) goto done;
    }
    for (int got; (got = imp_next(r)) != 0;)
        if (got < 0 || r->ntok) {
            st = got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                         : FAIL("more lines after the %lld support vectors", (long long)total);
            goto done;
        }
    /* the nesvm model: pairs in LIBSVM's order */
    const int lin = strcmp(kernel, "linear") == 0;
    if ((st = imp_budget(r, lin, sv.d, sv.nnz, total, k, npair, lin ? sv.d : total, err)) != NESVM_OK) goto done;
    put_header(t, "nesvm", "c_svm_hinge_l2", kernel, 0, k, label, sv.d);
    if (!lin) {
        put(t, "param gamma ");
        put_num(t, gamma);
        put(t, "\nparam degree ");
        put_num(t, degree);
        put(t, "\nparam coef0 ");
        put_num(t, coef0);
        put(t, "\n");
    }
    put(t, "param probability %d\n", have_pa);
    if (!lin) {
        put(t, "nr_basis %lld\nbasis\n", (long long)total);
        for (int64_t j = 0; j < total; j++) {
            put(t, "sv");
            for (int64_t q = sv.ptr[j]; q < sv.ptr[j + 1]; q++) {
                put(t, " %d:", sv.idx[q] + 1);
                put_num(t, sv.val[q]);
            }
            put(t, "\n");
        }
    }
    const int64_t nw = lin ? sv.d : total;
    w = nv_malloc_array((size_t)(nw ? nw : 1), sizeof(double));
    double *beta = nv_malloc_array((size_t)total, sizeof(double));
    if (!w || !beta) {
        nv_free(beta);
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    put(t, "nr_submodel %lld\n", (long long)npair);
    for (int i = 0, p = 0; i < k; i++)
        for (int j = i + 1; j < k; j++, p++) {
            for (int64_t q = 0; q < total; q++) {
                int c = svclass[q];
                beta[q] = c == i ? coef[(size_t)q * (size_t)(k - 1) + (size_t)(j - 1)]
                          : c == j ? coef[(size_t)q * (size_t)(k - 1) + (size_t)i]
                                   : 0.0;
            }
            if (lin) {
                for (int64_t e = 0; e < nw; e++) w[e] = 0;
                for (int64_t q = 0; q < total; q++)
                    for (int64_t e = sv.ptr[q]; beta[q] != 0 && e < sv.ptr[q + 1]; e++)
                        w[sv.idx[e]] += beta[q] * sv.val[e];
            }
            double prob[2] = {have_pa ? pa[p] : 0, have_pa ? pb[p] : 0};
            put_submodel(t, p, i, j, -rho[p], have_pa ? prob : NULL, lin ? "w" : "beta", lin ? w : beta, nw);
        }
    nv_free(beta);
    put(t, "end\n");
done:
#undef NEED_K
    nv_free(rho);
    nv_free(label);
    nv_free(pa);
    nv_free(pb);
    nv_free(nsv);
    nv_free(coef);
    nv_free(svclass);
    nv_free(w);
    nv_free(sv.ptr);
    nv_free(sv.idx);
    nv_free(sv.val);
    return st;
}

static nesvm_status import_liblinear(imp_reader *r, imp_text *t, nesvm_error *err)
{
    const char *solver = NULL, *problem = NULL;
    int k = 0, have_label = 0;
    int64_t d = -1;
    double bias = -2, v, *label = NULL, *w = NULL, *col = NULL;
    nesvm_status st = NESVM_OK;
    int more;
    while ((more = imp_header(r, "w", &st, err)) > 0) {
        const char *key = r->tok[0];
        if (strcmp(key, "solver_type") == 0) {
            if (r->ntok == 2 && (strcmp(r->tok[1], "L2R_L2LOSS_SVC_DUAL") == 0 || strcmp(r->tok[1], "L2R_L2LOSS_SVC") == 0)) {
                solver = "nssvm";
                problem = "c_svm_squared_hinge_l2_regularized_bias";
            } else if (r->ntok == 2 && strcmp(r->tok[1], "L2R_L1LOSS_SVC_DUAL") == 0) {
                solver = "hyperpass";
                problem = "c_svm_hinge_l2_regularized_bias";
            } else {
                st = FAIL("solver_type %.40s: nesvm imports LIBLINEAR's L2-regularized SVMs (-s 1, 2, 3: "
                           "L2R_L2LOSS_SVC_DUAL, L2R_L2LOSS_SVC, L2R_L1LOSS_SVC_DUAL) only",
                           r->ntok > 1 ? r->tok[1] : "");
                goto done;
            }
        } else if (strcmp(key, "nr_class") == 0) {
            if ((st = imp_nr_class(r, &k, err)) != NESVM_OK) goto done;
            if (!(label = nv_malloc_array((size_t)k, sizeof(double)))) {
                st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
                goto done;
            }
        } else if (strcmp(key, "label") == 0) {
            if (!k) {
                st = FAIL("'label' before 'nr_class'");
                goto done;
            }
            if ((st = imp_labels(r, k, label, err)) != NESVM_OK) goto done;
            have_label = 1;
        } else if (strcmp(key, "nr_feature") == 0) {
            if ((st = imp_numbers(r, 1, &v, err)) != NESVM_OK) goto done;
            if (v < 0 || v > INT32_MAX - 1 || v != floor(v)) {
                st = FAIL("nr_feature %.40s: expected a count of features", r->tok[1]);
                goto done;
            }
            d = (int64_t)v;
        } else if (strcmp(key, "bias") == 0) {
            if ((st = imp_numbers(r, 1, &bias, err)) != NESVM_OK) goto done;
        } else {
            st = FAIL("unknown line '%.40s' in a LIBLINEAR model header", key);
            goto done;
        }
    }
    if (more < 0) goto done;
    if (!solver || !k || !have_label || d < 0 || bias == -2) {
        st = FAIL("the header lacks %s", !solver ? "solver_type" : !k ? "nr_class" : !have_label ? "label"
                                           : d < 0 ? "nr_feature" : "bias");
        goto done;
    }
    const int nw = k == 2 ? 1 : k;
    const int64_t rows = d + (bias >= 0);
    if ((double)rows * 2.0 * nw > r->size) { /* a number and a blank each */
        st = FAIL("nr_feature %lld: %lld weight rows of %d value%s cannot fit in a file of %.0f bytes (truncated, "
                  "or a wrong nr_feature)", (long long)d, (long long)rows, nw, nw == 1 ? "" : "s", r->size);
        goto done;
    }
    if ((st = imp_budget(r, 0, (int32_t)d, 0, 0, k, nw, d, err)) != NESVM_OK) goto done;
    w = nv_malloc_array((size_t)(rows ? rows : 1) * (size_t)nw, sizeof(double));
    col = nv_malloc_array((size_t)(d ? d : 1), sizeof(double));
    if (!w || !col) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int64_t j = 0; j < rows; j++) {
        int got = imp_next(r);
        if (got <= 0) {
            st = got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                         : FAIL("the file ends after %lld of %lld weight rows (truncated?)", (long long)j,
                                (long long)rows);
            goto done;
        }
        if (r->ntok != nw) {
            st = FAIL("weight row %lld: expected %d value%s, found %d", (long long)j + 1, nw, nw == 1 ? "" : "s", r->ntok);
            goto done;
        }
        for (int c = 0; c < nw; c++)
            if (!nv_parse_finite(r->tok[c], &w[(size_t)j * (size_t)nw + (size_t)c])) {
                st = FAIL("weight row %lld: '%.40s' is not a finite number", (long long)j + 1, r->tok[c]);
                goto done;
            }
    }
    for (int got; (got = imp_next(r)) != 0;)
        if (got < 0 || r->ntok) {
            st = got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                         : FAIL("more lines after the %lld weight rows", (long long)rows);
            goto done;
        }
    put_header(t, solver, problem, "linear", k > 2, k, label, (int32_t)d);
    put(t, "param bias ");
    put_num(t, bias >= 0 ? bias : -1);
    put(t, "\nnr_submodel %d\n", nw);
    for (int c = 0; c < nw; c++) {
        for (int64_t j = 0; j < d; j++) col[j] = w[(size_t)j * (size_t)nw + (size_t)c];
        double b = bias >= 0 ? bias * w[(size_t)d * (size_t)nw + (size_t)c] : 0.0;
        put_submodel(t, c, c, k == 2 ? 1 : -1, b, NULL, "w", col, d);
    }
    put(t, "end\n");
done:
    nv_free(label);
    nv_free(w);
    nv_free(col);
    return st;
}

nesvm_status nesvm_model_import(const char *path, const char *format, nesvm_model **out, nesvm_error *err)
{
    if (!path || !out) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_import");
    *out = NULL;
    if (format && strcmp(format, "libsvm") != 0 && strcmp(format, "liblinear") != 0)
        return nv_error(err, NESVM_ERR_ARG, "unknown model format '%s' (expected libsvm or liblinear)", format);
    imp_reader rd;
    memset(&rd, 0, sizeof rd);
    imp_reader *r = &rd;
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) return nv_error(err, NESVM_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    struct stat fst;
    r->size = fstat(fileno(r->f), &fst) == 0 && S_ISREG(fst.st_mode) ? (double)fst.st_size : INFINITY;
    imp_text t;
    memset(&t, 0, sizeof t);
    nesvm_status st = NESVM_OK;
    /* the format: the first line's key (read again by the parser) */
    int libsvm = -1, got;
    while ((got = imp_next(r)) > 0 && r->ntok == 0) {
    }
    if (got < 0) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (r->ntok > 0) libsvm = strcmp(r->tok[0], "svm_type") == 0 ? 1 : strcmp(r->tok[0], "solver_type") == 0 ? 0 : -1;
    r->pending = r->ntok > 0;
    if (st == NESVM_OK && format) {
        int want = strcmp(format, "libsvm") == 0;
        if (libsvm != want)
            st = nv_error(err, NESVM_ERR_MODEL, "%s: not a %s model file (its first line is not '%s ...')", path,
                          format, want ? "svm_type" : "solver_type");
    } else if (st == NESVM_OK && libsvm < 0) {
        st = nv_error(err, NESVM_ERR_MODEL,
                      "%s: neither a LIBSVM model (first line 'svm_type ...') nor a LIBLINEAR model (first line "
                      "'solver_type ...')", path);
    }
    if (st == NESVM_OK) st = libsvm ? import_libsvm(r, &t, err) : import_liblinear(r, &t, err);
    if (st == NESVM_OK && ferror(r->f)) st = nv_error(err, NESVM_ERR_IO, "cannot read '%s'", path);
    if (st == NESVM_OK && t.oom) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (st == NESVM_OK) {
        st = nv_model_parse_owned(t.s, t.len, out, err);
        t.s = NULL;
        if (st != NESVM_OK) nv_error_prefix(err, "%s: the model read from it", path);
    }
    fclose(r->f);
    nv_free(r->line);
    nv_free(r->tok);
    nv_free(t.s);
    return st;
}
