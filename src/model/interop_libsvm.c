/* interop_libsvm.c - models to and from LIBSVM's model files (svm-train,
 * svm-predict); interop_internal.h has the common ground.
 *
 * Export: kernel models, binary or one-vs-one.  decision_p(x) =
 * sum_j coef_pj K(sv_j, x) - rho_p with rho_p = -b_p, the pairs in the same
 * order ((0,1), (0,2), ..., positive for the first class), the labels in
 * model order.  LIBSVM counts a support vector in the pairs of its own class
 * only, so each basis vector must have non-zero coefficients in the pairs of
 * one class only (true of the full kernel and GS-SVM, whose basis vectors are
 * training rows; not of a reduced basis in a multiclass model): it is
 * written in that class, with its coefficient of pair (c, d) in LIBSVM's row
 * d - 1 (d > c) or d (d < c).
 *
 * Epsilon-SVR (task regression, problem svr_epsilon_insensitive_l2; the
 * squared tube and LS-SVR are refused by nesvm_model_export): svm_type
 * epsilon_svr, nr_class 2, one coefficient a support vector, no label or
 * nr_sv line; decision(x) = sum_j coef_j K(sv_j, x) - rho with rho = -b.
 * A kernel model's support vectors are its basis vectors of non-zero
 * coefficient (any basis: full or reduced); a linear model writes
 * kernel_type linear and w as its one support vector, of coefficient 1.
 * The tube p is not in LIBSVM's file (svm-predict needs none).  Imported,
 * an epsilon_svr file becomes nesvm's epsilon-SVR (solver nesvm, a free
 * bias b = -rho, p 0.1: LIBSVM's default), its support vectors the basis
 * (a linear kernel: w = sum coef_j sv_j); total_sv 0 (svm-train writes it
 * when no vector is outside the tube) is a constant -rho.  A Laplace model
 * (probA: svm-train -s 3 -b 1) is refused, as nu_svr is.
 *
 * The one-class SVM (task novelty, problem one_class_svm_hinge_l2): the
 * same file as epsilon_svr's with svm_type one_class, decision(x) =
 * sum_j coef_j K(sv_j, x) - rho, rho = -b, +1 where it is > 0 in both.
 * Imported, a one_class file becomes nesvm's one-class SVM with nu 0.5
 * (LIBSVM's default: nu is not in the file, nor needed to predict); its
 * rho must be finite (svm-train -n 1 writes rho inf: every row is at its
 * bound and any rho >= max f is optimal).
 *
 * A precomputed kernel's support vectors are their serial numbers, "0:i"
 * (kernel_type precomputed, no gamma), both ways.
 *
 * nu-SVC and nu-SVR (problems nu_svc_hinge_l2 and nu_svr_epsilon_insensitive_l2):
 * their models are the C-SVC's and epsilon-SVR's (nu-SVC's coefficients and
 * bias already divided by rho, as svm-train's), written as svm_type nu_svc
 * and nu_svr; imported, those become nesvm's nu-SVC and nu-SVR with nu 0.5
 * (not in the file, nor needed to predict) and no rho or epsilon (nu_value
 * unknown).
 *
 * Import: svm_type c_svc (svm-train -s 0), any kernel:
 * solver nesvm, problem c_svm_hinge_l2 (LIBSVM's C-SVC problem); pair
 * p = (i, j), i < j in label order, is sub-model p with pos i, neg j,
 * b = -rho_p, and the coefficients of class i's support vectors from column
 * j - 1 and class j's from column i (0 for the others); the linear kernel
 * becomes w = sum beta_j sv_j; probA/probB become each sub-model's sigmoid.
 */
#include "interop_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- export */

/* Each basis vector's class in LIBSVM's file (cls[0..nb)): the one class
 * common to the pairs where its coefficient is not zero, or for a vector of
 * one pair only, the class its coefficient's sign points to (positive: the
 * pair's first); -1 for a vector that is zero in every pair (not written).
 * rho[s] = -b of sub-model s.  A vector of pairs with no common class is
 * refused. */
