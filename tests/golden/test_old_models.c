/*
 * test_old_models.c - model files of format 1 (every parameter listed) load
 * to the same model as the format-2 files (only the parameters off their
 * default) that today's code writes for them.
 *
 * Usage: test_old_models PROJECT_ROOT
 *
 * 1. tests/golden/old/NAME.model: written by commit 0a56f8a's nesvm
 *    (make_old.sh), with NAME.dv, that build's `predict --decision-values` on
 *    the training data.  Each file loads; its decision values are NAME.dv's,
 *    exactly; saved again it is format 2, the old file's lines but for the
 *    version line and the parameter lines at their defaults; every row of the
 *    parameter table reads the same (nesvm_params_get) from the old file's
 *    model, from the re-saved file's model and in the old file's own lines;
 *    and the re-saved file's model predicts NAME.dv again.
 * 2. tests/golden/old/v2/NAME.model (the golden models of format 2, as the
 *    rewrite left them; tests/golden/models has retrained them since): its
 *    format-1 text (the file as it was before the rewrite) is rebuilt from it,
 *    every parameter of format 1's table listed, and proved to be that file by
 *    its FNV-1a hash in tests/golden/old/golden_v1.fnv (taken from the
 *    committed files before the rewrite); both load to the same model (every
 *    parameter, the text saved again, the decision values on the training
 *    data).
 */
#include "../../src/model/model_internal.h"
#include "../unit/check.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#define HEART "/usr/share/doc/liblinear-tools/examples/heart_scale"
/* the last row of the parameter table when format 1 was replaced: the
 * format-1 writer listed the rows up to it */
#define LAST_V1_ROW "restart"

static char root[3800], tmpdir[] = "/tmp/nesvm_old_XXXXXX";
static nesvm_dataset *heart, *three;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) buf = realloc(buf, cap *= 2);
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* heart_scale, and heart_scale relabelled into three classes by row number
 * (row k: class k % 3 + 1), as tests/golden/test_golden.py and make_old.sh make it. */
static int read_data(void)
{
    char *text = slurp(HEART), path[256];
    if (!text) return 0;
    snprintf(path, sizeof path, "%s/three.txt", tmpdir);
    FILE *f = fopen(path, "w");
    int k = 0;
    char *sp;
    for (char *line = strtok_r(text, "\n", &sp); line; line = strtok_r(NULL, "\n", &sp))
        fprintf(f, "%d%s\n", k++ % 3 + 1, strchr(line, ' '));
    fclose(f);
    free(text);
    return nesvm_dataset_read(HEART, NULL, &heart, NULL) == NESVM_OK &&
           nesvm_dataset_read(path, NULL, &three, NULL) == NESVM_OK;
}

static const nesvm_dataset *data_of(const nesvm_model *m) { return nesvm_model_classes(m) == 2 ? heart : three; }

/* The model's decision values on its training data (n x submodels). */
static double *decisions(const nesvm_model *m, int64_t *count)
{
    const nesvm_dataset *ds = data_of(m);
    int64_t n = nesvm_dataset_rows(ds);
    *count = n * nesvm_model_submodels(m);
    double *lab = malloc(sizeof(double) * (size_t)n), *dec = malloc(sizeof(double) * (size_t)*count);
    nesvm_error err;
    if (nesvm_model_predict(m, ds, 1, lab, dec, &err) != NESVM_OK) {
        fprintf(stderr, "predict: %s\n", err.message);
        *count = 0;
    }
    free(lab);
    return dec;
}

/* The value of parameter `name` that the lines of a format-1 text give:
 * its 'param' line, the solver, kernel and multiclass lines, or for a row the
 * file predates, the value it loads as (docs/format.md). */
static const char *v1_value(const char *text, const char *name, char *buf, size_t size)
{
    char key[64];
    int own = !strcmp(name, "solver") || !strcmp(name, "kernel") || !strcmp(name, "multiclass");
    snprintf(key, sizeof key, own ? "\n%s " : "\nparam %s ", name);
    const char *p = strstr(text, key);
    if (!p) {
        nesvm_params *d;
        nesvm_params_create(&d, NULL);
        nesvm_params_get(d, name, buf, size, NULL);
        nesvm_params_destroy(d);
        return !strcmp(name, "kernel_norm") ? "coef" : buf;
    }
    p += strlen(key);
    size_t n = strcspn(p, "\n");
    snprintf(buf, size, "%.*s", (int)n, p);
    return buf;
}

