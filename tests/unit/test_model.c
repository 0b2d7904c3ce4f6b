/* test_model.c - model save/load round trip, atomic writes, damaged files. */
#include "../../src/model/model_internal.h"
#include "check.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static char dir[] = "/tmp/nesvm_model_XXXXXX";

static int tmp_files_left(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".tmp")) n++;
    closedir(d);
    return n;
}

/* A k-class dataset with class-dependent means. */
static nesvm_dataset *make_data(int k, int n, int d, double **xbuf, double **ybuf)
{
    uint64_t st = 5;
    double *x = malloc(sizeof(double) * (size_t)n * (size_t)d), *y = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) {
        int c = i % k;
        y[i] = c * 10 + 3; /* labels 3, 13, 23, ... kept as written */
        for (int j = 0; j < d; j++) x[i * d + j] = nv_rng_uniform(&st) + (j % k == c ? 1.0 : 0.0);
    }
    nesvm_dataset *ds;
    nesvm_dataset_wrap_dense(n, d, x, y, &ds, NULL);
    *xbuf = x;
    *ybuf = y;
    return ds;
}

static int same_model(const nesvm_model *a, const nesvm_model *b)
{
    if (a->nr_class != b->nr_class || a->nsub != b->nsub || a->d != b->d) return 0;
    if (memcmp(a->labels, b->labels, sizeof(double) * (size_t)a->nr_class)) return 0;
    for (int s = 0; s < a->nsub; s++) {
        if (memcmp(&a->sub[s].b, &b->sub[s].b, sizeof(double))) return 0;
        if (memcmp(a->sub[s].w, b->sub[s].w, sizeof(double) * (size_t)a->d)) return 0;
        if (a->sub[s].pos != b->sub[s].pos || a->sub[s].neg != b->sub[s].neg) return 0;
        if (a->sub[s].iterations != b->sub[s].iterations) return 0;
        if (memcmp(&a->sub[s].primal, &b->sub[s].primal, sizeof(double))) return 0;
    }
    if (a->params->c != b->params->c || a->params->multiclass != b->params->multiclass) return 0;
    if (a->params->n_weights != b->params->n_weights) return 0;
    return 1;
}