static nesvm_status sv_classes(const nesvm_model *m, int64_t nb, int *cls, double *rho, nesvm_error *err)
{
    const int k = nesvm_model_classes(m), ns = nesvm_model_submodels(m);
    for (int64_t j = 0; j < nb; j++) cls[j] = -1;
    for (int s = 0; s < ns; s++) {
        const double *beta;
        int64_t n;
        double b;
        int pos, neg;
        nesvm_model_expansion(m, s, &beta, &n, &b, &pos, &neg, NULL);
        NV_ASSERT(n == nb && pos >= 0 && pos < k && neg >= 0 && neg < k && pos != neg);
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
                if (common < 0)
                    return nv_error(err, NESVM_ERR_UNSUPPORTED, "basis vector %lld serves pairs (%d, %d) and (%d, %d), of no common class: "
                                        "LIBSVM counts a support vector in its own class's pairs only (a reduced "
                                        "basis with more than two classes cannot be written for it)",
                                   (long long)j + 1, pp, pn, pos, neg);
                cls[j] = common;
            } else if (c != pos && c != neg) {
                return nv_error(err, NESVM_ERR_UNSUPPORTED, "basis vector %lld serves a pair without its class %d: LIBSVM counts a support "
                                    "vector in its own class's pairs only (a reduced basis with more than two "
                                    "classes cannot be written for it)",
                               (long long)j + 1, c);
            }
        }
    }
    /* vectors seen in one pair only: their class by the sign (positive: the pair's first) */
    for (int s = 0; s < ns && k > 2; s++) {
        const double *beta;
        int64_t n;
        int pos, neg;
        nesvm_model_expansion(m, s, &beta, &n, NULL, &pos, &neg, NULL);
        for (int64_t j = 0; j < nb; j++)
            if (cls[j] == -2 - (pos * k + neg)) cls[j] = beta[j] > 0 ? pos : neg;
    }
    for (int64_t j = 0; j < nb; j++) NV_ASSERT(cls[j] >= -1 && cls[j] < k);
    return NESVM_OK;
}

/* The coefficients in LIBSVM's layout: coef[row nb + j] for basis vector j
 * of class c, row d - 1 (d > c) or d (d < c) for its pair (c, d). */
static void sv_coefs(const nesvm_model *m, int64_t nb, const int *cls, double *coef)
{
    const int k = nesvm_model_classes(m), ns = nesvm_model_submodels(m);
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
            NV_ASSERT(row >= 0 && row < k - 1);
            coef[(size_t)row * (size_t)nb + (size_t)j] = beta[j];
        }
    }
}

/* The header's first lines: svm_type and the kernel with the parameters
 * svm-train writes for it (gamma but for linear; degree for polynomial;
 * coef0 for polynomial and sigmoid). */
static void write_kernel_lines(const nesvm_model *m, FILE *f, const char *svm_type)
{
    const nesvm_params *p = nesvm_model_params(m);
    char kern[16], g[64], d[64], r[64];
    nesvm_params_get(p, "kernel", kern, sizeof kern, NULL);
    nesvm_params_get(p, "gamma", g, sizeof g, NULL);
    nesvm_params_get(p, "degree", d, sizeof d, NULL);
    nesvm_params_get(p, "coef0", r, sizeof r, NULL);
    fprintf(f, "svm_type %s\nkernel_type %s\n", svm_type, strcmp(kern, "poly") == 0 ? "polynomial" : kern);
    if (strcmp(kern, "poly") == 0) fprintf(f, "degree %s\n", d);
    if (strcmp(kern, "linear") != 0 && strcmp(kern, "precomputed") != 0) fprintf(f, "gamma %s\n", g);
    if (strcmp(kern, "poly") == 0 || strcmp(kern, "sigmoid") == 0) fprintf(f, "coef0 %s\n", r);
}

/* Basis vector j's features as a support vector line's "index:value" pairs
 * (pc, a precomputed kernel's: "0:i", its serial number), and the line's
 * end. */
static void put_sv_features(FILE *f, const int64_t *ip, const int32_t *ix, const double *vx, int64_t j, int pc)
{
    for (int64_t q = ip[j]; q < ip[j + 1]; q++) {
        fprintf(f, "%d:", ix[q] + !pc);
        nv_interop_num(f, vx[q]);
        fputc(' ', f);
    }
    fputc('\n', f);
}

/* The file: the header (kernel, counts, rho, labels, sigmoids, nr_sv) and
 * the support vectors class by class; count[c] the vectors of class c. */