/* The text without its version line and 'param' lines. */
static char *strip_params(const char *text)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
        if (strncmp(p, "param ", 6) && strncmp(p, "nesvm_model ", 12)) {
            memcpy(o, p, n);
            o += n;
        }
        p += n;
    }
    *o = '\0';
    return out;
}

/* Every parameter of a and b read the same; want (may be NULL) is the old text. */
static void same_params(const char *name, const nesvm_model *a, const nesvm_model *b, const char *want)
{
    for (int i = 0; nv_param_name(i); i++) {
        char va[128], vb[128], vw[128];
        const char *pn = nv_param_name(i);
        nesvm_params_get(nesvm_model_params(a), pn, va, sizeof va, NULL);
        nesvm_params_get(nesvm_model_params(b), pn, vb, sizeof vb, NULL);
        CHECK_MSG(!strcmp(va, vb), "%s: param %s: %s, re-saved %s", name, pn, va, vb);
        if (want) {
            const char *w = v1_value(want, pn, vw, sizeof vw);
            CHECK_MSG(!strcmp(va, w), "%s: param %s loads as %s, the file says %s", name, pn, va, w);
        }
    }
    const nesvm_params *pa = nesvm_model_params(a), *pb = nesvm_model_params(b);
    CHECK_MSG(pa->n_weights == pb->n_weights, "%s: %d class weights, re-saved %d", name, pa->n_weights,
              pb->n_weights);
    for (int k = 0; k < pa->n_weights && k < pb->n_weights; k++)
        CHECK(pa->weight_label[k] == pb->weight_label[k] && pa->weight[k] == pb->weight[k]);
}

static void same_decisions(const char *name, const nesvm_model *a, const nesvm_model *b)
{
    int64_t na, nb, bad = 0;
    double *da = decisions(a, &na), *db = decisions(b, &nb);
    for (int64_t i = 0; i < na && i < nb; i++) bad += memcmp(&da[i], &db[i], sizeof(double)) != 0;
    CHECK_MSG(na > 0 && na == nb && bad == 0, "%s: %lld of %lld decision values differ", name, (long long)bad,
              (long long)na);
    free(da);
    free(db);
}

/* The decision values equal those the old build wrote (NAME.dv: label, then
 * one value per sub-model, per row). */
static void old_decisions(const char *name, const nesvm_model *m, const char *dvpath)
{
    char *dv = slurp(dvpath);
    int64_t n, bad = 0, i = 0;
    double *d = decisions(m, &n);
    CHECK_MSG(dv != NULL, "%s: no %s", name, dvpath);
    const int S = nesvm_model_submodels(m);
    char *sp;
    for (char *line = dv ? strtok_r(dv, "\n", &sp) : NULL; line; line = strtok_r(NULL, "\n", &sp)) {
        char *q = line;
        strtod(q, &q); /* the label */
        for (int s = 0; s < S; s++, i++) {
            double v = strtod(q, &q);
            bad += i >= n || v != d[i];
        }
    }
    CHECK_MSG(n > 0 && i == n && bad == 0, "%s: %lld of %lld decision values differ from the old build's (%lld)",
              name, (long long)bad, (long long)n, (long long)i);
    free(d);
    free(dv);
}