static void expect_load_error(const char *text, const char *msg)
{
    char path[256];
    snprintf(path, sizeof path, "%s/bad.model", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    nesvm_model *m = (nesvm_model *)1;
    nesvm_error err = {0};
    CHECK(nesvm_model_load(path, &m, &err) == NESVM_ERR_MODEL);
    CHECK(m == NULL);
    CHECK_CONTAINS(err.message, msg);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return strdup(buf);
}

int main(void)
{
    if (!mkdtemp(dir)) return 2;
    char path[256];
    snprintf(path, sizeof path, "%s/m.model", dir);
    double *x, *y;
    nesvm_error err = {0};
    for (int k = 2; k <= 4; k++) {
        for (int ovr = 0; ovr <= 1; ovr++) {
            nesvm_dataset *ds = make_data(k, 120, 6, &x, &y);
            nesvm_params *p;
            nesvm_params_create(&p, NULL);
            nesvm_params_set(p, "multiclass", ovr ? "ovr" : "ovo", NULL);
            nesvm_params_set(p, "c", "0.37", NULL);
            nesvm_params_set_class_weight(p, 13, 2.5, NULL);
            /* every model type round-trips, with its problem line */
            const char *types[] = {"c", "lp", "ls"};
            const char *problems[] = {"problem c_svm_hinge_l2\n", "problem lp_svm_hinge_l1\n",
                                      "problem ls_svm_squared_l2\n"};
            nesvm_params_set(p, "svm_type", types[k - 2], NULL);
            nesvm_model *m = NULL, *m2 = NULL;
            nesvm_stats stats = NESVM_STATS_INIT;
            CHECK(nesvm_train(ds, p, NULL, NULL, &m, &stats, &err) == NESVM_OK);
            int want = k == 2 ? 1 : (ovr ? k : k * (k - 1) / 2);
            CHECK(nesvm_model_submodels(m) == want && stats.n_submodels == want);
            CHECK(nesvm_model_labels(m)[0] == 3 && nesvm_model_labels(m)[1] == 13);
            CHECK(nesvm_model_save(m, path, &err) == NESVM_OK);
            if (k == 3 && ovr == 0) {
                /* a model holding a non-finite number is never saved (issue 16 #5) */
                char bad[300];
                snprintf(bad, sizeof bad, "%s/nonfinite.model", dir);
                for (int which = 0; which < 2; which++) {
                    double keep = which ? m->sub[2].w[1] : m->sub[1].b;
                    if (which) m->sub[2].w[1] = INFINITY;
                    else m->sub[1].b = NAN;
                    nesvm_error e2 = {0};
                    CHECK(nesvm_model_save(m, bad, &e2) == NESVM_ERR_NUMERIC);
                    CHECK_CONTAINS(e2.message, which ? "binary model 2 holds a non-finite number"
                                                     : "binary model 1 holds a non-finite number");
                    CHECK(access(bad, F_OK) != 0);
                    if (which) m->sub[2].w[1] = keep;
                    else m->sub[1].b = keep;
                }
                CHECK(nv_model_first_nonfinite(m) == -1);
            }
            CHECK(nesvm_model_load(path, &m2, &err) == NESVM_OK);
            CHECK_MSG(m2 && same_model(m, m2), "k=%d ovr=%d round trip differs", k, ovr);
            /* save(load(save(m))) is byte-identical */
            char *t1 = slurp(path);
            CHECK(t1 && strstr(t1, problems[k - 2]));
            CHECK(nesvm_model_save(m2, path, &err) == NESVM_OK);
            char *t2 = slurp(path);
            CHECK(t1 && t2 && strcmp(t1, t2) == 0);
            free(t1);
            free(t2);
            /* predictions from the loaded model are identical; training accuracy is high */
            double *l1 = malloc(sizeof(double) * 120), *l2 = malloc(sizeof(double) * 120);
            double *d1 = malloc(sizeof(double) * 120 * (size_t)want), *d2 = malloc(sizeof(double) * 120 * (size_t)want);
            CHECK(nesvm_model_predict(m, ds, 1, l1, d1, &err) == NESVM_OK);
            CHECK(nesvm_model_predict(m2, ds, 2, l2, d2, &err) == NESVM_OK);
            CHECK(memcmp(l1, l2, sizeof(double) * 120) == 0);
            CHECK(memcmp(d1, d2, sizeof(double) * 120 * (size_t)want) == 0);
            int correct = 0;
            for (int i = 0; i < 120; i++) correct += l1[i] == y[i];
            CHECK_MSG(correct >= 100, "k=%d ovr=%d training accuracy %d/120", k, ovr, correct);
            /* decision values are x.w + b */
            const double *w;
            double b;
            nesvm_model_linear(m, 0, &w, &b, NULL, NULL, NULL);
            double dv = b;
            for (int j = 0; j < 6; j++) dv += w[j] * x[5 * 6 + j];
            CHECK_REL(d1[5 * want], dv, 1e-12);
            free(l1); free(l2); free(d1); free(d2);
            nesvm_model_destroy(m2);

            /* atomic save: a write that fails midway leaves the old file intact and no temp */
            if (k == 4 && ovr == 0) {
                char *before = slurp(path);
                signal(SIGXFSZ, SIG_IGN);
                struct rlimit old, lim;
                getrlimit(RLIMIT_FSIZE, &old);
                lim = old;
                lim.rlim_cur = 200;
                setrlimit(RLIMIT_FSIZE, &lim);
                nesvm_status st = nesvm_model_save(m, path, &err);
                setrlimit(RLIMIT_FSIZE, &old);
                CHECK(st == NESVM_ERR_IO);
                CHECK_CONTAINS(err.message, "cannot write");
                char *after = slurp(path);
                CHECK(before && after && strcmp(before, after) == 0);
                CHECK(tmp_files_left() == 0);
                free(before);
                free(after);
                char nopath[300];
                snprintf(nopath, sizeof nopath, "%s/no/such/dir/m.model", dir);
                CHECK(nesvm_model_save(m, nopath, &err) == NESVM_ERR_IO);
                CHECK_CONTAINS(err.message, "cannot create");
            }
            nesvm_model_destroy(m);
            nesvm_params_destroy(p);
            nesvm_dataset_destroy(ds);
            free(x);
            free(y);
        }
    }

    /* kernel models (full and reduced basis, ovo and ovr) round-trip exactly,
     * and their decision values are the stored expansions */
    for (int t = 0; t < 4; t++) {
        int ovr = t % 2, reduced = t / 2;
        nesvm_dataset *ds = make_data(3, 120, 6, &x, &y);
        nesvm_params *p;
        nesvm_params_create(&p, NULL);
        nesvm_params_set(p, "multiclass", ovr ? "ovr" : "ovo", NULL);
        nesvm_params_set(p, "kernel", "rbf", NULL);
        nesvm_params_set(p, "gamma", "0.3", NULL);
        nesvm_params_set(p, "basis", reduced ? "40" : "0", NULL);
        nesvm_model *m = NULL, *m2 = NULL;
        CHECK(nesvm_train(ds, p, NULL, NULL, &m, NULL, &err) == NESVM_OK);
        /* a full kernel keeps the rows with a non-zero coefficient (the
         * support vectors), a reduced one its random basis */
        int64_t nbasis = m ? nesvm_dataset_rows(nesvm_model_basis(m)) : -1;
        CHECK_MSG(reduced ? nbasis == 40 : (nbasis > 0 && nbasis < 120), "basis %lld", (long long)nbasis);
        if (m && !reduced) {
            int64_t nzc = 0;
            for (int64_t j = 0; j < m->ncoef; j++) {
                int any = 0;
                for (int s = 0; s < m->nsub; s++) any |= m->sub[s].w[j] != 0;
                nzc += any;
            }
            CHECK(nzc == nbasis);
        }
        CHECK(nesvm_model_save(m, path, &err) == NESVM_OK);
        CHECK(nesvm_model_load(path, &m2, &err) == NESVM_OK);
        char *t1 = slurp(path);
        CHECK(m2 && nesvm_model_save(m2, path, &err) == NESVM_OK);
        char *t2 = slurp(path);
        CHECK(t1 && t2 && strcmp(t1, t2) == 0 && strstr(t1, "kernel rbf\n"));
        free(t1);
        free(t2);
        int ns = m ? m->nsub : 1;
        double *l1 = malloc(sizeof(double) * 120), *l2 = malloc(sizeof(double) * 120);
        double *d1 = malloc(sizeof(double) * 120 * (size_t)ns), *d2 = malloc(sizeof(double) * 120 * (size_t)ns);
        CHECK(nesvm_model_predict(m, ds, 1, l1, d1, &err) == NESVM_OK);
        CHECK(nesvm_model_predict(m2, ds, 2, l2, d2, &err) == NESVM_OK);
        CHECK(memcmp(l1, l2, sizeof(double) * 120) == 0 &&
              memcmp(d1, d2, sizeof(double) * 120 * (size_t)ns) == 0);
        int correct = 0;
        for (int i = 0; i < 120; i++) correct += l1[i] == y[i];
        CHECK_MSG(correct >= 100, "kernel t=%d training accuracy %d/120", t, correct);
        /* decision of row 7, sub-model ns-1, from the expansion */
        const double *beta;
        int64_t nb;
        double b;
        CHECK(nesvm_model_expansion(m, ns - 1, &beta, &nb, &b, NULL, NULL, &err) == NESVM_OK);
        const nesvm_dataset *B = nesvm_model_basis(m);
        double dv = b;
        for (int64_t k = 0; k < nb; k++) {
            double bv[6] = {0}, d2s = 0;
            for (int64_t q = B->indptr[k]; q < B->indptr[k + 1]; q++) bv[B->indices[q]] = nv_val(B, q);
            for (int j = 0; j < 6; j++) d2s += (x[7 * 6 + j] - bv[j]) * (x[7 * 6 + j] - bv[j]);
            dv += beta[k] * exp(-0.3 * d2s);
        }
        CHECK_REL(d1[7 * ns + ns - 1], dv, 1e-10);
        for (int ls = 0; ls < 2 && !reduced; ls++) {
            /* a budget below the whole kernel matrix (57.6 kB) but above a
             * one-vs-one sub-problem's (80 rows: 25.6 kB).  LS-SVM: one
             * matrix per sub-problem, stored for ovo and on the fly for ovr
             * (120 rows).  C-SVM (a working set): one-vs-one pairs on the
             * whole stored matrix when it fits, else (and one-vs-rest) on a
             * column cache with a matrix per sub-problem's working set (all
             * its rows here: fewer than NV_NESVM_WS_INIT).  The same
             * problems, hence the same labels. */
            nesvm_stats s1 = NESVM_STATS_INIT, s2 = NESVM_STATS_INIT;
            nesvm_model *m3 = NULL, *m4 = NULL;
            nesvm_params_set(p, "svm_type", ls ? "ls" : "c", NULL);
            nesvm_params_set(p, "kernel_memory", "4096", NULL);
            CHECK(nesvm_train(ds, p, NULL, NULL, &m3, &s1, &err) == NESVM_OK);
            nesvm_params_set(p, "kernel_memory", "0.04", NULL);
            CHECK(nesvm_train(ds, p, NULL, NULL, &m4, &s2, &err) == NESVM_OK);
            int want1 = ls ? 1 : ovr ? 2 : 3, want2 = ls ? (ovr ? 0 : 1) : 2;
            CHECK_MSG(s1.kernel_matrix == want1, "kernel_matrix %d", s1.kernel_matrix);
            /* a stored matrix of m rows computes its lower triangle in row
             * blocks: at least m (m + 1) / 2 values, at most m^2/2 (1 + 1/8)
             * plus a block of 16 rows */
#define TRI_OK(v, m, k) ((v) >= (k) * (m) * ((m) + 1) / 2 && (v) <= (k) * ((m) * (m) * 9 / 16 + 16 * (m)) + cert)
            /* the certificates in double precision (issue 29): LS-SVM on a stored
             * matrix one pass over each sub-problem's rows x support columns, the
             * working set on a stored matrix its margins: at most 3 sub-problems x
             * its rows^2 more */
            int64_t cert = 3 * (ovr ? 120 * 120 : 80 * 80);
            CHECK_MSG(ls || !ovr ? TRI_OK(s1.kernel_evals, 120, 1) : TRI_OK(s1.kernel_evals, 120, 3), "evals %lld",
                      (long long)s1.kernel_evals);
            CHECK_MSG(s2.kernel_matrix == want2, "kernel_matrix %d", s2.kernel_matrix);
            cert = !ovr ? 3 * 80 * 80 : 0; /* and the working set's certificate, in double */
            CHECK_MSG(ovr ? s2.kernel_evals > 120 * 120 : TRI_OK(s2.kernel_evals, 80, 3), "evals %lld",
                      (long long)s2.kernel_evals);
#undef TRI_OK
            if (ls) {
                CHECK(m3 && nesvm_model_predict(m3, ds, 1, l1, NULL, &err) == NESVM_OK);
            }
            CHECK(m4 && nesvm_model_predict(m4, ds, 1, l2, NULL, &err) == NESVM_OK);
            int same = 0;
            for (int i = 0; i < 120; i++) same += l1[i] == l2[i];
            CHECK_MSG(same >= 118, "kernel t=%d ls=%d per-sub-problem matrices: %d/120 labels agree", t, ls, same);
            nesvm_model_destroy(m3);
            nesvm_model_destroy(m4);
        }
        free(l1); free(l2); free(d1); free(d2);
        nesvm_model_destroy(m);
        nesvm_model_destroy(m2);
        nesvm_params_destroy(p);
        nesvm_dataset_destroy(ds);
        free(x);
        free(y);
    }

    /* damaged model files */
    const char *head = "nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel linear\n"
                       "multiclass ovo\nnr_class 2\nlabels 1 -1\nnr_feature 2\nparam c 1\n";
    char buf[2048];
    expect_load_error("", "expected 'nesvm_model', found end of file");
    expect_load_error("svm_type c_svc\n", ":1: expected 'nesvm_model'");
    expect_load_error("nesvm_model 4\n", "model format version 4 is not supported (this build reads versions 1 to 3)");
    expect_load_error("nesvm_model 0\n", "bad format version '0'");
    snprintf(buf, sizeof buf, "%snr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\nb 0.5\nw\n1\n", head);
    expect_load_error(buf, "file ends after 1 of 2 weights");
    snprintf(buf, sizeof buf, "%snr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\nb 0.5\nw\n1\nnan\nend\n", head);
    expect_load_error(buf, "weight 2 is not a finite number");
    snprintf(buf, sizeof buf, "%snr_submodel 3\n", head);
    expect_load_error(buf, "nr_submodel is '3', expected 1");
    snprintf(buf, sizeof buf, "%snr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\nb 0.5\nw\n1\n2\n", head);
    expect_load_error(buf, "expected 'end', found end of file");
    snprintf(buf, sizeof buf, "%snr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\nb 0.5\nw\n1\n2\nend\nmore\n", head);
    expect_load_error(buf, "unexpected content after 'end'");
    snprintf(buf, sizeof buf, "%snr_submodel 1\nsubmodel 0 pos 0 neg 5 exit converged iterations 5 primal 1 gap 0\nb 0.5\nw\n1\n2\nend\n", head);
    expect_load_error(buf, "bad class indices");
    expect_load_error("nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel gauss\n", "unsupported kernel 'gauss'");
    expect_load_error("nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel 2\n", "unsupported kernel '2'");
    {
        const char *kh = "nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel rbf\n"
                         "multiclass ovo\nnr_class 2\nlabels 1 -1\nnr_feature 3\nparam gamma 0.5\n";
        snprintf(buf, sizeof buf, "%snr_submodel 1\n", kh);
        expect_load_error(buf, "a kernel model needs 'nr_basis' and its basis vectors");
        snprintf(buf, sizeof buf, "%snr_basis 2\nbasis\nsv 1:0.5 3:1\nsv 2:1 2:3\n", kh);
        expect_load_error(buf, ":13: basis vector 2: bad entry '2:3'");
        snprintf(buf, sizeof buf, "%snr_basis 2\nbasis\nsv 1:0.5 4:1\n", kh);
        expect_load_error(buf, "basis vector 1: bad entry '4:1'");
        /* the whole entry, value included (issue 16 #11: was '1') */
        snprintf(buf, sizeof buf, "%snr_basis 2\nbasis\nsv 1:inf\n", kh);
        expect_load_error(buf, "basis vector 1: bad entry '1:inf'");
        /* a short file cannot claim a huge model: refused before allocating */
        snprintf(buf, sizeof buf,
                 "nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel linear\nmulticlass ovo\n"
                 "nr_class 2\nlabels 1 -1\nnr_feature 2000000000\nnr_submodel 1\n");
        expect_load_error(buf, "1 sub-models of 2000000000 coefficients cannot fit in a file of");
        expect_load_error("nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel linear\n"
                          "multiclass ovo\nnr_class 65537\n", "bad nr_class '65537'");
        snprintf(buf, sizeof buf, "%snr_basis 2\nbasis\nsv 1:0.5\nnr_submodel 1\n", kh);
        expect_load_error(buf, "expected basis vector 2 of 2");
        snprintf(buf, sizeof buf, "%snr_basis 2\nbasis\nsv 1:0.5\nsv\nnr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\nb 0.5\nw\n", kh);
        expect_load_error(buf, "expected 'beta'");
        snprintf(buf, sizeof buf, "%snr_basis 2\nbasis\nsv 1:0.5\nsv\nnr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\nb 0.5\nbeta\n1\n", kh);
        expect_load_error(buf, "file ends after 1 of 2 coefficients");
        snprintf(buf, sizeof buf, "%snr_basis 1\n", head);
        expect_load_error(buf, "a linear model has no 'nr_basis'");
        /* a valid kernel model loads and predicts its expansion */
        snprintf(path, sizeof path, "%s/k.model", dir);
        snprintf(buf, sizeof buf, "%snr_basis 2\nbasis\nsv 1:0.5 3:1\nsv\nnr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\nb 0.25\nbeta\n2\n-1\nend\n", kh);
        FILE *kf = fopen(path, "w");
        fputs(buf, kf);
        fclose(kf);
        nesvm_model *km = NULL;
        CHECK(nesvm_model_load(path, &km, &err) == NESVM_OK);
        if (km) {
            double xv[3] = {1, 0, 0}, yl[1] = {1}, lab, dec;
            nesvm_dataset *one;
            nesvm_dataset_wrap_dense(1, 3, xv, yl, &one, NULL);
            CHECK(nesvm_model_predict(km, one, 1, &lab, &dec, &err) == NESVM_OK);
            /* 2 exp(-0.5 (0.25 + 1)) - exp(-0.5 * 1) + 0.25 */
            CHECK_REL(dec, 2 * exp(-0.625) - exp(-0.5) + 0.25, 1e-15);
            CHECK(strcmp(nesvm_model_kernel(km), "rbf") == 0 && nesvm_model_basis(km) &&
                  nesvm_dataset_rows(nesvm_model_basis(km)) == 2);
            const double *w;
            CHECK(nesvm_model_linear(km, 0, &w, NULL, NULL, NULL, &err) == NESVM_ERR_UNSUPPORTED);
            nesvm_dataset_destroy(one);
        }
        nesvm_model_destroy(km);
    }
    expect_load_error("nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel linear\nmulticlass ovo\nnr_class 2\nlabels 1 1\n", "label '1' appears twice");
    expect_load_error("nesvm_model 1\nsolver nesvm\nproblem c_svm_hinge_l2\nkernel linear\nmulticlass ovo\nnr_class 3\nlabels 1 2\n", "'labels' needs 3 values");
    snprintf(buf, sizeof buf, "%sparam svm_type lp\nnr_submodel 1\n", head);
    expect_load_error(buf, "problem 'c_svm_hinge_l2' does not match solver nesvm with svm_type lp (expected lp_svm_hinge_l1)");
    snprintf(buf, sizeof buf, "%sparam svm_type qp\nnr_submodel 1\n", head);
    expect_load_error(buf, "invalid value 'qp' for svm_type: expected c, lp, ls, ls-svr, svr, one-class, nu-svc, nu-svr or logistic");
    snprintf(buf, sizeof buf, "%sparam c -4\nnr_submodel 1\n", head);
    expect_load_error(buf, "invalid value '-4' for c");
    snprintf(buf, sizeof buf, "%snr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\nb inf\n", head);
    expect_load_error(buf, "bad bias 'inf'");
    /* the valid version of the above loads */
    snprintf(path, sizeof path, "%s/ok.model", dir);
    snprintf(buf, sizeof buf, "%snr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\r\nb 0.5\nw\n1\n-2e-3\nend\n", head);
    FILE *f = fopen(path, "w");
    fputs(buf, f);
    fclose(f);
    nesvm_model *m = NULL;
    CHECK(nesvm_model_load(path, &m, &err) == NESVM_OK);
    if (m) CHECK(m->sub[0].w[1] == -2e-3 && m->sub[0].b == 0.5);
    /* a file without 'param restart' (written before it existed, when NESVM's
     * Nesterov steps always restarted) loads with the default, 1 */
    if (m) CHECK(m->params->restart == 1);
    nesvm_model_destroy(m);
    snprintf(buf, sizeof buf, "%sparam restart 0\nnr_submodel 1\nsubmodel 0 pos 0 neg 1 exit converged iterations 5 primal 1 gap 0\nb 0.5\nw\n1\n-2e-3\nend\n", head);
    f = fopen(path, "w");
    fputs(buf, f);
    fclose(f);
    m = NULL;
    CHECK(nesvm_model_load(path, &m, &err) == NESVM_OK);
    if (m) CHECK(m->params->restart == 0);
    nesvm_model_destroy(m);
    snprintf(buf, sizeof buf, "%sparam restart 2\nnr_submodel 1\n", head);
    expect_load_error(buf, "invalid value '2' for restart: expected 0 or 1");

    /* format 2 (issue 30): a model file lists the parameters off their table
     * default (bias and basis always: resolved at training, never "auto"), in
     * the table's order, and no other */
    {
        double *x2, *y2;
        nesvm_dataset *ds = make_data(2, 60, 4, &x2, &y2);
        nesvm_params *p;
        nesvm_params_create(&p, NULL);
        nesvm_params_set(p, "eps", "0.01", NULL);
        nesvm_params_set(p, "c", "0.5", NULL);
        nesvm_params_set(p, "smooth_p", "1e8", NULL); /* its default, written differently */
        nesvm_params_set(p, "threads", "1", NULL);    /* its default */
        nesvm_model *tm = NULL, *lm = NULL;
        char *text = NULL;
        size_t len;
        CHECK(nesvm_train(ds, p, NULL, NULL, &tm, NULL, &err) == NESVM_OK);
        CHECK(tm && nesvm_model_save_buffer(tm, &text, &len, &err) == NESVM_OK);
        if (text) {
            char params[512] = "", *q = params;
            for (const char *l = strstr(text, "\nparam "); l; l = strstr(l + 1, "\nparam ")) {
                size_t n = strcspn(l + 1, "\n") + 1;
                if ((size_t)(q - params) + n < sizeof params) {
                    memcpy(q, l + 1, n);
                    q += n;
                    *q = '\0';
                }
            }
            CHECK_MSG(!strcmp(params, "param c 0.5\nparam eps 0.01\nparam bias 1\nparam basis 0\n"),
                      "the param lines written:\n%s", params);
            CHECK(!strncmp(text, "nesvm_model 3\n", 14));
            CHECK(nesvm_model_load_buffer(text, len, &lm, &err) == NESVM_OK);
            CHECK(lm && same_model(tm, lm) && lm->params->eps == 0.01 && lm->params->smooth_p == 1e8);
        }
        nesvm_free(text);
        nesvm_model_destroy(tm);
        nesvm_model_destroy(lm);
        nesvm_params_destroy(p);
        nesvm_dataset_destroy(ds);
        free(x2);
        free(y2);
    }
    /* a missing param line is its row's default as of the file's format:
     * kernel_norm in formats 2 and 3 is the table's rkhs; format 1 listed every
     * parameter of its day, so a format-1 file without it predates it (coef);
     * method is newton up to format 2, auto (the table's) in format 3 */
    {
        const char *v2 = "nesvm_model 2\nsolver nssvm\nproblem c_svm_squared_hinge_l2_regularized_bias\n"
                         "kernel rbf\nmulticlass ovo\nnr_class 2\nlabels 1 -1\nnr_feature 2\nparam bias 1\n"
                         "param gamma 0.5\nparam basis 1\nnr_basis 1\nbasis\nsv 1:1\nnr_submodel 1\nsubmodel 0 pos 0 "
                         "neg 1 exit converged iterations 5 primal 1 gap 0\nb 0.5\nbeta\n2\nend\n";
        for (int version = 1; version <= 3; version++) {
            char text[1024];
            snprintf(text, sizeof text, "nesvm_model %d%s", version, strchr(v2, '\n'));
            nesvm_model *lm = NULL;
            CHECK_MSG(nesvm_model_load_buffer(text, strlen(text), &lm, &err) == NESVM_OK, "%s", err.message);
            if (!lm) continue;
            char kn[16], c[16], eps[16], me[16];
            nesvm_params_get(lm->params, "method", me, sizeof me, NULL);
            CHECK_MSG(!strcmp(me, version <= 2 ? "newton" : "auto"), "format %d: method %s", version, me);
            nesvm_params_get(lm->params, "kernel_norm", kn, sizeof kn, NULL);
            nesvm_params_get(lm->params, "c", c, sizeof c, NULL);
            nesvm_params_get(lm->params, "eps", eps, sizeof eps, NULL);
            CHECK_MSG(!strcmp(kn, version == 1 ? "coef" : "rkhs"), "format %d: kernel_norm %s", version, kn);
            CHECK(!strcmp(c, "1") && !strcmp(eps, "0.001") && lm->params->basis == 1 && lm->params->gamma == 0.5);
            /* saved again, it is format 3 and says what the old file meant */
            char *t = NULL;
            size_t l;
            CHECK(nesvm_model_save_buffer(lm, &t, &l, NULL) == NESVM_OK);
            CHECK_MSG(t && !strncmp(t, "nesvm_model 3\n", 14) &&
                          (strstr(t, "\nparam kernel_norm coef\n") != NULL) == (version == 1) &&
                          (strstr(t, "\nparam method newton\n") != NULL) == (version <= 2),
                      "format %d saved again:\n%s", version, t ? t : "");
            nesvm_free(t);
            nesvm_model_destroy(lm);
        }
    }

    snprintf(buf, sizeof buf, "rm -rf %s", dir);
    if (system(buf) != 0) return 2;
    CHECK_DONE();
}