static void write_svm_file(const nesvm_model *m, FILE *f, const int *cls, const double *coef, const double *rho,
                           const int64_t *count, int64_t total)
{
    const int k = nesvm_model_classes(m), ns = nesvm_model_submodels(m);
    const nesvm_dataset *B = nesvm_model_basis(m);
    const int64_t nb = nesvm_dataset_rows(B);
    const int pc = strcmp(nesvm_model_kernel(m), "precomputed") == 0;
    write_kernel_lines(m, f, strcmp(nesvm_model_problem(m), "nu_svc_hinge_l2") == 0 ? "nu_svc" : "c_svc");
    fprintf(f, "nr_class %d\ntotal_sv %lld\nrho", k, (long long)total);
    for (int s = 0; s < ns; s++) {
        fputc(' ', f);
        nv_interop_num(f, rho[s]);
    }
    fputs("\nlabel", f);
    for (int c = 0; c < k; c++) {
        fputc(' ', f);
        nv_interop_num(f, nesvm_model_labels(m)[c]);
    }
    if (nesvm_model_has_probability(m))
        for (int t = 0; t < 2; t++) { /* svm-predict -b 1: the same sigmoids, pair by pair */
            fputs(t == 0 ? "\nprobA" : "\nprobB", f);
            for (int s = 0; s < ns; s++) {
                double pA, pB;
                nesvm_model_probability(m, s, &pA, &pB, NULL);
                fputc(' ', f);
                nv_interop_num(f, t == 0 ? pA : pB);
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
                nv_interop_num(f, coef[(size_t)row * (size_t)nb + (size_t)j]);
                fputc(' ', f);
            }
            put_sv_features(f, ip, ix, vx, j, pc);
        }
}

/* An epsilon-SVR (nesvm_model_export refused the other regressions): one
 * coefficient a support vector, rho = -b.  A kernel model's support vectors
 * are its basis vectors of non-zero coefficient; a linear model's one
 * support vector is w itself with coefficient 1 (K(w, x) = w . x), its zero
 * weights left out.  A model of no non-zero coefficient (or weight) has
 * no support vector (total_sv 0, as svm-train writes it). */
static void svr_export(const nesvm_model *m, FILE *f, const char *svm_type)
{
    const nesvm_dataset *B = nesvm_model_basis(m);
    const double *beta;
    int64_t nb;
    double b;
    nesvm_model_expansion(m, 0, &beta, &nb, &b, NULL, NULL, NULL);
    int64_t total = 0;
    for (int64_t j = 0; j < nb; j++) total += beta[j] != 0;
    if (!B) total = total > 0; /* w: one vector */
    write_kernel_lines(m, f, svm_type);
    fprintf(f, "nr_class 2\ntotal_sv %lld\nrho ", (long long)total);
    nv_interop_num(f, b == 0 ? 0.0 : -b);
    fputs("\nSV\n", f);
    if (!B && total) {
        fputs("1 ", f);
        for (int64_t j = 0; j < nb; j++)
            if (beta[j] != 0) {
                fprintf(f, "%lld:", (long long)j + 1);
                nv_interop_num(f, beta[j]);
                fputc(' ', f);
            }
        fputc('\n', f);
        return;
    }
    const int64_t *ip = nesvm_dataset_indptr(B);
    const int32_t *ix = nesvm_dataset_indices(B);
    const double *vx = nesvm_dataset_values(B);
    for (int64_t j = 0; j < nb; j++) {
        if (beta[j] == 0) continue;
        nv_interop_num(f, beta[j]);
        fputc(' ', f);
        put_sv_features(f, ip, ix, vx, j, strcmp(nesvm_model_kernel(m), "precomputed") == 0);
    }
}