/* Part 1: one file of tests/golden/old. */
static void check_old_file(const char *name)
{
    char path[4200], dvpath[4200];
    snprintf(path, sizeof path, "%s/tests/golden/old/%s.model", root, name);
    snprintf(dvpath, sizeof dvpath, "%s/tests/golden/old/%s.dv", root, name);
    char *old = slurp(path);
    nesvm_model *m1 = NULL, *m2 = NULL;
    nesvm_error err = {0};
    CHECK_MSG(old && !strncmp(old, "nesvm_model 1\n", 14), "%s: not a format-1 file", name);
    CHECK_MSG(nesvm_model_load(path, &m1, &err) == NESVM_OK, "%s: %s", name, err.message);
    if (!old || !m1) return;
    old_decisions(name, m1, dvpath);
    char *text = NULL, *again = NULL;
    size_t len, len2;
    CHECK(nesvm_model_save_buffer(m1, &text, &len, &err) == NESVM_OK);
    CHECK_MSG(!strncmp(text, "nesvm_model 3\n", 14), "%s: re-saved as '%.14s'", name, text);
    /* the same lines but for the version and the parameters */
    char *so = strip_params(old), *sn = strip_params(text);
    CHECK_MSG(!strcmp(so, sn), "%s: the re-saved file differs beyond its param lines", name);
    /* each param line written is one of the old file's, and each of the old
     * file's left out holds its row's default */
    nesvm_params *def;
    nesvm_params_create(&def, NULL);
    for (const char *p = strstr(old, "\nparam "); p; p = strstr(p + 1, "\nparam ")) {
        char line[128], nm[64], dflt[128];
        size_t n = strcspn(p + 1, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, p + 1);
        sscanf(line, "param %63s", nm);
        nesvm_params_get(def, nm, dflt, sizeof dflt, NULL);
        char *hit = strstr(text, line);
        int written = hit && hit[-1] == '\n' && hit[strlen(line)] == '\n';
        int at_default = !strcmp(line + 7 + strlen(nm), dflt);
        CHECK_MSG(written != at_default, "%s: '%s' %s (default %s)", name, line,
                  written ? "written" : "left out", dflt);
    }
    nesvm_params_destroy(def);
    CHECK_MSG(nesvm_model_load_buffer(text, len, &m2, &err) == NESVM_OK, "%s: re-saved: %s", name, err.message);
    if (m2) {
        same_params(name, m1, m2, old);
        same_decisions(name, m1, m2);
        old_decisions(name, m2, dvpath);
        CHECK(nesvm_model_save_buffer(m2, &again, &len2, &err) == NESVM_OK);
        CHECK_MSG(again && len2 == len && !strcmp(again, text), "%s: saved twice, the texts differ", name);
    }
    nesvm_free(text);
    nesvm_free(again);
    free(so);
    free(sn);
    free(old);
    nesvm_model_destroy(m1);
    nesvm_model_destroy(m2);
}

/* Append to *out (capacity *cap, length *len). */
static void put(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
    while (*len + n + 1 > *cap) *out = realloc(*out, *cap = *cap * 2 + n + 1);
    memcpy(*out + *len, s, n);
    *len += n;
    (*out)[*len] = '\0';
}

/* The format-1 text of a format-2 file: version 1, and a 'param' line for
 * every row of format 1's table (but solver, multiclass, kernel) in place of
 * its param lines, as the format-1 writer wrote them. */
static char *to_v1(const char *text, const nesvm_model *m)
{
    size_t len = 0, cap = strlen(text) + 4096;
    char *out = malloc(cap);
    out[0] = '\0';
    put(&out, &len, &cap, "nesvm_model 1\n", 14);
    int params_done = 0;
    for (const char *p = strchr(text, '\n') + 1; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
        int is_param = !strncmp(p, "param ", 6);
        int after = is_param || !strncmp(p, "class_weight ", 13) || !strncmp(p, "nr_basis ", 9) ||
                    !strncmp(p, "nr_submodel ", 12);
        if (after && !params_done) {
            for (int i = 0; nv_param_name(i); i++) {
                const char *pn = nv_param_name(i);
                char v[128], line[256];
                if (strcmp(pn, "solver") && strcmp(pn, "multiclass") && strcmp(pn, "kernel")) {
                    nesvm_params_get(nesvm_model_params(m), pn, v, sizeof v, NULL);
                    put(&out, &len, &cap, line, (size_t)snprintf(line, sizeof line, "param %s %s\n", pn, v));
                }
                if (!strcmp(pn, LAST_V1_ROW)) break;
            }
            params_done = 1;
        }
        if (!is_param) put(&out, &len, &cap, p, n);
        p += n;
    }
    return out;
}

