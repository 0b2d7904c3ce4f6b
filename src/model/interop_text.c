/* interop_text.c - the two sides of importing a LIBSVM or LIBLINEAR model
 * (interop_internal.h): the other tool's file read a line at a time and
 * split at blanks (imp_reader), with the checks every header shares; and the
 * nesvm model file's text written from it (imp_text), which grows as needed
 * and records a failed allocation instead of stopping.
 */
#include "interop_internal.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* A number as the model files write it: the shortest text that reads back
 * to exactly v. */
void nv_interop_num(FILE *f, double v)
{
    char buf[32];
    nv_format_double(v, buf);
    fputs(buf, f);
}

/* ---- the other tool's file */

/* The next line split at blanks: 1, 0 at the end of the file, -1 out of
 * memory (the line's tokens could not be held). */
int nv_imp_next(imp_reader *r)
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

/* The memory of a translated model, refused (with a message naming the file)
 * by the rules training follows (train.c's check_sizes): a linear kernel's
 * dense weight vector by the largest feature index, when the support vectors
 * hold few values (nv_dense_too_large), and the whole model with its text
 * beyond the machine's memory.  nsub sub-models of ncoef coefficients; nnz
 * and nsv: the support vectors' values and count (a LIBSVM model). */
nesvm_status nv_imp_budget(const imp_reader *r, int lin, int32_t d, int64_t nnz, int64_t nsv, int k, int64_t nsub,
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
int nv_imp_header(imp_reader *r, const char *end, nesvm_status *st, nesvm_error *err)
{
    for (;;) {
        int got = nv_imp_next(r);
        if (got <= 0) {
            *st = got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                          : FAIL("the file ends before '%s' (truncated?)", end);
            return -1;
        }
        if (r->ntok > 0) return strcmp(r->tok[0], end) != 0;
    }
}

/* n numbers from tokens 1..n of the line into out */
nesvm_status nv_imp_numbers(imp_reader *r, int64_t n, double *out, nesvm_error *err)
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
nesvm_status nv_imp_nr_class(imp_reader *r, int *k, nesvm_error *err)
{
    double v;
    nesvm_status st = nv_imp_numbers(r, 1, &v, err);
    if (st != NESVM_OK) return st;
    if (*k || v < 2 || v > 65535 || v != floor(v))
        return FAIL("nr_class %.40s: expected one value from 2 to 65535", r->tok[1]);
    *k = (int)v;
    return NESVM_OK;
}

/* The k labels of a 'label' line, each once. */
nesvm_status nv_imp_labels(imp_reader *r, int k, double *label, nesvm_error *err)
{
    nesvm_status st = nv_imp_numbers(r, k, label, err);
    for (int c = 0; st == NESVM_OK && c < k; c++)
        for (int e = 0; e < c; e++)
            if (label[e] == label[c]) return FAIL("label '%.40s' appears twice", r->tok[c + 1]);
    return st;
}

nesvm_status nv_imp_sv(imp_reader *r, int from, imp_svs *sv, nesvm_error *err)
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
    NV_ASSERT(sv->n < sv->cap_rows && sv->nnz <= sv->cap_nnz && sv->ptr[sv->n - 1] <= sv->nnz);
    return NESVM_OK;
}

void nv_imp_svs_free(imp_svs *sv)
{
    nv_free(sv->ptr);
    nv_free(sv->idx);
    nv_free(sv->val);
}

/* ---- the nesvm model file's text */

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

void nv_imp_put(imp_text *t, const char *fmt, ...)
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
    NV_ASSERT(t->len < t->cap);
    t->s[t->len] = '\0';
}

void nv_imp_put_num(imp_text *t, double v) { put_num_sep(t, v, 0); }

void nv_imp_put_header(imp_text *t, const char *solver, const char *problem, const char *kernel,
                       const char *multiclass, int k, const double *labels, int32_t d)
{
    nv_imp_put(t, "nesvm_model 1\nsolver %s\nproblem %s\nkernel %s\nmulticlass %s\nnr_class %d\nlabels", solver, problem,
        kernel, multiclass, k);
    for (int c = 0; c < k; c++) {
        nv_imp_put(t, " ");
        nv_imp_put_num(t, labels[c]);
    }
    nv_imp_put(t, "\nnr_feature %d\nparam svm_type c\nparam c 1\n", (int)d);
}

void nv_imp_put_header_svr(imp_text *t, const char *problem, const char *kernel, double bias, const char *loss,
                           double p, int32_t d)
{
    nv_imp_put(t, "nesvm_model 1\nsolver nesvm\nproblem %s\nkernel %s\nmulticlass ovo\nnr_class 0\nlabels\n"
                  "nr_feature %d\ntask regression\nparam svm_type svr\nparam c 1\nparam bias ",
               problem, kernel, (int)d);
    nv_imp_put_num(t, bias);
    nv_imp_put(t, "\nparam loss %s\nparam epsilon ", loss);
    nv_imp_put_num(t, p);
    nv_imp_put(t, "\n");
}

void nv_imp_put_header_oc(imp_text *t, const char *kernel, double nu, int32_t d)
{
    nv_imp_put(t, "nesvm_model 3\nsolver nesvm\nproblem one_class_svm_hinge_l2\nkernel %s\nmulticlass ovo\n"
                  "nr_class 0\nlabels\nnr_feature %d\ntask novelty\nparam svm_type one-class\nparam svm_nu ",
               kernel, (int)d);
    nv_imp_put_num(t, nu);
    nv_imp_put(t, "\n");
}

void nv_imp_put_submodel(imp_text *t, int s, int pos, int neg, double b, const double *prob, const char *what,
                         const double *w, int64_t n)
{
    nv_imp_put(t, "submodel %d pos %d neg %d exit converged iterations 0 primal nan gap nan\nb ", s, pos, neg);
    nv_imp_put_num(t, b);
    if (prob) {
        nv_imp_put(t, "\nprob ");
        nv_imp_put_num(t, prob[0]);
        nv_imp_put(t, " ");
        nv_imp_put_num(t, prob[1]);
    }
    nv_imp_put(t, "\n%s\n", what);
    for (int64_t j = 0; j < n; j++) put_num_sep(t, w[j], '\n');
}

int nv_svr_problem(const char *problem)
{
    static const char *const names[] = {"svr_epsilon_insensitive_l2", "svr_squared_epsilon_insensitive_l2"};
    for (int k = 0; k < 2; k++) {
        const size_t n = strlen(names[k]);
        if (strncmp(problem, names[k], n) == 0 && (!problem[n] || strcmp(problem + n, "_regularized_bias") == 0))
            return k + 1;
    }
    return 0;
}