nesvm_status nv_libsvm_export(const nesvm_model *m, FILE *f, nesvm_error *err)
{
    if (nesvm_model_task(m) != NESVM_TASK_CLASSIFICATION) { /* one coefficient a vector, rho = -b */
        svr_export(m, f, nesvm_model_task(m) == NESVM_TASK_NOVELTY ? "one_class"
                         : strcmp(nesvm_model_problem(m), "nu_svr_epsilon_insensitive_l2") == 0 ? "nu_svr"
                                                                                                 : "epsilon_svr");
        return NESVM_OK;
    }
    const nesvm_dataset *B = nesvm_model_basis(m);
    if (!B) return nv_error(err, NESVM_ERR_UNSUPPORTED, "a linear model has no support vectors for LIBSVM: use --format liblinear");
    if (strcmp(nesvm_model_multiclass(m), "ovr") == 0 && nesvm_model_classes(m) > 2)
        return nv_error(err, NESVM_ERR_UNSUPPORTED, "LIBSVM's models are one-vs-one: a one-vs-rest model cannot be written for it");
    const int k = nesvm_model_classes(m), ns = nesvm_model_submodels(m);
    int64_t nb = nesvm_dataset_rows(B);
    int *cls = malloc(sizeof(int) * (size_t)(nb ? nb : 1));
    double *coef = calloc((size_t)(k - 1) * (size_t)(nb ? nb : 1), sizeof(double));
    double *rho = malloc(sizeof(double) * (size_t)ns);
    int64_t *count = NULL;
    nesvm_status rc = NESVM_OK;
    if (!cls || !coef || !rho) {
        rc = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    if ((rc = sv_classes(m, nb, cls, rho, err)) != NESVM_OK) goto done;
    sv_coefs(m, nb, cls, coef);
    int64_t total = 0;
    count = calloc((size_t)k, sizeof(int64_t));
    if (!count) {
        rc = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int64_t j = 0; j < nb; j++)
        if (cls[j] >= 0) {
            count[cls[j]]++;
            total++;
        }
    write_svm_file(m, f, cls, coef, rho, count, total);
done:
    free(count);
    free(cls);
    free(coef);
    free(rho);
    return rc;
}

/* ---- import */

/* The header as read so far (import_libsvm's step 1). */
typedef struct svm_header {
    int svr;                 /* svm_type epsilon_svr, nu_svr or one_class (else c_svc, nu_svc): one
                              * coefficient a vector */
    int oc;                  /* svm_type one_class */
    int nu;                  /* svm_type nu_svc or nu_svr */
    const char *type;        /* svm_type's word, NULL until given */
    int have_type;
    const char *kernel;      /* nesvm's name, NULL until kernel_type */
    double gamma, degree, coef0;
    int have_gamma, have_degree, have_coef0;
    int k;                   /* nr_class, 0 until given */
    int64_t npair, total;    /* k (k - 1) / 2; total_sv (-1 until given) */
    int have_rho, have_label, have_nsv, have_pa, have_pb;
    double *rho, *pa, *pb;   /* npair each */
    double *label;           /* k */
    int64_t *nsv;            /* k */
} svm_header;

static void svm_header_free(svm_header *h)
{
    nv_free(h->rho);
    nv_free(h->label);
    nv_free(h->pa);
    nv_free(h->pb);
    nv_free(h->nsv);
}

/* nr_class: k and the arrays sized by it. */
static nesvm_status header_nr_class(imp_reader *r, svm_header *h, nesvm_error *err)
{
    nesvm_status st = nv_imp_nr_class(r, &h->k, err);
    if (st != NESVM_OK) return st;
    int k = h->k;
    if (h->svr && k != 2)
        return FAIL("nr_class %d: a LIBSVM %s model has nr_class 2 (svm-train writes 2 for a regression%s)", k,
                    h->type, h->oc ? " and a one-class SVM" : "");
    h->npair = (int64_t)k * (k - 1) / 2;
    if ((double)h->npair * 2.0 > r->size) /* rho's values: a number and a blank each */
        return FAIL("nr_class %d needs %lld rho values (one per pair of classes), more than a file of %.0f "
                    "bytes holds (a wrong nr_class?)", k, (long long)h->npair, r->size);
    h->rho = nv_malloc_array((size_t)h->npair, sizeof(double));
    h->pa = nv_malloc_array((size_t)h->npair, sizeof(double));
    h->pb = nv_malloc_array((size_t)h->npair, sizeof(double));
    h->label = nv_malloc_array((size_t)k, sizeof(double));
    h->nsv = nv_malloc_array((size_t)k, sizeof(int64_t));
    if (!h->rho || !h->pa || !h->pb || !h->label || !h->nsv) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    return NESVM_OK;
}

/* nr_sv: the support vectors of each class. */
static nesvm_status header_nr_sv(imp_reader *r, svm_header *h, nesvm_error *err)
{
    double *tmp = nv_malloc_array((size_t)h->k, sizeof(double));
    if (!tmp) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    nesvm_status st = nv_imp_numbers(r, h->k, tmp, err);
    for (int c = 0; st == NESVM_OK && c < h->k; c++) {
        if (tmp[c] < 0 || tmp[c] > 1e12 || tmp[c] != floor(tmp[c]))
            st = FAIL("nr_sv: '%.40s' is not a count", r->tok[c + 1]);
        else
            h->nsv[c] = (int64_t)tmp[c];
    }
    nv_free(tmp);
    if (st == NESVM_OK) h->have_nsv = 1;
    return st;
}

/* One header line, by its key (r->tok[0]). */
static nesvm_status header_line(imp_reader *r, svm_header *h, nesvm_error *err)
{
    static const char *const kernels[][2] = {
        {"linear", "linear"}, {"polynomial", "poly"}, {"rbf", "rbf"}, {"sigmoid", "sigmoid"},
        {"precomputed", "precomputed"}};
    const char *key = r->tok[0];
    nesvm_status st;
    double v;
    if (strcmp(key, "svm_type") == 0) {
        if (h->have_type) return FAIL("a second svm_type line");
        h->have_type = 1;
        static const char *const types[] = {"c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr"};
        for (int t = 0; r->ntok == 2 && t < 5; t++)
            if (strcmp(r->tok[1], types[t]) == 0) h->type = types[t];
        if (!h->type)
            return FAIL("svm_type %.40s: nesvm imports LIBSVM's C-SVC, nu-SVC, one-class, epsilon-SVR and nu-SVR "
                        "models (svm-train -s 0 to 4) only",
                        r->ntok > 1 ? r->tok[1] : "");
        h->oc = strcmp(h->type, "one_class") == 0;
        h->nu = strncmp(h->type, "nu_", 3) == 0;
        h->svr = h->oc || strcmp(h->type, "epsilon_svr") == 0 || strcmp(h->type, "nu_svr") == 0;
    } else if (strcmp(key, "kernel_type") == 0) {
        for (int i = 0; r->ntok == 2 && i < 5; i++)
            if (strcmp(r->tok[1], kernels[i][0]) == 0) h->kernel = kernels[i][1];
        if (!h->kernel)
            return FAIL("kernel_type %.40s: nesvm has linear, polynomial, rbf, sigmoid and precomputed kernels",
                        r->ntok > 1 ? r->tok[1] : "");
    } else if (strcmp(key, "gamma") == 0 || strcmp(key, "degree") == 0 || strcmp(key, "coef0") == 0) {
        if ((st = nv_imp_numbers(r, 1, &v, err)) != NESVM_OK) return st;
        if (key[0] == 'g') h->gamma = v, h->have_gamma = 1;
        else if (key[0] == 'd') h->degree = v, h->have_degree = 1;
        else h->coef0 = v, h->have_coef0 = 1;
    } else if (strcmp(key, "nr_class") == 0) {
        return header_nr_class(r, h, err);
    } else if (strcmp(key, "total_sv") == 0) {
        if ((st = nv_imp_numbers(r, 1, &v, err)) != NESVM_OK) return st;
        /* (svm-train writes total_sv 0 for a regression of no support vector) */
        if (v < !h->svr || v > 1e12 || v != floor(v))
            return FAIL("total_sv %.40s: expected %s", r->tok[1], h->svr ? "a count" : "a positive integer");
        h->total = (int64_t)v;
    } else if (strcmp(key, "rho") == 0 || strcmp(key, "probA") == 0 || strcmp(key, "probB") == 0 ||
               strcmp(key, "label") == 0 || strcmp(key, "nr_sv") == 0) {
        if (h->svr && !h->oc && strcmp(key, "probA") == 0)
            return FAIL("probA: the Laplace model of a LIBSVM %s (svm-train -s %d -b 1) has no nesvm counterpart "
                        "(delete the line to import the model's predictions without it)",
                        h->nu ? "nu-SVR" : "epsilon-SVR", h->nu ? 4 : 3);
        if (h->svr && strcmp(key, "rho") != 0)
            return FAIL("'%s' in a LIBSVM %s model (svm-train writes it for classifiers only)", key, h->type);
        if (h->k == 0) return FAIL("'%s' before 'nr_class'", r->tok[0]);
        if (strcmp(key, "label") == 0) {
            if ((st = nv_imp_labels(r, h->k, h->label, err)) == NESVM_OK) h->have_label = 1;
            return st;
        }
        if (strcmp(key, "nr_sv") == 0) return header_nr_sv(r, h, err);
        double *dst = key[0] == 'r' ? h->rho : key[4] == 'A' ? h->pa : h->pb;
        if ((st = nv_imp_numbers(r, h->npair, dst, err)) != NESVM_OK) return st;
        if (key[0] == 'r') h->have_rho = 1;
        else if (key[4] == 'A') h->have_pa = 1;
        else h->have_pb = 1;
    } else {
        return FAIL("unknown line '%.40s' in a LIBSVM model header", key);
    }
    return NESVM_OK;
}

/* Step 1, the header: its lines up to "SV", then what a model needs of
 * them: every count, and the lines svm-train writes for each kernel (no
 * defaults: a model without one is not the model that was trained). */
static nesvm_status read_header(imp_reader *r, svm_header *h, nesvm_error *err)
{
    nesvm_status st = NESVM_OK;
    int more;
    while ((more = nv_imp_header(r, "SV", &st, err)) > 0)
        if ((st = header_line(r, h, err)) != NESVM_OK) return st;
    if (more < 0) return st;
    const char *kernel = h->kernel;
    /* (a regression has no label, nr_sv, probA or probB line: header_line refused them) */
    if (!kernel || !h->k || h->total < 0 || !h->have_rho || (!h->svr && (!h->have_label || !h->have_nsv)))
        return FAIL("the header lacks %s", !kernel ? "kernel_type" : !h->k ? "nr_class" : h->total < 0 ? "total_sv"
                                           : !h->have_rho ? "rho" : !h->have_label ? "label" : "nr_sv");
    const int poly = strcmp(kernel, "poly") == 0, lin = strcmp(kernel, "linear") == 0;
    const int pc = strcmp(kernel, "precomputed") == 0; /* (no parameters) */
    const char *missing = !lin && !pc && !h->have_gamma                              ? "gamma"
                          : poly && !h->have_degree                                  ? "degree"
                          : (poly || strcmp(kernel, "sigmoid") == 0) && !h->have_coef0 ? "coef0"
                                                                                       : NULL;
    if (missing)
        return FAIL("the header lacks '%s', which a LIBSVM %s-kernel model needs (svm-train writes %s)", missing,
                    poly ? "polynomial" : kernel,
                    poly ? "degree, gamma and coef0" : strcmp(kernel, "rbf") == 0 ? "gamma" : "gamma and coef0");
    if (h->have_pa != h->have_pb)
        return FAIL("the header has %s without %s", h->have_pa ? "probA" : "probB", h->have_pa ? "probB" : "probA");
    int64_t sum = 0;
    for (int c = 0; c < h->k && !h->svr; c++) sum += h->nsv[c];
    if (!h->svr && sum != h->total)
        return FAIL("nr_sv sums to %lld, total_sv is %lld", (long long)sum, (long long)h->total);
    if ((double)h->total * 2.0 * (h->k - 1) > r->size) /* k - 1 coefficients and blanks a support vector */
        return FAIL("total_sv %lld: as many support vectors of %d coefficient%s cannot fit in a file of %.0f bytes "
                    "(truncated, or a wrong total_sv)", (long long)h->total, h->k - 1, h->k == 2 ? "" : "s", r->size);
    return NESVM_OK;
}

/* A precomputed kernel's support vector (line j of the SV section, its
 * entries from token `from`): its serial number "0:i" alone, kept as column
 * 0 of value i (the feature count: the largest i + 1). */
static nesvm_status pc_sv(imp_reader *r, int from, int64_t j, imp_svs *sv, nesvm_error *err)
{
    int64_t s = 0;
    if (r->ntok != from + 1 || strncmp(r->tok[from], "0:", 2) != 0 || !nv_parse_int64(r->tok[from] + 2, &s) ||
        s < 1 || s > INT32_MAX - 1)
        return FAIL("support vector %lld: expected its serial number 0:i (i from 1 to 2147483646: a precomputed "
                    "kernel's support vector), found '%.40s'",
                    (long long)j + 1, r->ntok > from ? r->tok[from] : "end of line");
    r->tok[from][0] = '1'; /* "1:i": nv_imp_sv's 1-based index of column 0 */
    nesvm_status st = nv_imp_sv(r, from, sv, err);
    if (st == NESVM_OK && (int32_t)s + 1 > sv->d) sv->d = (int32_t)s + 1;
    return st;
}

/* Step 2, the support vectors: total lines of k - 1 coefficients (into
 * coef, a row each) and the vector's entries (into sv), then nothing but
 * empty lines. */
static nesvm_status read_svs(imp_reader *r, const svm_header *h, double *coef, imp_svs *sv, nesvm_error *err)
{
    const int k = h->k;
    const int64_t total = h->total;
    nesvm_status st;
    for (int64_t j = 0; j < total; j++) {
        int got = nv_imp_next(r);
        if (got <= 0)
            return got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                           : FAIL("the file ends after %lld of %lld support vectors (truncated?)", (long long)j,
                                  (long long)total);
        if (r->ntok < k - 1)
            return FAIL("support vector %lld: expected %d coefficients before its entries", (long long)j + 1, k - 1);
        for (int c = 0; c < k - 1; c++)
            if (!nv_parse_finite(r->tok[c], &coef[(size_t)j * (size_t)(k - 1) + (size_t)c]))
                return FAIL("support vector %lld: coefficient '%.40s' is not a finite number", (long long)j + 1, r->tok[c]);
        if ((st = strcmp(h->kernel, "precomputed") == 0 ? pc_sv(r, k - 1, j, sv, err) : nv_imp_sv(r, k - 1, sv, err)) !=
            NESVM_OK)
            return st;
    }
    NV_ASSERT(sv->n == total);
    for (int got; (got = nv_imp_next(r)) != 0;)
        if (got < 0 || r->ntok)
            return got < 0 ? nv_error(err, NESVM_ERR_NOMEM, "out of memory")
                           : FAIL("more lines after the %lld support vectors", (long long)total);
    return NESVM_OK;
}

/* The kernel's parameters (kernels other than linear; a precomputed
 * kernel has none). */
static void put_kernel_params(imp_text *t, const svm_header *h)
{
    if (strcmp(h->kernel, "precomputed") == 0) return;
    nv_imp_put(t, "param gamma ");
    nv_imp_put_num(t, h->gamma);
    nv_imp_put(t, "\nparam degree ");
    nv_imp_put_num(t, h->degree);
    nv_imp_put(t, "\nparam coef0 ");
    nv_imp_put_num(t, h->coef0);
    nv_imp_put(t, "\n");
}

/* The support vectors as the basis (kernels other than linear; pc, a
 * precomputed kernel's: "sv 0:i"). */
static void put_basis(imp_text *t, const imp_svs *sv, int pc)
{
    nv_imp_put(t, "nr_basis %lld\nbasis\n", (long long)sv->n);
    for (int64_t j = 0; j < sv->n; j++) {
        nv_imp_put(t, "sv");
        for (int64_t q = sv->ptr[j]; q < sv->ptr[j + 1]; q++) {
            nv_imp_put(t, " %d:", sv->idx[q] + !pc);
            nv_imp_put_num(t, sv->val[q]);
        }
        nv_imp_put(t, "\n");
    }
}

/* w = sum_q beta[q] sv_q into w[0..sv->d) (a linear kernel's weights). */
static void weights(const imp_svs *sv, const double *beta, double *w)
{
    for (int32_t e = 0; e < sv->d; e++) w[e] = 0;
    for (int64_t q = 0; q < sv->n; q++)
        for (int64_t e = sv->ptr[q]; beta[q] != 0 && e < sv->ptr[q + 1]; e++) {
            NV_ASSERT(sv->idx[e] >= 0 && sv->idx[e] < sv->d);
            w[sv->idx[e]] += beta[q] * sv->val[e];
        }
}

/* Step 3 of an epsilon_svr model: nesvm's epsilon-SVR (the tube, a free
 * bias b = -rho; p not in the file: LIBSVM's default 0.1) of one sub-model
 * (a one_class model: nesvm's one-class SVM, b = -rho, nu 0.5),
 * the coefficients (one a support vector) over the support vectors as its
 * basis, or w = sum coef_q sv_q for the linear kernel.  A kernel model of
 * no support vector (total_sv 0) gets one basis vector without entries of
 * coefficient 0 (a model file's basis is not empty): f(x) = -rho all the
 * same. */
static nesvm_status write_svr(const imp_reader *r, const svm_header *h, const double *coef, const imp_svs *sv,
                              imp_text *t, nesvm_error *err)
{
    const int lin = strcmp(h->kernel, "linear") == 0, none = !lin && h->total == 0;
    static const double zero = 0.0;
    const int64_t nw = lin ? sv->d : none ? 1 : h->total;
    nesvm_status st = nv_imp_budget(r, lin, sv->d, sv->nnz, h->total, 2, 1, nw, err);
    if (st != NESVM_OK) return st;
    double *w = lin ? nv_malloc_array((size_t)(nw ? nw : 1), sizeof(double)) : NULL;
    if (lin && !w) return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (h->oc) /* nu is not in the file: LIBSVM's default */
        nv_imp_put_header_oc(t, h->kernel, 0.5, sv->d);
    else
        nv_imp_put_header_svr(t, h->nu ? "nu_svr_epsilon_insensitive_l2" : "svr_epsilon_insensitive_l2", h->kernel,
                              1.0, "epsilon_insensitive", 0.1, sv->d);
    if (h->nu) /* nu-SVR: nu and C are not in the file: LIBSVM's defaults */
        nv_imp_put(t, "param svm_type nu-svr\nparam svm_nu 0.5\n");
    if (none) {
        put_kernel_params(t, h);
        nv_imp_put(t, "nr_basis 1\nbasis\nsv\n");
    } else if (!lin) {
        put_kernel_params(t, h);
        put_basis(t, sv, strcmp(h->kernel, "precomputed") == 0);
    } else {
        weights(sv, coef, w);
    }
    nv_imp_put(t, "nr_submodel 1\n");
    const double *beta = lin ? w : none ? &zero : coef;
    nv_imp_put_submodel(t, 0, -1, -1, -h->rho[0], NULL, lin ? "w" : "beta", beta, nw);
    nv_imp_put(t, "end\n");
    nv_free(w);
    return NESVM_OK;
}

/* Step 3, the nesvm model's text: the header and kernel parameters, the
 * basis (kernels other than linear), and the sub-models in LIBSVM's order
 * of pairs, from svclass[q] (each support vector's class) and coef. */
static nesvm_status write_model(const imp_reader *r, const svm_header *h, const double *coef, const int *svclass,
                                const imp_svs *sv, imp_text *t, nesvm_error *err)
{
    const int k = h->k;
    const int64_t total = h->total, npair = h->npair;
    const int lin = strcmp(h->kernel, "linear") == 0;
    nesvm_status st = nv_imp_budget(r, lin, sv->d, sv->nnz, total, k, npair, lin ? sv->d : total, err);
    if (st != NESVM_OK) return st;
    nv_imp_put_header(t, "nesvm", h->nu ? "nu_svc_hinge_l2" : "c_svm_hinge_l2", h->kernel, "ovo", k, h->label, sv->d);
    if (h->nu) /* nu-SVC: nu is not in the file (LIBSVM's default), nor C = 1/rho */
        nv_imp_put(t, "param svm_type nu-svc\nparam svm_nu 0.5\n");
    if (!lin) put_kernel_params(t, h);
    nv_imp_put(t, "param probability %d\n", h->have_pa);
    if (!lin) put_basis(t, sv, strcmp(h->kernel, "precomputed") == 0);
    const int64_t nw = lin ? sv->d : total;
    double *w = nv_malloc_array((size_t)(nw ? nw : 1), sizeof(double));
    double *beta = nv_malloc_array((size_t)total, sizeof(double));
    if (!w || !beta) {
        nv_free(w);
        nv_free(beta);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    }
    nv_imp_put(t, "nr_submodel %lld\n", (long long)npair);
    for (int i = 0, p = 0; i < k; i++)
        for (int j = i + 1; j < k; j++, p++) {
            for (int64_t q = 0; q < total; q++) {
                int c = svclass[q];
                beta[q] = c == i ? coef[(size_t)q * (size_t)(k - 1) + (size_t)(j - 1)]
                          : c == j ? coef[(size_t)q * (size_t)(k - 1) + (size_t)i]
                                   : 0.0;
            }
            if (lin) weights(sv, beta, w);
            double prob[2] = {h->have_pa ? h->pa[p] : 0, h->have_pa ? h->pb[p] : 0};
            nv_imp_put_submodel(t, p, i, j, -h->rho[p], h->have_pa ? prob : NULL, lin ? "w" : "beta", lin ? w : beta, nw);
        }
    nv_free(w);
    nv_free(beta);
    nv_imp_put(t, "end\n");
    return NESVM_OK;
}

nesvm_status nv_libsvm_import(imp_reader *r, imp_text *t, nesvm_error *err)
{
    /* degree, coef0: nesvm's defaults where the kernel has none */
    svm_header h = {.degree = 3, .total = -1};
    imp_svs sv;
    memset(&sv, 0, sizeof sv);
    double *coef = NULL;
    int *svclass = NULL;
    /* 1. the header */
    nesvm_status st = read_header(r, &h, err);
    /* 2. the support vectors, each with its class */
    if (st == NESVM_OK) {
        coef = nv_malloc_array((size_t)h.total * (size_t)(h.k - 1), sizeof(double));
        svclass = nv_malloc_array((size_t)h.total, sizeof(int));
        if (!coef || !svclass) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    }
    if (st == NESVM_OK) {
        int64_t j = 0;
        for (int c = 0; c < h.k && !h.svr; c++)
            for (int64_t q = 0; q < h.nsv[c]; q++) svclass[j++] = c;
        NV_ASSERT(j == h.total || h.svr);
        st = read_svs(r, &h, coef, &sv, err);
    }
    /* 3. the nesvm model: a regression, or pairs in LIBSVM's order */
    if (st == NESVM_OK)
        st = h.svr ? write_svr(r, &h, coef, &sv, t, err) : write_model(r, &h, coef, svclass, &sv, t, err);
    svm_header_free(&h);
    nv_free(coef);
    nv_free(svclass);
    nv_imp_svs_free(&sv);
    return st;
}