/* Part 2: one golden file and its format-1 hash. */
static void check_golden(const char *name, const char *hash)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/tests/golden/old/v2/%s", root, name);
    char *text = slurp(path);
    nesvm_model *m2 = NULL, *m1 = NULL;
    nesvm_error err = {0};
    CHECK_MSG(text && !strncmp(text, "nesvm_model 2\n", 14), "%s: not a format-2 file", name);
    CHECK_MSG(nesvm_model_load(path, &m2, &err) == NESVM_OK, "%s: %s", name, err.message);
    if (!text || !m2) return;
    /* format 2 left out method newton, its default then (format 3's is auto) */
    char method[32] = "";
    const int no_method = !strstr(text, "\nparam method ");
    nesvm_params_get(nesvm_model_params(m2), "method", method, sizeof method, NULL);
    CHECK_MSG(!no_method || !strcmp(method, "newton"), "%s: a format-2 file without 'param method' loads as method %s",
              name, method);
    char *v1 = to_v1(text, m2), got[17];
    snprintf(got, sizeof got, "%016llx", (unsigned long long)nv_fnv1a(NV_FNV1A_START, v1, strlen(v1)));
    CHECK_MSG(!strcmp(got, hash), "%s: the format-1 text rebuilt hashes to %s, the committed file's %s", name, got,
              hash);
    CHECK_MSG(nesvm_model_load_buffer(v1, strlen(v1), &m1, &err) == NESVM_OK, "%s: format 1: %s", name,
              err.message);
    if (m1) {
        char *t1 = NULL, *t2 = NULL;
        size_t l1, l2;
        same_params(name, m1, m2, v1);
        same_decisions(name, m1, m2);
        nesvm_model_save_buffer(m1, &t1, &l1, NULL);
        nesvm_model_save_buffer(m2, &t2, &l2, NULL);
        CHECK_MSG(t1 && t2 && !strcmp(t1, t2), "%s: the two models save differently", name);
        /* saved again: format 3, the format-2 file's lines but for the
         * version, and its method newton now written (no longer the default) */
        char *s2 = t2 ? strip_params(t2) : NULL, *st = strip_params(text);
        CHECK_MSG(s2 && !strcmp(s2, st), "%s: saved again, the file differs beyond its param lines", name);
        CHECK_MSG(t2 && !strncmp(t2, "nesvm_model 3\n", 14) && (!no_method || strstr(t2, "\nparam method newton\n")),
                  "%s: saved again without format 3's 'param method newton'", name);
        free(s2);
        free(st);
        nesvm_free(t1);
        nesvm_free(t2);
    }
    free(v1);
    free(text);
    nesvm_model_destroy(m1);
    nesvm_model_destroy(m2);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_old_models PROJECT_ROOT\n");
        return 2;
    }
    snprintf(root, sizeof root, "%s", argv[1]);
    if (!mkdtemp(tmpdir) || !read_data()) {
        fprintf(stderr, "cannot read %s\n", HEART);
        return 2;
    }
    /* part 1: the files of tests/golden/old */
    char dirpath[4200], *names[256];
    int n = 0;
    snprintf(dirpath, sizeof dirpath, "%s/tests/golden/old", root);
    DIR *d = opendir(dirpath);
    for (struct dirent *e; d && (e = readdir(d)) && n < 256;) {
        size_t l = strlen(e->d_name);
        if (l > 6 && !strcmp(e->d_name + l - 6, ".model")) names[n++] = strndup(e->d_name, l - 6);
    }
    if (d) closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    CHECK_MSG(n >= 19, "%d old model files in %s", n, dirpath);
    for (int i = 0; i < n; i++) {
        check_old_file(names[i]);
        free(names[i]);
    }
    /* part 2: every golden model against its format-1 hash */
    snprintf(dirpath, sizeof dirpath, "%s/tests/golden/old/golden_v1.fnv", root);
    char *list = slurp(dirpath);
    int golden = 0;
    CHECK_MSG(list != NULL, "no %s", dirpath);
    char *sp;
    for (char *line = list ? strtok_r(list, "\n", &sp) : NULL; line; line = strtok_r(NULL, "\n", &sp)) {
        char name[256], hash[32];
        if (line[0] == '#' || sscanf(line, "%255s %31s", name, hash) != 2) continue;
        check_golden(name, hash);
        golden++;
    }
    free(list);
    CHECK_MSG(golden == 49, "%d golden files checked", golden);
    printf("%d old files, %d golden files\n", n, golden);
    nesvm_dataset_destroy(heart);
    nesvm_dataset_destroy(three);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0) return 2;
    CHECK_DONE();
}
